//! HoistInvariants (146; seed 001's `sub_186C7A0`, scheduling-time
//! loop-invariant code motion at the machine level): moves invariant
//! address computations and constant/descriptor loads out of innermost
//! loops into the loop's preheader, more aggressively in the GEMM main
//! loops the gate detects ([`super::gemm`]; seed 001: "for CUTLASS GEMM
//! kernels, the pass is more aggressive about hoisting address
//! calculations and descriptor loads out of the inner loop, because the
//! register pressure cost is offset by the latency savings").
//!
//! This is the arch-specific, GEMM-aware pass; the generic LICM phases
//! (OriHoistInvariants*) are others'.
//!
//! An instruction `i` in innermost loop `L` is hoisted to the preheader
//! `P` (the one predecessor of the header outside `L`, whose one successor
//! is the header; loops without one are left alone) when:
//!
//! 1. it is unguarded and of a hoistable kind: integer/uniform/predicate
//!    ALU without side effects (the opcode table's categories `IntAlu`,
//!    `Uniform`, `Predicate` with no effects, but not `S2UR`/`R2UR`/
//!    `P2R`/`R2P`), `MOV`, `SEL`, constant loads `LDC`/`ULDC`, and in a
//!    GEMM loop also read-only global loads `LDG.CONSTANT`/`LD.CONSTANT`;
//! 2. nothing in `L` defines a unit it reads (its operands are invariant);
//!    loops holding a `CALL` are left alone (the callee's definitions are
//!    not in the loop's blocks);
//! 3. it is the only definition in `L` of each unit it defines, and none
//!    of them is live on entry to the header: no read in or after the
//!    loop can see a value other than the one `i` computes, so running it
//!    once before the loop (even where the loop would not have reached
//!    it) is invisible — this holds for virtual and physical registers
//!    alike, and under guarded partial definitions elsewhere;
//! 4. a load additionally must execute on every trip: its block dominates
//!    every latch and every block that leaves the loop (so hoisting never
//!    runs a possibly faulting access that a guard or branch would have
//!    skipped); constant memory is never written, and a global load is
//!    hoisted only when `L` has no store, atomic, barrier, fence or call
//!    (nothing that may alias or publish what it reads).
//!
//! Register pressure: outside GEMM loops at most [`PLAIN_LIMIT`]
//! instructions leave one loop; GEMM loops have no limit. DECISION: the
//! seed's cost model (`sub_1873030`) is not described; this limit is this
//! compiler's. Off at -O0 and NvOpt level 0. Functions holding an
//! instruction whose definitions the opcode table does not model are left
//! alone.

use super::gemm;
use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::cfg::{is_terminator, Cfg};
use crate::ir::dom::DomTree;
use crate::ir::liveness::Liveness;
use crate::ir::loops::LoopInfo;
use crate::ir::opcode::{Category, Effects};
use crate::ir::{regs, Function, Inst, Op, Operand};

/// Phase index (table row 146).
pub const INDEX: u16 = 146;

/// At most this many instructions leave one non-GEMM loop.
pub const PLAIN_LIMIT: usize = 8;

/// Whether `i` may be hoisted at all (rule 1), and whether it is a load
/// (rule 4).
fn kind(i: &Inst, gemm_loop: bool) -> Option<bool> {
    if i.guard.is_some() || regs::reads_all_registers(i) {
        return None;
    }
    let info = i.op.info();
    let faulting_const = i
        .operands
        .iter()
        .any(|o| matches!(o, Operand::Const(c) if c.reg.is_some()));
    match i.op {
        Op::S2UR | Op::R2UR | Op::P2R | Op::R2P => None,
        Op::LDC => Some(true),
        Op::ULDC => Some(faulting_const),
        Op::LDG | Op::LD if gemm_loop && i.has_mod("CONSTANT") => Some(true),
        Op::MOV | Op::SEL => Some(faulting_const),
        _ if matches!(
            info.category,
            Category::IntAlu | Category::Uniform | Category::Predicate
        ) && info.effects == Effects::NONE =>
        {
            Some(faulting_const)
        }
        _ => None,
    }
}

/// Whether `i` may write or publish memory a global load reads.
fn clobbers_global(i: &Inst) -> bool {
    let e = i.op.info().effects;
    e.intersects(
        Effects::STORE
            .union(Effects::ATOMIC)
            .union(Effects::BARRIER)
            .union(Effects::FENCE),
    ) || i.op == Op::CALL
        || regs::reads_all_registers(i)
}

