//! Property test of AllocateRegisters (148) and SpillToLocalMemory (150)
//! with `oracle::phase_check`: on every corpus kernel, the IR the
//! allocation sees in the default pipeline, allocated alone (with the SM's
//! register file, and with a budget of 24 that makes the larger kernels
//! spill), must behave exactly as before on the spec's launch and on
//! reseeded random inputs.

use oracle::phase_check::{before_phase, compare_functions, corpus_cases};
use oracle::ptx_interp::RunLimits;
use ptxc::phases::table::{self, ALLOCATE_REGISTERS};
use ptxc::phases::{phase, PhaseContext, Plan};
use ptxc::regalloc::RegBudget;
use std::path::Path;

const SEEDS: u64 = 3;

#[test]
fn allocation_preserves_behaviour_on_reseeded_inputs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let cases = corpus_cases(&dir, &["sm_80"]).unwrap();
    let plan = Plan::default();
    let limits = RunLimits::default();
    let spill = table::lookup("SpillToLocalMemory");
    let (mut launches, mut spilled) = (0u64, Vec::new());
    for case in &cases {
        let f = before_phase(&plan, ALLOCATE_REGISTERS, case).unwrap();
        for budget in [RegBudget::for_sm(case.sm), RegBudget::of(24)] {
            let what = format!("{} budget {}", case.name, budget.registers);
            let mut cx = PhaseContext::new(f.clone(), Some(case.sm));
            cx.budget = Some(budget);
            for i in [ALLOCATE_REGISTERS, spill] {
                let p = phase::create(i, &plan.config).unwrap();
                if !p.is_no_op() {
                    p.execute(&mut cx).unwrap_or_else(|e| panic!("{what}: {e}"));
                }
            }
            let after = cx.function;
            ptxc::ir::verify(&after, Some(case.sm))
                .unwrap_or_else(|e| panic!("{what}: invalid IR: {e}"));
            let rep = compare_functions(case, &f, &after, SEEDS, &limits)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            // Virtual registers became physical: the function changed.
            assert!(rep.changed, "{what}: allocation changed nothing");
            assert_eq!(rep.launches, SEEDS, "{what}");
            launches += rep.launches;
            if cx.alloc.as_ref().is_some_and(|a| a.spilled > 0) {
                spilled.push(what);
            }
        }
    }
    eprintln!(
        "{} cases, {launches} launches each way; spilled: {spilled:?}",
        cases.len()
    );
    assert!(!spilled.is_empty(), "nothing spilled under a budget of 24");
}
