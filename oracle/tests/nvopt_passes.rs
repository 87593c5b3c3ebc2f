//! Per-pass property: for every corpus kernel (clang -O3 and -O0 PTX) and
//! generator seeds 0..200, lifting, running one pass on every function
//! and printing gives PTX the front end accepts and the PTX interpreter
//! runs to the same outputs as the input, and the SSA form still
//! verifies (`nvopt::verify`) after the pass. Each test also checks the pass
//! changed at least one function (so it is exercised, not a no-op).

mod nvopt_support;

use nvopt_support::*;
use ptxc::nvopt::passes::by_name;
use ptxc::nvopt::{lift_module, print_module};
use std::sync::atomic::{AtomicUsize, Ordering};

fn check_pass(name: &str) {
    let inputs = all_inputs();
    let changed = AtomicUsize::new(0);
    let pass = by_name(name).unwrap();
    let t = |m: &ptxc::ptx::ast::Module| {
        let mut lm = lift_module(m);
        for (_, f) in &mut lm.funcs {
            let f = f.as_mut().unwrap();
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
}

#[test]
fn simplifycfg_preserves_results() {
    check_pass("simplifycfg");
}

#[test]
fn dce_preserves_results() {
    check_pass("dce");
}

#[test]
fn adce_preserves_results() {
    check_pass("adce");
}

#[test]
fn instcombine_preserves_results() {
    check_pass("instcombine");
}

#[test]
fn sccp_preserves_results() {
    check_pass("sccp");
}

#[test]
fn early_cse_preserves_results() {
    check_pass("early-cse");
}

#[test]
fn licm_preserves_results() {
    check_pass("licm");
}
