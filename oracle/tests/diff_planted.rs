//! The planted-bug acceptance test of the differential engine: through
//! ptxc's test-only hook (feature `test-hooks`, enabled from this crate's
//! dev-dependencies; no production flag reaches it) one phase is made to
//! miscompile (flip the first ISETP's comparison), and the engine must find
//! the failure, blame exactly that phase, save the finding atomically under
//! its signature (readable back, duplicates counted), give the same result
//! for 1 and 2 jobs, and, for a bug that only shows in some phase orders,
//! name the pair of phases whose order matters.
//!
//! The hook slot is process-wide: every test here takes [`LOCK`] so the
//! hooks never overlap (this file is its own test binary).

mod planted;

use std::path::{Path, PathBuf};

use planted::flip_first_isetp;
use std::sync::Mutex;

use oracle::diff::{
    check_program, Config, Engine, Finding, Matrix, Options, Program, Settled, VerdictKind,
};
use ptxc::phases::table;
use ptxc::phases::test_hooks;
use ptxc::phases::PhaseContext;

static LOCK: Mutex<()> = Mutex::new(());

/// The phase the tests plant their bugs in.
fn victim() -> u16 {
    table::lookup("OriPerformLiveDeadFirst")
}

/// The same wrong rewrite, only while AnalyzeControlFlow has not run: a
/// bug that shows only when the victim runs before it.
fn flip_without_cfg(cx: &mut PhaseContext) -> u64 {
    if cx.cfg.is_some() {
        return 0;
    }
    flip_first_isetp(cx)
}

/// Installs a hook for the guard's lifetime.
struct Planted<'a>(#[allow(dead_code)] std::sync::MutexGuard<'a, ()>);

fn plant(f: test_hooks::Misbehave) -> Planted<'static> {
    let g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    test_hooks::install(victim(), f);
    Planted(g)
}

impl Drop for Planted<'_> {
    fn drop(&mut self) {
        test_hooks::clear();
    }
}

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff_programs")
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

fn program(name: &str) -> Program {
    let d = programs_dir();
    let mut p = Program::from_files(&d.join(format!("{name}.launch.json")), None).unwrap();
    p.name = name.into();
    p
}

fn corpus_program(kernel: &str) -> Program {
    let d = corpus().join(kernel);
    let mut p = Program::from_files(
        &d.join(format!("{kernel}.launch.json")),
        Some(&d.join(format!("{kernel}.ptx"))),
    )
    .unwrap();
    p.name = format!("{kernel}.ptx");
    p
}

fn matrix(labels: &[&str]) -> Matrix {
    Matrix::new(
        "test",
        labels.iter().map(|l| Config::parse(l).unwrap()).collect(),
    )
}

const LABELS: [&str; 4] = [
    "ptxc sm_80 -O0 default",
    "ptxc sm_80 -O3 default",
    "ptxc sm_90 -O3 default",
    "ptxc sm_75 -O3 disable:OriPerformLiveDeadFirst",
];

fn opts(jobs: usize, findings: Option<&Path>) -> Options {
    Options {
        jobs,
        findings: findings.map(Path::to_path_buf),
        ..Options::default()
    }
}

#[test]
fn without_the_hook_every_configuration_passes() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    test_hooks::clear();
    for p in [program("cmp_sel"), corpus_program("block_reduce")] {
        let r = check_program(&p, &matrix(&LABELS), &opts(1, None));
        let kinds: Vec<VerdictKind> = r.configs.iter().map(|c| c.verdict.kind).collect();
        assert_eq!(kinds, [VerdictKind::Pass; 4], "{}", p.name);
    }
}

