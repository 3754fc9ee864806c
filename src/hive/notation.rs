//! UHP notation: piece names, MoveStrings and GameStrings (UHP.md §4).
//!
//! Parsing is as lenient as Mzinga: any letter case, runs of spaces, any
//! adjacent (or stacked, or covered) reference piece for a ground cell,
//! including the moving piece itself. Writing is canonical, byte for byte as
//! Mzinga writes: the moving piece is lifted first, a climb names the top piece
//! of the target stack, and a ground cell names the first occupied neighbour
//! in the order NW, NE, E, SE, SW, W.

use super::hex::{Direction, Hex};
use super::piece::{Bug, Color, GameType, Piece};
use super::position::{Move, Position};
use std::fmt;

pub use super::explain::explain_illegal;

/// Why a MoveString or GameString could not be read.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum NotationError {
    /// The text is empty.
    Empty,
    /// Not a piece name such as `wQ`, `bS2`, `wM`.
    BadPiece(String),
    /// A piece number that this bug does not have, such as `wQ1` or `bA4`.
    BadPieceNumber(String),
    /// The reference piece is not on the board.
    ReferenceNotInPlay(String),
    /// A direction mark on both sides of the reference, or a stray character.
    BadReference(String),
    /// Only the very first move of a game may omit the reference.
    MissingReference(String),
    /// The first move of a game takes no reference.
    UnexpectedReference(String),
    /// A climb must name the top piece of the stack.
    ClimbOnCoveredPiece(String),
    /// A direction mark names a ground cell, which is occupied here.
    CellOccupied(String),
    /// The game type is not one of the eight canonical ones.
    BadGameType(String),
    /// A GameString with a trailing or empty move field.
    EmptyMoveField,
    /// A piece that enters play out of number order (e.g. `wS2` before `wS1`).
    OutOfOrder(String),
    /// The piece does not take part in this game type.
    NotInGame(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => {
                write!(f, "no move given: write a MoveString such as 'wS1' or 'bG1 wS1-'")
            }
            NotationError::BadPiece(s) => write!(
                f,
                "'{s}' is not a piece name: write the colour (w or b), the bug (Q, S, B, G, A, M, L or P) and its number, e.g. wQ, bS1, wA3"
            ),
            NotationError::BadPieceNumber(s) => match bug_named_in(s) {
                Some(bug) if bug.count() == 1 => write!(
                    f,
                    "'{s}' is not a piece: each side has one {}, written without a number",
                    bug.name()
                ),
                Some(bug) => write!(
                    f,
                    "'{s}' is not a piece: each side has {} pieces of that kind ({}), numbered 1 to {}",
                    bug.count(),
                    bug.name(),
                    bug.count()
                ),
                None => write!(f, "'{s}' is not a piece name"),
            },
            NotationError::ReferenceNotInPlay(s) => write!(
                f,
                "{s} is not on the board, so a move can't be placed next to it"
            ),
            NotationError::BadReference(s) => write!(
                f,
                "'{s}' is not a reference: name a piece on the board with at most one mark (-, / or \\) before or after it, e.g. wQ-, /wQ or \\wQ"
            ),
            NotationError::MissingReference(s) => write!(
                f,
                "'{s}' doesn't say where the piece goes: after the first move, name a piece next to the destination, e.g. 'bS1 wS1-'"
            ),
            NotationError::UnexpectedReference(s) => write!(
                f,
                "'{s}': the first move of a game is just the piece name, e.g. 'wS1', with no reference"
            ),
            NotationError::ClimbOnCoveredPiece(s) => write!(
                f,
                "{s} is covered by another piece: to climb onto that stack, name the piece on top of it"
            ),
            NotationError::CellOccupied(s) => write!(
                f,
                "the cell '{s}' is taken: a direction mark names an empty cell, and a climb names the piece it climbs onto without a mark, e.g. 'wB1 bQ'"
            ),
            NotationError::BadGameType(s) => write!(
                f,
                "'{s}' is not a game type: use Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP or Base+MLP"
            ),
            NotationError::EmptyMoveField => write!(
                f,
                "the GameString has an empty move: two ';' in a row, or a ';' at the end"
            ),
            NotationError::OutOfOrder(s) => match parse_piece(s)
                .ok()
                .and_then(|p| Piece::new(p.color(), p.bug(), p.number() - 1))
            {
                Some(first) => write!(
                    f,
                    "{s} can't enter play yet: {first} is still in hand, and pieces of one kind enter play in number order"
                ),
                None => write!(f, "{s} can't enter play yet: pieces of one kind enter play in number order"),
            },
            NotationError::NotInGame(s) => match bug_named_in(s) {
                Some(bug) => write!(f, "{s} is not in this game: the game type has no {}", bug.name()),
                None => write!(f, "{s} is not in this game"),
            },
        }
    }
}

