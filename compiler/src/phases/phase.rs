//! The phase object model (docs/MODEL.md, PhaseManager: an object whose operations are
//! `execute`, `isNoOp`, `getName`) and the factory (ptxas's
//! 159-case switch).
//!
//! A phase is a [`Phase`]; [`create`] builds one from its index and a
//! [`PhaseConfig`], `None` past the table (ptxas's default case). Which
//! indices build real phases is the table's [`Kind`]: see [`create`].

use std::sync::Arc;

use super::table::{self, Kind, EMIT, PHASES};
use super::{check_initial, control_flow, convert_unsupported, emit, live_dead, regalloc, sched};
use super::{hoist, loop_simplify, predication, strength_reduce, unroll};
use super::{hoist_invariants, nan_or_zero, place_blocks, tex_nodep};
use crate::ir::sass_text::SassFunction;
use crate::ir::Function;
use crate::phases::ori::sequence::OriSequence;
use crate::targets::SmInfo;

/// What every phase reads and writes: the function's IR and what the
/// analysis and emission phases leave for later ones.
#[derive(Clone, Debug)]
pub struct PhaseContext {
    pub function: Function,
    /// The target (the verifier's per-SM checks); `None` checks SM-free
    /// invariants only.
    pub sm: Option<&'static SmInfo>,
    /// AnalyzeControlFlow's result.
    pub cfg: Option<control_flow::CfgFacts>,
    /// Instructions removed by the dead-code phases so far.
    pub removed: usize,
    /// EmitSassListing's result.
    pub listing: Option<SassFunction>,
    /// How often each phase fired (rewrote something), by phase index:
    /// what `--phase-stats` prints under `Fired` and what the generator's
    /// per-peephole fire rates and the engine's statistics count. A phase
    /// records its own rewrites with [`PhaseContext::fire`].
    pub fired: std::collections::BTreeMap<u16, u64>,
    /// ScheduleInstructions's per-block statistics (docs/MODEL.md, Scheduler statistics), in the
    /// order the blocks were scheduled; printed by `--phase-stats`.
    pub schedule: Vec<crate::sched::list::BlockStats>,
    /// The register budget of this function (driver phases 20/21);
    /// `None`: the SM's whole register file.
    pub budget: Option<crate::regalloc::RegBudget>,
    /// AllocateRegisters' result (spill counts), once it ran.
    pub alloc: Option<crate::regalloc::AllocReport>,
    /// ComputeResourceUsage's result.
    pub resources: Option<crate::regalloc::ResourceUsage>,
}

impl PhaseContext {
    pub fn new(function: Function, sm: Option<&'static SmInfo>) -> PhaseContext {
        PhaseContext {
            function,
            sm,
            cfg: None,
            removed: 0,
            listing: None,
            fired: Default::default(),
            schedule: Vec::new(),
            budget: None,
            alloc: None,
            resources: None,
        }
    }

    /// Records `n` rewrites by phase `index` (nothing for `n == 0`).
    pub fn fire(&mut self, index: u16, n: u64) {
        if n > 0 {
            *self.fired.entry(index).or_insert(0) += n;
        }
    }
}

/// A phase failed: its name and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseError {
    pub phase: &'static str,
    pub message: String,
}

impl std::fmt::Display for PhaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.phase, self.message)
    }
}

impl std::error::Error for PhaseError {}

/// One phase (ptxas's phase operations: execute, isNoOp, getName; docs/MODEL.md, PhaseManager).
pub trait Phase: Send + Sync {
    /// Its index in the table (ptxas's `getName` returns an index into
    /// the name table).
    fn index(&self) -> u16;
    /// Whether the dispatch loop skips `execute`.
    fn is_no_op(&self) -> bool;
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError>;
    fn name(&self) -> &'static str {
        table::name_of(self.index())
    }
}

/// What the factory needs: the optimization levels, the hooks to
/// activate, the ORI sequence.
#[derive(Clone, Debug)]
pub struct PhaseConfig {
    /// `-O` (0..=3): gates which phases run at all (the dead-code phases
    /// are no-ops at -O0).
    pub opt_level: u8,
    /// NvOpt level (0..=5): how aggressive the active phases are.
    pub nvopt_level: u8,
    /// (hook index, phase index): run that phase at that hook.
    pub hooks: Vec<(u16, u16)>,
    /// The ORI sequence phase 139 runs.
    pub ori: Arc<OriSequence>,
}

/// The default NvOpt level: the dead-code phases run ptxas's three
/// rounds.
pub const DEFAULT_NVOPT_LEVEL: u8 = 3;