#[test]
fn the_planted_bug_is_found_blamed_and_saved() {
    let _h = plant(flip_first_isetp);
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::new(matrix(&LABELS), opts(2, Some(dir.path()))).unwrap();
    let mut reports = Vec::new();
    let stats = engine
        .run([program("cmp_sel"), corpus_program("block_reduce")], |r| {
            reports.push(r.clone())
        })
        .unwrap();
    // cmp_sel: x = 0..31, y = x < 5 ? 1 : 2; flipped, every element is
    // wrong and element 0 is the first: 1 expected, 2 computed.
    let r = &reports[0];
    let kinds: Vec<VerdictKind> = r.configs.iter().map(|c| c.verdict.kind).collect();
    // -O0: the dead-code phase (and so the bug) does not run; disabled:
    // neither.
    assert_eq!(
        kinds,
        [
            VerdictKind::Pass,
            VerdictKind::Mismatch,
            VerdictKind::Mismatch,
            VerdictKind::Pass
        ]
    );
    let mm = r.configs[1].verdict.mismatch.as_ref().unwrap();
    assert_eq!(
        (
            mm.buffer.as_str(),
            mm.index,
            mm.expected,
            mm.actual,
            mm.count
        ),
        ("y", Some(0), 1, 2, 32)
    );
    for c in &r.configs[1..3] {
        let b = c.blame.as_ref().unwrap();
        assert_eq!(b.stage, "OriPerformLiveDeadFirst", "{}", c.config.label());
        assert_eq!(b.index, Some(victim()));
        assert_eq!(b.key_opcode.as_deref(), Some("ISETP"));
        assert_eq!(b.departure.as_ref().unwrap().kind, VerdictKind::Mismatch);
        // The phases before it that changed the IR agreed with the oracle.
        let (last, before) = b.steps.split_last().unwrap();
        assert_eq!(last.index, victim());
        assert!(before.iter().all(|s| s.verdict == VerdictKind::Pass));
        let s = c.signature.as_ref().unwrap();
        assert_eq!(
            (s.kind, s.stage.as_str(), s.opcode.as_str()),
            (VerdictKind::Mismatch, "OriPerformLiveDeadFirst", "ISETP")
        );
    }
    // sm_80 and sm_90 are different architecture classes: two findings.
    let s80 = r.configs[1].signature.clone().unwrap();
    let s90 = r.configs[2].signature.clone().unwrap();
    assert_ne!(s80.arch_class, s90.arch_class);
    assert!(matches!(&r.configs[1].settled, Some(Settled::New(_))));
    assert!(matches!(&r.configs[2].settled, Some(Settled::New(_))));

    // block_reduce (corpus): its first ISETP is the `i < n` bound; every
    // configuration where the victim runs fails, blamed on it.
    let r = &reports[1];
    for (c, label) in r.configs.iter().zip(LABELS) {
        let runs_victim = label.contains("-O3 default");
        assert_eq!(
            c.verdict.is_failure(),
            runs_victim,
            "{label}: {:?}",
            c.verdict
        );
        if runs_victim {
            assert_eq!(c.blame.as_ref().unwrap().stage, "OriPerformLiveDeadFirst");
        }
    }

    // On disk: one directory per signature, each readable back.
    let fd = oracle::diff::FindingsDir::new(dir.path()).unwrap();
    let listed = fd.list().unwrap();
    let mut sigs: Vec<String> = reports
        .iter()
        .flat_map(|r| r.configs.iter())
        .filter_map(|c| c.signature.as_ref().map(|s| s.slug()))
        .collect();
    sigs.sort();
    sigs.dedup();
    let names: Vec<String> = listed
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, sigs);
    assert_eq!(
        std::fs::read_dir(dir.path().join("pending"))
            .unwrap()
            .count(),
        0,
        "every pending finding settled"
    );
    let failures = stats.failures();
    assert_eq!(stats.findings_new + stats.findings_duplicate, failures);
    assert_eq!(stats.findings_new, names.len() as u64);
    let f80 = Finding::read(&dir.path().join(s80.slug())).unwrap();
    assert_eq!(f80.program.ptx, program("cmp_sel").ptx);
    assert_eq!(
        f80.program
            .spec
            .to_json_string()
            .replace("\"program.ptx\"", "\"cmp_sel.ptx\""),
        program("cmp_sel").spec.to_json_string()
    );
    assert_eq!(f80.config.label(), LABELS[1]);
    assert_eq!(f80.verdict, reports[0].configs[1].verdict);
    assert_eq!(f80.blame.as_ref(), reports[0].configs[1].blame.as_ref());
    assert_eq!(f80.signature.as_ref(), Some(&s80));
    // block_reduce's sm_80 failure has a different first difference or
    // verdict, or it is a duplicate of cmp_sel's: either way it is counted.
    let dups: u64 = listed
        .iter()
        .map(|d| Finding::read(d).unwrap().duplicates)
        .sum();
    assert_eq!(dups, stats.findings_duplicate);

    // A second run on the same directory: everything is a duplicate and
    // nothing is overwritten.
    let before = std::fs::read_to_string(dir.path().join(s80.slug()).join("verdict.json")).unwrap();
    let dups_before = Finding::read(&dir.path().join(s80.slug()))
        .unwrap()
        .duplicates;
    let again = engine.run([program("cmp_sel")], |_| {}).unwrap();
    assert_eq!(again.findings_new, 0);
    assert_eq!(again.findings_duplicate, 2);
    let f80 = Finding::read(&dir.path().join(s80.slug())).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join(s80.slug()).join("verdict.json")).unwrap(),
        before
    );
    assert_eq!(f80.duplicates, dups_before + 1);
}

