//! Endgame tablebases: Ronald de Man's Syzygy tables, which know every position with a
//! few pieces exactly: whether it is won, drawn or lost (WDL), and how far the next
//! capture or pawn move of the best play is (DTZ, distance to zeroing), which is what
//! wins under the fifty-move rule.
//!
//! The tables are read with shakmaty-syzygy (Niklas Fiekas's prober, in pure Rust).
//! Compared here with pyrrhic-rs (a translation of the C prober Pyrrhic) and
//! fathom-syzygy (bindings to the C prober Fathom): the C probers are faster per probe
//! (0.6 to 1.4 µs against shakmaty-syzygy's 5 µs for a KRPvKR WDL probe on this
//! project's machine), but both keep one global set of tables per process (a second
//! `egtpath` cannot replace it), and the translated C stops the process on some errors;
//! shakmaty-syzygy is safe code, reports a truncated or corrupt table as an error of the
//! probe, takes tables from any number of folders at any time, and is shared by the
//! search threads without a lock. The search probes rarely enough (after a capture or
//! pawn move, with few pieces, and remembers what it found in the hash table) for the
//! slower probe not to matter. Its safe file access (no memory map) is used, so that a
//! table file changed under the engine cannot crash it.
//!
//! This module turns the engine's board into the prober's position, and answers the
//! three questions the engine asks: the WDL of a position just after a capture or pawn
//! move (the search), the result of a position with its fifty-move counter (the draw
//! policy), and which root moves keep the best result (the root of a search).

use crate::chess::{Board, Color, Move, PieceType};
use shakmaty::{CastlingMode, Chess, FromSetup, Position, Setup};
use shakmaty_syzygy::{AmbiguousWdl, Dtz, SyzygyError, Tablebase};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The first bytes of a WDL table file and of a DTZ table file.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];
/// The file name endings of the two kinds of table.
const WDL_SUFFIX: &str = "rtbw";
const DTZ_SUFFIX: &str = "rtbz";
/// Half-moves the fifty-move rule allows without a capture or pawn move.
const FIFTY_MOVES: i32 = 100;

/// The result of a position for the side to move, as the tables tell it. A cursed win
/// is a win that the fifty-move rule turns into a draw, a blessed loss a loss it saves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but drawn by the fifty-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but drawn by the fifty-move rule.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// The result that counts: with the fifty-move rule (`rule50`) cursed wins and blessed
    /// losses are draws, without it they are wins and losses.
    pub fn counted(self, rule50: bool) -> Wdl {
        match self {
            Wdl::CursedWin if rule50 => Wdl::Draw,
            Wdl::BlessedLoss if rule50 => Wdl::Draw,
            Wdl::CursedWin => Wdl::Win,
            Wdl::BlessedLoss => Wdl::Loss,
            other => other,
        }
    }

    /// The same result seen by the other side.
    fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn from_prober(wdl: shakmaty_syzygy::Wdl) -> Wdl {
        match wdl {
            shakmaty_syzygy::Wdl::Loss => Wdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => Wdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => Wdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => Wdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => Wdl::Win,
        }
    }
}

/// What the tables say at the root of a search: the best result the side to move can
/// reach, and the moves that reach it best (see [`Tablebases::root`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootVerdict {
    /// The result of the position, counted as the fifty-move setting asks.
    pub wdl: Wdl,
    /// The moves that keep it, fastest to the next capture or pawn move first when
    /// winning, slowest when losing; every move that holds when drawn.
    pub moves: Vec<Move>,
    /// Half-moves to the next capture or pawn move (or mate) of the best play: for the
    /// winner the fewest, for the loser the most; 0 when drawn.
    pub distance: i32,
}

/// A set of Syzygy tables from one or more folders, shared by the search threads.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    /// The most pieces of any table: positions with more are not probed.
    max_pieces: u32,
    /// Table files taken.
    files: usize,
    /// The first probe that failed on a table file (truncated or corrupt), until the
    /// game manager has told the user.
    failure: Mutex<Option<String>>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tablebases({} files, {} pieces)",
            self.files, self.max_pieces
        )
    }
}

