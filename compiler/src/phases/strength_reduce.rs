//! OriStrengthReduce (21): induction-variable strength reduction. A value
//! computed in a loop as `i*m + base` from a basic induction variable `i`
//! becomes a running sum that one add per iteration keeps up to date.
//!
//! A basic induction variable is a general register unit whose only
//! definition in the loop is `IADD3 i, i, STEP, RZ` (unguarded). A
//! candidate is an unguarded instruction of the loop, the only definition
//! of its destination `d` there, of one of the forms
//!
//! | form | value (mod 2^32) |
//! |---|---|
//! | `IMAD d, i, M, base` (plain IMAD; `base` an immediate, `RZ` or a register with no definition in the loop) | `i*M + base` |
//! | `SHF.L.U32 d, i, S, RZ` (S < 32) | `i*2^S` |
//!
//! Both are linear in `i` modulo 2^32, so with a fresh register `t`:
//!
//! - the preheader computes `t` with the candidate itself, destination
//!   renamed (`t = i*M + base` for the value `i` has entering the loop);
//! - right after the increment of `i` the loop adds `STEP*M` (wrapping) to
//!   `t`: `t == i*M + base` then holds at every point of the loop, since
//!   `i` and `t` change only there, together, and `base` not at all;
//! - the candidate becomes `MOV d, t`: `d` gets the same value at the same
//!   point, so nothing else in the program can tell (the copy goes away
//!   when copy propagation runs).
//!
//! The candidate's block must dominate every latch and every exiting
//! block: the preheader reads `i` and `base` where the original read them
//! on the first iteration anyway (the simulator reports reading an
//! uninitialised register as undefined behaviour, so a computation that
//! might not run must not be started early).
//!
//! Not reduced: 64-bit forms (`IMAD.WIDE`, `.HI`, `.X`, address pairs):
//! a wide product of a 32-bit counter is not linear modulo 2^64 once the
//! counter wraps, and proving it does not is beyond this phase. Loops
//! without a preheader (OriLoopSimplification makes them) or with opaque
//! instructions are left alone. The phase needs fresh virtual registers:
//! after register allocation (no virtual register left) it does nothing.
//!
//! # NvOpt levels
//!
//! Level 0 turns the phase off; levels 1..=5 reduce every candidate, at
//! most [`MAX_PER_RUN`] per run.

use super::loop_util::{
    fresh_vreg, has_virtual_registers, insertion_point, loop_def_counts, loop_is_plain, plain_gpr,
    LoopView,
};
use super::phase::{Phase, PhaseContext, PhaseError};
use super::unroll::increment;
use crate::ir::cfg::is_terminator;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{Reg, RegOperand};
use crate::ir::{Function, Inst, Op, Operand};

/// The index of OriStrengthReduce.
pub const INDEX: u16 = 21;

/// The most reductions one run makes (each rebuilds the analyses).
pub const MAX_PER_RUN: usize = 64;

pub struct StrengthReduce {
    pub index: u16,
    pub enabled: bool,
}

fn reg_op(r: Reg) -> Operand {
    Operand::Reg(RegOperand {
        reg: r,
        neg: false,
        not: false,
        abs: false,
        reuse: false,
        sel: None,
    })
}

/// The multiplier of a candidate whose induction operand is `i`: `Some(M)`
/// when `inst` computes `i*M + base` with `base` invariant (`defs` are the
/// loop's definition counts).
fn linear_in(
    inst: &Inst,
    defs: &std::collections::BTreeMap<RegUnit, usize>,
) -> Option<(RegUnit, u32)> {
    if inst.guard.is_some() || inst.ndst != 1 {
        return None;
    }
    let s = inst.srcs();
    let invariant = |o: &Operand| match o {
        Operand::Imm(_) => true,
        Operand::Reg(r) if r.reg == Reg::Rz && !r.neg && !r.not => true,
        o => plain_gpr(o).is_some_and(|u| defs.get(&u).copied().unwrap_or(0) == 0),
    };
    match inst.op {
        Op::IMAD if inst.mods.is_empty() && s.len() == 3 => {
            let i = plain_gpr(&s[0])?;
            let Operand::Imm(m) = s[1] else {
                return None;
            };
            invariant(&s[2]).then_some((i, m as u32))
        }
        Op::SHF if inst.mods[..] == ["L", "U32"] && s.len() == 3 => {
            let i = plain_gpr(&s[0])?;
            let Operand::Imm(sh) = s[1] else {
                return None;
            };
            let rz = matches!(&s[2], Operand::Reg(r) if r.reg == Reg::Rz);
            ((0..32).contains(&sh) && rz).then_some((i, 1u32 << sh))
        }
        _ => None,
    }
}

