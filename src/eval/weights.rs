//! The evaluation's weights in one place, as data: the engine evaluates with
//! [`DEFAULT`], and the tuner (`ferrimax tune`) changes a copy through
//! [`Weights::tunable`] and prints the result in this file's own syntax.
//!
//! All values are in the evaluation's units (a pawn is 74).

/// Every tunable weight of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Material of knight, bishop, rook and queen as the evaluation counts it in the
    /// middlegame (the pawn is the unit and fixed there; exchanges, pruning and the
    /// endgame rules keep the search's own values, `piece_value`).
    pub material: [i32; 4],
    /// The same in the endgame (blended by the material left, like every phased term).
    pub material_endgame: [i32; 4],
    /// A pawn in the endgame.
    pub pawn_endgame: i32,
    /// Bonus for a pawn standing on its 6th rank; a pawn on the 7th earns it twice
    /// (micro-Max 4.6's gradual promotion).
    pub promotion_step: i32,
    /// Extra for a passed pawn by rank (from its own side) in the middlegame.
    pub passed_middlegame: [i32; 8],
    /// The same in the endgame.
    pub passed_endgame: [i32; 8],
    /// Endgame: per rank of progress, per square the defending king is farther from the
    /// square in front of a passed pawn.
    pub passer_enemy_king: i32,
    /// Endgame: the same per square the own king is nearer to it.
    pub passer_own_king: i32,
    /// Mobility per reachable square (not blocked by an own piece, not attacked by an
    /// enemy pawn) beyond a typical count, for knight, bishop, rook, queen, in the
    /// middlegame.
    pub mobility: [i32; 4],
    /// The same in the endgame.
    pub mobility_endgame: [i32; 4],
    /// Weight of an attack on the enemy king's zone, per attacking piece type.
    pub king_attack: [i32; 4],
    /// A knight, bishop, rook or queen on a square an enemy pawn attacks: it must move
    /// (a lost tempo) or fall, and two such pieces are a fork.
    pub pawn_threat: [i32; 4],
    /// Cap of the king-attack sum; the bonus grows with its square.
    pub king_attack_cap: i32,
    /// Per extra pawn on a file.
    pub doubled_pawn: i32,
    /// A pawn with no own pawn on either neighbouring file.
    pub isolated_pawn: i32,
    /// Own piece standing directly in front of a pawn (micro-Max's cure for doubled
    /// pawns).
    pub blocked_pawn: i32,
    /// A pawn that no pawn of its own can ever defend.
    pub backward_pawn: i32,
    /// Weight of the centre table per piece type (pawn, knight, bishop, rook, queen,
    /// king), per step of centrality (the pawn's in quarter units).
    pub centre: [i32; 6],
    /// Two bishops or more.
    pub bishop_pair: i32,
    /// A rook on a file without pawns.
    pub rook_open_file: i32,
    /// A rook on a file with enemy pawns only.
    pub rook_half_open_file: i32,
    /// A rook on its 7th rank with the enemy king on the 8th.
    pub rook_seventh_rank: i32,
    /// Middlegame: king castled (on the b/c or g/h file of its first rank, its castling
    /// rights gone).
    pub castled: i32,
    /// Middlegame: each castling right still held.
    pub castling_right: i32,
    /// Middlegame: per rank the king has left its first rank (the frozen king).
    pub king_advance: i32,
    /// Middlegame: per missing shelter pawn in front of a castled king.
    pub shelter_pawn: i32,
    /// Endgame: per step of centrality of the king (the magnetic king).
    pub king_centre: i32,
    /// Per piece traded off (beyond the start), for the side ahead in material.
    pub trade: i32,
    /// Placement of each piece type (pawn, knight, bishop, rook, queen, king) by square
    /// in the middlegame, on top of the centre terms: what the centre's one number per
    /// piece cannot say (a knight on the rim, a bishop on its long diagonal, a rook on
    /// its 7th). Squares are seen from the piece's own side and mirrored across the
    /// board's middle file: [`half_board_index`] (32 per piece, so each is fitted from
    /// twice the positions).
    pub placement: [[i32; HALF_BOARD]; 6],
    /// The same in the endgame.
    pub placement_endgame: [[i32; HALF_BOARD]; 6],
}

