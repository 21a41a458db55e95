use std::sync::OnceLock;

use super::KpkBitbase;
use crate::eval::pawnrace::TABLE_BYTES;
use crate::eval::pawnrace::testkit::{
    Coord, KING_DELTAS, Rng, Setup, fastest_build, setup_from_fen,
};

/// One bitbase for all tests.
fn bitbase() -> &'static KpkBitbase {
    static BITBASE: OnceLock<KpkBitbase> = OnceLock::new();
    BITBASE.get_or_init(KpkBitbase::new)
}

fn probe(setup: &Setup) -> bool {
    let (pawn, white_king, black_king, white_to_move) = setup.probe_args();
    bitbase().is_win(pawn, white_king, black_king, white_to_move)
}

/// Plies the brute-force search allows White to reach a safe promotion.  The longest KPK win
/// takes 38 plies (White promotes on its 19th move); that was measured once by running the
/// retrograde build with Jacobi sweeps, where sweep k decides exactly the wins that take k plies.
/// `horizon_is_long_enough` checks on a sample that a longer horizon changes nothing.
const HORIZON: i16 = 48;

/// What the search has proved about one position so far.
#[derive(Clone, Copy)]
struct Bounds {
    /// Smallest ply budget known to be enough for White to win (`i16::MAX`: none known).
    wins_within: i16,
    /// Largest ply budget known not to be enough (`-1`: none known).
    fails_within: i16,
}

const NOTHING_KNOWN: Bounds = Bounds {
    wins_within: i16::MAX,
    fails_within: -1,
};

/// Brute-force KPK: depth-limited minimax over the full rules, with the results of earlier
/// searches remembered per position (as bounds on the number of plies White needs).
struct KpkOracle {
    horizon: i16,
    bounds: Vec<Bounds>,
}

/// Where a position's bounds live: every (pawn, king, king, side) combination, unmirrored.
fn slot(setup: &Setup) -> usize {
    let number =
        |square: Coord| usize::try_from(square.rank * 8 + square.file).expect("on the board");
    let placement =
        (number(setup.pawn) * 64 + number(setup.white_king)) * 64 + number(setup.black_king);
    placement * 2 + usize::from(setup.white_to_move)
}

impl KpkOracle {
    fn new(horizon: i16) -> KpkOracle {
        KpkOracle {
            horizon,
            bounds: vec![NOTHING_KNOWN; 64 * 64 * 64 * 2],
        }
    }

    fn is_win(&mut self, setup: Setup) -> bool {
        setup.is_legal() && self.wins_within(setup, self.horizon)
    }

    /// Can White force a safe promotion within `budget` plies?
    fn wins_within(&mut self, setup: Setup, budget: i16) -> bool {
        let known = self.bounds[slot(&setup)];
        if known.wins_within <= budget {
            return true;
        }
        if known.fails_within >= budget {
            return false;
        }
        let result = budget > 0
            && if setup.white_to_move {
                self.white_wins(setup, budget)
            } else {
                self.black_loses(setup, budget)
            };
        let entry = &mut self.bounds[slot(&setup)];
        if result {
            entry.wins_within = entry.wins_within.min(budget);
        } else {
            entry.fails_within = entry.fails_within.max(budget);
        }
        result
    }

    fn white_wins(&mut self, setup: Setup, budget: i16) -> bool {
        let is_empty = |square: Coord| square != setup.white_king && square != setup.black_king;
        // Pawn moves first: they are the usual way to win.
        let one_up = setup.pawn.shifted(0, 1);
        let mut pushes = Vec::new();
        if is_empty(one_up) {
            pushes.push(one_up);
            if setup.pawn.rank == 1 && is_empty(one_up.shifted(0, 1)) {
                pushes.push(one_up.shifted(0, 1));
            }
        }
        for target in pushes {
            let wins = if target.rank == 7 {
                promotion_wins(target, setup.white_king, setup.black_king)
            } else {
                let next = Setup {
                    pawn: target,
                    white_to_move: false,
                    ..setup
                };
                self.wins_within(next, budget - 1)
            };
            if wins {
                return true;
            }
        }
        let king_moves: Vec<Coord> = setup
            .white_king
            .neighbours()
            .filter(|&square| square != setup.pawn && square.distance(setup.black_king) > 1)
            .collect();
        king_moves.into_iter().any(|square| {
            let next = Setup {
                white_king: square,
                white_to_move: false,
                ..setup
            };
            self.wins_within(next, budget - 1)
        })
    }

