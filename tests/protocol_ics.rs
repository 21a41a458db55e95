//! Sessions shaped like the ones XBoard's zippy mode and icsDrone run on a chess server
//! (`../shared/data/zippy-session.log`, `icsdrone-session.log`): the test plays the
//! server's side with legal replies and checks that the engine stays in step, answers
//! draw offers, whispers its analysis and survives game after game.

mod common;

use common::engine::{Engine, PROMPT};
use ferrimax::chess::Board;
use std::time::Duration;

/// Plays `plies` plies after the engine's first move: the engine's moves arrive as
/// `move X`, the "server" answers with its first legal move (time/otim before each, as
/// zippy sends them). Returns the board.
fn play_on(e: &mut Engine, board: &mut Board, engine_moves: usize, usermove_prefix: &str) {
    for i in 0..engine_moves {
        let m = e.expect_move(Duration::from_secs(10));
        let mv = board
            .parse_move(&m)
            .unwrap_or_else(|_| panic!("illegal engine move {m}:\n{}", e.dump()));
        board.make_move(mv);
        // Every engine move is followed by one whisper of its search on a server.
        let (whisper, _) = e.wait_for(PROMPT, |l| l.starts_with("tellothers "));
        assert!(whisper.contains(" pv "), "{whisper}");
        let Some(&reply) = board.legal_moves().as_slice().get(i % 3) else {
            return;
        };
        board.make_move(reply);
        e.send_all(&["time 5500", "otim 5400"]);
        e.send(&format!("{usermove_prefix}{reply}"));
    }
}

#[test]
fn zippy_style_session_of_two_games() {
    let mut e = Engine::ready();
    for game in 0..2 {
        e.send_all(&["new", "random", "ics freechess.org", "post", "hard", "easy"]);
        e.sync(game * 10 + 1);
        e.send_all(&["level 0 1 0", "name Tester", "rating 1807 1633", "computer"]);
        let mut board = Board::startpos();
        if game == 0 {
            // Engine has White: zippy sends time, otim, go.
            e.send_all(&["time 6000", "otim 6000", "go"]);
        } else {
            // Engine has Black and the opponent is on move: playother, then the move.
            e.send_all(&["time 6000", "otim 6000", "playother"]);
            board.make_move(board.parse_move("e2e4").unwrap());
            e.send_all(&["time 6000", "otim 5900", "usermove e2e4"]);
        }
        play_on(&mut e, &mut board, 6, "usermove ");
        // A draw offer from the opponent: the engine may accept or stay silent, but must
        // keep playing until the server says the game is over.
        e.send("draw");
        play_on(&mut e, &mut board, 2, "usermove ");
        e.send_all(&["result 1-0 {Tester resigns}", "force"]);
        let lines = e.sync(game * 10 + 2);
        assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    }
    let errors: Vec<&String> = e
        .transcript
        .iter()
        .filter(|l| l.starts_with("< Error") || l.starts_with("< Illegal"))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn icsdrone_style_session() {
    let mut e = Engine::start();
    // icsDrone sends post, easy and force right behind protover, without waiting.
    e.send_all(&["xboard", "protover 2", "post", "easy", "force"]);
    e.expect_line("feature done=1");
    e.send_all(&[
        "ics freechess.org",
        "variant normal",
        "name Tester",
        "rating 1860 1580",
    ]);
    e.send_all(&[
        "new",
        "easy",
        "force",
        "level 0 1 0",
        "hard",
        "easy",
        "random",
    ]);
    let mut board = Board::startpos();
    board.make_move(board.parse_move("d2d4").unwrap());
    e.send_all(&["time 6000", "otim 6000", "usermove d2d4", "go"]);
    play_on(&mut e, &mut board, 5, "usermove ");
    e.send_all(&[
        "result 0-1 {Tester forfeits on time}",
        "force",
        "new",
        "easy",
    ]);
    e.sync(3);
    let errors: Vec<&String> = e
        .transcript
        .iter()
        .filter(|l| l.starts_with("< Error") || l.starts_with("< Illegal"))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn no_whispers_off_the_server() {
    let mut e = Engine::ready();
    e.send_all(&["new", "ics -", "st 0.1", "usermove e2e4"]);
    e.expect_move(PROMPT);
    let lines = e.sync(1);
    assert!(lines.iter().all(|l| !l.starts_with("tell")), "{lines:?}");
}
