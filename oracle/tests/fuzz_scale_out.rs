//! The scale-out configuration stays in step with the code: ClusterFuzzLite's
//! build.sh builds exactly the cargo-fuzz targets of fuzz/Cargo.toml, each
//! with a committed seed corpus, and the nightly workflow's shard count and
//! commands match what ptxdiff offers.

mod common;

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The `name` of each `[[bin]]` table of fuzz/Cargo.toml.
fn fuzz_targets() -> Vec<String> {
    let toml = read("fuzz/Cargo.toml");
    let mut out = Vec::new();
    let mut in_bin = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(v) = line.strip_prefix("name").map(str::trim) {
            if in_bin {
                let v = v.strip_prefix('=').unwrap().trim();
                out.push(v.trim_matches('"').to_string());
                in_bin = false;
            }
        }
    }
    out
}

#[test]
fn clusterfuzzlite_builds_every_fuzz_target_with_its_seeds() {
    let targets = fuzz_targets();
    assert!(targets.contains(&"parse".to_string()), "{targets:?}");
    let out = Command::new("bash")
        .arg(root().join(".clusterfuzzlite/build.sh"))
        .arg("--list-targets")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(listed, targets);
    for t in &targets {
        let seeds = root().join("corpus").join(t);
        let n = std::fs::read_dir(&seeds)
            .unwrap_or_else(|e| panic!("{}: {e}", seeds.display()))
            .count();
        assert!(n > 0, "{} is empty", seeds.display());
        // the fuzz target's source exists where fuzz/Cargo.toml says
        assert!(read("fuzz/Cargo.toml").contains(&format!("path = \"fuzz_targets/{t}.rs\"")));
    }
    assert_eq!(
        read(".clusterfuzzlite/project.yaml").trim(),
        "language: rust"
    );
    let docker = read(".clusterfuzzlite/Dockerfile");
    assert!(docker.contains("FROM gcr.io/oss-fuzz-base/base-builder-rust"));
    assert!(docker.contains("COPY .clusterfuzzlite/build.sh $SRC/"));
}

#[test]
fn nightly_workflow_matches_ptxdiff() {
    let wf = read(".github/workflows/nightly.yml");
    let matrix = wf
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .expect("the shard matrix");
    let shards: Vec<u32> = matrix
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let n = shards.len() as u32;
    assert_eq!(shards, (1..=n).collect::<Vec<_>>());
    assert!(
        wf.contains(&format!("  SHARDS: {n}\n")),
        "SHARDS differs from the matrix"
    );
    assert!(
        wf.contains("-shard-*"),
        "the merge job downloads every shard"
    );
    assert!(wf.contains("report merge \"reports/$DATE\" shards/*/"));
    // the commands the workflow runs are ptxdiff's
    let (code, usage) = common::ptxdiff(&["help"]);
    assert_eq!(code, 0);
    assert!(
        usage.contains("\n  report merge OUT_DIR SHARD_DIR...\n"),
        "{usage}"
    );
}
