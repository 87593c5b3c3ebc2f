//! The phase pipeline between lowering and emission (docs/MODEL.md,
//! PhaseManager).
//!
//! | file | job |
//! |---|---|
//! | `table.rs` | the 159 rows as data: index, name, group, kind (for a real row, the implementation it runs), ordering constraints; the default index array; the case-insensitive lookup (158 for an unknown name); `index_of`, the compile-time lookup by name every other file names a phase with |
//! | `phase.rs` | the [`phase::Phase`] trait (execute, is_no_op, name), the context, the factory (a row's implementation, built with the row's index), hooks, the inert phases |
//! | `manager.rs` | the dispatch over an index array, Before/After dumps, per-phase stats |
//! | `stats.rs` | the counting allocator and ptxas's report format (docs/MODEL.md, Phase statistics) |
//! | `order.rs` | `--phase-order`, `--disable-phase`, the constraint check, random valid orders |
//! | `knobs.rs` | `--knob`: NvOptLevel, AdvancedPhase hooks, the ORI keys |
//! | `ori/` | the ORI named-phase manager (139): its knobs, sequence builder and executor |
//! | `test_hooks.rs` | (feature `test-hooks`, tests only) a planted-bug slot the dispatch calls after a named phase |
//! | `check_initial.rs`, `control_flow.rs`, `live_dead.rs`, `emit.rs` | the implemented phases |
//! | `convert_unsupported.rs` (tests: `tests_convert_unsupported.rs`) | ConvertUnsupportedOps (5): the opcodes a target lacks (REDUX, I2FP) replaced by sequences it has; required, before every other code phase |
//! | `loop_util.rs` | what the loop phases and if-conversion share: analyses, preheaders, per-loop register facts |
//! | `loop_simplify.rs`, `strength_reduce.rs` (with `strength_reduce/wide.rs`: 64-bit products of a counter proved not to wrap), `unroll.rs`, `hoist.rs` (OriHoistInvariants, and the hoisting core HoistInvariants shares), `predication.rs` (tests against the restarting search: `predication_equiv.rs`) | the loop phases (18, 21, 22, 35/66/79/88) and if-conversion (63) |
//! | `nan_or_zero.rs`, `hoist_invariants.rs` (HoistInvariants), `tex_nodep.rs` (with `tex_nodep/aoffi.rs`: the texel-offset fold) | the scheduling-time and post-allocation peepholes of ptxas (docs/MODEL.md, Peepholes: 145, 146, 149) |
//! | `gemm.rs` | the CUTLASS-style GEMM detection gate they share |
//! | `place_blocks.rs` | PlaceBlocksInSourceOrder (112): the block layout back in source order |
//! | `sched.rs` | ScheduleInstructions and the control-code phases (algorithms in `crate::sched`) |
//! | `scalar/` | the scalar optimization phases (GeneralOptimize*, OriBranchOpt, OriCopyProp, OriBackCopyPropagate, GvnCse, OriReassociateAndCommon, LateOriCommoning, OriRemoveNopCode) |
//! | `regalloc.rs` | register allocation (148), its verifier (154), resource usage (155) |
//!
//! [`PhaseOptions`] is what the command line gives; [`PhaseOptions::plan`]
//! checks it once per compilation and yields the [`Plan`] each function's
//! compile runs ([`run`]).

pub mod check_initial;
pub mod control_flow;
pub mod convert_unsupported;
pub mod emit;
pub mod gemm;
pub mod hoist;
pub mod hoist_invariants;
pub mod knobs;
pub mod live_dead;
pub mod loop_simplify;
pub mod loop_util;
pub mod manager;
pub mod nan_or_zero;
pub mod order;
pub mod ori;
pub mod phase;
pub mod place_blocks;
pub mod predication;
pub mod regalloc;
pub mod scalar;
pub mod sched;
pub mod stats;
pub mod strength_reduce;
pub mod table;
#[cfg(feature = "test-hooks")]
#[doc(hidden)]
pub mod test_hooks;
#[cfg(test)]
mod tests_convert_unsupported;
pub mod tex_nodep;
pub mod unroll;

use std::sync::Arc;

pub use manager::{DispatchOptions, DispatchReport, PhaseManager};
pub use phase::{Phase, PhaseConfig, PhaseContext, PhaseError};

use crate::phases::ori::OriSequence;

/// The phase options of a compilation, as given (names unresolved).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseOptions {
    /// `--phase-stats`.
    pub stats: bool,
    /// `--dump-ir-before NAME` (repeatable).
    pub dump_before: Vec<String>,
    /// `--dump-ir-after NAME` (repeatable).
    pub dump_after: Vec<String>,
    /// `--phase-order LIST|@FILE`.
    pub order: Option<String>,
    /// `--disable-phase NAME` (repeatable).
    pub disabled: Vec<String>,
    /// `--knob K=V[,K=V]` (repeatable).
    pub knobs: Vec<String>,
}

/// A checked pipeline.
#[derive(Clone, Debug)]
pub struct Plan {
    pub order: Vec<u16>,
    pub config: PhaseConfig,
    pub dispatch: DispatchOptions,
    /// Warnings to print once (the NvOpt level's).
    pub warnings: Vec<String>,
}

fn resolve_names(names: &[String], what: &str) -> Result<Vec<u16>, String> {
    names
        .iter()
        .map(|n| order::parse_phase(n).map_err(|e| format!("{what}: {e}")))
        .collect()
}

