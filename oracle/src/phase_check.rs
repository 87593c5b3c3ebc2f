//! One phase in isolation, executed: the IR before and after a phase, run
//! in the SM simulator on the same launches, must give identical outcomes
//! and bit-identical outputs. The per-phase property tests
//! (`oracle/tests/phase_*.rs`) and the differential engine's blame build on
//! this.
//!
//! "Random inputs" are the launch spec's own inputs with every `random` and
//! `special_mix` seed replaced ([`reseed`]); other initialisers (zeros,
//! iota, values, bits) are left alone, because kernels use them for
//! indices and sizes that must stay in bounds.

use std::path::Path;

use ptxc::driver::lower_target;
use ptxc::ir::Function;
use ptxc::lower::{LowerOptions, LoweredKernel};
use ptxc::phases::{phase, PhaseConfig, PhaseContext, Plan};
use ptxc::targets::SmInfo;

use crate::launch::{splitmix64, CompareRule, Init, LaunchSpec, OutputSet};
use crate::ptx_interp::{Outcome, RunLimits};
use crate::sim::{self, SimInputs};

/// A lowered kernel ready to simulate: the function to transform, what the
/// simulator needs besides it, and its launch.
#[derive(Clone)]
pub struct Case {
    /// `FILE sm_XX`, for messages.
    pub name: String,
    pub kernel: LoweredKernel,
    pub sm: &'static SmInfo,
    pub spec: LaunchSpec,
}

impl Case {
    /// Lowers the kernel `spec` names from the parsed module `m` for `sm`
    /// with phase 5 ConvertUnsupportedOps applied (`ptxc::lower::
    /// lower_target`): the case's IR is target code the simulator can run
    /// (the lowering's REDUX/I2FP would fault on a target that lacks them);
    /// `file` names the case in messages (`FILE sm_XX`).
    pub fn lower(
        file: &str,
        m: &ptxc::ptx::ast::Module,
        sm: &'static SmInfo,
        spec: &LaunchSpec,
    ) -> Result<Case, String> {
        let kernel = lower_target(m, sm, &LowerOptions::default())
            .map_err(|e| format!("{file} {}: {}", sm.name, e.msg))?
            .into_iter()
            .find(|x| x.name == spec.kernel)
            .ok_or_else(|| format!("{file}: no kernel {}", spec.kernel))?;
        Ok(Case {
            name: format!("{file} {}", sm.name),
            kernel,
            sm,
            spec: spec.clone(),
        })
    }
}

/// The spec with every `random`/`special_mix` seed mixed with `k`
/// (`k == 0` gives the spec unchanged).
pub fn reseed(spec: &LaunchSpec, k: u64) -> LaunchSpec {
    let mut s = spec.clone();
    if k == 0 {
        return s;
    }
    let mix = |seed: u64| splitmix64(seed ^ splitmix64(k.wrapping_add(1)));
    for b in &mut s.buffers {
        match &mut b.init {
            Init::Random { seed, .. } | Init::SpecialMix { seed } => *seed = mix(*seed),
            _ => {}
        }
    }
    s
}

/// What one simulation gave: the outcome and the outputs (as far as it got).
pub type SimOutcome = (Outcome, OutputSet);

/// Runs `f` (the case's kernel, transformed or not) in the simulator.
pub fn simulate(
    case: &Case,
    f: &Function,
    spec: &LaunchSpec,
    limits: &RunLimits,
) -> Result<SimOutcome, String> {
    let inputs = SimInputs::from_lowered(&case.kernel);
    let r = sim::run(f, case.sm, spec, &inputs, limits)
        .map_err(|e| format!("{}: setup: {e}", case.name))?;
    Ok((r.outcome, r.outputs))
}

/// Runs the plan's order up to, not including, the first occurrence of
/// phase `index` (the whole order when it does not occur): the IR that
/// phase sees in that pipeline.
pub fn before_phase(plan: &Plan, index: u16, case: &Case) -> Result<Function, String> {
    let cut = plan
        .order
        .iter()
        .position(|&i| i == index)
        .unwrap_or(plan.order.len());
    let prefix = Plan {
        order: plan.order[..cut].to_vec(),
        ..plan.clone()
    };
    let m = ptxc::phases::PhaseManager::new(&prefix.config);
    let mut cx = PhaseContext::new(case.kernel.function.clone(), Some(case.sm));
    m.dispatch(&prefix.order, &mut cx, &prefix.dispatch)
        .map_err(|e| {
            format!(
                "{}: before {}: {e}",
                case.name,
                ptxc::phases::table::name_of(index)
            )
        })?;
    Ok(cx.function)
}

