//! Common-subexpression elimination over available expression facts
//! ([`super::facts`]): GvnCse (49), LateOriCommoning (64) and the
//! commoning half of OriReassociateAndCommon (50).
//!
//! An *expression* is an instruction's opcode, modifiers and sources (the
//! `.reuse` hint ignored; the operands of a commutative operation sorted:
//! the three terms of a carry-free `IADD3`, the factors of a 32-bit
//! `IMAD`, both sources of `FADD`/`FMUL`, the factors of `FFMA`), so
//! value numbering is by equal opcode over equal sources, and copy
//! propagation before it makes equal values equal names. An unguarded
//! instruction computing an expression generates a fact watching its
//! destinations and every register it reads. When an instruction computes
//! an expression whose fact is available (some earlier instruction computed
//! it on every path to here, and neither its sources nor its result were
//! overwritten since), it is replaced by copies of that result (`MOV`, one
//! per 32-bit word; a guarded instruction's copies keep its guard).
//!
//! Availability on all paths is at least what value numbering over the
//! dominator tree finds (a dominating computation whose registers are not
//! redefined on any path is available), and stays sound when registers have
//! several definitions or are physical.
//!
//! What may be merged:
//! - pure computations: integer, float, conversion, special-function and
//!   data-movement opcodes with no side effect in the opcode table (no
//!   warp-collective, control, barrier, memory or `KEEP` effect), whose
//!   destinations are registers (an instruction with a predicate
//!   destination other than `PT`, such as a carry-out, is never merged);
//! - `S2R` of `SR_TID.*`, `SR_CTAID.*` and `SR_LANEID` (fixed for a
//!   thread); never clocks, timers, or masks that depend on divergence;
//! - with `loads`: `LDC` (constant memory is read-only during a launch)
//!   and weak `LDG`/`LDS`/`LDL` (no `.STRONG`, `.MMIO`, scope or
//!   `.PRIVATE` qualifier); a load fact is killed by every store, atomic,
//!   barrier, fence, convergence operation and call in between
//!   ([`super::facts::clobbers_memory`]), since one may write the address.

use super::copies::unit_reg;
use super::facts::Available;
use super::fold::mov_like;
use crate::ir::analysis_cache::{self, Pass};
use crate::ir::cfg::Cfg;
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::{Category, Effects, Op};
use crate::ir::regs::{self, RegFile, Units};
use crate::ir::sass_text::{Pred, Reg};
use crate::ir::Function;

/// An expression: opcode, modifiers, destination widths and the sources
/// (`.reuse` cleared; a commutative range in a canonical order). Compared
/// structurally (it was a formatted string: formatting every operand of
/// every instruction cost 7% of the engine's compile time).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExprKey {
    op: Op,
    mods: smallvec::SmallVec<[&'static str; 4]>,
    widths: smallvec::SmallVec<[u8; 2]>,
    srcs: smallvec::SmallVec<[Operand; 5]>,
}

/// An expression fact's payload.
#[derive(Clone, Debug)]
pub struct Expr {
    pub key: ExprKey,
    /// Destination units, in operand order.
    pub dsts: Units,
}

fn commutative(inst: &Inst) -> Option<std::ops::Range<usize>> {
    let nd = inst.ndst as usize;
    match inst.op {
        Op::IADD3 if inst.ndst == 1 && inst.srcs().len() == 3 && inst.mods.is_empty() => {
            Some(nd..nd + 3)
        }
        Op::IMAD if !inst.has_mod("WIDE") && !inst.has_mod("HI") && !inst.has_mod("X") => {
            Some(nd..nd + 2)
        }
        Op::FADD | Op::FMUL | Op::FFMA => Some(nd..nd + 2),
        _ => None,
    }
}

fn operand_key(o: &Operand) -> Operand {
    match o {
        Operand::Reg(r) => {
            let mut r = r.clone();
            r.reuse = false;
            Operand::Reg(r)
        }
        _ => o.clone(),
    }
}

/// A fixed (FxHash) order of operands, for the canonical order of a
/// commutative range: deterministic; equal operands sort together, and two
/// different operands with equal hashes keep their order (at worst a missed
/// merge, never a wrong one: keys are compared whole).
fn operand_rank(o: &Operand) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(o)
}

