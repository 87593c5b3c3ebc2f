//! SCCP: sparse conditional constant propagation (Wegman & Zadeck, 1991)
//! over integer values. A value is unknown (Top), one constant, or
//! varying (Bottom); only edges of executable branches count at phis; a
//! branch on a constant predicate executes one edge. Afterwards constant
//! values are materialized as `mov d, imm`, constant phis become `mov`s,
//! and constant branches become jumps (SimplifyCFG deletes what becomes
//! unreachable; this pass does too).
//!
//! Folding is bit-exact by construction: only integer and predicate
//! operations whose PTX semantics are plain two's-complement arithmetic
//! are evaluated (`mov`, `add`/`sub` without `.sat`/`.cc`, `mul.lo`,
//! `and`/`or`/`xor`/`not`, `shl`/`shr` with the ISA's clamped shift
//! amount, integer `setp` without a combining predicate, `selp`), by the
//! rules the PTX interpreter executes (`ptxc::int`). Float
//! operations, conversions and everything else are varying: when unsure,
//! do not fold. Guarded definitions and undefined values are varying.

use super::util::*;
use super::Pass;
use crate::int::{self, IntCmp, IntTy};
use crate::nvopt::ir::*;
use crate::nvopt::lift::remove_unreachable;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;

pub struct Sccp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum L {
    Top,
    C(u64),
    Bot,
}

fn meet(a: L, b: L) -> L {
    match (a, b) {
        (L::Top, x) | (x, L::Top) => x,
        (L::C(x), L::C(y)) if x == y => L::C(x),
        _ => L::Bot,
    }
}

fn opnd(o: &Opnd, lat: &[L], bits: u32) -> L {
    match o {
        Opnd::Val(v) => match lat[v.idx()] {
            L::C(c) => L::C(truncate(c, bits)),
            x => x,
        },
        Opnd::Imm(i) => imm_bits(i, bits).map_or(L::Bot, L::C),
        _ => L::Bot,
    }
}

