//! Test-only helpers shared by the pawn-race and KPK tests.
//!
//! They are written independently of the table code on purpose: squares are (file, rank)
//! pairs instead of 0x88 indices, and nothing here calls the builders' helpers, so the
//! brute-force searches in the tests are a genuine second opinion.

use std::time::{Duration, Instant};

/// Builds a table a few times and returns it with the fastest build time, so that a busy
/// machine distorts the figure less.
pub fn fastest_build<T>(build: impl Fn() -> T) -> (T, Duration) {
    const BUILDS: usize = 5;
    let mut fastest = Duration::MAX;
    let mut built = None;
    for _ in 0..BUILDS {
        let start = Instant::now();
        built = Some(build());
        fastest = fastest.min(start.elapsed());
    }
    (built.expect("built at least once"), fastest)
}

/// A square as a (file, rank) pair, both 0-based: a1 = (0, 0), h8 = (7, 7).
/// Signed so that stepping off the board is easy to detect.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Coord {
    pub file: i8,
    pub rank: i8,
}

/// The eight directions a king can step in, as (file, rank) deltas.
pub const KING_DELTAS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Coord {
    pub fn new(file: i8, rank: i8) -> Coord {
        Coord { file, rank }
    }

    /// Converts to the engine's 0x88 numbering.
    pub fn to_0x88(self) -> u8 {
        assert!(self.is_on_board());
        let byte = |v: i8| u8::try_from(v).expect("on the board, so 0..8");
        byte(self.rank) * 16 + byte(self.file)
    }

    pub fn is_on_board(self) -> bool {
        (0..8).contains(&self.file) && (0..8).contains(&self.rank)
    }

    pub fn shifted(self, file_delta: i8, rank_delta: i8) -> Coord {
        Coord::new(self.file + file_delta, self.rank + rank_delta)
    }

    /// King-move distance.
    pub fn distance(self, other: Coord) -> i8 {
        (self.file - other.file)
            .abs()
            .max((self.rank - other.rank).abs())
    }

    /// The on-board squares a king on `self` could step to.
    pub fn neighbours(self) -> impl Iterator<Item = Coord> {
        KING_DELTAS
            .iter()
            .map(move |&(file_delta, rank_delta)| self.shifted(file_delta, rank_delta))
            .filter(|square| square.is_on_board())
    }

    /// The same square seen in a mirror between the d and e files.
    pub fn file_mirrored(self) -> Coord {
        Coord::new(7 - self.file, self.rank)
    }

    /// Algebraic name, for failure messages.
    pub fn name(self) -> String {
        format!(
            "{}{}",
            char::from(b'a'.wrapping_add_signed(self.file)),
            self.rank + 1
        )
    }
}

/// A K+P vs K position with the pawn White's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    pub pawn: Coord,
    pub white_king: Coord,
    pub black_king: Coord,
    pub white_to_move: bool,
}

impl Setup {
    /// Whether a White pawn on `self.pawn` attacks `square`.
    pub fn pawn_attacks(&self, square: Coord) -> bool {
        square.rank == self.pawn.rank + 1 && (square.file - self.pawn.file).abs() == 1
    }

    /// Whether this could occur in a game: distinct squares, pawn on ranks 2–7, kings apart,
    /// and the side not to move (only Black can be) not in check.
    pub fn is_legal(&self) -> bool {
        let squares = [self.pawn, self.white_king, self.black_king];
        squares.iter().all(|square| square.is_on_board())
            && (1..=6).contains(&self.pawn.rank)
            && self.pawn != self.white_king
            && self.pawn != self.black_king
            && self.white_king.distance(self.black_king) > 1
            && !(self.white_to_move && self.pawn_attacks(self.black_king))
    }

    /// The engine's arguments: (pawn, white king, black king, white to move), 0x88 squares.
    pub fn probe_args(&self) -> (u8, u8, u8, bool) {
        (
            self.pawn.to_0x88(),
            self.white_king.to_0x88(),
            self.black_king.to_0x88(),
            self.white_to_move,
        )
    }

    /// The position mirrored between the d and e files (same result expected).
    pub fn file_mirrored(&self) -> Setup {
        Setup {
            pawn: self.pawn.file_mirrored(),
            white_king: self.white_king.file_mirrored(),
            black_king: self.black_king.file_mirrored(),
            white_to_move: self.white_to_move,
        }
    }

    /// Short description for failure messages, e.g. "Kd6 Pd5 vs Kd8, White to move".
    pub fn describe(&self) -> String {
        format!(
            "K{} P{} vs K{}, {} to move",
            self.white_king.name(),
            self.pawn.name(),
            self.black_king.name(),
            if self.white_to_move { "White" } else { "Black" }
        )
    }
}

/// Reads the first two fields of a FEN holding exactly K, P and k (a White pawn).
pub fn setup_from_fen(fen: &str) -> Setup {
    let mut fields = fen.split_whitespace();
    let board = fields.next().expect("FEN has a board field");
    let side = fields.next().expect("FEN has a side-to-move field");
    let (mut pawn, mut white_king, mut black_king) = (None, None, None);
    for (rank_text, rank) in board.split('/').zip((0..8i8).rev()) {
        let mut file = 0i8;
        for symbol in rank_text.chars() {
            if let Some(empty) = symbol.to_digit(10) {
                file += i8::try_from(empty).expect("a digit");
                continue;
            }
            let square = Some(Coord::new(file, rank));
            match symbol {
                'P' => pawn = square,
                'K' => white_king = square,
                'k' => black_king = square,
                other => panic!("unexpected piece {other} in {fen}"),
            }
            file += 1;
        }
    }
    Setup {
        pawn: pawn.expect("a White pawn"),
        white_king: white_king.expect("a White king"),
        black_king: black_king.expect("a Black king"),
        white_to_move: side == "w",
    }
}

/// Small deterministic generator (xorshift64*), so failures are reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-enough value in `0..bound` for the small bounds used here.
    pub fn below(&mut self, bound: u64) -> u64 {
        (self.next_u64() >> 32) % bound
    }

    /// `below` for a file or rank.
    fn coordinate_below(&mut self, bound: u8) -> i8 {
        i8::try_from(self.below(u64::from(bound))).expect("bounds here are at most 8")
    }

    fn square(&mut self) -> Coord {
        Coord::new(self.coordinate_below(8), self.coordinate_below(8))
    }

    /// Any placement with the pawn on ranks 2–7; illegal ones included.
    pub fn setup(&mut self) -> Setup {
        Setup {
            pawn: Coord::new(self.coordinate_below(8), 1 + self.coordinate_below(6)),
            white_king: self.square(),
            black_king: self.square(),
            white_to_move: self.below(2) == 0,
        }
    }

    /// A legal placement.
    pub fn legal_setup(&mut self) -> Setup {
        loop {
            let setup = self.setup();
            if setup.is_legal() {
                return setup;
            }
        }
    }
}
