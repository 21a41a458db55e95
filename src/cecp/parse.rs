//! The nom grammar of GUI input lines.
//!
//! Rules applied to every command, so the engine is liberal in what it accepts:
//! - a trailing `\r` and blanks (spaces, tabs) around the line are ignored;
//! - keywords are case-sensitive, as every GUI sends them in lower case;
//! - tokens after the arguments a command needs are ignored (`level 40 5 0 junk`);
//! - an argument must be a whole token (`st 10abc` is a bad argument), except BASE of
//!   `level`, after whose `MIN[:SS]` anything is ignored (`25+5`, as the CECP specification allows);
//! - a number too large (or too negative) for its type means that type's largest (or
//!   smallest) value: `sd 99999999999` asks for the deepest search, `time 1e30 digits` for
//!   a clock that never runs out. Wrapping would turn "a lot" into "almost nothing", and
//!   an error reply to `time` makes XBoard stop sending clocks. Signs where the protocol
//!   has no negative values (`sd -1`) stay bad arguments.

use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;
use std::time::Duration;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while};
use nom::character::complete::{char, digit0, digit1, one_of, space0, space1};
use nom::combinator::{eof, map, map_opt, opt, peek, recognize, value};
use nom::error::Error;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::command::{Command, EditCommand, GameResult, Level, MoveSet, ParseError};

type Res<'a, T> = IResult<&'a str, T>;

const FILES: &str = "abcdefgh";
const RANKS: &str = "12345678";
/// Piece letters in edit mode, drops and SAN (White's letters; edit mode uses `c`).
const PIECES: &str = "PNBRQK";
const PROMOTION_PIECES: &str = "QRBNqrbn";
const MILLIS_PER_SECOND: u64 = 1000;
const SECONDS_PER_MINUTE: u64 = 60;
/// Digits after the decimal point that still count: milliseconds.
const FRACTION_DIGITS: usize = 3;

/// Parse one line in normal mode.
///
/// Never panics. A line that is no command but looks like a move (`e2e4`, `Nf3`, `O-O`)
/// becomes [`Command::UserMove`], so the game manager can answer `Illegal move` for it
/// rather than `Error`.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let text = clean(line);
    let Ok((args, word)) = terminated(token, space0).parse(text) else {
        return Err(ParseError::Empty);
    };
    let parsed = match word {
        "xboard" => Some(Command::Xboard),
        "protover" => argument(args, unsigned).map(Command::Protover),
        "accepted" => text_argument(args).map(Command::Accepted),
        "rejected" => text_argument(args).map(Command::Rejected),
        "new" => Some(Command::New),
        "variant" => argument(args, token).map(|name| Command::Variant(name.to_owned())),
        "force" => Some(Command::Force),
        "go" => Some(Command::Go),
        "playother" => Some(Command::PlayOther),
        "white" => Some(Command::White),
        "black" => Some(Command::Black),
        "edit" => Some(Command::Edit),
        "setboard" => text_argument(args).map(Command::SetBoard),
        "quit" => Some(Command::Quit),
        "random" => Some(Command::Random),
        "level" => argument(args, level).map(Command::Level),
        "st" => argument(args, seconds).map(Command::MoveTime),
        "sd" => argument(args, unsigned).map(Command::Depth),
        "nps" => argument(args, unsigned).map(Command::Nps),
        "time" => argument(args, centiseconds).map(|centis| Command::Time { centis }),
        "otim" => argument(args, centiseconds).map(|centis| Command::OpponentTime { centis }),
        "usermove" => argument(args, token).map(|mv| Command::UserMove(mv.to_owned())),
        "?" => Some(Command::MoveNow),
        "ping" => argument(args, token).map(|n| Command::Ping(n.to_owned())),
        "draw" => Some(Command::Draw),
        "result" => result(args),
        "undo" => Some(Command::Undo),
        "remove" => Some(Command::Remove),
        "hard" => Some(Command::Hard),
        "easy" => Some(Command::Easy),
        "post" => Some(Command::Post),
        "nopost" => Some(Command::NoPost),
        "analyze" => Some(Command::Analyze),
        "exit" => Some(Command::Exit),
        "." => Some(Command::StatusRequest),
        "hint" => Some(Command::Hint),
        "bk" => Some(Command::Book),
        "d" => Some(Command::ShowBoard),
        "help" => Some(Command::Help),
        "name" => text_argument(args).map(Command::Name),
        "rating" => argument(args, (terminated(signed, space1), signed))
            .map(|(engine, opponent)| Command::Rating { engine, opponent }),
        "ics" => text_argument(args).map(Command::Ics),
        "computer" => Some(Command::Computer),
        "pause" => Some(Command::Pause),
        "resume" => Some(Command::Resume),
        "memory" => argument(args, unsigned).map(Command::Memory),
        "cores" => argument(args, unsigned).map(Command::Cores),
        "egtpath" => egt_path(args),
        "option" => set_option(args),
        "exclude" => argument(args, move_set).map(Command::Exclude),
        "include" => argument(args, move_set).map(Command::Include),
        "setscore" => argument(args, (terminated(signed, space1), unsigned))
            .map(|(score, depth)| Command::SetScore { score, depth }),
        "lift" => argument(args, token).map(|sq| Command::Lift(sq.to_owned())),
        "put" => argument(args, token).map(|sq| Command::Put(sq.to_owned())),
        "hover" => argument(args, token).map(|sq| Command::Hover(sq.to_owned())),
        "partner" => Some(Command::Partner(text_argument(args))),
        "ptell" => text_argument(args).map(Command::Ptell),
        "holding" => text_argument(args).map(Command::Holding),
        "uci" => Some(Command::Uci),
        _ if args.is_empty() && looks_like_move(word) => Some(Command::UserMove(word.to_owned())),
        _ => return Err(ParseError::Unknown(text.to_owned())),
    };
    parsed.ok_or_else(|| ParseError::BadArgument(text.to_owned()))
}

