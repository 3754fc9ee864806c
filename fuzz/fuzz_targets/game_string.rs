//! Fuzzes the GameString parser: whatever `Game::from_game_string` accepts
//! must write a GameString that loads again to the same game (same
//! GameString, same hash, same legal moves), with no trailing `;` and on one
//! line. Whatever it refuses gets a reason.

#![no_main]

use libfuzzer_sys::fuzz_target;
use waggle::hive::game::Game;
use waggle::hive::Rules;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for rules in [
        Rules::default(),
        Rules {
            tournament_opening: false,
        },
    ] {
        match Game::from_game_string(&text, rules, true) {
            Ok(game) => {
                let written = game.game_string();
                assert!(
                    !written.ends_with(';') && !written.contains('\n'),
                    "{written}"
                );
                let again = Game::from_game_string(&written, rules, true)
                    .unwrap_or_else(|e| panic!("{written} does not reload: {e}"));
                assert_eq!(again.game_string(), written);
                assert_eq!(again.position().hash(), game.position().hash());
                assert_eq!(again.legal_moves(), game.legal_moves());
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
});
