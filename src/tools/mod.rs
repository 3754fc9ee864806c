//! Command-line tools built on the engine: perft, the arena, analysis and
//! the differential move-generation check, with the UHP client they share.

pub mod analyse;
pub mod arena;
pub mod perft;
pub mod pgn;
pub mod rng;
pub mod selfplay;
pub mod spsa;
pub mod stats;
pub mod tune;
pub mod uhp_client;
pub mod uhp_diff;
