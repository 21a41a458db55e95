//! Endgame knowledge the general terms lack: how to mate a bare king (the bishop and
//! knight mate included, which needs the right corner), and which material advantages do
//! not win, so the search neither trades into them expecting a win nor avoids them when
//! defending.

use super::{BISHOP_VALUE, centrality};
use crate::chess::{Board, Color, PieceType, Square};

/// Bare-king endings: drive the lone king to the edge and bring the other king close.
const MOP_UP_EDGE_WEIGHT: i32 = 10;
const MOP_UP_KINGS_WEIGHT: i32 = 8;
/// Bishop and knight against a bare king: mate is only forced in a corner of the
/// bishop's colour, so the lone king is pushed there, per step of Manhattan distance.
const BISHOP_CORNER_WEIGHT: i32 = 64;
/// Largest Manhattan distance between two squares.
const MAX_MANHATTAN: i32 = 14;
/// Largest centrality (the four centre squares) and king distance on the board.
const MAX_CENTRALITY: i32 = 6;
const MAX_KING_DISTANCE: i32 = 7;

/// Scale factors, in sixteenths of the score.
const FULL_SCALE: i32 = 16;
/// The stronger side has no pawns and leads by no more than a minor piece (KRKB, KRKN,
/// KBKP, KRNKR...): as a rule a draw, but a few such positions are won, so the score keeps
/// a trace of the lead.
const PAWNLESS_SMALL_LEAD_SCALE: i32 = 2;
/// Only bishops on squares of opposite colours besides the pawns: a pawn or two ahead
/// is often not enough to win.
const OPPOSITE_BISHOPS_SCALE: i32 = 8;

/// With a bare king against mating material, drive that king to the edge (to a corner of
/// the bishop's colour with bishop and knight) and bring the other king near (micro-Max's
/// "magnetic" king, Fairy-Max's bare-king mating aid). From White's point of view.
pub(super) fn mop_up(board: &Board) -> i32 {
    for (strong, sign) in [(Color::White, 1), (Color::Black, -1)] {
        let weak = strong.flip();
        if board.is_bare_king(weak) && board.non_pawn_pieces(strong) > 0 {
            let weak_king = board.king_square(weak);
            let strong_king = board.king_square(strong);
            let distance = i32::from(weak_king.distance(strong_king));
            let corner = match lone_bishop_and_knight(board, strong) {
                Some(bishop) => {
                    BISHOP_CORNER_WEIGHT
                        * (MAX_MANHATTAN - bishop_corner_distance(weak_king, bishop))
                }
                None => 0,
            };
            return sign
                * (MOP_UP_EDGE_WEIGHT * (MAX_CENTRALITY - centrality(weak_king))
                    + MOP_UP_KINGS_WEIGHT * (MAX_KING_DISTANCE - distance)
                    + corner);
        }
    }
    0
}

/// The bishop's square if `color` has exactly king, bishop and knight.
fn lone_bishop_and_knight(board: &Board, color: Color) -> Option<Square> {
    let is_bn = board.non_pawn_pieces(color) == 2
        && board.count(color, PieceType::Bishop) == 1
        && board.count(color, PieceType::Knight) == 1
        && board.count(color, PieceType::Pawn) == 0;
    if is_bn {
        board.pieces_of(color, PieceType::Bishop).first().copied()
    } else {
        None
    }
}

/// Manhattan distance from `king` to the nearer corner of the colour of `bishop`'s square
/// (a1 and h8 are dark, h1 and a8 light).
fn bishop_corner_distance(king: Square, bishop: Square) -> i32 {
    let corners = if bishop.is_dark() {
        [Square::new(0, 0), Square::new(7, 7)]
    } else {
        [Square::new(7, 0), Square::new(0, 7)]
    };
    let nearer = king
        .manhattan_distance(corners[0])
        .min(king.manhattan_distance(corners[1]));
    i32::from(nearer)
}

/// `score` (White's point of view) scaled down when the side it favours cannot expect to
/// win with the material on the board (`white_material_lead`, as the evaluation counted
/// it): a wrong-coloured bishop with rook pawns against a king in their corner is a draw;
/// a pawnless lead of at most a minor piece rarely wins; opposite-coloured bishops halve
/// the advantage.
pub(super) fn scale(board: &Board, score: i32, white_material_lead: i32) -> i32 {
    if score == 0 {
        return 0;
    }
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if is_wrong_bishop_draw(board, strong) {
        return 0;
    }
    let lead = if strong == Color::White {
        white_material_lead
    } else {
        -white_material_lead
    };
    let factor = if board.count(strong, PieceType::Pawn) == 0 && lead <= BISHOP_VALUE {
        PAWNLESS_SMALL_LEAD_SCALE
    } else if has_only_opposite_bishops(board) {
        OPPOSITE_BISHOPS_SCALE
    } else {
        FULL_SCALE
    };
    score * factor / FULL_SCALE
}

