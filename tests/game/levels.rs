//! Analysis with several lines (`MultiPV`) and play at a limited strength
//! (`LimitStrength`, `Elo`).

use crate::common::game::{Driver, ThinkingLine, is_move, is_thinking_line};
use ferrimax::chess::Board;

/// Lines of the analysis asked for in the tests.
const LINES: usize = 3;
/// White to move takes Black's undefended queen on d5 with the rook: nothing else comes
/// near.
const FREE_QUEEN: &str = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1";

/// Every thinking line of depth `depth` in `lines`.
fn at_depth(lines: &[String], depth: u32) -> Vec<ThinkingLine<'_>> {
    lines
        .iter()
        .filter(|l| is_thinking_line(l))
        .map(|l| ThinkingLine::parse(l))
        .filter(|t| t.depth == depth)
        .collect()
}

/// With `MultiPV` at 3, each finished depth of an analysis shows three lines, best first,
/// each for another first move and with its own score; exclusions still bind; a new
/// value starts the analysis over.
#[test]
fn an_analysis_shows_the_lines_asked_for_best_first() {
    let mut d = Driver::new();
    d.send_all(&[
        "new",
        "force",
        "post",
        "sd 5",
        &format!("option MultiPV={LINES}"),
    ]);
    d.send("analyze");
    let mut lines = Vec::new();
    while !at_depth(&lines, 5).len().eq(&LINES) {
        lines.push(d.wait_thinking());
    }
    for depth in 2..=5 {
        let shown = at_depth(&lines, depth);
        let shown: Vec<&ThinkingLine> = shown.iter().rev().take(LINES).rev().collect();
        assert_eq!(shown.len(), LINES, "depth {depth}: {lines:?}");
        let firsts: std::collections::BTreeSet<&str> =
            shown.iter().map(|t| t.first_move()).collect();
        assert_eq!(firsts.len(), LINES, "depth {depth}: {lines:?}");
        assert!(
            shown.windows(2).all(|w| w[0].score >= w[1].score),
            "depth {depth}: {lines:?}"
        );
    }
    // A change of the lines, or of the level, starts the analysis over.
    for change in [
        "option MultiPV=2",
        "option Elo=1500",
        "option LimitStrength=1",
    ] {
        assert_eq!(d.send_now(change), crate::SILENT, "{change}");
        let first = d.wait_thinking();
        assert_eq!(ThinkingLine::parse(&first).depth, 1, "{change}: {first}");
    }
    // Only e2e4 and d2d4 allowed: two lines however many are asked for.
    d.send_all(&["exit", "new", "force", "post", "sd 3", "exclude all"]);
    d.send_all(&["include e2e4", "include d2d4", "analyze"]);
    // A new best move found inside an iteration is shown at once, before the
    // iteration's lines: wait for both moves' lines at depth 3, then the last two there
    // are one each, and no line ever starts with another move.
    let mut lines = Vec::new();
    let has_line_for =
        |lines: &[String], m: &str| at_depth(lines, 3).iter().any(|t| t.first_move() == m);
    while !(has_line_for(&lines, "d4") && has_line_for(&lines, "e4")) {
        lines.push(d.wait_thinking());
    }
    let depth3 = at_depth(&lines, 3);
    let mut last_two: Vec<&str> = depth3
        .iter()
        .rev()
        .take(2)
        .map(|t| t.first_move())
        .collect();
    last_two.sort_unstable();
    assert_eq!(last_two, ["d4", "e4"], "{lines:?}");
    let all_firsts: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|l| ThinkingLine::parse(l).first_move())
        .collect();
    assert_eq!(all_firsts, ["d4", "e4"].into(), "{lines:?}");
}

/// Play is unaffected by `MultiPV`: the same lines (depth, score, nodes, PV) and move
/// as with one line.
#[test]
fn play_is_the_same_whatever_multipv_says() {
    let play = |lines: &str| {
        let mut d = Driver::new();
        d.send_all(&["new", "post", "sd 5", &format!("option MultiPV={lines}")]);
        let out = d.send("usermove e2e4");
        out.iter()
            .map(|l| {
                if is_thinking_line(l) {
                    let t = ThinkingLine::parse(l);
                    format!("{} {} {} {}", t.depth, t.score, t.nodes, t.pv)
                } else {
                    l.clone()
                }
            })
            .collect::<Vec<String>>()
    };
    assert_eq!(play("1"), play("4"));
}

/// A one-second game: a level waits out a share of it, which must be short in a test.
const FAST_CLOCK: [&str; 3] = ["level 0 0:01 0", "time 100", "otim 100"];

/// At every level the engine takes a free queen, plays a move it searched and shows it
/// last (its thinking stays honest), whatever its errors.
#[test]
fn a_level_takes_a_free_queen_and_shows_the_move_it_plays() {
    for elo in [1000, 1400, 2000, 2800] {
        for _ in 0..5 {
            let mut d = Driver::new();
            d.send_all(&["new", "force", "post", "option LimitStrength=1"]);
            d.send_all(&FAST_CLOCK);
            d.send_all(&[
                &format!("option Elo={elo}"),
                &format!("setboard {FREE_QUEEN}"),
            ]);
            let lines = d.send("go");
            let played = lines.iter().rev().find(|l| is_move(l)).expect("a move");
            assert_eq!(played, "move d1d5", "Elo {elo}: {lines:?}");
            let last = lines
                .iter()
                .rev()
                .find(|l| is_thinking_line(l))
                .expect("a line");
            assert_eq!(ThinkingLine::parse(last).first_move(), "Rxd5", "Elo {elo}");
        }
    }
    // And the start position gets a legal move, the first of its last line.
    let mut d = Driver::new();
    d.send_all(&[
        "new",
        "force",
        "post",
        "option LimitStrength=1",
        "option Elo=1000",
    ]);
    d.send_all(&FAST_CLOCK);
    let lines = d.send("go");
    let played = &lines.iter().rev().find(|l| is_move(l)).expect("a move")["move ".len()..];
    let start = Board::startpos();
    let m = start.parse_move(played).expect("legal");
    let last = lines
        .iter()
        .rev()
        .find(|l| is_thinking_line(l))
        .expect("a line");
    assert_eq!(ThinkingLine::parse(last).first_move(), start.san(m));
}
