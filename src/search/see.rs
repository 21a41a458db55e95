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
    // (A side without pawns or knights needs no look at their squares.)
    let has = |kind: PieceType| board.count(side, kind) > 0;
    let pawn_steps: &[i8] = if has(PieceType::Pawn) {
        &[dir::E, dir::W]
    } else {
        &[]
    };
    for &step in pawn_steps {
        if let Some(sq) = target.offset(back + step)
            && present(sq, PieceType::Pawn)
        {
            return Some((sq, PieceType::Pawn));
        }
    }
    let knight_jumps: &[i8] = if has(PieceType::Knight) {
        &dir::KNIGHT
    } else {
        &[]
    };
    for &d in knight_jumps {
        if let Some(sq) = target.offset(d)
            && present(sq, PieceType::Knight)
        {
            return Some((sq, PieceType::Knight));
        }
    }
    let mut best: Option<(Square, PieceType)> = None;
    let rays = board.slider_lines(target, side);
    for (i, d) in dir::KING.into_iter().enumerate() {
        if rays & 1 << i == 0 {
            continue;
        }
        let mut sq = target;
        while let Some(next) = sq.offset(d) {
            sq = next;
            if is_removed(removed, sq) || board.piece_at(sq).is_empty() {
                continue;
            }
            let p = board.piece_at(sq);
            if p.is_color(side) {
                let kind = p.kind().expect("occupied");
                let slides = kind.slides_along(d);
                if slides && kind == PieceType::Bishop {
                    // No slider is worth less, and the first of equals is the one taken.
                    return Some((sq, kind));
                }
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

/// Longest exchange either evaluation follows (captures after `m`, plus one).
const MAX_EXCHANGE: usize = 32;

/// The board just after `m`, as the exchange sees it: what the mover won with it, the
/// exchange value of the piece left on the target square, and the squares emptied.
fn first_capture(board: &Board, m: Move) -> (i32, i32, Removed) {
    let mover = board.piece_at(m.from()).kind().expect("a piece moves");
    let mut gain = board.captured_kind(m).map_or(0, piece_value);
    let mut on_square = exchange_value(mover);
    if let Some(p) = m.promoted() {
        gain += piece_value(p) - piece_value(PieceType::Pawn);
        on_square = piece_value(p);
    }
    let mut removed: Removed = 1u128 << m.from().index();
    if m.kind() == MoveKind::EnPassant {
        let victim = m
            .to()
            .offset(-board.side_to_move().forward())
            .expect("on board");
        removed |= 1u128 << victim.index();
    }
    (gain, on_square, removed)
}

/// The next capture on `target` by `side`: its least valuable attacker, unless that is
/// the king and the square is still defended (the king may not capture into a defended
/// square, which ends the exchange as if `side` had no attacker).
fn next_capture(
    board: &Board,
    target: Square,
    side: Color,
    removed: Removed,
) -> Option<(Square, PieceType)> {
    let (sq, kind) = least_valuable_attacker(board, target, side, removed)?;
    let defended = || {
        least_valuable_attacker(board, target, side.flip(), removed | 1u128 << sq.index()).is_some()
    };
    (kind != PieceType::King || !defended()).then_some((sq, kind))
}

/// Whether `see(board, m) >= threshold`, found without following the exchange further
/// than it takes to decide: pruning asks only this, for most moves at every node.
///
/// Both sides may stop capturing at any point. So the side to capture next wins the
/// question as soon as the material so far already answers it its way, and loses it
/// when it must capture and cannot; the first answer reached is the exchange's.
pub fn see_at_least(board: &Board, m: Move, threshold: i32) -> bool {
    let target = m.to();
    let (gain, mut on_square, mut removed) = first_capture(board, m);
    // The mover's material so far, less the threshold: >= 0 answers "yes".
    let mut balance = gain - threshold;
    let mover = board.side_to_move();
    let mut side = mover.flip();
    for _ in 1..MAX_EXCHANGE {
        let mover_to_capture = side == mover;
        // Stopping here settles it for the side to capture.
        if (balance >= 0) == mover_to_capture {
            return balance >= 0;
        }
        // If even capturing would not turn it that side's way, the other side stops
        // next: settled without looking for attackers.
        let after = if mover_to_capture {
            balance + on_square
        } else {
            balance - on_square
        };
        if (after >= 0) != mover_to_capture {
            return after >= 0;
        }
        let Some((sq, kind)) = next_capture(board, target, side, removed) else {
            return balance >= 0;
        };
        balance = after;
        removed |= 1u128 << sq.index();
        on_square = exchange_value(kind);
        side = side.flip();
    }
    balance >= 0
}

/// Material won (in evaluation units, positive = good for the mover) by `m` and the
/// exchange that follows on its target square.
pub fn see(board: &Board, m: Move) -> i32 {
    let target = m.to();
    let mut gains = [0i32; MAX_EXCHANGE];
    let (gain, mut on_square, mut removed) = first_capture(board, m);
    gains[0] = gain;
    let mut side = board.side_to_move().flip();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let Some((sq, kind)) = next_capture(board, target, side, removed) else {
            break;
        };
        depth += 1;
        // What `side` stands to win by capturing here, if the exchange stopped after it.
        gains[depth] = on_square - gains[depth - 1];
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
    use super::super::params::{SEE_CAPTURE_MARGIN, SEE_PRUNE_DEPTH, SEE_QUIET_MARGIN};
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

    /// The thresholds worth asking about a move whose exchange is worth `value`: both
    /// sides of it, both sides of every piece value from it, zero, and the margins
    /// pruning asks at every depth.
    fn thresholds(value: i32) -> Vec<i32> {
        let mut all = vec![0, -KING_EXCHANGE_VALUE, KING_EXCHANGE_VALUE + 1];
        for kind in [
            PieceType::Pawn,
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ] {
            all.extend([value - piece_value(kind), value + piece_value(kind)]);
        }
        for depth in 1..=SEE_PRUNE_DEPTH {
            all.extend([
                -SEE_QUIET_MARGIN * depth,
                -SEE_CAPTURE_MARGIN * depth * depth,
            ]);
        }
        all.into_iter()
            .flat_map(|t| [t - 1, t, t + 1])
            .chain([value - 1, value, value + 1])
            .collect()
    }

    /// `see_at_least` answers exactly as the full evaluation does, for every move and
    /// threshold of the bench positions and of random walks from them (promotions, en
    /// passant, kings in the exchange and long x-ray sequences come up).
    #[test]
    fn threshold_answers_agree_with_the_full_exchange() {
        let mut random = crate::learn::SplitMix(0x005e_e50f_e8c4);
        let mut checked = 0usize;
        for fen in crate::chess::positions::BENCH {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..60 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let value = see(&board, m);
                    for t in thresholds(value) {
                        assert_eq!(
                            see_at_least(&board, m, t),
                            value >= t,
                            "{m} threshold {t} (exchange {value}) in {}",
                            board.to_fen()
                        );
                        checked += 1;
                    }
                }
                board.make_move(moves.as_slice()[random.below(moves.len())]);
            }
        }
        assert!(checked > 1_000_000, "only {checked} questions");
    }
}
