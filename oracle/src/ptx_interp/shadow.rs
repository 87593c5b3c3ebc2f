//! Where race detection keeps its per-byte state (`race::Shadow`): one
//! shadow per aligned 4-byte word while all its bytes have the same
//! history, which is the case for every access of 4 bytes or more (accesses
//! are naturally aligned); the first narrower access *splits* the word into
//! four byte shadows, and it merges back when they agree again. So the
//! common access records once, with no per-byte loop, and byte-granular
//! races are still found exactly.
//!
//! A split copies the word's read set, so that no two shadows share one: a
//! later read of some bytes must not count as a read of the others.

use super::race::{record, Accessor, ReadSets, Shadow, MULTI};

/// The shadow of an aligned 4-byte word: one shadow for all its bytes
/// (`split == 0`), or one per byte in `Splits` (entry `split - 1`).
#[derive(Clone, Copy, Default)]
pub struct Word {
    shadow: Shadow,
    split: u32,
}

/// The byte shadows of split words, with free entries for reuse.
#[derive(Default)]
pub struct Splits {
    bytes: Vec<[Shadow; 4]>,
    free: Vec<u32>,
}

impl Splits {
    fn clear(&mut self) {
        self.bytes.clear();
        self.free.clear();
    }

    /// Splits `w` (if whole) into byte shadows; their entry.
    fn split(&mut self, w: &mut Word, reads: &mut ReadSets) -> usize {
        if w.split == 0 {
            let mut bytes = [w.shadow; 4];
            if w.shadow.read.who == MULTI {
                for b in &mut bytes[1..] {
                    b.read.clock = reads.duplicate(b.read.clock);
                }
            }
            let at = match self.free.pop() {
                Some(at) => {
                    self.bytes[at as usize] = bytes;
                    at
                }
                None => {
                    self.bytes.push(bytes);
                    (self.bytes.len() - 1) as u32
                }
            };
            w.split = at + 1;
        }
        (w.split - 1) as usize
    }

    /// Makes `w` whole again if its bytes agree (and have no read sets,
    /// which are never shared).
    fn merge(&mut self, w: &mut Word) {
        let at = (w.split - 1) as usize;
        let b = &self.bytes[at];
        if b[0].read.who != MULTI && b[1..].iter().all(|x| *x == b[0]) {
            w.shadow = b[0];
            w.split = 0;
            self.free.push(at as u32);
        }
    }
}

/// Records an access to bytes `[off, off + n)` of the memory whose words
/// `words` shadows; on a race, the offset in the access of the first racing
/// byte and the earlier accessor (as `race::record`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn record_access(
    words: &mut [Word],
    splits: &mut Splits,
    reads: &mut ReadSets,
    off: usize,
    n: usize,
    me: &Accessor,
    write: bool,
    strong: bool,
) -> Option<(u64, u32)> {
    // The common case: a whole word accessed whole, one record.
    if n == 4 && off.is_multiple_of(4) {
        let w = &mut words[off / 4];
        if w.split == 0 {
            return record(&mut w.shadow, me, write, strong, reads).map(|other| (0, other));
        }
    }
    record_bytes(words, splits, reads, off, n, me, write, strong)
}

/// `record_access` where some bytes are or become split.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn record_bytes(
    words: &mut [Word],
    splits: &mut Splits,
    reads: &mut ReadSets,
    off: usize,
    n: usize,
    me: &Accessor,
    write: bool,
    strong: bool,
) -> Option<(u64, u32)> {
    let end = off + n;
    let mut at = off;
    while at < end {
        let base = at & !3;
        let (lo, hi) = (at - base, (end - base).min(4));
        let w = &mut words[base / 4];
        if w.split == 0 && lo == 0 && hi == 4 {
            if let Some(other) = record(&mut w.shadow, me, write, strong, reads) {
                return Some(((at - off) as u64, other));
            }
        } else {
            let e = splits.split(w, reads);
            for b in lo..hi {
                let s = &mut splits.bytes[e][b];
                if let Some(other) = record(s, me, write, strong, reads) {
                    return Some(((base + b - off) as u64, other));
                }
            }
            splits.merge(w);
        }
        at = base + hi;
    }
    None
}

/// The shadow of one memory laid out in words (a CTA's shared memory), with
/// its split words and read sets.
#[derive(Default)]
pub struct WordShadow {
    words: Vec<Word>,
    splits: Splits,
    reads: ReadSets,
}

impl WordShadow {
    /// The shadow of `bytes` bytes, for CTAs of `width` threads.
    pub fn new(bytes: usize, width: usize) -> WordShadow {
        WordShadow {
            words: vec![Word::default(); bytes.div_ceil(4)],
            splits: Splits::default(),
            reads: ReadSets::new(width),
        }
    }

    /// Forgets every access.
    pub fn clear(&mut self) {
        self.words.fill(Word::default());
        self.splits.clear();
        self.reads.clear();
    }

