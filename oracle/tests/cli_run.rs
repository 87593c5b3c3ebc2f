//! `ptxdiff run`: the differential run on the built-in default (the corpus).

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