/// Everything a run decides, as text: the report lines and the findings
/// directory's files.
fn run_summary(jobs: usize) -> (Vec<String>, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::new(matrix(&LABELS), opts(jobs, Some(dir.path()))).unwrap();
    let mut lines = Vec::new();
    let programs = [
        program("cmp_sel"),
        corpus_program("block_reduce"),
        program("oob_read"),
        program("cmp_sel"),
    ];
    engine
        .run(programs, |r| {
            let text = oracle::commands::diff::report_lines(r, false).join("\n");
            lines.push(text.replace(&dir.path().display().to_string(), "DIR"));
        })
        .unwrap();
    let mut files = Vec::new();
    for d in oracle::diff::FindingsDir::new(dir.path())
        .unwrap()
        .list()
        .unwrap()
    {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for f in names {
            files.push((
                f.strip_prefix(dir.path()).unwrap().display().to_string(),
                std::fs::read_to_string(&f).unwrap(),
            ));
        }
    }
    (lines, files)
}

#[test]
fn results_do_not_depend_on_the_job_count() {
    let _h = plant(flip_first_isetp);
    let one = run_summary(1);
    let two = run_summary(2);
    assert_eq!(one, two);
    assert!(one.0[2].contains("oracle-ub"), "{}", one.0[2]);
    // The repeated program is a duplicate of the first.
    assert!(one.0[3].contains("finding: duplicate #"), "{}", one.0[3]);
}

#[test]
fn an_order_dependent_bug_names_the_pair() {
    let _h = plant(flip_without_cfg);
    let cfa = table::lookup("AnalyzeControlFlow");
    // A seed whose order runs the victim before AnalyzeControlFlow.
    let seed = (1u64..)
        .find(|&s| {
            let o = ptxc::phases::order::random_valid_order(s);
            let pos = |x: u16| o.iter().position(|&i| i == x).unwrap();
            pos(victim()) < pos(cfa)
        })
        .unwrap();
    let reorder = format!("ptxc sm_80 -O3 reorder:{seed}");
    let m = matrix(&["ptxc sm_80 -O3 default", &reorder]);
    let r = check_program(&program("cmp_sel"), &m, &opts(1, None));
    assert_eq!(r.configs[0].verdict.kind, VerdictKind::Pass);
    assert_eq!(r.configs[1].verdict.kind, VerdictKind::Mismatch);
    let b = r.configs[1].blame.as_ref().unwrap();
    assert_eq!(b.stage, "OriPerformLiveDeadFirst");
    assert_eq!(b.order_pair, Some((cfa, victim())));
    assert!(
        b.line()
            .contains("fails when OriPerformLiveDeadFirst runs before AnalyzeControlFlow"),
        "{}",
        b.line()
    );
}

fn panic_in_phase(_: &mut PhaseContext) -> u64 {
    panic!("planted panic");
}

#[test]
fn a_panicking_phase_is_an_internal_error_blamed_on_it() {
    let _h = plant(panic_in_phase);
    let m = matrix(&["ptxc sm_80 -O0 default", "ptxc sm_80 -O3 default"]);
    let r = check_program(&program("cmp_sel"), &m, &opts(1, None));
    assert_eq!(r.configs[0].verdict.kind, VerdictKind::Pass);
    let v = &r.configs[1].verdict;
    assert_eq!(v.kind, VerdictKind::Ice);
    assert_eq!(v.phase.as_deref(), Some("OriPerformLiveDeadFirst"));
    assert!(v.message.contains("planted panic"), "{}", v.message);
    let s = r.configs[1].signature.as_ref().unwrap();
    assert_eq!(
        (s.kind, s.stage.as_str(), s.opcode.as_str()),
        (VerdictKind::Ice, "OriPerformLiveDeadFirst", "-")
    );
}

/// The acceptance path of issue 7: `ptxdiff run` (the library function
/// behind it) on generated programs finds the planted bug, blames the
/// victim phase and saves the finding before the run ends.
#[test]
fn the_generator_run_finds_blames_and_saves_the_planted_bug() {
    use oracle::commands::fuzz_run::{self, RunArgs};
    let _p = plant(flip_first_isetp);
    let dir = tempfile::tempdir().unwrap();
    let args = RunArgs {
        count: Some(6),
        seed: 40,
        jobs: 2,
        matrix: "smoke".into(),
        findings: dir.path().join("findings"),
        vendor: false,
        ..RunArgs::default()
    };
    let mut lines = Vec::new();
    let o = fuzz_run::run(&args, &mut |l| lines.push(l.to_string()), &mut |_| {}).unwrap();
    let text = lines.join("\n");
    assert!(!o.clean(), "{text}");
    assert!(o.stats.failures() > 0);
    assert!(
        o.verdict_line().starts_with("verdict: FINDINGS: "),
        "{}",
        o.verdict_line()
    );
    let victim_name = table::name_of(victim());
    assert!(
        text.contains(&format!("blame: {victim_name} ({})", victim())),
        "{text}"
    );
    let saved = oracle::diff::FindingsDir::new(dir.path().join("findings"))
        .unwrap()
        .list()
        .unwrap();
    assert!(!saved.is_empty(), "no finding saved:\n{text}");
    let f = Finding::read(&saved[0]).unwrap();
    assert_eq!(f.blame.unwrap().index, Some(victim()));
}
