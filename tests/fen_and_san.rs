//! FEN and SAN: round trips over positions from random play, and tables of named cases.

mod common;

use ferrimax::chess::{Board, Color, FenError, MoveError, MoveKind, Square};

#[test]
fn fen_round_trips_over_random_play() {
    let mut positions = 0;
    common::random_games(7, 60, 120, |board| {
        let fen = board.to_fen();
        let read = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(read.to_fen(), fen);
        assert_eq!(
            read.key(),
            board.key(),
            "{fen}: key differs after FEN round trip"
        );
        positions += 1;
    });
    assert!(positions > 3000, "only {positions} positions");
}

#[test]
fn san_round_trips_over_random_play() {
    let mut moves = 0;
    common::random_games(11, 40, 120, |board| {
        for &m in board.legal_moves().iter() {
            let san = board.san(m);
            assert_eq!(board.parse_san(&san), Ok(m), "{}: {san}", board.to_fen());
            assert_eq!(
                board.parse_move(&m.to_string()),
                Ok(m),
                "{}: {m}",
                board.to_fen()
            );
            moves += 1;
        }
    });
    assert!(moves > 50_000, "only {moves} moves");
}

#[test]
fn fens_without_move_counters_are_accepted() {
    let board = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3").unwrap();
    assert_eq!(board.side_to_move(), Color::Black);
    assert_eq!(board.halfmove_clock(), 0);
    assert_eq!(board.fullmove_number(), 1);
    // No black pawn can take on e3, so the e.p. square carries no information.
    assert_eq!(board.en_passant(), None);
}

#[test]
fn usable_en_passant_square_is_kept() {
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let board = Board::from_fen(fen).unwrap();
    assert_eq!(board.en_passant(), Square::parse("f6"));
    assert_eq!(board.to_fen(), fen);
}

/// Malformed or impossible FENs, each with the error it must get.
#[test]
fn bad_fens_are_rejected_with_the_reason() {
    use FenError::*;
    let cases: &[(&str, &str, FenError)] = &[
        ("empty", "", FieldCount(0)),
        ("three fields", "8/8/8/8/8/8/8/K6k w -", FieldCount(3)),
        (
            "seven fields",
            "8/8/8/8/8/8/8/K6k w - - 0 1 x",
            FieldCount(7),
        ),
        (
            "bad piece letter",
            "8/8/8/8/8/8/8/K5xk w - - 0 1",
            BadPieceChar('x'),
        ),
        ("seven ranks", "8/8/8/8/8/8/K6k w - - 0 1", RankCount(7)),
        ("nine ranks", "8/8/8/8/8/8/8/8/K6k w - - 0 1", RankCount(9)),
        (
            "rank of nine squares",
            "8/8/8/8/8/8/8/K7k w - - 0 1",
            RankLength {
                rank: 1,
                squares: 9,
            },
        ),
        (
            "rank of seven squares",
            "8/8/8/7/8/8/8/K6k w - - 0 1",
            RankLength {
                rank: 5,
                squares: 7,
            },
        ),
        (
            "no white king",
            "8/8/8/8/8/8/8/7k w - - 0 1",
            KingCount {
                color: Color::White,
                count: 0,
            },
        ),
        (
            "two black kings",
            "k7/8/8/8/8/8/8/K6k w - - 0 1",
            KingCount {
                color: Color::Black,
                count: 2,
            },
        ),
        (
            "nine pawns",
            "k7/8/8/8/8/P7/PPPPPPPP/K7 w - - 0 1",
            TooManyPieces(Color::White),
        ),
        (
            "three queens and eight pawns",
            "k7/8/8/8/QQQ5/8/PPPPPPPP/K7 w - - 0 1",
            TooManyPieces(Color::White),
        ),
        (
            "white pawn on rank 1",
            "k7/8/8/8/8/8/8/KP6 w - - 0 1",
            PawnOnBackRank(Square::parse("b1").unwrap()),
        ),
        (
            "black pawn on rank 8",
            "kp6/8/8/8/8/8/8/K7 w - - 0 1",
            PawnOnBackRank(Square::parse("b8").unwrap()),
        ),
        (
            "bad side",
            "k7/8/8/8/8/8/8/K7 x - - 0 1",
            SideToMove("x".into()),
        ),
        (
            "side not to move in check",
            "k6R/8/8/8/8/8/8/K7 w - - 0 1",
            OpponentInCheck,
        ),
        (
            "kings touching",
            "8/8/8/8/8/8/8/Kk6 w - - 0 1",
            OpponentInCheck,
        ),
        (
            "bad castling letters",
            "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1",
            Castling("KX".into()),
        ),
        (
            "castling without the rook",
            "r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            CastlingContradicted('k'),
        ),
        (
            "castling with the king away (a Chess960 position)",
            "r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1",
            NotStandardCastling,
        ),
        (
            "bad en-passant text",
            "k7/8/8/8/8/8/8/K7 w - e9 0 1",
            EnPassant("e9".into()),
        ),
        (
            "en passant on the wrong rank",
            "k7/8/8/3pP3/8/8/8/K7 w - d5 0 1",
            EnPassantImpossible(Square::parse("d5").unwrap()),
        ),
        (
            "en passant with no pawn that moved",
            "k7/8/8/4P3/8/8/8/K7 w - d6 0 1",
            EnPassantImpossible(Square::parse("d6").unwrap()),
        ),
        (
            "en passant with the origin occupied",
            "k7/3n4/8/3pP3/8/8/8/K7 w - d6 0 1",
            EnPassantImpossible(Square::parse("d6").unwrap()),
        ),
        (
            "en passant for the wrong side",
            "k7/8/8/3pP3/8/8/8/K7 b - d6 0 1",
            EnPassantImpossible(Square::parse("d6").unwrap()),
        ),
        (
            "bad half-move counter",
            "k7/8/8/8/8/8/8/K7 w - - x 1",
            Counter("x".into()),
        ),
        (
            "negative move number",
            "k7/8/8/8/8/8/8/K7 w - - 0 -1",
            Counter("-1".into()),
        ),
    ];
    for (name, fen, expected) in cases {
        assert_eq!(
            Board::from_fen(fen).err().as_ref(),
            Some(expected),
            "{name}: {fen}"
        );
    }
}

