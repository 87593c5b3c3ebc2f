//! The generator's one source of choices: either a u64 seed (a splitmix64
//! stream, corpus/LAUNCH_SPEC.md's mixer) or libFuzzer's bytes through
//! `arbitrary::Unstructured`, so that a mutation of the bytes becomes a
//! change of the program. Every decision the generator makes goes through
//! here; nothing else is random (docs/ARCHITECTURE.md, Principles, 5).
//!
//! Exhausted bytes read as zero, and every helper maps zero to the "least"
//! answer (the lower bound, `false` for [`Src::chance`], the first item), so
//! a short or empty input gives a small program, never a panic.

use crate::launch::splitmix64;
use arbitrary::Unstructured;

pub(crate) enum Src<'a, 'b> {
    Seed { state: u64 },
    Bytes(&'a mut Unstructured<'b>),
}

impl<'a, 'b> Src<'a, 'b> {
    /// The stream of a seed: splitmix64 of consecutive counters starting
    /// at a point the seed scatters (`splitmix64(seed)`), so the streams of
    /// neighbouring seeds do not overlap shifted by one draw.
    pub fn from_seed(seed: u64) -> Src<'static, 'static> {
        Src::Seed {
            state: splitmix64(seed),
        }
    }

    pub fn from_bytes(u: &'a mut Unstructured<'b>) -> Src<'a, 'b> {
        Src::Bytes(u)
    }

    fn next_u32(&mut self) -> u32 {
        match self {
            Src::Seed { state } => {
                *state = state.wrapping_add(1);
                (splitmix64(*state) >> 32) as u32
            }
            Src::Bytes(u) => u.arbitrary::<u32>().unwrap_or(0),
        }
    }

    /// A value in `0..n` (0 when `n` is 0 or 1).
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        match self {
            Src::Seed { .. } => ((u64::from(self.next_u32()) * u64::from(n)) >> 32) as u32,
            // `int_in_range` gives the lower bound once the bytes run out.
            Src::Bytes(u) => u.int_in_range(0..=n - 1).unwrap_or(0),
        }
    }

    /// A value in `lo..=hi` (`lo` when `hi <= lo`).
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            lo
        } else {
            lo + self.below(hi - lo + 1)
        }
    }

    /// True with probability `p` (clamped to [0, 1]); zero bytes give false.
    pub fn chance(&mut self, p: f64) -> bool {
        let p = p.clamp(0.0, 1.0);
        let v = (self.next_u32() >> 16) as f64 / 65536.0;
        // v is uniform in [0, 1); true on the top `p` of the range.
        v >= 1.0 - p && p > 0.0
    }

    /// One item of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u32) as usize]
    }

    /// A raw 32-bit word (constants).
    pub fn word(&mut self) -> u32 {
        self.next_u32()
    }

    /// An index chosen by weights (weights of 0 never chosen); `None` when
    /// every weight is 0.
    pub fn weighted(&mut self, weights: &[u32]) -> Option<usize> {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let total = u32::try_from(total).unwrap_or(u32::MAX);
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return Some(i);
            }
            x -= w;
        }
        weights.iter().rposition(|&w| w > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_bytes_give_least_answers() {
        let mut u = Unstructured::new(&[]);
        let mut s = Src::from_bytes(&mut u);
        assert_eq!(s.below(10), 0);
        assert_eq!(s.range(3, 9), 3);
        assert!(!s.chance(0.99));
        assert_eq!(s.weighted(&[0, 5, 1]), Some(1));
    }

    #[test]
    fn seed_stream_is_spread_and_bounded() {
        let mut s = Src::from_seed(7);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[s.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
        let hits = (0..1000).filter(|_| s.chance(0.25)).count();
        assert!((180..320).contains(&hits), "{hits}");
        assert_eq!(s.weighted(&[0, 0]), None);
    }
}
