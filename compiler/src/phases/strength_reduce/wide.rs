//! OriStrengthReduce on 64-bit products of the counter (`IMAD.WIDE`,
//! `IMAD.WIDE.U32`): the candidate, the proof that the counter does not
//! wrap, and the 64-bit running sum. The rule and why it is sufficient are
//! in the parent module's doc ("Wide products").

use super::super::loop_util::{plain_gpr, LoopView};
use crate::ir::loops::Loop;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{Pred, Reg};
use crate::ir::{Function, Inst, Op, Operand};
use std::collections::BTreeMap;

/// `IMAD.WIDE[.U32] d, i, M, RZ` with `M` an immediate.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wide {
    pub i: RegUnit,
    /// The 64-bit increment of the product per unit step of `i`:
    /// `ext(M)` (sign-extended for `.WIDE`, zero-extended for `.U32`).
    pub delta: u64,
    pub signed: bool,
}

/// A 32-bit immediate's bits (`-0x4` and `0xfffffffc` alike).
fn imm_bits(v: i64) -> Option<u32> {
    i32::try_from(v)
        .map(|x| x as u32)
        .ok()
        .or_else(|| u32::try_from(v).ok())
}

/// The wide candidate form, unguarded, base `RZ` (DECISION: an invariant
/// register pair as the base would be read in the preheader, where a
/// zero-trip loop never read it; and no lowering here fuses one).
pub(super) fn wide_candidate(inst: &Inst) -> Option<Wide> {
    if inst.op != Op::IMAD || inst.guard.is_some() || inst.ndst != 1 {
        return None;
    }
    let signed = match &inst.mods[..] {
        ["WIDE"] => true,
        ["WIDE", "U32"] => false,
        _ => return None,
    };
    let s = inst.srcs();
    if s.len() != 3 || !matches!(&s[2], Operand::Reg(r) if r.reg == Reg::Rz && !r.neg && !r.not) {
        return None;
    }
    let i = plain_gpr(&s[0])?;
    let Operand::Imm(m) = s[1] else {
        return None;
    };
    let m = imm_bits(m)?;
    let delta = if signed {
        m as i32 as i64 as u64
    } else {
        u64::from(m)
    };
    Some(Wide { i, delta, signed })
}

fn negate(cmp: &str) -> &'static str {
    match cmp {
        "LT" => "GE",
        "GE" => "LT",
        "LE" => "GT",
        "GT" => "LE",
        "EQ" => "NE",
        _ => "EQ",
    }
}

/// `ISETP.cmp[.U32].AND p, PT, a, b, PT` (unguarded): (cmp, unsigned, a, b).
fn isetp(inst: &Inst, p: RegUnit) -> Option<(&'static str, bool, &Operand, &Operand)> {
    if inst.op != Op::ISETP || !regs::kills(inst) || inst.operands.len() != 5 {
        return None;
    }
    let cmp = inst
        .mods
        .iter()
        .copied()
        .find(|m| matches!(*m, "LT" | "LE" | "GT" | "GE" | "EQ" | "NE"))?;
    let unsigned = inst.has_mod("U32");
    let known = inst
        .mods
        .iter()
        .all(|m| *m == cmp || *m == "U32" || *m == "AND");
    if !known || !inst.has_mod("AND") {
        return None;
    }
    let pt = Operand::Pred {
        pred: Pred::Pt,
        not: false,
    };
    match (&inst.operands[0], &inst.operands[4]) {
        (Operand::Pred { pred, not: false }, last) if *last == pt => {
            (RegUnit::of_pred(*pred)? == p).then_some(())?
        }
        _ => return None,
    }
    Some((cmp, unsigned, &inst.operands[2], &inst.operands[3]))
}

/// Whether `o` has the same value on every iteration of the loop.
fn invariant(o: &Operand, defs: &BTreeMap<RegUnit, usize>) -> bool {
    match o {
        Operand::Imm(_) => true,
        Operand::Const(c) => c.reg.is_none(),
        o => plain_gpr(o).is_some_and(|u| defs.get(&u).copied().unwrap_or(0) == 0),
    }
}

