//! What an arena writes: the running tally, the game files (PGN, games.txt,
//! results.csv, arena.log) and the final table.

use super::referee::{describe, limit_for, Fault, GameRecord, GameResult};
use super::ArenaConfig;
use crate::tools::pgn::{self, PgnGame};
use crate::tools::stats::{fmt_elo, Pentanomial, SprtDecision, Wdl};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// Running totals.
pub(super) struct Tally {
    pub(super) engines: Vec<Wdl>,
    /// `pairs[i][j]`: results of engine `i` against engine `j`.
    pub(super) pairs: Vec<Vec<Wdl>>,
    /// `pentas[i][j]`: the game pairs (one opening, colours swapped) of
    /// engine `i` against engine `j`, by `i`'s points from each.
    pub(super) pentas: Vec<Vec<Pentanomial>>,
    /// The first game of each pair still waiting for its second, by round
    /// and pairing `(i, j)` with `i < j`: `i`'s half-points.
    pending: HashMap<(usize, usize, usize), u8>,
    pub(super) forfeits: Vec<Vec<Fault>>,
    pub(super) white: Wdl,
}

impl Tally {
    pub(super) fn new(n: usize) -> Tally {
        Tally {
            engines: vec![Wdl::default(); n],
            pairs: vec![vec![Wdl::default(); n]; n],
            pentas: vec![vec![Pentanomial::default(); n]; n],
            pending: HashMap::new(),
            forfeits: vec![Vec::new(); n],
            white: Wdl::default(),
        }
    }

    pub(super) fn add(&mut self, r: &GameRecord) {
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
        // The pair: the two games of a round between the same engines.
        let (i, j) = (w.min(b), w.max(b));
        // i's half-points: 0, 1 or 2 for a result of -1, 0 or 1.
        let half_points = (1 + if i == w { white_res } else { -white_res }).unsigned_abs();
        match self.pending.remove(&(r.spec.round, i, j)) {
            Some(first) => {
                self.pentas[i][j].add(first, half_points);
                self.pentas[j][i] = self.pentas[i][j].flipped();
            }
            None => {
                self.pending.insert((r.spec.round, i, j), half_points);
            }
        }
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
pub(super) struct Recorder {
    pub(super) dir: PathBuf,
    pub(super) games: BufWriter<File>,
    pub(super) results: BufWriter<File>,
    pub(super) log: BufWriter<File>,
    pub(super) date: String,
}

impl Recorder {
    pub(super) fn new(dir: PathBuf) -> Result<Recorder, String> {
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

    pub(super) fn write(&mut self, cfg: &ArenaConfig, r: &GameRecord) -> Result<(), String> {
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

/// The final tables.
pub(super) fn report(
    cfg: &ArenaConfig,
    tally: &Tally,
    recorded: usize,
    total: usize,
    decision: Option<SprtDecision>,
) -> String {
    let mut s = String::new();
    let limits: Vec<String> = (0..cfg.engines.len())
        .map(|i| describe(cfg, limit_for(cfg, i)))
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
            "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>6}  {:>7}  {:>17}  crash {} hang {} illegal {} error {} start {} time {}",
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
            count(Fault::Time),
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
            let p = tally.pentas[i][j];
            if let Some(e) = p.elo() {
                let c = p.counts;
                let _ = writeln!(
                    s,
                    "Game pairs (one opening, colours swapped) by {}'s points 0 - ½ - 1 - 1½ - 2: {} - {} - {} - {} - {}; Elo from the pairs: {} (95% interval {} to {})",
                    cfg.engines[i].name,
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[4],
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
        let head = tally.pentas[0][1];
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