/// Evaluates a foldable instruction; `None` when it is not foldable.
pub(crate) fn eval(i: &Inst, get: &dyn Fn(&Opnd, u32) -> L2) -> Option<L2> {
    let ty = i.ty()?;
    let w = int_width(ty)?;
    let srcs = i.srcs();
    let all = |n: usize| -> Option<Vec<L2>> {
        if srcs.len() != n {
            return None;
        }
        Some(srcs.iter().map(|o| get(o, w)).collect())
    };
    let consts = |xs: &[L2]| -> Result<Vec<u64>, L2> {
        if xs.contains(&L2::Bot) {
            return Err(L2::Bot);
        }
        if xs.contains(&L2::Top) {
            return Err(L2::Top);
        }
        Ok(xs
            .iter()
            .map(|x| if let L2::C(c) = x { *c } else { 0 })
            .collect())
    };
    let shift_amt = |o: &Opnd| get(o, 32);
    let t = IntTy::new(w, ty.is_signed());
    let r = match i.op {
        Opcode::Mov if mods_only(i, &[]) => {
            let xs = all(1)?;
            match consts(&xs) {
                Ok(c) => L2::C(truncate(c[0], w)),
                Err(e) => e,
            }
        }
        Opcode::Add | Opcode::Sub | Opcode::And | Opcode::Or | Opcode::Xor if mods_only(i, &[]) => {
            let xs = all(2)?;
            match consts(&xs) {
                Ok(c) => L2::C(match i.op {
                    Opcode::Add => int::add(t, c[0], c[1]),
                    Opcode::Sub => int::sub(t, c[0], c[1]),
                    Opcode::And => int::and(t, c[0], c[1]),
                    Opcode::Or => int::or(t, c[0], c[1]),
                    _ => int::xor(t, c[0], c[1]),
                }),
                Err(e) => e,
            }
        }
        Opcode::Mul if mods_only(i, &[Mod::Lo]) && i.has(Mod::Lo) && w > 1 => {
            let xs = all(2)?;
            match consts(&xs) {
                Ok(c) => L2::C(int::mul_lo(t, c[0], c[1])),
                Err(e) => e,
            }
        }
        Opcode::Not if mods_only(i, &[]) => {
            let xs = all(1)?;
            match consts(&xs) {
                Ok(c) => L2::C(int::not(t, c[0])),
                Err(e) => e,
            }
        }
        // PTX ISA 9.7.8.8/9 (`ptxc::int::shl`, `shr`): shift amounts above
        // the width are clamped to the width; `shr.sN` is arithmetic,
        // `.bN`/`.uN` logical.
        Opcode::Shl | Opcode::Shr if mods_only(i, &[]) && w > 1 => {
            if srcs.len() != 2 {
                return None;
            }
            let xs = [get(&srcs[0], w), shift_amt(&srcs[1])];
            match consts(&xs) {
                Ok(c) => {
                    let n = c[1].min(u64::from(w)) as u32;
                    L2::C(if i.op == Opcode::Shl {
                        int::shl(t, c[0], n)
                    } else {
                        int::shr(t, c[0], n)
                    })
                }
                Err(e) => e,
            }
        }
        Opcode::Setp if w > 1 => {
            // setp.CMP.T p, a, b (no `|q`, no combining predicate).
            if !matches!(i.ops.first(), Some(Opnd::Val(_))) || srcs.len() != 2 {
                return None;
            }
            let cmp = i
                .mods
                .iter()
                .find(|m| m.cat() == crate::ptx::modifiers::ModCat::Cmp)?;
            if !mods_only(i, &[cmp]) {
                return None;
            }
            let xs = all(2)?;
            match consts(&xs) {
                Ok(c) => {
                    let op = match cmp {
                        Mod::Eq => IntCmp::Eq,
                        Mod::Ne => IntCmp::Ne,
                        Mod::Lt => IntCmp::Lt,
                        Mod::Le => IntCmp::Le,
                        Mod::Gt => IntCmp::Gt,
                        Mod::Ge => IntCmp::Ge,
                        Mod::Lo => IntCmp::Lo,
                        Mod::Ls => IntCmp::Ls,
                        Mod::Hi => IntCmp::Hi,
                        Mod::Hs => IntCmp::Hs,
                        _ => return None,
                    };
                    L2::C(u64::from(int::compare(t, op, c[0], c[1])))
                }
                Err(e) => e,
            }
        }
        Opcode::Selp if mods_only(i, &[]) => {
            if srcs.len() != 3 {
                return None;
            }
            match get(&srcs[2], 1) {
                L2::C(p) => get(if p != 0 { &srcs[0] } else { &srcs[1] }, w),
                x => x,
            }
        }
        _ => return None,
    };
    Some(r)
}

/// The lattice, shared with InstCombine's evaluator.
pub(crate) type L2 = Lat;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lat {
    Top,
    C(u64),
    Bot,
}

impl From<L> for Lat {
    fn from(l: L) -> Lat {
        match l {
            L::Top => Lat::Top,
            L::C(c) => Lat::C(c),
            L::Bot => Lat::Bot,
        }
    }
}

impl From<Lat> for L {
    fn from(l: Lat) -> L {
        match l {
            Lat::Top => L::Top,
            Lat::C(c) => L::C(c),
            Lat::Bot => L::Bot,
        }
    }
}

