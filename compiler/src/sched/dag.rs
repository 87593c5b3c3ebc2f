//! The dependence DAG of one basic block: an edge `a -> b` (a before b in
//! the block) means `b` must stay after `a`, with the cycles `b` should
//! wait after `a` issues (the scheduler's latency estimate).
//!
//! Rules (each conservative; "unit" = a register unit of `ir::regs`,
//! predicates, pair halves and guards included):
//! - registers: read-after-write (latency of `a`), write-after-read (0),
//!   write-after-write (1) on any shared unit;
//! - an instruction whose register use or definitions are not fully known
//!   (`ir::regs::reads_all_registers`: `CALL`, `UNDECODED`, unmodelled
//!   shapes; and `R2P`, whose predicate writes are not reported) is a full
//!   barrier: nothing moves across it;
//! - control transfer and convergence (`Effects::CONTROL`,
//!   `Effects::CONVERGENCE`: `BRA`, `EXIT`, `RET`, `CALL`, `BSSY`, `BSYNC`,
//!   `WARPSYNC`, `BMOV`, ...) are full barriers too;
//! - memory: two accesses are ordered unless both only load, or they are
//!   in provably different spaces (shared, local, constant; a generic or
//!   global access may alias shared and local memory, and nothing writes
//!   the constant banks);
//! - CTA barriers, fences, warp-synchronous ops and the `KEEP` opcodes
//!   (`Effects::BARRIER | FENCE | WARP | KEEP`) are ordered against every
//!   memory access and against each other;
//! - the block's terminator comes after everything.

use crate::ir::cfg::is_terminator;
use crate::ir::opcode::{Category, Effects, Op};
use crate::ir::regs::{self, RegUnit, Units};
use crate::ir::Inst;
use crate::targets::SmInfo;
use rustc_hash::FxHashMap;

use crate::pipe::latency::latency;

/// One block's dependence graph.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dag {
    /// Per instruction, its successors with edge latencies.
    pub succs: Vec<Vec<(usize, u32)>>,
    /// Per instruction, its predecessors.
    pub preds: Vec<Vec<usize>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Space {
    Shared,
    Local,
    Const,
    Any,
}

struct Info {
    defs: Units,
    uses: Units,
    barrier: bool,
    mem: Option<(Space, bool)>,
    ordered: bool,
}

fn info(inst: &Inst) -> Info {
    let oi = inst.op.info();
    let e = oi.effects;
    let barrier = regs::reads_all_registers(inst)
        || inst.op == Op::R2P
        || e.intersects(Effects::CONTROL.union(Effects::CONVERGENCE))
        || is_terminator(inst);
    let writes_mem = e.intersects(Effects::STORE.union(Effects::ATOMIC));
    let mem = e
        .intersects(Effects::LOAD.union(Effects::STORE).union(Effects::ATOMIC))
        .then(|| {
            let space = match oi.category {
                Category::MemShared => Space::Shared,
                Category::MemLocal => Space::Local,
                Category::MemConstant => Space::Const,
                _ => Space::Any,
            };
            (space, writes_mem)
        });
    let ordered = e.intersects(
        Effects::BARRIER
            .union(Effects::FENCE)
            .union(Effects::WARP)
            .union(Effects::KEEP),
    );
    Info {
        defs: regs::defs(inst),
        uses: regs::uses(inst),
        barrier,
        mem,
        ordered,
    }
}

fn may_alias(a: Space, b: Space) -> bool {
    a != Space::Const && b != Space::Const && (a == b || a == Space::Any || b == Space::Any)
}

#[cfg(test)]
fn shares(a: &Units, b: &Units) -> bool {
    a.iter().any(|u| b.contains(u))
}

/// What the earlier instructions of a block did to one register unit, as
/// far as a later one can still need an edge from them.
#[derive(Default)]
struct UnitDeps {
    /// Definitions a later use needs a read-after-write edge from: every
    /// definition, less those a later definition covers (see [`build`]).
    defs: Vec<usize>,
    /// The last definition: a later definition's write-after-write edge.
    last_def: Option<usize>,
    /// The uses since the last definition: a later definition's
    /// write-after-read edges.
    uses: Vec<usize>,
}

