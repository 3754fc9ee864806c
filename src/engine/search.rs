//! The tree walk: negamax with principal-variation search, iterative
//! deepening with aspiration windows, and the pruning that can be switched
//! off for exactness tests (null move, reverse futility, late-move
//! reductions).
//!
//! One [`Worker`] per thread. All workers share the transposition table, the
//! stop flags and the node counter ([`Shared`]); the main worker (id 0) also
//! owns the clock and the answer. Nothing in the tree walk allocates: move
//! lists and their scores are `ArrayVec`s on the (large, see
//! [`WORKER_STACK_BYTES`]) thread stack, and the PV table and killers are
//! fixed arrays allocated once per search.

use super::eval::evaluate_with;
use super::ordering::{is_quiet, pick, score_moves, Heuristics, OrderContext};
use super::params::{self, order, EvalWeights, SearchParams, MAX_PLY, STACK_MARGIN};
use super::time::TimeManager;
use super::tt::{Bound, Tt};
use super::{is_decisive, Score, MATE};
use crate::hive::{Color, Direction, Move, MoveList, Outcome, Position, MAX_MOVES};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// Bigger than any score: the initial window bound.
pub const INFINITE: Score = MATE + 1;

/// Stack size of a search thread. A node keeps a move list and its scores on
/// the stack (about 15 KiB), and the search goes at most `MAX_PLY` deep.
pub const WORKER_STACK_BYTES: usize = 64 << 20;

/// Slots of a worker's evaluation cache (indexed by the lower 16 bits of
/// the hash).
const EVAL_CACHE_SLOTS: usize = 1 << 16;

/// Nodes between two looks at the clock and the stop flags. A search ends
/// only when every thread has seen the stop, so this is also how long the
/// last one takes to notice: with 1024, two threads spent about 6 ms in all
/// waiting for the helper to finish after the answer was known, over the 41
/// positions of `waggle --threads 2 bench` (about 0.8 s), and about 0.4 ms
/// with 128 (five runs each, counted in a throwaway build).
const CHECK_EVERY: u64 = 128;

const STACK: usize = MAX_PLY + STACK_MARGIN;

/// What every worker of one search shares.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// Raised from outside (SIGINT): answer now.
    pub stop: &'a AtomicBool,
    /// Raised by the main worker when it is done or out of time.
    pub abort: AtomicBool,
    /// Nodes of all workers, flushed every `CHECK_EVERY` nodes.
    pub nodes: AtomicU64,
    /// The iterations completed so far, one per depth, shallowest first,
    /// each by whichever worker completed it first (locked once per
    /// iteration, never inside the tree walk).
    pub deepest: Mutex<Vec<Completed>>,
    /// Depth of [`Shared::deepest`], readable without the lock: a worker
    /// still searching that depth or a shallower one gives its iteration up.
    pub completed: AtomicU32,
    /// Simplified ABDADA: the positions some worker is searching right now,
    /// by `busy_key`; the others search their other moves first.
    pub busy: &'a [AtomicU64],
}

/// Slots of [`Shared::busy`] (a power of two).
pub const BUSY_SLOTS: usize = 1 << 14;

/// The [`Shared::busy`] key of a position (after the move), whatever the
/// depth it is searched to: the helper that runs a ply ahead
/// ([`params::HELPER_DEPTH_SKIP`]) meets the main worker's positions one
/// ply deeper, and a key with the depth in it seldom matched them. Never 0,
/// the empty slot.
#[inline]
fn busy_key(hash: u64) -> u64 {
    hash | 1
}

