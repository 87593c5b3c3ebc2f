//! The report data: what a nightly run (one shard or the merge of several)
//! found, in plain types the writers and the merger share. `ptxdiff
//! nightly` fills them; the field names are the `summary.json` keys (see
//! `json.rs` for the schema).

use std::collections::BTreeMap;

use crate::diff::groups::{GroupKey, Groups};
use crate::diff::verdict::VerdictKind;
use crate::diff::Signature;

/// The `summary.json` schema version; a reader refuses any other.
pub const SCHEMA: u32 = 1;

#[derive(Clone, Debug, PartialEq)]
pub struct NightlyReport {
    pub schema: u32,
    /// `2026-11-23`.
    pub date: String,
    /// The first generator seed.
    pub seed: u64,
    /// `1/4`, ...: the shards merged in (`1/1` unsharded).
    pub shards: Vec<String>,
    pub jobs: usize,
    /// The requested budget.
    pub minutes: f64,
    /// The matrix preset's name.
    pub matrix: String,
    /// `oracle::diff::Config::label()` of each configuration.
    pub configs: Vec<String>,
    pub programs: u64,
    pub executions: u64,
    /// Generate + run wall time (summed over the shards when merged).
    pub elapsed_s: f64,
    /// `VerdictKind::name()` -> count.
    pub verdicts: BTreeMap<String, u64>,
    /// Phase name -> rewrites.
    pub fired: BTreeMap<String, u64>,
    /// Generator feature -> programs having it.
    pub coverage: BTreeMap<String, u64>,
    /// Stage (`run`, `reduce`, `report`) -> seconds.
    pub timings: BTreeMap<String, f64>,
    /// Sorted by signature slug.
    pub findings: Vec<FindingReport>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FindingReport {
    /// `Signature::slug()`.
    pub signature: String,
    pub kind: String,
    pub stage: String,
    pub arch_class: String,
    pub opcode: String,
    /// Already in `corpus/regressions/known.json`.
    pub known: bool,
    /// Failing configurations with this signature in the run.
    pub occurrences: u64,
    /// `gen-123`.
    pub program: String,
    pub seed: Option<u64>,
    /// The configuration's label.
    pub config: String,
    /// `Blame::line()`.
    pub blame: String,
    /// `Verdict::line()`.
    pub message: String,
    pub original_ptx: String,
    pub original_instructions: usize,
    pub reduced_ptx: Option<String>,
    pub reduced_instructions: Option<usize>,
    /// The mismatching buffer as text, one element per line.
    pub expected: Option<String>,
    pub actual: Option<String>,
    /// The finding directory (as given).
    pub directory: String,
}

/// The stages of a nightly run in the order they run: the timing tables
/// list these first, then any others alphabetically.
pub const STAGES: [&str; 3] = ["run", "reduce", "report"];

/// `x / seconds`, 0 when no time was measured (a rate over nothing is
/// reported as none, not as infinity).
fn rate(x: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        x as f64 / seconds
    } else {
        0.0
    }
}

impl NightlyReport {
    /// An empty report of one unsharded run: every count zero.
    pub fn empty(date: &str, matrix: &str) -> NightlyReport {
        NightlyReport {
            schema: SCHEMA,
            date: date.into(),
            seed: 0,
            shards: vec!["1/1".into()],
            jobs: 1,
            minutes: 0.0,
            matrix: matrix.into(),
            configs: Vec::new(),
            programs: 0,
            executions: 0,
            elapsed_s: 0.0,
            verdicts: BTreeMap::new(),
            fired: BTreeMap::new(),
            coverage: BTreeMap::new(),
            timings: BTreeMap::new(),
            findings: Vec::new(),
        }
    }

    pub fn programs_per_second(&self) -> f64 {
        rate(self.programs, self.elapsed_s)
    }

    pub fn executions_per_second(&self) -> f64 {
        rate(self.executions, self.elapsed_s)
    }

