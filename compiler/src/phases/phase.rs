//! The phase object model (docs/MODEL.md, PhaseManager: an object whose operations are
//! `execute`, `isNoOp`, `getName`) and the factory (ptxas's
//! 159-case switch).
//!
//! A phase is a [`Phase`]; [`create`] builds one from its index and a
//! [`PhaseConfig`], `None` past the table (ptxas's default case). What
//! a row builds is the table's [`Kind`] (for a real row, the [`Impl`] it
//! names): the table is the one place a phase's index, name and
//! implementation are written. A phase learns its index from the row it
//! was built for; no phase file holds one.

use std::sync::Arc;

use super::table::{self, DeadCodeRounds, Impl, Kind, PHASES};
use super::{check_initial, control_flow, convert_unsupported, emit, live_dead, regalloc, sched};
use super::{hoist, loop_simplify, predication, scalar, strength_reduce, unroll};
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
    /// How often each named rule of a peephole fired, by (phase index,
    /// rule name from that peephole's [`Rule`] table): what `ptxdiff run
    /// --stats` prints per rule. A peephole records them with
    /// [`PhaseContext::fire_rules`], which also adds their sum to `fired`.
    pub rules: std::collections::BTreeMap<(u16, &'static str), u64>,
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
            rules: Default::default(),
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

    /// Records a peephole's rewrites per rule: `counts[k]` rewrites by
    /// rule `rules[k]` of phase `index` (rules that did not fire leave no
    /// entry), and their sum as the phase's [`PhaseContext::fire`].
    pub fn fire_rules(&mut self, index: u16, rules: &'static [Rule], counts: &[u64]) {
        debug_assert_eq!(rules.len(), counts.len(), "one count per rule");
        for (r, &n) in rules.iter().zip(counts) {
            if n > 0 {
                *self.rules.entry((index, r.name)).or_insert(0) += n;
            }
        }
        self.fire(index, counts.iter().sum());
    }
}

/// One named rewrite rule of a peephole: each peephole's `RULES` table of
/// these is the one place its rule names are written (`--phase-stats`,
/// `ptxdiff run --stats` and the generator's per-rule rate test read it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// A short kebab-case name, unique within its peephole.
    pub name: &'static str,
    /// What the rule rewrites, in one line.
    pub does: &'static str,
}

/// The rule table of the phase of row `index` (empty for a phase that
/// counts its rewrites as a whole): each peephole's own `RULES`.
pub fn rules_of(index: u16) -> &'static [Rule] {
    match PHASES.get(usize::from(index)).map(|r| r.kind) {
        Some(Kind::Real(Impl::OptimizeNaNOrZero)) => nan_or_zero::RULES,
        Some(Kind::Real(Impl::TexNodep)) => tex_nodep::RULES,
        Some(Kind::Real(Impl::HoistInvariants | Impl::OriHoistInvariants { .. })) => hoist::RULES,
        _ => &[],
    }
}

/// Per-rule rewrite counts of one peephole run, indexed like its `RULES`
/// table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleCounts(pub Vec<u64>);

impl RuleCounts {
    pub fn new(rules: &[Rule]) -> RuleCounts {
        RuleCounts(vec![0; rules.len()])
    }

    /// Counts one rewrite by rule `k`.
    pub fn add(&mut self, k: usize) {
        self.0[k] += 1;
    }

