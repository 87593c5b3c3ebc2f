//! `ptxdiff run` without `--corpus`: the harness's main job. Generated
//! programs (seeds S, S+1, ...) go through the differential engine's
//! matrix until the time budget or the program count is spent; a progress
//! line every few seconds (stderr), a line per failing configuration, then
//! the statistics and a verdict.
//!
//! ```text
//! ptxdiff run [--seconds N] [--count N] [--seed S] [--jobs N] [--gen-config F]
//!             [--matrix NAME] [--findings DIR] [--no-vendor] [--stats]
//!             [--bias MODE]
//! ```
//!
//! `--bias MODE` sets the generator's biased mode (`nan_or_zero`,
//! `tex_nodep`, `hoist_invariants`, `none`) over the `--gen-config`'s.
//!
//! Determinism: program k is generated from seed `S + k` alone, and its
//! verdicts do not depend on the job count; `--count` fixes the set of
//! programs (`--seconds` stops after however many fit). Findings are saved
//! under `--findings` (default `findings/`) before they are blamed.
//!
//! `--stats` adds the generator's measurements: the UB-free rate of the
//! run's programs and, for each biased mode, the share of its programs on
//! which the mode's peephole fired in the default `-O3` pipeline (the
//! acceptance bar is 20%), then per rule of that peephole its rewrites and
//! the share of the mode's programs it fired in at `sm_80 -O3` default or
//! `NvOptLevel=5` ([`bias_matrix`]; the bar is 5% per rule). The run's own
//! statistics end with a `rules:` line: each rule that fired, its
//! rewrites and the programs it fired in.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::diff::groups::Groups;
use crate::diff::{Config, Engine, Matrix, Options, Program, ProgramReport, Stats, Variant};
use crate::gen::{self, Bias, GenConfig, GenProgram};

/// The parsed command line.
#[derive(Clone, Debug)]
pub struct RunArgs {
    pub seconds: Option<f64>,
    pub count: Option<u64>,
    pub seed: u64,
    pub jobs: usize,
    pub gen_config: Option<PathBuf>,
    pub matrix: String,
    pub findings: PathBuf,
    pub vendor: bool,
    pub stats: bool,
    /// `--bias`: the generator's mode, over the configuration's.
    pub bias: Option<Bias>,
}

/// The default time budget when neither `--seconds` nor `--count` is given.
pub const DEFAULT_SECONDS: f64 = 60.0;
/// Programs per biased mode that `--stats` measures.
pub const BIAS_SAMPLE: u64 = 60;

impl Default for RunArgs {
    fn default() -> Self {
        RunArgs {
            seconds: None,
            count: None,
            seed: 1,
            jobs: 0,
            gen_config: None,
            matrix: "default".into(),
            findings: PathBuf::from("findings"),
            vendor: true,
            stats: false,
            bias: None,
        }
    }
}

pub fn parse_args(args: &[String]) -> Result<RunArgs, String> {
    let mut a = RunArgs::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |flag: &str, v: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: '{v}' is not a number"))
        };
        match flag.as_str() {
            "--seconds" => {
                let v = val()?;
                let s: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("--seconds: '{v}' is not a positive number"))?;
                a.seconds = Some(s);
            }
            "--count" => {
                let v = val()?;
                a.count = Some(number("--count", &v)?).filter(|&n| n > 0);
                if a.count.is_none() {
                    return Err("--count: give at least 1".into());
                }
            }
            "--seed" => a.seed = number("--seed", &val()?)?,
            "--jobs" | "-j" => a.jobs = number("--jobs", &val()?)? as usize,
            "--gen-config" => a.gen_config = Some(val()?.into()),
            "--matrix" => a.matrix = val()?,
            "--findings" => a.findings = val()?.into(),
            "--no-vendor" => a.vendor = false,
            "--stats" => a.stats = true,
            "--bias" => {
                let v = val()?;
                a.bias = Some(Bias::from_name(&v).ok_or_else(|| {
                    let names: Vec<&str> = gen::BIAS_NAMES.iter().map(|b| b.1).collect();
                    format!("--bias: '{v}' is not one of {}", names.join(", "))
                })?);
            }
            s => return Err(format!("unknown option '{s}'")),
        }
    }
    Ok(a)
}

