//! Sink (cicc's, docs/MODEL.md, NvOpt pipelines: "Sink/MemSSA", knob `no-sink`): moves an
//! instruction from its block into a successor that is the only place its
//! result is needed, so paths that do not need it do not compute it
//! (LLVM's Sink pass).
//!
//! An instruction of block `B` moves to the top of a successor `U` when
//! - `U`'s only predecessor is `B` (so `U` runs at most once per run of
//!   `B`: never into a loop, and no new path computes it);
//! - every use is dominated by `U` (a phi argument counts as a use at the
//!   end of its incoming block), and none is in `B` itself;
//! - it is pure ([`Inst::is_pure`]) and not an integer `div`/`rem`
//!   ([`Inst::may_trap_or_undef`], as LICM), or it is a plain load
//!   ([`is_plain_load`]) and no instruction after it in `B` has an effect
//!   (no store, atomic, barrier, fence or call between the old and the new
//!   place: a load never moves past a write or a synchronization).
//!
//! Instructions are visited from the bottom of each block up, repeatedly,
//! so a chain of operands follows its user.

use super::loop_util::dominates;
use super::Pass;
use crate::nvopt::ir::*;
use crate::nvopt::lift::idoms;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;

pub struct Sink;

/// `ld` with only a state space and a type: no `.volatile`, no memory
/// order or scope, no cache operator, no vector (PTX ISA 9.7.9.8).
pub fn is_plain_load(i: &Inst) -> bool {
    i.op == Opcode::Ld
        && i.guard.is_none()
        && matches!(i.ops.first(), Some(Opnd::Val(_)))
        && super::util::mods_only(
            i,
            &[
                Mod::Global,
                Mod::Shared,
                Mod::SharedCta,
                Mod::Local,
                Mod::Const,
                Mod::Param,
                Mod::ParamEntry,
                Mod::ParamFunc,
            ],
        )
}

/// Where each value is used: the blocks whose position must be dominated
/// (instruction and terminator uses: their block; phi arguments: the
/// incoming block).
pub fn use_blocks(f: &Function) -> Vec<Vec<BlockId>> {
    let mut u: Vec<Vec<BlockId>> = vec![Vec::new(); f.values.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for p in &b.phis {
            for &(pb, v) in &p.args {
                u[v.idx()].push(pb);
            }
        }
        for i in &b.insts {
            i.for_each_use(|v| u[v.idx()].push(bid));
        }
        if let Some(v) = b.term.uses() {
            u[v.idx()].push(bid);
        }
    }
    u
}

/// May instruction `k` of block `b` move below the rest of its block?
pub fn movable(f: &Function, b: usize, k: usize, loads: bool) -> bool {
    let i = &f.blocks[b].insts[k];
    if i.is_pure() && !i.may_trap_or_undef() {
        return true;
    }
    loads
        && is_plain_load(i)
        && f.blocks[b].insts[k + 1..]
            .iter()
            .all(|j| j.is_pure() || is_plain_load(j))
}

/// Chooses the block an instruction of block `b` moves to, given the
/// function, immediate dominators, predecessors, `b` and the use blocks.
pub type Target<'a> = &'a dyn Fn(
    &Function,
    &[Option<BlockId>],
    &[Vec<BlockId>],
    usize,
    &[BlockId],
) -> Option<BlockId>;

/// One pass over the function with `target` choosing where instruction
/// `k` of block `b` goes (or `None`); true when something moved.
pub fn sink_with(f: &mut Function, loads: bool, target: Target) -> bool {
    let mut changed = false;
    loop {
        let idom = idoms(f);
        let preds = f.preds();
        let uses = use_blocks(f);
        let mut moved = false;
        'blocks: for bi in 0..f.blocks.len() {
            if idom[bi].is_none() {
                continue;
            }
            for k in (0..f.blocks[bi].insts.len()).rev() {
                if !movable(f, bi, k, loads) {
                    continue;
                }
                let defs = f.blocks[bi].insts[k].defs();
                let mut ub: Vec<BlockId> = Vec::new();
                for d in &defs {
                    ub.extend(uses[d.idx()].iter().copied());
                }
                if ub.is_empty() || ub.iter().any(|b| b.idx() == bi) {
                    continue;
                }
                let Some(t) = target(f, &idom, &preds, bi, &ub) else {
                    continue;
                };
                debug_assert!(ub.iter().all(|&u| dominates(&idom, t, u)));
                let inst = f.blocks[bi].insts.remove(k);
                f.blocks[t.idx()].insts.insert(0, inst);
                moved = true;
                break 'blocks;
            }
        }
        if !moved {
            return changed;
        }
        changed = true;
    }
}

/// A successor of `b` whose only predecessor is `b` and that dominates
/// every use block.
pub fn single_pred_succ(
    f: &Function,
    idom: &[Option<BlockId>],
    preds: &[Vec<BlockId>],
    b: usize,
    uses: &[BlockId],
) -> Option<BlockId> {
    f.blocks[b].term.succs().into_iter().find(|&s| {
        preds[s.idx()].len() == 1 && s.idx() != b && uses.iter().all(|&u| dominates(idom, s, u))
    })
}

impl Pass for Sink {
    fn name(&self) -> &'static str {
        "sink"
    }

    fn run(&self, f: &mut Function) -> bool {
        sink_with(f, true, &single_pred_succ)
    }
}
