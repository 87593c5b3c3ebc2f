//! Available facts: the forward "must" dataflow every scalar rewrite of
//! this module stands on.
//!
//! The IR is not SSA (a register may have several definitions, guarded
//! partial ones, pairs whose words are written separately, and after
//! register allocation every register is physical), so no rewrite may
//! assume that a name denotes one value. Instead each candidate
//! instruction generates a *fact* about the state right after it ("`%r3`
//! holds the same bits as `%r7`", "`%r3` holds `0x10`", "`%r3:%r4` hold
//! what `IMAD.WIDE %r3, %r1, 0x4, RZ` computes"), and a fact is
//! *available* at a point when on every path from a procedure entry to
//! that point the generating instruction executed and since then nothing
//! wrote any unit the fact mentions (its *watch* units: destinations and
//! every register the value reads, address and constant-bank registers
//! included). This is the classic available-expressions/available-copies
//! analysis (Aho, Sethi, Ullman, "Compilers", 10.6-10.7), sound for
//! multi-definition code:
//!
//! - a definition of any watched unit kills the fact, guarded or not (a
//!   guarded write may change the value);
//! - only an unguarded (or `@PT`) instruction generates a fact, and only
//!   when it does not overwrite a unit its value reads (`IADD3 %r1, %r1,
//!   0x1` generates nothing);
//! - instructions whose writes the IR cannot see kill every fact: `CALL`
//!   (the callee may write any register), `R2P` (writes the predicate file,
//!   not reported by `regs::defs`), `UNDECODED` slots and opcodes whose
//!   operand shapes are not modelled;
//! - a memory fact (a load's value) is also killed by every instruction
//!   that may write memory or order it: stores, atomics, barriers, fences,
//!   convergence operations, calls (opcode table effects);
//! - facts never flow into a procedure entry (block 0 and every callee
//!   entry start empty), and unreachable blocks start empty.
//!
//! Because every rewrite built on these facts keeps every register's value
//! at every point unchanged (a source replaced by an equal one, an
//! instruction by a copy of an equal value), all rewrites found in one
//! analysis may be applied together.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::cfg::Cfg;
use crate::ir::defuse::InstRef;
use crate::ir::inst::Inst;
use crate::ir::liveness::BitSet;
use crate::ir::opcode::{Effects, Op};
use crate::ir::regs::{self, RegUnit, Units};
use crate::ir::Function;

/// One fact.
#[derive(Clone, Debug)]
pub struct Fact<K> {
    /// The generating instruction.
    pub at: InstRef,
    /// What it says (the client's payload).
    pub kind: K,
    /// Units whose (re)definition kills the fact.
    pub watch: Units,
    /// Killed by memory writes and ordering points too.
    pub memory: bool,
}

/// Whether `inst` may write registers the IR does not report.
pub fn clobbers_all(inst: &Inst) -> bool {
    matches!(inst.op, Op::CALL | Op::R2P | Op::UNDECODED) || !inst.op.info().is_modelled()
}

/// Whether `inst` may write memory or order memory operations (kills load
/// facts).
pub fn clobbers_memory(inst: &Inst) -> bool {
    let e = inst.op.info().effects;
    clobbers_all(inst)
        || e.intersects(
            Effects::STORE
                .union(Effects::ATOMIC)
                .union(Effects::BARRIER)
                .union(Effects::FENCE)
                .union(Effects::CONVERGENCE)
                .union(Effects::KEEP),
        )
        || inst.op == Op::CALL
}

/// No fact: the `gen` entry of an instruction that generates none.
const NONE: u32 = u32::MAX;

