//! `ptxdiff gen --stats`: how good the generator's programs are, over a
//! range of seeds. For each program: does it complete in the PTX
//! interpreter (UB-free, no fault, within `fuel_per_thread` times the
//! thread count), does ptxc's front end accept it, and does ptxc lower it
//! (parse + `lower_module`) for each architecture of [`STATS_ARCHS`]. Then
//! feature coverage counts and programs per second. The tests use the same
//! functions (`program_report`), so the figures and the tests cannot
//! drift apart.

use super::{generate_with_usage, GenConfig, GenProgram, FAMILIES, TYPES};
use crate::ptx_interp::{self, Outcome, RunLimits, UbKind};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The architectures the stats lower for (the sm_70, sm_80, sm_90).
pub const STATS_ARCHS: &[&str] = &["sm_70", "sm_80", "sm_90"];

/// How one interpreter run ended, in a word (`completed`, `ub:<kind>`,
/// `fault`, `timeout`, `setup`, `parse`), with the details.
pub fn run_kind(p: &GenProgram, cfg: &GenConfig) -> (String, Option<String>) {
    let (kind, detail, _) = run_counted(p, cfg);
    (kind, detail)
}

/// [`run_kind`], with the thread-instructions executed (0 when it did
/// not start).
pub fn run_counted(p: &GenProgram, cfg: &GenConfig) -> (String, Option<String>, u64) {
    let m = match ptxc::ptx::parse_checked("gen.ptx", &p.ptx) {
        Ok(m) => m,
        Err(e) => return ("parse".into(), Some(e), 0),
    };
    let threads = p.spec.threads_per_block() * p.spec.block_count();
    let limits = RunLimits {
        fuel: cfg.sizes.fuel_per_thread.saturating_mul(threads),
        wall: Duration::from_secs(20),
        ..RunLimits::default()
    };
    match ptx_interp::run(&m, &p.ptx, &p.spec, &limits) {
        Err(e) => ("setup".into(), Some(e.0), 0),
        Ok(r) => {
            let (kind, detail) = match r.outcome {
                Outcome::Completed => ("completed".into(), None),
                Outcome::Ub { kind, at } => (
                    format!("ub:{}", ub_name(&kind)),
                    Some(format!("{kind:?} at {at}")),
                ),
                Outcome::Fault { message, at } => {
                    ("fault".into(), Some(format!("{message} at {at}")))
                }
                Outcome::Timeout { executed } => {
                    ("timeout".into(), Some(format!("after {executed}")))
                }
                // The interpreter runs PTX, which has no control codes: it
                // never reports a hazard; counted apart if it ever did.
                Outcome::Hazard { hazard, at } => {
                    ("hazard".into(), Some(format!("{hazard:?} at {at}")))
                }
            };
            (kind, detail, r.executed)
        }
    }
}

fn ub_name(k: &UbKind) -> &'static str {
    match k {
        UbKind::UninitializedRegister(_) => "uninitialized_register",
        UbKind::DivisionByZero => "division_by_zero",
        UbKind::Misaligned { .. } => "misaligned",
        UbKind::DataRace { .. } => "data_race",
        UbKind::WarpSyncMismatch(_) => "warp_sync_mismatch",
        UbKind::Deadlock(_) => "deadlock",
        UbKind::CallDepth => "call_depth",
        UbKind::UninitializedMemory { .. } => "uninitialized_memory",
    }
}

/// ptxc lowering of a program for one architecture: `Ok` or the message.
pub fn lower_for(p: &GenProgram, arch: &str) -> Result<(), String> {
    let sm = ptxc::targets::lookup_sm(arch).ok_or_else(|| format!("unknown arch {arch}"))?;
    ptxc::lower::lower_source("gen.ptx", &p.ptx, sm, &ptxc::lower::LowerOptions::default())
        .map(|_| ())
}

/// One program's figures.
#[derive(Clone, Debug)]
pub struct ProgramReport {
    pub run: String,
    pub run_detail: Option<String>,
    /// Thread-instructions executed per thread (rounded down).
    pub per_thread: u64,
    /// Per arch of [`STATS_ARCHS`]: `None` when it lowered, else the error.
    pub lower: Vec<Option<String>>,
}

pub fn program_report(p: &GenProgram, cfg: &GenConfig) -> ProgramReport {
    let (run, run_detail, executed) = run_counted(p, cfg);
    let threads = (p.spec.threads_per_block() * p.spec.block_count()).max(1);
    let lower = STATS_ARCHS.iter().map(|a| lower_for(p, a).err()).collect();
    ProgramReport {
        per_thread: executed / threads,
        run,
        run_detail,
        lower,
    }
}

/// Figures over many programs.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub programs: u64,
    /// run kind -> count
    pub runs: BTreeMap<String, u64>,
    /// per arch: programs lowered
    pub lowered: Vec<u64>,
    /// lowering error message (first line, positions dropped) -> count
    pub lower_errors: BTreeMap<String, u64>,
    /// feature name -> programs with it enabled
    pub coverage: BTreeMap<&'static str, u64>,
    /// family name -> programs where it wrote at least one statement
    pub used: BTreeMap<&'static str, u64>,
    /// seeds of programs that did not complete, with their kinds (first 20)
    pub failures: Vec<(u64, String, String)>,
    pub elapsed: Duration,
    /// time spent generating only
    pub gen_time: Duration,
    /// instructions executed per thread: sum (for the mean) and maximum
    pub per_thread_sum: u64,
    pub per_thread_max: u64,
    /// programs by size class of `ptx` lines: sum and maximum
    pub lines_sum: u64,
    pub lines_max: u64,
}

