//! `waggle perft <depth> [GameString]`.

use crate::hive::game::Game;
use crate::hive::notation::move_string;
use crate::hive::perft::perft_divide;
use crate::hive::Rules;
use std::time::Instant;

/// Runs perft from a GameString (or the Base start) and prints the counts.
///
/// # Errors
/// A GameString that cannot be loaded.
pub fn run(depth: u32, game_string: &str, divide: bool, threads: usize) -> Result<(), String> {
    let game = Game::from_game_string(game_string, Rules::default(), false)
        .map_err(|e| format!("unable to load the GameString: {e}"))?;
    let pos = game.position();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let total = if depth == 0 {
        1
    } else {
        let parts = pool.install(|| perft_divide(pos, depth, threads > 1));
        if divide {
            for (mv, n) in &parts {
                println!("{}: {n}", move_string(pos, *mv));
            }
        }
        parts.iter().map(|(_, n)| n).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {total} in {:.3} s, {:.1} M leaves/s ({} thread{}, last ply bulk-counted)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6,
        threads.max(1),
        if threads > 1 { "s" } else { "" }
    );
    Ok(())
}
