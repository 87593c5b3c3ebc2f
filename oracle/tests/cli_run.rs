//! `ptxdiff run`: the generator-driven main job, and the real-kernel run
//! (`--corpus` / `--arch`).

mod common;
use common::ptxdiff_out as ptxdiff;

#[test]
fn the_default_run_checks_every_kernel_and_prints_a_verdict() {
    let (code, out, err) = ptxdiff(&["run", "--arch", "sm_80"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    // One line per corpus kernel, then the verdict.
    assert_eq!(lines.len(), 16 + 1, "{out}");
    assert!(lines[..16].iter().all(|l| !l.starts_with("verdict")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("matmul_tiled sm_80: AGREE")),
        "{out}"
    );
    let verdict = lines[16];
    assert!(verdict.starts_with("verdict: CLEAN: "), "{verdict}");
    assert!(verdict.contains(" 0 disagree"), "{verdict}");
}

#[test]
fn bad_arguments_exit_two() {
    assert_eq!(ptxdiff(&["run", "--bogus"]).0, 2);
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = ptxdiff(&["run", "--corpus", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no NAME/NAME.launch.json"), "{err}");
}

/// The report lines of a generator run without the timing line and the
/// header (which names the job count).
fn stable(out: &str) -> Vec<String> {
    out.lines()
        .skip(1)
        .filter(|l| !l.contains(" in ") || !l.contains("programs/s"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_generator_run_prints_progress_statistics_and_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let findings = dir.path().join("f");
    let args = [
        "run",
        "--count",
        "4",
        "--seed",
        "21",
        "--matrix",
        "fuzz",
        "--no-vendor",
        "--findings",
        findings.to_str().unwrap(),
    ];
    let (code, out, err) = ptxdiff(&args);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("ptxdiff run: seeds from 21, matrix 'fuzz' (2 configurations)"),
        "{out}"
    );
    assert!(
        out.contains("4 programs, 8 configuration runs in "),
        "{out}"
    );
    assert!(out.contains("\nverdicts: pass 8\n"), "{out}");
    assert_eq!(
        lines.last().unwrap(),
        &"verdict: CLEAN: 4 programs, 8 configuration runs, no disagreement with the oracle"
    );
    // Progress goes to stderr, with the rates.
    assert!(
        err.contains("4 programs, 8 runs (") && err.contains("runs/s"),
        "{err}"
    );
    // Deterministic: the same seeds give the same report, whatever the jobs.
    let mut one = args.to_vec();
    one.extend(["--jobs", "1"]);
    let (code1, out1, _) = ptxdiff(&one);
    assert_eq!(code1, 0);
    assert_eq!(stable(&out), stable(&out1));
}

#[test]
fn the_generator_run_measures_the_generator_with_stats() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = ptxdiff(&[
        "run",
        "--count",
        "20",
        "--matrix",
        "smoke",
        "--no-vendor",
        "--stats",
        "--findings",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let ub = out
        .lines()
        .find(|l| l.starts_with("generator: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        ub.starts_with("generator: 20 of 20 programs UB-free"),
        "{ub}"
    );
    // Each biased mode's peephole fires on at least 20% of its programs.
    for (mode, phase) in [
        ("nan_or_zero", "OptimizeNaNOrZero"),
        ("tex_nodep", "TexNodep"),
        ("hoist_invariants", "HoistInvariants"),
    ] {
        let l = out
            .lines()
            .find(|l| l.starts_with(&format!("bias {mode}: {phase} fired on ")))
            .unwrap_or_else(|| panic!("no {mode} line:\n{out}"));
        let n: u64 = l
            .split("fired on ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(n * 5 >= 60, "{l}");
    }
}

#[test]
fn generator_run_arguments_are_checked() {
    for bad in [
        &["run", "--seconds", "0"][..],
        &["run", "--count", "0"],
        &["run", "--seed", "x"],
        &["run", "--matrix", "nope", "--count", "1"],
    ] {
        let (code, _, err) = ptxdiff(bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.starts_with("ptxdiff run: "), "{err}");
    }
}
