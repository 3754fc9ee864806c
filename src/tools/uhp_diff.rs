//! `waggle uhp-diff <engine command>`: differential testing of move
//! generation against another UHP engine.
//!
//! Walks seeded random games with the other engine alongside. In every
//! position it compares the legal moves by what they *are*, never by how they
//! are spelled:
//!
//! - each of our legal moves is played in the other engine (`play`, then
//!   `undo`); a rejected move is one **only we** generate. The GameState the
//!   other engine reports after the move is compared with ours too, which
//!   checks end-of-game detection;
//! - the other engine's `validmoves` entries are read with our own MoveString
//!   parser in our position; an entry that is not one of our legal moves is
//!   one **only they** generate, and an entry we cannot read is reported as
//!   unreadable;
//! - a move they accept with `play` but leave out of `validmoves`, and any
//!   move listed twice, are reported as well (duplicates are harmless in UHP,
//!   so they are shown but do not count as a difference).
//!
//! Then one of our legal moves, chosen with the seeded generator, is played
//! in both, and the walk goes on until the game ends or `--plies` is reached.
//! A crash or hang of the other engine is reported; it is restarted and the
//! next game begins.
//!
//! Run against any UHP engine, e.g.
//! `waggle uhp-diff "nokamute uhp" --games 20 --plies 60 --game-type Base+MLP`.
//! Against Waggle itself (a self-check of the UHP layer) switch off its
//! repetition rule, which standard UHP engines do not have:
//! `waggle uhp-diff "waggle" --option RepetitionDraw=False`.

use super::rng::SplitMix64;
use super::uhp_client::{ClientError, EngineCommand, UhpClient};
use crate::hive::game::Game;
use crate::hive::{notation, GameType, Move, Rules};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write;
use std::time::Duration;

/// Settings of a differential run.
#[derive(Clone, Debug)]
pub struct DiffConfig {
    /// The other engine.
    pub command: EngineCommand,
    /// Random games to walk.
    pub games: u32,
    /// Plies per game at most.
    pub plies: u32,
    /// Seed of the random walk.
    pub seed: u64,
    /// Game type.
    pub game_type: GameType,
    /// How long the other engine may take to answer one command.
    pub timeout: Duration,
    /// `options set` sent to the other engine after it starts.
    pub options: Vec<(String, String)>,
    /// Whether our referee ends games on threefold repetition.
    pub repetition_draw: bool,
}

/// What differs in one position.
#[derive(Clone, Debug, Default)]
pub struct PositionDiff {
    /// Our GameString of the position.
    pub game_string: String,
    /// Our moves the other engine rejects (`move: its answer`).
    pub only_ours: Vec<String>,
    /// Our moves it accepts with `play` but leaves out of `validmoves`.
    pub unlisted: Vec<String>,
    /// Its `validmoves` entries that are not legal for us
    /// (`their spelling (ours: canonical) : our reason`).
    pub only_theirs: Vec<String>,
    /// Its entries our parser cannot read.
    pub unreadable: Vec<String>,
    /// Moves it lists more than once.
    pub duplicates: Vec<String>,
    /// Game states that disagree after one of our moves.
    pub states: Vec<String>,
    /// Other failures (crash, hang, unexpected `err`).
    pub failures: Vec<String>,
}

impl PositionDiff {
    /// Whether the move sets (or game states) differ.
    pub fn differs(&self) -> bool {
        !(self.only_ours.is_empty()
            && self.unlisted.is_empty()
            && self.only_theirs.is_empty()
            && self.unreadable.is_empty()
            && self.states.is_empty()
            && self.failures.is_empty())
    }

    fn report(&self) -> String {
        let mut s = format!("position {}\n", self.game_string);
        for (title, items) in [
            (
                "only we generate (their 'play' rejects it)",
                &self.only_ours,
            ),
            ("they accept but do not list in validmoves", &self.unlisted),
            ("only they list", &self.only_theirs),
            ("their validmoves entries we cannot read", &self.unreadable),
            ("listed more than once by them", &self.duplicates),
            ("game state differs after", &self.states),
            ("engine failures", &self.failures),
        ] {
            if !items.is_empty() {
                let _ = writeln!(s, "  {title} ({}):", items.len());
                for i in items {
                    let _ = writeln!(s, "    {i}");
                }
            }
        }
        s
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default)]
pub struct DiffSummary {
    /// Games walked.
    pub games: u32,
    /// Positions compared.
    pub positions: u64,
    /// Moves compared (ours played in the other engine).
    pub moves: u64,
    /// Positions whose move sets differ.
    pub differing: u64,
    /// Positions with duplicate entries.
    pub with_duplicates: u64,
}

/// The state field (second field) of a GameString.
fn state_of(game_string: &str) -> &str {
    game_string.split(';').nth(1).unwrap_or("").trim()
}

fn start(cfg: &DiffConfig) -> Result<UhpClient, ClientError> {
    let mut c = UhpClient::spawn(&cfg.command, cfg.timeout.max(Duration::from_secs(10)))?;
    for (name, value) in &cfg.options {
        c.send(&format!("options set {name} {value}"), cfg.timeout)?;
    }
    Ok(c)
}

fn move_command(text: &str) -> String {
    if text == "pass" {
        "pass".into()
    } else {
        format!("play {text}")
    }
}

