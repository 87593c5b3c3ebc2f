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
//! # Wide products
//!
//! `IMAD.WIDE d:d+1, i, M, RZ` (value `sext(i)*sext(M)` mod 2^64) and
//! `IMAD.WIDE.U32 d:d+1, i, M, RZ` (`zext(i)*zext(M)`), `M` an immediate,
//! are not linear in `i` modulo 2^64 once the 32-bit counter wraps (`i`
//! going from INT_MAX to INT_MIN drops `sext(i)` by 2^32). They are
//! reduced, with a 64-bit running sum `t:t+1` bumped by `ext(M)` right
//! after the increment (`IADD3 t, P, t, lo, RZ` + `IADD3.X t+1, t+1, hi,
//! RZ, P, !PT`, the lowering's 64-bit add) and `MOV d, t` + `MOV d+1, t+1`
//! in place of the candidate, only when the counter provably does not wrap
//! at any increment. The rule (`strength_reduce/wide.rs`):
//!
//! - the step is exactly 1 (step -1 with the mirrored test, and larger
//!   steps, are refused: not needed by the loops the lowering makes);
//! - some exiting block `E` ends in `@[!]p BRA` whose in-loop successor `S`
//!   has `E` as its only predecessor, is not the header, and dominates the
//!   increment's block; `p` is last written in `E` by an unguarded
//!   `ISETP.cmp[.U32].AND p, PT, a, b, PT` such that on the edge `E -> S`
//!   the relation is `i < n` (`LT i, n`, `GE` negated, `GT n, i`, `LE n, i`
//!   negated), signed (`ISETP` without `.U32`) for `.WIDE` and unsigned
//!   (`.U32`) for `.WIDE.U32`, with `n` an immediate, a constant-bank word
//!   or a register the loop does not write; the increment is not in `E`;
//! - the increment's block cannot reach itself inside the loop without
//!   passing the header (it runs at most once per iteration).
//!
//! Why it suffices: take any execution of the increment and the last
//! header visit before it. Some path entry -> preheader avoids the loop
//! (the header does not dominate its preheader, and the loop is entered
//! only through the header); followed by the header and the part of the
//! iteration up to the increment it is a path to the increment, so by
//! dominance `S` lies between that header visit and the increment, entered from `E`
//! along the edge on which `i < n` held. `i`'s only definition in the loop
//! is the increment, which runs once per iteration, so `i` at the test is
//! `i` at the increment: `i < n <= MAX` (INT_MAX signed, UINT_MAX
//! unsigned), hence `i + 1` does not wrap and `ext(i + 1) = ext(i) + 1`,
//! so `t + ext(M) = ext(i + 1)*ext(M)` mod 2^64. `t` starts as the candidate
//! itself computed in the preheader. The candidate's block need not
//! dominate the latches and exits (the 32-bit rule above) when `E` is the
//! header: the header's test reads `i` on every entry to the loop, so the
//! preheader reads nothing the original did not (the base is `RZ`, `M` an
//! immediate); otherwise the 32-bit dominance rule applies too.
//!
//! The shape this proves, as lowering + OriLoopSimplification leave a PTX
//! `for (i = s; i < n; i++)` (`ptxc --dump-ir-before OriStrengthReduce`;
//! oracle/tests/loop_phases/wide_counters.ptx):
//!
//! ```text
//! .L_x_1:  ISETP.GE.AND %p1, PT, %r5, c[0x0][0x16c], PT ;  @%p1 BRA .L_x_2 ;
//! .L_x_3:  IMAD.WIDE %r60, %r5, 0xc, RZ ; ... IADD3 %r5, %r5, 0x1, RZ ; BRA .L_x_1 ;
//! ```
//!
//! A bottom-tested loop (`do { ... i++; } while (k < 5)`, or `i < n` tested
//! after the increment) has no test before its first increment and is
//! refused. The corpus kernels' wide products are of derived values or of
//! counters stepping by 16 (matmul_tiled): nothing there is reduced.
//!
//! Not reduced: `.HI`, `.X`, a register multiplier or base, and anything
//! the rule does not prove. Loops
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
            // `then`, not `then_some`: the shift must not be evaluated for
            // an amount outside 0..32 (found by `ptxdiff run --seed 601`,
            // seeds 1961/2612/2919: "shift left with overflow").
            ((0..32).contains(&sh) && rz).then(|| (i, 1u32 << sh))
        }
        _ => None,
    }
}

