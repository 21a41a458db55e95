//! What the engine can tell the GUI, and the exact text of each line.
//!
//! GUIs pattern-match engine output loosely (XBoard reads a stray line containing "Draw"
//! as a result and ends the game), so every line the engine prints is built here, in one
//! place, from typed values.

use std::fmt;

use super::command::GameResult;

/// CECP reports "mate in N moves" as 100000 + N (the CECP specification's thinking output).
pub const MATE_SCORE_BASE: i64 = 100_000;
/// The largest ordinary score we print: cutechess reads |score| > 9900 as an old-style
/// mate score, so evaluations stay below it.
pub const MAX_ORDINARY_SCORE: i32 = 9_899;

/// One line from the engine to the GUI. `Display` writes the protocol text without the
/// line ending; any `\r` or `\n` inside text arguments is printed as a space, so a
/// message can never turn into two lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// `feature NAME=VALUE ...`
    Feature(Vec<Feature>),
    /// `move MOVE`: the engine's own move.
    Move(String),
    /// `pong N`: the ping token, echoed verbatim.
    Pong(String),
    /// `Illegal move: MOVE` or `Illegal move (REASON): MOVE`.
    IllegalMove {
        /// The move exactly as the GUI sent it: XBoard matches it to take the move back.
        mv: String,
        /// Why, for the user; XBoard shows it but does not parse it.
        reason: Option<String>,
    },
    /// `Error (KIND): COMMAND`.
    Error {
        /// What is wrong with the command.
        kind: ErrorKind,
        /// The command line as received.
        command: String,
    },
    /// `RESULT {COMMENT}`: a claim that the game is over by rule.
    Result {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: GameResult,
        /// The rule that ended the game, e.g. `White mates`; the GUI shows it.
        comment: Option<String>,
    },
    /// `resign`
    Resign,
    /// `offer draw`: offer, accept or pre-claim a draw.
    OfferDraw,
    /// `Hint: MOVE`
    Hint(String),
    /// `telluser MSG`: an information popup.
    TellUser(String),
    /// `tellusererror MSG`: an error popup.
    TellUserError(String),
    /// `tellopponent MSG`: popup locally, `say` on an ICS.
    TellOpponent(String),
    /// `tellothers MSG`: `whisper` on an ICS.
    TellOthers(String),
    /// `tellall MSG`: popup locally, `kibitz` on an ICS.
    TellAll(String),
    /// `tellics MSG`: sent raw to the ICS.
    TellIcs(String),
    /// `tellicsnoalias MSG`: sent raw to the ICS, bypassing its aliases.
    TellIcsNoAlias(String),
    /// `# TEXT`: a debug comment; only print it once the GUI accepted `debug`.
    Debug(String),
    /// `# TEXT`: a line for a person at a terminal (the board of `d`, `help`). GUIs never
    /// ask for these, and the `#` keeps them from being read as anything else.
    Note(String),
    /// A thinking line (`post` mode).
    Thinking(Thinking),
    /// `stat01: ...`: the answer to `.` in analyze mode.
    Stat01(Stat01),
    /// One line of the answer to `bk`; a leading space marks it as book text.
    BookLine(String),
    /// The empty line that ends the answer to `bk`.
    BookEnd,
}

/// The kind in `Error (KIND): COMMAND`. XBoard reacts to the command named, not the
/// kind, but the text helps whoever reads the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The engine does not know the command.
    UnknownCommand,
    /// A known command with an argument that does not parse or is out of range.
    BadArgument,
    /// A known command the current mode does not allow.
    NotLegalNow,
    /// `variant` naming a variant not in the `variants` feature.
    UnsupportedVariant,
}

impl ErrorKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::UnknownCommand => "unknown command",
            Self::BadArgument => "bad argument",
            Self::NotLegalNow => "command not legal now",
            Self::UnsupportedVariant => "unsupported variant",
        }
    }
}

/// A search score as the side to move sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// An ordinary evaluation.
    Centipawns(i32),
    /// The side to move mates in this many moves (not plies).
    MateIn(u32),
    /// The side to move is mated in this many moves (0: it is mated now).
    MatedIn(u32),
}

