//! `ptxdiff reduce` and `ptxdiff interesting` from the command line, with
//! `--cmd` predicates (ptxc has no bug to reduce in a production build):
//! the result written beside the original (which is left alone) with its
//! sizes, every kept candidate a defined program, the C-Vise script, and
//! the errors.

mod common;
use common::ptxdiff;

use std::path::{Path, PathBuf};

/// A generated program written as `gen_S.ptx` + `gen_S.launch.json`.
fn generated(dir: &Path, seed: u64) -> (PathBuf, PathBuf) {
    let (code, out) = ptxdiff(&[
        "gen",
        "--seed",
        &seed.to_string(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    (
        dir.join(format!("gen_{seed}.ptx")),
        dir.join(format!("gen_{seed}.launch.json")),
    )
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    p
}

/// PTX instructions in a module, counted by the reducer's own measure.
fn instructions(ptx: &str, launch: &Path) -> usize {
    let spec = oracle::launch::LaunchSpec::from_file(launch).unwrap();
    oracle::reduce::Case::parse("t.ptx", ptx, spec)
        .unwrap()
        .size()
        .instructions
}

#[test]
fn a_cmd_predicate_reduces_to_what_it_asks_for_and_leaves_the_original() {
    let dir = tempfile::tempdir().unwrap();
    let (ptx, launch) = generated(dir.path(), 1);
    let original = std::fs::read_to_string(&ptx).unwrap();
    // Interesting: the program still multiplies.
    let s = script(dir.path(), "mul.sh", "grep -q 'mul.lo.u32' \"$1\"");
    let (code, out) = ptxdiff(&[
        "reduce",
        "--ptx",
        ptx.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
        "--cmd",
        s.to_str().unwrap(),
        "--quiet",
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(&ptx).unwrap(),
        original,
        "the original is never modified"
    );
    let out_dir = dir.path().join("gen_1.reduced");
    assert!(out.contains(&out_dir.display().to_string()), "{out}");
    let reduced = std::fs::read_to_string(out_dir.join("program.ptx")).unwrap();
    assert!(reduced.contains("mul.lo.u32"), "{reduced}");
    // Only what a defined program needs around the multiply is left.
    let (after, before) = (
        instructions(&reduced, &launch),
        instructions(&original, &launch),
    );
    assert!(after <= 3, "{reduced}");
    assert!(after < before);
    // The result reruns in the interpreter against its own expected file.
    let (code, run) = ptxdiff(&[
        "interp",
        out_dir.join("program.launch.json").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{run}\n{reduced}");
    let summary = std::fs::read_to_string(out_dir.join("reduce.json")).unwrap();
    assert!(summary.contains("\"predicate\": \"cmd\""), "{summary}");
    assert!(
        summary.contains(&format!("\"instructions\": {before}")),
        "{summary}"
    );
    assert!(
        summary.contains(&format!("\"instructions\": {after}")),
        "{summary}"
    );
}

#[test]
fn an_always_true_predicate_still_ends_at_a_defined_program() {
    let dir = tempfile::tempdir().unwrap();
    let (ptx, launch) = generated(dir.path(), 2);
    let s = script(dir.path(), "yes.sh", "exit 0");
    let out_dir = dir.path().join("out");
    let (code, out) = ptxdiff(&[
        "reduce",
        "--ptx",
        ptx.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
        "--cmd",
        s.to_str().unwrap(),
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    // Nothing is interesting beyond validity, so only validity bounds it:
    // the interpreter must still run the result without undefined
    // behaviour.
    let (code, run) = ptxdiff(&[
        "interp",
        out_dir.join("program.launch.json").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{run}");
    let reduced = std::fs::read_to_string(out_dir.join("program.ptx")).unwrap();
    assert!(instructions(&reduced, &launch) <= 1, "{reduced}");
}

#[test]
fn interesting_judges_one_program_and_the_cvise_script_calls_it() {
    let dir = tempfile::tempdir().unwrap();
    let (ptx, launch) = generated(dir.path(), 1);
    let s = script(dir.path(), "mul.sh", "grep -q 'mul.lo.u32' \"$1\"");
    let args = |p: &Path| {
        vec![
            "interesting".to_string(),
            "--ptx".into(),
            p.display().to_string(),
            "--launch".into(),
            launch.display().to_string(),
            "--config".into(),
            "ptxc sm_80 -O0 default".into(),
            "--cmd".into(),
            s.display().to_string(),
        ]
    };
    let run = |p: &Path| {
        let a = args(p);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        ptxdiff(&a)
    };
    assert_eq!(run(&ptx).0, 0);
    let text = std::fs::read_to_string(&ptx).unwrap();
    let without = dir.path().join("no_mul.ptx");
    std::fs::write(&without, text.replace("mul.lo.u32", "add.u32")).unwrap();
    let (code, why) = run(&without);
    assert_eq!(code, 1, "{why}");
    // Racy or broken PTX is never interesting, whatever the script says.
    let broken = dir.path().join("broken.ptx");
    std::fs::write(&broken, text.replace("ret;", "ret")).unwrap();
    let (code, why) = run(&broken);
    assert_eq!(code, 1, "{why}");
    assert!(why.contains("not a defined program"), "{why}");

    // The C-Vise script runs the same judgement on program.ptx in its
    // working directory.
    let script_path = dir.path().join("cvise").join("interesting.sh");
    std::fs::create_dir_all(script_path.parent().unwrap()).unwrap();
    let (code, out) = ptxdiff(&[
        "reduce",
        "--ptx",
        ptx.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
        "--cmd",
        s.to_str().unwrap(),
        "--emit-cvise-script",
        script_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(script_path.with_extension("launch.json").exists());
    let work = tempfile::tempdir().unwrap();
    std::fs::copy(&ptx, work.path().join("program.ptx")).unwrap();
    let status = |w: &Path| {
        std::process::Command::new(&script_path)
            .current_dir(w)
            .status()
            .unwrap()
    };
    assert!(status(work.path()).success());
    std::fs::copy(&without, work.path().join("program.ptx")).unwrap();
    assert!(!status(work.path()).success());
}

#[test]
fn errors_name_the_problem() {
    let (code, out) = ptxdiff(&["reduce"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("give a finding directory"), "{out}");
    let (code, out) = ptxdiff(&["reduce", "/nonexistent/finding"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("/nonexistent/finding"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let (ptx, launch) = generated(dir.path(), 1);
    let (code, out) = ptxdiff(&[
        "reduce",
        "--ptx",
        ptx.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
        "--predicate",
        "sometimes",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unknown predicate 'sometimes'"), "{out}");
    // A program that passes has no signature to keep.
    let (code, out) = ptxdiff(&[
        "reduce",
        "--ptx",
        ptx.to_str().unwrap(),
        "--launch",
        launch.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not fail"), "{out}");
}