/// The bug of a (possibly malformed) piece name such as `wQ1` or `bA4`.
fn bug_named_in(s: &str) -> Option<Bug> {
    s.chars().nth(1).and_then(Bug::from_letter)
}

impl std::error::Error for NotationError {}

/// Parses a piece name in any letter case (`wQ`, `BA2`, `wm`).
///
/// # Errors
/// [`NotationError::BadPiece`] or [`NotationError::BadPieceNumber`].
pub fn parse_piece(s: &str) -> Result<Piece, NotationError> {
    let bad = || NotationError::BadPiece(s.to_string());
    let mut chars = s.chars();
    let color = match chars.next().map(|c| c.to_ascii_lowercase()) {
        Some('w') => Color::White,
        Some('b') => Color::Black,
        _ => return Err(bad()),
    };
    let bug = chars.next().and_then(Bug::from_letter).ok_or_else(bad)?;
    let rest: &str = chars.as_str();
    let number = if rest.is_empty() {
        if bug.count() > 1 {
            return Err(NotationError::BadPieceNumber(s.to_string()));
        }
        1
    } else {
        if bug.count() == 1 || rest.len() != 1 {
            return Err(NotationError::BadPieceNumber(s.to_string()));
        }
        match rest.chars().next().and_then(|c| c.to_digit(10)) {
            Some(n) => n as u8,
            None => return Err(bad()),
        }
    };
    Piece::new(color, bug, number).ok_or_else(|| NotationError::BadPieceNumber(s.to_string()))
}

/// Writes a move in Mzinga's canonical spelling; `pos` is the position before
/// the move.
pub fn move_string(pos: &Position, mv: Move) -> String {
    let (piece, from, to) = match mv {
        Move::Pass => return "pass".to_string(),
        Move::Place { piece, to } => (piece, None, to),
        Move::Move { piece, from, to } => (piece, Some(from), to),
    };
    if pos.ply() == 0 || pos.occupied().is_empty() {
        return piece.to_string();
    }
    // The board as it looks with the moving piece lifted.
    let top_after_lift = |hex: Hex| -> Option<Piece> {
        if Some(hex) == from {
            pos.below(piece)
        } else {
            pos.top(hex)
        }
    };
    if let Some(under) = top_after_lift(to) {
        return format!("{piece} {under}");
    }
    for d in Direction::ALL {
        if let Some(x) = top_after_lift(to.neighbor(d)) {
            // The destination lies in the opposite direction from `x`.
            return ground_move_string(&piece.to_string(), &x.to_string(), d.opposite());
        }
    }
    piece.to_string()
}

/// The MoveString that sends `piece` to the ground cell in direction `dir`
/// of `reference`: `wA1 wQ-` (east), `wA1 wQ/` (north-east), `wA1 wQ\`
/// (south-east), `wA1 -wQ` (west), `wA1 /wQ` (south-west), `wA1 \wQ`
/// (north-west).
pub fn ground_move_string(piece: &str, reference: &str, dir: Direction) -> String {
    match dir {
        Direction::East => format!("{piece} {reference}-"),
        Direction::NorthEast => format!("{piece} {reference}/"),
        Direction::SouthEast => format!("{piece} {reference}\\"),
        Direction::West => format!("{piece} -{reference}"),
        Direction::SouthWest => format!("{piece} /{reference}"),
        Direction::NorthWest => format!("{piece} \\{reference}"),
    }
}