    /// Configurations that failed: the verdicts that count as a failure of
    /// the compiler (`VerdictKind::is_failure`; names the verdict table
    /// does not know are not counted).
    pub fn total_failures(&self) -> u64 {
        self.verdicts
            .iter()
            .filter(|(k, _)| VerdictKind::parse(k).is_some_and(|k| k.is_failure()))
            .map(|(_, n)| n)
            .sum()
    }

    /// The verdict counts in the verdict table's order (`pass` first),
    /// then any names it does not know, alphabetically.
    pub fn verdict_rows(&self) -> Vec<(&str, u64)> {
        let mut rows: Vec<(&str, u64)> = VerdictKind::ALL
            .iter()
            .filter_map(|k| self.verdicts.get_key_value(k.name()))
            .map(|(k, &n)| (k.as_str(), n))
            .collect();
        rows.extend(
            self.verdicts
                .iter()
                .filter(|(k, _)| VerdictKind::parse(k).is_none())
                .map(|(k, &n)| (k.as_str(), n)),
        );
        rows
    }

    /// The timings in run order ([`STAGES`] first).
    pub fn timing_rows(&self) -> Vec<(&str, f64)> {
        let mut rows: Vec<(&str, f64)> = STAGES
            .iter()
            .filter_map(|k| self.timings.get_key_value(*k))
            .map(|(k, &s)| (k.as_str(), s))
            .collect();
        rows.extend(
            self.timings
                .iter()
                .filter(|(k, _)| !STAGES.contains(&k.as_str()))
                .map(|(k, &s)| (k.as_str(), s)),
        );
        rows
    }

    /// The findings not in `known.json`.
    pub fn new_findings(&self) -> impl Iterator<Item = &FindingReport> {
        self.findings.iter().filter(|f| !f.known)
    }

    /// The findings grouped by blamed stage and verdict class (one bug,
    /// one group: `oracle::diff::groups`), each signature counted with its
    /// occurrences, in the findings' (signature) order; a finding whose
    /// kind the verdict table does not know stays out.
    pub fn groups(&self) -> Groups {
        let mut g = Groups::default();
        for f in &self.findings {
            if let Some(sig) = f.signature_of() {
                g.add_n(&sig, f.occurrences);
            }
        }
        g
    }

    /// The order to reduce the findings in: each group's first finding,
    /// then the others (findings order within each part), so a time budget
    /// reduces one program per bug before a second one of any bug.
    pub fn reduction_order(&self) -> Vec<usize> {
        let mut seen: Vec<GroupKey> = Vec::new();
        let (mut a, b): (Vec<usize>, Vec<usize>) = (0..self.findings.len()).partition(|&k| {
            match self.findings[k].signature_of().map(|s| GroupKey::of(&s)) {
                Some(key) if !seen.contains(&key) => {
                    seen.push(key);
                    true
                }
                _ => false,
            }
        });
        a.extend(b);
        a
    }
}

impl FindingReport {
    /// The signature its fields spell; `None` for a kind the verdict table
    /// does not know.
    pub fn signature_of(&self) -> Option<Signature> {
        Some(Signature {
            kind: VerdictKind::parse(&self.kind)?,
            stage: self.stage.clone(),
            arch_class: self.arch_class.clone(),
            opcode: self.opcode.clone(),
        })
    }

    /// The PTX to show: the reduced program when there is one.
    pub fn shown_ptx(&self) -> (&str, usize, bool) {
        match (&self.reduced_ptx, self.reduced_instructions) {
            (Some(p), Some(n)) => (p, n, true),
            (Some(p), None) => (p, self.original_instructions, true),
            _ => (&self.original_ptx, self.original_instructions, false),
        }
    }

    /// `42 -> 5` (reduced) or `42` (not reduced), in PTX instructions.
    pub fn sizes(&self) -> String {
        match self.reduced_instructions {
            Some(r) => format!("{} -> {r}", self.original_instructions),
            None => self.original_instructions.to_string(),
        }
    }