impl Pass for Sccp {
    fn name(&self) -> &'static str {
        "sccp"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut lat: Vec<L> = f
            .values
            .iter()
            .map(|v| if v.undef { L::Bot } else { L::Top })
            .collect();
        let nb = f.blocks.len();
        let mut exec = vec![false; nb];
        let mut edge: rustc_hash::FxHashSet<(u32, u32)> = Default::default();
        exec[0] = true;
        let rpo = f.rpo();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &rpo {
                if !exec[b.idx()] {
                    continue;
                }
                let blk = &f.blocks[b.idx()];
                let mut set = |v: Value, x: L, lat: &mut Vec<L>| {
                    let m = match (lat[v.idx()], x) {
                        (L::Top, x) => x,
                        (a, x) => meet(a, x),
                    };
                    if m != lat[v.idx()] {
                        lat[v.idx()] = m;
                        changed = true;
                    }
                };
                for p in &blk.phis {
                    let mut x = L::Top;
                    for &(pb, a) in &p.args {
                        if edge.contains(&(pb.0, b.0)) {
                            x = meet(x, lat[a.idx()]);
                        }
                    }
                    set(p.dst, x, &mut lat);
                }
                for i in &blk.insts {
                    let defs = i.defs();
                    let r = if i.guard.is_none() && i.is_pure() && defs.len() == 1 {
                        let snapshot = &lat;
                        let get = |o: &Opnd, bits: u32| Lat::from(opnd(o, snapshot, bits));
                        eval(i, &get).map(L::from).unwrap_or(L::Bot)
                    } else {
                        L::Bot
                    };
                    for d in defs {
                        set(d, r, &mut lat);
                    }
                }
                let mut take = |s: BlockId, exec: &mut Vec<bool>| {
                    if edge.insert((b.0, s.0)) {
                        changed = true;
                    }
                    if !exec[s.idx()] {
                        exec[s.idx()] = true;
                        changed = true;
                    }
                };
                match blk.term {
                    Term::Br { target, .. } => take(target, &mut exec),
                    Term::CondBr {
                        pred,
                        negated,
                        then_,
                        else_,
                        ..
                    } => match lat[pred.idx()] {
                        L::Top => {}
                        L::C(c) => take(if (c != 0) != negated { then_ } else { else_ }, &mut exec),
                        L::Bot => {
                            take(then_, &mut exec);
                            take(else_, &mut exec);
                        }
                    },
                    _ => {}
                }
            }
        }
        // Rewrite.
        let mut did = false;
        for (bi, &executed) in exec.iter().enumerate() {
            if !executed {
                continue;
            }
            let b = BlockId(bi as u32);
            // Constant phis become movs at the block start.
            let phis = std::mem::take(&mut f.blocks[bi].phis);
            let mut keep = Vec::new();
            let mut movs = Vec::new();
            for p in phis {
                match lat[p.dst.idx()] {
                    L::C(c) => {
                        movs.push(mov_const(f, p.dst, c));
                        did = true;
                    }
                    _ => keep.push(p),
                }
            }
            f.blocks[bi].phis = keep;
            for k in 0..f.blocks[bi].insts.len() {
                let i = &f.blocks[bi].insts[k];
                if i.guard.is_some() || !i.is_pure() || const_of_inst(f, i).is_some() {
                    continue;
                }
                let defs = i.defs();
                if defs.len() != 1 {
                    continue;
                }
                if let L::C(c) = lat[defs[0].idx()] {
                    f.blocks[bi].insts[k] = mov_const(f, defs[0], c);
                    did = true;
                }
            }
            if !movs.is_empty() {
                movs.append(&mut f.blocks[bi].insts);
                f.blocks[bi].insts = movs;
            }
            if let Term::CondBr {
                pred,
                negated,
                then_,
                else_,
                mods,
            } = f.blocks[bi].term.clone()
            {
                if let L::C(c) = lat[pred.idx()] {
                    let (t, n) = if (c != 0) != negated {
                        (then_, else_)
                    } else {
                        (else_, then_)
                    };
                    if n != t {
                        for p in &mut f.blocks[n.idx()].phis {
                            p.args.retain(|(pb, _)| *pb != b);
                        }
                    }
                    f.blocks[bi].term = Term::Br { target: t, mods };
                    did = true;
                }
            }
        }
        let before = f.blocks.len();
        remove_unreachable(f);
        did || before != f.blocks.len()
    }
}