/// The generator configuration of a run.
pub fn gen_config(a: &RunArgs) -> Result<GenConfig, String> {
    let mut cfg = gen_config_file(a)?;
    if let Some(b) = a.bias {
        cfg.mode = b;
    }
    Ok(cfg)
}

fn gen_config_file(a: &RunArgs) -> Result<GenConfig, String> {
    match &a.gen_config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
            GenConfig::from_json(&text).map_err(|e| format!("{}: {e}", p.display()))
        }
        None => Ok(GenConfig::default()),
    }
}

/// A generated program as the engine takes it.
pub fn program_of(g: GenProgram, seed: u64) -> Program {
    let mut p = Program::new(format!("gen_{seed}"), g.ptx, g.spec);
    p.features = g.features.iter().map(|s| s.to_string()).collect();
    p.seed = Some(seed);
    p
}

/// How a run went.
pub struct RunOutcome {
    pub stats: Stats,
    /// The failing runs grouped by blamed stage and verdict class (one bug,
    /// one group; `diff/groups.rs`).
    pub groups: Groups,
    /// `--stats`: the measurement lines.
    pub extra: Vec<String>,
}

impl RunOutcome {
    /// No configuration failed and no program was invalid.
    pub fn clean(&self) -> bool {
        self.stats.failures() == 0
    }

    pub fn verdict_line(&self) -> String {
        let s = &self.stats;
        if self.clean() {
            format!(
                "verdict: CLEAN: {} programs, {} configuration runs, no disagreement with the oracle",
                s.programs, s.execs
            )
        } else {
            format!(
                "verdict: FINDINGS: {} failing configuration runs of {} ({} new findings, {} duplicates; {} bug group{})",
                s.failures(),
                s.execs,
                s.findings_new,
                s.findings_duplicate,
                self.groups.groups.len(),
                if self.groups.groups.len() == 1 { "" } else { "s" }
            )
        }
    }
}

/// Runs the command: `out` gets the report lines, `progress` the periodic
/// progress lines.
pub fn run(
    a: &RunArgs,
    out: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(&str),
) -> Result<RunOutcome, String> {
    let cfg = gen_config(a)?;
    let vendor = a.vendor && crate::diff::vendor::available();
    let matrix = Matrix::preset(&a.matrix, vendor)?;
    let jobs = if a.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        a.jobs
    };
    let engine = Engine::new(
        matrix,
        Options {
            jobs,
            findings: Some(a.findings.clone()),
            ..Options::default()
        },
    )?;
    out(&format!(
        "ptxdiff run: seeds from {}, matrix '{}' ({} configurations{}), {} jobs, findings in {}",
        a.seed,
        a.matrix,
        engine.matrix.configs.len(),
        if vendor { ", vendor included" } else { "" },
        jobs,
        a.findings.display()
    ));
    let start = Instant::now();
    let budget = match (a.seconds, a.count) {
        (Some(s), _) => Some(Duration::from_secs_f64(s)),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_secs_f64(DEFAULT_SECONDS)),
    };
    let count = a.count.unwrap_or(u64::MAX);
    let seed0 = a.seed;
    let programs = (0..count)
        .map_while(|k| {
            let within = budget.is_none_or(|b| start.elapsed() < b);
            within.then(|| seed0.wrapping_add(k))
        })
        .map(|s| program_of(gen::generate(s, &cfg), s));
    let mut last = Instant::now();
    let mut running = Stats::default();
    let mut groups = Groups::default();
    let stats = engine.run(programs, |r: &ProgramReport| {
        running.add(r);
        for sig in r.configs.iter().filter_map(|c| c.signature.as_ref()) {
            groups.add(sig);
        }
        for l in super::diff::report_lines(r, true) {
            out(&l);
        }
        if last.elapsed() >= Duration::from_secs(3) {
            last = Instant::now();
            progress(&progress_line(&running, start.elapsed()));
        }
    })?;
    progress(&progress_line(&stats, start.elapsed()));
    let mut extra = Vec::new();
    if a.stats {
        extra.push(ub_free_line(&stats));
        for b in [Bias::NanOrZero, Bias::TexNodep, Bias::HoistInvariants] {
            extra.extend(bias_fire_lines(b, &cfg, seed0, jobs)?);
        }
    }
    Ok(RunOutcome {
        stats,
        groups,
        extra,
    })
}

