//! `waggle spsa`: tunes a few evaluation weights by the results of games
//! rather than by how well the evaluation predicts them (the Texel fit of
//! `waggle tune`), and the search's margins and reductions
//! ([`SearchParams`]), which no fit can reach.
//!
//! SPSA (simultaneous perturbation stochastic approximation, Spall 1992)
//! as fishtest runs it for Stockfish: each step draws a random sign Δᵢ = ±1
//! for every tuned weight, plays one pair of games (one opening, colours
//! swapped) between the weights θ + cₖΔ and θ − cₖΔ, and moves
//! θ ← θ + Rₖ·cₖ·r·Δ, where r is the plus side's wins minus losses in the
//! pair (−2 to 2). The gains shrink over the run, as in fishtest:
//!
//! - cₖ = c / k^γ, with c = c_end·N^γ, so the last step perturbs by c_end;
//! - aₖ = a / (A + k)^α, with A = N/10 and a = r_end·c_end²·(A + N)^α;
//! - Rₖ = aₖ / cₖ², so the last step moves by r_end·c_end per point of r;
//!
//! where k counts pairs from 1 to N, α = 0.602 and γ = 0.101.
//!
//! The games are in-process with a node budget per move (see
//! [`crate::tools::selfplay`]), so a run is reproducible from its seed and
//! batch size (the pairs of a batch all start from the same θ), however
//! many threads play them.

use crate::engine::params::SearchParams;
pub use crate::engine::params::{tunable_index, tunable_name, TUNABLES};
use crate::engine::{EvalWeights, Features};
use crate::hive::GameType;
use crate::tools::selfplay::{play_game, Player, Rng};
use rayon::prelude::*;

/// The exponent of the step size's decay.
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;

/// One tuned weight or search parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its index among the tunables: [`EvalWeights::to_vec`]'s entries, then
    /// [`SearchParams::to_vec`]'s (see [`tunable_index`]).
    pub index: usize,
    /// The perturbation at the last step, in the weight's unit.
    pub c_end: f64,
    /// The learning rate at the last step (fishtest's `r_end`): the step
    /// moves the weight by `r_end·c_end` per point the plus side wins.
    pub r_end: f64,
}

/// The state of an SPSA run: the tuned weights (as reals) and the gains.
#[derive(Clone, Debug)]
pub struct Spsa {
    theta: Vec<f64>,
    c: Vec<f64>,
    a: Vec<f64>,
    big_a: f64,
    k: usize,
}

impl Spsa {
    /// A run of `pairs` steps from the weights `theta` (one per entry of
    /// `params`).
    pub fn new(theta: Vec<f64>, params: &[Param], pairs: usize) -> Spsa {
        assert_eq!(theta.len(), params.len());
        let n = pairs.max(1) as f64;
        let big_a = 0.1 * n;
        Spsa {
            theta,
            c: params.iter().map(|p| p.c_end * n.powf(GAMMA)).collect(),
            a: params
                .iter()
                .map(|p| p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA))
                .collect(),
            big_a,
            k: 0,
        }
    }

    /// The weights now.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.k
    }

    /// The perturbation of each weight at the next step.
    pub fn perturbation(&self) -> Vec<f64> {
        let k = (self.k + 1) as f64;
        self.c.iter().map(|c| c / k.powf(GAMMA)).collect()
    }

    /// The two sides of the next step's pair for the signs `flips` (±1):
    /// θ + cₖΔ and θ − cₖΔ.
    pub fn sides(&self, flips: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let c = self.perturbation();
        let side = |sign: f64| {
            self.theta
                .iter()
                .zip(&c)
                .zip(flips)
                .map(|((t, c), f)| t + sign * c * f)
                .collect()
        };
        (side(1.0), side(-1.0))
    }

    /// Takes one step: the pair played with the signs `flips` ended with
    /// `result` = the plus side's wins minus losses.
    pub fn update(&mut self, flips: &[f64], result: f64) {
        let c = self.perturbation();
        let k = (self.k + 1) as f64;
        for i in 0..self.theta.len() {
            let a = self.a[i] / (self.big_a + k).powf(ALPHA);
            let r = a / (c[i] * c[i]);
            self.theta[i] += r * c[i] * result * flips[i];
        }
        self.k += 1;
    }
}

