//! Backward copy propagation (OriBackCopyPropagate, 83): a value computed
//! into a temporary and then copied is computed straight into the copy's
//! destination.
//!
//! ```text
//! IADD3 %r5, %r1, %r2, RZ ;      IADD3 %r9, %r1, %r2, RZ ;
//! ...                        ->  ...
//! MOV %r9, %r5 ;
//! ```
//!
//! Conditions (all within one block, so no path question arises): the copy
//! `MOV y, x` is unguarded with 32-bit plain registers of one file; the
//! last definition `D` of `x` before it in the block is unguarded, defines
//! only `x` (one 32-bit destination) and is an ordinary instruction (not
//! one whose writes the IR cannot see); between `D` and the copy nothing
//! reads `x` or reads or writes `y`; `x` is dead after the copy (liveness,
//! guard-aware). Then `D` writes `y` and the copy goes. `D` reading `y`
//! itself is fine: sources are read before the destination is written.

use super::facts::clobbers_all;
use crate::ir::inst::Operand;
use crate::ir::opcode::Op;
use crate::ir::regs::{self, RegUnit};
use crate::ir::Function;

/// One sweep; returns the count of copies removed.
pub fn back_propagate(f: &mut Function) -> usize {
    let live = crate::ir::analysis_cache::liveness(f);
    let mut n = 0;
    for b in 0..f.blocks.len() {
        let after = live.live_after_each(b);
        let mut remove = Vec::new();
        let insts = &f.blocks[b].insts;
        let mut retarget: Vec<(usize, Operand)> = Vec::new();
        // Accepted (definition, copy) spans: one rewrite per span per
        // sweep, so two rewrites never see each other's old code.
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for m in 0..insts.len() {
            let mv = &insts[m];
            if mv.op != Op::MOV || mv.guard.is_some() || mv.operands.len() != 2 {
                continue;
            }
            let (Operand::Reg(yd), Operand::Reg(xs)) = (&mv.operands[0], &mv.operands[1]) else {
                continue;
            };
            if !super::fold::is_plain_reg(&mv.operands[1]) {
                continue;
            }
            let (Some(y), Some(x)) = (RegUnit::of_reg(yd.reg, 0), RegUnit::of_reg(xs.reg, 0))
            else {
                continue;
            };
            if x == y || x.file() != y.file() || regs::operand_width(mv, 0) != 1 {
                continue;
            }
            if live.units.index(x).is_some_and(|k| after[m].contains(k)) {
                continue;
            }
            // The last definition of x before m.
            let Some(d) = (0..m).rev().find(|&k| regs::defs(&insts[k]).contains(&x)) else {
                continue;
            };
            let di = &insts[d];
            if di.guard.is_some()
                || clobbers_all(di)
                || di.ndst != 1
                || regs::defs(di).as_slice() != [x]
                || regs::operand_width(di, 0) != 1
                || spans.iter().any(|&(a, z)| d <= z && a <= m)
            {
                continue;
            }
            let clean = (d + 1..m).all(|k| {
                let i = &insts[k];
                let u = regs::uses(i);
                !clobbers_all(i)
                    && !regs::reads_all_registers(i)
                    && !u.contains(&x)
                    && !u.contains(&y)
                    && !regs::defs(i).contains(&y)
            });
            if !clean {
                continue;
            }
            retarget.push((d, mv.operands[0].clone()));
            remove.push(m);
            spans.push((d, m));
        }
        let blk = &mut f.blocks[b];
        for (d, y) in retarget {
            blk.insts[d].operands[0] = y;
            blk.insts[d].encoding = None;
        }
        remove.sort_unstable();
        for &m in remove.iter().rev() {
            blk.insts.remove(m);
            n += 1;
        }
    }
    n
}
