//! Data-race detection (issue 3): two threads touch the same byte of shared
//! or global memory (surfaces included: `exec/mem.rs` `race_surface`), at
//! least one writes, they are not both strong, and no synchronization
//! orders them.
//!
//! Happens-before is tracked with vector clocks over the threads of a CTA
//! (the FastTrack scheme; the clocks themselves are in `clocks`): every
//! thread has a clock per thread of its CTA; an access is stamped with the
//! thread's own clock; an earlier access by thread u with stamp c is ordered
//! before the current access of thread t iff c <= VC_t[u]. Synchronization
//! joins clocks:
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
//!
//! Each byte has a shadow: its last write and its last read (or, when
//! several unordered threads read it, a read set holding each reader's
//! clock). A read set remembers the CTA-wide barrier generation of its
//! latest read: when a CTA-wide barrier has completed since, every read in
//! it is ordered before every thread (the answer the clocks would give, in
//! O(1) instead of O(threads)). `shadow` lays the shadows out.

use super::clocks::View;

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
/// The read set of readers in several CTAs from the start: it is never
/// ordered before anything, so its clocks are not kept.
const NO_SET: u32 = u32::MAX;

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Shadow {
    pub write: Access,
    pub read: Access,
    pub write_strong: bool,
    pub read_strong: bool,
}

/// Several unordered readers of a location: their CTA (`MIXED` once there
/// are readers in several) and the CTA-wide barrier generation of the
/// latest read.
#[derive(Clone, Copy, Debug)]
struct Head {
    cta: u32,
    gen: u32,
}

/// The read sets of a memory: per set, per thread of a CTA, the latest
/// clock at which it read (one flat arena, `width` entries per set).
///
/// Every set belongs to one shadow (`shadow` copies a set when it splits a
/// word), so a set is reused once its shadow drops it.
#[derive(Default)]
pub struct ReadSets {
    width: usize,
    heads: Vec<Head>,
    clocks: Vec<u32>,
    /// Sets no shadow refers to.
    free: Vec<u32>,
}

