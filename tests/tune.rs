//! `waggle tune`: the data file `--generate` writes holds the game types it
//! was asked for, its header repeats the command that made it, and the
//! search scores of `--search-depth` are kept with the settings that made them.

use std::process::Command;

/// Runs `waggle tune <file> --generate <games> --nodes 100 --iterations 1`
/// plus `extra`, and returns the file's lines.
fn generate(name: &str, games: usize, extra: &[&str]) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("waggle-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    let out = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .arg("tune")
        .arg(&file)
        .args(["--generate", &games.to_string()])
        .args(["--nodes", "100", "--iterations", "1"])
        .args(extra)
        .output()
        .expect("waggle runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&file).expect("the data file");
    let _ = std::fs::remove_file(&file);
    text.lines().map(str::to_string).collect()
}

/// The GameTypeString of each game line (`score<TAB>GameType;state;turn;…`).
fn game_types(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (_, game) = l.split_once('\t').expect("score<TAB>GameString");
            game.split(';').next().expect("a GameType").to_string()
        })
        .collect()
}

#[test]
fn generated_games_alternate_base_and_mlp_by_default() {
    let lines = generate("mixed.txt", 10, &[]);
    let types = game_types(&lines);
    assert_eq!(types.len(), 10);
    for (i, t) in types.iter().enumerate() {
        assert_eq!(t, if i % 2 == 0 { "Base" } else { "Base+MLP" }, "game {i}");
    }
    assert!(!lines[0].contains("--game-type"), "{}", lines[0]);
}

#[test]
fn generated_games_are_all_of_the_game_type_asked_for() {
    for gt in ["Base", "Base+MLP", "Base+P"] {
        let lines = generate(&format!("{gt}.txt"), 10, &["--game-type", gt]);
        let types = game_types(&lines);
        assert_eq!(types.len(), 10);
        assert!(types.iter().all(|t| t == gt), "{gt}: {types:?}");
        assert!(
            lines[0].contains(&format!("--game-type {gt} ")),
            "the header repeats the command: {}",
            lines[0]
        );
    }
}

#[test]
fn an_unknown_game_type_is_refused_before_anything_is_played() {
    let dir = std::env::temp_dir().join(format!("waggle-tune-refused-{}", std::process::id()));
    let file = dir.join("never.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .arg("tune")
        .arg(&file)
        .args(["--generate", "2", "--game-type", "Base+Q"])
        .output()
        .expect("waggle runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("Base+Q"));
    assert!(!file.exists(), "no data file written");
}

/// Runs `waggle tune` with `args`, returning whether it succeeded and its
/// standard error.
fn tune(args: &[&std::ffi::OsStr]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .arg("tune")
        .args(args)
        .output()
        .expect("waggle runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn search_scores_are_kept_with_what_made_them_and_reused_only_for_that() {
    let dir = std::env::temp_dir().join(format!("waggle-tune-scores-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("games.txt");
    let scores = dir.join("scores.txt");
    let _ = std::fs::remove_file(&scores);
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    // Twelve quick games from `seed` into the data file, then a fit.
    let games = |seed: &'static str, extra: &[&std::ffi::OsStr]| {
        let mut args = vec![
            data.as_os_str(),
            os("--generate"),
            os("12"),
            os("--nodes"),
            os("100"),
            os("--seed"),
            os(seed),
            os("--iterations"),
            os("1"),
        ];
        args.extend_from_slice(extra);
        tune(&args)
    };
    let (ok, err) = games(
        "2026",
        &[
            os("--search-depth"),
            os("2"),
            os("--scores"),
            scores.as_os_str(),
        ],
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&scores).expect("the scores file");
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(header.contains("--search-depth 2"), "{header}");
    // `…: N training positions, data <hash>`, and one score a line for each.
    let n: usize = header
        .rsplit(": ")
        .next()
        .and_then(|tail| tail.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the number of positions");
    let values: Vec<f64> = lines.map(|l| l.parse().expect("a score")).collect();
    assert!(n > 0);
    assert_eq!(values.len(), n);

    // The same settings read the file again; another depth is refused.
    let fit = |depth: &'static str| {
        tune(&[
            data.as_os_str(),
            os("--iterations"),
            os("1"),
            os("--search-depth"),
            os(depth),
            os("--scores"),
            scores.as_os_str(),
        ])
    };
    let (ok, err) = fit("2");
    assert!(ok, "{err}");
    let (ok, err) = fit("3");
    assert!(!ok);
    assert!(err.contains("other data or settings"), "{err}");
    // So are other games under the same file name.
    let (ok, err) = games("7", &[]);
    assert!(ok, "{err}");
    let (ok, err) = fit("2");
    assert!(!ok);
    assert!(err.contains("other data or settings"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&scores).expect("the scores file"),
        text,
        "a refused file is left as it was"
    );
    let _ = std::fs::remove_file(&data);
    let _ = std::fs::remove_file(&scores);
}
