//! The Universal Hive Protocol loop (`shared/spec/UHP.md`).
//!
//! [`UhpServer`] reads one command per line and answers on its writer; every
//! answer ends with `ok` (except `exit`). Bad commands get `err <reason>`,
//! illegal moves `invalidmove <reason>`, and the game is then exactly as
//! before. Commands are handled inside `catch_unwind` with a snapshot of the
//! game, so even an internal bug answers `err` and leaves the state intact.
//!
//! Extensions beyond UHP: `perft [N]` (Mzinga's output format) and `help`.

use crate::engine::{is_decisive, Clock, Engine, EngineOptions, Limits, SearchInfo, MATE};
use crate::hive::game::{Game, PlayError};
use crate::hive::notation;
use crate::hive::perft::perft_until;
use crate::hive::{GameType, Rules};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine's name and version, as printed on the `id` line.
pub fn engine_id() -> String {
    format!("id waggle {}", env!("CARGO_PKG_VERSION"))
}

/// The capabilities line: the expansions Waggle plays.
pub const CAPABILITIES: &str = "Mosquito;Ladybug;Pillbug";

/// Largest `Threads` value accepted.
pub const MAX_THREADS: usize = 256;
/// Largest `HashMB` value accepted.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest `Contempt` either way, in centi-liberties.
pub const MAX_CONTEMPT: i32 = 1_000;

/// Flags shared with a signal handler: raise `stop` to end a running search
/// early (it still answers with the best move so far).
#[derive(Debug, Default)]
pub struct Interrupt {
    /// Set to stop the current search.
    pub stop: AtomicBool,
    /// True while a search (or perft) runs.
    pub busy: AtomicBool,
}

/// Whether the loop should go on after a command.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `exit` was received.
    Exit,
}

#[derive(Clone, Debug)]
struct Settings {
    tournament_opening: bool,
    repetition_draw: bool,
    report_intermediate: bool,
    verbose: bool,
    engine: EngineOptions,
}

/// A UHP engine session writing its answers to `W`.
pub struct UhpServer<W: Write> {
    out: W,
    game: Option<Game>,
    settings: Settings,
    defaults: Settings,
    engine: Engine,
    interrupt: Arc<Interrupt>,
}

/// A failed command: the first line of the answer before `ok`.
enum Failure {
    Err(String),
    InvalidMove(String),
}

type Answer = Result<Vec<String>, Failure>;

fn err<T>(msg: impl Into<String>) -> Result<T, Failure> {
    Err(Failure::Err(msg.into()))
}

const NO_GAME: &str = "No game in progress. Try 'newgame' to start a new game.";

impl<W: Write> UhpServer<W> {
    /// A session with default options writing to `out`.
    pub fn new(out: W) -> Self {
        Self::with_options(
            out,
            EngineOptions::default(),
            Arc::new(Interrupt::default()),
        )
    }

    /// A session with the given engine options and interrupt flags.
    pub fn with_options(out: W, engine: EngineOptions, interrupt: Arc<Interrupt>) -> Self {
        let settings = Settings {
            tournament_opening: true,
            repetition_draw: true,
            report_intermediate: false,
            verbose: false,
            engine: engine.clone(),
        };
        UhpServer {
            out,
            game: None,
            defaults: settings.clone(),
            settings,
            engine: Engine::new(engine),
            interrupt,
        }
    }

    /// Plays with weights and search parameters set by name (`waggle
    /// --set`); kept across `newgame` and option changes.
    pub fn set_overrides(&mut self, overrides: crate::engine::params::Overrides) {
        self.engine.set_overrides(overrides);
    }

    /// The writer (for tests that read what was written).
    pub fn output(&self) -> &W {
        &self.out
    }

    /// The current game, if any.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Prints the unprompted `id` block (UHP.md §2).
    pub fn greet(&mut self) {
        let lines = self.info();
        self.write_answer(Ok(lines));
    }

