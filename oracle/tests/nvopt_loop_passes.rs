//! Interpreter property test of the loop and scheduling-ish nvopt passes
//! (LoopSimplify, LoopUnroll, LoopIndexSplit, Reassociate, Sink,
//! NVVMSinking2, NVVMRematerialization, NVVMPeephole): on every corpus
//! kernel (clang -O3 and -O0 PTX) and generator seeds 0..200, lifting,
//! running the passes and printing gives PTX the front end accepts, the
//! SSA form still verifies, and the PTX interpreter gives the same
//! outputs as the input. The pass under test runs after `prep` (e.g.
//! LoopSimplify, which the loop passes expect); each test checks the pass
//! under test changed at least one function, so it is exercised.

mod nvopt_support;

use nvopt_support::*;
use ptxc::nvopt::passes::{by_name, Pass};
use ptxc::nvopt::{lift_module, print_module};
use std::sync::atomic::{AtomicUsize, Ordering};

fn check_with(prep: &[&str], pass: &dyn Pass) -> usize {
    let inputs = all_inputs();
    let changed = AtomicUsize::new(0);
    let prep: Vec<Box<dyn Pass>> = prep.iter().map(|p| by_name(p).unwrap()).collect();
    let name = pass.name();
    let t = |m: &ptxc::ptx::ast::Module| {
        let mut lm = lift_module(m);
        for (_, f) in &mut lm.funcs {
            let f = f.as_mut().unwrap();
            for p in &prep {
                p.run(f);
            }
            if pass.run(f) {
                changed.fetch_add(1, Ordering::Relaxed);
            }
            if let Err(e) = ptxc::nvopt::verify::verify(f) {
                panic!("{name} broke SSA: {e}");
            }
        }
        print_module(&lm)
    };
    let fails = check_all(&inputs, &t);
    assert!(fails.is_empty(), "{name}: {}", fails.join("\n"));
    let n = changed.load(Ordering::Relaxed);
    eprintln!("{name}: changed {n} functions of {} inputs", inputs.len());
    assert!(n > 0, "{name} changed nothing");
    n
}

fn check(prep: &[&str], name: &str) -> usize {
    check_with(prep, by_name(name).unwrap().as_ref())
}

#[test]
fn loop_simplify_preserves_results() {
    check(&[], "loop-simplify");
}

#[test]
fn loop_unroll_preserves_results() {
    check(&["loop-simplify"], "loop-unroll");
}

#[test]
fn loop_unroll_by_two_with_kept_exit_tests_preserves_results() {
    // An explicit count unrolls loops of unknown trip count too: every
    // copy keeps its exit test.
    let pass = ptxc::nvopt::passes::loop_unroll::LoopUnroll {
        count: 2,
        threshold: 1000,
        ..Default::default()
    };
    check_with(&["loop-simplify"], &pass);
}

#[test]
fn loop_unroll_by_three_preserves_results() {
    let pass = ptxc::nvopt::passes::loop_unroll::LoopUnroll {
        count: 3,
        threshold: 1000,
        ..Default::default()
    };
    check_with(&["loop-simplify"], &pass);
}
