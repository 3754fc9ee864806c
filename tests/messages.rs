//! Bad input of every class in UHP.md §9–§10 gets `err` or `invalidmove`
//! with a reason a player understands, then one `ok`, and leaves the game as
//! it was (issue 6, item 5). Also: specific reasons for illegal moves, and
//! random illegal moves in random games never get a Rust debug dump.

use proptest::prelude::*;
use waggle::hive::game::Game;
use waggle::hive::notation::{explain_illegal, parse_move};
use waggle::hive::{Direction, GameType, Move, Rules};
use waggle::uhp::{Flow, UhpServer};

/// A White win: Black's Queen is surrounded by the last move.
const WON: &str = "Base;InProgress;White[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1";
/// Four pieces in a line, White to move: `wS1` holds the hive together.
const LINE: &str = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
/// Black to move after a forced repetition draw can be undone.
const REPEATED: &str = "Base;InProgress;White[2];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-";

/// Signs of a Rust debug dump (or a panic) in a message.
const DEBUG_SYNTAX: [&str; 12] = [
    "{", "}", "(\"", "\")", "Some(", "None", "Err(", "Ok(", "::", "\\\"", "panicked", "unwrap",
];

fn assert_readable(reason: &str) {
    assert!(!reason.trim().is_empty(), "empty reason");
    for bad in DEBUG_SYNTAX {
        assert!(!reason.contains(bad), "debug syntax {bad:?} in {reason:?}");
    }
    assert!(
        !reason.chars().any(char::is_control),
        "control character in {reason:?}"
    );
}

struct Session {
    server: UhpServer<Vec<u8>>,
    at: usize,
}

impl Session {
    fn new(setup: &[&str]) -> Session {
        let mut s = Session {
            server: UhpServer::new(Vec::new()),
            at: 0,
        };
        for line in setup {
            let answer = s.send(line);
            assert!(
                !answer[0].starts_with("err") && !answer[0].starts_with("invalidmove"),
                "setup {line:?} failed: {answer:?}"
            );
        }
        s
    }

    /// Sends one line and returns the answer without its final `ok`,
    /// checking the framing.
    fn send(&mut self, line: &str) -> Vec<String> {
        assert_eq!(self.server.handle_line(line), Flow::Continue);
        let out = self.server.output();
        let text = std::str::from_utf8(&out[self.at..])
            .expect("UTF-8 answer")
            .to_string();
        self.at = out.len();
        assert!(text.ends_with("\nok\n"), "{line:?} got {text:?}");
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        lines.pop(); // after the last '\n'
        lines.pop(); // "ok"
        assert!(!lines.iter().any(|l| l == "ok"), "two oks for {line:?}");
        lines
    }

    fn game_string(&self) -> Option<String> {
        self.server.game().map(Game::game_string)
    }

    /// Sends a bad line: the answer must be exactly one `prefix <reason>`
    /// line, the game must not change, and the reason is returned.
    fn refused(&mut self, line: &str, prefix: &str) -> String {
        let before = self.game_string();
        let answer = self.send(line);
        assert_eq!(answer.len(), 1, "{line:?} got {answer:?}");
        let reason = answer[0]
            .strip_prefix(prefix)
            .and_then(|r| r.strip_prefix(' '))
            .unwrap_or_else(|| panic!("{line:?} got {:?}, not {prefix}", answer[0]));
        assert_readable(reason);
        assert_eq!(self.game_string(), before, "{line:?} changed the game");
        reason.to_string()
    }
}

#[test]
fn commands_without_a_game_get_err() {
    let mut s = Session::new(&[]);
    for line in [
        "play wS1",
        "pass",
        "validmoves",
        "bestmove depth 1",
        "undo",
        "undo 1",
        "perft 1",
    ] {
        let reason = s.refused(line, "err");
        assert!(reason.contains("newgame"), "{reason}");
    }
}

#[test]
fn unknown_commands_get_err() {
    let mut s = Session::new(&["newgame Base"]);
    for line in [
        "frobnicate",
        "newgamex",
        "play-wS1",
        "ok",
        "err",
        "invalidmove wS1",
    ] {
        s.refused(line, "err");
    }
}

