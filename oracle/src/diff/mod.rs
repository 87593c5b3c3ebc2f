//! The differential engine (issue 7): a program (PTX text and its launch
//! spec) is run in the PTX interpreter (the oracle), then compiled and
//! simulated under every configuration of a [`Matrix`] (architectures x
//! -O levels x phase-order variants x register pressure, plus NVIDIA's
//! ptxas when installed); each configuration gets a [`Verdict`]; a failing
//! one is saved as a finding, [`blame`]d on the first phase whose IR
//! departs from the oracle, and deduplicated by its [`Signature`].
//!
//! | file | job |
//! |---|---|
//! | `matrix.rs` | [`Config`] (one compilation setup) and [`Matrix`] (the named presets, derived from the SM and phase tables) |
//! | `verdict.rs` | [`VerdictKind`], [`Verdict`] and the one place that maps run outcomes onto verdicts |
//! | `run.rs` | the oracle run and one ptxc configuration: compile with the driver, read the listing back, simulate, judge |
//! | `vendor.rs` | the `vendor` configuration: ptxas + cuobjdump, the listing simulated |
//! | `blame.rs` | the IR after each phase simulated: the first phase whose output departs; the pair of phases an order-dependent failure hinges on |
//! | `codes.rs` | the control codes between their three phases: the fields of the phases still to run filled in conservatively, so blame names the phase that set a wrong one |
//! | `signature.rs` | the deduplication key (verdict kind, blamed phase, architecture class, key opcode) |
//! | `groups.rs` | one bug, one entry: findings grouped by blamed stage and verdict class, with their counts and folded signatures |
//! | `findings.rs` | the atomic findings writer and reader |
//! | `json.rs` | JSON for configurations, verdicts and blames (written and read back) |
//! | `stats.rs` | verdict counts, per-phase fired counts, feature coverage, executions per second |
//! | `nvopt.rs` | the nvopt configurations (nvopt then ptxc; nvopt's output in the interpreter) and their per-pass blame |
//! | `engine.rs` | [`check_program`] and the parallel [`Engine`] loop (rayon), deterministic whatever the job count |
//!
//! A generated program plugs in through [`Program`]: the generator's
//! `GenProgram { ptx, spec, features, seed }` maps field for field.

pub mod blame;
pub mod codes;
pub mod engine;
pub mod findings;
pub mod groups;
pub mod json;
pub mod known;
pub mod matrix;
pub mod nvopt;
pub mod run;
pub mod signature;
pub mod stats;
pub mod vendor;
pub mod verdict;

pub use blame::Blame;
pub use engine::{check_program, run_config, ConfigReport, Engine, Options, ProgramReport};
pub use findings::{Finding, FindingsDir, Settled};
pub use matrix::{Compiler, Config, Matrix, Variant};
pub use signature::Signature;
pub use stats::Stats;
pub use verdict::{Verdict, VerdictKind};

use crate::launch::LaunchSpec;

/// One program to check: PTX text and its launch (the spec's `ptx` field
/// is ignored: the text is given here).
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// For messages and reports (a file name, `gen-<seed>`, ...).
    pub name: String,
    pub ptx: String,
    pub spec: LaunchSpec,
    /// The generator's feature tags (empty for hand-written programs): the
    /// statistics count their coverage.
    pub features: Vec<String>,
    /// The generator seed that reproduces it, if any.
    pub seed: Option<u64>,
}

impl Program {
    pub fn new(name: impl Into<String>, ptx: impl Into<String>, spec: LaunchSpec) -> Program {
        Program {
            name: name.into(),
            ptx: ptx.into(),
            spec,
            features: Vec::new(),
            seed: None,
        }
    }

    /// A spec file and the module it names (`ptx`), or `ptx` when given.
    pub fn from_files(
        spec_path: &std::path::Path,
        ptx: Option<&std::path::Path>,
    ) -> Result<Program, String> {
        let spec = LaunchSpec::from_file(spec_path).map_err(|e| e.to_string())?;
        let path = match ptx {
            Some(p) => p.to_path_buf(),
            None => spec.ptx_path().ok_or_else(|| {
                format!(
                    "{}: the spec names no ptx module (give --ptx)",
                    spec_path.display()
                )
            })?,
        };
        let ptx = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        Ok(Program::new(path.display().to_string(), ptx, spec))
    }

    /// Every `NAME.ptx` and `NAME.O0.ptx` (`variants`) of the corpus
    /// directory `dir/NAME/`, with `NAME.launch.json`, in name order.
    pub fn corpus(dir: &std::path::Path, variants: &[&str]) -> Result<Vec<Program>, String> {
        let mut out = Vec::new();
        for k in corpus_names(dir)? {
            let d = dir.join(&k);
            let spec_path = d.join(format!("{k}.launch.json"));
            if !spec_path.exists() {
                continue;
            }
            for v in variants {
                let ptx = d.join(format!("{k}.{v}"));
                let mut p = Program::from_files(&spec_path, Some(&ptx))?;
                p.name = format!("{k}.{v}");
                out.push(p);
            }
        }
        Ok(out)
    }
}

/// The subdirectory names of a corpus directory (`dir/NAME/`), sorted.
pub fn corpus_names(dir: &std::path::Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names)
}
