//! DCE and ADCE: delete instructions whose results nothing reads.
//!
//! `Dce` (LLVM's DCE): repeatedly delete pure instructions
//! ([`Inst::is_pure`]) none of whose definitions is used, and phis no
//! instruction reads. `Adce` (aggressive DCE): assume everything dead, mark
//! live from the roots (instructions with effects, terminators) through
//! operands, delete the rest: it also removes dead cycles (a loop counter
//! only the loop itself reads) that use counts cannot. Neither removes
//! control flow (SimplifyCFG does). A guarded definition reads its old
//! value, so the old value stays live as long as the guarded one is.

use super::Pass;
use crate::nvopt::ir::*;
use crate::nvopt::lift::prune_dead_phis;

pub struct Dce;
pub struct Adce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        loop {
            let uses = f.use_counts();
            let mut removed = false;
            for b in &mut f.blocks {
                let before = b.insts.len();
                b.insts
                    .retain(|i| !(i.is_pure() && i.defs().iter().all(|d| uses[d.idx()] == 0)));
                removed |= b.insts.len() != before;
                let before = b.phis.len();
                b.phis.retain(|p| uses[p.dst.idx()] != 0);
                removed |= b.phis.len() != before;
            }
            if !removed {
                break;
            }
            changed = true;
        }
        let phis: usize = f.blocks.iter().map(|b| b.phis.len()).sum();
        prune_dead_phis(f);
        changed |= phis != f.blocks.iter().map(|b| b.phis.len()).sum::<usize>();
        changed
    }
}

impl Pass for Adce {
    fn name(&self) -> &'static str {
        "adce"
    }

    fn run(&self, f: &mut Function) -> bool {
        use super::util::DefSite;
        let sites = super::util::def_sites(f);
        let mut live = vec![false; f.values.len()];
        let mut work: Vec<Value> = Vec::new();
        let mark = |v: Value, live: &mut Vec<bool>, work: &mut Vec<Value>| {
            if !live[v.idx()] {
                live[v.idx()] = true;
                work.push(v);
            }
        };
        for b in &f.blocks {
            for i in &b.insts {
                if !i.is_pure() {
                    i.for_each_use(|v| mark(v, &mut live, &mut work));
                    // An effectful instruction stays, with its definitions
                    // (whose operands were just marked).
                    for d in i.defs() {
                        live[d.idx()] = true;
                    }
                }
            }
            if let Some(v) = b.term.uses() {
                mark(v, &mut live, &mut work);
            }
        }
        while let Some(v) = work.pop() {
            match sites[v.idx()] {
                Some(DefSite::Inst(b, k)) => {
                    f.blocks[b.idx()].insts[k].for_each_use(|u| mark(u, &mut live, &mut work));
                }
                Some(DefSite::Phi(b)) => {
                    for p in &f.blocks[b.idx()].phis {
                        if p.dst == v {
                            p.args
                                .iter()
                                .for_each(|&(_, a)| mark(a, &mut live, &mut work));
                        }
                    }
                }
                None => {}
            }
        }
        let mut changed = false;
        for b in &mut f.blocks {
            let before = b.insts.len() + b.phis.len();
            b.insts
                .retain(|i| !i.is_pure() || i.defs().iter().any(|d| live[d.idx()]));
            b.phis.retain(|p| live[p.dst.idx()]);
            changed |= before != b.insts.len() + b.phis.len();
        }
        changed
    }
}
