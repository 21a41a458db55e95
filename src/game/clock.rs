//! Time control as the GUI sets it (`level`, `st`, `sd`, `nps`, `time`; `otim` is not
//! used), turned into the search limits of one move. How much of the clock a move may
//! use is the search's own decision (`search::time`).

use crate::cecp::Level;
use crate::search::{Clock, Limits, node_budget};
use std::time::Duration;

/// How time is given: the most recent of `level` and `st` wins.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeMode {
    /// `level MPS BASE INC`, remembered with the game ply at which it arrived: `MPS` counts
    /// the moves from there to the next time addition.
    Clock { level: Level, since_ply: usize },
    /// `st SECS`: a fixed, hard time per move.
    MoveTime(Duration),
}

/// CECP clocks count centiseconds.
const MILLIS_PER_CENTISECOND: u64 = 10;

/// What XBoard assumes when it has sent nothing: 40 moves in 5 minutes.
fn default_level() -> Level {
    Level {
        moves_per_session: 40,
        base: Duration::from_secs(300),
        increment: Duration::ZERO,
    }
}

#[derive(Clone, Debug)]
pub struct TimeControl {
    pub mode: TimeMode,
    /// `sd`: cleared by `new`.
    pub depth: Option<u32>,
    /// `nps`: the node clock; cleared by `new`.
    pub nodes_per_second: Option<u64>,
    /// `time`: our clock in centiseconds, as last reported.
    pub own_centis: Option<i64>,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            mode: TimeMode::Clock {
                level: default_level(),
                since_ply: 0,
            },
            depth: None,
            nodes_per_second: None,
            own_centis: None,
        }
    }
}

impl TimeControl {
    /// `new`: `sd`, `nps` and the reported clocks are cleared; the time control itself is
    /// kept (GUIs re-send it anyway). Its session restarts with the new position
    /// (`restart_sessions`).
    pub fn new_game(&mut self) {
        self.depth = None;
        self.nodes_per_second = None;
        self.own_centis = None;
    }

    pub fn set_level(&mut self, level: Level, ply: usize) {
        self.mode = TimeMode::Clock {
            level,
            since_ply: ply,
        };
    }

    /// The history was reset (setboard, edit): the session count restarts there.
    pub fn restart_sessions(&mut self) {
        if let TimeMode::Clock { since_ply, .. } = &mut self.mode {
            *since_ply = 0;
        }
    }

    /// Limits for thinking on our own move. `own_moves_made` is how many moves our side
    /// has made since the time control's start ply (for moves-to-go under `level`).
    pub fn limits(&self, own_moves_made: u32) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes_per_second: self.nodes_per_second,
            ..Limits::default()
        };
        match &self.mode {
            TimeMode::MoveTime(st) => match self.nodes_per_second {
                // The node clock turns `st` into a node count.
                Some(rate) => limits.nodes = Some(node_budget(*st, rate)),
                None => limits.move_time = Some(*st),
            },
            TimeMode::Clock { level, .. } => {
                let remaining = self.own_centis.map_or(level.base, clock_time);
                let moves_to_go = (level.moves_per_session > 0).then(|| {
                    let per = level.moves_per_session;
                    per - own_moves_made % per
                });
                limits.clock = Some(Clock {
                    remaining,
                    increment: level.increment,
                    moves_to_go,
                });
            }
        }
        limits
    }

    /// The ply from which `level`'s sessions are counted.
    pub fn session_start_ply(&self) -> usize {
        match &self.mode {
            TimeMode::Clock { since_ply, .. } => *since_ply,
            TimeMode::MoveTime(_) => 0,
        }
    }
}

/// A clock reading in centiseconds as time left: a negative clock (a late move) has
/// none, and a reading too large for the millisecond count saturates rather than wraps
/// (`time 1844674407370955162` is a very long clock, not an empty one).
fn clock_time(centis: i64) -> Duration {
    let centis = u64::try_from(centis).unwrap_or(0);
    Duration::from_millis(centis.saturating_mul(MILLIS_PER_CENTISECOND))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Budget;

    fn level(mps: u32, base_s: u64, inc_ms: u64) -> Level {
        Level {
            moves_per_session: mps,
            base: Duration::from_secs(base_s),
            increment: Duration::from_millis(inc_ms),
        }
    }

    #[test]
    fn moves_to_go_counts_down_through_sessions() {
        let mut tc = TimeControl::default();
        tc.set_level(level(40, 300, 0), 0);
        tc.own_centis = Some(12_000);
        let clock = |made| tc.limits(made).clock.unwrap();
        assert_eq!(clock(0).moves_to_go, Some(40));
        assert_eq!(clock(39).moves_to_go, Some(1));
        assert_eq!(clock(40).moves_to_go, Some(40));
        assert_eq!(clock(0).remaining, Duration::from_secs(120));
    }

    #[test]
    fn incremental_and_negative_clocks() {
        let mut tc = TimeControl::default();
        tc.set_level(level(0, 120, 12_000), 0);
        tc.own_centis = Some(-50);
        let clock = tc.limits(10).clock.unwrap();
        assert_eq!(clock.moves_to_go, None);
        assert_eq!(clock.remaining, Duration::ZERO);
        assert_eq!(clock.increment, Duration::from_secs(12));
    }

    /// `time` readings at the edges: a huge clock gives a long think, never the empty
    /// clock's few milliseconds; a negative one gives the least budget.
    #[test]
    fn extreme_clock_readings_saturate() {
        let hour = Duration::from_secs(3600);
        let a_moment = Duration::from_millis(30);
        // (name, `time` argument, least hard limit, greatest hard limit)
        let cases = [
            (
                "the reading that wrapped",
                1_844_674_407_370_955_162,
                hour,
                Duration::MAX,
            ),
            (
                "the last that fits",
                1_844_674_407_370_955_161,
                hour,
                Duration::MAX,
            ),
            ("i64::MAX", i64::MAX, hour, Duration::MAX),
            (
                "one minute",
                6_000,
                Duration::from_millis(100),
                Duration::from_secs(60),
            ),
            ("zero", 0, Duration::ZERO, a_moment),
            ("negative", -50, Duration::ZERO, a_moment),
            ("i64::MIN", i64::MIN, Duration::ZERO, a_moment),
        ];
        for (name, centis, least, greatest) in cases {
            let mut tc = TimeControl::default();
            tc.set_level(level(0, 300, 0), 0);
            tc.own_centis = Some(centis);
            let budget = Budget::for_limits(&tc.limits(0)).expect("a clock budget");
            assert!(
                (least..=greatest).contains(&budget.hard),
                "{name}: {budget:?}"
            );
            assert!(budget.soft <= budget.hard, "{name}: {budget:?}");
        }
    }

    #[test]
    fn node_clock_turns_st_into_a_node_count() {
        let mut tc = TimeControl {
            mode: TimeMode::MoveTime(Duration::from_secs(5000)),
            nodes_per_second: Some(1),
            ..TimeControl::default()
        };
        assert_eq!(tc.limits(0).nodes, Some(5000));
        tc.mode = TimeMode::MoveTime(Duration::from_secs(1));
        tc.nodes_per_second = Some(20_000);
        assert_eq!(tc.limits(0).nodes, Some(20_000));
        assert_eq!(tc.limits(0).move_time, None);
    }
}
