//! The register allocation phases: AllocateRegisters (148),
//! VerifyAllocatedProgram (154), ComputeResourceUsage (155). They run at
//! every optimization level: without them the output keeps virtual
//! registers. The work is in [`crate::regalloc`].
//!
//! SpillToLocalMemory (150) stays inert: the allocator spills everywhere
//! and must colour the code *with* its spill code (the temporaries need
//! registers too), so spill code is inserted inside 148's rounds, and the
//! frames grown there, rather than in a later phase.

use super::phase::{Phase, PhaseContext, PhaseError};
use super::table;
use crate::regalloc::{self, RegBudget};

fn budget(cx: &PhaseContext) -> RegBudget {
    cx.budget
        .unwrap_or_else(|| cx.sm.map_or(RegBudget::of(255), RegBudget::for_sm))
}

fn fail(index: u16, m: impl std::fmt::Display) -> PhaseError {
    PhaseError {
        phase: table::name_of(index),
        message: m.to_string(),
    }
}

/// 148: colour, spill, grow the frames.
pub struct AllocateRegisters {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for AllocateRegisters {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let b = budget(cx);
        // The pressure the allocation starts from (what the driver reports
        // as "max pressure before register allocation").
        let pressure = crate::regalloc::pressure::pressure(&cx.function);
        let r =
            regalloc::allocate(&mut cx.function, &b, cx.sm).map_err(|e| fail(self.index(), e))?;
        cx.fire(self.index(), u64::from(r.spilled + r.spilled_predicates));
        let mut total = cx.alloc.take().unwrap_or_default();
        total.rounds += r.rounds;
        total.spilled += r.spilled;
        total.spilled_predicates += r.spilled_predicates;
        total.spill_stores += r.spill_stores;
        total.spill_loads += r.spill_loads;
        total.spill_store_bytes += r.spill_store_bytes;
        total.spill_load_bytes += r.spill_load_bytes;
        total.spill_area_bytes += r.spill_area_bytes;
        if total.pressure.is_none() {
            total.pressure = Some(pressure);
        }
        cx.alloc = Some(total);
        Ok(())
    }
}

/// 154: the post-allocation verifier.
pub struct VerifyAllocatedProgram {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for VerifyAllocatedProgram {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        // Nothing to verify in an order without AllocateRegisters (a
        // `--phase-order` may leave it out; the IR then stays virtual).
        if cx.alloc.is_none() {
            return Ok(());
        }
        regalloc::verify_allocated(&cx.function, &budget(cx), cx.sm)
            .map_err(|e| fail(self.index(), e))
    }
}

/// 155: registers used, spill bytes, stack frame.
pub struct ComputeResourceUsage {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for ComputeResourceUsage {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let u = regalloc::resource_usage(&cx.function, cx.alloc.as_ref())
            .map_err(|e| fail(self.index(), e))?;
        cx.resources = Some(u);
        Ok(())
    }
}
