//! SASS simulator throughput: simulated thread-instructions per second on
//! one core (one per active lane per executed instruction) for the matmul
//! and reduction kernels' vendor SASS (issue 4 target: at least 100
//! million). The "steady" figure times `sim::run` on an already parsed
//! function (decode, setup and the run); parsing the listing is outside.
//!
//! `cargo bench -p oracle --bench sim_throughput`
//!
//! For profiling, `SIM_BENCH_ONLY=matmul_tiled.sm_80` keeps one pair and
//! `SIM_BENCH_RUNS=N` runs it exactly N times instead of for two seconds
//! (e.g. under `valgrind --tool=callgrind
//! --toggle-collect='oracle::sim::run::run*'`).

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits};
use oracle::sim::{self, SimInputs};
use std::path::Path;
use std::time::Instant;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let only = std::env::var("SIM_BENCH_ONLY").ok();
    let fixed_runs: Option<u64> = std::env::var("SIM_BENCH_RUNS")
        .ok()
        .map(|n| n.parse().expect("SIM_BENCH_RUNS: a number"));
    for (k, arch) in [
        ("matmul_tiled", "sm_80"),
        ("block_reduce", "sm_80"),
        ("matmul_tiled", "sm_70"),
        ("block_reduce", "sm_70"),
    ] {
        if only.as_deref().is_some_and(|o| o != format!("{k}.{arch}")) {
            continue;
        }
        let spec = LaunchSpec::from_file(dir.join(k).join(format!("{k}.launch.json"))).unwrap();
        let text = std::fs::read_to_string(dir.join(k).join(format!("{k}.{arch}.sass"))).unwrap();
        let sm = ptxc::targets::lookup_sm(arch).unwrap();
        let file = ptxc::ir::sass_text::parse_file(&text).unwrap();
        let f = ptxc::ir::from_sass(&file.functions[0], Some(sm)).unwrap();
        let limits = RunLimits::default();
        let inputs = SimInputs::default();
        let mut executed = 0u64;
        let mut runs = 0;
        let t = Instant::now();
        while match fixed_runs {
            Some(n) => runs < n,
            None => t.elapsed().as_secs_f64() < 2.0,
        } {
            let r = sim::run(&f, sm, &spec, &inputs, &limits).unwrap();
            assert_eq!(r.outcome, Outcome::Completed, "{k}.{arch}");
            executed += r.executed;
            runs += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{:<22} {:>8.1} M thread-instructions/s  ({} runs of {} thread-instructions)   (target >= 100)",
            format!("{k}.{arch}"),
            executed as f64 / secs / 1e6,
            runs,
            executed / runs
        );
    }
}
