//! `ptxdiff nightly` (issue 9): a planted bug found, reduced and reported;
//! a run killed (SIGKILL) or interrupted (SIGINT) and resumed adds up to
//! exactly the counts of an uninterrupted run; shards partition the seeds;
//! a checkpoint of another run is refused; a time-budgeted run writes a
//! complete report.
//!
//! The planted-bug test installs ptxc's process-wide test hook: the tests
//! here take [`LOCK`] (this file is its own test binary).

mod common;
mod planted;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use oracle::commands::nightly::{self, NightlyArgs};
use oracle::report::write::read_report;
use oracle::report::NightlyReport;

static LOCK: Mutex<()> = Mutex::new(());

const DATE: &str = "2026-11-23";

fn args(out: &Path, count: u64) -> NightlyArgs {
    NightlyArgs {
        count: Some(count),
        jobs: 2,
        seed: Some(500),
        date: Some(DATE.into()),
        out: out.to_path_buf(),
        matrix: "smoke".into(),
        vendor: false,
        known: out.join("known.json"),
        reduce_seconds: 20.0,
        ..NightlyArgs::default()
    }
}

/// What must not depend on how the run was cut: everything but timings
/// and the job count.
fn counts(r: &NightlyReport) -> String {
    let findings: Vec<String> = r
        .findings
        .iter()
        .map(|f| {
            format!(
                "{} x{} {} {}",
                f.signature, f.occurrences, f.program, f.config
            )
        })
        .collect();
    format!(
        "programs {} executions {}\nverdicts {:?}\nfired {:?}\ncoverage {:?}\nfindings {findings:?}",
        r.programs, r.executions, r.verdicts, r.fired, r.coverage
    )
}

#[test]
fn a_planted_bug_is_found_reduced_and_reported() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    planted::PLANTS[0].install();
    let dir = tempfile::tempdir().unwrap();
    let out = nightly::run(&args(dir.path(), 4), &mut |_| {});
    ptxc::phases::test_hooks::clear();
    let out = out.unwrap();
    let r = &out.report;
    assert_eq!(r.programs, 4);
    let f = r
        .findings
        .iter()
        .find(|f| f.stage == planted::PLANTS[0].phase)
        .unwrap_or_else(|| panic!("no finding blamed on the planted phase: {:?}", r.findings));
    assert!(!f.known);
    let reduced = f.reduced_instructions.expect("reduced");
    assert!(
        reduced < f.original_instructions,
        "{reduced} vs {}",
        f.original_instructions
    );
    assert!(f
        .reduced_ptx
        .as_deref()
        .is_some_and(|p| p.contains(".entry")));
    if f.kind == "mismatch" {
        assert!(f.expected.is_some() && f.actual.is_some());
        assert_ne!(f.expected, f.actual);
    }
    assert!(Path::new(&f.directory).join("reduced/reduce.json").exists());
    // The files on disk are the report returned.
    let back = read_report(&out.dir).unwrap();
    assert_eq!(counts(&back), counts(r));
    let html = std::fs::read_to_string(out.dir.join("index.html")).unwrap();
    assert!(html.contains(&f.signature));
    let md = std::fs::read_to_string(out.dir.join("summary.md")).unwrap();
    assert!(md.contains(&f.stage) && md.contains(&f.opcode));
    // Promoted: a regression with its expected verdict, and a known
    // signature.
    let regs = tempfile::tempdir().unwrap();
    let pa = oracle::commands::promote::parse_args(&[
        f.directory.clone(),
        "--regressions".into(),
        regs.path().display().to_string(),
    ])
    .unwrap();
    let lines = oracle::commands::promote::run(&pa).unwrap();
    // Named after the signature: stage, opcode, kind.
    let name = format!("{}_{}_{}", f.stage, f.opcode, f.kind)
        .to_lowercase()
        .replace('-', "_");
    let reg = regs.path().join(&name);
    assert!(reg.join(format!("{name}.ptx")).exists(), "{lines:?}");
    let (label, sig) =
        oracle::commands::promote::read_verdict(&reg.join(format!("{name}.verdict.json"))).unwrap();
    assert_eq!(
        (label.as_str(), sig.as_str()),
        (f.config.as_str(), f.signature.as_str())
    );
    let known = oracle::diff::known::Known::read(&regs.path().join("known.json")).unwrap();
    assert_eq!(known.0.get(&f.signature), Some(&name));
    // The promoted program is the reduced one, and it still shows the bug
    // (with the hook) and passes without it.
    let p =
        oracle::diff::Program::from_files(&reg.join(format!("{name}.launch.json")), None).unwrap();
    assert!(p.ptx.ends_with(f.reduced_ptx.as_deref().unwrap()));
    let cfg = oracle::diff::Config::parse(&label).unwrap();
    let limits = oracle::ptx_interp::RunLimits::default();
    let oracle_run = oracle::diff::run::run_oracle(&p, &limits).unwrap();
    planted::PLANTS[0].install();
    let v = oracle::diff::run_config(&p, &oracle_run, &cfg, &limits).verdict;
    let got = oracle::reduce::predicate::signature_of(&p, &oracle_run, &cfg, &v, &limits);
    ptxc::phases::test_hooks::clear();
    assert_eq!(got.slug(), f.signature);
    let v = oracle::diff::run_config(&p, &oracle_run, &cfg, &limits).verdict;
    assert!(!v.is_failure(), "{}", v.line());
    // The same signature again is refused.
    let e = oracle::commands::promote::run(&pa).unwrap_err();
    assert!(e.contains("already known"), "{e}");

    // A known signature is counted, not reduced again.
    let known = format!(
        "{{\"known\": [{{\"signature\": \"{}\", \"regression\": \"x\"}}]}}",
        f.signature
    );
    let dir2 = tempfile::tempdir().unwrap();
    std::fs::write(dir2.path().join("known.json"), known).unwrap();
    planted::PLANTS[0].install();
    let again = nightly::run(&args(dir2.path(), 4), &mut |_| {});
    ptxc::phases::test_hooks::clear();
    let again = again.unwrap();
    let g = again
        .report
        .findings
        .iter()
        .find(|g| g.signature == f.signature)
        .unwrap();
    assert!(g.known);
    assert_eq!(g.reduced_ptx, None);
    assert_eq!(g.occurrences, f.occurrences);
}

