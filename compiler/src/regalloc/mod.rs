//! Register allocation: virtual registers (`%rN`, `%pN`, `%urN`, `%upN`)
//! to physical ones (`R0..`, `P0..P6`, `UR0..UR62`, `UP0..UP6`), with
//! spilling to local memory when the budget is too small.
//!
//! | file | job |
//! |---|---|
//! | `nodes.rs` | allocation nodes: the virtual register groups (single, aligned pair, quad) the operands name, their file, size and alignment |
//! | `interfere.rs` | the interference graph from guard-aware liveness (`ir::liveness`), with per-node spill costs |
//! | `colour.rs` | greedy colouring in definition order under the budget, reserved and fixed registers (tests against the first version: `tests_colour_reference.rs`) |
//! | `repair.rs` | the one-step recolouring of a node that found no place, and each node's busy registers kept current |
//! | `spill.rs` | spill-everywhere rewriting: a fresh temporary per instruction, `LDL` before uses, `STL` after definitions, under the instruction's guard; predicates through a general register (`SEL`/`ISETP`) |
//! | `frame.rs` | the spill area of each procedure in its stack frame: `IADD3 R1` adjustments, `[R1+off]` addresses from the stack depth at each point, the total stack size |
//! | `check.rs` | the post-allocation verifier (phase 154) |
//! | `usage.rs` | registers used, spill bytes, stack frame (phase 155, the driver's report) |
//! | `pressure.rs` | register pressure before allocation (phase 148 and the driver's report) |
//!
//! The algorithm ([`allocate`]) iterates, Chaitin style: build nodes and
//! interference, colour; when nodes fail, choose victims (the failing node
//! or a neighbour with the best live-range-length per reference ratio),
//! rewrite them with spill code whose temporaries live only around one
//! instruction, and start again; where more registers are live at one
//! point than the budget has, the best-scoring values live there join the
//! victims until the rest fit (`colour::pressure_victims`: that excess
//! must go anyway, and the colourings fail only a node or two per round).
//! Temporaries and nodes named by more than
//! one procedure (call arguments, return values, return addresses: their
//! spill slot would sit in two frames) are never victims. Each round spills
//! at least one node or fails with a clear error, so it terminates.
//!
//! Conventions (`lower/mod.rs`): R1 is the stack pointer and never
//! allocated; `RZ` is R255; the budget counts `R0..R(n-1)`. Reserved
//! registers (driver phase 20) are taken off the top of the budget by the
//! driver (`FunctionConfig::budget`), so they are exactly the registers at
//! or above the budget this module receives. DECISION: R0..R3, which ptxas's
//! driver calls "always reserved (caller-saved)" (docs/MODEL.md, Compilation driver), stay allocatable: every
//! vendor kernel of the corpus computes in R0, R2 and R3 (ptxas's
//! reservation is the call ABI's scratch set, and this compiler's ABI
//! passes arguments in virtual registers, lower/mod.rs).

mod check;
mod colour;
mod frame;
mod interfere;
mod mask;
mod nodes;
pub mod pressure;
mod repair;
mod spill;
#[cfg(test)]
mod tests_colour_reference;
mod usage;

#[cfg(test)]
mod tests;

pub use check::verify_allocated;
pub use frame::{has_self_calls, stack_depth};
pub use usage::{resource_usage, ResourceUsage};

use crate::ir::Function;
use crate::targets::SmInfo;

/// The general registers the allocator may use: `R0..R(registers-1)`
/// but R1 (the other files have fixed sizes: 7 predicates, 63 uniform
/// registers, 7 uniform predicates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegBudget {
    /// The budget after the driver's phase 21 adjustments and phase 20's
    /// reservation from the top. At most 255 are usable (R255 is RZ).
    pub registers: u32,
}

/// Predicates `P0..P6` (PT is P7).
pub const PREDICATES: u32 = 7;
/// Uniform registers `UR0..UR62` (URZ is UR63).
pub const UNIFORM_REGISTERS: u32 = 63;
/// Uniform predicates `UP0..UP6`.
pub const UNIFORM_PREDICATES: u32 = 7;
/// The stack pointer.
pub const STACK_POINTER: u32 = 1;

