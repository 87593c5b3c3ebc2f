//! MemorySpaceOpt (cicc's, docs/MODEL.md, Pass options: `memory-space-opt<first-time|
//! second-time;warnings|no-warnings>`): turn generic `ld`/`st`/`atom`/
//! `red` whose address provably lies in one state space into the
//! space-specific form on the address before conversion.
//!
//! Which values have a known space (an optimistic fixpoint, Top -> S ->
//! Bottom):
//! - `cvta.S d, a` (unguarded, not `.to`; S in local, shared, global,
//!   const): `d` is in S, and `a` is its address in S (PTX ISA 9.7.9.16:
//!   `cvta` converts an S address to the generic one).
//! - `mov d, a`: the space of `a`.
//! - `add d, p, x` / `add d, x, p` / `sub d, p, x` (integer, unguarded, no
//!   `.cc`/`.sat`): the space of `p` when `x` is an immediate or a value
//!   with no known space. Rule (as LLVM's address-space inference assumes
//!   for GEPs): pointer arithmetic on an address in S stays in S; the
//!   specific address is then `a + x` for the same `x`, since PTX maps an
//!   S window linearly into the generic space (ISA 5.1.1, "generic
//!   addressing"). Two operands with a space (pointer + pointer) is not an
//!   address in either: Bottom.
//! - a phi: S when every argument is in S (Top arguments are waited for).
//! - anything else (kernel parameters included: a generic `.param` pointer
//!   is only known global after clang's `cvta.to.global` + `cvta.global`
//!   pair, which the first rule sees): Bottom.
//!
//! For each needed value the specific address is built next to the
//! generic one: the operand of `cvta`, a copy of the `add`/`sub` on the
//! specific operand, or a new phi. The generic chain stays for its other
//! readers (a pointer stored to memory, passed to a call, compared); DCE
//! removes it when nothing reads it.
//!
//! Rewritten: generic `ld`, `st`, `atom`, `red` (guards, `.volatile` and
//! ordering kept). Not rewritten: `atom`/`red` to local or const memory
//! (PTX has no such forms), `st`/`atom`/`red` to const (read-only space).
//! `first-time`/`second-time` and `warnings` change nothing here (cicc's
//! second run benefits from simplified IR; ours sees the same rules; it
//! emits no address-space warnings).

use super::util::{def_sites, int_width, DefSite};
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::ast::Mods;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::{Mod, ModCat};

pub struct MemorySpaceOpt;

/// The pass parameters cicc's parser accepts (docs/MODEL.md, Pass options).
pub const PARAMS: &[&str] = &["first-time", "second-time", "warnings", "no-warnings"];

