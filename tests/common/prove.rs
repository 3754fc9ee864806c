//! A small full-width prover for Queen-surround tactics, independent of the
//! engine's search: it looks at every move to the needed depth, without
//! pruning or evaluation. Shared by `tests/tactics.rs` and
//! `examples/gen_tactics.rs`.

#![allow(dead_code)]

use waggle::hive::{Color, Move, MoveList, Outcome, Position};

fn moves_of(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    list.to_vec()
}

/// The result on the board after `mv`, from `us`'s point of view: 1 a win,
/// -1 a loss, 0 a draw, `None` when the game goes on.
fn result_after(pos: &mut Position, mv: Move, us: Color) -> Option<i32> {
    pos.make(mv);
    let r = pos.surround_outcome().map(|o| match o {
        Outcome::Win(c) if c == us => 1,
        Outcome::Win(_) => -1,
        Outcome::Draw => 0,
    });
    pos.unmake();
    r
}

/// The moves that surround the opposing Queen at once (and not both Queens).
pub fn wins_in_1(pos: &mut Position) -> Vec<Move> {
    let us = pos.side_to_move();
    moves_of(pos)
        .into_iter()
        .filter(|&m| result_after(pos, m, us) == Some(1))
        .collect()
}

/// The moves after which every reply allows a surround on the next move
/// (a win in 3 plies). Moves that win at once are not included.
pub fn wins_in_2(pos: &mut Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for m in moves_of(pos) {
        if result_after(pos, m, us).is_some() {
            continue;
        }
        pos.make(m);
        let mut forced = true;
        for r in moves_of(pos) {
            match result_after(pos, r, us) {
                Some(1) => continue,
                Some(_) => forced = false,
                None => {
                    pos.make(r);
                    forced = !wins_in_1(pos).is_empty();
                    pos.unmake();
                }
            }
            if !forced {
                break;
            }
        }
        pos.unmake();
        if forced {
            out.push(m);
        }
    }
    out
}

/// The moves after which the opponent cannot surround our Queen on its next
/// move (and that do not lose or draw at once).
pub fn blocks(pos: &mut Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = Vec::new();
    for m in moves_of(pos) {
        match result_after(pos, m, us) {
            Some(1) => out.push(m),
            Some(_) => {}
            None => {
                pos.make(m);
                let them = pos.side_to_move();
                let safe = !moves_of(pos)
                    .into_iter()
                    .any(|r| result_after(pos, r, them) == Some(1));
                pos.unmake();
                if safe {
                    out.push(m);
                }
            }
        }
    }
    out
}

/// Number of legal moves.
pub fn move_count(pos: &Position) -> usize {
    moves_of(pos).len()
}
