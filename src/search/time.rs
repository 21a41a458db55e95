//! Time: how much of the clock one move may use, when the search stops, when it starts
//! no new iteration, and the node clock that stands in for the wall clock under `nps`.
//!
//! The first rule is never to lose on time: every budget keeps a reserve for the pipe and
//! the GUI's own latency, and the hard limit of a move never exceeds what is on the clock
//! minus that reserve, also on the last move before a time control. Between iterations
//! the soft deadline is stretched while the best move keeps changing or the score falls,
//! and shrunk while it stays put; a move that is forced is played after one iteration.

use super::params::*;
use super::request::{Clock, Limits};
use std::time::Duration;

/// Time the search may use for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// After an iteration, don't start another once this much is used (the next one would
    /// most likely not finish).
    pub soft: Duration,
    /// Stop the search, wherever it is, at this much.
    pub hard: Duration,
}

impl Budget {
    /// A fixed time per move: use it all (leftover time is lost anyway, and a stopped
    /// iteration still improves the move), minus overhead: a share of it, at least
    /// `overhead` (the reserve for the pipe and the GUI), at most a quarter (a tiny `st`
    /// still leaves time to search).
    pub fn for_move_time(move_time: Duration, overhead: Duration) -> Budget {
        let margin = overhead
            .max(move_time / MOVE_TIME_RESERVE_DIVISOR)
            .min(move_time / MOVE_TIME_MAX_RESERVE_DIVISOR);
        let hard = move_time.saturating_sub(margin).max(MIN_BUDGET);
        Budget { soft: hard, hard }
    }

    /// A share of the clock, keeping `overhead` back for the pipe and the GUI.
    pub fn for_clock(clock: &Clock, overhead: Duration) -> Budget {
        let reserve = overhead.saturating_add(clock.remaining / RESERVE_FRACTION);
        let usable = clock.remaining.saturating_sub(reserve);
        let moves = clock.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).max(1);
        // With several moves to go the increment of the moves after this one is coming,
        // so most of this move's share of it can be spent now.
        let spent_increment = clock.increment.saturating_mul(INCREMENT_SPENT) / 100;
        let target = (usable / moves).saturating_add(spent_increment);
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
        let overhead = limits.overhead.unwrap_or(MOVE_OVERHEAD);
        let by_move = limits.move_time.map(|t| Budget::for_move_time(t, overhead));
        let by_clock = limits
            .clock
            .as_ref()
            .map(|c| Budget::for_clock(c, overhead));
        match (by_move, by_clock) {
            (Some(a), Some(b)) => Some(Budget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
            }),
            (a, b) => a.or(b),
        }
    }
}

/// How much to stretch (above 1) or shrink (below 1) the soft deadline after an
/// iteration at `depth`: by how many iterations the best move has stayed the same, and
/// more when the score fell from `previous_score`.
pub fn iteration_time_scale(
    depth: i32,
    stable_iterations: usize,
    score: i32,
    previous_score: i32,
) -> f64 {
    if depth < STABILITY_FROM_DEPTH {
        return 1.0;
    }
    let by_stability = STABILITY_SCALE[stable_iterations.min(STABILITY_SCALE.len() - 1)];
    let dropped = score < previous_score - SCORE_DROP;
    by_stability * if dropped { SCORE_DROP_SCALE } else { 1.0 }
}

/// Whether a move is forced: a single legal move under a running clock leaves nothing to
/// choose (asked after each iteration: a ponder hit starts the clock mid-search).
pub fn is_forced(root_moves: usize, has_deadline: bool) -> bool {
    root_moves == 1 && has_deadline
}

/// Time on the node clock (CECP `nps`): `nodes` searched at `rate` nodes per second.
pub fn node_clock_elapsed(nodes: u64, rate: u64) -> Duration {
    Duration::from_micros(nodes.saturating_mul(1_000_000) / rate.max(1))
}

/// A fixed time per move on the node clock is a node count: `move_time` at `rate` nodes
/// per second (python-chess's `nps 1` + `st N`, cutechess's `st 1` + `nps N`), at least 1.
pub fn node_budget(move_time: Duration, rate: u64) -> u64 {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "`as` from a float saturates: huge st times nps gives u64::MAX"
    )]
    let nodes = (move_time.as_secs_f64() * rate as f64).round().max(1.0) as u64;
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> Budget {
        Budget::for_clock(
            &Clock {
                remaining: ms(remaining),
                increment: ms(increment),
                moves_to_go,
            },
            MOVE_OVERHEAD,
        )
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
            let b = Budget::for_clock(
                &Clock {
                    remaining,
                    increment,
                    moves_to_go,
                },
                MOVE_OVERHEAD,
            );
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
        let b = Budget::for_move_time(ms(1_000), MOVE_OVERHEAD);
        assert_eq!(b.hard, ms(900));
        let tiny = Budget::for_move_time(ms(50), MOVE_OVERHEAD);
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
