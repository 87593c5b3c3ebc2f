//! The scalar optimization phases (ptxc `phases/scalar/`), each run alone
//! on every corpus case (`NAME.ptx` and `NAME.O0.ptx` over sm_70, sm_80,
//! sm_90) and checked in the SM simulator with `oracle::phase_check`:
//! the IR before and after must give bit-identical outputs on the launch
//! as written and on reseeded inputs. Each phase sees two inputs per case:
//! the IR it sees in the default pipeline (what runs before its first
//! occurrence) and the raw lowered function. Each phase must fire on at
//! least one case (the count of cases where it fired is printed).

use oracle::launch::{compare, summarize, CompareRule};
use oracle::phase_check::{corpus_cases, reseed, simulate, Case, SimOutcome};
use oracle::ptx_interp::Outcome;
use oracle::ptx_interp::RunLimits;
use ptxc::ir::Function;
use ptxc::phases::phase::{self, PhaseContext};
use ptxc::phases::table::{name_of, ORI_COPY_PROP, ORI_MANAGER};
use ptxc::phases::{DispatchOptions, PhaseManager, Plan};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

const SEEDS: u64 = 2;

/// One case's result: (phase, input, rewrites) where a phase fired, and
/// the failures.
type CaseResult = (Vec<(u16, String, u64)>, Vec<String>);

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

/// Simulation results by (function text, reseed), for one case: the
/// functions before the phases repeat (the lowered one for every phase;
/// pipeline snapshots across phases that changed nothing), so each runs
/// once.
type Cache = BTreeMap<(String, u64), SimOutcome>;

fn run_cached(
    cache: &mut Cache,
    case: &Case,
    f: &Function,
    k: u64,
    limits: &RunLimits,
) -> SimOutcome {
    let key = (format!("{f:?}"), k);
    if let Some(r) = cache.get(&key) {
        return r.clone();
    }
    let r = simulate(case, f, &reseed(&case.spec, k), limits)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    cache.insert(key, r.clone());
    r
}

/// `oracle::phase_check::check_alone` with the simulations cached: the
/// phase run alone on `f`, the result verified, then both run on the spec
/// as written (which must complete) and on `SEEDS - 1` reseeds, with equal
/// outcomes and bit-identical outputs.
fn check(
    cache: &mut Cache,
    case: &Case,
    after: &Function,
    f: &Function,
    limits: &RunLimits,
) -> Result<(), String> {
    ptxc::ir::verify(after, Some(case.sm))
        .map_err(|e| format!("{}: invalid IR: {e}", case.name))?;
    if after == f {
        return Ok(());
    }
    for k in 0..SEEDS {
        let want = run_cached(cache, case, f, k, limits);
        if k == 0 && want.0 != Outcome::Completed {
            return Err(format!(
                "{}: the input does not complete: {:?}",
                case.name, want.0
            ));
        }
        let got = run_cached(cache, case, after, k, limits);
        if want.0 != got.0 {
            return Err(format!(
                "{}: outcome {:?} -> {:?} on reseed {k}",
                case.name, want.0, got.0
            ));
        }
        let diff = compare(&want.1, &got.1, &CompareRule::default());
        if !diff.is_empty() {
            return Err(format!(
                "{}: outputs changed on reseed {k}: {}",
                case.name,
                summarize(&diff, &want.1)
            ));
        }
    }
    Ok(())
}

/// Phase `index` run alone on `f` (as `oracle::phase_check::apply_alone`
/// runs it): the result and the rewrites it recorded.
fn run_alone(index: u16, plan: &Plan, case: &Case, f: &Function) -> (Function, u64) {
    let p = phase::create(index, &plan.config).unwrap();
    let mut cx = PhaseContext::new(f.clone(), Some(case.sm));
    p.execute(&mut cx)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let n = cx.fired.get(&index).copied().unwrap_or(0);
    (cx.function, n)
}

#[test]
fn every_scalar_phase_preserves_semantics_and_fires_somewhere() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let cases = corpus_cases(&dir, &["sm_70", "sm_80", "sm_90"]).unwrap();
    assert!(!cases.is_empty());
    let plan = Plan::default();
    let limits = RunLimits::default();
    // The rows phases/scalar/ implements.
    let indices = ptxc::phases::scalar::indices();
    // Per case (in parallel): (phase, input, rewrites) where it fired, and
    // the failures.
    let per_case: Vec<CaseResult> = cases
        .par_iter()
        .map(|case| {
            let mut fired = Vec::new();
            let mut failures = Vec::new();
            let mut cache = Cache::new();
            let mut wanted = indices.clone();
            wanted.push(ORI_MANAGER);
            let snaps = snapshots(&plan, case, &wanted);
            for &idx in &indices {
                // OriCopyProp runs inside the ORI manager's sequence: it
                // sees (at first) the IR the manager starts from.
                let at = if idx == ORI_COPY_PROP {
                    ORI_MANAGER
                } else {
                    idx
                };
                let pipeline = snaps
                    .get(&at)
                    .unwrap_or_else(|| panic!("{} is in the default order", name_of(at)));
                for (what, f) in [("pipeline", pipeline), ("lowered", &case.kernel.function)] {
                    let (after, n) = run_alone(idx, &plan, case, f);
                    if n > 0 {
                        fired.push((idx, format!("{} ({what})", case.name), n));
                    }
                    if let Err(e) = check(&mut cache, case, &after, f, &limits) {
                        failures.push(format!("{} on {what} IR: {e}", name_of(idx)));
                    }
                }
            }
            (fired, failures)
        })
        .collect();
    // Phase -> (inputs where it fired, total rewrites).
    let mut fires: BTreeMap<u16, (Vec<String>, u64)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (fired, fail) in per_case {
        for (idx, input, n) in fired {
            let e = fires.entry(idx).or_default();
            e.0.push(input);
            e.1 += n;
        }
        failures.extend(fail);
    }
    for &idx in &indices {
        let (cases_fired, total) = fires.get(&idx).cloned().unwrap_or_default();
        println!(
            "{:<26} fired on {:>3} inputs, {:>6} rewrites",
            name_of(idx),
            cases_fired.len(),
            total
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let silent: Vec<&str> = indices
        .iter()
        .filter(|i| !fires.contains_key(i))
        .map(|&i| name_of(i))
        .collect();
    assert!(silent.is_empty(), "phases that never fired: {silent:?}");
}