/// Compares the current position; the flag is false when the engine failed
/// and the game must be abandoned.
fn compare(
    cfg: &DiffConfig,
    client: &mut UhpClient,
    game: &Game,
    summary: &mut DiffSummary,
) -> (PositionDiff, bool) {
    let mut d = PositionDiff {
        game_string: game.game_string(),
        ..PositionDiff::default()
    };
    let pos = game.position();
    let ours: Vec<Move> = game.legal_moves().to_vec();
    let line = match client.send("validmoves", cfg.timeout) {
        Ok(lines) => lines.first().cloned().unwrap_or_default(),
        Err(e) => {
            d.failures.push(format!("validmoves: {e}"));
            let fatal = e.is_fatal();
            return (d, !fatal);
        }
    };
    let mut theirs = HashSet::new();
    for entry in line.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        match notation::parse_move(pos, entry) {
            Ok(mv) => {
                if !theirs.insert(mv) {
                    d.duplicates.push(entry.to_string());
                } else if !ours.contains(&mv) {
                    let why = notation::explain_illegal(pos, mv).unwrap_or_default();
                    d.only_theirs.push(format!(
                        "{entry} (ours: {}): {why}",
                        notation::move_string(pos, mv)
                    ));
                }
            }
            Err(e) => d.unreadable.push(format!("{entry}: {e}")),
        }
    }
    for &mv in &ours {
        let text = notation::move_string(pos, mv);
        summary.moves += 1;
        match client.send(&move_command(&text), cfg.timeout) {
            Ok(lines) => {
                let mut after = game.clone();
                if after.play(mv).is_ok() {
                    let ours_state = state_of(&after.game_string()).to_string();
                    let their_state = lines.first().map(|l| state_of(l)).unwrap_or("");
                    if their_state != ours_state {
                        d.states.push(format!(
                            "{text}: they say {their_state}, we say {ours_state}"
                        ));
                    }
                }
                if !theirs.contains(&mv) {
                    d.unlisted.push(text.clone());
                }
                if let Err(e) = client.send("undo", cfg.timeout) {
                    d.failures.push(format!("undo after {text}: {e}"));
                    return (d, false);
                }
            }
            Err(ClientError::InvalidMove(m) | ClientError::Err(m)) => {
                d.only_ours.push(format!("{text}: {m}"));
            }
            Err(e) => {
                d.failures.push(format!("{text}: {e}"));
                return (d, false);
            }
        }
    }
    (d, true)
}

/// Walks the random games and writes a report of every differing position
/// to `out`.
///
/// # Errors
/// The other engine cannot be started, or lacks the expansions of the game
/// type; or the output cannot be written.
pub fn run(cfg: &DiffConfig, out: &mut impl Write) -> Result<DiffSummary, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut client = start(cfg).map_err(|e| format!("{}: {e}", cfg.command))?;
    for (on, bug) in [
        (cfg.game_type.mosquito, "Mosquito"),
        (cfg.game_type.ladybug, "Ladybug"),
        (cfg.game_type.pillbug, "Pillbug"),
    ] {
        if on && !client.supports(bug) {
            return Err(format!(
                "the engine '{}' does not announce {bug}, needed for {}",
                client.id, cfg.game_type
            ));
        }
    }
    writeln!(
        out,
        "uhp-diff: waggle against '{}' ({}), {} games of up to {} plies, {}, seed {}",
        client.id, cfg.command, cfg.games, cfg.plies, cfg.game_type, cfg.seed
    )
    .map_err(io)?;
    let mut rng = SplitMix64::new(cfg.seed);
    let mut summary = DiffSummary::default();
    for g in 0..cfg.games {
        summary.games += 1;
        if !client.is_usable() {
            client = start(cfg).map_err(|e| format!("restarting {}: {e}", cfg.command))?;
        }
        let mut game = Game::new(cfg.game_type, Rules::default(), cfg.repetition_draw);
        if let Err(e) = client.send(&format!("newgame {}", cfg.game_type), cfg.timeout) {
            writeln!(out, "game {}: newgame failed: {e}", g + 1).map_err(io)?;
            continue;
        }
        for _ in 0..=cfg.plies {
            if game.outcome().is_some() {
                break;
            }
            summary.positions += 1;
            let (d, go_on) = compare(cfg, &mut client, &game, &mut summary);
            if d.differs() {
                summary.differing += 1;
            }
            if !d.duplicates.is_empty() {
                summary.with_duplicates += 1;
            }
            if d.differs() || !d.duplicates.is_empty() {
                write!(out, "game {}: {}", g + 1, d.report()).map_err(io)?;
            }
            if !go_on || game.move_strings().len() >= cfg.plies as usize {
                break;
            }
            let moves = game.legal_moves();
            let mv = moves[rng.below(moves.len())];
            let text = notation::move_string(game.position(), mv);
            if game.play(mv).is_err() {
                break;
            }
            if let Err(e) = client.send(&move_command(&text), cfg.timeout) {
                writeln!(out, "game {}: the walk stops: '{text}' failed: {e}", g + 1)
                    .map_err(io)?;
                break;
            }
        }
    }
    writeln!(
        out,
        "uhp-diff: {} games, {} positions, {} moves compared: {} positions differ, {} with duplicate entries",
        summary.games, summary.positions, summary.moves, summary.differing, summary.with_duplicates
    )
    .map_err(io)?;
    Ok(summary)
}
