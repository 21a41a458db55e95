//! A search thread's accumulators of the network, one per ply, computed lazily.
//!
//! Making a move only notes the pieces it changes; the ply's accumulators are computed
//! when its position is evaluated, from the nearest ancestor's that are, following each
//! noted move on the way. A node cut before its evaluation (by the table, a repetition,
//! a mate-distance bound) or whose score the evaluation cache remembers costs no update,
//! and the accumulators of an evaluated position are the ones the moves give, as before.

use super::score::MAX_PLY;
use crate::chess::{Board, Move};
use crate::eval::nnue::{Accumulator, Network, PieceChanges};

/// Each ply's accumulators, and the moves not followed yet (see the module docs).
pub struct AccumulatorStack<'a> {
    network: &'a Network,
    /// By ply, the root's first: the accumulators of the position at each ply, where
    /// `pending` has no move.
    plies: Vec<Accumulator>,
    /// By ply: the changes of the move into it, while `plies` does not follow it yet.
    pending: [Option<PieceChanges>; MAX_PLY + 1],
}

impl<'a> AccumulatorStack<'a> {
    /// The stack of a search from `board`, its root's accumulators computed; `None` when
    /// the memory for every ply is refused.
    pub fn new(network: &'a Network, board: &Board) -> Option<AccumulatorStack<'a>> {
        let root = network.accumulate(board);
        let mut plies = Vec::new();
        plies.try_reserve_exact(MAX_PLY + 1).ok()?;
        plies.resize(MAX_PLY + 1, root);
        Some(AccumulatorStack {
            network,
            plies,
            pending: [None; MAX_PLY + 1],
        })
    }

    /// The network they belong to.
    pub fn network(&self) -> &'a Network {
        self.network
    }

    /// Notes `m`, made from `board` at `ply` (before it is made): the next ply's
    /// accumulators follow it when they are asked for.
    #[inline]
    pub fn make(&mut self, ply: usize, board: &Board, m: Move) {
        self.pending[ply + 1] = Some(PieceChanges::of(board, m));
    }

    /// Notes a null move at `ply`: the next ply's accumulators are this ply's.
    #[inline]
    pub fn make_null(&mut self, ply: usize) {
        self.pending[ply + 1] = Some(PieceChanges::NONE);
    }

    /// The accumulators of the position at `ply`, computed now if they are not yet: from
    /// the nearest ply above whose are, each ply on the way following its move.
    #[inline]
    pub fn get(&mut self, ply: usize) -> &Accumulator {
        if self.pending[ply].is_some() {
            self.follow_to(ply);
        }
        &self.plies[ply]
    }

    fn follow_to(&mut self, ply: usize) {
        // The root's are always computed, so the walk ends.
        let mut from = ply;
        while self.pending[from].is_some() {
            from -= 1;
        }
        for p in from + 1..=ply {
            let changes = self.pending[p].take().expect("not followed yet");
            let (done, next) = self.plies.split_at_mut(p);
            self.network.apply(&done[p - 1], &changes, &mut next[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue;

    /// Moves made and unmade along a path, with a null move, evaluated at some plies
    /// only: every ply's accumulators, when asked for, are those of its position.
    #[test]
    fn accumulators_asked_for_are_those_of_the_position() {
        let net = nnue::embedded();
        let mut board =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        let mut stack = AccumulatorStack::new(&net, &board).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut undo = Vec::new();
        let mut ply = 0;
        for step in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let moves = board.legal_moves();
            let back = ply > 0 && (moves.is_empty() || ply >= 12 || seed.is_multiple_of(3));
            if back {
                let (m, u) = undo.pop().unwrap();
                ply -= 1;
                match m {
                    Some(m) => board.unmake_move(m, &u),
                    None => board.unmake_null(&u),
                }
            } else if seed.is_multiple_of(11) && !board.in_check() {
                stack.make_null(ply);
                undo.push((None, board.make_null()));
                ply += 1;
            } else if !moves.is_empty() {
                let pick = usize::try_from(seed % moves.len() as u64).unwrap();
                let m = moves.as_slice()[pick];
                stack.make(ply, &board, m);
                undo.push((Some(m), board.make_move(m)));
                ply += 1;
            }
            if (seed >> 20).is_multiple_of(4) {
                assert_eq!(
                    stack.get(ply),
                    &net.accumulate(&board),
                    "step {step} ply {ply}"
                );
            }
        }
    }
}
