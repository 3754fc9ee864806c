//! `waggle selfplay`: in-process games between two engine configurations,
//! for generating bench positions and tuning data and for quick A/B checks.
//!
//! Each game starts with a few random plies from a seeded PRNG (so the games
//! differ but every run with the same seed is the same), then both sides
//! search with a fixed node budget. Pairs of games share the opening with
//! colours swapped. Output: one line per game, `result<TAB>GameString`, with
//! `result` 1 (White won), 0 (Black won) or ½ written as `0.5`.

use crate::engine::params::SearchParams;
use crate::engine::{Engine, EngineOptions, EvalWeights, Features, Limits};
use crate::hive::game::Game;
use crate::hive::{Color, GameType, MoveList, Outcome, Rules};
use std::sync::atomic::AtomicBool;

/// The tools' seeded generator, under the name the tuner and the CLI use.
pub use crate::tools::rng::SplitMix64 as Rng;

/// One side of a self-play match.
#[derive(Clone, Debug)]
pub struct Player {
    /// Evaluation weights.
    pub weights: EvalWeights,
    /// Forward pruning in use.
    pub features: Features,
    /// Node budget per move.
    pub nodes: u64,
    /// Time per move instead of the node budget, when set.
    pub move_time: Option<std::time::Duration>,
    /// The search's margins and reductions.
    pub search: SearchParams,
    /// Search threads.
    pub threads: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The GameString.
    pub game_string: String,
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
    /// Every position's GameString prefix length (plies), for sampling.
    pub plies: usize,
}

/// Plays one game: `white` and `black` configurations, `random_plies`
/// random opening plies from `rng`, at most `max_plies` plies (then a draw).
pub fn play_game(
    game_type: GameType,
    white: &Player,
    black: &Player,
    random_plies: usize,
    max_plies: usize,
    opening_seed: u64,
) -> GameRecord {
    let mut rng = Rng::new(opening_seed);
    let mut game = Game::new(game_type, Rules::default(), true);
    let mut engines = [white, black].map(|p| {
        let mut e = Engine::new(EngineOptions {
            threads: p.threads.max(1),
            hash_mb: 16,
            ..EngineOptions::default()
        });
        e.weights = Some(p.weights.clone());
        e.set_features(p.features);
        e.set_search_params(p.search);
        e
    });
    let stop = AtomicBool::new(false);
    let mut outcome = None;
    while game.move_strings().len() < max_plies {
        if let Some(o) = game.outcome() {
            outcome = Some(o);
            break;
        }
        let ply = game.move_strings().len();
        let mv = if ply < random_plies {
            let moves: MoveList = game.legal_moves();
            // Modulo rather than `below`: the committed tuning data was
            // generated with this draw, and `tune --generate` reproduces it.
            moves[(rng.next_u64() % moves.len() as u64) as usize]
        } else {
            let side = game.side_to_move().index();
            let player = if side == 0 { white } else { black };
            let limits = match player.move_time {
                Some(t) => Limits {
                    time: Some(t),
                    ..Limits::default()
                },
                None => Limits {
                    nodes: Some(player.nodes),
                    ..Limits::default()
                },
            };
            engines[side]
                .search(game.position(), &limits, &stop, &mut |_| {})
                .best_move
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    if outcome.is_none() {
        outcome = game.outcome();
    }
    let white_score = match outcome {
        Some(Outcome::Win(Color::White)) => 1.0,
        Some(Outcome::Win(Color::Black)) => 0.0,
        _ => 0.5,
    };
    GameRecord {
        plies: game.move_strings().len(),
        game_string: game.game_string(),
        white_score,
    }
}

/// Plays `pairs` pairs of games between `a` and `b` (colours swapped within
/// a pair, same opening) and returns `a`'s points, the game count and the
/// records.
pub fn play_match(
    game_type: GameType,
    a: &Player,
    b: &Player,
    pairs: usize,
    seed: u64,
    mut each: impl FnMut(&GameRecord, f64),
) -> (f64, usize, Vec<GameRecord>) {
    let mut points = 0.0;
    let mut records = Vec::new();
    let mut rng = Rng::new(seed);
    for _ in 0..pairs {
        let opening = rng.next_u64();
        for a_white in [true, false] {
            let (w, bl) = if a_white { (a, b) } else { (b, a) };
            let r = play_game(game_type, w, bl, 4, 300, opening);
            let a_score = if a_white {
                r.white_score
            } else {
                1.0 - r.white_score
            };
            points += a_score;
            each(&r, a_score);
            records.push(r);
        }
    }
    let n = records.len();
    (points, n, records)
}

/// Elo difference for a score fraction (clamped away from 0 and 1).
pub fn elo(fraction: f64) -> f64 {
    let f = fraction.clamp(0.001, 0.999);
    -400.0 * (1.0 / f - 1.0).log10()
}