#[test]
fn bad_newgame_arguments_get_err_and_keep_the_old_game() {
    let mut s = Session::new(&["newgame Base", "play wS1"]);
    let cases = [
        ("newgame Base+PLM", "not a game type"),
        ("newgame base", "not a game type"),
        ("newgame Foo", "not a game type"),
        ("newgame Foo;NotStarted;White[1]", "not a game type"),
        ("newgame Base;NotStarted;White[1];", "empty move"),
        (
            "newgame Base;InProgress;White[2];wS1;;bS1 wS1-",
            "empty move",
        ),
        ("newgame Base;InProgress;Black[1];wQ", "first turn"),
        (
            "newgame Base;InProgress;White[2];wS1;bX9 wS1-",
            "not a piece name",
        ),
        (
            "newgame Base;InProgress;White[2];wS1;bS1 bQ-",
            "not on the board",
        ),
        (
            "newgame Base;InProgress;White[2];wS1;wM wS1-",
            "not in this game",
        ),
        (&format!("newgame {WON};bQ bS1-"), "game is over"),
    ];
    for (line, words) in cases {
        let reason = s.refused(line, "err");
        assert!(reason.contains(words), "{line}: {reason}");
    }
}

#[test]
fn moves_that_cannot_be_read_get_invalidmove() {
    let mut s = Session::new(&["newgame Base+M", "play wS1", "play bS1 wS1-"]);
    let cases = [
        ("play", "no move given"),
        ("play    ", "no move given"),
        ("play xyzzy", "not a piece name"),
        ("play wX1 wS1-", "not a piece name"),
        ("play wQ1 -wS1", "one Queen Bee"),
        ("play bA4 bS1-", "numbered 1 to 3"),
        ("play wS", "numbered 1 to 2"),
        ("play wL -wS1", "not in this game"),
        ("play wS3 -wS1", "numbered 1 to 2"),
        ("play wA2 -wS1", "wA1 is still in hand"),
        ("play wQ", "doesn't say where"),
        ("play wQ bQ-", "not on the board"),
        ("play wQ wS1--", "not a reference"),
        ("play wQ -wS1-", "not a reference"),
        ("play wQ -xx", "not a reference"),
        ("play wQ -bS1", "taken"),
        ("play wQ \\bS1-", "not a reference"),
    ];
    for (line, words) in cases {
        let reason = s.refused(line, "invalidmove");
        assert!(reason.contains(words), "{line}: {reason}");
    }
}

#[test]
fn illegal_moves_get_invalidmove_with_a_specific_reason() {
    let cases: [(&[&str], &str, &str); 19] = [
        (&["newgame Base"], "play wQ", "first turn"),
        (&["newgame Base"], "play bS1", "White's turn"),
        (&["newgame Base", "play wS1"], "play wS1 bS1", "not on the board"),
        (&["newgame Base", "play wS1"], "play wS1 -wS1", "Black's turn"),
        (&[&format!("newgame {LINE}")], "play wS1 /wQ", "the hive would split"),
        (&[&format!("newgame {LINE}")], "play wQ bQ", "only a Beetle"),
        (&[&format!("newgame {LINE}")], "play wQ \\bQ", "exactly one cell"),
        (&[&format!("newgame {LINE}")], "pass", "can't pass"),
        (&[&format!("newgame {LINE}")], "play wA1 bQ-", "touch bQ"),
        (&[&format!("newgame {LINE}")], "play wA1 wQ", "on the ground"),
        (&["newgame Base", "play wS1", "play bS1 wS1-"], "play wQ bS1-", "touch bS1"),
        (&["newgame Base", "play wS1", "play bS1 wS1-"], "play wQ wS1", "on the ground"),
        (
            &["newgame Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bA1 bQ-"],
            "play wS2 \\wQ",
            "exactly three cells",
        ),
        (
            &["newgame Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bA1 bQ-"],
            "play wG1 \\wQ",
            "jumps over at least one piece",
        ),
        (
            &["newgame Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wB1 wQ;bB1 bQ"],
            "play wQ \\wS1",
            "wB1 is on top of it",
        ),
        (
            &["newgame Base;InProgress;Black[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wB1 wQ"],
            "play bB1 bS1",
            "exactly one cell",
        ),
        (
            &["newgame Base;InProgress;White[4];wS1;bS1 wS1-;wS2 -wS1;bS2 bS1-;wG1 -wS2;bG1 bS2-"],
            "play wA1 -wG1",
            "Queen Bee by your fourth turn",
        ),
        (
            &["newgame Base+L;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wL -wQ;bA1 bQ-"],
            "play wL wQ",
            "Ladybug climbs up",
        ),
        (
            &["newgame Base;InProgress;White[3];wS1;bS1 wS1-;wS2 -wS1;bQ bS1-"],
            "play wS2 \\wS1",
            "before your Queen Bee",
        ),
    ];
    for (setup, line, words) in cases {
        let mut s = Session::new(setup);
        let reason = s.refused(line, "invalidmove");
        assert!(reason.contains(words), "{line}: {reason}");
    }
}

