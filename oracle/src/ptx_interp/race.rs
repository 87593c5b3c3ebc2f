//! Data-race detection (issue 3): two threads touch the same byte of shared
//! or global memory, at least one with a non-atomic write, and nothing orders
//! them. Ordering comes from barriers only:
//! - a `bar.sync`/`barrier.sync` that all live threads of the CTA completed
//!   ends an epoch of the CTA: accesses in different epochs are ordered;
//! - `bar.warp.sync` ends an epoch of its warp: accesses by lanes of the same
//!   warp in different warp epochs are ordered;
//! - different CTAs are never ordered (PTX gives no inter-CTA ordering
//!   without fences and flags, which the generator does not emit).
//!
//! Atomics never race with atomics. Local, const and param memory are
//! private or read-only and are not tracked. A barrier with an explicit
//! thread count that leaves threads out does not end an epoch (so programs
//! that rely on partial barriers for ordering are reported conservatively).

use rustc_hash::FxHashMap;

/// Who accessed a byte last, and when.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Access {
    /// Global thread id + 1 (0: nobody; `MULTI` for several readers).
    pub who: u32,
    pub epoch: u32,
    pub warp_epoch: u32,
}

pub const MULTI: u32 = u32::MAX;

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Shadow {
    pub write: Access,
    pub write_atomic: bool,
    pub read: Access,
}

/// The accessing thread and its ordering position.
#[derive(Clone, Copy, Debug)]
pub struct Accessor {
    /// Global thread id + 1.
    pub who: u32,
    pub epoch: u32,
    pub warp_epoch: u32,
    pub block_threads: u32,
}

impl Accessor {
    fn cta_of(who: u32, block: u32) -> u32 {
        (who - 1) / block
    }

    fn warp_of(who: u32, block: u32) -> u32 {
        ((who - 1) % block) / 32
    }

    /// Is an earlier access `a` ordered before this one?
    fn ordered_after(&self, a: &Access) -> bool {
        if a.who == 0 || a.who == self.who {
            return true;
        }
        let b = self.block_threads;
        if a.who == MULTI {
            // Several readers in `a.epoch` (`warp_epoch` holds their CTA, or
            // MULTI if they were in several): ordered only by a barrier of
            // this CTA.
            return a.warp_epoch == Self::cta_of(self.who, b) && a.epoch != self.epoch;
        }
        if Self::cta_of(a.who, b) != Self::cta_of(self.who, b) {
            return false;
        }
        a.epoch != self.epoch
            || (Self::warp_of(a.who, b) == Self::warp_of(self.who, b)
                && a.warp_epoch != self.warp_epoch)
    }

    fn access(&self) -> Access {
        Access {
            who: self.who,
            epoch: self.epoch,
            warp_epoch: self.warp_epoch,
        }
    }
}

/// Records an access to one byte; returns the conflicting earlier accessor
/// (global thread id + 1) if it races.
#[inline]
pub fn record(s: &mut Shadow, me: &Accessor, write: bool, atomic: bool) -> Option<u32> {
    let w_conflict = !(me.ordered_after(&s.write) || (atomic && s.write_atomic));
    if w_conflict {
        return Some(s.write.who);
    }
    if write {
        let r_conflict = !me.ordered_after(&s.read);
        // An atomic write may follow reads that were atomic themselves; plain
        // reads concurrent with any write race.
        if r_conflict {
            return Some(s.read.who);
        }
        s.write = me.access();
        s.write_atomic = atomic;
        // Reads before this ordered write no longer matter.
        s.read = Access::default();
    } else if me.ordered_after(&s.read) {
        s.read = me.access();
    } else {
        let b = me.block_threads;
        let mine = Accessor::cta_of(me.who, b);
        let theirs = if s.read.who == MULTI {
            s.read.warp_epoch
        } else {
            Accessor::cta_of(s.read.who, b)
        };
        s.read = Access {
            who: MULTI,
            epoch: me.epoch,
            warp_epoch: if theirs == mine { mine } else { MULTI },
        };
    }
    None
}

