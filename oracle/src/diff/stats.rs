//! Run statistics: programs and configuration runs (executions), verdict
//! counts, per-phase fired counts summed over every compilation
//! (`PhaseContext::fired`), per-rule peephole counts and the programs each
//! rule fired in (`PhaseContext::rules`), generator feature coverage,
//! findings, and the rates.

use std::collections::BTreeMap;
use std::time::Duration;

use ptxc::phases::phase::rules_of;
use ptxc::phases::table::name_of;

use super::engine::ProgramReport;
use super::findings::Settled;
use super::verdict::VerdictKind;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub programs: u64,
    /// Configuration runs (compile + simulate), the oracle's not counted.
    pub execs: u64,
    /// Per verdict kind: configurations, plus one `oracle-ub` per invalid
    /// program.
    pub verdicts: BTreeMap<VerdictKind, u64>,
    /// Per phase index: rewrites over every compilation.
    pub fired: BTreeMap<u16, u64>,
    /// Per (phase index, peephole rule name): rewrites over every
    /// compilation.
    pub rules: BTreeMap<(u16, &'static str), u64>,
    /// Per (phase index, peephole rule name): programs in which the rule
    /// fired in at least one configuration.
    pub rule_programs: BTreeMap<(u16, &'static str), u64>,
    /// Per generator feature: programs that have it.
    pub features: BTreeMap<String, u64>,
    pub findings_new: u64,
    pub findings_duplicate: u64,
    pub elapsed: Duration,
}

impl Stats {
    /// Adds one program's report.
    pub fn add(&mut self, r: &ProgramReport) {
        self.programs += 1;
        for f in &r.features {
            *self.features.entry(f.clone()).or_insert(0) += 1;
        }
        if let Err(v) = &r.oracle {
            *self.verdicts.entry(v.kind).or_insert(0) += 1;
        }
        let mut fired_here = std::collections::BTreeSet::new();
        for c in &r.configs {
            for (&k, &n) in &c.rules {
                *self.rules.entry(k).or_insert(0) += n;
                fired_here.insert(k);
            }
        }
        for k in fired_here {
            *self.rule_programs.entry(k).or_insert(0) += 1;
        }
        for c in &r.configs {
            self.execs += 1;
            *self.verdicts.entry(c.verdict.kind).or_insert(0) += 1;
            for (&i, &n) in &c.fired {
                *self.fired.entry(i).or_insert(0) += n;
            }
            match &c.settled {
                Some(Settled::New(_)) => self.findings_new += 1,
                Some(Settled::Duplicate { .. }) => self.findings_duplicate += 1,
                None => {}
            }
        }
    }

    /// The per-rule lines of phase `index`: for each rule of its table
    /// (`ptxc::phases::phase::rules_of`, fired or not), the rewrites and
    /// the share of the programs in which it fired, each line prefixed by
    /// `prefix`.
    pub fn rule_lines(&self, index: u16, prefix: &str) -> Vec<String> {
        rules_of(index)
            .iter()
            .map(|r| {
                let k = (index, r.name);
                let n = self.rules.get(&k).copied().unwrap_or(0);
                let p = self.rule_programs.get(&k).copied().unwrap_or(0);
                format!(
                    "{prefix}{}/{}: {n} rewrites, fired in {p} of {} programs ({:.1}%)",
                    name_of(index),
                    r.name,
                    self.programs,
                    self.rule_rate(index, r.name)
                )
            })
            .collect()
    }

    /// The percentage of the programs in which rule `rule` of phase
    /// `index` fired.
    pub fn rule_rate(&self, index: u16, rule: &str) -> f64 {
        let p = self
            .rule_programs
            .iter()
            .find(|((i, n), _)| *i == index && *n == rule)
            .map_or(0, |(_, &p)| p);
        100.0 * p as f64 / self.programs.max(1) as f64
    }

    pub fn count(&self, k: VerdictKind) -> u64 {
        self.verdicts.get(&k).copied().unwrap_or(0)
    }

    /// Failing configurations.
    pub fn failures(&self) -> u64 {
        self.verdicts
            .iter()
            .filter(|(k, _)| k.is_failure())
            .map(|(_, n)| n)
            .sum()
    }

    fn rate(&self, n: u64) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            n as f64 / s
        } else {
            0.0
        }
    }

    pub fn programs_per_second(&self) -> f64 {
        self.rate(self.programs)
    }

    pub fn execs_per_second(&self) -> f64 {
        self.rate(self.execs)
    }

    /// The report lines.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "{} programs, {} configuration runs in {:.3} s: {:.1} programs/s, {:.1} execs/s",
            self.programs,
            self.execs,
            self.elapsed.as_secs_f64(),
            self.programs_per_second(),
            self.execs_per_second()
        )];
        let v: Vec<String> = self
            .verdicts
            .iter()
            .map(|(k, n)| format!("{} {n}", k.name()))
            .collect();
        out.push(format!("verdicts: {}", v.join(", ")));
        out.push(format!(
            "findings: {} new, {} duplicates",
            self.findings_new, self.findings_duplicate
        ));
        if !self.fired.is_empty() {
            let f: Vec<String> = self
                .fired
                .iter()
                .map(|(&i, n)| format!("{} {n}", name_of(i)))
                .collect();
            out.push(format!("fired: {}", f.join(", ")));
        }
        if !self.rules.is_empty() {
            let f: Vec<String> = self
                .rules
                .iter()
                .map(|(&(i, r), n)| {
                    let p = self.rule_programs.get(&(i, r)).copied().unwrap_or(0);
                    format!("{}/{r} {n} ({p} programs)", name_of(i))
                })
                .collect();
            out.push(format!("rules: {}", f.join(", ")));
        }
        if !self.features.is_empty() {
            let f: Vec<String> = self
                .features
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            out.push(format!("features: {}", f.join(", ")));
        }
        out
    }
}
