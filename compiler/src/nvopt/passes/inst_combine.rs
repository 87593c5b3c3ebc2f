//! InstCombine: local algebraic simplification of integer instructions.
//! Each rule applies to an unguarded instruction whose modifiers are only
//! its type (plus `.lo` for `mul`), on `.bN`/`.uN`/`.sN` types; `c` is an
//! immediate or a value defined by `mov d, imm`. Rules, each exact in
//! two's-complement arithmetic modulo 2^N (PTX ISA 9.7.1, 9.7.7):
//!
//! | instruction        | becomes | why                         |
//! |--------------------|---------|-----------------------------|
//! | `add x, 0`/`add 0, x` | `x`  | additive identity           |
//! | `sub x, 0`         | `x`     | additive identity           |
//! | `sub x, x`         | `0`     | x - x = 0                   |
//! | `mul.lo x, 1`/`1, x` | `x`   | multiplicative identity     |
//! | `mul.lo x, 0`/`0, x` | `0`   | annihilator                 |
//! | `and x, 0`         | `0`     | annihilator                 |
//! | `and x, ~0`, `and x, x` | `x` | identity, idempotence      |
//! | `or x, 0`, `or x, x` | `x`   | identity, idempotence       |
//! | `or x, ~0`         | `~0`    | annihilator                 |
//! | `xor x, 0`         | `x`     | identity                    |
//! | `xor x, x`         | `0`     | self-inverse                |
//! | `shl/shr x, 0`     | `x`     | zero shift                  |
//! | `selp a, a, p`     | `a`     | both arms equal             |
//! | `mov d, x` (same register type) | `x` | copy propagation   |
//! | `setp.ne x, 0` where `x = selp c, 0, p`, `c != 0` | `p` | `x != 0` exactly when `p` |
//! | `setp.eq x, 0` where `x = selp 0, c, p`, `c != 0` | `p` | `x == 0` exactly when `p` |
//!
//! The `setp` rule (clang -O0's bool round trip, `selp.u32 %r, 1, 0, %p;
//! setp.ne.s32 %q, %r, 0`) needs an unguarded `setp` with one destination
//! and no `.and/.or/.xor` combining predicate, an unguarded `selp` of the
//! same width, and compares in the integer types only: `c` truncated to
//! the compare's width is nonzero, so signedness does not matter.
//!
//! "Becomes `x`" replaces the uses of the destination by `x` when both
//! registers have the same declared type (so no instruction sees a
//! register of another type), and the instruction is left to DCE.
//! Float instructions get no rule: even `x * 1.0` and `x + (-0.0)` are not
//! identities in PTX (a NaN input gives the canonical NaN, not x's
//! payload; `.ftz` flushes subnormal x), and reassociation changes
//! rounding.

use super::util::*;
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

pub struct InstCombine;

enum Rw {
    Copy(Value),
    Const(u64),
}

