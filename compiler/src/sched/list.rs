//! The list scheduler of ScheduleInstructions (147): per basic block, over
//! the dependence DAG ([`super::dag`]), issue one instruction per cycle,
//! at each cycle the ready instruction with the longest latency-weighted
//! path to the end of the block (the critical path, with the latency
//! table's estimates), ties broken by the original order; when nothing is
//! ready the cycle is a stall. The result is a permutation of the block
//! that keeps every DAG edge, so the terminator stays last.
//!
//! The per-block statistics are the ones ptxas collects for its Tepid
//! scheduler's `scheduler_block_stats_collector` (`MacInsts`, `MacReuses`,
//! `Time`, `LDS latency hiding: Num`, `LDG latency hiding: Num`, `Xu64
//! latency hiding: Num`), plus the instruction count and stall cycles.

use std::fmt;

use crate::ir::opcode::{Category, Op};
use crate::ir::sass_text::{Reg, SassOperand};
use crate::ir::Inst;
use crate::targets::SmInfo;

use super::dag::{build, Dag};
use super::reuse::slot_operands;
use crate::pipe::latency::{latency, Lat};

/// ptxas's per-block scheduling statistics (docs/MODEL.md, Scheduler statistics).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockStats {
    /// The block's label.
    pub label: u32,
    /// Instructions in the block.
    pub insts: usize,
    /// Multiply-accumulate instructions ([`is_mac`]).
    pub mac_insts: usize,
    /// MACs reading a register in the same source slot as the instruction
    /// issued just before them (reuse-cache candidates).
    pub mac_reuses: usize,
    /// The estimated schedule length in cycles.
    pub time: u32,
    /// Cycles in which no instruction was ready.
    pub stalls: u32,
    /// Shared-memory loads, and the latency cycles covered by independent
    /// work before their first in-block use (or the block end).
    pub lds_hidden: (usize, u32),
    /// Global, local, texture and generic loads, likewise.
    pub ldg_hidden: (usize, u32),
    /// MUFU, conversions and FP64 (the XU and FP64 pipes), likewise.
    pub xu64_hidden: (usize, u32),
}

impl fmt::Display for BlockStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BB .L_x_{}: Insts {}, MacInsts {}, MacReuses {}, Time {}, Stalls {}, \
             LDS latency hiding: Num {} Cycles {}, LDG latency hiding: Num {} Cycles {}, \
             Xu64 latency hiding: Num {} Cycles {}",
            self.label,
            self.insts,
            self.mac_insts,
            self.mac_reuses,
            self.time,
            self.stalls,
            self.lds_hidden.0,
            self.lds_hidden.1,
            self.ldg_hidden.0,
            self.ldg_hidden.1,
            self.xu64_hidden.0,
            self.xu64_hidden.1
        )
    }
}

/// A multiply-accumulate: a three-source FMA-pipe opcode (FFMA, DFMA,
/// HFMA2, IMAD, and the tensor MMAs).
pub fn is_mac(inst: &Inst) -> bool {
    matches!(
        inst.op,
        Op::FFMA | Op::DFMA | Op::HFMA2 | Op::IMAD | Op::HMMA
    ) && !inst.has_mod("MOV")
}

/// Whether `b` reads a general register in a source slot where `a` reads
/// it too (slots as [`super::reuse::slot_operands`]).
fn same_slot_reg(a: &Inst, b: &Inst) -> bool {
    let (sa, sb) = (slot_operands(a), slot_operands(b));
    sa.iter().zip(sb.iter()).any(|(x, y)| {
        match (x.map(|k| &a.operands[k]), y.map(|k| &b.operands[k])) {
            (Some(SassOperand::Reg(x)), Some(SassOperand::Reg(y))) => {
                x.reg == y.reg && matches!(x.reg, Reg::R(_) | Reg::V(_))
            }
            _ => false,
        }
    })
}

/// The longest latency-weighted path from each instruction to the end.
fn critical_paths(insts: &[Inst], dag: &Dag, sm: &SmInfo) -> Vec<u32> {
    let n = insts.len();
    let mut cp = vec![0u32; n];
    for i in (0..n).rev() {
        let own = latency(&insts[i], sm).cycles();
        cp[i] = dag.succs[i]
            .iter()
            .map(|&(j, l)| l + cp[j])
            .max()
            .unwrap_or(own)
            .max(own);
    }
    cp
}

/// The schedule of one block: the new order (indices into `insts`) and
/// the statistics of that order.
pub fn schedule(insts: &[Inst], label: u32, sm: &SmInfo) -> (Vec<usize>, BlockStats) {
    schedule_with(insts, &build(insts, sm), label, sm)
}

/// [`schedule`] over a given DAG of the block.
pub fn schedule_with(
    insts: &[Inst],
    dag: &Dag,
    label: u32,
    sm: &SmInfo,
) -> (Vec<usize>, BlockStats) {
    let n = insts.len();
    let cp = critical_paths(insts, dag, sm);
    let mut npreds: Vec<usize> = dag.preds.iter().map(|p| p.len()).collect();
    let mut earliest = vec![0u32; n];
    let mut issued = vec![u32::MAX; n];
    let mut order = Vec::with_capacity(n);
    let mut cycle = 0u32;
    let mut stalls = 0u32;
    let mut ready: Vec<usize> = (0..n).filter(|&i| npreds[i] == 0).collect();
    while order.len() < n {
        let pick = ready
            .iter()
            .enumerate()
            .filter(|&(_, &i)| earliest[i] <= cycle)
            .max_by_key(|&(_, &i)| (cp[i], std::cmp::Reverse(i)))
            .map(|(k, _)| k);
        match pick {
            Some(k) => {
                let i = ready.swap_remove(k);
                issued[i] = cycle;
                order.push(i);
                for &(j, l) in &dag.succs[i] {
                    npreds[j] -= 1;
                    earliest[j] = earliest[j].max(cycle + l);
                    if npreds[j] == 0 {
                        ready.push(j);
                    }
                }
                cycle += 1;
            }
            None => {
                // Nothing is ready before the earliest pending start.
                let next = ready
                    .iter()
                    .map(|&i| earliest[i])
                    .min()
                    .unwrap_or(cycle + 1);
                stalls += next - cycle;
                cycle = next;
            }
        }
    }
    let time = cycle;
    let mut st = BlockStats {
        label,
        insts: n,
        time,
        stalls,
        ..Default::default()
    };
    for (k, &i) in order.iter().enumerate() {
        if is_mac(&insts[i]) {
            st.mac_insts += 1;
            if k > 0 && same_slot_reg(&insts[order[k - 1]], &insts[i]) {
                st.mac_reuses += 1;
            }
        }
        let info = insts[i].op.info();
        let Lat::Variable(est) = latency(&insts[i], sm) else {
            continue;
        };
        let est = u32::from(est);
        let first_use = dag.succs[i]
            .iter()
            .filter(|&&(_, l)| l > 0)
            .map(|&(j, _)| issued[j])
            .min()
            .unwrap_or(time);
        let hidden = first_use.saturating_sub(issued[i]).min(est);
        let slot = match info.category {
            Category::MemShared => &mut st.lds_hidden,
            Category::MemGlobal | Category::MemLocal | Category::Texture | Category::Surface => {
                &mut st.ldg_hidden
            }
            Category::SpecialFunction | Category::Conversion | Category::Fp64 => {
                &mut st.xu64_hidden
            }
            _ => continue,
        };
        if insts[i].ndst > 0 {
            slot.0 += 1;
            slot.1 += hidden;
        }
    }
    (order, st)
}
