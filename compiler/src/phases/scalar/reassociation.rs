//! Integer reassociation (OriReassociateAndCommon, 50): a chain of
//! additions or of multiplications by constants is re-formed around its
//! leaves, its constants combined.
//!
//! ```text
//! IADD3 %r2, %r1, 0x4, RZ ;          IADD3 %r2, %r1, 0x4, RZ ;
//! IADD3 %r3, %r2, 0x8, RZ ;     ->   IADD3 %r3, %r1, 0xc, RZ ;
//! IMAD %r5, %r4, 0x3, RZ ;           IMAD %r5, %r4, 0x3, RZ ;
//! IMAD %r6, %r5, 0x5, RZ ;      ->   IMAD %r6, %r4, 0xf, RZ ;
//! ```
//!
//! A source register is expanded into the instruction that computed it
//! only when that computation is an available expression fact
//! ([`super::cse::analyze`]): it ran on every path to here and neither its
//! sources nor its result were overwritten since, so its sources still
//! hold what they held then. The expanded form is read from the function
//! as the analysis saw it (an earlier rewrite in the same sweep may have
//! changed the computing instruction's sources, which its fact does not
//! watch). Arithmetic is modulo 2^32, as IADD3 and 32-bit IMAD compute:
//! `(x + a) + b = x + (a + b)` and `(x * a) * b = x * (a * b)` hold
//! exactly. Sums are formed only from terms with no modifier other than
//! `-`, and at most three terms (one immediate) remain.
//!
//! The leftover intermediate is dead when nothing else reads it and the
//! dead-code phases remove it; the commoning half is [`super::cse`].

use super::fold::{int_value, plain};
use crate::ir::analysis_cache::{self, Pass};
use crate::ir::cfg::Cfg;
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::Op;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::Reg;
use crate::ir::Function;

fn plain_iadd3(i: &Inst) -> bool {
    i.op == Op::IADD3
        && i.ndst == 1
        && i.srcs().len() == 3
        && i.mods.is_empty()
        && matches!(i.operands[0], Operand::Reg(_))
}

fn imad_by_const(i: &Inst) -> Option<(Operand, u32)> {
    if i.op != Op::IMAD
        || i.ndst != 1
        || i.srcs().len() != 3
        || !i
            .mods
            .iter()
            .all(|m| matches!(*m, "U32" | "SHL" | "MOV" | "IADD"))
        || int_value(&i.srcs()[2]) != Some(0)
    {
        return None;
    }
    let s = i.srcs();
    match (int_value(&s[0]), int_value(&s[1])) {
        (None, Some(k)) if super::fold::is_plain_reg(&s[0]) => Some((s[0].clone(), k)),
        (Some(k), None) if super::fold::is_plain_reg(&s[1]) => Some((s[1].clone(), k)),
        _ => None,
    }
}

fn negate(o: &Operand) -> Option<Operand> {
    match o {
        Operand::Reg(r) if !r.not && !r.abs && r.sel.is_none() => {
            let mut r = r.clone();
            r.neg = !r.neg;
            Some(Operand::Reg(r))
        }
        _ => None,
    }
}

/// The sum `terms` as one IADD3 (or MOV), if it fits.
fn build_sum(j: &Inst, terms: Vec<Operand>) -> Option<Inst> {
    let mut k = 0u32;
    let mut regs_: Vec<Operand> = Vec::new();
    for t in terms {
        match int_value(&t) {
            Some(v) => k = k.wrapping_add(v),
            None => match &t {
                Operand::Reg(r) if !r.not && !r.abs && r.sel.is_none() => regs_.push(t),
                _ => return None,
            },
        }
    }
    if regs_.is_empty() || regs_.len() + usize::from(k != 0) > 3 {
        return None;
    }
    let mut srcs = vec![regs_[0].clone()];
    if k != 0 {
        srcs.push(Operand::Imm(i64::from(k as i32)));
    }
    srcs.extend(regs_[1..].iter().cloned());
    while srcs.len() < 3 {
        srcs.push(plain(Reg::Rz));
    }
    let mut ops = vec![j.operands[0].clone()];
    ops.extend(srcs);
    Inst::new(Op::IADD3, &[], j.guard, ops).ok()
}

/// One sweep; returns the count of instructions re-formed.
///
/// A function this pass already left unchanged is returned at once
/// ([`analysis_cache`]).
pub fn reassociate(f: &mut Function) -> usize {
    analysis_cache::unless_clean(f, Pass::Reassociate, reassociate_once)
}

/// One run of [`reassociate`].
fn reassociate_once(f: &mut Function) -> usize {
    let cfg = Cfg::new(f);
    let av = super::cse::analyze(f, &cfg, false);
    if av.facts.is_empty() {
        return 0;
    }
    let orig = f.clone();
    let mut by_dst: rustc_hash::FxHashMap<RegUnit, Vec<usize>> = Default::default();
    for (k, fa) in av.facts.iter().enumerate() {
        if fa.kind.dsts.len() == 1 {
            by_dst.entry(fa.kind.dsts[0]).or_default().push(k);
        }
    }
    let mut n = 0;
    for b in 0..f.blocks.len() {
        if !cfg.reachable[b] {
            continue;
        }
        let mut set = av.block_in[b].clone();
        for i in 0..f.blocks[b].insts.len() {
            let j = &orig.blocks[b].insts[i];
            let def_of = |o: &Operand| -> Option<&Inst> {
                let Operand::Reg(r) = o else { return None };
                let u = RegUnit::of_reg(r.reg, 0)?;
                let k = by_dst.get(&u)?.iter().find(|&&k| set.contains(k))?;
                let at = av.facts[*k].at;
                Some(&orig.blocks[at.0].insts[at.1])
            };
            let mut new = None;
            if plain_iadd3(j) && regs::operand_width(j, 1) == 1 {
                let s = j.srcs();
                for slot in 0..3 {
                    let Some(d) = def_of(&s[slot]) else { continue };
                    if !plain_iadd3(d) {
                        continue;
                    }
                    let neg = matches!(&s[slot], Operand::Reg(r) if r.neg);
                    let mut terms: Vec<Operand> = s
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| k != slot)
                        .map(|(_, o)| o.clone())
                        .collect();
                    let inner: Option<Vec<Operand>> = d
                        .srcs()
                        .iter()
                        .map(|o| {
                            if !neg {
                                Some(o.clone())
                            } else if let Some(v) = int_value(o) {
                                Some(Operand::Imm(i64::from(v.wrapping_neg() as i32)))
                            } else {
                                negate(o)
                            }
                        })
                        .collect();
                    let Some(inner) = inner else { continue };
                    terms.extend(inner);
                    if let Some(x) = build_sum(j, terms) {
                        new = Some(x);
                        break;
                    }
                }
            } else if let Some((u, k2)) = imad_by_const(j) {
                if let Some(d) = def_of(&u) {
                    if let Some((x, k1)) = imad_by_const(d) {
                        let mut ops = vec![j.operands[0].clone(), x];
                        ops.push(Operand::Imm(i64::from(k1.wrapping_mul(k2) as i32)));
                        ops.push(plain(Reg::Rz));
                        new = Inst::new(Op::IMAD, &[], j.guard, ops).ok();
                    }
                }
            }
            if let Some(x) = new {
                if x != f.blocks[b].insts[i] {
                    f.blocks[b].insts[i] = x;
                    n += 1;
                }
            }
            av.step_at(&mut set, (b, i));
        }
    }
    n
}
