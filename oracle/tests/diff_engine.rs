//! The differential engine without planted bugs: `ptxdiff diff` on small
//! programs and the corpus, invalid programs, the vendor configuration,
//! the command line's errors. (The planted-bug acceptance test is
//! `diff_planted.rs`.)

mod common;
use common::ptxdiff_out as ptxdiff;

use std::path::{Path, PathBuf};

use oracle::diff::{check_program, Config, Matrix, Options, Program, VerdictKind};

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff_programs")
}

fn spec(name: &str) -> String {
    programs_dir()
        .join(format!("{name}.launch.json"))
        .display()
        .to_string()
}

fn matrix(labels: &[&str]) -> Matrix {
    Matrix::new(
        "test",
        labels.iter().map(|l| Config::parse(l).unwrap()).collect(),
    )
}

#[test]
fn diff_prints_a_verdict_per_configuration_and_the_statistics() {
    let (code, out, err) = ptxdiff(&[
        "diff",
        "--launch",
        &spec("cmp_sel"),
        "--config",
        "ptxc sm_70 -O0 default",
        "--config",
        "ptxc sm_90 -O3 reorder:5 maxrreg=24",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].ends_with("cmp_sel.ptx: 2 configurations, 0 failing"),
        "{out}"
    );
    assert_eq!(
        lines[1],
        "  ptxc sm_70 -O0 default: pass: outputs match the oracle"
    );
    assert_eq!(
        lines[2],
        "  ptxc sm_90 -O3 reorder:5 maxrreg=24: pass: outputs match the oracle"
    );
    assert!(
        lines[3].starts_with("1 programs, 2 configuration runs in "),
        "{out}"
    );
    assert_eq!(lines[4], "verdicts: pass 2");
    assert_eq!(lines[5], "findings: 0 new, 0 duplicates");
}

#[test]
fn an_invalid_program_is_counted_against_the_generator() {
    let p = Program::from_files(Path::new(&spec("oob_read")), None).unwrap();
    let r = check_program(
        &p,
        &matrix(&["ptxc sm_80 -O3 default"]),
        &Options::default(),
    );
    let v = r.oracle.unwrap_err();
    assert_eq!(v.kind, VerdictKind::OracleUb);
    assert!(
        v.message.contains("outside every allocation"),
        "{}",
        v.message
    );
    assert!(r.configs.is_empty());
    // Not a failure of the compiler: exit 0.
    let (code, out, _) = ptxdiff(&["diff", "--launch", &spec("oob_read"), "--matrix", "smoke"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verdicts: oracle-ub 1"), "{out}");
    // A program that does not parse is invalid the same way.
    let mut bad = p.clone();
    bad.ptx = bad.ptx.replace("ld.global.u32", "ld.global.bogus");
    let r = check_program(
        &bad,
        &matrix(&["ptxc sm_80 -O3 default"]),
        &Options::default(),
    );
    let v = r.oracle.unwrap_err();
    assert_eq!(v.kind, VerdictKind::OracleUb);
    assert!(v.message.starts_with("invalid PTX: "), "{}", v.message);
}

#[test]
fn corpus_kernels_pass_a_small_matrix() {
    // Two real kernels, LLVM -O3 and -O0 forms, the oldest and newest
    // target, both ends of the -O range, a reorder and an ORI shuffle.
    let dir = tempfile::tempdir().unwrap();
    for k in ["int_bitops", "warp_vote_xor"] {
        let src = common::kernels().join(k);
        let dst = dir.path().join(k);
        std::fs::create_dir(&dst).unwrap();
        for f in ["launch.json", "ptx", "O0.ptx"] {
            std::fs::copy(src.join(format!("{k}.{f}")), dst.join(format!("{k}.{f}"))).unwrap();
        }
    }
    let programs = Program::corpus(dir.path(), &["ptx", "O0.ptx"]).unwrap();
    let names: Vec<&str> = programs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "int_bitops.ptx",
            "int_bitops.O0.ptx",
            "warp_vote_xor.ptx",
            "warp_vote_xor.O0.ptx"
        ]
    );
    let m = matrix(&[
        "ptxc sm_70 -O0 default",
        "ptxc sm_90 -O3 default",
        "ptxc sm_80 -O2 reorder:11",
        "ptxc sm_75 -O3 knob:ori=shuffle,reps=2,swap1=3,swap2=5,dce1=2,cpy1=1",
    ]);
    let engine = oracle::diff::Engine::new(m, Options::default()).unwrap();
    let mut kinds = Vec::new();
    let stats = engine
        .run(programs, |r| {
            kinds.extend(r.configs.iter().map(|c| (r.name.clone(), c.verdict.kind)))
        })
        .unwrap();
    assert!(
        kinds.iter().all(|(_, k)| *k == VerdictKind::Pass),
        "{kinds:?}"
    );
    assert_eq!(kinds.len(), 16);
    assert_eq!((stats.programs, stats.execs), (4, 16));
    assert_eq!(stats.count(VerdictKind::Pass), 16);
    // The dead-code phases fired (the -O0 PTX has dead code for them).
    assert!(stats
        .fired
        .keys()
        .any(|&i| ptxc::phases::table::name_of(i).contains("LiveDead")));
}

