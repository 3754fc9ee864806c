//! Move ordering: the transposition-table move, killers, countermoves,
//! history, and a cheap static order that tries moves around the Queens
//! first.
//!
//! Moves are scored into a parallel array and picked one by one (selection),
//! since a cutoff usually comes early and most of the list is never sorted.

use super::params::{order, HISTORY_MAX};
use crate::hive::hex::CELLS;
use crate::hive::{Bug, Hex, Move, MoveList, Position, MAX_MOVES};
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

impl OrderContext {
    /// The killers and the countermove with their order scores, best first,
    /// without repeats and without the table move: the moves a node tries
    /// before it scores the others.
    pub fn specials(&self) -> ArrayVec<(Move, i32), 3> {
        let mut out: ArrayVec<(Move, i32), 3> = ArrayVec::new();
        let candidates = [
            (self.killers[0], order::KILLER_1),
            (self.killers[1], order::KILLER_2),
            (self.counter, order::COUNTER),
        ];
        for (mv, score) in candidates {
            if let Some(mv) = mv {
                if self.tt_move != Some(mv) && out.iter().all(|&(m, _)| m != mv) {
                    out.push((mv, score));
                }
            }
        }
        out
    }
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
    let their_free = pos.queen_free_cells(us.opponent()).unwrap_or(0);
    // The cells the table move, the killers and the countermove go to, by
    // the low bits of their indices (a pass by bit 0): a move to none of
    // them is none of them, and is scored without comparing it with each.
    let cell_bit = |mv: Move| mv.to().map_or(1, |to| 1u64 << (to.index() & 63));
    let special_cells = [ctx.tt_move, ctx.killers[0], ctx.killers[1], ctx.counter]
        .into_iter()
        .flatten()
        .fold(0, |bits, mv| bits | cell_bit(mv));
    for &mv in moves {
        let score = if cell_bit(mv) & special_cells == 0 {
            static_score(pos, mv, own_q, their_q, their_free) + heur.history(mv)
        } else if Some(mv) == ctx.tt_move {
            order::TT_MOVE
        } else if Some(mv) == ctx.killers[0] {
            order::KILLER_1
        } else if Some(mv) == ctx.killers[1] {
            order::KILLER_2
        } else if Some(mv) == ctx.counter {
            order::COUNTER
        } else {
            static_score(pos, mv, own_q, their_q, their_free) + heur.history(mv)
        };
        scores.push(score);
    }
}

/// Counts how the move changes the occupancy around `queen`: +1 when it
/// comes to a neighbour cell (a climb onto a neighbour counts: a Beetle there
/// crowds the Queen), -1 when it leaves one empty. `vacated` is the cell the
/// move leaves empty: its origin, unless the piece came off a stack.
#[inline(always)]
fn around(queen: Option<Hex>, vacated: Option<Hex>, to: Hex) -> i32 {
    let Some(q) = queen else { return 0 };
    let fills = i32::from(to.is_adjacent(q));
    let frees = vacated.map_or(0, |f| i32::from(f.is_adjacent(q)));
    fills - frees
}

/// The cell a move from `from` leaves empty: `from` unless the piece stood
/// on a stack.
#[inline(always)]
fn vacated(pos: &Position, from: Hex) -> Option<Hex> {
    (pos.height(from) == 1).then_some(from)
}

/// Whether a move leaves the Queens alone: it does not move a Queen, comes
/// to no cell around the enemy Queen and leaves no cell around the own Queen
/// empty. Late-move pruning skips such moves near the leaves. (With Queen
/// moves counted as quiet when they crowd nothing, the engine scored 24-31-5
/// at 20,000 nodes and 23-26-11 at 0.1 s a move against this rule.)
#[inline(always)]
pub fn is_quiet(pos: &Position, mv: Move, own_q: Option<Hex>, their_q: Option<Hex>) -> bool {
    match mv {
        Move::Pass => true,
        Move::Place { to, .. } => around(their_q, None, to) <= 0,
        Move::Move { piece, from, to } => {
            let left = vacated(pos, from);
            piece.bug() != Bug::Queen
                && around(their_q, left, to) <= 0
                && around(own_q, left, to) >= 0
        }
    }
}

