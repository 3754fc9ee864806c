//! `waggle arena`: games between UHP engines.
//!
//! Engines are given as command lines (Waggle itself as `self`), each with
//! its own UHP options and, if wanted, its own depth or time per move. The
//! arena plays a match (two engines), a gauntlet (the first engine against
//! each of the others) or a round-robin (every pair). Each opening from the
//! openings file is played twice with colours swapped. Several games run at
//! once (`--concurrency`), each worker thread owning its own engine processes.
//!
//! The arena is the referee: it keeps the game with Waggle's own rules and
//! checks every move with [`Game::play_str`] before passing it, spelled
//! canonically, to both engines. An engine that crashes, hangs (no `ok` within
//! the move timeout), answers `err` / `invalidmove`, or plays an illegal move
//! loses that game; the reason is logged and a dead or hung engine is
//! restarted before its next game. A game is drawn after `--max-plies` plies;
//! with `--resign-moves N` it is also adjudicated when, for N moves in a row
//! each, both engines report scores at least `--resign-score` in favour of
//! the same side (scores are read from `ReportIntermediateBestMoves` lines
//! `move;depth;score;pv…`, which the arena switches on when it resigns).
//!
//! Output, in `--out DIR`: one PGN file per game in Mzinga's format
//! ([`super::pgn`]), `games.txt` with one GameString per line, `results.csv`
//! (one row per game, in the same order as `games.txt`) and `arena.log`
//! (forfeits and restarts). On stdout: a table of W/D/L, score and Elo with
//! its 95% interval per engine and per pairing; per pairing also the game
//! pairs (the two games of one opening) by the points taken from each, with
//! the Elo interval from their spread; and with `--sprt` the log-likelihood
//! ratio on those pairs. The match stops as soon as the SPRT is decided.

mod engines;
mod output;
mod referee;

pub use engines::{parse_seconds, EngineSpec};
pub use referee::GameResult;

use crate::hive::game::Game;
use crate::hive::Rules;
use crate::tools::stats::{Sprt, SprtDecision, Wdl};
use crate::tools::uhp_client::UhpClient;
use indicatif::{ProgressBar, ProgressStyle};
use output::{report, Recorder, Tally};
use referee::{play_game, GameRecord, GameSpec, Seats};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The openings file that ships with Waggle, used when none is given.
pub const DEFAULT_OPENINGS: &str = include_str!("../../../bench-positions/openings.txt");

/// How long an engine may take to start and greet.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(15);
/// How long `newgame`, `play` and `options` may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// Who plays whom.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum Mode {
    /// Two engines against each other.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// Resignation adjudication.
#[derive(Copy, Clone, Debug)]
pub struct Resign {
    /// Consecutive moves of each side with an agreeing, decisive score.
    pub moves: u32,
    /// Score (in the engines' printed units) from which a side is lost.
    pub score: f64,
}

/// Everything an arena run needs.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// Pairing scheme.
    pub mode: Mode,
    /// Games per pairing (rounded up to an even number).
    pub games: u32,
    /// Opening GameStrings, each played twice.
    pub openings: Vec<String>,
    /// Depth per move (unless an engine sets its own).
    pub depth: Option<u32>,
    /// Time per move (unless an engine sets its own).
    pub time: Option<Duration>,
    /// Nodes per move (`bestmove nodes N`, an extension).
    pub nodes: Option<u64>,
    /// A game clock for both sides (`bestmove clock`, an extension):
    /// time at the start and increment per move.
    pub clock: Option<(Duration, Duration)>,
    /// How long an engine may think before it counts as hung.
    pub move_timeout: Option<Duration>,
    /// Games played at once.
    pub concurrency: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Optional resignation adjudication.
    pub resign: Option<Resign>,
    /// Optional SPRT (match mode only).
    pub sprt: Option<Sprt>,
    /// Whether threefold repetition ends a game in a draw.
    pub repetition_draw: bool,
    /// Output folder.
    pub out_dir: PathBuf,
    /// Whether to draw a progress bar (it is hidden anyway when stderr is
    /// not a terminal).
    pub progress: bool,
}

/// Reads an openings file: one GameString (or GameTypeString) per line;
/// blank lines and lines starting with `#` are skipped. Every opening is
/// checked with Waggle's rules.
///
/// # Errors
/// A line that is not a playable GameString, or no openings at all.
pub fn read_openings(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = Game::from_game_string(line, Rules::default(), false)
            .map_err(|e| format!("openings line {}: {e}", n + 1))?;
        if game.outcome().is_some() {
            return Err(format!("openings line {}: the game is already over", n + 1));
        }
        out.push(game.game_string());
    }
    if out.is_empty() {
        return Err("the openings file holds no opening".into());
    }
    Ok(out)
}

/// The games to play, interleaved by round so that partial results stay
/// balanced between pairings and colours.
fn schedule(cfg: &ArenaConfig) -> Vec<GameSpec> {
    let n = cfg.engines.len();
    let pairs: Vec<(usize, usize)> = match cfg.mode {
        Mode::Match => vec![(0, 1)],
        Mode::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Mode::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    };
    let rounds = cfg.games.div_ceil(2) as usize;
    let mut out = Vec::new();
    for round in 0..rounds {
        let opening = round % cfg.openings.len();
        for &(a, b) in &pairs {
            for (white, black) in [(a, b), (b, a)] {
                out.push(GameSpec {
                    index: out.len(),
                    round,
                    white,
                    black,
                    opening,
                });
            }
        }
    }
    out
}