    /// Records an access to `[addr, addr + n)` (inside the memory).
    #[inline]
    pub fn record(
        &mut self,
        addr: u64,
        n: u64,
        me: &Accessor,
        write: bool,
        strong: bool,
    ) -> Option<(u64, u32)> {
        let (off, n) = (addr as usize, n as usize);
        if off + n > 4 * self.words.len() {
            return None;
        }
        record_access(
            &mut self.words,
            &mut self.splits,
            &mut self.reads,
            off,
            n,
            me,
            write,
            strong,
        )
    }
}

/// Bytes per shadow chunk of global memory. Accesses are naturally aligned,
/// and regions start 256-byte aligned, so an access of up to 64 bytes never
/// straddles a chunk.
const CHUNK: usize = 64;

/// Shadow state of global memory: per region (`GlobalMem::locate`), chunks
/// allocated on first touch; and the split words and read sets.
#[derive(Default)]
pub struct GlobalShadow {
    regions: Vec<Vec<Option<Box<[Word; CHUNK / 4]>>>>,
    splits: Splits,
    reads: ReadSets,
}

impl GlobalShadow {
    /// Shadows for regions of the given sizes, for CTAs of `width` threads.
    pub fn new(region_sizes: impl IntoIterator<Item = usize>, width: usize) -> GlobalShadow {
        GlobalShadow {
            regions: region_sizes
                .into_iter()
                .map(|n| vec![None; n.div_ceil(CHUNK)])
                .collect(),
            splits: Splits::default(),
            reads: ReadSets::new(width),
        }
    }

    /// Records an access to `[off, off + n)` of `region`.
    #[inline]
    pub fn record(
        &mut self,
        region: usize,
        off: usize,
        n: usize,
        me: &Accessor,
        write: bool,
        strong: bool,
    ) -> Option<(u64, u32)> {
        let chunk = self.regions[region][off / CHUNK]
            .get_or_insert_with(|| Box::new([Word::default(); CHUNK / 4]));
        let lo = off % CHUNK;
        record_access(
            &mut chunk[..],
            &mut self.splits,
            &mut self.reads,
            lo,
            n.min(CHUNK - lo),
            me,
            write,
            strong,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx_interp::clocks::Clocks;

    const N: usize = 8;

    fn acc(c: &Clocks, tid: u32) -> Accessor<'_> {
        Accessor {
            who: tid + 1,
            first: 1,
            cta: 0,
            tid,
            gen: c.generation(),
            view: c.view(tid as usize),
        }
    }

    #[test]
    fn word_accesses_keep_words_whole_and_narrow_ones_split_them() {
        let c = Clocks::new(N);
        let mut s = WordShadow::new(16, N);
        assert_eq!(s.record(0, 4, &acc(&c, 0), true, false), None);
        assert_eq!(s.words[0].split, 0);
        // Thread 1 writes byte 5 (word 1), then thread 2 writes word 1 whole.
        assert_eq!(s.record(5, 1, &acc(&c, 1), true, false), None);
        assert_ne!(s.words[1].split, 0);
        assert_eq!(s.record(4, 4, &acc(&c, 2), true, false), Some((1, 2)));
        // Byte 3 of word 0 races with thread 0's word write, at offset 3.
        assert_eq!(s.record(2, 2, &acc(&c, 3), false, false), Some((0, 1)));
        assert_eq!(s.record(0, 8, &acc(&c, 1), false, false), Some((0, 1)));
    }

    #[test]
    fn bytes_that_agree_again_merge() {
        let c = Clocks::new(N);
        let mut s = WordShadow::new(4, N);
        s.record(1, 1, &acc(&c, 0), true, false);
        assert_ne!(s.words[0].split, 0);
        s.record(0, 4, &acc(&c, 0), true, false);
        assert_eq!(s.words[0].split, 0);
    }

    #[test]
    fn a_split_gives_each_byte_its_own_read_set() {
        let mut c = Clocks::new(N);
        let mut s = WordShadow::new(8, N);
        // Threads 0 and 1 read word 0 (a read set); thread 2 reads byte 0.
        s.record(0, 4, &acc(&c, 0), false, false);
        s.record(0, 4, &acc(&c, 1), false, false);
        s.record(0, 1, &acc(&c, 2), false, false);
        // Threads 0, 1 and 3 synchronize; thread 3 may write bytes 1-3,
        // not byte 0 (thread 2's read of it is unordered).
        c.sync(&[0, 1, 3], None);
        assert_eq!(s.record(1, 2, &acc(&c, 3), true, false), None);
        assert_eq!(s.record(3, 1, &acc(&c, 3), true, false), None);
        // Byte 0's unordered reader is thread 2 (global id + 1 = 3).
        assert_eq!(s.record(0, 4, &acc(&c, 3), true, false), Some((0, 3)));
    }
}
