//! Finds Queen-surround tactics for `bench-positions/tactics.txt`.
//!
//! Plays seeded semi-greedy games (each move is, with probability 0.7, one
//! that most increases the number of pieces around the opposing Queen minus
//! those around one's own, otherwise a uniformly random legal move) and
//! proves, with the full-width prover in `tests/common/prove.rs`, positions
//! where the side to move
//! - surrounds the opposing Queen in 1 with at most 2 winning moves,
//! - surrounds it in 2 (3 plies, no win in 1) with at most 2 winning moves,
//! - must block: no win in 1, and at most 3 moves avoid being surrounded on
//!   the next move while at least 5 others do not.
//!
//! ```text
//! cargo run --release --example gen_tactics -- [per-kind=4] [seed=1]
//! ```
//! It prints candidate lines `kind | answers | GameString`.

#[path = "../tests/common/greedy.rs"]
mod greedy;
#[path = "../tests/common/prove.rs"]
mod prove;

use waggle::hive::game::Game;
use waggle::hive::notation::move_string;
use waggle::hive::{GameType, Rules};
use waggle::tools::rng::SplitMix64;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let per_kind = args.first().copied().unwrap_or(4) as usize;
    let seed = args.get(1).copied().unwrap_or(1);
    let mut rng = SplitMix64::new(seed);
    let mut found: [Vec<String>; 3] = Default::default();
    let names = ["surround-in-1", "surround-in-2", "block"];
    for g in 0..2000 {
        if found.iter().all(|f| f.len() >= per_kind) {
            break;
        }
        let game_type = if g % 3 == 2 {
            GameType::MLP
        } else {
            GameType::BASE
        };
        let mut game = Game::new(game_type, Rules::default(), false);
        let mut taken_this_game = false;
        for _ in 0..120 {
            if game.outcome().is_some() || taken_this_game {
                break;
            }
            if game.move_strings().len() >= 8 {
                let mut pos = game.position().clone();
                let line = |answers: &[waggle::hive::Move], pos: &waggle::hive::Position| {
                    let a: Vec<String> = answers.iter().map(|&m| move_string(pos, m)).collect();
                    a.join(", ")
                };
                let w1 = prove::wins_in_1(&mut pos);
                if !w1.is_empty() {
                    if w1.len() <= 2 && found[0].len() < per_kind {
                        found[0].push(format!(
                            "{} | {} | {}",
                            names[0],
                            line(&w1, &pos),
                            game.game_string()
                        ));
                        taken_this_game = true;
                    }
                } else {
                    let b = prove::blocks(&mut pos);
                    let n = prove::move_count(&pos);
                    if !b.is_empty()
                        && b.len() <= 3
                        && n >= b.len() + 5
                        && found[2].len() < per_kind
                    {
                        found[2].push(format!(
                            "{} | {} | {}",
                            names[2],
                            line(&b, &pos),
                            game.game_string()
                        ));
                        taken_this_game = true;
                    } else if found[1].len() < per_kind && n <= 120 {
                        let w2 = prove::wins_in_2(&mut pos);
                        if !w2.is_empty() && w2.len() <= 2 {
                            found[1].push(format!(
                                "{} | {} | {}",
                                names[1],
                                line(&w2, &pos),
                                game.game_string()
                            ));
                            taken_this_game = true;
                        }
                    }
                }
            }
            let mv = greedy::semi_greedy_move(&game, &mut rng);
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    for f in &found {
        for l in f {
            println!("{l}");
        }
    }
}
