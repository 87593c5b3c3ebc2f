//! Where a reduction comes from and where it goes: a finding directory
//! (`program.ptx`, `program.launch.json`, `config.json`, `signature.json`
//! as [`crate::diff::findings`] writes them) or a PTX file and a launch
//! spec with a configuration label; the result is written beside it, in
//! `reduced/` by default, with the before and after sizes. The original
//! files are only read.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::case::Case;
use super::predicate::{signature_of, write_program, Predicate, Target};
use super::reducer::Reduction;
use crate::diff::findings::{self, write_atomic, Finding};
use crate::diff::json::Obj;
use crate::diff::run::run_oracle;
use crate::diff::{run_config, Config, Program, Signature};
use crate::ptx_interp::RunLimits;

/// The predicate as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PredicateArg {
    /// With the signature slug to keep; none: the finding's own, or the
    /// original's (computed).
    SameSignature(Option<String>),
    Mismatch,
    Crash,
    Cmd(PathBuf),
}

impl PredicateArg {
    pub fn parse(
        name: &str,
        signature: Option<&str>,
        cmd: Option<&Path>,
    ) -> Result<PredicateArg, String> {
        match (name, cmd) {
            (_, Some(c)) => Ok(PredicateArg::Cmd(c.to_path_buf())),
            ("same-signature", None) => {
                Ok(PredicateArg::SameSignature(signature.map(str::to_string)))
            }
            ("mismatch", None) => Ok(PredicateArg::Mismatch),
            ("crash", None) => Ok(PredicateArg::Crash),
            (other, None) => Err(format!(
                "unknown predicate '{other}' (same-signature, mismatch, crash, or --cmd SCRIPT)"
            )),
        }
    }
}

/// A reduction to run.
#[derive(Clone, Debug)]
pub struct Job {
    /// For messages.
    pub name: String,
    pub case: Case,
    pub target: Target,
    /// Where the result goes.
    pub out: PathBuf,
}

/// The signature `p` fails with under `cfg` (an error when it passes).
pub fn failing_signature(
    p: &Program,
    cfg: &Config,
    limits: &RunLimits,
) -> Result<Signature, String> {
    let oracle = run_oracle(p, limits)
        .map_err(|v| format!("the program is not a defined program: {}", v.line()))?;
    let v = run_config(p, &oracle, cfg, limits).verdict;
    if !v.is_failure() {
        return Err(format!("'{}' does not fail: {}", cfg.label(), v.line()));
    }
    Ok(signature_of(p, &oracle, cfg, &v, limits))
}

fn predicate(
    arg: &PredicateArg,
    known: Option<&Signature>,
    p: &Program,
    cfg: &Config,
    limits: &RunLimits,
) -> Result<Predicate, String> {
    Ok(match arg {
        PredicateArg::SameSignature(Some(slug)) => {
            Predicate::SameSignature(Signature::from_slug(slug).ok_or_else(|| {
                format!("'{slug}' is not a signature (kind--stage--class--opcode)")
            })?)
        }
        PredicateArg::SameSignature(None) => match known {
            Some(s) => Predicate::SameSignature(s.clone()),
            None => Predicate::SameSignature(failing_signature(p, cfg, limits)?),
        },
        PredicateArg::Mismatch => Predicate::Mismatch,
        PredicateArg::Crash => Predicate::Crash,
        PredicateArg::Cmd(c) => Predicate::Cmd(c.clone()),
    })
}

/// A finding directory.
pub fn from_finding(dir: &Path, arg: &PredicateArg, limits: &RunLimits) -> Result<Job, String> {
    let f = Finding::read(dir)?;
    let case = Case::parse(
        &dir.join(findings::PTX).display().to_string(),
        &f.program.ptx,
        f.program.spec.clone(),
    )?;
    let predicate = predicate(arg, f.signature.as_ref(), &f.program, &f.config, limits)?;
    Ok(Job {
        name: dir.display().to_string(),
        case,
        target: Target {
            config: f.config,
            predicate,
            limits: *limits,
        },
        out: dir.join("reduced"),
    })
}

/// A PTX file and its launch under one configuration.
pub fn from_files(
    ptx: &Path,
    launch: &Path,
    config: &Config,
    arg: &PredicateArg,
    limits: &RunLimits,
) -> Result<Job, String> {
    let p = Program::from_files(launch, Some(ptx))?;
    let case = Case::parse(&ptx.display().to_string(), &p.ptx, p.spec.clone())?;
    let predicate = predicate(arg, None, &p, config, limits)?;
    let stem = ptx
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("program");
    Ok(Job {
        name: ptx.display().to_string(),
        case,
        target: Target {
            config: config.clone(),
            predicate,
            limits: *limits,
        },
        out: ptx.with_file_name(format!("{stem}.reduced")),
    })
}

/// `reduce.json`: what was reduced, how, and the sizes.
pub fn summary_json(job: &Job, r: &Reduction) -> String {
    let size = |s: &super::case::Size| {
        Obj::new()
            .num("instructions", s.instructions)
            .num("statements", s.statements)
            .num("bytes", s.bytes)
            .num("threads", s.threads)
            .render(4)
    };
    let sig = match &job.target.predicate {
        Predicate::SameSignature(s) => Some(s.slug()),
        _ => None,
    };
    Obj::new()
        .str("original", &job.name)
        .str("config", &job.target.config.label())
        .str("predicate", job.target.predicate.name())
        .opt_str("signature", sig.as_deref())
        .raw("before", size(&r.before))
        .raw("after", size(&r.after))
        .num("candidates", r.tried)
        .num("invalid_candidates", r.invalid)
        .num("kept", r.kept)
        .num("rounds", r.rounds)
        .num("seconds", format!("{:.3}", r.elapsed.as_secs_f64()))
        .render(2)
        + "\n"
}

/// Writes the result into `job.out` (replacing an earlier result there):
/// `program.ptx`, `program.launch.json`, `program.expected.json` (the
/// oracle's outputs for the reduced program) and `reduce.json`.
pub fn write_result(job: &Job, r: &Reduction) -> Result<(), String> {
    let err = |e: std::io::Error| format!("{}: {e}", job.out.display());
    let parent = job.out.parent().unwrap_or(Path::new("."));
    let tmp = parent.join(format!(
        ".{}.tmp-{}",
        job.out
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("reduced"),
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(err)?;
    let p = r.reduced.program("reduced.ptx");
    write_program(&tmp, &p.ptx, &p.spec).map_err(err)?;
    let limits = RunLimits {
        wall: Duration::from_secs(60),
        ..job.target.limits
    };
    let oracle = run_oracle(&p, &limits)
        .map_err(|v| format!("the reduced program does not run: {}", v.line()))?;
    write_atomic(
        &tmp.join(findings::EXPECTED),
        oracle.outputs.to_json_string().as_bytes(),
    )
    .map_err(err)?;
    write_atomic(&tmp.join("reduce.json"), summary_json(job, r).as_bytes()).map_err(err)?;
    if job.out.exists() {
        fs::remove_dir_all(&job.out).map_err(err)?;
    }
    fs::rename(&tmp, &job.out).map_err(err)
}

/// What `reduce.json` says: the configuration label and the signature
/// slug kept (none for the other predicates).
pub fn read_summary(path: &Path) -> Result<(String, Option<String>), String> {
    let mut f = crate::diff::json::read_string_fields(path, &["config", "signature"])?;
    let config = f[0]
        .take()
        .ok_or_else(|| format!("{}: missing string field 'config'", path.display()))?;
    Ok((config, f[1].take()))
}