/// Tables opened from a path, and what was wrong with some of it.
pub struct Opened {
    /// The tables found.
    pub tables: Tablebases,
    /// Each folder or file that was left out, and why.
    pub problems: Vec<Problem>,
}

/// Why a folder or file of a tablebase path was left out.
///
/// A folder that does not exist is told apart from the rest because GUIs send a
/// default path that often does not exist: Debian's XBoard sends `egtpath syzygy
/// /EGT/Syzygy` to every engine that announces Syzygy tables, and a message box about
/// it at every start would be noise. What exists and is wrong is a mistake to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The path names no folder.
    NoFolder(PathBuf),
    /// A folder or file that exists and could not be read, or is no table.
    Unusable(String),
    /// A folder that holds no table at all.
    NoTables(PathBuf),
    /// The path was empty.
    NothingGiven,
}

impl Problem {
    /// Whether this is only a folder that is not there (a GUI's default path).
    pub fn is_missing_folder(&self) -> bool {
        matches!(self, Problem::NoFolder(_))
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::NoFolder(folder) => write!(f, "{}: no such folder", folder.display()),
            Problem::Unusable(why) => f.write_str(why),
            Problem::NoTables(folder) => write!(f, "{}: no Syzygy tables there", folder.display()),
            Problem::NothingGiven => f.write_str("no folder given"),
        }
    }
}

impl Tablebases {
    /// Opens every table in the folders of `paths` (separated as the system separates
    /// paths: `:` on Unix, `;` on Windows, as XBoard and Stockfish take them). Folders
    /// that do not exist and files that are no tables are left out and reported; the
    /// result is an error (with every problem) when no table at all was found.
    pub fn open(paths: &str) -> Result<Opened, Vec<Problem>> {
        let mut tables = Tablebase::new();
        let mut problems = Vec::new();
        let mut files = 0;
        for folder in std::env::split_paths(paths).filter(|p| !p.as_os_str().is_empty()) {
            let found = match table_files(&folder) {
                Ok(found) => found,
                Err(why) => {
                    problems.push(why);
                    continue;
                }
            };
            let before = files;
            for file in found {
                match check_table(&file).and_then(|()| {
                    tables
                        .add_file(&file)
                        .map_err(|e| format!("{}: not a Syzygy table ({e})", file.display()))
                }) {
                    Ok(()) => files += 1,
                    Err(why) => problems.push(Problem::Unusable(why)),
                }
            }
            if files == before {
                problems.push(Problem::NoTables(folder));
            }
        }
        if files == 0 {
            if problems.is_empty() {
                problems.push(Problem::NothingGiven);
            }
            return Err(problems);
        }
        let max_pieces = u32::try_from(tables.max_pieces()).unwrap_or(u32::MAX);
        Ok(Opened {
            tables: Tablebases {
                tables,
                max_pieces,
                files,
                failure: Mutex::new(None),
            },
            problems,
        })
    }

    /// The most pieces (kings included) of any table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// How many table files were taken.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Whether `board` may be in the tables: few enough pieces and no castling rights.
    pub fn covers(&self, board: &Board) -> bool {
        board.piece_count() <= self.max_pieces && board.castling().bits() == 0
    }

