//! Playing below full strength, for people who want a game they can win (the
//! `LimitStrength` and `Elo` options): a level searches fewer nodes, compares its few
//! best root moves and misjudges them by a random error that grows as the level falls,
//! so it misses tactics beyond its horizon and now and then prefers a worse move, but
//! never one far worse than its best (a free queen is always taken) and never a move it
//! did not search. The numbers are in `params.rs`, calibrated against Stockfish's own
//! `UCI_Elo` scale at 10+0.1 (levels 1400-2200 within 100 Elo of their number).

use super::params::{
    LEVEL_BASE_NODES, LEVEL_CANDIDATES, LEVEL_ELO_STEP, LEVEL_EXACT_ELO, LEVEL_MAX_ELO,
    LEVEL_MAX_ERROR_CP, LEVEL_MIN_ELO, LEVEL_NODE_GROWTH,
};
use crate::eval;
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// A playing strength in Elo, and the seed of its errors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
    seed: u64,
}

impl Strength {
    /// The level of `elo` (clamped to the range the levels cover), erring by `seed`.
    pub fn new(elo: u32, seed: u64) -> Strength {
        Strength {
            elo: elo.clamp(LEVEL_MIN_ELO, LEVEL_MAX_ELO),
            seed,
        }
    }

    /// The level in Elo.
    pub fn elo(self) -> u32 {
        self.elo
    }

    /// Steps of `LEVEL_ELO_STEP` above the lowest level.
    fn steps(self) -> f64 {
        f64::from(self.elo - LEVEL_MIN_ELO) / LEVEL_ELO_STEP
    }

    /// Nodes a move may search at this level.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "positive and far below u64::MAX"
    )]
    pub fn nodes(self) -> u64 {
        (LEVEL_BASE_NODES * LEVEL_NODE_GROWTH.powf(self.steps())).round() as u64
    }

    /// How many of the best root moves the level compares: one when it no longer errs,
    /// so its nodes all go to the best line.
    pub fn candidates(self) -> usize {
        if self.max_error_cp() > 0.0 {
            LEVEL_CANDIDATES
        } else {
            1
        }
    }

    /// The largest error the level makes in judging a move, in centipawns.
    pub fn max_error_cp(self) -> f64 {
        let range = f64::from(LEVEL_EXACT_ELO - LEVEL_MIN_ELO);
        let share = f64::from(LEVEL_EXACT_ELO.saturating_sub(self.elo)) / range;
        LEVEL_MAX_ERROR_CP * share
    }

    /// Which of the lines scored `scores` (internal units, best first) the level plays:
    /// each is misjudged by a random error of up to `max_error_cp`, and the best judged
    /// wins; a line more than that below the best is never chosen.
    pub fn choose(self, scores: &[i32], position_key: u64) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        let max_error = self.max_error_cp();
        let mut rng = StdRng::seed_from_u64(self.seed ^ position_key);
        let judged = scores.iter().map(|&score| {
            let behind = f64::from(eval::to_centipawns(best) - eval::to_centipawns(score));
            let error = rng.random::<f64>() * max_error;
            (behind <= max_error).then_some(error - behind)
        });
        judged
            .enumerate()
            .filter_map(|(i, j)| j.map(|j| (i, j)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(0, |(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mapping's shape: more nodes and smaller errors as the level rises (none from
    /// `LEVEL_EXACT_ELO`, where one line is searched), the ends where the range says,
    /// and out-of-range requests clamped.
    #[test]
    fn levels_grow_in_nodes_and_shrink_in_error() {
        let levels: Vec<Strength> = (LEVEL_MIN_ELO..=LEVEL_MAX_ELO)
            .step_by(100)
            .map(|elo| Strength::new(elo, 1))
            .collect();
        for pair in levels.windows(2) {
            assert!(pair[1].nodes() > pair[0].nodes(), "{pair:?}");
            let (lower, higher) = (pair[0].max_error_cp(), pair[1].max_error_cp());
            assert!(higher < lower || higher == 0.0, "{pair:?}");
            let exact = pair[1].elo() >= LEVEL_EXACT_ELO;
            assert_eq!(higher == 0.0, exact, "{pair:?}");
            assert_eq!(
                pair[1].candidates(),
                if exact { 1 } else { LEVEL_CANDIDATES }
            );
        }
        assert_eq!(Strength::new(0, 1).elo(), LEVEL_MIN_ELO);
        assert_eq!(Strength::new(9999, 1).elo(), LEVEL_MAX_ELO);
        let lowest = Strength::new(LEVEL_MIN_ELO, 1).max_error_cp();
        assert!((lowest - LEVEL_MAX_ERROR_CP).abs() < 1e-9);
    }

    /// Never a move far worse than the best: a free queen is always taken, at every
    /// level; moves close to the best are chosen now and then at a low level.
    #[test]
    fn a_level_errs_only_among_near_moves() {
        let pawn = eval::from_centipawns(100);
        let queen_up = [9 * pawn, 0, -pawn, -2 * pawn];
        let close = [pawn, pawn - 10, pawn - 20, -5 * pawn];
        for elo in [1000, 1600, 2200, 2800] {
            for key in 0..200 {
                let level = Strength::new(elo, 7);
                assert_eq!(level.choose(&queen_up, key), 0, "{elo}");
                assert_ne!(level.choose(&close, key), 3, "{elo}");
            }
        }
        let weak = Strength::new(1000, 7);
        let others = (0..200)
            .filter(|&key| weak.choose(&close, key) != 0)
            .count();
        assert!(others > 40, "{others} of 200");
        let strong = Strength::new(2800, 7);
        let others = (0..200)
            .filter(|&key| strong.choose(&close, key) != 0)
            .count();
        assert_eq!(others, 0, "the top level does not err");
    }
}
