//! Chess960 (`variant fischerandom`): switching the variant, Chess960 FENs in X-FEN and
//! Shredder-FEN, castling read in every form GUIs send and written as XBoard and
//! python-chess expect it (`O-O`), and bad castling input refused with the state kept.

use crate::SILENT;
use crate::common::game::{Driver, is_move};

/// A Chess960 start position (number 0: Bishops on a and b) in Shredder-FEN: king on e,
/// rooks on b and h.
const START_SHREDDER: &str = "qrbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/QRBNKBNR w HBhb - 0 1";
/// The same in X-FEN.
const START_XFEN: &str = "qrbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/QRBNKBNR w KQkq - 0 1";
/// White's king on c1 between rooks on b1 and e1, free to castle either way: long
/// castling leaves the king on c1, short takes it to g1 (Shredder-FEN `EB`).
const KING_BETWEEN_ROOKS: &str = "k6r/8/8/8/8/8/8/1RK1R3 w EB - 0 1";
/// After White's long castling there.
const AFTER_LONG_CASTLING: &str = "k6r/8/8/8/8/8/8/2KRR3 b - - 1 1";
/// A castling field naming a file without a rook (`G`), and one whose king is not
/// between its rooks (both rooks on one side, `K` and `Q`).
const NO_ROOK_ON_THE_FILE: &str = "k7/8/8/8/8/8/8/1RK1R3 w G - 0 1";
const KING_NOT_BETWEEN: &str = "k7/8/8/8/8/8/8/K1RR4 w KQ - 0 1";

/// A Chess960 game: the variant, then the position.
fn chess960(fen: &str) -> Driver {
    let mut d = Driver::new();
    d.send_all(&[
        "new",
        "variant fischerandom",
        "force",
        &format!("setboard {fen}"),
    ]);
    d
}

#[test]
fn the_variant_is_taken_and_new_ends_it() {
    let mut d = Driver::new();
    assert_eq!(d.send_all(&["new", "variant fischerandom"]), SILENT);
    assert_eq!(d.send(&format!("setboard {START_SHREDDER}")), SILENT);
    let fen_line = format!("# FEN: {START_SHREDDER}");
    assert!(d.send("d").contains(&fen_line));
    // Another variant is refused and the game is as it was.
    assert_eq!(
        d.send("variant crazyhouse"),
        ["Error (unsupported variant): crazyhouse"]
    );
    assert_eq!(d.board().to_shredder_fen(), START_SHREDDER);
    // `new` is standard chess again: a Chess960 position is refused there.
    d.send("new");
    assert_eq!(
        d.send(&format!("setboard {START_SHREDDER}")),
        ["tellusererror Illegal position"]
    );
    assert_eq!(d.board().to_fen(), ferrimax::chess::STARTPOS);
}

#[test]
fn x_fen_and_shredder_fen_are_read_and_shown_in_the_guis_own_form() {
    for fen in [START_SHREDDER, START_XFEN] {
        let d = &mut chess960(fen);
        assert_eq!(d.board().to_shredder_fen(), START_SHREDDER, "{fen}");
        assert_eq!(d.board().to_fen(), START_XFEN, "{fen}");
        assert!(d.send("d").contains(&format!("# FEN: {fen}")), "{fen}");
    }
}

#[test]
fn castling_is_read_in_every_form_and_played() {
    // (what the GUI sends, the position after it)
    let cases = [
        ("usermove O-O-O", AFTER_LONG_CASTLING),
        ("usermove 0-0-0", AFTER_LONG_CASTLING),
        ("O-O-O", AFTER_LONG_CASTLING),
        // The king takes its own rook (Polyglot's and python-chess's UCI form).
        ("usermove c1b1", AFTER_LONG_CASTLING),
    ];
    for (line, after) in cases {
        let mut d = chess960(KING_BETWEEN_ROOKS);
        assert_eq!(d.send(line), SILENT, "{line}");
        assert_eq!(d.board().to_shredder_fen(), after, "{line}");
    }
    // Short castling: the king goes from c1 to g1, the rook from e1 to f1.
    let mut d = chess960(KING_BETWEEN_ROOKS);
    assert_eq!(d.send("usermove O-O"), SILENT);
    assert_eq!(
        d.board().to_shredder_fen(),
        "k6r/8/8/8/8/8/8/1R3RK1 b - - 1 1"
    );
}

#[test]
fn the_engines_castling_is_written_o_o() {
    for (castle, expected) in [("O-O-O", "move O-O-O"), ("O-O", "move O-O")] {
        let mut d = chess960(KING_BETWEEN_ROOKS);
        d.send_all(&["sd 2", "exclude all", &format!("include {castle}")]);
        assert_eq!(d.send("go"), [expected], "{castle}");
    }
    // In standard chess castling stays the king's two-square step.
    let mut d = Driver::new();
    d.send_all(&[
        "new",
        "force",
        "setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ]);
    d.send_all(&["sd 2", "exclude all", "include O-O"]);
    assert_eq!(d.send("go"), ["move e1g1"]);
}

#[test]
fn bad_castling_input_is_refused_and_changes_nothing() {
    let mut d = chess960(AFTER_LONG_CASTLING);
    // Black to move, no rights left: castling is illegal.
    assert_eq!(d.send("usermove O-O"), ["Illegal move: O-O"]);
    assert_eq!(d.board().to_shredder_fen(), AFTER_LONG_CASTLING);
    for fen in [NO_ROOK_ON_THE_FILE, KING_NOT_BETWEEN] {
        let before = d.board().clone();
        assert_eq!(
            d.send(&format!("setboard {fen}")),
            ["tellusererror Illegal position"],
            "{fen}"
        );
        assert_eq!(d.board(), &before, "{fen}");
    }
    assert!(d.game().inconsistency().is_none());
    let moves: Vec<String> = d.send("go").into_iter().filter(|l| is_move(l)).collect();
    assert_eq!(moves.len(), 1);
}
