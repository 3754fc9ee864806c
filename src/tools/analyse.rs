//! `waggle analyse`: searches positions given as GameStrings and reports
//! the best move, score, depth, nodes and principal variation, as text or as
//! JSON lines for scripts. `--multipv N` reports the N best moves: after each
//! line the moves already reported are excluded from the root
//! ([`Limits::root_moves`]) and the search runs again. The limits apply to
//! each of these searches.
//!
//! # JSON output (`--json`)
//!
//! One object per input line, on one line, in input order:
//!
//! ```json
//! {"game_string":"Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
//!  "side_to_move":"White","ply":4,"outcome":null,
//!  "best_move":"wA1 -wQ","score":-12,"mate":null,"depth":3,"nodes":4567,"time_ms":8,
//!  "lines":[{"move":"wA1 -wQ","score":-12,"mate":null,"depth":3,"nodes":4567,
//!            "time_ms":8,"pv":["wA1 -wQ","bA1 bQ-","wA1 bA1-"]}]}
//! ```
//!
//! | field | type | meaning |
//! | --- | --- | --- |
//! | `game_string` | string | the position, as a canonical GameString (the input line itself when it could not be read) |
//! | `side_to_move` | `"White"` / `"Black"` / null | the side to move (null on error) |
//! | `ply` | integer / null | plies played so far |
//! | `outcome` | null / `"WhiteWins"` / `"BlackWins"` / `"Draw"` | set when the game is already over; nothing is searched then |
//! | `best_move` | string / null | the best move (`lines[0].move`), a canonical MoveString, `pass` when that is the only move |
//! | `score` | integer / null | its score from the side to move's point of view, in Waggle's units (100 = one Queen liberty); ±30000 ∓ plies for a forced result |
//! | `mate` | integer / null | for a forced result, plies to the surround: positive when the side to move surrounds the opposing Queen, negative when its own Queen is surrounded; null otherwise |
//! | `depth` | integer / null | completed depth of the first line |
//! | `nodes` | integer | nodes searched for all lines together |
//! | `time_ms` | integer | milliseconds spent on all lines together |
//! | `lines` | array | one entry per `--multipv` line, best first, each with `move`, `score`, `mate`, `depth`, `nodes`, `time_ms` and `pv` (array of MoveStrings from the position) |
//! | `board` | array of strings, only with `--board` | the drawing of the position, a string a line (see `src/hive/diagram.rs`) |
//! | `error` | string, only on error | why the input line could not be analysed; the other fields are null or empty |
//!
//! Scores of different lines are comparable; a line stops early when no
//! legal move is left to report.

use crate::engine::params::Overrides;
use crate::engine::{is_decisive, Engine, EngineOptions, Limits, Score, MATE};
use crate::hive::diagram::diagram;
use crate::hive::game::Game;
use crate::hive::{notation, Move, Position, Rules};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Settings of an analysis.
#[derive(Clone, Debug)]
pub struct AnalyseConfig {
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Time limit per line.
    pub time: Option<Duration>,
    /// Node limit per line.
    pub nodes: Option<u64>,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Number of best moves to report.
    pub multipv: usize,
    /// What a draw costs the side to move, in centi-liberties.
    pub contempt: Score,
    /// Draw the position ([`diagram`]) with each analysis.
    pub board: bool,
    /// Weights and search parameters set by name (`waggle --set`).
    pub overrides: Overrides,
}

/// One reported move with its search.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Line {
    /// The root move (canonical MoveString).
    #[serde(rename = "move")]
    pub mv: String,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Signed plies to a forced surround, if the score is decisive.
    pub mate: Option<i32>,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched for this line.
    pub nodes: u64,
    /// Milliseconds spent on this line.
    pub time_ms: u64,
    /// Principal variation from the position.
    pub pv: Vec<String>,
}

/// The analysis of one position (one JSON object).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Analysis {
    /// The position's GameString (the input when it could not be read).
    pub game_string: String,
    /// `White` or `Black`.
    pub side_to_move: Option<String>,
    /// Plies played.
    pub ply: Option<u32>,
    /// `WhiteWins`, `BlackWins` or `Draw` when the game is over.
    pub outcome: Option<String>,
    /// The best move.
    pub best_move: Option<String>,
    /// Its score.
    pub score: Option<Score>,
    /// Signed plies to a forced surround.
    pub mate: Option<i32>,
    /// Depth of the first line.
    pub depth: Option<u32>,
    /// Nodes over all lines.
    pub nodes: u64,
    /// Milliseconds over all lines.
    pub time_ms: u64,
    /// The lines, best first.
    pub lines: Vec<Line>,
    /// The drawing of the position, a string a line (`--board` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<String>>,
    /// Why the input could not be analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Signed plies to a forced surround, for a decisive score.
pub fn mate_plies(score: Score) -> Option<i32> {
    is_decisive(score).then(|| {
        if score > 0 {
            MATE - score
        } else {
            -(MATE + score)
        }
    })
}

fn pv_strings(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        out.push(notation::move_string(&p, m));
        p.make(m);
    }
    out
}

