//! Shared by the nvopt tests: the inputs (every corpus kernel's clang -O3
//! and -O0 PTX, and generator seeds 0..200) and the property check "the
//! PTX interpreter gives identical outputs before and after a transform".
#![allow(dead_code)]

use oracle::gen::{generate, GenConfig};
use oracle::launch::{LaunchSpec, OutputSet};
use oracle::ptx_interp::{self, Outcome, RunLimits};
use ptxc::ptx::ast::Module;
use std::path::{Path, PathBuf};

pub struct Input {
    pub name: String,
    pub ptx: String,
    pub spec: LaunchSpec,
}

pub fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// Kernel directory names, sorted.
pub fn kernel_names() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// `NAME.ptx` and `NAME.O0.ptx` of every corpus kernel.
pub fn corpus_inputs() -> Vec<Input> {
    let mut out = Vec::new();
    for k in kernel_names() {
        let dir = kernels_dir().join(&k);
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        for variant in ["ptx", "O0.ptx"] {
            let path = dir.join(format!("{k}.{variant}"));
            out.push(Input {
                name: format!("{k}.{variant}"),
                ptx: std::fs::read_to_string(&path).unwrap(),
                spec: spec.clone(),
            });
        }
    }
    out
}

pub const SEEDS: std::ops::Range<u64> = 0..200;

pub fn gen_inputs() -> Vec<Input> {
    SEEDS
        .map(|s| {
            let p = generate(s, &GenConfig::default());
            Input {
                name: format!("gen-{s}"),
                ptx: p.ptx,
                spec: p.spec,
            }
        })
        .collect()
}

pub fn all_inputs() -> Vec<Input> {
    let mut v = corpus_inputs();
    v.extend(gen_inputs());
    v
}

/// Runs PTX text in the interpreter: the outputs of a completed run.
pub fn run_text(name: &str, ptx: &str, spec: &LaunchSpec) -> Result<OutputSet, String> {
    let m = ptxc::ptx::parse_checked(name, ptx)?;
    let r = ptx_interp::run(&m, ptx, spec, &RunLimits::default()).map_err(|e| format!("{e:?}"))?;
    if r.outcome != Outcome::Completed {
        return Err(format!("{:?}", r.outcome));
    }
    Ok(r.outputs)
}

/// Applies `transform` to the parsed input, prints the result, and checks
/// the front end accepts it and the interpreter gives the same outputs.
pub fn check(input: &Input, transform: &dyn Fn(&Module) -> Module) -> Result<(), String> {
    let before = run_text(&input.name, &input.ptx, &input.spec)
        .map_err(|e| format!("{}: the input does not run: {e}", input.name))?;
    let m = ptxc::ptx::parse_checked(&input.name, &input.ptx).unwrap();
    let out = ptxc::ptx::printer::print(&transform(&m));
    let after = run_text(&format!("{}<after>", input.name), &out, &input.spec)
        .map_err(|e| format!("{}: the output does not run: {e}\n{out}", input.name))?;
    if before != after {
        return Err(format!("{}: outputs differ\n{out}", input.name));
    }
    Ok(())
}

/// Checks every input; returns the failures (first 3 in full, then names).
pub fn check_all(inputs: &[Input], transform: &dyn Fn(&Module) -> Module) -> Vec<String> {
    let mut fails: Vec<String> = inputs
        .iter()
        .filter_map(|i| check(i, transform).err())
        .collect();
    for f in fails.iter_mut().skip(3) {
        *f = f.lines().next().unwrap_or("").to_string();
    }
    fails
}

/// The pass property check: `prep` then `pass` on every function of every
/// input (the SSA form must still verify), the interpreter's outputs
/// identical before and after, and at least one function changed (so the
/// comparison ran). Returns how many functions `pass` changed.
pub fn check_pass_on(
    inputs: &[Input],
    prep: &[&str],
    pass: &dyn ptxc::nvopt::passes::Pass,
) -> usize {
    use ptxc::nvopt::passes::by_name;
    use ptxc::nvopt::{lift_module, print_module};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let changed = AtomicUsize::new(0);
    let prep: Vec<Box<dyn ptxc::nvopt::passes::Pass>> =
        prep.iter().map(|p| by_name(p).unwrap()).collect();
    let name = pass.name();
    let t = |m: &Module| {
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
    let fails = check_all(inputs, &t);
    assert!(fails.is_empty(), "{name}: {}", fails.join("\n"));
    let n = changed.load(Ordering::Relaxed);
    eprintln!("{name}: changed {n} functions of {} inputs", inputs.len());
    assert!(n > 0, "{name} changed nothing");
    n
}

/// [`check_pass_on`] for the pass named `name`, alone, on [`all_inputs`].
pub fn check_pass(name: &str) -> usize {
    let pass = ptxc::nvopt::passes::by_name(name).unwrap();
    check_pass_on(&all_inputs(), &[], pass.as_ref())
}
