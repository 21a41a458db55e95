//! The search's score scale: evaluation units, with mates as `MATE` less the plies to
//! mate, so the engine mates fastest and is mated slowest; and what a score searched
//! with a window proves, and how mate scores travel through the table.

use super::tt::Bound;

/// Score of a mate delivered at the root; a mate `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Score of a draw for a side that neither seeks nor avoids it (contempt 0).
pub const DRAW: i32 = 0;
/// Plies the search can reach at most (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - plies(MAX_PLY);
/// Score of a position the endgame tablebases call won, found at the root; one `n` plies
/// away scores `TB_WIN - n`. Below every mate, so that a mate found is still preferred.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this are tablebase wins (or mates).
pub const TB_WIN_BOUND: i32 = TB_WIN - plies(MAX_PLY);
/// Above every score: the open window's bounds.
pub const INFINITY: i32 = MATE + 1;
/// Deepest iteration started.
pub const MAX_DEPTH: i32 = 100;

/// A ply count as a score offset. Plies stay at or below `MAX_PLY`, so the cast is exact.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "plies are at most MAX_PLY (128)"
)]
pub const fn plies(ply: usize) -> i32 {
    ply as i32
}

/// What a search's `best` score proves, searched with the window `alpha`..`beta`: a
/// lower bound when it reached beta, exact inside the window, an upper bound at or below
/// alpha.
pub fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether a table score with `bound` settles a search with the window `alpha`..`beta`:
/// an exact score always, a lower bound at or above beta, an upper bound at or below alpha.
pub fn answers(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Mate and tablebase scores are stored relative to the node (distance to mate or to the
/// tablebase position from there), so they stay right when the same position is reached
/// at another ply.
pub fn score_to_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + plies(ply)
    } else if score <= -TB_WIN_BOUND {
        score - plies(ply)
    } else {
        score
    }
}

/// A table score read at `ply`, mates and tablebase wins counted from the root again.
pub fn score_from_table(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - plies(ply)
    } else if score <= -TB_WIN_BOUND {
        score + plies(ply)
    } else {
        score
    }
}

/// Whether `score` is a forced mate found with depth to spare at `depth`: deeper
/// iterations would only repeat it.
pub fn mate_is_settled(score: i32, depth: i32, margin: i32) -> bool {
    score.abs() >= MATE_BOUND && depth >= (MATE - score.abs()) + margin
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mate stored at one ply and read at another keeps its distance from the node.
    #[test]
    fn mate_scores_travel_through_the_table() {
        let mate_in_5_from_root = MATE - 5;
        let stored = score_to_table(mate_in_5_from_root, 3);
        assert_eq!(score_from_table(stored, 3), mate_in_5_from_root);
        assert_eq!(score_from_table(stored, 1), MATE - 3);
        assert_eq!(score_from_table(score_to_table(-MATE + 4, 2), 2), -MATE + 4);
        assert_eq!(score_to_table(123, 9), 123);
        let tablebase_win = score_to_table(TB_WIN - 7, 4);
        assert_eq!(score_from_table(tablebase_win, 2), TB_WIN - 5);
        assert_eq!(
            score_from_table(score_to_table(-TB_WIN + 3, 3), 3),
            -TB_WIN + 3
        );
    }
}