    /// Adds another run's counts (of the same table).
    pub fn merge(&mut self, o: &RuleCounts) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a += b;
        }
    }

    pub fn total(&self) -> usize {
        self.0.iter().sum::<u64>() as usize
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
    /// The ORI sequence the ORI manager (OriRunNamedPhases) runs.
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

/// The factory: the phase of table row `index`, built from what the row
/// says ([`Kind`]; for a real row, the [`Impl`] it names), `None` past the
/// table. Every phase is given the index of the row it was built for: that
/// is its `index()` and the index its rewrites are counted under
/// ([`PhaseContext::fire`]); no phase file knows its own index. Hooks
/// (the 16 AdvancedPhase rows) run the phase a knob attaches, if any;
/// inert rows and the sentinel are [`Inert`].
pub fn create(index: u16, cfg: &PhaseConfig) -> Option<Box<dyn Phase>> {
    let row = PHASES.get(usize::from(index))?;
    Some(match row.kind {
        Kind::Real(imp) => real(imp, index, cfg),
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

/// The implementation `imp` as the phase of row `index`, with the gates
/// the levels set (see each phase's file).
fn real(imp: Impl, index: u16, cfg: &PhaseConfig) -> Box<dyn Phase> {
    let optimizing = cfg.opt_level > 0;
    let nvopt = optimizing && cfg.nvopt_level > 0;
    // The scalar optimization phases (phases/scalar/): rounds per run.
    let rounds = scalar::rounds(cfg);
    match imp {
        Impl::CheckInitialProgram => Box::new(check_initial::CheckInitialProgram { index }),
        Impl::AnalyzeControlFlow => Box::new(control_flow::AnalyzeControlFlow { index }),
        Impl::ConvertUnsupportedOps => {
            Box::new(convert_unsupported::ConvertUnsupportedOps { index })
        }
        Impl::LiveDead(r) => Box::new(live_dead::LiveDead {
            index,
            rounds: match r {
                DeadCodeRounds::ByLevel => cfg.dead_code_rounds(),
                DeadCodeRounds::AtMostOne => cfg.dead_code_rounds().min(1),
            },
            enabled: optimizing,
        }),
        Impl::GeneralOptimize => {
            Box::new(scalar::general_optimize::GeneralOptimize { index, rounds })
        }
        Impl::OriBranchOpt => Box::new(scalar::branch_opt::OriBranchOpt { index, rounds }),
        Impl::OriCopyProp => Box::new(scalar::copy_prop::OriCopyProp { index, rounds }),
        Impl::OriBackCopyPropagate => {
            Box::new(scalar::back_copy_prop::OriBackCopyPropagate { index, rounds })
        }
        Impl::GvnCse => Box::new(scalar::gvn_cse::GvnCse {
            index,
            rounds,
            loads: cfg.nvopt_level >= 2,
        }),
        Impl::OriReassociateAndCommon => {
            Box::new(scalar::reassociate_and_common::OriReassociateAndCommon { index, rounds })
        }
        Impl::LateOriCommoning => {
            Box::new(scalar::late_commoning::LateOriCommoning { index, rounds })
        }
        Impl::OriRemoveNopCode => Box::new(scalar::remove_nop::OriRemoveNopCode {
            index,
            enabled: rounds > 0,
        }),
        // The loop phases and if-conversion (loop_simplify.rs ..
        // predication.rs); no-ops at -O0.
        Impl::LoopSimplification => Box::new(loop_simplify::LoopSimplification {
            index,
            enabled: optimizing,
        }),
        Impl::StrengthReduce => Box::new(strength_reduce::StrengthReduce {
            index,
            enabled: nvopt,
        }),
        Impl::LoopUnrolling => Box::new(unroll::LoopUnrolling {
            index,
            enabled: optimizing,
            limits: unroll::UnrollLimits::for_level(cfg.nvopt_level),
        }),
        Impl::OriHoistInvariants { loads } => Box::new(hoist::OriHoistInvariants {
            index,
            enabled: optimizing,
            limit: hoist::limit_for_level(cfg.nvopt_level),
            loads,
        }),
        Impl::Predication => Box::new(predication::Predication {
            index,
            enabled: optimizing,
            arm_limit: predication::arm_limit_for_level(cfg.nvopt_level),
        }),
        Impl::PlaceBlocksInSourceOrder => Box::new(place_blocks::PlaceBlocksInSourceOrder {
            index,
            enabled: optimizing,
        }),
        // ptxas's peepholes (docs/MODEL.md, Peepholes; see their files for the gates).
        Impl::OptimizeNaNOrZero => Box::new(nan_or_zero::OptimizeNaNOrZero {
            index,
            enabled: nvopt,
            ungated: cfg.nvopt_level >= 5,
        }),
        Impl::HoistInvariants => Box::new(hoist_invariants::HoistInvariants {
            index,
            enabled: nvopt,
        }),
        Impl::TexNodep => Box::new(tex_nodep::TexNodep {
            index,
            enabled: nvopt,
        }),
        Impl::ScheduleInstructions => Box::new(sched::ScheduleInstructions {
            index,
            enabled: nvopt,
        }),
        Impl::AssignScoreboards => Box::new(sched::AssignScoreboards { index }),
        Impl::ComputeStallCounts => Box::new(sched::ComputeStallCounts { index }),
        Impl::SetReuseFlags => Box::new(sched::SetReuseFlags { index }),
        // Register allocation (phases/regalloc.rs), at every -O level.
        Impl::AllocateRegisters => Box::new(regalloc::AllocateRegisters { index }),
        Impl::VerifyAllocatedProgram => Box::new(regalloc::VerifyAllocatedProgram { index }),
        Impl::ComputeResourceUsage => Box::new(regalloc::ComputeResourceUsage { index }),
        Impl::EmitSassListing => Box::new(emit::EmitSassListing { index }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phases::table::{index_of, PHASE_COUNT};

    #[test]
    fn the_factory_builds_every_index_and_nothing_past_the_table() {
        let cfg = PhaseConfig::default();
        for r in &PHASES {
            let p = create(r.index, &cfg).unwrap();
            assert_eq!(p.index(), r.index);
            assert_eq!(p.name(), r.name);
            if !r.implemented() {
                assert!(p.is_no_op(), "{} must be an explicit no-op", r.name);
            }
        }
        assert!(create(PHASE_COUNT as u16, &cfg).is_none());
        assert!(create(u16::MAX, &cfg).is_none());
    }

    /// Every real row's phase is built for that row: its index and name
    /// are the row's, at every level (the gates change, the identity
    /// does not), and its rewrites are counted under that index.
    #[test]
    fn every_real_row_builds_a_phase_of_that_row() {
        let mut real = 0;
        for r in PHASES.iter().filter(|r| matches!(r.kind, Kind::Real(_))) {
            real += 1;
            for (opt_level, nvopt_level) in [(0, 3), (3, 0), (3, 3), (3, 5)] {
                let cfg = PhaseConfig {
                    opt_level,
                    nvopt_level,
                    ..Default::default()
                };
                let p = create(r.index, &cfg).unwrap();
                assert_eq!(p.index(), r.index, "{}", r.name);
                assert_eq!(p.name(), r.name);
            }
        }
        assert!(real > 0);
        // Rewrites are counted under the row's index: each member of the
        // GeneralOptimize family folds the same constant add.
        for name in [
            "GeneralOptimizeEarly",
            "GeneralOptimize",
            "GeneralOptimizeMid",
            "GeneralOptimizeMid2",
            "GeneralOptimizeLate",
            "GeneralOptimizeLate2",
        ] {
            let f = crate::phases::scalar::test_util::func(
                ".L_x_0:
                 MOV %r1, 0x3 ;
                 IADD3 %r2, %r1, 0x4, RZ ;
                 STG.E [%r8.64], %r2 ;
                 EXIT ;",
            );
            let mut cx = PhaseContext::new(f, None);
            let i = index_of(name);
            create(i, &PhaseConfig::default())
                .unwrap()
                .execute(&mut cx)
                .unwrap();
            assert!(cx.fired.get(&i).is_some_and(|&n| n > 0), "{name}");
            assert_eq!(cx.fired.len(), 1, "{name}: {:?}", cx.fired);
        }
    }

    /// A peephole's per-rule counts land under (phase, rule), rules that
    /// did not fire leave no entry, and the phase's count is their sum.
    #[test]
    fn fire_rules_counts_each_rule_and_the_phase_total() {
        let nz = index_of("OptimizeNaNOrZero");
        let rules = rules_of(nz);
        let mut counts = vec![0; rules.len()];
        counts[0] = 2;
        counts[3] = 5;
        let mut cx = PhaseContext::new(Function::default(), None);
        cx.fire_rules(nz, rules, &counts);
        cx.fire_rules(nz, rules, &counts);
        assert_eq!(cx.fired.get(&nz), Some(&14));
        assert_eq!(cx.rules.len(), 2);
        assert_eq!(cx.rules.get(&(nz, rules[0].name)), Some(&4));
        assert_eq!(cx.rules.get(&(nz, rules[3].name)), Some(&10));
    }

    /// The peepholes have rule tables (unique names, each saying what it
    /// does); the other phases count as a whole.
    #[test]
    fn the_peepholes_name_their_rules() {
        for name in [
            "OptimizeNaNOrZero",
            "TexNodep",
            "HoistInvariants",
            "OriHoistInvariantsEarly",
            "OriHoistInvariantsLate3",
        ] {
            let rules = rules_of(index_of(name));
            assert!(rules.len() >= 4, "{name}");
            let names: std::collections::BTreeSet<&str> = rules.iter().map(|r| r.name).collect();
            assert_eq!(names.len(), rules.len(), "{name}: duplicate rule names");
            assert!(rules.iter().all(|r| !r.does.is_empty()), "{name}");
        }
        assert!(rules_of(index_of("GvnCse")).is_empty());
        assert!(rules_of(u16::MAX).is_empty());
    }

    #[test]
    fn hooks_are_no_ops_until_a_knob_attaches_a_phase() {
        let mut cfg = PhaseConfig::default();
        for h in table::HOOKS {
            assert!(create(h, &cfg).unwrap().is_no_op());
        }
        let alloc_reg = index_of("AdvancedPhaseAllocReg");
        cfg.hooks
            .push((alloc_reg, index_of("OriPerformLiveDeadFirst")));
        let p = create(alloc_reg, &cfg).unwrap();
        assert!(!p.is_no_op());
        assert_eq!(p.name(), "AdvancedPhaseAllocReg");
        // An inert phase attached leaves the hook a no-op.
        let pre_sched = index_of("AdvancedPhasePreSched");
        cfg.hooks
            .push((pre_sched, index_of("PostFixForMercTargets")));
        assert!(create(pre_sched, &cfg).unwrap().is_no_op());
    }

    #[test]
    fn levels_gate_the_dead_code_phases() {
        let first = index_of("OriPerformLiveDeadFirst");
        let mut cfg = PhaseConfig::default();
        assert!(!create(first, &cfg).unwrap().is_no_op());
        cfg.opt_level = 0;
        assert!(create(first, &cfg).unwrap().is_no_op());
        cfg.opt_level = 3;
        cfg.nvopt_level = 0;
        assert!(create(first, &cfg).unwrap().is_no_op());
        for (lvl, rounds) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, usize::MAX)] {
            cfg.nvopt_level = lvl;
            assert_eq!(cfg.dead_code_rounds(), rounds);
        }
    }
}
