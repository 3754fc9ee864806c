//! The referee: plays one game between two engines, checking every move
//! with Waggle's rules, and decides forfeits, clocks and adjudications.

use super::{ArenaConfig, COMMAND_TIMEOUT, STARTUP_TIMEOUT};
use crate::hive::game::Game;
use crate::hive::{Color, Outcome, Rules};
use crate::tools::uhp_client::{ClientError, UhpClient};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One scheduled game.
#[derive(Copy, Clone, Debug)]
pub(super) struct GameSpec {
    pub(super) index: usize,
    pub(super) round: usize,
    pub(super) white: usize,
    pub(super) black: usize,
    pub(super) opening: usize,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The GameStateString written in the PGN Result tag.
    pub fn state_name(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "WhiteWins",
            GameResult::BlackWins => "BlackWins",
            GameResult::Draw => "Draw",
        }
    }

    fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Kinds of forfeit, for the summary.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) enum Fault {
    Crash,
    Hang,
    Illegal,
    Error,
    Start,
    Time,
}

impl Fault {
    /// Whether the engine process is replaced after this fault (a crashed,
    /// hung or unstartable engine); after an illegal move, an `err` or a
    /// loss on time it answers normally and keeps running.
    pub(super) fn needs_restart(self) -> bool {
        matches!(self, Fault::Crash | Fault::Hang | Fault::Start)
    }

    fn of(e: &ClientError) -> Fault {
        match e {
            ClientError::Crashed { .. } | ClientError::NeedsRestart => Fault::Crash,
            ClientError::Timeout { .. } => Fault::Hang,
            ClientError::Spawn(_) => Fault::Start,
            ClientError::Err(_) | ClientError::InvalidMove(_) | ClientError::Protocol(_) => {
                Fault::Error
            }
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub(super) struct GameRecord {
    pub(super) spec: GameSpec,
    pub(super) result: GameResult,
    pub(super) reason: String,
    pub(super) forfeit: Option<(usize, Fault)>,
    pub(super) game_string: String,
    pub(super) moves: Vec<String>,
    pub(super) game_type: String,
}

/// A worker's engine processes, started on first use.
pub(super) struct Seats<'a> {
    pub(super) cfg: &'a ArenaConfig,
    pub(super) clients: Vec<Option<UhpClient>>,
    pub(super) report_scores: Vec<bool>,
}

impl Seats<'_> {
    /// The running client for engine `i`, started (and set up) if needed.
    fn get(&mut self, i: usize) -> Result<&mut UhpClient, ClientError> {
        let usable = self.clients[i].as_ref().is_some_and(|c| c.is_usable());
        if !usable {
            self.clients[i] = None;
            let spec = &self.cfg.engines[i];
            let mut c = UhpClient::spawn(&spec.command, STARTUP_TIMEOUT)?;
            for (name, value) in &spec.options {
                c.send(&format!("options set {name} {value}"), COMMAND_TIMEOUT)?;
            }
            self.report_scores[i] = false;
            if self.cfg.resign.is_some() {
                let listed = c.send("options", COMMAND_TIMEOUT)?;
                if listed
                    .iter()
                    .any(|l| l.starts_with("ReportIntermediateBestMoves;bool;"))
                {
                    c.send(
                        "options set ReportIntermediateBestMoves True",
                        COMMAND_TIMEOUT,
                    )?;
                    self.report_scores[i] = true;
                }
            }
            self.clients[i] = Some(c);
        }
        self.clients[i].as_mut().ok_or(ClientError::NeedsRestart)
    }
}

/// How an engine's moves are limited.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) enum MoveLimit {
    Depth(u32),
    Time(Duration),
    Nodes(u64),
    /// The game clock of [`ArenaConfig::clock`].
    Clock,
}

/// The limit for engine `i`: its own setting first, then the arena's clock,
/// time, nodes or depth, in that order; depth 2 when nothing is set.
pub(super) fn limit_for(cfg: &ArenaConfig, i: usize) -> MoveLimit {
    let spec = &cfg.engines[i];
    if let Some(t) = spec.time {
        MoveLimit::Time(t)
    } else if let Some(n) = spec.nodes {
        MoveLimit::Nodes(n)
    } else if let Some(d) = spec.depth {
        MoveLimit::Depth(d)
    } else if cfg.clock.is_some() {
        MoveLimit::Clock
    } else if let Some(t) = cfg.time {
        MoveLimit::Time(t)
    } else if let Some(n) = cfg.nodes {
        MoveLimit::Nodes(n)
    } else {
        MoveLimit::Depth(cfg.depth.unwrap_or(2))
    }
}

