//! One-line verdicts: a run judged against the `*.expected.json` beside its
//! launch spec (shared by `ptxdiff interp`, `sim` and `check`).

use crate::launch::{compare, summarize, LaunchSpec, OutputSet};
use crate::ptx_interp::{Outcome, RunResult};
use std::path::{Path, PathBuf};

/// What a command concluded. `passed()` decides the exit status.
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

/// The verdict line for a finished run.
pub fn judge(spec: &LaunchSpec, spec_path: &Path, result: &RunResult) -> Result<Verdict, String> {
    let kernel = &spec.kernel;
    let line = match &result.outcome {
        Outcome::Completed => {
            let Some(exp_path) = expected_path(spec_path).filter(|p| p.exists()) else {
                return Ok(Verdict {
                    line: format!(
                        "{kernel}: completed ({} thread-instructions); no expected results to compare",
                        result.executed
                    ),
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
        Outcome::Hazard { hazard, at } => format!("{kernel}: HAZARD: {hazard} at {at}"),
        Outcome::Timeout { executed } => {
            format!("{kernel}: TIMEOUT after {executed} thread-instructions")
        }
    };
    Ok(Verdict { line, ok: false })
}