/// Checks a `memory-space-opt<...>` parameter list (`;`-separated).
pub fn parse_params(text: &str) -> Result<Vec<String>, String> {
    text.split(';')
        .map(|t| {
            if PARAMS.contains(&t) {
                Ok(t.to_string())
            } else {
                Err(format!("invalid MemorySpaceOpt pass parameter '{t}'"))
            }
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Sp {
    Top,
    In(Mod),
    Bot,
}

fn meet(a: Sp, b: Sp) -> Sp {
    match (a, b) {
        (Sp::Top, x) | (x, Sp::Top) => x,
        (Sp::In(x), Sp::In(y)) if x == y => Sp::In(x),
        _ => Sp::Bot,
    }
}

/// The space of a `cvta.S` (to generic), if it is one we handle.
fn cvta_space(i: &Inst) -> Option<Mod> {
    if i.op != Opcode::Cvta || i.guard.is_some() || i.has(Mod::To) {
        return None;
    }
    i.mods
        .iter()
        .find(|m| matches!(m, Mod::Local | Mod::Shared | Mod::Global | Mod::Const))
}

/// Integer address arithmetic this pass follows: `add`/`sub`/`mov` with
/// only a type modifier, unguarded.
fn arith(i: &Inst) -> bool {
    matches!(i.op, Opcode::Add | Opcode::Sub | Opcode::Mov)
        && i.guard.is_none()
        && i.mods.len() == 1
        && i.ty().and_then(int_width).is_some_and(|w| w >= 32)
        && matches!(i.ops.first(), Some(Opnd::Val(_)))
}

/// Which operand position of an `add`/`sub`/`mov` carries the pointer, by
/// the operands' spaces; None when the result has no single space.
fn pointer_operand(i: &Inst, sp: &[Sp]) -> Result<Option<usize>, ()> {
    let s = |o: &Opnd| match o {
        Opnd::Val(v) => sp[v.idx()],
        Opnd::Imm(_) => Sp::Bot,
        _ => Sp::Bot,
    };
    let srcs = &i.ops[1..];
    match (i.op, srcs) {
        (Opcode::Mov, [a]) => Ok(matches!(a, Opnd::Val(_)).then_some(1)),
        (Opcode::Add, [a, b]) | (Opcode::Sub, [a, b]) => {
            let (sa, sb) = (s(a), s(b));
            if sa == Sp::Top || sb == Sp::Top {
                return Err(()); // wait
            }
            match (sa, sb) {
                (Sp::In(_), Sp::Bot) => Ok(Some(1)),
                (Sp::Bot, Sp::In(_)) if i.op == Opcode::Add => Ok(Some(2)),
                _ => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// The space of every value (Bottom when not provable).
fn spaces(f: &Function) -> Vec<Sp> {
    let mut sp = vec![Sp::Bot; f.values.len()];
    // Candidates start at Top.
    for b in &f.blocks {
        for p in &b.phis {
            sp[p.dst.idx()] = Sp::Top;
        }
        for i in &b.insts {
            if cvta_space(i).is_some() || arith(i) {
                if let Some(Opnd::Val(d)) = i.ops.first() {
                    sp[d.idx()] = Sp::Top;
                }
            }
        }
    }
    let rpo = f.rpo();
    loop {
        let mut changed = false;
        for &b in &rpo {
            let blk = f.block(b);
            for p in &blk.phis {
                let s = p
                    .args
                    .iter()
                    .fold(Sp::Top, |acc, &(_, v)| meet(acc, sp[v.idx()]));
                if s != sp[p.dst.idx()] {
                    sp[p.dst.idx()] = s;
                    changed = true;
                }
            }
            for i in &blk.insts {
                let Some(Opnd::Val(d)) = i.ops.first() else {
                    continue;
                };
                let s = if let Some(m) = cvta_space(i) {
                    Sp::In(m)
                } else if arith(i) {
                    match pointer_operand(i, &sp) {
                        Err(()) => Sp::Top,
                        Ok(None) => Sp::Bot,
                        Ok(Some(k)) => match &i.ops[k] {
                            Opnd::Val(v) => sp[v.idx()],
                            _ => Sp::Bot,
                        },
                    }
                } else {
                    continue;
                };
                if s != sp[d.idx()] {
                    sp[d.idx()] = s;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Values left at Top sit on cycles with no base: not provable.
    for s in &mut sp {
        if *s == Sp::Top {
            *s = Sp::Bot;
        }
    }
    sp
}

/// The memory instructions rewritten, with the space and address operand
/// index: generic (no space modifier) `ld`/`st`/`atom`/`red` whose
/// address base has a space that the instruction allows.
fn candidate(i: &Inst, sp: &[Sp]) -> Option<(usize, Value, Mod)> {
    if !matches!(i.op, Opcode::Ld | Opcode::St | Opcode::Atom | Opcode::Red) {
        return None;
    }
    if i.mods.iter().any(|m| m.cat() == ModCat::Space) {
        return None;
    }
    let k = i.ops.iter().position(|o| matches!(o, Opnd::Addr(_)))?;
    let Opnd::Addr(a) = &i.ops[k] else {
        return None;
    };
    let AddrBase::Val(v) = a.base else {
        return None;
    };
    let Sp::In(s) = sp[v.idx()] else {
        return None;
    };
    let allowed = match (i.op, s) {
        (Opcode::Ld, _) => true,
        (Opcode::St, Mod::Const) => false,
        (Opcode::St, _) => true,
        // atom/red exist only for global and shared (ISA 9.7.13.5).
        (_, Mod::Global | Mod::Shared) => true,
        _ => false,
    };
    allowed.then_some((k, v, s))
}

/// `mods` with the state space inserted after the leading ordering and
/// scope modifiers (`ld.volatile.local.u32`, `atom.relaxed.gpu.global...`).
fn with_space(mods: &Mods, s: Mod) -> Mods {
    let mut out = Vec::with_capacity(mods.len() + 1);
    let mut placed = false;
    for m in mods.iter() {
        if !placed && !matches!(m.cat(), ModCat::Order | ModCat::Scope) {
            out.push(s);
            placed = true;
        }
        out.push(m);
    }
    if !placed {
        out.push(s);
    }
    Mods::from_slice(&out)
}

impl Pass for MemorySpaceOpt {
    fn name(&self) -> &'static str {
        "memory-space-opt"
    }

    fn run(&self, f: &mut Function) -> bool {
        let sp = spaces(f);
        // The values whose specific address is needed, from the rewritten
        // instructions back through the chains.
        let mut need = vec![false; f.values.len()];
        let mut work = Vec::new();
        for b in &f.blocks {
            for i in &b.insts {
                if let Some((_, v, _)) = candidate(i, &sp) {
                    work.push(v);
                }
            }
        }
        if work.is_empty() {
            return false;
        }
        let sites = def_sites(f);
        while let Some(v) = work.pop() {
            if std::mem::replace(&mut need[v.idx()], true) {
                continue;
            }
            match sites[v.idx()] {
                Some(DefSite::Phi(b)) => {
                    let p = f.blocks[b.idx()].phis.iter().find(|p| p.dst == v).unwrap();
                    work.extend(p.args.iter().map(|&(_, a)| a));
                }
                Some(DefSite::Inst(b, k)) => {
                    let i = &f.blocks[b.idx()].insts[k];
                    if cvta_space(i).is_none() {
                        if let Ok(Some(p)) = pointer_operand(i, &sp) {
                            if let Opnd::Val(a) = i.ops[p] {
                                work.push(a);
                            }
                        }
                    }
                }
                None => {}
            }
        }
        // Allocate the specific value of each needed phi and add/sub; a
        // cvta's is its operand, a mov's its operand's.
        let mut twin: Vec<Option<Value>> = vec![None; f.values.len()];
        for (v, &n) in need.iter().enumerate() {
            if !n {
                continue;
            }
            let site = sites[v].expect("a value with a space has a definition");
            let fresh = match site {
                DefSite::Phi(_) => true,
                DefSite::Inst(b, k) => {
                    matches!(f.blocks[b.idx()].insts[k].op, Opcode::Add | Opcode::Sub)
                }
            };
            if fresh {
                let info = f.values[v].clone();
                twin[v] = Some(f.new_value(info.reg, info.ty));
            }
        }
        // cvta operand that is not a register (`cvta.shared.u64 d, sym`):
        // materialize it with a `mov` before the cvta.
        let mut inserts: Vec<(BlockId, usize, Inst)> = Vec::new();
        for (v, &n) in need.iter().enumerate() {
            if !n {
                continue;
            }
            if let Some(DefSite::Inst(b, k)) = sites[v] {
                let i = f.blocks[b.idx()].insts[k].clone();
                if cvta_space(&i).is_some() {
                    match &i.ops[1] {
                        Opnd::Val(a) => twin[v] = Some(*a),
                        o => {
                            let info = f.values[v].clone();
                            let t = f.new_value(info.reg, info.ty);
                            let ty = i.ty().unwrap_or(info.ty);
                            inserts.push((
                                b,
                                k,
                                Inst {
                                    op: Opcode::Mov,
                                    mods: Mods::from_slice(&[Mod::of_type(ty)]),
                                    guard: None,
                                    ops: vec![Opnd::Val(t), o.clone()],
                                    old: vec![],
                                },
                            ));
                            twin[v] = Some(t);
                        }
                    }
                }
            }
        }
        // Resolve movs (their operand's twin), in any order: chains are
        // acyclic outside phis.
        let resolve = |twin: &mut Vec<Option<Value>>, f: &Function, v: Value| -> Value {
            let mut chain = vec![];
            let mut x = v;
            loop {
                if let Some(t) = twin[x.idx()] {
                    for c in chain {
                        twin[c] = Some(t);
                    }
                    return t;
                }
                let Some(DefSite::Inst(b, k)) = sites[x.idx()] else {
                    unreachable!("a needed value has a twin or is a mov");
                };
                let Opnd::Val(a) = f.blocks[b.idx()].insts[k].ops[1] else {
                    unreachable!("a mov of a value");
                };
                chain.push(x.idx());
                x = a;
            }
        };
        // Build the new add/sub copies and phis.
        for v in 0..need.len() {
            if !need[v] {
                continue;
            }
            match sites[v] {
                Some(DefSite::Phi(b)) => {
                    let args: Vec<(BlockId, Value)> = f.blocks[b.idx()]
                        .phis
                        .iter()
                        .find(|p| p.dst.idx() == v)
                        .unwrap()
                        .args
                        .clone();
                    let args = args
                        .into_iter()
                        .map(|(pb, a)| (pb, resolve(&mut twin, f, a)))
                        .collect();
                    let dst = twin[v].unwrap();
                    f.blocks[b.idx()].phis.push(Phi { dst, args });
                }
                Some(DefSite::Inst(b, k)) => {
                    let i = f.blocks[b.idx()].insts[k].clone();
                    if !matches!(i.op, Opcode::Add | Opcode::Sub) {
                        continue;
                    }
                    let p = pointer_operand(&i, &sp).ok().flatten().unwrap();
                    let Opnd::Val(a) = i.ops[p] else {
                        unreachable!()
                    };
                    let mut c = i;
                    c.ops[0] = Opnd::Val(twin[v].unwrap());
                    c.ops[p] = Opnd::Val(resolve(&mut twin, f, a));
                    inserts.push((b, k + 1, c));
                }
                None => {}
            }
        }
        // Rewrite the memory instructions.
        for bi in 0..f.blocks.len() {
            for k in 0..f.blocks[bi].insts.len() {
                let Some((ak, v, s)) = candidate(&f.blocks[bi].insts[k], &sp) else {
                    continue;
                };
                let t = resolve(&mut twin, f, v);
                let i = &mut f.blocks[bi].insts[k];
                if let Opnd::Addr(a) = &mut i.ops[ak] {
                    a.base = AddrBase::Val(t);
                }
                i.mods = with_space(&i.mods, s);
            }
        }
        // Insert the new instructions, last positions first so earlier
        // indices stay valid; at one position keep the listed order.
        inserts.sort_by_key(|(b, k, _)| (b.0, *k));
        for (b, k, i) in inserts.into_iter().rev() {
            f.blocks[b.idx()].insts.insert(k, i);
        }
        true
    }
}
