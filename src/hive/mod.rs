//! The rules of Hive: geometry, pieces, positions, move generation, notation
//! and perft. Nothing here knows about search or UHP.

pub mod diagram;
pub mod explain;
pub mod game;
pub mod hex;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod zobrist;

pub use hex::{Direction, Hex, HexSet};
pub use movegen::{MoveList, MAX_MOVES};
pub use piece::{Bug, ByColor, Color, GameType, Piece};
pub use position::{IllegalMove, Move, Outcome, Position, Rules};