#[test]
fn a_finished_game_refuses_moves_with_err() {
    let mut s = Session::new(&[&format!("newgame {WON}")]);
    assert!(s.game_string().is_some_and(|g| g.contains("WhiteWins")));
    for line in ["play bQ bS1-", "pass", "validmoves", "bestmove depth 1"] {
        let reason = s.refused(line, "err");
        assert!(reason.contains("White wins"), "{reason}");
    }
    // Undo is allowed and puts the game back in progress.
    assert!(s.send("undo")[0].contains("InProgress"));

    let mut s = Session::new(&["newgame Base", &format!("newgame {REPEATED}")]);
    assert!(s.game_string().is_some_and(|g| g.contains(";Draw;")));
    let reason = s.refused("validmoves", "err");
    assert!(reason.contains("repetition"), "{reason}");
}

#[test]
fn bad_undo_counts_get_err() {
    let mut s = Session::new(&["newgame Base", "play wS1", "play bS1 wS1-"]);
    for (line, words) in [
        ("undo 3", "only 2 moves have been played"),
        ("undo 0", "from 1 to 2"),
        ("undo -1", "not a number"),
        ("undo x", "not a number"),
        ("undo 99999999999999999999999", "not a number"),
    ] {
        let reason = s.refused(line, "err");
        assert!(reason.contains(words), "{line}: {reason}");
    }
    let mut s = Session::new(&["newgame Base"]);
    let reason = s.refused("undo", "err");
    assert!(reason.contains("no move has been played"), "{reason}");
}

#[test]
fn bad_options_and_limits_get_err() {
    let mut s = Session::new(&["newgame Base", "play wS1"]);
    let options_before = s.send("options");
    for line in [
        "options set Nope 1",
        "options get Nope",
        "options get",
        "options set",
        "options set Threads",
        "options set Threads x",
        "options set Threads 0",
        "options set HashMB -5",
        "options set Contempt 1001",
        "options set Contempt -1001",
        "options set Contempt 2.5",
        "options set RepetitionDraw maybe",
        "options set Threads 1 5",
        "options set Contempt 10 20",
        "options set TournamentOpening False x",
        "options get Threads x",
        "options frob",
        "bestmove",
        "bestmove time",
        "bestmove time 5",
        "bestmove time 00:61:00",
        "bestmove depth -1",
        "bestmove depth x",
        "bestmove sideways 3",
        "perft x",
        "perft 99",
    ] {
        s.refused(line, "err");
    }
    assert_eq!(
        s.send("options"),
        options_before,
        "a refused option changed"
    );
}

#[test]
fn blank_lines_get_no_answer_and_exit_ends_silently() {
    let mut server = UhpServer::new(Vec::new());
    for blank in ["", "   ", "\r", "\t\r\n", "\0", "\u{feff}"] {
        assert_eq!(server.handle_line(blank), Flow::Continue);
    }
    assert!(server.output().is_empty());
    // A byte-order mark before the first command is ignored too.
    assert_eq!(server.handle_line("\u{feff}info\r\n"), Flow::Continue);
    let answer = String::from_utf8_lossy(server.output()).into_owned();
    assert!(
        answer.starts_with("id ") && answer.ends_with("\nok\n"),
        "{answer:?}"
    );
    let written = server.output().len();
    assert_eq!(server.handle_line("exit"), Flow::Exit);
    assert_eq!(server.handle_line("EXIT\r\n"), Flow::Exit);
    assert_eq!(server.output().len(), written, "exit printed something");
}

