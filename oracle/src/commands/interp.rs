//! `ptxdiff interp SPEC.launch.json [--ptx FILE] [--dump OUT.json]`: runs a
//! kernel in the PTX interpreter, compares with the `*.expected.json` beside
//! the spec when there is one, and prints a one-line verdict.

pub use super::verdict::{expected_path, judge, Verdict};
use crate::launch::LaunchSpec;
use crate::ptx_interp::{self, RunLimits};
use std::path::Path;

/// Runs the interpreter on a spec; `ptx` overrides the spec's module.
pub fn interp(
    spec_path: &Path,
    ptx: Option<&Path>,
    dump: Option<&Path>,
    limits: &RunLimits,
) -> Result<Verdict, String> {
    let spec = LaunchSpec::from_file(spec_path).map_err(|e| e.to_string())?;
    let ptx_path = match ptx {
        Some(p) => p.to_path_buf(),
        None => spec.ptx_path().ok_or_else(|| {
            format!(
                "{}: the spec names no ptx module; pass --ptx",
                spec_path.display()
            )
        })?,
    };
    let src = std::fs::read_to_string(&ptx_path)
        .map_err(|e| format!("cannot read '{}': {e}", ptx_path.display()))?;
    let name = ptx_path.display().to_string();
    let module = ptxc::ptx::parse_checked(&name, &src)?;
    let result = ptx_interp::run(&module, &src, &spec, limits)
        .map_err(|e| format!("{}: {e}", spec_path.display()))?;
    if let Some(d) = dump {
        result.outputs.write_file(d).map_err(|e| e.to_string())?;
    }
    judge(&spec, spec_path, &result)
}
