//! Sessions shaped like the ones XBoard's zippy mode and icsDrone run on a chess server:
//! the test plays the server's side with legal replies and checks that the engine stays in
//! step, answers draw offers, whispers its analysis after every move, claims what the
//! board proves and survives game after game.

use crate::SILENT;
use crate::common::game::{Driver, is_move};
use crate::positions::*;
use ferrimax::chess::{Board, Color, Ending};

/// The server picks its reply among the first this many legal moves, so games differ.
const REPLY_CHOICES: usize = 3;
/// The clocks the server reports before each move, in centiseconds.
const TIME: &str = "time 1500";
const OTIM: &str = "otim 1400";

/// The server's view of a game: the board and the keys of the positions before it.
struct ServerGame {
    board: Board,
    keys: Vec<u64>,
}

impl ServerGame {
    fn new() -> ServerGame {
        ServerGame {
            board: Board::startpos(),
            keys: Vec::new(),
        }
    }

    fn play(&mut self, m: &str) {
        let mv = self
            .board
            .parse_move(m)
            .unwrap_or_else(|_| panic!("illegal move {m}"));
        self.keys.push(self.board.key());
        self.board.make_move(mv);
    }

    fn ending(&self) -> Option<Ending> {
        self.board.ending(&self.keys)
    }
}

/// The claim the engine must make for `ending`.
fn claim(ending: Ending) -> &'static str {
    match ending {
        Ending::Checkmate {
            winner: Color::White,
        } => "1-0 {White mates}",
        Ending::Checkmate {
            winner: Color::Black,
        } => "0-1 {Black mates}",
        Ending::Stalemate => "1/2-1/2 {Stalemate}",
        Ending::InsufficientMaterial => "1/2-1/2 {Insufficient material}",
        Ending::FiftyMoves => "1/2-1/2 {Draw by 50-move rule}",
        Ending::Repetition => "1/2-1/2 {Draw by repetition}",
    }
}

/// Checks the output of one engine turn (`lines`): thinking lines, one legal move, then
/// the whisper of its search, or the claim (and no whisper) if the move ended the game;
/// or just the claim when the server's move ended it. Plays the move on the server's board
/// and returns whether the game is over.
fn engine_turn(d: &Driver, game: &mut ServerGame, lines: &[String]) -> bool {
    if let Some(ending) = game.ending() {
        assert_eq!(lines, [claim(ending)], "{}", d.transcript());
        return true;
    }
    // On a server the thinking lines carry no extras: bridges copy them into kibitzes.
    assert!(lines.iter().all(|l| !l.contains('\t')), "{lines:?}");
    let moves: Vec<usize> = (0..lines.len()).filter(|&i| is_move(&lines[i])).collect();
    let [at] = moves[..] else {
        d.fail("not exactly one move")
    };
    let m = &lines[at]["move ".len()..];
    assert!(game.board.parse_move(m).is_ok(), "illegal engine move {m}");
    game.play(m);
    let rest = &lines[at + 1..];
    match game.ending() {
        // The move ended the game: the claim, and nothing public after the final move
        // (the server has ended the game already).
        Some(ending) => {
            assert_eq!(rest, [claim(ending)], "{}", d.transcript());
            true
        }
        None => {
            let [whisper] = rest else {
                d.fail("one whisper after the move, nothing else")
            };
            assert!(
                whisper.starts_with("tellothers depth ") && whisper.contains(" pv "),
                "{}",
                d.transcript()
            );
            false
        }
    }
}

/// Plays `engine_moves` turns of the engine, the first in `pending`, answering each with
/// a legal move and the clocks as zippy sends them. Returns the output of the engine's
/// next turn, or `None` when the game ended.
fn play_on(
    d: &mut Driver,
    game: &mut ServerGame,
    pending: Vec<String>,
    engine_moves: usize,
) -> Option<Vec<String>> {
    let mut lines = pending;
    for i in 0..engine_moves {
        if engine_turn(d, game, &lines) {
            return None;
        }
        let legal = game.board.legal_moves();
        let reply = legal.as_slice()[i % legal.len().min(REPLY_CHOICES)].to_string();
        game.play(&reply);
        assert_eq!(d.send_all(&[TIME, OTIM]), SILENT);
        lines = d.send(&format!("usermove {reply}"));
    }
    Some(lines)
}

/// Lines a bridge forwards to the server: the engine must print them only on purpose.
fn forwarded_to_the_server(line: &str) -> bool {
    ["tell", "kibitz", "whisper", "draw"]
        .iter()
        .any(|start| line.starts_with(start))
        || (line.contains("offer") && line.contains("draw"))
}

/// Every line of the session a bridge would forward is deliberate: a whisper right after
/// the engine's move, or `offer draw` answering the opponent's `draw` or claiming the
/// draw the engine's next move makes.
fn assert_only_deliberate_server_lines(d: &Driver) {
    let transcript = d.transcript();
    let lines: Vec<&str> = transcript.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(out) = line.strip_prefix("< ") else {
            continue;
        };
        if !forwarded_to_the_server(out) {
            continue;
        }
        let previous_out = lines[..i].iter().rev().find_map(|l| l.strip_prefix("< "));
        let previous_in = lines[..i].iter().rev().find_map(|l| l.strip_prefix("> "));
        let next_out = lines[i + 1..].iter().find_map(|l| l.strip_prefix("< "));
        let deliberate = match out {
            "offer draw" => previous_in == Some("draw") || next_out.is_some_and(is_move),
            whisper => {
                whisper.starts_with("tellothers depth ") && previous_out.is_some_and(is_move)
            }
        };
        assert!(
            deliberate,
            "line {i} {out:?} is not deliberate:\n{transcript}"
        );
    }
}