/// Parse one line in edit mode (between `edit` and `.`).
///
/// Never panics. Anything but `c`, `#`, `.`, `Pa4` or `xa4` is [`ParseError::Unknown`].
pub fn parse_edit(line: &str) -> Result<EditCommand, ParseError> {
    let text = clean(line);
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut edit = terminated(
        alt((
            value(EditCommand::SwitchColor, char('c')),
            value(EditCommand::ClearBoard, char('#')),
            value(EditCommand::Done, char('.')),
            map((one_of(PIECES), square), |(piece, square)| {
                EditCommand::Place {
                    piece,
                    square: square.to_owned(),
                }
            }),
            map(preceded(char('x'), square), |square| {
                EditCommand::ClearSquare(square.to_owned())
            }),
        )),
        eof,
    );
    edit.parse(text)
        .map(|(_, command)| command)
        .map_err(|_| ParseError::Unknown(text.to_owned()))
}

/// The line without its line ending and surrounding blanks.
fn clean(line: &str) -> &str {
    line.trim_matches([' ', '\t', '\r', '\n'])
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// One blank-separated word.
fn token(input: &str) -> Res<'_, &str> {
    take_till1(is_blank).parse(input)
}

/// Succeeds where a token may end: at a blank or the end of the line.
fn token_end(input: &str) -> Res<'_, ()> {
    value((), peek(alt((eof, space1)))).parse(input)
}

/// Run an argument parser on the text after the keyword; the arguments must end at a
/// token boundary, and whatever follows is ignored.
fn argument<'a, O>(
    args: &'a str,
    parser: impl Parser<&'a str, Output = O, Error = Error<&'a str>>,
) -> Option<O> {
    terminated(parser, token_end)
        .parse(args)
        .ok()
        .map(|(_, out)| out)
}

/// The rest of the line as one argument (names, FENs, host names); it must not be empty.
fn text_argument(args: &str) -> Option<String> {
    (!args.is_empty()).then(|| args.to_owned())
}

/// The integer types the parser reads, with their bounds for saturation.
trait Saturating: FromStr<Err = ParseIntError> + Copy {
    const LEAST: Self;
    const GREATEST: Self;
}

macro_rules! saturating {
    ($($t:ty)+) => {
        $(impl Saturating for $t {
            const LEAST: Self = <$t>::MIN;
            const GREATEST: Self = <$t>::MAX;
        })+
    };
}

saturating! { u32 u64 i32 i64 }

/// `text` (an optional sign and decimal digits) as a `T`, saturating at `T`'s bounds.
fn saturate<T: Saturating>(text: &str) -> Option<T> {
    match text.parse::<T>() {
        Ok(value) => Some(value),
        Err(error) => match error.kind() {
            IntErrorKind::PosOverflow => Some(T::GREATEST),
            IntErrorKind::NegOverflow => Some(T::LEAST),
            _ => None,
        },
    }
}

