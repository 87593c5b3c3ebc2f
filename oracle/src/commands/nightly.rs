//! `ptxdiff nightly`: the unattended run. Generate programs and run them
//! through the matrix until the budget is spent, reduce every new
//! signature (one not in `corpus/regressions/known.json`), and write the
//! report (`summary.json`, `summary.md` with a generator-coverage section
//! from `ptxdiff coverage`, `coverage.md`, `index.html`) to
//! `reports/<date>/` (`reports/<date>/shard-I-of-N/` for a shard).
//!
//! ```text
//! ptxdiff nightly [--minutes M | --count N] [--shard I/N] [--jobs N] [--seed S]
//!                 [--date YYYY-MM-DD] [--out DIR] [--matrix NAME] [--no-vendor]
//!                 [--gen-config F] [--known F] [--reduce-seconds S]
//! ```
//!
//! The plan: shard I of N runs the shard-local programs k = 0, 1, ...,
//! program k being generator seed `S + k*N + (I-1)` (so the shards of one
//! night partition one seed sequence); `S` defaults to the date as
//! YYYYMMDD. `--minutes` gives three quarters of the budget to running
//! and the rest to reducing; `--count` fixes the number of programs (each
//! reduction then gets `--reduce-seconds`, default 120).
//!
//! Resumable: after every chunk of programs the report so far is written
//! atomically to `checkpoint.json` in the output directory (the report's
//! `programs` is the next program to run). Starting the same run again
//! (same date, seed, shard and matrix) continues from there; a run killed
//! at any point and resumed adds up to exactly the counts of an
//! uninterrupted run with `--count` (a chunk cut short is rerun whole; its
//! findings are already on disk and are not counted twice, since the
//! report counts verdicts, not files). With `--minutes`, the time already
//! spent is in the checkpoint too, so the total budget is the same.
//! Ctrl-C finishes the chunk in flight, writes the checkpoint and the
//! report (reductions skipped), and exits with status 130.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::fuzz_run::program_of;
use crate::diff::findings::write_atomic;
use crate::diff::known::Known;
use crate::diff::{Config, Engine, Matrix, Options, Program};
use crate::gen::{self, GenConfig};
use crate::report::collect::absorb;
use crate::report::reduced::reduce_finding;
use crate::report::{json, write_report, NightlyReport, SCHEMA};

#[derive(Clone, Debug)]
pub struct NightlyArgs {
    pub minutes: Option<f64>,
    pub count: Option<u64>,
    /// (I, N), 1-based.
    pub shard: (u32, u32),
    pub jobs: usize,
    pub seed: Option<u64>,
    pub date: Option<String>,
    pub out: PathBuf,
    pub matrix: String,
    pub vendor: bool,
    pub gen_config: Option<PathBuf>,
    pub known: PathBuf,
    pub reduce_seconds: f64,
}

/// The budget without `--minutes` or `--count`.
pub const DEFAULT_MINUTES: f64 = 10.0;
pub const CHECKPOINT: &str = "checkpoint.json";

impl Default for NightlyArgs {
    fn default() -> Self {
        NightlyArgs {
            minutes: None,
            count: None,
            shard: (1, 1),
            jobs: 0,
            seed: None,
            date: None,
            out: PathBuf::from("reports"),
            matrix: "default".into(),
            vendor: true,
            gen_config: None,
            known: PathBuf::from("corpus/regressions/known.json"),
            reduce_seconds: 120.0,
        }
    }
}

fn positive(flag: &str, v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("{flag}: '{v}' is not a positive number"))
}

fn shard(v: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--shard: '{v}' is not I/N with 1 <= I <= N");
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(k, c)| k == 4 || k == 7 || c.is_ascii_digit())
}

