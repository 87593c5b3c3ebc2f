//! `ptxdiff sim SPEC.launch.json --sass FILE.sass --arch sm_XX [--function
//! NAME] [--banks FILE] [--dump OUT.json]`: runs SASS text (a cuobjdump listing or the
//! compiler's printout) in the SM simulator, compares with the
//! `*.expected.json` beside the spec when there is one, and prints a
//! one-line verdict. Without `--banks`, `FILE.banks.json` (the listing's
//! path with `.sass` replaced) is used when it exists.

pub use super::verdict::judge;
use super::verdict::Verdict;
use crate::launch::LaunchSpec;
use crate::ptx_interp::{RunLimits, RunResult};
use crate::sim::{self, SimInputs};
use std::path::{Path, PathBuf};

/// `X.sm_80.sass` -> `X.sm_80.banks.json`.
pub fn default_banks_path(sass: &Path) -> Option<PathBuf> {
    let name = sass.file_name()?.to_str()?;
    let stem = name.strip_suffix(".sass")?;
    Some(sass.with_file_name(format!("{stem}.banks.json")))
}

/// Parses a listing and runs the function named `function` (or the
/// spec's kernel, or the only function).
pub fn run_sass(
    spec: &LaunchSpec,
    sass_text: &str,
    sass_name: &str,
    arch: &str,
    function: Option<&str>,
    inputs: &SimInputs,
    limits: &RunLimits,
) -> Result<RunResult, String> {
    let sm = ptxc::targets::lookup_sm(arch).ok_or_else(|| format!("unknown target '{arch}'"))?;
    let file =
        ptxc::ir::sass_text::parse_file(sass_text).map_err(|e| format!("{sass_name}:{e}"))?;
    let want = function.unwrap_or(&spec.kernel);
    let f = match file.functions.iter().find(|f| f.name == want) {
        Some(f) => f,
        None if function.is_none() && file.functions.len() == 1 => &file.functions[0],
        None => return Err(format!("{sass_name}: no function '{want}'")),
    };
    let func = ptxc::ir::from_sass(f, Some(sm)).map_err(|e| format!("{sass_name}: {e}"))?;
    sim::run(&func, sm, spec, inputs, limits).map_err(|e| e.to_string())
}

/// Runs and judges one listing against a spec.
pub fn sim(
    spec_path: &Path,
    sass: &Path,
    arch: &str,
    function: Option<&str>,
    banks: Option<&Path>,
    dump: Option<&Path>,
    limits: &RunLimits,
) -> Result<Verdict, String> {
    let spec = LaunchSpec::from_file(spec_path).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(sass)
        .map_err(|e| format!("cannot read '{}': {e}", sass.display()))?;
    let inputs = match banks
        .map(Path::to_path_buf)
        .or_else(|| default_banks_path(sass))
    {
        Some(p) if banks.is_some() || p.exists() => SimInputs::from_banks_file(&p)?,
        _ => SimInputs::default(),
    };
    let result = run_sass(
        &spec,
        &text,
        &sass.display().to_string(),
        arch,
        function,
        &inputs,
        limits,
    )?;
    if let Some(d) = dump {
        result.outputs.write_file(d).map_err(|e| e.to_string())?;
    }
    judge(&spec, spec_path, &result)
}
