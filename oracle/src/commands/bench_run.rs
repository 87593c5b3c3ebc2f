//! `ptxdiff bench run [--count N] [--matrix NAME] [--seed S] [--gen-config F]`: the
//! differential engine's throughput on generated programs, generation
//! included: programs and configuration runs per second with one job and
//! with every core, and the speedup. The targets: 1,000 programs
//! per second through the `fuzz` slice (the default here), and at least
//! 1.8x on 2 cores. The figures are printed, not asserted.

use super::fuzz_run::{self, RunArgs};

/// The parsed command line.
#[derive(Clone, Debug)]
pub struct BenchRunArgs {
    pub count: u64,
    pub matrix: String,
    pub seed: u64,
    /// `--gen-config F`: the generator's configuration (program sizes
    /// decide most of the rate).
    pub gen_config: Option<std::path::PathBuf>,
}

pub fn parse_args(args: &[String]) -> Result<BenchRunArgs, String> {
    let mut a = BenchRunArgs {
        count: 200,
        matrix: "fuzz".into(),
        seed: 1,
        gen_config: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let v = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?
            .clone();
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: '{v}' is not a number"))
        };
        match flag.as_str() {
            "--count" => a.count = num(&v)?.max(1),
            "--seed" => a.seed = num(&v)?,
            "--matrix" => a.matrix = v,
            "--gen-config" => a.gen_config = Some(v.into()),
            s => return Err(format!("unknown option '{s}'")),
        }
    }
    Ok(a)
}

/// Runs the measurement and returns the report lines.
pub fn measure(a: &BenchRunArgs) -> Result<Vec<String>, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let dir = std::env::temp_dir().join(format!("ptxdiff-bench-run-{}", std::process::id()));
    let run_args = |jobs: usize| RunArgs {
        count: Some(a.count),
        seed: a.seed,
        jobs,
        matrix: a.matrix.clone(),
        findings: dir.join(format!("j{jobs}")),
        vendor: false,
        gen_config: a.gen_config.clone(),
        ..RunArgs::default()
    };
    // The programs' mean size, in PTX instructions (statements ending in
    // ';' inside function bodies, directives and declarations excluded).
    let cfg = fuzz_run::gen_config(&run_args(1))?;
    let insts: usize = (a.seed..a.seed + a.count)
        .map(|s| instructions(&crate::gen::generate(s, &cfg).ptx))
        .sum();
    let mut lines = vec![format!(
        "bench run: {} generated programs (seeds {}..; {:.0} PTX instructions each on average), matrix '{}', vendor off",
        a.count,
        a.seed,
        insts as f64 / a.count as f64,
        a.matrix
    )];
    let mut rates = Vec::new();
    for jobs in [1, cores] {
        let args = run_args(jobs);
        let o = fuzz_run::run(&args, &mut |_| {}, &mut |_| {})?;
        let s = &o.stats;
        let secs = s.elapsed.as_secs_f64().max(1e-9);
        let rate = s.programs as f64 / secs;
        rates.push(rate);
        lines.push(format!(
            "  {jobs} job(s): {} programs, {} configuration runs in {secs:.2} s: {rate:.1} programs/s, {:.1} runs/s ({:.2} ms of core time per configuration run)",
            s.programs,
            s.execs,
            s.execs as f64 / secs,
            1000.0 * secs * jobs as f64 / s.execs.max(1) as f64
        ));
        if !o.clean() {
            lines.push(format!("  note: {}", o.verdict_line()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if cores > 1 {
        lines.push(format!(
            "  speedup on {cores} cores: {:.2}x (target >= 1.8x on 2 cores); programs/s target 1000",
            rates[1] / rates[0]
        ));
    }
    Ok(lines)
}

/// The instructions of a PTX text: lines ending in `;` that are not
/// directives (`.reg`, `.param`, ...) or braces.
fn instructions(ptx: &str) -> usize {
    ptx.lines()
        .map(str::trim)
        .filter(|l| l.ends_with(';') && !l.starts_with('.') && !l.starts_with("//"))
        .count()
}
