//! NVVMRematerialization (cicc's, docs/MODEL.md, NvOpt pipelines: the `remat` function
//! pass; on unless `-opt "-do-remat=0"`): where register pressure is
//! high, recompute cheap values next to their uses in other blocks
//! instead of keeping them live across the blocks in between.
//!
//! - Pressure: the most non-predicate SSA values live at once at any
//!   point of the function (backward liveness; a phi argument is live out
//!   of its incoming block). The pass does nothing when it is at most
//!   `remat-max-live-limit` (cicc's knob, "maximum live variable
//!   count"; default [`DEFAULT_MAX_LIVE`], our choice: cicc's description gives no
//!   value).
//! - Candidates: unguarded pure instructions ([`Inst::is_pure`]) with one
//!   definition whose sources are all immediates, variable names or
//!   launch-invariant special registers (no register operand: recomputing
//!   them extends no other live range, and the result is the same
//!   anywhere: `mov d, 5`, `mov d, %tid.x`, `mov d, shmem`, `cvta` of a
//!   variable), with at most `remat-use-limit` uses (default
//!   [`DEFAULT_USE_LIMIT`]).
//! - Each block other than the definition's that uses such a value in an
//!   instruction or its terminator gets its own copy, placed right before
//!   the first use there (phi arguments keep the original). A block inside
//!   a loop that does not contain the definition gets no copy (that would
//!   recompute it every iteration; cicc's knob `remat-loop-trip` not
//!   modelled). The original stays where other uses need it; DCE removes
//!   it otherwise.

use super::loop_util::find_loops;
use super::util::{def_sites, DefSite};
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::types::ScalarType;
use rustc_hash::FxHashSet;

pub const DEFAULT_MAX_LIVE: u64 = 32;
pub const DEFAULT_USE_LIMIT: u64 = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Remat {
    pub max_live_limit: u64,
    pub use_limit: u64,
}

impl Default for Remat {
    fn default() -> Self {
        Remat {
            max_live_limit: DEFAULT_MAX_LIVE,
            use_limit: DEFAULT_USE_LIMIT,
        }
    }
}

/// The most non-predicate values live at once (see the module doc).
pub fn max_pressure(f: &Function) -> usize {
    let n = f.blocks.len();
    let counts = |v: &Value| f.values[v.idx()].ty != ScalarType::Pred;
    let mut live_in: Vec<FxHashSet<Value>> = vec![FxHashSet::default(); n];
    let rpo = f.rpo();
    let mut best = 0;
    let mut changed = true;
    while changed {
        changed = false;
        best = 0;
        for &b in rpo.iter().rev() {
            let blk = &f.blocks[b.idx()];
            let mut live: FxHashSet<Value> = FxHashSet::default();
            for s in blk.term.succs() {
                live.extend(live_in[s.idx()].iter().copied());
                for p in &f.blocks[s.idx()].phis {
                    live.remove(&p.dst);
                    for &(pb, v) in &p.args {
                        if pb == b {
                            live.insert(v);
                        }
                    }
                }
            }
            if let Some(v) = blk.term.uses() {
                live.insert(v);
            }
            best = best.max(live.iter().filter(|v| counts(v)).count());
            for i in blk.insts.iter().rev() {
                for d in i.defs() {
                    live.remove(&d);
                }
                i.for_each_use(|v| {
                    live.insert(v);
                });
                best = best.max(live.iter().filter(|v| counts(v)).count());
            }
            for p in &blk.phis {
                live.insert(p.dst);
            }
            best = best.max(live.iter().filter(|v| counts(v)).count());
            for p in &blk.phis {
                live.remove(&p.dst);
            }
            if live != live_in[b.idx()] {
                live_in[b.idx()] = live;
                changed = true;
            }
        }
    }
    best
}

fn cheap(i: &Inst) -> bool {
    i.guard.is_none()
        && i.is_pure()
        && i.defs().len() == 1
        && i.srcs().iter().all(|o| {
            matches!(
                o,
                Opnd::Imm(_) | Opnd::Sym(_) | Opnd::SymOffset(..) | Opnd::Sreg(_)
            )
        })
}

impl Pass for Remat {
    fn name(&self) -> &'static str {
        "remat"
    }

    fn run(&self, f: &mut Function) -> bool {
        if max_pressure(f) as u64 <= self.max_live_limit {
            return false;
        }
        let loops = find_loops(f);
        // Per block, the headers of the loops containing it.
        let in_loops = |b: BlockId| -> Vec<BlockId> {
            loops
                .iter()
                .filter(|l| l.contains(b))
                .map(|l| l.header)
                .collect()
        };
        let sites = def_sites(f);
        let uses = f.use_counts();
        // Candidates first: the insertions below shift instruction indices.
        let mut cands: Vec<(Value, BlockId, Inst)> = Vec::new();
        for v in 0..f.values.len() {
            let v = Value(v as u32);
            let Some(DefSite::Inst(db, dk)) = sites[v.idx()] else {
                continue;
            };
            let def = &f.blocks[db.idx()].insts[dk];
            if cheap(def) && u64::from(uses[v.idx()]) <= self.use_limit {
                cands.push((v, db, def.clone()));
            }
        }
        let mut changed = false;
        for (v, db, def) in cands {
            let def_loops = in_loops(db);
            for bi in 0..f.blocks.len() {
                let b = BlockId(bi as u32);
                if b == db || !in_loops(b).iter().all(|h| def_loops.contains(h)) {
                    continue;
                }
                let blk = &f.blocks[bi];
                let mut first = None;
                for (k, i) in blk.insts.iter().enumerate() {
                    let mut uses_v = false;
                    i.for_each_use(|u| uses_v |= u == v);
                    if uses_v {
                        first = Some(k);
                        break;
                    }
                }
                let at = match (first, blk.term.uses() == Some(v)) {
                    (Some(k), _) => k,
                    (None, true) => blk.insts.len(),
                    (None, false) => continue,
                };
                let info = f.values[v.idx()].clone();
                let nv = f.new_value(info.reg, info.ty);
                let mut copy = def.clone();
                for d in copy.defs_mut() {
                    *d = nv;
                }
                let blk = &mut f.blocks[bi];
                for i in &mut blk.insts[at..] {
                    i.for_each_use_mut(|u| {
                        if *u == v {
                            *u = nv
                        }
                    });
                }
                if let Term::CondBr { pred, .. } = &mut blk.term {
                    if *pred == v {
                        *pred = nv;
                    }
                }
                blk.insts.insert(at, copy);
                changed = true;
            }
        }
        changed
    }
}
