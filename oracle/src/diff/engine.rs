//! The engine: [`check_program`] runs one program through a matrix (the
//! oracle, every configuration in parallel, then blame for each failure,
//! each failure on disk before its blame); [`Engine::run`] feeds programs
//! from any iterator (a corpus, the generator) to one worker per pool
//! thread, each pulling the next program when it is done with its last
//! (no barrier between batches: one slow program does not idle the other
//! cores), and settles the findings and adds up the statistics on the
//! calling thread in program order. Verdicts, blames and findings are the
//! same for every job count: every run is bounded by fuel, not time, and
//! everything order-sensitive happens in program order.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use super::blame::Blame;
use super::findings::{FindingsDir, Settled};
use super::matrix::{Compiler, Config, Matrix};
use super::run::{run_oracle, run_ptxc, ConfigRun, OracleRun};
use super::signature::Signature;
use super::stats::Stats;
use super::vendor::run_vendor;
use super::verdict::Verdict;
use super::Program;
use crate::ptx_interp::RunLimits;

/// How the engine runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads (0: one per core).
    pub jobs: usize,
    pub limits: RunLimits,
    /// Where findings go (none: not written).
    pub findings: Option<PathBuf>,
    /// Blame failing configurations.
    pub blame: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: 0,
            limits: RunLimits::default(),
            findings: None,
            blame: true,
        }
    }
}

/// One configuration's result.
#[derive(Clone, Debug)]
pub struct ConfigReport {
    pub config: Config,
    pub verdict: Verdict,
    pub fired: BTreeMap<u16, u64>,
    /// Rewrites per (phase index, peephole rule name).
    pub rules: super::run::RuleFired,
    pub blame: Option<Blame>,
    pub signature: Option<Signature>,
    /// The pending finding written for a failure.
    pub finding: Option<PathBuf>,
    /// Set by [`Engine::run`]'s settling.
    pub settled: Option<Settled>,
    /// A problem writing the finding.
    pub error: Option<String>,
}

/// One program's result.
#[derive(Clone, Debug)]
pub struct ProgramReport {
    pub name: String,
    pub features: Vec<String>,
    /// The oracle's verdict when the program is invalid.
    pub oracle: Result<(), Verdict>,
    pub configs: Vec<ConfigReport>,
}

impl ProgramReport {
    pub fn failures(&self) -> impl Iterator<Item = &ConfigReport> {
        self.configs.iter().filter(|c| c.verdict.is_failure())
    }
}

/// Compiles and runs `p` under one configuration (ptxc, the vendor's, or
/// nvopt's).
pub fn run_config(p: &Program, oracle: &OracleRun, cfg: &Config, limits: &RunLimits) -> ConfigRun {
    match cfg.compiler {
        Compiler::Ptxc => run_ptxc(p, oracle, cfg, limits),
        Compiler::Vendor => ConfigRun {
            verdict: run_vendor(p, oracle, cfg, limits),
            fired: BTreeMap::new(),
            rules: Default::default(),
        },
        Compiler::NvoptPtxc(_) | Compiler::NvoptInterp(_) => {
            super::nvopt::run_nvopt(p, oracle, cfg, limits)
        }
    }
}

