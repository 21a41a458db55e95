//! Sessions shaped like the ones XBoard's zippy mode and icsDrone run on a chess server:
//! the test plays the server's side with legal replies and checks that the engine stays in
//! step, answers draw offers, whispers its analysis and survives game after game.

mod common;

use common::engine::{Engine, PROMPT};
use ferrimax::chess::Board;
use std::time::Duration;

/// Plays `engine_moves` moves of the engine: each arrives as `move X`, and the "server"
/// answers with a legal move (time/otim before each, as zippy sends them). The clock
/// reported is 15 s, so a move takes under two seconds even on a loaded machine.
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

    fn ending(&self) -> Option<ferrimax::chess::Ending> {
        self.board.ending(&self.keys)
    }
}

fn play_on(e: &mut Engine, game: &mut ServerGame, engine_moves: usize) {
    for i in 0..engine_moves {
        if game.ending().is_some() {
            return;
        }
        let m = e.expect_move(Duration::from_secs(10));
        assert!(
            game.board.parse_move(&m).is_ok(),
            "illegal engine move {m}:\n{}",
            e.dump()
        );
        game.play(&m);
        if let Some(ending) = game.ending() {
            // The engine's move ended the game: it claims the result itself, and says
            // nothing public after it (the server has ended the game already).
            let (claim, before) = e.wait_for(PROMPT, |l| {
                ["1-0", "0-1", "1/2-1/2"].iter().any(|r| l.starts_with(r))
            });
            let after = e.sync(99);
            assert!(
                before.iter().chain(&after).all(|l| !l.starts_with("tell")),
                "{}",
                e.dump()
            );
            eprintln!("game ended by the engine's move: {ending:?}, claimed {claim}");
            return;
        }
        // Every other engine move is followed by one whisper of its search on a server.
        let (whisper, _) = e.wait_for(PROMPT, |l| l.starts_with("tellothers "));
        assert!(whisper.contains(" pv "), "{whisper}");
        let legal = game.board.legal_moves();
        let reply = legal.as_slice()[i % legal.len().min(3)].to_string();
        game.play(&reply);
        e.send_all(&["time 1500", "otim 1400"]);
        e.send(&format!("usermove {reply}"));
    }
}

#[test]
fn zippy_style_session_of_two_games() {
    let mut e = Engine::ready();
    for game in 0..2 {
        e.send_all(&["new", "random", "ics freechess.org", "post", "hard", "easy"]);
        e.sync(game * 10 + 1);
        e.send_all(&["level 0 1 0", "name Tester", "rating 1807 1633", "computer"]);
        let mut game_state = ServerGame::new();
        if game == 0 {
            // Engine has White: zippy sends time, otim, go.
            e.send_all(&["time 1500", "otim 1500", "go"]);
        } else {
            // Engine has Black and the opponent is on move: playother, then the move.
            e.send_all(&["time 1500", "otim 1500", "playother"]);
            game_state.play("e2e4");
            e.send_all(&["time 1500", "otim 1400", "usermove e2e4"]);
        }
        play_on(&mut e, &mut game_state, 6);
        // A draw offer from the opponent: the engine may accept or stay silent, but must
        // keep playing until the server says the game is over.
        e.send("draw");
        play_on(&mut e, &mut game_state, 2);
        e.send_all(&["result 1-0 {Tester resigns}", "force"]);
        let lines = e.sync(game * 10 + 2);
        assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    }
    e.assert_no_error_replies();
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
    let mut game_state = ServerGame::new();
    game_state.play("d2d4");
    e.send_all(&["time 1500", "otim 1500", "usermove d2d4", "go"]);
    play_on(&mut e, &mut game_state, 5);
    e.send_all(&[
        "result 0-1 {Tester forfeits on time}",
        "force",
        "new",
        "easy",
    ]);
    e.sync(3);
    e.assert_no_error_replies();
}

#[test]
fn no_whispers_off_the_server() {
    let mut e = Engine::ready();
    e.send_all(&["new", "ics -", "st 0.1", "usermove e2e4"]);
    e.expect_move(PROMPT);
    let lines = e.sync(1);
    assert!(lines.iter().all(|l| !l.starts_with("tell")), "{lines:?}");
}
