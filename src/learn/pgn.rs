//! Just enough of PGN to replay finished games: the `Result` and `FEN` tags, and the
//! moves in SAN with the comment after each (the PGN standard, section 8); variations,
//! NAGs and move numbers are skipped. The tuner reads Ferrimax's own match games with it,
//! and `datagen --pgn` the engines' scores that match runners such as cutechess and
//! fastchess write in those comments (`{+0.35/12 0.52s}`).

use crate::chess::{Board, Move};

/// How a game ended, from White's side.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Outcome {
    /// 1-0.
    WhiteWins,
    /// 1/2-1/2.
    Draw,
    /// 0-1.
    BlackWins,
}

impl Outcome {
    /// White's score: 1, ½ or 0.
    pub fn white_score(self) -> f64 {
        match self {
            Outcome::WhiteWins => 1.0,
            Outcome::Draw => 0.5,
            Outcome::BlackWins => 0.0,
        }
    }

    /// Reads a PGN result; `*` (unfinished) and anything else is `None`.
    pub fn parse(text: &str) -> Option<Outcome> {
        match text {
            "1-0" => Some(Outcome::WhiteWins),
            "1/2-1/2" => Some(Outcome::Draw),
            "0-1" => Some(Outcome::BlackWins),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::WhiteWins => "1-0",
            Outcome::Draw => "1/2-1/2",
            Outcome::BlackWins => "0-1",
        })
    }
}

/// A finished game: its start, its moves as far as they could be read, and its result.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position the moves start from.
    pub start: Board,
    /// The moves, legal in turn from `start`.
    pub moves: Vec<Move>,
    /// The comment after each move (several joined by a space), empty where there is
    /// none: where a match runner writes the engine's score, depth and time. As long as
    /// `moves`.
    pub comments: Vec<String>,
    /// The result.
    pub outcome: Outcome,
}

/// The engine's score a match runner wrote in a move's comment (`+0.35/12 0.52s`,
/// `-M3/20 0.1s`), from the side that made the move: cutechess and fastchess write each
/// engine's score as the engine reported it, from its own side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Centipawns(i32),
    /// A mate in this many moves, negative when the mover is mated.
    Mate(i32),
}

/// The score at the start of a move's comment, `SCORE/DEPTH` (`+0.35/12`, `0.00/10`,
/// `+M5/20`, `-M3/9`), or `None`: a book move (`book`), a comment without a score (a
/// time alone, a game's end), anything else.
pub fn engine_score(comment: &str) -> Option<EngineScore> {
    let first = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|w| !w.is_empty())?;
    let (score, depth) = first.split_once('/')?;
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (negative, magnitude) = match score.as_bytes().first()? {
        b'-' => (true, &score[1..]),
        b'+' => (false, &score[1..]),
        _ => (false, score),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(moves) = magnitude.strip_prefix('M') {
        return Some(EngineScore::Mate(sign * digits(moves)?));
    }
    let (pawns, decimals) = magnitude.split_once('.').unwrap_or((magnitude, ""));
    if !decimals.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Two decimals as the runners write them; a third and on are cut.
    let hundredths = format!("{decimals:0<2}");
    let centipawns = digits(&hundredths[..2])?.checked_add(digits(pawns)?.checked_mul(100)?)?;
    Some(EngineScore::Centipawns(sign * centipawns))
}

/// A non-negative number written in ASCII digits alone (no sign, not empty).
fn digits(text: &str) -> Option<i32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Every game of `text` that has a decided result (`*` games are skipped) and a
/// readable start. Moves are read up to the first one that is not legal SAN.
pub fn read_games(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(tag) = parse_tag(line) {
            if !movetext.trim().is_empty() {
                games.extend(finish(&tags, &movetext));
                tags.clear();
                movetext.clear();
            }
            tags.push(tag);
        } else if !line.starts_with('%') {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    games.extend(finish(&tags, &movetext));
    games
}

/// `[Name "value"]` as its two parts.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

fn finish(tags: &[(String, String)], movetext: &str) -> Option<Game> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let outcome = Outcome::parse(tag("Result")?)?;
    let start = match tag("FEN") {
        Some(fen) => Board::from_fen(fen).ok()?,
        None => Board::startpos(),
    };
    let mut board = start.clone();
    let mut moves = Vec::new();
    let mut comments: Vec<String> = Vec::new();
    for token in tokens(movetext) {
        match token {
            Token::Move(san) => match board.parse_san(san) {
                Ok(m) => {
                    board.make_move(m);
                    moves.push(m);
                    comments.push(String::new());
                }
                Err(_) => break,
            },
            // A comment before the first move is the game's, not a move's.
            Token::Comment(text) => {
                if let Some(last) = comments.last_mut() {
                    if !last.is_empty() {
                        last.push(' ');
                    }
                    last.push_str(text.trim());
                }
            }
        }
    }
    Some(Game {
        start,
        moves,
        comments,
        outcome,
    })
}

