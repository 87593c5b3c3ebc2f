//! The `nvopt` command line:
//! `nvopt [-O0..-O3 | -Ofast-compile=max|mid|min|0] [--passes=LIST]
//! [-opt "-knob[=v] ..."] [--print-pipeline-passes] [--threads N]
//! [--split-module] IN.ptx [-o OUT.ptx]`.
//! `--threads N` sizes Phase II's pool (0: one per CPU); without it a
//! GNU make jobserver in `MAKEFLAGS` does ([`super::two_phase`]).
//! `-split-compile=N` (nvcc's spelling) is `--split-module --threads N`.
//! Without `-o` the output goes to standard output; with
//! `--print-pipeline-passes` and no input only the pipeline is printed.
//! Bad input gets the front end's `file:line:col` diagnostics.

use super::pipeline::{self, Knobs, Level, Pipeline};

/// What the command line asks for.
#[derive(Debug, Default)]
pub struct Options {
    pub level: Option<Level>,
    pub passes: Option<String>,
    pub knobs: Vec<String>,
    pub print_pipeline: bool,
    pub input: Option<String>,
    pub output: Option<String>,
    pub threads: Option<usize>,
    pub split_module: bool,
}

pub const USAGE: &str = "usage: nvopt [-O0|-O1|-O2|-O3|-Ofast-compile=max|mid|min|0] [--passes=LIST] [-opt \"-knob[=value] ...\"] [--print-pipeline-passes] [--threads N] [--split-module] IN.ptx [-o OUT.ptx]";

pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let a = a.as_str();
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        if let Some(l) = a
            .strip_prefix("-O")
            .filter(|l| matches!(*l, "0" | "1" | "2" | "3"))
        {
            o.level = Level::from_name(&format!("O{l}"));
        } else if let Some(v) = a
            .strip_prefix("-Ofast-compile=")
            .or_else(|| a.strip_prefix("-Ofc="))
        {
            if let Some(l) = pipeline::fast_compile_level(v)? {
                o.level = Some(l);
            }
        } else if let Some(v) = a
            .strip_prefix("--passes=")
            .or_else(|| a.strip_prefix("-passes="))
        {
            o.passes = Some(v.to_string());
        } else if a == "-opt" {
            o.knobs.push(value("-opt")?);
        } else if let Some(v) = a.strip_prefix("-opt=") {
            o.knobs.push(v.to_string());
        } else if a == "--print-pipeline-passes" || a == "-print-pipeline-passes" {
            o.print_pipeline = true;
        } else if a == "--threads" || a.starts_with("--threads=") {
            let v = match a.strip_prefix("--threads=") {
                Some(v) => v.to_string(),
                None => value("--threads")?,
            };
            let n: usize = v
                .parse()
                .map_err(|_| format!("--threads: expected a number, got '{v}'"))?;
            o.threads = Some(n);
        } else if a == "--split-module" || a == "-split-module" {
            o.split_module = true;
        } else if let Some(v) = a
            .strip_prefix("-split-compile=")
            .or_else(|| a.strip_prefix("--split-compile="))
        {
            // nvcc's spelling (docs/MODEL.md, Two-phase compilation): split-module mode on N threads.
            let n: usize = v
                .parse()
                .map_err(|_| format!("-split-compile: expected a number, got '{v}'"))?;
            o.split_module = true;
            o.threads = Some(n);
        } else if a == "-o" {
            o.output = Some(value("-o")?);
        } else if a == "-h" || a == "--help" {
            return Err(USAGE.to_string());
        } else if a.starts_with('-') && a != "-" {
            return Err(format!("unknown option '{a}'\n{USAGE}"));
        } else if o.input.replace(a.to_string()).is_some() {
            return Err(format!("more than one input file\n{USAGE}"));
        }
    }
    if o.level.is_some() && o.passes.is_some() {
        return Err(pipeline::PASSES_WITH_O_ERROR.to_string());
    }
    Ok(o)
}

/// Builds the pipeline the options name (default `nvopt<O3>`).
pub fn pipeline_of(o: &Options) -> Result<Pipeline, String> {
    let mut knobs = Knobs::default();
    for k in &o.knobs {
        knobs.add(k)?;
    }
    match &o.passes {
        Some(list) => pipeline::parse_passes(list, &knobs),
        None => Ok(pipeline::build(o.level.unwrap_or(Level::O3), &knobs)),
    }
}

/// Runs the command line; `Ok` holds (stdout text, stderr warnings).
pub fn run(args: &[String]) -> Result<(String, String), String> {
    let o = parse_args(args)?;
    let p = pipeline_of(&o)?;
    let mut stdout = String::new();
    let mut stderr = String::new();
    if o.print_pipeline {
        stdout.push_str(&p.pm.text());
        stdout.push('\n');
    }
    let Some(input) = &o.input else {
        if o.print_pipeline {
            return Ok((stdout, stderr));
        }
        return Err(format!("no input file\n{USAGE}"));
    };
    let src = std::fs::read_to_string(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let m = crate::ptx::parse_checked(input, &src)?;
    let ro = super::two_phase::RunOptions {
        threads: o.threads,
        makeflags: std::env::var("MAKEFLAGS").ok(),
        split_module: o.split_module,
    };
    let (out, report) = super::optimize_with(&m, &p, &ro);
    for w in &report.warnings {
        stderr.push_str(&format!("nvopt: warning: {w}\n"));
    }
    for (f, why) in &out.skipped {
        stderr.push_str(&format!("nvopt: warning: {f} left unoptimized: {why}\n"));
    }
    let text = crate::ptx::printer::print(&out.module);
    match &o.output {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        None => stdout.push_str(&text),
    }
    Ok((stdout, stderr))
}

/// `ptxc --nvopt=LEVEL`: the level names `O0`..`O3`, `Ofcmax`, `Ofcmid`,
/// `Ofcmin` (a bare digit means `O<digit>`).
pub fn level_for_ptxc(v: &str) -> Result<Level, String> {
    let name = if v.len() == 1 && v.bytes().all(|b| b.is_ascii_digit()) {
        format!("O{v}")
    } else {
        v.to_string()
    };
    Level::from_name(&name).ok_or_else(|| {
        format!("Invalid value '{v}' for option --nvopt (O0..O3, Ofcmax, Ofcmid, Ofcmin)")
    })
}

/// What `ptxc --nvopt` compiles instead of its input: the PTX text after
/// `nvopt<level>`, and warnings (functions left unoptimized, jobserver
/// problems). Input the front end rejects is returned unchanged, so the
/// back end reports its diagnostics against the user's text.
pub fn preprocess_for_ptxc(
    path: &str,
    text: &str,
    level: Level,
    threads: usize,
) -> (String, Vec<String>) {
    let Ok(m) = crate::ptx::parse_checked(path, text) else {
        return (text.to_string(), Vec::new());
    };
    let p = pipeline::build(level, &Knobs::default());
    let ro = super::two_phase::RunOptions {
        threads: Some(threads.max(1)),
        makeflags: None,
        split_module: false,
    };
    let (out, report) = super::optimize_with(&m, &p, &ro);
    let mut warnings = report.warnings;
    for (f, why) in &out.skipped {
        warnings.push(format!("nvopt left {f} unoptimized: {why}"));
    }
    (crate::ptx::printer::print(&out.module), warnings)
}