    /// The result of `board` for the side to move, for a position reached by a capture
    /// or pawn move (its fifty-move counter at 0): the question the search asks, which
    /// needs the WDL tables only. `None` when the tables do not know the position.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        let position = self.position(board)?;
        let wdl = self.answer(self.tables.probe_wdl_after_zeroing(&position))?;
        Some(Wdl::from_prober(wdl))
    }

    /// The result of `board` with its own fifty-move counter (which needs the DTZ
    /// tables): `None` when the tables do not know it, or cannot tell because of the
    /// rounding of some DTZ tables.
    pub fn probe(&self, board: &Board) -> Option<Wdl> {
        let position = self.position(board)?;
        let wdl = self.answer(self.tables.probe_wdl(&position))?;
        wdl.unambiguous().map(Wdl::from_prober)
    }

    /// The root moves that keep the best result of `board` (counted with the fifty-move
    /// rule if `rule50`), from the DTZ of the position after each: when winning, the
    /// moves that reach the next capture or pawn move (or mate) fastest, so that the win
    /// comes within the fifty-move rule whatever the search prefers; when losing, those
    /// that hold out longest; when drawn, every drawing move. `None` when the tables do
    /// not know a position after some move.
    pub fn root(&self, board: &Board, rule50: bool) -> Option<RootVerdict> {
        if !self.covers(board) {
            return None;
        }
        let legal = board.legal_moves();
        let mut ranked = Vec::with_capacity(legal.len());
        for &m in legal.iter() {
            let mut after = board.clone();
            after.make_move(m);
            ranked.push((m, self.outcome_after(&after)?));
        }
        let best = ranked.iter().map(|(_, o)| o.wdl.counted(rule50)).max()?;
        let keeps: Vec<&(Move, Outcome)> = ranked
            .iter()
            .filter(|(_, o)| o.wdl.counted(rule50) == best)
            .collect();
        let distance = match best {
            Wdl::Win | Wdl::CursedWin => keeps.iter().map(|(_, o)| o.distance).min()?,
            Wdl::Loss | Wdl::BlessedLoss => keeps.iter().map(|(_, o)| o.distance).max()?,
            Wdl::Draw => 0,
        };
        let moves = keeps
            .iter()
            .filter(|(_, o)| best == Wdl::Draw || o.distance == distance)
            .map(|(m, _)| *m)
            .collect();
        Some(RootVerdict {
            wdl: best,
            moves,
            distance,
        })
    }

    /// Takes the message of the first probe that failed on a table file, if one did
    /// since the last call: for the user, once.
    pub fn take_failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }

    /// What the tables say of the position `after` our move: its result for us, and the
    /// half-moves from our move to the next zeroing (or mate) of the best play.
    fn outcome_after(&self, after: &Board) -> Option<Outcome> {
        if !after.has_legal_move() {
            let wdl = if after.in_check() {
                Wdl::Win
            } else {
                Wdl::Draw
            };
            return Some(Outcome { wdl, distance: 1 });
        }
        let position = self.position(after)?;
        let dtz = self.answer(self.tables.probe_dtz(&position))?;
        let theirs = AmbiguousWdl::from_dtz_and_halfmoves(dtz, position.halfmoves());
        let wdl = Wdl::from_prober(theirs.after_zeroing()).flipped();
        let Dtz(plies) = dtz.ignore_rounding();
        // A zeroing move is itself the progress; otherwise it takes their plies after it.
        let distance = if after.halfmove_clock() == 0 {
            1
        } else {
            plies.abs().saturating_add(1).min(FIFTY_MOVES * 2)
        };
        Some(Outcome { wdl, distance })
    }

    /// The prober's position for `board`, if the tables may know it.
    fn position(&self, board: &Board) -> Option<Chess> {
        if !self.covers(board) {
            return None;
        }
        to_position(board)
    }

    /// The value of a probe, or `None`; a table that failed is remembered for the user.
    fn answer<T>(&self, probe: Result<T, SyzygyError>) -> Option<T> {
        match probe {
            Ok(value) => Some(value),
            Err(error @ SyzygyError::ProbeFailed { .. }) => {
                let mut failure = self
                    .failure
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                if failure.is_none() {
                    let text = error.to_string();
                    // A corrupt table's message carries a backtrace: the first line says it.
                    let first = text.lines().next().unwrap_or_default().to_string();
                    log::warn!("{first}");
                    *failure = Some(first);
                }
                None
            }
            Err(_) => None,
        }
    }
}