fn progress_line(s: &Stats, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    format!(
        "[{:6.1} s] {} programs, {} runs ({:.0} runs/s, {:.1} programs/s), {} failing, findings {} new / {} duplicate",
        secs,
        s.programs,
        s.execs,
        s.execs as f64 / secs,
        s.programs as f64 / secs,
        s.failures(),
        s.findings_new,
        s.findings_duplicate
    )
}

/// The share of the run's programs that ran UB-free in the oracle.
fn ub_free_line(s: &Stats) -> String {
    let invalid = s
        .verdicts
        .get(&crate::diff::VerdictKind::OracleUb)
        .copied()
        .unwrap_or(0);
    let ok = s.programs.saturating_sub(invalid);
    format!(
        "generator: {ok} of {} programs UB-free and within fuel ({:.2}%; target >= 99%)",
        s.programs,
        100.0 * ok as f64 / s.programs.max(1) as f64
    )
}

/// The phase each biased mode aims at (the phase table's indices).
pub fn bias_phase(b: Bias) -> Option<u16> {
    let name = match b {
        Bias::None => return None,
        Bias::NanOrZero => "OptimizeNaNOrZero",
        Bias::TexNodep => "TexNodep",
        Bias::HoistInvariants => "HoistInvariants",
    };
    ptxc::phases::table::find(name)
}

/// The configurations the biased modes are measured at: `ptxc sm_80 -O3`
/// with the default pipeline (where OptimizeNaNOrZero needs its GEMM gate)
/// and with `NvOptLevel=5` (where it runs ungated), both rows of the
/// `default` matrix.
pub fn bias_matrix() -> Result<Matrix, String> {
    let sm = ptxc::targets::lookup_sm("sm_80").ok_or("sm_80 missing from the SM table")?;
    Ok(Matrix::new(
        "bias",
        vec![
            Config::ptxc(sm, 3, Variant::Default),
            Config::ptxc(sm, 3, Variant::Knobs("NvOptLevel=5".into())),
        ],
    ))
}

/// `count` programs of mode `b` (seeds from `seed`) through
/// [`bias_matrix`], no blame, no findings: the run's statistics (per-rule
/// counts and the programs each rule fired in), and how many programs
/// fired the mode's phase in the first (default `-O3`) configuration.
pub fn bias_stats(
    b: Bias,
    base: &GenConfig,
    seed: u64,
    count: u64,
    jobs: usize,
) -> Result<(Stats, u64), String> {
    let phase = bias_phase(b).ok_or("no phase for the mode")?;
    let cfg = GenConfig {
        mode: b,
        ..base.clone()
    };
    let engine = Engine::new(
        bias_matrix()?,
        Options {
            jobs,
            blame: false,
            ..Options::default()
        },
    )?;
    let mut fired = 0u64;
    let stats = engine.run(
        (0..count).map(|k| {
            let s = seed.wrapping_add(k);
            program_of(gen::generate(s, &cfg), s)
        }),
        |r| {
            if r.configs
                .first()
                .is_some_and(|c| c.fired.get(&phase).is_some_and(|&x| x > 0))
            {
                fired += 1;
            }
        },
    )?;
    Ok((stats, fired))
}

/// `BIAS_SAMPLE` programs of mode `b`: how many fired the mode's peephole
/// in `ptxc sm_80 -O3 default`, then each of its rules' rewrites and the
/// share of programs it fired in over [`bias_matrix`].
fn bias_fire_lines(
    b: Bias,
    base: &GenConfig,
    seed: u64,
    jobs: usize,
) -> Result<Vec<String>, String> {
    let phase = bias_phase(b).ok_or("no phase for the mode")?;
    let (stats, fired) = bias_stats(b, base, seed, BIAS_SAMPLE, jobs)?;
    let n = stats.programs;
    let mut out = vec![format!(
        "bias {}: {} fired on {fired} of {n} programs ({:.1}%; target >= 20%)",
        b.name(),
        ptxc::phases::table::name_of(phase),
        100.0 * fired as f64 / n.max(1) as f64
    )];
    out.extend(stats.rule_lines(phase, &format!("bias {}: rule ", b.name())));
    Ok(out)
}
