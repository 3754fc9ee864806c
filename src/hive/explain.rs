//! Why a move is illegal, in the words a player would use.
//!
//! The generator decides legality; this module only explains a refusal after
//! the fact, so it may be slow and approximate: it names the first rule (in
//! the order of `RULES.md`) that the move breaks, for example
//! `wQ can't move: the hive would split`,
//! `bS1 can't get there: a Spider moves exactly three cells around the hive`
//! or `wA1 can't reach that cell: every way in is blocked by a gate`.

use super::hex::{Direction, Hex, HexSet};
use super::movegen::{ant_flood, MoveList};
use super::piece::{Bug, Color, Piece};
use super::position::{Move, Position};

/// A sentence saying why `mv` is not legal in `pos`, or `None` when it is.
pub fn explain_illegal(pos: &Position, mv: Move) -> Option<String> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if moves.contains(&mv) {
        return None;
    }
    let side = pos.side_to_move();
    if moves.as_slice() == [Move::Pass] {
        return Some(format!("{} has no legal move and must pass", side.name()));
    }
    Some(match mv {
        Move::Pass => "you can't pass while you have a legal move".to_string(),
        Move::Place { piece, to } => placement(pos, piece, to),
        Move::Move { piece, from, to } if piece.color() != side => throw(pos, piece, from, to),
        Move::Move { piece, from, to } => movement(pos, piece, from, to),
    })
}

fn not_your_piece(side: Color, piece: Piece) -> String {
    format!(
        "it is {}'s turn, and {piece} is {}'s piece",
        side.name(),
        piece.color().name()
    )
}

/// Why a piece from hand can't be placed at `to`.
fn placement(pos: &Position, piece: Piece, to: Hex) -> String {
    let side = pos.side_to_move();
    if piece.color() != side {
        return not_your_piece(side, piece);
    }
    let turn = pos.turn();
    if piece.bug() == Bug::Queen && turn == 1 && pos.rules().tournament_opening {
        return "you can't place your Queen Bee on your first turn (tournament opening)".into();
    }
    if turn == 4 && piece.bug() != Bug::Queen && pos.in_hand(side, Bug::Queen) > 0 {
        return format!("you must place your Queen Bee by your fourth turn: {piece} has to wait");
    }
    if pos.is_occupied(to) {
        return format!(
            "{piece} can't be placed on top of the hive: a new piece always enters play on the ground"
        );
    }
    if pos.ply() >= 2 {
        let enemy = to
            .neighbors()
            .iter()
            .filter_map(|&n| pos.top(n))
            .find(|t| t.color() != side);
        if let Some(enemy) = enemy {
            return format!(
                "{piece} can't be placed there: it would touch {enemy}, and a new piece may touch only your own pieces"
            );
        }
        let touches_own = to.neighbors().iter().any(|&n| pos.top(n).is_some());
        if !touches_own {
            return format!(
                "{piece} can't be placed there: a new piece must touch one of your own pieces"
            );
        }
    }
    format!("{piece} can't be placed there")
}

/// Why one of the side to move's own pieces can't move from `from` to `to`.
fn movement(pos: &Position, piece: Piece, from: Hex, to: Hex) -> String {
    let side = pos.side_to_move();
    if pos.queen(side).is_none() {
        return format!("{piece} can't move before your Queen Bee is on the board");
    }
    if let Some(top) = pos.top(from).filter(|&t| t != piece) {
        return format!("{piece} can't move: {top} is on top of it");
    }
    if pos.last_moved() == Some(piece) {
        return format!("{piece} can't move this turn: the Pillbug moved it last turn");
    }
    if to == from {
        return format!("{piece} must move to another cell");
    }
    let h = pos.height(from).saturating_sub(1);
    if h == 0 && pos.articulation_points().contains(from) {
        return format!("{piece} can't move: the hive would split");
    }
    let bug = piece.bug();
    let climbs = pos.is_occupied(to);
    let as_beetle = bug == Bug::Beetle || (bug == Bug::Mosquito && h > 0);
    if climbs && !matches!(bug, Bug::Beetle | Bug::Mosquito | Bug::Ladybug) {
        return format!(
            "{piece} can't climb on top of the hive: only a Beetle (or a Mosquito next to one) moves onto other pieces"
        );
    }
    let name = bug.name();
    match bug {
        _ if as_beetle => one_step(pos, piece, from, to, "a Beetle"),
        Bug::Queen | Bug::Pillbug => {
            let article = if bug == Bug::Queen { "the" } else { "a" };
            one_step(pos, piece, from, to, &format!("{article} {name}"))
        }
        Bug::Grasshopper => grasshopper(pos, piece, from, to),
        Bug::Spider if reachable_by_sliding(pos, from, to) => format!(
            "{piece} can't get there: a Spider moves exactly three cells around the hive, never back to a cell it passed"
        ),
        Bug::Spider | Bug::Ant => unreachable_cell(piece),
        Bug::Ladybug if climbs => format!(
            "{piece} can't end its move on top of the hive: a Ladybug climbs up, takes one step on top and comes down"
        ),
        Bug::Ladybug => format!(
            "{piece} can't get there: a Ladybug moves exactly three cells, two on top of the hive and one down"
        ),
        _ => format!(
            "{piece} can't get there: a Mosquito moves only as one of the insects it touches"
        ),
    }
}

