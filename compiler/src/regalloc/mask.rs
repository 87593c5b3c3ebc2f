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
    #[cfg(test)]
    pub fn contains(&self, r: u32) -> bool {
        r < 256 && self.0[(r / 64) as usize] & (1 << (r % 64)) != 0
    }

    /// Whether all of `lo..lo+size` are in the set.
    #[cfg(test)]
    pub fn contains_range(&self, lo: u32, size: u32) -> bool {
        (lo..lo + size).all(|r| self.contains(r))
    }

    /// `self & o`.
    #[inline]
    pub fn and(&self, o: &RegMask) -> RegMask {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&o.0) {
            *a &= b;
        }
        out
    }

    /// The set moved down by `k`: `r` is in the result iff `r + k` is in
    /// the set.
    pub fn shr(&self, k: u32) -> RegMask {
        let (q, r) = ((k / 64) as usize, k % 64);
        let mut out = RegMask::default();
        for i in 0..4 {
            let lo = self.0.get(i + q).copied().unwrap_or(0);
            let hi = self.0.get(i + q + 1).copied().unwrap_or(0);
            out.0[i] = if r == 0 {
                lo
            } else {
                (lo >> r) | (hi << (64 - r))
            };
        }
        out
    }

    /// The bases `b`, multiples of `align`, such that all of `b..b+size`
    /// are in the set (so `b + size` is at most 256).
    pub fn bases(&self, size: u32, align: u32) -> RegMask {
        let mut m = *self;
        for k in 1..size {
            m = m.and(&self.shr(k));
        }
        let pattern = match align {
            1 => u64::MAX,
            2 => 0x5555_5555_5555_5555,
            4 => 0x1111_1111_1111_1111,
            _ => {
                let mut out = RegMask::default();
                (0..256)
                    .step_by(align.max(1) as usize)
                    .for_each(|r| out.insert(r));
                return m.and(&out);
            }
        };
        m.and(&RegMask([pattern; 4]))
    }

    /// `r` is in the result iff `r ^ w` is in the set, for `w` a power of
    /// two below 64 (swaps the halves of every aligned block of `2w`).
    pub fn xor_swap(&self, w: u32) -> RegMask {
        let low = match w {
            1 => 0x5555_5555_5555_5555u64,
            2 => 0x3333_3333_3333_3333,
            4 => 0x0f0f_0f0f_0f0f_0f0f,
            8 => 0x00ff_00ff_00ff_00ff,
            16 => 0x0000_ffff_0000_ffff,
            32 => 0x0000_0000_ffff_ffff,
            _ => panic!("xor_swap by {w}"),
        };
        let mut out = *self;
        for x in &mut out.0 {
            *x = ((*x & low) << w) | ((*x >> w) & low);
        }
        out
    }

    /// The smallest member.
    pub fn lowest(&self) -> Option<u32> {
        (0..4)
            .find(|&i| self.0[i] != 0)
            .map(|i| 64 * i as u32 + self.0[i].trailing_zeros())
    }

    /// The largest member.
    pub fn highest(&self) -> Option<u32> {
        (0..4)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map(|i| 64 * i as u32 + 63 - self.0[i].leading_zeros())
    }

    /// The number of members.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
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

    /// Random sets, as the colouring sees them (free registers).
    fn random_masks() -> Vec<RegMask> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..200)
            .map(|i| {
                // Dense and sparse sets, and some cut below a limit.
                let mut m = RegMask([next(), next(), next(), next()]);
                if i % 3 == 0 {
                    m = m.and(&RegMask([next(), next(), next(), next()]));
                }
                if i % 4 == 1 {
                    m = m.and(&RegMask::below((next() % 257) as u32));
                }
                m
            })
            .collect()
    }

    #[test]
    fn bit_parallel_queries_match_the_register_loops() {
        for m in random_masks() {
            let members: Vec<u32> = (0..256).filter(|&r| m.contains(r)).collect();
            assert_eq!(m.lowest(), members.first().copied());
            assert_eq!(m.highest(), members.last().copied());
            assert_eq!(m.count() as usize, members.len());
            for k in [0, 1, 2, 3, 63, 64, 65, 130, 255, 256] {
                let s = m.shr(k);
                for r in 0..256 {
                    assert_eq!(s.contains(r), m.contains(r + k), "shr {k} r{r}");
                }
            }
            for w in [1, 2, 4, 32] {
                let s = m.xor_swap(w);
                for r in 0..256 {
                    assert_eq!(s.contains(r), m.contains(r ^ w), "xor {w} r{r}");
                }
            }
            for (size, align) in [
                (1, 1),
                (2, 2),
                (4, 4),
                (2, 1),
                (3, 1),
                (4, 2),
                (8, 8),
                (6, 3),
            ] {
                let b = m.bases(size, align);
                for r in 0..256 {
                    let want = r % align == 0 && r + size <= 256 && m.contains_range(r, size);
                    assert_eq!(b.contains(r), want, "bases {size}/{align} r{r}");
                }
            }
        }
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