fn spawn(out: &Path, count: u64) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .args([
            "nightly",
            "--count",
            &count.to_string(),
            "--jobs",
            "2",
            "--seed",
            "500",
            "--date",
            DATE,
            "--matrix",
            "smoke",
            "--no-vendor",
            "--out",
            out.to_str().unwrap(),
            "--known",
            out.join("known.json").to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn checkpoint(out: &Path) -> PathBuf {
    out.join(DATE).join(nightly::CHECKPOINT)
}

/// Waits until the checkpoint shows at least `n` programs.
fn wait_for(out: &Path, n: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(120) {
        if let Ok(text) = std::fs::read_to_string(checkpoint(out)) {
            if oracle::report::json::from_json(&text).is_ok_and(|r| r.programs >= n) {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no checkpoint with {n} programs");
}

fn finish(out: &Path, count: u64) -> NightlyReport {
    let o = spawn(out, count).wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    read_report(&out.join(DATE)).unwrap()
}

#[test]
fn killed_and_interrupted_runs_resume_to_the_same_counts() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    const COUNT: u64 = 40;
    let whole = tempfile::tempdir().unwrap();
    let expected = finish(whole.path(), COUNT);
    assert_eq!(expected.programs, COUNT);

    // SIGKILL mid-run: nothing but the checkpoint survives.
    let killed = tempfile::tempdir().unwrap();
    let mut child = spawn(killed.path(), COUNT);
    wait_for(killed.path(), 4);
    child.kill().unwrap();
    child.wait().unwrap();
    let cut = oracle::report::json::from_json(
        &std::fs::read_to_string(checkpoint(killed.path())).unwrap(),
    )
    .unwrap();
    assert!(cut.programs < COUNT, "the run finished before the kill");
    let resumed = finish(killed.path(), COUNT);
    assert_eq!(counts(&resumed), counts(&expected));

    // SIGINT: the chunk in flight finishes, the report is written, exit 130.
    let stopped = tempfile::tempdir().unwrap();
    let child = spawn(stopped.path(), COUNT);
    wait_for(stopped.path(), 2);
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    if o.status.code() == Some(130) {
        assert!(stdout.contains("interrupted"), "{stdout}");
        let partial = read_report(&stopped.path().join(DATE)).unwrap();
        assert!(partial.programs < COUNT);
    } else {
        // It finished before the signal arrived.
        assert_eq!(o.status.code(), Some(0), "{stdout}");
    }
    let resumed = finish(stopped.path(), COUNT);
    assert_eq!(counts(&resumed), counts(&expected));
}

#[test]
fn shards_partition_the_seeds() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let whole = nightly::run(&args(&dir.path().join("whole"), 8), &mut |_| {})
        .unwrap()
        .report;
    let shard = |i| {
        let a = NightlyArgs {
            shard: (i, 2),
            ..args(&dir.path().join("sharded"), 4)
        };
        let o = nightly::run(&a, &mut |_| {}).unwrap();
        assert!(
            o.dir.ends_with(format!("shard-{i}-of-2")),
            "{}",
            o.dir.display()
        );
        o.report
    };
    let merged = oracle::report::merge(&[shard(1), shard(2)]).unwrap();
    assert_eq!(merged.programs, whole.programs);
    assert_eq!(merged.verdicts, whole.verdicts);
    assert_eq!(merged.fired, whole.fired);
    assert_eq!(merged.coverage, whole.coverage);
    assert_eq!(merged.shards, ["1/2", "2/2"]);
}

#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    nightly::run(&args(dir.path(), 2), &mut |_| {}).unwrap();
    let other = NightlyArgs {
        seed: Some(501),
        ..args(dir.path(), 2)
    };
    let e = nightly::run(&other, &mut |_| {}).unwrap_err();
    assert!(
        e.contains("checkpoint of another run") && e.contains("seed 500"),
        "{e}"
    );
}

#[test]
fn a_time_budget_gives_a_complete_report() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let a = NightlyArgs {
        count: None,
        minutes: Some(0.05),
        ..args(dir.path(), 1)
    };
    let start = Instant::now();
    let o = nightly::run(&a, &mut |_| {}).unwrap();
    assert!(start.elapsed() < Duration::from_secs(60));
    let r = read_report(&o.dir).unwrap();
    assert!(r.programs > 0);
    assert_eq!(r.minutes, 0.05);
    for stage in ["run", "reduce", "report"] {
        assert!(r.timings.contains_key(stage), "{stage}: {:?}", r.timings);
    }
    let (code, out) = common::ptxdiff(&["nightly", "--minutes", "x"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("--minutes: 'x' is not a positive number"),
        "{out}"
    );
}
