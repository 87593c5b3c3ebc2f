//! Merging the shards of one night (`ptxdiff report merge`) into one
//! report.
//!
//! Rules (each chosen so the result does not depend on the order of the
//! inputs):
//! - the shards must be of one night: the same date, matrix and
//!   configuration list, every shard `I/N` with the same `N`, none twice;
//!   anything else is an error naming the difference and both shards;
//! - counts (programs, executions) and the verdict, fired, coverage and
//!   timing maps are summed, and so is `elapsed_s` (machine time, not wall
//!   time: the shards ran side by side);
//! - `jobs` is summed (the workers of all shards); `minutes` is the
//!   largest budget (the shards ran for it side by side); `seed` the
//!   smallest first seed;
//! - the shards are listed sorted by their number;
//! - findings are united by signature: occurrences summed, `known` ORed,
//!   and the representative (program, PTX, blame, ...) is the one with the
//!   smallest (reduced size, program), unreduced counting as larger than
//!   any reduced size, further ties broken by configuration, directory and
//!   then the whole record's JSON, so every order picks the same one.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use super::json::to_json;
use super::model::{FindingReport, NightlyReport, SCHEMA};

/// `I/N` as numbers.
fn shard_of(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("shard '{s}' is not I/N with 1 <= I <= N");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// A report's name in messages: its shards.
fn name(r: &NightlyReport) -> String {
    format!("shard {}", r.shards.join("+"))
}

fn check_same<T: PartialEq + std::fmt::Debug>(
    what: &str,
    first: &NightlyReport,
    a: &T,
    other: &NightlyReport,
    b: &T,
) -> Result<(), String> {
    if a == b {
        return Ok(());
    }
    Err(format!(
        "{} and {} are not of one night: {what} {b:?} differs from {a:?}",
        name(other),
        name(first)
    ))
}

/// The order of representatives (see the module comment).
fn representative_order(a: &FindingReport, b: &FindingReport) -> Ordering {
    let key = |f: &FindingReport| {
        (
            f.reduced_instructions.unwrap_or(usize::MAX),
            f.program.clone(),
            f.config.clone(),
            f.directory.clone(),
        )
    };
    key(a).cmp(&key(b)).then_with(|| {
        let one = |f: &FindingReport| {
            let mut r = NightlyReport::empty("", "");
            r.findings.push(f.clone());
            to_json(&r)
        };
        one(a).cmp(&one(b))
    })
}

fn add_map<V: Copy + std::ops::Add<Output = V>>(
    into: &mut BTreeMap<String, V>,
    from: &BTreeMap<String, V>,
) {
    for (k, &v) in from {
        into.entry(k.clone())
            .and_modify(|x| *x = *x + v)
            .or_insert(v);
    }
}

/// Merges the shard reports of one night (see the module comment).
pub fn merge(reports: &[NightlyReport]) -> Result<NightlyReport, String> {
    let Some(first) = reports.first() else {
        return Err("no reports to merge".into());
    };
    let mut shards: Vec<((u64, u64), &str, &NightlyReport)> = Vec::new();
    for r in reports {
        if r.schema != SCHEMA {
            return Err(format!(
                "{}: schema {} is not supported (this ptxdiff merges schema {SCHEMA})",
                name(r),
                r.schema
            ));
        }
        check_same("date", first, &first.date, r, &r.date)?;
        check_same("matrix", first, &first.matrix, r, &r.matrix)?;
        check_same("configurations", first, &first.configs, r, &r.configs)?;
        for s in &r.shards {
            let (i, n) = shard_of(s)?;
            if let Some((_, other, _)) = shards.iter().find(|((_, m), _, _)| *m != n) {
                return Err(format!("shards {other} and {s} are of different shardings"));
            }
            if shards.iter().any(|((j, _), _, _)| *j == i) {
                return Err(format!("shard {s} is merged twice"));
            }
            shards.push(((i, n), s, r));
        }
    }
    shards.sort_by_key(|(k, _, _)| *k);
    // f64 sums in shard order, so the rounding does not depend on the
    // input order either.
    let mut by_shard: Vec<&NightlyReport> = Vec::new();
    for (_, _, r) in &shards {
        if !by_shard.iter().any(|x| std::ptr::eq(*x, *r)) {
            by_shard.push(r);
        }
    }
    let mut out = NightlyReport::empty(&first.date, &first.matrix);
    out.configs = first.configs.clone();
    out.shards = shards.iter().map(|(_, s, _)| s.to_string()).collect();
    out.seed = reports.iter().map(|r| r.seed).min().unwrap_or(0);
    out.jobs = 0;
    let mut findings: BTreeMap<String, FindingReport> = BTreeMap::new();
    for r in by_shard {
        out.jobs += r.jobs;
        out.minutes = out.minutes.max(r.minutes);
        out.programs += r.programs;
        out.executions += r.executions;
        out.elapsed_s += r.elapsed_s;
        add_map(&mut out.verdicts, &r.verdicts);
        add_map(&mut out.fired, &r.fired);
        add_map(&mut out.coverage, &r.coverage);
        add_map(&mut out.timings, &r.timings);
        for f in &r.findings {
            match findings.get_mut(&f.signature) {
                None => {
                    findings.insert(f.signature.clone(), f.clone());
                }
                Some(have) => {
                    let occurrences = have.occurrences + f.occurrences;
                    let known = have.known || f.known;
                    if representative_order(f, have) == Ordering::Less {
                        *have = f.clone();
                    }
                    have.occurrences = occurrences;
                    have.known = known;
                }
            }
        }
    }
    out.findings = findings.into_values().collect();
    Ok(out)
}

/// The shards of the sharding that `r` lacks (`3/4` when 1, 2 and 4 were
/// merged): to warn that a merged report is partial.
pub fn missing_shards(r: &NightlyReport) -> Vec<String> {
    let Some(n) = r
        .shards
        .iter()
        .find_map(|s| shard_of(s).ok())
        .map(|(_, n)| n)
    else {
        return Vec::new();
    };
    (1..=n)
        .map(|i| format!("{i}/{n}"))
        .filter(|s| !r.shards.contains(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::tests::finding;

    fn shard(i: u64, n: u64) -> NightlyReport {
        let mut r = NightlyReport::empty("2026-11-23", "default");
        r.shards = vec![format!("{i}/{n}")];
        r.configs = vec!["ptxc sm_80 -O3 default".into()];
        r
    }

    #[test]
    fn shard_names() {
        assert_eq!(shard_of("3/4"), Ok((3, 4)));
        for bad in ["0/4", "5/4", "x/4", "3", "3/"] {
            assert!(shard_of(bad).is_err(), "{bad}");
        }
        let mut r = shard(1, 4);
        r.shards.push("4/4".into());
        assert_eq!(missing_shards(&r), ["2/4", "3/4"]);
        assert!(missing_shards(&shard(1, 1)).is_empty());
    }

    #[test]
    fn representative_is_the_smallest_reduced() {
        let a = finding("s", "gen-9", Some(4));
        let b = finding("s", "gen-1", Some(5));
        let c = finding("s", "gen-0", None);
        assert_eq!(representative_order(&a, &b), Ordering::Less);
        assert_eq!(representative_order(&b, &c), Ordering::Less);
        let mut d = a.clone();
        d.message.push('!');
        assert_ne!(representative_order(&a, &d), Ordering::Equal);
        assert_eq!(representative_order(&a, &a), Ordering::Equal);
    }

    #[test]
    fn two_shards_of_one_sharding_only() {
        let e = merge(&[shard(1, 4), shard(1, 4)]).unwrap_err();
        assert_eq!(e, "shard 1/4 is merged twice");
        let e = merge(&[shard(1, 4), shard(2, 3)]).unwrap_err();
        assert_eq!(e, "shards 1/4 and 2/3 are of different shardings");
        assert_eq!(merge(&[]).unwrap_err(), "no reports to merge");
    }
}
