//! Turning what the search reports into what the GUI and a chess server read: thinking
//! lines, `stat01` answers and the one-line summary whispered after a move.

use crate::cecp::{self, Stat01, Thinking, ThinkingExtras};
use crate::chess::{Board, Move};
use crate::search::{Info, Progress, Report, SearchScore};
use crate::uci;
use std::fmt;
use std::time::Duration;

/// Moves of the principal variation whispered on a server (servers cut long lines).
const KIBITZ_PV_MOVES: usize = 10;
/// Longest summary line: servers cut or refuse longer input.
pub const MAX_SUMMARY_CHARS: usize = 200;
const MILLIS_PER_CENTI: u128 = 10;

/// How a tablebase win shows in thinking lines and `info`: this many centipawns, less one
/// a ply from the position the tables know (CECP has no word for it, and cutechess reads
/// scores above 9900 as mates).
pub const TABLEBASE_WIN_CENTIPAWNS: i32 = 9_800;

/// A tablebase win or loss `plies` from the position the tables know, in centipawns.
fn tablebase_centipawns(plies: i32) -> i32 {
    let shown = TABLEBASE_WIN_CENTIPAWNS - plies.abs();
    if plies >= 0 { shown } else { -shown }
}

/// A search score in the protocol's terms (mates counted in moves).
pub fn cecp_score(score: SearchScore) -> cecp::Score {
    match score {
        SearchScore::Centipawns(cp) => cecp::Score::Centipawns(cp),
        SearchScore::Tablebase(plies) => cecp::Score::Centipawns(tablebase_centipawns(plies)),
        SearchScore::Mate(plies) if plies > 0 => cecp::Score::mate_in_plies(plies.unsigned_abs()),
        SearchScore::Mate(plies) => cecp::Score::mated_in_plies(plies.unsigned_abs()),
    }
}

/// An internal search score as centipawns from the mover's point of view, mates as
/// ±(100000 + N): the scale on which draw offers are judged.
pub fn centipawns(score: i32) -> i64 {
    cecp_score(SearchScore::from_internal(score)).cecp_value()
}

fn centis(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_millis() / MILLIS_PER_CENTI).unwrap_or(u64::MAX)
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "float-to-integer `as` saturates, and the quotient is positive"
)]
fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// The thinking line for `info`, whose principal variation starts in `board`; with
/// `extras`, seldepth, speed and tablebase hits stand between the node count and the PV
/// (GUIs that do not know them, and chess-server bridges, show them as PV text).
pub fn thinking_line(board: &Board, info: &Info, extras: bool) -> Thinking {
    Thinking {
        depth: u32::try_from(info.depth).unwrap_or(0),
        score: cecp_score(info.score),
        centis: centis(info.elapsed),
        nodes: info.nodes,
        extras: extras.then(|| ThinkingExtras {
            seldepth: u32::try_from(info.seldepth).unwrap_or(0),
            nps: nodes_per_second(info.nodes, info.elapsed),
            tbhits: info.tbhits,
        }),
        pv: board.san_line(&info.pv),
    }
}

/// A search score as UCI writes it: mates counted in moves, negative when mated.
pub fn uci_score(score: SearchScore) -> uci::Score {
    match score {
        SearchScore::Centipawns(cp) => uci::Score::Centipawns(cp),
        SearchScore::Tablebase(plies) => uci::Score::Centipawns(tablebase_centipawns(plies)),
        SearchScore::Mate(plies) => {
            let moves = (plies.abs() + 1) / 2;
            uci::Score::Mate(if plies > 0 { moves } else { -moves })
        }
    }
}

/// The `info` line of a search `report`: `multipv` its rank when several lines are
/// searched, `hashfull` the table's fill, `pv` its line in UCI's coordinates. A new best
/// move within an iteration is a lower bound of what the iteration will find.
pub fn uci_info(
    report: &Report,
    multipv: Option<usize>,
    hashfull: u32,
    pv: Vec<String>,
) -> uci::Info {
    let info = report.info();
    let bound = match report {
        Report::NewBest(_) => uci::ScoreBound::Lower,
        Report::Iteration(_) | Report::OtherLine(_) => uci::ScoreBound::Exact,
    };
    uci::Info {
        depth: u32::try_from(info.depth).unwrap_or(0),
        seldepth: u32::try_from(info.seldepth).unwrap_or(0),
        multipv,
        score: uci_score(info.score),
        bound,
        nodes: info.nodes,
        nps: nodes_per_second(info.nodes, info.elapsed),
        hashfull,
        tbhits: info.tbhits,
        time_ms: u64::try_from(info.elapsed.as_millis()).unwrap_or(u64::MAX),
        pv,
    }
}