/// Squares of a half board: ranks times the four files of one wing.
pub const HALF_BOARD: usize = 32;

/// Index of a square in the placement tables: its `rank` as seen from its own side (0 =
/// first rank) and its file folded onto the queen side (a and h are 0, d and e are 3).
#[inline]
pub const fn half_board_index(file: u8, rank: u8) -> usize {
    let folded_file = if file < 4 { file } else { 7 - file };
    rank as usize * 4 + folded_file as usize
}

/// The weights the engine plays with, fitted by `ferrimax tune` (Texel's method) in
/// three rounds. First 4,000 of Ferrimax's own games at 5,000 nodes a move (`ferrimax
/// selfplay 4000 --seed 1000`), from micro-Max-style hand values, one weight at a time.
/// Then the placement tables and the pawn threat alone (`--only
/// placement,pawn_threat`, from zero and 30), and last all the weights at once
/// (`--gradient --penalty 640`), both on 10,000 self-play games (`ferrimax selfplay
/// 10000 --seed 250000`) and 4,046 match games of recent builds, 6 positions a game. To
/// retune, play games with the current build, tune on them, put the printed `Weights`
/// here, and keep it only if an A/B match says it plays better.
#[rustfmt::skip]
pub const DEFAULT: Weights = Weights {
    material: [255, 289, 353, 852],
    material_endgame: [251, 285, 531, 976],
    pawn_endgame: 71,
    promotion_step: 38,
    passed_middlegame: [0, -7, -11, -10, 11, 20, 23, 0],
    passed_endgame: [0, 10, 7, 20, 38, 50, 72, 0],
    passer_enemy_king: 12,
    passer_own_king: 5,
    mobility: [9, 6, 5, 2],
    mobility_endgame: [5, 5, 3, 7],
    king_attack: [3, 2, 2, 4],
    pawn_threat: [43, 41, 35, 23],
    king_attack_cap: 40,
    doubled_pawn: 15,
    isolated_pawn: 11,
    blocked_pawn: 7,
    backward_pawn: 5,
    centre: [3, 8, 4, 0, 2, 0],
    bishop_pair: 37,
    rook_open_file: 23,
    rook_half_open_file: 16,
    rook_seventh_rank: 23,
    castled: 54,
    castling_right: 17,
    king_advance: 9,
    shelter_pawn: 26,
    king_centre: 9,
    trade: 3,
    placement: [
        // A line a rank, from the piece's own first rank; files a/h, b/g, c/f, d/e.
        // pawn
        [
               0,    0,    0,    0,
              -9,    1,    1,  -13,
              -5,    0,  -10,   -2,
              -3,   -7,    9,    8,
              -7,    6,   -6,    9,
               6,   -4,   10,    8,
               8,   -9,   -1,   -9,
               0,    0,    0,    0,
        ],
        // knight
        [
               3,    2,    4,   11,
              -4,   -5,    3,   -5,
               6,    6,   -3,    2,
               4,  -10,    0,  -13,
               7,    7,    1,    0,
               6,    3,    7,   10,
              -5,   -1,    9,   -5,
             -11,   -1,   -9,    2,
        ],
        // bishop
        [
               6,    9,   -9,    0,
              10,   19,   -8,  -12,
             -11,   17,    9,   -6,
             -11,    6,  -11,   -5,
              -3,   -1,   -4,   10,
               4,    1,    5,    9,
             -10,    0,   -9,   -6,
               3,   -1,   -8,    7,
        ],
        // rook
        [
             -10,    4,   12,    4,
              -7,  -10,   -4,   -7,
             -11,    5,   11,  -11,
             -13,   -6,    7,   -8,
               6,    0,    9,    5,
               1,    7,    2,    0,
              -1,    7,   -1,    6,
               6,    2,    6,   -4,
        ],
        // queen
        [
              -5,    6,   -4,    4,
              -4,   -5,   13,   12,
             -13,   11,   12,   -1,
              -3,   -4,    2,    6,
               8,  -13,   -8,    2,
               0,    2,    2,    7,
              -4,  -10,    6,   -8,
             -11,    9,    1,   -8,
        ],
        // king
        [
              -3,   17,  -13,  -17,
              10,    0,    6,   -9,
               0,    6,   -4,    1,
               1,    4,    1,    2,
               5,    3,    7,    4,
               4,    7,    8,    7,
               1,    6,    7,    5,
               0,    3,    4,    4,
        ],
    ],
    placement_endgame: [
        // A line a rank, from the piece's own first rank; files a/h, b/g, c/f, d/e.
        // pawn
        [
               0,    0,    0,    0,
               1,    3,   12,    8,
              -5,    9,    6,    1,
               1,   13,    1,    0,
              12,   13,    7,   -7,
               6,    8,    7,    3,
              -9,   -3,   -7,   -1,
               0,    0,    0,    0,
        ],
        // knight
        [
               7,  -10,    7,    7,
              -3,    5,   -3,  -10,
               3,    2,   -7,   10,
               7,    4,   10,  -10,
              11,    2,    1,    7,
               4,    3,   -1,    2,
               6,    2,    7,    6,
             -10,    7,   -3,   -4,
        ],
        // bishop
        [
               1,    3,    0,   -3,
               6,    5,    2,    1,
              -2,   10,    0,    3,
               8,    9,    5,   -7,
               4,   10,   -2,    3,
               6,    7,    3,    3,
               2,   -6,    5,   -8,
              -6,    0,   -8,    7,
        ],
        // rook
        [
             -10,    3,   -3,   -6,
             -10,   -8,   -5,    1,
              -3,   -1,    4,  -11,
               5,    1,    9,    3,
               7,   -5,    3,   -3,
               9,    6,    8,    0,
               5,    9,    9,   -4,
              11,    5,    2,   -7,
        ],
        // queen
        [
               4,   -1,   -7,    2,
              -4,   -5,   -4,    7,
              -5,   -2,    5,   -1,
               4,    6,    3,    6,
               4,   -5,    3,    6,
               7,    2,    6,    4,
               6,   -1,    8,   -5,
              -7,    6,    2,   -2,
        ],
        // king
        [
              -7,    0,   -4,   -7,
               6,    3,   -1,   -4,
               8,    6,   -7,   -6,
               3,    6,   -2,    1,
               8,   -1,    9,    3,
               8,    8,   10,    9,
               7,    8,   10,    7,
              -4,    8,    4,    1,
        ],
    ],
};

