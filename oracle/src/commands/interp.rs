//! `ptxdiff interp SPEC.launch.json [--ptx FILE] [--dump OUT.json]`: runs a
//! kernel in the PTX interpreter, compares with the `*.expected.json` beside
//! the spec when there is one, and prints a one-line verdict.

use crate::launch::{compare, summarize, LaunchSpec, OutputSet};
use crate::ptx_interp::{self, Outcome, RunLimits};
use std::path::{Path, PathBuf};

/// What `interp` concluded. `passed()` decides the exit status.
#[derive(Debug)]
pub struct Verdict {
    pub line: String,
    pub ok: bool,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.ok
    }
}

/// `NAME.launch.json` -> `NAME.expected.json`.
pub fn expected_path(spec: &Path) -> Option<PathBuf> {
    let name = spec.file_name()?.to_str()?;
    let stem = name.strip_suffix(".launch.json")?;
    Some(spec.with_file_name(format!("{stem}.expected.json")))
}

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
    let kernel = &spec.kernel;
    let line = match &result.outcome {
        Outcome::Completed => {
            let Some(exp_path) = expected_path(spec_path).filter(|p| p.exists()) else {
                return Ok(Verdict {
                    line: format!("{kernel}: completed ({} thread-instructions); no expected results to compare", result.executed),
                    ok: true,
                });
            };
            let expected = OutputSet::from_file(&exp_path).map_err(|e| e.to_string())?;
            let mismatches = compare(&expected, &result.outputs, &spec.compare);
            if mismatches.is_empty() {
                return Ok(Verdict {
                    line: format!(
                        "{kernel}: PASS ({} thread-instructions, outputs match {})",
                        result.executed,
                        exp_path.display()
                    ),
                    ok: true,
                });
            }
            format!("{kernel}: MISMATCH: {}", summarize(&mismatches, &expected))
        }
        Outcome::Fault { message, at } => format!("{kernel}: FAULT: {message} at {at}"),
        Outcome::Ub { kind, at } => format!("{kernel}: UB: {kind:?} at {at}"),
        Outcome::Timeout { executed } => {
            format!("{kernel}: TIMEOUT after {executed} thread-instructions")
        }
    };
    Ok(Verdict { line, ok: false })
}
