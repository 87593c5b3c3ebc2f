//! SROA (cicc's, docs/MODEL.md, NvOpt pipelines): promote a `.local` variable declared in
//! the function (clang's `__local_depot`) to SSA values when every access
//! is a plain load or store at a constant offset.
//!
//! Addresses followed (each gives "variable V + constant c"): the variable
//! name (`mov.u64 d, V`, `[V+c]`), `cvta.local` of such an address (the
//! generic address of the same bytes: clang -O0's `%SP`), `cvta.to.local`
//! back, `mov`, and `add`/`sub` of an immediate. A variable is promoted
//! when every use of every such address is one of those derivations or
//! the address of an unguarded, non-volatile, scalar `ld`/`st` (generic or
//! `.local`, no other modifier than the type) inside the variable's
//! bounds; and when any two accesses are either the same bytes or
//! disjoint. Anything else (the address stored, passed to a call, compared,
//! offset by a register, a vector or atomic access, a partial overlap)
//! leaves the variable in memory: its bytes may then be read or written
//! where this pass cannot see.
//!
//! Each distinct (offset, size) is a slot holding one value of the slot's
//! type: the one register type every access uses, else `.bN` (a byte slot
//! is a `.b16` value whose low 8 bits are the byte; PTX has no 8-bit
//! registers). Mem2reg: a phi per slot at every block with two or more
//! predecessors, the entry starting from undefined values (reading
//! uninitialized local memory gives an unspecified value), each load
//! replaced by the slot's current value and each store setting it; trivial
//! phis are then removed. Conversions keep the bits (PTX ISA 9.7.9.8 and
//! 9.7.9.9):
//! - a store of a wider register keeps its low bits (`cvt.uN.uM`
//!   truncation); an immediate becomes a `mov` of the store type; a value
//!   of another type of the same size is reinterpreted (`mov.bN`);
//! - a load into a register of the slot's size reads the bits (`mov.bN`
//!   when the types differ: clang -O0 stores an `f32` and loads a `u32`);
//!   into a wider register it zero-extends (`.u`/`.b`) or sign-extends
//!   (`.s`) with `cvt`; a byte load masks the low 8 bits (`and.b16 ..,
//!   255`). A signed byte load (`ld.s8`) is not promoted.
//!
//! The variable's declaration is removed once nothing names it.

use super::dce::Dce;
use super::util::replace_all;
use super::Pass;
use crate::nvopt::ir::*;
use crate::nvopt::lift::{prune_dead_phis, remove_unreachable};
use crate::ptx::ast::{Imm, Mods, StateSpace, VarType};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::{Mod, ModCat};
use crate::ptx::types::ScalarType;
use rustc_hash::FxHashMap;

pub struct Sroa;

/// One access: where, and its type.
#[derive(Clone, Copy, Debug)]
pub(super) struct Access {
    pub block: usize,
    pub inst: usize,
    pub off: i64,
    pub size: u32,
}

/// The size in bytes of a declared `.local` variable, when known.
pub(super) fn var_size(d: &crate::ptx::ast::VarDecl) -> Option<i64> {
    let VarType::Scalar(t) = d.ty else {
        return None;
    };
    let mut n = i64::from(t.bytes()) * i64::from(d.vector.unwrap_or(1));
    for dim in &d.dims {
        n = n.checked_mul(i64::try_from((*dim)?).ok()?)?;
    }
    Some(n)
}

/// Whether `i` is a load or store this pass can replace: unguarded,
/// generic or `.local`, only a type modifier, scalar, address without
/// extra operands.
fn plain_access(i: &Inst) -> bool {
    matches!(i.op, Opcode::Ld | Opcode::St)
        && i.guard.is_none()
        && i.mods
            .iter()
            .all(|m| m.as_type().is_some() || m == Mod::Local)
        && i.mods.iter().filter(|m| m.cat() == ModCat::Type).count() == 1
        && i.ty().is_some_and(|t| matches!(t.bytes(), 1 | 2 | 4 | 8))
        && !(i.op == Opcode::Ld && i.ty() == Some(ScalarType::S8))
}

/// The address operand's position in a load or store.
fn addr_pos(i: &Inst) -> usize {
    if i.op == Opcode::Ld {
        1
    } else {
        0
    }
}

