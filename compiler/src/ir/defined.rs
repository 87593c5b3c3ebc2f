//! Definite assignment: the register units that every path from its
//! procedure's entry has written by the end of a block, the forward "must"
//! dataflow
//!
//! ```text
//! defined_in[B]  = ∩ defined_out[P] over the predecessors P of B (∅ at a root)
//! defined_out[B] = defined_in[B] ∪ { units an unguarded instruction of B writes }
//! ```
//!
//! iterated to the greatest fixed point (unreachable blocks keep the full
//! set, which says nothing about code that never runs).
//!
//! Why it is sound per thread: a SIMT thread follows one CFG path, and
//! every way control enters a block is an edge of [`Cfg`] (branches,
//! fallthrough, the candidate targets of an indirect branch) or a root
//! (the kernel's entry, a callee's entry: nothing is assumed there). A
//! `CALL` falls through inside its block; what the callee writes is
//! ignored, which can only leave the set smaller than the truth. A
//! guarded write counts as no write (its guard may be false).
//!
//! The simulator reports reading a register that the thread never wrote
//! as undefined behaviour; a phase that moves a read to a point where it
//! did not happen before (speculation) uses this to keep that read
//! defined.

use super::cfg::Cfg;
use super::func::Function;
use super::liveness::{BitSet, UnitMap};
use super::regs::{self, RegUnit};

pub struct Defined {
    map: UnitMap,
    out: Vec<BitSet>,
}

impl Defined {
    pub fn new(f: &Function, cfg: &Cfg) -> Defined {
        let map = UnitMap::new(f);
        let n = map.len();
        let nb = f.blocks.len();
        let gen: Vec<BitSet> = f
            .blocks
            .iter()
            .map(|b| {
                map.set_of(
                    b.insts
                        .iter()
                        .filter(|i| regs::kills(i))
                        .flat_map(regs::defs),
                )
            })
            .collect();
        let mut is_root = vec![false; nb];
        for &r in &cfg.roots {
            is_root[r] = true;
        }
        let mut out = vec![BitSet::full(n); nb];
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &cfg.rpo {
                let mut s = if is_root[b] {
                    BitSet::new(n)
                } else {
                    let mut s = BitSet::full(n);
                    for &p in &cfg.preds[b] {
                        s.intersect_with(&out[p]);
                    }
                    s
                };
                s.union_with(&gen[b]);
                if s != out[b] {
                    out[b] = s;
                    changed = true;
                }
            }
        }
        Defined { map, out }
    }

    /// Whether every path reaching the end of block `b` has written `u`.
    pub fn at_end(&self, b: usize, u: RegUnit) -> bool {
        self.map.index(u).is_some_and(|i| self.out[b].contains(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::ir::regs::RegUnit;

    #[test]
    fn a_write_on_one_arm_only_is_not_definite_after_the_join() {
        let f = func(
            ".L_x_0:
             MOV %r1, 0x1 ;
             @%p0 MOV %r4, 0x2 ;
             @%p0 BRA .L_x_2 ;
             .L_x_1:
             MOV %r2, 0x3 ;
             MOV %r3, 0x3 ;
             BRA .L_x_3 ;
             .L_x_2:
             MOV %r3, 0x4 ;
             .L_x_3:
             EXIT ;",
        );
        let d = Defined::new(&f, &Cfg::new(&f));
        // Both arms write %r3, one writes %r2, the guarded write of %r4
        // may not happen.
        assert!(d.at_end(3, RegUnit::VR(1)));
        assert!(d.at_end(3, RegUnit::VR(3)));
        assert!(!d.at_end(3, RegUnit::VR(2)));
        assert!(!d.at_end(3, RegUnit::VR(4)));
        assert!(d.at_end(1, RegUnit::VR(2)));
    }

    #[test]
    fn a_loop_body_write_is_not_definite_at_the_loop_entry() {
        let f = func(
            ".L_x_0:
             MOV %r1, 0x1 ;
             .L_x_1:
             ISETP.GE.AND %p0, PT, %r1, 0x4, PT ;
             @%p0 BRA .L_x_3 ;
             .L_x_2:
             MOV %r5, %r1 ;
             IADD3 %r1, %r1, 0x1, RZ ;
             BRA .L_x_1 ;
             .L_x_3:
             EXIT ;",
        );
        let d = Defined::new(&f, &Cfg::new(&f));
        assert!(!d.at_end(1, RegUnit::VR(5)));
        assert!(d.at_end(2, RegUnit::VR(5)));
        assert!(d.at_end(1, RegUnit::VR(1)));
    }
}
