//! `ptxdiff reduce` and `ptxdiff interesting`.
//!
//! ```text
//! ptxdiff reduce FINDING_DIR | --ptx F --launch L [--config LABEL]
//!                [--predicate same-signature|mismatch|crash] [--signature SLUG]
//!                [--cmd SCRIPT] [--out DIR] [--jobs N] [--quiet]
//!                [--emit-cvise-script FILE]
//! ptxdiff interesting --ptx F --launch L --config LABEL [--predicate P]
//!                [--signature SLUG] [--cmd SCRIPT] [--fuel N]
//! ```
//!
//! `reduce` writes the result to `FINDING_DIR/reduced/` (or `F.reduced/`,
//! or `--out`); `--emit-cvise-script` writes the interestingness script
//! and its launch spec instead of reducing. `interesting` judges one
//! program (exit 0: interesting, 1: not, 2: bad arguments), which is what
//! the script runs.

use std::path::PathBuf;

use crate::diff::Config;
use crate::ptx_interp::RunLimits;
use crate::reduce::finding::{self, Job, PredicateArg};
use crate::reduce::{self, cvise, Judgement, Options};

/// The configuration `--ptx/--launch` reduce under when none is given.
pub const DEFAULT_CONFIG: &str = "ptxc sm_80 -O3 default";

#[derive(Clone, Debug, Default)]
pub struct ReduceArgs {
    pub finding: Option<PathBuf>,
    pub ptx: Option<PathBuf>,
    pub launch: Option<PathBuf>,
    pub config: Option<String>,
    pub predicate: Option<String>,
    pub signature: Option<String>,
    pub cmd: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub jobs: usize,
    pub quiet: bool,
    pub cvise: Option<PathBuf>,
    pub fuel: Option<u64>,
}

pub fn parse_args(args: &[String]) -> Result<ReduceArgs, String> {
    let mut a = ReduceArgs::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--ptx" => a.ptx = Some(val()?.into()),
            "--launch" => a.launch = Some(val()?.into()),
            "--config" => a.config = Some(val()?),
            "--predicate" => a.predicate = Some(val()?),
            "--signature" => a.signature = Some(val()?),
            "--cmd" => a.cmd = Some(val()?.into()),
            "--out" => a.out = Some(val()?.into()),
            "--emit-cvise-script" => a.cvise = Some(val()?.into()),
            "--jobs" | "-j" => {
                a.jobs = super::number(flag, &val()?)?;
            }
            "--fuel" => {
                a.fuel = Some(super::number(flag, &val()?)?);
            }
            "--quiet" | "-q" => a.quiet = true,
            s if !s.starts_with('-') && a.finding.is_none() => a.finding = Some(s.into()),
            s => return Err(format!("unknown option '{s}'")),
        }
    }
    if a.finding.is_some() == (a.ptx.is_some() || a.launch.is_some()) {
        return Err("give a finding directory, or --ptx F --launch L".into());
    }
    if a.finding.is_none() && (a.ptx.is_none() || a.launch.is_none()) {
        return Err("--ptx and --launch go together".into());
    }
    if a.finding.is_some() && a.config.is_some() {
        return Err("--config goes with --ptx/--launch (a finding has its configuration)".into());
    }
    Ok(a)
}

fn predicate_arg(a: &ReduceArgs) -> Result<PredicateArg, String> {
    PredicateArg::parse(
        a.predicate.as_deref().unwrap_or("same-signature"),
        a.signature.as_deref(),
        a.cmd.as_deref(),
    )
}

fn limits(a: &ReduceArgs) -> RunLimits {
    let d = RunLimits::default();
    RunLimits {
        fuel: a.fuel.unwrap_or(d.fuel),
        ..d
    }
}

/// The reduction the arguments describe.
pub fn job(a: &ReduceArgs) -> Result<Job, String> {
    let arg = predicate_arg(a)?;
    let mut job = match (&a.finding, &a.ptx, &a.launch) {
        (Some(dir), _, _) => finding::from_finding(dir, &arg, &limits(a))?,
        (None, Some(ptx), Some(launch)) => {
            let cfg = Config::parse(a.config.as_deref().unwrap_or(DEFAULT_CONFIG))?;
            finding::from_files(ptx, launch, &cfg, &arg, &limits(a))?
        }
        _ => unreachable!("parse_args checks"),
    };
    if let Some(o) = &a.out {
        job.out = o.clone();
    }
    Ok(job)
}

/// Runs `ptxdiff reduce`; the lines of its report.
pub fn run(a: &ReduceArgs) -> Result<Vec<String>, String> {
    let mut job = job(a)?;
    job.target.calibrate(&job.case)?;
    if let Some(script) = &a.cvise {
        let exe =
            std::env::current_exe().map_err(|e| format!("cannot find ptxdiff itself: {e}"))?;
        cvise::write(
            script,
            &[exe.display().to_string()],
            &job.case.spec,
            "program.ptx",
            &job.target,
        )
        .map_err(|e| format!("{}: {e}", script.display()))?;
        return Ok(vec![format!(
            "wrote {} (and {}); run: cvise --not-c {} program.ptx",
            script.display(),
            script.with_extension("launch.json").display(),
            script.display()
        )]);
    }
    let opts = Options {
        jobs: a.jobs,
        progress: !a.quiet,
        ..Options::default()
    };
    let r = reduce::reduce(&job.case, &job.target, &opts)?;
    finding::write_result(&job, &r)?;
    let mut out = vec![
        format!(
            "reduced {} under '{}' ({}): {} -> {} instructions, {} -> {} bytes",
            job.name,
            job.target.config.label(),
            job.target.predicate.name(),
            r.before.instructions,
            r.after.instructions,
            r.before.bytes,
            r.after.bytes
        ),
        format!(
            "{} candidates ({} not defined programs), {} kept, {} rounds, {:.1} s",
            r.tried,
            r.invalid,
            r.kept,
            r.rounds,
            r.elapsed.as_secs_f64()
        ),
    ];
    out.push(format!("written to {}", job.out.display()));
    Ok(out)
}

/// Runs `ptxdiff interesting`: the judgement, and a line saying why.
pub fn interesting(args: &[String]) -> Result<(bool, String), String> {
    let a = parse_args(args)?;
    if a.config.is_none() {
        return Err("--config LABEL is required".into());
    }
    // PTX that does not parse or validate is a verdict here, not an error
    // (C-Vise makes plenty of it).
    if let (Some(ptx), Some(launch)) = (&a.ptx, &a.launch) {
        let p = crate::diff::Program::from_files(launch, Some(ptx))?;
        if let Err(e) = crate::reduce::Case::parse(&ptx.display().to_string(), &p.ptx, p.spec) {
            return Ok((false, format!("not a defined program: {e}")));
        }
    }
    let job = job(&a)?;
    Ok(match job.target.judge(&job.case) {
        Judgement::Interesting => (true, "interesting".into()),
        Judgement::Boring(why) => (false, format!("not interesting: {why}")),
        Judgement::Invalid(why) => (false, format!("not a defined program: {why}")),
    })
}