    /// `new` or `known`.
    pub fn status(&self) -> &'static str {
        if self.known {
            "known"
        } else {
            "new"
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A finding with every field set (`reduced` picks whether it was
    /// reduced); the shared fixture of the report module's unit tests.
    pub(crate) fn finding(slug: &str, program: &str, reduced: Option<usize>) -> FindingReport {
        FindingReport {
            signature: slug.into(),
            kind: "mismatch".into(),
            stage: "OriCopyProp".into(),
            arch_class: "sm_80+".into(),
            opcode: "IADD3".into(),
            known: false,
            occurrences: 2,
            program: program.into(),
            seed: Some(7),
            config: "ptxc sm_80 -O3 default".into(),
            blame: "OriCopyProp (21), key opcode IADD3".into(),
            message: "mismatch: 1 mismatch in y".into(),
            original_ptx: ".version 7.0\nadd.s32 %r1, %r2, 1;\nret;\n".into(),
            original_instructions: 12,
            reduced_ptx: reduced.map(|_| "add.s32 %r1, %r2, 1;\n".into()),
            reduced_instructions: reduced,
            expected: Some("1\n2\n3\n".into()),
            actual: Some("1\n5\n3\n".into()),
            directory: format!("findings/{slug}"),
        }
    }

    #[test]
    fn rates_failures_and_verdict_order() {
        let mut r = NightlyReport::empty("2026-11-23", "default");
        assert_eq!(r.programs_per_second(), 0.0);
        r.programs = 30;
        r.executions = 90;
        r.elapsed_s = 3.0;
        assert_eq!(r.programs_per_second(), 10.0);
        assert_eq!(r.executions_per_second(), 30.0);
        for (k, n) in [("pass", 80), ("zzz", 1), ("mismatch", 4), ("oracle-ub", 3)] {
            r.verdicts.insert(k.into(), n);
        }
        r.verdicts.insert("ice".into(), 2);
        for (k, s) in [("a", 1.0), ("report", 2.0), ("run", 3.0), ("reduce", 4.0)] {
            r.timings.insert(k.into(), s);
        }
        assert_eq!(
            r.timing_rows(),
            [("run", 3.0), ("reduce", 4.0), ("report", 2.0), ("a", 1.0)]
        );
        assert_eq!(r.total_failures(), 6);
        assert_eq!(
            r.verdict_rows(),
            [
                ("pass", 80),
                ("mismatch", 4),
                ("ice", 2),
                ("oracle-ub", 3),
                ("zzz", 1)
            ]
        );
    }

    #[test]
    fn findings_group_by_blamed_stage_and_class_and_firsts_reduce_first() {
        let mut r = NightlyReport::empty("2026-11-23", "default");
        // Sorted by signature, as the report keeps them: a mismatch and a
        // timeout of one phase are one bug; a hazard is another.
        let mut a = finding("a", "gen-1", None);
        a.arch_class = "sm_70+".into();
        let b = finding("b", "gen-2", None);
        let mut c = finding("c", "gen-3", None);
        c.kind = "scoreboard-hazard".into();
        c.stage = "AssignScoreboards".into();
        let mut d = finding("d", "gen-4", None);
        d.kind = "timeout".into();
        d.occurrences = 5;
        r.findings = vec![a, b, c, d];
        let g = r.groups();
        let keys: Vec<String> = g.groups.iter().map(|x| x.key.line()).collect();
        assert_eq!(
            keys,
            ["OriCopyProp, wrong-code", "AssignScoreboards, hazard"]
        );
        // Three signatures folded into the first bug: 2 + 2 + 5 runs.
        assert_eq!(g.groups[0].members.len(), 3);
        assert_eq!(g.groups[0].count(), 9);
        assert_eq!(g.signatures(), 4);
        // One finding per bug first (a, c), then the folded ones.
        assert_eq!(r.reduction_order(), [0, 2, 1, 3]);
    }

    #[test]
    fn sizes_and_shown_ptx() {
        let f = finding("a", "gen-1", Some(1));
        assert_eq!(f.sizes(), "12 -> 1");
        assert_eq!(f.shown_ptx(), ("add.s32 %r1, %r2, 1;\n", 1, true));
        let g = finding("a", "gen-1", None);
        assert_eq!(g.sizes(), "12");
        assert_eq!(g.shown_ptx().0, g.original_ptx);
        assert_eq!(g.status(), "new");
    }
}
