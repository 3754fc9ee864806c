//! Checks the engine on every Queen-surround tactic of many seeded
//! semi-greedy games (as `gen_tactics.rs` plays them), not just on the few
//! that `bench-positions/tactics.txt` keeps. Each position where the side
//! to move can surround in 1, surround in 2 (no surround in 1), or must
//! block a surround (some moves lose at once, some do not) is proven by the
//! full-width prover in `tests/common/prove.rs`; the engine as it plays then
//! searches it to the depth the tactic needs, one ply deeper and to depth 6
//! (5 for a surround in 1), and its move must be among the proven ones. A
//! block that the engine passes over for a draw by repetition is counted
//! apart: the prover does not see repetitions.
//!
//! With `in3`, positions without a surround in 1 whose enemy Queen has at
//! most [`IN_3_MAX_FREE`] free cells are also searched for a surround in 3
//! (five plies, and no sooner) by the engine's exact search (pruning off,
//! checked against plain negamax in `tests/search.rs`), which is too slow
//! for the prover; one found counts as a surround in 3 even where it also
//! blocks a threat. The engine then searches to depth 5, 6 and 7, and its
//! move must still win in five plies (the exact search after it loses in
//! four).
//!
//! ```text
//! cargo run --release --example tactics_sweep -- [games=300] [seed=1] [in3]
//! ```
//! Prints each miss (kind, depth, the engine's move and score, the proven
//! moves, the GameString) and the counts; every ten games the counts so far
//! on stderr, so a run cut short by `timeout` still says how far it got.

#[path = "../tests/common/greedy.rs"]
mod greedy;
#[path = "../tests/common/prove.rs"]
mod prove;

use std::sync::atomic::AtomicBool;
use waggle::engine::{Engine, EngineOptions, Limits, SearchResult, MATE};
use waggle::hive::game::Game;
use waggle::hive::notation::move_string;
use waggle::hive::{GameType, Move, Outcome, Position, Rules};
use waggle::tools::rng::SplitMix64;

const KINDS: [&str; 4] = ["surround-in-1", "surround-in-2", "block", "surround-in-3"];
/// Search depths per kind: the depth it needs, one more, and a deep one.
const DEPTHS: [[u32; 3]; 4] = [[1, 2, 5], [3, 4, 6], [2, 3, 6], [5, 6, 7]];
/// Positions whose enemy Queen has more free cells than this are not
/// searched for a surround in 3 (the exact searches cost most of the run).
const IN_3_MAX_FREE: usize = 4;
/// Positions with more legal moves than this are not proven for a
/// surround in 2 (the prover's cost grows with the square of it).
const MAX_MOVES_IN_2: usize = 150;

/// The engine as it plays (or, `exact`, with pruning off and no repetition
/// draws) searched to `depth`.
fn search(pos: &Position, depth: u32, exact: bool) -> SearchResult {
    let mut e = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 4,
        repetition_draw: !exact,
        contempt: if exact {
            0
        } else {
            waggle::engine::params::CONTEMPT
        },
    });
    e.set_pruning(!exact);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    e.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// The tactic in `pos`, if any: its kind (an index into [`KINDS`]) and the
/// proven moves (none for a surround in 3, whose answers are checked by
/// [`wins_in_3_after`]).
fn tactic(pos: &mut Position, in_3: bool) -> Option<(usize, Vec<Move>)> {
    let in_1 = prove::wins_in_1(pos);
    if !in_1.is_empty() {
        return Some((0, in_1));
    }
    // A win in exactly five plies also shows that none is shorter. Asked
    // before the blocks: a block that wins in three counts as a surround
    // in three.
    let them = pos.side_to_move().opponent();
    if in_3
        && pos
            .queen_free_cells(them)
            .is_some_and(|f| f <= IN_3_MAX_FREE)
        && search(pos, 5, true).score == MATE - 5
    {
        return Some((3, Vec::new()));
    }
    let n = prove::move_count(pos);
    let blocks = prove::blocks(pos);
    if !blocks.is_empty() && blocks.len() < n {
        return Some((2, blocks));
    }
    if blocks.is_empty() || n > MAX_MOVES_IN_2 {
        return None;
    }
    let in_2 = prove::wins_in_2(pos);
    (!in_2.is_empty()).then_some((1, in_2))
}

/// Whether `mv` keeps a forced surround in 3: every defence then loses in
/// four plies.
fn wins_in_3_after(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make(mv);
    search(&after, 4, true).score == -(MATE - 4)
}

fn main() {
    let in_3 = std::env::args().any(|a| a == "in3");
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(300);
    let seed = args.get(1).copied().unwrap_or(1);
    let mut rng = SplitMix64::new(seed);
    let mut checked = [0usize; 4];
    let mut misses = 0;
    let mut repetitions = 0;
    for g in 0..games {
        let game_type = if g % 3 == 1 {
            GameType::MLP
        } else {
            GameType::BASE
        };
        let mut game = Game::new(game_type, Rules::default(), true);
        for _ in 0..150 {
            if game.outcome().is_some() {
                break;
            }
            let mut pos = game.position().clone();
            if game.move_strings().len() >= 8 {
                if let Some((kind, answers)) = tactic(&mut pos, in_3) {
                    checked[kind] += 1;
                    for depth in DEPTHS[kind] {
                        let r = search(&pos, depth, false);
                        if answers.contains(&r.best_move)
                            || (kind == 3 && wins_in_3_after(&pos, r.best_move))
                        {
                            continue;
                        }
                        let mut after = game.clone();
                        if kind == 2
                            && after.play(r.best_move).is_ok()
                            && after.outcome() == Some(Outcome::Draw)
                        {
                            repetitions += 1;
                            continue;
                        }
                        misses += 1;
                        let proven: Vec<String> =
                            answers.iter().map(|&m| move_string(&pos, m)).collect();
                        println!(
                            "miss: {} at depth {depth}: {} (score {}) not in [{}] | {}",
                            KINDS[kind],
                            move_string(&pos, r.best_move),
                            r.score,
                            proven.join(", "),
                            game.game_string()
                        );
                    }
                }
            }
            let mv = greedy::semi_greedy_move(&game, &mut rng);
            if game.play(mv).is_err() {
                break;
            }
        }
        if (g + 1) % 10 == 0 {
            eprintln!(
                "{}/{games} games: {} in 1, {} in 2, {} blocks, {} in 3; {misses} misses",
                g + 1,
                checked[0],
                checked[1],
                checked[2],
                checked[3]
            );
        }
    }
    println!(
        "{} surround-in-1, {} surround-in-2, {} block, {} surround-in-3 positions; \
         {misses} misses; {repetitions} blocks passed over for a draw by repetition",
        checked[0], checked[1], checked[2], checked[3]
    );
}