/// How a limit reads in the arena's header.
pub(super) fn describe(cfg: &ArenaConfig, limit: MoveLimit) -> String {
    match limit {
        MoveLimit::Depth(d) => format!("depth {d}"),
        MoveLimit::Time(t) => format!("time {}", uhp_time(t)),
        MoveLimit::Nodes(n) => format!("nodes {n}"),
        MoveLimit::Clock => {
            let (base, inc) = cfg.clock.unwrap_or_default();
            format!("clock {}+{} s", base.as_secs_f64(), inc.as_secs_f64())
        }
    }
}

/// The `bestmove` arguments and hang timeout for engine `i`, given the
/// clocks (White's, Black's) when the game has one.
fn bestmove_for(cfg: &ArenaConfig, i: usize, clocks: [Duration; 2]) -> (String, Duration) {
    let minute = Duration::from_secs(60);
    let (args, natural) = match limit_for(cfg, i) {
        MoveLimit::Time(t) => (format!("time {}", uhp_time(t)), t + t / 2),
        MoveLimit::Depth(d) => (format!("depth {d}"), minute),
        MoveLimit::Nodes(n) => (format!("nodes {n}"), minute),
        MoveLimit::Clock => {
            let inc = cfg.clock.map_or(Duration::ZERO, |c| c.1);
            let ms = |d: Duration| d.as_millis();
            (
                format!(
                    "clock {} {} {} {}",
                    ms(clocks[0]),
                    ms(clocks[1]),
                    ms(inc),
                    ms(inc)
                ),
                clocks[0].max(clocks[1]) + Duration::from_secs(1),
            )
        }
    };
    let timeout = cfg
        .move_timeout
        .unwrap_or_else(|| natural.max(Duration::from_secs(1)));
    (args, timeout)
}

/// Formats a duration as UHP's `hh:mm:ss`, with a fraction only when needed
/// (some engines read whole seconds only).
fn uhp_time(t: Duration) -> String {
    let secs = t.as_secs();
    let mut s = format!(
        "{:02}:{:02}:{:02}",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    );
    let nanos = t.subsec_nanos();
    if nanos != 0 {
        let frac = format!("{:09}", nanos);
        let _ = write!(s, ".{}", frac.trim_end_matches('0'));
    }
    s
}

/// Reads the score of the last intermediate line `move;depth;score;pv…` in
/// a bestmove answer, as a number from the mover's point of view; a
/// surround announced as `M<n>` / `-M<n>` counts as ±1000.
fn reported_score(lines: &[String]) -> Option<f64> {
    lines.iter().rev().skip(1).find_map(|l| {
        let mut f = l.split(';');
        let (_mv, _depth, score) = (f.next()?, f.next()?, f.next()?);
        let score = score.trim();
        if let Some(m) = score.strip_prefix("-M") {
            m.parse::<u32>().ok().map(|_| -1000.0)
        } else if let Some(m) = score.strip_prefix('M') {
            m.parse::<u32>().ok().map(|_| 1000.0)
        } else {
            score.parse::<f64>().ok().filter(|s| s.is_finite())
        }
    })
}

