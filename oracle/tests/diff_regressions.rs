//! The minimized regressions in `corpus/regressions/NAME/` (every directory
//! but `open/`, which holds findings not yet explained). Each holds
//! `NAME.ptx` and `NAME.launch.json`, optionally `NAME.expected.json`
//! (host-computed) and `NAME.sm_XX.sass` (ptxas 11.8 listings). For each:
//! the interpreter matches the expected results; every ptxc configuration
//! of the `default` matrix agrees with the interpreter; every committed
//! vendor listing, run in the simulator, agrees with the interpreter too.
//! With NVIDIA's ptxas installed, a fresh vendor compile is checked as well.
//!
//! An open bug (`ptxdiff promote`) also has `NAME.verdict.json`, its
//! expected verdict: the configuration named there must still fail with
//! the signature named there, and every configuration of the matrix must
//! pass or fail with that same signature. `known.json` lists exactly the
//! open bugs' signatures.

use std::path::{Path, PathBuf};

use oracle::diff::known::Known;
use oracle::diff::run::run_oracle;
use oracle::diff::{
    check_program, run_config, vendor, Config, Matrix, Options, Program, VerdictKind,
};
use oracle::ptx_interp::RunLimits;
use oracle::reduce::predicate::signature_of;

fn regressions() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/regressions")
}

fn programs() -> Vec<Program> {
    let progs = Program::corpus(&regressions(), &["ptx"]).expect("the regressions load");
    assert!(progs.len() >= 4, "only {} regressions", progs.len());
    progs
}

/// `corpus/regressions/NAME/`.
fn dir_of(p: &Program) -> PathBuf {
    let name = p.name.strip_suffix(".ptx").expect("NAME.ptx");
    regressions().join(name)
}

#[test]
fn every_regression_directory_is_loaded() {
    let names: Vec<String> = programs().iter().map(|p| p.name.clone()).collect();
    let dirs = std::fs::read_dir(regressions())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir() && e.file_name() != "open")
        .count();
    assert_eq!(
        names.len(),
        dirs,
        "a directory without NAME.launch.json: {names:?}"
    );
}

#[test]
fn the_interpreter_matches_the_expected_results() {
    let mut checked = 0;
    for p in programs() {
        let dir = dir_of(&p);
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let spec = dir.join(format!("{name}.launch.json"));
        if !dir.join(format!("{name}.expected.json")).exists() {
            continue;
        }
        let v = oracle::commands::interp::interp(&spec, None, None, &RunLimits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.ok, "{name}: {}", v.line);
        checked += 1;
    }
    assert!(
        checked >= 3,
        "only {checked} regressions have expected results"
    );
}

/// An open bug's expected verdict: (configuration label, signature slug).
fn expected_verdict(p: &Program) -> Option<(String, String)> {
    let dir = dir_of(p);
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let path = dir.join(format!("{name}.verdict.json"));
    if !path.exists() {
        return None;
    }
    Some(oracle::commands::promote::read_verdict(&path).unwrap())
}

#[test]
fn every_ptxc_configuration_agrees_with_the_interpreter() {
    let matrix = Matrix::preset("default", false).unwrap();
    for p in programs() {
        let open = expected_verdict(&p).map(|(_, sig)| sig);
        let opts = Options {
            // An open bug's failures must carry its signature.
            blame: open.is_some(),
            ..Options::default()
        };
        all_pass(&p, &matrix, &opts, open.as_deref());
    }
}

/// Runs `matrix` on `p` and requires every configuration to pass, or, for
/// an open bug, to fail with its signature `open`.
fn all_pass(p: &Program, matrix: &Matrix, opts: &Options, open: Option<&str>) {
    let report = check_program(p, matrix, opts);
    let failures: Vec<String> = report
        .failures()
        .filter(|c| open.is_none() || c.signature.as_ref().map(|s| s.slug()).as_deref() != open)
        .map(|c| format!("{}: {}", c.config.label(), c.verdict.message))
        .collect();
    assert!(failures.is_empty(), "{}:\n{}", p.name, failures.join("\n"));
    assert_eq!(report.configs.len(), matrix.configs.len(), "{}", p.name);
}

#[test]
fn open_bugs_still_fail_with_their_signature() {
    let limits = RunLimits::default();
    let mut open = Vec::new();
    for p in programs() {
        let Some((label, sig)) = expected_verdict(&p) else {
            continue;
        };
        let cfg = Config::parse(&label).unwrap();
        let oracle =
            run_oracle(&p, &limits).unwrap_or_else(|v| panic!("{}: {}", p.name, v.message));
        let v = run_config(&p, &oracle, &cfg, &limits).verdict;
        assert!(v.is_failure(), "{}: '{label}' passes now: the bug is fixed? Delete its verdict.json and known.json entry", p.name);
        let got = signature_of(&p, &oracle, &cfg, &v, &limits).slug();
        assert_eq!(got, sig, "{}: fails differently under '{label}'", p.name);
        open.push((
            sig,
            dir_of(&p)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
        ));
    }
    // known.json lists exactly the open bugs.
    let known = Known::read(&regressions().join("known.json")).unwrap();
    open.sort();
    let listed: Vec<(String, String)> = known.0.into_iter().collect();
    assert_eq!(listed, open);
}

fn committed_listings(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter_map(|path| {
            let n = path.file_name()?.to_str()?.to_owned();
            let arch = n.strip_suffix(".sass")?.rsplit('.').next()?.to_owned();
            Some((path, arch))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn committed_vendor_listings_agree_with_the_interpreter() {
    let limits = RunLimits::default();
    let mut checked = 0;
    for p in programs() {
        let oracle =
            run_oracle(&p, &limits).unwrap_or_else(|v| panic!("{}: {}", p.name, v.message));
        for (path, arch) in committed_listings(&dir_of(&p)) {
            let sm = ptxc::targets::lookup_sm(&arch).unwrap_or_else(|| panic!("{path:?}"));
            let sass = std::fs::read_to_string(&path).unwrap();
            let v = vendor::judge_listing(&p, &oracle, sm, &sass, &limits);
            assert_eq!(
                v.kind,
                VerdictKind::Pass,
                "{}: {}",
                path.display(),
                v.message
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} committed listings");
}

#[test]
fn a_fresh_vendor_compile_agrees_with_the_interpreter() {
    if !vendor::available() {
        eprintln!(
            "skipped: NVIDIA's ptxas/cuobjdump are not installed (scripts/install-toolchains.sh)"
        );
        return;
    }
    let matrix = Matrix::new(
        "vendor",
        ["sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
            .iter()
            .map(|a| oracle::diff::Config::vendor(ptxc::targets::lookup_sm(a).unwrap(), 3))
            .collect(),
    );
    let opts = Options {
        blame: false,
        ..Options::default()
    };
    for p in programs() {
        all_pass(
            &p,
            &matrix,
            &opts,
            expected_verdict(&p).map(|(_, s)| s).as_deref(),
        );
    }
}