impl<'a> Shared<'a> {
    /// An empty table of busy positions, to keep for many searches.
    pub fn busy_table() -> Box<[AtomicU64]> {
        (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
    }

    /// The state shared by the workers of one search; `busy` comes from
    /// [`Shared::busy_table`] and is cleared here.
    pub fn new(tt: &'a Tt, busy: &'a [AtomicU64], stop: &'a AtomicBool) -> Self {
        for slot in busy {
            slot.store(0, Ordering::Relaxed);
        }
        Shared {
            tt,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deepest: Mutex::new(Vec::new()),
            completed: AtomicU32::new(0),
            busy,
        }
    }

    #[inline]
    fn busy_slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[key as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether some worker marked `key` as being searched.
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched by the caller.
    #[inline]
    fn mark_busy(&self, key: u64) {
        self.busy_slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the caller's mark of `key`, unless another key took the slot.
    #[inline]
    fn clear_busy(&self, key: u64) {
        let _ = self
            .busy_slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Records a completed iteration if it is deeper than any before.
    pub fn publish(&self, result: Completed) {
        if let Ok(mut deepest) = self.deepest.lock() {
            if deepest.last().is_none_or(|d| d.depth < result.depth) {
                self.completed.store(result.depth, Ordering::Relaxed);
                deepest.push(result);
            }
        }
    }

    /// The deepest completed iteration, if it is deeper than `depth`.
    pub fn deeper_than(&self, depth: u32) -> Option<Completed> {
        if self.completed.load(Ordering::Relaxed) <= depth {
            return None;
        }
        self.deepest
            .lock()
            .ok()
            .and_then(|d| d.last().filter(|d| d.depth > depth).cloned())
    }

    /// The completed iterations deeper than `depth`, shallowest first.
    pub fn completed_after(&self, depth: u32) -> Vec<Completed> {
        if self.completed.load(Ordering::Relaxed) <= depth {
            return Vec::new();
        }
        self.deepest.lock().map_or_else(
            |_| Vec::new(),
            |d| d.iter().filter(|c| c.depth > depth).cloned().collect(),
        )
    }
}

/// A completed iteration of some worker.
#[derive(Clone, Debug)]
pub struct Completed {
    /// Depth completed.
    pub depth: u32,
    /// Its best root move.
    pub best_move: Move,
    /// Its score.
    pub score: Score,
    /// Its principal variation.
    pub pv: Vec<Move>,
}

/// Which forward-pruning techniques a search uses. All off, the search
/// returns the exact fixed-depth negamax score.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Features {
    /// Null-move pruning.
    pub null_move: bool,
    /// Reverse futility pruning.
    pub rfp: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// One ply more after a move that leaves the enemy Queen one free cell.
    pub threat_extension: bool,
    /// Late-move pruning: near the leaves of non-PV nodes, quiet moves
    /// (ones that neither crowd the enemy Queen nor free the own Queen, nor
    /// let a piece reach her last free cell) after the first few are not
    /// searched.
    pub lmp: bool,
    /// Futility pruning: near the leaves, where the static evaluation is far
    /// below alpha, quiet moves after the first are not searched.
    pub futility: bool,
    /// At the leaves, a side that can surround the enemy Queen at once
    /// scores the win (one ply away) instead of the static evaluation.
    pub leaf_win: bool,
    /// Internal iterative reduction: a node at least
    /// [`params::IIR_MIN_DEPTH`] deep that the table knows no move for is
    /// searched one ply shallower, unless the side to move's Queen has
    /// fewer than [`params::IIR_QUEEN_FREE`] free cells.
    pub iir: bool,
    /// Singular extension: a table move that a shallower search of the
    /// other moves shows to be the only good one is searched one ply
    /// deeper; where even the others beat beta, the node fails high at
    /// once (multi-cut); where they do not but the table's score holds
    /// beta, the table move is searched one ply shallower; where they stay
    /// far below at a non-PV node, it gets two plies (a few times a line).
    pub singular: bool,
}

impl Features {
    /// How the engine plays. Null-move pruning is off: at equal nodes it
    /// lost 46.5/100 games to the same engine without it (two 20000-node
    /// self-play runs, seeds 5 and 13), so it stays available for tests only.
    /// Tried again at `f4bb896` (25% fewer bench nodes): 112-106-22 at
    /// 0.3 s a move (240 games) and 11-20-1 at 1 s (32 games, stopped)
    /// against the engine without it (`waggle arena`, Threads=1).
    /// The surround-threat extension is off since late-move pruning came:
    /// with it the engine scored 62/120 at 100 ms and 19.5/40 at 300 ms a
    /// move against itself without it (`selfplay --b-flip-ext`, seeds 9, 13,
    /// 21, 33 and 41, 57), no gain, while in some crowded middlegames it cost
    /// two plies of depth in the same time.
    /// Futility pruning (margin 150 a ply, depth 2) is off too: 41.5/80 at
    /// 20000 nodes and 26/60 at 100 ms a move against the same engine
    /// without it (`selfplay --b-flip-futility`, seeds 9 and 13). Tried
    /// again at `bd69996` (`waggle arena`, Threads=1): 106-96-38 at 0.3 s
    /// and 62-68-30 at 0.5 s a move, and with a margin of 100 105-102-33 at
    /// 0.3 s, no gain.
    /// The win at the leaves is on: 84-76-40 at 0.1 s and 87-72-41 at
    /// 0.2 s a move against the engine without it (`waggle arena`, 200
    /// games each).
    /// Internal iterative reduction is on: 90-65-45 at 0.2 s a move
    /// against the engine without it (`waggle arena`, 200 games). Without
    /// the exception for a crowded Queen it scored 197-133-70 (400 games)
    /// but found two of the first four surrounds in three in `tests/search.rs`
    /// only at depth 6; from depth 5 only, 84-77-38.
    /// The singular extension is on: 54-39-7 at 0.5 s and 43-27-10 at 1 s a
    /// move against the engine without it (`waggle arena`, 100 and 80
    /// games), with its negative and double extensions 47-43-10 at 1 s
    /// against it alone (100 games; see `params::DOUBLE_EXTENSION_MARGIN`).
    pub const DEFAULT: Features = Features {
        null_move: false,
        rfp: true,
        lmr: true,
        threat_extension: false,
        lmp: true,
        futility: false,
        leaf_win: true,
        iir: true,
        singular: true,
    };
    /// Everything on.
    pub const ALL: Features = Features {
        null_move: true,
        rfp: true,
        lmr: true,
        threat_extension: true,
        lmp: true,
        futility: true,
        leaf_win: true,
        iir: true,
        singular: true,
    };
    /// Everything off (exact search).
    pub const NONE: Features = Features {
        null_move: false,
        rfp: false,
        lmr: false,
        threat_extension: false,
        lmp: false,
        futility: false,
        leaf_win: false,
        iir: false,
        singular: false,
    };
}

/// Settings of one search.
pub struct Config {
    /// Forward pruning and reductions (all off for exactness tests).
    pub features: Features,
    /// A repeated position on the search path is a draw.
    pub repetition_draw: bool,
    /// Evaluation weights.
    pub weights: EvalWeights,
    /// Node budget (checked by the main worker).
    pub node_limit: Option<u64>,
    /// Margins and reductions (normally [`SearchParams::DEFAULT`]).
    pub search: SearchParams,
    /// More than one worker: defer moves another worker is searching.
    pub parallel: bool,
    /// What a draw costs the side to move at the root, in centi-liberties
    /// (0 in exactness tests).
    pub contempt: Score,
}

/// A root move and what the last iterations said about it.
#[derive(Clone, Copy, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score in the last iteration that searched it exactly, else
    /// `-INFINITE`.
    pub score: Score,
    /// Order key: the score, or the previous one when the move was not
    /// searched exactly.
    pub order: Score,
}

/// Late-move reductions, `[depth][moves searched]`, in plies.
fn lmr_table(search: &SearchParams) -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = search.lmr_base + (d as f64).ln() * (m as f64).ln() / search.lmr_divisor;
            *r = v.max(0.0) as u8;
        }
    }
    t
}

