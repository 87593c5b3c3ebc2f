//! LICM: hoist loop-invariant instructions into the loop's preheader.
//!
//! Loops are natural loops of back edges `latch -> header` where the
//! header dominates the latch. A loop is handled only when its header has
//! exactly one predecessor outside the loop and that predecessor ends in
//! an unconditional branch to the header (a preheader; this pass does not
//! create one, LoopSimplify's job). Hoisted, in loop-block order until
//! nothing changes: unguarded pure instructions ([`Inst::is_pure`]) whose
//! operands are all defined outside the loop (or already hoisted) and are
//! not undefined values. Never hoisted: loads and anything with effects
//! (not pure), integer `div`/`rem` (an undefined result for a zero divisor
//! the loop's guards may have excluded: [`Inst::may_trap_or_undef`]), and
//! guarded instructions. A pure instruction computes the same result
//! wherever its operands are available, so running it once before the
//! loop, even where the loop body would not have, changes no output.

use super::util::{def_sites, DefSite};
use super::Pass;
use crate::nvopt::ir::*;
use crate::nvopt::lift::{dominates, idoms};

pub struct Licm;

impl Pass for Licm {
    fn name(&self) -> &'static str {
        "licm"
    }

    fn run(&self, f: &mut Function) -> bool {
        let idom = idoms(f);
        let preds = f.preds();
        let n = f.blocks.len();
        let mut changed = false;
        // Loops by header, inner loops' blocks included in outer ones.
        let mut headers: Vec<(BlockId, Vec<bool>)> = Vec::new();
        for latch in 0..n {
            for h in f.blocks[latch].term.succs() {
                if idom[latch].is_none() || !dominates(&idom, h, BlockId(latch as u32)) {
                    continue;
                }
                let mut body = match headers.iter().position(|(x, _)| *x == h) {
                    Some(k) => headers.remove(k).1,
                    None => {
                        let mut v = vec![false; n];
                        v[h.idx()] = true;
                        v
                    }
                };
                let mut work = vec![BlockId(latch as u32)];
                while let Some(b) = work.pop() {
                    if !body[b.idx()] {
                        body[b.idx()] = true;
                        work.extend(preds[b.idx()].iter().copied());
                    }
                }
                headers.push((h, body));
            }
        }
        // Innermost first (fewest blocks), so an invariant can move out of
        // several loops one after the other.
        headers.sort_by_key(|(h, body)| (body.iter().filter(|&&x| x).count(), h.0));
        for (h, body) in headers {
            let outside: Vec<BlockId> = preds[h.idx()]
                .iter()
                .copied()
                .filter(|p| !body[p.idx()])
                .collect();
            let [pre] = outside.as_slice() else { continue };
            if !matches!(f.blocks[pre.idx()].term, Term::Br { .. }) {
                continue;
            }
            let pre = *pre;
            loop {
                let sites = def_sites(f);
                let inside = |v: Value| match sites[v.idx()] {
                    Some(DefSite::Inst(b, _)) | Some(DefSite::Phi(b)) => body[b.idx()],
                    None => true, // undefined: never hoist a reader
                };
                let mut moved = None;
                'find: for (bi, blk) in f.blocks.iter().enumerate() {
                    if !body[bi] {
                        continue;
                    }
                    for (k, i) in blk.insts.iter().enumerate() {
                        if i.guard.is_some() || !i.is_pure() || i.may_trap_or_undef() {
                            continue;
                        }
                        let mut invariant = true;
                        i.for_each_use(|v| invariant &= !inside(v) && !f.values[v.idx()].undef);
                        if invariant {
                            moved = Some((bi, k));
                            break 'find;
                        }
                    }
                }
                let Some((bi, k)) = moved else { break };
                let inst = f.blocks[bi].insts.remove(k);
                f.blocks[pre.idx()].insts.push(inst);
                changed = true;
            }
        }
        changed
    }
}
