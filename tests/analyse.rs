//! `waggle analyse`: the proven tactics come back with their answers and
//! mate distances, and `--json` output follows the documented schema
//! (src/tools/analyse.rs).

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const WAGGLE: &str = env!("CARGO_BIN_EXE_waggle");

/// Runs `waggle analyse <args>` with `input` on stdin; returns the exit
/// status success and the JSON objects printed.
fn analyse(args: &[&str], input: &str) -> (bool, Vec<Value>) {
    let mut child = Command::new(WAGGLE)
        .arg("analyse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("waggle starts");
    // waggle may refuse its arguments and exit before reading stdin; the
    // write then fails with a broken pipe, and the exit status tells.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write: {e}");
    }
    let out = child.wait_with_output().expect("waggle finishes");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let objects = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    (out.status.success(), objects)
}

fn is_int_or_null(v: &Value) -> bool {
    v.is_null() || v.is_i64()
}

/// Checks one object against the schema in the module docs.
fn check_schema(o: &Value) {
    let obj = o.as_object().expect("an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut expected = vec![
        "best_move",
        "depth",
        "game_string",
        "lines",
        "mate",
        "nodes",
        "outcome",
        "ply",
        "score",
        "side_to_move",
        "time_ms",
    ];
    if obj.contains_key("error") {
        expected.push("error");
        expected.sort_unstable();
        assert!(o["error"].is_string());
    }
    if obj.contains_key("board") {
        expected.push("board");
        expected.sort_unstable();
        let lines = o["board"].as_array().expect("board is an array");
        assert!(lines.iter().all(Value::is_string), "{o}");
    }
    assert_eq!(keys, expected, "{o}");
    assert!(o["game_string"].is_string());
    assert!(
        o["side_to_move"].is_null()
            || ["White", "Black"].contains(&o["side_to_move"].as_str().unwrap_or(""))
    );
    assert!(is_int_or_null(&o["ply"]) && is_int_or_null(&o["score"]));
    assert!(is_int_or_null(&o["mate"]) && is_int_or_null(&o["depth"]));
    assert!(
        o["outcome"].is_null()
            || ["WhiteWins", "BlackWins", "Draw"].contains(&o["outcome"].as_str().unwrap_or(""))
    );
    assert!(o["best_move"].is_null() || o["best_move"].is_string());
    assert!(o["nodes"].is_u64() && o["time_ms"].is_u64());
    let lines = o["lines"].as_array().expect("lines is an array");
    for l in lines {
        let mut lk: Vec<&str> = l
            .as_object()
            .expect("line object")
            .keys()
            .map(String::as_str)
            .collect();
        lk.sort_unstable();
        assert_eq!(
            lk,
            ["depth", "mate", "move", "nodes", "pv", "score", "time_ms"],
            "{l}"
        );
        assert!(l["move"].is_string() && l["score"].is_i64() && is_int_or_null(&l["mate"]));
        assert!(l["depth"].is_u64() && l["nodes"].is_u64() && l["time_ms"].is_u64());
        let pv = l["pv"].as_array().expect("pv is an array");
        assert!(pv.iter().all(Value::is_string));
        assert_eq!(pv.first(), Some(&l["move"]), "the PV starts with the move");
    }
    if let Some(first) = lines.first() {
        assert_eq!(o["best_move"], first["move"]);
        assert_eq!(o["score"], first["score"]);
        assert_eq!(o["mate"], first["mate"]);
        assert_eq!(o["depth"], first["depth"]);
        let sum: u64 = lines.iter().map(|l| l["nodes"].as_u64().unwrap_or(0)).sum();
        assert_eq!(o["nodes"].as_u64(), Some(sum));
    } else {
        assert!(o["best_move"].is_null());
    }
}

fn tactics(kind: &str) -> Vec<(Vec<String>, String)> {
    include_str!("../bench-positions/tactics.txt")
        .lines()
        .filter(|l| l.starts_with(kind))
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").collect();
            (
                parts[1].split(", ").map(str::to_string).collect(),
                parts[2].to_string(),
            )
        })
        .collect()
}

#[test]
fn tactics_come_back_with_their_proven_answers() {
    for (kind, depth, mate) in [
        ("surround-in-1", "1", Some(1)),
        ("surround-in-2", "3", Some(3)),
        ("block", "2", None),
    ] {
        let cases = tactics(kind);
        assert!(!cases.is_empty(), "{kind}");
        let input: String = cases.iter().map(|(_, gs)| format!("{gs}\n")).collect();
        let (ok, out) = analyse(&["--json", "--depth", depth], &input);
        assert!(ok, "{kind}");
        assert_eq!(out.len(), cases.len());
        for ((answers, gs), o) in cases.iter().zip(&out) {
            check_schema(o);
            let best = o["best_move"].as_str().expect("a best move");
            assert!(
                answers.iter().any(|a| a == best),
                "{kind}: {best} not in {answers:?} for {gs}"
            );
            match mate {
                Some(n) => assert_eq!(o["mate"].as_i64(), Some(n), "{kind}: {gs}"),
                // A block avoids the surround: no forced loss within the depth.
                None => assert!(
                    !matches!(o["mate"].as_i64(), Some(m) if m <= 0),
                    "{kind}: {gs}"
                ),
            }
        }
    }
}

