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