/// What the reader keeps of a movetext.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    /// A move in SAN (its number and any NAG gone).
    Move(&'a str),
    /// A comment's text, `{…}` or `;…` to the end of the line.
    Comment(&'a str),
}

/// The moves and comments of a movetext, in order: variations (nested `(…)`) with their
/// comments, NAGs (`$n`), move numbers (`12.`, `12...`) and the result left out.
fn tokens(movetext: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        let (token, length) = match c {
            '{' => {
                let end = rest.find('}').unwrap_or(rest.len());
                (
                    Some(Token::Comment(&rest[1..end])),
                    (end + 1).min(rest.len()),
                )
            }
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                (Some(Token::Comment(&rest[1..end])), end)
            }
            // A stray closing brace is no comment's end: skipped.
            '}' => (None, 1),
            '(' => {
                depth += 1;
                (None, 1)
            }
            ')' => {
                depth = depth.saturating_sub(1);
                (None, 1)
            }
            c if c.is_whitespace() => (None, c.len_utf8()),
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{};()".contains(c))
                    .unwrap_or(rest.len());
                (move_token(&rest[..end]).map(Token::Move), end)
            }
        };
        if depth == 0
            && let Some(token) = token
        {
            out.push(token);
        }
        rest = &rest[length..];
    }
    out
}

/// A word of movetext as a move: its move number (`12.`, `12...`) gone; `None` for a
/// NAG, a result or a bare number.
fn move_token(word: &str) -> Option<&str> {
    if word == "*" || Outcome::parse(word).is_some() || word.starts_with('$') {
        return None;
    }
    let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    (!san.is_empty()).then_some(san)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = r#"[Event "match.py"]
[White "Ferrimax"]
[Result "0-1"]

{ checkmate } 1. f3 e5 { book } 2. g4 $2 { 0.2s clk=9.5 } (2. Kf2 Qh4+) 2... Qh4# ; mate
0-1

[Event "match.py"]
[Result "1/2-1/2"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]

1. O-O Kd7 2. Rd1+ 1/2-1/2

[Result "*"]

1. e4 *
"#;

    #[test]
    fn games_are_read_with_comments_variations_and_nags_skipped() {
        let games = read_games(TWO_GAMES);
        assert_eq!(games.len(), 2, "the unfinished game is skipped");
        assert_eq!(games[0].outcome, Outcome::BlackWins);
        assert_eq!(games[0].moves.len(), 4);
        let mut board = games[0].start.clone();
        for &m in &games[0].moves {
            board.make_move(m);
        }
        assert!(board.in_check() && !board.has_legal_move(), "Fool's mate");
        assert_eq!(games[1].outcome, Outcome::Draw);
        assert_eq!(games[1].moves.len(), 3, "from the FEN");
    }

    /// Each move's comment is kept, the game's comment before the first move and the
    /// comments inside variations are not.
    #[test]
    fn each_move_keeps_its_comment() {
        let games = read_games(TWO_GAMES);
        assert_eq!(
            games[0].comments,
            ["", "book", "0.2s clk=9.5", "mate"],
            "a variation's moves and a NAG are not moves"
        );
        assert_eq!(games[1].comments, ["", "", ""]);
        let game = &read_games("[Result \"1-0\"]\n\n1. e4 {a} {b} } e5 {c\n1-0")[0];
        assert_eq!(
            game.comments,
            ["a b", "c\n1-0"],
            "an unclosed comment runs to the end"
        );
    }

    /// Scores as cutechess and fastchess write them, and comments without one.
    #[test]
    fn engine_scores_are_read_from_the_movers_side() {
        let cases = [
            ("pawns", "+0.35/12 0.52s", Some(EngineScore::Centipawns(35))),
            (
                "negative",
                "-1.20/9 0.1s",
                Some(EngineScore::Centipawns(-120)),
            ),
            ("zero", "0.00/10 0.2s", Some(EngineScore::Centipawns(0))),
            ("one decimal", "+3.5/7", Some(EngineScore::Centipawns(350))),
            (
                "three decimals",
                "-0.127/7",
                Some(EngineScore::Centipawns(-12)),
            ),
            (
                "large",
                "+350.25/30 1s",
                Some(EngineScore::Centipawns(35_025)),
            ),
            (
                "with the game's end",
                "-1.20/9 0.1s, White makes an illegal move: e1e3",
                Some(EngineScore::Centipawns(-120)),
            ),
            ("mate", "+M5/20 0.3s", Some(EngineScore::Mate(5))),
            ("mated", "-M3/18 0.3s", Some(EngineScore::Mate(-3))),
            ("book", "book", None),
            ("time alone", "0.169s clk=2.83", None),
            ("no depth", "+0.35 0.5s", None),
            ("not a number", "+x.35/12", None),
            ("not digits after the point", "+0.€/12", None),
            ("past i32", "+99999999999.00/12", None),
            ("empty", "", None),
            ("words", "White resigns", None),
        ];
        for (name, comment, score) in cases {
            assert_eq!(engine_score(comment), score, "{name}");
        }
    }

    #[test]
    fn a_game_stops_at_its_first_unreadable_move() {
        let games = read_games("[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n");
        assert_eq!(games[0].moves.len(), 2);
    }
}
