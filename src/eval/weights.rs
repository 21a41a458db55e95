//! The evaluation's weights in one place, as data: the engine evaluates with
//! [`DEFAULT`], and the tuner (`ferrimax tune`) changes a copy one number at a time
//! through [`Weights::tunable`] and prints the result in this file's own syntax.
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
    /// Middlegame: king castled (on the b/c or g/h file of its first rank).
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
}

/// The weights the engine plays with: fitted by `ferrimax tune` (Texel's method) to
/// 4,000 of Ferrimax's own games at 5,000 nodes a move (`ferrimax selfplay 4000 --seed
/// 1000`), starting from micro-Max-style hand values. To retune, play games with the
/// current build, tune on them, paste the printed `Weights` here, and keep it only if an
/// A/B match says it plays better.
pub const DEFAULT: Weights = Weights {
    material: [259, 296, 356, 851],
    material_endgame: [247, 282, 532, 977],
    pawn_endgame: 65,
    promotion_step: 40,
    passed_middlegame: [0, -6, -4, 2, 11, 16, 24, 0],
    passed_endgame: [0, 6, 14, 21, 30, 47, 74, 0],
    passer_enemy_king: 9,
    passer_own_king: 3,
    mobility: [9, 6, 7, 2],
    mobility_endgame: [8, 6, 7, 9],
    king_attack: [2, 2, 3, 4],
    king_attack_cap: 38,
    doubled_pawn: 18,
    isolated_pawn: 12,
    blocked_pawn: 7,
    backward_pawn: 4,
    centre: [3, 8, 4, 0, -1, 0],
    bishop_pair: 28,
    rook_open_file: 20,
    rook_half_open_file: 14,
    rook_seventh_rank: 20,
    castled: 38,
    castling_right: 0,
    king_advance: 17,
    shelter_pawn: 14,
    king_centre: 11,
    trade: 3,
};

/// Which array entries are tuned: the first and last passed-pawn ranks never occur, and
/// the king's centre weight is `king_centre`.
const PASSED_RANKS: std::ops::Range<usize> = 1..7;
const CENTRE_PIECES: std::ops::Range<usize> = 0..5;

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
        list
    }
}

/// The entries `range` of an array weight, named `name[i]`.
fn entries<'a>(
    name: &'a str,
    values: &'a mut [i32],
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = (String, &'a mut i32)> + 'a {
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