impl Score {
    /// A mate the side to move delivers this many plies from now.
    pub fn mate_in_plies(plies: u32) -> Self {
        Self::MateIn(plies.div_ceil(2))
    }

    /// A mate the side to move suffers this many plies from now.
    pub fn mated_in_plies(plies: u32) -> Self {
        Self::MatedIn(plies.div_ceil(2))
    }

    /// The number GUIs expect: ±(100000 + N) for mates, ordinary scores clamped to
    /// ±[`MAX_ORDINARY_SCORE`] so no GUI mistakes them for mates.
    pub fn cecp_value(self) -> i64 {
        match self {
            Self::Centipawns(cp) => i64::from(cp.clamp(-MAX_ORDINARY_SCORE, MAX_ORDINARY_SCORE)),
            Self::MateIn(moves) => MATE_SCORE_BASE + i64::from(moves),
            Self::MatedIn(moves) => -(MATE_SCORE_BASE + i64::from(moves)),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cecp_value())
    }
}

/// A thinking line: `DEPTH SCORE CENTIS NODES PV`, or with extras
/// `DEPTH SCORE CENTIS NODES SELDEPTH NPS TBHITS<TAB>PV`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thinking {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Score of the line for the side to move.
    pub score: Score,
    /// Time spent, centiseconds.
    pub centis: u64,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The extra integers come as a group: GUIs read the last one as tbhits and the rest
    /// by position, so leaving one out would shift the meaning of the others.
    pub extras: Option<ThinkingExtras>,
    /// The principal variation as text; a trailing `?`/`!` marks a fail low/high.
    pub pv: String,
}

/// The optional integers of a thinking line (CECP specification, thinking output).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThinkingExtras {
    /// Deepest ply any line reached.
    pub seldepth: u32,
    /// Nodes per second.
    pub nps: u64,
    /// Endgame-table probes that hit; always 0 while the engine has no tables.
    pub tbhits: u64,
}

/// `stat01: CENTIS NODES DEPTH MOVES_LEFT MOVES_TOTAL [CURRENT]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat01 {
    /// Time spent on the analysis, centiseconds.
    pub centis: u64,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Depth of the iteration in progress.
    pub depth: u32,
    /// Root moves still to search at this depth.
    pub moves_left: u32,
    /// Legal moves at the root.
    pub moves_total: u32,
    /// The root move being searched.
    pub current: Option<String>,
}

/// One `NAME=VALUE` of a `feature` line. Typed so that quoting and 0/1 booleans are
/// decided here once (cutechess cannot parse unquoted strings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feature {
    /// `ping`: the engine answers `ping N` with `pong N` once earlier commands are done.
    Ping(bool),
    /// `setboard`: positions come as `setboard FEN` instead of through edit mode.
    SetBoard(bool),
    /// `playother`: the GUI may send `playother` (play the side not on move).
    PlayOther(bool),
    /// `san`: the GUI sends moves in SAN instead of coordinates.
    San(bool),
    /// `usermove`: the GUI prefixes its moves with `usermove`.
    UserMove(bool),
    /// `time`: the GUI sends the clocks with `time` and `otim`.
    Time(bool),
    /// `draw`: the GUI passes draw offers on to the engine.
    Draw(bool),
    /// `sigint`: the GUI may interrupt the engine with SIGINT.
    SigInt(bool),
    /// `sigterm`: the GUI may end the engine with SIGTERM.
    SigTerm(bool),
    /// `reuse`: the same process may play the next game.
    Reuse(bool),
    /// `analyze`: the engine has analyze mode.
    Analyze(bool),
    /// `myname`: the name the GUI shows for the engine.
    MyName(String),
    /// `variants`: comma-separated names of the variants the engine plays.
    Variants(String),
    /// `colors`: the GUI sends the obsolete `white` and `black` commands.
    Colors(bool),
    /// `ics`: the GUI says with `ics HOST` whether the game is on a chess server.
    Ics(bool),
    /// `name`: the GUI sends the opponent's name with `name`.
    Name(bool),
    /// `pause`: the engine understands `pause` and `resume`.
    Pause(bool),
    /// `nps`: the engine can play node-based time controls (`nps N`).
    Nps(bool),
    /// `debug`: the engine may send `#` comment lines.
    Debug(bool),
    /// `memory`: the GUI sends the hash size with `memory MB`.
    Memory(bool),
    /// `smp`: the GUI sends the number of threads with `cores N`.
    Smp(bool),
    /// `egt`: comma-separated endgame-table formats the engine reads.
    Egt(String),
    /// `option`: an engine-defined setting the GUI offers in a dialog.
    Option(EngineOption),
    /// `exclude`: the engine honours `exclude` and `include` of root moves.
    Exclude(bool),
    /// `setscore`: the engine understands `setscore SCORE DEPTH`.
    SetScore(bool),
    /// `highlight`: the engine understands `lift`, `put` and `hover`.
    Highlight(bool),
    /// `done=0` holds the GUI's feature timeout open; `done=1` ends negotiation.
    Done(bool),
}