    fn black_loses(&mut self, setup: Setup, budget: i16) -> bool {
        let replies: Vec<Coord> = setup
            .black_king
            .neighbours()
            .filter(|&square| square.distance(setup.white_king) > 1 && !setup.pawn_attacks(square))
            .collect();
        if replies.is_empty() {
            return setup.pawn_attacks(setup.black_king); // Mate wins, stalemate draws.
        }
        if replies.contains(&setup.pawn) {
            return false; // Taking the pawn draws.
        }
        replies.into_iter().all(|square| {
            let next = Setup {
                black_king: square,
                white_to_move: true,
                ..setup
            };
            self.wins_within(next, budget - 1)
        })
    }
}

/// After a pawn reaches `square` on rank 8, Black to move: does White win?  Yes unless Black
/// takes the new piece at once or every choice of queen or rook stalemates.
fn promotion_wins(square: Coord, white_king: Coord, black_king: Coord) -> bool {
    if square.distance(black_king) == 1 && square.distance(white_king) > 1 {
        return false;
    }
    let rook_lines: &[(i8, i8)] = &[(1, 0), (-1, 0), (0, 1), (0, -1)];
    let queen_lines: &[(i8, i8)] = &KING_DELTAS;
    [queen_lines, rook_lines].into_iter().any(|lines| {
        let attacked = |target: Coord| line_attack(square, lines, target, white_king);
        let can_move = black_king
            .neighbours()
            .any(|target| target != square && target.distance(white_king) > 1 && !attacked(target));
        attacked(black_king) || can_move
    })
}

/// Does a piece on `from` moving along `lines` hit `target`?  Only the White king blocks
/// (the Black king does not shield the squares behind itself).
fn line_attack(from: Coord, lines: &[(i8, i8)], target: Coord, white_king: Coord) -> bool {
    lines.iter().any(|&(file_delta, rank_delta)| {
        let mut square = from.shifted(file_delta, rank_delta);
        while square.is_on_board() && square != white_king {
            if square == target {
                return true;
            }
            square = square.shifted(file_delta, rank_delta);
        }
        false
    })
}

#[test]
fn agrees_with_brute_force_on_random_positions() {
    let mut oracle = KpkOracle::new(HORIZON);
    let mut rng = Rng::new(0x0CA1_0001);
    let mut wins = 0;
    const SAMPLES: usize = 20_000;
    for _ in 0..SAMPLES {
        let setup = rng.setup();
        let expected = oracle.is_win(setup);
        assert_eq!(probe(&setup), expected, "{}", setup.describe());
        wins += usize::from(expected);
    }
    assert!(
        wins > SAMPLES / 10 && wins < SAMPLES * 9 / 10,
        "wins = {wins}"
    );
}

#[test]
fn symmetric_under_file_mirror() {
    let mut rng = Rng::new(0x0CA1_0002);
    for _ in 0..50_000 {
        let setup = rng.setup();
        assert_eq!(
            probe(&setup),
            probe(&setup.file_mirrored()),
            "{}",
            setup.describe()
        );
    }
    let mut oracle = KpkOracle::new(HORIZON);
    for _ in 0..1_000 {
        let setup = rng.setup();
        assert_eq!(
            oracle.is_win(setup),
            oracle.is_win(setup.file_mirrored()),
            "{}",
            setup.describe()
        );
    }
}

#[test]
fn illegal_positions_are_not_wins() {
    for fen in [
        "8/8/8/1P6/8/8/5kK1/8 w", // kings touching
        "8/8/2k5/1P6/8/8/8/7K w", // Black in check with White to move
    ] {
        assert!(!probe(&setup_from_fen(fen)), "{fen}");
    }
    let (b5, g2, h1, b8) = (0x41, 0x16, 0x07, 0x71);
    assert!(!bitbase().is_win(b5, b5, h1, true));
    assert!(!bitbase().is_win(b8, g2, h1, true));
}

