//! Named positions, search settings and the engine's choices, shared by the in-process
//! tests.

/// A depth-limited search: deterministic, and done in milliseconds (the default clock
/// would allow seconds). The `move` lines below are its choices.
pub const SHALLOW: &str = "sd 3";
/// A search that only `?` or an abort ends within a test (a 1000 s hard limit).
pub const ENDLESS: &str = "st 1000";

// The engine's choices at depth 3 (`SHALLOW`), pinned so that tests can compare whole
// transcripts. A change of the search or the evaluation may change them: check the new
// move is sensible, then update it here.

/// White's first move.
pub const WHITE_OPENS: &str = "move e2e4";
/// Black's answer to 1.e4.
pub const REPLY_TO_E4: &str = "move e7e5";
/// Black's answer to 1.d4.
pub const REPLY_TO_D4: &str = "move g8f6";
/// Black's answer to 1.e4 with the hand-written evaluation: the network's and the
/// hand-written evaluation's choices differ here, so tests can tell which one played.
pub const CLASSICAL_REPLY_TO_E4: &str = "move d7d5";
/// Black's move after 1.e4 e5 2.Nf3.
pub const REPLY_TO_NF3: &str = "move b8c6";
/// White's answer to 1...e5 when `black` has given Black the first move.
pub const WHITE_ANSWERS_E5: &str = "move e2e4";

// Positions.

/// White mates in two: 1.Qd8+ Bxd8 2.Re8#.
pub const MATE_IN_TWO: &str = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1";
/// The mate of `MATE_IN_TWO` as the engine announces it.
pub const MATE_IN_TWO_PV: &str = "Qd8+ Bxd8 Re8#";
/// White mates with Rh8, the only mate.
pub const ROOK_MATES: &str = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
/// Qc7 stalemates Black.
pub const QUEEN_CAN_STALEMATE: &str = "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1";
/// Kxb2 leaves king and knight against a bare king.
pub const CAPTURE_LEAVES_A_KNIGHT: &str = "k7/8/8/8/8/8/1n6/KN6 w - - 0 1";
/// 99 quiet half-moves are played; White's only move, Ka2, is the hundredth.
pub const FIFTY_MOVES_BUT_ONE: &str = "1r6/8/8/8/8/2k5/8/K7 w - - 99 80";
/// Kings only: nobody can win.
pub const BARE_KINGS: &str = "k7/8/8/8/8/8/8/K7 w - - 0 1";
/// White has a queen more, White to move.
pub const WHITE_QUEEN_UP: &str = "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1";
/// The same, Black to move.
pub const WHITE_QUEEN_UP_BLACK_TO_MOVE: &str = "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1";
/// Black's queen against White's bare king, White to move.
pub const BLACK_QUEEN_ALONE: &str = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1";
/// Kings and a white rook that may castle short.
pub const WHITE_CAN_CASTLE: &str = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
/// `WHITE_CAN_CASTLE` after 1.O-O.
pub const WHITE_HAS_CASTLED: &str = "4k3/8/8/8/8/8/8/5RK1 b - - 1 1";
/// White is in check: Black to move would be impossible.
pub const WHITE_IN_CHECK: &str = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
/// The start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
