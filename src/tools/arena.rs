//! `waggle arena`: games between UHP engines.
//!
//! Engines are given as command lines (Waggle itself as `self`), each with
//! its own UHP options and, if wanted, its own depth or time per move. The
//! arena plays a match (two engines), a gauntlet (the first engine against
//! each of the others) or a round-robin (every pair). Each opening from the
//! openings file is played twice with colours swapped. Several games run at
//! once (`--concurrency`), each worker thread owning its own engine processes.
//!
//! The arena is the referee: it keeps the game with Waggle's own rules and
//! checks every move with [`Game::play_str`] before passing it, spelled
//! canonically, to both engines. An engine that crashes, hangs (no `ok` within
//! the move timeout), answers `err` / `invalidmove`, or plays an illegal move
//! loses that game; the reason is logged and a dead or hung engine is
//! restarted before its next game. A game is drawn after `--max-plies` plies;
//! with `--resign-moves N` it is also adjudicated when, for N moves in a row
//! each, both engines report scores at least `--resign-score` in favour of
//! the same side (scores are read from `ReportIntermediateBestMoves` lines
//! `move;depth;score;pv…`, which the arena switches on when it resigns).
//!
//! Output, in `--out DIR`: one PGN file per game in Mzinga's format
//! ([`super::pgn`]), `games.txt` with one GameString per line, `results.csv`
//! (one row per game, in the same order as `games.txt`) and `arena.log`
//! (forfeits and restarts). On stdout: a table of W/D/L, score and Elo with
//! its 95% interval per engine and per pairing, and with `--sprt` the
//! log-likelihood ratio; the match stops as soon as the SPRT is decided.

use super::pgn::{self, PgnGame};
use super::stats::{fmt_elo, Sprt, SprtDecision, Wdl};
use super::uhp_client::{ClientError, EngineCommand, UhpClient};
use crate::hive::game::Game;
use crate::hive::{Color, Outcome, Rules};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// The openings file that ships with Waggle, used when none is given.
pub const DEFAULT_OPENINGS: &str = include_str!("../../bench-positions/openings.txt");

/// How long an engine may take to start and greet.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(15);
/// How long `newgame`, `play` and `options` may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// One engine taking part.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Name in tables and PGN files.
    pub name: String,
    /// Command line.
    pub command: EngineCommand,
    /// `options set <name> <value>` sent after each start.
    pub options: Vec<(String, String)>,
    /// Depth per move for this engine (overrides `--depth`).
    pub depth: Option<u32>,
    /// Time per move for this engine (overrides `--time`).
    pub time: Option<Duration>,
}

impl EngineSpec {
    /// Reads an engine description: either a plain command line, or
    /// comma-separated fields `cmd=<command line>`, `name=<name>`,
    /// `option.<Name>=<value>`, `depth=<plies>`, `time=<seconds>`. The
    /// command `self` runs this Waggle binary.
    ///
    /// # Errors
    /// An unknown field, a bad number, or no command.
    pub fn parse(spec: &str) -> Result<EngineSpec, String> {
        let fields = split_fields(spec);
        let mut s = EngineSpec {
            name: String::new(),
            command: EngineCommand {
                program: String::new(),
                args: Vec::new(),
            },
            options: Vec::new(),
            depth: None,
            time: None,
        };
        let Some(fields) = fields else {
            s.command = resolve_self(EngineCommand::parse(spec)?)?;
            s.name = default_name(&s.command);
            return Ok(s);
        };
        let mut have_cmd = false;
        for (key, value) in fields {
            s.apply(&key, &value, &mut have_cmd)?;
        }
        if !have_cmd {
            return Err(format!("the engine '{spec}' has no cmd=<command line>"));
        }
        if s.name.is_empty() {
            s.name = default_name(&s.command);
        }
        Ok(s)
    }

