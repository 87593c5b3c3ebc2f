//! `ptxdiff report merge OUT_DIR SHARD_DIR...`: reads each shard
//! directory's `summary.json`, merges them (`report::merge`: one night's
//! shards only) and writes `summary.json`, `summary.md` and `index.html`
//! into `OUT_DIR`. Every error (usage, an unreadable or invalid
//! `summary.json`, shards of different nights) is a message naming the
//! file or the difference; the binary exits 2 on it.

use std::path::{Path, PathBuf};

use crate::report::merge::{merge, missing_shards};
use crate::report::write::{read_report, write_report};

/// `report merge`'s arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeArgs {
    pub out: PathBuf,
    pub shards: Vec<PathBuf>,
}

/// Parses the arguments after `report`.
pub fn parse_args(args: &[String]) -> Result<MergeArgs, String> {
    match args.first().map(String::as_str) {
        Some("merge") => {}
        Some(other) => return Err(format!("unknown report command '{other}' (try 'merge')")),
        None => return Err("needs a command: merge OUT_DIR SHARD_DIR...".into()),
    }
    if let Some(opt) = args[1..].iter().find(|a| a.starts_with('-')) {
        return Err(format!("merge: unknown option '{opt}'"));
    }
    match &args[1..] {
        [out, shards @ ..] if !shards.is_empty() => Ok(MergeArgs {
            out: out.into(),
            shards: shards.iter().map(PathBuf::from).collect(),
        }),
        _ => Err("merge needs OUT_DIR and at least one SHARD_DIR".into()),
    }
}

/// Runs `report merge`; returns the lines to print (what was merged, and
/// a warning line for each shard of the sharding that is missing).
pub fn run_merge(a: &MergeArgs) -> Result<Vec<String>, String> {
    let reports = a
        .shards
        .iter()
        .map(|d| read_report(d))
        .collect::<Result<Vec<_>, String>>()?;
    let merged = merge(&reports)?;
    write_report(&a.out, &merged)
        .map_err(|e| format!("cannot write the report to '{}': {e}", a.out.display()))?;
    let mut lines = vec![format!(
        "merged {} report(s) (shards {}) into {}: {} programs, {} executions, {} failing configuration(s), {} finding(s), {} new",
        reports.len(),
        merged.shards.join(", "),
        Path::new(&a.out).display(),
        merged.programs,
        merged.executions,
        merged.total_failures(),
        merged.findings.len(),
        merged.new_findings().count()
    )];
    for s in missing_shards(&merged) {
        lines.push(format!(
            "warning: shard {s} is missing; the report is partial"
        ));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn usage_errors() {
        assert_eq!(
            parse_args(&args(&["merge", "out", "a", "b"])).unwrap(),
            MergeArgs {
                out: "out".into(),
                shards: vec!["a".into(), "b".into()]
            }
        );
        assert!(parse_args(&args(&[]))
            .unwrap_err()
            .contains("needs a command"));
        assert!(parse_args(&args(&["render"]))
            .unwrap_err()
            .contains("'render'"));
        assert!(parse_args(&args(&["merge", "out"]))
            .unwrap_err()
            .contains("at least one"));
        assert!(parse_args(&args(&["merge", "--x", "a"]))
            .unwrap_err()
            .contains("'--x'"));
    }
}
