//! Two-phase compilation (docs/MODEL.md, Two-phase compilation).
//!
//! - Phase I runs the pipeline up to and including its last module pass
//!   (flags without [`FUNCTION_PASS`]: the inliner, IPConstProp, ...) on
//!   the whole module, in order; Phase II runs the remaining function
//!   passes per function, on a rayon pool of `min(threads, functions)`
//!   threads (cicc: `min(requested, num_functions)`). A module with a
//!   single defined function skips the split: one unphased run of the
//!   whole list (cicc: "a single unphased call").
//! - Determinism: a function pass sees only its own function
//!   ([`super::passes::Pass::run`] takes `&mut Function`, no module and
//!   no name table), so Phase II's result per function does not depend on
//!   the order or the thread that runs it, and the output is the same
//!   bytes for every thread count (tested on the corpus).
//! - The thread count: `--threads N` (0: one per CPU); without it, the
//!   GNU make jobserver named in `MAKEFLAGS` when there is one (the
//!   implicit token plus the tokens [`super::jobserver::acquire`] gets,
//!   given back when Phase II ends), else one per CPU (cicc:
//!   `get_nprocs()`).
//! - Split-module mode (cicc: `-split-compile`, the `<split-module>`
//!   modules): after Phase I, each function becomes its own module (the
//!   other functions reduced to declarations), runs Phase II alone, is
//!   printed, and the printed functions are re-linked in the module's
//!   order. Phase I still sees the whole module, so inter-procedural
//!   passes keep their effect and the output equals the unsplit one.

use super::passes::{self, module::ModulePass, Pass};
use super::pipeline::{Pipeline, FUNCTION_PASS};
use super::{jobserver, print_module, LiftedModule};
use crate::ptx::ast::{self, Item};
use rayon::prelude::*;

/// How to run Phase II.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// `--threads N` (Some(0): one per CPU); None: jobserver or CPUs.
    pub threads: Option<usize>,
    /// The `MAKEFLAGS` value to look for a jobserver in (the caller reads
    /// the environment, so tests can pass their own).
    pub makeflags: Option<String>,
    /// `--split-module`.
    pub split_module: bool,
}

impl RunOptions {
    /// Sequential, no jobserver, no split: what [`super::optimize`] uses.
    pub fn sequential() -> RunOptions {
        RunOptions {
            threads: Some(1),
            makeflags: None,
            split_module: false,
        }
    }
}

/// What the run did (`nvopt -v` style diagnostics and tests).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// False for a single-function module (one unphased run).
    pub phased: bool,
    /// Phase II threads.
    pub threads: usize,
    /// Passes in Phase I (the rest are Phase II).
    pub phase1_passes: usize,
    pub warnings: Vec<String>,
}

enum Step {
    Module(Box<dyn ModulePass>),
    Function(Box<dyn Pass>),
}

fn steps(p: &Pipeline) -> Vec<Step> {
    p.pm.passes
        .iter()
        .map(|(r, flags)| {
            if flags & FUNCTION_PASS == 0 {
                Step::Module(
                    passes::create_module(r.name, &r.params)
                        .expect("pipelines name implemented passes"),
                )
            } else {
                // With its parameters (`loop-unroll<count=2>`), checked when
                // the pipeline was assembled.
                Step::Function(
                    passes::create(r.name, &r.params).expect("pipelines name implemented passes"),
                )
            }
        })
        .collect()
}

/// Runs `steps` in order on the whole module.
fn run_in_order(lm: &mut LiftedModule, steps: &[Step]) {
    for s in steps {
        match s {
            Step::Module(p) => {
                p.run(lm);
            }
            Step::Function(p) => {
                for (_, f) in &mut lm.funcs {
                    if let Ok(f) = f {
                        p.run(f);
                    }
                }
            }
        }
    }
}

fn phase2_one(f: &mut super::ir::Function, steps: &[Step]) {
    for s in steps {
        if let Step::Function(p) = s {
            p.run(f);
        }
    }
}

/// The Phase II thread count and the jobserver tokens that pay for it.
fn threads_for(
    o: &RunOptions,
    nfuncs: usize,
    warnings: &mut Vec<String>,
) -> (usize, jobserver::Tokens) {
    let cpus = || std::thread::available_parallelism().map_or(1, |n| n.get());
    let none = jobserver::Tokens::none();
    match o.threads {
        Some(0) => (cpus().min(nfuncs).max(1), none),
        Some(n) => (n.min(nfuncs).max(1), none),
        None => {
            let auth = match o.makeflags.as_deref().map(jobserver::parse_makeflags) {
                Some(Ok(a)) => a,
                Some(Err(e)) => {
                    warnings.push(e);
                    None
                }
                None => None,
            };
            match auth {
                None => (cpus().min(nfuncs).max(1), none),
                Some(a) => match jobserver::acquire(&a, nfuncs.saturating_sub(1)) {
                    Ok(t) => (1 + t.count(), t),
                    Err(e) => {
                        warnings.push(e);
                        (1, none)
                    }
                },
            }
        }
    }
}