/// "V + c" for every value derived from variable `v`'s address.
pub(super) fn derived(f: &Function, var: Sym) -> Vec<Option<i64>> {
    let mut off: Vec<Option<i64>> = vec![None; f.values.len()];
    let rpo = f.rpo();
    // Definitions come before uses in RPO except through phis, which this
    // pass does not follow; one pass in RPO suffices.
    for &b in &rpo {
        for i in &f.block(b).insts {
            if i.guard.is_some() {
                continue;
            }
            let Some(Opnd::Val(d)) = i.ops.first() else {
                continue;
            };
            let src = |o: &Opnd| -> Option<i64> {
                match o {
                    Opnd::Sym(s) if *s == var => Some(0),
                    Opnd::SymOffset(s, c) if *s == var => Some(*c),
                    Opnd::Val(v) => off[v.idx()],
                    _ => None,
                }
            };
            let imm = |o: &Opnd| match o {
                Opnd::Imm(x) => x.int_value().and_then(|x| i64::try_from(x).ok()),
                _ => None,
            };
            let only_type = i.mods.iter().all(|m| m.as_type().is_some());
            let r = match (i.op, &i.ops[1..]) {
                (Opcode::Mov, [a]) if only_type => src(a),
                (Opcode::Cvta, [a])
                    if i.has(Mod::Local)
                        && i.mods.len() <= 3
                        && i.mods
                            .iter()
                            .all(|m| m == Mod::Local || m == Mod::To || m.as_type().is_some()) =>
                {
                    src(a)
                }
                (Opcode::Add, [a, b]) if only_type => match (src(a), imm(b), imm(a), src(b)) {
                    (Some(x), Some(c), _, _) | (_, _, Some(c), Some(x)) => x.checked_add(c),
                    _ => None,
                },
                (Opcode::Sub, [a, b]) if only_type => match (src(a), imm(b)) {
                    (Some(x), Some(c)) => x.checked_sub(c),
                    _ => None,
                },
                _ => None,
            };
            off[d.idx()] = r;
        }
    }
    off
}

/// The accesses of variable `var` when it can be promoted.
pub(super) fn accesses(
    f: &Function,
    var: Sym,
    size: i64,
    off: &[Option<i64>],
) -> Option<Vec<Access>> {
    let mut out = Vec::new();
    let names_var = |o: &Opnd| matches!(o, Opnd::Sym(s) | Opnd::SymOffset(s, _) if *s == var);
    for (bi, b) in f.blocks.iter().enumerate() {
        for p in &b.phis {
            if p.args.iter().any(|&(_, v)| off[v.idx()].is_some()) {
                return None;
            }
        }
        if b.term.uses().is_some_and(|v| off[v.idx()].is_some()) {
            return None;
        }
        for (k, i) in b.insts.iter().enumerate() {
            // A derivation: its uses are checked where they are used.
            let defines_derived = matches!(i.ops.first(), Some(Opnd::Val(d)) if off[d.idx()].is_some())
                && i.defs().len() == 1;
            if defines_derived {
                continue;
            }
            let ap = addr_pos(i);
            let mut mine = None;
            let mut other_use = false;
            for (n, o) in i.ops.iter().enumerate() {
                if matches!(i.op, Opcode::Ld | Opcode::St) && n == ap {
                    if let Opnd::Addr(a) = o {
                        let base = match &a.base {
                            AddrBase::Val(v) => off[v.idx()],
                            AddrBase::Sym(s) if *s == var => Some(0),
                            _ => None,
                        };
                        if let Some(c) = base {
                            if !a.rest.is_empty() {
                                return None;
                            }
                            mine = Some(c.checked_add(a.offset)?);
                        }
                        continue;
                    }
                }
                let mut hit = names_var(o);
                if let Opnd::Addr(a) = o {
                    hit |= matches!(a.base, AddrBase::Sym(s) if s == var);
                }
                if n == 0 && defines_first(i.op, &i.mods, &i.ops) {
                    other_use |= hit;
                    continue;
                }
                opnd_uses(o, &mut |v| hit |= off[v.idx()].is_some());
                other_use |= hit;
            }
            if let Some(g) = i.guard {
                other_use |= off[g.val.idx()].is_some();
            }
            other_use |= i.old.iter().any(|v| off[v.idx()].is_some());
            if other_use {
                return None;
            }
            if let Some(c) = mine {
                if !plain_access(i) {
                    return None;
                }
                let sz = i.ty()?.bytes();
                if c < 0 || c + i64::from(sz) > size {
                    return None;
                }
                if i.op == Opcode::St
                    && !matches!(i.ops.get(1), Some(Opnd::Val(_)) | Some(Opnd::Imm(_)))
                {
                    return None;
                }
                if i.op == Opcode::Ld && !matches!(i.ops.first(), Some(Opnd::Val(_))) {
                    return None;
                }
                out.push(Access {
                    block: bi,
                    inst: k,
                    off: c,
                    size: sz,
                });
            }
        }
    }
    // Same bytes or disjoint.
    let mut by: Vec<(i64, u32)> = out.iter().map(|a| (a.off, a.size)).collect();
    by.sort();
    by.dedup();
    for w in by.windows(2) {
        if w[0].0 + i64::from(w[0].1) > w[1].0 {
            return None;
        }
    }
    Some(out)
}

