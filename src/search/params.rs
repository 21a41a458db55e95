//! Every number the search is tuned by, in one place: pruning margins and depths,
//! reductions, extensions, windows, move-ordering scores, the table's replacement weight
//! and the time manager's factors. Each was set by hand or by a match against the build
//! before it; the commit that changed one says what it measured.

use crate::eval::{PAWN_VALUE, QUEEN_VALUE};
use std::time::Duration;

// ------------------------------------------------------------------ pruning

/// Null move: searched this many plies shallower than the node, plus one more per
/// `NULL_MOVE_DEPTH_DIVISOR` plies of depth (R = 3 at moderate depths, more deeper down;
/// never below depth 1).
pub const NULL_MOVE_REDUCTION: i32 = 3;
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 6;
/// Static-eval ("reverse futility") cut: at depth ≤ this outside the PV, a static eval
/// at least `STATIC_CUT_MARGIN` per ply of depth above beta returns at once (a ply's
/// margin less where the side to move is improving).
pub const STATIC_CUT_DEPTH: i32 = 6;
pub const STATIC_CUT_MARGIN: i32 = PAWN_VALUE * 3 / 2;
/// Futility: outside the PV, quiet moves at depth ≤ `FUTILITY_DEPTH` are skipped when
/// the static eval plus `FUTILITY_MARGIN_PER_PLY` for each ply of depth, and one more,
/// cannot reach alpha (2 pawns at depth 1, 7 at depth 6).
pub const FUTILITY_DEPTH: i32 = 6;
pub const FUTILITY_MARGIN_PER_PLY: i32 = PAWN_VALUE;
/// Late-move pruning: outside the PV at depth 1-8, quiet moves after this many (by
/// depth: about 4 + depth squared) are skipped: ordered by history, so late they rarely
/// matter.
pub const LATE_MOVE_COUNT: [usize; 9] = [0, 5, 8, 13, 20, 29, 40, 53, 68];
/// ...and after about 60 % of as many where the side to move is not improving (its
/// static eval is no better than two plies before: see `Searcher::improving`).
pub const LATE_MOVE_COUNT_NOT_IMPROVING: [usize; 9] = [0, 3, 5, 8, 12, 17, 24, 32, 41];
/// Exchange pruning: at depth ≤ `SEE_PRUNE_DEPTH`, once a move has been searched, a
/// move whose static exchange loses more than its margin is skipped: a quiet move
/// `SEE_QUIET_MARGIN` per ply of depth, a capture `SEE_CAPTURE_MARGIN` per ply squared
/// (a capture's exchange misses more, so it is given more room deeper down).
pub const SEE_PRUNE_DEPTH: i32 = 8;
pub const SEE_QUIET_MARGIN: i32 = PAWN_VALUE * 5 / 8;
pub const SEE_CAPTURE_MARGIN: i32 = PAWN_VALUE / 5;
/// Delta pruning in quiescence: a capture that cannot bring the score within this of
/// alpha is skipped.
pub const DELTA_MARGIN: i32 = PAWN_VALUE * 2;

// ------------------------------------------------------------------ reductions and extensions

/// Late-move reductions: from this depth, quiet moves after the first `LMR_FIRST_MOVES`
/// are searched shallower first.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_FIRST_MOVES: usize = 3;
/// ...by `LMR_BASE + ln(depth)·ln(move number) / LMR_DIVISOR` plies (one less in PV
/// nodes, leaving at least one ply).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// ...one ply more where the side to move is not improving...
pub const LMR_NOT_IMPROVING: i32 = 1;
/// ...less one ply per `HISTORY_REDUCTION_DIVISOR` of the move's history score (more
/// for a move with a bad history), by at most `HISTORY_REDUCTION_MAX` plies either way.
pub const HISTORY_REDUCTION_DIVISOR: i32 = 6144;
pub const HISTORY_REDUCTION_MAX: i32 = 2;
/// Internal iterative reduction: a node this deep without a hash move is searched
/// `IIR_PLIES` shallower. (In micro-Max's self-deepening mode it first searches
/// `IID_REDUCTION` plies shallower to find a move instead.)
pub const IID_MIN_DEPTH: i32 = 4;
pub const IIR_PLIES: i32 = 1;
pub const IID_REDUCTION: i32 = 2;
/// Singular extension: at depth ≥ `SINGULAR_MIN_DEPTH`, a hash move whose table entry
/// is a lower or exact bound searched at least `depth - SINGULAR_TABLE_SLACK` deep is
/// tested: every other move is searched to half depth against the table score less
/// `SINGULAR_MARGIN` per ply. If none reaches it, the hash move is searched one ply
/// deeper.
pub const SINGULAR_MIN_DEPTH: i32 = 8;
pub const SINGULAR_TABLE_SLACK: i32 = 3;
pub const SINGULAR_MARGIN: i32 = 2;

