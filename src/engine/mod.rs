//! Search and evaluation, on top of [`crate::hive`].
//!
//! The protocol layer talks to the engine only through [`Engine`]:
//! `new_game`, `search(position, limits, stop, on_iteration)`.

use crate::hive::{Color, Move, MoveList, Outcome, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            hash_mb: 64,
            repetition_draw: true,
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
#[derive(Debug, Default)]
pub struct Engine {
    /// Current settings.
    pub options: EngineOptions,
}

impl Engine {
    /// A new engine with the given options. Cheap: tables are allocated on
    /// the first search.
    pub fn new(options: EngineOptions) -> Engine {
        Engine { options }
    }

    /// Forgets everything learned from earlier searches.
    pub fn new_game(&mut self) {}

    /// Searches `pos` within `limits`, or until `stop` is raised, and
    /// returns the best move found. Calls `on_iteration` after each
    /// completed depth.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut pos = pos.clone();
        let mut root = MoveList::new();
        pos.generate_moves(&mut root);
        if let Some(only) = &limits.root_moves {
            let kept: MoveList = root.iter().copied().filter(|m| only.contains(m)).collect();
            if !kept.is_empty() {
                root = kept;
            }
        }
        let mut result = SearchResult {
            best_move: root[0],
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![root[0]],
        };
        let max_depth = limits.depth.unwrap_or(64);
        let deadline = limits.time.map(|t| start + t.mul_f64(0.9));
        let mut s = Simple {
            nodes: 0,
            stop,
            deadline,
            node_limit: limits.nodes,
            aborted: false,
            repetition_draw: self.options.repetition_draw,
            root_ply: pos.ply(),
        };
        for depth in 1..=max_depth {
            let mut best = None;
            let mut alpha = -MATE - 1;
            for &mv in &root {
                pos.make(mv);
                let score = -s.negamax(&mut pos, depth - 1, -MATE - 1, -alpha, 1);
                pos.unmake();
                if s.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best = Some(mv);
                }
            }
            if s.aborted {
                break;
            }
            if let Some(mv) = best {
                result = SearchResult {
                    best_move: mv,
                    score: alpha,
                    depth,
                    nodes: s.nodes,
                    pv: vec![mv],
                };
                on_iteration(&SearchInfo {
                    depth,
                    score: alpha,
                    nodes: s.nodes,
                    elapsed: start.elapsed(),
                    pv: result.pv.clone(),
                });
            }
            if is_decisive(alpha) {
                break;
            }
        }
        result.nodes = s.nodes;
        result
    }
}

struct Simple<'a> {
    nodes: u64,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    aborted: bool,
    repetition_draw: bool,
    root_ply: u32,
}

impl Simple<'_> {
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: Score,
        beta: Score,
        ply: i32,
    ) -> Score {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let over = self.node_limit.is_some_and(|n| self.nodes >= n);
            if late || over || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        if let Some(outcome) = pos.surround_outcome() {
            return match outcome {
                Outcome::Draw => 0,
                Outcome::Win(c) if c == pos.side_to_move() => MATE - ply,
                Outcome::Win(_) => -MATE + ply,
            };
        }
        if self.repetition_draw && pos.repeated_since(self.root_ply.saturating_sub(0)) {
            return 0;
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut best = -MATE - 1;
        for &mv in &moves {
            pos.make(mv);
            let score = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake();
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// A small evaluation: liberties around each Queen and mobility.
pub fn evaluate(pos: &Position) -> Score {
    let us = pos.side_to_move();
    let mut score = 0;
    for color in Color::ALL {
        let sign = if color == us { 1 } else { -1 };
        if let Some(q) = pos.queen(color) {
            score -= sign * 100 * pos.occupied_neighbors(q) as Score;
        }
    }
    score
}
