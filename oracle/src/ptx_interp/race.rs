//! Data-race detection (issue 3): two threads touch the same byte of shared
//! or global memory, at least one writes, they are not both strong, and no
//! synchronization orders them.
//!
//! Happens-before is tracked with vector clocks over the threads of a CTA
//! (the FastTrack scheme): every thread has a clock per thread of its CTA;
//! an access is stamped with the thread's own clock; an earlier access by
//! thread u with stamp c is ordered before the current access of thread t
//! iff c <= VC_t[u]. Synchronization joins clocks:
//! - a barrier (`bar.sync`/`barrier.sync`, with or without a thread count,
//!   and `bar.warp.sync`) joins the clocks of the threads it releases;
//! - a release (`st.release`, `atom.release`/`.acq_rel`, `red.release`)
//!   stores the releaser's clock in a sync object at that address; an acquire
//!   (`ld.acquire`, `atom.acquire`/`.acq_rel`) on the address joins it in.
//!
//! Strong accesses (atomics, `.volatile`, `.relaxed`, `.acquire`, `.release`)
//! never race with each other ("morally strong" operations of the PTX memory
//! model; scopes are not compared). Not modelled, so reported conservatively
//! as races: ordering between different CTAs (clocks are per CTA), and
//! orderings built from `fence`/`membar` plus relaxed accesses.

use rustc_hash::FxHashMap;

/// Who accessed a byte last, and at which clock.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Access {
    /// Global thread id + 1 (0: nobody; `MULTI`: several readers, see `clock`).
    pub who: u32,
    /// The accessor's own clock; for `MULTI`, the index of its read set.
    pub clock: u32,
}

pub const MULTI: u32 = u32::MAX;
/// A read set whose readers were in several CTAs.
const MIXED: u32 = u32::MAX;

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Shadow {
    pub write: Access,
    pub write_strong: bool,
    pub read: Access,
    pub read_strong: bool,
}

/// Several unordered readers of a location: per thread of the CTA, the
/// latest clock at which it read.
#[derive(Clone, Debug)]
pub struct ReadSet {
    pub cta: u32,
    pub clocks: Vec<u32>,
}

/// The accessing thread.
pub struct Accessor<'a> {
    /// Global thread id + 1.
    pub who: u32,
    pub cta: u32,
    /// Linear thread index in the CTA.
    pub tid: u32,
    pub block_threads: u32,
    /// The thread's vector clock.
    pub vc: &'a [u32],
}

impl Accessor<'_> {
    fn clock(&self) -> u32 {
        self.vc[self.tid as usize]
    }

    fn access(&self) -> Access {
        Access {
            who: self.who,
            clock: self.clock(),
        }
    }

    fn split(&self, who: u32) -> (u32, u32) {
        (
            (who - 1) / self.block_threads,
            (who - 1) % self.block_threads,
        )
    }

    /// Is the earlier access `a` ordered before this thread's current point?
    fn ordered_after(&self, a: &Access, reads: &[ReadSet]) -> bool {
        if a.who == 0 || a.who == self.who {
            return true;
        }
        if a.who == MULTI {
            let rs = &reads[a.clock as usize];
            return rs.cta == self.cta && rs.clocks.iter().zip(self.vc).all(|(&r, &v)| r <= v);
        }
        let (cta, tid) = self.split(a.who);
        cta == self.cta && a.clock <= self.vc[tid as usize]
    }
}

/// Records an access to one byte; returns the earlier conflicting accessor
/// (global thread id + 1, or `MULTI`) if it races.
pub fn record(
    s: &mut Shadow,
    me: &Accessor,
    write: bool,
    strong: bool,
    reads: &mut Vec<ReadSet>,
) -> Option<u32> {
    if !(me.ordered_after(&s.write, reads) || (strong && s.write_strong)) {
        return Some(s.write.who);
    }
    if write {
        if !(me.ordered_after(&s.read, reads) || (strong && s.read_strong)) {
            return Some(s.read.who);
        }
        s.write = me.access();
        s.write_strong = strong;
        // Reads before this write are either ordered before it or strong
        // reads concurrent with a strong write; later accesses are checked
        // against the write.
        s.read = Access::default();
        s.read_strong = false;
        return None;
    }
    if s.read.who == MULTI {
        // Read-shared: reads never conflict with reads, so only this
        // thread's entry changes (O(1); the O(n) check is for writes).
        let rs = &mut reads[s.read.clock as usize];
        if rs.cta != me.cta {
            rs.cta = MIXED;
        }
        let c = &mut rs.clocks[me.tid as usize];
        *c = (*c).max(me.clock());
        s.read_strong &= strong;
    } else if me.ordered_after(&s.read, reads) {
        s.read = me.access();
        s.read_strong = strong;
    } else {
        let (cta, tid) = me.split(s.read.who);
        let mut clocks = vec![0; me.block_threads as usize];
        clocks[tid as usize] = s.read.clock;
        clocks[me.tid as usize] = me.clock();
        reads.push(ReadSet {
            cta: if cta == me.cta { cta } else { MIXED },
            clocks,
        });
        s.read = Access {
            who: MULTI,
            clock: (reads.len() - 1) as u32,
        };
        s.read_strong &= strong;
    }
    None
}

/// Joins `from` into `into` (element-wise maximum).
pub fn join(into: &mut [u32], from: &[u32]) {
    for (a, &b) in into.iter_mut().zip(from) {
        *a = (*a).max(b);
    }
}

