//! The minimized regressions in `corpus/regressions/NAME/` (every directory
//! but `open/`, which holds findings not yet explained). Each holds
//! `NAME.ptx` and `NAME.launch.json`, optionally `NAME.expected.json`
//! (host-computed) and `NAME.sm_XX.sass` (ptxas 11.8 listings). For each:
//! the interpreter matches the expected results; every ptxc configuration
//! of the `default` matrix agrees with the interpreter; every committed
//! vendor listing, run in the simulator, agrees with the interpreter too.
//! With NVIDIA's ptxas installed, a fresh vendor compile is checked as well.

use std::path::{Path, PathBuf};

use oracle::diff::run::run_oracle;
use oracle::diff::{check_program, vendor, Matrix, Options, Program, VerdictKind};
use oracle::ptx_interp::RunLimits;

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

#[test]
fn every_ptxc_configuration_agrees_with_the_interpreter() {
    let matrix = Matrix::preset("default", false).unwrap();
    let opts = Options {
        blame: false,
        ..Options::default()
    };
    for p in programs() {
        all_pass(&p, &matrix, &opts);
    }
}

/// Runs `matrix` on `p` and requires every configuration to pass.
fn all_pass(p: &Program, matrix: &Matrix, opts: &Options) {
    let report = check_program(p, matrix, opts);
    let failures: Vec<String> = report
        .failures()
        .map(|c| format!("{}: {}", c.config.label(), c.verdict.message))
        .collect();
    assert!(failures.is_empty(), "{}:\n{}", p.name, failures.join("\n"));
    assert_eq!(report.configs.len(), matrix.configs.len(), "{}", p.name);
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
        all_pass(&p, &matrix, &opts);
    }
}
