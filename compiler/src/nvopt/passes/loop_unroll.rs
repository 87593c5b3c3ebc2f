//! LoopUnroll (cicc's, docs/MODEL.md, NvOpt pipelines; knob `no-loopunroll`):
//! full unrolling of loops with a constant trip count, and unrolling by a
//! factor.
//!
//! Handled loops (after LoopSimplify): innermost, with a preheader, one
//! latch, one exiting block that dominates the latch and ends in a
//! conditional branch, a dedicated exit block, and no convergent
//! instruction ([`is_convergent`]: barriers, warp votes/shuffles, calls),
//! so no thread's participation in a warp-synchronous operation can
//! change. Values the loop defines and later code reads go through LCSSA
//! phis in the exit first ([`form_lcssa`]).
//!
//! The trip count comes from the canonical induction variable
//! ([`find_iv`], [`const_trip_count`]): initial value and bound constant,
//! evaluated exactly iteration by iteration.
//!
//! - Full unroll: trip count `n <= max-count` and `n * size <= threshold`
//!   (`size` counts the loop's instructions, phis and terminators): `n`
//!   copies of the body, the exit test of copy `k < n - 1` replaced by a
//!   branch into the body, that of copy `n - 1` by a branch to the exit.
//!   The back edge disappears; SimplifyCFG then merges the straight-line
//!   copies.
//! - Unroll by a factor `F` (`count=F`, or automatically the largest
//!   `F <= 4` that divides a constant trip count within the threshold):
//!   when the trip count is a known multiple of `F`, only the last copy
//!   keeps the exit test. Otherwise (trip count unknown or not a multiple,
//!   only with an explicit `count`) every copy keeps its own exit test to
//!   the exit block: no runtime remainder loop is needed, and the result
//!   is correct for any trip count (our choice, documented here).
//!
//! Knobs (`-opt`): `unroll-threshold` (default 150, LLVM's default
//! `-unroll-threshold`), `unroll-max-count` (default 20: cicc's
//! integer slot 197 "limit, e.g. unroll count"), `unroll-count` (default
//! 0: automatic).

use super::loop_simplify::LoopSimplify;
use super::loop_util::*;
use super::simplify_cfg::SimplifyCfg;
use super::Pass;
use crate::nvopt::ir::*;
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopUnroll {
    pub threshold: u64,
    pub max_count: u64,
    /// 0: automatic.
    pub count: u64,
}

impl Default for LoopUnroll {
    fn default() -> Self {
        LoopUnroll {
            threshold: 150,
            max_count: 20,
            count: 0,
        }
    }
}

/// What to do with one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    Full(u64),
    /// Factor, and whether the trip count is a known multiple of it.
    Factor(u64, bool),
}

impl LoopUnroll {
    fn plan(&self, size: u64, trip: Option<u64>) -> Option<Plan> {
        if self.count == 1 {
            return None;
        }
        if let Some(n) = trip {
            if self.count == 0 && n <= self.max_count && n * size <= self.threshold {
                return Some(Plan::Full(n));
            }
        }
        if self.count > 1 {
            if self.count * size > self.threshold {
                return None;
            }
            let multiple = trip.is_some_and(|n| n % self.count == 0);
            return Some(Plan::Factor(self.count, multiple));
        }
        let n = trip?;
        (2..=4u64)
            .rev()
            .find(|&k| n % k == 0 && n >= k && k * size <= self.threshold)
            .map(|k| Plan::Factor(k, true))
    }

    /// Unrolls the first loop it can; true when it did.
    fn step(&self, f: &mut Function, done: &mut Vec<BlockId>) -> bool {
        let loops = find_loops(f);
        for l in &loops {
            if done.contains(&l.header) || l.has_inner(&loops) || loop_has_convergent(f, l) {
                continue;
            }
            let preds = f.preds();
            if l.preheader(f, &preds).is_none() {
                continue;
            }
            let Some((x, _inside, e)) = single_exit(f, l) else {
                continue;
            };
            if preds[e.idx()].len() != 1 {
                continue;
            }
            let trip = find_iv(f, l, x).and_then(|iv| const_trip_count(f, &iv, 1 << 16));
            let Some(plan) = self.plan(l.inst_count(f) as u64, trip) else {
                continue;
            };
            form_lcssa(f, l, x, e);
            unroll(f, l, x, e, plan);
            done.push(l.header);
            remove_unreachable_tracking(f, done);
            return true;
        }
        false
    }
}

