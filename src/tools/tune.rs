//! `waggle tune`: Texel-style fitting of the evaluation weights.
//!
//! 1. Data: self-play games (see [`crate::tools::selfplay`]) at a fixed node
//!    budget, written as `score<TAB>GameString` lines (White's score: 1, 0.5
//!    or 0). A committed data file makes the fit reproducible.
//! 2. Samples: every position of every game after the random opening plies
//!    and before the last two plies (whose result is already on the board),
//!    as its evaluation features from White's view.
//! 3. Fit: the evaluation is linear in its weights
//!    ([`crate::engine::eval::Features::to_vec`]), so the predicted White
//!    score is `sigmoid(w·x / S)`. `S` is fitted first with the start
//!    weights fixed, then Adam minimises the mean squared error to the game
//!    results plus a small ridge pull toward the start weights (pieces in
//!    hand, free and pinned pieces are nearly collinear). One tenth of the
//!    games of each game type is held out ([`HoldOut`]) and its error
//!    reported before and after.
//! 4. Search targets (`--search-depth`): each training position is also
//!    searched a few plies deep with the start weights ([`search_scores`]),
//!    and its target becomes a blend of the search's predicted score and
//!    the game result ([`blend_search_scores`]).

use crate::engine::eval::Features;
use crate::engine::EvalWeights;
use crate::hive::game::Game;
use crate::hive::{Color, GameType, Rules};

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Features from White's view (tempo feature ±1 by side to move).
    pub x: Vec<f64>,
    /// White's game score.
    pub result: f64,
    /// The game type of the game it comes from.
    pub game_type: GameType,
}

/// Which games [`samples`] holds out to measure a fit on.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum HoldOut {
    /// The tenth, twentieth, … game of each game type, counted apart: the
    /// hold-out has every game type in the share the data has, whatever
    /// order the file lists its games in.
    #[default]
    ByGameType,
    /// Every tenth line of the data file, comment lines counted: how rounds
    /// one to ten were fitted. `--generate` alternates Base and Base+MLP
    /// games after two comment lines, so on those files this holds out
    /// Base+MLP games only (and so does any concatenation of them).
    EveryTenthLine,
}

/// One game of a data file: its line (counted from 1), White's score, the
/// game, and whether [`HoldOut`] holds it out.
struct Record {
    line: usize,
    result: f64,
    game: Game,
    held: bool,
}

/// Parses the `score<TAB>GameString` lines of `data`, marking the games
/// `hold_out` holds out.
fn records(data: &str, hold_out: HoldOut) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    // Games read so far, by game type.
    let mut games_of: Vec<(GameType, usize)> = Vec::new();
    for (i, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (score, gs) = line
            .split_once('\t')
            .ok_or_else(|| format!("line {}: expected score<TAB>GameString", i + 1))?;
        let result: f64 = score
            .trim()
            .parse()
            .map_err(|_| format!("line {}: bad score '{score}'", i + 1))?;
        let game = Game::from_game_string(gs, Rules::default(), true)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
        let game_type = game.position().game_type();
        let held = match hold_out {
            HoldOut::EveryTenthLine => i % 10 == 9,
            HoldOut::ByGameType => {
                let k = match games_of.iter().position(|&(t, _)| t == game_type) {
                    Some(k) => k,
                    None => {
                        games_of.push((game_type, 0));
                        games_of.len() - 1
                    }
                };
                games_of[k].1 += 1;
                games_of[k].1.is_multiple_of(10)
            }
        };
        records.push(Record {
            line: i + 1,
            result,
            game,
            held,
        });
    }
    Ok(records)
}

/// Replays `record`'s game, calling `each` with the position before every
/// ply that [`samples`] takes: after `skip_plies` and before the last two.
fn for_each_sample(
    record: &Record,
    skip_plies: usize,
    mut each: impl FnMut(&crate::hive::Position),
) -> Result<(), String> {
    let game_type = record.game.position().game_type();
    let moves: Vec<_> = record.game.position().moves().collect();
    let mut g = Game::new(game_type, Rules::default(), true);
    for (ply, &mv) in moves.iter().enumerate() {
        if ply >= skip_plies && ply + 2 < moves.len() {
            each(g.position());
        }
        g.play(mv)
            .map_err(|e| format!("line {}: replay failed: {e:?}", record.line))?;
    }
    Ok(())
}