enum FeatureValue<'a> {
    Flag(bool),
    Text(&'a str),
    Option(&'a EngineOption),
}

impl Feature {
    fn parts(&self) -> (&'static str, FeatureValue<'_>) {
        use FeatureValue::{Flag, Text};
        match self {
            Self::Ping(on) => ("ping", Flag(*on)),
            Self::SetBoard(on) => ("setboard", Flag(*on)),
            Self::PlayOther(on) => ("playother", Flag(*on)),
            Self::San(on) => ("san", Flag(*on)),
            Self::UserMove(on) => ("usermove", Flag(*on)),
            Self::Time(on) => ("time", Flag(*on)),
            Self::Draw(on) => ("draw", Flag(*on)),
            Self::SigInt(on) => ("sigint", Flag(*on)),
            Self::SigTerm(on) => ("sigterm", Flag(*on)),
            Self::Reuse(on) => ("reuse", Flag(*on)),
            Self::Analyze(on) => ("analyze", Flag(*on)),
            Self::MyName(name) => ("myname", Text(name)),
            Self::Variants(list) => ("variants", Text(list)),
            Self::Colors(on) => ("colors", Flag(*on)),
            Self::Ics(on) => ("ics", Flag(*on)),
            Self::Name(on) => ("name", Flag(*on)),
            Self::Pause(on) => ("pause", Flag(*on)),
            Self::Nps(on) => ("nps", Flag(*on)),
            Self::Debug(on) => ("debug", Flag(*on)),
            Self::Memory(on) => ("memory", Flag(*on)),
            Self::Smp(on) => ("smp", Flag(*on)),
            Self::Egt(formats) => ("egt", Text(formats)),
            Self::Option(option) => ("option", FeatureValue::Option(option)),
            Self::Exclude(on) => ("exclude", Flag(*on)),
            Self::SetScore(on) => ("setscore", Flag(*on)),
            Self::Highlight(on) => ("highlight", Flag(*on)),
            Self::Done(on) => ("done", Flag(*on)),
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, value) = self.parts();
        write!(f, "{name}=")?;
        match value {
            FeatureValue::Flag(on) => write!(f, "{}", u8::from(on)),
            FeatureValue::Text(text) => write_quoted(f, text),
            FeatureValue::Option(option) => write_quoted(f, &option.to_string()),
        }
    }
}

/// Feature strings cannot hold a double quote; print it as a single one.
fn write_quoted(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    write!(f, "\"{}\"", text.replace('"', "'"))
}

/// An engine-defined option for `feature option="..."` (CECP specification, `feature option`). Use single-word
/// names: python-chess takes the first word of the definition as the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOption {
    /// The label the GUI shows and sends back in `option NAME=VALUE`.
    pub name: String,
    /// The widget, with its default.
    pub kind: OptionKind,
}

