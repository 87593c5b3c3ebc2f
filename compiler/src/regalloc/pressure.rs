//! Register pressure before register allocation.
//!
//! AllocateRegisters (phase 148) measures its input with [`pressure`];
//! the driver reports it in the listing's comment line next to the real
//! allocation's figures (`crate::regalloc::ResourceUsage`, which give
//! `Used N registers`), and phase 24 checks it against the call-graph
//! budgets. It is the **maximum register pressure**: the largest number of general
//! 32-bit register units (virtual `%rN` and physical `R1`, the stack
//! pointer) live at once at any point of the code, from
//! [`crate::ir::liveness`]. It is a lower bound on what an allocator needs
//! (a perfect one without spilling achieves it up to pair alignment), and
//! much smaller than the number of distinct virtual registers, which is
//! also reported ([`Pressure::distinct`]) in the listing's comment line.
//! Predicates and uniform registers are not counted, as ptxas does not
//! count them in "Used N registers". (That line now reports the
//! allocation's highest register, which can exceed this lower bound.)

use crate::ir::cfg::Cfg;
use crate::ir::liveness::BitSet;
use crate::ir::regs::{self, RegFile, RegUnit};
use crate::ir::Function;

/// Register pressure of one lowered kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pressure {
    /// The maximum over the whole function (the kernel and its callees).
    pub max_live: u32,
    /// Distinct general register units the code names.
    pub distinct: u32,
    /// The maximum number of *virtual* general registers live at once
    /// (after each instruction, with what it writes, read later or not),
    /// counting a register pair or quad whole while any of its words is
    /// live (the allocator places it as one aligned value,
    /// `regalloc::nodes`): what register allocation must fit besides R1
    /// (the stack pointer is never allocated). Code whose value here
    /// exceeds the budget less one must spill.
    pub max_virtual: u32,
    /// Per procedure of the function (the kernel first, then each callee
    /// and subroutine, as [`Cfg::procs`]): the label of its entry block
    /// and the maximum pressure at its points. A callee's points include
    /// what its callers keep live across the call (the liveness is
    /// context-insensitive), which is what phase 24 must check against
    /// the caller's budget.
    pub procs: Vec<(u32, u32)>,
    /// Calls between procedures: (caller procedure index, callee procedure
    /// index), deduplicated, in order.
    pub calls: Vec<(usize, usize)>,
}

pub fn pressure(f: &Function) -> Pressure {
    let cfg = Cfg::new(f);
    let live = crate::ir::analysis_cache::liveness(f);
    let n = live.units.len();
    let mut general = BitSet::new(n);
    for i in 0..n {
        if live.units.unit(i).file() == RegFile::General {
            general.insert(i);
        }
    }
    // Virtual general units by group: (group start, group size).
    let groups = super::general_groups(f);
    // Each virtual general unit's group as (dense group number, size): a
    // group is counted once per point however many of its units are live,
    // with a stamp per group (the point that last counted it) instead of
    // a list of the groups seen (quadratic in the live set).
    let mut group_index: rustc_hash::FxHashMap<u32, u32> = Default::default();
    let group_of: Vec<Option<(u32, u32)>> = (0..n)
        .map(|i| match live.units.unit(i) {
            RegUnit::VR(v) => {
                let (lo, size) = groups.get(&v).copied().unwrap_or((v, 1));
                let next = group_index.len() as u32;
                Some((*group_index.entry(lo).or_insert(next), size))
            }
            _ => None,
        })
        .collect();
    let mut stamps: Vec<u32> = vec![0; group_index.len()];
    let mut stamp = 0u32;
    let mut count_groups = |s: &BitSet| {
        stamp += 1;
        let mut total = 0;
        for i in s.iter() {
            if let Some((gi, size)) = group_of[i] {
                if stamps[gi as usize] != stamp {
                    stamps[gi as usize] = stamp;
                    total += size;
                }
            }
        }
        total
    };
    let count = |s: &BitSet| {
        let mut g = s.clone();
        g.intersect_with(&general);
        g.len() as u32
    };
    let mut max_virtual = 0;
    let mut per_block = vec![0u32; f.blocks.len()];
    for (b, slot) in per_block.iter_mut().enumerate() {
        if !cfg.reachable[b] {
            continue;
        }
        let mut m = count(live.live_in(b));
        max_virtual = max_virtual.max(count_groups(live.live_in(b)));
        for (inst, s) in f.blocks[b].insts.iter().zip(live.live_after_each(b)) {
            m = m.max(count(&s));
            // What the instruction writes needs registers even when
            // nothing reads it afterwards.
            let mut with_defs = s;
            for u in regs::defs(inst) {
                if let Some(i) = live.units.index(u) {
                    with_defs.insert(i);
                }
            }
            max_virtual = max_virtual.max(count_groups(&with_defs));
        }
        *slot = m;
    }
    let procs: Vec<(u32, u32)> = cfg
        .procs
        .iter()
        .map(|p| {
            let m = p.blocks.iter().map(|&b| per_block[b]).max().unwrap_or(0);
            (f.blocks[p.entry].label, m)
        })
        .collect();
    let mut calls = Vec::new();
    for c in &cfg.calls {
        let Some(t) = c.target else { continue };
        let Some(callee) = cfg.procs.iter().position(|p| p.entry == t) else {
            continue;
        };
        for caller in cfg.procs_of(c.block) {
            if caller != callee && !calls.contains(&(caller, callee)) {
                calls.push((caller, callee));
            }
        }
    }
    Pressure {
        max_live: per_block.iter().copied().max().unwrap_or(0),
        distinct: count(&BitSet::full(n)),
        max_virtual,
        procs,
        calls,
    }
}