/// Parses `score<TAB>GameString` lines into samples, split into training
/// and hold-out positions (the first and second lists) by `hold_out`.
///
/// # Errors
/// A line without a score, or a GameString that cannot be replayed.
pub fn samples(
    data: &str,
    skip_plies: usize,
    hold_out: HoldOut,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let mut train = Vec::new();
    let mut test = Vec::new();
    let mut features = Features::default();
    for record in records(data, hold_out)? {
        let game_type = record.game.position().game_type();
        let out = if record.held { &mut test } else { &mut train };
        for_each_sample(&record, skip_plies, |pos| {
            features.extract(pos);
            let mut x: Vec<f64> = features
                .to_vec(Color::White)
                .into_iter()
                .map(f64::from)
                .collect();
            x[EvalWeights::TEMPO] = if pos.side_to_move() == Color::White {
                1.0
            } else {
                -1.0
            };
            out.push(Sample {
                x,
                result: record.result,
                game_type,
            });
        })?;
    }
    Ok((train, test))
}

/// White's score, in centi-liberties, of a `depth`-ply search of each
/// training position of `data` (the positions of [`samples`]'s first list,
/// in its order) with `weights`, one thread, no contempt. A won or lost
/// position counts as ±[`SEARCH_SCORE_CAP`]. Games are searched in
/// parallel, each with a table of its own cleared at its start, so the
/// scores do not depend on the number of threads.
///
/// # Errors
/// As [`samples`].
pub fn search_scores(
    data: &str,
    skip_plies: usize,
    hold_out: HoldOut,
    depth: u32,
    weights: &EvalWeights,
    mut progress: impl FnMut(usize, usize) + Send,
) -> Result<Vec<f64>, String> {
    use crate::engine::{is_decisive, Engine, EngineOptions, Limits};
    use rayon::prelude::*;
    use std::sync::atomic::AtomicBool;
    let records: Vec<Record> = records(data, hold_out)?
        .into_iter()
        .filter(|r| !r.held)
        .collect();
    let total = records.len();
    let done = std::sync::Mutex::new((0usize, &mut progress));
    let per_game: Vec<Result<Vec<f64>, String>> = records
        .par_iter()
        .map(|record| {
            let mut engine = Engine::new(EngineOptions {
                threads: 1,
                hash_mb: 4,
                repetition_draw: true,
                contempt: 0,
            });
            engine.weights = Some(weights.clone());
            engine.new_game();
            let stop = AtomicBool::new(false);
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let mut scores = Vec::new();
            for_each_sample(record, skip_plies, |pos| {
                let r = engine.search(pos, &limits, &stop, &mut |_| {});
                let s = if is_decisive(r.score) {
                    SEARCH_SCORE_CAP.copysign(f64::from(r.score))
                } else {
                    f64::from(r.score).clamp(-SEARCH_SCORE_CAP, SEARCH_SCORE_CAP)
                };
                scores.push(if pos.side_to_move() == Color::White {
                    s
                } else {
                    -s
                });
            })?;
            if let Ok(mut d) = done.lock() {
                d.0 += 1;
                let n = d.0;
                (d.1)(n, total);
            }
            Ok(scores)
        })
        .collect();
    let mut scores = Vec::new();
    for game in per_game {
        scores.extend(game?);
    }
    Ok(scores)
}

/// The score [`search_scores`] gives a won position (and, negated, a lost
/// one), in centi-liberties: far enough out that the sigmoid of any fitted
/// scale is within a hair of 1.
pub const SEARCH_SCORE_CAP: f64 = 3_000.0;

