//! The scheduling and control-code phases: ScheduleInstructions (147),
//! AssignScoreboards (151), ComputeStallCounts (152), SetReuseFlags (153).
//! The algorithms are in [`crate::sched`].
//!
//! Gates: ScheduleInstructions is a no-op at -O0 and at NvOpt level 0 (it
//! only changes performance). The control-code phases run at every level:
//! correct code needs them. All four need a target (the latency table is
//! per SM); without one (`PhaseContext::sm` is `None`) they are no-ops.

use super::phase::{Phase, PhaseContext, PhaseError};
use crate::sched::{list, reuse, scoreboard, stall};

/// ScheduleInstructions (147).
pub struct ScheduleInstructions {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub enabled: bool,
}

impl Phase for ScheduleInstructions {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let Some(sm) = cx.sm else { return Ok(()) };
        let mut moved = 0u64;
        for b in &mut cx.function.blocks {
            let (order, stats) = list::schedule(&b.insts, b.label, sm);
            moved += order.iter().enumerate().filter(|&(k, &i)| k != i).count() as u64;
            let mut old: Vec<Option<crate::ir::Inst>> = b.insts.drain(..).map(Some).collect();
            b.insts = order
                .iter()
                .map(|&i| old[i].take().expect("a permutation"))
                .collect();
            cx.schedule.push(stats);
        }
        cx.fire(self.index, moved);
        Ok(())
    }
}

/// AssignScoreboards (151).
pub struct AssignScoreboards {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for AssignScoreboards {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let Some(sm) = cx.sm else { return Ok(()) };
        let (set, _) = scoreboard::assign(&mut cx.function, sm);
        cx.fire(self.index, set as u64);
        Ok(())
    }
}

/// ComputeStallCounts (152).
pub struct ComputeStallCounts {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for ComputeStallCounts {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let Some(sm) = cx.sm else { return Ok(()) };
        let extra = stall::compute(&mut cx.function, sm);
        cx.fire(self.index, extra);
        Ok(())
    }
}

/// SetReuseFlags (153).
pub struct SetReuseFlags {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for SetReuseFlags {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        if cx.sm.is_none() {
            return Ok(());
        }
        let n = reuse::set(&mut cx.function);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}