/// What one analyzed instruction does to the available set, computed once
/// in [`Available::new`] and used by both the block transfer functions and
/// [`Available::step_at`] (it was recomputed from the instruction, its
/// definitions included, at each of the two).
#[derive(Clone, Debug, Default)]
struct Effect {
    /// The fact it generates, or [`NONE`] (each client's generator yields
    /// at most one fact per instruction).
    gen: u32,
    /// Kills every fact ([`clobbers_all`]).
    all: bool,
    /// Kills the memory facts ([`clobbers_memory`]).
    memory: bool,
    /// Indices into `Available::kill_lists` of the units it defines that
    /// some fact watches.
    kills: smallvec::SmallVec<[u32; 4]>,
}

/// The facts of a function and the sets available at each block entry.
pub struct Available<K> {
    pub facts: Vec<Fact<K>>,
    /// Available at each block's entry.
    pub block_in: Vec<BitSet>,
    /// Each instruction's [`Effect`], by block then index (flattened:
    /// `first[b] + i`).
    effects: Vec<Effect>,
    first: Vec<usize>,
    /// The facts each unit's definition kills, one list per unit some fact
    /// watches.
    kill_lists: Vec<Vec<u32>>,
    by_unit: HashMap<RegUnit, u32>,
    /// The memory facts.
    memory_ids: Vec<u32>,
}

