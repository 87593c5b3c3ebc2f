//! Runs one corpus kernel through the PTX interpreter `N` times (default 1)
//! and prints the thread-instructions executed: a small driver for profiling
//! the interpreter under callgrind, e.g.
//!
//! `valgrind --tool=callgrind --toggle-collect='oracle::ptx_interp::run'
//!  target/release/examples/interp_once matmul_tiled ptx`
//!
//! (the `interp_throughput` bench measures the same `run` calls).

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let k = args.get(1).map_or("matmul_tiled", |s| s);
    let variant = args.get(2).map_or("ptx", |s| s);
    let n: u32 = args.get(3).map_or(1, |s| s.parse().expect("run count"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let spec = LaunchSpec::from_file(dir.join(k).join(format!("{k}.launch.json"))).unwrap();
    let ptx = dir.join(k).join(format!("{k}.{variant}"));
    let src = std::fs::read_to_string(&ptx).unwrap();
    let module = ptxc::ptx::parse_checked(&ptx.display().to_string(), &src).unwrap();
    let mut executed = 0;
    for _ in 0..n {
        let r = ptx_interp::run(&module, &src, &spec, &RunLimits::default()).unwrap();
        assert_eq!(r.outcome, Outcome::Completed, "{k}");
        executed += r.executed;
    }
    println!("{k}.{variant}: {executed} thread-instructions in {n} runs");
}
