//! Quiescence: the search below the horizon, over captures and promotions only, with
//! the static eval as the score of standing pat (every evasion when in check, so mates
//! are seen), skipping captures that cannot matter (delta pruning) or that lose material
//! (static exchange). Its results go into the table below every full-width result, so
//! only another quiescence search takes them as an answer.

use super::ordering::{UnscoredMoves, capture_may_lose};
use super::params::DELTA_MARGIN;
use super::score::{DRAW, INFINITY, MATE, MAX_PLY, answers, bound_of, plies, score_from_table};
use super::searcher::Searcher;
use super::see::see_at_least;
use super::tt::Probe;
use crate::chess::{Move, PieceType};
use crate::eval::piece_value;

/// The depth a quiescence result is stored with in the table: below every full-width
/// search, so only another quiescence search takes it as an answer.
pub(super) const QUIESCENCE_DEPTH: i32 = 0;

impl Searcher<'_> {
    /// Quiescence: only captures and promotions, with the static eval as the score
    /// of standing pat; in check, every evasion (so mates are seen).
    pub(super) fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv.clear(ply);
        if self.poll_stop() {
            return DRAW;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate(ply);
        }
        let key = self.board.key();
        // A result of an earlier quiescence search of this position (or of a deeper one)
        // answers this one when its bound allows. A quiescence result is stored only
        // where it displaces no deeper one of the same position.
        let mut may_store = true;
        match self.tt.probe(key) {
            Probe::GamePosition => may_store = false,
            Probe::Hit(entry) => {
                let score = score_from_table(entry.score, ply);
                if entry.depth >= QUIESCENCE_DEPTH && answers(entry.bound, score, alpha, beta) {
                    return score;
                }
                may_store = entry.depth <= QUIESCENCE_DEPTH;
            }
            Probe::Miss => {}
        }
        let original_alpha = alpha;
        let in_check = self.known_check[ply].unwrap_or_else(|| self.board.in_check());
        debug_assert_eq!(in_check, self.board.in_check(), "a stale check flag");
        let mut unscored = UnscoredMoves::new();
        let stand_pat;
        if in_check {
            self.board.generate_legal(unscored.list_mut());
            if unscored.is_empty() {
                return -MATE + plies(ply);
            }
            stand_pat = -INFINITY;
        } else {
            stand_pat = self.evaluate(ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            self.board.generate_captures(unscored.list_mut());
        }
        let mut moves = unscored.score_captures(&self.board);
        let mut best = stand_pat;
        let mut best_move = Move::NONE;
        while let Some(m) = moves.next_move() {
            if !in_check {
                let gain = self.board.captured_kind(m).map_or(0, piece_value)
                    + m.promoted()
                        .map_or(0, |p| piece_value(p) - piece_value(PieceType::Pawn));
                if stand_pat + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
                if capture_may_lose(&self.board, m) && !see_at_least(&self.board, m, 0) {
                    continue;
                }
            }
            let undo = self.make(ply, m);
            let score = -self.quiesce(-beta, -alpha, ply + 1);
            self.board.unmake_move(m, &undo);
            if self.stopped {
                return DRAW;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if may_store {
            let bound = bound_of(best, original_alpha, beta);
            self.store_result(best_move, best, ply, QUIESCENCE_DEPTH, bound);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Board;
    use crate::search::request::SearchRequest;
    use crate::search::searcher::with_test_searcher;
    use crate::search::tt::{Bound, TranspositionTable};

    /// Its queen attacked by the opposing queen, White to move: Qxd5 wins a queen.
    const QUEEN_TRADE_ON_OFFER: &str = "4k3/ppp5/8/3q4/3Q4/8/PPP5/4K3 w - - 0 1";

    /// A quiescence search keeps its result in the table, and the same search again is
    /// answered from there; a deeper entry whose bound does not answer it stays.
    #[test]
    fn quiescence_results_are_kept_without_displacing_deeper_ones() {
        let board = Board::from_fen(QUEEN_TRADE_ON_OFFER).expect("a named position is legal");
        let key = board.key();
        let qxd5 = board.parse_move("d4d5").expect("legal");
        let request = SearchRequest::new(board);

        let tt = TranspositionTable::new(16);
        let score = with_test_searcher(&request, &tt, |searcher| {
            let score = searcher.quiesce(-INFINITY, INFINITY, 0);
            let Probe::Hit(entry) = tt.probe(key) else {
                panic!("the quiescence result is stored");
            };
            assert_eq!(
                (entry.depth, entry.bound, entry.score),
                (QUIESCENCE_DEPTH, Bound::Exact, score)
            );
            assert!(entry.best_move.matches(qxd5));
            let nodes = searcher.nodes;
            assert_eq!(searcher.quiesce(-INFINITY, INFINITY, 0), score);
            assert_eq!(searcher.nodes, nodes + 1, "answered by the table");
            score
        });

        let tt = TranspositionTable::new(16);
        let deep_depth = 5;
        tt.store(
            key,
            qxd5,
            -crate::eval::QUEEN_VALUE,
            deep_depth,
            Bound::Lower,
        );
        let Probe::Hit(deep) = tt.probe(key) else {
            panic!("stored");
        };
        with_test_searcher(&request, &tt, |searcher| {
            assert_eq!(searcher.quiesce(-INFINITY, INFINITY, 0), score);
            assert_eq!(tt.probe(key), Probe::Hit(deep), "the deeper entry stays");
        });
    }
}