/// Runs phase `index` alone on `f` (with AnalyzeControlFlow's facts, which
/// several phases read).
pub fn apply_alone(
    index: u16,
    cfg: &PhaseConfig,
    f: Function,
    sm: &'static SmInfo,
) -> Result<Function, String> {
    let p = phase::create(index, cfg).ok_or_else(|| format!("no phase {index}"))?;
    let mut cx = PhaseContext::new(f, Some(sm));
    if let Some(cfa) = phase::create(ptxc::phases::table::lookup("AnalyzeControlFlow"), cfg) {
        cfa.execute(&mut cx).map_err(|e| e.to_string())?;
    }
    if !p.is_no_op() {
        p.execute(&mut cx).map_err(|e| e.to_string())?;
    }
    Ok(cx.function)
}

/// What [`check_alone`] saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AloneReport {
    /// The phase changed the function.
    pub changed: bool,
    /// Launches run (each before and after).
    pub launches: u64,
    /// Of those, the ones that completed.
    pub completed: u64,
}

/// Checks phase `index` on `f` (the case's function at the point the phase
/// would see it): the IR before and after, on the spec reseeded `seeds`
/// times (seed 0 is the spec as written and must complete), must agree.
pub fn check_alone(
    case: &Case,
    index: u16,
    cfg: &PhaseConfig,
    f: &Function,
    seeds: u64,
    limits: &RunLimits,
) -> Result<AloneReport, String> {
    let after = apply_alone(index, cfg, f.clone(), case.sm)?;
    let what = ptxc::phases::table::name_of(index);
    ptxc::ir::verify(&after, Some(case.sm))
        .map_err(|e| format!("{}: invalid IR after {what}: {e}", case.name))?;
    compare_functions(case, f, &after, seeds, limits).map_err(|e| format!("{what}: {e}"))
}

/// Runs `before` and `after` on the case's spec reseeded `seeds` times
/// (seed 0, the spec as written, must complete) and requires the same
/// outcome and bit-identical outputs each time.
pub fn compare_functions(
    case: &Case,
    before: &Function,
    after: &Function,
    seeds: u64,
    limits: &RunLimits,
) -> Result<AloneReport, String> {
    let mut rep = AloneReport {
        changed: after != before,
        ..Default::default()
    };
    if !rep.changed {
        return Ok(rep);
    }
    for k in 0..seeds.max(1) {
        let spec = reseed(&case.spec, k);
        let want = simulate(case, before, &spec, limits)?;
        if k == 0 && want.0 != Outcome::Completed {
            return Err(format!(
                "{}: the input program does not complete: {:?}",
                case.name, want.0
            ));
        }
        let got = simulate(case, after, &spec, limits)?;
        rep.launches += 1;
        rep.completed += u64::from(want.0 == Outcome::Completed);
        if want.0 != got.0 {
            return Err(format!(
                "{}: the outcome changed on reseed {k}: {:?} -> {:?}",
                case.name, want.0, got.0
            ));
        }
        let diff = crate::launch::compare(&want.1, &got.1, &CompareRule::default());
        if !diff.is_empty() {
            return Err(format!(
                "{}: the outputs changed on reseed {k}: {}",
                case.name,
                crate::launch::summarize(&diff, &want.1)
            ));
        }
    }
    Ok(rep)
}

/// Every `NAME.ptx` and `NAME.O0.ptx` kernel under `dir/NAME/`, lowered for
/// each of `archs`.
pub fn corpus_cases(dir: &Path, archs: &[&str]) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for k in crate::diff::corpus_names(dir)? {
        let d = dir.join(&k);
        let spec =
            LaunchSpec::from_file(d.join(format!("{k}.launch.json"))).map_err(|e| e.to_string())?;
        for variant in ["ptx", "O0.ptx"] {
            let file = format!("{k}.{variant}");
            let src = std::fs::read_to_string(d.join(&file)).map_err(|e| format!("{file}: {e}"))?;
            let m = ptxc::ptx::parse_checked(&k, &src).map_err(|e| format!("{file}: {e}"))?;
            for arch in archs {
                let sm = ptxc::targets::lookup_sm(arch)
                    .ok_or_else(|| format!("unknown target {arch}"))?;
                out.push(Case::lower(&file, &m, sm, &spec)?);
            }
        }
    }
    Ok(out)
}