/// Whether block `b` can reach itself inside the loop without passing the
/// header (it could then run twice in one iteration).
fn cycles_below_header(v: &LoopView, l: &Loop, b: usize) -> bool {
    let mut seen = vec![false; v.cfg.succs.len()];
    let mut work: Vec<usize> = v.cfg.succs[b].clone();
    while let Some(x) = work.pop() {
        if x == l.header || l.blocks.binary_search(&x).is_err() || seen[x] {
            continue;
        }
        if x == b {
            return true;
        }
        seen[x] = true;
        work.extend(v.cfg.succs[x].iter().copied());
    }
    false
}

/// The block holding the passed test `i < n` that precedes, in the same
/// iteration, every execution of the increment of `i` in block `ib` (the
/// parent module's rule), `None` when there is no such test.
pub(super) fn checked_exit(
    f: &Function,
    v: &LoopView,
    l: &Loop,
    defs: &BTreeMap<RegUnit, usize>,
    i: RegUnit,
    ib: usize,
    signed: bool,
) -> Option<usize> {
    if cycles_below_header(v, l, ib) {
        return None;
    }
    v.exiting_blocks(l).into_iter().find(|&e| {
        let test = || -> Option<()> {
            if e == ib {
                return None;
            }
            let insts = &f.blocks[e].insts;
            let br = insts.last()?;
            let g = br.guard?;
            if br.op != Op::BRA || br.has_mod("DIV") || br.srcs().len() != 1 {
                return None;
            }
            let target = br.targets().next().and_then(|t| f.block_index(t))?;
            // The in-loop successor, entered only from `e`, dominating the
            // increment.
            let succs = &v.cfg.succs[e];
            let inside: Vec<usize> = succs
                .iter()
                .copied()
                .filter(|s| l.blocks.binary_search(s).is_ok())
                .collect();
            let [s] = inside[..] else {
                return None;
            };
            if succs.len() != 2 || s == l.header || v.cfg.preds[s] != [e] || !v.dom.dominates(s, ib)
            {
                return None;
            }
            // On the edge e -> s the predicate is `taken` when s is the
            // branch target (`@p` taken when p, `@!p` when !p).
            let p = RegUnit::of_pred(g.pred)?;
            let p_holds = if s == target {
                !g.negated
            } else if s == e + 1 {
                g.negated
            } else {
                return None;
            };
            // The last definition of p in e, before the branch.
            let k = insts.len() - 1;
            let d = (0..k).rev().find(|&j| regs::defs(&insts[j]).contains(&p))?;
            let (cmp, unsigned, a, b) = isetp(&insts[d], p)?;
            if unsigned == signed {
                return None;
            }
            let rel = if p_holds { cmp } else { negate(cmp) };
            let ok = match (plain_gpr(a) == Some(i), plain_gpr(b) == Some(i)) {
                (true, false) => rel == "LT" && invariant(b, defs),
                (false, true) => rel == "GT" && invariant(a, defs),
                _ => false,
            };
            ok.then_some(())
        };
        test().is_some()
    })
}

/// The 64-bit bump `t:t+1 += delta` (the lowering's 64-bit add: `IADD3`
/// with a carry out, `IADD3.X` with the carry in).
pub(super) fn bump(t: u32, p: u32, delta: u64) -> Option<[Inst; 2]> {
    let r = |n: u32| super::reg_op(Reg::V(n));
    let lo = i64::from(delta as u32 as i32);
    let hi = i64::from((delta >> 32) as u32 as i32);
    let pv = |not: bool| Operand::Pred {
        pred: Pred::V(p),
        not,
    };
    let pt = Operand::Pred {
        pred: Pred::Pt,
        not: true,
    };
    let rz = super::reg_op(Reg::Rz);
    Some([
        Inst::new(
            Op::IADD3,
            &[],
            None,
            [r(t), pv(false), r(t), Operand::Imm(lo), rz.clone()],
        )
        .ok()?,
        Inst::new(
            Op::IADD3,
            &["X"],
            None,
            [r(t + 1), r(t + 1), Operand::Imm(hi), rz, pv(false), pt],
        )
        .ok()?,
    ])
}