fn bits_type(bytes: u32) -> ScalarType {
    match bytes {
        1 | 2 => ScalarType::B16,
        4 => ScalarType::B32,
        _ => ScalarType::B64,
    }
}

fn inst(op: Opcode, mods: &[Mod], ops: Vec<Opnd>) -> Inst {
    Inst {
        op,
        mods: Mods::from_slice(mods),
        guard: None,
        ops,
        old: vec![],
    }
}

/// Reinterprets or converts `v` (a slot value of type `st`) into a new
/// value of type `want`; pushes the instructions to `out`.
fn convert(f: &mut Function, reg: Sym, v: Value, want: ScalarType, out: &mut Vec<Inst>) -> Value {
    let have = f.values[v.idx()].ty;
    if have == want {
        return v;
    }
    let d = f.new_value(reg, want);
    out.push(inst(
        Opcode::Mov,
        &[Mod::of_type(want.bit_type())],
        vec![Opnd::Val(d), Opnd::Val(v)],
    ));
    d
}

struct Promoter {
    /// slot index per (offset, size)
    slots: FxHashMap<(i64, u32), usize>,
    types: Vec<ScalarType>,
    sizes: Vec<u32>,
}

impl Promoter {
    /// Replaces the load `i` (destination `d`) reading slot value `s`:
    /// the instructions that define `d` from `s`.
    fn load(
        &self,
        f: &mut Function,
        i: &Inst,
        s: Value,
        size: u32,
        map: &mut [Option<Value>],
    ) -> Vec<Inst> {
        let Some(&Opnd::Val(d)) = i.ops.first() else {
            unreachable!("checked: a load into a register")
        };
        let lt = i.ty().expect("checked: a typed load");
        let dt = f.values[d.idx()].ty;
        let reg = f.values[d.idx()].reg;
        let mut out = Vec::new();
        let mut cur = s;
        let mut cur_bits = size * 8;
        if size == 1 {
            // The byte, zero-extended to 16 bits.
            let c = convert(f, reg, cur, ScalarType::B16, &mut out);
            let m = f.new_value(reg, ScalarType::B16);
            out.push(inst(
                Opcode::And,
                &[Mod::of_type(ScalarType::B16)],
                vec![Opnd::Val(m), Opnd::Val(c), Opnd::Imm(Imm::int(255))],
            ));
            cur = m;
            cur_bits = 16;
        }
        if dt.bits() > cur_bits {
            let signed = lt.is_signed() && size > 1;
            let from = ScalarType::int_of(cur_bits, signed).expect("16/32-bit");
            let to = ScalarType::int_of(dt.bits(), signed).expect("32/64-bit");
            // cvt reads a `.bN`/`.uN`/`.sN` register as `from`; a float
            // register is reinterpreted first.
            let c = if f.values[cur.idx()].ty.is_float() {
                convert(f, reg, cur, from, &mut out)
            } else {
                cur
            };
            out.push(inst(
                Opcode::Cvt,
                &[Mod::of_type(to), Mod::of_type(from)],
                vec![Opnd::Val(d), Opnd::Val(c)],
            ));
            return out;
        }
        if f.values[cur.idx()].ty == dt {
            // The same register type: the load's readers read the value.
            map[d.idx()] = Some(cur);
        } else {
            out.push(inst(
                Opcode::Mov,
                &[Mod::of_type(dt.bit_type())],
                vec![Opnd::Val(d), Opnd::Val(cur)],
            ));
        }
        out
    }