impl ReadSets {
    /// Read sets for CTAs of `width` threads.
    pub fn new(width: usize) -> ReadSets {
        ReadSets {
            width,
            heads: Vec::new(),
            clocks: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Forgets every set (a new CTA's shared memory).
    pub fn clear(&mut self) {
        self.heads.clear();
        self.clocks.clear();
        self.free.clear();
    }

    /// A set with this head and all clocks 0.
    fn alloc(&mut self, head: Head) -> u32 {
        match self.free.pop() {
            Some(set) => {
                self.heads[set as usize] = head;
                let w = self.width;
                self.clocks[set as usize * w..][..w].fill(0);
                set
            }
            None => {
                self.heads.push(head);
                self.clocks.resize(self.clocks.len() + self.width, 0);
                (self.heads.len() - 1) as u32
            }
        }
    }

    /// A copy of `set` (for a shadow that splits into several).
    pub fn duplicate(&mut self, set: u32) -> u32 {
        if set == NO_SET {
            return NO_SET;
        }
        let copy = self.alloc(self.heads[set as usize]);
        let w = self.width;
        self.clocks
            .copy_within(set as usize * w..(set as usize + 1) * w, copy as usize * w);
        copy
    }

    /// `set` is no longer referred to.
    fn release(&mut self, set: u32) {
        if set != NO_SET {
            self.free.push(set);
        }
    }

    fn row(&self, set: u32) -> &[u32] {
        &self.clocks[set as usize * self.width..][..self.width]
    }

    /// Is every read of `set` ordered before `me`?
    #[inline]
    fn ordered_before(&self, set: u32, me: &Accessor) -> bool {
        if set == NO_SET {
            return false;
        }
        let h = self.heads[set as usize];
        if h.cta != me.cta {
            return false;
        }
        if h.gen < me.gen {
            return true;
        }
        // Entry me.tid: my own earlier reads, always ordered.
        let tid = me.tid as usize;
        self.row(set)
            .iter()
            .zip(me.view.others)
            .enumerate()
            .all(|(u, (&r, &v))| r <= v || u == tid)
    }

    /// A reader of `set` not ordered before `me` (global thread id + 1),
    /// to name in a race report; `MULTI` when the set cannot say (its
    /// readers span CTAs: only their clocks' CTA-local order is kept).
    #[cold]
    fn culprit(&self, set: u32, me: &Accessor) -> u32 {
        if set == NO_SET || self.heads[set as usize].cta != me.cta {
            return MULTI;
        }
        let tid = me.tid as usize;
        self.row(set)
            .iter()
            .zip(me.view.others)
            .enumerate()
            .find(|&(u, (&r, &v))| r > v && u != tid)
            .map_or(MULTI, |(u, _)| me.first + u as u32)
    }

    /// A new set of two readers: thread `u` of `me`'s CTA at `clock`, and `me`.
    #[inline(never)]
    fn create(&mut self, me: &Accessor, u: usize, clock: u32) -> u32 {
        let set = self.alloc(Head {
            cta: me.cta,
            gen: me.gen,
        });
        let at = set as usize * self.width;
        self.clocks[at + u] = clock;
        self.clocks[at + me.tid as usize] = me.view.own;
        set
    }

    /// Adds `me`'s read to `set` (O(1): reads never conflict with reads).
    #[inline(always)]
    fn add(&mut self, set: u32, me: &Accessor) {
        if set == NO_SET {
            return;
        }
        let h = &mut self.heads[set as usize];
        if h.cta != me.cta {
            h.cta = MIXED;
            return;
        }
        h.gen = h.gen.max(me.gen);
        let c = &mut self.clocks[set as usize * self.width + me.tid as usize];
        *c = (*c).max(me.view.own);
    }
}

/// The accessing thread.
pub struct Accessor<'a> {
    /// Global thread id + 1.
    pub who: u32,
    /// `who` of the CTA's first thread.
    pub first: u32,
    pub cta: u32,
    /// Linear thread index in the CTA.
    pub tid: u32,
    /// The CTA's barrier generation (`Clocks::generation`).
    pub gen: u32,
    /// The thread's vector clock.
    pub view: View<'a>,
}

impl Accessor<'_> {
    fn access(&self) -> Access {
        Access {
            who: self.who,
            clock: self.view.own,
        }
    }

    /// The CTA-local index of the thread `who` names, if it is in my CTA.
    #[inline]
    fn local(&self, who: u32) -> Option<usize> {
        let u = who.wrapping_sub(self.first) as usize;
        (u < self.view.others.len()).then_some(u)
    }

    /// Is the earlier access `a` ordered before this thread's current point?
    #[inline(always)]
    fn ordered_after(&self, a: &Access, reads: &ReadSets) -> bool {
        if a.who == 0 || a.who == self.who {
            return true;
        }
        if a.who == MULTI {
            return reads.ordered_before(a.clock, self);
        }
        self.local(a.who)
            .is_some_and(|u| a.clock <= self.view.others[u])
    }
}

/// Records an access to one byte; returns the earlier conflicting accessor
/// (global thread id + 1, or `MULTI`) if it races.
#[inline(always)]
pub fn record(
    s: &mut Shadow,
    me: &Accessor,
    write: bool,
    strong: bool,
    reads: &mut ReadSets,
) -> Option<u32> {
    if !(me.ordered_after(&s.write, reads) || (strong && s.write_strong)) {
        return Some(s.write.who);
    }
    if write {
        if !(me.ordered_after(&s.read, reads) || (strong && s.read_strong)) {
            if s.read.who == MULTI {
                return Some(reads.culprit(s.read.clock, me));
            }
            return Some(s.read.who);
        }
        if s.read.who == MULTI {
            reads.release(s.read.clock);
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
        reads.add(s.read.clock, me);
        s.read_strong &= strong;
    } else if me.ordered_after(&s.read, reads) {
        s.read = me.access();
        s.read_strong = strong;
    } else {
        let set = match me.local(s.read.who) {
            Some(u) => reads.create(me, u, s.read.clock),
            None => NO_SET,
        };
        s.read = Access {
            who: MULTI,
            clock: set,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx_interp::clocks::Clocks;

    const N: usize = 64;

    fn acc<'a>(c: &'a Clocks, cta: u32, tid: u32) -> Accessor<'a> {
        Accessor {
            who: cta * N as u32 + tid + 1,
            first: cta * N as u32 + 1,
            cta,
            tid,
            gen: c.generation(),
            view: c.view(tid as usize),
        }
    }

    fn all() -> Vec<usize> {
        (0..N).collect()
    }

    #[test]
    fn two_writers_race_and_a_barrier_orders_them() {
        let mut c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        assert_eq!(record(&mut s, &acc(&c, 0, 1), true, false, &mut r), None);
        assert_eq!(
            record(&mut s.clone(), &acc(&c, 0, 2), true, false, &mut r),
            Some(2)
        );
        c.sync(&all(), None);
        assert_eq!(record(&mut s, &acc(&c, 0, 2), false, false, &mut r), None);
    }

    #[test]
    fn a_partial_barrier_orders_only_its_participants() {
        let mut c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        record(&mut s, &acc(&c, 0, 1), true, false, &mut r);
        c.sync(&[1, 2], None);
        assert_eq!(
            record(&mut s.clone(), &acc(&c, 0, 2), false, false, &mut r),
            None
        );
        assert!(record(&mut s, &acc(&c, 0, 3), false, false, &mut r).is_some());
    }

    #[test]
    fn several_readers_then_a_write_race_unless_ordered() {
        let mut c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        for t in 0..8 {
            assert_eq!(record(&mut s, &acc(&c, 0, t), false, false, &mut r), None);
        }
        // The report names an unordered reader other than the writer:
        // thread 0 (global id + 1 = 1).
        assert_eq!(
            record(&mut s.clone(), &acc(&c, 0, 3), true, false, &mut r),
            Some(1)
        );
        c.sync(&all(), None);
        assert_eq!(record(&mut s, &acc(&c, 0, 3), true, false, &mut r), None);
    }

    #[test]
    fn readers_ordered_by_a_partial_barrier_only_are_checked_one_by_one() {
        // Readers 0..4; a barrier of threads 0..4 and 9 (not CTA-wide, so no
        // new generation): a write by 9 is ordered, one by 10 is not.
        let mut c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        for t in 0..4 {
            record(&mut s, &acc(&c, 0, t), false, false, &mut r);
        }
        c.sync(&[0, 1, 2, 3, 9], None);
        assert_eq!(c.generation(), 0);
        assert_eq!(
            record(&mut s.clone(), &acc(&c, 0, 10), true, false, &mut r),
            Some(1)
        );
        assert_eq!(record(&mut s, &acc(&c, 0, 9), true, false, &mut r), None);
    }

    #[test]
    fn strong_accesses_do_not_race_with_each_other() {
        let c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        for t in 0..10 {
            assert_eq!(record(&mut s, &acc(&c, 0, t), true, true, &mut r), None);
            assert_eq!(record(&mut s, &acc(&c, 0, t), false, true, &mut r), None);
        }
        assert!(record(&mut s, &acc(&c, 0, 11), false, false, &mut r).is_some());
    }

    #[test]
    fn release_acquire_orders_plain_accesses() {
        let mut c = Clocks::new(N);
        let (mut data, mut r) = (Shadow::default(), ReadSets::new(N));
        record(&mut data, &acc(&c, 0, 1), true, false, &mut r);
        // Thread 1 releases (sync object = its clock), then advances.
        let sync = c.vector(1);
        c.tick(1);
        // Thread 2 without acquiring races; after acquiring it does not.
        assert!(record(&mut data.clone(), &acc(&c, 0, 2), false, false, &mut r).is_some());
        c.acquire(2, &sync);
        assert_eq!(
            record(&mut data, &acc(&c, 0, 2), false, false, &mut r),
            None
        );
    }

    #[test]
    fn different_ctas_are_never_ordered() {
        let c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        record(&mut s, &acc(&c, 0, 1), true, false, &mut r);
        assert!(record(&mut s, &acc(&c, 1, 1), false, false, &mut r).is_some());
    }

    #[test]
    fn readers_in_several_ctas_race_with_any_later_write() {
        let mut c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        record(&mut s, &acc(&c, 0, 1), false, false, &mut r);
        record(&mut s, &acc(&c, 1, 1), false, false, &mut r);
        c.sync(&all(), None);
        assert_eq!(
            record(&mut s.clone(), &acc(&c, 1, 2), true, false, &mut r),
            Some(MULTI)
        );
        // A set that later gets a reader from another CTA, likewise.
        let mut s = Shadow::default();
        record(&mut s, &acc(&c, 0, 1), false, false, &mut r);
        record(&mut s, &acc(&c, 0, 2), false, false, &mut r);
        record(&mut s, &acc(&c, 1, 2), false, false, &mut r);
        c.sync(&all(), None);
        assert_eq!(
            record(&mut s, &acc(&c, 0, 3), true, false, &mut r),
            Some(MULTI)
        );
    }

    #[test]
    fn same_thread_never_races_with_itself() {
        let c = Clocks::new(N);
        let (mut s, mut r) = (Shadow::default(), ReadSets::new(N));
        record(&mut s, &acc(&c, 0, 1), true, false, &mut r);
        assert_eq!(record(&mut s, &acc(&c, 0, 1), true, false, &mut r), None);
        assert_eq!(record(&mut s, &acc(&c, 0, 1), false, false, &mut r), None);
    }
}