// ------------------------------------------------------------------ the root

/// Aspiration: from depth `ASPIRATION_DEPTH` the root is first searched this far either
/// side of the last score...
pub const ASPIRATION_WINDOW: i32 = PAWN_VALUE / 3;
pub const ASPIRATION_DEPTH: i32 = 5;
/// ...and on a failure the window grows by this factor, until it is wider than a queen,
/// when it opens fully.
pub const ASPIRATION_GROWTH: i32 = 3;
pub const ASPIRATION_FULL_WIDTH: i32 = QUEEN_VALUE;
/// A mate in `n` plies is settled, and the search ends, once an iteration this many plies
/// deeper confirmed it.
pub const MATE_DEPTH_MARGIN: i32 = 2;
/// Largest `random` offset of an evaluation, in evaluation units (a few centipawns).
pub const NOISE_RANGE: u64 = 9;

// ------------------------------------------------------------------ move ordering

/// Sort keys of the move picker: the hash move, then captures that do not lose material,
/// then the killers, then quiet moves by history (three tables, each between
/// `-HISTORY_LIMIT` and `HISTORY_LIMIT`), then losing captures, then under-promotions.
pub const HASH_MOVE_SCORE: i32 = 4_000_000;
pub const GOOD_CAPTURE_SCORE: i32 = 3_000_000;
pub const KILLER_SCORE: i32 = 2_000_000;
pub const LOSING_CAPTURE_SCORE: i32 = -2_000_000;
pub const UNDER_PROMOTION_SCORE: i32 = -3_000_000;
/// Bound of each history score; a cut at depth `d` moves a quiet move's scores by
/// `HISTORY_BONUS_PER_DEPTH_SQUARED`·d², at most `HISTORY_BONUS_MAX` (see `history`).
pub const HISTORY_LIMIT: i32 = 16_384;
pub const HISTORY_BONUS_PER_DEPTH_SQUARED: i32 = 16;
pub const HISTORY_BONUS_MAX: i32 = 1_200;

// ------------------------------------------------------------------ the table

/// Replacement: a stored result is worth its depth less this much per search since it
/// was stored; the least worthy of a full bucket makes room.
pub const TABLE_AGE_WEIGHT: i32 = 4;

// ------------------------------------------------------------------ time

