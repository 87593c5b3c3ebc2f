//! EarlyCSE: a dominator-tree walk with a scoped table of available
//! expressions. A pure, unguarded instruction ([`Inst::is_pure`]) with one
//! destination that repeats an available one (same opcode, modifiers and
//! source operands, and a destination register of the same type) is
//! deleted and its uses read the earlier value.
//!
//! Loads are CSE'd only inside one block and only while no instruction
//! that may write memory or order it (anything not pure and not a plain
//! load: stores, atomics, reductions, calls, barriers, fences) has run
//! in between ("generation" counting, as LLVM's EarlyCSE). Volatile and
//! memory-ordered loads (`.volatile`, `.relaxed`, `.acquire`, ...) and
//! atomics are never CSE'd.

use super::util::replace_all;
use super::Pass;
use crate::nvopt::ir::*;
use crate::nvopt::lift::idoms;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::ModCat;
use rustc_hash::FxHashMap;

pub struct EarlyCse;

fn key(i: &Inst) -> String {
    format!("{:?}{:?}{:?}", i.op, i.mods, i.srcs())
}

/// A load that may be merged with an identical earlier one.
fn plain_load(i: &Inst) -> bool {
    i.op == Opcode::Ld && i.guard.is_none() && !i.mods.iter().any(|m| m.cat() == ModCat::Order)
}

impl Pass for EarlyCse {
    fn name(&self) -> &'static str {
        "early-cse"
    }

    fn run(&self, f: &mut Function) -> bool {
        let idom = idoms(f);
        let n = f.blocks.len();
        let mut children = vec![Vec::new(); n];
        for (b, d) in idom.iter().enumerate().skip(1) {
            if let Some(d) = d {
                children[d.idx()].push(b);
            }
        }
        let mut map: Vec<Option<Value>> = vec![None; f.values.len()];
        let mut table: FxHashMap<String, Value> = FxHashMap::default();
        let mut changed = false;
        enum Step {
            Enter(usize),
            Leave(Vec<(String, Option<Value>)>),
        }
        let mut work = vec![Step::Enter(0)];
        while let Some(s) = work.pop() {
            let b = match s {
                Step::Leave(undo) => {
                    for (k, old) in undo.into_iter().rev() {
                        match old {
                            Some(v) => table.insert(k, v),
                            None => table.remove(&k),
                        };
                    }
                    continue;
                }
                Step::Enter(b) => b,
            };
            let mut undo = Vec::new();
            let mut loads: FxHashMap<String, Value> = FxHashMap::default();
            let mut kill = vec![false; f.blocks[b].insts.len()];
            for (k, killed) in kill.iter_mut().enumerate() {
                // Earlier replacements first, so keys see canonical values.
                let mut i = f.blocks[b].insts[k].clone();
                i.for_each_use_mut(|v| {
                    while let Some(w) = map[v.idx()] {
                        *v = w;
                    }
                });
                let single = match i.ops.first() {
                    Some(Opnd::Val(d)) if i.defs().len() == 1 => Some(*d),
                    _ => None,
                };
                if i.guard.is_none() && i.is_pure() {
                    if let Some(d) = single {
                        let ky = key(&i);
                        match table.get(&ky) {
                            Some(&e) if f.values[e.idx()].ty == f.values[d.idx()].ty => {
                                map[d.idx()] = Some(e);
                                *killed = true;
                            }
                            _ => {
                                let old = table.insert(ky.clone(), d);
                                undo.push((ky, old));
                            }
                        }
                    }
                } else if plain_load(&i) {
                    if let Some(d) = single {
                        let ky = key(&i);
                        match loads.get(&ky) {
                            Some(&e) if f.values[e.idx()].ty == f.values[d.idx()].ty => {
                                map[d.idx()] = Some(e);
                                *killed = true;
                            }
                            _ => {
                                loads.insert(ky, d);
                            }
                        }
                    }
                } else {
                    // May write or order memory: forget every load.
                    loads.clear();
                }
                f.blocks[b].insts[k] = i;
            }
            if kill.iter().any(|&x| x) {
                changed = true;
                let mut it = kill.iter();
                f.blocks[b].insts.retain(|_| !*it.next().unwrap());
            }
            work.push(Step::Leave(undo));
            for &c in children[b].iter().rev() {
                work.push(Step::Enter(c));
            }
        }
        if changed {
            replace_all(f, &map);
        }
        changed
    }
}
