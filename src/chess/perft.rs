//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move
//! generator (and a speed benchmark for it).

use super::board::Board;
use super::moves::{Move, MoveList};

/// Number of leaf nodes `depth` plies below `board`. The last ply is counted from the
/// length of the legal move list instead of making each move ("bulk counting").
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    board.generate_legal(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = board.make_move(m);
        nodes += perft(board, depth - 1);
        board.unmake_move(m, &undo);
    }
    nodes
}

/// Leaf counts below each root move, for comparing with another program when hunting a
/// move-generation bug.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    board
        .legal_moves()
        .iter()
        .map(|&m| {
            let undo = board.make_move(m);
            let n = perft(board, depth - 1);
            board.unmake_move(m, &undo);
            (m, n)
        })
        .collect()
}