/// Which array entries are tuned: the first and last passed-pawn ranks never occur, and
/// the king's centre weight is `king_centre`.
const PASSED_RANKS: std::ops::Range<usize> = 1..7;
const CENTRE_PIECES: std::ops::Range<usize> = 0..5;
/// The pawns' row of the placement tables, and its squares that a pawn can stand on
/// (not on its first or last rank).
const PAWN_ROW: usize = 0;
const PAWN_SQUARES: std::ops::Range<usize> = 4..HALF_BOARD - 4;

impl Weights {
    /// Every tuned number with its name, for the tuner to change and print.
    pub fn tunable(&mut self) -> Vec<(String, &mut i32)> {
        let mut list: Vec<(String, &mut i32)> = Vec::new();
        let Weights {
            material,
            material_endgame,
            pawn_endgame,
            promotion_step,
            passed_middlegame,
            passed_endgame,
            passer_enemy_king,
            passer_own_king,
            mobility,
            mobility_endgame,
            king_attack,
            pawn_threat,
            king_attack_cap,
            doubled_pawn,
            isolated_pawn,
            blocked_pawn,
            backward_pawn,
            centre,
            bishop_pair,
            rook_open_file,
            rook_half_open_file,
            rook_seventh_rank,
            castled,
            castling_right,
            king_advance,
            shelter_pawn,
            king_centre,
            trade,
            placement,
            placement_endgame,
        } = self;
        list.extend(entries("material", material, 0..4));
        list.extend(entries("material_endgame", material_endgame, 0..4));
        list.extend(entries(
            "passed_middlegame",
            passed_middlegame,
            PASSED_RANKS,
        ));
        list.extend(entries("passed_endgame", passed_endgame, PASSED_RANKS));
        list.extend(entries("mobility", mobility, 0..4));
        list.extend(entries("mobility_endgame", mobility_endgame, 0..4));
        list.extend(entries("king_attack", king_attack, 0..4));
        list.extend(entries("pawn_threat", pawn_threat, 0..4));
        list.extend(entries("centre", centre, CENTRE_PIECES));
        let scalars = [
            ("pawn_endgame", pawn_endgame),
            ("promotion_step", promotion_step),
            ("passer_enemy_king", passer_enemy_king),
            ("passer_own_king", passer_own_king),
            ("king_attack_cap", king_attack_cap),
            ("doubled_pawn", doubled_pawn),
            ("isolated_pawn", isolated_pawn),
            ("blocked_pawn", blocked_pawn),
            ("backward_pawn", backward_pawn),
            ("bishop_pair", bishop_pair),
            ("rook_open_file", rook_open_file),
            ("rook_half_open_file", rook_half_open_file),
            ("rook_seventh_rank", rook_seventh_rank),
            ("castled", castled),
            ("castling_right", castling_right),
            ("king_advance", king_advance),
            ("shelter_pawn", shelter_pawn),
            ("king_centre", king_centre),
            ("trade", trade),
        ];
        list.extend(scalars.into_iter().map(|(n, v)| (n.to_string(), v)));
        for (table, name) in [
            (placement, "placement"),
            (placement_endgame, "placement_endgame"),
        ] {
            for (kind, row) in table.iter_mut().enumerate() {
                let squares = if kind == PAWN_ROW {
                    PAWN_SQUARES
                } else {
                    0..HALF_BOARD
                };
                list.extend(entries(&format!("{name}[{kind}]"), row, squares));
            }
        }
        list
    }
}