/// The `info` line for a position without a legal move: depth 0 and its `score`.
pub fn uci_final_info(score: uci::Score) -> uci::Info {
    uci::Info {
        depth: 0,
        seldepth: 0,
        multipv: None,
        score,
        bound: uci::ScoreBound::Exact,
        nodes: 0,
        nps: 0,
        hashfull: 0,
        tbhits: 0,
        time_ms: 0,
        pv: Vec::new(),
    }
}

/// The `stat01` answer for a running analysis of `board`.
pub fn stat01(board: &Board, progress: &Progress) -> Stat01 {
    let m = progress.current_move;
    let current = (!m.is_none() && board.is_legal(m)).then(|| board.san(m));
    Stat01 {
        centis: centis(progress.elapsed),
        nodes: progress.nodes,
        depth: progress.depth,
        moves_left: progress.moves_left,
        moves_total: progress.moves_total,
        current,
    }
}

/// The one-line account of a search that is whispered on a server, e.g.
/// `depth 12 score +0.34 time 2.1s nodes 1843210 knps 878 pv e4 e5 Nf3`.
pub struct SearchSummary {
    pub depth: i32,
    pub score: cecp::Score,
    pub elapsed: Duration,
    pub nodes: u64,
    pub pv: String,
}

impl SearchSummary {
    /// The summary of a search from `board` whose last report was `info`, which took
    /// `elapsed` and searched `nodes` in all.
    pub fn new(board: &Board, info: &Info, elapsed: Duration, nodes: u64) -> SearchSummary {
        let shown: &[Move] = &info.pv[..info.pv.len().min(KIBITZ_PV_MOVES)];
        SearchSummary {
            depth: info.depth,
            score: cecp_score(info.score),
            elapsed,
            nodes,
            pv: board.san_line(shown),
        }
    }
}

impl SearchSummary {
    /// The summary as one line of at most [`MAX_SUMMARY_CHARS`]: the principal variation
    /// loses moves from its end until it fits.
    pub fn to_line(&self) -> String {
        let mut line = self.to_string();
        while line.chars().count() > MAX_SUMMARY_CHARS {
            match line.rfind(' ') {
                Some(cut) => line.truncate(cut),
                None => line = line.chars().take(MAX_SUMMARY_CHARS).collect(),
            }
        }
        line
    }
}

impl fmt::Display for SearchSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.elapsed.as_secs_f64();
        let knps = self.nodes as f64 / seconds.max(1e-3) / 1000.0;
        write!(f, "depth {} score ", self.depth)?;
        match self.score {
            cecp::Score::Centipawns(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0)?,
            cecp::Score::MateIn(moves) => write!(f, "#{moves}")?,
            cecp::Score::MatedIn(moves) => write!(f, "#-{moves}")?,
        }
        write!(
            f,
            " time {seconds:.1}s nodes {} knps {knps:.0} pv {}",
            self.nodes, self.pv
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whisper_summary_reads_as_one_short_line() {
        let summary = SearchSummary {
            depth: 12,
            score: cecp::Score::Centipawns(34),
            elapsed: Duration::from_millis(2100),
            nodes: 1_843_210,
            pv: "e4 e5 Nf3".into(),
        };
        assert_eq!(
            summary.to_string(),
            "depth 12 score +0.34 time 2.1s nodes 1843210 knps 878 pv e4 e5 Nf3"
        );
        let mate = SearchSummary {
            score: cecp::Score::MatedIn(3),
            ..summary
        };
        assert!(mate.to_string().starts_with("depth 12 score #-3 "));
    }

    #[test]
    fn mates_count_moves_and_scores_are_centipawns() {
        use crate::search::MATE;
        assert_eq!(centipawns(MATE - 3), 100_002);
        assert_eq!(centipawns(-(MATE - 2)), -100_001);
        assert_eq!(centipawns(0), 0);
    }
}
