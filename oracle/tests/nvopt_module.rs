//! Module passes and two-phase compilation against the PTX interpreter.
//!
//! - Per module pass (and the inliner followed by the cleanup passes):
//!   for every corpus kernel (clang -O3 and -O0 PTX) and generator seeds
//!   0..200 (and those seeds with calls, each call's second argument
//!   made a constant), the PTX before and after give identical outputs, the SSA
//!   form verifies after the pass, and the last module pass listed
//!   changed at least one module (it is exercised, not a no-op).
//! - Two-phase: `nvopt<O3>` with `--threads 1`, `--threads 2` and
//!   `--split-module` prints byte-identical PTX for every corpus kernel
//!   (NAME.ptx and NAME.O0.ptx) and generator seeds 0..40, and the runs
//!   of multi-function modules are phased.

mod nvopt_support;

use nvopt_support::*;
use ptxc::nvopt::passes::{by_name, module_by_name};
use ptxc::nvopt::pipeline::{self, Knobs, Level};
use ptxc::nvopt::two_phase::RunOptions;
use ptxc::nvopt::{lift_module, print_module};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The generated programs with calls, each call's second argument made
/// the constant 7: inputs where every call of a function passes the same
/// constant (what IPConstProp and then DeadArgElim act on; the generator
/// passes registers).
fn const_arg_inputs() -> Vec<Input> {
    gen_inputs()
        .into_iter()
        .filter(|i| i.ptx.contains("call"))
        .map(|i| Input {
            name: format!("{}-const-arg", i.name),
            ptx: i
                .ptx
                .lines()
                .map(|l| {
                    if l.trim_start().starts_with("st.param.b32 [param1+0],") {
                        "\tst.param.b32 [param1+0], 7;".to_string()
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
            spec: i.spec,
        })
        .collect()
}

/// Runs `passes` (module or function passes, in order) and checks.
fn check_passes(passes: &[&str]) {
    let mut inputs = all_inputs();
    inputs.extend(const_arg_inputs());
    let changed = AtomicUsize::new(0);
    let t = |m: &ptxc::ptx::ast::Module| {
        let mut lm = lift_module(m);
        let mut any = false;
        for name in passes {
            match module_by_name(name) {
                Some(p) => {
                    // Counted for the last module pass only: the one tested.
                    let c = p.run(&mut lm);
                    let last = passes.iter().rfind(|n| module_by_name(n).is_some());
                    any |= c && Some(name) == last;
                }
                None => {
                    let p = by_name(name).unwrap();
                    for (_, f) in &mut lm.funcs {
                        p.run(f.as_mut().unwrap());
                    }
                }
            }
            for (_, f) in &lm.funcs {
                if let Err(e) = ptxc::nvopt::verify::verify(f.as_ref().unwrap()) {
                    panic!("{name} broke SSA: {e}");
                }
            }
        }
        if any {
            changed.fetch_add(1, Ordering::Relaxed);
        }
        print_module(&lm)
    };
    let fails = check_all(&inputs, &t);
    assert!(fails.is_empty(), "{passes:?}: {}", fails.join("\n"));
    let n = changed.load(Ordering::Relaxed);
    eprintln!("{passes:?}: changed {n} modules of {}", inputs.len());
    assert!(n > 0, "{passes:?} changed nothing");
}

#[test]
fn inline_preserves_results() {
    check_passes(&["inline"]);
}

#[test]
fn inline_then_cleanup_preserves_results() {
    check_passes(&["inline", "sccp", "instcombine", "simplifycfg", "adce"]);
}

#[test]
fn always_inline_preserves_results() {
    check_passes(&["always-inline"]);
}

#[test]
fn ipconstprop_preserves_results() {
    check_passes(&["ipconstprop"]);
}

#[test]
fn deadargelim_preserves_results() {
    check_passes(&["ipconstprop", "deadargelim"]);
}

#[test]
fn globaldce_preserves_results() {
    check_passes(&["globaldce"]);
}

fn print_with(name: &str, ptx: &str, o: &RunOptions) -> (String, bool) {
    let p = pipeline::build(Level::O3, &Knobs::default());
    let m = ptxc::ptx::parse_checked(name, ptx).unwrap();
    let (out, report) = ptxc::nvopt::optimize_with(&m, &p, o);
    assert!(report.warnings.is_empty(), "{name}: {:?}", report.warnings);
    (ptxc::ptx::printer::print(&out.module), report.phased)
}

#[test]
fn thread_counts_and_split_module_give_the_same_bytes() {
    let mut inputs = corpus_inputs();
    inputs.extend(gen_inputs().into_iter().take(40));
    let opts = |threads: usize, split_module: bool| RunOptions {
        threads: Some(threads),
        makeflags: None,
        split_module,
    };
    let mut phased = 0;
    for i in &inputs {
        let (one, was_phased) = print_with(&i.name, &i.ptx, &opts(1, false));
        let (two, _) = print_with(&i.name, &i.ptx, &opts(2, false));
        assert!(one == two, "{}: --threads 1 and 2 differ", i.name);
        let (split, _) = print_with(&i.name, &i.ptx, &opts(2, true));
        assert!(
            one == split,
            "{}: --split-module differs\n{one}\n---\n{split}",
            i.name
        );
        phased += usize::from(was_phased);
    }
    // The multi-function modules after Phase I (what the inliner leaves).
    eprintln!("phased: {phased} of {}", inputs.len());
    assert!(phased > 0);
}
