//! LoopSimplify (cicc's, docs/MODEL.md, NvOpt pipelines; knob `no-loopsimplify`): puts every
//! natural loop into the canonical form the other loop passes rely on,
//! as LLVM's LoopSimplify does:
//! - a preheader: the header's only predecessor outside the loop, ending
//!   in an unconditional branch to the header;
//! - a single latch (one back edge);
//! - dedicated exits: every block outside the loop that a loop block
//!   branches to has only loop blocks as predecessors.
//!
//! Each is made by splitting incoming edges ([`split_preds`]): the new
//! block branches to the old one, and the old block's phis take the
//! merged value from it. Only edges and copies of phi arguments change;
//! no instruction moves, so results are unchanged by construction.

use super::loop_util::{find_loops, split_preds};
use super::Pass;
use crate::nvopt::ir::*;

pub struct LoopSimplify;

/// One canonicalization step on the first loop that needs one.
fn step(f: &mut Function) -> bool {
    let loops = find_loops(f);
    let preds = f.preds();
    for l in &loops {
        let h = l.header;
        let outside: Vec<BlockId> = preds[h.idx()]
            .iter()
            .copied()
            .filter(|p| !l.contains(*p))
            .collect();
        if l.preheader(f, &preds).is_none() {
            split_preds(f, h, &outside);
            return true;
        }
        if l.latches.len() > 1 {
            split_preds(f, h, &l.latches);
            return true;
        }
        for (_, e) in l.exit_edges(f) {
            let from_loop: Vec<BlockId> = preds[e.idx()]
                .iter()
                .copied()
                .filter(|p| l.contains(*p))
                .collect();
            if from_loop.len() != preds[e.idx()].len() {
                split_preds(f, e, &from_loop);
                return true;
            }
        }
    }
    false
}

impl Pass for LoopSimplify {
    fn name(&self) -> &'static str {
        "loop-simplify"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        // Each step fixes one defect and creates none (the new block is a
        // preheader, the latch, or a dedicated exit); the bound only
        // guards against a mistake looping forever.
        let limit = 4 * f.blocks.len() + 16;
        for _ in 0..limit {
            if !step(f) {
                break;
            }
            changed = true;
        }
        changed
    }
}