/// What a root move leads to (see [`Tablebases::root`]).
#[derive(Copy, Clone, Debug)]
struct Outcome {
    wdl: Wdl,
    distance: i32,
}

/// The `.rtbw` and `.rtbz` files of `folder`, sorted; an error when it is no folder.
fn table_files(folder: &Path) -> Result<Vec<PathBuf>, Problem> {
    let entries = std::fs::read_dir(folder).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Problem::NoFolder(folder.to_path_buf())
        } else {
            Problem::Unusable(format!("{}: {e}", folder.display()))
        }
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == WDL_SUFFIX || ext == DTZ_SUFFIX)
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Whether `file` starts as a table of its kind does.
fn check_table(file: &Path) -> Result<(), String> {
    use std::io::Read;
    let mut magic = [0u8; 4];
    let read = std::fs::File::open(file).and_then(|mut f| f.read_exact(&mut magic));
    if let Err(e) = read {
        return Err(format!("{}: {e}", file.display()));
    }
    let expected = if file.extension().is_some_and(|ext| ext == WDL_SUFFIX) {
        WDL_MAGIC
    } else {
        DTZ_MAGIC
    };
    if magic == expected {
        Ok(())
    } else {
        Err(format!("{}: not a Syzygy table", file.display()))
    }
}

/// The prober's position for `board` (which has no castling rights).
fn to_position(board: &Board) -> Option<Chess> {
    let mut placement = shakmaty::Board::empty();
    for color in [Color::White, Color::Black] {
        for square in board.pieces(color) {
            let kind = board.piece_at(square).kind()?;
            let piece = shakmaty::Piece {
                color: prober_color(color),
                role: prober_role(kind),
            };
            placement.set_piece_at(prober_square(square), piece);
        }
    }
    let setup = Setup {
        board: placement,
        turn: prober_color(board.side_to_move()),
        ep_square: board.en_passant().map(prober_square),
        halfmoves: u32::from(board.halfmove_clock()),
        ..Setup::empty()
    };
    // An en-passant square without a capture there is the FEN's habit, not a fault.
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
        .ok()
}

fn prober_color(color: Color) -> shakmaty::Color {
    match color {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    }
}

fn prober_role(kind: PieceType) -> shakmaty::Role {
    match kind {
        PieceType::Pawn => shakmaty::Role::Pawn,
        PieceType::Knight => shakmaty::Role::Knight,
        PieceType::Bishop => shakmaty::Role::Bishop,
        PieceType::Rook => shakmaty::Role::Rook,
        PieceType::Queen => shakmaty::Role::Queen,
        PieceType::King => shakmaty::Role::King,
    }
}

