//! The CUTLASS-style GEMM detection gate (docs/MODEL.md, GEMM gate; 3.5 KB in ptxas,
//! called by OptimizeNaNOrZero; the "cutlass" string also gates
//! HoistInvariants' aggressiveness).
//!
//! The source gives the gate's purpose, not its test. DECISION (this
//! compiler's rule, documented here): an innermost natural loop is a GEMM
//! main loop when its blocks hold
//!
//! - at least [`MIN_MACS`] multiply-accumulate instructions (`FFMA`,
//!   `DFMA`, `HFMA2`, `HMMA`, `IMMA`: the "MacInsts" the Tepid scheduler
//!   counts, docs/MODEL.md, Scheduler statistics),
//! - at least one of them accumulating across iterations: its last source
//!   (the addend) is a register defined inside the loop and live on entry
//!   to the header (the loop-carried accumulator of a K loop), and
//! - at least [`MIN_LOADS`] loads (`LDS`, `LDG`, `LD`, `LDSM`, `LDC`, the
//!   texture fetches): the tiles the MACs read.
//!
//! A function passes the gate when it has at least one such loop.

use crate::ir::cfg::Cfg;
use crate::ir::dom::DomTree;
use crate::ir::liveness::Liveness;
use crate::ir::loops::LoopInfo;
use crate::ir::opcode::Effects;
use crate::ir::{regs, Function, Inst, Op};

/// Fewest multiply-accumulates in a GEMM main loop.
pub const MIN_MACS: usize = 4;
/// Fewest loads in a GEMM main loop.
pub const MIN_LOADS: usize = 2;

/// Whether `i` is a multiply-accumulate.
pub fn is_mac(i: &Inst) -> bool {
    matches!(i.op, Op::FFMA | Op::DFMA | Op::HFMA2 | Op::HMMA | Op::IMMA)
}

/// The headers (block indices) of the function's GEMM main loops, sorted.
pub fn gemm_loops(f: &Function) -> Vec<usize> {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(&cfg);
    let li = LoopInfo::new(&cfg, &dom);
    let live = crate::ir::analysis_cache::liveness(f);
    gemm_loops_with(f, &li, &live)
}

/// [`gemm_loops`] with the analyses given.
pub fn gemm_loops_with(f: &Function, li: &LoopInfo, live: &Liveness) -> Vec<usize> {
    let mut out = Vec::new();
    for (k, l) in li.loops.iter().enumerate() {
        // Innermost: no other loop names this one as its parent.
        if li.loops.iter().any(|o| o.parent == Some(k)) {
            continue;
        }
        let insts = || l.blocks.iter().flat_map(|&b| f.blocks[b].insts.iter());
        let defined_inside: Vec<regs::RegUnit> = insts().flat_map(regs::defs).collect();
        let mut macs = 0;
        let mut carried = false;
        let mut loads = 0;
        for i in insts() {
            if is_mac(i) {
                macs += 1;
                if let Some(idx) = (i.ndst as usize..i.operands.len()).next_back() {
                    carried |= regs::operand_uses(i, idx)
                        .iter()
                        .any(|u| defined_inside.contains(u) && live.is_live_in(l.header, *u));
                }
            }
            if i.op.info().effects.contains(Effects::LOAD) {
                loads += 1;
            }
        }
        if macs >= MIN_MACS && carried && loads >= MIN_LOADS {
            out.push(l.header);
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    fn kloop(fmas: usize, carried: bool) -> Function {
        let mut body = String::new();
        for k in 0..fmas {
            let c = if carried || k > 0 { "%r10" } else { "%r11" };
            body.push_str(&format!("FFMA %r10, %r2, %r3, {c} ;\n"));
        }
        func(&format!(
            ".L_x_0:
             MOV %r10, 0x0 ;
             MOV %r11, 0x0 ;
             MOV %r5, 0x4 ;
             .L_x_1:
             LDS %r2, [%r6] ;
             LDS %r3, [%r7] ;
             {body}
             IADD3 %r5, %r5, -0x1, RZ ;
             ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
             @%p0 BRA .L_x_1 ;
             .L_x_2:
             STG.E [%r8.64], %r10 ;
             EXIT ;"
        ))
    }

    #[test]
    fn a_k_loop_with_a_carried_accumulator_passes_the_gate() {
        assert_eq!(gemm_loops(&kloop(4, true)), [1]);
        // Too few MACs.
        assert!(gemm_loops(&kloop(3, true)).is_empty());
    }

    #[test]
    fn without_a_loop_carried_accumulator_it_does_not() {
        // The first FFMA reads %r11 (never defined in the loop); the chain
        // %r10 is redefined before it is read: %r10 is not live into the
        // header, so nothing accumulates across iterations.
        let f = func(
            ".L_x_0:
             MOV %r11, 0x0 ;
             MOV %r5, 0x4 ;
             .L_x_1:
             LDS %r2, [%r6] ;
             LDS %r3, [%r7] ;
             FFMA %r10, %r2, %r3, %r11 ;
             FFMA %r10, %r2, %r3, %r10 ;
             FFMA %r10, %r2, %r3, %r10 ;
             FFMA %r10, %r2, %r3, %r10 ;
             STG.E [%r8.64], %r10 ;
             IADD3 %r5, %r5, -0x1, RZ ;
             ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
             @%p0 BRA .L_x_1 ;
             .L_x_2:
             EXIT ;",
        );
        assert!(gemm_loops(&f).is_empty());
    }
}