/// Decimal digits, no sign, saturating at the type's largest value.
fn unsigned<T: Saturating>(input: &str) -> Res<'_, T> {
    map_opt(digit1, saturate).parse(input)
}

/// An optionally signed (`+`/`-`) decimal integer, saturating at the type's bounds.
fn signed<T: Saturating>(input: &str) -> Res<'_, T> {
    map_opt(recognize((opt(one_of("+-")), digit1)), saturate).parse(input)
}

/// `DIGITS[.DIGITS]` or `.DIGITS`, in thousandths (digits beyond the third decimal are
/// dropped). Rejects signs and exponents; saturates at `u64::MAX` thousandths.
fn thousandths(input: &str) -> Res<'_, u64> {
    map_opt(
        alt((
            (digit1, opt(preceded(char('.'), digit0))),
            (digit0, map(preceded(char('.'), digit1), Some)),
        )),
        |(whole, fraction): (&str, Option<&str>)| {
            let whole = if whole.is_empty() {
                0
            } else {
                saturate::<u64>(whole)?
            };
            let mut fraction_value = 0;
            let mut scale = MILLIS_PER_SECOND;
            for digit in fraction.unwrap_or("").bytes().take(FRACTION_DIGITS) {
                scale /= 10;
                fraction_value += u64::from(digit - b'0') * scale;
            }
            Some(
                whole
                    .saturating_mul(MILLIS_PER_SECOND)
                    .saturating_add(fraction_value),
            )
        },
    )
    .parse(input)
}

/// A possibly fractional number of seconds (`st 0.05`, the INC of `level`).
fn seconds(input: &str) -> Res<'_, Duration> {
    map(thousandths, Duration::from_millis).parse(input)
}

/// BASE of `level`: `MIN` or `MIN:SS`, minutes possibly fractional; trailing junk ignored.
fn level_base(input: &str) -> Res<'_, Duration> {
    map_opt(
        terminated(
            (thousandths, opt(preceded(char(':'), thousandths))),
            take_while(|c| !is_blank(c)),
        ),
        |(minutes, seconds)| {
            let millis = minutes
                .saturating_mul(SECONDS_PER_MINUTE)
                .saturating_add(seconds.unwrap_or(0));
            Some(Duration::from_millis(millis))
        },
    )
    .parse(input)
}

fn level(input: &str) -> Res<'_, Level> {
    map(
        (
            terminated(unsigned, space1),
            terminated(level_base, space1),
            seconds,
        ),
        |(moves_per_session, base, increment)| Level {
            moves_per_session,
            base,
            increment,
        },
    )
    .parse(input)
}

/// A clock value in centiseconds. GUIs send integers; a fraction, should one come, is
/// dropped rather than refused, because an error reply to `time` makes XBoard stop
/// sending clocks altogether.
fn centiseconds(input: &str) -> Res<'_, i64> {
    terminated(signed, opt((char('.'), digit0))).parse(input)
}

fn result(args: &str) -> Option<Command> {
    let game_result = alt((
        value(GameResult::WhiteWins, tag("1-0")),
        value(GameResult::BlackWins, tag("0-1")),
        value(GameResult::Draw, tag("1/2-1/2")),
        value(GameResult::Unfinished, tag("*")),
    ));
    let (rest, result) = terminated(game_result, (token_end, space0))
        .parse(args)
        .ok()?;
    Some(Command::Result {
        result,
        comment: result_comment(rest),
    })
}

/// The text inside `{...}`; an unbraced comment is taken as it is.
fn result_comment(rest: &str) -> Option<String> {
    let comment = match rest.strip_prefix('{') {
        Some(inner) => inner.rsplit_once('}').map_or(inner, |(text, _)| text),
        None => rest,
    }
    .trim();
    (!comment.is_empty()).then(|| comment.to_owned())
}

/// `egtpath TYPE PATH`; the path is the rest of the line, as paths may hold spaces.
fn egt_path(args: &str) -> Option<Command> {
    let (path, kind) = terminated(token, space1).parse(args).ok()?;
    Some(Command::EgtPath {
        kind: kind.to_owned(),
        path: text_argument(path)?,
    })
}

/// `option NAME[=VALUE]`; names may hold spaces, so split at the first `=`.
fn set_option(args: &str) -> Option<Command> {
    let (name, value) = match args.split_once('=') {
        Some((name, value)) => (name.trim_end_matches(is_blank), Some(value.to_owned())),
        None => (args, None),
    };
    Some(Command::SetOption {
        name: text_argument(name)?,
        value,
    })
}