/// Shadow state of global memory in 64-byte chunks (one hash lookup per
/// access; accesses are naturally aligned, so never straddle a chunk).
#[derive(Default)]
pub struct GlobalShadow {
    chunks: FxHashMap<u64, Box<[Shadow; 64]>>,
}

impl GlobalShadow {
    /// The shadows of `[addr, addr + n)`, which lies within one chunk.
    pub fn bytes(&mut self, addr: u64, n: u64) -> &mut [Shadow] {
        let chunk = self
            .chunks
            .entry(addr >> 6)
            .or_insert_with(|| Box::new([Shadow::default(); 64]));
        let lo = (addr & 63) as usize;
        &mut chunk[lo..(lo + n as usize).min(64)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(cta: u32, tid: u32) -> u32 {
        cta * 64 + tid + 1
    }

    fn acc(cta: u32, tid: u32, epoch: u32, warp_epoch: u32) -> Accessor {
        Accessor {
            who: who(cta, tid),
            epoch,
            warp_epoch,
            block_threads: 64,
        }
    }

    #[test]
    fn two_writers_in_one_epoch_race() {
        let mut s = Shadow::default();
        assert_eq!(record(&mut s, &acc(0, 1, 0, 0), true, false), None);
        assert_eq!(
            record(&mut s, &acc(0, 2, 0, 0), true, false),
            Some(who(0, 1))
        );
    }

    #[test]
    fn barrier_orders_write_then_read() {
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), true, false);
        assert_eq!(record(&mut s, &acc(0, 2, 1, 0), false, false), None);
        // Without the barrier it races.
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), true, false);
        assert_eq!(
            record(&mut s, &acc(0, 2, 0, 0), false, false),
            Some(who(0, 1))
        );
    }

    #[test]
    fn reads_do_not_race_with_reads() {
        let mut s = Shadow::default();
        for t in 0..10 {
            assert_eq!(record(&mut s, &acc(0, t, 0, 0), false, false), None);
        }
        // ...but a write after several readers in the same epoch does.
        assert!(record(&mut s, &acc(0, 3, 0, 0), true, false).is_some());
    }

    #[test]
    fn atomics_do_not_race_with_atomics() {
        let mut s = Shadow::default();
        for t in 0..10 {
            assert_eq!(record(&mut s, &acc(0, t, 0, 0), true, true), None);
        }
        assert!(record(&mut s, &acc(0, 11, 0, 0), false, false).is_some());
    }

    #[test]
    fn different_ctas_are_never_ordered() {
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 5, 0), true, false);
        assert!(record(&mut s, &acc(1, 1, 9, 0), false, false).is_some());
    }

    #[test]
    fn warp_barrier_orders_lanes_of_one_warp_only() {
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), true, false);
        assert_eq!(record(&mut s, &acc(0, 2, 0, 1), false, false), None);
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), true, false);
        // Lane 40 is in the other warp: the warp barrier does not order it.
        assert!(record(&mut s, &acc(0, 40, 0, 1), false, false).is_some());
    }

    #[test]
    fn readers_in_several_ctas_stay_unordered() {
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), false, false);
        record(&mut s, &acc(1, 1, 0, 0), false, false);
        // A write from CTA 0 in a later epoch is not ordered after CTA 1's read.
        assert!(record(&mut s, &acc(0, 2, 3, 0), true, false).is_some());
    }

    #[test]
    fn readers_of_one_cta_are_ordered_by_its_barrier() {
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), false, false);
        record(&mut s, &acc(0, 2, 0, 0), false, false);
        assert_eq!(record(&mut s, &acc(0, 3, 1, 0), true, false), None);
    }

    #[test]
    fn same_thread_never_races_with_itself() {
        let mut s = Shadow::default();
        record(&mut s, &acc(0, 1, 0, 0), true, false);
        assert_eq!(record(&mut s, &acc(0, 1, 0, 0), true, false), None);
        assert_eq!(record(&mut s, &acc(0, 1, 0, 0), false, false), None);
    }
}
