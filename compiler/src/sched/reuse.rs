//! SetReuseFlags (153): operand-reuse cache flags. A performance hint
//! only: the hazard model ([`super::model`]) never depends on them.
//!
//! Source slots are the non-predicate source operands in order (A, B, C):
//! bit `k` of [`Control::reuse`](crate::ir::control::Control) is slot `k`,
//! and cuobjdump prints the flag as `.reuse` on that operand, with the two
//! exceptions of [`slot_operands`]. All 15416 instructions of the vendor
//! corpus agree (texture instructions aside: they carry reuse bits without
//! marks; tests/ir_control_vendor.rs).
//!
//! Rule (ptxas's visible behaviour on the corpus): an instruction flags slot
//! `k` when the next instruction of its block is of the same kind, reads
//! the same general register in slot `k`, and the flagged instruction does
//! not write that register. Only fixed-latency ALU instructions on the
//! general (non-uniform) datapath take part: the reuse cache sits in front
//! of their operand collector. Existing flags of participating
//! instructions are recomputed.

use crate::ir::opcode::{Category, Latency, Op};
use crate::ir::regs;
use crate::ir::sass_text::{Reg, SassOperand};
use crate::ir::{Function, Inst};

/// The operand index of each source slot (index `k` of the result is slot
/// `k`; `None` for a slot no operand uses). The FP16 add and compare
/// (`HADD2`, `HSETP2`) encode their second source in slot C, as the FMA
/// with B = 1.0 they are (half_arith.sm_80.sass line 39: `HADD2 R9,
/// R4.reuse.H0_H0, -R7.reuse.H0_H0` sets reuse bits 0b101); a one-source
/// instruction encodes its source in slot B (libdevice_math.sm_80.sass line 353: `@P6 MOV R7,
/// R12.reuse` sets reuse bit 0b10).
pub fn slot_operands(inst: &Inst) -> Vec<Option<usize>> {
    let mut v: Vec<Option<usize>> = (inst.ndst as usize..inst.operands.len())
        .filter(|&i| !matches!(inst.operands[i], SassOperand::Pred { .. }))
        .map(Some)
        .collect();
    if matches!(inst.op, Op::HADD2 | Op::HSETP2) && v.len() >= 2 {
        v.insert(1, None);
    }
    if v.len() == 1 {
        v.insert(0, None);
    }
    v.truncate(4);
    v
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
                    let (Some(a), Some(bn)) = (a, bn) else {
                        continue;
                    };
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
                if let Some(SassOperand::Reg(r)) = op.map(|op| &mut inst.operands[op]) {
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
