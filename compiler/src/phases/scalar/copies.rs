//! Copy and constant propagation over available copy facts
//! ([`super::facts`]): ptxas's OriCopyProp (docs/MODEL.md, OriPerformLiveDead and OriCopyProp: "for each use of a copied
//! register: if the source register is still available (not redefined
//! since the copy), replace the use with the original source"), global
//! across blocks.
//!
//! A copy fact comes from an unguarded `MOV d, s` / `UMOV d, s` /
//! `IMAD.MOV.U32 d, RZ, RZ, s` with a 32-bit destination and a source with
//! no modifier: a register (`RZ` included), an integer immediate or a
//! constant-bank operand. A use is rewritten when the fact for its
//! register is available there:
//!
//! - a 32-bit register source takes the copied register (same register
//!   file; the use keeps its own modifiers and selector);
//! - a 64-bit register or address base (`[%r4.64]`) is rewritten only when
//!   both words are available copies of the two words of one aligned pair;
//! - an immediate or constant-bank value is substituted only into the
//!   operand slots SASS encodes one in (`MOV`'s source; the second source
//!   of `IADD3`, `LOP3`, `SHF`, `ISETP`, `SEL`, `IMNMX`, `PRMT`, `LEA`; the
//!   second or third of a 32-bit `IMAD`, the second of `IMAD.WIDE`; for
//!   `FADD`/`FMUL`/`FFMA` constant-bank operands only, second slot, or
//!   third of `FFMA`), into a use with no modifier, and only when the
//!   instruction keeps at most one non-register source. A value for the
//!   first source of a commutative pair (`IADD3`, `IMAD`, `FFMA`, `FADD`,
//!   `FMUL`) goes to the second slot, the register there moving to the
//!   first.
//!
//! Guards, destinations, `CALL`'s implicit reads and predicate operands are
//! never rewritten.

use super::facts::Available;
use super::fold::is_plain_reg;
use crate::ir::analysis_cache::{self, Pass};
use crate::ir::cfg::Cfg;
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::{match_shape, Op};
use crate::ir::regs::{self, RegUnit, Units};
use crate::ir::sass_text::Reg;
use crate::ir::Function;

/// A copy fact's payload: `dst` holds `src`.
#[derive(Clone, Debug)]
pub struct Copy {
    pub dst: RegUnit,
    pub src: Operand,
}

/// The register a unit names.
pub fn unit_reg(u: RegUnit) -> Option<Reg> {
    Some(match u {
        RegUnit::R(n) => Reg::R(n),
        RegUnit::VR(n) => Reg::V(n),
        RegUnit::UR(n) => Reg::Ur(n),
        RegUnit::VUR(n) => Reg::Uv(n),
        _ => return None,
    })
}

fn is_uniform(r: Reg) -> bool {
    matches!(r, Reg::Ur(_) | Reg::Uv(_) | Reg::Urz)
}

/// The copy an instruction makes, if it is one (see the module comment).
pub fn copy_of(inst: &Inst) -> Option<Copy> {
    let src = match inst.op {
        Op::MOV | Op::UMOV if inst.operands.len() == 2 && inst.ndst == 1 => &inst.operands[1],
        Op::IMAD
            if inst.ndst == 1
                && inst.operands.len() == 4
                && inst.mods.iter().all(|m| matches!(*m, "MOV" | "U32"))
                && inst.has_mod("MOV")
                && super::fold::int_value(&inst.operands[1]) == Some(0)
                && super::fold::int_value(&inst.operands[2]) == Some(0) =>
        {
            &inst.operands[3]
        }
        _ => return None,
    };
    let Operand::Reg(d) = &inst.operands[0] else {
        return None;
    };
    if regs::operand_width(inst, 0) != 1 {
        return None;
    }
    let dst = RegUnit::of_reg(d.reg, 0)?;
    let ok = match src {
        Operand::Reg(r) => is_plain_reg(src) && is_uniform(r.reg) == is_uniform(d.reg),
        Operand::Imm(_) => true,
        Operand::Const(c) => !c.neg && !c.abs && !c.not,
        _ => false,
    };
    ok.then(|| Copy {
        dst,
        src: src.clone(),
    })
}

/// The available copy facts of `f`.
pub fn analyze(f: &Function, cfg: &Cfg) -> Available<Copy> {
    // A copy watches its source (the uses) and its destination.
    Available::new(f, cfg, |_, inst, _| {
        copy_of(inst).map(|c| {
            let dst: Units = smallvec::smallvec![c.dst];
            (c, dst, false)
        })
    })
}