impl PhaseOptions {
    /// Resolves and checks everything: phase names, the order and its
    /// constraints, the knobs.
    pub fn plan(&self, opt_level: u8) -> Result<Plan, String> {
        let knobs = knobs::Knobs::parse_all(&self.knobs).map_err(|e| format!("--knob: {e}"))?;
        let (nvopt_level, warning) = knobs.nvopt();
        let spec = match &self.order {
            Some(s) => Some(order::parse_order_arg(s).map_err(|e| format!("--phase-order: {e}"))?),
            None => None,
        };
        let disabled = resolve_names(&self.disabled, "--disable-phase")?;
        let order = order::resolve(spec.as_deref(), &disabled).map_err(|e| e.to_string())?;
        let ori: Arc<OriSequence> = Arc::new(crate::phases::ori::build(&knobs.ori));
        Ok(Plan {
            order,
            config: PhaseConfig {
                opt_level,
                nvopt_level,
                hooks: knobs.hooks,
                ori,
            },
            dispatch: DispatchOptions {
                dump_before: resolve_names(&self.dump_before, "--dump-ir-before")?,
                dump_after: resolve_names(&self.dump_after, "--dump-ir-after")?,
                stats: self.stats,
            },
            warnings: warning.into_iter().collect(),
        })
    }
}

impl Default for Plan {
    fn default() -> Self {
        PhaseOptions::default()
            .plan(3)
            .expect("the default plan is valid")
    }
}

/// What [`run`] returns: the phased context and the report.
pub struct Phased {
    pub cx: PhaseContext,
    pub report: DispatchReport,
}

/// Runs `plan` over `function` (one function's PhaseManager).
pub fn run(
    plan: &Plan,
    function: crate::ir::Function,
    sm: Option<&'static crate::targets::SmInfo>,
) -> Result<Phased, PhaseError> {
    run_budgeted(plan, function, sm, None)
}

/// [`run`] with the function's register budget (driver phases 20/21;
/// `None`: the SM's register file).
pub fn run_budgeted(
    plan: &Plan,
    function: crate::ir::Function,
    sm: Option<&'static crate::targets::SmInfo>,
    budget: Option<crate::regalloc::RegBudget>,
) -> Result<Phased, PhaseError> {
    let m = PhaseManager::new(&plan.config);
    let mut cx = PhaseContext::new(function, sm);
    cx.budget = budget;
    let report = m.dispatch(&plan.order, &mut cx, &plan.dispatch)?;
    Ok(Phased { cx, report })
}

/// The `--phase-stats` block of one function: ptxas's report (docs/MODEL.md, Phase statistics), then
/// the phases that fired (`Fired NAME: N rewrites`, in table order; a
/// peephole's rules that fired under it, `Rule RULE: N rewrites`), the
/// scheduler's per-block statistics (`ScheduleInstructions BB ...`), then
/// the ORI summary.
pub fn stats_block(plan: &Plan, function: &str, rep: &DispatchReport, cx: &PhaseContext) -> String {
    let mut out = format!("Phase statistics for function '{function}':\n");
    for l in rep.stats_lines("  ") {
        out.push_str(&l);
        out.push('\n');
    }
    for (&i, n) in &cx.fired {
        out.push_str(&format!("  Fired {}: {n} rewrites\n", table::name_of(i)));
        for ((_, rule), n) in cx.rules.range((i, "")..).take_while(|((j, _), _)| *j == i) {
            out.push_str(&format!("    Rule {rule}: {n} rewrites\n"));
        }
    }
    for b in &cx.schedule {
        out.push_str(&format!("  ScheduleInstructions {b}\n"));
    }
    out.push_str("  ");
    out.push_str(&plan.config.ori.summary());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // The phases these tests name, by name.
    const CFG: u16 = crate::phases::table::index_of("AnalyzeControlFlow");
    const GVN_CSE: u16 = crate::phases::table::index_of("GvnCse");

    #[test]
    fn options_resolve_to_a_plan() {
        let p = PhaseOptions {
            dump_before: vec!["gvncse".into()],
            dump_after: vec!["3".into()],
            disabled: vec!["OriPerformLiveDeadFirst".into()],
            knobs: vec!["NvOptLevel=9".into(), "ori=shuffle,dce1=2".into()],
            ..Default::default()
        }
        .plan(2)
        .unwrap();
        assert_eq!(p.dispatch.dump_before, [GVN_CSE]);
        assert_eq!(p.dispatch.dump_after, [CFG]);
        assert!(!p
            .order
            .contains(&crate::phases::table::index_of("OriPerformLiveDeadFirst")));
        assert_eq!(p.config.nvopt_level, 5);
        assert_eq!(p.config.opt_level, 2);
        assert_eq!(p.warnings, ["Invalid nvopt level : 9."]);
        assert!(p.config.ori.modified());
    }

    #[test]
    fn errors_name_the_option() {
        let e = |o: PhaseOptions| o.plan(3).unwrap_err();
        assert_eq!(
            e(PhaseOptions {
                dump_before: vec!["nosuch".into()],
                ..Default::default()
            }),
            "--dump-ir-before: unknown phase 'nosuch'"
        );
        assert_eq!(
            e(PhaseOptions {
                order: Some("0,nosuch".into()),
                ..Default::default()
            }),
            "--phase-order: unknown phase 'nosuch'"
        );
        assert!(e(PhaseOptions {
            order: Some("16,0,5,157".into()),
            ..Default::default()
        })
        .contains("`verify-first`"));
        assert!(e(PhaseOptions {
            disabled: vec!["EmitSassListing".into()],
            ..Default::default()
        })
        .contains("constraint `required`"));
        assert_eq!(
            e(PhaseOptions {
                knobs: vec!["swap2=999".into()],
                ..Default::default()
            }),
            "--knob: knob 'swap2': value 999 is outside 0..256"
        );
    }
}
