//! `ptxdiff check SPEC.launch.json [--arch sm_XX] [ptxc flags]`: compiles
//! the spec's PTX with ptxc (the driver, with the flags parsed by ptxc's
//! own command-line parser), runs the listing ptxc printed (parsed back,
//! so the text is what is checked) in the SM simulator, runs the PTX in the
//! reference interpreter, and prints a one-line verdict. It passes when
//! both runs complete, agree with each other under the spec's comparison
//! rule, and match the `*.expected.json` beside the spec when there is one.

use super::verdict::{expected_path, Verdict};
use crate::launch::{compare, summarize, LaunchSpec, OutputSet};
use crate::ptx_interp::{self, Outcome, RunLimits, RunResult};
use crate::sim::{self, SimInputs};
use std::path::Path;

/// One side's run, described in a few words.
fn describe(
    r: &Result<RunResult, String>,
    expected: Option<&OutputSet>,
    spec: &LaunchSpec,
) -> (String, bool) {
    match r {
        Err(e) => (format!("SETUP: {e}"), false),
        Ok(r) => match &r.outcome {
            Outcome::Completed => match expected {
                None => ("completed".into(), true),
                Some(exp) => {
                    let mm = compare(exp, &r.outputs, &spec.compare);
                    if mm.is_empty() {
                        ("PASS".into(), true)
                    } else {
                        (format!("MISMATCH ({})", summarize(&mm, exp)), false)
                    }
                }
            },
            Outcome::Fault { message, at } => (format!("FAULT: {message} at {at}"), false),
            Outcome::Ub { kind, at } => (format!("UB: {kind:?} at {at}"), false),
            Outcome::Hazard { hazard, at } => (format!("HAZARD: {hazard} at {at}"), false),
            Outcome::Timeout { executed } => (format!("TIMEOUT after {executed}"), false),
        },
    }
}

/// How a check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// Both runs complete, agree, and match the expected file.
    Agree,
    /// Both complete and their outputs differ: a miscompilation (or a bug
    /// in one of the two interpreters).
    Disagree,
    /// ptxc refused the module (an unsupported construct or an error).
    CompileError,
    /// Anything else: a fault, UB or timeout on either side, or both
    /// agreeing with each other but not with the expected file.
    Fail,
}

/// Compiles with ptxc and runs; `ptxc_args` are ptxc flags (no input file).
/// `dump`: where to write the simulator's outputs (to compare by hand
/// with `ptxdiff interp --dump`).
pub fn check(
    spec_path: &Path,
    arch: Option<&str>,
    ptxc_args: &[String],
    dump: Option<&Path>,
    limits: &RunLimits,
) -> Result<Verdict, String> {
    check_classified(spec_path, arch, ptxc_args, dump, limits).map(|(v, _)| v)
}

/// [`check`], with how it ended.
pub fn check_classified(
    spec_path: &Path,
    arch: Option<&str>,
    ptxc_args: &[String],
    dump: Option<&Path>,
    limits: &RunLimits,
) -> Result<(Verdict, CheckKind), String> {
    let spec = LaunchSpec::from_file(spec_path).map_err(|e| e.to_string())?;
    let ptx_path = spec
        .ptx_path()
        .ok_or_else(|| format!("{}: the spec names no ptx module", spec_path.display()))?;
    let src = std::fs::read_to_string(&ptx_path)
        .map_err(|e| format!("cannot read '{}': {e}", ptx_path.display()))?;
    let name = ptx_path.display().to_string();
    let mut args: Vec<String> = ptxc_args.to_vec();
    if let Some(a) = arch {
        args.push(format!("-arch={a}"));
    }
    let opts = ptxc::cli::parse_args(&args)
        .map_err(|e| format!("ptxc flags: {e}"))?
        .ok_or("ptxc flags: --help/--version given")?;
    if opts.input.is_some() {
        return Err("ptxc flags: the input is the spec's module; give no file".into());
    }
    let kernel = &spec.kernel;
    let report = ptxc::driver::compile(&name, &src, &opts.driver, None);
    let out = match report.result {
        Ok(o) => o,
        Err(e) => {
            let first = e.to_string().lines().next().unwrap_or("").to_string();
            let line = format!("{kernel}: COMPILE ERROR: {first}");
            return Ok((Verdict { line, ok: false }, CheckKind::CompileError));
        }
    };
    let sm = out.sm;
    let tag = format!("{kernel} {}", sm.name);
    let Some(compiled) = out.functions.iter().find(|f| &f.name == kernel) else {
        let line = format!("{tag}: COMPILE ERROR: ptxc did not compile entry '{kernel}'");
        return Ok((Verdict { line, ok: false }, CheckKind::CompileError));
    };
    // The listing as printed, read back.
    let sim_run = (|| -> Result<RunResult, String> {
        let file =
            ptxc::ir::sass_text::parse_file(&out.sass).map_err(|e| format!("ptxc output: {e}"))?;
        let f = file
            .functions
            .iter()
            .find(|f| &f.name == kernel)
            .ok_or_else(|| format!("ptxc output has no function '{kernel}'"))?;
        let func = ptxc::ir::from_sass(f, Some(sm)).map_err(|e| format!("ptxc output: {e}"))?;
        // Bank 3 (.const data), the static shared size and the module
        // variables (bank 4) come from the lowering.
        let inputs = SimInputs::from_lowered(&compiled.kernel);
        sim::run(&func, sm, &spec, &inputs, limits).map_err(|e| e.to_string())
    })();
    if let (Some(d), Ok(r)) = (dump, &sim_run) {
        r.outputs.write_file(d).map_err(|e| e.to_string())?;
    }
    let interp_run = (|| -> Result<RunResult, String> {
        let module = ptxc::ptx::parse_checked(&name, &src)?;
        ptx_interp::run(&module, &src, &spec, limits).map_err(|e| e.to_string())
    })();
    let expected = match expected_path(spec_path).filter(|p| p.exists()) {
        Some(p) => Some(OutputSet::from_file(&p).map_err(|e| e.to_string())?),
        None => None,
    };
    let (sim_word, sim_ok) = describe(&sim_run, expected.as_ref(), &spec);
    let (interp_word, interp_ok) = describe(&interp_run, expected.as_ref(), &spec);
    let agreement = match (&sim_run, &interp_run) {
        (Ok(s), Ok(i)) if s.completed() && i.completed() => {
            let mm = compare(&i.outputs, &s.outputs, &spec.compare);
            if mm.is_empty() {
                Some(String::new())
            } else {
                Some(summarize(&mm, &i.outputs))
            }
        }
        _ => None,
    };
    let agree = agreement.as_ref().is_some_and(|d| d.is_empty());
    let ok = agree && sim_ok && interp_ok;
    let (verdict, kind) = if ok {
        ("AGREE", CheckKind::Agree)
    } else if agreement.is_some() && !agree {
        ("DISAGREE", CheckKind::Disagree)
    } else {
        ("FAIL", CheckKind::Fail)
    };
    let mut line = format!("{tag}: {verdict}: ptxc+sim {sim_word}; interp {interp_word}");
    if let Some(d) = agreement.filter(|d| !d.is_empty()) {
        line.push_str(&format!("; sim vs interp: {d}"));
    }
    Ok((Verdict { line, ok }, kind))
}