/// A search thread's tables that outlive one search: move-ordering history
/// and the evaluation cache. Kept by the engine so that a search allocates
/// nothing; the cache is cleared at each search, since the weights may
/// change between searches.
pub struct ThreadTables {
    /// History and countermoves.
    pub heur: Heuristics,
    /// Evaluations of recently seen positions, by hash: the upper 48 bits of
    /// the hash above the score as an `i16` (the lower 16 bits index).
    eval_cache: Box<[u64]>,
}

impl Default for ThreadTables {
    fn default() -> Self {
        ThreadTables {
            heur: Heuristics::default(),
            eval_cache: vec![0; EVAL_CACHE_SLOTS].into_boxed_slice(),
        }
    }
}

impl std::fmt::Debug for ThreadTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ThreadTables")
    }
}

/// One search thread.
pub struct Worker<'a> {
    /// 0 for the main worker.
    pub id: usize,
    pos: Position,
    shared: &'a Shared<'a>,
    cfg: &'a Config,
    heur: &'a mut Heuristics,
    tm: Option<TimeManager>,
    /// Nodes searched by this worker.
    pub nodes: u64,
    unflushed: u64,
    root_ply: u32,
    /// Set when the search was cut short; scores after that are garbage.
    pub aborted: bool,
    /// Set with `aborted` when the iteration was given up because another
    /// worker completed its depth; the search itself goes on.
    pub abandoned: bool,
    killers: Box<[[Option<Move>; 2]; STACK]>,
    pv: Box<[[Option<Move>; STACK]; STACK]>,
    pv_len: Box<[usize; STACK]>,
    /// The move a singular-extension search at this ply leaves out.
    excluded: Box<[Option<Move>; STACK]>,
    /// Double singular extensions on the path to this ply (set by the
    /// parent before each child search).
    double_extensions: Box<[u8; STACK]>,
    lmr: Box<[[u8; 64]; 64]>,
    /// See [`ThreadTables`].
    eval_cache: &'a mut [u64],
    /// The root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Principal variation of the last completed (or adopted) result.
    pub best_pv: Vec<Move>,
    /// Score of [`Worker::best_pv`].
    pub best_score: Score,
    /// Depth of the last completed iteration.
    pub completed_depth: u32,
    root_depth: i32,
}

