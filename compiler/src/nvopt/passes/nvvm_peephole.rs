//! NVVMPeephole (cicc's, docs/MODEL.md, NvOpt pipelines: the `nvvm-peephole-optimizer`
//! function pass, first in the "ptx", "mid" and default language paths):
//! NVVM's peepholes that apply to PTX. Each rewrite replaces an
//! instruction by `mov.bN d, x` of a value that is provably the same bits;
//! the instructions it no longer reads are left to DCE.
//!
//! 1. Address-space round trip: `a = cvta.SPACE.u64 x; d =
//!    cvta.to.SPACE.u64 a` (same space) gives `d = x`. PTX ISA 9.7.9.18:
//!    `cvta` converts a state-space address to the generic address of the
//!    same location and `cvta.to` back; for the same space the pair is the
//!    identity (NVVM's peephole folds `addrspacecast` pairs the same way).
//!    The reverse pair (`cvta(cvta.to(g))`) is not folded: a generic
//!    address outside the space's window does not come back unchanged.
//! 2. Same-type integer conversion: `cvt.T.T d, x` for an integer type T,
//!    with no other modifier, is a copy (PTX ISA 9.7.9.21: integer
//!    conversions change the value only when the width or signedness
//!    changes or `.sat` clamps).
//! 3. Widen then narrow back: `w = cvt.W.N x` (N narrower than W, both
//!    integer) then `d = cvt.M.W w` with M of N's width, neither with
//!    `.sat` (or any modifier): the narrowing keeps the low bits, which
//!    are `x`'s bits whether the widening sign- or zero-extended.

use super::util::{def_sites, mov_type, DefSite};
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::ast::Mods;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::{Mod, ModCat};
use crate::ptx::types::ScalarType;

pub struct NvvmPeephole;

fn types(i: &Inst) -> Vec<ScalarType> {
    i.mods.iter().filter_map(|m| m.as_type()).collect()
}

/// For a `cvt.D.S` with only its two integer types: (D, S, source value).
fn int_cvt(i: &Inst) -> Option<(ScalarType, ScalarType, Value)> {
    if i.op != Opcode::Cvt || i.guard.is_some() || i.mods.iter().any(|m| m.as_type().is_none()) {
        return None;
    }
    let [d, s] = types(i)[..] else { return None };
    if !d.is_int() || !s.is_int() {
        return None;
    }
    let [Opnd::Val(_), Opnd::Val(x)] = i.ops[..] else {
        return None;
    };
    Some((d, s, x))
}

/// For `cvta[.to].SPACE.u64 d, x`: (to, space, x).
fn cvta(i: &Inst) -> Option<(bool, Mod, Value)> {
    if i.op != Opcode::Cvta || i.guard.is_some() {
        return None;
    }
    let [Opnd::Val(_), Opnd::Val(x)] = i.ops[..] else {
        return None;
    };
    let mut to = false;
    let mut space = None;
    for m in i.mods.iter() {
        match m {
            Mod::To => to = true,
            Mod::U64 => {}
            m if m.cat() == ModCat::Space => space = Some(m),
            _ => return None,
        }
    }
    Some((to, space?, x))
}

fn rewrite(f: &Function, i: &Inst, sites: &[Option<DefSite>]) -> Option<Value> {
    let def_of = |v: Value| match sites[v.idx()] {
        Some(DefSite::Inst(b, k)) => Some(&f.blocks[b.idx()].insts[k]),
        _ => None,
    };
    if let Some((true, space, a)) = cvta(i) {
        if let Some((false, s2, x)) = def_of(a).and_then(cvta) {
            if s2 == space {
                return Some(x);
            }
        }
    }
    if let Some((d, s, x)) = int_cvt(i) {
        if d == s {
            return Some(x);
        }
        if let Some((w, n, y)) = def_of(x).and_then(int_cvt) {
            if w == s && n.bits() < w.bits() && d.bits() == n.bits() {
                return Some(y);
            }
        }
    }
    None
}

impl Pass for NvvmPeephole {
    fn name(&self) -> &'static str {
        "nvvm-peephole-optimizer"
    }

    fn run(&self, f: &mut Function) -> bool {
        let sites = def_sites(f);
        let mut changed = false;
        for bi in 0..f.blocks.len() {
            for k in 0..f.blocks[bi].insts.len() {
                let i = &f.blocks[bi].insts[k];
                let Some(x) = rewrite(f, i, &sites) else {
                    continue;
                };
                let Some(Opnd::Val(d)) = i.ops.first().cloned() else {
                    continue;
                };
                let ty = f.values[d.idx()].ty;
                if f.values[x.idx()].ty.bits() != ty.bits() {
                    continue;
                }
                f.blocks[bi].insts[k] = Inst {
                    op: Opcode::Mov,
                    mods: Mods::from_slice(&[Mod::of_type(mov_type(ty))]),
                    guard: None,
                    ops: vec![Opnd::Val(d), Opnd::Val(x)],
                    old: vec![],
                };
                changed = true;
            }
        }
        changed
    }
}
