//! Loop structure shared by the loop passes (LoopSimplify, LoopUnroll,
//! LoopIndexSplit, Sink, NVVMSinking2, NVVMRematerialization): natural
//! loops, splitting a block's incoming edges (LLVM's
//! SplitBlockPredecessors), LCSSA phis at a dedicated exit, cloning a
//! loop body, and the canonical induction variable with its trip count.
//!
//! A natural loop is the set of blocks that reach a latch (a block with
//! an edge to the header) without passing through the header, where the
//! header dominates the latch (Aho et al., "Compilers", 9.6). Loops with
//! the same header are one loop (all its latches together).

use super::sccp::{eval, Lat};
use super::util::{constants, def_sites, DefSite};
use crate::nvopt::ir::*;
pub use crate::nvopt::lift::dominates;
use crate::nvopt::lift::idoms;
use crate::ptx::isa::{Family, Opcode};
use rustc_hash::FxHashMap;

/// One natural loop.
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: BlockId,
    /// Per block of the function: in the loop.
    pub body: Vec<bool>,
    /// Blocks with an edge to the header, in block order.
    pub latches: Vec<BlockId>,
}

impl Loop {
    pub fn contains(&self, b: BlockId) -> bool {
        self.body[b.idx()]
    }

    /// The loop's blocks in block order.
    pub fn blocks(&self) -> Vec<BlockId> {
        (0..self.body.len())
            .filter(|&i| self.body[i])
            .map(|i| BlockId(i as u32))
            .collect()
    }

    pub fn size(&self) -> usize {
        self.body.iter().filter(|&&x| x).count()
    }

    /// The header's single predecessor outside the loop when it ends in an
    /// unconditional branch (a preheader, after LoopSimplify).
    pub fn preheader(&self, f: &Function, preds: &[Vec<BlockId>]) -> Option<BlockId> {
        let outside: Vec<BlockId> = preds[self.header.idx()]
            .iter()
            .copied()
            .filter(|p| !self.contains(*p))
            .collect();
        match outside.as_slice() {
            [p] if matches!(f.blocks[p.idx()].term, Term::Br { .. }) => Some(*p),
            _ => None,
        }
    }

    /// Edges leaving the loop: (inside block, outside target).
    pub fn exit_edges(&self, f: &Function) -> Vec<(BlockId, BlockId)> {
        let mut v = Vec::new();
        for b in self.blocks() {
            for s in f.blocks[b.idx()].term.succs() {
                if !self.contains(s) {
                    v.push((b, s));
                }
            }
        }
        v
    }

    /// Whether another loop's header lies inside this loop.
    pub fn has_inner(&self, all: &[Loop]) -> bool {
        all.iter()
            .any(|l| l.header != self.header && self.contains(l.header))
    }

    pub fn inst_count(&self, f: &Function) -> usize {
        self.blocks()
            .iter()
            .map(|b| f.blocks[b.idx()].insts.len() + f.blocks[b.idx()].phis.len() + 1)
            .sum()
    }
}

/// The natural loops of the reachable blocks, innermost (fewest blocks)
/// first, ties by header.
pub fn find_loops(f: &Function) -> Vec<Loop> {
    let idom = idoms(f);
    let preds = f.preds();
    let n = f.blocks.len();
    let mut loops: Vec<Loop> = Vec::new();
    for latch in 0..n {
        if idom[latch].is_none() {
            continue;
        }
        let lb = BlockId(latch as u32);
        for h in f.blocks[latch].term.succs() {
            if !dominates(&idom, h, lb) {
                continue;
            }
            let k = match loops.iter().position(|l| l.header == h) {
                Some(k) => k,
                None => {
                    let mut body = vec![false; n];
                    body[h.idx()] = true;
                    loops.push(Loop {
                        header: h,
                        body,
                        latches: vec![],
                    });
                    loops.len() - 1
                }
            };
            loops[k].latches.push(lb);
            let mut work = vec![lb];
            while let Some(b) = work.pop() {
                if !loops[k].body[b.idx()] {
                    loops[k].body[b.idx()] = true;
                    work.extend(preds[b.idx()].iter().copied());
                }
            }
        }
    }
    loops.sort_by_key(|l| (l.size(), l.header.0));
    loops
}

