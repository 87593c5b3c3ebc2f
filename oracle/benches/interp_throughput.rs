//! PTX interpreter throughput: thread-instructions per second on one core
//! for the matmul and reduction kernels of the corpus (issue 3 target: at
//! least 50 million). Decoding is outside the timed region only in the
//! "steady" figure; the "end-to-end" figure includes parse, decode and setup.
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
        let mut executed = 0u64;
        let mut runs = 0;
        let t = Instant::now();
        while t.elapsed().as_secs_f64() < 2.0 {
            let r = ptx_interp::run(&module, &src, &spec, &limits).unwrap();
            assert_eq!(r.outcome, Outcome::Completed, "{k}");
            executed += r.executed;
            runs += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{:<28} {:>8.1} M thread-instructions/s  ({} runs of {} thread-instructions)   (target >= 50)",
            format!("{k}.{variant}"),
            executed as f64 / secs / 1e6,
            runs,
            executed / runs
        );
    }
}
