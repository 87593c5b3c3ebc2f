//! SimplifyCFG: control-flow cleanup, repeated until nothing changes.
//!
//! - A conditional branch whose two targets are the same block, or whose
//!   predicate is a constant (`mov.pred p, 1`), becomes a branch.
//! - Unreachable blocks are deleted (with their phi arguments).
//! - A phi with one argument is replaced by the argument.
//! - A block whose only predecessor ends in a branch to it is merged into
//!   that predecessor.
//! - An empty block (no phis, no instructions) that only branches on is
//!   bypassed: its predecessors branch to its target directly, unless a
//!   predecessor already branches to the target and the target has phis
//!   (the two edges would need different phi arguments).
//!
//! The entry block is never merged away or bypassed (it has no
//! predecessors by construction, see `lift`).

use super::util::constants;
use super::Pass;
use crate::nvopt::ir::*;
use crate::nvopt::lift::remove_unreachable;

pub struct SimplifyCfg;

impl Pass for SimplifyCfg {
    fn name(&self) -> &'static str {
        "simplifycfg"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        while step(f) {
            changed = true;
        }
        changed
    }
}

fn drop_phi_args(f: &mut Function, block: BlockId, pred: BlockId) {
    for p in &mut f.blocks[block.idx()].phis {
        p.args.retain(|(b, _)| *b != pred);
    }
}

fn step(f: &mut Function) -> bool {
    let mut changed = false;
    // Constant or trivial conditional branches.
    let consts = constants(f);
    for bi in 0..f.blocks.len() {
        let Term::CondBr {
            pred,
            negated,
            then_,
            else_,
            mods,
        } = f.blocks[bi].term.clone()
        else {
            continue;
        };
        let taken = if then_ == else_ {
            then_
        } else if let Some(c) = consts[pred.idx()] {
            let (t, n) = if (c != 0) != negated {
                (then_, else_)
            } else {
                (else_, then_)
            };
            drop_phi_args(f, n, BlockId(bi as u32));
            t
        } else {
            continue;
        };
        f.blocks[bi].term = Term::Br {
            target: taken,
            mods,
        };
        changed = true;
    }
    let n_before = f.blocks.len();
    remove_unreachable(f);
    changed |= f.blocks.len() != n_before;
    // Single-argument phis.
    for bi in 0..f.blocks.len() {
        while let Some(k) = f.blocks[bi].phis.iter().position(|p| p.args.len() == 1) {
            let p = f.blocks[bi].phis.remove(k);
            let a = p.args[0].1;
            if a != p.dst {
                f.replace_uses(p.dst, a);
            }
            changed = true;
        }
    }
    // Merge a block into its only predecessor.
    let preds = f.preds();
    for bi in 0..f.blocks.len() {
        let Term::Br { target, .. } = f.blocks[bi].term else {
            continue;
        };
        let t = target.idx();
        if t == bi || t == 0 || preds[t].len() != 1 || !f.blocks[t].phis.is_empty() {
            continue;
        }
        let moved = std::mem::replace(
            &mut f.blocks[t],
            Block {
                phis: vec![],
                insts: vec![],
                term: Term::Ret {
                    mods: Default::default(),
                },
            },
        );
        let b = &mut f.blocks[bi];
        b.insts.extend(moved.insts);
        b.term = moved.term;
        for s in b.term.succs() {
            for p in &mut f.blocks[s.idx()].phis {
                for (pb, _) in &mut p.args {
                    if pb.idx() == t {
                        *pb = BlockId(bi as u32);
                    }
                }
            }
        }
        remove_unreachable(f);
        return true;
    }
    // Bypass empty blocks.
    for bi in 1..f.blocks.len() {
        let b = &f.blocks[bi];
        let Term::Br { target, .. } = b.term else {
            continue;
        };
        if target.idx() == bi || !b.phis.is_empty() || !b.insts.is_empty() {
            continue;
        }
        let me = BlockId(bi as u32);
        let target_has_phis = !f.blocks[target.idx()].phis.is_empty();
        let mut moved_any = false;
        for &p in &preds[bi] {
            if target_has_phis && preds[target.idx()].contains(&p) {
                continue;
            }
            for s in f.blocks[p.idx()].term.succs_mut() {
                if *s == me {
                    *s = target;
                }
            }
            for phi in &mut f.blocks[target.idx()].phis {
                let a = phi
                    .args
                    .iter()
                    .find(|(pb, _)| *pb == me)
                    .map(|&(_, v)| v)
                    .expect("phi argument for the bypassed block");
                phi.args.push((p, a));
            }
            moved_any = true;
        }
        if moved_any {
            if f.preds()[bi].is_empty() {
                drop_phi_args(f, target, me);
            }
            remove_unreachable(f);
            return true;
        }
    }
    changed
}
