//! Filling a [`NightlyReport`] from the engine: each program's report is
//! added in program order (counts, fired phases, coverage, and the
//! findings by signature: the first program with a signature is its
//! representative, later ones count as occurrences). Everything added
//! here comes from the verdicts, never from the findings directory's
//! duplicate counters, so a run killed and resumed from its checkpoint
//! adds up to exactly what an uninterrupted run does.

use std::path::Path;

use super::model::{FindingReport, NightlyReport};
use crate::diff::known::Known;
use crate::diff::{Program, ProgramReport};
use crate::reduce::Case;

/// Adds program `p`'s report `rep`; findings point into `findings_root`.
pub fn absorb(
    r: &mut NightlyReport,
    p: &Program,
    rep: &ProgramReport,
    findings_root: &Path,
    known: &Known,
) {
    r.programs += 1;
    for f in &rep.features {
        *r.coverage.entry(f.clone()).or_insert(0) += 1;
    }
    if let Err(v) = &rep.oracle {
        *r.verdicts.entry(v.kind.name().to_string()).or_insert(0) += 1;
    }
    for c in &rep.configs {
        r.executions += 1;
        *r.verdicts
            .entry(c.verdict.kind.name().to_string())
            .or_insert(0) += 1;
        for (&i, &n) in &c.fired {
            *r.fired
                .entry(ptxc::phases::table::name_of(i).to_string())
                .or_insert(0) += n;
        }
        let Some(sig) = &c.signature else {
            continue;
        };
        let slug = sig.slug();
        if let Some(f) = r.findings.iter_mut().find(|f| f.signature == slug) {
            f.occurrences += 1;
            continue;
        }
        let instructions = Case::parse(&p.name, &p.ptx, p.spec.clone())
            .map(|c| c.size().instructions)
            .unwrap_or(0);
        r.findings.push(FindingReport {
            signature: slug.clone(),
            kind: sig.kind.name().to_string(),
            stage: sig.stage.clone(),
            arch_class: sig.arch_class.clone(),
            opcode: sig.opcode.clone(),
            known: known.contains(&slug),
            occurrences: 1,
            program: p.name.clone(),
            seed: p.seed,
            config: c.config.label(),
            blame: c.blame.as_ref().map(|b| b.line()).unwrap_or_default(),
            message: c.verdict.line(),
            original_ptx: p.ptx.clone(),
            original_instructions: instructions,
            reduced_ptx: None,
            reduced_instructions: None,
            expected: None,
            actual: None,
            directory: findings_root.join(&slug).display().to_string(),
        });
        r.findings.sort_by(|a, b| a.signature.cmp(&b.signature));
    }
}
