//! Just enough of PGN to replay finished games: the `Result` and `FEN` tags, and the
//! moves in SAN with comments, variations, NAGs and move numbers skipped (the PGN
//! standard, section 8). The tuner reads Ferrimax's own match games with it.

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
    /// The result.
    pub outcome: Outcome,
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
    for token in tokens(movetext) {
        match board.parse_san(token) {
            Ok(m) => {
                board.make_move(m);
                moves.push(m);
            }
            Err(_) => break,
        }
    }
    Some(Game {
        start,
        moves,
        outcome,
    })
}

/// The move tokens of a movetext: comments (`{…}`, `;…`), variations (nested `(…)`),
/// NAGs (`$n`), move numbers (`12.`, `12...`) and the result left out.
fn tokens(movetext: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut in_line_comment = false;
    let mut start = None;
    for (i, c) in movetext.char_indices() {
        let boundary = match c {
            '{' if !in_line_comment => {
                in_comment = true;
                true
            }
            '}' if in_comment => {
                in_comment = false;
                true
            }
            ';' if !in_comment => {
                in_line_comment = true;
                true
            }
            '\n' if in_line_comment => {
                in_line_comment = false;
                true
            }
            '(' if !in_comment && !in_line_comment => {
                depth += 1;
                true
            }
            ')' if !in_comment && !in_line_comment => {
                depth = depth.saturating_sub(1);
                true
            }
            c => c.is_whitespace(),
        };
        let outside = !in_comment && !in_line_comment && depth == 0;
        if boundary || !outside {
            if let Some(s) = start.take() {
                out.push(&movetext[s..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&movetext[s..]);
    }
    out.into_iter()
        .map(|t| t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && !t.starts_with('$') && Outcome::parse(t).is_none())
        .filter(|&t| t != "*")
        .collect()
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

    #[test]
    fn a_game_stops_at_its_first_unreadable_move() {
        let games = read_games("[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n");
        assert_eq!(games[0].moves.len(), 2);
    }
}