    /// Applies `--each` fields (options, depth, time) to this engine; its own
    /// settings win.
    ///
    /// # Errors
    /// As [`EngineSpec::parse`].
    pub fn apply_each(&mut self, each: &str) -> Result<(), String> {
        let fields = split_fields(each)
            .ok_or_else(|| format!("'--each {each}' must be fields such as option.Threads=1"))?;
        for (key, value) in fields {
            if key == "cmd" || key == "name" {
                return Err(format!("'--each' cannot set '{key}'"));
            }
            let mut have_cmd = true;
            let mut tmp = self.clone();
            tmp.apply(&key, &value, &mut have_cmd)?;
            if self.depth.is_none() {
                self.depth = tmp.depth;
            }
            if self.time.is_none() {
                self.time = tmp.time;
            }
            if let Some(name) = key.strip_prefix("option.") {
                if !self.options.iter().any(|(n, _)| n == name) {
                    self.options.push((name.to_string(), value.clone()));
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, key: &str, value: &str, have_cmd: &mut bool) -> Result<(), String> {
        match key {
            "cmd" => {
                self.command = resolve_self(EngineCommand::parse(value)?)?;
                *have_cmd = true;
            }
            "name" => self.name = value.to_string(),
            "depth" => {
                self.depth = Some(
                    value
                        .parse()
                        .map_err(|_| format!("depth={value}: not a number of plies"))?,
                );
            }
            "time" => self.time = Some(parse_seconds(value)?),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    self.options.push((name.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "unknown engine field '{key}': use cmd=, name=, option.<Name>=, depth= or time="
                    ))
                }
            },
        }
        Ok(())
    }
}

/// Splits `key=value,key=value`; `None` when the text does not start with a
/// known key (it is then a plain command line).
fn split_fields(spec: &str) -> Option<Vec<(String, String)>> {
    let known = |f: &str| {
        ["cmd=", "name=", "depth=", "time=", "option."]
            .iter()
            .any(|k| f.trim_start().starts_with(k))
    };
    if !known(spec) {
        return None;
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    for part in spec.split(',') {
        match part.split_once('=') {
            Some((k, v)) if known(part) => fields.push((k.trim().to_string(), v.to_string())),
            // A comma inside a value (a command line with a comma).
            _ => match fields.last_mut() {
                Some(last) => {
                    last.1.push(',');
                    last.1.push_str(part);
                }
                None => return None,
            },
        }
    }
    Some(fields)
}

fn resolve_self(mut c: EngineCommand) -> Result<EngineCommand, String> {
    if c.program == "self" {
        c.program = std::env::current_exe()
            .map_err(|e| format!("cannot find the waggle binary: {e}"))?
            .to_string_lossy()
            .into_owned();
    }
    Ok(c)
}

fn default_name(c: &EngineCommand) -> String {
    std::path::Path::new(&c.program)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| c.program.clone())
}

/// Reads a number of seconds such as `0.5` or `2`.
///
/// # Errors
/// Not a non-negative number.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .and_then(|v| Duration::try_from_secs_f64(v).ok())
        .ok_or_else(|| format!("'{s}' is not a number of seconds"))
}

/// Who plays whom.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum Mode {
    /// Two engines against each other.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// Resignation adjudication.
#[derive(Copy, Clone, Debug)]
pub struct Resign {
    /// Consecutive moves of each side with an agreeing, decisive score.
    pub moves: u32,
    /// Score (in the engines' printed units) from which a side is lost.
    pub score: f64,
}

/// Everything an arena run needs.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// Pairing scheme.
    pub mode: Mode,
    /// Games per pairing (rounded up to an even number).
    pub games: u32,
    /// Opening GameStrings, each played twice.
    pub openings: Vec<String>,
    /// Depth per move (unless an engine sets its own).
    pub depth: Option<u32>,
    /// Time per move (unless an engine sets its own).
    pub time: Option<Duration>,
    /// How long an engine may think before it counts as hung.
    pub move_timeout: Option<Duration>,
    /// Games played at once.
    pub concurrency: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Optional resignation adjudication.
    pub resign: Option<Resign>,
    /// Optional SPRT (match mode only).
    pub sprt: Option<Sprt>,
    /// Whether threefold repetition ends a game in a draw.
    pub repetition_draw: bool,
    /// Output folder.
    pub out_dir: PathBuf,
    /// Whether to draw a progress bar (it is hidden anyway when stderr is
    /// not a terminal).
    pub progress: bool,
}

