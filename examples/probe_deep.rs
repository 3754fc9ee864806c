//! Probes the engine on deeper Queen-surround tactics than
//! `bench-positions/tactics.txt` holds, proven by the engine's exact search
//! (pruning off; `tests/search.rs` checks it against plain negamax):
//! - `win`: the side to move surrounds the enemy Queen in three moves (five
//!   plies) whatever the defence, and in no fewer;
//! - `defend`: the opponent threatens a forced surround in two (more than
//!   half the moves lose to it), and a few moves parry it.
//!
//! Positions come from seeded semi-greedy games as in `gen_tactics.rs`. For
//! each, the engine as it plays (pruning on) searches to the depth the
//! tactic needs, one and two plies deeper, and for one second; each answer
//! is checked with the exact search. Prints one line per position and the
//! misses per limit.
//!
//! ```text
//! cargo run --release --example probe_deep -- [win|defend] [positions=12] [seed=1]
//! ```

#[path = "../tests/common/greedy.rs"]
mod greedy;

use std::sync::atomic::AtomicBool;
use std::time::Duration;
use waggle::engine::{Engine, EngineOptions, Limits, SearchResult, MATE};
use waggle::hive::game::Game;
use waggle::hive::notation::move_string;
use waggle::hive::{GameType, Move, MoveList, Position, Rules};
use waggle::tools::rng::SplitMix64;

/// Node budget of a search to a fixed depth; an exact search that needs more
/// does not complete its depth, and the position is skipped.
const EXACT_NODES: u64 = 20_000_000;

fn engine(pruning: bool) -> Engine {
    let mut e = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 64,
        repetition_draw: true,
        contempt: 0,
    });
    e.set_pruning(pruning);
    e
}

/// A search from a cleared table to `depth` or for `seconds`.
fn search(
    e: &mut Engine,
    pos: &Position,
    depth: Option<u32>,
    seconds: Option<f64>,
) -> SearchResult {
    e.new_game();
    let limits = Limits {
        depth,
        time: seconds.map(Duration::from_secs_f64),
        nodes: depth.map(|_| EXACT_NODES),
        ..Limits::default()
    };
    e.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Whether the exact search completes `depth` with a score short of a win
/// or loss.
fn undecided(exact: &mut Engine, pos: &Position, depth: u32) -> bool {
    let r = search(exact, pos, Some(depth), None);
    r.depth == depth && r.score.abs() < MATE - 100
}

/// The moves of a `defend` position that lose to a forced surround in two,
/// when they are more than half of the moves and at least three do not.
fn losing_moves(exact: &mut Engine, pos: &Position) -> Option<Vec<Move>> {
    if !undecided(exact, pos, 2) || !undecided(exact, pos, 4) {
        return None;
    }
    let mut legal = MoveList::new();
    pos.generate_moves(&mut legal);
    let mut losing = Vec::new();
    for &m in &legal {
        let mut p = pos.clone();
        p.make(m);
        if p.surround_outcome().is_none() && search(exact, &p, Some(3), None).score == MATE - 3 {
            losing.push(m);
        }
    }
    (losing.len() * 2 > legal.len() && losing.len() + 3 <= legal.len()).then_some(losing)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let defend = args.first().is_some_and(|a| a == "defend");
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let want = numbers.first().copied().unwrap_or(12) as usize;
    let mut rng = SplitMix64::new(numbers.get(1).copied().unwrap_or(1));
    let needed = if defend { 4 } else { 5 };
    let limits = [
        (Some(needed), None),
        (Some(needed + 1), None),
        (Some(needed + 2), None),
        (None, Some(1.0)),
    ];
    let mut exact = engine(false);
    let mut pruned = engine(true);
    let mut found = 0;
    let mut misses = [0usize; 4];
    for g in 0.. {
        if found >= want {
            break;
        }
        let game_type = if g % 3 == 2 {
            GameType::MLP
        } else {
            GameType::BASE
        };
        let mut game = Game::new(game_type, Rules::default(), true);
        // One position per game: the game ends after the move that follows it.
        let mut taken = false;
        for _ in 0..120 {
            if game.outcome().is_some() || taken {
                break;
            }
            if game.move_strings().len() >= 10 && rng.below(3) == 0 {
                let pos = game.position().clone();
                // `win`: the winning first move; `defend`: the losing moves.
                let tactic = if defend {
                    losing_moves(&mut exact, &pos).map(|l| (None, l))
                } else if undecided(&mut exact, &pos, 3) {
                    let r = search(&mut exact, &pos, Some(5), None);
                    (r.depth == 5 && r.score == MATE - 5).then(|| (Some(r.best_move), Vec::new()))
                } else {
                    None
                };
                if let Some((win, losing)) = tactic {
                    found += 1;
                    let mut line = match win {
                        Some(m) => format!("wins with {}:", move_string(&pos, m)),
                        None => format!("{} of the moves lose:", losing.len()),
                    };
                    for (i, &(depth, seconds)) in limits.iter().enumerate() {
                        let r = search(&mut pruned, &pos, depth, seconds);
                        let ok = if defend {
                            !losing.contains(&r.best_move)
                        } else {
                            let mut p = pos.clone();
                            p.make(r.best_move);
                            p.surround_outcome().is_some()
                                || search(&mut exact, &p, Some(4), None).score == -MATE + 4
                        };
                        misses[i] += usize::from(!ok);
                        line += &format!(
                            " [{} depth {} score {} {}]",
                            move_string(&pos, r.best_move),
                            r.depth,
                            r.score,
                            if ok { "ok" } else { "MISS" }
                        );
                    }
                    println!("{line} | {}", game.game_string());
                    taken = true;
                }
            }
            let mv = greedy::semi_greedy_move(&game, &mut rng);
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    println!(
        "{found} positions; misses at depth {needed}, {}, {} and in 1 s: {misses:?}",
        needed + 1,
        needed + 2
    );
}
