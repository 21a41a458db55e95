//! Endgame tablebases through both protocols: `egtpath syzygy` and `SyzygyPath`, the
//! tables' verdict in thinking lines and `info` lines, the root's moves, won endings
//! converted within the fifty-move rule, the draw policy, and bad paths reported with the
//! game going on. The tables are the few small ones in tests/data/syzygy.

use crate::SILENT;
use crate::common::game::{Driver, ThinkingLine, is_move, is_thinking_line};
use ferrimax::chess::Board;
use ferrimax::tablebase::{Tablebases, Wdl};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
/// White's queen against a rook, White to move: won.
const QUEEN_AGAINST_ROOK: &str = "8/8/8/8/2k5/8/1r6/3QK3 w - - 0 1";
/// A rook against a bare king, the king in the middle: won in about twenty moves.
const ROOK_AGAINST_KING: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
/// Rook against rook: drawn.
const ROOK_AGAINST_ROOK: &str = "8/8/8/3r4/8/2k5/8/R3K3 w - - 0 1";
/// The smallest score the thinking lines show for a tablebase win (9800 less the plies).
const TABLEBASE_WIN_SHOWN: i64 = 9_600;

/// A CECP game at `fen`, with the test tables unless `tables` is false.
fn cecp_game(fen: &str, tables: bool) -> Driver {
    let mut d = Driver::new();
    d.send_all(&["xboard", "protover 2"]);
    if tables {
        assert_eq!(d.send(&format!("egtpath syzygy {TABLES}")), SILENT);
    }
    d.send_all(&["new", "force", &format!("setboard {fen}"), "post", "sd 5"]);
    d
}

fn tables() -> Tablebases {
    Tablebases::open(TABLES).expect("the test tables").tables
}

/// The thinking lines say what the tables say of a won ending (a tablebase win), and the
/// move played keeps the win; without the tables the score is the evaluation's.
#[test]
fn a_won_ending_shows_the_tables_verdict_and_keeps_the_win() {
    let mut d = cecp_game(QUEEN_AGAINST_ROOK, true);
    let lines = d.send("go");
    let thinking: Vec<&String> = lines.iter().filter(|l| is_thinking_line(l)).collect();
    let last = ThinkingLine::parse(thinking.last().expect("a thinking line"));
    assert!(last.score >= TABLEBASE_WIN_SHOWN, "{lines:?}");
    let m = lines
        .last()
        .and_then(|l| l.strip_prefix("move "))
        .expect("a move");
    let mut after = Board::from_fen(QUEEN_AGAINST_ROOK).unwrap();
    after.make_move(after.parse_move(m).unwrap());
    assert_eq!(tables().probe(&after), Some(Wdl::Loss), "{m}");

    let mut d = cecp_game(QUEEN_AGAINST_ROOK, false);
    let lines = d.send("go");
    let last = lines.iter().rev().find(|l| is_thinking_line(l)).unwrap();
    assert!(
        ThinkingLine::parse(last).score < TABLEBASE_WIN_SHOWN,
        "{lines:?}"
    );
}

/// UCI's `SyzygyPath`: the `info` lines carry the verdict and the hits.
#[test]
fn uci_reads_the_tables_from_syzygy_path() {
    let mut d = Driver::new();
    d.send("uci");
    assert_eq!(
        d.send(&format!("setoption name SyzygyPath value {TABLES}")),
        SILENT
    );
    d.send(&format!("position fen {QUEEN_AGAINST_ROOK}"));
    d.send("go depth 5");
    let (_, infos) = d.wait_for(|l| l.starts_with("bestmove "));
    let last = infos.last().expect("an info line");
    let words: Vec<&str> = last.split_whitespace().collect();
    let after = |name: &str| words[words.iter().position(|w| *w == name).unwrap() + 1];
    assert!(
        after("cp").parse::<i64>().unwrap() >= TABLEBASE_WIN_SHOWN,
        "{last}"
    );
    assert!(after("tbhits").parse::<u64>().unwrap() > 0, "{last}");
}

