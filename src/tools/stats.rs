//! Match statistics: Elo difference with its 95% interval, and the sequential
//! probability ratio test (SPRT) used to stop a match once it is decided.
//!
//! Both use the logistic Elo model, where a player `d` Elo stronger expects a
//! score of `1 / (1 + 10^(-d/400))`, and a normal approximation of the mean
//! score. Games are counted two ways: one by one as wins, draws and losses
//! ([`Wdl`], the trinomial model), and as pairs that play the same opening
//! with colours swapped, by the points a side took from each pair
//! ([`Pentanomial`], 0, ½, 1, 1½ or 2). The pairs are what the arena plays,
//! and their spread is the honest one: an opening that wins for White, or for
//! the stronger side, makes the two games of a pair depend on each other,
//! which the game-by-game variance does not see.
//!
//! The SPRT is the generalised SPRT of Michel Van den Bergh ("A practical
//! introduction to the GSPRT", 2016) on the pairs, in the normal
//! approximation that fishtest uses:
//!
//! ```text
//! LLR ≈ N · (s1 − s0) · (2·x̄ − s0 − s1) / (2·σ²)
//! ```
//!
//! with `N` the pairs played, `x̄` the mean score per game of a pair, `σ²` its
//! variance from pair to pair (both with a small prior, see [`Sprt::llr`]) and
//! `s0`, `s1` the expected scores at `elo0` and `elo1`. The test accepts H1
//! (`elo ≥ elo1`) when the LLR reaches `ln((1 − β) / α)` and H0
//! (`elo ≤ elo0`) when it falls to `ln(β / (1 − α))`.

/// Win, draw and loss counts from one side's point of view.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The 97.5% quantile of the standard normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same counts from the opponent's point of view.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Mean score per game (a win is 1, a draw ½), or `None` with no games.
    pub fn score(&self) -> Option<f64> {
        Moments::of(&self.outcomes()).map(|m| m.mean)
    }

    /// The outcomes as (score of a game, games).
    fn outcomes(&self) -> [(f64, f64); 3] {
        [
            (1.0, f64::from(self.wins)),
            (0.5, f64::from(self.draws)),
            (0.0, f64::from(self.losses)),
        ]
    }

    /// The Elo difference these counts suggest, with its 95% confidence
    /// interval, counting the games as independent. Infinite values mean a
    /// score of 0% or 100%.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(Moments::of(&self.outcomes())?.elo())
    }
}

/// Game pairs, each one opening played twice with colours swapped, counted
/// by the points one side took from the pair: `counts[k]` pairs brought it
/// `k` half-points (0, ½, 1, 1½ or 2 points).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Pentanomial {
    /// Pairs by half-points taken, 0 to 4.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Counts a pair from the side's two results, in half-points each
    /// (0 a loss, 1 a draw, 2 a win).
    ///
    /// # Panics
    /// If a result is above 2.
    pub fn add(&mut self, first: u8, second: u8) {
        assert!(
            first <= 2 && second <= 2,
            "a game is worth 0 to 2 half-points"
        );
        self.counts[usize::from(first + second)] += 1;
    }

    /// The same pairs from the opponent's point of view.
    pub fn flipped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// Mean score per game, or `None` with no pairs.
    pub fn score(&self) -> Option<f64> {
        Moments::of(&self.outcomes()).map(|m| m.mean)
    }

    /// The outcomes as (score per game of a pair, pairs).
    fn outcomes(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, f64::from(self.counts[k])))
    }

    /// The Elo difference these pairs suggest, with its 95% confidence
    /// interval from the spread between pairs. Infinite values mean a score
    /// of 0% or 100%.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(Moments::of(&self.outcomes())?.elo())
    }
}

/// Trials (games or pairs) with the mean of their scores and the variance of
/// one trial's score around it.
struct Moments {
    trials: f64,
    mean: f64,
    variance: f64,
}

impl Moments {
    /// From (score, trials with that score); `None` with no trials.
    fn of(outcomes: &[(f64, f64)]) -> Option<Moments> {
        let trials: f64 = outcomes.iter().map(|&(_, n)| n).sum();
        if trials <= 0.0 {
            return None;
        }
        let mean = outcomes.iter().map(|&(x, n)| x * n).sum::<f64>() / trials;
        let variance = outcomes
            .iter()
            .map(|&(x, n)| n * (x - mean).powi(2))
            .sum::<f64>()
            / trials;
        Some(Moments {
            trials,
            mean,
            variance,
        })
    }

    /// The Elo difference of the mean, with its 95% interval.
    fn elo(&self) -> EloEstimate {
        let se = (self.variance / self.trials).sqrt();
        let clamp = |s: f64| s.clamp(0.0, 1.0);
        EloEstimate {
            elo: elo_from_score(self.mean),
            low: elo_from_score(clamp(self.mean - Z_95 * se)),
            high: elo_from_score(clamp(self.mean + Z_95 * se)),
        }
    }
}

/// An Elo difference and its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// Most likely difference.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The Elo difference that gives an expected score `s` (0 to 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Parameters of a sequential probability ratio test.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum SprtDecision {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the difference is at most `elo0`.
    H0,
    /// H1 accepted: the difference is at least `elo1`.
    H1,
}

