//! `ferrimax genfens N [--seed S] [--book FILE|None]`: opening positions for OpenBench's
//! data-generation workloads. OpenBench's client (its `genfens` module) starts the engine
//! as `ferrimax "genfens N seed S book B EXTRA" quit`, the request in one argument, and
//! keeps every stdout line that starts `info string genfens ` as a position of the book
//! its games start from, each worker with a seed of its own.
//!
//! A position is the start position (`book None`) or a book position chosen with the
//! seed, with a few random plies played from it. It is kept when it has a legal move, was
//! not kept before, and a short search with the engine's own evaluation does not score it
//! as already won or lost; the same seed gives the same positions on any machine (a
//! SplitMix64 generator, one thread, a fresh table for each search).

use super::args::{BookSource, GenfensArgs};
use super::refuse;
use crate::chess::Board;
use crate::eval::{self, nnue};
use crate::learn::SplitMix;
use crate::search::{SearchControl, SearchRequest, TranspositionTable, search};
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::Path;

/// Random plies from the start position: 8 or 9, so both sides get positions to move in,
/// far enough from the start for the games to differ and near enough for both sides to
/// still have an opening to play.
const START_PLIES: (usize, usize) = (8, 9);
/// Random plies from a book position: 2 or 3, since the book already varies the
/// openings and more random moves would spoil what its author chose.
const BOOK_PLIES: (usize, usize) = (2, 3);
/// Depth of the search that judges a position: a few milliseconds, deep enough to see a
/// piece that is lost by force.
const CHECK_DEPTH: u32 = 6;
/// A position scored beyond this (centipawns, either side) is left out: about a minor
/// piece, past which the game is decided before it starts and teaches little.
const MAX_BALANCE_CP: i32 = 300;
/// Table for each judging search (fresh each time, so each verdict depends on its
/// position alone).
const CHECK_HASH_MB: usize = 1;
/// Positions tried per position asked for before giving up: a book of dead positions
/// ends with an error instead of running forever.
const TRIES_PER_POSITION: u64 = 1_000;

/// OpenBench's names for genfens's flags, in the order it writes them.
const OPENBENCH_KEYWORDS: [(&str, &str); 2] = [("seed", "--seed"), ("book", "--book")];
/// The argument OpenBench adds after its request, for engines that read commands.
const QUIT: &str = "quit";

/// The one place where a command line is rewritten before clap reads it: OpenBench's
/// request `ferrimax "genfens N seed S book B EXTRA" quit` arrives as one argument, which
/// clap cannot take apart. It becomes `ferrimax genfens N --seed S --book B -- EXTRA`,
/// and the trailing `quit` goes. Any other command line is returned as it was.
pub fn openbench_request(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some(request) = args.get(1).and_then(|a| a.to_str()) else {
        return args;
    };
    let mut words = request.split_whitespace();
    if words.next() != Some("genfens") {
        return args;
    }
    let mut line: Vec<OsString> = vec![args[0].clone(), "genfens".into()];
    let mut words = words.map(OsString::from).peekable();
    line.extend(words.next());
    while let Some(flag) = words.peek().and_then(|w| flag_of(w.to_str()?)) {
        words.next();
        line.push(flag.into());
        line.extend(words.next());
    }
    let extra: Vec<OsString> = words.collect();
    if !extra.is_empty() {
        line.push("--".into());
        line.extend(extra);
    }
    let mut rest = args.split_off(2);
    while rest.last().is_some_and(|a| a == QUIT) {
        rest.pop();
    }
    line.extend(rest);
    line
}

/// The flag of one of OpenBench's keywords.
fn flag_of(word: &str) -> Option<&'static str> {
    OPENBENCH_KEYWORDS
        .iter()
        .find(|(keyword, _)| *keyword == word)
        .map(|(_, flag)| *flag)
}

