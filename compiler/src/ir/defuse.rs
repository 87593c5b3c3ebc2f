//! Def-use chains per register unit, after ptxas's builder (docs/MODEL.md, Def-use chains)
//! (`DefUseChain::build`): one walk over the instructions in program
//! (layout) order that, for every register operand, counts definitions
//! and uses on the register's descriptor, chains the uses, remembers the
//! defining instruction when there is exactly one ("has single def",
//! descriptor +56), and sets the descriptor flags ptxas sets:
//!
//! | ptxas flag | here |
//! |---|---|
//! | live-out (bit 6) | [`UnitInfo::live_out`]: live at the end of some block that defines it (needs [`Liveness`]) |
//! | has single def (bit 16) | [`UnitInfo::single_def`] |
//! | has prior use (bit 25) | [`UnitInfo::use_before_def`]: some use comes before the first definition in layout order |
//! | same-block def (bit 27) | [`UnitInfo::same_block`]: every definition and use is in one block |
//! | source-only ref (bit 33) | [`UnitInfo::source_only`]: used, never defined |
//!
//! Only operands count, as in ptxas (its walk reads the operand
//! array): a `CALL`'s implicit reads are not uses here (liveness has them).
//! ptxas's CSE matching and its register-class mask (`a5`) are left
//! out: all four files are processed.

use std::collections::BTreeMap;

use super::func::Function;
use super::liveness::Liveness;
use super::regs::{self, RegUnit};

/// An instruction position: block index and index in the block.
pub type InstRef = (usize, usize);

/// What the walk learned about one register unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitInfo {
    /// Defining instructions, in layout order.
    pub defs: Vec<InstRef>,
    /// Using instructions, in layout order (an instruction reading the
    /// unit through several operands counts once).
    pub uses: Vec<InstRef>,
    /// The defining instruction when there is exactly one.
    pub single_def: Option<InstRef>,
    pub live_out: bool,
    pub use_before_def: bool,
    pub same_block: bool,
    pub source_only: bool,
}

impl UnitInfo {
    pub fn def_count(&self) -> usize {
        self.defs.len()
    }

    pub fn use_count(&self) -> usize {
        self.uses.len()
    }
}

/// Def-use chains of a function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefUse {
    pub units: BTreeMap<RegUnit, UnitInfo>,
}

impl DefUse {
    /// Builds the chains; with `live`, also the live-out flags.
    pub fn new(f: &Function, live: Option<&Liveness>) -> DefUse {
        let mut units: BTreeMap<RegUnit, UnitInfo> = BTreeMap::new();
        for (b, blk) in f.blocks.iter().enumerate() {
            for (i, inst) in blk.insts.iter().enumerate() {
                // Uses first: an instruction reads its sources before it
                // writes its destinations (`IADD3 R0, R0, 0x1, RZ`).
                for u in regs::uses(inst) {
                    let e = units.entry(u).or_default();
                    if e.defs.is_empty() {
                        e.use_before_def = true;
                    }
                    e.uses.push((b, i));
                }
                for u in regs::defs(inst) {
                    units.entry(u).or_default().defs.push((b, i));
                }
            }
        }
        for (u, e) in units.iter_mut() {
            e.single_def = (e.defs.len() == 1).then(|| e.defs[0]);
            e.source_only = e.defs.is_empty();
            let mut blocks = e.defs.iter().chain(&e.uses).map(|r| r.0);
            let first = blocks.next();
            e.same_block = blocks.all(|b| Some(b) == first);
            if let Some(l) = live {
                e.live_out = e.defs.iter().any(|&(b, _)| l.is_live_out(b, *u));
            }
        }
        DefUse { units }
    }

    pub fn get(&self, u: RegUnit) -> Option<&UnitInfo> {
        self.units.get(&u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::ir::cfg::Cfg;

    #[test]
    fn chains_and_flags() {
        // R0: defined once (0,0), used at (0,1) and (1,0); crosses blocks
        //     and is live out of block 0.
        // R1: defined at (0,1) and (1,0): two defs, no single def; used at
        //     (1,1) only; R1 is read by nothing else.
        // R2: read at (0,0) before any def -> use_before_def; never
        //     defined -> source_only.
        // R3: defined and used in block 1 only -> same_block, not live out.
        // P0: defined at (0,2), used as the guard of (0,3).
        let f = func(
            ".L_x_0:
             IADD3 R0, R2, 0x1, RZ ;
             MOV R1, R0 ;
             ISETP.NE.AND P0, PT, R1, RZ, PT ;
             @P0 BRA .L_x_2 ;
             .L_x_1:
             IADD3 R1, R0, 0x2, RZ ;
             IADD3 R3, R1, 0x1, RZ ;
             STG.E [R4.64], R3 ;
             .L_x_2:
             EXIT ;",
        );
        let cfg = Cfg::new(&f);
        let live = Liveness::new(&f, &cfg);
        let du = DefUse::new(&f, Some(&live));
        let r0 = du.get(RegUnit::R(0)).unwrap();
        assert_eq!(r0.defs, vec![(0, 0)]);
        assert_eq!(r0.uses, vec![(0, 1), (1, 0)]);
        assert_eq!(r0.single_def, Some((0, 0)));
        assert!(r0.live_out && !r0.same_block && !r0.use_before_def && !r0.source_only);
        let r1 = du.get(RegUnit::R(1)).unwrap();
        assert_eq!(
            (r1.def_count(), r1.use_count(), r1.single_def),
            (2, 2, None)
        );
        assert_eq!(r1.uses, vec![(0, 2), (1, 1)]);
        let r2 = du.get(RegUnit::R(2)).unwrap();
        assert!(r2.use_before_def && r2.source_only && r2.same_block);
        let r3 = du.get(RegUnit::R(3)).unwrap();
        assert!(r3.same_block && !r3.live_out);
        assert_eq!(
            (r3.defs.clone(), r3.uses.clone()),
            (vec![(1, 1)], vec![(1, 2)])
        );
        let p0 = du.get(RegUnit::P(0)).unwrap();
        assert_eq!(
            (p0.defs.clone(), p0.uses.clone()),
            (vec![(0, 2)], vec![(0, 3)])
        );
        // The 64-bit address covers R4 and R5.
        assert_eq!(du.get(RegUnit::R(5)).unwrap().uses, vec![(1, 2)]);
        // RZ and PT are no units.
        assert_eq!(du.units.len(), 7);
    }

    #[test]
    fn reading_and_writing_the_same_register() {
        let f = func(
            ".L_x_0:
             IADD3 R0, R0, 0x1, RZ ;
             EXIT ;",
        );
        let du = DefUse::new(&f, None);
        let r0 = du.get(RegUnit::R(0)).unwrap();
        assert!(r0.use_before_def && !r0.source_only);
        assert!(!r0.live_out);
    }
}