/// Runs `p` through `matrix` (on the current rayon pool).
pub fn check_program(p: &Program, matrix: &Matrix, opts: &Options) -> ProgramReport {
    let mut report = ProgramReport {
        name: p.name.clone(),
        features: p.features.clone(),
        oracle: Ok(()),
        configs: Vec::new(),
    };
    let oracle = match run_oracle(p, &opts.limits) {
        Ok(o) => o,
        Err(v) => {
            report.oracle = Err(*v);
            return report;
        }
    };
    let findings = opts
        .findings
        .as_ref()
        .map(|d| FindingsDir::new(d).map_err(|e| format!("{}: {e}", d.display())));
    report.configs = matrix
        .configs
        .par_iter()
        .map(|cfg| {
            let run = run_config(p, &oracle, cfg, &opts.limits);
            let mut c = ConfigReport {
                config: cfg.clone(),
                verdict: run.verdict,
                fired: run.fired,
                rules: run.rules,
                blame: None,
                signature: None,
                finding: None,
                settled: None,
                error: None,
            };
            if !c.verdict.is_failure() {
                return c;
            }
            // The finding is on disk before the blame runs.
            match &findings {
                Some(Ok(fd)) => match fd.write_pending(p, &oracle.outputs, cfg, &c.verdict) {
                    Ok(dir) => c.finding = Some(dir),
                    Err(e) => c.error = Some(format!("writing the finding: {e}")),
                },
                Some(Err(e)) => c.error = Some(e.clone()),
                None => {}
            }
            if opts.blame {
                let b = super::nvopt::blame_any(p, &oracle, cfg, &c.verdict, &opts.limits);
                c.signature = Some(Signature::new(&c.verdict, &b, cfg.arch));
                if let (Some(Ok(fd)), Some(dir)) = (&findings, &c.finding) {
                    if let Err(e) = fd.add_blame(dir, &b) {
                        c.error = Some(format!("writing the blame: {e}"));
                    }
                }
                c.blame = Some(b);
            }
            c
        })
        .collect();
    report
}

/// The parallel loop.
pub struct Engine {
    pub matrix: Matrix,
    pub options: Options,
    pool: rayon::ThreadPool,
}

impl Engine {
    pub fn new(matrix: Matrix, options: Options) -> Result<Engine, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.jobs)
            .build()
            .map_err(|e| format!("cannot start {} threads: {e}", options.jobs))?;
        Ok(Engine {
            matrix,
            options,
            pool,
        })
    }

    /// Runs every program; `on_report` sees each report (settled) in
    /// program order. `programs` is pulled by the workers (under a lock, so
    /// a generator runs one program at a time), and not at all after an
    /// error.
    pub fn run<I>(
        &self,
        programs: I,
        mut on_report: impl FnMut(&ProgramReport),
    ) -> Result<Stats, String>
    where
        I: IntoIterator<Item = Program>,
        I::IntoIter: Send,
    {
        let start = Instant::now();
        let mut stats = Stats::default();
        let findings = match &self.options.findings {
            Some(d) => Some(FindingsDir::new(d).map_err(|e| format!("{}: {e}", d.display()))?),
            None => None,
        };
        let source = Mutex::new(programs.into_iter().enumerate());
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, ProgramReport)>();
        let workers = self.pool.current_num_threads().max(1);
        let result = std::thread::scope(|s| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (source, stop) = (&source, &stop);
                s.spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    // A poisoned lock: a generator panicked in another
                    // worker; the scope re-raises that panic.
                    let next = match source.lock() {
                        Ok(mut it) => it.next(),
                        Err(_) => return,
                    };
                    let Some((i, p)) = next else { return };
                    let r = self
                        .pool
                        .install(|| check_program(&p, &self.matrix, &self.options));
                    if tx.send((i, r)).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            // Reports arrive in completion order; they are settled and
            // counted in program order.
            let mut early: BTreeMap<usize, ProgramReport> = BTreeMap::new();
            let mut want = 0;
            let mut result = Ok(());
            for (i, r) in rx {
                early.insert(i, r);
                while let Some(mut r) = early.remove(&want) {
                    want += 1;
                    if result.is_err() {
                        continue;
                    }
                    if let Some(fd) = &findings {
                        if let Err(e) = settle(fd, &mut r) {
                            stop.store(true, Ordering::Relaxed);
                            result = Err(e);
                            continue;
                        }
                    }
                    stats.add(&r);
                    on_report(&r);
                }
            }
            result
        });
        result?;
        stats.elapsed = start.elapsed();
        Ok(stats)
    }
}

/// Settles a report's pending findings, in configuration order.
fn settle(fd: &FindingsDir, r: &mut ProgramReport) -> Result<(), String> {
    for c in &mut r.configs {
        if let (Some(dir), Some(sig)) = (&c.finding, &c.signature) {
            let s = fd
                .settle(dir, sig)
                .map_err(|e| format!("settling {}: {e}", dir.display()))?;
            c.settled = Some(s);
        }
    }
    Ok(())
}