/// Why a one-step mover (Queen Bee, Pillbug, Beetle) can't step to `to`.
fn one_step(pos: &Position, piece: Piece, from: Hex, to: Hex, who: &str) -> String {
    let Some(d) = from.direction_to(to) else {
        return format!("{piece} can't get there: {who} moves exactly one cell");
    };
    // Heights with the moving piece lifted (`from` is never a flank).
    let h = pos.height(from).saturating_sub(1);
    let dest = pos.height(to);
    let left = pos.height(from.neighbor(d.ccw()));
    let right = pos.height(from.neighbor(d.cw()));
    if h == 0 && dest == 0 && left == 0 && right == 0 {
        return format!("{piece} can't move there: it would lose contact with the hive");
    }
    if left.min(right) > h.max(dest) {
        return if h == 0 && dest == 0 {
            format!(
                "{piece} can't slide there: the gap between the two pieces beside it is too narrow (freedom to move)"
            )
        } else {
            format!("{piece} can't move there: the stacks on either side form a gate it can't pass")
        };
    }
    format!("{piece} can't move there")
}

/// Why a Grasshopper can't jump to `to`.
fn grasshopper(pos: &Position, piece: Piece, from: Hex, to: Hex) -> String {
    if pos.is_occupied(to) {
        return format!(
            "{piece} can't land on another piece: a Grasshopper jumps to an empty cell"
        );
    }
    if from.is_adjacent(to) {
        return format!(
            "{piece} can't step to a neighbouring cell: a Grasshopper jumps over at least one piece"
        );
    }
    for d in Direction::ALL {
        let mut cell = from.neighbor(d);
        // A hive of 28 pieces spans fewer than 30 cells in any line.
        for _ in 0..30 {
            if cell == to {
                return format!(
                    "{piece} can't jump over an empty cell: a Grasshopper lands on the first empty cell in its line"
                );
            }
            cell = cell.neighbor(d);
        }
    }
    format!("{piece} can't get there: a Grasshopper jumps in a straight line over other pieces")
}

fn unreachable_cell(piece: Piece) -> String {
    format!(
        "{piece} can't reach that cell: no way around the hive leads there without squeezing through a gate"
    )
}

/// Whether a ground piece at `from` could slide around the hive to `to`.
fn reachable_by_sliding(pos: &Position, from: Hex, to: Hex) -> bool {
    let mut reached = HexSet::new();
    ant_flood(pos, from, &mut reached);
    reached.contains(to)
}

/// Why the side to move can't move the enemy piece `piece` (only a Pillbug,
/// or a Mosquito next to one, moves enemy pieces).
fn throw(pos: &Position, piece: Piece, from: Hex, to: Hex) -> String {
    let side = pos.side_to_move();
    let throwers: Vec<(Piece, Hex)> = from
        .neighbors()
        .into_iter()
        .filter(|&n| pos.height(n) == 1)
        .filter_map(|n| pos.top(n).map(|t| (t, n)))
        .filter(|&(t, n)| {
            t.color() == side
                && (t.bug() == Bug::Pillbug
                    || (t.bug() == Bug::Mosquito
                        && n.neighbors()
                            .iter()
                            .any(|&m| pos.top(m).is_some_and(|p| p.bug() == Bug::Pillbug))))
        })
        .collect();
    if !pos.game_type().pillbug || throwers.is_empty() || pos.queen(side).is_none() {
        return not_your_piece(side, piece);
    }
    let thrower = throwers[0].0;
    if throwers.iter().all(|&(t, _)| pos.last_moved() == Some(t)) {
        return format!("{thrower} can't move other pieces this turn: it was moved last turn");
    }
    if pos.last_moved() == Some(piece) {
        return format!("{thrower} can't move {piece}: {piece} moved last turn");
    }
    if pos.height(from) > 1 {
        return format!(
            "{thrower} can't move {piece}: it moves only pieces that are not on a stack"
        );
    }
    if pos.articulation_points().contains(from) {
        return format!("{thrower} can't move {piece}: the hive would split");
    }
    if pos.is_occupied(to) || !throwers.iter().any(|&(_, n)| n.is_adjacent(to)) {
        return format!(
            "{thrower} can't put {piece} there: it puts a piece down only on an empty cell next to itself"
        );
    }
    format!("{thrower} can't move {piece} there: a gate blocks the way over it")
}