/// The source slots (indices into `srcs()`) of `inst` that may hold an
/// immediate (`imm`) or a constant-bank operand (`!imm`). Float opcodes
/// take constant-bank operands only (an integer immediate there would be
/// read as raw bits: right in the simulator, but not ptxas' spelling).
fn imm_slots(inst: &Inst, imm: bool) -> &'static [usize] {
    match inst.op {
        Op::MOV | Op::UMOV => &[0],
        Op::IADD3 | Op::LOP3 | Op::SHF | Op::ISETP | Op::SEL | Op::IMNMX | Op::PRMT | Op::LEA => {
            &[1]
        }
        Op::IMAD if !inst.has_mod("WIDE") && !inst.has_mod("HI") => &[1, 2],
        Op::IMAD => &[1],
        Op::FADD | Op::FMUL if !imm => &[1],
        Op::FFMA if !imm => &[1, 2],
        _ => &[],
    }
}

/// Whether sources 0 and 1 of `inst` may be exchanged without changing
/// what it computes: the first two terms of `IADD3` (a sum, carries
/// included), the factors of `IMAD` and `FFMA`, the operands of `FADD` and
/// `FMUL` (the float results are canonical NaNs either way: `ptxc::float`).
fn swappable(inst: &Inst) -> bool {
    matches!(
        inst.op,
        Op::IADD3 | Op::IMAD | Op::FFMA | Op::FADD | Op::FMUL
    ) && inst.srcs().len() >= 2
}

fn non_reg_sources(inst: &Inst) -> usize {
    inst.srcs()
        .iter()
        .filter(|o| {
            matches!(
                o,
                Operand::Imm(_) | Operand::FloatImm(_) | Operand::Const(_)
            )
        })
        .count()
}

/// Rewrites the sources of every instruction from the copy facts; returns
/// how many operands changed.
///
/// A function this pass already left unchanged is returned at once
/// ([`analysis_cache`]).
pub fn propagate(f: &mut Function) -> usize {
    analysis_cache::unless_clean(f, Pass::CopyProp, propagate_once)
}

/// [`propagate`], and when it changed nothing, the cache's answer for `f`
/// ([`analysis_cache::unless_clean_seen`]).
pub fn propagate_seen(f: &mut Function) -> (usize, analysis_cache::Seen) {
    analysis_cache::unless_clean_seen(f, Pass::CopyProp, propagate_once)
}