/// Checks that every engine starts, greets and accepts its options.
fn preflight(cfg: &ArenaConfig) -> Result<(), String> {
    for spec in &cfg.engines {
        let mut c = UhpClient::spawn(&spec.command, STARTUP_TIMEOUT)
            .map_err(|e| format!("engine '{}' ({}): {e}", spec.name, spec.command))?;
        for (name, value) in &spec.options {
            c.send(&format!("options set {name} {value}"), COMMAND_TIMEOUT)
                .map_err(|e| format!("engine '{}': options set {name} {value}: {e}", spec.name))?;
        }
        for opening in &cfg.openings {
            let ty = opening.split(';').next().unwrap_or("Base");
            for (letter, bug) in [('M', "Mosquito"), ('L', "Ladybug"), ('P', "Pillbug")] {
                let needs = ty.strip_prefix("Base+").is_some_and(|l| l.contains(letter));
                if needs && !c.supports(bug) {
                    return Err(format!(
                        "engine '{}' does not announce {bug}, needed by the opening {opening}",
                        spec.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What a finished arena reports (for tests and callers).
#[derive(Clone, Debug)]
pub struct ArenaSummary {
    /// Results per engine, in the order given.
    pub engines: Vec<(String, Wdl)>,
    /// Games recorded.
    pub games: usize,
    /// The SPRT decision, when an SPRT ran.
    pub sprt: Option<SprtDecision>,
}

/// Runs the arena and prints the result table.
///
/// # Errors
/// Bad settings, an engine that cannot start, or output files that cannot be
/// written.
pub fn run(cfg: &ArenaConfig) -> Result<ArenaSummary, String> {
    let n = cfg.engines.len();
    match cfg.mode {
        Mode::Match if n != 2 => return Err(format!("a match needs 2 engines, not {n}")),
        _ if n < 2 => return Err("the arena needs at least 2 engines".into()),
        _ => {}
    }
    let mut names = std::collections::HashSet::new();
    for e in &cfg.engines {
        if !names.insert(e.name.clone()) {
            return Err(format!(
                "two engines are named '{}': give each a name=",
                e.name
            ));
        }
    }
    let sprt_pairs = match cfg.mode {
        Mode::Match => 1,
        Mode::Gauntlet => n - 1,
        Mode::RoundRobin => n * (n - 1) / 2,
    };
    if cfg.sprt.is_some() && sprt_pairs != 1 {
        return Err("an SPRT needs exactly one pairing (a match of two engines)".into());
    }
    preflight(cfg)?;
    let games = schedule(cfg);
    let total = games.len();
    let mut recorder = Recorder::new(cfg.out_dir.clone())?;
    let queue = parking_lot::Mutex::new(games.into_iter().collect::<VecDeque<_>>());
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Ctrl-C ends the arena after the results so far are printed; a
        // second one (the handler can be set only once) is left to the shell.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let bar = if cfg.progress {
        ProgressBar::new(total as u64)
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} games  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut tally = Tally::new(n);
    let mut recorded = 0usize;
    let mut decision = cfg.sprt.map(|_| SprtDecision::Continue);
    let mut write_error = None;
    let (tx, rx) = mpsc::channel::<GameRecord>();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(total.max(1)) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || {
                let mut seats = Seats {
                    cfg,
                    clients: (0..n).map(|_| None).collect(),
                    report_scores: vec![false; n],
                };
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let Some(spec) = queue.lock().pop_front() else {
                        return;
                    };
                    match play_game(cfg, &mut seats, spec, stop) {
                        Some(r) => {
                            if tx.send(r).is_err() {
                                return;
                            }
                        }
                        None => return,
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            if let Some((who, fault)) = r.forfeit {
                let next = if fault.needs_restart() {
                    "it is restarted for its next game"
                } else {
                    "it keeps running"
                };
                let line = format!(
                    "game {}: {} loses ({}); {next}",
                    r.spec.index + 1,
                    cfg.engines[who].name,
                    r.reason
                );
                bar.suspend(|| eprintln!("{line}"));
            }
            if let Err(e) = recorder.write(cfg, &r) {
                write_error = Some(e);
                stop.store(true, Ordering::SeqCst);
            }
            tally.add(&r);
            recorded += 1;
            bar.inc(1);
            let head = tally.pentas[0][1];
            let mut msg = format!(
                "{}: +{} ={} -{}",
                cfg.engines[0].name,
                tally.engines[0].wins,
                tally.engines[0].draws,
                tally.engines[0].losses
            );
            if let Some(sprt) = cfg.sprt {
                let _ = write!(msg, "  LLR {:.2}", sprt.llr(&head));
                let d = sprt.decision(&head);
                decision = Some(d);
                if d != SprtDecision::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            bar.set_message(msg);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    print!("{}", report(cfg, &tally, recorded, total, decision));
    Ok(ArenaSummary {
        engines: cfg
            .engines
            .iter()
            .zip(&tally.engines)
            .map(|(e, w)| (e.name.clone(), *w))
            .collect(),
        games: recorded,
        sprt: decision,
    })
}