/// Plays one game; `None` when it was abandoned because the arena stops.
pub(super) fn play_game(
    cfg: &ArenaConfig,
    seats: &mut Seats<'_>,
    spec: GameSpec,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let opening = &cfg.openings[spec.opening];
    let mut game = match Game::from_game_string(opening, Rules::default(), cfg.repetition_draw) {
        Ok(g) => g,
        Err(e) => unreachable!("openings are checked when read: {e}"),
    };
    let game_type = game.position().game_type().to_string();
    let engine_of = |c: Color| match c {
        Color::White => spec.white,
        Color::Black => spec.black,
    };
    let finish = |game: &Game, result, reason: String, forfeit| {
        Some(GameRecord {
            spec,
            result,
            reason,
            forfeit,
            game_string: game.game_string(),
            moves: game.move_strings().to_vec(),
            game_type: game_type.clone(),
        })
    };
    let forfeit = |game: &Game, seats: &mut Seats<'_>, who: usize, e: &ClientError, what| {
        let color = if who == spec.white {
            Color::White
        } else {
            Color::Black
        };
        let mut reason = format!("{} {what}: {e}", cfg.engines[who].name);
        if let Some(c) = seats.clients[who].as_ref() {
            if let Some(last) = c.stderr_tail().last() {
                let _ = write!(reason, " (stderr: {last})");
            }
        }
        finish(
            game,
            GameResult::win_for(color.opponent()),
            reason,
            Some((who, Fault::of(e))),
        )
    };
    for who in [spec.white, spec.black] {
        let sent = seats
            .get(who)
            .and_then(|c| c.send(&format!("newgame {opening}"), COMMAND_TIMEOUT));
        if let Err(e) = sent {
            return forfeit(&game, seats, who, &e, "failed to start the game");
        }
    }
    // Time left on each side's clock (White, Black), when there is a clock.
    let mut clocks = [cfg.clock.map_or(Duration::ZERO, |c| c.0); 2];
    // Consecutive moves of each side scoring at least +S and at most -S.
    let mut winning = [0u32; 2];
    let mut losing = [0u32; 2];
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = game.outcome() {
            let (result, reason) = match outcome {
                Outcome::Win(c) => (
                    GameResult::win_for(c),
                    format!("{}'s Queen Bee is surrounded", c.opponent().name()),
                ),
                Outcome::Draw if game.position().surround_outcome().is_some() => {
                    (GameResult::Draw, "both Queen Bees are surrounded".into())
                }
                Outcome::Draw => (GameResult::Draw, "threefold repetition".into()),
            };
            return finish(&game, result, reason, None);
        }
        if game.move_strings().len() >= cfg.max_plies as usize {
            let reason = format!("adjudicated: {} plies played", cfg.max_plies);
            return finish(&game, GameResult::Draw, reason, None);
        }
        let mover = game.side_to_move();
        let who = engine_of(mover);
        let (args, timeout) = bestmove_for(cfg, who, clocks);
        let client = match seats.get(who) {
            Ok(c) => c,
            Err(e) => return forfeit(&game, seats, who, &e, "failed to start"),
        };
        let started = Instant::now();
        let answer = client.send(&format!("bestmove {args}"), timeout);
        let used = started.elapsed();
        let lines = match answer {
            Ok(lines) => lines,
            Err(e) => return forfeit(&game, seats, who, &e, "failed on bestmove"),
        };
        if limit_for(cfg, who) == MoveLimit::Clock {
            let left = &mut clocks[mover.index()];
            if used > *left {
                let reason = format!(
                    "{} lost on time: {:.3} s used with {:.3} s left on its clock",
                    cfg.engines[who].name,
                    used.as_secs_f64(),
                    left.as_secs_f64()
                );
                return finish(
                    &game,
                    GameResult::win_for(mover.opponent()),
                    reason,
                    Some((who, Fault::Time)),
                );
            }
            *left = *left - used + cfg.clock.map_or(Duration::ZERO, |c| c.1);
        }
        let Some(text) = lines
            .last()
            .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        else {
            let e = ClientError::Protocol("an empty answer to bestmove".into());
            return forfeit(&game, seats, who, &e, "failed on bestmove");
        };
        if let Err(err) = game.play_str(&text) {
            let color = mover;
            let reason = format!(
                "{} played an illegal move '{text}': {err}",
                cfg.engines[who].name
            );
            return finish(
                &game,
                GameResult::win_for(color.opponent()),
                reason,
                Some((who, Fault::Illegal)),
            );
        }
        let played = game.move_strings().last().cloned().unwrap_or_default();
        let command = if played == "pass" {
            "pass".to_string()
        } else {
            format!("play {played}")
        };
        for other in [spec.white, spec.black] {
            let sent = seats
                .get(other)
                .and_then(|c| c.send(&command, COMMAND_TIMEOUT));
            if let Err(e) = sent {
                return forfeit(&game, seats, other, &e, &format!("failed on '{command}'"));
            }
        }
        if let Some(r) = cfg.resign {
            let m = mover.index();
            match reported_score(&lines).filter(|_| seats.report_scores[who]) {
                Some(s) => {
                    winning[m] = if s >= r.score { winning[m] + 1 } else { 0 };
                    losing[m] = if s <= -r.score { losing[m] + 1 } else { 0 };
                }
                None => {
                    winning[m] = 0;
                    losing[m] = 0;
                }
            }
            let o = mover.opponent().index();
            for (w, l, winner) in [(m, o, mover), (o, m, mover.opponent())] {
                if winning[w] >= r.moves && losing[l] >= r.moves {
                    let reason = format!(
                        "adjudicated: both engines scored the game as won for {} for {} moves",
                        winner.name(),
                        r.moves
                    );
                    return finish(&game, GameResult::win_for(winner), reason, None);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_for_uhp() {
        assert_eq!(uhp_time(Duration::from_secs(5)), "00:00:05");
        assert_eq!(uhp_time(Duration::from_secs(3725)), "01:02:05");
        assert_eq!(uhp_time(Duration::from_millis(250)), "00:00:00.25");
    }

    #[test]
    fn scores_are_read_from_intermediate_lines() {
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            reported_score(&lines(&["wS1;1;0.50;wS1", "wS1;2;-1.25;wS1", "wS1"])),
            Some(-1.25)
        );
        assert_eq!(
            reported_score(&lines(&["wQ wS1-;3;M3;wQ wS1-", "wQ wS1-"])),
            Some(1000.0)
        );
        assert_eq!(reported_score(&lines(&["wS1"])), None);
    }
}
