//! Perft against the reference counts in `tests/data/perft.tsv` (copied from
//! `shared/spec/perft.md`). Cheap cases run always; the deep ones are
//! `#[ignore]`d: `cargo test --release --test perft -- --ignored`.

use waggle::hive::game::Game;
use waggle::hive::perft::{perft, perft_divide};
use waggle::hive::Rules;

struct Case {
    game_string: String,
    depth: u32,
    nodes: u64,
}

fn cases() -> Vec<Case> {
    include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                game_string: f[0].to_string(),
                depth: f[1].parse().expect("depth column"),
                nodes: f[2].parse().expect("nodes column"),
            }
        })
        .collect()
}

fn check(filter: impl Fn(&Case) -> bool) {
    let mut ran = 0;
    for case in cases().into_iter().filter(|c| filter(c)) {
        let game = Game::from_game_string(&case.game_string, Rules::default(), false)
            .expect("reference GameString loads");
        let mut pos = game.position().clone();
        let got = perft(&mut pos, case.depth);
        assert_eq!(
            got, case.nodes,
            "perft({}) of {}",
            case.depth, case.game_string
        );
        ran += 1;
    }
    assert!(ran > 0, "no perft case selected");
}

fn is_base(c: &Case) -> bool {
    c.game_string.starts_with("Base;")
}

#[test]
fn base_depths_0_to_6() {
    check(|c| is_base(c) && c.depth <= 6);
}

#[test]
fn expansions_depths_0_to_5() {
    check(|c| !is_base(c) && c.depth <= 5);
}

#[test]
#[ignore = "deep: about 10 s in release"]
fn expansions_depth_6() {
    check(|c| !is_base(c) && c.depth == 6);
}

#[test]
#[ignore = "deep: minutes in release"]
fn all_depth_7() {
    check(|c| c.depth == 7);
}

#[test]
fn parallel_divide_adds_up_to_the_reference() {
    let case = cases()
        .into_iter()
        .find(|c| c.game_string.starts_with("Base+MLP;") && c.depth == 4)
        .expect("MLP depth 4 in the data");
    let game = Game::from_game_string(&case.game_string, Rules::default(), false).expect("loads");
    for parallel in [false, true] {
        let parts = perft_divide(game.position(), case.depth, parallel);
        assert_eq!(parts.len(), 7);
        assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), case.nodes);
    }
}
