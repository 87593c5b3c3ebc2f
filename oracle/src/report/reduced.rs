//! A finding's reduction for the report: the finding directory reduced
//! under its own signature (unless an earlier, resumed run already did),
//! the reduced program's text and size, and for a mismatch the differing
//! buffer, oracle against the configuration, one element per line (the
//! report's expected/actual diff).

use std::path::Path;
use std::time::Instant;

use super::FindingReport;
use crate::diff::run::{ptxc_outputs, run_oracle};
use crate::diff::{Compiler, Config, Program};
use crate::launch::OutputSet;
use crate::ptx_interp::RunLimits;
use crate::reduce::finding::{self, PredicateArg};
use crate::reduce::{self, Case};

/// The reduced program of a finding (reduced now, or earlier by a run
/// that was resumed), and the expected/actual text of a mismatch.
pub fn reduce_finding(f: &FindingReport, deadline: Instant) -> FindingReport {
    let mut out = f.clone();
    let dir = Path::new(&f.directory);
    let reduced_dir = dir.join("reduced");
    if !reduced_dir.join("reduce.json").exists() {
        let limits = RunLimits::default();
        let job = finding::from_finding(
            dir,
            &PredicateArg::SameSignature(Some(f.signature.clone())),
            &limits,
        );
        if let Ok(mut job) = job {
            if job.target.calibrate(&job.case).is_ok() {
                let opts = reduce::Options {
                    deadline: Some(deadline),
                    ..reduce::Options::default()
                };
                if let Ok(r) = reduce::reduce(&job.case, &job.target, &opts) {
                    let _ = finding::write_result(&job, &r);
                }
            }
        }
    }
    let shown = match Program::from_files(&reduced_dir.join("program.launch.json"), None) {
        Ok(p) => {
            out.reduced_instructions = Case::parse(&p.name, &p.ptx, p.spec.clone())
                .ok()
                .map(|c| c.size().instructions);
            out.reduced_ptx = Some(p.ptx.clone());
            Some(p)
        }
        Err(_) => Program::from_files(&dir.join("program.launch.json"), None).ok(),
    };
    if f.kind == "mismatch" {
        if let Some(p) = shown {
            if let Some((e, a)) = mismatch_text(&p, &f.config) {
                out.expected = Some(e);
                out.actual = Some(a);
            }
        }
    }
    out
}

fn element_lines(o: &OutputSet, name: &str) -> Option<String> {
    let b = o.buffers.iter().find(|b| b.name == name)?;
    Some(
        b.bits
            .iter()
            .enumerate()
            .map(|(i, v)| format!("[{i}] 0x{v:x}\n"))
            .collect(),
    )
}

/// The first differing buffer, oracle vs the configuration, one element
/// per line.
fn mismatch_text(p: &Program, config: &str) -> Option<(String, String)> {
    let limits = RunLimits::default();
    let cfg = Config::parse(config).ok()?;
    if cfg.compiler != Compiler::Ptxc {
        return None;
    }
    let oracle = run_oracle(p, &limits).ok()?;
    let actual = ptxc_outputs(p, &oracle, &cfg, &limits).ok()?;
    let name = oracle
        .outputs
        .buffers
        .iter()
        .find(|b| actual.buffers.iter().find(|x| x.name == b.name) != Some(b))?
        .name
        .clone();
    Some((
        element_lines(&oracle.outputs, &name)?,
        element_lines(&actual, &name)?,
    ))
}