/// A perturbation to tune the tunable at `index` with when none is given:
/// `weights_c_end` for a weight, [`SearchParams::C_END`] for a search
/// parameter.
pub fn default_c_end(index: usize, weights_c_end: f64) -> f64 {
    if index < EvalWeights::LEN {
        weights_c_end
    } else {
        SearchParams::C_END[index - EvalWeights::LEN]
    }
}

/// What `waggle spsa` runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game type of the games.
    pub game_type: GameType,
    /// The weights the untuned entries keep and the tuned ones start from.
    pub start: EvalWeights,
    /// The search parameters the untuned entries keep and the tuned ones
    /// start from.
    pub start_search: SearchParams,
    /// The tuned weights and search parameters.
    pub params: Vec<Param>,
    /// Steps (pairs of games) in all.
    pub pairs: usize,
    /// Pairs played at once (each with its own signs, all from the same θ).
    pub batch: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// Seed of the signs and the random openings.
    pub seed: u64,
}

/// Random opening plies of each game (as `waggle selfplay`).
pub const RANDOM_PLIES: usize = 4;
/// A game still going after this many plies is drawn.
pub const MAX_PLIES: usize = 300;

/// The progress after each batch.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// Pairs played.
    pub pairs: usize,
    /// The plus sides' points over all games so far.
    pub plus_points: f64,
    /// The weights now.
    pub theta: &'a [f64],
}

/// Every tunable's start value, by index (see [`tunable_name`]).
pub fn start_values(cfg: &Config) -> Vec<f64> {
    crate::engine::params::tunable_values(&cfg.start, &cfg.start_search)
}

/// Plays `cfg.pairs` pairs and returns the tuned values (as reals, in the
/// order of `cfg.params`), calling `report` after each batch.
pub fn run(cfg: &Config, mut report: impl FnMut(&Progress)) -> Vec<f64> {
    let base = start_values(cfg);
    let theta: Vec<f64> = cfg.params.iter().map(|p| base[p.index]).collect();
    let mut spsa = Spsa::new(theta, &cfg.params, cfg.pairs);
    let mut rng = Rng::new(cfg.seed);
    let mut plus_points = 0.0;
    let player = |values: &[f64]| {
        let (weights, search) = tuned(cfg, values);
        Player {
            weights,
            features: Features::DEFAULT,
            nodes: cfg.nodes,
            move_time: None,
            search,
            threads: 1,
        }
    };
    while spsa.steps() < cfg.pairs {
        let n = cfg.batch.max(1).min(cfg.pairs - spsa.steps());
        let jobs: Vec<(Vec<f64>, u64)> = (0..n)
            .map(|_| {
                let flips = cfg
                    .params
                    .iter()
                    .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
                    .collect();
                (flips, rng.next_u64())
            })
            .collect();
        let results: Vec<f64> = jobs
            .par_iter()
            .map(|(flips, opening)| {
                let (plus, minus) = spsa.sides(flips);
                let (plus, minus) = (player(&plus), player(&minus));
                let first = play_game(
                    cfg.game_type,
                    &plus,
                    &minus,
                    RANDOM_PLIES,
                    MAX_PLIES,
                    *opening,
                );
                let second = play_game(
                    cfg.game_type,
                    &minus,
                    &plus,
                    RANDOM_PLIES,
                    MAX_PLIES,
                    *opening,
                );
                first.white_score + (1.0 - second.white_score)
            })
            .collect();
        for ((flips, _), points) in jobs.iter().zip(results) {
            plus_points += points;
            // Wins minus losses of the pair: 2 points is +2, 1 point is 0.
            spsa.update(flips, 2.0 * points - 2.0);
        }
        report(&Progress {
            pairs: spsa.steps(),
            plus_points,
            theta: spsa.theta(),
        });
    }
    spsa.theta().to_vec()
}