/// The widget and default of an [`EngineOption`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `-button`: the GUI sends `option NAME` when it is pressed.
    Button,
    /// A button after which the GUI first sends all changed options.
    Save,
    /// `-check`: on or off, with its default.
    Check(bool),
    /// Give text options a non-empty default: XBoard finds the type by ` -string `
    /// with its trailing space.
    Text(String),
    /// `-file`: a file name the GUI lets the user browse for; the default.
    File(String),
    /// `-path`: a directory the GUI lets the user browse for; the default.
    Path(String),
    /// `-spin`: an integer in a range, typed or stepped.
    Spin {
        /// Value until the user changes it.
        default: i64,
        /// Smallest value the GUI allows.
        min: i64,
        /// Largest value the GUI allows.
        max: i64,
    },
    /// `-slider`: an integer in a range, set with a slider.
    Slider {
        /// Value until the user changes it.
        default: i64,
        /// Smallest value the GUI allows.
        min: i64,
        /// Largest value the GUI allows.
        max: i64,
    },
    /// `-combo`: one of a list of choices.
    Combo {
        /// The choices, in display order.
        choices: Vec<String>,
        /// Index into `choices` of the preselected one.
        default: usize,
    },
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.name)?;
        match &self.kind {
            OptionKind::Button => f.write_str("-button"),
            OptionKind::Save => f.write_str("-save"),
            OptionKind::Check(on) => write!(f, "-check {}", u8::from(*on)),
            OptionKind::Text(text) => write!(f, "-string {text}"),
            OptionKind::File(path) => write!(f, "-file {path}"),
            OptionKind::Path(path) => write!(f, "-path {path}"),
            OptionKind::Spin { default, min, max } => write!(f, "-spin {default} {min} {max}"),
            OptionKind::Slider { default, min, max } => {
                write!(f, "-slider {default} {min} {max}")
            }
            OptionKind::Combo { choices, default } => {
                f.write_str("-combo")?;
                for (index, choice) in choices.iter().enumerate() {
                    let separator = if index == 0 { " " } else { " /// " };
                    let mark = if index == *default { "*" } else { "" };
                    write!(f, "{separator}{mark}{choice}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(&mut OneLine(f))
    }
}

impl Message {
    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match self {
            Self::Feature(features) => {
                out.write_str("feature")?;
                for feature in features {
                    write!(out, " {feature}")?;
                }
                Ok(())
            }
            Self::Move(mv) => write!(out, "move {mv}"),
            Self::Pong(token) => write!(out, "pong {token}"),
            Self::IllegalMove { mv, reason: None } => write!(out, "Illegal move: {mv}"),
            Self::IllegalMove {
                mv,
                reason: Some(reason),
            } => write!(out, "Illegal move ({reason}): {mv}"),
            Self::Error { kind, command } => write!(out, "Error ({}): {command}", kind.as_str()),
            Self::Result { result, comment } => {
                write!(out, "{result}")?;
                match comment {
                    Some(comment) => write!(out, " {{{comment}}}"),
                    None => Ok(()),
                }
            }
            Self::Resign => out.write_str("resign"),
            Self::OfferDraw => out.write_str("offer draw"),
            Self::Hint(mv) => write!(out, "Hint: {mv}"),
            Self::TellUser(text) => write!(out, "telluser {text}"),
            Self::TellUserError(text) => write!(out, "tellusererror {text}"),
            Self::TellOpponent(text) => write!(out, "tellopponent {text}"),
            Self::TellOthers(text) => write!(out, "tellothers {text}"),
            Self::TellAll(text) => write!(out, "tellall {text}"),
            Self::TellIcs(text) => write!(out, "tellics {text}"),
            Self::TellIcsNoAlias(text) => write!(out, "tellicsnoalias {text}"),
            Self::Debug(text) | Self::Note(text) => write!(out, "# {text}"),
            Self::Thinking(thinking) => {
                let Thinking {
                    depth,
                    score,
                    centis,
                    nodes,
                    extras,
                    pv,
                } = thinking;
                write!(out, "{depth} {score} {centis} {nodes}")?;
                match extras {
                    Some(ThinkingExtras {
                        seldepth,
                        nps,
                        tbhits,
                    }) => write!(out, " {seldepth} {nps} {tbhits}\t{pv}"),
                    None => write!(out, " {pv}"),
                }
            }
            Self::Stat01(stat) => {
                let Stat01 {
                    centis,
                    nodes,
                    depth,
                    moves_left,
                    moves_total,
                    current,
                } = stat;
                write!(
                    out,
                    "stat01: {centis} {nodes} {depth} {moves_left} {moves_total}"
                )?;
                match current {
                    Some(mv) => write!(out, " {mv}"),
                    None => Ok(()),
                }
            }
            Self::BookLine(text) => write!(out, " {text}"),
            Self::BookEnd => Ok(()),
        }
    }
}

/// A writer that turns line breaks into spaces, so one message stays one line, and other
/// control characters (but the TAB of thinking lines) into `?`.
struct OneLine<'a, 'b>(&'a mut fmt::Formatter<'b>);

impl fmt::Write for OneLine<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if !text.chars().any(|c| c.is_control() && c != '\t') {
            return self.0.write_str(text);
        }
        for c in text.chars() {
            self.0.write_char(match c {
                '\r' | '\n' => ' ',
                '\t' => '\t',
                // A NUL ends a line for a GUI written in C, an escape sequence may
                // repaint a terminal: no control character leaves the engine.
                c if c.is_control() => '?',
                c => c,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> String {
        s.to_owned()
    }

    #[test]
    fn every_message_has_its_exact_text() {
        let cases = [
            (
                Message::Feature(vec![Feature::Done(false)]),
                "feature done=0",
            ),
            (
                Message::Feature(vec![Feature::Done(true)]),
                "feature done=1",
            ),
            (
                Message::Feature(vec![
                    Feature::MyName(text("Ferrimax 0.1")),
                    Feature::Ping(true),
                    Feature::SetBoard(true),
                    Feature::San(false),
                    Feature::Variants(text("normal,fischerandom")),
                ]),
                "feature myname=\"Ferrimax 0.1\" ping=1 setboard=1 san=0 \
                 variants=\"normal,fischerandom\"",
            ),
            (
                Message::Feature(vec![Feature::Option(EngineOption {
                    name: text("Hash"),
                    kind: OptionKind::Spin {
                        default: 64,
                        min: 1,
                        max: 65536,
                    },
                })]),
                "feature option=\"Hash -spin 64 1 65536\"",
            ),
            (Message::Move(text("e2e4")), "move e2e4"),
            (Message::Move(text("e7e8q")), "move e7e8q"),
            (
                Message::Pong(text("9223372036854775807")),
                "pong 9223372036854775807",
            ),
            (Message::Pong(text("-3")), "pong -3"),
            (
                Message::IllegalMove {
                    mv: text("e2e5"),
                    reason: None,
                },
                "Illegal move: e2e5",
            ),
            (
                Message::IllegalMove {
                    mv: text("e1g1"),
                    reason: Some(text("in check")),
                },
                "Illegal move (in check): e1g1",
            ),
            (
                Message::Error {
                    kind: ErrorKind::UnknownCommand,
                    command: text("blah"),
                },
                "Error (unknown command): blah",
            ),
            (
                Message::Error {
                    kind: ErrorKind::BadArgument,
                    command: text("st abc"),
                },
                "Error (bad argument): st abc",
            ),
            (
                Message::Error {
                    kind: ErrorKind::NotLegalNow,
                    command: text("undo"),
                },
                "Error (command not legal now): undo",
            ),
            (
                Message::Error {
                    kind: ErrorKind::UnsupportedVariant,
                    command: text("xiangqi"),
                },
                "Error (unsupported variant): xiangqi",
            ),
            (
                Message::Result {
                    result: GameResult::WhiteWins,
                    comment: Some(text("White mates")),
                },
                "1-0 {White mates}",
            ),
            (
                Message::Result {
                    result: GameResult::BlackWins,
                    comment: Some(text("Black mates")),
                },
                "0-1 {Black mates}",
            ),
            (
                Message::Result {
                    result: GameResult::Draw,
                    comment: Some(text("Draw by repetition")),
                },
                "1/2-1/2 {Draw by repetition}",
            ),
            (
                Message::Result {
                    result: GameResult::Unfinished,
                    comment: None,
                },
                "*",
            ),
            (Message::Resign, "resign"),
            (Message::OfferDraw, "offer draw"),
            (Message::Hint(text("e2e4")), "Hint: e2e4"),
            (Message::TellUser(text("Hello")), "telluser Hello"),
            (
                Message::TellUserError(text("Illegal position")),
                "tellusererror Illegal position",
            ),
            (Message::TellOpponent(text("gg")), "tellopponent gg"),
            (
                Message::TellOthers(text("depth 18 +0.34")),
                "tellothers depth 18 +0.34",
            ),
            (Message::TellAll(text("hi all")), "tellall hi all"),
            (Message::TellIcs(text("seek 5 0")), "tellics seek 5 0"),
            (
                Message::TellIcsNoAlias(text("set 1")),
                "tellicsnoalias set 1",
            ),
            (Message::Debug(text("hash 64 MB")), "# hash 64 MB"),
            (
                Message::Thinking(Thinking {
                    depth: 9,
                    score: Score::Centipawns(156),
                    centis: 1084,
                    nodes: 48000,
                    extras: None,
                    pv: text("Nf3 Nc6 Nc3 Nf6"),
                }),
                "9 156 1084 48000 Nf3 Nc6 Nc3 Nf6",
            ),
            (
                Message::Thinking(Thinking {
                    depth: 12,
                    score: Score::Centipawns(35),
                    centis: 230,
                    nodes: 1_500_000,
                    extras: Some(ThinkingExtras {
                        seldepth: 14,
                        nps: 652_000,
                        tbhits: 0,
                    }),
                    pv: text("e2e4 e7e5 g1f3"),
                }),
                "12 35 230 1500000 14 652000 0\te2e4 e7e5 g1f3",
            ),
            (
                Message::Thinking(Thinking {
                    depth: 5,
                    score: Score::MatedIn(2),
                    centis: 3,
                    nodes: 900,
                    extras: None,
                    pv: text("e1e2 d8h4"),
                }),
                "5 -100002 3 900 e1e2 d8h4",
            ),
            (
                Message::Stat01(Stat01 {
                    centis: 1234,
                    nodes: 30000,
                    depth: 7,
                    moves_left: 5,
                    moves_total: 30,
                    current: Some(text("Nf3")),
                }),
                "stat01: 1234 30000 7 5 30 Nf3",
            ),
            (
                Message::Stat01(Stat01 {
                    centis: 0,
                    nodes: 0,
                    depth: 1,
                    moves_left: 20,
                    moves_total: 20,
                    current: None,
                }),
                "stat01: 0 0 1 20 20",
            ),
            (Message::BookLine(text("e2e4 55%")), " e2e4 55%"),
            (Message::BookEnd, ""),
        ];
        for (message, expected) in cases {
            assert_eq!(message.to_string(), expected, "{message:?}");
        }
    }

    #[test]
    fn every_feature_has_its_name() {
        use Feature as F;
        let cases = [
            (F::Ping(true), "ping=1"),
            (F::SetBoard(true), "setboard=1"),
            (F::PlayOther(true), "playother=1"),
            (F::San(false), "san=0"),
            (F::UserMove(true), "usermove=1"),
            (F::Time(true), "time=1"),
            (F::Draw(true), "draw=1"),
            (F::SigInt(false), "sigint=0"),
            (F::SigTerm(false), "sigterm=0"),
            (F::Reuse(true), "reuse=1"),
            (F::Analyze(true), "analyze=1"),
            (F::MyName(text("Ferrimax")), "myname=\"Ferrimax\""),
            (F::Variants(text("normal")), "variants=\"normal\""),
            (F::Colors(false), "colors=0"),
            (F::Ics(true), "ics=1"),
            (F::Name(true), "name=1"),
            (F::Pause(false), "pause=0"),
            (F::Nps(true), "nps=1"),
            (F::Debug(true), "debug=1"),
            (F::Memory(true), "memory=1"),
            (F::Smp(true), "smp=1"),
            (F::Egt(text("syzygy")), "egt=\"syzygy\""),
            (F::Exclude(true), "exclude=1"),
            (F::SetScore(false), "setscore=0"),
            (F::Highlight(false), "highlight=0"),
            (F::Done(true), "done=1"),
            (F::MyName(text("Say \"hi\"")), "myname=\"Say 'hi'\""),
        ];
        for (feature, expected) in cases {
            assert_eq!(feature.to_string(), expected, "{feature:?}");
        }
    }

    #[test]
    fn every_option_kind_has_its_text() {
        let option = |name: &str, kind| {
            Feature::Option(EngineOption {
                name: text(name),
                kind,
            })
            .to_string()
        };
        let cases = [
            (
                option("Clear", OptionKind::Button),
                "option=\"Clear -button\"",
            ),
            (option("Save", OptionKind::Save), "option=\"Save -save\""),
            (
                option("OwnBook", OptionKind::Check(true)),
                "option=\"OwnBook -check 1\"",
            ),
            (
                option("Style", OptionKind::Text(text("normal"))),
                "option=\"Style -string normal\"",
            ),
            (
                option("Book", OptionKind::File(text("book.bin"))),
                "option=\"Book -file book.bin\"",
            ),
            (
                option("SyzygyPath", OptionKind::Path(text("none"))),
                "option=\"SyzygyPath -path none\"",
            ),
            (
                option(
                    "Contempt",
                    OptionKind::Slider {
                        default: 0,
                        min: -100,
                        max: 100,
                    },
                ),
                "option=\"Contempt -slider 0 -100 100\"",
            ),
            (
                option(
                    "Level",
                    OptionKind::Combo {
                        choices: vec![text("Easy"), text("Normal"), text("Hard")],
                        default: 1,
                    },
                ),
                "option=\"Level -combo Easy /// *Normal /// Hard\"",
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(line, expected);
        }
    }

    #[test]
    fn mate_scores_follow_the_cecp_convention() {
        assert_eq!(Score::MateIn(1).cecp_value(), 100_001);
        assert_eq!(Score::MateIn(12).cecp_value(), 100_012);
        assert_eq!(Score::MatedIn(0).cecp_value(), -100_000);
        assert_eq!(Score::MatedIn(3).cecp_value(), -100_003);
        assert_eq!(
            Score::MateIn(u32::MAX).cecp_value(),
            100_000 + 4_294_967_295
        );
        assert_eq!(Score::mate_in_plies(1), Score::MateIn(1));
        assert_eq!(Score::mate_in_plies(3), Score::MateIn(2));
        assert_eq!(Score::mated_in_plies(0), Score::MatedIn(0));
        assert_eq!(Score::mated_in_plies(2), Score::MatedIn(1));
        assert_eq!(Score::mated_in_plies(4), Score::MatedIn(2));
    }

    #[test]
    fn ordinary_scores_stay_below_mate_range() {
        assert_eq!(Score::Centipawns(0).cecp_value(), 0);
        assert_eq!(Score::Centipawns(-250).cecp_value(), -250);
        assert_eq!(Score::Centipawns(9_899).cecp_value(), 9_899);
        assert_eq!(Score::Centipawns(9_900).cecp_value(), 9_899);
        assert_eq!(Score::Centipawns(30_000).cecp_value(), 9_899);
        assert_eq!(Score::Centipawns(i32::MIN).cecp_value(), -9_899);
        assert_eq!(Score::Centipawns(-12_345).to_string(), "-9899");
    }

    #[test]
    fn line_breaks_inside_text_never_split_a_message() {
        assert_eq!(
            Message::TellUser(text("one\ntwo\r\nthree")).to_string(),
            "telluser one two  three"
        );
        assert_eq!(
            Message::Debug(text("Draw\nWhite mates")).to_string(),
            "# Draw White mates"
        );
    }
}
