//! Fuzzes the UHP loop: arbitrary bytes are split into lines and fed, one
//! line at a time, to an in-memory [`UhpServer`], as `UhpServer::run` would.
//!
//! After each line the framing invariant of UHP.md §3 must hold:
//! * a blank line gets no answer, `exit` ends the session without one;
//! * every other line gets exactly one `ok`, as the last line of its answer;
//! * `err`/`invalidmove` only ever starts the first line of an answer, and is
//!   then the whole answer, and the game is unchanged;
//! * the answer is one `\n`-separated block with no other control characters
//!   (a stray `\r` would split a line for a .NET reader);
//! * after `newgame`, `play`, `pass` and `undo` the first line is the game's
//!   GameString.
//!
//! A panic anywhere (even one the server would catch and turn into `err`) is
//! a finding: libFuzzer's panic hook aborts before the unwind is caught.
//!
//! Commands that could run for long (deep or timed searches, deep perft,
//! large hash tables) are replaced by cheap ones, so the fuzzer never waits
//! on the clock.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;
use waggle::engine::EngineOptions;
use waggle::uhp::{Flow, Interrupt, UhpServer};

/// Lines per input, so one input cannot take seconds.
const MAX_LINES: usize = 64;

fuzz_target!(|data: &[u8]| {
    let options = EngineOptions {
        threads: 1,
        hash_mb: 1,
        ..EngineOptions::default()
    };
    let mut server = UhpServer::with_options(Vec::new(), options, Arc::new(Interrupt::default()));
    server.greet();
    let greeting = String::from_utf8_lossy(server.output()).into_owned();
    assert!(greeting.starts_with("id ") && greeting.ends_with("\nok\n"));

    for raw in data.split(|&b| b == b'\n').take(MAX_LINES) {
        let line = tame(&String::from_utf8_lossy(raw));
        let trimmed =
            line.trim_matches(|c: char| c.is_whitespace() || c == '\0' || c == '\u{feff}');
        let word = trimmed
            .split(char::is_whitespace)
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let game_before = server.game().map(|g| g.game_string());
        let start = server.output().len();
        let flow = server.handle_line(&line);
        let out = &server.output()[start..];

        if trimmed.is_empty() {
            assert!(out.is_empty(), "answer to a blank line");
            assert_eq!(flow, Flow::Continue);
            continue;
        }
        if word == "exit" {
            assert!(out.is_empty(), "answer to exit");
            assert_eq!(flow, Flow::Exit);
            return;
        }
        assert_eq!(flow, Flow::Continue);

        let text = std::str::from_utf8(out).expect("answers are UTF-8");
        assert!(
            text.ends_with("ok\n"),
            "answer to {line:?} not ended by ok: {text:?}"
        );
        assert!(
            !text.chars().any(|c| c != '\n' && c.is_control()),
            "control character in the answer to {line:?}: {text:?}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let oks = lines.iter().filter(|l| **l == "ok").count();
        assert_eq!(oks, 1, "answer to {line:?}: {text:?}");
        for (i, l) in lines.iter().enumerate() {
            if l.starts_with("err") || l.starts_with("invalidmove") {
                assert_eq!(i, 0, "error not on the first line for {line:?}: {text:?}");
            }
        }
        let failed = lines[0].starts_with("err") || lines[0].starts_with("invalidmove");
        let game_after = server.game().map(|g| g.game_string());
        if failed {
            assert_eq!(lines.len(), 2, "error answer to {line:?}: {text:?}");
            assert_eq!(game_before, game_after, "failed {line:?} changed the game");
        } else if matches!(word.as_str(), "newgame" | "play" | "pass" | "undo") {
            assert_eq!(lines.len(), 2, "answer to {line:?}: {text:?}");
            assert_eq!(Some(lines[0].to_string()), game_after, "answer to {line:?}");
        }
    }
});

/// Replaces a command that could run for long by a cheap one of the same
/// kind; everything else passes through unchanged.
fn tame(line: &str) -> String {
    let trimmed = line.trim_matches(|c: char| c.is_whitespace() || c == '\0' || c == '\u{feff}');
    let mut words = trimmed.split_whitespace();
    let word = words.next().unwrap_or("").to_ascii_lowercase();
    let args: Vec<String> = words.map(str::to_ascii_lowercase).collect();
    let big = |max: u128| {
        args.iter()
            .any(|a| a.parse::<u128>().is_ok_and(|n| n > max))
    };
    match word.as_str() {
        // Only shallow depth searches: no clock, no unbounded search.
        "bestmove" if args.first().map(String::as_str) != Some("depth") || big(1) => {
            "bestmove depth 1".to_string()
        }
        "perft" if big(2) => "perft 1".to_string(),
        "options" if big(16) => "options".to_string(),
        _ => line.to_string(),
    }
}