pub fn parse_args(args: &[String]) -> Result<NightlyArgs, String> {
    let mut a = NightlyArgs::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--minutes" => a.minutes = Some(positive(flag, &val()?)?),
            "--count" => {
                let v = val()?;
                a.count = Some(
                    v.parse()
                        .ok()
                        .filter(|&n: &u64| n > 0)
                        .ok_or_else(|| format!("--count: '{v}' is not a positive number"))?,
                );
            }
            "--shard" => a.shard = shard(&val()?)?,
            "--jobs" | "-j" => {
                a.jobs = super::number(flag, &val()?)?;
            }
            "--seed" => {
                a.seed = Some(super::number(flag, &val()?)?);
            }
            "--date" => {
                let v = val()?;
                if !valid_date(&v) {
                    return Err(format!("--date: '{v}' is not YYYY-MM-DD"));
                }
                a.date = Some(v);
            }
            "--out" => a.out = val()?.into(),
            "--matrix" => a.matrix = val()?,
            "--no-vendor" => a.vendor = false,
            "--gen-config" => a.gen_config = Some(val()?.into()),
            "--known" => a.known = val()?.into(),
            "--reduce-seconds" => a.reduce_seconds = positive(flag, &val()?)?,
            s => return Err(format!("unknown option '{s}'")),
        }
    }
    if a.minutes.is_some() && a.count.is_some() {
        return Err("give --minutes or --count, not both".into());
    }
    Ok(a)
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The seed a date gives by default: YYYYMMDD.
pub fn date_seed(date: &str) -> u64 {
    date.replace('-', "").parse().unwrap_or(0)
}

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

fn install_ctrl_c() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // A second Ctrl-C is ctrlc's default: the process ends.
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    });
}

/// The output directory of a run.
pub fn out_dir(a: &NightlyArgs, date: &str) -> PathBuf {
    let d = a.out.join(date);
    if a.shard.1 > 1 {
        d.join(format!("shard-{}-of-{}", a.shard.0, a.shard.1))
    } else {
        d
    }
}

/// How a nightly run ended.
#[derive(Clone, Debug)]
pub struct NightlyOutcome {
    pub report: NightlyReport,
    pub dir: PathBuf,
    /// Stopped by Ctrl-C before the plan was done.
    pub interrupted: bool,
    /// Resumed from a checkpoint at this program.
    pub resumed_at: Option<u64>,
}

fn plan_matches(cp: &NightlyReport, fresh: &NightlyReport) -> Result<(), String> {
    let same = cp.date == fresh.date
        && cp.seed == fresh.seed
        && cp.shards == fresh.shards
        && cp.matrix == fresh.matrix
        && cp.configs == fresh.configs;
    if same {
        Ok(())
    } else {
        Err(format!(
            "a checkpoint of another run is there (date {}, seed {}, shard {}, matrix {}); use another --out or remove it",
            cp.date,
            cp.seed,
            cp.shards.join(","),
            cp.matrix
        ))
    }
}

fn gen_config(a: &NightlyArgs) -> Result<GenConfig, String> {
    match &a.gen_config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
            GenConfig::from_json(&text).map_err(|e| format!("{}: {e}", p.display()))
        }
        None => Ok(GenConfig::default()),
    }
}

