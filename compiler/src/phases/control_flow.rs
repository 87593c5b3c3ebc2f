//! AnalyzeControlFlow (phase 3): builds the control-flow graph
//! ([`crate::ir::cfg::Cfg`]) and records what later phases and the report
//! read from it.

use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::cfg::Cfg;

/// What AnalyzeControlFlow leaves in the context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgFacts {
    pub blocks: usize,
    pub edges: usize,
    pub reachable: usize,
    pub procedures: usize,
    pub calls: usize,
    /// Reverse postorder of the reachable blocks.
    pub rpo: Vec<usize>,
    /// The block labels in layout order: at phase 3, the lowering's order,
    /// which is the PTX source order (PlaceBlocksInSourceOrder restores
    /// it).
    pub layout: Vec<u32>,
}

impl CfgFacts {
    pub fn of(f: &crate::ir::Function) -> CfgFacts {
        let cfg = Cfg::new(f);
        CfgFacts {
            blocks: cfg.num_blocks(),
            edges: cfg.succs.iter().map(Vec::len).sum(),
            reachable: cfg.reachable.iter().filter(|&&r| r).count(),
            procedures: cfg.procs.len(),
            calls: cfg.calls.len(),
            rpo: cfg.rpo,
            layout: f.blocks.iter().map(|b| b.label).collect(),
        }
    }
}

pub struct AnalyzeControlFlow {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for AnalyzeControlFlow {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        cx.cfg = Some(CfgFacts::of(&cx.function));
        Ok(())
    }
}
