//! Regression test for `bench-positions/tactics.txt`: every answer set is
//! re-proven by the full-width search in `tests/common/prove.rs`, which does
//! not use the engine's search.

#[path = "common/prove.rs"]
mod prove;

use std::collections::BTreeSet;
use waggle::hive::game::Game;
use waggle::hive::notation::move_string;
use waggle::hive::Rules;

/// `(kind, answers, GameString)` for every line of the tactics file.
pub fn tactics() -> Vec<(String, Vec<String>, String)> {
    let text = include_str!("../bench-positions/tactics.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").collect();
            assert_eq!(parts.len(), 3, "bad tactics line: {l}");
            let answers = parts[1].split(", ").map(str::to_string).collect();
            (parts[0].to_string(), answers, parts[2].to_string())
        })
        .collect()
}

#[test]
fn tactics_answers_are_proven() {
    let all = tactics();
    for kind in ["surround-in-1", "surround-in-2", "block"] {
        assert!(
            all.iter().filter(|(k, _, _)| k == kind).count() >= 3,
            "too few {kind} positions"
        );
    }
    for (kind, answers, gs) in &all {
        let game = Game::from_game_string(gs, Rules::default(), false).expect(gs);
        assert!(game.outcome().is_none(), "{gs}");
        let mut pos = game.position().clone();
        let proven = match kind.as_str() {
            "surround-in-1" => prove::wins_in_1(&mut pos),
            "surround-in-2" => {
                assert!(
                    prove::wins_in_1(&mut pos).is_empty(),
                    "a win in 1 exists: {gs}"
                );
                prove::wins_in_2(&mut pos)
            }
            "block" => {
                assert!(
                    prove::wins_in_1(&mut pos).is_empty(),
                    "a win in 1 exists: {gs}"
                );
                let b = prove::blocks(&mut pos);
                assert!(b.len() < prove::move_count(&pos), "nothing to block: {gs}");
                b
            }
            other => panic!("unknown kind {other}"),
        };
        let proven: BTreeSet<String> = proven.iter().map(|&m| move_string(&pos, m)).collect();
        let listed: BTreeSet<String> = answers.iter().cloned().collect();
        assert_eq!(proven, listed, "{kind}: {gs}");
    }
}