/// Textbook positions, as FEN (board and side to move) with the known result.
const NAMED_POSITIONS: &[(&str, &str, bool)] = &[
    (
        "king on the 6th in front of its pawn wins, White to move",
        "3k4/8/3K4/3P4/8/8/8/8 w",
        true,
    ),
    (
        "king on the 6th in front of its pawn wins, Black to move",
        "3k4/8/3K4/3P4/8/8/8/8 b",
        true,
    ),
    (
        "key square: Ke6 stands on a key square of the e4 pawn (d6, e6, f6), White to move",
        "4k3/8/4K3/8/4P3/8/8/8 w",
        true,
    ),
    ("key square, Black to move", "4k3/8/4K3/8/4P3/8/8/8 b", true),
    (
        "opposition: Ke5 Pe4 vs Ke7, Black to move must give way (1...Kd7 2.Kf6)",
        "8/4k3/8/4K3/4P3/8/8/8 b",
        true,
    ),
    (
        "opposition: Ke5 Pe4 vs Ke7, White to move cannot gain it and the pawn is stuck",
        "8/4k3/8/4K3/4P3/8/8/8 w",
        false,
    ),
    (
        "rook pawn, defending king in the corner: 1.h6 Kg8 2.h7+ Kh8 stalemates or loses the pawn",
        "7k/8/6K1/7P/8/8/8/8 w",
        false,
    ),
    (
        "rook pawn, defending king in the corner, Black to move",
        "7k/8/6K1/7P/8/8/8/8 b",
        false,
    ),
    (
        "rook pawn, defending king in the corner, attacking king far away",
        "k7/8/8/P7/8/8/8/4K3 w",
        false,
    ),
    (
        "square rule: Kf5 is outside the square of b5, White to move runs (1.b6 Ke6 2.b7 Kd7 3.b8=Q)",
        "8/8/8/1P3k2/8/8/8/7K w",
        true,
    ),
    (
        "square rule: Black to move enters the square (1...Ke6 2.b6 Kd7 3.b7 Kc7 4.b8=Q+ Kxb8)",
        "8/8/8/1P3k2/8/8/8/7K b",
        false,
    ),
    (
        "double step: 1.b4 leaves Kh4 outside the square",
        "8/8/8/8/7k/8/1P6/7K w",
        true,
    ),
    (
        "under-promotion: 1.c8=Q is stalemate (Ka7 has no square), only 1.c8=R wins (1...Kb7)",
        "8/k1P5/8/K7/8/8/8/8 w",
        true,
    ),
    (
        "the Black king takes the unprotected pawn at once",
        "8/8/8/8/8/8/1Pk5/7K b",
        false,
    ),
];

#[test]
fn named_positions() {
    let mut oracle = KpkOracle::new(HORIZON);
    for &(name, fen, expected) in NAMED_POSITIONS {
        let setup = setup_from_fen(fen);
        assert_eq!(oracle.is_win(setup), expected, "oracle: {name} ({fen})");
        assert_eq!(probe(&setup), expected, "bitbase: {name} ({fen})");
    }
}

#[test]
fn horizon_is_long_enough() {
    // A longer search must not find wins the standard horizon misses.
    let mut standard = KpkOracle::new(HORIZON);
    let mut longer = KpkOracle::new(HORIZON + 16);
    let mut rng = Rng::new(0x0CA1_0003);
    for _ in 0..1_000 {
        let setup = rng.legal_setup();
        assert_eq!(
            standard.is_win(setup),
            longer.is_win(setup),
            "{}",
            setup.describe()
        );
    }
}

#[test]
fn size_and_build_time() {
    let (built, fastest) = fastest_build(KpkBitbase::new);
    eprintln!(
        "KPK bitbase: {} bytes, built in {:.2} ms",
        built.size_bytes(),
        fastest.as_secs_f64() * 1e3
    );
    assert_eq!(built.size_bytes(), TABLE_BYTES);
}
