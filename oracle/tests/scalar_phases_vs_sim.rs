//! The scalar optimization phases (ptxc `phases/scalar/`), each run alone
//! on every corpus case (`NAME.ptx` and `NAME.O0.ptx` over sm_70, sm_80,
//! sm_90) and checked in the SM simulator with `oracle::phase_check`:
//! the IR before and after must give bit-identical outputs on the launch
//! as written and on reseeded inputs. Each phase sees two inputs per case:
//! the IR it sees in the default pipeline (what runs before its first
//! occurrence) and the raw lowered function. Each phase must fire on at
//! least one case (the count of cases where it fired is printed).

use oracle::phase_check::{check_alone, corpus_cases, Case};
use oracle::ptx_interp::RunLimits;
use ptxc::ir::Function;
use ptxc::phases::phase::{self, PhaseContext};
use ptxc::phases::scalar::INDICES;
use ptxc::phases::table::{name_of, ORI_COPY_PROP, ORI_MANAGER};
use ptxc::phases::{DispatchOptions, PhaseManager, Plan};
use std::collections::BTreeMap;
use std::path::Path;

const SEEDS: u64 = 2;

/// The IR before the first occurrence of each of `wanted` in the default
/// plan, from one run of the pipeline.
fn snapshots(plan: &Plan, case: &Case, wanted: &[u16]) -> BTreeMap<u16, Function> {
    let m = PhaseManager::new(&plan.config);
    let mut cx = PhaseContext::new(case.kernel.function.clone(), Some(case.sm));
    let mut out = BTreeMap::new();
    for &i in &plan.order {
        if wanted.contains(&i) && !out.contains_key(&i) {
            out.insert(i, cx.function.clone());
        }
        m.dispatch(&[i], &mut cx, &DispatchOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
    out
}

/// How many rewrites phase `index` records on `f`.
fn fired(index: u16, plan: &Plan, case: &Case, f: &Function) -> u64 {
    let p = phase::create(index, &plan.config).unwrap();
    let mut cx = PhaseContext::new(f.clone(), Some(case.sm));
    p.execute(&mut cx).unwrap();
    cx.fired.get(&index).copied().unwrap_or(0)
}

#[test]
fn every_scalar_phase_preserves_semantics_and_fires_somewhere() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let cases = corpus_cases(&dir, &["sm_70", "sm_80", "sm_90"]).unwrap();
    assert!(!cases.is_empty());
    let plan = Plan::default();
    let limits = RunLimits::default();
    // Phase -> (case names where it fired, total rewrites).
    let mut fires: BTreeMap<u16, (Vec<String>, u64)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        let mut wanted = INDICES.to_vec();
        wanted.push(ORI_MANAGER);
        let snaps = snapshots(&plan, case, &wanted);
        for &idx in &INDICES {
            // OriCopyProp runs inside the ORI manager's sequence: it sees
            // (at first) the IR the manager starts from.
            let at = if idx == ORI_COPY_PROP { ORI_MANAGER } else { idx };
            let pipeline = snaps
                .get(&at)
                .unwrap_or_else(|| panic!("{} is in the default order", name_of(idx)));
            for (what, f) in [("pipeline", pipeline), ("lowered", &case.kernel.function)] {
                let n = fired(idx, &plan, case, f);
                if n > 0 {
                    let e = fires.entry(idx).or_default();
                    e.0.push(format!("{} ({what})", case.name));
                    e.1 += n;
                }
                if let Err(e) = check_alone(case, idx, &plan.config, f, SEEDS, &limits) {
                    failures.push(format!("{} on {what} IR: {e}", name_of(idx)));
                }
            }
        }
    }
    for &idx in &INDICES {
        let (cases_fired, total) = fires.get(&idx).cloned().unwrap_or_default();
        println!(
            "{:<26} fired on {:>3} inputs, {:>6} rewrites",
            name_of(idx),
            cases_fired.len(),
            total
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let silent: Vec<&str> = INDICES
        .iter()
        .filter(|i| !fires.contains_key(i))
        .map(|&i| name_of(i))
        .collect();
    assert!(silent.is_empty(), "phases that never fired: {silent:?}");
}
