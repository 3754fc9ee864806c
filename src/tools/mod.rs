//! Command-line tools built on the engine: perft and friends.

pub mod perft;
pub mod selfplay;
pub mod tune;
