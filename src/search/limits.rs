//! What bounds a search (depth, nodes, time) and how much of a clock one move may use.
//!
//! The first rule is never to lose on time: every budget keeps a reserve for the pipe and
//! the GUI's own latency, and the hard limit of a move never exceeds what is on the clock
//! minus that reserve, also on the last move before a time control.

use std::time::Duration;

/// The clock as the GUI reports it when a search starts.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    /// Time left on our clock (may be zero or even negative after a late move).
    pub remaining: Duration,
    /// Added after each of our moves.
    pub increment: Duration,
    /// Moves until the next time control adds time, if the control is conventional.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Any combination may be set; the search stops at the first one
/// reached. With none set it runs until stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after the iteration of this many plies (CECP `sd`).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (the `nps` node clock, hints, tests).
    pub nodes: Option<u64>,
    /// Fixed time for this move (CECP `st`): a hard cap.
    pub move_time: Option<Duration>,
    /// The game clock, from which a budget for this move is worked out.
    pub clock: Option<Clock>,
    /// Measure time in nodes at this rate instead of on the wall clock (CECP `nps`).
    pub nodes_per_second: Option<u64>,
}

/// Time the search may use for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// After an iteration, don't start another once this much is used (the next one would
    /// most likely not finish).
    pub soft: Duration,
    /// Stop the search, wherever it is, at this much.
    pub hard: Duration,
}

/// Never planned into a budget: covers process scheduling, the pipe and the GUI's
/// clock measurement around each move (on a loaded machine a stopped search has been
/// seen to need over 100 ms more before its move reached the GUI).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);
/// Of a fixed time per move (`st`), this share is kept back too (1/10: 100 ms of 1 s).
const MOVE_TIME_RESERVE_DIVISOR: u32 = 10;
/// The last move before a time control may use this share (in %) of what is left after
/// the reserve: the next session's time is coming, but a slow GUI must not flag us.
const LAST_MOVE_SHARE: u32 = 70;
/// Share of the remaining clock always kept back (on top of the overhead).
const RESERVE_FRACTION: u32 = 20;
/// Moves a sudden-death clock is assumed to need.
const SUDDEN_DEATH_MOVES: u32 = 30;
/// The hard limit may exceed the target by this factor (to finish an iteration or
/// resolve a fail-low), within what the clock allows.
const HARD_FACTOR: u32 = 4;
/// Share of the clock a single move may take at most.
const MAX_SHARE_DIVISOR: u32 = 3;
/// The smallest budget ever given: a move is always produced.
const MIN_BUDGET: Duration = Duration::from_millis(1);
/// Under a clock, a new iteration is not started once this share (in %) of the target
/// time is used: an iteration costs about as much as all earlier ones together.
const NEXT_ITERATION_SHARE: u32 = 55;

impl Budget {
    /// A fixed time per move: use it all (leftover time is lost anyway, and a stopped
    /// iteration still improves the move), minus overhead: a tenth of it, at least
    /// `MOVE_OVERHEAD`, at most a quarter (a tiny `st` still leaves time to search).
    pub fn for_move_time(move_time: Duration) -> Budget {
        let margin = MOVE_OVERHEAD
            .max(move_time / MOVE_TIME_RESERVE_DIVISOR)
            .min(move_time / 4);
        let hard = move_time.saturating_sub(margin).max(MIN_BUDGET);
        Budget { soft: hard, hard }
    }

