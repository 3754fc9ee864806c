//! Search and evaluation, on top of [`crate::hive`].
//!
//! The protocol layer talks to the engine only through [`Engine`]:
//! `new_game`, `search(position, limits, stop, on_iteration)`.
//!
//! * [`search`]: the tree walk (PVS, iterative deepening, aspiration);
//! * [`tt`]: the shared transposition table;
//! * [`ordering`]: move ordering;
//! * [`eval`] and [`params`]: the evaluation and every tuned number;
//! * [`time`](mod@time): deadlines;
//! * [`bench`](mod@bench): the fixed-depth node-count signature.
//!
//! Threads (Lazy SMP): [`Engine::search`] runs one worker per thread inside
//! `std::thread::scope`. Helpers search the same root with the shared table
//! and stop when the main worker (which owns the clock and the answer) is
//! done.

pub mod bench;
pub mod eval;
pub mod ordering;
pub mod params;
pub mod search;
pub mod time;
pub mod tt;

pub use eval::{evaluate, evaluate_with};
pub use params::EvalWeights;
pub use search::Features;
pub use time::Clock;

use crate::hive::{Move, MoveList, Position};
use ordering::Heuristics;
use search::{Config, Shared, ThreadTables, Worker, WORKER_STACK_BYTES};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use time::TimeManager;
use tt::Tt;

/// A search score in centi-queen-liberties (see the evaluation), from the
/// side to move's point of view. Wins are `MATE - plies`, losses `-MATE + plies`.
pub type Score = i32;

/// Score of a win on the board now; a win in `n` plies scores `MATE - n`.
pub const MATE: Score = 30_000;
/// Scores beyond this are wins or losses with a known distance.
pub const MATE_BOUND: Score = MATE - 1_000;

/// Whether a score is a forced win or loss.
pub fn is_decisive(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// What limits a search. Unset limits are unlimited; with none set the
/// search runs until `stop` is raised.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Search only these root moves (all legal moves when `None`); used for
    /// MultiPV by excluding the moves already reported.
    pub root_moves: Option<Vec<Move>>,
    /// A game clock (time left and increments of both sides); the engine
    /// budgets the move from the side to move's entries.
    pub clock: Option<Clock>,
}

/// Engine settings that the protocol layer exposes as options.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Whether a repeated position in the search counts as a draw.
    pub repetition_draw: bool,
    /// What a draw costs the side to move, in centi-liberties (see
    /// [`params::CONTEMPT`]).
    pub contempt: Score,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            hash_mb: 64,
            repetition_draw: true,
            contempt: params::CONTEMPT,
        }
    }
}

/// Progress of an iterative-deepening search, reported once per iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, starting with the best move.
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (always legal; `Pass` when that is the only move).
    pub best_move: Move,
    /// Its score.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// The search engine: owns tables that persist between searches.
#[derive(Debug)]
pub struct Engine {
    /// Current settings.
    pub options: EngineOptions,
    /// Evaluation weights: `None` (the default) plays each game type with
    /// [`EvalWeights::for_game_type`]; a tuner or a match may set others.
    pub weights: Option<EvalWeights>,
    features: Features,
    search: params::SearchParams,
    overrides: params::Overrides,
    tt: Option<Tt>,
    threads: Vec<ThreadTables>,
    /// The busy positions of simplified ABDADA (see [`Shared`]), allocated
    /// with the other tables.
    busy: Box<[std::sync::atomic::AtomicU64]>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}

impl std::fmt::Debug for Heuristics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Heuristics")
    }
}

impl Engine {
    /// A new engine with the given options. Cheap: tables are allocated on
    /// the first search.
    pub fn new(options: EngineOptions) -> Engine {
        Engine {
            options,
            weights: None,
            features: Features::DEFAULT,
            search: params::SearchParams::DEFAULT,
            overrides: params::Overrides::default(),
            tt: None,
            threads: Vec::new(),
            busy: Box::new([]),
        }
    }

    /// Forgets everything learned from earlier searches (table, history,
    /// countermoves), and allocates the table at the size in
    /// [`Engine::options`] if it is not that size yet, so that the first
    /// search of the game does not spend its time on it.
    pub fn new_game(&mut self) {
        if !self.prepare_tables() {
            if let Some(tt) = self.tt.as_mut() {
                tt.clear_with(self.options.threads);
            }
        }
        for t in &mut self.threads {
            t.heur.clear();
        }
    }

    /// Switches forward pruning, reductions and extensions on (as the
    /// engine plays, [`Features::DEFAULT`]) or off. Off, the search returns
    /// the exact negamax score at a fixed depth: tests use that.
    pub fn set_pruning(&mut self, on: bool) {
        self.features = if on {
            Features::DEFAULT
        } else {
            Features::NONE
        };
    }

