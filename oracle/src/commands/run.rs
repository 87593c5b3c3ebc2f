//! `ptxdiff run [--corpus DIR] [--arch sm_XX]...`: the differential run on
//! the built-in default, the real-kernel corpus: every kernel compiled by
//! ptxc for each target and checked against the PTX interpreter
//! ([`super::check`]), one line each, then a verdict.
//!
//! The generator-driven run (random programs, the configuration matrix,
//! blame and reduction) replaces this default when it lands (issue 7);
//! until then the corpus is the workload.

use super::check::{check_classified, CheckKind};
use crate::ptx_interp::RunLimits;
use std::path::{Path, PathBuf};

/// Targets of the default run: the oldest, a middle and the newest
/// generation with vendor SASS in the corpus.
pub const DEFAULT_ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];

/// The corpus this binary was built from.
pub fn default_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// Tallies of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSummary {
    pub agree: usize,
    pub disagree: usize,
    pub compile_errors: usize,
    pub other: usize,
}

impl RunSummary {
    /// The run finds nothing wrong with ptxc: no disagreement with the
    /// oracle and nothing that failed for another reason than the
    /// expected file or an unsupported construct.
    pub fn clean(&self) -> bool {
        self.disagree == 0
    }

    pub fn verdict_line(&self) -> String {
        let total = self.agree + self.disagree + self.compile_errors + self.other;
        format!(
            "verdict: {}: {} of {total} runs agree with the oracle, {} disagree \
             (miscompilations), {} not compiled (unsupported by ptxc), {} failed otherwise",
            if self.clean() {
                "CLEAN"
            } else {
                "MISCOMPILATION"
            },
            self.agree,
            self.disagree,
            self.compile_errors,
            self.other
        )
    }
}

/// Runs every `DIR/NAME/NAME.launch.json` for each target, printing a line
/// per run through `out`.
pub fn run_corpus(
    dir: &Path,
    archs: &[String],
    out: &mut dyn FnMut(&str),
) -> Result<RunSummary, String> {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read '{}': {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let spec = p.join(format!("{name}.launch.json"));
            spec.exists().then_some(spec)
        })
        .collect();
    specs.sort();
    if specs.is_empty() {
        return Err(format!(
            "no NAME/NAME.launch.json under '{}'",
            dir.display()
        ));
    }
    let limits = RunLimits::default();
    let mut sum = RunSummary::default();
    for spec in &specs {
        for arch in archs {
            let (v, kind) = check_classified(spec, Some(arch), &[], None, &limits)?;
            match kind {
                CheckKind::Agree => sum.agree += 1,
                CheckKind::Disagree => sum.disagree += 1,
                CheckKind::CompileError => sum.compile_errors += 1,
                CheckKind::Fail => sum.other += 1,
            }
            out(&v.line);
            if kind == CheckKind::CompileError {
                break; // the same refusal on every target
            }
        }
    }
    Ok(sum)
}
