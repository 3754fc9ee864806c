//! A text drawing of a position, for people reading `waggle analyse
//! --board`: the hive on its hex grid, the empty cells around it, the
//! stacks and the pieces in hand.
//!
//! The grid is pointy-topped, as in MzingaViewer: a row of cells is one line,
//! and each cell's neighbours on the line above and below sit half a cell to
//! its left and right (north-west and north-east above, south-west and
//! south-east below). Empty cells next to the hive are dots. For example,
//! after `wS1; bS1 wS1-; wQ -wS1; bQ bS1-`:
//!
//! ```text
//!    .     .     .     .     .
//! .    wQ    wS1   bS1   bQ     .
//!    .     .     .     .     .
//! ```
//!
//! A piece with others beneath it is drawn in parentheses, `(bB1)`, and its
//! stack is spelled out below the grid, top first: `bB1 on wQ`.

use super::hex::{Direction, Hex};
use super::piece::{Bug, Color, Piece};
use super::position::Position;
use std::collections::{HashMap, VecDeque};

/// Axial steps of the six directions, in [`Direction::ALL`] order: `q` grows
/// to the East, `r` to the South-East.
const STEPS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// Characters for one step of `x = 2q + r`: half a cell.
const HALF_CELL: usize = 3;

/// The drawing, one string a line, without trailing spaces: the grid, then a
/// line per stack (`bB1 on wQ`, top first), then the pieces each side has in
/// hand. An empty board is a single line saying so.
pub fn diagram(pos: &Position) -> Vec<String> {
    let mut lines = Vec::new();
    let cells = layout(pos);
    if cells.is_empty() {
        lines.push("(the board is empty)".to_string());
    } else {
        lines.extend(grid(pos, &cells));
        for &(hex, _) in &cells {
            if pos.height(hex) > 1 {
                lines.push(stack_line(pos, hex));
            }
        }
    }
    for color in Color::ALL {
        let hand = in_hand(pos, color);
        let hand = if hand.is_empty() {
            "nothing".to_string()
        } else {
            hand.join(" ")
        };
        lines.push(format!("{} in hand: {hand}", color.name()));
    }
    lines
}

/// The occupied cells and the empty cells next to them, each with its axial
/// coordinates relative to the first piece on the board (found by walking
/// the hive, which is connected).
fn layout(pos: &Position) -> Vec<(Hex, (i32, i32))> {
    let Some(start) = pos.pieces_on_board().find_map(|p| pos.hex_of(p)) else {
        return Vec::new();
    };
    let mut seen: HashMap<Hex, (i32, i32)> = HashMap::new();
    let mut order = vec![(start, (0, 0))];
    seen.insert(start, (0, 0));
    let mut queue = VecDeque::from([(start, (0, 0))]);
    while let Some((hex, (q, r))) = queue.pop_front() {
        for (d, (dq, dr)) in Direction::ALL.into_iter().zip(STEPS) {
            let n = hex.neighbor(d);
            if seen.contains_key(&n) {
                continue;
            }
            let at = (q + dq, r + dr);
            seen.insert(n, at);
            order.push((n, at));
            // Empty cells are drawn but not walked through.
            if pos.is_occupied(n) {
                queue.push_back((n, at));
            }
        }
    }
    order.sort_by_key(|&(_, (q, r))| (r, 2 * q + r));
    order
}

/// The grid lines, top row first.
fn grid(pos: &Position, cells: &[(Hex, (i32, i32))]) -> Vec<String> {
    let min_x = cells
        .iter()
        .map(|&(_, (q, r))| 2 * q + r)
        .min()
        .unwrap_or(0);
    let mut lines: Vec<String> = Vec::new();
    let mut row: Option<i32> = None;
    let mut line = String::new();
    for &(hex, (q, r)) in cells {
        if row != Some(r) {
            if row.is_some() {
                lines.push(line.trim_end().to_string());
            }
            line = String::new();
            row = Some(r);
        }
        let column = (2 * q + r - min_x) as usize * HALF_CELL;
        while line.len() < column {
            line.push(' ');
        }
        line.push_str(&format!("{:^5}", label(pos, hex)));
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// A cell's text: the top piece, in parentheses when others are beneath it,
/// or `.` for an empty cell.
fn label(pos: &Position, hex: Hex) -> String {
    match pos.top(hex) {
        None => ".".to_string(),
        Some(piece) if pos.height(hex) > 1 => format!("({piece})"),
        Some(piece) => piece.to_string(),
    }
}

/// `bB1 on wM on wQ`: a stack, top first.
fn stack_line(pos: &Position, hex: Hex) -> String {
    let names: Vec<String> = pos.stack(hex).map(|p| p.to_string()).collect();
    names.join(" on ")
}

/// The pieces `color` still has in hand, by their UHP names.
fn in_hand(pos: &Position, color: Color) -> Vec<String> {
    let mut names = Vec::new();
    for bug in Bug::ALL {
        let Some(next) = pos.next_in_hand(color, bug) else {
            continue;
        };
        for k in 0..pos.in_hand(color, bug) {
            if let Some(p) = Piece::new(color, bug, next.number() + k) {
                names.push(p.to_string());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::game::Game;
    use crate::hive::Rules;

    fn draw(gs: &str) -> Vec<String> {
        let game = Game::from_game_string(gs, Rules::default(), true).expect("valid GameString");
        diagram(game.position())
    }

    #[test]
    fn an_empty_board_says_so_and_lists_every_piece_in_hand() {
        let lines = draw("Base;NotStarted;White[1]");
        assert_eq!(lines[0], "(the board is empty)");
        assert_eq!(
            lines[1],
            "White in hand: wQ wS1 wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3"
        );
        assert!(lines[2].starts_with("Black in hand: bQ "));
    }

    #[test]
    fn a_row_of_four_is_drawn_in_one_line_between_its_empty_neighbours() {
        let lines = draw("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
        // Four pieces in a row from West to East, with the empty cells of
        // the rows above and below offset by half a cell.
        let middle = lines
            .iter()
            .find(|l| l.contains("wQ"))
            .expect("a row with the Queen");
        let at = |name: &str| middle.find(name).expect("drawn");
        assert!(at("wQ") < at("wS1") && at("wS1") < at("bS1") && at("bS1") < at("bQ"));
        assert_eq!(at("wS1") - at("wQ"), 2 * HALF_CELL);
        assert_eq!(lines.iter().filter(|l| l.contains('.')).count(), 3);
        assert!(lines.contains(&"White in hand: wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3".to_string()));
    }

    #[test]
    fn a_south_east_neighbour_is_half_a_cell_right_on_the_next_line() {
        // bS1 is placed to the lower right of wS1.
        let lines = draw("Base;InProgress;White[2];wS1;bS1 wS1\\");
        let (row_w, line_w) = lines
            .iter()
            .enumerate()
            .find(|(_, l)| l.contains("wS1"))
            .expect("drawn");
        let line_b = &lines[row_w + 1];
        assert_eq!(
            line_b.find("bS1").expect("bS1 one line below"),
            line_w.find("wS1").expect("drawn") + HALF_CELL
        );
    }

    #[test]
    fn a_stack_is_drawn_in_parentheses_and_spelled_out_top_first() {
        // The black Beetle climbs onto its own Queen.
        let lines = draw(
            "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wA1 /wQ;bB1 bQ",
        );
        assert!(lines.iter().any(|l| l.contains("(bB1)")));
        assert!(!lines.iter().any(|l| l.contains(" bQ ")));
        assert!(lines.contains(&"bB1 on bQ".to_string()));
    }
}