/// SAN writing and reading for named positions.
#[test]
fn san_cases() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "pawn push",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "e2e4",
            "e4",
        ),
        (
            "knight move",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "g1f3",
            "Nf3",
        ),
        (
            "pawn capture",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "e4d5",
            "exd5",
        ),
        (
            "en passant",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "e5f6",
            "exf6",
        ),
        (
            "short castling",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1g1",
            "O-O",
        ),
        (
            "long castling",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "e8c8",
            "O-O-O",
        ),
        (
            "file disambiguation",
            "k7/8/8/8/8/8/8/KN3N2 w - - 0 1",
            "b1d2",
            "Nbd2",
        ),
        (
            "rank disambiguation",
            "7k/8/8/R7/8/8/8/R6K w - - 0 1",
            "a1a3",
            "R1a3",
        ),
        (
            "square disambiguation",
            "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1",
            "h4e1",
            "Qh4e1",
        ),
        (
            "promotion",
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            "e7e8q",
            "e8=Q",
        ),
        (
            "under-promotion",
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            "e7e8n",
            "e8=N",
        ),
        (
            "capture promotion with check",
            "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1",
            "e7d8q",
            "exd8=Q+",
        ),
        ("check", "k7/8/8/8/8/8/8/K3R3 w - - 0 1", "e1e8", "Re8+"),
        ("mate", "k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8", "Rh8#"),
        (
            "smothered mate",
            "6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1",
            "g5f7",
            "Nf7#",
        ),
    ];
    for (name, fen, coordinate, san) in cases {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        let m = board
            .parse_coordinate(coordinate)
            .unwrap_or_else(|e| panic!("{name}: {coordinate} {e}"));
        assert_eq!(board.san(m), *san, "{name}");
        assert_eq!(board.parse_san(san), Ok(m), "{name}");
    }
}

#[test]
fn san_reading_is_tolerant_but_not_sloppy() {
    let start = Board::startpos();
    let castle = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let promote = Board::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    assert_eq!(castle.parse_san("0-0").unwrap().to_string(), "e1g1");
    assert_eq!(castle.parse_san("O-O-O+").unwrap().to_string(), "e1c1");
    assert_eq!(promote.parse_san("e8Q").unwrap().to_string(), "e7e8q");
    assert_eq!(promote.parse_san("e8=q").unwrap().to_string(), "e7e8q");
    assert_eq!(start.parse_san("Nf3!?").unwrap().to_string(), "g1f3");
    assert_eq!(start.parse_san("e5"), Err(MoveError::Illegal));
    assert_eq!(start.parse_san("Ke2"), Err(MoveError::Illegal));
    assert_eq!(start.parse_san("Zf3"), Err(MoveError::Syntax));
    assert_eq!(start.parse_san(""), Err(MoveError::Syntax));
    let two_knights = Board::from_fen("k7/8/8/8/8/8/8/KN3N2 w - - 0 1").unwrap();
    assert_eq!(two_knights.parse_san("Nd2"), Err(MoveError::Ambiguous));
    // e8 alone is not a move: a promotion must say what it promotes to in SAN.
    assert_eq!(promote.parse_san("e8"), Err(MoveError::Illegal));
}

