//! ComputeStallCounts (152): each instruction's stall count, the cycles
//! until the next one issues, so that no instruction reads a
//! fixed-latency result early ([`super::model`]).
//!
//! Per block, in order: the next instruction issues one cycle after this
//! one, or later when one of its reads (at its [`model::read_delay`])
//! would come before a fixed-latency result it reads is ready
//! ([`model::write_latency`]). Where control leaves with this state (the
//! block's last instruction, a `CALL`; see [`super::scoreboard::is_exit`]),
//! the stall covers every outstanding fixed-latency result, so the next
//! block (or the callee, or the code after a return) starts with none.
//! The latency table's fixed latencies (at most 6 cycles) stay under the
//! 15 a stall count holds.

use rustc_hash::FxHashMap as HashMap;

use crate::ir::control::MAX_STALL;
use crate::ir::regs::RegUnit;
use crate::ir::Function;
use crate::targets::SmInfo;

use super::scoreboard::{is_entry, is_exit};
use crate::pipe::latency::{latency, Lat};
use crate::pipe::model;

/// Sets the stall counts; returns the stall cycles beyond one per
/// instruction.
pub fn compute(f: &mut Function, sm: &SmInfo) -> u64 {
    let mut extra = 0u64;
    for b in &mut f.blocks {
        let n = b.insts.len();
        let mut ready: HashMap<RegUnit, u64> = HashMap::default();
        let mut issue = vec![0u64; n];
        let mut stall = vec![1u64; n];
        for k in 0..n {
            let inst = &b.insts[k];
            if is_entry(&b.insts, k) {
                ready.clear();
                issue[k] = if k == 0 {
                    0
                } else {
                    issue[k - 1] + stall[k - 1]
                };
            } else {
                let mut at = issue[k - 1] + 1;
                for u in model::reads(inst) {
                    if let Some(&r) = ready.get(&u) {
                        at = at.max(r.saturating_sub(u64::from(model::read_delay(inst, u))));
                    }
                }
                issue[k] = at;
                stall[k - 1] = at - issue[k - 1];
            }
            let t = issue[k];
            match latency(inst, sm) {
                Lat::Fixed(l) => {
                    for u in model::writes(inst) {
                        ready.insert(u, t + u64::from(model::write_latency(inst, u, l)));
                    }
                }
                Lat::Variable(_) => {
                    for u in model::writes(inst) {
                        ready.remove(&u);
                    }
                }
            }
            if is_exit(&b.insts, k) {
                // Cover every outstanding fixed-latency result.
                let end = ready.values().copied().max().unwrap_or(0);
                stall[k] = end.saturating_sub(t).max(1);
                ready.clear();
            }
        }
        for (inst, &s) in b.insts.iter_mut().zip(&stall) {
            let s = s.clamp(1, u64::from(MAX_STALL));
            let mut c = inst.control().unwrap_or_default();
            c.stall = s as u8;
            inst.set_control(c);
            extra += s - 1;
        }
    }
    extra
}