#[test]
fn echoed_input_cannot_break_the_framing() {
    let mut s = Session::new(&["newgame Base"]);
    // A '\r' inside a line would end the line early for a .NET reader, and
    // the "ok" after it would be counted as the end of the answer.
    for line in [
        "play wS1\rok",
        "play \u{1b}[2Jx",
        "frob\u{2028}ok",
        "play wS1 \u{85}ok",
        "undo 1\rok",
    ] {
        let answer = s.send(line);
        assert_eq!(answer.len(), 1, "{line:?} got {answer:?}");
        assert!(
            !answer[0].chars().any(|c| c.is_control() || c == '\u{2028}'),
            "{answer:?}"
        );
    }
    // A huge line gets a short answer.
    let long = format!("play {}", "x".repeat(100_000));
    let reason = s.refused(&long, "invalidmove");
    assert!(reason.len() < 400, "{} characters", reason.len());
}

/// The eight game types, for the property below.
const GAME_TYPES: [&str; 8] = [
    "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// In random games, moves of random pieces to random cells next to the
    /// hive are either legal or refused with a readable reason, and `play`
    /// agrees with `explain_illegal`.
    #[test]
    fn random_illegal_moves_get_readable_reasons(
        ty in 0..GAME_TYPES.len(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
        tries in prop::collection::vec((any::<u8>(), any::<u8>(), 0..6usize), 1..20),
    ) {
        let game_type = GameType::parse(GAME_TYPES[ty]).expect("a game type");
        let mut game = Game::new(game_type, Rules::default(), true);
        for c in choices {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[c as usize % moves.len()];
            game.play(mv).expect("generated moves are legal");
        }
        let pos = game.position().clone();
        let occupied: Vec<_> = pos.occupied().iter().collect();
        prop_assume!(!occupied.is_empty());
        for (piece_pick, cell_pick, dir) in tries {
            // Any piece name of this game, to a cell next to any stack,
            // written with the mark for that direction.
            let names: Vec<String> = waggle::hive::Bug::ALL
                .iter()
                .filter(|b| game_type.has(**b))
                .flat_map(|b| {
                    (1..=b.count()).flat_map(move |n| {
                        waggle::hive::Color::ALL
                            .into_iter()
                            .filter_map(move |c| waggle::hive::Piece::new(c, *b, n))
                    })
                })
                .map(|p| p.to_string())
                .collect();
            let name = &names[piece_pick as usize % names.len()];
            let anchor = occupied[cell_pick as usize % occupied.len()];
            let Some(reference) = pos.top(anchor) else { continue };
            let d = Direction::ALL[dir];
            let text = match d {
                Direction::East => format!("{name} {reference}-"),
                Direction::NorthEast => format!("{name} {reference}/"),
                Direction::SouthEast => format!("{name} {reference}\\"),
                Direction::West => format!("{name} -{reference}"),
                Direction::SouthWest => format!("{name} /{reference}"),
                Direction::NorthWest => format!("{name} \\{reference}"),
            };
            let before = game.game_string();
            let mut trial = game.clone();
            match parse_move(&pos, &text) {
                Err(e) => {
                    assert_readable(&e.to_string());
                    assert!(trial.play_str(&text).is_err());
                }
                Ok(mv) => {
                    let legal = game.legal_moves().contains(&mv);
                    let reason = explain_illegal(&pos, mv);
                    if game.outcome().is_none() {
                        assert_eq!(reason.is_none(), legal, "{text} in {before}: {reason:?}");
                    }
                    match trial.play_str(&text) {
                        Ok(_) => assert!(legal, "{text} played but not generated in {before}"),
                        Err(e) => {
                            assert!(!legal || game.outcome().is_some(), "{text} legal but refused: {e}");
                            assert_readable(&e.to_string());
                            assert_eq!(trial.game_string(), before);
                        }
                    }
                    if mv != Move::Pass && !legal && game.outcome().is_none() {
                        let reason = reason.expect("a reason for an illegal move");
                        assert_readable(&reason);
                    }
                }
            }
        }
    }
}

#[test]
fn position_play_errors_read_as_sentences() {
    let mut pos = waggle::hive::Position::new(GameType::BASE, Rules::default());
    let queen = parse_move(&pos, "wQ").expect("wQ parses on the first move");
    let err = pos.play(queen).expect_err("no Queen on turn 1");
    assert_eq!(err.to_string(), "wQ can't be placed there");
    let err = pos.play(Move::Pass).expect_err("White has moves");
    assert_readable(&err.to_string());
}
