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
    /// Play in-process games between two engine settings (A and B) and
    /// print each game as `score<TAB>GameString` (A's score), then the total.
    Selfplay {
        /// Pairs of games (colours swapped within a pair).
        #[arg(long, default_value_t = 10)]
        pairs: usize,
        /// Node budget per move for A.
        #[arg(long, default_value_t = 20_000)]
        nodes: u64,
        /// Time per move in milliseconds for both sides (instead of nodes).
        #[arg(long)]
        movetime_ms: Option<u64>,
        /// Node budget per move for B (default: A's).
        #[arg(long)]
        b_nodes: Option<u64>,
        /// Search threads for B (A uses one).
        #[arg(long, default_value_t = 1)]
        b_threads: usize,
        /// Late-move reduction divisor for B (smaller reduces more).
        #[arg(long)]
        b_lmr_divisor: Option<f64>,
        /// Give B the opposite setting of null-move pruning.
        #[arg(long)]
        b_flip_null: bool,
        /// Give B the opposite setting of late-move reductions.
        #[arg(long)]
        b_flip_lmr: bool,
        /// Give B the opposite setting of reverse futility pruning.
        #[arg(long)]
        b_flip_rfp: bool,
        /// Give B the opposite setting of the surround-threat extension.
        #[arg(long)]
        b_flip_ext: bool,
        /// Give B the hand-picked evaluation weights (A plays the tuned ones).
        #[arg(long)]
        b_hand_picked: bool,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game type (Base, Base+MLP, ...).
        #[arg(long, default_value = "Base")]
        game_type: String,
    },
    /// Fit the evaluation weights to self-play results (Texel method),
    /// starting from the hand-picked weights, and print them for
    /// `src/engine/params.rs`.
    Tune {
        /// Data file of `White's score<TAB>GameString` lines.
        #[arg(default_value = "tuning/selfplay.txt")]
        data: String,
        /// First play this many self-play games into the data file
        /// (overwriting it), alternating Base and Base+MLP.
        #[arg(long)]
        generate: Option<usize>,
        /// Node budget per move when generating.
        #[arg(long, default_value_t = 3_000)]
        nodes: u64,
        /// Seed of the random openings when generating.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
        /// Adam iterations.
        #[arg(long, default_value_t = 2_000)]
        iterations: usize,
        /// Ridge pull toward the start weights (per centi-liberty²).
        #[arg(long, default_value_t = 1e-7)]
        ridge: f64,
        /// Start (and, when generating, play) from the current DEFAULT
        /// weights instead of the hand-picked ones: a second tuning round.
        #[arg(long)]
        from_default: bool,
    },
    /// Search the fixed bench positions at a fixed depth (one thread unless
    /// --threads is given, cleared tables) and print the node counts; the
    /// total signs commits that change the search.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = waggle::engine::bench::BENCH_DEPTH)]
        depth: u32,
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
        Some(Command::Selfplay {
            pairs,
            nodes,
            b_nodes,
            movetime_ms,
            b_lmr_divisor,
            b_threads,
            b_flip_null,
            b_flip_lmr,
            b_flip_rfp,
            b_flip_ext,
            b_hand_picked,
            seed,
            game_type,
        }) => {
            use waggle::engine::{EvalWeights, Features};
            use waggle::tools::selfplay::{elo, play_match, Player};
            let Some(gt) = waggle::hive::GameType::parse(&game_type) else {
                eprintln!("error: unknown game type '{game_type}'");
                return ExitCode::FAILURE;
            };
            let a = Player {
                weights: EvalWeights::DEFAULT,
                features: Features::DEFAULT,
                nodes,
                move_time: movetime_ms.map(std::time::Duration::from_millis),
                lmr_divisor: None,
                threads: 1,
            };
            let b = Player {
                weights: if b_hand_picked {
                    EvalWeights::HAND_PICKED
                } else {
                    EvalWeights::DEFAULT
                },
                features: Features {
                    null_move: Features::DEFAULT.null_move != b_flip_null,
                    lmr: Features::DEFAULT.lmr != b_flip_lmr,
                    rfp: Features::DEFAULT.rfp != b_flip_rfp,
                    threat_extension: Features::DEFAULT.threat_extension != b_flip_ext,
                },
                nodes: b_nodes.unwrap_or(nodes),
                move_time: movetime_ms.map(std::time::Duration::from_millis),
                lmr_divisor: b_lmr_divisor,
                threads: b_threads,
            };
            let (points, games, _) = play_match(gt, &a, &b, pairs, seed, |r, s| {
                println!("{s}\t{}", r.game_string);
            });
            println!(
                "A: {points}/{games} ({:.1}%), Elo {:+.0}",
                100.0 * points / games as f64,
                elo(points / games as f64)
            );
            ExitCode::SUCCESS
        }
        Some(Command::Tune {
            data,
            generate,
            nodes,
            seed,
            iterations,
            ridge,
            from_default,
        }) => match run_tune(
            &data,
            generate,
            nodes,
            seed,
            iterations,
            ridge,
            from_default,
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Bench { depth }) => {
            let threads = cli.threads.unwrap_or(1);
            let result = waggle::engine::bench::run(depth, threads, |i, line| {
                let ms = line.elapsed.as_millis();
                println!(
                    "{i:>3} {:>10} nodes {ms:>6} ms  {}",
                    line.nodes, line.game_string
                );
            });
            match result {
                Ok((nodes, time)) => {
                    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
                    println!("Bench: {nodes} nodes {nps} nps");
                    ExitCode::SUCCESS
                }
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

fn run_tune(
    data: &str,
    generate: Option<usize>,
    nodes: u64,
    seed: u64,
    iterations: usize,
    ridge: f64,
    from_default: bool,
) -> Result<(), String> {
    use waggle::engine::{EvalWeights, Features};
    use waggle::tools::selfplay::{play_game, Rng};
    use waggle::tools::tune;
    if let Some(games) = generate {
        // Round one plays and fits from the hand-picked weights with every
        // pruning technique on (null move included), as the committed
        // tuning/selfplay.txt was made; round two (--from-default) plays
        // the engine as it is.
        let player = waggle::tools::selfplay::Player {
            weights: if from_default {
                EvalWeights::DEFAULT
            } else {
                EvalWeights::HAND_PICKED
            },
            features: if from_default {
                Features::DEFAULT
            } else {
                Features::ALL
            },
            nodes,
            move_time: None,
            lmr_divisor: None,
            threads: 1,
        };
        let mut rng = Rng::new(seed);
        let round = if from_default { " --from-default" } else { "" };
        let mut text = format!(
            "# waggle tune --generate {games} --nodes {nodes} --seed {seed}{round}: self-play games,\n\
             # 6 random opening plies, then {nodes}-node searches; White's score<TAB>GameString.\n"
        );
        for i in 0..games {
            let gt = if i % 2 == 0 {
                waggle::hive::GameType::BASE
            } else {
                waggle::hive::GameType::MLP
            };
            let r = play_game(gt, &player, &player, 6, 300, rng.next_u64());
            eprintln!("game {}: {} in {} plies", i + 1, r.white_score, r.plies);
            text.push_str(&format!("{}\t{}\n", r.white_score, r.game_string));
        }
        if let Some(dir) = std::path::Path::new(data).parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(data, text).map_err(|e| format!("{data}: {e}"))?;
    }
    let text = std::fs::read_to_string(data).map_err(|e| format!("{data}: {e}"))?;
    let (train, test) = tune::samples(&text, 6)?;
    let start = if from_default {
        EvalWeights::DEFAULT
    } else {
        EvalWeights::HAND_PICKED
    };
    let w0: Vec<f64> = start.to_vec().into_iter().map(f64::from).collect();
    let scale = tune::fit_scale(&train, &w0);
    println!(
        "{} training and {} hold-out positions; scale {scale:.0}",
        train.len(),
        test.len()
    );
    println!(
        "start: train {:.5} hold-out {:.5}",
        tune::error(&train, &w0, scale),
        tune::error(&test, &w0, scale)
    );
    let fitted = tune::fit(&train, &start, scale, iterations, ridge, |it, e| {
        eprintln!("iteration {it}: train {e:.5}");
    });
    let w1: Vec<f64> = fitted.to_vec().into_iter().map(f64::from).collect();
    println!(
        "fitted: train {:.5} hold-out {:.5}",
        tune::error(&train, &w1, scale),
        tune::error(&test, &w1, scale)
    );
    println!("{fitted:#?}");
    Ok(())
}