    /// Reads commands until `exit` or the end of input.
    pub fn run<R: BufRead>(&mut self, mut input: R) {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf);
            if self.handle_line(&line) == Flow::Exit {
                return;
            }
        }
    }

    /// Handles one input line (with or without its line ending).
    pub fn handle_line(&mut self, line: &str) -> Flow {
        // Also drop NULs and a byte-order mark, which some Windows tools
        // put before the first command.
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0' || c == '\u{feff}');
        if line.is_empty() {
            return Flow::Continue;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_lowercase();
        if word == "exit" {
            return Flow::Exit;
        }
        let snapshot = self.game.clone();
        let settings = self.settings.clone();
        let answer = catch_unwind(AssertUnwindSafe(|| self.dispatch(&word, rest)));
        let answer = answer.unwrap_or_else(|panic| {
            self.game = snapshot;
            self.settings = settings;
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            eprintln!("internal error on '{line}': {what}");
            err(format!(
                "internal error while handling '{word}'; the game is unchanged"
            ))
        });
        self.write_answer(answer);
        Flow::Continue
    }

    fn write_answer(&mut self, answer: Answer) {
        // A failed write means the GUI went away; there is no one to tell.
        let _ = match answer {
            Ok(lines) => lines.iter().try_for_each(|l| writeln!(self.out, "{l}")),
            Err(Failure::Err(m)) => writeln!(self.out, "err {}", one_line(&m)),
            Err(Failure::InvalidMove(m)) => writeln!(self.out, "invalidmove {}", one_line(&m)),
        };
        let _ = writeln!(self.out, "ok");
        let _ = self.out.flush();
    }

    fn dispatch(&mut self, word: &str, rest: &str) -> Answer {
        match word {
            "info" => Ok(self.info()),
            "newgame" => self.newgame(rest),
            "play" => self.play(rest),
            "pass" => self.play("pass"),
            "validmoves" => self.validmoves(),
            "bestmove" => self.bestmove(rest),
            "undo" => self.undo(rest),
            "options" => self.options(rest),
            "perft" => self.perft(rest),
            "help" | "?" => Ok(vec![
                "Commands: info, newgame [GameType|GameString], play <move>, pass, validmoves,"
                    .into(),
                "bestmove time hh:mm:ss | depth N | nodes N | clock <w_ms> <b_ms> [<winc_ms> <binc_ms>],"
                    .into(),
                "undo [N], options [get N | set N V], perft [N], exit.".into(),
            ]),
            _ => err(format!(
                "Invalid command '{word}'. Try 'help' to see a list of valid commands."
            )),
        }
    }

    fn info(&self) -> Vec<String> {
        vec![engine_id(), CAPABILITIES.to_string()]
    }

    fn rules(&self) -> Rules {
        Rules {
            tournament_opening: self.settings.tournament_opening,
        }
    }

    fn game_mut(&mut self) -> Result<&mut Game, Failure> {
        self.game.as_mut().ok_or(Failure::Err(NO_GAME.into()))
    }

    fn newgame(&mut self, arg: &str) -> Answer {
        let rules = self.rules();
        let repetition = self.settings.repetition_draw;
        let game = if arg.is_empty() {
            Game::new(GameType::BASE, rules, repetition)
        } else if arg.contains(';') {
            Game::from_game_string(arg, rules, repetition)
                .map_err(|e| Failure::Err(format!("can't load that GameString: {e}")))?
        } else {
            let ty = arg.split_whitespace().next().unwrap_or("");
            let game_type = GameType::parse(ty).ok_or_else(|| {
                Failure::Err(notation::NotationError::BadGameType(ty.into()).to_string())
            })?;
            Game::new(game_type, rules, repetition)
        };
        let line = game.game_string();
        self.game = Some(game);
        self.sync_engine_options();
        self.engine.new_game();
        Ok(vec![line])
    }

    fn play(&mut self, text: &str) -> Answer {
        let game = self.game_mut()?;
        if text.trim().is_empty() {
            return Err(Failure::InvalidMove(
                "no move given: write e.g. 'play wS1' or 'play bG1 wS1-'".into(),
            ));
        }
        match game.play_str(text) {
            Ok(_) => Ok(vec![game.game_string()]),
            Err(PlayError::GameOver(m)) => err(m),
            Err(PlayError::Notation(e)) => Err(Failure::InvalidMove(e.to_string())),
            Err(PlayError::Illegal(m)) => Err(Failure::InvalidMove(m)),
        }
    }

    fn validmoves(&mut self) -> Answer {
        let game = self.game_mut()?;
        if let Some(reason) = game.game_over_reason() {
            return err(reason);
        }
        Ok(vec![game.legal_move_strings().join(";")])
    }

    /// Hands the session's engine settings (threads, table size, the
    /// repetition rule) to the engine.
    fn sync_engine_options(&mut self) {
        self.engine.options = self.settings.engine.clone();
        self.engine.options.repetition_draw = self.settings.repetition_draw;
    }

    fn bestmove(&mut self, args: &str) -> Answer {
        let game = self.game.as_ref().ok_or(Failure::Err(NO_GAME.into()))?;
        if let Some(reason) = game.game_over_reason() {
            return err(reason);
        }
        let limits = parse_limits(args).map_err(Failure::Err)?;
        let pos = game.position().clone();
        self.sync_engine_options();
        let report = self.settings.report_intermediate;
        let verbose = self.settings.verbose;
        let interrupt = Arc::clone(&self.interrupt);
        interrupt.stop.store(false, Ordering::SeqCst);
        interrupt.busy.store(true, Ordering::SeqCst);
        let out = &mut self.out;
        let mut on_iteration = |info: &SearchInfo| {
            if verbose {
                eprintln!("{}", verbose_line(&pos, info));
            }
            if report {
                if let Some(&first) = info.pv.first() {
                    let mut line = format!(
                        "{};{};{}",
                        notation::move_string(&pos, first),
                        info.depth,
                        format_score(info.score)
                    );
                    let mut p = pos.clone();
                    for &m in &info.pv {
                        line.push(';');
                        line.push_str(&notation::move_string(&p, m));
                        p.make(m);
                    }
                    let _ = writeln!(out, "{line}");
                    let _ = out.flush();
                }
            }
        };
        let result = self
            .engine
            .search(&pos, &limits, &interrupt.stop, &mut on_iteration);
        interrupt.busy.store(false, Ordering::SeqCst);
        interrupt.stop.store(false, Ordering::SeqCst);
        Ok(vec![notation::move_string(&pos, result.best_move)])
    }

    fn undo(&mut self, arg: &str) -> Answer {
        let n = if arg.is_empty() {
            1
        } else {
            arg.parse::<usize>()
                .map_err(|_| Failure::Err(format!("'{arg}' is not a number of moves to undo")))?
        };
        let game = self.game_mut()?;
        game.undo(n).map_err(Failure::Err)?;
        Ok(vec![game.game_string()])
    }

    fn options(&mut self, args: &str) -> Answer {
        let mut words = args.split_whitespace();
        match words.next().map(|w| w.to_ascii_lowercase()).as_deref() {
            None => Ok(OPTION_NAMES.iter().map(|n| self.option_line(n)).collect()),
            Some("get") => {
                let name = words.next().ok_or(Failure::Err("options get needs an option name".into()))?;
                let name = find_option(name)?;
                no_more_words(words, "options get <name>")?;
                Ok(vec![self.option_line(name)])
            }
            Some("set") => {
                let name = words.next().ok_or(Failure::Err("options set needs a name and a value".into()))?;
                let name = find_option(name)?;
                let value = words.next().ok_or(Failure::Err(format!("options set {name} needs a value")))?;
                no_more_words(words, "options set <name> <value>")?;
                self.set_option(name, value)?;
                Ok(vec![self.option_line(name)])
            }
            Some(other) => err(format!(
                "Invalid options command '{other}': use 'options', 'options get <name>' or 'options set <name> <value>'"
            )),
        }
    }

    fn option_line(&self, name: &str) -> String {
        let (s, d) = (&self.settings, &self.defaults);
        match name {
            "TournamentOpening" => bool_line(name, s.tournament_opening, d.tournament_opening),
            "RepetitionDraw" => bool_line(name, s.repetition_draw, d.repetition_draw),
            "ReportIntermediateBestMoves" => {
                bool_line(name, s.report_intermediate, d.report_intermediate)
            }
            "Verbose" => bool_line(name, s.verbose, d.verbose),
            "Threads" => format!(
                "{name};int;{};{};1;{MAX_THREADS}",
                s.engine.threads, d.engine.threads
            ),
            "HashMB" => format!(
                "{name};int;{};{};1;{MAX_HASH_MB}",
                s.engine.hash_mb, d.engine.hash_mb
            ),
            "Contempt" => format!(
                "{name};int;{};{};{};{MAX_CONTEMPT}",
                s.engine.contempt, d.engine.contempt, -MAX_CONTEMPT
            ),
            _ => unreachable!("option names come from OPTION_NAMES"),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        let as_bool = || match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => err(format!(
                "'{value}' is not a value for {name}: use True or False"
            )),
        };
        let as_int = |min: i64, max: i64| match value.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => err(format!(
                "'{value}' is not a value for {name}: use a whole number from {min} to {max}"
            )),
        };
        // The bounds below fit usize and i32, so the conversions are exact.
        let as_count = |max: usize| as_int(1, max as i64).map(|v| v as usize);
        match name {
            "TournamentOpening" => {
                self.settings.tournament_opening = as_bool()?;
                let rules = self.rules();
                if let Some(g) = self.game.as_mut() {
                    g.set_rules(rules);
                }
            }
            "RepetitionDraw" => {
                self.settings.repetition_draw = as_bool()?;
                let on = self.settings.repetition_draw;
                if let Some(g) = self.game.as_mut() {
                    g.set_repetition_draw(on);
                }
            }
            "ReportIntermediateBestMoves" => self.settings.report_intermediate = as_bool()?,
            "Verbose" => self.settings.verbose = as_bool()?,
            "Threads" => self.settings.engine.threads = as_count(MAX_THREADS)?,
            "Contempt" => {
                let max = i64::from(MAX_CONTEMPT);
                self.settings.engine.contempt = as_int(-max, max)? as i32;
            }
            "HashMB" => {
                self.settings.engine.hash_mb = as_count(MAX_HASH_MB)?;
                // Allocate now (the viewer waits for `ok`) rather than in
                // the next search's time; without a game, `newgame` does.
                if self.game.is_some() {
                    self.sync_engine_options();
                    self.engine.prepare_tables();
                }
            }
            _ => unreachable!("option names come from OPTION_NAMES"),
        }
        Ok(())
    }

    fn perft(&mut self, arg: &str) -> Answer {
        let game = self.game.as_ref().ok_or(Failure::Err(NO_GAME.into()))?;
        let max = if arg.is_empty() {
            0
        } else {
            match arg.parse::<u32>() {
                Ok(d) if d <= 12 => d,
                _ => return err(format!("'{arg}' is not a perft depth (0 to 12)")),
            }
        };
        let mut pos = game.position().clone();
        let mut lines = Vec::new();
        // SIGINT stops a long perft (the depths already done are printed).
        self.interrupt.stop.store(false, Ordering::SeqCst);
        self.interrupt.busy.store(true, Ordering::SeqCst);
        for d in 0..=max {
            let start = Instant::now();
            let Some(nodes) = perft_until(&mut pos, d, &self.interrupt.stop) else {
                break;
            };
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let knps = if ms > 0.0 { nodes as f64 / ms } else { 0.0 };
            lines.push(format!(
                "perft({d}) = {nodes} in {ms:.0} ms. {knps:.0} KN/s"
            ));
        }
        self.interrupt.busy.store(false, Ordering::SeqCst);
        self.interrupt.stop.store(false, Ordering::SeqCst);
        Ok(lines)
    }
}