/// One hoist: (block, index) in the loop to the end of `pre`. Returns
/// whether something moved.
fn hoist_one(f: &mut Function, budget: &mut Vec<(usize, usize)>) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(&cfg);
    let li = LoopInfo::new(&cfg, &dom);
    let live = Liveness::new(f, &cfg);
    let gemms = gemm::gemm_loops_with(f, &li, &live);
    for (k, l) in li.loops.iter().enumerate() {
        if li.loops.iter().any(|o| o.parent == Some(k)) {
            continue;
        }
        let outside: Vec<usize> = cfg.preds[l.header]
            .iter()
            .copied()
            .filter(|p| !l.blocks.contains(p))
            .collect();
        let [pre] = outside[..] else { continue };
        if cfg.succs[pre] != [l.header] {
            continue;
        }
        let is_gemm = gemms.contains(&l.header);
        let used = budget
            .iter()
            .find(|(h, _)| *h == f.blocks[l.header].label as usize)
            .map_or(0, |x| x.1);
        if !is_gemm && used >= PLAIN_LIMIT {
            continue;
        }
        let insts = || {
            l.blocks.iter().flat_map(|&b| {
                f.blocks[b]
                    .insts
                    .iter()
                    .enumerate()
                    .map(move |(i, x)| (b, i, x))
            })
        };
        let mut def_count: std::collections::BTreeMap<regs::RegUnit, usize> = Default::default();
        for (_, _, i) in insts() {
            for u in regs::defs(i) {
                *def_count.entry(u).or_insert(0) += 1;
            }
        }
        // A call's callee (blocks outside the loop) may define any
        // register: the loop's own definitions would not tell.
        if insts().any(|(_, _, i)| i.op == Op::CALL || regs::reads_all_registers(i)) {
            continue;
        }
        let clobbered = insts().any(|(_, _, i)| clobbers_global(i));
        let leaving: Vec<usize> = l
            .blocks
            .iter()
            .copied()
            .filter(|&b| {
                cfg.succs[b].is_empty() || cfg.succs[b].iter().any(|s| !l.blocks.contains(s))
            })
            .chain(l.latches.iter().copied())
            .collect();
        let found = insts().find(|&(b, _, i)| {
            // Keep every block non-empty (the verifier's invariant).
            if f.blocks[b].insts.len() < 2 {
                return false;
            }
            let Some(load) = kind(i, is_gemm) else {
                return false;
            };
            if regs::uses(i).iter().any(|u| def_count.contains_key(u)) {
                return false;
            }
            let d = regs::defs(i);
            if d.is_empty()
                || d.iter()
                    .any(|u| def_count[u] != 1 || live.is_live_in(l.header, *u))
            {
                return false;
            }
            if load {
                let global = matches!(i.op, Op::LDG | Op::LD);
                if (global && clobbered) || !leaving.iter().all(|&x| dom.dominates(b, x)) {
                    return false;
                }
            }
            true
        });
        let Some((b, idx, _)) = found else { continue };
        let inst = f.blocks[b].insts.remove(idx);
        let p = &mut f.blocks[pre].insts;
        let at = if p.last().is_some_and(is_terminator) {
            p.len() - 1
        } else {
            p.len()
        };
        p.insert(at, inst);
        let label = f.blocks[l.header].label as usize;
        match budget.iter_mut().find(|(h, _)| *h == label) {
            Some(x) => x.1 += 1,
            None => budget.push((label, 1)),
        }
        return true;
    }
    false
}

/// Hoists until nothing more is invariant; returns the count moved.
pub fn hoist(f: &mut Function) -> usize {
    if f.insts()
        .any(|i| i.op == Op::UNDECODED || !i.op.info().is_modelled())
    {
        return 0;
    }
    // (header label, hoisted so far)
    let mut budget = Vec::new();
    let mut n = 0;
    while hoist_one(f, &mut budget) {
        n += 1;
    }
    n
}

/// The phase.
pub struct HoistInvariants {
    pub enabled: bool,
}

impl Phase for HoistInvariants {
    fn index(&self) -> u16 {
        INDEX
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = hoist(&mut cx.function);
        cx.fire(INDEX, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
