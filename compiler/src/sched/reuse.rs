//! SetReuseFlags (153): operand-reuse cache flags. A performance hint
//! only: the hazard model ([`super::model`]) never depends on them.
//!
//! Source slots are the non-predicate source operands in order (A, B, C):
//! bit `k` of [`Control::reuse`](crate::ir::control::Control) is slot `k`,
//! and cuobjdump prints the flag as `.reuse` on that operand. (Checked on
//! the vendor corpus for the ALU opcodes: `FFMA R4, R6.reuse, R7, R4`
//! sets bit 0; `IMAD R2, R3, R4, R5.reuse` bit 2;
//! tests/ir_control_vendor.rs.)
//!
//! Rule (ptxas's visible behaviour on the corpus): an instruction flags slot
//! `k` when the next instruction of its block is of the same kind, reads
//! the same general register in slot `k`, and the flagged instruction does
//! not write that register. Only fixed-latency ALU instructions on the
//! general (non-uniform) datapath take part: the reuse cache sits in front
//! of their operand collector. Existing flags of participating
//! instructions are recomputed.

use crate::ir::opcode::{Category, Latency};
use crate::ir::regs;
use crate::ir::sass_text::{Reg, SassOperand};
use crate::ir::{Function, Inst};

/// The operand index of each source slot.
pub fn slot_operands(inst: &Inst) -> Vec<usize> {
    (inst.ndst as usize..inst.operands.len())
        .filter(|&i| !matches!(inst.operands[i], SassOperand::Pred { .. }))
        .take(4)
        .collect()
}

fn eligible(inst: &Inst) -> bool {
    let info = inst.op.info();
    info.latency == Latency::Fixed
        && info.is_modelled()
        && matches!(
            info.category,
            Category::IntAlu | Category::Fp32 | Category::Fp16 | Category::Fp64
        )
}

fn slot_reg(inst: &Inst, op: usize) -> Option<Reg> {
    match &inst.operands[op] {
        SassOperand::Reg(r) if matches!(r.reg, Reg::R(_) | Reg::V(_)) => Some(r.reg),
        _ => None,
    }
}

/// Sets the flags; returns how many operands are flagged.
pub fn set(f: &mut Function) -> usize {
    let mut flagged = 0;
    for b in &mut f.blocks {
        let n = b.insts.len();
        for k in 0..n {
            if !eligible(&b.insts[k]) {
                continue;
            }
            let slots = slot_operands(&b.insts[k]);
            let mut mask = 0u8;
            if k + 1 < n && eligible(&b.insts[k + 1]) && b.insts[k + 1].op == b.insts[k].op {
                let next = &b.insts[k + 1];
                let next_slots = slot_operands(next);
                let written = regs::defs(&b.insts[k]);
                for (s, (&a, &bn)) in slots.iter().zip(next_slots.iter()).enumerate() {
                    let (Some(ra), Some(rb)) = (slot_reg(&b.insts[k], a), slot_reg(next, bn))
                    else {
                        continue;
                    };
                    let clobbered = regs::operand_uses(&b.insts[k], a)
                        .iter()
                        .any(|u| written.contains(u));
                    if ra == rb && !clobbered {
                        mask |= 1 << s;
                    }
                }
            }
            let inst = &mut b.insts[k];
            for (s, &op) in slots.iter().enumerate() {
                if let SassOperand::Reg(r) = &mut inst.operands[op] {
                    r.reuse = mask >> s & 1 != 0;
                }
            }
            flagged += mask.count_ones() as usize;
            let mut c = inst.control().unwrap_or_default();
            c.reuse = mask;
            inst.set_control(c);
        }
    }
    flagged
}