fn simplify(
    f: &Function,
    consts: &[Option<u64>],
    defs: &[Option<DefSite>],
    i: &Inst,
) -> Option<Rw> {
    if i.guard.is_some() || !i.is_pure() {
        return None;
    }
    let Some(Opnd::Val(_)) = i.ops.first() else {
        return None;
    };
    let ty = i.ty()?;
    if i.op == Opcode::Mov {
        if let [_, Opnd::Val(x)] = i.ops.as_slice() {
            return Some(Rw::Copy(*x));
        }
        return None;
    }
    if ty == ScalarType::Pred {
        return None;
    }
    let w = int_width(ty)?;
    if i.op == Opcode::Setp {
        return bool_round_trip(f, consts, defs, i, w).map(Rw::Copy);
    }
    let extra: &[Mod] = if i.op == Opcode::Mul { &[Mod::Lo] } else { &[] };
    if !mods_only(i, extra) || (i.op == Opcode::Mul && !i.has(Mod::Lo)) {
        return None;
    }
    let c = |o: &Opnd| const_operand(consts, o, w);
    let val = |o: &Opnd| -> Option<Value> {
        match o {
            Opnd::Val(v) => Some(*v),
            _ => None,
        }
    };
    let ones = truncate(u64::MAX, w);
    let s = i.srcs();
    if i.op == Opcode::Selp {
        if s.len() == 3 && s[0] == s[1] {
            return val(&s[0]).map(Rw::Copy);
        }
        return None;
    }
    if s.len() != 2 {
        return None;
    }
    let (a, b) = (&s[0], &s[1]);
    let (ca, cb) = (c(a), c(b));
    let same = val(a).is_some() && val(a) == val(b);
    let copy = |o: &Opnd| val(o).map(Rw::Copy);
    let _ = f;
    match i.op {
        Opcode::Add if cb == Some(0) => copy(a),
        Opcode::Add if ca == Some(0) => copy(b),
        Opcode::Sub if cb == Some(0) => copy(a),
        Opcode::Sub if same => Some(Rw::Const(0)),
        Opcode::Mul if cb == Some(1) => copy(a),
        Opcode::Mul if ca == Some(1) => copy(b),
        Opcode::Mul if ca == Some(0) || cb == Some(0) => Some(Rw::Const(0)),
        Opcode::And if ca == Some(0) || cb == Some(0) => Some(Rw::Const(0)),
        Opcode::And if cb == Some(ones) => copy(a),
        Opcode::And if ca == Some(ones) => copy(b),
        Opcode::And | Opcode::Or if same => copy(a),
        Opcode::Or if cb == Some(0) => copy(a),
        Opcode::Or if ca == Some(0) => copy(b),
        Opcode::Or if ca == Some(ones) || cb == Some(ones) => Some(Rw::Const(ones)),
        Opcode::Xor if cb == Some(0) => copy(a),
        Opcode::Xor if ca == Some(0) => copy(b),
        Opcode::Xor if same => Some(Rw::Const(0)),
        Opcode::Shl | Opcode::Shr => {
            let amt = match b {
                Opnd::Imm(imm) => imm_bits(imm, 32),
                Opnd::Val(v) => consts[v.idx()].map(|k| truncate(k, 32)),
                _ => None,
            };
            if amt == Some(0) {
                copy(a)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// An operand's constant value at width `w`: an immediate, or a value
/// whose definition is a constant.
fn const_operand(consts: &[Option<u64>], o: &Opnd, w: u32) -> Option<u64> {
    match o {
        Opnd::Imm(imm) => imm_bits(imm, w),
        Opnd::Val(v) => consts[v.idx()].map(|k| truncate(k, w)),
        _ => None,
    }
}

/// The `setp` rule of the module doc: the predicate `selp` chose by.
fn bool_round_trip(
    f: &Function,
    consts: &[Option<u64>],
    defs: &[Option<DefSite>],
    i: &Inst,
    w: u32,
) -> Option<Value> {
    let eq = i.has(Mod::Eq);
    if !(mods_only(i, &[Mod::Ne]) || mods_only(i, &[Mod::Eq])) || i.ops.len() != 3 {
        return None;
    }
    let c = |o: &Opnd| const_operand(consts, o, w);
    let x = match (&i.ops[1], &i.ops[2]) {
        (Opnd::Val(x), z) | (z, Opnd::Val(x)) if c(z) == Some(0) => *x,
        _ => return None,
    };
    let Some(DefSite::Inst(b, k)) = defs[x.idx()] else {
        return None;
    };
    let sel = &f.blocks[b.0 as usize].insts[k];
    if sel.op != Opcode::Selp
        || sel.guard.is_some()
        || sel.ty().and_then(int_width) != Some(w)
        || sel.ops.len() != 4
    {
        return None;
    }
    let (t, e) = (c(&sel.ops[1])?, c(&sel.ops[2])?);
    let fires = if eq {
        t == 0 && e != 0
    } else {
        t != 0 && e == 0
    };
    match &sel.ops[3] {
        Opnd::Val(p) if fires && f.values[p.idx()].ty == ScalarType::Pred => Some(*p),
        _ => None,
    }
}

impl Pass for InstCombine {
    fn name(&self) -> &'static str {
        "instcombine"
    }

    fn run(&self, f: &mut Function) -> bool {
        let consts = constants(f);
        let defs = def_sites(f);
        let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
        let mut changed = false;
        for bi in 0..f.blocks.len() {
            for k in 0..f.blocks[bi].insts.len() {
                let i = &f.blocks[bi].insts[k];
                let Some(Opnd::Val(d)) = i.ops.first() else {
                    continue;
                };
                let d = *d;
                match simplify(f, &consts, &defs, i) {
                    Some(Rw::Copy(x))
                        if x != d
                            && f.values[x.idx()].ty == f.values[d.idx()].ty
                            && map[d.idx()].is_none() =>
                    {
                        map[d.idx()] = Some(x);
                        changed = true;
                    }
                    Some(Rw::Copy(_)) => {}
                    Some(Rw::Const(c)) => {
                        f.blocks[bi].insts[k] = mov_const(f, d, c);
                        changed = true;
                    }
                    None => {}
                }
            }
        }
        if changed {
            replace_all(f, &map);
        }
        changed
    }
}