/// The start weights and search parameters with the tuned entries replaced
/// by `theta` (weights rounded; search parameters as
/// [`SearchParams::from_vec`] keeps them).
pub fn tuned(cfg: &Config, theta: &[f64]) -> (EvalWeights, SearchParams) {
    let mut v = start_values(cfg);
    for (p, x) in cfg.params.iter().zip(theta) {
        v[p.index] = *x;
    }
    crate::engine::params::from_tunable_values(&v)
        .unwrap_or_else(|| (cfg.start.clone(), cfg.start_search))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::params;

    fn param(c_end: f64, r_end: f64) -> Param {
        Param {
            index: 0,
            c_end,
            r_end,
        }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end() {
        let params = [param(4.0, 0.01), param(10.0, 0.002)];
        let mut spsa = Spsa::new(vec![0.0, 0.0], &params, 1000);
        // The first perturbation is N^γ times the last.
        let first = spsa.perturbation();
        assert!((first[0] - 4.0 * 1000f64.powf(GAMMA)).abs() < 1e-9);
        for _ in 0..999 {
            spsa.update(&[1.0, 1.0], 0.0);
        }
        let last = spsa.perturbation();
        assert!((last[0] - 4.0).abs() < 1e-9, "{last:?}");
        assert!((last[1] - 10.0).abs() < 1e-9, "{last:?}");
        // The last step moves a weight by r_end·c_end per point.
        let before = spsa.theta().to_vec();
        spsa.update(&[1.0, -1.0], 2.0);
        let moved: Vec<f64> = spsa
            .theta()
            .iter()
            .zip(&before)
            .map(|(a, b)| a - b)
            .collect();
        assert!((moved[0] - 0.01 * 4.0 * 2.0).abs() < 1e-9, "{moved:?}");
        assert!((moved[1] + 0.002 * 10.0 * 2.0).abs() < 1e-9, "{moved:?}");
        assert_eq!(spsa.steps(), 1000);
    }

    #[test]
    fn the_sides_differ_by_the_signed_perturbation() {
        let spsa = Spsa::new(vec![10.0, -5.0], &[param(3.0, 0.01), param(3.0, 0.01)], 1);
        let (plus, minus) = spsa.sides(&[1.0, -1.0]);
        assert_eq!(plus, vec![13.0, -8.0]);
        assert_eq!(minus, vec![7.0, -2.0]);
    }

    /// A noisy game in which the side whose weight is nearer `best` wins
    /// more often: SPSA's steps must take the weight there.
    #[test]
    fn noisy_results_lead_the_weights_to_the_stronger_values() {
        let best = [40.0, -20.0];
        let params = [param(4.0, 0.05), param(4.0, 0.05)];
        let pairs = 4000;
        let mut spsa = Spsa::new(vec![0.0, 0.0], &params, pairs);
        let mut rng = Rng::new(7);
        let uniform = |rng: &mut Rng| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        for _ in 0..pairs {
            let flips: Vec<f64> = (0..2)
                .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
                .collect();
            let (plus, minus) = spsa.sides(&flips);
            let loss =
                |t: &[f64]| -> f64 { t.iter().zip(&best).map(|(x, b)| (x - b).powi(2)).sum() };
            // The plus side scores 50% plus a few points for being nearer.
            let edge = ((loss(&minus) - loss(&plus)) / 2000.0).clamp(-0.4, 0.4);
            let mut result = 0.0;
            for _ in 0..2 {
                let u = uniform(&mut rng);
                if u < 0.45 + edge / 2.0 {
                    result += 1.0;
                } else if u > 0.55 + edge / 2.0 {
                    result -= 1.0;
                }
            }
            spsa.update(&flips, result);
        }
        let theta = spsa.theta();
        assert!((theta[0] - best[0]).abs() < 10.0, "{theta:?}");
        assert!((theta[1] - best[1]).abs() < 10.0, "{theta:?}");
    }

    #[test]
    fn a_run_is_reproducible_from_its_seed_and_batch() {
        let index = EvalWeights::weight_index("mobile.A").expect("a weight");
        let cfg = |batch| Config {
            game_type: GameType::BASE,
            start: EvalWeights::DEFAULT,
            start_search: SearchParams::DEFAULT,
            params: vec![Param {
                index,
                c_end: 20.0,
                r_end: 0.05,
            }],
            pairs: 3,
            batch,
            nodes: 200,
            seed: 5,
        };
        let mut reports = Vec::new();
        let one = run(&cfg(1), |p| {
            reports.push((p.pairs, p.plus_points, p.theta[0]));
        });
        assert_eq!(reports.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3]);
        // A pair moves the weight exactly when it was not split 1-1.
        let mut before = (0.0, f64::from(EvalWeights::DEFAULT.mobile[4]));
        for &(_, points, theta) in &reports {
            let pair = points - before.0;
            assert!((0.0..=2.0).contains(&pair), "{reports:?}");
            assert_eq!(pair == 1.0, theta == before.1, "{reports:?}");
            before = (points, theta);
        }
        assert_eq!(one, [before.1]);
        // Three pairs at once, on as many threads as rayon has.
        let three = run(&cfg(3), |p| assert_eq!(p.pairs, 3));
        assert_eq!(three, run(&cfg(3), |_| {}));
        let (w, search) = tuned(&cfg(1), &one);
        assert_eq!(
            w.mobile[crate::hive::Bug::Ant.index()],
            one[0].round() as i32
        );
        assert_eq!(w.tempo, EvalWeights::DEFAULT.tempo);
        assert_eq!(search, SearchParams::DEFAULT);
    }

    #[test]
    fn every_tunable_name_round_trips_and_search_parameters_follow_the_weights() {
        for i in 0..TUNABLES {
            let name = tunable_name(i).expect("a name");
            assert_eq!(tunable_index(&name), Some(i), "{name}");
        }
        assert_eq!(tunable_name(TUNABLES), None);
        assert_eq!(tunable_index("no_such"), None);
        let futility = tunable_index("futility_margin").expect("a search parameter");
        assert_eq!(futility, EvalWeights::LEN + 1);
        assert_eq!(default_c_end(futility, 6.0), SearchParams::C_END[1]);
        assert_eq!(default_c_end(0, 6.0), 6.0);
    }

    /// The players of a run with a search parameter tuned search with it,
    /// and the untuned weights and parameters stay the start's.
    #[test]
    fn a_tuned_search_parameter_reaches_the_players() {
        let index = |name| tunable_index(name).expect("a tunable");
        let cfg = Config {
            game_type: GameType::BASE,
            start: EvalWeights::ROUND_SEVEN,
            start_search: SearchParams {
                null_base: 2,
                ..SearchParams::DEFAULT
            },
            params: [
                ("lmr_divisor", 0.2),
                ("futility_margin", 15.0),
                ("tempo", 6.0),
            ]
            .iter()
            .map(|&(name, c_end)| Param {
                index: index(name),
                c_end,
                r_end: 0.02,
            })
            .collect(),
            pairs: 2,
            batch: 2,
            nodes: 200,
            seed: 3,
        };
        let start = start_values(&cfg);
        assert_eq!(start[index("null_base")], 2.0);
        assert_eq!(start[index("lmr_divisor")], params::LMR_DIVISOR);
        let (w, search) = tuned(&cfg, &[1.37, 123.6, 40.4]);
        assert_eq!(search.lmr_divisor, 1.37);
        assert_eq!(search.futility_margin, 124);
        assert_eq!(search.null_base, 2);
        assert_eq!(search.rfp_margin, params::RFP_MARGIN);
        assert_eq!(w.tempo, 40);
        assert_eq!(w.mobile, EvalWeights::ROUND_SEVEN.mobile);
        // A run plays its games with them.
        let theta = run(&cfg, |_| {});
        assert_eq!(theta.len(), 3);
        assert!(theta.iter().all(|x| x.is_finite()), "{theta:?}");
    }
}