#[inline(always)]
fn static_score(
    pos: &Position,
    mv: Move,
    own_q: Option<Hex>,
    their_q: Option<Hex>,
    their_free: usize,
) -> i32 {
    match mv {
        Move::Pass => 0,
        Move::Place { to, .. } => {
            let enemy = around(their_q, None, to);
            let own = around(own_q, None, to);
            order::PLACEMENT + enemy * order::FILL_ENEMY_QUEEN + own * order::FILL_OWN_QUEEN
        }
        Move::Move { from, to, .. } => {
            let left = vacated(pos, from);
            let enemy = around(their_q, left, to);
            if enemy > 0 && their_free == 1 && pos.height(to) == 0 {
                return order::WINNING;
            }
            let own = around(own_q, left, to);
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
    // The first of the best scores; two passes, since a plain maximum
    // vectorises and the scan for its position stops early.
    let rest = &scores[start..moves.len()];
    let top = rest.iter().fold(i32::MIN, |m, &s| m.max(s));
    let best = start + rest.iter().position(|&s| s == top).unwrap_or(0);
    moves.swap(start, best);
    scores.swap(start, best);
    moves[start]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::game::Game;
    use crate::hive::notation::parse_move;
    use crate::hive::{Color, Rules};

    #[test]
    fn quiet_moves_leave_the_queens_alone() {
        // wA1 stands next to the white Queen; White to move.
        let gs = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wS1;bA1 bQ/";
        let game = Game::from_game_string(gs, Rules::default(), true).expect("valid");
        let pos = game.position();
        let (own_q, their_q) = (pos.queen(Color::White), pos.queen(Color::Black));
        let quiet = |text: &str| {
            let mv = parse_move(pos, text).expect("legal move");
            is_quiet(pos, mv, own_q, their_q)
        };
        assert!(!quiet("wQ /wS1"), "a Queen move");
        assert!(!quiet("wA1 bQ\\"), "fills a cell around the enemy Queen");
        assert!(!quiet("wA1 \\bS1"), "frees a cell around the own Queen");
        assert!(
            quiet("wA1 -wQ"),
            "frees one cell around the own Queen and fills another"
        );
        assert!(quiet("wS2 -wQ"), "a placement away from the enemy Queen");
    }

    #[test]
    fn leaving_a_stack_next_to_the_queen_for_her_last_free_cell_is_loud() {
        // From bench-positions/tactics.txt (surround in 2): the Mosquito
        // climbs onto bB1 beside the white Queen, then steps down into her
        // last free cell. The cell it leaves stays occupied by bB1.
        let tactic = include_str!("../../bench-positions/tactics.txt")
            .lines()
            .find(|l| l.starts_with("surround-in-2 | bM bB1 |"))
            .expect("the tactic");
        let gs = tactic.rsplit(" | ").next().expect("a GameString");
        let mut game = Game::from_game_string(gs, Rules::default(), true).expect("valid");
        game.play_str("bM bB1").expect("legal");
        game.play_str("wA1 /wL").expect("legal");
        let pos = game.position();
        let mv = parse_move(pos, "bM bA2\\").expect("legal move");
        let (own_q, their_q) = (pos.queen(Color::Black), pos.queen(Color::White));
        assert!(!is_quiet(pos, mv, own_q, their_q));
        let mut list = MoveList::new();
        list.push(mv);
        let ctx = OrderContext {
            tt_move: None,
            killers: [None; 2],
            counter: None,
        };
        let mut scores = ArrayVec::new();
        score_moves(pos, &list, &ctx, &Heuristics::default(), &mut scores);
        assert_eq!(scores[0], order::WINNING);
    }
}