#[test]
fn the_vendor_configuration_runs_when_ptxas_is_installed() {
    let m = Matrix::preset("default", true).unwrap();
    assert!(m
        .configs
        .iter()
        .any(|c| c.label() == "vendor sm_80 -O3 default"));
    if oracle::diff::vendor::available() {
        let p = Program::from_files(Path::new(&spec("cmp_sel")), None).unwrap();
        let r = check_program(
            &p,
            &matrix(&["vendor sm_86 -O3 default"]),
            &Options::default(),
        );
        assert_eq!(
            r.configs[0].verdict.kind,
            VerdictKind::Pass,
            "{:?}",
            r.configs[0].verdict
        );
    } else {
        eprintln!("ptxas is not installed: checking that --vendor is refused");
        let (code, _, err) = ptxdiff(&["diff", "--launch", &spec("cmp_sel"), "--vendor"]);
        assert_eq!(code, 2);
        assert!(err.contains("not installed"), "{err}");
        assert!(!Matrix::preset("default", false)
            .unwrap()
            .configs
            .iter()
            .any(|c| c.compiler == oracle::diff::Compiler::Vendor));
    }
}

#[test]
fn bad_arguments_exit_two() {
    let s = spec("cmp_sel");
    for (args, want) in [
        (vec!["diff"], "give either --launch"),
        (
            vec!["diff", "--launch", &s, "--matrix", "huge"],
            "unknown matrix 'huge'",
        ),
        (
            vec!["diff", "--launch", &s, "--config", "ptxc sm_80 -O9 default"],
            "bad level",
        ),
        (
            vec!["diff", "--launch", &s, "--bogus"],
            "unknown option '--bogus'",
        ),
        (
            vec!["diff", "--launch", &s, "--jobs"],
            "--jobs needs a value",
        ),
        (
            vec!["diff", "--launch", "/nonexistent.launch.json"],
            "cannot read",
        ),
    ] {
        let (code, out, err) = ptxdiff(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Workers pull programs one at a time and finish out of order (a large
/// program first, small ones after it); the reports still come in program
/// order, with the same verdicts as one job.
#[test]
fn reports_come_in_program_order_whatever_finishes_first() {
    use oracle::commands::fuzz_run::program_of;
    use oracle::gen::{generate, GenConfig};
    let mut big = GenConfig {
        swarm: false,
        ..GenConfig::default()
    };
    big.sizes.stmts = 80;
    big.sizes.depth = 4;
    big.sizes.dyn_insts = 2000;
    let small = GenConfig::default();
    let mut programs = vec![program_of(generate(7, &big), 7)];
    programs.extend((100..112).map(|s| program_of(generate(s, &small), s)));
    let want: Vec<String> = programs.iter().map(|p| p.name.clone()).collect();
    let m = matrix(&["ptxc sm_80 -O3 default"]);
    let mut seen = Vec::new();
    for jobs in [1, 2] {
        let engine = oracle::diff::Engine::new(
            m.clone(),
            Options {
                jobs,
                ..Options::default()
            },
        )
        .unwrap();
        let mut got = Vec::new();
        let stats = engine
            .run(programs.clone(), |r| {
                got.push((r.name.clone(), r.configs[0].verdict.kind))
            })
            .unwrap();
        assert_eq!(stats.programs, want.len() as u64);
        let names: Vec<&String> = got.iter().map(|(n, _)| n).collect();
        assert_eq!(names, want.iter().collect::<Vec<_>>(), "jobs {jobs}");
        seen.push(got);
    }
    assert_eq!(seen[0], seen[1]);
}
