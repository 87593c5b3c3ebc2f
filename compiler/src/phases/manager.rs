//! The PhaseManager (docs/MODEL.md, PhaseManager): builds all 159 phases through the factory
//! (the constructor), runs an index array (the dispatch
//! loop), writes the `Before <phase>` / `After <phase>` IR
//! dumps and the per-phase time and memory report.
//!
//! The dispatch, per index: take a snapshot; dump the IR if asked
//! (`Before NAME`); unless the phase is a no-op, execute it; dump
//! (`After NAME`); record the phase's time and memory. A phase's panic is
//! caught and reported as that phase's error. Dumps are written whenever
//! the dispatch reaches the phase, no-op or not (ptxas builds its
//! diagnostic only for executed phases; a dump asked for by name is more
//! useful unconditional).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use super::phase::{create, Phase, PhaseConfig, PhaseContext, PhaseError};
use super::stats::{MemDelta, PhaseStat, Snapshot};
use super::table::{self, PHASE_COUNT};
use crate::ir::sass_text::print_function;

/// What the dispatch records besides running the phases.
#[derive(Clone, Debug, Default)]
pub struct DispatchOptions {
    pub dump_before: Vec<u16>,
    pub dump_after: Vec<u16>,
    pub stats: bool,
}

/// What a dispatch produced besides the IR.
#[derive(Clone, Debug, Default)]
pub struct DispatchReport {
    /// The IR dumps, in order: `Before NAME` / `After NAME`, then the
    /// function's listing.
    pub dumps: Vec<String>,
    /// One entry per dispatched index (with `stats`).
    pub stats: Vec<PhaseStat>,
    pub summary: MemDelta,
    pub total_time: Duration,
    /// How many indices executed (were not no-ops).
    pub executed: usize,
}

impl DispatchReport {
    /// ptxas's report lines (`--phase-stats`; docs/MODEL.md, Phase statistics).
    pub fn stats_lines(&self, indent: &str) -> Vec<String> {
        super::stats::format_report(indent, &self.stats, &self.summary, self.total_time)
    }
}

/// The manager: one object per phase index.
pub struct PhaseManager {
    phases: Vec<Box<dyn Phase>>,
}

/// The IR as a listing, for the dumps.
pub fn dump_text(cx: &PhaseContext) -> String {
    match crate::ir::to_sass(&cx.function, true) {
        Ok(sf) => print_function(&sf),
        Err(e) => format!("(the IR does not print: {e})\n"),
    }
}

impl PhaseManager {
    /// Builds all 159 phases.
    pub fn new(cfg: &PhaseConfig) -> PhaseManager {
        PhaseManager {
            phases: (0..PHASE_COUNT as u16)
                .map(|i| create(i, cfg).expect("every table index builds"))
                .collect(),
        }
    }

    pub fn phase(&self, index: u16) -> Option<&dyn Phase> {
        self.phases.get(usize::from(index)).map(|b| b.as_ref())
    }

    /// ptxas's case-insensitive lookup (docs/MODEL.md, PhaseManager); 158 for an unknown name.
    pub fn lookup(name: &str) -> u16 {
        table::lookup(name)
    }

