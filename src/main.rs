//! The `waggle` binary: the UHP engine (no arguments) and its tools.

use clap::{Parser, Subcommand, ValueEnum};
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
    /// Search threads (default: all cores for the UHP engine, one for perft,
    /// bench and analyse). For spsa: games played at once, each searched by
    /// one thread (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Plays with a weight or search parameter set to a value, by the names
    /// `waggle spsa --param` takes (`--set mobile.A=50 --set
    /// futility_margin=175`): the UHP engine, bench and analyse, so that a
    /// match or a bench can try tuned values without a rebuild. Weights set
    /// apply in every game type; `GAMETYPE:NAME=VALUE` (`--set
    /// Base:mobile.A=70`) sets one for games of that type only, over any set
    /// for all. Give it once per value.
    #[arg(long = "set", global = true, value_name = "[GAMETYPE:]NAME=VALUE")]
    set: Vec<String>,
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
    /// Play games between UHP engines: a match, a gauntlet or a round-robin.
    Arena(Box<ArenaArgs>),
    /// Search positions (GameStrings as arguments, or one per line on stdin)
    /// and print best move, score, depth, nodes and principal variation.
    /// Searches with one thread unless --threads is given.
    Analyse {
        /// GameStrings to analyse (default: read one per line from stdin).
        game_strings: Vec<String>,
        /// Depth limit in plies (default 3 when no other limit is given).
        #[arg(long)]
        depth: Option<u32>,
        /// Time limit in seconds per line (e.g. 0.5).
        #[arg(long, value_parser = waggle::tools::arena::parse_seconds)]
        time: Option<std::time::Duration>,
        /// Node limit per line.
        #[arg(long)]
        nodes: Option<u64>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Report the N best moves, each with its own search.
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// What a draw costs the side to move, in centi-liberties, at most
        /// 1000 either way (the UHP engine's `Contempt` option plays with 25;
        /// analysis scores draws 0).
        #[arg(long, default_value_t = 0, allow_hyphen_values = true,
              value_parser = clap::value_parser!(i32)
                  .range(-i64::from(waggle::uhp::MAX_CONTEMPT)..=i64::from(waggle::uhp::MAX_CONTEMPT)))]
        contempt: i32,
        /// One JSON object per position (schema in src/tools/analyse.rs).
        #[arg(long)]
        json: bool,
        /// Draw each position: the hive on its grid, stacks and pieces in
        /// hand (a `board` field with --json).
        #[arg(long)]
        board: bool,
    },
    /// Compare legal moves with another UHP engine along seeded random games.
    UhpDiff {
        /// The other engine's command line (`self` is this binary).
        engine: String,
        /// Random games to walk.
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Plies per game at most.
        #[arg(long, default_value_t = 60)]
        plies: u32,
        /// Seed of the random walk.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game type (Base, Base+M, …, Base+MLP).
        #[arg(long, default_value = "Base+MLP", value_parser = parse_game_type)]
        game_type: waggle::hive::GameType,
        /// Seconds the other engine may take per command.
        #[arg(long, default_value = "10", value_parser = waggle::tools::arena::parse_seconds)]
        timeout: std::time::Duration,
        /// An option for the other engine, `Name=Value` (repeatable).
        #[arg(long = "option")]
        options: Vec<String>,
        /// End our games on threefold repetition (off: UHP engines do not).
        #[arg(long)]
        repetition_draw: bool,
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
        /// Give B the opposite setting of late-move pruning.
        #[arg(long)]
        b_flip_lmp: bool,
        /// Give B the opposite setting of futility pruning.
        #[arg(long)]
        b_flip_futility: bool,
        /// Give B the opposite setting of the win check at the leaves.
        #[arg(long)]
        b_flip_leaf_win: bool,
        /// Give B the opposite setting of internal iterative reduction.
        #[arg(long)]
        b_flip_iir: bool,
        /// Give B the opposite setting of the singular extension.
        #[arg(long)]
        b_flip_singular: bool,
        /// Give B the hand-picked evaluation weights (A plays the tuned ones).
        #[arg(long)]
        b_hand_picked: bool,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Game type (Base, Base+MLP, ...).
        #[arg(long, default_value = "Base", value_parser = parse_game_type)]
        game_type: waggle::hive::GameType,
    },
    /// Fit the evaluation weights to self-play results (Texel method),
    /// starting from the hand-picked weights (or --start), and print them
    /// for `src/engine/params.rs`.
    Tune {
        /// Data file of `White's score<TAB>GameString` lines.
        #[arg(default_value = "tuning/selfplay.txt")]
        data: String,
        /// First play this many self-play games into the data file
        /// (overwriting it), alternating Base and Base+MLP.
        #[arg(long)]
        generate: Option<usize>,
        /// Generate games of this game type only (`Base`, `Base+MLP`, …)
        /// instead of alternating Base and Base+MLP.
        #[arg(long, value_parser = parse_game_type, requires = "generate")]
        game_type: Option<waggle::hive::GameType>,
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
        /// weights instead of the hand-picked ones: the same as
        /// `--start default`.
        #[arg(long, conflicts_with = "start")]
        from_default: bool,
        /// The weights to start from (and, when generating, to play with).
        #[arg(long, value_enum, default_value_t = StartWeights::HandPicked)]
        start: StartWeights,
        /// The games held out to measure the fit on: every tenth of each
        /// game type, or every tenth line of the file as rounds one to ten
        /// were fitted (on generated files, Base+MLP games only).
        #[arg(long, value_enum, default_value_t = waggle::tools::tune::HoldOut::ByGameType)]
        hold_out: waggle::tools::tune::HoldOut,
        /// Blend into each training target the score of a search this many
        /// plies deep with the start weights (see --lambda).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
        search_depth: Option<u32>,
        /// The search score's share of each training target, 0 to 1 (the
        /// game result has the rest).
        #[arg(long, default_value_t = 0.5, requires = "search_depth")]
        lambda: f64,
        /// Keep the search scores in this file: read them if it exists (made
        /// with the same data, depth and start), else write them.
        #[arg(long, requires = "search_depth")]
        scores: Option<String>,
    },
    /// Tune a few evaluation weights by game results (SPSA, as fishtest
    /// runs it): each step plays a pair of in-process games between the
    /// weights nudged up and down by random signs and moves them toward the
    /// winner; prints the weights after each batch, then the tuned weights
    /// for `src/engine/params.rs`.
    Spsa(SpsaArgs),
    /// Search the fixed bench positions at a fixed depth (one thread unless
    /// --threads is given, cleared tables) and print the node counts; the
    /// total signs commits that change the search.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = waggle::engine::bench::BENCH_DEPTH)]
        depth: u32,
        /// Search each position for this many seconds instead of to a
        /// depth (with the default table size), and show the depth reached.
        #[arg(long, value_parser = waggle::tools::arena::parse_seconds)]
        movetime: Option<std::time::Duration>,
    },
}