/// Runs the pipeline on a lifted module in two phases and prints it.
pub fn run(lm: &mut LiftedModule, p: &Pipeline, o: &RunOptions) -> (ast::Module, RunReport) {
    let steps = steps(p);
    let nfuncs = lm.funcs.iter().filter(|(_, f)| f.is_ok()).count();
    let mut report = RunReport {
        threads: 1,
        ..RunReport::default()
    };
    if nfuncs <= 1 {
        run_in_order(lm, &steps);
        report.phase1_passes = steps.len();
        return (print_module(lm), report);
    }
    let split = steps
        .iter()
        .rposition(|s| matches!(s, Step::Module(_)))
        .map_or(0, |k| k + 1);
    report.phased = true;
    report.phase1_passes = split;
    run_in_order(lm, &steps[..split]);
    let phase2 = &steps[split..];
    let nfuncs = lm.funcs.iter().filter(|(_, f)| f.is_ok()).count();
    let (threads, tokens) = threads_for(o, nfuncs, &mut report.warnings);
    report.threads = threads;
    let out = if o.split_module {
        split_and_relink(lm, phase2, threads)
    } else {
        let work = |lm: &mut LiftedModule| {
            lm.funcs.par_iter_mut().for_each(|(_, f)| {
                if let Ok(f) = f {
                    phase2_one(f, phase2);
                }
            })
        };
        in_pool(threads, || work(lm));
        print_module(lm)
    };
    drop(tokens);
    (out, report)
}

/// Runs `job` on a pool of `threads` threads (the calling thread alone
/// for 1).
fn in_pool<R: Send>(threads: usize, job: impl FnOnce() -> R + Send) -> R {
    if threads <= 1 {
        return job();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(job),
        // No threads to be had: the same work, sequentially.
        Err(_) => job(),
    }
}

/// The text of one module item, printed with `m`'s name table.
fn item_text(m: &ast::Module, item: &Item, header_len: usize) -> String {
    let one = ast::Module {
        version: m.version,
        targets: m.targets.clone(),
        address_size: m.address_size,
        items: vec![item.clone()],
        names: m.names.clone(),
    };
    crate::ptx::printer::print(&one)[header_len..].to_string()
}

fn split_and_relink(lm: &mut LiftedModule, phase2: &[Step], threads: usize) -> ast::Module {
    // One module per function: the others become declarations.
    let funcs = std::mem::take(&mut lm.funcs);
    let mut unlifted = Vec::new();
    let mut splits: Vec<LiftedModule> = Vec::new();
    for (k, f) in funcs {
        if f.is_err() {
            unlifted.push((k, f));
            continue;
        }
        let mut module = lm.module.clone();
        for (j, item) in module.items.iter_mut().enumerate() {
            if let Item::Function(g) = item {
                if j != k {
                    g.body = None;
                }
            }
        }
        splits.push(LiftedModule {
            module,
            funcs: vec![(k, f)],
        });
    }
    lm.funcs = unlifted;
    let texts: Vec<(usize, String)> = in_pool(threads, || {
        splits
            .into_par_iter()
            .map(|mut s| {
                let k = s.funcs[0].0;
                if let Ok(f) = &mut s.funcs[0].1 {
                    phase2_one(f, phase2);
                }
                let printed = print_module(&s);
                let header = header_text(&printed);
                (k, item_text(&printed, &printed.items[k], header.len()))
            })
            .collect()
    });
    // Re-link: every item in order, each from the module that holds its
    // final form.
    let rest = print_module(lm);
    let header = header_text(&rest);
    let mut text = header.clone();
    for (k, item) in rest.items.iter().enumerate() {
        match texts.iter().find(|(j, _)| *j == k) {
            Some((_, t)) => text.push_str(t),
            None => text.push_str(&item_text(&rest, item, header.len())),
        }
    }
    crate::ptx::parse_checked("<split-module>", &text)
        .unwrap_or_else(|e| panic!("nvopt: re-linking the split modules: {e}"))
}

/// The module's header text (`.version`, `.target`, `.address_size`).
fn header_text(m: &ast::Module) -> String {
    let none = ast::Module {
        version: m.version,
        targets: m.targets.clone(),
        address_size: m.address_size,
        items: vec![],
        names: m.names.clone(),
    };
    crate::ptx::printer::print(&none)
}
