//! Waggle: a Hive engine speaking the Universal Hive Protocol.
//!
//! Layers, bottom to top: [`hive`] (the rules), [`engine`] (search and
//! evaluation), [`uhp`] (the protocol loop) and [`tools`] (perft and other
//! subcommands).

pub mod engine;
pub mod hive;
pub mod tools;
pub mod uhp;