impl Default for PhaseConfig {
    fn default() -> Self {
        PhaseConfig {
            opt_level: 3,
            nvopt_level: DEFAULT_NVOPT_LEVEL,
            hooks: Vec::new(),
            ori: Arc::new(crate::phases::ori::sequence::build(&Default::default())),
        }
    }
}

impl PhaseConfig {
    /// Rounds of dead-code removal one dead-code phase runs at this NvOpt
    /// level: 0, 1, 2, 3, 4, or until nothing is dead (level 5).
    pub fn dead_code_rounds(&self) -> usize {
        match self.nvopt_level {
            0 => 0,
            1 => 1,
            2 => 2,
            3 => 3,
            4 => 4,
            _ => usize::MAX,
        }
    }
}

/// An explicit no-op: a phase of the table not implemented here.
#[derive(Debug)]
pub struct Inert(pub u16);

impl Phase for Inert {
    fn index(&self) -> u16 {
        self.0
    }
    fn is_no_op(&self) -> bool {
        true
    }
    fn execute(&self, _: &mut PhaseContext) -> Result<(), PhaseError> {
        Ok(())
    }
}

/// An AdvancedPhase hook: a no-op unless a phase is attached.
pub struct Hook {
    pub index: u16,
    pub target: Option<Box<dyn Phase>>,
}

impl Phase for Hook {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !matches!(&self.target, Some(t) if !t.is_no_op())
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        match &self.target {
            Some(t) => t.execute(cx),
            None => Ok(()),
        }
    }
}

/// The ORI named-phase manager as a phase: runs [`PhaseConfig::ori`].
pub struct OriManager {
    pub config: PhaseConfig,
}

impl Phase for OriManager {
    fn index(&self) -> u16 {
        table::ORI_MANAGER
    }
    fn is_no_op(&self) -> bool {
        !crate::phases::ori::runs_anything(&self.config.ori, &self.config)
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        crate::phases::ori::execute(&self.config.ori, &self.config, cx).map(|_| ())
    }
}