/// One reduction somewhere in the function; returns whether it made one.
fn reduce_one(f: &mut Function) -> bool {
    let v = LoopView::new(f);
    for (li, l) in v.loops.loops.iter().enumerate().rev() {
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
            if v.loops.innermost[b] == Some(li) {
                for (k, inst) in f.blocks[b].insts.iter().enumerate() {
                    if let Some(done) = reduce_wide(f, &v, l, &defs, &ivs, every, b, k, inst) {
                        *f = done;
                        return true;
                    }
                }
            }
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

/// The reduction of a wide candidate at `(b, k)` (module doc, "Wide
/// products"): the rewritten function, `None` when it is not one or the
/// rule does not prove it.
#[allow(clippy::too_many_arguments)]
fn reduce_wide(
    f: &Function,
    v: &LoopView,
    l: &crate::ir::loops::Loop,
    defs: &std::collections::BTreeMap<RegUnit, usize>,
    ivs: &std::collections::BTreeMap<RegUnit, (usize, usize, u32)>,
    every: bool,
    b: usize,
    k: usize,
    inst: &Inst,
) -> Option<Function> {
    let w = wide::wide_candidate(inst)?;
    let &(ib, ik, step) = ivs.get(&w.i)?;
    if step != 1 {
        return None;
    }
    let Operand::Reg(dst) = &inst.operands[0] else {
        return None;
    };
    let (d0, d1) = (RegUnit::of_reg(dst.reg, 0)?, RegUnit::of_reg(dst.reg, 1)?);
    let dst_hi = match dst.reg {
        Reg::R(n) => Reg::R(n.checked_add(1)?),
        Reg::V(n) => Reg::V(n.checked_add(1)?),
        _ => return None,
    };
    if d0 == w.i
        || d1 == w.i
        || defs.get(&d0) != Some(&1)
        || defs.get(&d1) != Some(&1)
        || dst.neg
        || dst.not
        || dst.abs
        || dst.sel.is_some()
    {
        return None;
    }
    let e = wide::checked_exit(f, v, l, defs, w.i, ib, w.signed)?;
    if !(every || e == l.header) {
        return None;
    }
    let ph = v.preheader(f, l)?;
    let t = fresh_vreg(f).next_multiple_of(2);
    let [add, addx] = wide::bump(t, super::loop_util::fresh_vpred(f), w.delta)?;
    let mut init = inst.clone();
    init.operands[0] = reg_op(Reg::V(t));
    init.encoding = None;
    let lo = Inst::new(Op::MOV, &[], None, [reg_op(dst.reg), reg_op(Reg::V(t))]).ok()?;
    let hi = Inst::new(Op::MOV, &[], None, [reg_op(dst_hi), reg_op(Reg::V(t + 1))]).ok()?;
    let mut g = f.clone();
    g.blocks[b].insts.splice(k..=k, [lo, hi]);
    // The increment's index moves by one when it follows the candidate in
    // the same block.
    let ik = if ib == b && ik > k { ik + 1 } else { ik };
    g.blocks[ib].insts.splice(ik + 1..ik + 1, [add, addx]);
    let at = insertion_point(&g, ph);
    g.blocks[ph].insts.insert(at, init);
    Some(g)
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

mod wide;

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

    /// A shift of the counter by 32 or more is no multiply: refused, and
    /// the multiplier is not computed (a debug build panicked with "shift
    /// left with overflow": `ptxdiff run --seed 601 --matrix fuzz`,
    /// generator seeds 1961, 2612 and 2919).
    #[test]
    fn a_shift_by_32_or_more_is_left_alone() {
        for sh in ["0x20", "0x25"] {
            let mut f = looped(&format!(
                "SHF.L.U32 %r3, %r0, {sh}, RZ ;
                 STG.E [%r4.64], %r3 ;"
            ));
            assert_eq!(strength_reduce(&mut f), 0, "{}", text(&f));
        }
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

    /// A top-tested loop `while (i CMP n) { body; i += step }` (the shape
    /// lowering + OriLoopSimplification give `for` loops: the header tests
    /// and exits, the body falls through from it and branches back).
    fn top_tested(cmp: &str, body: &str, step: u32) -> Function {
        func(&format!(
            ".L_x_0:
             MOV %r0, c[0x0][0x160] ;
             MOV %r30, RZ ;
             MOV %r31, RZ ;
             .L_x_1:
             ISETP.{cmp}.AND %p1, PT, %r0, c[0x0][0x164], PT ;
             @%p1 BRA .L_x_3 ;
             .L_x_2:
             {body}
             IADD3 %r30, %p2, %r30, %r6, RZ ;
             IADD3.X %r31, %r31, %r7, RZ, %p2, !PT ;
             IADD3 %r0, %r0, {step:#x}, RZ ;
             BRA .L_x_1 ;
             .L_x_3:
             STG.E.64 [%r8.64], %r30 ;
             EXIT ;"
        ))
    }

    #[test]
    fn a_wide_product_of_a_checked_counter_becomes_a_64_bit_running_sum() {
        let mut f = top_tested("GE", "IMAD.WIDE %r6, %r0, -0x4, RZ ;", 1);
        assert_eq!(strength_reduce(&mut f), 1, "{}", text(&f));
        crate::ir::verify(&f, None).unwrap();
        let t = text(&f);
        // The start in the preheader, the copies, and the bump by
        // sext(-4) = 0xffff_ffff_ffff_fffc after the increment.
        assert!(t.contains("IMAD.WIDE %r32, %r0, -0x4, RZ ;"), "{t}");
        assert!(
            t.contains("MOV %r6, %r32 ;") && t.contains("MOV %r7, %r33 ;"),
            "{t}"
        );
        assert!(t.contains("IADD3 %r32, %p3, %r32, -0x4, RZ ;"), "{t}");
        assert!(
            t.contains("IADD3.X %r33, %r33, -0x1, RZ, %p3, !PT ;"),
            "{t}"
        );
        assert!(!f
            .insts()
            .any(|i| i.op == Op::IMAD && f.blocks[2].insts.contains(i)));
        // Unsigned: .WIDE.U32 under an unsigned test, bump zext(0xc).
        let mut g = top_tested("GE.U32", "IMAD.WIDE.U32 %r6, %r0, 0xc, RZ ;", 1);
        assert_eq!(strength_reduce(&mut g), 1, "{}", text(&g));
        assert!(text(&g).contains("IADD3.X %r33, %r33, 0x0, RZ, %p3, !PT ;"));
        // `n > i` spelled the other way round: ISETP.LE n, i exits.
        let mut h = func(
            ".L_x_0:
             MOV %r0, c[0x0][0x160] ;
             MOV %r9, c[0x0][0x164] ;
             .L_x_1:
             ISETP.LE.AND %p1, PT, %r9, %r0, PT ;
             @%p1 BRA .L_x_3 ;
             .L_x_2:
             IMAD.WIDE %r6, %r0, 0x8, RZ ;
             STG.E.64 [%r8.64], %r6 ;
             IADD3 %r0, %r0, 0x1, RZ ;
             BRA .L_x_1 ;
             .L_x_3:
             EXIT ;",
        );
        assert_eq!(strength_reduce(&mut h), 1, "{}", text(&h));
    }

    #[test]
    fn wide_products_the_rule_does_not_prove_are_refused() {
        let refused = |f: Function, why: &str| {
            let mut g = f.clone();
            assert_eq!(strength_reduce(&mut g), 0, "{why}: {}", text(&g));
            assert_eq!(g, f, "{why}");
        };
        // Step 2.
        refused(
            top_tested("GE", "IMAD.WIDE %r6, %r0, 0xc, RZ ;", 2),
            "step 2",
        );
        // A signed product under an unsigned test (i may pass INT_MAX).
        refused(
            top_tested("GE.U32", "IMAD.WIDE %r6, %r0, 0xc, RZ ;", 1),
            "unsigned test, signed product",
        );
        // An unsigned product under a signed test (i may pass UINT_MAX).
        refused(
            top_tested("GE", "IMAD.WIDE.U32 %r6, %r0, 0xc, RZ ;", 1),
            "signed test, unsigned product",
        );
        // i <= n allows n = INT_MAX: i + 1 may wrap.
        refused(
            top_tested("GT", "IMAD.WIDE %r6, %r0, 0xc, RZ ;", 1),
            "i <= n",
        );
        // A register multiplier.
        refused(
            top_tested("GE", "IMAD.WIDE %r6, %r0, %r9, RZ ;", 1),
            "register multiplier",
        );
        // Bottom-tested: the first increment runs before any test.
        refused(
            looped(
                "IMAD.WIDE %r6, %r0, 0xc, RZ ;
                    STG.E.64 [%r4.64], %r6 ;",
            ),
            "bottom-tested",
        );
        let mut bottom = func(
            ".L_x_0:
             MOV %r0, c[0x0][0x160] ;
             .L_x_1:
             MOV %r8, c[0x0][0x164] ;
             .L_x_2:
             IMAD.WIDE %r6, %r0, 0xc, RZ ;
             STG.E.64 [%r4.64], %r6 ;
             IADD3 %r0, %r0, 0x1, RZ ;
             ISETP.LT.AND %p0, PT, %r0, %r8, PT ;
             @%p0 BRA .L_x_2 ;
             .L_x_3:
             EXIT ;",
        );
        assert_eq!(strength_reduce(&mut bottom), 0, "bottom-tested step 1");
        // n written in the loop.
        refused(
            func(
                ".L_x_0:
                 MOV %r0, c[0x0][0x160] ;
                 MOV %r9, c[0x0][0x164] ;
                 .L_x_1:
                 ISETP.GE.AND %p1, PT, %r0, %r9, PT ;
                 @%p1 BRA .L_x_3 ;
                 .L_x_2:
                 IMAD.WIDE %r6, %r0, 0x8, RZ ;
                 STG.E.64 [%r8.64], %r6 ;
                 IADD3 %r9, %r9, 0x1, RZ ;
                 IADD3 %r0, %r0, 0x1, RZ ;
                 BRA .L_x_1 ;
                 .L_x_3:
                 EXIT ;",
            ),
            "variant bound",
        );
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
