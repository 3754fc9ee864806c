//! The `waggle` binary: the UHP engine (no arguments) and its tools.

use clap::{Parser, Subcommand};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use waggle::engine::EngineOptions;
use waggle::uhp::{Interrupt, UhpServer};

#[derive(Parser)]
#[command(
    name = "waggle",
    version,
    about = "A Hive engine speaking the Universal Hive Protocol"
)]
struct Cli {
    /// Search threads for the UHP engine (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal game tree (last ply bulk-counted).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position to start from (default: a new Base game).
        #[arg(default_value = "Base;NotStarted;White[1]")]
        game_string: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            run_uhp(cli.threads);
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            game_string,
            divide,
        }) => {
            match waggle::tools::perft::run(depth, &game_string, divide, cli.threads.unwrap_or(1)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn run_uhp(threads: Option<usize>) {
    let interrupt = Arc::new(Interrupt::default());
    let handler_flags = Arc::clone(&interrupt);
    // SIGINT during a search answers with the best move so far; when idle it
    // ends the engine, as Mzinga does.
    let _ = ctrlc::set_handler(move || {
        if handler_flags.busy.load(Ordering::SeqCst) {
            handler_flags.stop.store(true, Ordering::SeqCst);
        } else {
            let _ = std::io::stdout().flush();
            std::process::exit(130);
        }
    });
    let mut options = EngineOptions::default();
    if let Some(t) = threads {
        options.threads = t.clamp(1, waggle::uhp::MAX_THREADS);
    }
    let stdout = BufWriter::new(std::io::stdout().lock());
    let mut server = UhpServer::with_options(stdout, options, interrupt);
    server.greet();
    server.run(std::io::stdin().lock());
}
