//! `ptxdiff gen`: printing, writing programs that `ptxdiff interp` reruns,
//! `--gen-config` errors with positions, `--stats`, usage errors.

mod common;
use common::ptxdiff;

#[test]
fn written_programs_rerun_in_the_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out) = ptxdiff(&["gen", "--seed", "5", "--count", "2", "--out", d]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
    for seed in [5, 6] {
        let spec = dir.path().join(format!("gen_{seed}.launch.json"));
        assert!(dir.path().join(format!("gen_{seed}.ptx")).exists());
        let (code, out) = ptxdiff(&["interp", spec.to_str().unwrap()]);
        assert_eq!(code, 0, "seed {seed}: {out}");
        assert!(out.starts_with("gen_kernel:"), "{out}");
    }
    // the written module is the one `generate` makes
    let p = oracle::gen::generate(5, &oracle::gen::GenConfig::default());
    let text = std::fs::read_to_string(dir.path().join("gen_5.ptx")).unwrap();
    assert_eq!(text, p.ptx);
}

#[test]
fn printing_shows_module_and_spec() {
    let (code, out) = ptxdiff(&["gen", "--seed", "3"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("// gen_3: features "), "{out}");
    assert!(out.contains(".entry gen_kernel("), "{out}");
    assert!(out.contains("\"kernel\": \"gen_kernel\""), "{out}");
}

#[test]
fn a_bad_gen_config_names_file_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("cfg.json");
    std::fs::write(&f, "{\n  \"families\": {\"deny\": [\"warp\", 3]}\n}\n").unwrap();
    let (code, out) = ptxdiff(&["gen", "--gen-config", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    let want = format!(
        "ptxdiff gen: {}:2:33: families.deny[1]: expected a string, found a number",
        f.display()
    );
    assert!(out.starts_with(&want), "{out}\nwant: {want}");
}

#[test]
fn a_gen_config_file_changes_the_programs() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("cfg.json");
    std::fs::write(&f, "{\"mode\": \"tex_nodep\", \"block\": [[64]]}").unwrap();
    let (code, out) = ptxdiff(&["gen", "--seed", "1", "--gen-config", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("tex."), "{out}");
    assert!(out.contains("\"block\": [64]"), "{out}");
}

#[test]
fn stats_print_the_rates() {
    let (code, out) = ptxdiff(&["gen", "--count", "12", "--stats"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("programs: 12\n"), "{out}");
    assert!(
        out.contains("interpreter: 12 completed UB-free within fuel (100.000%)"),
        "{out}"
    );
    for a in ["sm_70", "sm_80", "sm_90"] {
        assert!(
            out.contains(&format!("ptxc -O0 lower {a}: 12 (100.000%)")),
            "{out}"
        );
    }
    assert!(out.contains("coverage"), "{out}");
    assert!(out.contains("programs/s"), "{out}");
}

#[test]
fn usage_errors_exit_two() {
    for args in [
        &["gen", "--bogus"][..],
        &["gen", "--seed"][..],
        &["gen", "--count", "many"][..],
        &["gen", "--gen-config", "/nonexistent/cfg.json"][..],
    ] {
        let (code, out) = ptxdiff(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.starts_with("ptxdiff gen: "), "{out}");
    }
}