    /// The slot value a store `i` writes, and the instructions computing
    /// it; None when the stored register is narrower than the store.
    fn store(
        &self,
        f: &mut Function,
        i: &Inst,
        slot: usize,
        reg: Sym,
    ) -> Option<(Value, Vec<Inst>)> {
        let st = i.ty().expect("checked: a typed store");
        let want = self.types[slot];
        let size = self.sizes[slot];
        let mut out = Vec::new();
        let v = match &i.ops[1] {
            Opnd::Imm(x) => {
                let t = if size == 1 { ScalarType::B16 } else { st };
                let d = f.new_value(reg, t);
                out.push(inst(
                    Opcode::Mov,
                    &[Mod::of_type(t)],
                    vec![Opnd::Val(d), Opnd::Imm(*x)],
                ));
                d
            }
            Opnd::Val(x) => {
                let xt = f.values[x.idx()].ty;
                let keep = size.max(2) * 8;
                if xt.bits() > keep {
                    if !(xt.is_int() || xt.kind() == crate::ptx::types::TypeKind::Bits) {
                        return None;
                    }
                    let from = ScalarType::int_of(xt.bits(), false)?;
                    let to = ScalarType::int_of(keep, false)?;
                    let d = f.new_value(reg, to);
                    out.push(inst(
                        Opcode::Cvt,
                        &[Mod::of_type(to), Mod::of_type(from)],
                        vec![Opnd::Val(d), Opnd::Val(*x)],
                    ));
                    d
                } else if xt.bits() < keep {
                    return None;
                } else {
                    *x
                }
            }
            _ => return None,
        };
        let v = convert(f, reg, v, want, &mut out);
        Some((v, out))
    }
}

/// Promotes variable `var`; false when it cannot be.
fn promote(f: &mut Function, var: Sym, size: i64) -> bool {
    let off = derived(f, var);
    let Some(acc) = accesses(f, var, size, &off) else {
        return false;
    };
    // Stores of registers narrower than the access cannot be: refuse up
    // front (checked again when rewriting).
    for a in &acc {
        let i = &f.blocks[a.block].insts[a.inst];
        if i.op == Opcode::St {
            if let Opnd::Val(x) = &i.ops[1] {
                let xt = f.values[x.idx()].ty;
                let keep = a.size.max(2) * 8;
                if xt.bits() < keep
                    || (xt.bits() > keep
                        && !(xt.is_int() || xt.kind() == crate::ptx::types::TypeKind::Bits))
                {
                    return false;
                }
            }
        } else if let Some(Opnd::Val(d)) = i.ops.first() {
            if f.values[d.idx()].ty.bits() < a.size.max(2) * 8 {
                return false;
            }
        }
    }
    // Slots and their types.
    let mut p = Promoter {
        slots: FxHashMap::default(),
        types: vec![],
        sizes: vec![],
    };
    let mut seen_types: Vec<Vec<ScalarType>> = vec![];
    for a in &acc {
        let n = p.slots.len();
        let s = *p.slots.entry((a.off, a.size)).or_insert(n);
        if s == n {
            p.types.push(bits_type(a.size));
            p.sizes.push(a.size);
            seen_types.push(vec![]);
        }
        let i = &f.blocks[a.block].insts[a.inst];
        let t = match (i.op, i.ops.get(1)) {
            (Opcode::St, Some(Opnd::Val(x))) => f.values[x.idx()].ty,
            (Opcode::St, _) => i.ty().unwrap(),
            _ => match i.ops.first() {
                Some(Opnd::Val(d)) => f.values[d.idx()].ty,
                _ => unreachable!(),
            },
        };
        seen_types[s].push(t);
    }
    for (s, ts) in seen_types.iter().enumerate() {
        if p.sizes[s] > 1 && ts.iter().all(|&t| t == ts[0] && t.bits() == p.sizes[s] * 8) {
            p.types[s] = ts[0];
        }
    }
    let nslots = p.types.len();
    let reg = f.values.first().map_or(f.name, |v| v.reg);
    // Which instructions are accesses, and to which slot.
    let mut slot_of: FxHashMap<(usize, usize), usize> = FxHashMap::default();
    for a in &acc {
        slot_of.insert((a.block, a.inst), p.slots[&(a.off, a.size)]);
    }
    let preds = f.preds();
    let rpo = f.rpo();
    let n = f.blocks.len();
    let mut out_state: Vec<Option<Vec<Value>>> = vec![None; n];
    let mut map: Vec<Option<Value>> =
        vec![None; f.values.len() + 4 * acc.len() + 2 * nslots * (n + 1)];
    let mut phis_of: Vec<Vec<Value>> = vec![vec![]; n];
    let undef: Vec<Value> = (0..nslots)
        .map(|s| {
            let v = f.new_value(reg, p.types[s]);
            f.values[v.idx()].undef = true;
            v
        })
        .collect();
    for &b in &rpo {
        let bi = b.idx();
        let mut cur: Vec<Value> = if bi == 0 {
            undef.clone()
        } else if preds[bi].len() == 1 {
            out_state[preds[bi][0].idx()]
                .clone()
                .expect("a single predecessor comes first in RPO")
        } else {
            let vs: Vec<Value> = (0..nslots).map(|s| f.new_value(reg, p.types[s])).collect();
            phis_of[bi] = vs.clone();
            vs
        };
        let old = std::mem::take(&mut f.blocks[bi].insts);
        let mut new = Vec::with_capacity(old.len());
        for (k, i) in old.into_iter().enumerate() {
            let Some(&s) = slot_of.get(&(bi, k)) else {
                new.push(i);
                continue;
            };
            if i.op == Opcode::Ld {
                new.extend(p.load(f, &i, cur[s], p.sizes[s], &mut map));
            } else {
                let (v, ins) = p
                    .store(f, &i, s, reg)
                    .expect("checked: a store of a register at least as wide");
                new.extend(ins);
                cur[s] = v;
            }
        }
        f.blocks[bi].insts = new;
        out_state[bi] = Some(cur);
    }
    for &b in &rpo {
        let bi = b.idx();
        for (s, &dst) in phis_of[bi].clone().iter().enumerate() {
            let args = preds[bi]
                .iter()
                .map(|&pb| {
                    let v = out_state[pb.idx()].as_ref().map_or(undef[s], |o| o[s]);
                    (pb, v)
                })
                .collect();
            f.blocks[bi].phis.push(Phi { dst, args });
        }
    }
    map.resize(f.values.len(), None);
    replace_all(f, &map);
    remove_trivial_phis(f);
    prune_dead_phis(f);
    true
}