/// Replaces each training target by `lambda` parts the search's predicted
/// score, `sigmoid(search / scale)`, and `1 − lambda` parts the game's
/// result (the blend chess engines train on). `scores` are
/// [`search_scores`] of the same samples.
///
/// # Panics
/// If `scores` and `train` differ in length.
pub fn blend_search_scores(train: &mut [Sample], scores: &[f64], scale: f64, lambda: f64) {
    assert_eq!(train.len(), scores.len(), "one search score per sample");
    for (s, &v) in train.iter_mut().zip(scores) {
        s.result = lambda * sigmoid(v / scale) + (1.0 - lambda) * s.result;
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// Mean squared error of the predictions `sigmoid(w·x / scale)`.
pub fn error(samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    samples
        .iter()
        .map(|s| {
            let p = sigmoid(dot(w, &s.x) / scale);
            (s.result - p).powi(2)
        })
        .sum::<f64>()
        / n
}

/// Fits the scale `S` for fixed weights (golden-section search on a log
/// scale between 10 and 10 000 centi-liberties).
pub fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10f64.ln(), 10_000f64.ln());
    for _ in 0..60 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if error(samples, w, m1.exp()) < error(samples, w, m2.exp()) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fits the weights with Adam; `queen_surround[0]` stays 0 (the reference
/// of that table). Returns the fitted weights (rounded).
pub fn fit(
    samples: &[Sample],
    start: &EvalWeights,
    scale: f64,
    iterations: usize,
    ridge: f64,
    mut progress: impl FnMut(usize, f64),
) -> EvalWeights {
    let w0: Vec<f64> = start.to_vec().into_iter().map(f64::from).collect();
    let mut w = w0.clone();
    let k = w.len();
    let (mut m, mut v) = (vec![0.0; k], vec![0.0; k]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 2.0, 1e-8);
    let n = samples.len().max(1) as f64;
    for it in 1..=iterations {
        let mut grad = vec![0.0; k];
        for s in samples {
            let p = sigmoid(dot(&w, &s.x) / scale);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            for (gi, xi) in grad.iter_mut().zip(&s.x) {
                *gi += g * xi;
            }
        }
        for i in 0..k {
            grad[i] = grad[i] / n + 2.0 * ridge * (w[i] - w0[i]);
        }
        grad[0] = 0.0;
        for i in 0..k {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if it % 100 == 0 || it == iterations {
            progress(it, error(samples, &w, scale));
        }
    }
    let rounded: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    EvalWeights::from_vec(&rounded).unwrap_or_else(|| start.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::selfplay::Rng;

    #[test]
    fn the_fit_moves_a_weight_toward_the_one_that_made_the_results() {
        let start = EvalWeights::DEFAULT;
        let mut truth = start.clone();
        truth.mobile[0] = 80;
        let wt: Vec<f64> = truth.to_vec().into_iter().map(f64::from).collect();
        let scale = 300.0;
        let mut rng = Rng::new(7);
        let samples: Vec<Sample> = (0..600)
            .map(|_| {
                let x: Vec<f64> = (0..EvalWeights::LEN)
                    .map(|_| rng.below(5) as f64 - 2.0)
                    .collect();
                let result = sigmoid(dot(&wt, &x) / scale);
                Sample {
                    x,
                    result,
                    game_type: GameType::BASE,
                }
            })
            .collect();
        let fitted = fit(&samples, &start, scale, 400, 0.0, |_, _| {});
        let before = (start.mobile[0] - 80).abs();
        let after = (fitted.mobile[0] - 80).abs();
        assert!(after * 3 < before, "mobile[0] = {}", fitted.mobile[0]);
        let w0: Vec<f64> = start.to_vec().into_iter().map(f64::from).collect();
        let w1: Vec<f64> = fitted.to_vec().into_iter().map(f64::from).collect();
        assert!(error(&samples, &w1, scale) < error(&samples, &w0, scale));
    }

    /// A data file as `--generate` writes it: two comment lines, then games
    /// alternating Base and Base+MLP, each `plies` plies of moves picked by
    /// a seeded generator, with White's score from that generator too.
    fn alternating_data(games: usize, plies: usize) -> String {
        let mut rng = Rng::new(11);
        let mut text = String::from("# a header\n# and a second line\n");
        for i in 0..games {
            let gt = if i % 2 == 0 {
                GameType::BASE
            } else {
                GameType::MLP
            };
            let mut game = Game::new(gt, Rules::default(), true);
            for _ in 0..plies {
                let moves = game.legal_moves();
                let mv = moves[rng.below(moves.len())];
                game.play(mv).expect("a legal move");
                if game.outcome().is_some() {
                    break;
                }
            }
            let score = ["0", "0.5", "1"][rng.below(3)];
            text.push_str(&format!("{score}\t{}\n", game.game_string()));
        }
        text
    }

    #[test]
    fn search_scores_line_up_with_the_training_samples() {
        let data = alternating_data(20, 12);
        let (train, _) = samples(&data, 6, HoldOut::ByGameType).expect("valid data");
        let scores = search_scores(
            &data,
            6,
            HoldOut::ByGameType,
            2,
            &EvalWeights::DEFAULT,
            |_, _| {},
        )
        .expect("valid data");
        assert_eq!(scores.len(), train.len());
        assert!(scores.iter().all(|s| s.abs() <= SEARCH_SCORE_CAP));
    }

    #[test]
    fn a_surround_in_one_is_searched_as_a_win_for_its_side() {
        // The side to move (Black) can surround the White Queen (the
        // evaluation's crowded-Queen test). Three more plies follow, so
        // that this position is the last one sampled.
        let won = "Base;InProgress;Black[19];wS1;bG1 wS1/;wA1 -wS1;bQ bG1-;wQ wS1\\;bS1 \\bG1;wA1 bQ/;bA1 -bS1;wA2 -wS1;bA1 /wA2;wA3 wA1-;bS1 \\wA3;wA3 bQ\\;bA2 \\bG1;wA3 bA2/;bA3 bS1-;wQ wA2\\;bA1 \\wA2;wS2 /wA2;bA3 wQ\\;wS2 bA3\\;bS2 \\bA1;wG1 wS2\\;bS2 /wA2;wG1 \\bA1;bG2 -bS2;wG2 wA3/;bG2 wS1\\;wG2 /bA2;bB1 /bS2;wG2 /bB1;bB2 bG2-;wG3 /wG2;bB2 bG2;wG3 /bA2;bB2 wQ;wG3 wA1\\";
        let mut game = Game::from_game_string(won, Rules::default(), true).expect("valid");
        let mover = game.position().side_to_move();
        let plies = game.position().moves().count();
        while game.position().moves().count() < plies + 3 {
            let moves = game.legal_moves();
            // Any move that does not end the game.
            let mv = moves
                .iter()
                .copied()
                .find(|&mv| {
                    let mut g = game.clone();
                    g.play(mv).is_ok() && g.outcome().is_none()
                })
                .expect("a move that plays on");
            game.play(mv).expect("legal");
        }
        let data = format!("0.5\t{}\n", game.game_string());
        let scores = search_scores(
            &data,
            plies,
            HoldOut::ByGameType,
            2,
            &EvalWeights::DEFAULT,
            |_, _| {},
        )
        .expect("valid data");
        let white = if mover == Color::White { 1.0 } else { -1.0 };
        assert_eq!(scores, vec![white * SEARCH_SCORE_CAP]);
    }

    #[test]
    fn blending_mixes_the_search_prediction_with_the_result() {
        let sample = |result| Sample {
            x: vec![0.0; EvalWeights::LEN],
            result,
            game_type: GameType::BASE,
        };
        let mut train = vec![sample(1.0), sample(0.0)];
        blend_search_scores(&mut train, &[0.0, 200.0], 200.0, 0.25);
        assert!((train[0].result - (0.25 * 0.5 + 0.75)).abs() < 1e-12);
        assert!((train[1].result - 0.25 * sigmoid(1.0)).abs() < 1e-12);
    }

    #[test]
    fn the_hold_out_has_every_game_type_of_the_data() {
        let data = alternating_data(40, 14);
        let share =
            |samples: &[Sample], gt: GameType| samples.iter().filter(|s| s.game_type == gt).count();
        let (train, test) = samples(&data, 6, HoldOut::ByGameType).expect("valid data");
        // Games 10 and 20 of each type: two of the twenty of each.
        for gt in [GameType::BASE, GameType::MLP] {
            assert!(share(&test, gt) > 0, "{gt} held out");
            assert!(share(&train, gt) > 4 * share(&test, gt), "{gt} trained on");
        }
        // The old split takes every tenth line of such a file: Base+MLP
        // games only.
        let (_, test) = samples(&data, 6, HoldOut::EveryTenthLine).expect("valid data");
        assert!(!test.is_empty());
        assert_eq!(share(&test, GameType::BASE), 0);
    }
}