/// One run of [`propagate`].
fn propagate_once(f: &mut Function) -> usize {
    let cfg = Cfg::new(f);
    let av = analyze(f, &cfg);
    if av.facts.is_empty() {
        return 0;
    }
    let mut by_dst: rustc_hash::FxHashMap<RegUnit, Vec<usize>> = Default::default();
    for (k, fa) in av.facts.iter().enumerate() {
        by_dst.entry(fa.kind.dst).or_default().push(k);
    }
    let mut n = 0;
    for b in 0..f.blocks.len() {
        if !cfg.reachable[b] {
            continue;
        }
        let mut set = av.block_in[b].clone();
        for i in 0..f.blocks[b].insts.len() {
            let lookup = |u: RegUnit| -> Option<&Copy> {
                by_dst
                    .get(&u)?
                    .iter()
                    .find(|&&k| set.contains(k))
                    .map(|&k| &av.facts[k].kind)
            };
            let inst = &f.blocks[b].insts[i];
            // The rewritten instruction, cloned at its first change (most
            // instructions have none).
            let mut new: Option<Inst> = None;
            let nd = inst.ndst as usize;
            for idx in nd..inst.operands.len() {
                // Only registers and addresses are rewritten: the width of
                // the other operands (immediates, predicates, constants) is
                // not needed.
                let w = match &inst.operands[idx] {
                    Operand::Reg(_) | Operand::Mem(_) => regs::operand_width(inst, idx),
                    _ => 0,
                };
                match &inst.operands[idx] {
                    Operand::Reg(r) if w == 1 => {
                        let Some(u) = RegUnit::of_reg(r.reg, 0) else {
                            continue;
                        };
                        let Some(c) = lookup(u) else { continue };
                        match &c.src {
                            Operand::Reg(s) if is_uniform(s.reg) == is_uniform(r.reg) => {
                                let new = new.get_or_insert_with(|| inst.clone());
                                if let Operand::Reg(nr) = &mut new.operands[idx] {
                                    nr.reg = s.reg;
                                    nr.reuse = false;
                                }
                            }
                            Operand::Imm(_) | Operand::Const(_)
                                if is_plain_reg(&inst.operands[idx])
                                    && non_reg_sources(new.as_ref().unwrap_or(inst)) == 0 =>
                            {
                                let imm = matches!(c.src, Operand::Imm(_));
                                let slots = imm_slots(inst, imm);
                                if slots.contains(&(idx - nd)) {
                                    new.get_or_insert_with(|| inst.clone()).operands[idx] =
                                        c.src.clone();
                                } else if idx == nd
                                    && swappable(inst)
                                    && slots.contains(&1)
                                    && matches!(
                                        new.as_ref().unwrap_or(inst).operands[nd + 1],
                                        Operand::Reg(_)
                                    )
                                    && regs::operand_width(inst, nd + 1) == 1
                                {
                                    // The value goes where SASS encodes it,
                                    // the other operand takes its place.
                                    let new = new.get_or_insert_with(|| inst.clone());
                                    new.operands[nd] = new.operands[nd + 1].clone();
                                    new.operands[nd + 1] = c.src.clone();
                                }
                            }
                            _ => {}
                        }
                    }
                    Operand::Reg(r) if w == 2 => {
                        if let Some(s) = pair_source(r.reg, &lookup) {
                            let new = new.get_or_insert_with(|| inst.clone());
                            if let Operand::Reg(nr) = &mut new.operands[idx] {
                                nr.reg = s;
                                nr.reuse = false;
                            }
                        }
                    }
                    Operand::Mem(m) if w == 2 && m.desc.is_none() => {
                        if let Some(base) = m.base {
                            if let Some(s) = pair_source(base.reg, &lookup) {
                                let new = new.get_or_insert_with(|| inst.clone());
                                if let Operand::Mem(nm) = &mut new.operands[idx] {
                                    nm.base.as_mut().unwrap().reg = s;
                                }
                            }
                        }
                    }
                    Operand::Mem(m) if w == 1 && m.desc.is_none() => {
                        if let Some(base) = m.base {
                            if let Some(u) = RegUnit::of_reg(base.reg, 0) {
                                if let Some(Copy {
                                    src: Operand::Reg(s),
                                    ..
                                }) = lookup(u)
                                {
                                    if is_uniform(s.reg) == is_uniform(base.reg)
                                        && !matches!(s.reg, Reg::Rz | Reg::Urz)
                                    {
                                        let new = new.get_or_insert_with(|| inst.clone());
                                        if let Operand::Mem(nm) = &mut new.operands[idx] {
                                            nm.base.as_mut().unwrap().reg = s.reg;
                                        }
                                    }
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            // Fold what the known constants make foldable.
            let known = |r: Reg| -> Option<u32> {
                match &lookup(RegUnit::of_reg(r, 0)?)?.src {
                    Operand::Imm(v) => Some(*v as u32),
                    Operand::Reg(s) if matches!(s.reg, Reg::Rz | Reg::Urz) => Some(0),
                    _ => None,
                }
            };
            let mut folded = false;
            let cur = new.as_ref().unwrap_or(inst);
            if let Some(x) = super::fold::simplify_with(cur, &known) {
                if x != *cur && regs::defs(&x) == regs::defs(inst) {
                    new = Some(x);
                    folded = true;
                }
            }
            let Some(mut new) = new else {
                av.step_at(&mut set, (b, i));
                continue;
            };
            let info = new.op.info();
            if new != *inst && match_shape(info.name, info.shapes, &new.operands).is_ok() {
                let changed = if folded {
                    1
                } else {
                    new.operands
                        .iter()
                        .zip(&inst.operands)
                        .filter(|(a, b)| a != b)
                        .count()
                };
                new.encoding = None;
                n += changed;
                f.blocks[b].insts[i] = new;
                av.step(&mut set, (b, i), &f.blocks[b].insts[i]);
            } else {
                av.step_at(&mut set, (b, i));
            }
        }
    }
    n
}

/// The aligned pair both words of `r` copy, if any.
fn pair_source<'a>(r: Reg, lookup: &impl Fn(RegUnit) -> Option<&'a Copy>) -> Option<Reg> {
    let lo = lookup(RegUnit::of_reg(r, 0)?)?;
    let hi = lookup(RegUnit::of_reg(r, 1)?)?;
    let (Operand::Reg(a), Operand::Reg(b)) = (&lo.src, &hi.src) else {
        return None;
    };
    let ua = RegUnit::of_reg(a.reg, 0)?;
    let ub = RegUnit::of_reg(b.reg, 0)?;
    let even = match ua {
        RegUnit::R(n) | RegUnit::UR(n) => n % 2 == 0,
        RegUnit::VR(n) | RegUnit::VUR(n) => n % 2 == 0,
        _ => false,
    };
    (even && RegUnit::of_reg(a.reg, 1) == Some(ub) && is_uniform(a.reg) == is_uniform(r))
        .then_some(a.reg)
}
