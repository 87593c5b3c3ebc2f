//! Interestingness: what a candidate must still do to be kept.
//!
//! Every candidate first has to be a *defined* program: it parses and
//! validates, its launch sets up, and the oracle runs it to completion
//! without undefined behaviour and within fuel ([`run_oracle`]). Only then
//! is the predicate asked, so the reducer never leaves the space of
//! defined programs (a reducer that keeps "the compiler output differs"
//! without this check ends at a racy or uninitialised program that every
//! compiler is entitled to miscompile).
//!
//! The predicates, on the one configuration of the finding:
//! - `same-signature` (the default): the configuration fails with the same
//!   [`Signature`] (verdict kind, blamed stage, architecture class, key
//!   opcode), so the reduced program shows the same bug, not another one;
//! - `mismatch`: the configuration completes with outputs that differ from
//!   the oracle's;
//! - `crash`: ptxc fails internally (a panic or a broken invariant);
//! - `cmd SCRIPT`: the script, run in a directory holding the candidate as
//!   `program.ptx` and `program.launch.json` (also passed as its two
//!   arguments), exits with status 0 (C-Reduce's convention).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::case::Case;
use crate::diff::findings;
use crate::diff::run::{run_oracle, OracleRun};
use crate::diff::{run_config, Config, Program, Signature, Verdict, VerdictKind};
use crate::launch::LaunchSpec;
use crate::ptx_interp::RunLimits;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Predicate {
    SameSignature(Signature),
    Mismatch,
    Crash,
    Cmd(PathBuf),
}

impl Predicate {
    /// The command-line spelling.
    pub fn name(&self) -> &'static str {
        match self {
            Predicate::SameSignature(_) => "same-signature",
            Predicate::Mismatch => "mismatch",
            Predicate::Crash => "crash",
            Predicate::Cmd(_) => "cmd",
        }
    }
}

/// How a candidate fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Not a defined program (or not even valid PTX): never kept.
    Invalid(String),
    /// Defined, but the predicate does not hold.
    Boring(String),
    Interesting,
}

impl Judgement {
    pub fn is_interesting(&self) -> bool {
        *self == Judgement::Interesting
    }
}

/// A predicate on one configuration, with the run limits.
#[derive(Clone, Debug)]
pub struct Target {
    pub config: Config,
    pub predicate: Predicate,
    pub limits: RunLimits,
}

/// The signature of a failing verdict: blamed as the engine blames
/// ([`crate::diff::nvopt::blame_any`]: an nvopt configuration per nvopt
/// pass, the others per back-end phase), so a reduction keeps the
/// finding's signature.
pub fn signature_of(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    verdict: &Verdict,
    limits: &RunLimits,
) -> Signature {
    let b = crate::diff::nvopt::blame_any(p, oracle, cfg, verdict, limits);
    Signature::new(verdict, &b, cfg.arch)
}

/// A candidate's fuel: this many times what the original executed ...
pub const FUEL_FACTOR: u64 = 4;
/// ... plus this many thread-instructions (a tiny original's candidates
/// still get room).
pub const FUEL_SLACK: u64 = 1_000_000;
/// A candidate run's wall clock: this many times the original's whole
/// judgement (oracle, configuration, blame) ...
pub const WALL_FACTOR: u32 = 8;
/// ... plus this.
pub const WALL_SLACK: Duration = Duration::from_secs(2);

/// The name candidates run under (in messages only).
const CANDIDATE: &str = "candidate.ptx";

impl Target {
    /// Judges `c`.
    pub fn judge(&self, c: &Case) -> Judgement {
        self.judge_counted(c).0
    }

    /// Judges `c`, and the interpreter fuel its oracle run was charged:
    /// what it executed, or the whole bound when it did not complete (a
    /// runaway loop, or a run stopped earlier; never more than the bound).
    pub fn judge_counted(&self, c: &Case) -> (Judgement, u64) {
        let p = c.program(CANDIDATE);
        let oracle = match run_oracle(&p, &self.limits) {
            Ok(o) => o,
            Err(v) => return (Judgement::Invalid(v.line()), self.limits.fuel),
        };
        let fuel = oracle.executed;
        (self.judge_defined(&p, &oracle), fuel)
    }