/// Reads a MoveString into the move it describes in `pos`. The move is not
/// checked for legality (see [`Position::play`] and [`explain_illegal`]);
/// only that it names pieces and cells that exist.
///
/// # Errors
/// A [`NotationError`] saying what is wrong with the text.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let mut tokens = text.split_whitespace();
    let Some(first) = tokens.next() else {
        return Err(NotationError::Empty);
    };
    if first.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let piece = parse_piece(first)?;
    if !pos.game_type().has(piece.bug()) {
        return Err(NotationError::NotInGame(piece.to_string()));
    }
    let to = match tokens.next() {
        None => {
            if pos.occupied().is_empty() {
                Hex::ORIGIN
            } else {
                return Err(NotationError::MissingReference(text.trim().to_string()));
            }
        }
        Some(reference) => {
            if pos.occupied().is_empty() {
                return Err(NotationError::UnexpectedReference(text.trim().to_string()));
            }
            resolve_reference(pos, reference)?
        }
    };
    match pos.hex_of(piece) {
        Some(from) => Ok(Move::Move { piece, from, to }),
        None => {
            if pos.next_in_hand(piece.color(), piece.bug()) != Some(piece) {
                return Err(NotationError::OutOfOrder(piece.to_string()));
            }
            Ok(Move::Place { piece, to })
        }
    }
}

/// The destination cell named by a reference such as `wQ`, `wQ-` or `\bA1`.
fn resolve_reference(pos: &Position, reference: &str) -> Result<Hex, NotationError> {
    let bad = || NotationError::BadReference(reference.to_string());
    let is_mark = |c: char| matches!(c, '-' | '/' | '\\');
    let lead = reference.chars().next().filter(|&c| is_mark(c));
    let trail = reference.chars().last().filter(|&c| is_mark(c));
    let name = match (lead, trail) {
        (Some(_), Some(_)) => return Err(bad()),
        (Some(c), None) => &reference[c.len_utf8()..],
        (None, Some(c)) => &reference[..reference.len() - c.len_utf8()],
        (None, None) => reference,
    };
    let ref_piece = parse_piece(name).map_err(|_| bad())?;
    let Some(ref_hex) = pos.hex_of(ref_piece) else {
        return Err(NotationError::ReferenceNotInPlay(ref_piece.to_string()));
    };
    let dir = match (lead, trail) {
        (None, None) => {
            if pos.top(ref_hex) != Some(ref_piece) {
                return Err(NotationError::ClimbOnCoveredPiece(ref_piece.to_string()));
            }
            return Ok(ref_hex);
        }
        (None, Some('-')) => Direction::East,
        (None, Some('/')) => Direction::NorthEast,
        (None, Some(_)) => Direction::SouthEast,
        (Some('-'), None) => Direction::West,
        (Some('/'), None) => Direction::SouthWest,
        (Some(_), _) => Direction::NorthWest,
    };
    let to = ref_hex.neighbor(dir);
    if pos.is_occupied(to) {
        return Err(NotationError::CellOccupied(reference.to_string()));
    }
    Ok(to)
}

/// The GameStateString of a position.
pub fn state_name(pos: &Position, outcome: Option<super::position::Outcome>) -> &'static str {
    use super::position::Outcome;
    match outcome {
        Some(Outcome::Draw) => "Draw",
        Some(Outcome::Win(Color::White)) => "WhiteWins",
        Some(Outcome::Win(Color::Black)) => "BlackWins",
        None if pos.ply() == 0 => "NotStarted",
        None => "InProgress",
    }
}

/// The parts of a GameString: the game type and the move texts. The state and
/// turn fields are read but ignored, as every UHP engine does.
///
/// # Errors
/// A bad game type or an empty move field.
pub fn split_game_string(s: &str) -> Result<(GameType, Vec<String>), NotationError> {
    let mut fields = s.trim().split(';');
    let type_field = fields.next().unwrap_or("").trim();
    let game_type =
        GameType::parse(type_field).ok_or_else(|| NotationError::BadGameType(type_field.into()))?;
    let _state = fields.next();
    let _turn = fields.next();
    let mut moves = Vec::new();
    for f in fields {
        let m = f.split_whitespace().collect::<Vec<_>>().join(" ");
        if m.is_empty() {
            return Err(NotationError::EmptyMoveField);
        }
        moves.push(m);
    }
    Ok((game_type, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_names_parse_in_any_case() {
        assert_eq!(parse_piece("wQ").unwrap().to_string(), "wQ");
        assert_eq!(parse_piece("WQ").unwrap().to_string(), "wQ");
        assert_eq!(parse_piece("ba2").unwrap().to_string(), "bA2");
        assert!(parse_piece("wQ1").is_err());
        assert!(parse_piece("wS").is_err());
        assert!(parse_piece("wS3").is_err());
        assert!(parse_piece("wA0").is_err());
        assert!(parse_piece("xQ").is_err());
        assert!(parse_piece("").is_err());
        assert!(parse_piece("wÄ").is_err());
        assert!(parse_piece("wA1x").is_err());
    }
}