/// Builds the DAG of `insts` (one block, in order).
///
/// The rules above applied to every pair (`build_pairwise`) give edges
/// that other edges already imply, quadratically many where a unit is
/// redefined again and again or memory accesses follow each other (a
/// block of 6,000 memory instructions needed 658 MB). This leaves out
/// an edge `a -> b` where a path `a -> c -> b` of edges kept, at least
/// as long in latency, already holds `b` back, with `a -> c` of nonzero
/// latency when `a -> b` had some:
/// - write-after-write: only from the last definition of the unit (the
///   earlier ones reach it through their own such edges, latency 1 each);
/// - write-after-read: only from the uses since the last definition (an
///   earlier use reaches that definition by a write-after-read edge);
/// - read-after-write: not from a definition `a` once a later definition
///   `c` of the unit has an edge `a -> c` with `lat(a -> c) + lat(c) >=
///   lat(a)` (a later use waits `lat(c)` after `c`);
/// - memory: not from an access covered by a later store to the same
///   space or to any space (a store conflicts with every access either
///   one conflicts with).
///
/// The list scheduler sees the same thing: an instruction becomes ready
/// when its last predecessor issues (never the left-out `a`, which
/// issues before `c`), at the same earliest cycle, with the same
/// critical path, and its latency-hiding statistics find the same first
/// dependent issue (`tests::dag_keeps_the_schedule_of_the_pairwise_reference`).
pub fn build(insts: &[Inst], sm: &SmInfo) -> Dag {
    let n = insts.len();
    let infos: Vec<Info> = insts.iter().map(info).collect();
    let mut dag = Dag {
        succs: vec![Vec::new(); n],
        preds: vec![Vec::new(); n],
    };
    let mut by_unit: FxHashMap<RegUnit, UnitDeps> = FxHashMap::default();
    let mut barriers: Vec<usize> = Vec::new();
    let mut ordered: Vec<usize> = Vec::new();
    // Earlier memory accesses or ordered instructions (`mem_a` below).
    let mut memish: Vec<usize> = Vec::new();
    let mut mem_all: Vec<usize> = Vec::new();
    let mut mem_writes: Vec<usize> = Vec::new();
    // RAW latency of each instruction, computed when first needed.
    let mut raw: Vec<Option<u32>> = vec![None; n];
    // The latency of the edge from each earlier instruction to `j` (the
    // largest that any rule needs), and the instructions that have one.
    let mut lat: Vec<Option<u32>> = vec![None; n];
    let mut touched: Vec<usize> = Vec::new();
    for j in 0..n {
        let b = &infos[j];
        let mut need = |i: usize, l: u32| match &mut lat[i] {
            Some(x) => *x = (*x).max(l),
            x @ None => {
                *x = Some(l);
                touched.push(i);
            }
        };
        if b.barrier {
            (0..j).for_each(|i| need(i, 0));
        } else {
            barriers.iter().for_each(|&i| need(i, 0));
        }
        for u in &b.uses {
            if let Some(d) = by_unit.get(u) {
                for &i in &d.defs {
                    let l = *raw[i].get_or_insert_with(|| latency(&insts[i], sm).cycles());
                    need(i, l);
                }
            }
        }
        for u in &b.defs {
            if let Some(d) = by_unit.get(u) {
                d.last_def.iter().for_each(|&i| need(i, 1));
                d.uses.iter().for_each(|&i| need(i, 0));
            }
        }
        let mem_b = b.mem.is_some() || b.ordered;
        if b.ordered {
            memish.iter().for_each(|&i| need(i, 0));
        }
        if mem_b {
            ordered.iter().for_each(|&i| need(i, 0));
        }
        if let Some((sb, wb)) = b.mem {
            // Two loads never conflict: a load looks at the writers only.
            for &i in if wb { &mem_all } else { &mem_writes } {
                let (sa, wa) = infos[i].mem.expect("a memory access");
                if (wa || wb) && may_alias(sa, sb) {
                    need(i, 0);
                }
            }
        }
        // The definitions this one covers for later uses.
        if !b.defs.is_empty() {
            let lj = *raw[j].get_or_insert_with(|| latency(&insts[j], sm).cycles());
            for u in &b.defs {
                if let Some(d) = by_unit.get_mut(u) {
                    d.defs.retain(|&i| {
                        let li = *raw[i].get_or_insert_with(|| latency(&insts[i], sm).cycles());
                        lat[i].is_none_or(|l| l + lj < li)
                    });
                }
            }
        }
        touched.sort_unstable();
        for &i in &touched {
            let l = lat[i].take().expect("touched");
            dag.succs[i].push((j, l));
            dag.preds[j].push(i);
        }
        touched.clear();
        for u in &b.defs {
            let d = by_unit.entry(*u).or_default();
            d.defs.push(j);
            d.last_def = Some(j);
            d.uses.clear();
        }
        for u in &b.uses {
            by_unit.entry(*u).or_default().uses.push(j);
        }
        if b.barrier {
            barriers.push(j);
        }
        if b.ordered {
            ordered.push(j);
        }
        if mem_b {
            memish.push(j);
        }
        if let Some((sj, w)) = b.mem {
            if w {
                // A store covers the earlier accesses to its space (all,
                // for a store anywhere).
                let covered = |&i: &usize| {
                    let sa = infos[i].mem.expect("a memory access").0;
                    sj == Space::Any || sa == sj
                };
                mem_all.retain(|i| !covered(i));
                mem_writes.retain(|i| !covered(i));
            }
            // Nothing writes the constant banks: no edge ever.
            if sj != Space::Const {
                mem_all.push(j);
                if w {
                    mem_writes.push(j);
                }
            }
        }
    }
    dag
}

/// The DAG of the rules applied to every pair, implied edges included:
/// the reference the tests compare [`build`] with.
#[cfg(test)]
pub fn build_pairwise(insts: &[Inst], sm: &SmInfo) -> Dag {
    let n = insts.len();
    let infos: Vec<Info> = insts.iter().map(info).collect();
    let mut dag = Dag {
        succs: vec![Vec::new(); n],
        preds: vec![Vec::new(); n],
    };
    for j in 0..n {
        for i in 0..j {
            let (a, b) = (&infos[i], &infos[j]);
            let mut lat: Option<u32> = None;
            let mut need = |l: u32| lat = Some(lat.map_or(l, |x: u32| x.max(l)));
            if shares(&a.defs, &b.uses) {
                need(latency(&insts[i], sm).cycles());
            }
            if shares(&a.defs, &b.defs) {
                need(1);
            }
            if shares(&a.uses, &b.defs) {
                need(0);
            }
            if a.barrier || b.barrier {
                need(0);
            }
            let mem_a = a.mem.is_some() || a.ordered;
            let mem_b = b.mem.is_some() || b.ordered;
            if (a.ordered && mem_b) || (b.ordered && mem_a) {
                need(0);
            }
            if let (Some((sa, wa)), Some((sb, wb))) = (a.mem, b.mem) {
                if (wa || wb) && may_alias(sa, sb) {
                    need(0);
                }
            }
            if let Some(l) = lat {
                dag.succs[i].push((j, l));
                dag.preds[j].push(i);
            }
        }
    }
    dag
}