/// Longest `err`/`invalidmove` reason, in characters; longer ones (which can
/// only come from echoing a long input) are cut short.
const MAX_REASON_CHARS: usize = 300;

/// A reason as one clean line. Input echoed in a reason may hold control
/// characters: a `\r` would end the line early for a .NET reader (the
/// viewer's `ReadLine`) and put every later answer out of step, so each
/// becomes `?`, as do the Unicode line and paragraph separators.
fn one_line(reason: &str) -> String {
    let mut out: String = reason
        .chars()
        .take(MAX_REASON_CHARS)
        .map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                '?'
            } else {
                c
            }
        })
        .collect();
    if reason.chars().nth(MAX_REASON_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

const OPTION_NAMES: [&str; 7] = [
    "Contempt",
    "HashMB",
    "RepetitionDraw",
    "ReportIntermediateBestMoves",
    "Threads",
    "TournamentOpening",
    "Verbose",
];

fn find_option(name: &str) -> Result<&'static str, Failure> {
    OPTION_NAMES
        .iter()
        .copied()
        .find(|n| *n == name)
        .ok_or_else(|| Failure::Err(format!("The option \"{name}\" is not valid.")))
}

/// An option command with a word too many (`options set Threads 1 5`) is
/// refused rather than read as if the extra words were not there, as
/// nokamute refuses it: the value meant is unclear.
fn no_more_words<'a>(mut words: impl Iterator<Item = &'a str>, usage: &str) -> Result<(), Failure> {
    match words.next() {
        None => Ok(()),
        Some(extra) => err(format!("Unexpected '{extra}': use '{usage}'")),
    }
}