/// Instructions whose result or effect depends on which threads execute
/// them together (barriers, warp votes, shuffles, matches, reductions,
/// `activemask`) or that may contain such code (`call`): a pass that
/// changes control flow around them could change which threads take part
/// (PTX ISA 9.7.13: `bar.sync` and the `.sync` warp operations require
/// the participating threads to execute the same instruction). Memory
/// operations of the Sync family (`atom`, `red`, `membar`, `fence`) are
/// ordinary effects.
pub fn is_convergent(i: &Inst) -> bool {
    matches!(i.op, Opcode::Call)
        || (i.op.family() == Family::Sync
            && !matches!(
                i.op,
                Opcode::Atom | Opcode::Red | Opcode::Membar | Opcode::Fence
            ))
}

pub fn loop_has_convergent(f: &Function, l: &Loop) -> bool {
    l.blocks()
        .iter()
        .any(|b| f.blocks[b.idx()].insts.iter().any(is_convergent))
}

/// Appends an empty block ending in `br target`.
pub fn new_block(f: &mut Function, target: BlockId) -> BlockId {
    f.blocks.push(Block {
        phis: vec![],
        insts: vec![],
        term: Term::Br {
            target,
            mods: Default::default(),
        },
    });
    BlockId(f.blocks.len() as u32 - 1)
}

/// Redirects the edges from `from` (predecessors of `block`) to a new
/// block that branches to `block`. Each phi of `block` takes one argument
/// from the new block: the single incoming value when `from` has one
/// block, else a new phi in the new block merging the `from` arguments.
pub fn split_preds(f: &mut Function, block: BlockId, from: &[BlockId]) -> BlockId {
    let nb = new_block(f, block);
    for &p in from {
        for s in f.blocks[p.idx()].term.succs_mut() {
            if *s == block {
                *s = nb;
            }
        }
    }
    let phis = std::mem::take(&mut f.blocks[block.idx()].phis);
    let mut kept = Vec::with_capacity(phis.len());
    for mut phi in phis {
        let (moved, stay): (Vec<_>, Vec<_>) =
            phi.args.into_iter().partition(|(b, _)| from.contains(b));
        phi.args = stay;
        let v = if moved.len() == 1 {
            moved[0].1
        } else {
            let info = f.values[phi.dst.idx()].clone();
            let d = f.new_value(info.reg, info.ty);
            f.blocks[nb.idx()].phis.push(Phi {
                dst: d,
                args: moved,
            });
            d
        };
        phi.args.push((nb, v));
        kept.push(phi);
    }
    f.blocks[block.idx()].phis = kept;
    nb
}

/// Drops phi arguments of `block` whose block no longer branches to it.
pub fn drop_stale_phi_args(f: &mut Function, block: BlockId) {
    let preds = f.preds();
    for p in &mut f.blocks[block.idx()].phis {
        p.args.retain(|(b, _)| preds[block.idx()].contains(b));
    }
}

/// LCSSA for a loop whose only exit is `exit` with the single predecessor
/// `exiting`: every value defined in the loop and used outside it (other
/// than by `exit`'s phis) is routed through a new phi in `exit`. Sound
/// because every block outside the loop that a loop value dominates is
/// reached only through the edge `exiting -> exit`, so `exit` dominates it.
pub fn form_lcssa(f: &mut Function, l: &Loop, exiting: BlockId, exit: BlockId) {
    let mut in_loop = vec![false; f.values.len()];
    for b in l.blocks() {
        let blk = &f.blocks[b.idx()];
        for p in &blk.phis {
            in_loop[p.dst.idx()] = true;
        }
        for i in &blk.insts {
            for d in i.defs() {
                in_loop[d.idx()] = true;
            }
        }
    }
    let mut map: FxHashMap<Value, Value> = FxHashMap::default();
    let mut new_phis = Vec::new();
    let n = f.blocks.len();
    for bi in 0..n {
        if l.body[bi] {
            continue;
        }
        let bid = BlockId(bi as u32);
        let mut get = |v: &mut Value, f_values: &mut Vec<ValueInfo>| {
            if v.idx() < in_loop.len() && in_loop[v.idx()] {
                let w = *map.entry(*v).or_insert_with(|| {
                    let info = f_values[v.idx()].clone();
                    f_values.push(ValueInfo {
                        undef: false,
                        ..info
                    });
                    let w = Value(f_values.len() as u32 - 1);
                    new_phis.push(Phi {
                        dst: w,
                        args: vec![(exiting, *v)],
                    });
                    w
                });
                *v = w;
            }
        };
        let mut blk = std::mem::replace(
            &mut f.blocks[bi],
            Block {
                phis: vec![],
                insts: vec![],
                term: Term::Ret {
                    mods: Default::default(),
                },
            },
        );
        if bid != exit {
            for p in &mut blk.phis {
                for (_, v) in &mut p.args {
                    get(v, &mut f.values);
                }
            }
        }
        for i in &mut blk.insts {
            i.for_each_use_mut(|v| get(v, &mut f.values));
        }
        if let Term::CondBr { pred, .. } = &mut blk.term {
            get(pred, &mut f.values);
        }
        f.blocks[bi] = blk;
    }
    f.blocks[exit.idx()].phis.extend(new_phis);
}

