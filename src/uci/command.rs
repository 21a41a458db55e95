//! What a UCI GUI can tell the engine, as typed values.
//!
//! The parser ([`super::parse`]) turns one input line into one of these; the game manager
//! applies them. Nothing here knows the board, so moves and FENs stay text: only the game
//! manager can tell a legal move from an illegal one.

use std::fmt;

/// One line from the GUI, in the order of the command list of the UCI specification
/// (Stefan Meyer-Kahlen's "Description of the universal chess interface").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: the GUI speaks UCI; answer with `id`, the options and `uciok`.
    Uci,
    /// `debug on|off`: send more `info string` lines, or fewer.
    Debug(bool),
    /// `isready`: answer `readyok` once every earlier command is done (at once, even
    /// while searching).
    IsReady,
    /// `setoption name NAME [value VALUE]`: names and values may hold spaces.
    SetOption {
        /// The option's name, as announced.
        name: String,
        /// The text after `value`; none for a button.
        value: Option<String>,
    },
    /// `register ...`: the engine needs no registration; accepted and ignored.
    Register,
    /// `ucinewgame`: the next position is from another game.
    UciNewGame,
    /// `position startpos|fen FEN [moves M...]`.
    Position {
        /// Where the game starts.
        start: Start,
        /// The moves played from there, as sent.
        moves: Vec<String>,
    },
    /// `go ...`: search the position last set.
    Go(Go),
    /// `stop`: end the search and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the move the engine ponders on; the search goes on
    /// under the clock of the `go ponder` that started it.
    PonderHit,
    /// `quit`: exit now.
    Quit,
}

/// Where the position of a `position` command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the standard start position.
    StartPos,
    /// `fen FEN`: the FEN as sent, to be checked by the game manager.
    Fen(String),
}

/// The parameters of `go`. Times are milliseconds; a clock may be negative (a GUI that
/// reports a late move), and a number too large for its type is that type's largest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// `wtime`: White's clock.
    pub white_time: Option<i64>,
    /// `btime`: Black's clock.
    pub black_time: Option<i64>,
    /// `winc`: White's increment.
    pub white_increment: Option<i64>,
    /// `binc`: Black's increment.
    pub black_increment: Option<i64>,
    /// `movestogo`: moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// `depth`: search this many plies only.
    pub depth: Option<u32>,
    /// `nodes`: search about this many nodes only.
    pub nodes: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this long.
    pub move_time: Option<i64>,
    /// `infinite`: search until `stop`, whatever the limits say.
    pub infinite: bool,
    /// `ponder`: the position ends with the move the engine expects of its opponent;
    /// search until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves`: consider only these root moves (as sent).
    pub search_moves: Vec<String>,
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but blanks: ignored.
    Empty,
    /// No word of the line is a command.
    Unknown(String),
    /// A known command whose arguments are wrong: the line, and what is wrong.
    BadArgument {
        /// The line as received.
        line: String,
        /// What is wrong with it, for the `info string` that answers it.
        why: &'static str,
    },
}

impl fmt::Display for ParseError {
    /// What the `info string` answering a bad line says.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => Ok(()),
            ParseError::Unknown(line) => write!(f, "unknown command: {line}"),
            ParseError::BadArgument { line, why } => write!(f, "{why}: {line}"),
        }
    }
}