/// Runs `ferrimax genfens`: prints the positions as they are found; the exit status (1
/// when too few could be found, 2 for a book that cannot be read).
pub fn run_genfens(args: &GenfensArgs) -> i32 {
    let (starts, plies) = match &args.book {
        BookSource::StartPosition => (vec![Board::startpos()], START_PLIES),
        BookSource::File(path) => match read_book(path) {
            Ok(starts) => (starts, BOOK_PLIES),
            Err(why) => return refuse("genfens", format!("{}: {why}", path.display())),
        },
    };
    eval::init();
    let found = generate(args.count, args.seed.value, &starts, plies, |board| {
        println!("info string genfens {}", board.to_fen());
    });
    if found < args.count {
        eprintln!(
            "genfens: only {found} of {} positions in {} tries",
            args.count,
            tries_allowed(args.count)
        );
        return 1;
    }
    0
}

/// The start positions of a book: one a line, a FEN or an EPD line (four FEN fields,
/// then the move counters or operations); blank lines and `#` comments skipped.
fn read_book(path: &Path) -> Result<Vec<Board>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut starts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = book_position(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        starts.push(board);
    }
    if starts.is_empty() {
        return Err("no position".into());
    }
    Ok(starts)
}

/// One book line's position: its first four fields, then the move counters of a FEN
/// or of an EPD line's `hmvc` and `fmvn` operations (0 and 1 when neither gives them).
fn book_position(line: &str) -> Result<Board, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err("fewer than four FEN fields".into());
    }
    let rest = &fields[4..];
    let counters = if rest.len() >= 2 && rest[..2].iter().all(|f| f.parse::<u32>().is_ok()) {
        rest[..2].join(" ")
    } else {
        let operations = rest.join(" ");
        let operation = |code: &str, default: &'static str| {
            operations
                .split(';')
                .filter_map(|op| op.trim().split_once(' '))
                .find(|(opcode, _)| *opcode == code)
                .map_or(default.to_string(), |(_, value)| value.trim().to_string())
        };
        format!("{} {}", operation("hmvc", "0"), operation("fmvn", "1"))
    };
    let fen = format!("{} {counters}", fields[..4].join(" "));
    Board::from_any_fen(&fen).map_err(|e| e.to_string())
}

/// How many positions `generate` tries for `count` before giving up.
fn tries_allowed(count: u64) -> u64 {
    count.saturating_mul(TRIES_PER_POSITION)
}

/// Finds up to `count` positions from `starts` (each with `plies` random plies, the
/// lower or upper number), calling `found` with each; returns how many were found.
fn generate(
    count: u64,
    seed: u64,
    starts: &[Board],
    plies: (usize, usize),
    mut found: impl FnMut(&Board),
) -> u64 {
    let mut rng = SplitMix(seed);
    let mut seen = HashSet::new();
    let mut kept = 0;
    for _ in 0..tries_allowed(count) {
        if kept == count {
            break;
        }
        let start = &starts[rng.below(starts.len())];
        let ply_count = plies.0 + rng.below(plies.1 - plies.0 + 1);
        let Some(board) = random_walk(start, ply_count, &mut rng) else {
            continue;
        };
        if !seen.contains(&board.key()) && is_balanced(&board) {
            seen.insert(board.key());
            found(&board);
            kept += 1;
        }
    }
    kept
}

/// `start` with `plies` random legal moves played, or `None` when a position on the way
/// (the last one included) has no legal move.
fn random_walk(start: &Board, plies: usize, rng: &mut SplitMix) -> Option<Board> {
    let mut board = start.clone();
    for _ in 0..plies {
        let moves = board.legal_moves();
        let m = *moves.iter().nth(rng.below(moves.len().max(1)))?;
        board.make_move(m);
    }
    board.has_legal_move().then_some(board)
}