/// Removes phis whose arguments are one value (besides the phi itself).
fn remove_trivial_phis(f: &mut Function) {
    loop {
        let mut found = None;
        'o: for (bi, b) in f.blocks.iter().enumerate() {
            for (k, p) in b.phis.iter().enumerate() {
                let mut only = None;
                let mut trivial = true;
                for &(_, a) in &p.args {
                    if a == p.dst || Some(a) == only {
                        continue;
                    }
                    if only.is_some() {
                        trivial = false;
                        break;
                    }
                    only = Some(a);
                }
                if trivial {
                    if let Some(v) = only {
                        found = Some((bi, k, p.dst, v));
                        break 'o;
                    }
                }
            }
        }
        let Some((bi, k, d, v)) = found else { break };
        f.blocks[bi].phis.remove(k);
        f.replace_uses(d, v);
    }
}

/// Whether any operand anywhere still names `var`.
fn names(f: &Function, var: Sym) -> bool {
    fn opnd(o: &Opnd, var: Sym) -> bool {
        match o {
            Opnd::Sym(s) | Opnd::SymOffset(s, _) => *s == var,
            Opnd::Addr(a) => {
                matches!(a.base, AddrBase::Sym(s) if s == var)
                    || a.rest.iter().any(|x| opnd(x, var))
            }
            Opnd::Vector(xs) | Opnd::List(xs) | Opnd::VectorPred(xs, _) => {
                xs.iter().any(|x| opnd(x, var))
            }
            _ => false,
        }
    }
    f.blocks
        .iter()
        .any(|b| b.insts.iter().any(|i| i.ops.iter().any(|o| opnd(o, var))))
}

impl Pass for Sroa {
    fn name(&self) -> &'static str {
        "sroa"
    }

    fn run(&self, f: &mut Function) -> bool {
        let cands: Vec<(Sym, i64)> = f
            .locals
            .iter()
            .filter(|d| d.space == StateSpace::Local && d.init.is_none())
            .filter_map(|d| Some((d.name, var_size(d)?)))
            .collect();
        if cands.is_empty() {
            return false;
        }
        // Dead address computations would count as escapes; unreachable
        // blocks have no place in the mem2reg walk.
        let mut changed = Dce.run(f);
        let before = f.blocks.len();
        remove_unreachable(f);
        changed |= f.blocks.len() != before;
        let mut done = Vec::new();
        for (var, size) in cands {
            if promote(f, var, size) {
                done.push(var);
            }
        }
        let promoted = !done.is_empty();
        if promoted {
            Dce.run(f);
            let gone: Vec<Sym> = done.into_iter().filter(|&v| !names(f, v)).collect();
            f.locals.retain(|d| !gone.contains(&d.name));
        }
        changed || promoted
    }
}
