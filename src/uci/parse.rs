//! The grammar of UCI input lines.
//!
//! The UCI specification asks engines to be liberal: an unknown word before a command is
//! skipped (`joho debug on` switches debug on), and so is an unknown token among a
//! command's arguments. Everything else follows the rules of the CECP parser:
//! - blanks (spaces, tabs) and a trailing `\r` around and between tokens are ignored;
//! - keywords are case-sensitive, as every GUI sends them in lower case;
//! - a number too large (or too negative) for its type means that type's largest (or
//!   smallest) value: `go wtime 99999999999999999999` is a clock that never runs out,
//!   never one that wrapped round to almost nothing.
//!
//! A token is split off with nom; the commands themselves are a handful of keywords and
//! their arguments, read token by token.

use nom::bytes::complete::{take_till1, take_while};
use nom::{IResult, Parser};

use super::command::{Command, Go, ParseError, Start};

/// Blanks between tokens.
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r'
}

/// The next token and the text after it (leading blanks skipped), or `None` at the end.
fn next_token(input: &str) -> Option<(&str, &str)> {
    let parsed: IResult<&str, &str> = (take_while(is_blank), take_till1(is_blank))
        .map(|(_, token)| token)
        .parse(input);
    parsed.ok().map(|(rest, token)| (token, rest))
}

/// The tokens of `text`, each a slice of it.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let (token, after) = next_token(rest)?;
        rest = after;
        Some(token)
    })
}

/// Parses one line. Never panics.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let mut rest = line;
    let mut skipped = false;
    while let Some((word, args)) = next_token(rest) {
        let command = match word {
            "uci" => Ok(Command::Uci),
            "debug" => debug(args),
            "isready" => Ok(Command::IsReady),
            "setoption" => set_option(args),
            "register" => Ok(Command::Register),
            "ucinewgame" => Ok(Command::UciNewGame),
            "position" => position(args),
            "go" => Ok(Command::Go(go(args))),
            "stop" => Ok(Command::Stop),
            "ponderhit" => Ok(Command::PonderHit),
            "quit" => Ok(Command::Quit),
            _ => {
                skipped = true;
                rest = args;
                continue;
            }
        };
        return command.map_err(|why| ParseError::BadArgument {
            line: line.trim_matches(is_blank).to_string(),
            why,
        });
    }
    if skipped {
        Err(ParseError::Unknown(line.trim_matches(is_blank).to_string()))
    } else {
        Err(ParseError::Empty)
    }
}

/// `debug [on|off]`: a bare `debug` switches it on.
fn debug(args: &str) -> Result<Command, &'static str> {
    match tokens(args).next() {
        None | Some("on") => Ok(Command::Debug(true)),
        Some("off") => Ok(Command::Debug(false)),
        Some(_) => Err("debug takes on or off"),
    }
}

/// `setoption name NAME [value VALUE]`: NAME runs up to the token `value`, VALUE to the
/// end of the line; both keep their inner blanks (a file name may hold spaces).
fn set_option(args: &str) -> Result<Command, &'static str> {
    let Some(("name", after_name)) = next_token(args) else {
        return Err("setoption needs name NAME");
    };
    let (name, value) = match find_token(after_name, "value") {
        Some((before, after)) => (before, Some(after.trim_matches(is_blank).to_string())),
        None => (after_name, None),
    };
    let name = name.trim_matches(is_blank);
    if name.is_empty() {
        return Err("setoption needs name NAME");
    }
    Ok(Command::SetOption {
        name: name.to_string(),
        value,
    })
}

/// Splits `text` around the first whole token `word`: the text before it and after it.
fn find_token<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let mut rest = text;
    while let Some((token, after)) = next_token(rest) {
        if token == word {
            let start = text.len() - after.len() - token.len();
            return Some((&text[..start], after));
        }
        rest = after;
    }
    None
}

/// `position startpos|fen FEN [moves M...]`.
fn position(args: &str) -> Result<Command, &'static str> {
    let (setup, moves) = match find_token(args, "moves") {
        Some((setup, moves)) => (setup, tokens(moves).map(str::to_string).collect()),
        None => (args, Vec::new()),
    };
    let start = match next_token(setup) {
        Some(("startpos", _)) => Start::StartPos,
        Some(("fen", fen)) => {
            let fen: Vec<&str> = tokens(fen).collect();
            if fen.is_empty() {
                return Err("position fen needs a FEN");
            }
            Start::Fen(fen.join(" "))
        }
        _ => return Err("position needs startpos or fen FEN"),
    };
    Ok(Command::Position { start, moves })
}

/// `go` and its parameters, in any order. A parameter without its number, or with a
/// word for one, is skipped, as the specification asks for unknown tokens.
fn go(args: &str) -> Go {
    let mut go = Go::default();
    let mut words = tokens(args).peekable();
    while let Some(word) = words.next() {
        let mut number = || words.next_if(|t| is_number(t));
        match word {
            "wtime" => go.white_time = number().map(saturating_i64),
            "btime" => go.black_time = number().map(saturating_i64),
            "winc" => go.white_increment = number().map(saturating_i64),
            "binc" => go.black_increment = number().map(saturating_i64),
            "movestogo" => go.moves_to_go = number().map(saturating_u32),
            "depth" => go.depth = number().map(saturating_u32),
            "nodes" => go.nodes = number().map(saturating_u64),
            "mate" => go.mate = number().map(saturating_u32),
            "movetime" => go.move_time = number().map(saturating_i64),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(m) = words.next_if(|t| !is_go_keyword(t)) {
                    go.search_moves.push(m.to_string());
                }
            }
            _ => {}
        }
    }
    go
}