    /// Chooses the forward-pruning techniques one by one.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// Sets the search's margins and reductions; for A/B matches and
    /// tuning of them.
    pub fn set_search_params(&mut self, search: params::SearchParams) {
        self.search = search;
    }

    /// Sets weights and search parameters by name over the rest
    /// (`waggle --set`): over [`Engine::weights`] (or each game type's),
    /// and over the search parameters [`Engine::set_search_params`] set.
    pub fn set_overrides(&mut self, overrides: params::Overrides) {
        self.overrides = overrides;
    }

    /// The forward-pruning techniques in use.
    pub fn features(&self) -> Features {
        self.features
    }

    /// Allocates the transposition table at the size in [`Engine::options`]
    /// unless it already has that size (a new table is empty), and the
    /// per-thread tables. Returns whether the table was (re)allocated.
    /// Searches call it too, but allocating a large table takes long (about
    /// a second per 4 GiB), so the protocol layer calls it when the size is
    /// set and at `newgame`, outside any search's time.
    pub fn prepare_tables(&mut self) -> bool {
        let mb = self.options.hash_mb.max(1);
        let allocate = self.tt.as_ref().is_none_or(|t| t.requested_mb() != mb);
        if allocate {
            match &mut self.tt {
                Some(tt) => tt.resize(mb),
                None => self.tt = Some(Tt::new(mb)),
            }
        }
        let threads = self.options.threads.max(1);
        while self.threads.len() < threads {
            self.threads.push(ThreadTables::default());
        }
        if self.busy.is_empty() {
            self.busy = Shared::busy_table();
        }
        allocate
    }

    /// Searches `pos` within `limits`, or until `stop` is raised, and
    /// returns the best move found. Calls `on_iteration` after each
    /// completed depth. The answer is always a legal move (`Pass` when that
    /// is the only one); if `limits.root_moves` keeps none of the legal
    /// moves, it is ignored.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut legal = MoveList::new();
        pos.generate_moves(&mut legal);
        let mut root: Vec<Move> = legal.iter().copied().collect();
        if let Some(only) = &limits.root_moves {
            let kept: Vec<Move> = root.iter().copied().filter(|m| only.contains(m)).collect();
            if !kept.is_empty() {
                root = kept;
            }
        }
        let clock = limits.clock.map(|c| match pos.side_to_move() {
            crate::hive::Color::White => (c.white_time, c.white_inc),
            crate::hive::Color::Black => (c.black_time, c.black_inc),
        });
        let tm = TimeManager::new(start, limits.time, clock);
        let max_depth = limits
            .depth
            .unwrap_or(params::MAX_PLY as u32 - 1)
            .clamp(1, params::MAX_PLY as u32 - 1);

        // One legal move and a clock running: nothing to think about.
        if root.len() == 1 && tm.is_timed() {
            return SearchResult {
                best_move: root[0],
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![root[0]],
            };
        }

        self.prepare_tables();
        let threads = self.options.threads.max(1);
        let Some(tt) = self.tt.as_mut() else {
            unreachable!("prepare_tables allocates the table")
        };
        tt.new_search();
        let tt: &Tt = tt;
        let shared = Shared::new(tt, &self.busy, stop);
        let (weights, search) = self.overrides.apply(
            pos.game_type(),
            self.weights
                .as_ref()
                .unwrap_or_else(|| EvalWeights::for_game_type(pos.game_type())),
            self.search,
        );
        let cfg = Config {
            features: self.features,
            repetition_draw: self.options.repetition_draw,
            weights,
            node_limit: limits.nodes,
            search,
            parallel: threads > 1,
            contempt: self.options.contempt,
        };
        let (main_tables, helper_tables) = self.threads[..threads].split_at_mut(1);
        let main_tables = &mut main_tables[0];
        let (best_move, score, depth, pv) = std::thread::scope(|s| {
            for (i, tables) in helper_tables.iter_mut().enumerate() {
                let shared = &shared;
                let cfg = &cfg;
                let root = &root;
                let spawned = std::thread::Builder::new()
                    .name(format!("waggle-helper-{}", i + 1))
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(i + 1, pos, shared, cfg, tables, None, root);
                        w.order_root();
                        helper_loop(&mut w, max_depth, shared);
                        w.flush_nodes();
                    });
                // A helper that cannot start only costs speed.
                drop(spawned);
            }
            let (tx, rx) = std::sync::mpsc::channel::<SearchInfo>();
            let shared = &shared;
            let cfg = &cfg;
            let root = &root;
            let main = std::thread::Builder::new()
                .name("waggle-main".into())
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(s, move || {
                    let mut w = Worker::new(0, pos, shared, cfg, main_tables, Some(tm), root);
                    w.order_root();
                    let answer = main_loop(&mut w, max_depth, &tm, shared, &tx);
                    shared.abort.store(true, Ordering::Relaxed);
                    w.flush_nodes();
                    answer
                });
            match main {
                Ok(handle) => {
                    // Progress arrives until the main worker drops its sender.
                    while let Ok(info) = rx.recv() {
                        on_iteration(&info);
                    }
                    handle.join().unwrap_or_else(|_| fallback(root))
                }
                Err(_) => {
                    shared.abort.store(true, Ordering::Relaxed);
                    fallback(root)
                }
            }
        });
        // A helper that completed a deeper iteration than the main worker
        // (or reached the depth limit first) has the better answer.
        let helper = shared
            .deeper_than(depth)
            .filter(|h| root.contains(&h.best_move));
        let (best_move, score, depth, pv) = match helper {
            Some(h) => (h.best_move, h.score, h.depth, h.pv),
            None => (best_move, score, depth, pv),
        };
        SearchResult {
            best_move,
            score,
            depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            pv,
        }
    }
}

