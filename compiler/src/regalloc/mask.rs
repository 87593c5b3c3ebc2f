//! Small fixed-size bit sets for the allocator's inner loops.
//!
//! [`RegMask`]: a set of physical registers of one file (at most 256:
//! R0..R255, the largest file). The colouring asks "is register r free
//! for this node" for every candidate base of every node of every
//! attempt; a 256-bit mask on the stack answers it without the
//! per-node `Vec<bool>` the first version cleared and refilled.
//!
//! [`Matrix`]: the interference relation as one flat bit matrix (one
//! allocation instead of a `BitSet` per node) that also keeps, per node,
//! the list of its neighbours, so colouring iterates a node's neighbours
//! without scanning a row of `n` bits.

/// A set of registers `0..256`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegMask([u64; 4]);

impl RegMask {
    /// Registers `0..n` (n at most 256).
    pub fn below(n: u32) -> RegMask {
        let mut m = RegMask::default();
        for (i, w) in m.0.iter_mut().enumerate() {
            let lo = 64 * i as u32;
            *w = match n.saturating_sub(lo) {
                0 => 0,
                k if k >= 64 => u64::MAX,
                k => (1u64 << k) - 1,
            };
        }
        m
    }

    /// Adds `r`; registers at or past 256 do not exist and are ignored.
    #[inline]
    pub fn insert(&mut self, r: u32) {
        if r < 256 {
            self.0[(r / 64) as usize] |= 1 << (r % 64);
        }
    }

    #[inline]
    pub fn remove(&mut self, r: u32) {
        if r < 256 {
            self.0[(r / 64) as usize] &= !(1 << (r % 64));
        }
    }

    /// Adds `lo..lo+size` (the part below 256).
    #[inline]
    pub fn insert_range(&mut self, lo: u32, size: u32) {
        for r in lo..lo.saturating_add(size).min(256) {
            self.insert(r);
        }
    }

    /// Whether `r` is in the set (never for `r >= 256`).
    #[inline]
    pub fn contains(&self, r: u32) -> bool {
        r < 256 && self.0[(r / 64) as usize] & (1 << (r % 64)) != 0
    }

    /// Whether all of `lo..lo+size` are in the set.
    #[inline]
    pub fn contains_range(&self, lo: u32, size: u32) -> bool {
        (lo..lo + size).all(|r| self.contains(r))
    }

    /// `self & !o`.
    #[inline]
    pub fn minus(&self, o: &RegMask) -> RegMask {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&o.0) {
            *a &= !b;
        }
        out
    }
}

/// A symmetric relation over `0..n` as a bit matrix, with each row's
/// members also listed (in insertion order until [`Matrix::finish`]
/// sorts them).
#[derive(Clone, Debug)]
pub struct Matrix {
    words: usize,
    bits: Vec<u64>,
    lists: Vec<Vec<u32>>,
}

impl Matrix {
    pub fn new(n: usize) -> Matrix {
        let words = n.div_ceil(64);
        Matrix {
            words,
            bits: vec![0; n * words],
            lists: vec![Vec::new(); n],
        }
    }

    /// Adds the pair `(a, b)` both ways (`a != b`); whether it was new.
    pub fn insert(&mut self, a: usize, b: usize) -> bool {
        debug_assert!(a != b);
        let (w, bit) = (a * self.words + b / 64, 1u64 << (b % 64));
        if self.bits[w] & bit != 0 {
            return false;
        }
        self.bits[w] |= bit;
        self.bits[b * self.words + a / 64] |= 1u64 << (a % 64);
        self.lists[a].push(b as u32);
        self.lists[b].push(a as u32);
        true
    }

    #[cfg(test)]
    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] & (1u64 << (b % 64)) != 0
    }

    /// Sorts every row's list ascending (the order a `BitSet` row
    /// iterates in, which the colouring's tie-breaks were written for).
    pub fn finish(mut self) -> Vec<Vec<u32>> {
        for l in &mut self.lists {
            l.sort_unstable();
        }
        self.lists
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reg_mask_ranges_and_the_end_of_the_file() {
        let mut m = RegMask::default();
        m.insert_range(254, 4); // 256 and 257 do not exist
        assert!(m.contains(254) && m.contains(255));
        assert!(!m.contains(256) && !m.contains(253));
        assert!(m.contains_range(254, 2));
        assert!(!m.contains_range(254, 3));
        m.remove(255);
        assert!(!m.contains(255));
        let b = RegMask::below(70);
        assert!(b.contains(0) && b.contains(63) && b.contains(64) && b.contains(69));
        assert!(!b.contains(70));
        let mut hole = RegMask::default();
        hole.insert(1);
        hole.insert(64);
        let d = b.minus(&hole);
        assert!(d.contains(0) && !d.contains(1) && d.contains(2) && !d.contains(64));
        assert_eq!(RegMask::below(256), {
            let mut f = RegMask::default();
            (0..256).for_each(|r| f.insert(r));
            f
        });
    }

    #[test]
    fn matrix_is_symmetric_deduplicated_and_sorted() {
        let mut m = Matrix::new(130);
        assert!(m.insert(5, 129));
        assert!(!m.insert(129, 5));
        assert!(m.insert(5, 0));
        assert!(m.insert(5, 64));
        assert!(!m.insert(0, 5));
        assert!(m.contains(129, 5) && m.contains(5, 129) && m.contains(64, 5));
        assert!(!m.contains(0, 64));
        let lists = m.finish();
        assert_eq!(lists[5], vec![0, 64, 129]);
        assert_eq!(lists[0], vec![5]);
        assert_eq!(lists[129], vec![5]);
        assert!(lists[1].is_empty());
    }
}
