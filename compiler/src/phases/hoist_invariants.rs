//! HoistInvariants (146; docs/MODEL.md, HoistInvariants: scheduling-time
//! loop-invariant code motion at the machine level): moves invariant
//! address computations and constant/descriptor loads out of innermost
//! loops into the loop's preheader, more aggressively in the GEMM main
//! loops the gate detects ([`super::gemm`]; ptxas: "for CUTLASS GEMM
//! kernels, the pass is more aggressive about hoisting address
//! calculations and descriptor loads out of the inner loop, because the
//! register pressure cost is offset by the latency savings").
//!
//! This is the arch-specific, GEMM-aware pass; the generic LICM phases
//! (OriHoistInvariants*) are others'.
//!
//! The legality rules are the ones every hoisting phase shares
//! ([`super::hoist::hoist_loop`], rules 1..7 there: unguarded, invariant
//! operands, the only definition of what it writes and not live into the
//! header, its block runs on every trip, loads never cross a possibly
//! aliasing store, atomic, barrier or fence; loops with a call or an
//! unmodelled instruction, or without a preheader, are left alone). This
//! phase decides only:
//!
//! 1. which loops: the innermost ones;
//! 2. what is a candidate ([`movable`]): integer/uniform/predicate ALU
//!    without side effects (the opcode table's categories `IntAlu`,
//!    `Uniform`, `Predicate` with no effects, but not `S2UR`/`P2R`/`R2P`;
//!    `R2UR` carries the table's WARP effect), `MOV`, `SEL`, constant
//!    loads `LDC`/`ULDC`, and in a GEMM loop also read-only global loads
//!    `LDG.CONSTANT`/`LD.CONSTANT`;
//! 3. how many leave one loop (below).
//!
//! Register pressure: outside GEMM loops at most [`PLAIN_LIMIT`]
//! instructions leave one loop; GEMM loops have no limit. DECISION: the
//! ptxas's cost model (docs/MODEL.md, HoistInvariants) is not described; this limit is this
//! compiler's. Off at -O0 and NvOpt level 0. Functions holding an
//! instruction whose definitions the opcode table does not model are left
//! alone.

use super::gemm;
use super::hoist::{hoist_loop, Movable, RULES};
use super::loop_util::{space_of, LoopView, Space};
use super::phase::{Phase, PhaseContext, PhaseError, RuleCounts};
use crate::ir::opcode::{Category, Effects};
use crate::ir::{Function, Inst, Op};

/// At most this many instructions leave one non-GEMM loop.
pub const PLAIN_LIMIT: usize = 8;

/// What this phase may move out of a loop (module rule 2).
fn movable(i: &Inst, gemm_loop: bool) -> Movable {
    let info = i.op.info();
    match i.op {
        Op::S2UR | Op::P2R | Op::R2P => Movable::No,
        Op::LDC | Op::ULDC => Movable::Load(Space::Constant),
        Op::LDG | Op::LD if gemm_loop && i.has_mod("CONSTANT") => {
            space_of(i.op).map_or(Movable::No, Movable::Load)
        }
        Op::MOV | Op::SEL => Movable::Pure,
        _ if matches!(
            info.category,
            Category::IntAlu | Category::Uniform | Category::Predicate
        ) && info.effects == Effects::NONE =>
        {
            Movable::Pure
        }
        _ => Movable::No,
    }
}

/// Hoists out of every innermost loop; returns the count moved.
pub fn hoist(f: &mut Function) -> usize {
    hoist_by_rule(f).total()
}

/// Hoists out of every innermost loop; returns the count moved per rule
/// of the hoisting core's table ([`super::hoist::RULES`]).
pub fn hoist_by_rule(f: &mut Function) -> RuleCounts {
    let mut n = RuleCounts::new(RULES);
    if f.insts()
        .any(|i| i.op == Op::UNDECODED || !i.op.info().is_modelled())
    {
        return n;
    }
    let mut v = LoopView::new(f);
    // Hoisting changes no block: the loops and the GEMM headers found
    // here stay valid throughout.
    let gemms = gemm::gemm_loops_with(f, &v.loops, &v.live);
    for k in 0..v.loops.loops.len() {
        if v.loops.loops.iter().any(|o| o.parent == Some(k)) {
            continue;
        }
        let l = v.loops.loops[k].clone();
        let is_gemm = gemms.contains(&l.header);
        let limit = if is_gemm { usize::MAX } else { PLAIN_LIMIT };
        let moved = hoist_loop(f, &v, &l, limit, true, &|i| movable(i, is_gemm));
        if moved.total() > 0 {
            n.merge(&moved);
            v = LoopView::new(f);
        }
    }
    n
}

/// The phase.
pub struct HoistInvariants {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub enabled: bool,
}

impl Phase for HoistInvariants {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = hoist_by_rule(&mut cx.function);
        cx.fire_rules(self.index, RULES, &n.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
