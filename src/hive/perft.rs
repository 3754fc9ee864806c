//! Perft: counting the leaves of the legal game tree, to test the move
//! generator against reference counts (`shared/spec/perft.md`).
//!
//! Like Mzinga and nokamute, the last ply is counted by the length of the move
//! list ("bulk counting") instead of being played. A position where a Queen is
//! surrounded has no children; repetition is not applied (as in the
//! reference tables).

use super::movegen::MoveList;
use super::position::{Move, Position};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of legal move sequences of exactly `depth` plies from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.surround_outcome().is_some() {
        return 0;
    }
    if depth == 1 {
        return pos.count_moves() as u64;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        pos.make(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// [`perft`] that gives up (returning `None`) soon after `stop` is raised.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if pos.surround_outcome().is_some() {
        return Some(0);
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        pos.make(mv);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake();
        nodes += n?;
    }
    Some(nodes)
}

/// Perft split by root move: `(move, count)` for each legal root move, in
/// generation order. With `parallel`, root moves are spread over rayon's
/// thread pool, each on its own copy of the position.
pub fn perft_divide(pos: &Position, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
    if depth == 0 || pos.surround_outcome().is_some() {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let count = |mv: &Move| {
        let mut p = pos.clone();
        p.make(*mv);
        (*mv, perft(&mut p, depth - 1))
    };
    if parallel {
        moves.par_iter().map(count).collect()
    } else {
        moves.iter().map(count).collect()
    }
}