/// Rewrites the exit test of a copy's exiting block.
fn set_exit(f: &mut Function, x: BlockId, exit: BlockId, to_exit: Option<bool>) {
    let Term::CondBr {
        then_, else_, mods, ..
    } = f.blocks[x.idx()].term.clone()
    else {
        return;
    };
    let target = match to_exit {
        None => return,
        Some(true) => exit,
        Some(false) => {
            if then_ == exit {
                else_
            } else {
                then_
            }
        }
    };
    f.blocks[x.idx()].term = Term::Br { target, mods };
}

fn unroll(f: &mut Function, l: &Loop, x: BlockId, e: BlockId, plan: Plan) {
    let h = l.header;
    let latch = l.latches[0];
    let copies = match plan {
        Plan::Full(n) => n,
        Plan::Factor(k, _) => k,
    };
    // Copy 0 is the original loop.
    let mut all: Vec<Copy> = vec![Copy {
        blocks: FxHashMap::default(),
        values: FxHashMap::default(),
    }];
    let header_phis: Vec<Phi> = f.blocks[h.idx()].phis.clone();
    for _ in 1..copies {
        let prev = all.last().unwrap();
        let header_in: FxHashMap<Value, Value> = header_phis
            .iter()
            .map(|p| {
                let from_latch = p.args.iter().find(|(b, _)| *b == latch).unwrap().1;
                (p.dst, prev.val(from_latch))
            })
            .collect();
        let c = clone_loop(f, l, &header_in);
        all.push(c);
    }
    // Back edges: copy k's latch goes to copy k+1's header; the last one
    // to the original header.
    for k in 0..all.len() {
        let next_h = if k + 1 < all.len() {
            all[k + 1].block(h)
        } else {
            h
        };
        let lk = all[k].block(latch);
        for s in f.blocks[lk.idx()].term.succs_mut() {
            if *s == h {
                *s = next_h;
            }
        }
    }
    let last = all.last().unwrap();
    for p in &mut f.blocks[h.idx()].phis {
        for (b, v) in &mut p.args {
            if *b == latch {
                *b = last.block(latch);
                *v = last.val(*v);
            }
        }
    }
    // Exit tests.
    let n = all.len();
    for (k, c) in all.iter().enumerate() {
        let to_exit = match plan {
            Plan::Full(_) => Some(k + 1 == n),
            Plan::Factor(_, true) => (k + 1 < n).then_some(false),
            Plan::Factor(_, false) => None,
        };
        set_exit(f, c.block(x), e, to_exit);
    }
    // The exit's phis: one argument per copy that still exits.
    let phis = std::mem::take(&mut f.blocks[e.idx()].phis);
    let mut new = Vec::with_capacity(phis.len());
    for mut p in phis {
        let v = p.args.iter().find(|(b, _)| *b == x).map(|a| a.1);
        p.args.retain(|(b, _)| *b != x);
        if let Some(v) = v {
            for c in &all {
                if f.blocks[c.block(x).idx()].term.succs().contains(&e) {
                    p.args.push((c.block(x), c.val(v)));
                }
            }
        }
        new.push(p);
    }
    f.blocks[e.idx()].phis = new;
    drop_stale_phi_args(f, h);
}

impl Pass for LoopUnroll {
    fn name(&self) -> &'static str {
        "loop-unroll"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut done = Vec::new();
        // LLVM's loop passes require LoopSimplify (the legacy pass
        // manager schedules it before them); so does this one.
        let simplified = LoopSimplify.run(f);
        let mut changed = false;
        while self.step(f, &mut done) {
            // Each loop is unrolled at most once per run: `done` keeps
            // the headers of the loops already unrolled.
            changed = true;
        }
        if changed {
            SimplifyCfg.run(f);
        }
        changed |= simplified;
        changed
    }
}