/// The answer when no search could run: the first legal move.
fn fallback(root: &[Move]) -> (Move, Score, u32, Vec<Move>) {
    let mv = root.first().copied().unwrap_or(Move::Pass);
    (mv, 0, 0, vec![mv])
}

/// Iterative deepening on the main worker: owns the soft deadline, reports
/// each completed iteration (its own or a helper's), and returns (move,
/// score, depth, pv).
///
/// Every worker starts each iteration one deeper than the deepest any worker
/// completed, and gives up an iteration once another worker completes its
/// depth; within an iteration the workers spread out by deferring moves that
/// another one is searching (simplified ABDADA, in the tree walk).
fn main_loop(
    w: &mut Worker<'_>,
    max_depth: u32,
    tm: &TimeManager,
    shared: &Shared<'_>,
    report: &std::sync::mpsc::Sender<SearchInfo>,
) -> (Move, Score, u32, Vec<Move>) {
    let mut depth = 1;
    let mut reported = 0;
    while depth <= max_depth {
        if depth > 1 && tm.soft_expired() {
            break;
        }
        let stopped = w.deepen(depth).is_none();
        w.flush_nodes();
        reported = report_completed(shared, reported, tm, report);
        if stopped {
            break;
        }
        // A forced result within the horizon will not change.
        if is_decisive(w.best_score) && (MATE - w.best_score.abs()) as u32 <= w.completed_depth {
            break;
        }
        depth = w.completed_depth + 1;
    }
    let mv = w.best_move();
    let pv = if w.best_pv.is_empty() {
        vec![mv]
    } else {
        w.best_pv.clone()
    };
    let score = if w.best_pv.is_empty() {
        0
    } else {
        w.best_score
    };
    (mv, score, w.completed_depth, pv)
}

/// Reports the iterations completed deeper than `reported` (by any worker,
/// including one that completed the depth limit and so ended the search
/// while the main worker was still in that iteration); returns the deepest
/// reported depth.
fn report_completed(
    shared: &Shared<'_>,
    mut reported: u32,
    tm: &TimeManager,
    report: &std::sync::mpsc::Sender<SearchInfo>,
) -> u32 {
    for c in shared.completed_after(reported) {
        reported = c.depth;
        let _ = report.send(SearchInfo {
            depth: c.depth,
            score: c.score,
            nodes: shared.nodes.load(Ordering::Relaxed),
            elapsed: tm.elapsed(),
            pv: c.pv,
        });
    }
    reported
}

/// Iterative deepening on a helper, as on the main worker (see
/// [`main_loop`]) but without a clock: it stops when the main worker raises
/// `abort`, and a helper that completes the depth limit ends the whole
/// search, so a fixed-depth search takes as long as its fastest thread.
///
/// Odd-numbered helpers run one ply ahead ([`params::HELPER_DEPTH_SKIP`]):
/// their deeper table entries cut the main worker's search short, and the
/// two do not walk the same first moves in step.
fn helper_loop(w: &mut Worker<'_>, max_depth: u32, shared: &Shared<'_>) {
    let skip = if w.id % 2 == 1 {
        params::HELPER_DEPTH_SKIP
    } else {
        0
    };
    let mut depth = 1;
    while depth <= max_depth {
        if w.deepen(depth).is_none() {
            break;
        }
        if w.completed_depth >= max_depth {
            shared.abort.store(true, Ordering::Relaxed);
            break;
        }
        depth = (w.completed_depth + 1 + skip).min(max_depth);
    }
}