impl Stats {
    /// Runs seeds `first..first+count`.
    pub fn over(first: u64, count: u64, cfg: &GenConfig) -> Stats {
        let start = Instant::now();
        let mut s = Stats {
            lowered: vec![0; STATS_ARCHS.len()],
            ..Stats::default()
        };
        for f in FAMILIES {
            s.coverage.insert(f.1, 0);
            s.used.insert(f.1, 0);
        }
        for t in TYPES {
            s.coverage.insert(t.1, 0);
        }
        // Programs in parallel (rayon), folded in seed order, so the
        // figures and the failure list do not depend on the thread count.
        use rayon::prelude::*;
        let end = first.saturating_add(count);
        let mut chunk_start = first;
        while chunk_start < end {
            let chunk_end = end.min(chunk_start.saturating_add(4096));
            let results: Vec<_> = (chunk_start..chunk_end)
                .into_par_iter()
                .map(|seed| {
                    let t0 = Instant::now();
                    let (p, used) = generate_with_usage(seed, cfg);
                    let gen_time = t0.elapsed();
                    let r = program_report(&p, cfg);
                    (p, used, r, gen_time)
                })
                .collect();
            for (p, used, r, gen_time) in results {
                s.gen_time += gen_time;
                s.add(&p, &r);
                for f in used {
                    *s.used.entry(f).or_default() += 1;
                }
            }
            chunk_start = chunk_end;
        }
        s.elapsed = start.elapsed();
        s
    }

    pub fn add(&mut self, p: &GenProgram, r: &ProgramReport) {
        self.programs += 1;
        self.per_thread_sum += r.per_thread;
        self.per_thread_max = self.per_thread_max.max(r.per_thread);
        let lines = p.ptx.lines().count() as u64;
        self.lines_sum += lines;
        self.lines_max = self.lines_max.max(lines);
        *self.runs.entry(r.run.clone()).or_default() += 1;
        if r.run != "completed" && self.failures.len() < 20 {
            self.failures.push((
                p.seed.unwrap_or(0),
                r.run.clone(),
                r.run_detail.clone().unwrap_or_default(),
            ));
        }
        for (i, e) in r.lower.iter().enumerate() {
            match e {
                None => self.lowered[i] += 1,
                Some(msg) => {
                    let key = format!("{}: {}", STATS_ARCHS[i], strip_position(msg));
                    *self.lower_errors.entry(key).or_default() += 1;
                }
            }
        }
        for f in &p.features {
            *self.coverage.entry(f).or_default() += 1;
        }
    }

    pub fn completed(&self) -> u64 {
        self.runs.get("completed").copied().unwrap_or(0)
    }

    /// The report printed by `ptxdiff gen --stats`.
    pub fn render(&self) -> String {
        let pct = |n: u64| 100.0 * n as f64 / self.programs.max(1) as f64;
        let mut out = format!("programs: {}\n", self.programs);
        out.push_str(&format!(
            "interpreter: {} completed UB-free within fuel ({:.3}%)\n",
            self.completed(),
            pct(self.completed())
        ));
        for (k, n) in &self.runs {
            if k != "completed" {
                out.push_str(&format!("  {k}: {n}\n"));
            }
        }
        for (seed, kind, detail) in &self.failures {
            out.push_str(&format!("  seed {seed}: {kind}: {detail}\n"));
        }
        for (i, a) in STATS_ARCHS.iter().enumerate() {
            out.push_str(&format!(
                "ptxc -O0 lower {a}: {} ({:.3}%)\n",
                self.lowered[i],
                pct(self.lowered[i])
            ));
        }
        for (k, n) in &self.lower_errors {
            out.push_str(&format!("  {k}: {n}\n"));
        }
        let n = self.programs.max(1);
        out.push_str(&format!(
            "size: {:.0} PTX lines mean, {} max; {:.0} instructions executed per thread mean, {} max\n",
            self.lines_sum as f64 / n as f64,
            self.lines_max,
            self.per_thread_sum as f64 / n as f64,
            self.per_thread_max
        ));
        out.push_str("coverage (programs with the feature enabled / with a statement of it):\n");
        for (k, n) in &self.coverage {
            match self.used.get(k) {
                Some(u) => out.push_str(&format!(
                    "  {k}: {n} ({:.1}%) / {u} ({:.1}%)\n",
                    pct(*n),
                    pct(*u)
                )),
                None => out.push_str(&format!("  {k}: {n} ({:.1}%)\n", pct(*n))),
            }
        }
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        out.push_str(&format!(
            "throughput: {:.1} programs/s generate+interpret+lower x{} ({:.1} s wall, {} threads); generation alone {:.0} programs/s per thread\n",
            self.programs as f64 / secs,
            STATS_ARCHS.len(),
            secs,
            rayon::current_num_threads(),
            self.programs as f64 / self.gen_time.as_secs_f64().max(1e-9)
        ));
        out
    }
}

/// A lowering message without its `file:line:col:` prefix, so equal
/// causes count together.
fn strip_position(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or("");
    let mut rest = first;
    for _ in 0..3 {
        if let Some(i) = rest.find(':') {
            let (head, tail) = rest.split_at(i);
            if head.chars().all(|c| c.is_ascii_digit()) || head.ends_with(".ptx") {
                rest = tail[1..].trim_start();
                continue;
            }
        }
        break;
    }
    rest.to_string()
}
