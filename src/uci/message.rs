//! What the engine can tell a UCI GUI, and the exact text of each line.
//!
//! Every line the engine prints in UCI is built here from typed values, as for CECP; any
//! `\r` or `\n` inside a text argument is printed as a space, so a message can never turn
//! into two lines.

use std::fmt;

/// The author line of `id`.
pub const AUTHOR: &str = "the Ferrimax developers";

/// One line from the engine to the GUI. `Display` writes the protocol text without the
/// line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// `id name NAME`
    IdName(String),
    /// `id author AUTHOR`
    IdAuthor(String),
    /// `option name NAME type ...`
    Option(EngineOption),
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `bestmove MOVE [ponder MOVE]`: the end of every search. `0000` when the position
    /// has no legal move.
    BestMove {
        /// The move, in the coordinates of UCI.
        best: String,
        /// The reply expected, for the GUI's pondering.
        ponder: Option<String>,
    },
    /// `info ...`: one line of the search's progress.
    Info(Info),
    /// `info string TEXT`: a message for the user (what was wrong with a command, a book
    /// move, a debug note).
    InfoString(String),
}

/// A score as UCI writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// `cp N`: centipawns, from the side to move's point of view.
    Centipawns(i32),
    /// `mate N`: mate in N moves; negative when the side to move is mated.
    Mate(i32),
}

/// Whether a score is exact or a bound (a search that failed high or low on its window).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// The fields of an `info` line about the search, in the order the specification
/// lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// `depth`: the iteration.
    pub depth: u32,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: u32,
    /// `multipv`: which line (1 the best); written only when several lines are searched.
    pub multipv: Option<usize>,
    /// `score`.
    pub score: Score,
    /// `lowerbound` / `upperbound` after the score.
    pub bound: ScoreBound,
    /// `nodes`.
    pub nodes: u64,
    /// `nps`.
    pub nps: u64,
    /// `hashfull`: the table's fill in permille.
    pub hashfull: u32,
    /// `tbhits`.
    pub tbhits: u64,
    /// `time` in milliseconds.
    pub time_ms: u64,
    /// `pv`: the principal variation in UCI's coordinates.
    pub pv: Vec<String>,
}

/// An option as `uci` announces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOption {
    /// The name the GUI sends back in `setoption`.
    pub name: String,
    /// Its type, default and bounds.
    pub kind: OptionKind,
}

/// The types of UCI options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`
    Check(bool),
    /// `type spin default D min MIN max MAX`
    Spin {
        /// The value before any `setoption`.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo default D var A var B ...`
    Combo {
        /// The choices, in order.
        choices: Vec<String>,
        /// The index of the default choice.
        default: usize,
    },
    /// `type string default D`; an empty default is written `<empty>`, as GUIs expect.
    Text(String),
    /// `type button`
    Button,
}

/// Text inside a line: a line break would start a line of its own.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::IdName(name) => write!(f, "id name {}", one_line(name)),
            Message::IdAuthor(author) => write!(f, "id author {}", one_line(author)),
            Message::Option(option) => write!(f, "option {option}"),
            Message::UciOk => f.write_str("uciok"),
            Message::ReadyOk => f.write_str("readyok"),
            Message::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(reply) => write!(f, " ponder {reply}"),
                    None => Ok(()),
                }
            }
            Message::Info(info) => write!(f, "{info}"),
            Message::InfoString(text) => write!(f, "info string {}", one_line(text)),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info depth {} seldepth {}", self.depth, self.seldepth)?;
        if let Some(line) = self.multipv {
            write!(f, " multipv {line}")?;
        }
        write!(f, " score {}", self.score)?;
        match self.bound {
            ScoreBound::Exact => {}
            ScoreBound::Lower => f.write_str(" lowerbound")?,
            ScoreBound::Upper => f.write_str(" upperbound")?,
        }
        write!(
            f,
            " nodes {} nps {} hashfull {} tbhits {} time {}",
            self.nodes, self.nps, self.hashfull, self.tbhits, self.time_ms
        )?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name {} type ", one_line(&self.name))?;
        match &self.kind {
            OptionKind::Check(default) => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { choices, default } => {
                let chosen = choices.get(*default).map_or("", String::as_str);
                write!(f, "combo default {chosen}")?;
                choices.iter().try_for_each(|c| write!(f, " var {c}"))
            }
            OptionKind::Text(default) if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::Text(default) => write!(f, "string default {}", one_line(default)),
            OptionKind::Button => f.write_str("button"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_as_the_specification_writes_it() {
        let info = Info {
            depth: 12,
            seldepth: 18,
            multipv: None,
            score: Score::Centipawns(34),
            bound: ScoreBound::Exact,
            nodes: 1_843_210,
            nps: 878_000,
            hashfull: 57,
            tbhits: 0,
            time_ms: 2100,
            pv: vec!["e2e4".into(), "e7e5".into()],
        };
        let cases: Vec<(Message, &str)> = vec![
            (
                Message::IdName("Ferrimax 0.1.0".into()),
                "id name Ferrimax 0.1.0",
            ),
            (Message::UciOk, "uciok"),
            (Message::ReadyOk, "readyok"),
            (
                Message::BestMove {
                    best: "e2e4".into(),
                    ponder: Some("e7e5".into()),
                },
                "bestmove e2e4 ponder e7e5",
            ),
            (
                Message::BestMove {
                    best: "0000".into(),
                    ponder: None,
                },
                "bestmove 0000",
            ),
            (
                Message::Info(info.clone()),
                "info depth 12 seldepth 18 score cp 34 nodes 1843210 nps 878000 hashfull 57 \
                 tbhits 0 time 2100 pv e2e4 e7e5",
            ),
            (
                Message::Info(Info {
                    multipv: Some(2),
                    score: Score::Mate(-3),
                    bound: ScoreBound::Upper,
                    pv: Vec::new(),
                    ..info
                }),
                "info depth 12 seldepth 18 multipv 2 score mate -3 upperbound nodes 1843210 \
                 nps 878000 hashfull 57 tbhits 0 time 2100",
            ),
            (
                Message::InfoString("two\nlines".into()),
                "info string two lines",
            ),
            (
                Message::Option(EngineOption {
                    name: "Hash".into(),
                    kind: OptionKind::Spin {
                        default: 64,
                        min: 1,
                        max: 65536,
                    },
                }),
                "option name Hash type spin default 64 min 1 max 65536",
            ),
            (
                Message::Option(EngineOption {
                    name: "Ponder".into(),
                    kind: OptionKind::Check(false),
                }),
                "option name Ponder type check default false",
            ),
            (
                Message::Option(EngineOption {
                    name: "Eval".into(),
                    kind: OptionKind::Combo {
                        choices: vec!["nnue".into(), "classical".into()],
                        default: 0,
                    },
                }),
                "option name Eval type combo default nnue var nnue var classical",
            ),
            (
                Message::Option(EngineOption {
                    name: "EvalFile".into(),
                    kind: OptionKind::Text(String::new()),
                }),
                "option name EvalFile type string default <empty>",
            ),
            (
                Message::Option(EngineOption {
                    name: "Clear Hash".into(),
                    kind: OptionKind::Button,
                }),
                "option name Clear Hash type button",
            ),
        ];
        for (message, text) in cases {
            assert_eq!(message.to_string(), text);
        }
    }
}
