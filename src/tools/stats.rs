//! Match statistics: Elo difference with its 95% interval, and the sequential
//! probability ratio test (SPRT) used to stop a match once it is decided.
//!
//! Both use the logistic Elo model, where a player `d` Elo stronger expects a
//! score of `1 / (1 + 10^(-d/400))`, and the trinomial (win/draw/loss) normal
//! approximation of the per-game score. The SPRT is the generalised SPRT of
//! Michel Van den Bergh ("A practical introduction to the GSPRT", 2016), in
//! the normal approximation that fishtest uses:
//!
//! ```text
//! LLR ≈ N · (s1 − s0) · (2·x̄ − s0 − s1) / (2·σ²)
//! ```
//!
//! with `x̄` the mean score per game, `σ²` its per-game variance (both with
//! a small prior, see [`Sprt::llr`]) and `s0`, `s1` the expected scores at
//! `elo0` and `elo1`. The test accepts H1
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
        let n = f64::from(self.games());
        (n > 0.0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n)
    }

    /// Variance of the per-game score around its mean.
    fn variance(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let m = self.score()?;
        Some(
            (f64::from(self.wins) * (1.0 - m).powi(2)
                + f64::from(self.draws) * (0.5 - m).powi(2)
                + f64::from(self.losses) * m.powi(2))
                / n,
        )
    }

    /// The Elo difference these counts suggest, with its 95% confidence
    /// interval. Infinite values mean a score of 0% or 100%.
    pub fn elo(&self) -> Option<EloEstimate> {
        let m = self.score()?;
        let se = (self.variance()? / f64::from(self.games())).sqrt();
        let clamp = |s: f64| s.clamp(0.0, 1.0);
        Some(EloEstimate {
            elo: elo_from_score(m),
            low: elo_from_score(clamp(m - Z_95 * se)),
            high: elo_from_score(clamp(m + Z_95 * se)),
        })
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

    /// The log-likelihood ratio of H1 against H0 given these counts (0 with
    /// no games). The mean and variance are taken with a prior of half a
    /// win, half a draw and half a loss added to the counts: without it a
    /// one-sided start (one loss, or only draws) has no spread, and the
    /// normal approximation would decide the test after a single game. The
    /// prior's weight vanishes as games accumulate.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let (w, d, l) = (
            f64::from(wdl.wins) + 0.5,
            f64::from(wdl.draws) + 0.5,
            f64::from(wdl.losses) + 0.5,
        );
        let n = w + d + l;
        let m = (w + 0.5 * d) / n;
        let var = (w * (1.0 - m).powi(2) + d * (0.5 - m).powi(2) + l * m.powi(2)) / n;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        f64::from(wdl.games()) * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var)
    }

    /// Whether the test is decided.
    pub fn decision(&self, wdl: &Wdl) -> SprtDecision {
        let (low, high) = self.bounds();
        let llr = self.llr(wdl);
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
        let strong = Wdl {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        assert_eq!(sprt.decision(&strong), SprtDecision::H1);
        assert_eq!(sprt.decision(&strong.flipped()), SprtDecision::H0);
        assert_eq!(sprt.decision(&Wdl::default()), SprtDecision::Continue);
        let close = Wdl {
            wins: 11,
            draws: 10,
            losses: 10,
        };
        assert_eq!(sprt.decision(&close), SprtDecision::Continue);
        let all_wins = Wdl {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        assert_eq!(sprt.decision(&all_wins), SprtDecision::H1);
        for one in [
            Wdl {
                wins: 1,
                ..Wdl::default()
            },
            Wdl {
                draws: 1,
                ..Wdl::default()
            },
            Wdl {
                losses: 1,
                ..Wdl::default()
            },
        ] {
            assert_eq!(sprt.decision(&one), SprtDecision::Continue, "{one:?}");
        }
    }
}