/// Nodes between two looks at the clock and the stop flag (about a millisecond).
pub const CHECK_INTERVAL: u64 = 1024;
/// How often a level that is done, waiting out its share of the clock, looks at the
/// clock and the stop flag.
pub const PACING_POLL: Duration = Duration::from_millis(2);
/// Never planned into a budget: covers process scheduling, the pipe and the GUI's
/// clock measurement around each move (on a loaded machine a stopped search has been
/// seen to need over 100 ms more before its move reached the GUI).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);
/// Of a fixed time per move (`st`), this share is kept back too (1/10: 100 ms of 1 s),
/// but never more than 1/`MOVE_TIME_MAX_RESERVE_DIVISOR` of it.
pub const MOVE_TIME_RESERVE_DIVISOR: u32 = 10;
pub const MOVE_TIME_MAX_RESERVE_DIVISOR: u32 = 4;
/// Share of the remaining clock always kept back, 1/`RESERVE_FRACTION` (on top of the
/// overhead).
pub const RESERVE_FRACTION: u32 = 20;
/// Moves a sudden-death clock is assumed to need. Fewer means more time for each move now:
/// 16 rather than 20 measured +9.3 ± 6.3 Elo at 5+0.05 (docs/search-tests.md).
pub const SUDDEN_DEATH_MOVES: u32 = 16;
/// Share of the increment (in %) a move may spend beyond its share of the clock: the
/// next moves' increments are coming.
pub const INCREMENT_SPENT: u32 = 100;
/// The last move before a time control may use this share (in %) of what is left after
/// the reserve: the next session's time is coming, but a slow GUI must not flag us.
pub const LAST_MOVE_SHARE: u32 = 70;
/// The hard limit may exceed the target by this factor (to finish an iteration or
/// resolve a fail-low), within what the clock allows.
pub const HARD_FACTOR: u32 = 4;
/// A single move takes at most 1/`MAX_SHARE_DIVISOR` of the clock.
pub const MAX_SHARE_DIVISOR: u32 = 3;
/// The smallest budget ever given: a move is always produced.
pub const MIN_BUDGET: Duration = Duration::from_millis(1);
/// Under a clock, a new iteration is not started once this share (in %) of the target
/// time is used: an iteration costs about as much as all earlier ones together.
pub const NEXT_ITERATION_SHARE: u32 = 55;
/// The soft deadline is stretched when the best move has just changed and shrunk when
/// it has stayed the same, by the number of iterations it has stayed (0, 1, 2, 3, 4 or
/// more), from `STABILITY_FROM_DEPTH` on.
pub const STABILITY_SCALE: [f64; 5] = [1.6, 1.2, 1.0, 0.85, 0.7];
pub const STABILITY_FROM_DEPTH: i32 = 4;
/// A score this much below the last iteration's stretches the soft deadline again by
/// `SCORE_DROP_SCALE`: the position may be worse than it looked.
pub const SCORE_DROP: i32 = PAWN_VALUE / 3;
pub const SCORE_DROP_SCALE: f64 = 1.3;

// ------------------------------------------------------------------ limited strength

/// A level searches `LEVEL_BASE_NODES` nodes a move at `LEVEL_MIN_ELO`, `LEVEL_NODE_GROWTH`
/// times as many per `LEVEL_ELO_STEP` Elo more (8 at 1000, 270 at 1400, 8,800 at 1800,
/// 290,000 at 2200; the candidates of a level share these nodes). Calibrated against
/// Stockfish 15.1's `UCI_Elo` at 10+0.1, 100 games a level: 1400 -31, 1800 -70, 2200
/// -85 (each within 100 of its number); full strength, and so every level from
/// `LEVEL_EXACT_ELO` up, stays below 2600 (the README has the table).
pub const LEVEL_MIN_ELO: u32 = 1000;
pub const LEVEL_MAX_ELO: u32 = 2800;
pub const LEVEL_BASE_NODES: f64 = 8.0;
pub const LEVEL_NODE_GROWTH: f64 = 2.4;
pub const LEVEL_ELO_STEP: f64 = 100.0;
/// A level compares this many of the best root moves (only the best, at full depth,
/// once its error has fallen to nothing)...
pub const LEVEL_CANDIDATES: usize = 4;
/// ...and misjudges each by up to `LEVEL_MAX_ERROR_CP` centipawns at `LEVEL_MIN_ELO`,
/// falling in a straight line to none at `LEVEL_EXACT_ELO` and above: a move that much
/// worse than the best is never chosen, so a free queen is always taken.
pub const LEVEL_MAX_ERROR_CP: f64 = 240.0;
pub const LEVEL_EXACT_ELO: u32 = 2400;

/// A tablebase verdict stored in the table counts as a search this many plies deeper than
/// the node's: no search of the tree below would know better.
pub const TABLEBASE_DEPTH_BONUS: i32 = 6;
