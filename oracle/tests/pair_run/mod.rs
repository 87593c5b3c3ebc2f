//! Shared by the lowering tests that run a kernel in both runners: the
//! PTX interpreter, and the compiler's lowering in the SASS simulator, on
//! every target, comparing outputs (or faults).
#![allow(dead_code)]

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits, RunResult};
use oracle::sim::SimInputs;
use ptxc::driver::lower_target;
use ptxc::lower::LowerOptions;

pub const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

pub fn interp(src: &str, spec: &LaunchSpec) -> RunResult {
    let m = ptxc::ptx::parse_checked("surf", src).unwrap_or_else(|e| panic!("parse: {e}\n{src}"));
    ptx_interp::run(&m, src, spec, &RunLimits::default())
        .unwrap_or_else(|e| panic!("interp setup: {e:?}"))
}

pub fn lowered(src: &str, spec: &LaunchSpec, arch: &str) -> Result<RunResult, String> {
    let m = ptxc::ptx::parse_checked("surf", src).map_err(|e| format!("parse: {e}"))?;
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    let ks = lower_target(&m, sm, &LowerOptions::default()).map_err(|e| format!("lower: {e}"))?;
    let kern = ks.iter().find(|k| k.name == spec.kernel).unwrap();
    let inputs = SimInputs::from_lowered(kern);
    oracle::sim::run(&kern.function, sm, spec, &inputs, &RunLimits::default())
        .map_err(|e| format!("sim setup: {e}"))
}

/// The interpreter's and the simulator's runs of `src` on `arch` (the
/// lowering must succeed).
pub fn both(src: &str, spec: &LaunchSpec, arch: &str) -> (RunResult, RunResult) {
    let got = lowered(src, spec, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
    (interp(src, spec), got)
}

/// Panics unless both runs complete with equal outputs ([`agree`]).
pub fn same_outputs(want: &RunResult, got: &RunResult, what: &str) {
    if let Some(e) = agree(want, got, false) {
        panic!("{what}: {e}");
    }
}

pub fn is_fault(o: &Outcome) -> bool {
    matches!(o, Outcome::Fault { .. })
}

/// Both runners complete with equal outputs, or (`expect_fault`) both
/// stop with a fault. Returns a description of the disagreement.
pub fn agree(want: &RunResult, got: &RunResult, expect_fault: bool) -> Option<String> {
    if expect_fault {
        if !is_fault(&want.outcome) {
            return Some(format!("the interpreter did not fault: {:?}", want.outcome));
        }
        if !is_fault(&got.outcome) {
            return Some(format!("the simulator did not fault: {:?}", got.outcome));
        }
        return None;
    }
    if want.outcome != Outcome::Completed {
        return Some(format!("interpreter: {:?}", want.outcome));
    }
    if got.outcome != Outcome::Completed {
        return Some(format!("simulator: {:?}", got.outcome));
    }
    for b in &want.outputs.buffers {
        let Some(g) = got.outputs.get(&b.name) else {
            return Some(format!("simulator has no output {}", b.name));
        };
        let bad: Vec<String> = b
            .bits
            .iter()
            .zip(&g.bits)
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .take(6)
            .map(|(k, (x, y))| format!("{}[{k}]: interpreter {x:#x}, simulator {y:#x}", b.name))
            .collect();
        if !bad.is_empty() || b.bits.len() != g.bits.len() {
            return Some(bad.join("; "));
        }
    }
    None
}

/// Runs one case on every arch; failures are collected.
pub fn case(src: &str, spec: &LaunchSpec, expect_fault: bool, what: &str, fails: &mut Vec<String>) {
    let want = interp(src, spec);
    for arch in ARCHS {
        match lowered(src, spec, arch) {
            Err(e) => fails.push(format!("{what} on {arch}: {e}")),
            Ok(got) => {
                if let Some(d) = agree(&want, &got, expect_fault) {
                    fails.push(format!("{what} on {arch}: {d}"));
                }
            }
        }
    }
}

pub fn finish(fails: Vec<String>, total: usize) {
    assert!(
        fails.is_empty(),
        "{} of {total} cases disagree:\n  {}",
        fails.len(),
        fails
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n  ")
    );
}

/// [`lowered`] after the whole `-O3` phase plan (scheduling, register
/// allocation, the optimizations), the IR verified.
pub fn lowered_o3(src: &str, spec: &LaunchSpec, arch: &str) -> Result<RunResult, String> {
    let m = ptxc::ptx::parse_checked("t", src).map_err(|e| format!("parse: {e}"))?;
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    let ks = ptxc::lower::lower_module(&m, sm, &LowerOptions::default())
        .map_err(|e| format!("lower: {e}"))?;
    let kern = ks.iter().find(|k| k.name == spec.kernel).unwrap();
    let phased = ptxc::phases::run(
        &ptxc::phases::Plan::default(),
        kern.function.clone(),
        Some(sm),
    )
    .map_err(|e| format!("phases: {e}"))?;
    let f = phased.cx.function;
    ptxc::ir::verify(&f, Some(sm)).map_err(|e| format!("invalid IR: {e}"))?;
    oracle::sim::run(
        &f,
        sm,
        spec,
        &SimInputs::from_lowered(kern),
        &RunLimits::default(),
    )
    .map_err(|e| format!("sim setup: {e}"))
}

/// A launch of one CTA of `threads` threads with one `u32` buffer `out` of
/// `len` zeros (the kernel's only parameter, compared afterwards).
pub fn out_spec(threads: u32, len: u32, dynamic_shared: u32) -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{threads}], "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": {len}, "init": "zeros"}}}}, "outputs": ["out"],
  "dynamic_shared_bytes": {dynamic_shared}}}"#
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Panics unless the lowering at -O0 and after the -O3 plan agree with
/// `want` (the interpreter's run, completed) on every target.
pub fn agree_on_every_target(src: &str, spec: &LaunchSpec, want: &RunResult) {
    for arch in ARCHS {
        let o0 = lowered(src, spec, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(want, &o0, false) {
            panic!("-O0 on {arch}: {d}");
        }
        let o3 = lowered_o3(src, spec, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(want, &o3, false) {
            panic!("-O3 on {arch}: {d}");
        }
    }
}