#[test]
fn coordinate_reading() {
    let castle = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let promote = Board::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    assert_eq!(castle.parse_coordinate("e1g1").unwrap().to_string(), "e1g1");
    assert_eq!(
        castle.parse_coordinate("e1h1").unwrap().to_string(),
        "e1g1",
        "king takes own rook"
    );
    assert_eq!(
        castle.parse_coordinate("e1a1").unwrap().to_string(),
        "e1c1",
        "king takes own rook"
    );
    assert_eq!(
        promote.parse_coordinate("e7e8Q").unwrap().to_string(),
        "e7e8q"
    );
    assert_eq!(
        promote.parse_coordinate("e7e8r").unwrap().to_string(),
        "e7e8r"
    );
    assert_eq!(
        promote.parse_coordinate("e7e8").unwrap().to_string(),
        "e7e8q"
    );
    assert_eq!(promote.parse_coordinate("e7e8k"), Err(MoveError::Syntax));
    assert_eq!(castle.parse_coordinate("e1e3"), Err(MoveError::Illegal));
    assert_eq!(castle.parse_coordinate("e1"), Err(MoveError::Syntax));
    assert_eq!(castle.parse_coordinate("z1e3"), Err(MoveError::Syntax));
    assert_eq!(castle.parse_coordinate("é1e3"), Err(MoveError::Syntax));
    assert_eq!(castle.parse_move("Kf1").unwrap().to_string(), "e1f1");
}

/// In Chess960 castling and a plain king step can go between the same two squares. The
/// king taking its own rook is castling; the king's own step is the plain move. Each
/// position is one the UCI client test reached, where reading `d8a8` as the king's step
/// left the engine a rook that was no longer there.
#[test]
fn chess960_castling_and_the_king_step_to_the_same_square() {
    let cases = [
        (
            "queenside: king d8, rook a8, c8 empty",
            "r2k4/8/8/8/8/8/8/4K3 b a - 0 1",
            [
                ("d8a8", MoveKind::Castle, "O-O-O"),
                ("d8c8", MoveKind::Normal, "Kc8"),
            ],
        ),
        (
            "kingside: king f1, rook h1, g1 empty",
            "4k3/8/8/8/8/8/8/5K1R w H - 0 1",
            [
                ("f1h1", MoveKind::Castle, "O-O"),
                ("f1g1", MoveKind::Normal, "Kg1"),
            ],
        ),
        (
            "the game's position: black king d8, rooks a8 and e8",
            "r2kr1b1/1qpp3p/1p1n1pp1/p3n3/P3P3/1PP2PN1/2BQ1BPP/R1N1KR2 b AFa - 0 13",
            [
                ("d8a8", MoveKind::Castle, "O-O-O"),
                ("d8c8", MoveKind::Normal, "Kc8"),
            ],
        ),
    ];
    for (name, fen, moves) in cases {
        let board = Board::from_chess960_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (text, kind, san) in moves {
            let m = board
                .parse_coordinate(text)
                .unwrap_or_else(|e| panic!("{name}: {text} {e}"));
            assert_eq!(m.kind(), kind, "{name}: {text}");
            assert_eq!(board.san(m), san, "{name}: {text}");
            assert_eq!(board.uci_coordinate(m, true), text, "{name}: {text}");
            assert_eq!(board.parse_san(san), Ok(m), "{name}: {san}");
        }
    }
    // After castling the rook stands beside the king, not in its corner.
    let board = Board::from_chess960_fen(cases[0].1).unwrap();
    let mut after = board.clone();
    after.make_move(board.parse_coordinate("d8a8").unwrap());
    assert!(after.to_fen().starts_with("2kr4/"), "{}", after.to_fen());
}

/// Chess960 castling fields: X-FEN's `KQkq` names the outermost rook on each side of the
/// king, a file letter any other; Shredder-FEN names every rook by its file. Each reads
/// back to the same position and is written back in its own form; positions that differ
/// only in which rook may castle differ in key.
#[test]
fn chess960_castling_fields_read_and_write_both_forms() {
    // (X-FEN, Shredder-FEN) of the same position
    let cases = [
        (
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        ),
        // The inner of two kingside rooks castles: X-FEN names it by its file.
        (
            "4k3/8/8/8/8/8/8/R3K1RR w GQ - 0 1",
            "4k3/8/8/8/8/8/8/R3K1RR w GA - 0 1",
        ),
    ];
    for (xfen, shredder) in cases {
        let a = Board::from_chess960_fen(xfen).unwrap();
        let b = Board::from_chess960_fen(shredder).unwrap();
        assert_eq!(a, b, "{xfen}");
        assert_eq!(a.to_fen(), xfen);
        assert_eq!(a.to_shredder_fen(), shredder);
    }
    let inner = Board::from_chess960_fen("4k3/8/8/8/8/8/8/R3K1RR w G - 0 1").unwrap();
    let outer = Board::from_chess960_fen("4k3/8/8/8/8/8/8/R3K1RR w H - 0 1").unwrap();
    assert_ne!(inner.key(), outer.key());
    assert_eq!(outer.to_fen(), "4k3/8/8/8/8/8/8/R3K1RR w K - 0 1");
    // Standard chess reads only standard castling, and keeps its keys.
    assert!(Board::from_fen(cases[0].0).is_err());
    let start = ferrimax::chess::STARTPOS;
    let standard = Board::from_fen(start).unwrap();
    assert_eq!(
        Board::from_chess960_fen(start).unwrap().key(),
        standard.key()
    );
}
