//! Input buckets by the king's square: a network may keep several sets of input weights,
//! and each side's pieces are read through the set its own king's square picks, so that
//! a knight on f3 can mean one thing beside a king castled short and another beside a
//! king in the centre. Optionally the board is also turned left to right whenever a
//! side's king stands on the e-h files, so that the weights only ever see a king on the
//! a-d files: half the king squares to learn, twice the positions for each.
//!
//! When a side's king moves into another set, or across the d/e line of a mirroring
//! layout, that side's hidden layer is computed afresh; every other move updates it as
//! before.

use crate::chess::{Color, Square};

/// Most sets of input weights a network may keep.
pub const MAX_KING_SETS: usize = 32;

/// Which set of input weights each square of a side's own king picks, and whether the
/// board is turned so that the king stands on the a-d files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingLayout {
    /// The set of each king square, seen from the king's side (its first rank is rank 1;
    /// `Square::index64` order). With `mirror`, only the a-d files are looked up.
    table: [u8; 64],
    mirror: bool,
}

/// What one side's king decides about that side's inputs: the first input of the set it
/// picks, and the mask that turns a square's file (7: files a-h swapped; 0: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingView {
    /// Added to the input of a piece within one set.
    pub offset: usize,
    /// XORed into a square's dense index (its low three bits are the file).
    pub flip: usize,
}

impl KingLayout {
    /// One set for every king square, no mirroring: the network as it was before king
    /// buckets.
    pub const NONE: KingLayout = KingLayout {
        table: [0; 64],
        mirror: false,
    };

    /// The layouts `train --king-buckets` offers, by their number of sets.
    pub const PRESETS: [usize; 2] = [1, 4];

    /// The preset layout of `sets` sets (one of `PRESETS`), not mirroring. Four sets: a
    /// king on a1, b1, g1 or h1 (castled), on c1-f1 (at home, or castled long), on the
    /// second rank, or further up the board (the ending's king).
    pub fn preset(sets: usize) -> Option<KingLayout> {
        match sets {
            1 => Some(KingLayout::NONE),
            4 => {
                let mut table = [0; 64];
                for (square, set) in table.iter_mut().enumerate() {
                    let (rank, file) = (square / 8, square % 8);
                    let file = file.min(7 - file);
                    *set = match (rank, file) {
                        (0, 0 | 1) => 0,
                        (0, _) => 1,
                        (1, _) => 2,
                        _ => 3,
                    };
                }
                Some(KingLayout {
                    table,
                    mirror: false,
                })
            }
            _ => None,
        }
    }

    /// The same sets, with the board turned for a king on the e-h files (`true`) or not.
    /// Turning halves the king squares to learn, but a network trained without it (or
    /// with another layout's turning) does not carry over: started from one, a side
    /// turned and the other not is a combination it never saw.
    #[must_use]
    pub fn with_mirror(self, mirror: bool) -> KingLayout {
        KingLayout { mirror, ..self }
    }

    /// A layout from a file's table and mirror flag; `None` when a set is out of range.
    pub fn from_parts(table: [u8; 64], mirror: bool) -> Option<KingLayout> {
        table
            .iter()
            .all(|&set| usize::from(set) < MAX_KING_SETS)
            .then_some(KingLayout { table, mirror })
    }

    /// The table and the mirror flag, as a file keeps them.
    pub fn parts(&self) -> (&[u8; 64], bool) {
        (&self.table, self.mirror)
    }

    /// Sets of input weights the layout needs (the highest set in the table, plus one).
    pub fn sets(&self) -> usize {
        self.table
            .iter()
            .map(|&s| usize::from(s))
            .max()
            .unwrap_or(0)
            + 1
    }

    /// Whether it turns the board for a king on the e-h files.
    pub fn mirrors(&self) -> bool {
        self.mirror
    }

    /// Whether a king and its mirror image (files a-h swapped) pick the same set.
    pub fn is_file_symmetric(&self) -> bool {
        // A dense square index's low three bits are its file: XOR 7 turns it.
        (0..64).all(|sq| self.table[sq] == self.table[sq ^ 7])
    }

    /// Whether the king's square changes nothing (`NONE`'s behaviour).
    pub fn is_none(&self) -> bool {
        *self == KingLayout::NONE
    }

    /// What `perspective`'s king on `king` decides, for inputs of `per_set` per set.
    #[inline]
    pub fn view(&self, perspective: Color, king: Square, per_set: usize) -> KingView {
        let seen = match perspective {
            Color::White => king.index64(),
            // Rank r becomes rank 7 − r: the square index's rank bits flipped.
            Color::Black => king.index64() ^ 56,
        };
        // The file's bit 2 is set on the e-h files.
        let flip = if self.mirror && seen & 4 != 0 { 7 } else { 0 };
        KingView {
            offset: usize::from(self.table[seen ^ flip]) * per_set,
            flip,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-set preset: the castled squares share a set on either wing, the
    /// mirrored wings share everything, Black's king is read from its own side.
    #[test]
    fn the_four_set_preset_groups_the_king_squares() {
        let four = KingLayout::preset(4).unwrap().with_mirror(true);
        assert_eq!(four.sets(), 4);
        assert!(four.mirrors());
        let set = |color, name| {
            let view = four.view(color, Square::parse(name).unwrap(), 1);
            (view.offset, view.flip)
        };
        assert_eq!(set(Color::White, "g1"), (0, 7));
        assert_eq!(set(Color::White, "b1"), (0, 0));
        assert_eq!(set(Color::White, "e1"), (1, 7));
        assert_eq!(set(Color::White, "d1"), (1, 0));
        assert_eq!(set(Color::Black, "g8"), (0, 7));
        assert_eq!(set(Color::Black, "e7"), (2, 7));
        assert_eq!(set(Color::White, "e7"), (3, 7));
        assert_eq!(set(Color::Black, "a1"), (3, 0));
        assert_eq!(KingLayout::preset(1), Some(KingLayout::NONE));
        assert_eq!(KingLayout::NONE.sets(), 1);
        assert_eq!(set_of_none(), (0, 0));
        assert!(KingLayout::preset(3).is_none());
        // Not turned: the same sets, the e-h files looked up as they are.
        let plain = KingLayout::preset(4).unwrap();
        assert!(!plain.mirrors());
        for (square, (set, _)) in ["g1", "e1", "h8"].into_iter().zip([(0, 7), (1, 7), (3, 7)]) {
            let view = plain.view(Color::White, Square::parse(square).unwrap(), 1);
            assert_eq!((view.offset, view.flip), (set, 0), "{square}");
        }
    }

    fn set_of_none() -> (usize, usize) {
        let view = KingLayout::NONE.view(Color::Black, Square::parse("h8").unwrap(), 768);
        (view.offset, view.flip)
    }

    #[test]
    fn a_table_with_a_set_out_of_range_is_refused() {
        let mut table = [0; 64];
        table[9] = 31;
        assert_eq!(KingLayout::from_parts(table, false).unwrap().sets(), 32);
        table[9] = 32;
        assert!(KingLayout::from_parts(table, false).is_none());
        // b2 in set 31 and g2 in set 0: not the same set for a king and its mirror image.
        table[9] = 31;
        assert!(
            !KingLayout::from_parts(table, false)
                .unwrap()
                .is_file_symmetric()
        );
        assert!(KingLayout::preset(4).unwrap().is_file_symmetric());
        assert!(KingLayout::NONE.is_file_symmetric());
    }
}