fn bool_line(name: &str, value: bool, default: bool) -> String {
    let b = |v: bool| if v { "True" } else { "False" };
    format!("{name};bool;{};{}", b(value), b(default))
}

/// Mzinga's score format for intermediate lines: pawns with two decimals.
fn format_score(score: i32) -> String {
    if is_decisive(score) {
        let plies = MATE - score.abs();
        let sign = if score > 0 { "" } else { "-" };
        format!("{sign}M{plies}")
    } else {
        format!("{:.2}", score as f64 / 100.0)
    }
}

/// One `Verbose` line (stderr): depth, score, nodes, nodes/s, time, PV.
fn verbose_line(pos: &crate::hive::Position, info: &SearchInfo) -> String {
    let ms = info.elapsed.as_millis();
    let nps = (info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-6)) as u64;
    let mut line = format!(
        "info depth {} score {} nodes {} nps {nps} time {ms} pv",
        info.depth,
        format_score(info.score),
        info.nodes
    );
    let mut p = pos.clone();
    for &m in &info.pv {
        line.push(' ');
        line.push_str(&notation::move_string(&p, m));
        p.make(m);
    }
    line
}

/// Parses the arguments of `bestmove`.
///
/// * `time [d.]hh:mm:ss[.f]` (UHP): answer within this time.
/// * `depth N` (UHP): search N plies.
/// * `nodes N` (extension): search about N nodes.
/// * `clock <white_ms> <black_ms> [<white_inc_ms> <black_inc_ms>]`
///   (extension, for tournaments with real game clocks): the time left on
///   both clocks and the increment per move, in milliseconds. The engine
///   budgets its move from the side to move's clock (about a 25th of the
///   time left plus most of the increment, never more than a quarter of the
///   time left), so it never loses on time with reasonable clocks.
///
/// # Errors
/// A message for the `err` line when the arguments are not one of these.
pub fn parse_limits(args: &str) -> Result<Limits, String> {
    let mut words = args.split_whitespace();
    let kind = words.next().map(|w| w.to_ascii_lowercase());
    let value = words.next();
    match (kind.as_deref(), value) {
        (Some("time"), Some(v)) => Ok(Limits {
            time: Some(parse_time(v).ok_or_else(|| {
                format!("'{v}' is not a time: use hh:mm:ss, e.g. bestmove time 00:00:05")
            })?),
            ..Limits::default()
        }),
        (Some("depth"), Some(v)) => match v.parse::<u32>() {
            Ok(d) if d <= 64 => Ok(Limits {
                depth: Some(d),
                ..Limits::default()
            }),
            _ => Err(format!(
                "'{v}' is not a depth: use a whole number from 0 to 64"
            )),
        },
        (Some("nodes"), Some(v)) => match v.parse::<u64>() {
            Ok(n) if n > 0 => Ok(Limits {
                nodes: Some(n),
                ..Limits::default()
            }),
            _ => Err(format!(
                "'{v}' is not a node count: use a whole number above 0"
            )),
        },
        (Some("clock"), Some(v)) => {
            let rest: Vec<&str> = std::iter::once(v).chain(words).collect();
            let ms: Vec<u64> = rest
                .iter()
                .map(|w| w.parse::<u64>())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    format!(
                        "'{}' is not a clock: use bestmove clock <white_ms> <black_ms> [<white_inc_ms> <black_inc_ms>]",
                        rest.join(" ")
                    )
                })?;
            let d = Duration::from_millis;
            let clock = match ms.as_slice() {
                [w, b] => Clock {
                    white_time: d(*w),
                    black_time: d(*b),
                    ..Clock::default()
                },
                [w, b, wi, bi] => Clock {
                    white_time: d(*w),
                    black_time: d(*b),
                    white_inc: d(*wi),
                    black_inc: d(*bi),
                },
                _ => {
                    return Err(
                        "bestmove clock needs 2 or 4 numbers: <white_ms> <black_ms> [<white_inc_ms> <black_inc_ms>]"
                            .into(),
                    )
                }
            };
            Ok(Limits {
                clock: Some(clock),
                ..Limits::default()
            })
        }
        _ => Err("bestmove needs a limit: 'bestmove time hh:mm:ss' or 'bestmove depth N'".into()),
    }
}

