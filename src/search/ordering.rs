//! Move ordering: alpha-beta cuts best when the best move comes first. The order is the
//! hash move, then captures that do not lose material (most valuable victim first, least
//! valuable attacker among equals), queen promotions, the killer moves of this ply, quiet
//! moves by their history score, and last the captures that lose material.

use super::history::{History, QuietContext};
use super::params::{
    GOOD_CAPTURE_SCORE, HASH_MOVE_SCORE, KILLER_SCORE, LOSING_CAPTURE_SCORE, UNDER_PROMOTION_SCORE,
};
use super::see::see_at_least;
use super::tt::PackedMove;
use crate::chess::{Board, FixedList, Move, MoveList, PieceType};
use crate::eval::piece_value;

/// MVV/LVA key of a capture: victim value dominates, attacker value breaks ties.
#[inline]
pub fn mvv_lva(board: &Board, m: Move) -> i32 {
    let victim = board.captured_kind(m).map_or(0, piece_value);
    let attacker = board.piece_at(m.from()).kind().map_or(0, piece_value);
    let promotion = m
        .promoted()
        .map_or(0, |p| piece_value(p) - piece_value(PieceType::Pawn));
    (victim + promotion) * 16 - attacker / 8
}

/// A node's moves as generated, not yet scored: the first of the two states of a move list.
///
/// The generator fills it through `list_mut`; scoring it (`score_all`, `score_captures`)
/// writes one score per move and yields the [`OrderedMoves`] that hand the moves out,
/// borrowing this list's buffers while it lives. Asking for the best move before scoring
/// is thus a compile error, not a read of a score never written:
///
/// ```compile_fail
/// use ferrimax::chess::Board;
/// use ferrimax::search::ordering::UnscoredMoves;
/// let mut moves = UnscoredMoves::new();
/// Board::startpos().generate_legal(moves.list_mut());
/// moves.next_move(); // only `OrderedMoves` has `next_move`
/// ```
///
/// while the scored list hands them out:
///
/// ```
/// use ferrimax::chess::Board;
/// use ferrimax::search::ordering::UnscoredMoves;
/// let board = Board::startpos();
/// let mut moves = UnscoredMoves::new();
/// board.generate_legal(moves.list_mut());
/// let mut ordered = moves.score_captures(&board);
/// assert_eq!(std::iter::from_fn(|| ordered.next_move()).count(), 20);
/// ```
///
/// Neither buffer is cleared beforehand, and the ordered list borrows them instead of
/// taking them over: at every node, copying a 1 KB list or clearing a 1 KB array costs a
/// few percent of the search. Both are [`FixedList`]s, whose unwritten capacity cannot be
/// read.
pub struct UnscoredMoves {
    moves: MoveList,
    /// Written only by scoring, one entry per move.
    scores: FixedList<i32>,
}

impl UnscoredMoves {
    /// An empty list, to be filled through `list_mut` and then scored.
    #[inline]
    pub fn new() -> UnscoredMoves {
        UnscoredMoves {
            moves: MoveList::new(),
            scores: FixedList::new(),
        }
    }

    /// The moves, for the generator to fill.
    #[inline]
    pub fn list_mut(&mut self) -> &mut MoveList {
        &mut self.moves
    }

    /// Whether the generator found no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Scores the moves of a full-width node.
    #[inline]
    pub fn score_all(
        &mut self,
        board: &Board,
        hash_move: PackedMove,
        killers: &[Move; 2],
        history: &History,
        context: &QuietContext,
    ) -> FullWidthMoves<'_> {
        self.scores.clear();
        for &m in self.moves.iter() {
            self.scores.push(if hash_move.matches(m) {
                HASH_MOVE_SCORE
            } else if m.promoted().is_some_and(|p| p != PieceType::Queen) {
                UNDER_PROMOTION_SCORE + mvv_lva(board, m)
            } else if !board.is_quiet(m) {
                // Counted good until it comes up (`FullWidthMoves::next_move`).
                GOOD_CAPTURE_SCORE + mvv_lva(board, m)
            } else if m == killers[0] {
                KILLER_SCORE + 1
            } else if m == killers[1] {
                KILLER_SCORE
            } else {
                history.score(board, context, m)
            });
        }
        FullWidthMoves(self.ordered())
    }

    /// Scores captures for quiescence by MVV/LVA, under-promotions last.
    #[inline]
    pub fn score_captures(&mut self, board: &Board) -> OrderedMoves<'_> {
        self.scores.clear();
        for &m in self.moves.iter() {
            let under = m.promoted().is_some_and(|p| p != PieceType::Queen);
            self.scores
                .push(mvv_lva(board, m) + if under { UNDER_PROMOTION_SCORE } else { 0 });
        }
        self.ordered()
    }

    /// The scored moves, best first.
    #[inline]
    fn ordered(&mut self) -> OrderedMoves<'_> {
        debug_assert_eq!(self.moves.len(), self.scores.len());
        OrderedMoves {
            moves: self.moves.as_mut_slice(),
            scores: self.scores.as_mut_slice(),
            next: 0,
        }
    }
}

