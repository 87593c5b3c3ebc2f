//! Per-pass property: for every corpus kernel (clang -O3 and -O0 PTX) and
//! generator seeds 0..200, lifting, running one pass on every function
//! and printing gives PTX the front end accepts and the PTX interpreter
//! runs to the same outputs as the input, and the SSA form still
//! verifies (`nvopt::verify`) after the pass. Each test also checks the pass
//! changed at least one function (so it is exercised, not a no-op).

mod nvopt_support;

use nvopt_support::*;

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
