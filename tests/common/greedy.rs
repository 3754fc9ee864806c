//! Seeded semi-greedy play that runs into Queen-surround tactics, shared by
//! `examples/gen_tactics.rs` and `examples/probe_deep.rs`.

use waggle::hive::game::Game;
use waggle::hive::{Color, Move};
use waggle::tools::rng::SplitMix64;

/// Pieces around the opposing Queen minus those around `us`'s own.
fn pressure(game: &Game, us: Color) -> i64 {
    let pos = game.position();
    let around = |c: Color| pos.queen(c).map_or(0, |q| pos.occupied_neighbors(q) as i64);
    around(us.opponent()) - around(us)
}

/// With probability 0.7 a move that most increases [`pressure`] (ties
/// broken at random), otherwise a uniformly random legal move. The game
/// must not be over.
pub fn semi_greedy_move(game: &Game, rng: &mut SplitMix64) -> Move {
    let moves = game.legal_moves();
    let us = game.side_to_move();
    if rng.below(10) < 7 {
        let mut best = (i64::MIN, 0u64, moves[0]);
        for &m in &moves {
            let mut next = game.clone();
            if next.play(m).is_err() {
                continue;
            }
            let key = (pressure(&next, us), rng.next_u64());
            if key > (best.0, best.1) {
                best = (key.0, key.1, m);
            }
        }
        best.2
    } else {
        moves[rng.below(moves.len())]
    }
}
