//! Helpers the passes share: where values are defined, integer constants
//! of `mov` instructions, and building `mov` instructions.

use crate::nvopt::ir::*;
use crate::ptx::ast::{Imm, Mods};
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

/// Where a value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefSite {
    Phi(BlockId),
    Inst(BlockId, usize),
}

pub fn def_sites(f: &Function) -> Vec<Option<DefSite>> {
    let mut d = vec![None; f.values.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for p in &b.phis {
            d[p.dst.idx()] = Some(DefSite::Phi(bid));
        }
        for (k, i) in b.insts.iter().enumerate() {
            for v in i.defs() {
                d[v.idx()] = Some(DefSite::Inst(bid, k));
            }
        }
    }
    d
}

/// The `mov` type for a register type: `.pred`, else the bit type.
pub fn mov_type(t: ScalarType) -> ScalarType {
    if t == ScalarType::Pred {
        t
    } else {
        t.bit_type()
    }
}

/// Keeps the low `bits` bits (`ptxc::int::trunc`).
pub fn truncate(v: u64, bits: u32) -> u64 {
    crate::int::trunc(bits, v)
}

/// Sign-extends the low `bits` bits (`ptxc::int::sext`; `bits` is a
/// register width, 1..=64).
pub fn sext(v: u64, bits: u32) -> i64 {
    crate::int::sext(bits, v) as i64
}

/// The immediate for a `bits`-wide constant, written as a negative literal
/// when its sign bit is set (PTX integer literals are 64-bit; a negative
/// literal truncated to the width gives the same bits).
pub fn imm_of(v: u64, bits: u32) -> Imm {
    let v = truncate(v, bits);
    let s = sext(v, bits);
    Imm::int(if s < 0 { s as i128 } else { v as i128 })
}

/// The value of an integer immediate truncated to `bits`.
pub fn imm_bits(i: &Imm, bits: u32) -> Option<u64> {
    i.int_value().map(|x| truncate(x as u64, bits))
}

/// An instruction giving `d` the constant `v` of its register type:
/// `mov.T d, imm`, or for a predicate `setp.ne.u32 d, v, 0` (PTX has no
/// `mov.pred` from an immediate).
pub fn mov_const(f: &Function, d: Value, v: u64) -> Inst {
    let ty = f.values[d.idx()].ty;
    if ty == ScalarType::Pred {
        return Inst {
            op: Opcode::Setp,
            mods: Mods::from_slice(&[Mod::Ne, Mod::U32]),
            guard: None,
            ops: vec![
                Opnd::Val(d),
                Opnd::Imm(imm_of(v & 1, 32)),
                Opnd::Imm(imm_of(0, 32)),
            ],
            old: vec![],
        };
    }
    Inst {
        op: Opcode::Mov,
        mods: Mods::from_slice(&[Mod::of_type(mov_type(ty))]),
        guard: None,
        ops: vec![Opnd::Val(d), Opnd::Imm(imm_of(v, ty.bits()))],
        old: vec![],
    }
}

/// The integer constant an unguarded `mov d, imm` (or a `setp` of two
/// immediates) gives `d`, truncated to the register width; predicates
/// are 0/1.
pub fn const_of_inst(f: &Function, i: &Inst) -> Option<u64> {
    if i.guard.is_some() {
        return None;
    }
    if i.op == Opcode::Setp {
        if !i.srcs().iter().all(|o| matches!(o, Opnd::Imm(_))) {
            return None;
        }
        let get = |o: &Opnd, bits: u32| match o {
            Opnd::Imm(imm) => {
                imm_bits(imm, bits).map_or(super::sccp::Lat::Bot, super::sccp::Lat::C)
            }
            _ => super::sccp::Lat::Bot,
        };
        return match super::sccp::eval(i, &get) {
            Some(super::sccp::Lat::C(c)) => Some(c),
            _ => None,
        };
    }
    if i.op != Opcode::Mov {
        return None;
    }
    let [Opnd::Val(d), Opnd::Imm(imm)] = i.ops.as_slice() else {
        return None;
    };
    let ty = f.values[d.idx()].ty;
    if ty == ScalarType::Pred {
        return imm.int_value().map(|x| u64::from(x != 0));
    }
    if !ty.is_int() && !matches!(ty, ScalarType::B16 | ScalarType::B32 | ScalarType::B64) {
        return None;
    }
    imm_bits(imm, ty.bits())
}

/// Per value: its integer constant when defined by `mov d, imm`.
pub fn constants(f: &Function) -> Vec<Option<u64>> {
    let mut c = vec![None; f.values.len()];
    for b in &f.blocks {
        for i in &b.insts {
            if let Some(k) = const_of_inst(f, i) {
                if let Some(Opnd::Val(d)) = i.ops.first() {
                    c[d.idx()] = Some(k);
                }
            }
        }
    }
    c
}

/// Replaces every use of value `v` by `map[v]` where set, following
/// chains (`a -> b -> c` gives `c`). Definitions are untouched.
pub fn replace_all(f: &mut Function, map: &[Option<Value>]) {
    let resolve = |mut v: Value| {
        let mut n = 0;
        while let Some(w) = map.get(v.idx()).copied().flatten() {
            if w == v || n > map.len() {
                break;
            }
            v = w;
            n += 1;
        }
        v
    };
    for b in &mut f.blocks {
        for p in &mut b.phis {
            for (_, v) in &mut p.args {
                *v = resolve(*v);
            }
        }
        for i in &mut b.insts {
            i.for_each_use_mut(|v| *v = resolve(*v));
        }
        if let Term::CondBr { pred, .. } = &mut b.term {
            *pred = resolve(*pred);
        }
    }
}

/// True when the modifiers are only type modifiers plus those listed.
pub fn mods_only(i: &Inst, allowed: &[Mod]) -> bool {
    i.mods
        .iter()
        .all(|m| m.as_type().is_some() || allowed.contains(&m))
}

/// Integer width of an operation type, for the integer folds: `.bN`,
/// `.uN`, `.sN` with N in 16, 32, 64; `.pred` is 1.
pub fn int_width(t: ScalarType) -> Option<u32> {
    use ScalarType::*;
    match t {
        Pred => Some(1),
        B16 | U16 | S16 => Some(16),
        B32 | U32 | S32 => Some(32),
        B64 | U64 | S64 => Some(64),
        _ => None,
    }
}
