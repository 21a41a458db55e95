use super::*;
use std::io::Write;

fn board_after(moves: &[&str]) -> Board {
    let mut board = Board::startpos();
    for text in moves {
        let m = board.parse_move(text).expect("legal");
        board.make_move(m);
    }
    board
}

/// The keys the format's description gives as its test of an implementation.
#[test]
fn keys_match_the_published_examples() {
    let cases: &[(&str, &[&str], u64)] = &[
        ("start position", &[], 0x463b_9618_1691_fc9c),
        ("1.e4", &["e2e4"], 0x823c_9b50_fd11_4196),
        ("1.e4 d5", &["e2e4", "d7d5"], 0x0756_b944_61c5_0fb0),
        (
            "1.e4 d5 2.e5",
            &["e2e4", "d7d5", "e4e5"],
            0x662f_afb9_65db_29d4,
        ),
        (
            "2...f5, en passant possible",
            &["e2e4", "d7d5", "e4e5", "f7f5"],
            0x22a4_8b5a_8e47_ff78,
        ),
        (
            "3.Ke2, White lost castling",
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
            0x652a_607c_a3f2_42c1,
        ),
        (
            "3...Kf7, nobody can castle",
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
            0x00fd_d303_c946_bdd9,
        ),
        (
            "3.c4, en passant for Black",
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
            0x3c81_23ea_7b06_7637,
        ),
        (
            "4.Ra3 after bxc3 e.p.",
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"],
            0x5c3f_9b82_9b27_9560,
        ),
    ];
    for (name, moves, expected) in cases {
        assert_eq!(polyglot_key(&board_after(moves)), *expected, "{name}");
    }
}

/// Writes a book of `(key, move, weight)` entries, sorted as the format requires.
fn write_book(name: &str, mut entries: Vec<(u64, u16, u16)>) -> std::path::PathBuf {
    entries.sort();
    let path = std::env::temp_dir().join(format!("ferrimax-{name}-{}.bin", std::process::id()));
    let mut file = File::create(&path).unwrap();
    for (key, mv, weight) in entries {
        file.write_all(&key.to_be_bytes()).unwrap();
        file.write_all(&mv.to_be_bytes()).unwrap();
        file.write_all(&weight.to_be_bytes()).unwrap();
        file.write_all(&0u32.to_be_bytes()).unwrap();
    }
    path
}

fn packed(from: &str, to: &str, promotion: u16) -> u16 {
    let bits = |s: &str| {
        let sq = Square::parse(s).unwrap();
        u16::from(sq.rank()) << 3 | u16::from(sq.file())
    };
    promotion << 12 | bits(from) << 6 | bits(to)
}

#[test]
fn castling_and_promotions_decode_to_the_legal_moves() {
    let castle = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let promote = Board::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let noise = 0x1234_5678_9abc_def0;
    let path = write_book(
        "edge",
        vec![
            (polyglot_key(&castle), packed("e1", "h1", 0), 30),
            (polyglot_key(&castle), packed("e1", "a1", 0), 20),
            (polyglot_key(&castle), packed("e1", "e5", 0), 99), // not a legal move
            (polyglot_key(&promote), packed("a7", "b8", 1), 5),
            (polyglot_key(&promote), packed("a7", "a8", 4), 7),
            (noise, packed("a2", "a4", 0), 1),
        ],
    );
    let book = Book::open(&path).unwrap();
    let shown = |board: &Board| -> Vec<(String, u16)> {
        book.moves(board)
            .iter()
            .map(|b| (b.mv.to_string(), b.weight))
            .collect()
    };
    assert_eq!(
        shown(&castle),
        [("e1g1".to_string(), 30), ("e1c1".to_string(), 20)]
    );
    assert_eq!(
        shown(&promote),
        [("a7a8q".to_string(), 7), ("a7b8n".to_string(), 5)]
    );
    assert!(book.moves(&Board::startpos()).is_empty());
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_file_that_is_not_a_book_is_refused() {
    let path = std::env::temp_dir().join(format!("ferrimax-cut-{}.bin", std::process::id()));
    std::fs::write(&path, [0u8; 17]).unwrap();
    assert!(matches!(
        Book::open(&path),
        Err(BookError::NotABook { bytes: 17 })
    ));
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(Book::open(&path), Err(BookError::Io(_))));
}