impl<'a> Worker<'a> {
    /// A worker for `pos`; only the main worker gets a time manager.
    pub fn new(
        id: usize,
        pos: &Position,
        shared: &'a Shared<'a>,
        cfg: &'a Config,
        tables: &'a mut ThreadTables,
        tm: Option<TimeManager>,
        root_moves: &[Move],
    ) -> Self {
        let ThreadTables { heur, eval_cache } = tables;
        eval_cache.fill(0);
        let mut pos = pos.clone();
        pos.reserve_history(STACK + 8);
        let root_ply = pos.ply();
        Worker {
            id,
            pos,
            shared,
            cfg,
            heur,
            tm,
            nodes: 0,
            unflushed: 0,
            root_ply,
            aborted: false,
            abandoned: false,
            killers: Box::new([[None; 2]; STACK]),
            pv: Box::new([[None; STACK]; STACK]),
            pv_len: Box::new([0; STACK]),
            excluded: Box::new([None; STACK]),
            double_extensions: Box::new([0; STACK]),
            lmr: Box::new(lmr_table(&cfg.search)),
            eval_cache,
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    order: -INFINITE,
                })
                .collect(),
            best_pv: Vec::with_capacity(STACK),
            best_score: -INFINITE,
            completed_depth: 0,
            root_depth: 0,
        }
    }

    /// Orders the root moves before the first iteration (TT move, then the
    /// static order).
    pub fn order_root(&mut self) {
        let mut list = MoveList::new();
        for rm in &self.root_moves {
            list.push(rm.mv);
        }
        let tt_move = self
            .shared
            .tt
            .probe(self.pos.hash(), 0)
            .and_then(|h| h.mv)
            .filter(|m| list.contains(m));
        let ctx = OrderContext {
            tt_move,
            killers: [None; 2],
            counter: None,
        };
        let mut scores = ArrayVec::new();
        score_moves(&self.pos, &list, &ctx, self.heur, &mut scores);
        for (rm, s) in self.root_moves.iter_mut().zip(scores.iter()) {
            rm.order = *s;
        }
        self.root_moves.sort_by_key(|r| std::cmp::Reverse(r.order));
    }

    /// Adds the unflushed node count to the shared counter.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    #[inline]
    fn check_stop(&mut self) {
        self.flush_nodes();
        if self.shared.stop.load(Ordering::Relaxed) || self.shared.abort.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if self.cfg.parallel
            && self.shared.completed.load(Ordering::Relaxed) >= self.root_depth as u32
        {
            self.aborted = true;
            self.abandoned = true;
            return;
        }
        if self.id == 0 {
            let out_of_time = self.tm.as_ref().is_some_and(|tm| tm.hard_expired());
            let out_of_nodes = self
                .cfg
                .node_limit
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            if out_of_time || out_of_nodes {
                self.aborted = true;
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The static evaluation of the current position, from the cache when
    /// this worker evaluated it recently.
    #[inline]
    fn evaluate(&mut self) -> Score {
        let hash = self.pos.hash();
        let slot = &mut self.eval_cache[hash as usize & (EVAL_CACHE_SLOTS - 1)];
        let check = hash & !0xFFFF;
        if *slot & !0xFFFF == check && *slot != 0 {
            return Score::from(*slot as u16 as i16);
        }
        let score = evaluate_with(&self.pos, &self.cfg.weights);
        if let Ok(small) = i16::try_from(score) {
            *slot = check | u64::from(small as u16);
        }
        score
    }

    /// One step of iterative deepening, the same on every worker: searches
    /// `depth`, publishes the iteration if it completes, and takes over a
    /// deeper result another worker published. Returns `None` when the
    /// search is stopped, else whether this worker completed `depth` itself
    /// (it may instead have given the iteration up to another worker).
    pub fn deepen(&mut self, depth: u32) -> Option<bool> {
        let done = self.iterate(depth as i32);
        if done {
            self.shared.publish(self.completed());
        } else if !self.resume() {
            return None;
        }
        if let Some(c) = self.shared.deeper_than(self.completed_depth) {
            self.adopt(&c);
        }
        Some(done)
    }

    /// Takes over another worker's deeper result: its score centres the
    /// next aspiration window and its best move is searched first.
    fn adopt(&mut self, c: &Completed) {
        self.best_score = c.score;
        self.best_pv.clone_from(&c.pv);
        self.completed_depth = c.depth;
        if let Some(i) = self.root_moves.iter().position(|r| r.mv == c.best_move) {
            let rm = self.root_moves.remove(i);
            self.root_moves.insert(0, rm);
        }
    }

    /// This worker's completed iteration, to publish.
    fn completed(&self) -> Completed {
        Completed {
            depth: self.completed_depth,
            best_move: self.best_move(),
            score: self.best_score,
            pv: self.best_pv.clone(),
        }
    }

    /// After an abandoned iteration: clears the abort so the worker can go
    /// on to the next depth. Returns whether the iteration was abandoned
    /// (rather than stopped).
    fn resume(&mut self) -> bool {
        let abandoned = self.abandoned;
        if abandoned {
            self.aborted = false;
            self.abandoned = false;
        }
        abandoned
    }

    /// One iteration at `depth` with an aspiration window around the
    /// previous score. Returns `false` when aborted before any usable result.
    pub fn iterate(&mut self, depth: i32) -> bool {
        let prev = self.best_score;
        let mut delta = self.cfg.search.aspiration_window;
        let (mut alpha, mut beta) = if depth >= params::ASPIRATION_MIN_DEPTH && !is_decisive(prev) {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(depth, alpha, beta);
            if self.aborted {
                return false;
            }
            if score <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                delta *= 2;
            } else if score >= beta && beta < INFINITE {
                beta = (score + delta).min(INFINITE);
                delta *= 2;
            } else {
                self.completed_depth = depth as u32;
                return true;
            }
        }
    }

    /// Searches the root moves; records the best move and PV whenever a
    /// move beats `alpha` with a full (not aborted) result.
    fn search_root(&mut self, depth: i32, mut alpha: Score, beta: Score) -> Score {
        self.root_depth = depth;
        let original_alpha = alpha;
        self.pv_len[0] = 0;
        let mut best = -INFINITE;
        let mut best_move = None;
        for rm in self.root_moves.iter_mut() {
            rm.score = -INFINITE;
        }
        let n = self.root_moves.len();
        let mut deferred: ArrayVec<usize, MAX_MOVES> = ArrayVec::new();
        for step in 0.. {
            let i = if step < n {
                step
            } else if let Some(&i) = deferred.get(step - n) {
                i
            } else {
                break;
            };
            let mv = self.root_moves[i].mv;
            self.pos.make(mv);
            let key = busy_key(self.pos.hash());
            if self.cfg.parallel {
                if step < n && i > 0 && self.shared.is_busy(key) {
                    self.pos.unmake();
                    deferred.push(i);
                    continue;
                }
                self.shared.mark_busy(key);
            }
            self.nodes += 1;
            self.unflushed += 1;
            let score = if i == 0 {
                -self.negamax(depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && s < beta && !self.aborted {
                    -self.negamax(depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            if self.cfg.parallel {
                self.shared.clear_busy(key);
            }
            self.pos.unmake();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.root_moves[i].score = score;
                    self.update_pv(0, mv);
                    if score > original_alpha {
                        self.adopt_pv(score);
                    }
                }
            }
            if alpha >= beta {
                break;
            }
        }
        // Best first; a move that fell below alpha keeps its old rank.
        for rm in self.root_moves.iter_mut() {
            if rm.score > -INFINITE {
                rm.order = rm.score;
            } else {
                rm.order = rm.order.min(best - 1);
            }
        }
        if let Some(mv) = best_move {
            if let Some(pos) = self.root_moves.iter().position(|r| r.mv == mv) {
                let rm = self.root_moves.remove(pos);
                self.root_moves.insert(0, rm);
            }
        }
        if !self.aborted {
            self.root_moves[1..].sort_by_key(|r| std::cmp::Reverse(r.order));
            let bound = Bound::of(best, original_alpha, beta);
            self.shared
                .tt
                .store(self.pos.hash(), 0, best_move, best, depth, bound);
        }
        best
    }

    fn adopt_pv(&mut self, score: Score) {
        self.best_score = score;
        self.best_pv.clear();
        let len = self.pv_len[0];
        self.best_pv
            .extend(self.pv[0][..len].iter().map_while(|m| *m));
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child = ply + 1;
        let child_len = if child < STACK { self.pv_len[child] } else { 0 };
        self.pv[ply][0] = Some(mv);
        for i in 0..child_len.min(STACK - 1) {
            self.pv[ply][i + 1] = self.pv[child][i];
        }
        self.pv_len[ply] = (child_len + 1).min(STACK);
    }

    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        null_allowed: bool,
    ) -> Score {
        self.pv_len[ply] = 0;
        if self.unflushed >= CHECK_EVERY {
            self.check_stop();
        }
        if self.aborted {
            return 0;
        }
        let pv_node = beta - alpha > 1;

        if let Some(outcome) = self.pos.surround_outcome() {
            return match outcome {
                Outcome::Draw => self.draw_score(ply),
                Outcome::Win(c) if c == self.pos.side_to_move() => MATE - ply as Score,
                Outcome::Win(_) => -MATE + ply as Score,
            };
        }
        if self.cfg.repetition_draw
            && (self.pos.repeated_since(self.root_ply) || self.pos.is_threefold())
        {
            return self.draw_score(ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            if self.cfg.features.leaf_win && ply < MAX_PLY && self.wins_at_once() {
                return MATE - ply as Score - 1;
            }
            return self.evaluate();
        }
        // Mate distance pruning: no line from here beats a win right now.
        alpha = alpha.max(-MATE + ply as Score);
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }

        let hash = self.pos.hash();
        // Set while this node is a singular-extension search that leaves
        // out the table move: the table's entry is the full node's.
        let excluded = self.excluded[ply];
        let tt_hit = self.shared.tt.probe(hash, ply);
        if let Some(hit) = tt_hit {
            if !pv_node && excluded.is_none() && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }

        let us = self.pos.side_to_move();
        let f = self.cfg.features;
        // Futility: so far below alpha near the leaves that only a move
        // around a Queen could help; the quiet moves after the first are
        // dropped (as late-move pruning drops them, below).
        let mut futile = false;
        let futility_applies = f.futility && depth <= params::FUTILITY_MAX_DEPTH;
        if !pv_node
            && excluded.is_none()
            && ((f.rfp && depth <= params::RFP_MAX_DEPTH) || f.null_move || futility_applies)
        {
            let static_eval = self.evaluate();
            futile = futility_applies
                && !is_decisive(alpha)
                && static_eval + self.cfg.search.futility_margin * depth <= alpha;
            // Reverse futility: far above beta near the leaves, unless the
            // own Queen is down to one free cell (as chess engines do not
            // prune in check): the static evaluation cannot see the
            // surround the opponent may have next. Nor where she has two
            // and every move fills one of them: the side is in zugzwang,
            // and the static evaluation assumes it has a move that holds.
            if f.rfp
                && depth <= params::RFP_MAX_DEPTH
                && !is_decisive(beta)
                && static_eval - self.cfg.search.rfp_margin * depth >= beta
                && match self.pos.queen_free_cells(us) {
                    Some(1) => false,
                    Some(2) => self.pos.has_move_sparing_own_queen(),
                    _ => true,
                }
            {
                return static_eval;
            }
            // Null move: let the opponent move twice; if we still hold beta,
            // a real move will too.
            if f.null_move
                && null_allowed
                && depth >= params::NULL_MIN_DEPTH
                && static_eval >= beta
                && !is_decisive(beta)
                && self.pos.queen(us).is_some()
                && has_own_piece_free_to_move(&self.pos, us)
            {
                let r = self.cfg.search.null_base + depth / self.cfg.search.null_divisor;
                self.pos.make(Move::Pass);
                self.double_extensions[ply + 1] = self.double_extensions[ply];
                self.nodes += 1;
                self.unflushed += 1;
                let s = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.pos.unmake();
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if is_decisive(s) { beta } else { s };
                }
            }
        }

        // Internal iterative reduction: a node the table knows no move for
        // (never searched, or every move failed low) is searched one ply
        // shallower, and the next visit has a move to try first. Not where
        // the side to move's Queen has two or fewer free cells: there a node
        // where every move fails low is often one whose Queen is being
        // surrounded, and one ply less hides the surround from a search
        // that needs every ply. It comes after reverse futility and the null
        // move: a node reduced to their depths would be cut on a static
        // evaluation that cannot see a surround the full depth finds.
        let tt_move = tt_hit.and_then(|h| h.mv);
        let mut depth = depth;
        if f.iir
            && depth >= params::IIR_MIN_DEPTH
            && tt_move.is_none()
            && self
                .pos
                .queen_free_cells(us)
                .is_none_or(|free| free >= params::IIR_QUEEN_FREE)
        {
            depth -= 1;
        }

        let prev = self.pos.last_move();
        // Singular extension: search the other moves shallower against a
        // bound a little below the table's score. If none reaches it, the
        // table move is the only good one and gets a ply more; if that
        // bound is at or above beta anyway, several moves hold beta and the
        // node fails high (multi-cut).
        let singular_wanted = tt_hit.is_some_and(|hit| {
            f.singular
                && excluded.is_none()
                && depth >= params::SINGULAR_MIN_DEPTH
                && hit.depth >= depth - params::SINGULAR_TT_DEPTH
                && hit.bound != Bound::Upper
                && !is_decisive(hit.score)
                && self.may_extend(ply)
        });
        // The table move is searched before the other moves are generated
        // when it is certainly legal and no singular search needs the list,
        // and so are the killers and the countermove after it (or without
        // one) while each is certainly legal: where one of them refutes the
        // node, no move list is built at all. The order of the moves, and
        // so the search, is the same either way.
        let early = tt_move
            .filter(|&t| excluded.is_none() && !singular_wanted && self.pos.confirms_legal(t));
        let them = us.opponent();
        let their_free = self.pos.queen_free_cells(them).unwrap_or(0);
        let specials_first = tt_move.is_none()
            && excluded.is_none()
            && their_free != 1
            && (self.killers[ply][0].is_some() || self.heur.counter(prev).is_some());
        let mut moves = MoveList::new();
        let mut tt_index = None;
        let mut generated = early.is_none() && !specials_first;
        if generated {
            self.pos.generate_moves(&mut moves);
            if let Some(x) = excluded {
                if let Some(k) = moves.iter().position(|&m| m == x) {
                    moves.swap_remove(k);
                }
            }
            tt_index = tt_move.and_then(|t| moves.iter().position(|&m| m == t));
        }
        let ctx = OrderContext {
            tt_move: early.or(tt_index.map(|i| moves[i])),
            killers: self.killers[ply],
            counter: self.heur.counter(prev),
        };
        // The table move and the plies it gets beyond `depth - 1` (-1, 1
        // or 2).
        let mut tt_move_extension: Option<(Move, i32)> = None;
        let singular_candidate = match (tt_index, tt_hit) {
            (Some(i), Some(hit)) if singular_wanted => Some((moves[i], hit.score)),
            _ => None,
        };
        if let Some((tt_move, tt_score)) = singular_candidate {
            let singular_beta = tt_score - self.cfg.search.singular_margin * depth;
            self.excluded[ply] = Some(tt_move);
            let s = self.negamax(
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                false,
            );
            self.excluded[ply] = None;
            if self.aborted {
                return 0;
            }
            if s < singular_beta {
                // Far below: the table move is the only move by a wide
                // margin, and gets two plies (a few times per line).
                let double = !pv_node
                    && s < singular_beta - self.cfg.search.double_extension_margin
                    && self.double_extensions[ply] < params::DOUBLE_EXTENSION_MAX;
                tt_move_extension = Some((tt_move, if double { 2 } else { 1 }));
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_score >= beta {
                // Not the only move, and the table expects a cutoff anyway:
                // one ply less for it (a negative extension).
                tt_move_extension = Some((tt_move, -1));
            }
        }
        // Staged ordering: the table move first, then the killers and the
        // countermove, and only then are the other moves scored (one of the
        // first few often refutes the node, and scoring every move was a
        // fifth of the search's instructions). Scoring puts a move that
        // surrounds the enemy Queen before the killers, so with her down to
        // one free cell everything is scored at once.
        let mut scores: ArrayVec<i32, MAX_MOVES> = ArrayVec::new();
        scores.extend(std::iter::repeat_n(0, moves.len()));
        if let Some(i) = tt_index {
            moves.swap(0, i);
            scores[0] = order::TT_MOVE;
        }
        let own_q = self.pos.queen(us);
        let their_q = self.pos.queen(them);
        let specials = if their_free != 1 {
            ctx.specials()
        } else {
            ArrayVec::new()
        };
        let mut next_special = 0;
        let mut scored = false;
        if tt_index.is_none() && early.is_none() && specials.is_empty() {
            score_moves(&self.pos, &moves, &ctx, self.heur, &mut scores);
            scored = true;
        }

        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        // Simplified ABDADA: with several workers, a move (other than the
        // first) whose position another worker is searching right now waits
        // until the other moves are done.
        let abdada = self.cfg.parallel && depth >= params::ABDADA_MIN_DEPTH;
        let mut deferred: ArrayVec<(Move, i32), { params::ABDADA_MAX_DEFERRED }> = ArrayVec::new();
        // The moves tried before the list was built, with their order.
        let mut before_list: ArrayVec<(Move, i32), 4> = ArrayVec::new();
        let mut total = moves.len();
        let mut searched = 0;
        let mut lmp_done = false;
        let lmp_after = if futile {
            1
        } else if f.lmp && !pv_node && depth <= params::LMP_MAX_DEPTH {
            let search = &self.cfg.search;
            (search.lmp_base + search.lmp_per_depth2 * depth * depth) as usize
        } else {
            usize::MAX
        };
        // What late-move pruning may skip: a quiet move, but not one that,
        // with the enemy Queen down to one free cell, lets a piece reach that
        // cell next move (a threat, as a check is in chess). One ply from
        // the leaves the reply is a leaf, which cannot see the threat, so
        // there it is not asked.
        let threats_matter = their_free == 1 && depth >= 2;
        let prunable = |w: &mut Self, mv: Move, move_order: i32| {
            move_order < order::COUNTER
                && is_quiet(&w.pos, mv, own_q, their_q)
                && !(threats_matter && w.threatens_surround(mv))
        };
        for step in 0.. {
            let mut special = None;
            if !generated {
                // Before the list: the table move, then the killers and the
                // countermove in their order while each is certainly legal.
                let table_move = early.filter(|_| step == 0);
                special = match table_move {
                    Some(t) => Some((t, order::TT_MOVE)),
                    None => specials
                        .get(next_special)
                        .copied()
                        .filter(|&(mv, _)| self.pos.confirms_legal(mv)),
                };
                match special {
                    Some(sp) => {
                        if table_move.is_none() {
                            next_special += 1;
                        }
                        before_list.push(sp);
                    }
                    None => {
                        // Now the list, with the moves already tried in
                        // front in the order they were tried, as if they
                        // had been found in it.
                        self.pos.generate_moves(&mut moves);
                        for (k, &(mv, _)) in before_list.iter().enumerate() {
                            match moves[k..].iter().position(|&m| m == mv) {
                                Some(i) => moves.swap(k, k + i),
                                None => {
                                    debug_assert!(
                                        false,
                                        "confirmed {mv:?} is not in the move list"
                                    );
                                    if moves.is_full() {
                                        moves.pop();
                                    }
                                    moves.insert(k, mv);
                                }
                            }
                        }
                        scores.clear();
                        scores.extend(std::iter::repeat_n(0, moves.len()));
                        for (k, &(_, score)) in before_list.iter().enumerate() {
                            scores[k] = score;
                        }
                        if early.is_some() {
                            tt_index = Some(0);
                        }
                        total = moves.len();
                        generated = true;
                    }
                }
            }
            // The next killer or countermove in the list goes to `step`.
            if special.is_none() && !scored && step < total && (step > 0 || tt_index.is_none()) {
                while let Some(&(mv, score)) = specials.get(next_special) {
                    next_special += 1;
                    if let Some(k) = moves[step..total].iter().position(|&m| m == mv) {
                        moves.swap(step, step + k);
                        scores[step] = score;
                        special = Some((mv, score));
                        break;
                    }
                }
                if special.is_none() {
                    scored = true;
                    score_moves(&self.pos, &moves, &ctx, self.heur, &mut scores);
                }
            }
            // Late-move pruning: once enough moves were searched, drop the
            // quiet ones still waiting (keeping the others in order).
            if searched >= lmp_after && !lmp_done && step < total && !is_decisive(best) {
                if !scored {
                    scored = true;
                    score_moves(&self.pos, &moves, &ctx, self.heur, &mut scores);
                }
                lmp_done = true;
                let mut keep = step;
                for k in step..total {
                    if !prunable(self, moves[k], scores[k]) {
                        moves.swap(keep, k);
                        scores.swap(keep, k);
                        keep += 1;
                    }
                }
                moves.truncate(keep);
                scores.truncate(keep);
                total = keep;
            }
            let (mv, move_order) = if let Some(sp) = special {
                sp
            } else if step < total {
                let mv = pick(&mut moves, &mut scores, step);
                (mv, scores[step])
            } else if let Some(&d) = deferred.get(step - total) {
                d
            } else {
                break;
            };
            if generated
                && step >= total
                && searched >= lmp_after
                && !is_decisive(best)
                && prunable(self, mv, move_order)
            {
                continue;
            }
            self.pos.make(mv);
            let key = busy_key(self.pos.hash());
            if abdada {
                if (step < total || !generated)
                    && searched > 0
                    && !deferred.is_full()
                    && self.shared.is_busy(key)
                {
                    self.pos.unmake();
                    deferred.push((mv, move_order));
                    continue;
                }
                self.shared.mark_busy(key);
            }
            self.nodes += 1;
            self.unflushed += 1;
            let extension = tt_move_extension
                .filter(|&(m, _)| m == mv)
                .map_or(0, |(_, plies)| plies);
            let mut new_depth = depth - 1 + extension;
            self.double_extensions[ply + 1] =
                self.double_extensions[ply] + u8::from(extension == 2);
            // Surround threat: the move leaves the enemy Queen one free cell
            // (and did not before); look one ply further, as chess engines
            // extend checks.
            if f.threat_extension
                && their_free > 1
                && self.may_extend(ply)
                && self.pos.queen_free_cells(them) == Some(1)
            {
                new_depth += 1;
            }
            let score = if searched == 0 {
                -self.negamax(new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let mut r = 0;
                if f.lmr
                    && depth >= params::LMR_MIN_DEPTH
                    && searched >= params::LMR_MIN_MOVES
                    && move_order < order::COUNTER
                {
                    r = i32::from(self.lmr[(depth as usize).min(63)][searched.min(63)]);
                    if pv_node {
                        r -= 1;
                    }
                    r -= self.heur.history(mv) / self.cfg.search.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if pv_node && s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if abdada {
                self.shared.clear_busy(key);
            }
            self.pos.unmake();
            searched += 1;
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if alpha >= beta {
                        if generated {
                            self.on_cutoff(mv, prev, ply, depth, &moves[..step.min(total)]);
                        } else {
                            let tried: ArrayVec<Move, 4> =
                                before_list.iter().take(step).map(|&(m, _)| m).collect();
                            self.on_cutoff(mv, prev, ply, depth, &tried);
                        }
                        break;
                    }
                }
            }
        }

        if excluded.is_none() {
            let bound = Bound::of(best, original_alpha, beta);
            self.shared
                .tt
                .store(hash, ply, best_move, best, depth, bound);
        }
        best
    }

    /// Whether a node at `ply` may search a move deeper than its depth
    /// (the singular and surround-threat extensions): only within twice
    /// the root depth, so that extended lines stay finite.
    #[inline(always)]
    fn may_extend(&self, ply: usize) -> bool {
        (ply as i32) < 2 * self.root_depth
    }

    /// A draw's score for the side to move at `ply`: [`Config::contempt`]
    /// below zero for the side to move at the root, above for the other.
    #[inline]
    fn draw_score(&self, ply: usize) -> Score {
        if ply.is_multiple_of(2) {
            -self.cfg.contempt
        } else {
            self.cfg.contempt
        }
    }

    /// Whether the side to move surrounds the enemy Queen with its next
    /// move: checked at the leaves, where the static evaluation would only
    /// see five of her six cells filled.
    fn wins_at_once(&mut self) -> bool {
        let us = self.pos.side_to_move();
        let Some(q) = self.pos.queen(us.opponent()) else {
            return false;
        };
        let free = !self.pos.ring(q) & 0x3F;
        if free.count_ones() != 1 {
            return false;
        }
        let last = q.neighbor(Direction::from_index(free.trailing_zeros() as usize));
        let pos = &self.pos;
        pos.find_move_onto(last, |mv| {
            pos.surround_outcome_after(mv) == Some(Outcome::Win(us))
        })
        .is_some()
    }

    /// Whether after `mv` the side to move could surround the enemy Queen
    /// at once if it had the move again: a move that lets a piece reach her
    /// last free cell (by opening a gate or a path, or freeing a pinned
    /// piece) threatens to win, however quiet it looks.
    fn threatens_surround(&mut self, mv: Move) -> bool {
        self.pos.make(mv);
        self.pos.make(Move::Pass);
        let threat = self.wins_at_once();
        self.pos.unmake();
        self.pos.unmake();
        threat
    }

    /// Killers, history and countermove after `mv` refuted the node; the
    /// moves tried before it get a history malus.
    fn on_cutoff(&mut self, mv: Move, prev: Option<Move>, ply: usize, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (32 * depth * depth).min(2048);
        self.heur.update_history(mv, bonus);
        for &m in tried {
            self.heur.update_history(m, -bonus);
        }
        self.heur.set_counter(prev, mv);
    }

    /// The best root move found so far.
    pub fn best_move(&self) -> Move {
        self.best_pv
            .first()
            .copied()
            .unwrap_or(self.root_moves[0].mv)
    }
}

/// Whether `color` has a top piece on the board (a cheap guard so that a
/// null move is not tried where passing is the normal state of affairs).
fn has_own_piece_free_to_move(pos: &Position, color: Color) -> bool {
    pos.pieces_on_board()
        .any(|p| p.color() == color && pos.is_top(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::game::Game;
    use crate::hive::Rules;

    fn exact_config(parallel: bool) -> Config {
        Config {
            features: Features::NONE,
            repetition_draw: true,
            weights: EvalWeights::DEFAULT,
            node_limit: None,
            search: SearchParams::DEFAULT,
            parallel,
            contempt: 0,
        }
    }

    /// Exact score of a fixed-depth search; with `busy_replies`, every
    /// reply to every root move is marked as searched by another worker
    /// first, so that the nodes below the root defer all but their first
    /// move.
    fn exact_score(pos: &Position, depth: i32, busy_replies: bool) -> Score {
        let tt = Tt::new(1);
        let stop = AtomicBool::new(false);
        let busy = Shared::busy_table();
        let shared = Shared::new(&tt, &busy, &stop);
        let cfg = exact_config(busy_replies);
        let mut root = MoveList::new();
        pos.generate_moves(&mut root);
        if busy_replies {
            let mut p = pos.clone();
            for &m1 in &root {
                p.make(m1);
                let mut replies = MoveList::new();
                p.generate_moves(&mut replies);
                for &m2 in &replies {
                    p.make(m2);
                    shared.mark_busy(busy_key(p.hash()));
                    p.unmake();
                }
                p.unmake();
            }
        }
        let mut tables = ThreadTables::default();
        let mut w = Worker::new(0, pos, &shared, &cfg, &mut tables, None, &root);
        w.order_root();
        for d in 1..=depth {
            assert!(w.iterate(d));
        }
        w.best_score
    }

    #[test]
    fn deferred_moves_are_searched_after_the_others() {
        let gs = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wS1;bA1 bQ/;wG1 /wQ;bG1 bQ\\";
        let game = Game::from_game_string(gs, Rules::default(), true).expect("valid");
        let pos = game.position();
        assert_eq!(exact_score(pos, 4, true), exact_score(pos, 4, false));
    }
}
