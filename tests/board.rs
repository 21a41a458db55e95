//! Make/unmake exactness and the game-end rules.

mod common;

use ferrimax::chess::{Board, Color, Ending, repetition_count};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// In a long random game, every legal move of every position is made and unmade; the
/// board (including the order of its piece lists), the key and all internal indices must
/// come back exactly, and the incremental key must always equal the computed one.
#[test]
fn make_unmake_restores_everything_in_long_random_games() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut checked = 0;
    for _ in 0..20 {
        let mut board = Board::startpos();
        for _ in 0..400 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in moves.iter() {
                let before = board.clone();
                let undo = board.make_move(m);
                assert_eq!(board.invariant_violation(), None, "after {m} in {before:?}");
                board.unmake_move(m, &undo);
                assert_eq!(board, before, "unmake {m}");
                assert_eq!(
                    board.invariant_violation(),
                    None,
                    "after unmake {m} in {before:?}"
                );
                checked += 1;
            }
            let m = moves.as_slice()[rng.next_u32() as usize % moves.len()];
            board.make_move(m);
            let null = board.make_null();
            board.unmake_null(&null);
            assert_eq!(board.invariant_violation(), None, "null move");
        }
    }
    assert!(checked > 50_000, "only {checked} moves checked");
}

#[test]
fn checkmate_and_stalemate() {
    let mated = Board::from_fen("k6R/8/1K6/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(mated.is_checkmate());
    assert_eq!(
        mated.ending(&[]),
        Some(Ending::Checkmate {
            winner: Color::White
        })
    );
    let stalemated = Board::from_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1").unwrap();
    assert!(stalemated.is_stalemate());
    assert_eq!(stalemated.ending(&[]), Some(Ending::Stalemate));
    assert_eq!(Board::startpos().ending(&[]), None);
}

#[test]
fn insufficient_material_table() {
    let cases: &[(&str, &str, bool)] = &[
        ("KK", "k7/8/8/8/8/8/8/7K w - - 0 1", true),
        ("KNK", "k7/8/8/8/8/8/8/6NK w - - 0 1", true),
        ("KBK", "k7/8/8/8/8/8/8/6BK w - - 0 1", true),
        ("KKB", "kb6/8/8/8/8/8/8/7K w - - 0 1", true),
        ("KBKB same colour", "k1b5/8/8/8/8/8/8/5B1K w - - 0 1", true),
        (
            "KBKB opposite colours",
            "kb6/8/8/8/8/8/8/5B1K w - - 0 1",
            false,
        ),
        ("KNKN", "kn6/8/8/8/8/8/8/6NK w - - 0 1", false),
        ("KNNK", "k7/8/8/8/8/8/8/5NNK w - - 0 1", false),
        ("KPK", "k7/8/8/8/8/8/P7/7K w - - 0 1", false),
        ("KRK", "k7/8/8/8/8/8/8/6RK w - - 0 1", false),
    ];
    for (name, fen, dead) in cases {
        let board = Board::from_fen(fen).unwrap();
        assert_eq!(board.is_insufficient_material(), *dead, "{name}");
        assert_eq!(
            board.ending(&[]) == Some(Ending::InsufficientMaterial),
            *dead,
            "{name}"
        );
    }
}

#[test]
fn fifty_move_rule_but_mate_comes_first() {
    let at_99 = Board::from_fen("k7/8/8/8/8/8/8/6RK w - - 99 80").unwrap();
    assert!(!at_99.is_fifty_move_draw());
    let mut at_100 = at_99.clone();
    at_100.make_move(at_100.parse_move("g1g2").unwrap());
    assert!(at_100.is_fifty_move_draw());
    assert_eq!(at_100.ending(&[]), Some(Ending::FiftyMoves));
    let mated_at_100 = Board::from_fen("k6R/8/1K6/8/8/8/8/8 b - - 100 80").unwrap();
    assert_eq!(
        mated_at_100.ending(&[]),
        Some(Ending::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn threefold_repetition_by_knight_shuffle() {
    let mut board = Board::startpos();
    let mut keys = Vec::new();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, text) in shuffle.iter().cycle().take(8).enumerate() {
        keys.push(board.key());
        board.make_move(board.parse_move(text).unwrap());
        let expected = 1 + (i + 1) / 4;
        assert_eq!(
            repetition_count(&keys, board.key(), board.halfmove_clock()),
            expected,
            "after {} moves",
            i + 1
        );
    }
    assert_eq!(board.ending(&keys), Some(Ending::Repetition));
    // A pawn move makes the earlier positions unreachable.
    keys.push(board.key());
    board.make_move(board.parse_move("e2e4").unwrap());
    assert_eq!(
        repetition_count(&keys, board.key(), board.halfmove_clock()),
        1
    );
}

#[test]
fn lost_castling_right_makes_a_different_position() {
    // Ke1-e2-e1 returns the same placement without castling rights: not a repetition.
    let mut board = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    let start = board.key();
    for text in ["e1e2", "e8e7", "e2e1", "e7e8"] {
        board.make_move(board.parse_move(text).unwrap());
    }
    assert_ne!(board.key(), start);
}

/// `gives_check` agrees with making the move and looking, for every legal move of
/// positions from random games (castling, en passant, promotions and discovered checks
/// among them), and for named positions where each kind of check occurs.
#[test]
fn gives_check_agrees_with_making_the_move() {
    let check = |board: &Board| {
        for &m in board.legal_moves().iter() {
            let mut after = board.clone();
            after.make_move(m);
            assert_eq!(
                board.gives_check(m),
                after.in_check(),
                "{m} in {}",
                board.to_fen()
            );
        }
    };
    common::random_games(11, 400, 200, check);
    let named = [
        "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", // a rook gives check along a file or rank
        "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", // the knight uncovers the rook
        "8/8/8/8/r2pP2K/8/8/k7 b - e3 0 1", // en passant opens the rook's rank
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",  // O-O: the rook on f1 checks
        "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",  // O-O-O: the rook on d1 checks
        "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", // promotion to a queen or rook
    ];
    for fen in named {
        check(&Board::from_fen(fen).unwrap());
    }
}