fn move_set(input: &str) -> Res<'_, MoveSet> {
    map(token, |word| match word {
        "all" => MoveSet::All,
        mv => MoveSet::One(mv.to_owned()),
    })
    .parse(input)
}

fn square(input: &str) -> Res<'_, &str> {
    recognize((one_of(FILES), one_of(RANKS))).parse(input)
}

/// Whether a word has the shape of a move in coordinate notation or SAN (the move formats of the CECP specification):
/// `e2e4`, `e7e8q`, `O-O`, `0-0-0`, `@@@@`, `P@h3`, `Nf3`, `Nbd7`, `R1a3`, `exd5`,
/// `e8=Q+`, `Qxe7#`. Only the shape: whether it is legal is for the board to say.
fn looks_like_move(word: &str) -> bool {
    let piece = || opt(one_of(PIECES));
    let capture = || opt(one_of("x:"));
    let check = || opt(one_of("+#"));
    let annotation = || take_while(|c| c == '!' || c == '?');
    // Every alternative runs to the end of the word, so `alt` backtracks into the next
    // one whenever a shorter reading would leave characters over (`Nf3` is not `N`+`f`).
    let end = || {
        (
            opt((opt(char('=')), one_of(PROMOTION_PIECES))),
            check(),
            annotation(),
            eof,
        )
    };
    let castling = alt((tag("O-O-O"), tag("O-O"), tag("0-0-0"), tag("0-0")));
    alt((
        value((), (tag("@@@@"), eof)),
        value((), (castling, check(), annotation(), eof)),
        value((), (one_of(PIECES), char('@'), square, end())),
        value((), (piece(), square, opt(one_of("x:-")), square, end())),
        value((), (piece(), one_of(FILES), capture(), square, end())),
        value((), (piece(), one_of(RANKS), capture(), square, end())),
        value((), (piece(), capture(), square, end())),
    ))
    .parse(word)
    .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    fn level(moves_per_session: u32, base_ms: u64, increment_ms: u64) -> Command {
        Command::Level(Level {
            moves_per_session,
            base: ms(base_ms),
            increment: ms(increment_ms),
        })
    }

    fn text(s: &str) -> String {
        s.to_owned()
    }

    /// Every command of the CECP specification with the values it must carry.
    fn valid_lines() -> Vec<(&'static str, Command)> {
        use Command as C;
        vec![
            ("xboard", C::Xboard),
            ("protover 2", C::Protover(2)),
            ("accepted ping", C::Accepted(text("ping"))),
            ("rejected sigint", C::Rejected(text("sigint"))),
            (
                "rejected option Foo -bar 1",
                C::Rejected(text("option Foo -bar 1")),
            ),
            ("new", C::New),
            ("variant fischerandom", C::Variant(text("fischerandom"))),
            ("force", C::Force),
            ("go", C::Go),
            ("playother", C::PlayOther),
            ("white", C::White),
            ("black", C::Black),
            ("edit", C::Edit),
            (
                "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                C::SetBoard(text(
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                )),
            ),
            ("quit", C::Quit),
            ("random", C::Random),
            ("level 40 5 0", level(40, 300_000, 0)),
            ("level 0 2 12", level(0, 120_000, 12_000)),
            ("level 0 2:30 1", level(0, 150_000, 1_000)),
            ("level 0 0:30 0.5", level(0, 30_000, 500)),
            ("level 0 1 0.5", level(0, 60_000, 500)),
            ("level 1 0 0.5", level(1, 0, 500)),
            ("level 0 5 0", level(0, 300_000, 0)),
            ("level 40 0:30 0", level(40, 30_000, 0)),
            ("level 0 25+5 3", level(0, 1_500_000, 3_000)),
            ("level 0 0.5 0", level(0, 30_000, 0)),
            ("level 0 0:10 0.1", level(0, 10_000, 100)),
            ("level 39 0:58 0", level(39, 58_000, 0)),
            ("level 40 5 0 extra tokens", level(40, 300_000, 0)),
            ("st 0.05", C::MoveTime(ms(50))),
            ("st 10.0", C::MoveTime(ms(10_000))),
            ("st 86400", C::MoveTime(ms(86_400_000))),
            ("st 0.3", C::MoveTime(ms(300))),
            ("st .5", C::MoveTime(ms(500))),
            ("sd 12", C::Depth(12)),
            ("nps 1", C::Nps(1)),
            ("nps 0", C::Nps(0)),
            ("time 0", C::Time { centis: 0 }),
            ("time -50", C::Time { centis: -50 }),
            ("time 6000", C::Time { centis: 6000 }),
            ("time 1234.5", C::Time { centis: 1234 }),
            ("otim 12345", C::OpponentTime { centis: 12345 }),
            ("usermove e7e8q", C::UserMove(text("e7e8q"))),
            ("usermove O-O", C::UserMove(text("O-O"))),
            ("usermove xyz", C::UserMove(text("xyz"))),
            ("e2e4", C::UserMove(text("e2e4"))),
            ("e7e8q", C::UserMove(text("e7e8q"))),
            ("e7e8Q", C::UserMove(text("e7e8Q"))),
            ("e1h1", C::UserMove(text("e1h1"))),
            ("O-O", C::UserMove(text("O-O"))),
            ("O-O-O", C::UserMove(text("O-O-O"))),
            ("0-0", C::UserMove(text("0-0"))),
            ("0-0-0", C::UserMove(text("0-0-0"))),
            ("@@@@", C::UserMove(text("@@@@"))),
            ("P@h3", C::UserMove(text("P@h3"))),
            ("Nf3", C::UserMove(text("Nf3"))),
            ("Nbd7", C::UserMove(text("Nbd7"))),
            ("R1a3", C::UserMove(text("R1a3"))),
            ("Qh4e1", C::UserMove(text("Qh4e1"))),
            ("exd5", C::UserMove(text("exd5"))),
            ("e8=Q+", C::UserMove(text("e8=Q+"))),
            ("Qxe7#", C::UserMove(text("Qxe7#"))),
            ("b4", C::UserMove(text("b4"))),
            ("c4", C::UserMove(text("c4"))),
            ("Bxf7+!?", C::UserMove(text("Bxf7+!?"))),
            ("?", C::MoveNow),
            ("ping 7", C::Ping(text("7"))),
            ("ping 7\r", C::Ping(text("7"))),
            (
                "ping 9223372036854775807",
                C::Ping(text("9223372036854775807")),
            ),
            ("ping -3", C::Ping(text("-3"))),
            ("ping 007", C::Ping(text("007"))),
            ("draw", C::Draw),
            (
                "result 1-0 {White mates}",
                C::Result {
                    result: GameResult::WhiteWins,
                    comment: Some(text("White mates")),
                },
            ),
            (
                "result 0-1 {Tester checkmated}",
                C::Result {
                    result: GameResult::BlackWins,
                    comment: Some(text("Tester checkmated")),
                },
            ),
            (
                "result 1/2-1/2 {Draw by repetition}",
                C::Result {
                    result: GameResult::Draw,
                    comment: Some(text("Draw by repetition")),
                },
            ),
            (
                "result *",
                C::Result {
                    result: GameResult::Unfinished,
                    comment: None,
                },
            ),
            (
                "result 0-1",
                C::Result {
                    result: GameResult::BlackWins,
                    comment: None,
                },
            ),
            (
                "result 1-0 {}",
                C::Result {
                    result: GameResult::WhiteWins,
                    comment: None,
                },
            ),
            (
                "result 1-0 {Black resigns",
                C::Result {
                    result: GameResult::WhiteWins,
                    comment: Some(text("Black resigns")),
                },
            ),
            ("undo", C::Undo),
            ("remove", C::Remove),
            ("hard", C::Hard),
            ("easy", C::Easy),
            ("post", C::Post),
            ("nopost", C::NoPost),
            ("analyze", C::Analyze),
            ("exit", C::Exit),
            (".", C::StatusRequest),
            ("hint", C::Hint),
            ("bk", C::Book),
            ("d", C::ShowBoard),
            ("help", C::Help),
            ("name Foo Bar", C::Name(text("Foo Bar"))),
            (
                "rating 2100 1800",
                C::Rating {
                    engine: 2100,
                    opponent: 1800,
                },
            ),
            ("ics freechess.org", C::Ics(text("freechess.org"))),
            ("ics -", C::Ics(text("-"))),
            ("computer", C::Computer),
            ("pause", C::Pause),
            ("resume", C::Resume),
            ("memory 1024", C::Memory(1024)),
            ("cores 2", C::Cores(2)),
            (
                "egtpath syzygy /tb",
                C::EgtPath {
                    kind: text("syzygy"),
                    path: text("/tb"),
                },
            ),
            (
                "egtpath syzygy C:\\My Tables",
                C::EgtPath {
                    kind: text("syzygy"),
                    path: text("C:\\My Tables"),
                },
            ),
            (
                "option Hash=128",
                C::SetOption {
                    name: text("Hash"),
                    value: Some(text("128")),
                },
            ),
            (
                "option Clear Hash",
                C::SetOption {
                    name: text("Clear Hash"),
                    value: None,
                },
            ),
            (
                "option Multi-PV Margin=20",
                C::SetOption {
                    name: text("Multi-PV Margin"),
                    value: Some(text("20")),
                },
            ),
            (
                "option SyzygyPath=/a=b",
                C::SetOption {
                    name: text("SyzygyPath"),
                    value: Some(text("/a=b")),
                },
            ),
            (
                "option Book=",
                C::SetOption {
                    name: text("Book"),
                    value: Some(text("")),
                },
            ),
            ("exclude all", C::Exclude(MoveSet::All)),
            ("exclude e2e4", C::Exclude(MoveSet::One(text("e2e4")))),
            ("include e2e4", C::Include(MoveSet::One(text("e2e4")))),
            ("include all", C::Include(MoveSet::All)),
            (
                "setscore -35 12",
                C::SetScore {
                    score: -35,
                    depth: 12,
                },
            ),
            ("lift e2", C::Lift(text("e2"))),
            ("put e4", C::Put(text("e4"))),
            ("hover e3", C::Hover(text("e3"))),
            ("partner", C::Partner(None)),
            ("partner Fred", C::Partner(Some(text("Fred")))),
            ("ptell hello there", C::Ptell(text("hello there"))),
            ("holding [PN] [] Wp", C::Holding(text("[PN] [] Wp"))),
            ("uci", C::Uci),
            // Line discipline: blanks and line endings around the line, tabs inside.
            ("  go  ", C::Go),
            ("\tnew\r\n", C::New),
            ("sd\t7", C::Depth(7)),
            ("level  40\t 5   0 ", level(40, 300_000, 0)),
            ("new extra", C::New),
        ]
    }

    #[test]
    fn every_command_parses_to_its_variant() {
        for (line, expected) in valid_lines() {
            assert_eq!(parse(line), Ok(expected), "line {line:?}");
        }
    }

    #[test]
    fn bad_arguments_are_reported_with_the_line() {
        let bad = [
            "level",
            "level x y z",
            "level 40 5",
            "level -1 5 0",
            "level 40 5 0x",
            "level 0 5 1e-04",
            "st abc",
            "st",
            "st -1",
            "st 10abc",
            "sd -1",
            "sd",
            "ping",
            "time",
            "time abc",
            "otim",
            "protover",
            "usermove",
            "nps -5",
            "protover -1",
            "memory -1",
            "cores -1",
            "setscore 10 -1",
            "sd +5",
            "time 1e9",
            "rating 2100 1e4",
            "memory",
            "cores two",
            "rating 2100",
            "setscore 10",
            "egtpath syzygy",
            "option",
            "option =5",
            "setboard",
            "name",
            "ics",
            "variant",
            "exclude",
            "result",
            "result 2-0",
            "result 1-0x",
            "lift",
        ];
        for line in bad {
            assert_eq!(
                parse(line),
                Err(ParseError::BadArgument(line.to_owned())),
                "line {line:?}"
            );
        }
        assert_eq!(
            parse("  st abc\r"),
            Err(ParseError::BadArgument("st abc".to_owned()))
        );
    }

    /// Numbers at and beyond the edges of their types: they saturate instead of wrapping or
    /// being refused.
    #[test]
    fn numbers_beyond_their_type_saturate() {
        use Command as C;
        const TWENTY_NINES: &str = "99999999999999999999";
        let max_ms = Duration::from_millis(u64::MAX);
        let cases: Vec<(&str, String, Command)> = vec![
            (
                "protover u32::MAX",
                "protover 4294967295".into(),
                C::Protover(u32::MAX),
            ),
            (
                "protover beyond u32",
                "protover 4294967296".into(),
                C::Protover(u32::MAX),
            ),
            (
                "sd beyond i32",
                "sd 2147483648".into(),
                C::Depth(2_147_483_648),
            ),
            ("sd beyond u32", "sd 4294967296".into(), C::Depth(u32::MAX)),
            (
                "sd twenty digits",
                format!("sd {TWENTY_NINES}"),
                C::Depth(u32::MAX),
            ),
            ("sd zero", "sd 0".into(), C::Depth(0)),
            ("sd leading zeros", "sd 0007".into(), C::Depth(7)),
            (
                "nps beyond u64",
                "nps 18446744073709551616".into(),
                C::Nps(u64::MAX),
            ),
            (
                "memory beyond u64",
                format!("memory {TWENTY_NINES}999"),
                C::Memory(u64::MAX),
            ),
            (
                "cores beyond u32",
                "cores 4294967296".into(),
                C::Cores(u32::MAX),
            ),
            (
                "time that wrapped the clock",
                "time 1844674407370955162".into(),
                C::Time {
                    centis: 1_844_674_407_370_955_162,
                },
            ),
            (
                "time beyond i64",
                "time 9223372036854775808".into(),
                C::Time { centis: i64::MAX },
            ),
            (
                "time below i64",
                "time -9223372036854775809".into(),
                C::Time { centis: i64::MIN },
            ),
            (
                "time beyond i64 with a fraction",
                format!("time {TWENTY_NINES}.5"),
                C::Time { centis: i64::MAX },
            ),
            (
                "otim beyond i64",
                format!("otim {TWENTY_NINES}"),
                C::OpponentTime { centis: i64::MAX },
            ),
            (
                "otim below i64",
                format!("otim -{TWENTY_NINES}"),
                C::OpponentTime { centis: i64::MIN },
            ),
            (
                "level moves beyond u32",
                "level 4294967296 5 0".into(),
                level(u32::MAX, 300_000, 0),
            ),
            (
                "level base beyond u64 milliseconds",
                format!("level 0 {TWENTY_NINES} 0"),
                Command::Level(Level {
                    moves_per_session: 0,
                    base: max_ms,
                    increment: Duration::ZERO,
                }),
            ),
            (
                "level base minutes and seconds beyond u64",
                format!("level 0 {TWENTY_NINES}:{TWENTY_NINES} 0"),
                Command::Level(Level {
                    moves_per_session: 0,
                    base: max_ms,
                    increment: Duration::ZERO,
                }),
            ),
            (
                "level increment beyond u64 milliseconds",
                format!("level 0 5 {TWENTY_NINES}.5"),
                Command::Level(Level {
                    moves_per_session: 0,
                    base: ms(300_000),
                    increment: max_ms,
                }),
            ),
            (
                "st at the last exact millisecond",
                "st 18446744073709551.615".into(),
                C::MoveTime(max_ms),
            ),
            (
                "st beyond u64 milliseconds",
                format!("st {TWENTY_NINES}"),
                C::MoveTime(max_ms),
            ),
            (
                "setscore beyond i32 and u32",
                format!("setscore {TWENTY_NINES} {TWENTY_NINES}"),
                C::SetScore {
                    score: i32::MAX,
                    depth: u32::MAX,
                },
            ),
            (
                "setscore below i32",
                "setscore -2147483649 0".into(),
                C::SetScore {
                    score: i32::MIN,
                    depth: 0,
                },
            ),
            (
                "rating beyond i32 both ways",
                format!("rating {TWENTY_NINES} -{TWENTY_NINES}"),
                C::Rating {
                    engine: i32::MAX,
                    opponent: i32::MIN,
                },
            ),
            (
                "rating with a plus sign",
                "rating +2100 -0".into(),
                C::Rating {
                    engine: 2100,
                    opponent: 0,
                },
            ),
        ];
        for (name, line, expected) in cases {
            assert_eq!(parse(&line), Ok(expected), "{name}: {line:?}");
        }
    }

    #[test]
    fn unknown_words_are_not_moves() {
        let unknown = [
            "blah",
            "c",
            "e9e4",
            "i2i4",
            "e2e4 e7e5",
            "Go",
            "NEW",
            "fritz",
            "Nf",
            "xe4x",
            "O-O-O-O",
            "e7e8x",
            "depth 5",
        ];
        for line in unknown {
            assert_eq!(
                parse(line),
                Err(ParseError::Unknown(line.to_owned())),
                "line {line:?}"
            );
        }
        // A lone square is a pawn move in SAN, even one no pawn could make.
        assert_eq!(parse("a1"), Ok(Command::UserMove(text("a1"))));
    }

    #[test]
    fn blank_lines_are_empty() {
        for line in ["", " ", "\t", "\r", "\r\n", "  \t \r"] {
            assert_eq!(parse(line), Err(ParseError::Empty), "line {line:?}");
            assert_eq!(parse_edit(line), Err(ParseError::Empty), "line {line:?}");
        }
    }

    #[test]
    fn parse_errors_become_protocol_replies() {
        let reply = |line| parse(line).unwrap_err().reply().map(|m| m.to_string());
        assert_eq!(
            reply("blah 1 2"),
            Some(text("Error (unknown command): blah 1 2"))
        );
        assert_eq!(
            reply("st abc\r"),
            Some(text("Error (bad argument): st abc"))
        );
        assert_eq!(reply(""), None);
    }

    #[test]
    fn edit_mode_lines() {
        use EditCommand as E;
        let cases = [
            ("c", E::SwitchColor),
            ("#", E::ClearBoard),
            (".", E::Done),
            ("c\r", E::SwitchColor),
            (
                "Pa4",
                E::Place {
                    piece: 'P',
                    square: text("a4"),
                },
            ),
            (
                "Kh8",
                E::Place {
                    piece: 'K',
                    square: text("h8"),
                },
            ),
            (
                " Qd1 ",
                E::Place {
                    piece: 'Q',
                    square: text("d1"),
                },
            ),
            ("xa4", E::ClearSquare(text("a4"))),
        ];
        for (line, expected) in cases {
            assert_eq!(parse_edit(line), Ok(expected), "line {line:?}");
        }
        for line in [
            "pa4", "Za1", "Pa9", "Pa", "P", "x", "xi1", "cc", "Pa4+", "new",
        ] {
            assert_eq!(
                parse_edit(line),
                Err(ParseError::Unknown(line.to_owned())),
                "line {line:?}"
            );
        }
    }

    /// A small xorshift generator: the tests need noise, not quality.
    struct Noise(u64);

    impl Noise {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).expect("less than n, a usize")
        }
    }

    const RANDOM_LINES: usize = 50_000;
    const MAX_RANDOM_LENGTH: usize = 48;

    /// Both parsers must return, and any error must quote the line as the GUI sent it
    /// (less the line ending and surrounding blanks).
    fn parse_everything(line: &str) {
        let cleaned = clean(line);
        let check = |error: ParseError| match error {
            ParseError::Empty => assert!(cleaned.is_empty(), "{line:?}"),
            ParseError::Unknown(quoted) | ParseError::BadArgument(quoted) => {
                assert_eq!(quoted, cleaned, "{line:?}")
            }
        };
        if let Err(error) = parse(line) {
            check(error);
        }
        if let Err(error) = parse_edit(line) {
            check(error);
        }
    }

    #[test]
    fn no_panic_on_random_bytes() {
        let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
        for _ in 0..RANDOM_LINES {
            let length = noise.below(MAX_RANDOM_LENGTH);
            let bytes: Vec<u8> = (0..length).map(|_| noise.next().to_le_bytes()[0]).collect();
            parse_everything(&String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn no_panic_on_protocol_like_noise() {
        const ALPHABET: &[char] = &[
            ' ', '\t', '\r', '0', '1', '2', '5', '9', '.', ':', '-', '+', '=', '/', '{', '}', '*',
            '@', '#', '?', 'a', 'e', 'h', 'x', 'O', 'N', 'Q', 'é', '€', '𝄞',
        ];
        let mut noise = Noise(42);
        let words: Vec<&str> = valid_lines()
            .iter()
            .filter_map(|(line, _)| line.split_whitespace().next())
            .collect();
        for _ in 0..RANDOM_LINES {
            let mut line = text(words[noise.below(words.len())]);
            for _ in 0..noise.below(MAX_RANDOM_LENGTH) {
                line.push(ALPHABET[noise.below(ALPHABET.len())]);
            }
            parse_everything(&line);
        }
    }

    #[test]
    fn no_panic_on_truncated_or_garbled_valid_lines() {
        let mut noise = Noise(7);
        for (line, _) in valid_lines() {
            for (cut, _) in line.char_indices() {
                parse_everything(&line[..cut]);
                parse_everything(&line[cut..]);
            }
            for _ in 0..100 {
                let mut chars: Vec<char> = line.chars().collect();
                let at = noise.below(chars.len());
                chars[at] =
                    char::from_u32(u32::try_from(noise.below(0x3000)).expect("below 0x3000"))
                        .unwrap_or('\u{fffd}');
                parse_everything(&chars.into_iter().collect::<String>());
            }
        }
    }
}
