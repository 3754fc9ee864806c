//! Fuzzes the MoveString parser. The first input line is a GameString (a bad
//! one falls back to a new `Base+MLP` game); every further line is read as a
//! MoveString in that position, and then:
//! * a move that parses and is legal writes back (canonically) to a string
//!   that parses to the same move, and `play` accepts it;
//! * a move that parses but is illegal gets a reason from `explain_illegal`,
//!   and `play` refuses it and leaves the game unchanged;
//! * text that does not parse is refused by `play` the same way.
//!
//! Legal moves are played, so later lines see later positions.

#![no_main]

use libfuzzer_sys::fuzz_target;
use waggle::hive::game::Game;
use waggle::hive::notation::{explain_illegal, move_string, parse_move};
use waggle::hive::{GameType, Rules};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let mut game = Game::from_game_string(first, Rules::default(), true)
        .unwrap_or_else(|_| Game::new(GameType::MLP, Rules::default(), true));
    for line in lines.take(64) {
        let before = game.game_string();
        let pos = game.position().clone();
        let over = game.outcome().is_some();
        match parse_move(&pos, line) {
            Ok(mv) => {
                let legal = !over && game.legal_moves().contains(&mv);
                let reason = explain_illegal(&pos, mv);
                if legal {
                    assert!(reason.is_none(), "legal {line:?} explained as illegal");
                    let canonical = move_string(&pos, mv);
                    assert_eq!(
                        parse_move(&pos, &canonical),
                        Ok(mv),
                        "{canonical} in {before}"
                    );
                    game.play_str(line).expect("a legal move plays");
                    assert_eq!(game.move_strings().last(), Some(&canonical));
                } else {
                    if !over {
                        let reason = reason.expect("an illegal move has a reason");
                        assert!(!reason.is_empty());
                    }
                    assert!(
                        game.play_str(line).is_err(),
                        "illegal {line:?} played in {before}"
                    );
                    assert_eq!(game.game_string(), before);
                }
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                assert!(game.play_str(line).is_err());
                assert_eq!(game.game_string(), before);
            }
        }
    }
});
