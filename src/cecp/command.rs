//! What the GUI can tell the engine, as typed values.
//!
//! The parser ([`super::parse`]) turns one input line into one of these; the game manager
//! applies them. Nothing here knows the board, so moves and FENs stay text: only the game
//! manager can tell a legal move from an illegal one.

use std::fmt;
use std::time::Duration;

use super::message::{ErrorKind, Message};

/// One line from the GUI in normal (non-edit) mode.
///
/// Variants follow the order of the command list in the CECP specification. Arguments are typed where the protocol fixes
/// their form, raw text where only the game manager can interpret them (moves, FENs,
/// option values, names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `xboard`: leave any interactive mode; the first line a GUI sends.
    Xboard,
    /// `protover N`: the GUI speaks protocol N (always 2 in practice); reply with features.
    Protover(u32),
    /// `accepted NAME`: the GUI took a feature we offered.
    Accepted(String),
    /// `rejected NAME` (for options the whole offending option text).
    Rejected(String),
    /// `new`: start a new game from the initial position, engine plays Black.
    New,
    /// `variant NAME`: the coming game is not normal chess.
    Variant(String),
    /// `force`: play neither side; stop thinking without moving.
    Force,
    /// `go`: play the side to move, start thinking now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `white` (obsolete): White to move, engine plays Black.
    White,
    /// `black` (obsolete): Black to move, engine plays White.
    Black,
    /// `edit`: the following lines are board edits; see [`super::parse_edit`].
    Edit,
    /// `setboard FEN`: the FEN as sent, to be checked by the game manager.
    SetBoard(String),
    /// `quit`: exit now.
    Quit,
    /// `random`: GNU Chess's randomisation toggle.
    Random,
    /// `level MPS BASE INC`: conventional or incremental clock.
    Level(Level),
    /// `st SECS`: a hard cap on the time for each move.
    MoveTime(Duration),
    /// `sd DEPTH`: search no deeper than DEPTH plies.
    Depth(u32),
    /// `nps RATE`: measure time in nodes, RATE nodes per second.
    Nps(u64),
    /// `time N`: the engine's own clock. Centiseconds; may be zero or negative.
    Time {
        /// Time left, in hundredths of a second.
        centis: i64,
    },
    /// `otim N`: the opponent's clock. Centiseconds; may be zero or negative.
    OpponentTime {
        /// Time left, in hundredths of a second.
        centis: i64,
    },
    /// `usermove MOVE`, or a bare line that looks like a move. The text as sent.
    UserMove(String),
    /// `?`: stop thinking and play the best move found so far.
    MoveNow,
    /// `ping N`: answer `pong N` once everything before it is done. The token is kept
    /// verbatim because the GUI compares the reply byte for byte.
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result RESULT {COMMENT}`: the game is over.
    Result {
        /// Who won, or `*` for a game stopped unfinished.
        result: GameResult,
        /// The reason as the GUI wrote it, without the braces.
        comment: Option<String>,
    },
    /// `undo`: take back one half-move.
    Undo,
    /// `remove`: take back two half-moves.
    Remove,
    /// `hard`: pondering on.
    Hard,
    /// `easy`: pondering off.
    Easy,
    /// `post`: print thinking lines.
    Post,
    /// `nopost`: do not print thinking lines.
    NoPost,
    /// `analyze`: analyse the position until `exit`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: in analyze mode, print a `stat01:` line.
    StatusRequest,
    /// `hint`: suggest a move for the user.
    Hint,
    /// `bk`: show the book moves for the position.
    Book,
    /// `d` (not CECP; for people at a terminal): show the board, its FEN and the moves.
    ShowBoard,
    /// `help` (not CECP; for people at a terminal): list the commands.
    Help,
    /// `name X`: the opponent's name.
    Name(String),
    /// `rating ENGINE OPP`: ratings, our own first; 0 means unrated.
    Rating {
        /// The engine's own rating.
        engine: i32,
        /// The opponent's rating.
        opponent: i32,
    },
    /// `ics HOST`: the ICS host name, or `-` for local play.
    Ics(String),
    /// `computer`: the opponent is a program.
    Computer,
    /// `pause`: freeze thinking, pondering and clocks.
    Pause,
    /// `resume`: continue after `pause`.
    Resume,
    /// `memory MB`: total memory for hash tables and caches.
    Memory(u64),
    /// `cores N`: the most threads the search may use.
    Cores(u32),
    /// `egtpath TYPE PATH`: where tablebases of a format live.
    EgtPath {
        /// The format, e.g. `syzygy`.
        kind: String,
        /// The directory (or list of them) as sent.
        path: String,
    },
    /// `option NAME[=VALUE]`: set an engine-defined option; no value for buttons.
    SetOption {
        /// The option's name as offered in `feature option`.
        name: String,
        /// The new value as text; only the option knows its type.
        value: Option<String>,
    },
    /// `exclude MOVE|all`: remove root moves from the search.
    Exclude(MoveSet),
    /// `include MOVE|all`: put root moves back.
    Include(MoveSet),
    /// `setscore SCORE DEPTH`: take SCORE as the position's value up to DEPTH.
    SetScore {
        /// Centipawns.
        score: i32,
        /// Plies the score is good for.
        depth: u32,
    },
    /// `lift SQ` (feature highlight): the user picked up a piece.
    Lift(String),
    /// `put SQ` (feature highlight): the user dropped a piece.
    Put(String),
    /// `hover SQ` (feature highlight): the user moves a piece over a square.
    Hover(String),
    /// `partner [NAME]` (bughouse, Zippy): the partner, or none.
    Partner(Option<String>),
    /// `ptell TEXT` (bughouse, Zippy): a message from the partner.
    Ptell(String),
    /// `holding ...` (bughouse/crazyhouse, Zippy): the pieces in hand, as sent.
    Holding(String),
    /// `uci`: XBoard's protocol probe. Recognised only so it is refused with an error
    /// rather than mistaken for something else.
    Uci,
}

/// The time control of `level MPS BASE INC`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Moves until the next time addition; 0 means the whole game is one session.
    pub moves_per_session: u32,
    /// Time added at the start of each session (or, mid-game, the time now on the clock).
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// How a game ended; shared by the GUI's `result` and the engine's own claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: ended without a result (aborted, adjourned).
    Unfinished,
}

impl GameResult {
    /// The protocol text of the result.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WhiteWins => "1-0",
            Self::BlackWins => "0-1",
            Self::Draw => "1/2-1/2",
            Self::Unfinished => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The argument of `exclude` / `include`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveSet {
    /// `all`: every legal move.
    All,
    /// One move, as sent.
    One(String),
}

/// One line from the GUI while in edit mode (after `edit`, until `.`).
///
/// Edit mode has its own tiny language in which `c`, `#` and `.` mean something else than
/// at top level, so the game manager picks the parser by its mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditCommand {
    /// `c`: the following placements are for the other colour (starts as White).
    SwitchColor,
    /// `#`: empty the board.
    ClearBoard,
    /// `.`: leave edit mode.
    Done,
    /// `Pa4`: put a piece (one of `PNBRQK`) on a square (`a1`..`h8`).
    Place {
        /// One of `PNBRQK`; the colour comes from the `c` toggles.
        piece: char,
        /// The square, `a1` to `h8`.
        square: String,
    },
    /// `xa4`: empty a square.
    ClearSquare(String),
}

/// Why a line did not become a command. Each carries the line (without the line ending
/// and surrounding blanks) because the protocol's error replies quote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// A blank line: ignore it.
    Empty,
    /// Not a command and not a move: answer `Error (unknown command): LINE`.
    Unknown(String),
    /// A known command with missing or malformed arguments: answer
    /// `Error (bad argument): LINE`.
    BadArgument(String),
}

impl ParseError {
    /// The protocol reply the engine owes the GUI, if any.
    pub fn reply(&self) -> Option<Message> {
        let (kind, line) = match self {
            Self::Empty => return None,
            Self::Unknown(line) => (ErrorKind::UnknownCommand, line),
            Self::BadArgument(line) => (ErrorKind::BadArgument, line),
        };
        Some(Message::Error {
            kind,
            command: line.clone(),
        })
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty line"),
            Self::Unknown(line) => write!(f, "unknown command: {line}"),
            Self::BadArgument(line) => write!(f, "bad argument: {line}"),
        }
    }
}

impl std::error::Error for ParseError {}
