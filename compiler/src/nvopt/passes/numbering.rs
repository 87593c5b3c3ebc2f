//! The dominator-tree value numbering EarlyCSE and GVN share: a walk of
//! the dominator tree with a scoped table of available pure expressions
//! (entries leave the table when the walk leaves the block that made
//! them), each instruction's uses rewritten to the values they were found
//! equal to first.
//!
//! An unguarded pure instruction ([`Inst::is_pure`]) with one destination
//! whose key (the pass's: opcode, modifiers, operands) is available with a
//! destination of the same register type is deleted, and its uses read the
//! earlier value. Every other instruction goes to the pass's `memory` hook
//! with that block's memory state (`M`, fresh per block): the hook may say
//! that the instruction's single destination equals an earlier value (a
//! load it forwards), and keeps its state up to date.

use super::util::replace_all;
use crate::nvopt::ir::*;
use crate::nvopt::lift::idoms;
use rustc_hash::FxHashMap;

/// Runs the numbering on `f`; true when an instruction went.
/// `memory(state, values, inst, single)`: `single` is `inst`'s one
/// destination, if it has exactly one; returns the earlier value it
/// equals.
pub fn run<M: Default>(
    f: &mut Function,
    key: impl Fn(&Inst) -> String,
    mut memory: impl FnMut(&mut M, &[ValueInfo], &Inst, Option<Value>) -> Option<Value>,
) -> bool {
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
        let mut mem = M::default();
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
            } else if let Some(e) = memory(&mut mem, &f.values, &i, single) {
                let d = single.expect("a forwarded instruction has one destination");
                map[d.idx()] = Some(e);
                *killed = true;
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
