//! Move generation checked by perft against published leaf counts.

use ferrimax::chess::{Board, perft};

/// One perft reference: a named position and its leaf count at a depth.
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_4_MIRRORED: &str =
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// The seven reference positions above at depths that keep `cargo test` fast.
const FAST: &[Case] = &[
    Case {
        name: "initial position",
        fen: INITIAL,
        depth: 5,
        nodes: 4_865_609,
    },
    Case {
        name: "Kiwipete",
        fen: KIWIPETE,
        depth: 4,
        nodes: 4_085_603,
    },
    Case {
        name: "position 3 (en passant and rook endgame)",
        fen: POSITION_3,
        depth: 5,
        nodes: 674_624,
    },
    Case {
        name: "position 4 (promotions, castling, pins)",
        fen: POSITION_4,
        depth: 4,
        nodes: 422_333,
    },
    Case {
        name: "position 4 mirrored",
        fen: POSITION_4_MIRRORED,
        depth: 4,
        nodes: 422_333,
    },
    Case {
        name: "position 5 (promotion with check)",
        fen: POSITION_5,
        depth: 4,
        nodes: 2_103_487,
    },
    Case {
        name: "position 6 (symmetrical middlegame)",
        fen: POSITION_6,
        depth: 4,
        nodes: 3_894_594,
    },
];

/// The same positions at their full reference depths (minutes in total).
const FULL: &[Case] = &[
    Case {
        name: "initial position",
        fen: INITIAL,
        depth: 6,
        nodes: 119_060_324,
    },
    Case {
        name: "Kiwipete",
        fen: KIWIPETE,
        depth: 6,
        nodes: 8_031_647_685,
    },
    Case {
        name: "position 3",
        fen: POSITION_3,
        depth: 6,
        nodes: 11_030_083,
    },
    Case {
        name: "position 4",
        fen: POSITION_4,
        depth: 6,
        nodes: 706_045_033,
    },
    Case {
        name: "position 4 mirrored",
        fen: POSITION_4_MIRRORED,
        depth: 6,
        nodes: 706_045_033,
    },
    Case {
        name: "position 5",
        fen: POSITION_5,
        depth: 5,
        nodes: 89_941_194,
    },
    Case {
        name: "position 6",
        fen: POSITION_6,
        depth: 6,
        nodes: 6_923_051_137,
    },
];

/// Small positions that each isolate one rule (counts checked with Stockfish 15.1
/// `go perft`).
const EDGE_CASES: &[Case] = &[
    Case {
        name: "en passant pins the king along the rank",
        fen: "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        depth: 6,
        nodes: 2_822_114,
    },
    Case {
        name: "en passant capture gives discovered check",
        fen: "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        depth: 6,
        nodes: 1_440_467,
    },
    Case {
        name: "en passant removes the checking pawn",
        fen: "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        depth: 6,
        nodes: 111_840,
    },
    Case {
        name: "illegal en passant after a double push (rank pin)",
        fen: "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
        depth: 6,
        nodes: 1_134_888,
    },
    Case {
        name: "illegal en passant after a double push (diagonal pin)",
        fen: "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
        depth: 6,
        nodes: 1_015_133,
    },
    Case {
        name: "short castling gives check",
        fen: "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        depth: 6,
        nodes: 661_072,
    },
    Case {
        name: "long castling gives check",
        fen: "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        depth: 6,
        nodes: 803_711,
    },
    Case {
        name: "castling rights lost when a rook is captured",
        fen: "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
        depth: 4,
        nodes: 1_274_206,
    },
    Case {
        name: "castling prevented by attacked squares",
        fen: "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
        depth: 4,
        nodes: 1_720_476,
    },
    Case {
        name: "promotion out of check",
        fen: "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
        depth: 6,
        nodes: 3_821_001,
    },
    Case {
        name: "discovered check",
        fen: "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
        depth: 5,
        nodes: 1_004_658,
    },
    Case {
        name: "under-promotion gives check",
        fen: "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
        depth: 6,
        nodes: 217_342,
    },
    Case {
        name: "self stalemate",
        fen: "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
        depth: 6,
        nodes: 2_217,
    },
    Case {
        name: "stalemate and checkmate",
        fen: "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
        depth: 7,
        nodes: 567_584,
    },
    Case {
        name: "checkmate and stalemate in promotions",
        fen: "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
        depth: 4,
        nodes: 23_527,
    },
];

fn check(cases: &[Case]) {
    for case in cases {
        let mut board = Board::from_fen(case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let nodes = perft(&mut board, case.depth);
        assert_eq!(nodes, case.nodes, "{} at depth {}", case.name, case.depth);
        assert_eq!(
            board.to_fen(),
            Board::from_fen(case.fen).unwrap().to_fen(),
            "{}: board not restored",
            case.name
        );
    }
}

#[test]
fn perft_reference_positions() {
    check(FAST);
}

#[test]
fn perft_edge_cases() {
    check(EDGE_CASES);
}

#[test]
#[ignore = "minutes: the full reference depths"]
fn perft_reference_positions_full_depth() {
    check(FULL);
}

/// Reads `tests/data/perftsuite_126.epd` (FEN ;D1 n ;D2 n ...).
fn suite() -> Vec<(String, Vec<(u32, u64)>)> {
    read_suite(include_str!("data/perftsuite_126.epd"))
}

/// Reads a suite in the form FEN ;D1 n ;D2 n ...
fn read_suite(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut f = p.split_whitespace();
                    let depth = f.next().unwrap()[1..].parse().unwrap();
                    let nodes = f.next().unwrap().parse().unwrap();
                    (depth, nodes)
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn check_suite(max_nodes: u64) {
    let mut checked = 0;
    for (fen, counts) in suite() {
        for (depth, nodes) in counts.into_iter().filter(|&(_, n)| n <= max_nodes) {
            let mut board = Board::from_fen(&fen).unwrap();
            assert_eq!(perft(&mut board, depth), nodes, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 126, "only {checked} counts checked");
}

#[test]
fn perft_suite_126_shallow() {
    check_suite(200_000);
}

#[test]
#[ignore = "minutes: every count of the 126-position suite"]
fn perft_suite_126_full() {
    check_suite(u64::MAX);
}

/// `tests/data/perft960.epd`: 40 Chess960 positions (24 start positions, 16 with
/// castling played or at stake) in Shredder-FEN, with Stockfish's counts to depth 5.
/// Every count, and the board restored after each walk.
#[test]
fn perft_chess960_suite() {
    let mut checked = 0;
    for (fen, counts) in read_suite(include_str!("data/perft960.epd")) {
        let start = Board::from_chess960_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, nodes) in counts {
            let mut board = start.clone();
            assert_eq!(perft(&mut board, depth), nodes, "{fen} depth {depth}");
            assert_eq!(board, start, "{fen}: board not restored");
            checked += 1;
        }
    }
    assert_eq!(checked, 200);
}
