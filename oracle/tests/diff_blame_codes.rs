//! Blame through the control-code phases: a wrong scoreboard or stall
//! count, planted through ptxc's test-only hook (feature `test-hooks`,
//! enabled from this crate's dev-dependencies) right after the phase that
//! sets it, is blamed on that phase, not on `listing` or a later
//! control-code phase, in the default order and in an order that runs the
//! control-code phases the other way round.
//!
//! The hook slot is process-wide: every test here takes [`LOCK`] (this
//! file is its own test binary).

use std::path::Path;
use std::sync::Mutex;

use oracle::diff::{check_program, Blame, Config, Matrix, Options, Program, VerdictKind};
use ptxc::phases::test_hooks::{self, Misbehave};
use ptxc::phases::{table, PhaseContext};

static LOCK: Mutex<()> = Mutex::new(());

/// Clears every wait mask: a variable-latency result (cmp_sel's global
/// load) is read before its scoreboard is waited on.
fn drop_waits(cx: &mut PhaseContext) -> u64 {
    let mut n = 0;
    for i in cx
        .function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
    {
        if let Some(mut c) = i.control().filter(|c| c.wait != 0) {
            c.wait = 0;
            i.set_control(c);
            n += 1;
        }
    }
    n
}

/// Every stall count 1: a fixed-latency result is read before its latency
/// has elapsed.
fn stall_one(cx: &mut PhaseContext) -> u64 {
    let mut n = 0;
    for i in cx
        .function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
    {
        if let Some(mut c) = i.control().filter(|c| c.stall > 1) {
            c.stall = 1;
            i.set_control(c);
            n += 1;
        }
    }
    n
}

fn program() -> Program {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff_programs");
    let mut p = Program::from_files(&d.join("cmp_sel.launch.json"), None).unwrap();
    p.name = "cmp_sel".into();
    p
}

/// A reorder seed whose order runs ComputeStallCounts and SetReuseFlags
/// before AssignScoreboards.
fn scoreboards_last_seed() -> u64 {
    let (sb, st, ru) = (
        table::lookup("AssignScoreboards"),
        table::lookup("ComputeStallCounts"),
        table::lookup("SetReuseFlags"),
    );
    (1u64..10_000)
        .find(|&s| {
            let o = ptxc::phases::order::random_valid_order(s);
            let pos = |x: u16| o.iter().position(|&i| i == x).unwrap();
            pos(st) < pos(sb) && pos(ru) < pos(sb)
        })
        .expect("some order runs AssignScoreboards last of the three")
}

/// With `bug` planted after `phase`, the blames of every configuration of
/// `labels` (each must fail with a scoreboard hazard).
fn blames(phase: &str, bug: Misbehave, labels: &[String]) -> Vec<Blame> {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    test_hooks::install(table::lookup(phase), bug);
    let m = Matrix::new(
        "test",
        labels.iter().map(|l| Config::parse(l).unwrap()).collect(),
    );
    let r = check_program(&program(), &m, &Options::default());
    test_hooks::clear();
    r.configs
        .iter()
        .map(|c| {
            assert_eq!(
                c.verdict.kind,
                VerdictKind::ScoreboardHazard,
                "{}: {}",
                c.config.label(),
                c.verdict.line()
            );
            c.blame.clone().expect("a failure is blamed")
        })
        .collect()
}

fn labels() -> Vec<String> {
    vec![
        "ptxc sm_80 -O3 default".into(),
        "ptxc sm_70 -O0 default".into(),
        format!("ptxc sm_80 -O3 reorder:{}", scoreboards_last_seed()),
    ]
}

fn assert_blamed_on(phase: &str, b: &Blame) {
    let idx = table::lookup(phase);
    assert_eq!(b.stage, table::name_of(idx), "{}", b.line());
    assert_eq!(b.index, Some(idx));
    assert_eq!(
        b.departure.as_ref().map(|v| v.kind),
        Some(VerdictKind::ScoreboardHazard)
    );
    // Every phase before it that changed the IR agreed with the oracle,
    // the other control-code phases that ran before it included.
    let (last, before) = b.steps.split_last().unwrap();
    assert_eq!(last.index, idx);
    assert!(
        before.iter().all(|s| s.verdict == VerdictKind::Pass),
        "{:?}",
        b.steps
    );
    assert!(
        b.line().starts_with(&format!("{phase} ({idx})")),
        "{}",
        b.line()
    );
}

#[test]
fn a_missing_wait_is_blamed_on_assign_scoreboards() {
    let phase = "AssignScoreboards";
    let bs = blames(phase, drop_waits, &labels());
    for b in &bs {
        assert_blamed_on(phase, b);
        // The hazard points at the load's consumer.
        assert!(
            b.departure
                .as_ref()
                .unwrap()
                .message
                .contains("before waiting"),
            "{}",
            b.departure.as_ref().unwrap().message
        );
    }
    // In the reordered configuration the stall counts and reuse flags ran
    // first, and their IR passed.
    let ran_before: Vec<u16> = bs[2].steps.iter().map(|s| s.index).collect();
    assert!(ran_before.contains(&table::lookup("ComputeStallCounts")));
}

#[test]
fn a_short_stall_is_blamed_on_compute_stall_counts() {
    let phase = "ComputeStallCounts";
    for b in blames(phase, stall_one, &labels()) {
        assert_blamed_on(phase, &b);
        assert!(
            b.departure.as_ref().unwrap().message.contains("cycles"),
            "{}",
            b.departure.as_ref().unwrap().message
        );
    }
}

#[test]
fn without_a_hook_the_control_codes_pass() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    test_hooks::clear();
    let m = Matrix::new(
        "test",
        labels().iter().map(|l| Config::parse(l).unwrap()).collect(),
    );
    let r = check_program(&program(), &m, &Options::default());
    for c in &r.configs {
        assert_eq!(c.verdict.kind, VerdictKind::Pass, "{}", c.config.label());
    }
}