/// Arguments of `waggle spsa`.
#[derive(clap::Args)]
struct SpsaArgs {
    /// A weight to tune, by name: a field of `EvalWeights` with an
    /// array's entry after a dot (`mobile.B`, `in_hand.A`,
    /// `beetle_by_queen`, `queen_surround.3`), or a search parameter, a
    /// field of `SearchParams` (`futility_margin`, `lmr_divisor`, …),
    /// optionally with its own last perturbation as `NAME:C_END`. Give it
    /// once per weight.
    #[arg(long = "param", required = true)]
    params: Vec<String>,
    /// Game type of the games.
    #[arg(long, default_value = "Base+MLP", value_parser = parse_game_type)]
    game_type: waggle::hive::GameType,
    /// The weights to start from (default: those the engine plays the
    /// game type with).
    #[arg(long, value_enum)]
    start: Option<StartWeights>,
    /// Steps: pairs of games (one opening, colours swapped).
    #[arg(long, default_value_t = 1_000)]
    pairs: usize,
    /// Node budget per move.
    #[arg(long, default_value_t = 30_000)]
    nodes: u64,
    /// The perturbation at the last step, in centi-liberties (fishtest's
    /// c_end), for weights without their own (a search parameter without
    /// its own has `SearchParams::C_END`'s).
    #[arg(long, default_value_t = 6.0)]
    c_end: f64,
    /// The learning rate at the last step (fishtest's r_end): the last
    /// step moves a weight by r_end·c_end per point of the pair.
    #[arg(long, default_value_t = 0.02)]
    r_end: f64,
    /// Pairs played at once, all from the same weights (default: one
    /// per thread).
    #[arg(long)]
    batch: Option<usize>,
    /// Seed of the random signs and openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Arguments of `waggle arena`.
#[derive(clap::Args)]
struct ArenaArgs {
    /// An engine: a command line (`self` is this binary), or fields
    /// `cmd=<command line>,name=<name>,option.<Name>=<value>,depth=<N>,time=<s>,nodes=<N>`.
    /// Give it once per engine.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Fields added to every engine unless it sets them itself,
    /// e.g. `option.Threads=1`.
    #[arg(long)]
    each: Option<String>,
    /// Pairing scheme (default: match for two engines, gauntlet for more).
    #[arg(long, value_enum)]
    mode: Option<waggle::tools::arena::Mode>,
    /// Games per pairing (each opening is played twice, colours swapped).
    /// Default 20, or 20000 with --sprt.
    #[arg(long)]
    games: Option<u32>,
    /// Openings file: one GameString per line, '#' comments
    /// (default: the built-in bench-positions/openings.txt).
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Depth per move in plies (the default, 2, when no limit is given).
    #[arg(long, conflicts_with_all = ["time", "nodes", "clock"])]
    depth: Option<u32>,
    /// Time per move in seconds (e.g. 0.5).
    #[arg(long, value_parser = waggle::tools::arena::parse_seconds, conflicts_with_all = ["nodes", "clock"])]
    time: Option<std::time::Duration>,
    /// Nodes per move (`bestmove nodes N`, a UHP extension that Waggle has).
    #[arg(long, conflicts_with = "clock")]
    nodes: Option<u64>,
    /// A game clock, `SECONDS[+INCREMENT]` (e.g. 60+0.5), sent as
    /// `bestmove clock <white_ms> <black_ms> <white_inc_ms> <black_inc_ms>`
    /// (a UHP extension that Waggle has); a side whose clock runs out loses.
    #[arg(long, value_parser = parse_clock)]
    clock: Option<(std::time::Duration, std::time::Duration)>,
    /// Seconds an engine may take for one move before it counts as hung
    /// (default: 1.5 times the time per move, at least 1 s; 60 s with a depth).
    #[arg(long, value_parser = waggle::tools::arena::parse_seconds)]
    move_timeout: Option<std::time::Duration>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// A game still going after this many plies is drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Adjudicate a game once both engines agree on a decisive score for
    /// this many moves each (0: never).
    #[arg(long, default_value_t = 0)]
    resign_moves: u32,
    /// The score (in the engines' printed units, Waggle's are queen
    /// liberties) from which a side counts as lost.
    #[arg(long, default_value_t = 5.0)]
    resign_score: f64,
    /// Run an SPRT of the first engine against the second, H0: Elo <= elo0
    /// against H1: Elo >= elo1, given as `elo0,elo1[,alpha,beta]` (alpha and
    /// beta default to 0.05); the match stops once it is decided.
    #[arg(long)]
    sprt: Option<String>,
    /// Don't end games in a draw on threefold repetition.
    #[arg(long)]
    no_repetition_draw: bool,
    /// Folder for PGN files, games.txt, results.csv and arena.log.
    #[arg(long, default_value = "arena-games")]
    out: std::path::PathBuf,
    /// Don't draw the progress bar.
    #[arg(long)]
    no_progress: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut overrides = waggle::engine::params::Overrides::default();
    for assignment in &cli.set {
        if let Err(e) = overrides.set_assignment(assignment) {
            eprintln!("error: --set {e}");
            return ExitCode::from(2);
        }
    }
    let takes_set = matches!(
        cli.command,
        None | Some(Command::Bench { .. } | Command::Analyse { .. })
    );
    if !overrides.is_empty() && !takes_set {
        eprintln!("error: --set applies to the UHP engine, bench and analyse only");
        return ExitCode::from(2);
    }
    match cli.command {
        None => {
            run_uhp(cli.threads, overrides);
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
            b_flip_lmp,
            b_flip_futility,
            b_flip_leaf_win,
            b_flip_iir,
            b_flip_singular,
            b_hand_picked,
            seed,
            game_type: gt,
        }) => {
            use waggle::engine::params::{self, SearchParams};
            use waggle::engine::{EvalWeights, Features};
            use waggle::tools::selfplay::{elo, play_match, Player};
            let a = Player {
                weights: EvalWeights::for_game_type(gt).clone(),
                features: Features::DEFAULT,
                nodes,
                move_time: movetime_ms.map(std::time::Duration::from_millis),
                search: SearchParams::DEFAULT,
                threads: 1,
            };
            let b = Player {
                weights: if b_hand_picked {
                    EvalWeights::HAND_PICKED
                } else {
                    EvalWeights::for_game_type(gt).clone()
                },
                features: Features {
                    null_move: Features::DEFAULT.null_move != b_flip_null,
                    lmr: Features::DEFAULT.lmr != b_flip_lmr,
                    rfp: Features::DEFAULT.rfp != b_flip_rfp,
                    threat_extension: Features::DEFAULT.threat_extension != b_flip_ext,
                    lmp: Features::DEFAULT.lmp != b_flip_lmp,
                    futility: Features::DEFAULT.futility != b_flip_futility,
                    leaf_win: Features::DEFAULT.leaf_win != b_flip_leaf_win,
                    iir: Features::DEFAULT.iir != b_flip_iir,
                    singular: Features::DEFAULT.singular != b_flip_singular,
                },
                nodes: b_nodes.unwrap_or(nodes),
                move_time: movetime_ms.map(std::time::Duration::from_millis),
                search: SearchParams {
                    lmr_divisor: b_lmr_divisor.map_or(params::LMR_DIVISOR, |d| d.max(0.1)),
                    ..SearchParams::DEFAULT
                },
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
            game_type,
            nodes,
            seed,
            iterations,
            ridge,
            from_default,
            start,
            hold_out,
            search_depth,
            lambda,
            scores,
        }) => match run_tune(
            &data,
            generate,
            game_type,
            nodes,
            seed,
            Fit {
                iterations,
                ridge,
                hold_out,
                search: search_depth.map(|depth| SearchTargets {
                    depth,
                    lambda,
                    file: scores,
                }),
            },
            if from_default {
                StartWeights::Default
            } else {
                start
            },
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Spsa(args)) => {
            let run = || run_spsa(args);
            let result = match cli.threads {
                Some(n) => rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build()
                    .map_err(|e| e.to_string())
                    .and_then(|pool| pool.install(run)),
                None => run(),
            };
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Analyse {
            game_strings,
            depth,
            time,
            nodes,
            hash,
            multipv,
            contempt,
            json,
            board,
        }) => {
            use waggle::tools::analyse::{self, AnalyseConfig};
            let no_limit = depth.is_none() && time.is_none() && nodes.is_none();
            let cfg = AnalyseConfig {
                depth: if no_limit { Some(3) } else { depth },
                time,
                nodes,
                threads: cli.threads.unwrap_or(1),
                hash_mb: hash,
                multipv,
                contempt,
                board,
                overrides,
            };
            let mut inputs = if game_strings.is_empty() {
                analyse::lines_of(std::io::BufReader::new(std::io::stdin()))
            } else {
                Box::new(game_strings.into_iter().map(Ok))
            };
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            match analyse::run(&mut inputs, &cfg, json, &mut out) {
                Ok(0) => ExitCode::SUCCESS,
                Ok(n) => {
                    eprintln!("error: {n} position(s) could not be read");
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::UhpDiff {
            engine,
            games,
            plies,
            seed,
            game_type,
            timeout,
            options,
            repetition_draw,
        }) => {
            let run = || -> Result<u64, String> {
                use waggle::tools::uhp_diff::{self, DiffConfig};
                let command =
                    waggle::tools::uhp_client::EngineCommand::parse(&engine)?.resolve_self()?;
                let options = options
                    .iter()
                    .map(|o| {
                        o.split_once('=')
                            .map(|(n, v)| (n.to_string(), v.to_string()))
                            .ok_or_else(|| format!("--option {o}: expected Name=Value"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let cfg = DiffConfig {
                    command,
                    games,
                    plies,
                    seed,
                    game_type,
                    timeout,
                    options,
                    repetition_draw,
                };
                let stdout = std::io::stdout();
                let summary = uhp_diff::run(&cfg, &mut stdout.lock())?;
                Ok(summary.differing)
            };
            match run() {
                Ok(0) => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Arena(args)) => match arena(*args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Bench { depth, movetime }) => {
            use waggle::engine::bench::{self, BenchLimit};
            let threads = cli.threads.unwrap_or(1);
            let limit = movetime.map_or(BenchLimit::Depth(depth), BenchLimit::Time);
            let result = bench::run(limit, threads, &overrides, |i, line| {
                let ms = line.elapsed.as_millis();
                println!(
                    "{i:>3} {:>10} nodes {ms:>6} ms depth {:>2}  {}",
                    line.nodes, line.depth, line.game_string
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

/// Reads a clock `SECONDS[+INCREMENT]`.
fn parse_clock(s: &str) -> Result<(std::time::Duration, std::time::Duration), String> {
    use waggle::tools::arena::parse_seconds;
    match s.split_once('+') {
        Some((base, inc)) => Ok((parse_seconds(base)?, parse_seconds(inc)?)),
        None => Ok((parse_seconds(s)?, std::time::Duration::ZERO)),
    }
}

fn arena(a: ArenaArgs) -> Result<(), String> {
    use waggle::tools::arena::{self, ArenaConfig, EngineSpec, Mode, Resign};
    use waggle::tools::stats::Sprt;
    let mut engines = Vec::new();
    for e in &a.engines {
        let mut spec = EngineSpec::parse(e)?;
        if let Some(each) = &a.each {
            spec.apply_each(each)?;
        }
        engines.push(spec);
    }
    let openings = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            arena::read_openings(&text)?
        }
        None => arena::read_openings(arena::DEFAULT_OPENINGS)?,
    };
    let sprt = match &a.sprt {
        None => None,
        Some(text) => {
            let v: Vec<f64> = text
                .split(',')
                .map(|x| x.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("--sprt {text}: expected elo0,elo1[,alpha,beta]"))?;
            let (elo0, elo1, alpha, beta) = match v.as_slice() {
                [e0, e1] => (*e0, *e1, 0.05, 0.05),
                [e0, e1, a, b] => (*e0, *e1, *a, *b),
                _ => return Err(format!("--sprt {text}: expected elo0,elo1[,alpha,beta]")),
            };
            let ok = |p: f64| p > 0.0 && p < 0.5;
            if elo1 <= elo0 || !ok(alpha) || !ok(beta) {
                return Err(format!(
                    "--sprt {text}: need elo0 < elo1 and 0 < alpha, beta < 0.5"
                ));
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
        }
    };
    let mode = a.mode.unwrap_or(if engines.len() == 2 {
        Mode::Match
    } else {
        Mode::Gauntlet
    });
    let cfg = ArenaConfig {
        engines,
        mode,
        games: a
            .games
            .unwrap_or(if sprt.is_some() { 20_000 } else { 20 })
            .max(1),
        openings,
        depth: a.depth,
        time: a.time,
        nodes: a.nodes,
        clock: a.clock,
        move_timeout: a.move_timeout,
        concurrency: a.concurrency.max(1),
        max_plies: a.max_plies,
        resign: (a.resign_moves > 0).then_some(Resign {
            moves: a.resign_moves,
            score: a.resign_score,
        }),
        sprt,
        repetition_draw: !a.no_repetition_draw,
        out_dir: a.out,
        progress: !a.no_progress,
    };
    arena::run(&cfg).map(|_| ())
}

fn run_uhp(threads: Option<usize>, overrides: waggle::engine::params::Overrides) {
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
    server.set_overrides(overrides);
    server.greet();
    server.run(std::io::stdin().lock());
}

/// The weights `waggle tune` starts from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum StartWeights {
    /// `EvalWeights::HAND_PICKED` (round one).
    HandPicked,
    /// `EvalWeights::ROUND_ONE`, the weights round one fitted (round three
    /// started from them).
    RoundOne,
    /// `EvalWeights::ROUND_THREE`, the weights round three fitted (round
    /// four started from them).
    RoundThree,
    /// `EvalWeights::ROUND_FOUR`, the weights round four fitted (round five
    /// started from them).
    RoundFour,
    /// `EvalWeights::ROUND_FIVE`, the weights round five fitted (rounds six
    /// and seven started from them).
    RoundFive,
    /// `EvalWeights::ROUND_SEVEN`, the weights round seven fitted.
    RoundSeven,
    /// `EvalWeights::ROUND_ELEVEN_BASE`, the weights round eleven fitted on
    /// Base games (the engine's in Base games).
    RoundElevenBase,
    /// `EvalWeights::SPSA_ONE`, round seven's with five tuned by `waggle
    /// spsa` (SPSA two started from them).
    SpsaOne,
    /// `EvalWeights::SPSA_TWO`, SPSA one's with eight more tuned by `waggle
    /// spsa` (SPSA four started from them).
    SpsaTwo,
    /// `EvalWeights::DEFAULT`, the weights the engine plays games with
    /// expansions with (SPSA four's: SPSA two's with eight more tuned by
    /// `waggle spsa`).
    Default,
}

impl StartWeights {
    fn weights(self) -> waggle::engine::EvalWeights {
        use waggle::engine::EvalWeights;
        match self {
            StartWeights::HandPicked => EvalWeights::HAND_PICKED,
            StartWeights::RoundOne => EvalWeights::ROUND_ONE,
            StartWeights::RoundThree => EvalWeights::ROUND_THREE,
            StartWeights::RoundFour => EvalWeights::ROUND_FOUR,
            StartWeights::RoundFive => EvalWeights::ROUND_FIVE,
            StartWeights::RoundSeven => EvalWeights::ROUND_SEVEN,
            StartWeights::RoundElevenBase => EvalWeights::ROUND_ELEVEN_BASE,
            StartWeights::SpsaOne => EvalWeights::SPSA_ONE,
            StartWeights::SpsaTwo => EvalWeights::SPSA_TWO,
            StartWeights::Default => EvalWeights::DEFAULT,
        }
    }
}

/// How `waggle tune` fits: Adam's iterations, the ridge pull and the games
/// held out.
struct Fit {
    iterations: usize,
    ridge: f64,
    hold_out: waggle::tools::tune::HoldOut,
    search: Option<SearchTargets>,
}

/// `waggle tune --search-depth`: training targets blended with search
/// scores.
struct SearchTargets {
    depth: u32,
    lambda: f64,
    file: Option<String>,
}

/// A GameTypeString for clap (`--game-type` of selfplay, uhp-diff and tune).
fn parse_game_type(s: &str) -> Result<waggle::hive::GameType, String> {
    waggle::hive::GameType::parse(s).ok_or_else(|| format!("not a game type: {s}"))
}

fn run_tune(
    data: &str,
    generate: Option<usize>,
    game_type: Option<waggle::hive::GameType>,
    nodes: u64,
    seed: u64,
    fit: Fit,
    start: StartWeights,
) -> Result<(), String> {
    use rayon::prelude::*;
    use waggle::engine::Features;
    use waggle::tools::selfplay::{play_game, Rng};
    use waggle::tools::tune;
    let Fit {
        iterations,
        ridge,
        hold_out,
        search,
    } = fit;
    if let Some(games) = generate {
        // Round one plays and fits from the hand-picked weights with every
        // pruning technique on (null move included), as the committed
        // tuning/selfplay.txt was made; later rounds play the engine as it
        // is with the weights they start from.
        let player = waggle::tools::selfplay::Player {
            weights: start.weights(),
            features: if start == StartWeights::HandPicked {
                Features::ALL
            } else {
                Features::DEFAULT
            },
            nodes,
            move_time: None,
            search: waggle::engine::params::SearchParams::DEFAULT,
            threads: 1,
        };
        let mut rng = Rng::new(seed);
        // The data file's header names the start as the command line did
        // (clap's name for it; round one's header has none).
        let round = match start {
            StartWeights::HandPicked => String::new(),
            StartWeights::Default => " --from-default".to_string(),
            other => other
                .to_possible_value()
                .map(|v| format!(" --start {}", v.get_name()))
                .unwrap_or_default(),
        };
        let only = game_type
            .map(|gt| format!(" --game-type {gt}"))
            .unwrap_or_default();
        let mut text = format!(
            "# waggle tune --generate {games}{only} --nodes {nodes} --seed {seed}{round}: self-play games,\n\
             # 6 random opening plies, then {nodes}-node searches; White's score<TAB>GameString.\n"
        );
        // Each game has its own seed and a node budget, so playing them in
        // parallel (one thread per core) gives the same file as one by one.
        let seeds: Vec<u64> = (0..games).map(|_| rng.next_u64()).collect();
        let records: Vec<_> = seeds
            .par_iter()
            .enumerate()
            .map(|(i, &seed)| {
                let gt = match game_type {
                    Some(gt) => gt,
                    None if i % 2 == 0 => waggle::hive::GameType::BASE,
                    None => waggle::hive::GameType::MLP,
                };
                let r = play_game(gt, &player, &player, 6, 300, seed);
                eprintln!("game {}: {} in {} plies", i + 1, r.white_score, r.plies);
                r
            })
            .collect();
        for r in records {
            text.push_str(&format!("{}\t{}\n", r.white_score, r.game_string));
        }
        if let Some(dir) = std::path::Path::new(data).parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(data, text).map_err(|e| format!("{data}: {e}"))?;
    }
    let text = std::fs::read_to_string(data).map_err(|e| format!("{data}: {e}"))?;
    let (mut train, test) = tune::samples(&text, 6, hold_out)?;
    let start_name = start
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    let start = start.weights();
    let w0: Vec<f64> = start.to_vec().into_iter().map(f64::from).collect();
    let scale = tune::fit_scale(&train, &w0);
    if let Some(search) = search {
        if !(0.0..=1.0).contains(&search.lambda) {
            return Err(format!("--lambda {} is not within 0 to 1", search.lambda));
        }
        // The scores file's first line says what the scores were made
        // with (the data by a hash of its text, as a file regenerated under
        // the same name differs), so that a file made otherwise is refused.
        let digest = {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            text.hash(&mut h);
            h.finish()
        };
        let header = format!(
            "# waggle tune {data} --search-depth {} --start {start_name}: {} training positions, data {digest:016x}",
            search.depth,
            train.len()
        );
        let scores = load_or_search_scores(&text, hold_out, &search, &start, &header)?;
        if scores.len() != train.len() {
            return Err(format!(
                "{} search scores for {} training positions",
                scores.len(),
                train.len()
            ));
        }
        println!(
            "start on the game results: train {:.5}",
            tune::error(&train, &w0, scale)
        );
        tune::blend_search_scores(&mut train, &scores, scale, search.lambda);
        println!(
            "training targets: {} parts depth-{} search score, {} parts game result",
            search.lambda,
            search.depth,
            1.0 - search.lambda
        );
    }
    println!(
        "{} training and {} hold-out positions; scale {scale:.0}",
        train.len(),
        test.len()
    );
    println!(
        "start: train {:.5} hold-out {:.5}{}",
        tune::error(&train, &w0, scale),
        tune::error(&test, &w0, scale),
        hold_out_by_type(&test, &w0, scale)
    );
    let fitted = tune::fit(&train, &start, scale, iterations, ridge, |it, e| {
        eprintln!("iteration {it}: train {e:.5}");
    });
    let w1: Vec<f64> = fitted.to_vec().into_iter().map(f64::from).collect();
    println!(
        "fitted: train {:.5} hold-out {:.5}{}",
        tune::error(&train, &w1, scale),
        tune::error(&test, &w1, scale),
        hold_out_by_type(&test, &w1, scale)
    );
    println!("{fitted:#?}");
    Ok(())
}

/// `waggle spsa`: parses the weights to tune and runs SPSA on rayon's
/// threads.
fn run_spsa(args: SpsaArgs) -> Result<(), String> {
    let SpsaArgs {
        params: names,
        game_type,
        start,
        pairs,
        nodes,
        c_end,
        r_end,
        batch,
        seed,
    } = args;
    let start = start.map(StartWeights::weights);
    use waggle::engine::params::SearchParams;
    use waggle::engine::EvalWeights;
    use waggle::tools::spsa::{self, Param};
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !positive(c_end) || !positive(r_end) {
        return Err(format!(
            "--c-end {c_end} and --r-end {r_end} must be above 0"
        ));
    }
    if pairs == 0 || nodes == 0 {
        return Err("--pairs and --nodes must be above 0".to_string());
    }
    let mut params: Vec<Param> = Vec::new();
    for spec in &names {
        let (name, c) = match spec.split_once(':') {
            Some((name, c)) => {
                let c: f64 =
                    c.parse().ok().filter(|&c| positive(c)).ok_or_else(|| {
                        format!("--param {spec}: the perturbation must be above 0")
                    })?;
                (name, Some(c))
            }
            None => (spec.as_str(), None),
        };
        let index = spsa::tunable_index(name).ok_or_else(|| {
            format!(
                "--param {name}: no such weight or search parameter (they are: {})",
                waggle::engine::params::tunable_names()
            )
        })?;
        if params.iter().any(|p| p.index == index) {
            return Err(format!("--param {name} is given twice"));
        }
        params.push(Param {
            index,
            c_end: c.unwrap_or_else(|| spsa::default_c_end(index, c_end)),
            r_end,
        });
    }
    let cfg = spsa::Config {
        game_type,
        start: start.unwrap_or_else(|| EvalWeights::for_game_type(game_type).clone()),
        start_search: SearchParams::DEFAULT,
        params,
        pairs,
        batch: batch.unwrap_or_else(rayon::current_num_threads).max(1),
        nodes,
        seed,
    };
    // `mobile.B 27.3, in_hand.A 12.0`: the tuned values' names and values
    // (as the start values are written without `decimals`).
    let listing = |values: &[f64], decimals: Option<usize>| {
        cfg.params
            .iter()
            .zip(values)
            .map(|(p, v)| {
                let name = spsa::tunable_name(p.index).unwrap_or_default();
                match decimals {
                    Some(decimals) => format!("{name} {v:.decimals$}"),
                    None => format!("{name} {v}"),
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let start_values = spsa::start_values(&cfg);
    let from: Vec<f64> = cfg.params.iter().map(|p| start_values[p.index]).collect();
    println!(
        "# waggle spsa {game_type}: {pairs} pairs at {nodes} nodes a move, {} at once, seed {seed}; from {}",
        cfg.batch,
        listing(&from, None)
    );
    let started = std::time::Instant::now();
    let theta = spsa::run(&cfg, |p| {
        let games = 2 * p.pairs;
        eprintln!(
            "pairs {}/{pairs}: plus sides {}/{games} ({:.1}%), {:.0} s; {}",
            p.pairs,
            p.plus_points,
            100.0 * p.plus_points / games as f64,
            started.elapsed().as_secs_f64(),
            listing(p.theta, Some(2))
        );
    });
    println!("tuned: {}", listing(&theta, Some(3)));
    let (weights, search) = spsa::tuned(&cfg, &theta);
    // The tuned values as the engine plays them, for a match without a
    // rebuild (weights rounded, search parameters kept where they work).
    let played = waggle::engine::params::tunable_values(&weights, &search);
    let sets: Vec<String> = cfg
        .params
        .iter()
        .map(|p| {
            let name = spsa::tunable_name(p.index).unwrap_or_default();
            format!("--set {name}={}", played[p.index])
        })
        .collect();
    println!("to play them: waggle {}", sets.join(" "));
    println!("{weights:#?}");
    if cfg.params.iter().any(|p| p.index >= EvalWeights::LEN) {
        println!("{search:#?}");
    }
    Ok(())
}

/// The search scores of `waggle tune --search-depth`: read from the
/// scores file if it exists (and its first line is `header`), else
/// searched (and written to that file, after `header`, when one is named).
fn load_or_search_scores(
    text: &str,
    hold_out: waggle::tools::tune::HoldOut,
    search: &SearchTargets,
    start: &waggle::engine::EvalWeights,
    header: &str,
) -> Result<Vec<f64>, String> {
    use waggle::tools::tune;
    if let Some(path) = &search.file {
        if let Ok(saved) = std::fs::read_to_string(path) {
            let mut lines = saved.lines();
            let first = lines.next().unwrap_or_default();
            if first != header {
                return Err(format!(
                    "{path} begins '{first}', not '{header}': scores of other data or settings"
                ));
            }
            let scores: Vec<f64> = lines
                .map(|l| l.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|e| format!("{path}: {e}"))?;
            println!("search scores read from {path}");
            return Ok(scores);
        }
    }
    let started = std::time::Instant::now();
    let scores = tune::search_scores(text, 6, hold_out, search.depth, start, |done, total| {
        if done % 100 == 0 || done == total {
            eprintln!(
                "searched {done} of {total} games ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    })?;
    if let Some(path) = &search.file {
        let mut lines = format!("{header}\n");
        for s in &scores {
            lines.push_str(&format!("{s}\n"));
        }
        std::fs::write(path, lines).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(scores)
}

/// The hold-out error of each game type in `test`, as ` (Base 0.15000 on
/// 20,000 positions, …)`, where it holds more than one type.
fn hold_out_by_type(test: &[waggle::tools::tune::Sample], w: &[f64], scale: f64) -> String {
    let mut types: Vec<waggle::hive::GameType> = Vec::new();
    for s in test {
        if !types.contains(&s.game_type) {
            types.push(s.game_type);
        }
    }
    if types.len() < 2 {
        return String::new();
    }
    let parts: Vec<String> = types
        .iter()
        .map(|&gt| {
            let part: Vec<_> = test.iter().filter(|s| s.game_type == gt).cloned().collect();
            format!(
                "{gt} {:.5} on {} positions",
                waggle::tools::tune::error(&part, w, scale),
                part.len()
            )
        })
        .collect();
    format!(" ({})", parts.join(", "))
}