#[allow(clippy::cast_possible_truncation, reason = "index64 is below 64")]
fn prober_square(square: crate::chess::Square) -> shakmaty::Square {
    shakmaty::Square::new(square.index64() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables the tests carry (tests/data/syzygy).
    fn tables() -> Tablebases {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        Tablebases::open(folder).expect("the test tables").tables
    }

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect(fen)
    }

    /// Named positions and what the tables say of them.
    #[test]
    fn positions_read_as_the_tables_know_them() {
        let tb = tables();
        let cases = [
            (
                "KRvK, White to move",
                "8/8/8/8/8/2k5/8/R3K3 w - - 0 1",
                Some(Wdl::Win),
            ),
            (
                "KRvK, Black to move",
                "8/8/8/8/8/2k5/8/R3K3 b - - 0 1",
                Some(Wdl::Loss),
            ),
            (
                "bare kings, drawn without a table",
                "8/8/8/8/8/2k5/8/4K3 w - - 0 1",
                Some(Wdl::Draw),
            ),
            (
                "KQvKQ: no table here",
                "8/8/8/8/q7/2k5/8/4K2Q w - - 0 1",
                None,
            ),
            (
                "KRvKR drawn",
                "8/8/8/3r4/8/2k5/8/R3K3 w - - 0 1",
                Some(Wdl::Draw),
            ),
            (
                "KPvK won",
                "8/8/8/8/8/5k2/1P6/1K6 w - - 0 1",
                Some(Wdl::Win),
            ),
            (
                "KPvK drawn",
                "k7/8/8/P7/8/8/8/1K6 w - - 0 1",
                Some(Wdl::Draw),
            ),
            (
                "castling rights: not probed",
                "8/8/8/8/8/2k5/8/R3K3 w Q - 0 1",
                None,
            ),
            (
                "too many pieces",
                "r7/8/8/8/2k5/8/1P6/R3K2R w - - 0 1",
                None,
            ),
        ];
        for (name, fen, expected) in cases {
            assert_eq!(tb.probe_wdl(&board(fen)), expected, "{name}");
        }
    }

    /// At the root a won position keeps only the moves that reach the next zeroing
    /// fastest; a drawn one every move that holds; a lost one the slowest.
    #[test]
    fn the_root_keeps_the_moves_that_keep_the_result() {
        let tb = tables();
        // A queen against a rook: won, and the tables pick the fastest way.
        let won = board("8/8/8/8/2k5/8/1r6/3QK3 w - - 0 1");
        let verdict = tb.root(&won, true).expect("in the tables");
        assert_eq!(verdict.wdl, Wdl::Win);
        assert!(!verdict.moves.is_empty());
        for &m in &verdict.moves {
            let mut after = won.clone();
            after.make_move(m);
            assert!(matches!(tb.probe(&after), Some(Wdl::Loss)), "{m}");
        }
        // Rook against rook: every move that keeps the draw (not the one that hangs the
        // rook).
        let drawn = board("8/8/8/3r4/8/2k5/8/R3K3 w - - 0 1");
        let verdict = tb.root(&drawn, true).expect("in the tables");
        assert_eq!(verdict.wdl, Wdl::Draw);
        assert!(verdict.moves.len() > 5);
        // The side with the bare king loses whatever it does, as slowly as it can.
        let lost = board("8/8/8/8/8/2k5/8/R3K3 b - - 0 1");
        let verdict = tb.root(&lost, true).expect("in the tables");
        assert_eq!(verdict.wdl, Wdl::Loss);
        assert!(verdict.distance > 0);
    }

    /// A folder that does not exist, a file that is no table, a table cut short:
    /// reported, and the good tables are still taken.
    #[test]
    fn bad_folders_and_files_are_reported() {
        let scratch = std::env::temp_dir().join(format!("ferrimax-tb-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).unwrap();
        std::fs::write(scratch.join("KQvK.rtbw"), b"no table at all, just text").unwrap();
        // A real table cut short, as a download broken off leaves it.
        let real = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy/KRvK.rtbz");
        let bytes = std::fs::read(real).unwrap();
        std::fs::write(scratch.join("KRvK.rtbz"), &bytes[..bytes.len() / 2]).unwrap();
        let good = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
        let missing = "/no/such/folder";
        let paths = std::env::join_paths([Path::new(good), &scratch, Path::new(missing)])
            .unwrap()
            .into_string()
            .unwrap();
        let opened = Tablebases::open(&paths).expect("the good folder");
        assert!(opened.tables.files() > 0);
        let problems: Vec<String> = opened.problems.iter().map(ToString::to_string).collect();
        let problems = problems.join("\n");
        assert!(
            problems.contains("KQvK.rtbw: not a Syzygy table"),
            "{problems}"
        );
        assert!(
            problems.contains("KRvK.rtbz: not a Syzygy table"),
            "{problems}"
        );
        assert!(
            problems.contains("/no/such/folder: no such folder"),
            "{problems}"
        );
        let none = Tablebases::open(missing).err().expect("no tables");
        assert_eq!(none, [Problem::NoFolder(missing.into())]);
        assert!(none[0].is_missing_folder());
        assert!(Tablebases::open("").is_err());
        let _ = std::fs::remove_dir_all(scratch);
    }
}