/// A copy of a loop's blocks: the block and value maps from the original.
pub struct Copy {
    pub blocks: FxHashMap<BlockId, BlockId>,
    pub values: FxHashMap<Value, Value>,
}

impl Copy {
    pub fn val(&self, v: Value) -> Value {
        self.values.get(&v).copied().unwrap_or(v)
    }
    pub fn block(&self, b: BlockId) -> BlockId {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

/// Clones the loop's blocks once. The header's phis are not cloned: each
/// maps to `header_in[phi]` (the value entering this copy's iteration).
/// Edges inside the loop go to the copies; edges to the header and out of
/// the loop keep their targets (the caller rewires them); phis of
/// outside blocks are not updated.
pub fn clone_loop(f: &mut Function, l: &Loop, header_in: &FxHashMap<Value, Value>) -> Copy {
    let blocks = l.blocks();
    let mut c = Copy {
        blocks: FxHashMap::default(),
        values: header_in.clone(),
    };
    let base = f.blocks.len() as u32;
    for (k, &b) in blocks.iter().enumerate() {
        c.blocks.insert(b, BlockId(base + k as u32));
    }
    // New values for every definition (header phis excepted).
    for &b in &blocks {
        let blk = f.blocks[b.idx()].clone();
        if b != l.header {
            for p in &blk.phis {
                let info = f.values[p.dst.idx()].clone();
                let d = f.new_value(info.reg, info.ty);
                c.values.insert(p.dst, d);
            }
        }
        for i in &blk.insts {
            for d in i.defs() {
                let info = f.values[d.idx()].clone();
                let nd = f.new_value(info.reg, info.ty);
                c.values.insert(d, nd);
            }
        }
    }
    for &b in &blocks {
        let mut blk = f.blocks[b.idx()].clone();
        if b == l.header {
            blk.phis.clear();
        }
        for p in &mut blk.phis {
            p.dst = c.val(p.dst);
            for (pb, v) in &mut p.args {
                *pb = c.block(*pb);
                *v = c.val(*v);
            }
        }
        for i in &mut blk.insts {
            i.for_each_use_mut(|v| *v = c.val(*v));
            for d in i.defs_mut() {
                *d = c.val(*d);
            }
        }
        if let Term::CondBr { pred, .. } = &mut blk.term {
            *pred = c.val(*pred);
        }
        for s in blk.term.succs_mut() {
            if *s != l.header && l.contains(*s) {
                *s = c.block(*s);
            }
        }
        f.blocks.push(blk);
    }
    c
}

/// A canonical induction variable: a header phi `iv = phi [init, pre],
/// [next, latch]` with `next = add iv, step` (or `sub iv, step`) and a
/// constant step, tested by the exiting block's branch through
/// `setp.CMP.T p, x, bound` (either operand order) where `x` is `iv` or
/// `next` and `bound` is a constant or a loop-invariant value.
#[derive(Clone, Debug)]
pub struct Iv {
    pub phi: Value,
    pub init: Value,
    pub next: Value,
    /// The setp defining the exit condition (block, index).
    pub cmp_at: (BlockId, usize),
    /// Whether the setp reads `next` (else `iv`).
    pub cmp_reads_next: bool,
    /// The branch continues the loop when the setp result is this.
    pub continue_when: bool,
}

/// The loop's exit test: its single exiting block, which must dominate
/// the single latch, ends in a conditional branch with one target in the
/// loop and one (`exit`) outside; returns (exiting, in-loop target, exit).
pub fn single_exit(f: &Function, l: &Loop) -> Option<(BlockId, BlockId, BlockId)> {
    let edges = l.exit_edges(f);
    let [(x, e)] = edges.as_slice() else {
        return None;
    };
    let [latch] = l.latches.as_slice() else {
        return None;
    };
    let idom = idoms(f);
    if !dominates(&idom, *x, *latch) {
        return None;
    }
    let Term::CondBr { then_, else_, .. } = f.blocks[x.idx()].term else {
        return None;
    };
    let inside = if then_ == *e { else_ } else { then_ };
    Some((*x, inside, *e))
}

/// Finds the canonical induction variable that controls the exit branch
/// of `x` (see [`Iv`]).
pub fn find_iv(f: &Function, l: &Loop, x: BlockId) -> Option<Iv> {
    let Term::CondBr {
        pred,
        negated,
        then_,
        ..
    } = f.blocks[x.idx()].term
    else {
        return None;
    };
    let sites = def_sites(f);
    let Some(DefSite::Inst(cb, ck)) = sites[pred.idx()] else {
        return None;
    };
    if !l.contains(cb) {
        return None;
    }
    let cmp = &f.blocks[cb.idx()].insts[ck];
    if cmp.op != Opcode::Setp || cmp.guard.is_some() || cmp.srcs().len() != 2 {
        return None;
    }
    let [Opnd::Val(_), a, b] = cmp.ops.as_slice() else {
        return None;
    };
    let [latch] = l.latches.as_slice() else {
        return None;
    };
    let continue_when = l.contains(then_) != negated;
    let invariant = |o: &Opnd| match o {
        Opnd::Imm(_) => true,
        Opnd::Val(v) => match sites[v.idx()] {
            Some(DefSite::Inst(b, _)) | Some(DefSite::Phi(b)) => !l.contains(b),
            None => !f.values[v.idx()].undef,
        },
        _ => false,
    };
    for phi in &f.blocks[l.header.idx()].phis {
        let init = phi.args.iter().find(|(b, _)| !l.contains(*b))?.1;
        let next = phi.args.iter().find(|(b, _)| b == latch)?.1;
        let Some(DefSite::Inst(nb, nk)) = sites[next.idx()] else {
            continue;
        };
        let add = &f.blocks[nb.idx()].insts[nk];
        let ok_add = matches!(add.op, Opcode::Add | Opcode::Sub)
            && add.guard.is_none()
            && super::util::mods_only(add, &[])
            && add.ty().is_some_and(|t| t.is_int() || t.bit_type() == t)
            && matches!(add.srcs(), [Opnd::Val(p), Opnd::Imm(_)] if *p == phi.dst);
        if !ok_add {
            continue;
        }
        for (iv_side, bound) in [(a, b), (b, a)] {
            let Opnd::Val(xv) = iv_side else { continue };
            if (*xv == phi.dst || *xv == next) && invariant(bound) {
                return Some(Iv {
                    phi: phi.dst,
                    init,
                    next,
                    cmp_at: (cb, ck),
                    cmp_reads_next: *xv == next,
                    continue_when,
                });
            }
        }
    }
    None
}

/// The number of times the exiting block's test runs before the loop
/// exits, when the initial value and the bound are constants and the
/// loop exits within `limit` tests. Computed by evaluating the induction
/// variable's add and the setp exactly (bit-width wrap-around, signed or
/// unsigned compares: [`super::sccp::eval`]), iteration by iteration.
pub fn const_trip_count(f: &Function, iv: &Iv, limit: u64) -> Option<u64> {
    let consts = constants(f);
    let sites = def_sites(f);
    let Some(DefSite::Inst(nb, nk)) = sites[iv.next.idx()] else {
        return None;
    };
    let add = &f.blocks[nb.idx()].insts[nk];
    let cmp = &f.blocks[iv.cmp_at.0.idx()].insts[iv.cmp_at.1];
    let mut cur = consts[iv.init.idx()]?;
    let base = |o: &Opnd, bits: u32| -> Lat {
        match o {
            Opnd::Imm(i) => super::util::imm_bits(i, bits).map_or(Lat::Bot, Lat::C),
            Opnd::Val(v) => {
                consts[v.idx()].map_or(Lat::Bot, |c| Lat::C(super::util::truncate(c, bits)))
            }
            _ => Lat::Bot,
        }
    };
    for k in 0..limit {
        let phi_v = cur;
        let get_add = |o: &Opnd, bits: u32| match o {
            Opnd::Val(v) if *v == iv.phi => Lat::C(super::util::truncate(phi_v, bits)),
            _ => base(o, bits),
        };
        let Some(Lat::C(next_v)) = eval(add, &get_add) else {
            return None;
        };
        let x = if iv.cmp_reads_next { next_v } else { phi_v };
        let xv = if iv.cmp_reads_next { iv.next } else { iv.phi };
        let get_cmp = |o: &Opnd, bits: u32| match o {
            Opnd::Val(v) if *v == xv => Lat::C(super::util::truncate(x, bits)),
            _ => base(o, bits),
        };
        let Some(Lat::C(c)) = eval(cmp, &get_cmp) else {
            return None;
        };
        if (c != 0) != iv.continue_when {
            return Some(k + 1);
        }
        cur = next_v;
    }
    None
}

/// [`crate::nvopt::lift::remove_unreachable`], renumbering the block ids
/// in `ids` the same way (ids of removed blocks are dropped).
pub fn remove_unreachable_tracking(f: &mut Function, ids: &mut Vec<BlockId>) {
    let mut reach = vec![false; f.blocks.len()];
    for b in f.rpo() {
        reach[b.idx()] = true;
    }
    let mut map = vec![None; f.blocks.len()];
    let mut k = 0u32;
    for (i, &r) in reach.iter().enumerate() {
        if r {
            map[i] = Some(BlockId(k));
            k += 1;
        }
    }
    *ids = ids.iter().filter_map(|b| map[b.idx()]).collect();
    crate::nvopt::lift::remove_unreachable(f);
}

/// The induction variable's values `(iv, next)` in iterations `0..n`,
/// evaluated exactly; `None` when the initial value is not a constant.
pub fn iv_sequence(f: &Function, iv: &Iv, n: u64) -> Option<Vec<(u64, u64)>> {
    let consts = constants(f);
    let sites = def_sites(f);
    let Some(DefSite::Inst(nb, nk)) = sites[iv.next.idx()] else {
        return None;
    };
    let add = &f.blocks[nb.idx()].insts[nk];
    let mut cur = consts[iv.init.idx()]?;
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let phi_v = cur;
        let get = |o: &Opnd, bits: u32| match o {
            Opnd::Val(v) if *v == iv.phi => Lat::C(super::util::truncate(phi_v, bits)),
            Opnd::Imm(i) => super::util::imm_bits(i, bits).map_or(Lat::Bot, Lat::C),
            _ => Lat::Bot,
        };
        let Some(Lat::C(next_v)) = eval(add, &get) else {
            return None;
        };
        out.push((phi_v, next_v));
        cur = next_v;
    }
    Some(out)
}

/// The result of a `setp` that reads `x` (set to `val`) and otherwise
/// only constants; `None` when it does not fold.
pub fn eval_setp(f: &Function, cmp: &Inst, x: Value, val: u64) -> Option<bool> {
    let consts = constants(f);
    let get = |o: &Opnd, bits: u32| match o {
        Opnd::Val(v) if *v == x => Lat::C(super::util::truncate(val, bits)),
        Opnd::Val(v) => {
            consts[v.idx()].map_or(Lat::Bot, |c| Lat::C(super::util::truncate(c, bits)))
        }
        Opnd::Imm(i) => super::util::imm_bits(i, bits).map_or(Lat::Bot, Lat::C),
        _ => Lat::Bot,
    };
    match eval(cmp, &get) {
        Some(Lat::C(c)) if cmp.op == Opcode::Setp => Some(c != 0),
        _ => None,
    }
}
