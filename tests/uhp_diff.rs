//! `waggle uhp-diff`: no difference against Waggle itself, and every dropped
//! move reported against an engine that leaves one out.

use std::process::Command;

const WAGGLE: &str = env!("CARGO_BIN_EXE_waggle");

fn fixture() -> String {
    format!(
        "bash {}/tests/fixtures/broken-engine.sh",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn waggle_agrees_with_itself() {
    let out = Command::new(WAGGLE)
        .args([
            "uhp-diff", WAGGLE, "--games", "2", "--plies", "25", "--seed", "7",
        ])
        .args(["--option", "RepetitionDraw=False"])
        .output()
        .expect("waggle runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(": 0 positions differ"), "{text}");
}

#[test]
fn a_dropped_move_is_reported_in_every_position() {
    let engine = format!("{} drop-move {WAGGLE}", fixture());
    let out = Command::new(WAGGLE)
        .args([
            "uhp-diff",
            &engine,
            "--games",
            "1",
            "--plies",
            "4",
            "--game-type",
            "Base",
        ])
        .output()
        .expect("waggle runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("5 positions, "), "{text}");
    assert!(text.contains(": 5 positions differ"), "{text}");
    assert_eq!(
        text.matches("only we generate (their 'play' rejects it) (1):")
            .count(),
        5,
        "{text}"
    );
}