    /// A share of the clock.
    pub fn for_clock(clock: &Clock) -> Budget {
        let reserve = MOVE_OVERHEAD.saturating_add(clock.remaining / RESERVE_FRACTION);
        let usable = clock.remaining.saturating_sub(reserve);
        let moves = clock.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).max(1);
        // With several moves to go the increment of the moves after this one is coming,
        // so most of this move's share of it can be spent now.
        let target = (usable / moves).saturating_add(clock.increment.saturating_mul(3) / 4);
        let cap = if moves == 1 {
            usable / 100 * LAST_MOVE_SHARE
        } else {
            usable / MAX_SHARE_DIVISOR
        };
        let hard = target.saturating_mul(HARD_FACTOR).min(cap).max(MIN_BUDGET);
        let soft = (target.min(hard).saturating_mul(NEXT_ITERATION_SHARE) / 100).max(MIN_BUDGET);
        Budget { soft, hard }
    }

    /// The budget for `limits`, if any time limit applies (the tighter of `st` and the
    /// clock when both are given).
    pub fn for_limits(limits: &Limits) -> Option<Budget> {
        let by_move = limits.move_time.map(Budget::for_move_time);
        let by_clock = limits.clock.as_ref().map(Budget::for_clock);
        match (by_move, by_clock) {
            (Some(a), Some(b)) => Some(Budget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
            }),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> Budget {
        Budget::for_clock(&Clock {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go,
        })
    }

    /// Named clock situations: the hard limit must always leave time on the clock.
    #[test]
    fn budgets_never_spend_the_whole_clock() {
        let cases = [
            ("10+0.1 at the start", 10_000, 100, None),
            ("10+0.1 nearly flagged", 300, 100, None),
            ("one second left, no increment", 1_000, 0, None),
            ("40/5 with one move to the control", 3_000, 0, Some(1)),
            ("40/5 with one move and 100 ms left", 100, 0, Some(1)),
            ("increment larger than the clock", 200, 5_000, None),
            ("zero on the clock", 0, 0, None),
            ("2+12", 120_000, 12_000, None),
        ];
        for (name, remaining, inc, mtg) in cases {
            let b = clock(remaining, inc, mtg);
            assert!(b.soft <= b.hard, "{name}: {b:?}");
            if remaining > 100 {
                assert!(b.hard + MOVE_OVERHEAD <= ms(remaining), "{name}: {b:?}");
            }
            assert!(b.hard >= MIN_BUDGET, "{name}");
        }
    }

    /// The largest durations a `Clock` can hold saturate instead of overflowing.
    #[test]
    fn budgets_of_enormous_clocks_do_not_overflow() {
        let cases = [
            (
                "everything at the maximum",
                Duration::MAX,
                Duration::MAX,
                None,
            ),
            (
                "maximum clock, one move",
                Duration::MAX,
                Duration::ZERO,
                Some(1),
            ),
            ("maximum increment", ms(1_000), Duration::MAX, Some(40)),
            ("u64::MAX ms on the clock", ms(u64::MAX), ms(u64::MAX), None),
        ];
        for (name, remaining, increment, moves_to_go) in cases {
            let b = Budget::for_clock(&Clock {
                remaining,
                increment,
                moves_to_go,
            });
            assert!(b.soft <= b.hard, "{name}: {b:?}");
            assert!(b.hard >= MIN_BUDGET, "{name}: {b:?}");
        }
    }

    #[test]
    fn conventional_control_spreads_time_over_the_moves_to_go() {
        let b = clock(300_000, 0, Some(40));
        let target = b.soft * 100 / NEXT_ITERATION_SHARE;
        assert!(target > ms(6_000) && target < ms(8_000), "{b:?}");
        let last = clock(10_000, 0, Some(1));
        // The last move before the control keeps over a quarter of the clock.
        assert!(last.hard > ms(6_000) && last.hard < ms(7_500), "{last:?}");
    }

    #[test]
    fn move_time_is_a_hard_cap_with_overhead() {
        let b = Budget::for_move_time(ms(1_000));
        assert_eq!(b.hard, ms(900));
        let tiny = Budget::for_move_time(ms(50));
        assert!(tiny.hard <= ms(50) && tiny.hard >= ms(30), "{tiny:?}");
        let both = Budget::for_limits(&Limits {
            move_time: Some(ms(500)),
            clock: Some(Clock {
                remaining: ms(600),
                increment: ms(0),
                moves_to_go: None,
            }),
            ..Limits::default()
        })
        .unwrap();
        assert!(both.hard < ms(200), "the clock is tighter: {both:?}");
    }
}