#[test]
fn multipv_errors_and_finished_games_follow_the_schema() {
    let input = "Base;InProgress;White[2];wS1;bS1 wS1-\n\
                 # a comment\n\
                 Base;InProgress;White[2];wQ\n\
                 Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1\n";
    let (ok, out) = analyse(&["--json", "--depth", "1", "--multipv", "3"], input);
    assert!(!ok, "an unreadable line makes the exit status a failure");
    assert_eq!(out.len(), 3);
    for o in &out {
        check_schema(o);
    }
    let lines = out[0]["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3);
    let mut moves: Vec<&str> = lines.iter().filter_map(|l| l["move"].as_str()).collect();
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), 3, "MultiPV lines name different moves");
    assert!(out[1]["error"].is_string());
    assert_eq!(out[2]["outcome"], "WhiteWins");
    assert!(out[2]["lines"].as_array().is_some_and(|l| l.is_empty()));
}

#[test]
fn text_output_names_the_best_move() {
    let out = Command::new(WAGGLE)
        .args([
            "analyse",
            "--depth",
            "1",
            "Base;InProgress;White[2];wS1;bS1 wS1-",
        ])
        .output()
        .expect("waggle runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1. ") && text.contains("score") && text.contains("pv"),
        "{text}"
    );
}

#[test]
fn contempt_flag_sets_what_a_draw_is_worth() {
    // Black to move; `bQ bG1-` repeats the position a third time (a draw).
    let input = "Base;InProgress;Black[6];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wQ \\wG1;bQ bG1/;wQ -wG1;bQ bG1-;wQ \\wG1;bQ bG1/;wQ -wG1\n";
    let (ok, out) = analyse(&["--json", "--depth", "3", "--contempt", "-1000"], input);
    assert!(ok);
    assert_eq!(out[0]["best_move"], "bQ bG1-", "seeking draws: {}", out[0]);
    assert_eq!(out[0]["score"], 1000);
    // By default analysis scores a draw 0, and this position is better
    // than that for Black.
    let (ok, out) = analyse(&["--json", "--depth", "3"], input);
    assert!(ok);
    assert_ne!(out[0]["best_move"], "bQ bG1-", "{}", out[0]);
    let (ok, _) = analyse(&["--json", "--depth", "1", "--contempt", "1001"], input);
    assert!(!ok, "contempt beyond 1000 is refused");
}

#[test]
fn board_flag_draws_each_position_in_text_and_json() {
    // White's Beetle has climbed onto the black Queen.
    let gs = "Base;InProgress;Black[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ\\;wB1 wS1/;bA2 bA1\\;wB1 bS1;bG1 bQ-;wB1 bQ";
    let (ok, out) = analyse(
        &["--json", "--depth", "1", "--board"],
        &format!("{gs}\nnot a game\n"),
    );
    assert!(!ok, "the second line is not a GameString");
    check_schema(&out[0]);
    check_schema(&out[1]);
    let board: Vec<&str> = out[0]["board"]
        .as_array()
        .expect("a board")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let row = board
        .iter()
        .find(|l| l.contains("wQ"))
        .expect("a row with the white Queen");
    assert!(row.contains("(wB1)"), "the Beetle tops a stack: {row}");
    let order: Vec<usize> = ["wQ ", "wS1", "bS1", "wB1", "bG1"]
        .iter()
        .map(|name| row.find(name).unwrap_or_else(|| panic!("{name} in {row}")))
        .collect();
    assert!(order.windows(2).all(|w| w[1] - w[0] == 6), "{row}");
    assert!(board.contains(&"wB1 on bQ"), "{board:?}");
    assert!(
        board.contains(&"Black in hand: bS2 bB1 bB2 bG2 bG3 bA3"),
        "{board:?}"
    );
    // No drawing for a line that could not be read, and none without --board.
    assert!(out[1].get("board").is_none());
    let (_, plain) = analyse(&["--json", "--depth", "1"], gs);
    assert!(plain[0].get("board").is_none());
    let text = Command::new(WAGGLE)
        .args(["analyse", "--depth", "1", "--board", gs])
        .output()
        .expect("waggle runs");
    let text = String::from_utf8_lossy(&text.stdout);
    for line in &board {
        assert!(text.contains(line), "{line} in {text}");
    }
}