/// Both sides playing with the tables: the win comes within the fifty-move rule, by
/// mate, from positions the search alone would need many moves to sort out.
#[test]
fn won_endings_are_converted_within_the_fifty_move_rule() {
    const MOST_PLIES: usize = 100;
    for fen in [ROOK_AGAINST_KING, QUEEN_AGAINST_ROOK] {
        let mut d = cecp_game(fen, true);
        d.send("nopost");
        let mut result = None;
        for _ in 0..MOST_PLIES {
            let lines = d.send("go");
            if let Some(end) = lines
                .iter()
                .find(|l| l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("1/2-1/2"))
            {
                result = Some(end.clone());
                break;
            }
            assert!(lines.iter().any(|l| is_move(l)), "{fen}: {lines:?}");
        }
        assert_eq!(
            result.as_deref(),
            Some("1-0 {White mates}"),
            "{fen}\n{}",
            d.transcript()
        );
    }
}

/// A position the tables call drawn is a dead draw: a draw offer is accepted at once.
#[test]
fn a_drawn_ending_is_a_dead_draw() {
    let mut d = cecp_game(ROOK_AGAINST_ROOK, true);
    assert_eq!(d.send("draw"), ["offer draw"]);
    let mut d = cecp_game(ROOK_AGAINST_ROOK, false);
    assert_eq!(d.send("draw"), SILENT);
}

/// A folder that holds no tables, a file that is no table: told to the user, the good
/// tables still used, and the game goes on. A folder that is not there is a debug note
/// only in CECP: Debian's XBoard sends `egtpath syzygy /EGT/Syzygy` to every engine that
/// announces Syzygy tables, tables or not, and `tellusererror` would open a message box.
#[test]
fn bad_paths_are_reported_and_the_game_goes_on() {
    let scratch = std::env::temp_dir().join(format!("ferrimax-tables-{}", std::process::id()));
    let empty = scratch.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(scratch.join("KQvK.rtbw"), b"not a table").unwrap();
    let empty = empty.display().to_string();
    let scratch = scratch.display().to_string();
    let cases: &[(&str, &[&str], String, &[&str])] = &[
        ("XBoard's default path", &[], "/EGT/Syzygy".to_string(), &[]),
        (
            "a missing folder, debug accepted",
            &["accepted debug"],
            "/no/such/folder".to_string(),
            &["# Syzygy: no tables used: /no/such/folder: no such folder"],
        ),
        (
            "a missing folder beside the tables",
            &[],
            format!("/EGT/Syzygy:{TABLES}"),
            &[],
        ),
        (
            "a folder with no tables",
            &[],
            empty.clone(),
            &["tellusererror Syzygy: no tables used: "],
        ),
        (
            "a file that is no table",
            &[],
            format!("{scratch}:{TABLES}"),
            &["tellusererror Syzygy: "],
        ),
    ];
    for (name, setup, path, replies) in cases {
        let mut d = Driver::new();
        d.send_all(&["xboard", "protover 2", "new", "force"]);
        d.send_all(setup);
        let told = d.send(&format!("egtpath syzygy {path}"));
        assert_eq!(told.len(), replies.len(), "{name}: {told:?}");
        for (line, reply) in told.iter().zip(replies.iter()) {
            assert!(line.starts_with(reply), "{name}: {told:?}");
        }
        d.send_all(&[&format!("setboard {QUEEN_AGAINST_ROOK}"), "sd 3"]);
        let lines = d.send("go");
        assert!(
            lines.last().is_some_and(|l| is_move(l)),
            "{name}: {lines:?}"
        );
    }
    let mut d = Driver::new();
    d.send("uci");
    let told = d.send("setoption name SyzygyPath value /no/such/folder");
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0] == "info string Syzygy: no tables used: /no/such/folder: no such folder",
        "{told:?}"
    );
    // Emptying the path drops the tables, silently.
    assert_eq!(d.send("setoption name SyzygyPath value"), SILENT);
    let _ = std::fs::remove_dir_all(std::path::Path::new(&scratch));
}