    /// The predicate on a defined candidate.
    fn judge_defined(&self, p: &Program, oracle: &OracleRun) -> Judgement {
        let verdict = match &self.predicate {
            Predicate::Cmd(script) => return run_script(script, p),
            _ => run_config(p, oracle, &self.config, &self.limits).verdict,
        };
        let holds = match &self.predicate {
            Predicate::Mismatch => verdict.kind == VerdictKind::Mismatch,
            Predicate::Crash => verdict.kind == VerdictKind::Ice,
            Predicate::SameSignature(sig) => {
                verdict.kind == sig.kind
                    && signature_of(p, oracle, &self.config, &verdict, &self.limits).slug()
                        == sig.slug()
            }
            Predicate::Cmd(_) => unreachable!("handled above"),
        };
        if holds {
            Judgement::Interesting
        } else {
            Judgement::Boring(verdict.line())
        }
    }

    /// Bounds every run of a candidate by the original's: its fuel by
    /// [`FUEL_FACTOR`] times what the original executed (plus
    /// [`FUEL_SLACK`]), its wall clock by [`WALL_FACTOR`] times the
    /// original's whole judgement (plus [`WALL_SLACK`]). A candidate that
    /// runs much longer than the original has made a loop run away (a
    /// zeroed increment); it is rejected as soon as its bound is spent, not
    /// after the oracle's full fuel. Fuel decides (deterministic); the wall
    /// clock only stops what fuel does not bound (a compiled run whose
    /// instructions cost far more than the original's). Then checks that
    /// the original is interesting.
    pub fn calibrate(&mut self, original: &Case) -> Result<(), String> {
        let p = original.program(CANDIDATE);
        let start = Instant::now();
        let oracle = run_oracle(&p, &self.limits)
            .map_err(|v| format!("the original is not a defined program: {}", v.line()))?;
        self.limits.fuel = self.limits.fuel.min(
            oracle
                .executed
                .saturating_mul(FUEL_FACTOR)
                .saturating_add(FUEL_SLACK),
        );
        let judged = self.judge_defined(&p, &oracle);
        let wall = start.elapsed().saturating_mul(WALL_FACTOR) + WALL_SLACK;
        self.limits.wall = self.limits.wall.min(wall);
        match judged {
            Judgement::Interesting => Ok(()),
            Judgement::Invalid(why) => Err(format!("the original is not a defined program: {why}")),
            Judgement::Boring(why) => Err(format!(
                "the original is not interesting under '{}' for '{}': {why}",
                self.predicate.name(),
                self.config.label()
            )),
        }
    }
}

/// A fresh scratch directory under the system's temporary directory.
pub fn scratch_dir(what: &str) -> std::io::Result<PathBuf> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let d = std::env::temp_dir().join(format!(
        "ptxdiff-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d)?;
    Ok(d)
}

/// Writes `p` as `program.ptx` + `program.launch.json` into `dir`.
pub fn write_program(dir: &Path, ptx: &str, spec: &LaunchSpec) -> std::io::Result<()> {
    let spec = LaunchSpec {
        file: None,
        ptx: Some(findings::PTX.into()),
        ..spec.clone()
    };
    std::fs::write(dir.join(findings::PTX), ptx)?;
    std::fs::write(dir.join(findings::LAUNCH), spec.to_json_string())
}

fn run_script(script: &Path, p: &Program) -> Judgement {
    let dir = match scratch_dir("cmd") {
        Ok(d) => d,
        Err(e) => return Judgement::Boring(format!("cannot make a scratch directory: {e}")),
    };
    let result = write_program(&dir, &p.ptx, &p.spec).and_then(|()| {
        Command::new(script)
            .arg(dir.join(findings::PTX))
            .arg(dir.join(findings::LAUNCH))
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
    });
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(s) if s.success() => Judgement::Interesting,
        Ok(s) => Judgement::Boring(format!("{} exited with {s}", script.display())),
        Err(e) => Judgement::Boring(format!("cannot run {}: {e}", script.display())),
    }
}