/// Parses a .NET TimeSpan in `[d.]hh:mm:ss[.fffffff]` form.
pub fn parse_time(s: &str) -> Option<Duration> {
    let parts: Vec<&str> = s.split(':').collect();
    let [h, m, sec] = parts.as_slice() else {
        return None;
    };
    let (days, hours) = match h.split_once('.') {
        Some((d, h)) => (d.parse::<u64>().ok()?, h.parse::<u64>().ok()?),
        None => (0, h.parse::<u64>().ok()?),
    };
    let minutes = m.parse::<u64>().ok()?;
    let (whole, frac) = match sec.split_once('.') {
        Some((w, f)) => (w, f),
        None => (*sec, ""),
    };
    let whole = whole.parse::<u64>().ok()?;
    if minutes >= 60 || whole >= 60 || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let nanos = if frac.is_empty() {
        0
    } else {
        let digits: String = frac.chars().chain(std::iter::repeat('0')).take(9).collect();
        digits.parse::<u32>().ok()?
    };
    let secs = days
        .checked_mul(86_400)?
        .checked_add(hours.checked_mul(3600)?)?
        .checked_add(minutes * 60 + whole)?;
    Some(Duration::new(secs, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_and_nodes_limits_parse() {
        let l = parse_limits("clock 60000 55000 1000 2000").expect("valid");
        let c = l.clock.expect("clock");
        assert_eq!(c.white_time, Duration::from_secs(60));
        assert_eq!(c.black_inc, Duration::from_secs(2));
        let l = parse_limits("clock 1000 2000").expect("valid");
        assert_eq!(l.clock.expect("clock").white_inc, Duration::ZERO);
        assert_eq!(parse_limits("nodes 5000").expect("valid").nodes, Some(5000));
        for bad in [
            "clock",
            "clock 1",
            "clock 1 2 3",
            "clock a b",
            "nodes 0",
            "nodes x",
        ] {
            assert!(parse_limits(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn times_parse_like_dotnet_timespans() {
        assert_eq!(parse_time("00:00:05"), Some(Duration::from_secs(5)));
        assert_eq!(parse_time("00:01:30"), Some(Duration::from_secs(90)));
        assert_eq!(
            parse_time("00:00:02.5000000"),
            Some(Duration::from_millis(2500))
        );
        assert_eq!(parse_time("1.00:00:00"), Some(Duration::from_secs(86_400)));
        assert_eq!(parse_time("00:00:00"), Some(Duration::ZERO));
        for bad in [
            "5", "00:00", "aa:bb:cc", "00:61:00", "00:00:5x", "-1:00:00", "",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }
}
