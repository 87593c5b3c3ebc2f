//! Resource usage after allocation (phase 155, ComputeResourceUsage):
//! what the driver reports in ptxas's `-v` style and in the listing's
//! comment line.
//!
//! "Used N registers" is ptxas's count: the highest general register
//! index named plus one (R1, the stack pointer, included: every kernel
//! names it). Spill store and load bytes are the bytes the allocator's
//! spill instructions move (static counts, as ptxas prints them). The
//! stack frame is the kernel's stack depth, callees and spill areas
//! included ([`super::stack_depth`]).

use super::AllocReport;
use crate::ir::regs::{self, RegUnit};
use crate::ir::Function;

/// What the allocated function uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceUsage {
    /// General registers (highest index + 1).
    pub registers: u32,
    /// Uniform registers (highest index + 1; 0 when none).
    pub uniform_registers: u32,
    /// Predicates (highest index + 1).
    pub predicates: u32,
    pub spill_store_bytes: u32,
    pub spill_load_bytes: u32,
    /// Per-thread stack bytes (one activation of a self-recursive function).
    pub stack_frame: u32,
    /// A self-recursive function makes the stack size data-dependent
    /// (ptxas: "Stack size for entry function '..' cannot be statically
    /// determined").
    pub stack_unbounded: bool,
    /// Whether virtual registers are left (the order had no allocation).
    pub virtual_left: bool,
}

/// Measures `f`; `report` is the allocation's (spill counts).
pub fn resource_usage(f: &Function, report: Option<&AllocReport>) -> Result<ResourceUsage, String> {
    let mut u = ResourceUsage::default();
    for i in f.insts() {
        for x in regs::mentioned(i) {
            match x {
                RegUnit::R(n) => u.registers = u.registers.max(u32::from(n) + 1),
                RegUnit::UR(n) => u.uniform_registers = u.uniform_registers.max(u32::from(n) + 1),
                RegUnit::P(n) => u.predicates = u.predicates.max(u32::from(n) + 1),
                _ if x.is_virtual() => u.virtual_left = true,
                _ => {}
            }
        }
    }
    if let Some(r) = report {
        u.spill_store_bytes = r.spill_store_bytes;
        u.spill_load_bytes = r.spill_load_bytes;
    }
    u.stack_frame = super::stack_depth(f)?;
    u.stack_unbounded = super::has_self_calls(f);
    Ok(u)
}
