//! Move ordering: the transposition-table move, killers, countermoves,
//! history, and a cheap static order that tries moves around the Queens
//! first.
//!
//! Moves are scored into a parallel array and picked one by one (selection),
//! since a cutoff usually comes early and most of the list is never sorted.

use super::params::{order, HISTORY_MAX};
use crate::hive::hex::CELLS;
use crate::hive::{Hex, Move, MoveList, Position, MAX_MOVES};
use arrayvec::ArrayVec;

/// Per-thread ordering tables that persist across a search.
pub struct Heuristics {
    /// History: how often a (colour·bug, destination) caused a cutoff,
    /// gravity-scaled into `±HISTORY_MAX`.
    history: Box<[[i32; CELLS]; 16]>,
    /// Countermoves: the reply that refuted the opponent's (colour·bug,
    /// destination) last time.
    counter: Box<[[Option<Move>; CELLS]; 16]>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            history: Box::new([[0; CELLS]; 16]),
            counter: Box::new([[None; CELLS]; 16]),
        }
    }
}

#[inline(always)]
fn key(mv: Move) -> Option<(usize, usize)> {
    Some((mv.piece()?.kind_index(), mv.to()?.index()))
}

impl Heuristics {
    /// Forgets everything.
    pub fn clear(&mut self) {
        for row in self.history.iter_mut() {
            row.fill(0);
        }
        for row in self.counter.iter_mut() {
            row.fill(None);
        }
    }

    /// History score of a move.
    #[inline(always)]
    pub fn history(&self, mv: Move) -> i32 {
        key(mv).map_or(0, |(k, to)| self.history[k][to])
    }

    /// Adds `bonus` (negative for a malus) with gravity, so scores stay
    /// within `±HISTORY_MAX`.
    #[inline(always)]
    pub fn update_history(&mut self, mv: Move, bonus: i32) {
        if let Some((k, to)) = key(mv) {
            let h = &mut self.history[k][to];
            let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        }
    }

    /// The countermove stored for the opponent's `prev`.
    #[inline(always)]
    pub fn counter(&self, prev: Option<Move>) -> Option<Move> {
        let (k, to) = key(prev?)?;
        self.counter[k][to]
    }

    /// Records `mv` as the refutation of `prev`.
    #[inline(always)]
    pub fn set_counter(&mut self, prev: Option<Move>, mv: Move) {
        if let Some((k, to)) = prev.and_then(key) {
            self.counter[k][to] = Some(mv);
        }
    }
}

/// What a node knows when it orders its moves.
pub struct OrderContext {
    /// Transposition-table move (checked against the list here).
    pub tt_move: Option<Move>,
    /// Killers of this ply.
    pub killers: [Option<Move>; 2],
    /// Countermove to the previous move.
    pub counter: Option<Move>,
}

/// Scores every move of `moves` into `scores` (same indices).
pub fn score_moves(
    pos: &Position,
    moves: &MoveList,
    ctx: &OrderContext,
    heur: &Heuristics,
    scores: &mut ArrayVec<i32, MAX_MOVES>,
) {
    scores.clear();
    let us = pos.side_to_move();
    let own_q = pos.queen(us);
    let their_q = pos.queen(us.opponent());
    // Liberties of the enemy Queen, to spot a move that fills the last one.
    let their_free = their_q.map_or(0, |q| 6 - pos.occupied_neighbors(q));
    for &mv in moves {
        let score = if Some(mv) == ctx.tt_move {
            order::TT_MOVE
        } else if Some(mv) == ctx.killers[0] {
            order::KILLER_1
        } else if Some(mv) == ctx.killers[1] {
            order::KILLER_2
        } else if Some(mv) == ctx.counter {
            order::COUNTER
        } else {
            static_score(mv, own_q, their_q, their_free) + heur.history(mv)
        };
        scores.push(score);
    }
}

/// Counts how the move changes the occupancy around `queen`: +1 when it
/// fills a neighbour cell, -1 when it frees one (a piece on a stack leaving
/// does not free the cell; ignoring that here is a cheap approximation).
#[inline(always)]
fn around(queen: Option<Hex>, from: Option<Hex>, to: Hex) -> i32 {
    let Some(q) = queen else { return 0 };
    let fills = i32::from(to.is_adjacent(q));
    let frees = from.map_or(0, |f| i32::from(f.is_adjacent(q)));
    fills - frees
}

/// Whether a move leaves the Queens alone: it fills no cell around the enemy
/// Queen and frees no cell around the own Queen. Late-move pruning skips
/// such moves near the leaves.
#[inline(always)]
pub fn is_quiet(mv: Move, own_q: Option<Hex>, their_q: Option<Hex>) -> bool {
    match mv {
        Move::Pass => true,
        Move::Place { to, .. } => around(their_q, None, to) <= 0,
        Move::Move { from, to, .. } => {
            around(their_q, Some(from), to) <= 0 && around(own_q, Some(from), to) >= 0
        }
    }
}

#[inline(always)]
fn static_score(mv: Move, own_q: Option<Hex>, their_q: Option<Hex>, their_free: usize) -> i32 {
    match mv {
        Move::Pass => 0,
        Move::Place { to, .. } => {
            let enemy = around(their_q, None, to);
            let own = around(own_q, None, to);
            order::PLACEMENT + enemy * order::FILL_ENEMY_QUEEN + own * order::FILL_OWN_QUEEN
        }
        Move::Move { from, to, .. } => {
            let enemy = around(their_q, Some(from), to);
            if enemy > 0 && their_free == 1 {
                return order::WINNING;
            }
            let own = around(own_q, Some(from), to);
            let own_score = if own < 0 {
                -own * order::FREE_OWN_QUEEN
            } else {
                own * order::FILL_OWN_QUEEN
            };
            enemy * order::FILL_ENEMY_QUEEN + own_score
        }
    }
}

/// Moves the best-scored move among `start..` to `start` and returns it.
#[inline(always)]
pub fn pick(moves: &mut MoveList, scores: &mut [i32], start: usize) -> Move {
    let mut best = start;
    for i in start + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(start, best);
    scores.swap(start, best);
    moves[start]
}
