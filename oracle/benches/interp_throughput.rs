//! PTX interpreter throughput: thread-instructions per second on one core
//! for the matmul and reduction kernels of the corpus (issue 3 target: at
//! least 50 million). Each timed `run` includes decode and setup. The rate
//! is measured over 7 windows of 0.5 s of wall-clock time, and printed two
//! ways: per second of this thread's CPU time (Linux's
//! `/proc/thread-self/schedstat`, nanoseconds on a core: what one core
//! does, whatever else the machine runs; the headline figure), and per
//! second of wall-clock time (best, median and worst window: on a shared
//! 2-core VM these swing by 1.5x with the load).
//!
//! `cargo bench -p oracle --bench interp_throughput`

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};
use std::path::Path;
use std::time::Instant;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    for (k, variant) in [
        ("matmul_tiled", "ptx"),
        ("block_reduce", "ptx"),
        ("matmul_tiled", "O0.ptx"),
        ("block_reduce", "O0.ptx"),
    ] {
        let spec = LaunchSpec::from_file(dir.join(k).join(format!("{k}.launch.json"))).unwrap();
        let ptx = dir.join(k).join(format!("{k}.{variant}"));
        let src = std::fs::read_to_string(&ptx).unwrap();
        let module = ptxc::ptx::parse_checked(&ptx.display().to_string(), &src).unwrap();
        let limits = RunLimits::default();
        let mut rates = Vec::new();
        let mut per_run = 0;
        let (mut total, cpu0) = (0u64, cpu_ns());
        for _ in 0..7 {
            let (mut executed, t) = (0u64, Instant::now());
            while t.elapsed().as_secs_f64() < 0.5 {
                let r = ptx_interp::run(&module, &src, &spec, &limits).unwrap();
                assert_eq!(r.outcome, Outcome::Completed, "{k}");
                executed += r.executed;
                per_run = r.executed;
            }
            rates.push(executed as f64 / t.elapsed().as_secs_f64() / 1e6);
            total += executed;
        }
        let cpu = match (cpu0, cpu_ns()) {
            (Some(a), Some(b)) if b > a => {
                format!("{:>8.1}", total as f64 / ((b - a) as f64 / 1e9) / 1e6)
            }
            _ => "     n/a".into(),
        };
        rates.sort_by(f64::total_cmp);
        println!(
            "{:<22} {cpu} M thread-instructions per CPU-second   (target >= 50); wall clock: best window {:.1}, median {:.1}, worst {:.1}; {} per run",
            format!("{k}.{variant}"),
            rates[6],
            rates[3],
            rates[0],
            per_run
        );
    }
}

/// Nanoseconds this thread has run on a CPU (the first field of Linux's
/// `/proc/thread-self/schedstat`); `None` where that file does not exist.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
