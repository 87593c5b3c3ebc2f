//! The interference graph: two nodes interfere when one is defined where
//! the other is live (the classic definition-point rule; a definition
//! that nothing reads still clobbers its register, so every definition
//! counts, live or dead). Liveness is `ir::liveness`: guard-aware (a
//! guarded definition does not kill), with calls modelled through the
//! callee bodies in the same function, so a value live across a `CALL`
//! is live in the whole callee and interferes with everything the callee
//! defines: no caller-saved registers are needed. The destinations of
//! one instruction also interfere with each other. The one exception is
//! Chaitin's move rule: a plain copy `MOV a, b` does not make `a`
//! interfere with `b` (they hold the same value; a later write to either
//! while the other is live adds the edge).
//!
//! Physical registers already in the code (R1, or fixed registers of a
//! hand-written test) are precoloured: a node interfering with one must
//! not take it ([`Graph::fixed`]).

use super::mask::Matrix;
use super::nodes::{Class, Nodes};
use crate::ir::cfg::Cfg;
use crate::ir::regs::{self, RegUnit};
use crate::ir::Function;

/// The graph over [`Nodes`].
pub struct Graph {
    /// Each node's neighbours, ascending.
    pub adj: Vec<Vec<u32>>,
    /// Physical units each node may not take.
    pub fixed: Vec<Vec<u32>>,
    /// How many instruction points each node is live at (the spill
    /// heuristic's length).
    pub live_len: Vec<u32>,
    /// The general-register nodes live after the instruction where their
    /// registers add up to the most (the first such point), less the ones
    /// it defines, ascending; and that most ([`super::colour::pressure_victims`]).
    pub peak: Vec<u32>,
    pub peak_size: u32,
}

enum Slot {
    Node(usize),
    Phys(Class, u32),
    None,
}

fn slot_of(ns: &Nodes, u: RegUnit) -> Slot {
    let node = |c, n| ns.node_of(c, n).map_or(Slot::None, Slot::Node);
    match u {
        RegUnit::VR(n) => node(Class::Gpr, n),
        RegUnit::VP(n) => node(Class::Pred, n),
        RegUnit::VUR(n) => node(Class::Ureg, n),
        RegUnit::VUP(n) => node(Class::Upred, n),
        RegUnit::R(n) => Slot::Phys(Class::Gpr, u32::from(n)),
        RegUnit::P(n) => Slot::Phys(Class::Pred, u32::from(n)),
        RegUnit::UR(n) => Slot::Phys(Class::Ureg, u32::from(n)),
        RegUnit::UP(n) => Slot::Phys(Class::Upred, u32::from(n)),
    }
}

/// The source unit of an unguarded 32-bit register copy (`MOV a, b` without
/// modifiers); the copy's destination need not interfere with it.
fn copy_source(inst: &crate::ir::Inst) -> Option<RegUnit> {
    use crate::ir::inst::Operand;
    if inst.op != crate::ir::Op::MOV || !inst.mods.is_empty() || !regs::kills(inst) {
        return None;
    }
    match inst.operands.as_slice() {
        [Operand::Reg(_), Operand::Reg(s)] if !s.neg && !s.not && !s.abs && s.sel.is_none() => {
            RegUnit::of_reg(s.reg, 0)
        }
        _ => None,
    }
}

impl Graph {
    /// The neighbours of node `k`, ascending.
    #[inline]
    pub fn nbrs(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        self.adj[k].iter().map(|&m| m as usize)
    }
}

pub fn build(f: &Function, ns: &Nodes) -> Graph {
    let n = ns.nodes.len();
    let mut adj = Matrix::new(n);
    let mut fixed: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut live_len = vec![0u32; n];
    let cfg = Cfg::new(f);
    let live = crate::ir::analysis_cache::liveness(f);
    let slots: Vec<Slot> = (0..live.units.len())
        .map(|i| slot_of(ns, live.units.unit(i)))
        .collect();
    let mut edge = |a: &Slot, b: &Slot| match (a, b) {
        (Slot::Node(x), Slot::Node(y)) if x != y && ns.nodes[*x].class == ns.nodes[*y].class => {
            adj.insert(*x, *y);
        }
        (Slot::Node(x), Slot::Phys(c, p)) | (Slot::Phys(c, p), Slot::Node(x))
            if ns.nodes[*x].class == *c && !fixed[*x].contains(p) =>
        {
            fixed[*x].push(*p);
        }
        _ => {}
    };
    // The instruction that last counted each node's live point (a node of
    // several units counts once per point).
    let mut counted: Vec<usize> = vec![usize::MAX; n];
    let mut point = 0usize;
    let (mut peak, mut peak_size) = (Vec::new(), 0u32);
    // The general-register nodes live at the current point.
    let mut here: Vec<u32> = Vec::new();
    for (b, blk) in f.blocks.iter().enumerate() {
        // Code that never runs constrains nothing (its registers still get
        // colours, any will do).
        if !cfg.reachable[b] {
            continue;
        }
        let after = live.live_after_each(b);
        // The units live after the instruction, listed once (a bit-set
        // scan per definition and one more for the lengths cost more
        // than the edges).
        let mut out: Vec<usize> = Vec::new();
        for (inst, out_set) in blk.insts.iter().zip(&after) {
            out.clear();
            out.extend(out_set.iter());
            let defs: Vec<usize> = regs::defs(inst)
                .iter()
                .filter_map(|&u| live.units.index(u))
                .collect();
            // A plain copy: its destination holds the source's value, so
            // the two may share a register (Chaitin's move rule).
            let src = copy_source(inst).and_then(|u| live.units.index(u));
            for &d in &defs {
                for &l in &out {
                    if Some(l) == src {
                        continue;
                    }
                    edge(&slots[d], &slots[l]);
                }
                for &e in &defs {
                    edge(&slots[d], &slots[e]);
                }
            }
            here.clear();
            for &l in &out {
                if let Slot::Node(x) = slots[l] {
                    if counted[x] != point {
                        counted[x] = point;
                        live_len[x] += 1;
                        if ns.nodes[x].class == Class::Gpr {
                            here.push(x as u32);
                        }
                    }
                }
            }
            let size: u32 = here.iter().map(|&x| ns.nodes[x as usize].size).sum();
            if size > peak_size {
                peak_size = size;
                let defined = |x: u32| {
                    defs.iter()
                        .any(|&d| matches!(slots[d], Slot::Node(y) if y == x as usize))
                };
                peak.clear();
                peak.extend(here.iter().copied().filter(|&x| !defined(x)));
                peak.sort_unstable();
            }
            point += 1;
        }
    }
    Graph {
        adj: adj.finish(),
        fixed,
        live_len,
        peak,
        peak_size,
    }
}