/// The engine never answered `Error (...)` or `Illegal move`.
fn assert_no_error_replies(d: &Driver) {
    let transcript = d.transcript();
    let errors: Vec<&str> = transcript
        .lines()
        .filter(|l| l.starts_with("< Error") || l.starts_with("< Illegal"))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn zippy_style_session_of_two_games() {
    const GAMES: u32 = 2;
    const MOVES_BEFORE_THE_OFFER: usize = 6;
    const MOVES_AFTER_THE_OFFER: usize = 2;
    let mut d = Driver::new();
    for game in 0..GAMES {
        let setup = ["new", "random", "ics freechess.org", "post", "hard", "easy"];
        assert_eq!(d.send_all(&setup), SILENT);
        let ping = game * 10 + 1;
        assert_eq!(d.send(&format!("ping {ping}")), [format!("pong {ping}")]);
        let players = ["level 0 1 0", "name Tester", "rating 1807 1633", "computer"];
        assert_eq!(d.send_all(&players), SILENT);
        // Not zippy's: a depth limit keeps each move to milliseconds.
        d.send(SHALLOW);
        let mut server = ServerGame::new();
        let first = if game == 0 {
            // Engine has White: zippy sends time, otim, go.
            d.send_all(&["time 1500", "otim 1500", "go"])
        } else {
            // Engine has Black and the opponent is on move: playother, then the move.
            assert_eq!(d.send_all(&["time 1500", "otim 1500", "playother"]), SILENT);
            server.play("e2e4");
            d.send_all(&[TIME, OTIM, "usermove e2e4"])
        };
        if let Some(pending) = play_on(&mut d, &mut server, first, MOVES_BEFORE_THE_OFFER) {
            // A draw offer from the opponent: the engine may accept or stay silent, but
            // must keep playing until the server says the game is over.
            let answer = d.send("draw");
            assert!(answer.is_empty() || answer == ["offer draw"], "{answer:?}");
            if let Some(last) = play_on(&mut d, &mut server, pending, MOVES_AFTER_THE_OFFER) {
                engine_turn(&d, &mut server, &last);
            }
        }
        let end = d.send_all(&["result 1-0 {Tester resigns}", "force"]);
        assert_eq!(end, SILENT);
        assert_eq!(d.drain(), SILENT);
        let ping = game * 10 + 2;
        assert_eq!(d.send(&format!("ping {ping}")), [format!("pong {ping}")]);
    }
    assert_no_error_replies(&d);
    assert_only_deliberate_server_lines(&d);
}

#[test]
fn icsdrone_style_session() {
    const ENGINE_MOVES: usize = 5;
    const FEATURE_LINES: usize = 4;
    let mut d = Driver::new();
    // icsDrone sends post, easy and force right behind protover, without waiting.
    let handshake = d.send_all(&["xboard", "protover 2", "post", "easy", "force"]);
    assert_eq!(handshake.len(), FEATURE_LINES, "{handshake:?}");
    assert_eq!(handshake.last().map(String::as_str), Some("feature done=1"));
    let server = [
        "ics freechess.org",
        "variant normal",
        "name Tester",
        "rating 1860 1580",
    ];
    assert_eq!(d.send_all(&server), SILENT);
    let game = [
        "new",
        "easy",
        "force",
        "level 0 1 0",
        "hard",
        "easy",
        "random",
        SHALLOW,
    ];
    assert_eq!(d.send_all(&game), SILENT);
    let mut server_game = ServerGame::new();
    server_game.play("d2d4");
    let first = d.send_all(&["time 1500", "otim 1500", "usermove d2d4", "go"]);
    if let Some(last) = play_on(&mut d, &mut server_game, first, ENGINE_MOVES) {
        engine_turn(&d, &mut server_game, &last);
    }
    let end = [
        "result 0-1 {Tester forfeits on time}",
        "force",
        "new",
        "easy",
    ];
    assert_eq!(d.send_all(&end), SILENT);
    assert_eq!(d.send("ping 3"), ["pong 3"]);
    assert_no_error_replies(&d);
    assert_only_deliberate_server_lines(&d);
}

/// Whispers are for a chess server only: none before `ics HOST`, none after `ics -`.
#[test]
fn no_whispers_off_the_server() {
    let cases: &[(&str, &[&str])] = &[
        ("never on a server", &[]),
        ("left the server", &["ics freechess.org", "ics -"]),
    ];
    for (name, server) in cases {
        let mut d = Driver::new();
        d.send_all(server);
        d.send_all(&["new", SHALLOW]);
        assert_eq!(d.send("usermove e2e4"), [REPLY_TO_E4], "{name}");
    }
}