/// The entries `range` of an array weight, named `name[i]`.
fn entries<'a>(
    name: &str,
    values: &'a mut [i32],
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = (String, &'a mut i32)> + use<'a> {
    let name = name.to_string();
    values
        .iter_mut()
        .enumerate()
        .filter(move |(i, _)| range.contains(i))
        .map(move |(i, v)| (format!("{name}[{i}]"), v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_board_index_folds_the_files_and_counts_ranks_from_the_own_side() {
        let cases = [
            ("a1", 0, 0, 0),
            ("h1", 7, 0, 0),
            ("d1", 3, 0, 3),
            ("e1", 4, 0, 3),
            ("b2", 1, 1, 5),
            ("g2", 6, 1, 5),
            ("h8", 7, 7, 28),
            ("e8", 4, 7, 31),
        ];
        for (name, file, rank, index) in cases {
            assert_eq!(half_board_index(file, rank), index, "{name}");
        }
    }

    #[test]
    fn every_tuned_name_is_distinct_and_reaches_its_field() {
        let mut w = DEFAULT.clone();
        let names: Vec<String> = w.tunable().into_iter().map(|(n, _)| n).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        for (_, v) in w.tunable() {
            *v += 1;
        }
        assert_eq!(w.material[0], DEFAULT.material[0] + 1);
        assert_eq!(w.trade, DEFAULT.trade + 1);
        assert_eq!(w.passed_endgame[0], 0, "rank 1 is never a passed pawn's");
        assert_eq!(
            w.centre[5], DEFAULT.centre[5],
            "the king has its own weight"
        );
    }
}