/// King, bishop and pawns all on one rook file against a bare king that stands on or next
/// to the promotion square, when the bishop cannot cover that square: the pawns never
/// queen and the king cannot be driven out.
fn is_wrong_bishop_draw(board: &Board, strong: Color) -> bool {
    let weak = strong.flip();
    let pawns = board.pieces_of(strong, PieceType::Pawn);
    if !board.is_bare_king(weak)
        || board.non_pawn_pieces(strong) != 1
        || board.count(strong, PieceType::Bishop) != 1
        || pawns.is_empty()
    {
        return false;
    }
    let file = pawns[0].file();
    if (file != 0 && file != 7) || pawns.iter().any(|p| p.file() != file) {
        return false;
    }
    let promotion = Square::new(file, strong.promotion_rank());
    let bishop = board.pieces_of(strong, PieceType::Bishop)[0];
    bishop.is_dark() != promotion.is_dark() && board.king_square(weak).distance(promotion) <= 1
}

/// Each side has one bishop, the two on squares of different colours, and no other piece
/// but pawns.
fn has_only_opposite_bishops(board: &Board) -> bool {
    let lone_bishop = |c: Color| {
        (board.non_pawn_pieces(c) == 1 && board.count(c, PieceType::Bishop) == 1)
            .then(|| board.pieces_of(c, PieceType::Bishop)[0].is_dark())
    };
    matches!(
        (lone_bishop(Color::White), lone_bishop(Color::Black)),
        (Some(w), Some(b)) if w != b
    )
}

#[cfg(test)]
mod tests {
    use super::super::{PAWN_VALUE, evaluate};
    use crate::chess::Board;

    /// The evaluation of `fen` for White.
    fn white_eval(fen: &str) -> i32 {
        let board = Board::from_fen(fen).unwrap();
        let score = evaluate(&board);
        if fen.contains(" w ") { score } else { -score }
    }

    #[test]
    fn bishop_and_knight_drive_the_king_to_the_bishops_corner() {
        // (name, lone king in a corner of the bishop's colour, in a corner of the other)
        let cases = [
            (
                "dark bishop: a1 and h8",
                "8/8/8/8/8/2KNB3/8/k7 b - - 0 1",
                "8/8/8/8/8/2KNB3/8/7k b - - 0 1",
            ),
            (
                "light bishop: h1 and a8",
                "8/8/8/8/8/3BNK2/8/7k b - - 0 1",
                "8/8/8/8/8/3BNK2/8/k7 b - - 0 1",
            ),
            (
                "Black's light bishop: a8 and h1",
                "K7/8/2knb3/8/8/8/8/8 w - - 0 1",
                "7K/8/2knb3/8/8/8/8/8 w - - 0 1",
            ),
        ];
        for (name, right, wrong) in cases {
            let (right, wrong) = (white_eval(right).abs(), white_eval(wrong).abs());
            assert!(right > wrong + 2 * PAWN_VALUE, "{name}: {right} vs {wrong}");
        }
    }

    #[test]
    fn drawish_material_is_scaled_down() {
        // (name, position, largest score for the side ahead, in pawns / 4)
        let drawish = [
            ("KRKB", "8/8/3k4/8/2b5/8/3KR3/8 w - - 0 1", 2),
            ("KRKN", "8/8/3k4/8/2n5/8/3KR3/8 w - - 0 1", 2),
            ("KRKN, Black ahead", "8/8/3K4/8/2N5/8/3kr3/8 b - - 0 1", 2),
            ("KBKP", "8/8/3k4/8/2B5/5p2/3K4/8 w - - 0 1", 2),
            ("KRBKR", "8/8/3k4/4r3/2B5/8/3KR3/8 w - - 0 1", 3),
            (
                "wrong bishop, a-pawn, king in the corner",
                "k7/8/P7/8/8/2K5/3B4/8 w - - 0 1",
                0,
            ),
            (
                "wrong bishop, two h-pawns, king next to the corner",
                "8/6k1/8/7P/7P/8/2K1B3/8 b - - 0 1",
                0,
            ),
        ];
        for (name, fen, limit) in drawish {
            let score = white_eval(fen).abs();
            assert!(score <= limit * PAWN_VALUE / 4, "{name}: {score}");
        }
        // (name, position, least score for the side ahead, in pawns / 4: a KRPKR with
        // the pawn on its 3rd rank is worth little, but it must not be scaled away)
        let winning = [
            ("KQKR", "8/8/3k4/8/2r5/8/3KQ3/8 w - - 0 1", 12),
            ("KRPKR", "8/8/3k4/8/2r5/4P3/3KR3/8 w - - 0 1", 1),
            (
                "right bishop, a-pawn",
                "k7/8/P7/8/8/2K5/4B3/8 w - - 0 1",
                12,
            ),
            (
                "wrong bishop, king far from the corner",
                "8/8/P7/5k2/8/2K5/3B4/8 w - - 0 1",
                12,
            ),
            ("KBNK", "8/8/3k4/8/8/8/3KBN2/8 w - - 0 1", 20),
        ];
        for (name, fen, least) in winning {
            let score = white_eval(fen).abs();
            assert!(score >= least * PAWN_VALUE / 4, "{name}: {score}");
        }
    }

    #[test]
    fn opposite_bishops_halve_the_advantage() {
        let same = white_eval("8/5k2/3b4/8/3P4/2P5/2KB1P2/8 w - - 0 1");
        let opposite = white_eval("8/5k2/4b3/8/3P4/2P5/2KB1P2/8 w - - 0 1");
        assert!(same > PAWN_VALUE, "same-coloured bishops: {same}");
        assert!(
            opposite > 0 && opposite * 3 < same * 2,
            "opposite {opposite} vs same {same}"
        );
    }
}