/// Shadow state of global memory in 64-byte chunks (one hash lookup per
/// access; accesses are naturally aligned, so never straddle a chunk), and
/// the read sets its shadows point to.
#[derive(Default)]
pub struct GlobalShadow {
    chunks: FxHashMap<u64, Box<[Shadow; 64]>>,
    pub reads: Vec<ReadSet>,
}

impl GlobalShadow {
    /// The shadows of `[addr, addr + n)` and the read sets.
    pub fn bytes(&mut self, addr: u64, n: u64) -> (&mut [Shadow], &mut Vec<ReadSet>) {
        let chunk = self
            .chunks
            .entry(addr >> 6)
            .or_insert_with(|| Box::new([Shadow::default(); 64]));
        let lo = (addr & 63) as usize;
        (&mut chunk[lo..(lo + n as usize).min(64)], &mut self.reads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads of one CTA of 64, each with its own clock at 1.
    fn clocks(n: usize) -> Vec<Vec<u32>> {
        (0..n)
            .map(|t| (0..n).map(|u| u32::from(u == t)).collect())
            .collect()
    }

    fn acc<'a>(vcs: &'a [Vec<u32>], cta: u32, tid: u32) -> Accessor<'a> {
        Accessor {
            who: cta * 64 + tid + 1,
            cta,
            tid,
            block_threads: 64,
            vc: &vcs[tid as usize],
        }
    }

    fn barrier(vcs: &mut [Vec<u32>], who: &[usize]) {
        let mut j = vec![0; vcs[0].len()];
        for &t in who {
            join(&mut j, &vcs[t]);
        }
        for &t in who {
            vcs[t].copy_from_slice(&j);
            vcs[t][t] += 1;
        }
    }

    #[test]
    fn two_writers_race_and_a_barrier_orders_them() {
        let mut vcs = clocks(64);
        let (mut s, mut r) = (Shadow::default(), Vec::new());
        assert_eq!(record(&mut s, &acc(&vcs, 0, 1), true, false, &mut r), None);
        assert_eq!(
            record(&mut s.clone(), &acc(&vcs, 0, 2), true, false, &mut r),
            Some(2)
        );
        barrier(&mut vcs, &(0..64).collect::<Vec<_>>());
        assert_eq!(record(&mut s, &acc(&vcs, 0, 2), false, false, &mut r), None);
    }

    #[test]
    fn a_partial_barrier_orders_only_its_participants() {
        let mut vcs = clocks(64);
        let (mut s, mut r) = (Shadow::default(), Vec::new());
        record(&mut s, &acc(&vcs, 0, 1), true, false, &mut r);
        barrier(&mut vcs, &[1, 2]);
        assert_eq!(
            record(&mut s.clone(), &acc(&vcs, 0, 2), false, false, &mut r),
            None
        );
        assert!(record(&mut s, &acc(&vcs, 0, 3), false, false, &mut r).is_some());
    }

    #[test]
    fn several_readers_then_a_write_race_unless_ordered() {
        let mut vcs = clocks(64);
        let (mut s, mut r) = (Shadow::default(), Vec::new());
        for t in 0..8 {
            assert_eq!(record(&mut s, &acc(&vcs, 0, t), false, false, &mut r), None);
        }
        assert_eq!(
            record(&mut s.clone(), &acc(&vcs, 0, 3), true, false, &mut r),
            Some(MULTI)
        );
        barrier(&mut vcs, &(0..64).collect::<Vec<_>>());
        assert_eq!(record(&mut s, &acc(&vcs, 0, 3), true, false, &mut r), None);
    }

    #[test]
    fn strong_accesses_do_not_race_with_each_other() {
        let vcs = clocks(64);
        let (mut s, mut r) = (Shadow::default(), Vec::new());
        for t in 0..10 {
            assert_eq!(record(&mut s, &acc(&vcs, 0, t), true, true, &mut r), None);
            assert_eq!(record(&mut s, &acc(&vcs, 0, t), false, true, &mut r), None);
        }
        assert!(record(&mut s, &acc(&vcs, 0, 11), false, false, &mut r).is_some());
    }

    #[test]
    fn release_acquire_orders_plain_accesses() {
        let mut vcs = clocks(64);
        let (mut data, mut r) = (Shadow::default(), Vec::new());
        record(&mut data, &acc(&vcs, 0, 1), true, false, &mut r);
        // Thread 1 releases (sync object = its clock), then advances.
        let sync = vcs[1].clone();
        vcs[1][1] += 1;
        // Thread 2 without acquiring races; after acquiring it does not.
        assert!(record(&mut data.clone(), &acc(&vcs, 0, 2), false, false, &mut r).is_some());
        let (a, b) = vcs.split_at_mut(2);
        join(&mut b[0], &sync);
        let _ = a;
        assert_eq!(
            record(&mut data, &acc(&vcs, 0, 2), false, false, &mut r),
            None
        );
    }

    #[test]
    fn different_ctas_are_never_ordered() {
        let vcs = clocks(64);
        let (mut s, mut r) = (Shadow::default(), Vec::new());
        record(&mut s, &acc(&vcs, 0, 1), true, false, &mut r);
        assert!(record(&mut s, &acc(&vcs, 1, 1), false, false, &mut r).is_some());
    }

    #[test]
    fn same_thread_never_races_with_itself() {
        let vcs = clocks(64);
        let (mut s, mut r) = (Shadow::default(), Vec::new());
        record(&mut s, &acc(&vcs, 0, 1), true, false, &mut r);
        assert_eq!(record(&mut s, &acc(&vcs, 0, 1), true, false, &mut r), None);
        assert_eq!(record(&mut s, &acc(&vcs, 0, 1), false, false, &mut r), None);
    }
}