impl Default for UnscoredMoves {
    fn default() -> Self {
        Self::new()
    }
}

/// Scored moves, handed out best first (selection sort: after a cutoff the rest never
/// needs sorting). Made only by scoring an [`UnscoredMoves`], so every move has its score.
pub struct OrderedMoves<'a> {
    moves: &'a mut [Move],
    /// `scores[i]` belongs to `moves[i]`; both are swapped together.
    scores: &'a mut [i32],
    next: usize,
}

impl OrderedMoves<'_> {
    /// The best remaining move (the first of equals).
    #[inline]
    pub fn next_move(&mut self) -> Option<Move> {
        let (best, _) = self.best_remaining()?;
        Some(self.take(best))
    }

    /// The first remaining move of the best score, and where it is.
    #[inline]
    fn best_remaining(&self) -> Option<(usize, i32)> {
        let first = self.next;
        let mut best_score = *self.scores.get(first)?;
        let mut best = first;
        for (i, &score) in self.scores.iter().enumerate().skip(first + 1) {
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        Some((best, best_score))
    }

    /// Hands out the move at `index`, swapping it to the front of what remains.
    #[inline]
    fn take(&mut self, index: usize) -> Move {
        let first = self.next;
        self.moves.swap(first, index);
        self.scores.swap(first, index);
        self.next += 1;
        self.moves[first]
    }
}

/// The moves of a full-width node, best first, as scored by
/// [`UnscoredMoves::score_all`].
///
/// A capture that may lose material (or a queen promotion onto a guarded square) is
/// checked by exchange evaluation only when it comes up as the best remaining move, and
/// moved behind the quiet moves if it loses: after a cutoff, most are never looked at.
/// The order handed out is exactly that of checking every capture beforehand, as a
/// check only ever lowers a score and the first of equals is taken either way.
pub struct FullWidthMoves<'a>(OrderedMoves<'a>);

impl FullWidthMoves<'_> {
    /// The best remaining move of `board`'s position (the one that was scored).
    #[inline]
    pub fn next_move(&mut self, board: &Board) -> Option<Move> {
        loop {
            let (index, score) = self.0.best_remaining()?;
            let m = self.0.moves[index];
            let unchecked_capture = (GOOD_CAPTURE_SCORE..HASH_MOVE_SCORE).contains(&score);
            if unchecked_capture && capture_may_lose(board, m) && !see_at_least(board, m, 0) {
                self.0.scores[index] = score - GOOD_CAPTURE_SCORE + LOSING_CAPTURE_SCORE;
                continue;
            }
            return Some(self.0.take(index));
        }
    }
}

/// Only a capture by a piece worth more than its victim can lose material; the others
/// need no exchange evaluation.
#[inline]
pub fn capture_may_lose(board: &Board, m: Move) -> bool {
    let victim = board.captured_kind(m).map_or(0, piece_value);
    let attacker = board.piece_at(m.from()).kind().map_or(0, piece_value);
    attacker > victim
}

#[cfg(test)]
mod tests {
    use super::super::see::see;
    use super::*;

    /// Positions with captures that win, trade and lose material.
    const CAPTURE_POSITIONS: &[(&str, &str)] = &[
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "queen can take a defended pawn",
            "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 0 3",
        ),
        (
            "rook takes a knight a pawn defends",
            "4k3/8/2p5/3n4/8/8/8/3RK3 w - - 0 1",
        ),
        (
            "promotion onto a guarded square",
            "r6k/4P3/8/8/8/8/8/4K3 w - - 0 1",
        ),
    ];

    /// A capture or promotion whose exchange evaluation loses material.
    fn loses_material(board: &Board, m: Move) -> bool {
        !board.is_quiet(m) && see(board, m) < 0
    }

    #[test]
    fn captures_that_lose_come_after_the_quiet_moves_and_the_others_before() {
        for (name, fen) in CAPTURE_POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            let history = History::new();
            let mut moves = UnscoredMoves::new();
            board.generate_legal(moves.list_mut());
            let generated = moves.list_mut().len();
            let context = QuietContext::root(board.side_to_move());
            let mut ordered = moves.score_all(
                &board,
                PackedMove::NONE,
                &[Move::NONE; 2],
                &history,
                &context,
            );
            let order: Vec<Move> = std::iter::from_fn(|| ordered.next_move(&board)).collect();
            assert_eq!(order.len(), generated, "{name}: every move once");
            // 0: captures and queen promotions that do not lose, 1: quiet moves,
            // 2: captures that lose, 3: under-promotions.
            let group = |m: Move| {
                if m.promoted().is_some_and(|p| p != PieceType::Queen) {
                    3
                } else if loses_material(&board, m) {
                    2
                } else if !board.is_quiet(m) {
                    0
                } else {
                    1
                }
            };
            let groups: Vec<u8> = order.iter().map(|&m| group(m)).collect();
            assert!(
                groups.is_sorted(),
                "{name}: {:?}",
                order.iter().zip(&groups).collect::<Vec<_>>()
            );
            assert!(groups.contains(&2), "{name} has a losing capture");
        }
    }
}
