//! `waggle arena` end to end: counts that add up, PGN files that replay move
//! for move, an Elo interval that matches the counts, forfeits of broken
//! engines, and an SPRT that stops once decided.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use waggle::engine::{Engine, EngineOptions};
use waggle::hive::game::Game;
use waggle::hive::Rules;
use waggle::tools::analyse::{analyse, AnalyseConfig};
use waggle::tools::pgn::PgnGame;
use waggle::tools::stats::{elo_from_score, Wdl};

const WAGGLE: &str = env!("CARGO_BIN_EXE_waggle");

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn arena(args: &[&str], dir: &Path) -> (Output, String) {
    let out = Command::new(WAGGLE)
        .arg("arena")
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .expect("waggle runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

/// The table row of an engine: (games, W, D, L, forfeit words).
fn row(text: &str, name: &str) -> (u32, u32, u32, u32, String) {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no row for {name} in\n{text}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    let n = |i: usize| f[i].parse::<u32>().expect("a count");
    let forfeits = line[line.find("crash").expect("forfeits")..].to_string();
    (n(2), n(3), n(4), n(5), forfeits)
}

fn broken(mode: &str) -> String {
    format!(
        "name={mode},cmd=bash {}/tests/fixtures/broken-engine.sh {mode} {WAGGLE}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_short_match_adds_up_and_its_pgn_files_replay() {
    let dir = out_dir("arena-match");
    let a = format!("name=shallow,cmd={WAGGLE},depth=1");
    let b = format!("name=deeper,cmd={WAGGLE},depth=2");
    let (_, text) = arena(
        &[
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "6",
            "--concurrency",
            "2",
            "--max-plies",
            "80",
            "--each",
            "option.Threads=1",
        ],
        &dir,
    );
    let (g1, w1, d1, l1, _) = row(&text, "shallow");
    let (g2, w2, d2, l2, _) = row(&text, "deeper");
    assert_eq!((g1, g2), (6, 6), "{text}");
    assert_eq!(w1 + d1 + l1, 6);
    assert_eq!((w1, d1, l1), (l2, d2, w2), "{text}");
    assert!(text.contains("Arena: 6 of 6 games played"), "{text}");

    // The pairing line and the Elo interval match the counts.
    let score_line = format!("Score of shallow vs deeper: {w1} - {l1} - {d1}");
    assert!(text.contains(&score_line), "{text}");
    let wdl = Wdl {
        wins: w1,
        draws: d1,
        losses: l1,
    };
    let n = 6.0;
    let m = (f64::from(w1) + 0.5 * f64::from(d1)) / n;
    if let Some(line) = text.lines().find(|l| l.starts_with("Elo difference:")) {
        let nums: Vec<f64> = line
            .replace(['(', ')'], " ")
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let e = wdl.elo().expect("an estimate");
        if e.low.is_finite() && e.high.is_finite() {
            assert_eq!(nums.len(), 3, "{line}");
            let var = (f64::from(w1) * (1.0 - m).powi(2)
                + f64::from(d1) * (0.5 - m).powi(2)
                + f64::from(l1) * m.powi(2))
                / n;
            let se = (var / n).sqrt();
            let expect = [
                elo_from_score(m),
                elo_from_score(m - 1.959964 * se),
                elo_from_score(m + 1.959964 * se),
            ];
            for (got, want) in nums.iter().zip(expect) {
                assert!((got - want).abs() < 0.06, "{line}: expected {expect:?}");
            }
            assert!(nums[1] <= nums[0] && nums[0] <= nums[2], "{line}");
        }
    }

    // The game pairs: the two games of each round, counted from
    // results.csv, with the shallow engine's points.
    let results = std::fs::read_to_string(dir.join("results.csv")).expect("results.csv");
    let mut by_round = std::collections::BTreeMap::<u32, u32>::new();
    for row in results.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let round: u32 = f[1].parse().expect("a round");
        let shallow_white = f[2] == "\"shallow\"";
        let half_points = match (f[4], shallow_white) {
            ("WhiteWins", true) | ("BlackWins", false) => 2,
            ("Draw", _) => 1,
            _ => 0,
        };
        *by_round.entry(round).or_default() += half_points;
    }
    let mut expect = [0u32; 5];
    for &points in by_round.values() {
        expect[points as usize] += 1;
    }
    assert_eq!(by_round.len(), 3, "{results}");
    let pairs_line = text
        .lines()
        .find(|l| l.starts_with("Game pairs"))
        .unwrap_or_else(|| panic!("no pairs line in\n{text}"));
    let counts: Vec<u32> = pairs_line
        .split_once("2: ")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(counts, _)| {
            counts
                .split(" - ")
                .map(|c| c.parse().expect("a count"))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(counts, expect, "{pairs_line}");
    assert!(pairs_line.contains("by shallow's points"), "{pairs_line}");
    let half_points: u32 = counts.iter().zip(0..).map(|(c, k)| c * k).sum();
    assert_eq!(half_points, 2 * w1 + d1, "{pairs_line}");

    // One PGN per game; each replays move for move to its games.txt line.
    let games = std::fs::read_to_string(dir.join("games.txt")).expect("games.txt");
    let games: Vec<&str> = games.lines().collect();
    let rows: Vec<&str> = results.lines().skip(1).collect();
    assert_eq!(games.len(), 6);
    assert_eq!(rows.len(), 6);
    for (gs, row) in games.iter().zip(&rows) {
        let fields: Vec<&str> = row.split(',').collect();
        let pgn_file = fields[7];
        let pgn = std::fs::read_to_string(dir.join(pgn_file)).expect("the PGN file");
        let record = PgnGame::parse(&pgn).expect("PGN parses");
        assert_eq!(record.tag("GameType"), Some("Base"));
        assert_eq!(record.tag("Result"), Some(fields[4]));
        let white = record.tag("White").expect("White tag");
        assert_eq!(format!("\"{white}\""), fields[2]);
        assert!(record.tag("Black").is_some() && record.tag("Date").is_some());
        let replayed = record.replay().expect("every move replays");
        let logged = Game::from_game_string(gs, Rules::default(), false).expect("GameString");
        assert_eq!(replayed.move_strings(), logged.move_strings());
        assert_eq!(fields[5].parse::<usize>().ok(), Some(record.moves.len()));
        for (i, line) in pgn
            .lines()
            .skip_while(|l| !l.is_empty())
            .skip(1)
            .enumerate()
        {
            assert!(line.starts_with(&format!("{}. ", i + 1)), "{line}");
        }
    }
}

#[test]
fn broken_engines_lose_and_the_arena_finishes() {
    let dir = out_dir("arena-broken");
    let me = format!("name=waggle,cmd={WAGGLE}");
    let engines: Vec<String> = ["crash", "silent", "illegal", "err"]
        .iter()
        .map(|m| broken(m))
        .collect();
    let mut args = vec!["--engine", me.as_str()];
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend([
        "--mode",
        "gauntlet",
        "--games",
        "2",
        "--depth",
        "1",
        "--move-timeout",
        "1",
    ]);
    let (_, text) = arena(&args, &dir);
    let (g, w, d, l, _) = row(&text, "waggle");
    assert_eq!((g, w, d, l), (8, 8, 0, 0), "{text}");
    for (mode, fault) in [
        ("crash", "crash 2"),
        ("silent", "hang 2"),
        ("illegal", "illegal 2"),
        ("err", "error 2"),
    ] {
        let (g, w, d, l, forfeits) = row(&text, mode);
        assert_eq!((g, w, d, l), (2, 0, 0, 2), "{mode}: {text}");
        assert!(forfeits.contains(fault), "{mode}: {forfeits}");
    }
    let log = std::fs::read_to_string(dir.join("arena.log")).expect("arena.log");
    for reason in [
        "exited while answering",
        "gave no 'ok'",
        "illegal move 'pass'",
        "err the search fell over",
    ] {
        assert!(log.contains(reason), "{reason} not in\n{log}");
    }
}

#[test]
fn an_sprt_stops_once_decided() {
    let dir = out_dir("arena-sprt");
    let me = format!("name=waggle,cmd={WAGGLE}");
    let crash = broken("crash");
    let (_, text) = arena(
        &[
            "--engine", &me, "--engine", &crash, "--sprt", "0,50", "--games", "200", "--depth", "1",
        ],
        &dir,
    );
    assert!(text.contains("H1 accepted"), "{text}");
    let (g, w, _, _, _) = row(&text, "waggle");
    assert!(g < 200 && w == g, "{text}");
    assert!(
        text.contains("SPRT: elo0 0 elo1 50 alpha 0.05 beta 0.05: LLR"),
        "{text}"
    );
}

#[test]
fn a_clock_that_runs_out_loses_the_game() {
    let dir = out_dir("arena-clock");
    let quick = broken("clock");
    let slow = broken("slow");
    let (_, text) = arena(
        &[
            "--engine", &quick, "--engine", &slow, "--clock", "0.5+0.01", "--games", "2",
        ],
        &dir,
    );
    assert!(text.contains("bestmove clock 0.5+0.01 s"), "{text}");
    let (g, w, d, l, forfeits) = row(&text, "slow");
    assert_eq!((g, w, d, l), (2, 0, 0, 2), "{text}");
    assert!(forfeits.contains("time 2"), "{forfeits}");
    let log = std::fs::read_to_string(dir.join("arena.log")).expect("arena.log");
    assert!(log.contains("slow lost on time"), "{log}");
}

#[test]
fn an_engine_that_cannot_start_is_reported_before_any_game() {
    let dir = out_dir("arena-missing");
    let out = Command::new(WAGGLE)
        .args([
            "arena",
            "--engine",
            WAGGLE,
            "--engine",
            "/nonexistent/engine --uhp",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("waggle runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("could not start the engine"), "{err}");
    assert!(!dir.join("games.txt").exists());
}

#[test]
fn a_round_robin_plays_every_pair_with_both_colours() {
    let dir = out_dir("arena-round-robin");
    let engines: Vec<String> = ["a", "b", "c"]
        .iter()
        .map(|n| format!("name={n},cmd={WAGGLE}"))
        .collect();
    let mut args = vec!["--mode", "round-robin", "--games", "2", "--depth", "1"];
    args.extend(["--max-plies", "30", "--concurrency", "3"]);
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    let (_, text) = arena(&args, &dir);
    assert!(text.contains("Arena: 6 of 6 games played"), "{text}");
    let mut wins = 0;
    let mut losses = 0;
    for name in ["a", "b", "c"] {
        let (g, w, d, l, _) = row(&text, name);
        assert_eq!((g, w + d + l), (4, 4), "{name}: {text}");
        wins += w;
        losses += l;
    }
    assert_eq!(wins, losses);
    for pair in ["a vs b", "a vs c", "b vs c"] {
        assert!(
            text.contains(&format!("Score of {pair}: ")),
            "{pair}: {text}"
        );
    }
    let results = std::fs::read_to_string(dir.join("results.csv")).expect("results.csv");
    for (white, black) in [
        ("a", "b"),
        ("b", "a"),
        ("a", "c"),
        ("c", "a"),
        ("b", "c"),
        ("c", "b"),
    ] {
        let pattern = format!(",\"{white}\",\"{black}\",");
        assert_eq!(results.matches(&pattern).count(), 1, "{pattern}\n{results}");
    }
}

#[test]
fn the_won_endgames_load_as_openings_with_one_better_side_each() {
    let text = include_str!("../bench-positions/won-endgames.txt");
    let openings = waggle::tools::arena::read_openings(text).expect("the file loads as openings");
    // The header names the better side of each line, in order.
    let sides: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("# score for White to move: "))
        .expect("the header lists the better sides")
        .trim_end_matches('.')
        .split_whitespace()
        .collect();
    assert_eq!(sides.len(), openings.len());
    let cfg = AnalyseConfig {
        depth: Some(4),
        time: None,
        nodes: None,
        threads: 1,
        hash_mb: 16,
        multipv: 1,
        contempt: 0,
        board: false,
        overrides: Default::default(),
    };
    // As `waggle analyse --depth 4` builds it.
    let mut engine = Engine::new(EngineOptions {
        threads: cfg.threads,
        hash_mb: cfg.hash_mb,
        contempt: cfg.contempt,
        ..EngineOptions::default()
    });
    for (gs, side) in openings.iter().zip(&sides) {
        // White is to move; a short search agrees which side is better, by
        // at least 2 liberties (200 centi-liberties; the header's 2.5 is at
        // 0.5 s, and depth 4 gives 2.64 to 9.05 now).
        let a = analyse(&mut engine, gs, &cfg);
        // Drawn by the 400-ply limit: 400 plies on the board, game on.
        assert_eq!(a.ply, Some(400), "{gs}");
        assert!(gs.contains(";InProgress;White[201]"), "{gs}");
        let score = a.score.expect("a position in progress is searched");
        match *side {
            "W" => assert!(score >= 200, "{score} for White: {gs}"),
            "B" => assert!(score <= -200, "{score} for White: {gs}"),
            other => panic!("better side '{other}' is neither W nor B"),
        }
    }
}