/// The factory. Real phases: OriCheckInitialProgram (0, the verifier),
/// AnalyzeControlFlow (3), ConvertUnsupportedOps (5), the liveness and dead-code phases
/// EarlyOriSimpleLiveDead (10), OriPerformLiveDeadFirst..Fourth (16, 33,
/// 61, 84), OriDeadCodeScan (142, one round), OriPerformLiveDead (143),
/// the ORI manager (139), ScheduleInstructions (147), the control-code
/// phases AssignScoreboards, ComputeStallCounts, SetReuseFlags (151..153)
/// register allocation (148, 154, 155) and EmitSassListing (157); the
/// loop phases
/// OriLoopSimplification (18), OriStrengthReduce (21), OriLoopUnrolling
/// (22), OriHoistInvariantsEarly/Late/Late2/Late3 (35, 66, 79, 88) and
/// if-conversion OriDoPredication (63); the peepholes OptimizeNaNOrZero
/// (145), HoistInvariants (146) and TexNodep (149); the block layout
/// PlaceBlocksInSourceOrder (112); the scalar
/// optimization phases of `phases/scalar/` (`scalar::INDICES`: 13, 15, 29,
/// 37, 46, 49, 50, 58, 64, 65, 83, 107, 144). Hooks (the 16
/// AdvancedPhase rows) run the phase a knob attaches, if any. Everything
/// else is [`Inert`].
pub fn create(index: u16, cfg: &PhaseConfig) -> Option<Box<dyn Phase>> {
    let row = PHASES.get(usize::from(index))?;
    Some(match row.kind {
        Kind::Real => match index {
            0 => Box::new(check_initial::CheckInitialProgram),
            3 => Box::new(control_flow::AnalyzeControlFlow),
            convert_unsupported::INDEX => Box::new(convert_unsupported::ConvertUnsupportedOps),
            10 | 16 | 33 | 61 | 84 | 143 => Box::new(live_dead::LiveDead {
                index,
                rounds: cfg.dead_code_rounds(),
                enabled: cfg.opt_level > 0,
            }),
            142 => Box::new(live_dead::LiveDead {
                index,
                rounds: cfg.dead_code_rounds().min(1),
                enabled: cfg.opt_level > 0,
            }),
            147 => Box::new(sched::ScheduleInstructions {
                enabled: cfg.opt_level > 0 && cfg.nvopt_level > 0,
            }),
            151 => Box::new(sched::AssignScoreboards),
            152 => Box::new(sched::ComputeStallCounts),
            153 => Box::new(sched::SetReuseFlags),
            EMIT => Box::new(emit::EmitSassListing),
            // The loop phases and if-conversion (loop_simplify.rs ..
            // predication.rs); no-ops at -O0.
            loop_simplify::INDEX => Box::new(loop_simplify::LoopSimplification {
                index,
                enabled: cfg.opt_level > 0,
            }),
            strength_reduce::INDEX => Box::new(strength_reduce::StrengthReduce {
                index,
                enabled: cfg.opt_level > 0 && cfg.nvopt_level > 0,
            }),
            unroll::INDEX => Box::new(unroll::LoopUnrolling {
                index,
                enabled: cfg.opt_level > 0,
                limits: unroll::UnrollLimits::for_level(cfg.nvopt_level),
            }),
            35 | 66 | 79 | 88 => Box::new(hoist::HoistInvariants {
                index,
                enabled: cfg.opt_level > 0,
                limit: hoist::limit_for_level(cfg.nvopt_level),
                loads: index != 35,
            }),
            predication::INDEX => Box::new(predication::Predication {
                index,
                enabled: cfg.opt_level > 0,
                arm_limit: predication::arm_limit_for_level(cfg.nvopt_level),
            }),
            // ptxas's peepholes (docs/MODEL.md, Peepholes; see their files for the gates).
            nan_or_zero::INDEX => Box::new(nan_or_zero::OptimizeNaNOrZero {
                enabled: cfg.opt_level > 0 && cfg.nvopt_level > 0,
                ungated: cfg.nvopt_level >= 5,
            }),
            hoist_invariants::INDEX => Box::new(hoist_invariants::HoistInvariants {
                enabled: cfg.opt_level > 0 && cfg.nvopt_level > 0,
            }),
            place_blocks::INDEX => Box::new(place_blocks::PlaceBlocksInSourceOrder {
                enabled: cfg.opt_level > 0,
            }),
            tex_nodep::INDEX => Box::new(tex_nodep::TexNodep {
                enabled: cfg.opt_level > 0 && cfg.nvopt_level > 0,
            }),
            // The scalar optimization phases (phases/scalar/).
            i if super::scalar::INDICES.contains(&i) => super::scalar::create(i, cfg)?,
            // Register allocation (phases/regalloc.rs), at every -O level.
            table::ALLOCATE_REGISTERS => Box::new(regalloc::AllocateRegisters),
            regalloc::VERIFY_ALLOCATED => Box::new(regalloc::VerifyAllocatedProgram),
            regalloc::COMPUTE_RESOURCE_USAGE => Box::new(regalloc::ComputeResourceUsage),
            _ => unreachable!("row {index} is Real without an implementation"),
        },
        Kind::Hook => Box::new(Hook {
            index,
            target: cfg
                .hooks
                .iter()
                .find(|(h, _)| *h == index)
                .and_then(|&(_, t)| create(t, cfg)),
        }),
        Kind::OriManager => Box::new(OriManager {
            config: cfg.clone(),
        }),
        Kind::Inert | Kind::Sentinel => Box::new(Inert(index)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_factory_builds_every_index_and_nothing_past_the_table() {
        let cfg = PhaseConfig::default();
        for i in 0..159u16 {
            let p = create(i, &cfg).unwrap();
            assert_eq!(p.index(), i);
            assert_eq!(p.name(), PHASES[usize::from(i)].name);
            let row = &PHASES[usize::from(i)];
            if !row.implemented() {
                assert!(p.is_no_op(), "{} must be an explicit no-op", row.name);
            }
        }
        assert!(create(159, &cfg).is_none());
        assert!(create(u16::MAX, &cfg).is_none());
    }

    #[test]
    fn hooks_are_no_ops_until_a_knob_attaches_a_phase() {
        let mut cfg = PhaseConfig::default();
        for h in table::HOOKS {
            assert!(create(h, &cfg).unwrap().is_no_op());
        }
        cfg.hooks.push((101, 16));
        let p = create(101, &cfg).unwrap();
        assert!(!p.is_no_op());
        assert_eq!(p.name(), "AdvancedPhaseAllocReg");
        // An inert phase attached leaves the hook a no-op.
        cfg.hooks.push((97, 113));
        assert!(create(97, &cfg).unwrap().is_no_op());
    }

    #[test]
    fn levels_gate_the_dead_code_phases() {
        let mut cfg = PhaseConfig::default();
        assert!(!create(16, &cfg).unwrap().is_no_op());
        cfg.opt_level = 0;
        assert!(create(16, &cfg).unwrap().is_no_op());
        cfg.opt_level = 3;
        cfg.nvopt_level = 0;
        assert!(create(16, &cfg).unwrap().is_no_op());
        for (lvl, rounds) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, usize::MAX)] {
            cfg.nvopt_level = lvl;
            assert_eq!(cfg.dead_code_rounds(), rounds);
        }
    }
}
