//! `ptxdiff diff`: programs through the differential engine
//! ([`crate::diff`]), a line per configuration with its verdict and, for a
//! failure, the blame, the signature and where the finding was saved; then
//! the statistics.
//!
//! ```text
//! ptxdiff diff --ptx F.ptx --launch F.launch.json [--matrix NAME] [--config LABEL]...
//!              [--findings DIR] [--jobs N] [--no-blame] [--vendor|--no-vendor]
//! ptxdiff diff --corpus DIR [--variant ptx|O0.ptx]... [--repeat N] [--quiet] ...
//! ```
//!
//! `--config` (repeatable) replaces the preset with the configurations
//! given by label (`ptxc sm_80 -O3 reorder:7 maxrreg=24`). `--repeat N`
//! runs the programs N times (throughput measurements); `--quiet` prints
//! only failures and the statistics.

use std::path::PathBuf;

use crate::diff::{self, Config, Engine, Matrix, Options, Program, ProgramReport};

/// The parsed command line.
#[derive(Clone, Debug)]
pub struct DiffArgs {
    pub ptx: Option<PathBuf>,
    pub launch: Option<PathBuf>,
    pub corpus: Option<PathBuf>,
    pub variants: Vec<String>,
    pub matrix: String,
    pub configs: Vec<String>,
    pub findings: Option<PathBuf>,
    pub jobs: usize,
    pub blame: bool,
    /// `None`: vendor configurations when ptxas is installed.
    pub vendor: Option<bool>,
    pub repeat: usize,
    pub quiet: bool,
}

impl Default for DiffArgs {
    fn default() -> Self {
        DiffArgs {
            ptx: None,
            launch: None,
            corpus: None,
            variants: Vec::new(),
            matrix: "default".into(),
            configs: Vec::new(),
            findings: None,
            jobs: 0,
            blame: true,
            vendor: None,
            repeat: 1,
            quiet: false,
        }
    }
}

pub fn parse_args(args: &[String]) -> Result<DiffArgs, String> {
    let mut a = DiffArgs::default();
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
            "--corpus" => a.corpus = Some(val()?.into()),
            "--variant" => a.variants.push(val()?),
            "--matrix" => a.matrix = val()?,
            "--config" => a.configs.push(val()?),
            "--findings" => a.findings = Some(val()?.into()),
            "--jobs" | "-j" => {
                let v = val()?;
                a.jobs = v
                    .parse()
                    .map_err(|_| format!("--jobs: '{v}' is not a number"))?;
            }
            "--repeat" => {
                let v = val()?;
                a.repeat = v
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("--repeat: '{v}' is not a positive number"))?;
            }
            "--no-blame" => a.blame = false,
            "--vendor" => a.vendor = Some(true),
            "--no-vendor" => a.vendor = Some(false),
            "--quiet" | "-q" => a.quiet = true,
            s => return Err(format!("unknown option '{s}'")),
        }
    }
    if a.corpus.is_some() == a.launch.is_some() {
        return Err("give either --launch SPEC (with --ptx F) or --corpus DIR".into());
    }
    if a.corpus.is_some() && a.ptx.is_some() {
        return Err("--ptx goes with --launch, not --corpus".into());
    }
    Ok(a)
}

/// The matrix the arguments ask for.
pub fn matrix(a: &DiffArgs) -> Result<Matrix, String> {
    let vendor = match a.vendor {
        Some(true) if !diff::vendor::available() => {
            return Err("--vendor: ptxas or cuobjdump is not installed".into())
        }
        Some(v) => v,
        None => diff::vendor::available(),
    };
    if a.configs.is_empty() {
        return Matrix::preset(&a.matrix, vendor);
    }
    let configs = a
        .configs
        .iter()
        .map(|l| Config::parse(l))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Matrix::new("custom", configs))
}

/// The lines of one program's report.
pub fn report_lines(r: &ProgramReport, quiet: bool) -> Vec<String> {
    let mut out = Vec::new();
    match &r.oracle {
        Err(v) => {
            out.push(format!("{}: {}", r.name, v.line()));
            return out;
        }
        Ok(()) => {
            let failures = r.failures().count();
            if !quiet || failures > 0 {
                out.push(format!(
                    "{}: {} configurations, {failures} failing",
                    r.name,
                    r.configs.len()
                ));
            }
        }
    }
    for c in &r.configs {
        if quiet && !c.verdict.is_failure() {
            continue;
        }
        out.push(format!("  {}: {}", c.config.label(), c.verdict.line()));
        if let Some(b) = &c.blame {
            out.push(format!("    blame: {}", b.line()));
        }
        if let Some(s) = &c.signature {
            out.push(format!("    signature: {}", s.line()));
        }
        match &c.settled {
            Some(diff::Settled::New(p)) => out.push(format!("    finding: {}", p.display())),
            Some(diff::Settled::Duplicate { of, count }) => out.push(format!(
                "    finding: duplicate #{count} of {}",
                of.display()
            )),
            None => {}
        }
        if let Some(e) = &c.error {
            out.push(format!("    error: {e}"));
        }
    }
    out
}

/// Runs the command; `Ok(true)` when no configuration failed.
pub fn run(a: &DiffArgs, out: &mut dyn FnMut(&str)) -> Result<bool, String> {
    let matrix = matrix(a)?;
    let programs = match (&a.corpus, &a.launch) {
        (Some(dir), _) => {
            let v: Vec<&str> = if a.variants.is_empty() {
                vec!["ptx", "O0.ptx"]
            } else {
                a.variants.iter().map(String::as_str).collect()
            };
            Program::corpus(dir, &v)?
        }
        (None, Some(l)) => vec![Program::from_files(l, a.ptx.as_deref())?],
        (None, None) => unreachable!("parse_args requires one"),
    };
    if programs.is_empty() {
        return Err("no programs".into());
    }
    let engine = Engine::new(
        matrix,
        Options {
            jobs: a.jobs,
            findings: a.findings.clone(),
            blame: a.blame,
            ..Options::default()
        },
    )?;
    let all = (0..a.repeat).flat_map(|_| programs.iter().cloned());
    let stats = engine.run(all, |r| {
        for l in report_lines(r, a.quiet) {
            out(&l);
        }
    })?;
    for l in stats.lines() {
        out(&l);
    }
    Ok(stats.failures() == 0)
}
