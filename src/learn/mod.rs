//! Learning from games: the games themselves, Ferrimax's own at a fixed number of nodes a
//! move (`selfplay.rs`) or any PGN with the engines' scores in its comments (`pgn.rs`); a
//! learned evaluation's training data made from them (`datagen.rs`) and its trainer
//! (`train.rs`, which writes the network `crate::eval::nnue` reads); and Texel's tuning of
//! the hand-written evaluation's weights (`texel.rs`, with gradient descent in
//! `texel/gradient.rs`).
//!
//! Everything here is seeded ([`SplitMix`]), so a run repeats exactly on any machine.

pub mod datagen;
pub mod pgn;
pub mod selfplay;
pub mod texel;
pub mod train;

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators"): a few lines, seeded, the same on every machine.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the slight bias of the modulo does not matter here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        #[allow(clippy::cast_possible_truncation, reason = "the result is below n")]
        let pick = (self.next() % n as u64) as usize;
        pick
    }
}