impl Sprt {
    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 given these pairs (0 with
    /// none). The mean and variance are taken with a prior of a tenth of a
    /// pair of each outcome (half a pair in all) added to the counts: without
    /// it a one-sided start (one pair of two wins, or only split pairs) has
    /// no spread, and the normal approximation would decide the test after a
    /// single pair. The prior's weight vanishes as pairs accumulate.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let with_prior = pairs.outcomes().map(|(x, n)| (x, n + 0.1));
        let Some(m) = Moments::of(&with_prior) else {
            return 0.0;
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        f64::from(pairs.pairs()) * (s1 - s0) * (2.0 * m.mean - s0 - s1) / (2.0 * m.variance)
    }

    /// Whether the test is decided.
    pub fn decision(&self, pairs: &Pentanomial) -> SprtDecision {
        let (low, high) = self.bounds();
        let llr = self.llr(pairs);
        if llr >= high {
            SprtDecision::H1
        } else if llr <= low {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Formats an Elo value, writing infinities as `inf` / `-inf`.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        // No "-0.0" for a value that rounds to zero.
        let e = if e.abs() < 0.05 { 0.0 } else { e };
        format!("{e:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_scores_give_zero_elo() {
        let wdl = Wdl {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        let e = wdl.elo().unwrap();
        assert!(e.elo.abs() < 1e-9);
        assert!(e.low < 0.0 && e.high > 0.0);
        assert!((e.low + e.high).abs() < 1e-9);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-300.0, -50.0, 0.0, 10.0, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    /// The games of a match, each as (first game, second game) of a pair in
    /// half-points for one side, counted both ways.
    fn count(pairs: &[(u8, u8)]) -> (Wdl, Pentanomial) {
        let mut wdl = Wdl::default();
        let mut penta = Pentanomial::default();
        for &(a, b) in pairs {
            for g in [a, b] {
                match g {
                    2 => wdl.wins += 1,
                    1 => wdl.draws += 1,
                    _ => wdl.losses += 1,
                }
            }
            penta.add(a, b);
        }
        (wdl, penta)
    }

    #[test]
    fn pairs_score_as_their_games_do() {
        let (wdl, penta) = count(&[(2, 0), (2, 1), (1, 1), (0, 0), (2, 2), (2, 0), (2, 1)]);
        assert_eq!(penta.counts, [1, 0, 3, 2, 1]);
        assert_eq!(penta.pairs(), 7);
        assert_eq!(penta.flipped().counts, [1, 2, 3, 0, 1]);
        let (s_games, s_pairs) = (wdl.score().unwrap(), penta.score().unwrap());
        assert!((s_games - s_pairs).abs() < 1e-12, "{s_games} {s_pairs}");
        assert!((s_pairs - 16.0 / 28.0).abs() < 1e-12);
        let e = penta.elo().unwrap();
        assert!((e.elo - wdl.elo().unwrap().elo).abs() < 1e-9);
        assert!(e.low < e.elo && e.elo < e.high);
        let back = penta.flipped().elo().unwrap();
        assert!((back.elo + e.elo).abs() < 1e-9 && (back.low + e.high).abs() < 1e-9);
        assert_eq!(Pentanomial::default().score(), None);
        assert!(Pentanomial::default().elo().is_none());
    }

    #[test]
    fn pairs_see_what_the_opening_decides() {
        // White wins every game: each pair is split, and the pairs show that
        // the two sides are level with no doubt, where the games one by one
        // look like coin flips.
        let (wdl, penta) = count(&[(2, 0), (0, 2), (2, 0), (0, 2), (2, 0), (0, 2)]);
        assert_eq!(penta.counts, [0, 0, 6, 0, 0]);
        let e = penta.elo().unwrap();
        assert!(e.elo.abs() < 1e-9 && e.low.abs() < 1e-9 && e.high.abs() < 1e-9);
        let g = wdl.elo().unwrap();
        assert!(
            g.elo.abs() < 1e-9 && g.low < -100.0 && g.high > 100.0,
            "{g:?}"
        );
        // Pairs that each go one way are the same evidence twice over: the
        // pairs spread wider than the games count.
        let (wdl, penta) = count(&[(2, 2), (0, 0), (2, 2), (0, 0), (2, 2), (1, 1)]);
        let (p, g) = (penta.elo().unwrap(), wdl.elo().unwrap());
        assert!(p.high - p.low > g.high - g.low, "{p:?} {g:?}");
    }

    #[test]
    fn sprt_decides_lopsided_matches() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (low, high) = sprt.bounds();
        assert!((high - 2.944).abs() < 1e-3 && (low + 2.944).abs() < 1e-3);
        let strong = Pentanomial {
            counts: [50, 50, 200, 100, 100],
        };
        assert_eq!(sprt.decision(&strong), SprtDecision::H1);
        assert_eq!(sprt.decision(&strong.flipped()), SprtDecision::H0);
        assert_eq!(
            sprt.decision(&Pentanomial::default()),
            SprtDecision::Continue
        );
        let close = Pentanomial {
            counts: [3, 3, 10, 4, 3],
        };
        assert_eq!(sprt.decision(&close), SprtDecision::Continue);
        let all_wins = Pentanomial {
            counts: [0, 0, 0, 0, 10],
        };
        assert_eq!(sprt.decision(&all_wins), SprtDecision::H1);
        for k in 0..5 {
            let mut one = Pentanomial::default();
            one.counts[k] = 1;
            assert_eq!(sprt.decision(&one), SprtDecision::Continue, "{one:?}");
        }
        // The same games decide sooner when the pairs show that the openings
        // explain most of the spread.
        let split = Pentanomial {
            counts: [0, 10, 100, 30, 0],
        };
        let scattered = Pentanomial {
            counts: [35, 0, 60, 0, 45],
        };
        assert!((split.score().unwrap() - scattered.score().unwrap()).abs() < 1e-12);
        assert!(
            sprt.llr(&split) > sprt.llr(&scattered),
            "{} {}",
            sprt.llr(&split),
            sprt.llr(&scattered)
        );
    }
}
