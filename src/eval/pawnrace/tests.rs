use std::collections::HashMap;
use std::sync::OnceLock;

use super::testkit::{Coord, Rng, Setup, fastest_build, setup_from_fen};
use super::{PawnRaceTable, TABLE_BYTES, mirror_rank};

/// One table for all tests (building it is cheap, but there is no need to do it many times).
fn table() -> &'static PawnRaceTable {
    static TABLE: OnceLock<PawnRaceTable> = OnceLock::new();
    TABLE.get_or_init(PawnRaceTable::new)
}

fn probe(setup: &Setup) -> bool {
    let (pawn, white_king, black_king, white_to_move) = setup.probe_args();
    table().can_run(pawn, white_king, black_king, white_to_move)
}

/// Longest possible race in plies: Black moves first, then the pawn needs six single steps
/// from rank 2 with five Black replies in between.
const MAX_RACE_PLIES: u32 = 12;

/// Brute-force answer to the race question, by plain recursive minimax over the race rules
/// (White pushes the pawn, Black steps or passes), memoised because the same positions recur.
#[derive(Default)]
struct RaceOracle {
    known: HashMap<Setup, bool>,
}

impl RaceOracle {
    fn runs(&mut self, setup: Setup) -> bool {
        setup.is_legal() && self.search(setup, MAX_RACE_PLIES)
    }

    fn search(&mut self, setup: Setup, plies_left: u32) -> bool {
        assert!(
            plies_left > 0,
            "race longer than expected: {}",
            setup.describe()
        );
        if let Some(&known) = self.known.get(&setup) {
            return known;
        }
        let result = if setup.white_to_move {
            self.white_moves(setup, plies_left)
        } else {
            self.black_moves(setup, plies_left)
        };
        self.known.insert(setup, result);
        result
    }

    fn white_moves(&mut self, setup: Setup, plies_left: u32) -> bool {
        let is_empty = |square: Coord| square != setup.white_king && square != setup.black_king;
        let mut targets = Vec::new();
        let one_up = setup.pawn.shifted(0, 1);
        if is_empty(one_up) {
            targets.push(one_up);
            let two_up = setup.pawn.shifted(0, 2);
            if setup.pawn.rank == 1 && is_empty(two_up) {
                targets.push(two_up);
            }
        }
        targets.into_iter().any(|target| {
            if target.rank == 7 {
                let black_takes =
                    target.distance(setup.black_king) == 1 && target.distance(setup.white_king) > 1;
                !black_takes
            } else {
                let next = Setup {
                    pawn: target,
                    white_to_move: false,
                    ..setup
                };
                self.search(next, plies_left - 1)
            }
        })
    }

    fn black_moves(&mut self, setup: Setup, plies_left: u32) -> bool {
        let mut replies: Vec<Coord> = setup.black_king.neighbours().collect();
        if !setup.pawn_attacks(setup.black_king) {
            replies.push(setup.black_king); // A pass: a spare move elsewhere on the board.
        }
        replies
            .into_iter()
            .filter(|&square| square.distance(setup.white_king) > 1 && !setup.pawn_attacks(square))
            .all(|square| {
                if square == setup.pawn {
                    return false; // Captured.
                }
                let next = Setup {
                    black_king: square,
                    white_to_move: true,
                    ..setup
                };
                self.search(next, plies_left - 1)
            })
    }
}

#[test]
fn agrees_with_brute_force_on_random_positions() {
    let mut oracle = RaceOracle::default();
    let mut rng = Rng::new(0x5EED_0001);
    let mut runs = 0;
    const SAMPLES: usize = 20_000;
    for _ in 0..SAMPLES {
        let setup = rng.setup();
        let expected = oracle.runs(setup);
        assert_eq!(probe(&setup), expected, "{}", setup.describe());
        runs += usize::from(expected);
    }
    // Guard against a degenerate sample (everything true or everything false).
    assert!(
        runs > SAMPLES / 10 && runs < SAMPLES * 9 / 10,
        "runs = {runs}"
    );
}

#[test]
fn agrees_with_brute_force_on_legal_positions_both_sides_to_move() {
    let mut oracle = RaceOracle::default();
    let mut rng = Rng::new(0x5EED_0002);
    for _ in 0..10_000 {
        let setup = rng.legal_setup();
        for white_to_move in [true, false] {
            let setup = Setup {
                white_to_move,
                ..setup
            };
            assert_eq!(probe(&setup), oracle.runs(setup), "{}", setup.describe());
        }
    }
}

#[test]
fn symmetric_under_file_mirror() {
    let mut rng = Rng::new(0x5EED_0003);
    let mut oracle = RaceOracle::default();
    for _ in 0..20_000 {
        let setup = rng.setup();
        let mirrored = setup.file_mirrored();
        assert_eq!(probe(&setup), probe(&mirrored), "{}", setup.describe());
    }
    // The oracle never mirrors, so check that the game itself is symmetric too.
    for _ in 0..2_000 {
        let setup = rng.setup();
        assert_eq!(
            oracle.runs(setup),
            oracle.runs(setup.file_mirrored()),
            "{}",
            setup.describe()
        );
    }
}