    /// Runs `order` over `cx`.
    pub fn dispatch(
        &self,
        order: &[u16],
        cx: &mut PhaseContext,
        opts: &DispatchOptions,
    ) -> Result<DispatchReport, PhaseError> {
        let mut rep = DispatchReport::default();
        let base = opts.stats.then(Snapshot::take_resetting_peak);
        let start = Instant::now();
        for &idx in order {
            let p = self.phase(idx).ok_or_else(|| PhaseError {
                phase: "?",
                message: format!("no phase {idx}"),
            })?;
            let name = p.name();
            let pre = opts.stats.then(Snapshot::take);
            let t0 = Instant::now();
            if opts.dump_before.contains(&idx) {
                rep.dumps.push(format!("Before {name}\n{}", dump_text(cx)));
            }
            if !p.is_no_op() {
                let ran = catch_unwind(AssertUnwindSafe(|| {
                    p.execute(cx)?;
                    // Tests only (feature `test-hooks`): a planted bug, as
                    // part of the phase (its panic is the phase's).
                    #[cfg(feature = "test-hooks")]
                    super::test_hooks::after_phase(idx, cx);
                    Ok::<(), PhaseError>(())
                }));
                let failed = match ran {
                    Ok(r) => r.err(),
                    Err(e) => {
                        let msg = e
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| e.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "panic with a non-string payload".into());
                        Some(PhaseError {
                            phase: name,
                            message: format!("panicked: {msg}"),
                        })
                    }
                };
                if let Some(mut e) = failed {
                    // The dumps asked for so far are what a user debugging
                    // the failure needs: they go with the error.
                    for d in &rep.dumps {
                        e.message.push('\n');
                        e.message.push_str(d.trim_end());
                    }
                    return Err(e);
                }
                rep.executed += 1;
            }
            if opts.dump_after.contains(&idx) {
                rep.dumps.push(format!("After {name}\n{}", dump_text(cx)));
            }
            if let Some(pre) = pre {
                let time = t0.elapsed();
                rep.stats.push(PhaseStat {
                    index: idx,
                    name,
                    mem: pre.delta(&Snapshot::take()),
                    time,
                });
            }
        }
        rep.total_time = start.elapsed();
        if let Some(base) = base {
            rep.summary = base.delta(&Snapshot::take());
        }
        Ok(rep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    // The phases these tests name, by name.
    const VERIFY: u16 = crate::phases::table::index_of("OriCheckInitialProgram");
    const EARLY_LIVE_DEAD: u16 = crate::phases::table::index_of("EarlyOriSimpleLiveDead");
    const LD1: u16 = crate::phases::table::index_of("OriPerformLiveDeadFirst");
    const GVN_CSE: u16 = crate::phases::table::index_of("GvnCse");
    const HOOK_ALLOC_REG: u16 = crate::phases::table::index_of("AdvancedPhaseAllocReg");
    const EMIT: u16 = crate::phases::table::index_of("EmitSassListing");

    fn cx() -> PhaseContext {
        PhaseContext::new(
            func(
                ".L_x_0:
                 MOV R0, 0x1 ;
                 MOV R1, 0x2 ;
                 STG.E [R4.64], R1 ;
                 EXIT ;",
            ),
            None,
        )
    }

    #[test]
    fn the_default_order_verifies_analyses_removes_and_emits() {
        let m = PhaseManager::new(&PhaseConfig::default());
        let mut c = cx();
        let rep = m
            .dispatch(table::DEFAULT_ORDER, &mut c, &DispatchOptions::default())
            .unwrap();
        assert_eq!(c.removed, 1);
        assert_eq!(c.cfg.as_ref().unwrap().blocks, 1);
        let listing = c.listing.unwrap();
        assert_eq!(listing.insts.len(), 3);
        // 0, 3, 5, 10, 16, 33, 61, 84, 139, 157; the loop phases 18, 21, 22,
        // 35, 66, 79, 88 and if-conversion 63; the peepholes 145, 146, 149;
        // scheduling 147 and the control codes 151, 152, 153; the scalar
        // phases (phases/scalar/: 13, 15, 29, 37, 46, 49, 50, 58, 64, 65, 83,
        // 107; OriCopyProp 144 is not in the default order); the layout
        // phase 112; register allocation 148, 154, 155.
        assert_eq!(
            rep.executed,
            29 + crate::phases::scalar::indices().len() - 1
        );
        assert!(rep.dumps.is_empty() && rep.stats.is_empty());
    }

    #[test]
    fn dumps_are_selected_by_index() {
        let m = PhaseManager::new(&PhaseConfig::default());
        let mut c = cx();
        let opts = DispatchOptions {
            dump_before: vec![EARLY_LIVE_DEAD],
            dump_after: vec![EARLY_LIVE_DEAD, GVN_CSE],
            stats: false,
        };
        let rep = m
            .dispatch(&[VERIFY, EARLY_LIVE_DEAD, GVN_CSE, EMIT], &mut c, &opts)
            .unwrap();
        assert_eq!(rep.dumps.len(), 3);
        assert!(rep.dumps[0].starts_with("Before EarlyOriSimpleLiveDead\n"));
        assert!(rep.dumps[0].contains("MOV R0, 0x1"));
        assert!(rep.dumps[1].starts_with("After EarlyOriSimpleLiveDead\n"));
        assert!(!rep.dumps[1].contains("MOV R0, 0x1"));
        assert!(rep.dumps[2].starts_with("After GvnCse\n"));
    }

    #[test]
    fn stats_have_a_line_per_dispatched_index() {
        let m = PhaseManager::new(&PhaseConfig::default());
        let mut c = cx();
        let opts = DispatchOptions {
            stats: true,
            ..Default::default()
        };
        let rep = m
            .dispatch(&[VERIFY, GVN_CSE, LD1, EMIT], &mut c, &opts)
            .unwrap();
        let lines = rep.stats_lines("  ");
        assert_eq!(lines.len(), 6);
        let names: Vec<String> = lines[..5]
            .iter()
            .map(|l| super::super::stats::parse_line(l).unwrap().0)
            .collect();
        assert_eq!(
            names,
            [
                "OriCheckInitialProgram",
                "GvnCse",
                "OriPerformLiveDeadFirst",
                "EmitSassListing",
                "All Phases Summary"
            ]
        );
        assert!(lines[5].starts_with("  [Pool Consumption = "));
    }

    #[test]
    fn a_failing_phase_is_named() {
        let m = PhaseManager::new(&PhaseConfig::default());
        let mut c = cx();
        c.function.blocks[0].insts.clear();
        let e = m
            .dispatch(&[VERIFY, EMIT], &mut c, &DispatchOptions::default())
            .unwrap_err();
        assert_eq!(e.phase, "OriCheckInitialProgram");
        assert!(
            e.message.starts_with("the initial program is invalid: "),
            "{e}"
        );
    }

    /// `--dump-ir-before` of the failing phase: the dump comes with the
    /// error (the driver's ICE message), not lost with the report.
    #[test]
    fn a_failure_carries_the_dumps_made_before_it() {
        let m = PhaseManager::new(&PhaseConfig::default());
        let mut c = cx();
        c.function.blocks[0].insts.truncate(1);
        let opts = DispatchOptions {
            dump_before: vec![VERIFY],
            ..DispatchOptions::default()
        };
        let e = m.dispatch(&[VERIFY, EMIT], &mut c, &opts).unwrap_err();
        assert_eq!(e.phase, "OriCheckInitialProgram");
        let (first, dump) = e
            .message
            .split_once('\n')
            .expect("a dump after the message");
        assert!(first.starts_with("the initial program is invalid: "), "{e}");
        assert!(dump.starts_with("Before OriCheckInitialProgram\n"), "{e}");
        assert!(dump.contains("MOV R0, 0x1"), "{e}");
    }

    #[test]
    fn an_activated_hook_runs_its_phase() {
        let cfg = PhaseConfig {
            hooks: vec![(HOOK_ALLOC_REG, LD1)],
            ..PhaseConfig::default()
        };
        let m = PhaseManager::new(&cfg);
        let mut c = cx();
        let rep = m
            .dispatch(
                &[VERIFY, HOOK_ALLOC_REG, EMIT],
                &mut c,
                &DispatchOptions::default(),
            )
            .unwrap();
        assert_eq!(rep.executed, 3);
        assert_eq!(c.removed, 1);
    }
}
