//! `waggle bench`: a fixed-depth, one-thread search of fixed positions whose
//! total node count signs every commit that changes the search.
//!
//! The positions are `bench-positions/bench.txt`, compiled into the binary.
//! Each is searched with a cleared 16 MiB table and cleared histories, so the
//! total depends only on the code, never on timing or earlier searches.

use super::params::Overrides;
use super::{Engine, EngineOptions, Limits};
use crate::hive::game::Game;
use crate::hive::Rules;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The bench positions file (one GameString per line, `#` comments).
pub const BENCH_FILE: &str = include_str!("../../bench-positions/bench.txt");

/// Default bench depth: 7, so that the bench also reaches nodes six plies
/// deep, where the search's deepest-only techniques apply.
pub const BENCH_DEPTH: u32 = 7;

/// Table size used by the bench, in MiB.
pub const BENCH_HASH_MB: usize = 16;

/// The GameStrings of [`BENCH_FILE`].
pub fn positions() -> impl Iterator<Item = &'static str> {
    BENCH_FILE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The GameString searched.
    pub game_string: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Deepest completed iteration.
    pub depth: u32,
}

/// How long each bench position is searched.
#[derive(Copy, Clone, Debug)]
pub enum BenchLimit {
    /// To a fixed depth (the signature: deterministic with one thread).
    Depth(u32),
    /// For a fixed time, as `bestmove time` does (depth and nodes vary).
    Time(Duration),
}

/// Runs the bench with `threads` threads (1 for the signature), calling
/// `each` after each position. Returns the total nodes and time.
///
/// # Errors
/// A GameString in the bench file that cannot be loaded.
pub fn run(
    limit: BenchLimit,
    threads: usize,
    overrides: &Overrides,
    mut each: impl FnMut(usize, &BenchLine),
) -> Result<(u64, Duration), String> {
    let mut engine = Engine::new(EngineOptions {
        threads: threads.max(1),
        hash_mb: match limit {
            BenchLimit::Depth(_) => BENCH_HASH_MB,
            BenchLimit::Time(_) => EngineOptions::default().hash_mb,
        },
        ..EngineOptions::default()
    });
    engine.set_overrides(overrides.clone());
    let stop = AtomicBool::new(false);
    let mut total = 0;
    let mut time = Duration::ZERO;
    for (i, gs) in positions().enumerate() {
        let game = Game::from_game_string(gs, Rules::default(), true)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.new_game();
        let limits = match limit {
            BenchLimit::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            BenchLimit::Time(t) => Limits {
                time: Some(t),
                ..Limits::default()
            },
        };
        let start = Instant::now();
        let result = engine.search(game.position(), &limits, &stop, &mut |_| {});
        let elapsed = start.elapsed();
        total += result.nodes;
        time += elapsed;
        each(
            i + 1,
            &BenchLine {
                game_string: gs.to_string(),
                nodes: result.nodes,
                elapsed,
                depth: result.depth,
            },
        );
    }
    Ok((total, time))
}