#[test]
fn illegal_positions_never_run() {
    let cases = [
        // Kings touching.
        "8/8/8/1P6/8/8/5kK1/8 w",
        "8/8/8/1P6/8/8/5kK1/8 b",
        // White to move while Black is in check from the pawn.
        "8/8/2k5/1P6/8/8/8/7K w",
    ];
    for fen in cases {
        let setup = setup_from_fen(fen);
        assert!(!setup.is_legal(), "{fen}");
        assert!(!probe(&setup), "{fen}");
    }
    // Pieces sharing a square, and pawns on the first or last rank.
    let (b5, g2, h1, b1, b8) = (0x41, 0x16, 0x07, 0x01, 0x71);
    assert!(!table().can_run(b5, b5, h1, true));
    assert!(!table().can_run(b5, g2, b5, false));
    assert!(!table().can_run(b1, g2, h1, true));
    assert!(!table().can_run(b8, g2, h1, true));
}

/// Textbook and edge cases, as FEN (board and side to move) with the expected answer.
/// The White king never moves in a race: it only blocks, shields or protects.
const NAMED_RACES: &[(&str, &str, bool)] = &[
    (
        "square rule: Kf5 is outside the square of b5 and White moves: 1.b6 Ke6 2.b7 Kd7 3.b8=Q",
        "8/8/8/1P3k2/8/8/8/7K w",
        true,
    ),
    (
        "square rule: Black to move steps into the square: 1...Ke6 2.b6 Kd7 3.b7 Kc7 4.b8=Q Kxb8",
        "8/8/8/1P3k2/8/8/8/7K b",
        false,
    ),
    (
        "double step: 1.b4 puts Kh4 outside the square (1...Kg5 2.b5 Kf6 3.b6 Ke7 4.b7 Kd7 5.b8=Q)",
        "8/8/8/8/7k/8/1P6/7K w",
        true,
    ),
    (
        "double step, Black first: 1...Kg5 2.b4 Kf6 3.b5 Ke7 4.b6 Kd7 5.b7 Kc7 6.b8=Q Kxb8",
        "8/8/8/8/7k/8/1P6/7K b",
        false,
    ),
    (
        "the White king on b7 blocks its own pawn, however far away Black is",
        "8/1K6/1P6/8/8/8/8/7k w",
        false,
    ),
    (
        "the Black king in front of the pawn takes it",
        "8/8/8/8/1k6/1P6/8/7K b",
        false,
    ),
    (
        "the Black king in front blocks the push",
        "8/8/8/8/1k6/1P6/8/7K w",
        false,
    ),
    (
        "protected all the way: Kc7 guards b6, b7 and b8, so Ka6 can neither take nor stop",
        "8/2K5/kP6/8/8/8/8/8 b",
        true,
    ),
    (
        "Kc6 protects the pawn but not b8: 1.b6 Ka6-pass 2.b7 Ka7 3.b8=Q Kxb8",
        "8/8/k1K5/1P6/8/8/8/8 w",
        false,
    ),
    (
        "shouldering: Ke5 is in the square but Kd7 bars d6, c6 and c7 (1...Kd5 2.b6 Kc5 3.b7)",
        "8/3K4/8/1P2k3/8/8/8/8 b",
        true,
    ),
    (
        "the same without the shoulder: Ke5 to move catches the pawn",
        "8/8/8/1P2k3/8/8/8/7K b",
        false,
    ),
];

#[test]
fn named_races() {
    let mut oracle = RaceOracle::default();
    for &(name, fen, expected) in NAMED_RACES {
        let setup = setup_from_fen(fen);
        assert_eq!(oracle.runs(setup), expected, "oracle: {name} ({fen})");
        assert_eq!(probe(&setup), expected, "table: {name} ({fen})");
    }
}

#[test]
fn black_pawn_through_mirror_rank() {
    // Black: Kh8, pawn b4; White: Kf4.  With Black (the attacker) to move the pawn runs;
    // with White to move Kf4 reaches the square.  Mirrored, this is the square-rule pair above.
    let (black_pawn, black_king, white_king) = (0x31, 0x77, 0x35);
    let pawn = mirror_rank(black_pawn);
    let attacker_king = mirror_rank(black_king);
    let defender_king = mirror_rank(white_king);
    assert!(table().can_run(pawn, attacker_king, defender_king, true));
    assert!(!table().can_run(pawn, attacker_king, defender_king, false));
}

#[test]
fn size_and_build_time() {
    let (built, fastest) = fastest_build(PawnRaceTable::new);
    eprintln!(
        "pawn-race table: {} bytes, built in {:.2} ms",
        built.size_bytes(),
        fastest.as_secs_f64() * 1e3
    );
    assert_eq!(built.size_bytes(), TABLE_BYTES);
    assert_eq!(TABLE_BYTES, 24 * 1024);
}
