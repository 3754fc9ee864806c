//! Game records in Mzinga's PGN dialect, which MzingaViewer opens.
//!
//! Mzinga writes the seven-tag roster it knows (GameType, Date, Event, Site,
//! Round, White, Black, Result), a blank line, then one numbered move per
//! line, numbered by ply rather than by turn:
//!
//! ```text
//! [GameType "Base"]
//! [Date "2026.11.29"]
//! [Event "waggle arena"]
//! [Site ""]
//! [Round "3"]
//! [White "waggle-d2"]
//! [Black "waggle-d1"]
//! [Result "WhiteWins"]
//!
//! 1. wS1
//! 2. bS1 wS1-
//! 3. wQ -wS1
//! ```
//!
//! The Result tag holds a UHP GameStateString (`WhiteWins`, `BlackWins`,
//! `Draw`, or `InProgress` for an unfinished game), as in Mzinga's
//! `GameMetadata`, not chess's `1-0`.

use crate::hive::game::Game;
use crate::hive::Rules;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// A game record: tags in order, and the moves.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct PgnGame {
    /// `(name, value)` pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The MoveStrings, one per ply.
    pub moves: Vec<String>,
}

impl PgnGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Writes the record in Mzinga's format.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        for (name, value) in &self.tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(s, "[{name} \"{value}\"]");
        }
        s.push('\n');
        for (i, m) in self.moves.iter().enumerate() {
            let _ = writeln!(s, "{}. {m}", i + 1);
        }
        s
    }

    /// Reads a record written by Mzinga or by [`PgnGame::to_pgn`].
    ///
    /// # Errors
    /// A line that is neither a tag nor a numbered move, or moves numbered
    /// out of order.
    pub fn parse(text: &str) -> Result<PgnGame, String> {
        let mut game = PgnGame::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let (name, value) = inner
                    .split_once(' ')
                    .ok_or_else(|| format!("line {}: a tag without a value", n + 1))?;
                let value = value.trim();
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(value)
                    .replace("\\\"", "\"")
                    .replace("\\\\", "\\");
                game.tags.push((name.to_string(), value));
                continue;
            }
            let (number, mv) = line
                .split_once(". ")
                .ok_or_else(|| format!("line {}: expected 'N. move', found '{line}'", n + 1))?;
            let number: usize = number
                .trim()
                .parse()
                .map_err(|_| format!("line {}: '{number}' is not a move number", n + 1))?;
            if number != game.moves.len() + 1 {
                return Err(format!(
                    "line {}: move {number} where move {} was expected",
                    n + 1,
                    game.moves.len() + 1
                ));
            }
            game.moves.push(mv.trim().to_string());
        }
        Ok(game)
    }

    /// Replays the moves from the game type tag, checking each one.
    ///
    /// # Errors
    /// An unknown game type or a move that cannot be played.
    pub fn replay(&self) -> Result<Game, String> {
        let game_type = self.tag("GameType").unwrap_or("Base");
        let mut gs = format!("{game_type};NotStarted;White[1]");
        for m in &self.moves {
            gs.push(';');
            gs.push_str(m);
        }
        Game::from_game_string(&gs, Rules::default(), false).map_err(|e| e.to_string())
    }
}

/// Today's date in PGN form (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Converts days since 1970-01-01 to a proleptic Gregorian (year, month,
/// day); Howard Hinnant's `civil_from_days`.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn records_round_trip() {
        let g = PgnGame {
            tags: vec![
                ("GameType".into(), "Base".into()),
                ("White".into(), "a \"b\"".into()),
                ("Result".into(), "Draw".into()),
            ],
            moves: vec!["wS1".into(), "bS1 wS1-".into(), "wQ -wS1".into()],
        };
        let back = PgnGame::parse(&g.to_pgn()).unwrap();
        assert_eq!(back, g);
        let game = back.replay().unwrap();
        assert_eq!(game.move_strings(), g.moves.as_slice());
        assert!(PgnGame::parse("1. wS1\n3. bS1 wS1-").is_err());
        assert!(PgnGame::parse("hello").is_err());
    }
}