/// Analyses one GameString.
pub fn analyse(engine: &mut Engine, input: &str, cfg: &AnalyseConfig) -> Analysis {
    let game = match Game::from_game_string(input, Rules::default(), true) {
        Ok(g) => g,
        Err(e) => {
            return Analysis {
                game_string: input.trim().to_string(),
                error: Some(format!("unable to read the GameString: {e}")),
                ..Analysis::default()
            }
        }
    };
    let pos = game.position();
    let mut a = Analysis {
        game_string: game.game_string(),
        side_to_move: Some(pos.side_to_move().name().to_string()),
        ply: Some(pos.ply()),
        outcome: game
            .outcome()
            .map(|o| notation::state_name(pos, Some(o)).to_string()),
        board: cfg.board.then(|| diagram(pos)),
        ..Analysis::default()
    };
    if a.outcome.is_some() {
        return a;
    }
    engine.new_game();
    let stop = AtomicBool::new(false);
    let mut remaining: Vec<Move> = game.legal_moves().to_vec();
    // Written with `..Default::default()` so that limits added to the engine
    // later (a game clock, say) stay unset here.
    let base = Limits {
        depth: cfg.depth,
        time: cfg.time,
        nodes: cfg.nodes,
        ..Limits::default()
    };
    for _ in 0..cfg.multipv.max(1) {
        if remaining.is_empty() {
            break;
        }
        let limits = Limits {
            root_moves: Some(remaining.clone()),
            ..base.clone()
        };
        let start = Instant::now();
        let r = engine.search(pos, &limits, &stop, &mut |_| {});
        let ms = start.elapsed().as_millis() as u64;
        remaining.retain(|&m| m != r.best_move);
        let mut pv = r.pv.clone();
        if pv.first() != Some(&r.best_move) {
            pv = vec![r.best_move];
        }
        a.nodes += r.nodes;
        a.time_ms += ms;
        a.lines.push(Line {
            mv: notation::move_string(pos, r.best_move),
            score: r.score,
            mate: mate_plies(r.score),
            depth: r.depth,
            nodes: r.nodes,
            time_ms: ms,
            pv: pv_strings(pos, &pv),
        });
    }
    if let Some(first) = a.lines.first() {
        a.best_move = Some(first.mv.clone());
        a.score = Some(first.score);
        a.mate = first.mate;
        a.depth = Some(first.depth);
    }
    a
}

/// Writes a score the way UHP intermediate lines do: Queen liberties with
/// two decimals, or `M<n>` / `-M<n>` for a surround in `n` plies.
pub fn format_score(score: Score) -> String {
    match mate_plies(score) {
        Some(n) if n >= 0 => format!("M{n}"),
        Some(n) => format!("-M{}", -n),
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

fn write_text(out: &mut impl Write, a: &Analysis) -> std::io::Result<()> {
    writeln!(out, "{}", a.game_string)?;
    if let Some(e) = &a.error {
        return writeln!(out, "  error: {e}");
    }
    for line in a.board.iter().flatten() {
        writeln!(out, "  {line}")?;
    }
    if let Some(o) = &a.outcome {
        return writeln!(out, "  the game is over: {o}");
    }
    for (i, l) in a.lines.iter().enumerate() {
        writeln!(
            out,
            "  {}. {:<12} score {:>7}  depth {:>2}  nodes {:>9}  time {:>6} ms  pv {}",
            i + 1,
            l.mv,
            format_score(l.score),
            l.depth,
            l.nodes,
            l.time_ms,
            l.pv.join("; ")
        )?;
    }
    Ok(())
}

/// Analyses every GameString (blank lines and `#` comments are skipped) and
/// writes the results to `out`. Returns how many inputs could not be read.
///
/// # Errors
/// Only failures to read the input or write the output.
pub fn run(
    inputs: &mut dyn Iterator<Item = std::io::Result<String>>,
    cfg: &AnalyseConfig,
    json: bool,
    out: &mut impl Write,
) -> std::io::Result<usize> {
    let mut engine = Engine::new(EngineOptions {
        threads: cfg.threads.max(1),
        hash_mb: cfg.hash_mb.max(1),
        contempt: cfg.contempt,
        ..EngineOptions::default()
    });
    engine.set_overrides(cfg.overrides.clone());
    let mut failures = 0;
    for line in inputs {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let a = analyse(&mut engine, text, cfg);
        if a.error.is_some() {
            failures += 1;
        }
        if json {
            let s = serde_json::to_string(&a).map_err(std::io::Error::other)?;
            writeln!(out, "{s}")?;
        } else {
            write_text(out, &a)?;
        }
        out.flush()?;
    }
    Ok(failures)
}

/// Lines of a reader, for [`run`].
pub fn lines_of(r: impl BufRead + 'static) -> Box<dyn Iterator<Item = std::io::Result<String>>> {
    Box::new(r.lines())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_are_signed_plies() {
        assert_eq!(mate_plies(MATE - 3), Some(3));
        assert_eq!(mate_plies(-MATE + 2), Some(-2));
        assert_eq!(mate_plies(150), None);
        assert_eq!(format_score(MATE - 1), "M1");
        assert_eq!(format_score(-MATE + 4), "-M4");
        assert_eq!(format_score(-250), "-2.50");
    }

    #[test]
    fn multipv_lines_are_distinct_and_bad_input_is_reported() {
        let cfg = AnalyseConfig {
            depth: Some(1),
            time: None,
            nodes: None,
            threads: 1,
            hash_mb: 1,
            multipv: 3,
            contempt: 0,
            board: false,
            overrides: Overrides::default(),
        };
        let mut engine = Engine::new(EngineOptions::default());
        let a = analyse(&mut engine, "Base;InProgress;White[2];wS1;bS1 wS1-", &cfg);
        assert_eq!(a.lines.len(), 3);
        assert_eq!(a.best_move.as_deref(), Some(a.lines[0].mv.as_str()));
        let mut moves: Vec<_> = a.lines.iter().map(|l| l.mv.clone()).collect();
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), 3);
        let bad = analyse(&mut engine, "Base;InProgress;White[2];wQ", &cfg);
        assert!(bad.error.is_some());
        let json = serde_json::to_string(&bad).unwrap();
        assert!(json.contains("\"error\""));
    }
}
