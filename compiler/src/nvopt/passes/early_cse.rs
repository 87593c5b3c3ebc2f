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

use super::Pass;
use crate::nvopt::ir::*;
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
        // Loads: the block's identical earlier loads since the last
        // instruction that may write or order memory.
        super::numbering::run(
            f,
            key,
            |loads: &mut FxHashMap<String, Value>, values, i, single| {
                if !plain_load(i) {
                    // May write or order memory: forget every load.
                    loads.clear();
                    return None;
                }
                let d = single?;
                let ky = key(i);
                match loads.get(&ky) {
                    Some(&e) if values[e.idx()].ty == values[d.idx()].ty => Some(e),
                    _ => {
                        loads.insert(ky, d);
                        None
                    }
                }
            },
        )
    }
}