/// One reduction somewhere in the function; returns whether it made one.
fn reduce_one(f: &mut Function) -> bool {
    let v = LoopView::new(f);
    for l in v.loops.loops.iter().rev() {
        let Some(ph) = v.preheader(f, l) else {
            continue;
        };
        if !loop_is_plain(f, &v, l) {
            continue;
        }
        if let Some(t) = f.blocks[ph].insts.last() {
            if is_terminator(t)
                && !(t.op == Op::BRA
                    && t.guard.is_none()
                    && t.targets().eq([f.blocks[l.header].label]))
            {
                continue;
            }
        }
        let defs = loop_def_counts(f, l);
        let exiting = v.exiting_blocks(l);
        // The increments of the basic induction variables: unit -> (block,
        // index, step).
        let mut ivs = std::collections::BTreeMap::new();
        for &b in &l.blocks {
            for (k, inst) in f.blocks[b].insts.iter().enumerate() {
                if let Some(u) = inst.operands.first().and_then(plain_gpr) {
                    if defs.get(&u) == Some(&1) {
                        if let Some(step) = increment(inst, u) {
                            ivs.insert(u, (b, k, step));
                        }
                    }
                }
            }
        }
        if ivs.is_empty() {
            continue;
        }
        for &b in &l.blocks {
            let every = l
                .latches
                .iter()
                .chain(&exiting)
                .all(|&e| v.dom.dominates(b, e));
            if !every {
                continue;
            }
            for (k, inst) in f.blocks[b].insts.iter().enumerate() {
                let Some((i, m)) = linear_in(inst, &defs) else {
                    continue;
                };
                let Some(&(ib, ik, step)) = ivs.get(&i) else {
                    continue;
                };
                let Some(d) = plain_gpr(&inst.operands[0]) else {
                    continue;
                };
                if d == i || defs.get(&d) != Some(&1) || regs::uses(inst).contains(&d) {
                    continue;
                }
                let t = Reg::V(fresh_vreg(f));
                let mut init = inst.clone();
                init.operands[0] = reg_op(t);
                init.encoding = None;
                let mov = Inst::new(Op::MOV, &[], None, [inst.operands[0].clone(), reg_op(t)])
                    .expect("MOV R, R");
                let delta = step.wrapping_mul(m) as i32 as i64;
                let bump = Inst::new(
                    Op::IADD3,
                    &[],
                    None,
                    [reg_op(t), reg_op(t), Operand::Imm(delta), reg_op(Reg::Rz)],
                )
                .expect("IADD3 R, R, I, RZ");
                f.blocks[b].insts[k] = mov;
                f.blocks[ib].insts.insert(ik + 1, bump);
                let at = insertion_point(f, ph);
                f.blocks[ph].insts.insert(at, init);
                return true;
            }
        }
    }
    false
}

/// Reduces up to [`MAX_PER_RUN`] candidates; returns how many.
pub fn strength_reduce(f: &mut Function) -> usize {
    if !has_virtual_registers(f) {
        return 0;
    }
    let mut n = 0;
    while n < MAX_PER_RUN && reduce_one(f) {
        n += 1;
    }
    n
}

impl Phase for StrengthReduce {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = strength_reduce(&mut cx.function);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::phases::loop_util::text;

    fn looped(body: &str) -> Function {
        func(&format!(
            ".L_x_0:
             MOV %r0, RZ ;
             MOV %r9, c[0x0][0x160] ;
             .L_x_1:
             MOV %r8, c[0x0][0x164] ;
             .L_x_2:
             {body}
             IADD3 %r0, %r0, 0x2, RZ ;
             ISETP.LT.AND %p0, PT, %r0, %r9, PT ;
             @%p0 BRA .L_x_2 ;
             .L_x_3:
             EXIT ;"
        ))
    }

    #[test]
    fn a_multiply_of_the_counter_becomes_a_running_sum() {
        let mut f = looped(
            "IMAD %r3, %r0, 0xc, %r8 ;
             STG.E [%r4.64], %r3 ;",
        );
        assert_eq!(strength_reduce(&mut f), 1, "{}", text(&f));
        crate::ir::verify(&f, None).unwrap();
        let t = text(&f);
        // The preheader computes the start, the loop copies and bumps it
        // by step * 12 = 24 right after the counter's increment.
        assert!(t.contains("IMAD %r10, %r0, 0xc, %r8 ;"), "{t}");
        assert!(t.contains("MOV %r3, %r10 ;"), "{t}");
        assert!(t.contains("IADD3 %r0, %r0, 0x2, RZ ;"), "{t}");
        assert!(t.contains("IADD3 %r10, %r10, 0x18, RZ ;"), "{t}");
        assert!(!f.blocks[2].insts.iter().any(|i| i.op == Op::IMAD));
        // A shift by 3 is a multiply by 8.
        let mut g = looped(
            "SHF.L.U32 %r3, %r0, 0x3, RZ ;
             STG.E [%r4.64], %r3 ;",
        );
        assert_eq!(strength_reduce(&mut g), 1);
        assert!(text(&g).contains("IADD3 %r10, %r10, 0x10, RZ ;"));
    }

    #[test]
    fn variant_bases_wide_products_and_guarded_definitions_are_refused() {
        for body in [
            // The base changes in the loop.
            "IMAD %r3, %r0, 0xc, %r5 ;
             IADD3 %r5, %r5, 0x1, RZ ;
             STG.E [%r4.64], %r3 ;",
            // 64-bit product.
            "IMAD.WIDE %r6, %r0, 0xc, RZ ;
             STG.E [%r6.64], %r3 ;",
            // Guarded: a partial definition.
            "@%p2 IMAD %r3, %r0, 0xc, RZ ;
             STG.E [%r4.64], %r3 ;",
            // Two definitions of the destination.
            "IMAD %r3, %r0, 0xc, RZ ;
             STG.E [%r4.64], %r3 ;
             MOV %r3, 0x1 ;
             STG.E [%r4.64], %r3 ;",
        ] {
            let mut f = looped(body);
            let before = f.clone();
            assert_eq!(strength_reduce(&mut f), 0, "{body}");
            assert_eq!(f, before);
        }
    }

    #[test]
    fn physical_registers_only_means_nothing_to_do() {
        let mut f = func(
            ".L_x_0:
             MOV R0, RZ ;
             .L_x_1:
             MOV R8, 0x1 ;
             .L_x_2:
             IMAD R3, R0, 0xc, RZ ;
             STG.E [R4.64], R3 ;
             IADD3 R0, R0, 0x1, RZ ;
             ISETP.LT.AND P0, PT, R0, R9, PT ;
             @P0 BRA .L_x_2 ;
             .L_x_3:
             EXIT ;",
        );
        assert_eq!(strength_reduce(&mut f), 0);
    }
}