/// The expression key of `inst`, or `None` when it may not be merged.
pub fn key_of(inst: &Inst, loads: bool) -> Option<ExprKey> {
    let info = inst.op.info();
    if !info.is_modelled() || inst.op == Op::UNDECODED {
        return None;
    }
    let e = info.effects;
    let pure_cat = matches!(
        info.category,
        Category::IntAlu
            | Category::Fp32
            | Category::Fp64
            | Category::Fp16
            | Category::Conversion
            | Category::SpecialFunction
            | Category::DataMovement
            | Category::Uniform
    );
    let ok = match inst.op {
        Op::S2R => inst.srcs().iter().all(|o| {
            matches!(o, Operand::Special(s)
                if s.starts_with("SR_TID") || s.starts_with("SR_CTAID") || s == "SR_LANEID")
        }),
        Op::LDC => loads,
        Op::LDG | Op::LDS | Op::LDL => {
            loads
                && !inst.mods.iter().any(|m| {
                    matches!(
                        *m,
                        "STRONG" | "MMIO" | "SYS" | "GPU" | "CTA" | "SM" | "PRIVATE"
                    )
                })
        }
        // Clocks (CS2R), uniform special registers, and P2R (reads the
        // whole predicate file, virtual predicates not among its uses).
        Op::CS2R | Op::S2UR | Op::P2R => false,
        // Copies are copy propagation's: merging `MOV a, x` with `MOV b, x`
        // into `MOV b, a` would only be undone by it.
        _ if super::copies::copy_of(inst).is_some() => false,
        _ => pure_cat && e == Effects::NONE && inst.op != Op::NOP,
    };
    if !ok {
        return None;
    }
    // Register destinations only (a `PT` destination is no destination).
    if inst.ndst == 0 {
        return None;
    }
    for d in inst.dsts() {
        match d {
            Operand::Reg(r) if !matches!(r.reg, Reg::Rz | Reg::Urz) => {}
            Operand::Pred {
                pred: Pred::Pt | Pred::Upt,
                ..
            } => {}
            _ => return None,
        }
    }
    let mut srcs: smallvec::SmallVec<[Operand; 5]> = inst.srcs().iter().map(operand_key).collect();
    if let Some(r) = commutative(inst) {
        let nd = inst.ndst as usize;
        srcs[r.start - nd..r.end - nd].sort_by_key(operand_rank);
    }
    Some(ExprKey {
        op: inst.op,
        mods: inst.mods.clone(),
        // The shape of the destinations matters (a `.64` load is not a
        // `.32`).
        widths: (0..inst.ndst as usize)
            .map(|i| regs::operand_width(inst, i))
            .collect(),
        srcs,
    })
}

fn is_memory(inst: &Inst) -> bool {
    matches!(inst.op, Op::LDG | Op::LDS | Op::LDL)
}

/// The available expression facts of `f`.
pub fn analyze(f: &Function, cfg: &Cfg, loads: bool) -> Available<Expr> {
    // An expression watches its sources (the uses) and its destinations.
    Available::new(f, cfg, |_, inst, defs| {
        key_of(inst, loads).map(|key| {
            let dsts = defs.clone();
            (Expr { key, dsts }, defs.clone(), is_memory(inst))
        })
    })
}

/// Replaces recomputations by copies; returns how many instructions were
/// replaced.
///
/// A function this pass already left unchanged is returned at once
/// ([`analysis_cache`]).
pub fn eliminate(f: &mut Function, loads: bool) -> usize {
    let pass = if loads { Pass::CseLoads } else { Pass::Cse };
    analysis_cache::unless_clean(f, pass, |f| eliminate_once(f, loads))
}

/// One run of [`eliminate`].
fn eliminate_once(f: &mut Function, loads: bool) -> usize {
    let cfg = Cfg::new(f);
    let av = analyze(f, &cfg, loads);
    if av.facts.is_empty() {
        return 0;
    }
    let mut by_key: rustc_hash::FxHashMap<&ExprKey, Vec<usize>> = Default::default();
    for (k, fa) in av.facts.iter().enumerate() {
        by_key.entry(&fa.kind.key).or_default().push(k);
    }
    let mut n = 0;
    for b in 0..f.blocks.len() {
        if !cfg.reachable[b] {
            continue;
        }
        let mut set = av.block_in[b].clone();
        // `i` is the position now, `oi` the position the analysis saw.
        let mut i = 0;
        let mut oi = 0;
        while i < f.blocks[b].insts.len() {
            let inst = &f.blocks[b].insts[i];
            let mut repl: Option<Vec<Inst>> = None;
            // The key of an instruction that generated a fact is that
            // fact's (computing it again cost a third of this loop).
            let own = av.gen_at((b, oi));
            let computed;
            let key = match own {
                Some(k) => Some(&av.facts[k].kind.key),
                None => {
                    computed = key_of(inst, loads);
                    computed.as_ref()
                }
            };
            if let Some(key) = key {
                let found = by_key.get(key).and_then(|v| {
                    v.iter()
                        .find(|&&k| set.contains(k) && av.facts[k].at != (b, oi))
                        .copied()
                });
                if let Some(k) = found {
                    repl = copies(inst, &av.facts[k].kind.dsts);
                }
            }
            match repl {
                Some(r) => {
                    // The replacement defines the same units as the
                    // original: the facts stay as computed.
                    let len = r.len();
                    f.blocks[b].insts.splice(i..=i, r);
                    av.step_at(&mut set, (b, oi));
                    i += len;
                    n += 1;
                }
                None => {
                    av.step_at(&mut set, (b, oi));
                    i += 1;
                }
            }
            oi += 1;
        }
    }
    n
}

/// `MOV`s from `from` (a fact's destination units) to `inst`'s
/// destinations, or `None` when they do not line up.
fn copies(inst: &Inst, from: &Units) -> Option<Vec<Inst>> {
    let to = regs::defs(inst);
    if to.len() != from.len() || to.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for (t, s) in to.iter().zip(from) {
        if t.file() != s.file() || !matches!(t.file(), RegFile::General | RegFile::Uniform) {
            return None;
        }
        if t == s {
            continue;
        }
        let dst = super::fold::plain(unit_reg(*t)?);
        let src = super::fold::plain(unit_reg(*s)?);
        out.push(mov_like(inst, dst, src)?);
    }
    if out.is_empty() {
        // Recomputes into the same registers: a self-copy, which
        // OriRemoveNopCode and the peephole remove; keep a block non-empty.
        let t = to[0];
        let r = super::fold::plain(unit_reg(t)?);
        out.push(mov_like(inst, r.clone(), r)?);
    }
    Some(out)
}