/// The words that start a `go` parameter (they end a `searchmoves` list).
fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

/// An optional sign and at least one digit.
fn is_number(token: &str) -> bool {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A number known to be [`is_number`], saturated to the `i64` range.
fn saturating_i64(token: &str) -> i64 {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    let magnitude = digits.bytes().fold(0i64, |n, digit| {
        n.saturating_mul(10).saturating_add(i64::from(digit - b'0'))
    });
    if negative { -magnitude } else { magnitude }
}

/// A count known to be [`is_number`]: negative means none, too large the largest.
fn saturating_u64(token: &str) -> u64 {
    if token.starts_with('-') {
        return 0;
    }
    let digits = token.strip_prefix('+').unwrap_or(token);
    digits.bytes().fold(0u64, |n, digit| {
        n.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
    })
}

/// A count known to be [`is_number`]: negative means none, too large the largest.
fn saturating_u32(token: &str) -> u32 {
    u32::try_from(saturating_u64(token)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(line: &str, why: &'static str) -> Result<Command, ParseError> {
        Err(ParseError::BadArgument {
            line: line.trim().to_string(),
            why,
        })
    }

    #[test]
    fn commands_and_their_arguments() {
        let option = |name: &str, value: Option<&str>| {
            Ok(Command::SetOption {
                name: name.to_string(),
                value: value.map(str::to_string),
            })
        };
        let position = |start: Start, moves: &[&str]| {
            Ok(Command::Position {
                start,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            })
        };
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        let cases: &[(&str, Result<Command, ParseError>)] = &[
            ("uci", Ok(Command::Uci)),
            ("  uci \r", Ok(Command::Uci)),
            ("isready", Ok(Command::IsReady)),
            ("debug on", Ok(Command::Debug(true))),
            ("debug off", Ok(Command::Debug(false))),
            ("debug", Ok(Command::Debug(true))),
            ("debug loud", bad("debug loud", "debug takes on or off")),
            ("joho debug on", Ok(Command::Debug(true))),
            ("ucinewgame", Ok(Command::UciNewGame)),
            ("register later", Ok(Command::Register)),
            ("stop", Ok(Command::Stop)),
            ("ponderhit", Ok(Command::PonderHit)),
            ("quit", Ok(Command::Quit)),
            ("setoption name Hash value 128", option("Hash", Some("128"))),
            (
                "setoption name Move Overhead value 30",
                option("Move Overhead", Some("30")),
            ),
            ("setoption name Clear Hash", option("Clear Hash", None)),
            (
                "setoption name EvalFile value /tmp/my net.bin",
                option("EvalFile", Some("/tmp/my net.bin")),
            ),
            ("setoption name Book value", option("Book", Some(""))),
            (
                "setoption Hash 128",
                bad("setoption Hash 128", "setoption needs name NAME"),
            ),
            (
                "setoption name",
                bad("setoption name", "setoption needs name NAME"),
            ),
            ("position startpos", position(Start::StartPos, &[])),
            (
                "position startpos moves e2e4 e7e5",
                position(Start::StartPos, &["e2e4", "e7e5"]),
            ),
            (
                &format!("position fen {fen} moves e7e5"),
                position(Start::Fen(fen.to_string()), &["e7e5"]),
            ),
            (
                &format!("position fen  {fen}"),
                position(Start::Fen(fen.to_string()), &[]),
            ),
            (
                "position",
                bad("position", "position needs startpos or fen FEN"),
            ),
            (
                "position fen",
                bad("position fen", "position fen needs a FEN"),
            ),
            (
                "position moves e2e4",
                bad("position moves e2e4", "position needs startpos or fen FEN"),
            ),
            (
                "hello world",
                Err(ParseError::Unknown("hello world".to_string())),
            ),
            ("", Err(ParseError::Empty)),
            (" \t ", Err(ParseError::Empty)),
        ];
        for (line, expected) in cases {
            assert_eq!(&parse(line), expected, "{line:?}");
        }
    }

    #[test]
    fn go_parameters_in_any_order_saturated_and_tolerant() {
        let go = |line: &str| match parse(line) {
            Ok(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        };
        let clock = go("go wtime 300000 btime -250 winc 2000 binc 2000 movestogo 40");
        assert_eq!(clock.white_time, Some(300_000));
        assert_eq!(clock.black_time, Some(-250));
        assert_eq!(clock.white_increment, Some(2000));
        assert_eq!(clock.moves_to_go, Some(40));
        let limits = go("go depth 12 nodes 99999999999999999999999 mate 3 movetime 1500");
        assert_eq!(limits.depth, Some(12));
        assert_eq!(limits.nodes, Some(u64::MAX));
        assert_eq!(limits.mate, Some(3));
        assert_eq!(limits.move_time, Some(1500));
        assert!(go("go infinite").infinite);
        let ponder = go("go ponder wtime 1000 btime 1000");
        assert!(ponder.ponder && !ponder.infinite);
        let moves = go("go searchmoves e2e4 d2d4 depth 5");
        assert_eq!(moves.search_moves, ["e2e4", "d2d4"]);
        assert_eq!(moves.depth, Some(5));
        // A parameter without its number, and an unknown word, are skipped.
        let tolerant = go("go depth movetime 100 sometimes wtime x");
        assert_eq!(tolerant.depth, None);
        assert_eq!(tolerant.move_time, Some(100));
        assert_eq!(tolerant.white_time, None);
        assert_eq!(go("go depth -3").depth, Some(0));
        assert_eq!(go("go"), Go::default());
    }
}