impl RegBudget {
    /// The whole register file of `sm`.
    pub fn for_sm(sm: &SmInfo) -> RegBudget {
        RegBudget::of(sm.max_registers)
    }

    /// A budget of `n` registers.
    pub fn of(n: u32) -> RegBudget {
        RegBudget { registers: n }
    }

    /// The number of general registers that exist for allocation.
    pub fn limit(&self) -> u32 {
        self.registers.min(255)
    }

    /// Whether general register `Rr` may hold an allocated value.
    pub fn allows(&self, r: u32) -> bool {
        r < self.limit() && r != STACK_POINTER
    }
}

/// The allocation groups of the virtual general registers of `f` (pairs,
/// quads, as [`allocate`] places them): each unit's (group start, group
/// size). Empty when the groups are inconsistent (allocation then fails
/// with the reason).
pub fn general_groups(f: &Function) -> std::collections::HashMap<u32, (u32, u32)> {
    let Ok(ns) = nodes::build(f, &Default::default()) else {
        return Default::default();
    };
    ns.nodes
        .iter()
        .filter(|n| n.class == nodes::Class::Gpr)
        .flat_map(|n| (n.lo..n.lo + n.size).map(move |u| (u, (n.lo, n.size))))
        .collect()
}

/// What [`allocate`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllocReport {
    /// Colouring rounds (1 when nothing was spilled).
    pub rounds: u32,
    /// Nodes spilled to local memory, and predicates spilled to general
    /// registers.
    pub spilled: u32,
    pub spilled_predicates: u32,
    /// Spill instructions inserted and their bytes (ptxas's `-v` counts
    /// bytes of spill stores and loads).
    pub spill_stores: u32,
    pub spill_loads: u32,
    pub spill_store_bytes: u32,
    pub spill_load_bytes: u32,
    /// Bytes of spill area added to the frames, over all procedures.
    pub spill_area_bytes: u32,
    /// The register pressure of the code the (first) allocation started
    /// from (set by the phase, `regalloc::pressure`).
    pub pressure: Option<pressure::Pressure>,
}

/// An allocation failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocError(pub String);

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AllocError {}

/// The most colouring rounds before giving up (each spills at least one
/// node, so this bounds nothing a real kernel reaches; it guards against
/// a bug looping forever).
const MAX_ROUNDS: u32 = 10_000;

/// Allocates every virtual register of `f`, inserting spill code and
/// growing the frames as needed. `sm` decides whether uniform registers
/// exist (sm_75+, the SM table).
pub fn allocate(
    f: &mut Function,
    budget: &RegBudget,
    sm: Option<&SmInfo>,
) -> Result<AllocReport, AllocError> {
    let mut report = AllocReport::default();
    let mut temps = nodes::TempSet::default();
    let mut slots = spill::Slots::default();
    loop {
        report.rounds += 1;
        if report.rounds > MAX_ROUNDS {
            return Err(AllocError("register allocation did not converge".into()));
        }
        let ns = nodes::build(f, &temps)?;
        if let Some(sm) = sm {
            if !sm.uniform_registers && ns.nodes.iter().any(|n| n.class == nodes::Class::Ureg) {
                return Err(AllocError(format!(
                    "{} has no uniform registers, but the code names virtual ones",
                    sm.name
                )));
            }
        }
        let g = interfere::build(f, &ns);
        match colour::colour(&ns, &g, budget) {
            Ok(assign) => {
                spill::rewrite_to_physical(f, &ns, &assign);
                let area = frame::lay_out(f, &slots, sm)?;
                report.spill_area_bytes = area;
                let (st, ld, stb, ldb) = slots.counts();
                report.spill_stores = st;
                report.spill_loads = ld;
                report.spill_store_bytes = stb;
                report.spill_load_bytes = ldb;
                return Ok(report);
            }
            Err(failed) => {
                let mut victims = colour::choose_victims(&ns, &g, &failed)?;
                colour::pressure_victims(&ns, &g, budget, &mut victims);
                for &v in &victims {
                    if ns.nodes[v].class == nodes::Class::Pred {
                        report.spilled_predicates += 1;
                    } else {
                        report.spilled += 1;
                    }
                }
                spill::spill(f, &ns, &victims, &mut temps, &mut slots)?;
            }
        }
    }
}
