//! Static exchange evaluation: the material outcome of the capture sequence on one square
//! when both sides always recapture with their least valuable piece and may stop when
//! continuing would lose. Quiescence uses it to skip captures that lose material, and move
//! ordering to put them after the quiet moves that are likely to be good.

use crate::chess::{Board, Color, Move, MoveKind, PieceType, Square, dir};
use crate::eval::piece_value;

/// Value of a king in an exchange: large enough that capturing it ends every sequence.
const KING_EXCHANGE_VALUE: i32 = 10_000;

fn exchange_value(kind: PieceType) -> i32 {
    match kind {
        PieceType::King => KING_EXCHANGE_VALUE,
        k => piece_value(k),
    }
}

/// Squares taken off the board during the exchange, as a 128-bit set over 0x88 indices.
type Removed = u128;

fn is_removed(removed: Removed, sq: Square) -> bool {
    removed & (1u128 << sq.index()) != 0
}

/// The least valuable piece of `side` attacking `target`, ignoring `removed` squares
/// (captured and moved-away pieces, which also uncovers sliders behind them).
fn least_valuable_attacker(
    board: &Board,
    target: Square,
    side: Color,
    removed: Removed,
) -> Option<(Square, PieceType)> {
    let present =
        |sq: Square, kind: PieceType| !is_removed(removed, sq) && board.piece_at(sq).is(side, kind);
    let back = -side.forward();
    for step in [dir::E, dir::W] {
        if let Some(sq) = target.offset(back + step)
            && present(sq, PieceType::Pawn)
        {
            return Some((sq, PieceType::Pawn));
        }
    }
    for d in dir::KNIGHT {
        if let Some(sq) = target.offset(d)
            && present(sq, PieceType::Knight)
        {
            return Some((sq, PieceType::Knight));
        }
    }
    let mut best: Option<(Square, PieceType)> = None;
    for d in dir::KING {
        let straight = crate::chess::is_straight(d);
        let mut sq = target;
        while let Some(next) = sq.offset(d) {
            sq = next;
            if is_removed(removed, sq) || board.piece_at(sq).is_empty() {
                continue;
            }
            let p = board.piece_at(sq);
            if p.is_color(side) {
                let kind = p.kind().expect("occupied");
                let slides = if straight {
                    kind.slides_straight()
                } else {
                    kind.slides_diagonally()
                };
                if slides && best.is_none_or(|(_, b)| exchange_value(kind) < exchange_value(b)) {
                    best = Some((sq, kind));
                }
            }
            break;
        }
    }
    if best.is_some() {
        return best;
    }
    let king = board.king_square(side);
    let adjacent = king.distance(target) <= 1;
    (adjacent && king != target && !is_removed(removed, king)).then_some((king, PieceType::King))
}

/// Material won (in evaluation units, positive = good for the mover) by `m` and the
/// exchange that follows on its target square.
pub fn see(board: &Board, m: Move) -> i32 {
    let target = m.to();
    let mover = board.piece_at(m.from()).kind().expect("a piece moves");
    let mut gains = [0i32; 32];
    gains[0] = board.captured_kind(m).map_or(0, piece_value);
    let mut on_square = exchange_value(mover);
    if let Some(p) = m.promoted() {
        gains[0] += piece_value(p) - piece_value(PieceType::Pawn);
        on_square = piece_value(p);
    }
    let mut removed: Removed = 1u128 << m.from().index();
    if m.kind() == MoveKind::EnPassant {
        let victim = target
            .offset(-board.side_to_move().forward())
            .expect("on board");
        removed |= 1u128 << victim.index();
    }
    let mut side = board.side_to_move().flip();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let Some((sq, kind)) = least_valuable_attacker(board, target, side, removed) else {
            break;
        };
        depth += 1;
        // What `side` stands to win by capturing here, if the exchange stopped after it.
        gains[depth] = on_square - gains[depth - 1];
        if kind == PieceType::King
            && least_valuable_attacker(board, target, side.flip(), removed | 1u128 << sq.index())
                .is_some()
        {
            // The king may not capture into a defended square.
            depth -= 1;
            break;
        }
        removed |= 1u128 << sq.index();
        on_square = exchange_value(kind);
        side = side.flip();
    }
    // Walk back: each side takes the better of stopping and continuing.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let board = Board::from_fen(fen).unwrap();
        see(&board, board.parse_move(mv).unwrap())
    }

    #[test]
    fn exchange_table() {
        let p = piece_value(PieceType::Pawn);
        let n = piece_value(PieceType::Knight);
        let r = piece_value(PieceType::Rook);
        let q = piece_value(PieceType::Queen);
        let cases: &[(&str, &str, &str, i32)] = &[
            (
                "undefended pawn",
                "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1",
                "d1d5",
                p,
            ),
            (
                "defended pawn taken by the rook",
                "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1",
                "d1d5",
                p - r,
            ),
            (
                "pawn takes defended knight",
                "4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1",
                "e4d5",
                n - p,
            ),
            (
                "x-ray: doubled rooks on both sides",
                "3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1",
                "d2d5",
                p - r,
            ),
            (
                "x-ray: the back rook wins the last word",
                "4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1",
                "d2d5",
                p,
            ),
            (
                "queen takes defended pawn",
                "4k3/2p5/3p4/8/8/8/8/3QK3 w - - 0 1",
                "d1d6",
                p - q,
            ),
            (
                "king cannot recapture a defended square",
                "4R3/8/8/8/8/5k2/4p3/3K4 w - - 0 1",
                "e8e2",
                p,
            ),
            (
                "king recaptures an undefended square",
                "4R3/8/8/8/8/5k2/4p3/K7 w - - 0 1",
                "e8e2",
                p - r,
            ),
            ("equal trade", "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", r),
        ];
        for (name, fen, mv, expected) in cases {
            assert_eq!(see_of(fen, mv), *expected, "{name}");
        }
    }
}
