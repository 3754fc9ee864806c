//! Time management: a soft deadline (do not start another iteration) and a
//! hard deadline (abort the search now), from a fixed move time or a game
//! clock.

use super::params::{CLOCK_MOVES_TO_GO, MOVE_OVERHEAD_MS, SOFT_FRACTION};
use std::time::{Duration, Instant};

/// A game clock: time left and increment per move for both sides, as sent
/// by the `bestmove clock` UHP extension.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Clock {
    /// White's remaining time.
    pub white_time: Duration,
    /// Black's remaining time.
    pub black_time: Duration,
    /// White's increment per move.
    pub white_inc: Duration,
    /// Black's increment per move.
    pub black_inc: Duration,
}

/// Deadlines of one search.
#[derive(Copy, Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
}

impl TimeManager {
    /// Deadlines for a search that started at `start`.
    ///
    /// * `move_time` (UHP `bestmove time`): the answer must come within it;
    ///   the hard deadline keeps [`MOVE_OVERHEAD_MS`] (at most a tenth) in
    ///   reserve and no iteration starts after [`SOFT_FRACTION`] of it.
    /// * `clock` with `our_time`/`our_inc` already picked for the side to
    ///   move: a budget of `time / CLOCK_MOVES_TO_GO + ¾ · increment`, a
    ///   hard limit of three budgets but never more than a quarter of the
    ///   time left.
    ///
    /// With both, the tighter wins; with neither, there is no deadline.
    pub fn new(
        start: Instant,
        move_time: Option<Duration>,
        clock: Option<(Duration, Duration)>,
    ) -> Self {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let tighter = |a: Option<Duration>, b: Duration| Some(a.map_or(b, |a| a.min(b)));
        if let Some(t) = move_time {
            let reserve = Duration::from_millis(MOVE_OVERHEAD_MS).min(t / 10);
            let h = t.saturating_sub(reserve);
            hard = tighter(hard, h);
            soft = tighter(soft, h.mul_f64(SOFT_FRACTION));
        }
        if let Some((left, inc)) = clock {
            let overhead = Duration::from_millis(MOVE_OVERHEAD_MS);
            let usable = left.saturating_sub(overhead);
            let budget = usable / CLOCK_MOVES_TO_GO as u32 + inc.mul_f64(0.75);
            let h = (budget * 3).min(usable / 4 + inc.mul_f64(0.75)).min(usable);
            let h = h.max(Duration::from_millis(1));
            hard = tighter(hard, h);
            soft = tighter(soft, budget.min(h).mul_f64(SOFT_FRACTION * 1.2));
        }
        TimeManager {
            start,
            soft: soft.map(|d| start + d),
            hard: hard.map(|d| start + d),
        }
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search must stop now.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether another iteration should not be started.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| Instant::now() >= s)
    }

    /// Whether any deadline is set.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_time_keeps_a_reserve() {
        let start = Instant::now();
        let tm = TimeManager::new(start, Some(Duration::from_secs(1)), None);
        let hard = tm.hard.expect("hard") - start;
        let soft = tm.soft.expect("soft") - start;
        assert!(hard < Duration::from_secs(1) && hard >= Duration::from_millis(950));
        assert!(soft < hard);
    }

    #[test]
    fn clock_budget_is_a_fraction_of_the_time_left() {
        let start = Instant::now();
        let tm = TimeManager::new(
            start,
            None,
            Some((Duration::from_secs(60), Duration::from_secs(1))),
        );
        let hard = tm.hard.expect("hard") - start;
        assert!(hard <= Duration::from_secs(16), "{hard:?}");
        assert!(hard >= Duration::from_secs(2), "{hard:?}");
        let tm = TimeManager::new(
            start,
            None,
            Some((Duration::from_millis(40), Duration::ZERO)),
        );
        assert!(tm.hard.expect("hard") - start <= Duration::from_millis(10));
    }

    #[test]
    fn no_limit_no_deadline() {
        let tm = TimeManager::new(Instant::now(), None, None);
        assert!(!tm.is_timed() && !tm.hard_expired() && !tm.soft_expired());
    }
}