/// Reads an openings file: one GameString (or GameTypeString) per line;
/// blank lines and lines starting with `#` are skipped. Every opening is
/// checked with Waggle's rules.
///
/// # Errors
/// A line that is not a playable GameString, or no openings at all.
pub fn read_openings(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = Game::from_game_string(line, Rules::default(), false)
            .map_err(|e| format!("openings line {}: {e}", n + 1))?;
        if game.outcome().is_some() {
            return Err(format!("openings line {}: the game is already over", n + 1));
        }
        out.push(game.game_string());
    }
    if out.is_empty() {
        return Err("the openings file holds no opening".into());
    }
    Ok(out)
}

/// One scheduled game.
#[derive(Copy, Clone, Debug)]
struct GameSpec {
    index: usize,
    round: usize,
    white: usize,
    black: usize,
    opening: usize,
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
enum Fault {
    Crash,
    Hang,
    Illegal,
    Error,
    Start,
}

impl Fault {
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
struct GameRecord {
    spec: GameSpec,
    result: GameResult,
    reason: String,
    forfeit: Option<(usize, Fault)>,
    game_string: String,
    moves: Vec<String>,
    game_type: String,
}

/// A worker's engine processes, started on first use.
struct Seats<'a> {
    cfg: &'a ArenaConfig,
    clients: Vec<Option<UhpClient>>,
    report_scores: Vec<bool>,
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

/// The `bestmove` arguments and hang timeout for engine `i`.
fn limits_for(cfg: &ArenaConfig, i: usize) -> (String, Duration) {
    let spec = &cfg.engines[i];
    let time = spec
        .time
        .or(if spec.depth.is_some() { None } else { cfg.time });
    let depth = spec.depth.or(cfg.depth);
    let (args, natural) = match (time, depth) {
        (Some(t), _) => (format!("time {}", uhp_time(t)), t + t / 2),
        (None, Some(d)) => (format!("depth {d}"), Duration::from_secs(60)),
        (None, None) => ("depth 2".to_string(), Duration::from_secs(60)),
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
fn play_game(
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
        let (args, timeout) = limits_for(cfg, who);
        let answer = seats
            .get(who)
            .and_then(|c| c.send(&format!("bestmove {args}"), timeout));
        let lines = match answer {
            Ok(lines) => lines,
            Err(e) => return forfeit(&game, seats, who, &e, "failed on bestmove"),
        };
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

/// The games to play, interleaved by round so that partial results stay
/// balanced between pairings and colours.
fn schedule(cfg: &ArenaConfig) -> Vec<GameSpec> {
    let n = cfg.engines.len();
    let pairs: Vec<(usize, usize)> = match cfg.mode {
        Mode::Match => vec![(0, 1)],
        Mode::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Mode::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    };
    let rounds = cfg.games.div_ceil(2) as usize;
    let mut out = Vec::new();
    for round in 0..rounds {
        let opening = round % cfg.openings.len();
        for &(a, b) in &pairs {
            for (white, black) in [(a, b), (b, a)] {
                out.push(GameSpec {
                    index: out.len(),
                    round,
                    white,
                    black,
                    opening,
                });
            }
        }
    }
    out
}

/// Running totals.
struct Tally {
    engines: Vec<Wdl>,
    /// `pairs[i][j]`: results of engine `i` against engine `j`.
    pairs: Vec<Vec<Wdl>>,
    forfeits: Vec<Vec<Fault>>,
    white: Wdl,
}

impl Tally {
    fn new(n: usize) -> Tally {
        Tally {
            engines: vec![Wdl::default(); n],
            pairs: vec![vec![Wdl::default(); n]; n],
            forfeits: vec![Vec::new(); n],
            white: Wdl::default(),
        }
    }

    fn add(&mut self, r: &GameRecord) {
        let (w, b) = (r.spec.white, r.spec.black);
        let mut add = |i: usize, j: usize, res: i8| {
            for wdl in [&mut self.engines[i], &mut self.pairs[i][j]] {
                match res {
                    1 => wdl.wins += 1,
                    0 => wdl.draws += 1,
                    _ => wdl.losses += 1,
                }
            }
        };
        let white_res = match r.result {
            GameResult::WhiteWins => 1,
            GameResult::Draw => 0,
            GameResult::BlackWins => -1,
        };
        add(w, b, white_res);
        add(b, w, -white_res);
        match white_res {
            1 => self.white.wins += 1,
            0 => self.white.draws += 1,
            _ => self.white.losses += 1,
        }
        if let Some((who, fault)) = r.forfeit {
            self.forfeits[who].push(fault);
        }
    }
}

/// Output files.
struct Recorder {
    dir: PathBuf,
    games: BufWriter<File>,
    results: BufWriter<File>,
    log: BufWriter<File>,
    date: String,
}

impl Recorder {
    fn new(dir: PathBuf) -> Result<Recorder, String> {
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let open = |name: &str| {
            File::create(dir.join(name))
                .map(BufWriter::new)
                .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
        };
        let mut results = open("results.csv")?;
        writeln!(
            results,
            "game,round,white,black,result,plies,opening,pgn,reason"
        )
        .map_err(|e| e.to_string())?;
        Ok(Recorder {
            games: open("games.txt")?,
            log: open("arena.log")?,
            results,
            dir,
            date: pgn::today(),
        })
    }

    fn pgn_name(index: usize) -> String {
        format!("game-{:05}.pgn", index + 1)
    }

    fn write(&mut self, cfg: &ArenaConfig, r: &GameRecord) -> Result<(), String> {
        let name = |i: usize| cfg.engines[i].name.clone();
        let record = PgnGame {
            tags: vec![
                ("GameType".into(), r.game_type.clone()),
                ("Date".into(), self.date.clone()),
                ("Event".into(), "waggle arena".into()),
                ("Site".into(), String::new()),
                ("Round".into(), (r.spec.round + 1).to_string()),
                ("White".into(), name(r.spec.white)),
                ("Black".into(), name(r.spec.black)),
                ("Result".into(), r.result.state_name().into()),
            ],
            moves: r.moves.clone(),
        };
        let file = Self::pgn_name(r.spec.index);
        let io = |e: std::io::Error| e.to_string();
        fs::write(self.dir.join(&file), record.to_pgn()).map_err(io)?;
        writeln!(self.games, "{}", r.game_string).map_err(io)?;
        let csv = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        writeln!(
            self.results,
            "{},{},{},{},{},{},{},{},{}",
            r.spec.index + 1,
            r.spec.round + 1,
            csv(&name(r.spec.white)),
            csv(&name(r.spec.black)),
            r.result.state_name(),
            r.moves.len(),
            r.spec.opening + 1,
            file,
            csv(&r.reason)
        )
        .map_err(io)?;
        writeln!(
            self.log,
            "game {} ({} - {}): {} ({})",
            r.spec.index + 1,
            name(r.spec.white),
            name(r.spec.black),
            r.result.state_name(),
            r.reason
        )
        .map_err(io)?;
        for w in [&mut self.games, &mut self.results, &mut self.log] {
            w.flush().map_err(io)?;
        }
        Ok(())
    }
}

/// Checks that every engine starts, greets and accepts its options.
fn preflight(cfg: &ArenaConfig) -> Result<(), String> {
    for spec in &cfg.engines {
        let mut c = UhpClient::spawn(&spec.command, STARTUP_TIMEOUT)
            .map_err(|e| format!("engine '{}' ({}): {e}", spec.name, spec.command))?;
        for (name, value) in &spec.options {
            c.send(&format!("options set {name} {value}"), COMMAND_TIMEOUT)
                .map_err(|e| format!("engine '{}': options set {name} {value}: {e}", spec.name))?;
        }
        for opening in &cfg.openings {
            let ty = opening.split(';').next().unwrap_or("Base");
            for (letter, bug) in [('M', "Mosquito"), ('L', "Ladybug"), ('P', "Pillbug")] {
                let needs = ty.strip_prefix("Base+").is_some_and(|l| l.contains(letter));
                if needs && !c.supports(bug) {
                    return Err(format!(
                        "engine '{}' does not announce {bug}, needed by the opening {opening}",
                        spec.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What a finished arena reports (for tests and callers).
#[derive(Clone, Debug)]
pub struct ArenaSummary {
    /// Results per engine, in the order given.
    pub engines: Vec<(String, Wdl)>,
    /// Games recorded.
    pub games: usize,
    /// The SPRT decision, when an SPRT ran.
    pub sprt: Option<SprtDecision>,
}

/// Runs the arena and prints the result table.
///
/// # Errors
/// Bad settings, an engine that cannot start, or output files that cannot be
/// written.
pub fn run(cfg: &ArenaConfig) -> Result<ArenaSummary, String> {
    let n = cfg.engines.len();
    match cfg.mode {
        Mode::Match if n != 2 => return Err(format!("a match needs 2 engines, not {n}")),
        _ if n < 2 => return Err("the arena needs at least 2 engines".into()),
        _ => {}
    }
    let mut names = std::collections::HashSet::new();
    for e in &cfg.engines {
        if !names.insert(e.name.clone()) {
            return Err(format!(
                "two engines are named '{}': give each a name=",
                e.name
            ));
        }
    }
    let sprt_pairs = match cfg.mode {
        Mode::Match => 1,
        Mode::Gauntlet => n - 1,
        Mode::RoundRobin => n * (n - 1) / 2,
    };
    if cfg.sprt.is_some() && sprt_pairs != 1 {
        return Err("an SPRT needs exactly one pairing (a match of two engines)".into());
    }
    preflight(cfg)?;
    let games = schedule(cfg);
    let total = games.len();
    let mut recorder = Recorder::new(cfg.out_dir.clone())?;
    let queue = parking_lot::Mutex::new(games.into_iter().collect::<VecDeque<_>>());
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Ctrl-C ends the arena after the results so far are printed; a
        // second one (the handler can be set only once) is left to the shell.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let bar = if cfg.progress {
        ProgressBar::new(total as u64)
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} games  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut tally = Tally::new(n);
    let mut recorded = 0usize;
    let mut decision = cfg.sprt.map(|_| SprtDecision::Continue);
    let mut write_error = None;
    let (tx, rx) = mpsc::channel::<GameRecord>();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(total.max(1)) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || {
                let mut seats = Seats {
                    cfg,
                    clients: (0..n).map(|_| None).collect(),
                    report_scores: vec![false; n],
                };
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let Some(spec) = queue.lock().pop_front() else {
                        return;
                    };
                    match play_game(cfg, &mut seats, spec, stop) {
                        Some(r) => {
                            if tx.send(r).is_err() {
                                return;
                            }
                        }
                        None => return,
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            if let Some((who, _)) = r.forfeit {
                let line = format!(
                    "game {}: {} loses: {}; the engine is restarted if needed",
                    r.spec.index + 1,
                    cfg.engines[who].name,
                    r.reason
                );
                bar.suspend(|| eprintln!("{line}"));
            }
            if let Err(e) = recorder.write(cfg, &r) {
                write_error = Some(e);
                stop.store(true, Ordering::SeqCst);
            }
            tally.add(&r);
            recorded += 1;
            bar.inc(1);
            let head = tally.pairs[0][1];
            let mut msg = format!(
                "{}: +{} ={} -{}",
                cfg.engines[0].name,
                tally.engines[0].wins,
                tally.engines[0].draws,
                tally.engines[0].losses
            );
            if let Some(sprt) = cfg.sprt {
                let _ = write!(msg, "  LLR {:.2}", sprt.llr(&head));
                let d = sprt.decision(&head);
                decision = Some(d);
                if d != SprtDecision::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            bar.set_message(msg);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    print!("{}", report(cfg, &tally, recorded, total, decision));
    Ok(ArenaSummary {
        engines: cfg
            .engines
            .iter()
            .zip(&tally.engines)
            .map(|(e, w)| (e.name.clone(), *w))
            .collect(),
        games: recorded,
        sprt: decision,
    })
}

/// The final tables.
fn report(
    cfg: &ArenaConfig,
    tally: &Tally,
    recorded: usize,
    total: usize,
    decision: Option<SprtDecision>,
) -> String {
    let mut s = String::new();
    let limits: Vec<String> = (0..cfg.engines.len())
        .map(|i| limits_for(cfg, i).0)
        .collect();
    let limit = if limits.iter().all(|l| *l == limits[0]) {
        format!("bestmove {}", limits[0])
    } else {
        let each: Vec<String> = cfg
            .engines
            .iter()
            .zip(&limits)
            .map(|(e, l)| format!("{} {l}", e.name))
            .collect();
        format!("bestmove {}", each.join(", "))
    };
    let _ = writeln!(
        s,
        "Arena: {recorded} of {total} games played, {limit}, {} openings, output in {}",
        cfg.openings.len(),
        cfg.out_dir.display()
    );
    let width = cfg
        .engines
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        s,
        "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>6}  {:>7}  {:>17}  forfeits",
        "Rank", "Name", "Games", "W", "D", "L", "Score", "Elo", "95% interval"
    );
    let mut order: Vec<usize> = (0..cfg.engines.len()).collect();
    order.sort_by(|&a, &b| {
        let sa = tally.engines[a].score().unwrap_or(0.0);
        let sb = tally.engines[b].score().unwrap_or(0.0);
        sb.total_cmp(&sa)
    });
    for (rank, &i) in order.iter().enumerate() {
        let w = tally.engines[i];
        let (elo, interval) = match w.elo() {
            Some(e) => (
                fmt_elo(e.elo),
                format!("[{}, {}]", fmt_elo(e.low), fmt_elo(e.high)),
            ),
            None => ("-".into(), "-".into()),
        };
        let forfeits = &tally.forfeits[i];
        let count = |f: Fault| forfeits.iter().filter(|&&x| x == f).count();
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>6}  {:>7}  {:>17}  crash {} hang {} illegal {} error {} start {}",
            rank + 1,
            cfg.engines[i].name,
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            w.score().map_or("-".into(), |x| format!("{x:.3}")),
            elo,
            interval,
            count(Fault::Crash),
            count(Fault::Hang),
            count(Fault::Illegal),
            count(Fault::Error),
            count(Fault::Start),
        );
    }
    let n = cfg.engines.len();
    for i in 0..n {
        for j in i + 1..n {
            let w = tally.pairs[i][j];
            if w.games() == 0 {
                continue;
            }
            let _ = writeln!(
                s,
                "Score of {} vs {}: {} - {} - {}  [{}] {}",
                cfg.engines[i].name,
                cfg.engines[j].name,
                w.wins,
                w.losses,
                w.draws,
                w.score().map_or("-".into(), |x| format!("{x:.3}")),
                w.games()
            );
            if let Some(e) = w.elo() {
                let _ = writeln!(
                    s,
                    "Elo difference: {} (95% interval {} to {})",
                    fmt_elo(e.elo),
                    fmt_elo(e.low),
                    fmt_elo(e.high)
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "White scored {} - {} - {} (W - L - D)",
        tally.white.wins, tally.white.losses, tally.white.draws
    );
    if let (Some(sprt), Some(d)) = (cfg.sprt, decision) {
        let (low, high) = sprt.bounds();
        let head = tally.pairs[0][1];
        let verdict = match d {
            SprtDecision::Continue => "not decided",
            SprtDecision::H0 => "H0 accepted",
            SprtDecision::H1 => "H1 accepted",
        };
        let _ = writeln!(
            s,
            "SPRT: elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&head),
            low,
            high
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let s = EngineSpec::parse("nokamute --threads 1").unwrap();
        assert_eq!(s.command.program, "nokamute");
        assert_eq!(s.name, "nokamute");
        let s = EngineSpec::parse(
            "name=fast,cmd=/bin/waggle --threads 1,option.HashMB=16,depth=2,time=0.5",
        )
        .unwrap();
        assert_eq!(s.name, "fast");
        assert_eq!(s.command.args, ["--threads", "1"]);
        assert_eq!(s.options, [("HashMB".to_string(), "16".to_string())]);
        assert_eq!(s.depth, Some(2));
        assert_eq!(s.time, Some(Duration::from_millis(500)));
        let s = EngineSpec::parse("cmd=run a,b,name=x").unwrap();
        assert_eq!(s.command.args, ["a,b"]);
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("cmd=x,depth=deep").is_err());
        assert!(EngineSpec::parse("cmd=x,colour=blue").is_ok()); // a comma in the command
        let mut s = EngineSpec::parse("cmd=x,option.Threads=2").unwrap();
        s.apply_each("option.Threads=1,option.HashMB=8,depth=3")
            .unwrap();
        assert_eq!(s.options.len(), 2);
        assert_eq!(s.options[0].1, "2");
        assert_eq!(s.depth, Some(3));
    }

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
