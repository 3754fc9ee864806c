//! `waggle bench`: the signature is deterministic and adds up, and the timed
//! variant reports the depth it reached for every position.

use std::process::Command;

fn bench(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .arg("bench")
        .args(args)
        .output()
        .expect("waggle runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// (nodes, depth) of each position line.
fn lines(out: &str) -> Vec<(u64, u32)> {
    out.lines()
        .filter(|l| !l.starts_with("Bench:"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!((f[2], f[4], f[5]), ("nodes", "ms", "depth"), "{l}");
            (
                f[1].parse().expect("node count"),
                f[6].parse().expect("depth"),
            )
        })
        .collect()
}

fn total(out: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("Bench:"))
        .expect("a Bench line");
    line.split_whitespace()
        .nth(1)
        .expect("total")
        .parse()
        .expect("number")
}

#[test]
fn the_signature_is_reproducible_and_adds_up() {
    let first = bench(&["--depth", "3"]);
    let second = bench(&["--depth", "3"]);
    assert_eq!(total(&first), total(&second));
    let per_position = lines(&first);
    let positions = waggle::engine::bench::positions().count();
    assert_eq!(per_position.len(), positions);
    assert_eq!(per_position.iter().map(|l| l.0).sum::<u64>(), total(&first));
    assert!(per_position.iter().all(|l| l.1 <= 3));
}

#[test]
fn a_timed_bench_reports_the_depth_of_every_position() {
    // 0.1 s: at 0.02 s a debug build on a machine busy with other work
    // once finished no iteration of a bench position.
    let out = bench(&["--movetime", "0.1"]);
    let per_position = lines(&out);
    assert_eq!(
        per_position.len(),
        waggle::engine::bench::positions().count()
    );
    // No bench position has a single legal move (which a timed search
    // would play without searching), so one iteration at least completes.
    assert!(per_position.iter().all(|l| l.1 >= 1), "{out}");
}

fn bench_with(set: &[&str], args: &[&str]) -> String {
    let mut all = Vec::new();
    for s in set {
        all.extend(["--set", s]);
    }
    all.extend(args);
    bench(&all)
}

/// `waggle --set` plays the bench with a weight or search parameter
/// changed: set to the value the engine plays, nothing changes; set to
/// another, the search does.
#[test]
fn set_changes_the_bench_through_the_value_set_alone() {
    use waggle::engine::params::SearchParams;
    let plain = total(&bench(&["--depth", "3"]));
    let window = format!(
        "aspiration_window={}",
        SearchParams::DEFAULT.aspiration_window
    );
    // No weights table gives a Queen with no neighbour anything.
    let same = bench_with(&["queen_surround.0=0", &window], &["--depth", "3"]);
    assert_eq!(total(&same), plain);
    let ants = bench_with(&["mobile.A=0"], &["--depth", "3"]);
    assert_ne!(total(&ants), plain);
    // Reverse futility pruning acts at depth 3: no margin prunes more.
    let pruned = bench_with(&["rfp_margin=0"], &["--depth", "3"]);
    assert!(total(&pruned) < plain);
}

/// `waggle --set GAMETYPE:NAME=VALUE` changes the search of that game
/// type's positions only.
#[test]
fn set_for_a_game_type_changes_its_positions_only() {
    let plain = lines(&bench(&["--depth", "3"]));
    let base_only = lines(&bench_with(&["Base:mobile.A=0"], &["--depth", "3"]));
    let mut changed = 0;
    for ((game_string, a), b) in waggle::engine::bench::positions()
        .zip(&plain)
        .zip(&base_only)
    {
        if game_string.starts_with("Base;") {
            changed += usize::from(a.0 != b.0);
        } else {
            assert_eq!(a, b, "{game_string}");
        }
    }
    assert!(changed > 0, "no Base position searched differently");
    // Over a value for all game types, in Base games only: the Base weight
    // set again to the engine's own plays Base positions as without any.
    let base = waggle::engine::params::EvalWeights::for_game_type(waggle::hive::GameType::BASE);
    let base_ant = base.mobile[waggle::hive::Bug::Ant.index()];
    let all = lines(&bench_with(&["mobile.A=0"], &["--depth", "3"]));
    let both = lines(&bench_with(
        &["mobile.A=0", &format!("Base:mobile.A={base_ant}")],
        &["--depth", "3"],
    ));
    for (((game_string, b), p), a) in waggle::engine::bench::positions()
        .zip(&both)
        .zip(&plain)
        .zip(&all)
    {
        let want = if game_string.starts_with("Base;") {
            p
        } else {
            a
        };
        assert_eq!(b, want, "{game_string}");
    }
}

/// `--set` refuses unknown names (listing the names), weights that are not
/// whole numbers, and subcommands it does not apply to, before any work.
#[test]
fn set_refuses_what_it_cannot_apply() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_waggle"))
            .args(args)
            .output()
            .expect("waggle runs");
        assert!(out.stdout.is_empty(), "{args:?}");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&["--set", "futility=100", "bench"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("futility_margin") && err.contains("mobile.A"),
        "{err}"
    );
    let (code, err) = run(&["--set", "mobile.A=1.5", "bench"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("whole"), "{err}");
    let (code, err) = run(&["--set", "mobile.A", "bench"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("NAME=VALUE"), "{err}");
    let (code, err) = run(&["--set", "Base+X:mobile.A=3", "bench"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a game type"), "{err}");
    let (code, err) = run(&["--set", "mobile.A=3", "perft", "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bench and analyse"), "{err}");
}