fn save(path: &Path, r: &NightlyReport) -> Result<(), String> {
    write_atomic(path, json::to_json(r).as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the command; `progress` gets the progress lines.
pub fn run(a: &NightlyArgs, progress: &mut dyn FnMut(&str)) -> Result<NightlyOutcome, String> {
    install_ctrl_c();
    let date = a.date.clone().unwrap_or_else(today);
    let seed0 = a.seed.unwrap_or_else(|| date_seed(&date));
    let jobs = if a.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        a.jobs
    };
    let vendor = a.vendor && crate::diff::vendor::available();
    let matrix = Matrix::preset(&a.matrix, vendor)?;
    let known = Known::read(&a.known)?;
    let gcfg = gen_config(a)?;
    let dir = out_dir(a, &date);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let findings_root = dir.join("findings");
    let checkpoint = dir.join(CHECKPOINT);

    let mut fresh = NightlyReport::empty(&date, &a.matrix);
    fresh.schema = SCHEMA;
    fresh.seed = seed0;
    fresh.shards = vec![format!("{}/{}", a.shard.0, a.shard.1)];
    fresh.jobs = jobs;
    fresh.minutes = a.minutes.unwrap_or(if a.count.is_some() {
        0.0
    } else {
        DEFAULT_MINUTES
    });
    fresh.configs = matrix.configs.iter().map(Config::label).collect();
    let (mut rep, resumed_at) = if checkpoint.exists() {
        let text = std::fs::read_to_string(&checkpoint)
            .map_err(|e| format!("{}: {e}", checkpoint.display()))?;
        let cp = json::from_json(&text).map_err(|e| format!("{}: {e}", checkpoint.display()))?;
        plan_matches(&cp, &fresh).map_err(|e| format!("{}: {e}", checkpoint.display()))?;
        let at = cp.programs;
        (cp, Some(at))
    } else {
        (fresh, None)
    };
    rep.jobs = jobs;
    if let Some(k) = resumed_at {
        progress(&format!("resuming {} at program {k}", dir.display()));
    }

    let engine = Engine::new(
        matrix,
        Options {
            jobs,
            findings: Some(findings_root.clone()),
            ..Options::default()
        },
    )?;
    let budget_s = rep.minutes * 60.0;
    let run_budget = 0.75 * budget_s;
    let (shard_i, shard_n) = (u64::from(a.shard.0), u64::from(a.shard.1));
    let chunk = (2 * jobs) as u64;
    let mut last = Instant::now();
    let mut interrupted = false;
    loop {
        if STOP.load(Ordering::SeqCst) {
            interrupted = true;
            break;
        }
        let remaining = match a.count {
            Some(c) => c.saturating_sub(rep.programs),
            None if rep.elapsed_s >= run_budget => 0,
            None => u64::MAX,
        };
        if remaining == 0 {
            break;
        }
        let n = chunk.min(remaining);
        let programs: Vec<Program> = (rep.programs..rep.programs + n)
            .map(|k| {
                let s = seed0.wrapping_add(k * shard_n + shard_i - 1);
                program_of(gen::generate(s, &gcfg), s)
            })
            .collect();
        let t = Instant::now();
        let mut next = rep.clone();
        let mut idx = 0;
        engine.run(programs.iter().cloned(), |pr| {
            absorb(&mut next, &programs[idx], pr, &findings_root, &known);
            idx += 1;
        })?;
        next.elapsed_s += t.elapsed().as_secs_f64();
        rep = next;
        save(&checkpoint, &rep)?;
        if last.elapsed() >= Duration::from_secs(5) {
            last = Instant::now();
            progress(&format!(
                "[{:6.1} s] {} programs, {} runs, {} failing, {} signatures",
                rep.elapsed_s,
                rep.programs,
                rep.executions,
                rep.total_failures(),
                rep.findings.len()
            ));
        }
    }
    rep.timings.insert("run".into(), rep.elapsed_s);

    if !interrupted {
        let t = Instant::now();
        // With --minutes, reductions share what the run left of the budget.
        let total_deadline = a
            .count
            .is_none()
            .then(|| Instant::now() + Duration::from_secs_f64((budget_s - rep.elapsed_s).max(0.0)));
        // One finding per bug first (report/model.rs, reduction_order).
        for k in rep.reduction_order() {
            if STOP.load(Ordering::SeqCst) {
                interrupted = true;
                break;
            }
            let f = &rep.findings[k];
            if f.known || f.reduced_ptx.is_some() {
                continue;
            }
            let per = Instant::now() + Duration::from_secs_f64(a.reduce_seconds);
            let deadline = total_deadline.map_or(per, |d| d.min(per));
            progress(&format!("reducing {}", f.signature));
            let filled = reduce_finding(f, deadline);
            rep.findings[k] = filled;
            save(&checkpoint, &rep)?;
        }
        *rep.timings.entry("reduce".into()).or_insert(0.0) += t.elapsed().as_secs_f64();
    }
    let t = Instant::now();
    write_report(&dir, &rep).map_err(|e| format!("{}: {e}", dir.display()))?;
    *rep.timings.entry("report".into()).or_insert(0.0) += t.elapsed().as_secs_f64();
    // Once more with the report's own time in it.
    write_report(&dir, &rep).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !interrupted && rep.programs > 0 {
        append_coverage(&dir, seed0, rep.programs, &gcfg)?;
    }
    save(&checkpoint, &rep)?;
    Ok(NightlyOutcome {
        report: rep,
        dir,
        interrupted,
        resumed_at,
    })
}

/// The coverage section (`ptxdiff coverage` over the night's first
/// programs and `corpus/kernels`): `coverage.md`, and the end of
/// `summary.md`.
fn append_coverage(dir: &Path, seed: u64, programs: u64, cfg: &GenConfig) -> Result<(), String> {
    let section =
        super::coverage::nightly_section(seed, programs, cfg, Path::new("corpus/kernels"));
    let md = dir.join(crate::report::write::MARKDOWN);
    let mut text = std::fs::read_to_string(&md).map_err(|e| format!("{}: {e}", md.display()))?;
    text.push('\n');
    text.push_str(&section);
    write_atomic(&dir.join("coverage.md"), section.as_bytes())
        .and_then(|_| write_atomic(&md, text.as_bytes()))
        .map_err(|e| format!("{}: {e}", dir.display()))
}