/// Whether a short search with the embedded network scores `board` within
/// `MAX_BALANCE_CP` of equal.
fn is_balanced(board: &Board) -> bool {
    let table = TranspositionTable::new(CHECK_HASH_MB);
    let request = SearchRequest::new(board.clone())
        .depth(CHECK_DEPTH)
        .network(Some(nnue::embedded()));
    let result = search(&request, &table, &SearchControl::new(), &mut |_| {});
    eval::to_centipawns(result.score).abs() <= MAX_BALANCE_CP
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn openbench_requests_become_flags() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "OpenBench without a book (its trailing space included)",
                &["ferrimax", "genfens 64 seed 1234 book None ", "quit"],
                &[
                    "ferrimax", "genfens", "64", "--seed", "1234", "--book", "None",
                ],
            ),
            (
                "OpenBench with a book and extra words",
                &[
                    "ferrimax",
                    "genfens 8 seed 5 book Books/x.epd depth 3",
                    "quit",
                ],
                &[
                    "ferrimax",
                    "genfens",
                    "8",
                    "--seed",
                    "5",
                    "--book",
                    "Books/x.epd",
                    "--",
                    "depth",
                    "3",
                ],
            ),
            (
                "typed by hand, quit at the end",
                &["ferrimax", "genfens", "3", "--seed", "2", "quit"],
                &["ferrimax", "genfens", "3", "--seed", "2"],
            ),
            (
                "another mode is left alone",
                &["ferrimax", "bench", "quit"],
                &["ferrimax", "bench", "quit"],
            ),
            ("no arguments", &["ferrimax"], &["ferrimax"]),
        ];
        for (name, given, wanted) in cases {
            assert_eq!(openbench_request(words(given)), words(wanted), "{name}");
        }
    }

    #[test]
    fn book_lines_are_fens_or_epd() {
        let cases = [
            (
                "FEN",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                true,
            ),
            (
                "EPD with operations",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;",
                true,
            ),
            (
                "EPD with other operations",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 \"1-0\";",
                true,
            ),
            (
                "EPD with a bad move count",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - fmvn x;",
                false,
            ),
            (
                "four fields",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
                true,
            ),
            (
                "three fields",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq",
                false,
            ),
            ("no position", "8/8/8/8/8/8/8/8 w - - 0 1", false),
        ];
        for (name, line, readable) in cases {
            assert_eq!(book_position(line).is_ok(), readable, "{name}");
        }
        let epd = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3;";
        assert_eq!(
            book_position(epd).expect("a position").to_fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "the counters of the operations"
        );
    }

    fn positions(count: u64, seed: u64, starts: &[Board], plies: (usize, usize)) -> Vec<Board> {
        let mut boards = Vec::new();
        let found = generate(count, seed, starts, plies, |b| boards.push(b.clone()));
        assert_eq!(found, count);
        boards
    }

    /// Distinct, playable, balanced positions, the same for the same seed.
    #[test]
    fn positions_are_varied_playable_and_reproducible() {
        eval::init();
        let start = [Board::startpos()];
        let boards = positions(12, 7, &start, START_PLIES);
        let keys: HashSet<u64> = boards.iter().map(Board::key).collect();
        assert_eq!(keys.len(), boards.len(), "no position twice");
        for board in &boards {
            assert!(board.has_legal_move(), "{}", board.to_fen());
            let plies = usize::from(board.fullmove_number() - 1) * 2
                + usize::from(board.side_to_move() == crate::chess::Color::Black);
            assert!((8..=9).contains(&plies), "{}", board.to_fen());
            assert!(is_balanced(board), "{}", board.to_fen());
        }
        let fens = |boards: &[Board]| boards.iter().map(Board::to_fen).collect::<Vec<_>>();
        assert_eq!(fens(&positions(12, 7, &start, START_PLIES)), fens(&boards));
        assert_ne!(fens(&positions(12, 8, &start, START_PLIES)), fens(&boards));
    }

    /// From a book, the positions descend from its positions; a book with no playable
    /// line of play gives up instead of running forever.
    #[test]
    fn book_positions_are_the_starts() {
        eval::init();
        // Both sides without queens: so is every position that descends from it.
        let queenless = book_position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
            .expect("a position");
        for board in positions(5, 3, std::slice::from_ref(&queenless), BOOK_PLIES) {
            let fen = board.to_fen();
            let placement = fen.split(' ').next().unwrap_or_default();
            assert!(!placement.contains(['q', 'Q']), "{fen}");
        }
        let stalemate = book_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").expect("a position");
        assert_eq!(generate(2, 1, &[stalemate], BOOK_PLIES, |_| {}), 0);
    }
}
