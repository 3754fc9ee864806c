//! A game: a position, the canonical spelling of every move played, and the
//! end-of-game rules (Queen surround, and threefold repetition when enabled).
//! This is what the UHP loop, the arena and the analysis tools share.

use super::movegen::MoveList;
use super::notation::{self, NotationError};
use super::piece::{Color, GameType};
use super::position::{Move, Outcome, Position, Rules};
use std::fmt;

/// Why a move could not be played.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum PlayError {
    /// The game has already ended.
    GameOver(String),
    /// The MoveString could not be read.
    Notation(NotationError),
    /// The move is not legal; the reason is a sentence for a player.
    Illegal(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(s) | PlayError::Illegal(s) => f.write_str(s),
            PlayError::Notation(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Why a GameString could not be loaded.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum GameStringError {
    /// The game type or the layout is wrong.
    Notation(NotationError),
    /// Move number `index` (1-based) could not be played.
    Move {
        /// 1-based index of the move in the GameString.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it failed.
        error: PlayError,
    },
}

impl fmt::Display for GameStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameStringError::Notation(e) => write!(f, "{e}"),
            GameStringError::Move { index, text, error } => {
                write!(f, "move {index} ('{text}') can't be played: {error}")
            }
        }
    }
}

impl std::error::Error for GameStringError {}

/// A game in progress (or finished).
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    move_strings: Vec<String>,
    repetition_draw: bool,
}

impl Game {
    /// A new game.
    pub fn new(game_type: GameType, rules: Rules, repetition_draw: bool) -> Game {
        Game {
            pos: Position::new(game_type, rules),
            move_strings: Vec::new(),
            repetition_draw,
        }
    }

    /// Loads a GameString (`Type;State;Turn;move;move;…`), replaying and
    /// checking every move. The state and turn fields are ignored, and so are
    /// repetitions before the last position (see the body).
    ///
    /// # Errors
    /// A bad game type, an empty move field, or a move that cannot be played.
    pub fn from_game_string(
        s: &str,
        rules: Rules,
        repetition_draw: bool,
    ) -> Result<Game, GameStringError> {
        let (game_type, moves) =
            notation::split_game_string(s).map_err(GameStringError::Notation)?;
        // A recorded game may pass through a threefold repetition that did
        // not end it: it was played without the rule (on Mzinga, say, or with
        // RepetitionDraw off). Only a surrounded Queen stops the replay; the
        // repetition rule applies from the loaded position on.
        let mut game = Game::new(game_type, rules, false);
        for (i, text) in moves.iter().enumerate() {
            game.play_str(text).map_err(|error| GameStringError::Move {
                index: i + 1,
                text: text.clone(),
                error,
            })?;
        }
        game.repetition_draw = repetition_draw;
        Ok(game)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Whether a third occurrence of a position ends the game in a draw.
    pub fn repetition_draw(&self) -> bool {
        self.repetition_draw
    }

    /// Turns the repetition rule on or off.
    pub fn set_repetition_draw(&mut self, on: bool) {
        self.repetition_draw = on;
    }

    /// Changes the rule switches for the moves still to come.
    pub fn set_rules(&mut self, rules: Rules) {
        self.pos.set_rules(rules);
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos
            .surround_outcome()
            .or_else(|| (self.repetition_draw && self.pos.is_threefold()).then_some(Outcome::Draw))
    }

    /// A sentence saying why the game is over, if it is.
    pub fn game_over_reason(&self) -> Option<String> {
        let outcome = self.outcome()?;
        Some(match outcome {
            Outcome::Win(c) => format!(
                "the game is over: {} wins ({}'s Queen Bee is surrounded); start a new game with 'newgame'",
                c.name(),
                c.opponent().name()
            ),
            Outcome::Draw if self.pos.surround_outcome().is_some() => {
                "the game is over: a draw (both Queen Bees are surrounded); start a new game with 'newgame'".to_string()
            }
            Outcome::Draw => "the game is over: a draw by threefold repetition (option RepetitionDraw); start a new game with 'newgame'".to_string(),
        })
    }

    /// The canonical MoveStrings of the moves played.
    pub fn move_strings(&self) -> &[String] {
        &self.move_strings
    }

    /// The GameString of the game.
    pub fn game_string(&self) -> String {
        let mut s = format!(
            "{};{};{}[{}]",
            self.pos.game_type(),
            notation::state_name(&self.pos, self.outcome()),
            self.pos.side_to_move().name(),
            self.pos.turn()
        );
        for m in &self.move_strings {
            s.push(';');
            s.push_str(m);
        }
        s
    }

    /// The legal moves (empty when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.outcome().is_none() {
            self.pos.generate_moves(&mut moves);
        }
        moves
    }

    /// The canonical MoveStrings of the legal moves.
    pub fn legal_move_strings(&self) -> Vec<String> {
        self.legal_moves()
            .iter()
            .map(|&m| notation::move_string(&self.pos, m))
            .collect()
    }

    /// Plays a move given as a MoveString.
    ///
    /// # Errors
    /// The game is over, the text is not a move, or the move is illegal; the
    /// game is then unchanged.
    pub fn play_str(&mut self, text: &str) -> Result<Move, PlayError> {
        if let Some(reason) = self.game_over_reason() {
            return Err(PlayError::GameOver(reason));
        }
        let mv = notation::parse_move(&self.pos, text).map_err(PlayError::Notation)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Plays a move.
    ///
    /// # Errors
    /// The game is over or the move is illegal; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if let Some(reason) = self.game_over_reason() {
            return Err(PlayError::GameOver(reason));
        }
        if let Some(reason) = notation::explain_illegal(&self.pos, mv) {
            return Err(PlayError::Illegal(reason));
        }
        let text = notation::move_string(&self.pos, mv);
        self.pos.make(mv);
        self.move_strings.push(text);
        Ok(())
    }

    /// Takes back `n` plies.
    ///
    /// # Errors
    /// When `n` is 0 or more than the plies played; nothing is undone then.
    pub fn undo(&mut self, n: usize) -> Result<(), String> {
        let played = self.move_strings.len();
        if n == 0 || n > played {
            let moves = |k: usize| {
                if k == 1 {
                    "1 move".to_string()
                } else {
                    format!("{k} moves")
                }
            };
            return Err(match played {
                0 => "can't undo: no move has been played yet".to_string(),
                _ if n == 0 => format!("can't undo 0 moves: give a number from 1 to {played}"),
                _ => format!(
                    "can't undo {}: only {} been played",
                    moves(n),
                    if played == 1 {
                        "1 move has".to_string()
                    } else {
                        format!("{played} moves have")
                    }
                ),
            });
        }
        for _ in 0..n {
            self.pos.unmake();
            self.move_strings.pop();
        }
        Ok(())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queens shuffling back and forth: the last move makes the third
    /// occurrence of the position.
    const REPEATED: &str = "Base;InProgress;White[2];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-";

    #[test]
    fn a_loaded_game_may_pass_through_a_repetition() {
        let rules = Rules::default();
        let mut drawn = Game::from_game_string(REPEATED, rules, true).expect("loads");
        assert_eq!(drawn.outcome(), Some(Outcome::Draw));
        assert!(drawn.play_str("wS2 -wQ").is_err());
        // The same game continued, as recorded without the repetition rule.
        let continued = format!("{REPEATED};wS2 -wQ");
        let game = Game::from_game_string(&continued, rules, true).expect("loads");
        assert_eq!(game.outcome(), None);
        assert!(game.repetition_draw());
        assert!(game.game_string().starts_with("Base;InProgress;Black[7];"));
    }
}