impl<K> Available<K> {
    /// Computes the fact `gen_fn` yields for each instruction, if any, and
    /// their availability. `gen_fn` gets the instruction's definitions
    /// ([`regs::defs`]) and returns a (kind, watch, memory) triple whose
    /// watch units are added to the instruction's uses ([`regs::uses`]:
    /// every fact watches what its value reads; computed here once, not
    /// again by each client); the fact of a guarded instruction, or of one
    /// that overwrites a unit it reads, is dropped here.
    pub fn new(
        f: &Function,
        cfg: &Cfg,
        mut gen_fn: impl FnMut(InstRef, &Inst, &Units) -> Option<(K, Units, bool)>,
    ) -> Available<K> {
        let mut facts = Vec::new();
        let total: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
        let mut first = Vec::with_capacity(f.blocks.len());
        let mut effects: Vec<Effect> = Vec::with_capacity(total);
        // Each instruction's definitions, until the watch lists exist.
        let mut defs: Vec<Units> = Vec::with_capacity(total);
        for (b, blk) in f.blocks.iter().enumerate() {
            first.push(effects.len());
            for (i, inst) in blk.insts.iter().enumerate() {
                let all = clobbers_all(inst);
                let d = if all { Units::new() } else { regs::defs(inst) };
                let mut gen = NONE;
                if regs::kills(inst) && !all {
                    if let Some((kind, extra, memory)) = gen_fn((b, i), inst, &d) {
                        // Self-kill: a value reading what it overwrites.
                        // (Uses are computed only for the instructions that
                        // make a fact: most make none.)
                        let mut watch = regs::uses(inst);
                        if !watch.iter().any(|u| d.contains(u)) {
                            watch.extend(extra);
                            gen = facts.len() as u32;
                            facts.push(Fact {
                                at: (b, i),
                                kind,
                                watch,
                                memory,
                            });
                        }
                    }
                }
                effects.push(Effect {
                    gen,
                    all,
                    memory: clobbers_memory(inst),
                    kills: Default::default(),
                });
                defs.push(d);
            }
        }
        let n = facts.len();
        // Which facts each unit kills.
        let mut by_unit: HashMap<RegUnit, u32> = Default::default();
        let mut kill_lists: Vec<Vec<u32>> = Vec::new();
        for (k, fa) in facts.iter().enumerate() {
            for &u in &fa.watch {
                let l = *by_unit.entry(u).or_insert_with(|| {
                    kill_lists.push(Vec::new());
                    (kill_lists.len() - 1) as u32
                });
                kill_lists[l as usize].push(k as u32);
            }
        }
        if n > 0 {
            for (e, d) in effects.iter_mut().zip(&defs) {
                e.kills = d.iter().filter_map(|u| by_unit.get(u).copied()).collect();
            }
        }
        let memory_ids: Vec<u32> = (0..n as u32)
            .filter(|&k| facts[k as usize].memory)
            .collect();
        let mut a = Available {
            facts,
            block_in: Vec::new(),
            effects,
            first,
            kill_lists,
            by_unit,
            memory_ids,
        };
        // Block transfer functions as (kill, gen) sets.
        let nb = f.blocks.len();
        let mut kill = vec![BitSet::new(n); nb];
        let mut genb = vec![BitSet::new(n); nb];
        for (b, blk) in f.blocks.iter().enumerate() {
            let (k, g) = (&mut kill[b], &mut genb[b]);
            for i in 0..blk.insts.len() {
                let e = &a.effects[a.first[b] + i];
                a.for_each_kill_of(e, |x| {
                    k.insert(x);
                    g.remove(x);
                });
                if e.gen != NONE {
                    g.insert(e.gen as usize);
                }
            }
        }
        let mut is_root = vec![false; nb];
        for &r in &cfg.roots {
            is_root[r] = true;
        }
        let mut inb: Vec<BitSet> = (0..nb)
            .map(|b| {
                if is_root[b] || !cfg.reachable[b] {
                    BitSet::new(n)
                } else {
                    BitSet::full(n)
                }
            })
            .collect();
        let out_of = |o: &mut BitSet, b: usize, inb: &[BitSet]| {
            o.copy_from(&inb[b]);
            o.subtract(&kill[b]);
            o.union_with(&genb[b]);
        };
        let mut outb: Vec<BitSet> = vec![BitSet::new(n); nb];
        for (b, o) in outb.iter_mut().enumerate() {
            out_of(o, b, &inb);
        }
        // One scratch set for the meet (it was a fresh set per block and
        // pass).
        let mut acc = BitSet::new(n);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &cfg.rpo {
                if is_root[b] {
                    continue;
                }
                match cfg.preds[b].split_first() {
                    None => acc = BitSet::new(n),
                    Some((&p0, rest)) => {
                        acc.copy_from(&outb[p0]);
                        for &p in rest {
                            acc.intersect_with(&outb[p]);
                        }
                    }
                }
                if acc != inb[b] {
                    std::mem::swap(&mut inb[b], &mut acc);
                    out_of(&mut outb[b], b, &inb);
                    changed = true;
                }
            }
        }
        a.block_in = inb;
        a
    }

    /// The fact the analyzed instruction at `at` generates, if any.
    pub fn gen_at(&self, at: InstRef) -> Option<usize> {
        let g = self.effects[self.first[at.0] + at.1].gen;
        (g != NONE).then_some(g as usize)
    }

    /// Calls `kill` with each fact an instruction with effect `e` kills
    /// (possibly more than once).
    fn for_each_kill_of(&self, e: &Effect, mut kill: impl FnMut(usize)) {
        if self.facts.is_empty() {
            return;
        }
        if e.all {
            (0..self.facts.len()).for_each(kill);
            return;
        }
        for &l in &e.kills {
            self.kill_lists[l as usize]
                .iter()
                .for_each(|&x| kill(x as usize));
        }
        if e.memory {
            self.memory_ids.iter().for_each(|&x| kill(x as usize));
        }
    }

    /// Calls `kill` with each fact `inst` kills (possibly more than once).
    fn for_each_kill(&self, inst: &Inst, mut kill: impl FnMut(usize)) {
        if self.facts.is_empty() {
            return;
        }
        if clobbers_all(inst) {
            (0..self.facts.len()).for_each(kill);
            return;
        }
        for u in regs::defs(inst) {
            if let Some(&l) = self.by_unit.get(&u) {
                self.kill_lists[l as usize]
                    .iter()
                    .for_each(|&x| kill(x as usize));
            }
        }
        if clobbers_memory(inst) {
            self.memory_ids.iter().for_each(|&x| kill(x as usize));
        }
    }

    /// Moves `set` from before to after instruction `at` when `inst` is
    /// not the instruction analyzed there (a client rewrote it): kills from
    /// `inst`, then the analyzed instruction's own fact.
    pub fn step(&self, set: &mut BitSet, at: InstRef, inst: &Inst) {
        self.for_each_kill(inst, |x| set.remove(x));
        if let Some(g) = self.gen_at(at) {
            set.insert(g);
        }
    }

    /// Moves `set` from before to after the analyzed instruction at `at`
    /// (what [`step`](Self::step) does with that instruction, from the
    /// effects computed once).
    pub fn step_at(&self, set: &mut BitSet, at: InstRef) {
        let e = &self.effects[self.first[at.0] + at.1];
        self.for_each_kill_of(e, |x| set.remove(x));
        if e.gen != NONE {
            set.insert(e.gen as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phases::scalar::copies;
    use crate::phases::scalar::test_util::func;

    /// The copy facts available before each instruction, walked with
    /// `step_at`, and checked against `step` with the instruction itself.
    fn walk(src: &str) -> (Available<copies::Copy>, Vec<Vec<Vec<usize>>>) {
        let f = func(src);
        let cfg = Cfg::new(&f);
        let av = copies::analyze(&f, &cfg);
        let mut out = Vec::new();
        for (b, blk) in f.blocks.iter().enumerate() {
            let mut set = av.block_in[b].clone();
            let mut per = Vec::new();
            for (i, inst) in blk.insts.iter().enumerate() {
                per.push(set.iter().collect::<Vec<_>>());
                let mut other = set.clone();
                av.step(&mut other, (b, i), inst);
                av.step_at(&mut set, (b, i));
                assert_eq!(set, other, "step_at and step differ at {b}:{i}");
            }
            out.push(per);
        }
        (av, out)
    }

    #[test]
    fn a_redefinition_kills_a_copy_and_a_new_copy_generates() {
        let (av, sets) = walk(
            ".L_x_0:
             MOV %r2, %r1 ;
             STG.E [%r8.64], %r2 ;
             IADD3 %r1, %r1, 0x1, RZ ;
             STG.E [%r8.64], %r2 ;
             MOV %r3, 0x4 ;
             EXIT ;",
        );
        // Facts: MOV %r2, %r1 (0), MOV %r3, 0x4 (1).
        assert_eq!(av.facts.len(), 2);
        assert_eq!(av.gen_at((0, 0)), Some(0));
        assert_eq!(av.gen_at((0, 1)), None);
        assert_eq!(av.gen_at((0, 4)), Some(1));
        assert_eq!(sets[0][1], vec![0]);
        // Writing the copied register kills the copy.
        assert_eq!(sets[0][3], Vec::<usize>::new());
        assert_eq!(sets[0][5], vec![1]);
    }

    #[test]
    fn facts_meet_at_a_join_and_a_self_reading_copy_makes_none() {
        let (av, sets) = walk(
            ".L_x_0:
             MOV %r2, 0x5 ;
             MOV %r3, 0x6 ;
             @%p0 BRA .L_x_2 ;
             .L_x_1:
             MOV %r3, %r1 ;
             .L_x_2:
             IADD3 %r4, %r2, %r3, RZ ;
             EXIT ;",
        );
        // 0: %r2 = 0x5, 1: %r3 = 0x6, 2: %r3 = %r1.
        assert_eq!(av.facts.len(), 3);
        // Only the copy both paths keep reaches the join.
        assert_eq!(av.block_in[2].iter().collect::<Vec<_>>(), vec![0]);
        assert_eq!(sets[2][0], vec![0]);
        assert_eq!(sets[1][0], vec![0, 1]);
    }

    #[test]
    fn a_call_kills_every_fact() {
        let (_, sets) = walk(
            ".L_x_0:
             MOV %r2, 0x5 ;
             CALL.REL.NOINC .L_x_1 ;
             EXIT ;
             .L_x_1:
             RET.REL.NODEC %r20 0x0 ;",
        );
        assert_eq!(sets[0][1], vec![0]);
        assert_eq!(sets[0][2], Vec::<usize>::new());
    }
}
