//! The reducer never stalls on a runaway candidate: a finding whose
//! program has a counted loop (a bug planted through ptxc's test-only hook
//! flips the loop's comparison) is reduced with every candidate bounded by
//! the original's run. A candidate that zeroes the loop increment is
//! rejected once its bound is spent, charged at most that bound, and within
//! a fuel budget of a few dozen such bounds the reducer tries dozens of
//! candidates and makes progress (counts, not wall time).
//!
//! The hook slot is process-wide: this file is its own test binary, and
//! its one test holds the hook throughout.

mod planted;

use std::path::Path;

use oracle::diff::run::run_oracle;
use oracle::diff::{Config, Program};
use oracle::ptx_interp::RunLimits;
use oracle::reduce::finding::failing_signature;
use oracle::reduce::predicate::{FUEL_FACTOR, FUEL_SLACK};
use oracle::reduce::{self, Case, Judgement, Predicate, Target};
use planted::{flip_first_isetp, CONFIG};
use ptxc::phases::{table, test_hooks};

fn program() -> Program {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reduce_runaway");
    let mut p = Program::from_files(&d.join("loop_sum.launch.json"), None).unwrap();
    p.name = "loop_sum.ptx".into();
    p
}

#[test]
fn a_runaway_candidate_is_cut_at_the_originals_bound_and_reduction_goes_on() {
    test_hooks::install(table::lookup("OriPerformLiveDeadFirst"), flip_first_isetp);
    let p = program();
    let cfg = Config::parse(CONFIG).unwrap();
    let limits = RunLimits::default();
    let sig = failing_signature(&p, &cfg, &limits).expect("the planted bug breaks the loop");
    let case = Case::parse(&p.name, &p.ptx, p.spec.clone()).unwrap();
    let mut target = Target {
        config: cfg,
        predicate: Predicate::SameSignature(sig),
        limits,
    };
    target.calibrate(&case).unwrap();

    // The bound: a small multiple of what the original executed (32
    // threads, 64 iterations of 4 instructions and the rest), far below the
    // oracle's full fuel.
    let executed = run_oracle(&p, &limits).unwrap().executed;
    assert!(executed > 32 * 64 * 4, "{executed}");
    let bound = executed * FUEL_FACTOR + FUEL_SLACK;
    assert_eq!(target.limits.fuel, bound);
    assert!(target.limits.fuel * 100 < limits.fuel);
    assert!(target.limits.wall <= limits.wall);

    // The candidate that zeroes the increment runs away: not a defined
    // program, charged its bound and no more.
    let zeroed = p
        .ptx
        .replace("add.s32 \t%r2, %r2, 1;", "add.s32 \t%r2, %r2, 0;");
    assert_ne!(zeroed, p.ptx);
    let runaway = Case::parse("zeroed.ptx", &zeroed, p.spec.clone()).unwrap();
    let (j, fuel) = target.judge_counted(&runaway);
    match j {
        Judgement::Invalid(why) => assert!(why.contains("out of fuel"), "{why}"),
        other => panic!("a runaway loop judged {other:?}"),
    }
    assert_eq!(fuel, bound);

    // Within a budget of 40 bounds, even if every candidate ran away, the
    // reducer judges at least 40 candidates (unless it reaches its fixed
    // point first) and keeps some.
    let opts = reduce::Options {
        jobs: 2,
        fuel_budget: Some(40 * bound),
        ..reduce::Options::default()
    };
    let r = reduce::reduce(&case, &target, &opts).unwrap();
    test_hooks::clear();
    assert!(r.tried >= 40 || !r.cut_short, "{} tried", r.tried);
    assert!(r.kept >= 1, "nothing kept of {} tried", r.tried);
    assert!(r.after.instructions < r.before.instructions);
    // Every candidate was charged at most the bound.
    assert!(
        r.fuel <= r.tried * bound,
        "{} fuel, {} tried",
        r.fuel,
        r.tried
    );
}
