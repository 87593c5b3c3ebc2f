//! Differential check of the PTX interpreter against an earlier build of
//! itself: runs every corpus kernel (each PTX variant) under its launch spec
//! and under perturbed ones (other block and grid shapes, which provoke
//! races, faults and different schedules; small fuel, which stops runs
//! mid-way) and prints one line per run: outcome, instructions executed and
//! a hash of the outputs. Two builds agree iff their outputs are identical:
//!
//! `interp_dump > new.txt` (and the same from the older build), `diff`.
//! `INTERP_DUMP_SEEDS=n` sets the number of random programs (1000).

#[path = "../tests/random_ptx/mod.rs"]
mod random_ptx;

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, RunLimits};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::Path;

fn main() {
    // Random programs (as tests/interp_fast_path.rs runs them).
    let limits = RunLimits {
        fuel: 200_000,
        ..Default::default()
    };
    let seeds: u64 = std::env::var("INTERP_DUMP_SEEDS").map_or(1000, |s| s.parse().unwrap());
    for seed in 0..seeds {
        let (src, grid, block) = random_ptx::case(seed);
        let spec = random_ptx::spec(grid, block);
        let Ok(module) = ptxc::ptx::parse_checked("random", &src) else {
            println!("random {seed}: does not parse");
            continue;
        };
        println!("random {seed}: {}", result(&module, &src, &spec, &limits));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut kernels: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    kernels.sort();
    for k in kernels {
        let kdir = dir.join(&k);
        let Ok(spec) = LaunchSpec::from_file(kdir.join(format!("{k}.launch.json"))) else {
            continue;
        };
        let mut ptxs: Vec<_> = std::fs::read_dir(&kdir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".ptx"))
            .collect();
        ptxs.sort();
        for (p, src) in ptxs.iter().flat_map(|p| sources(&kdir, p)) {
            let Ok(module) = ptxc::ptx::parse_checked(&p, &src) else {
                println!("{p}: does not parse");
                continue;
            };
            for (label, s) in variants(&spec) {
                for fuel in [u64::MAX, 1_000, 77_777] {
                    let limits = RunLimits {
                        fuel: fuel.min(RunLimits::default().fuel),
                        ..Default::default()
                    };
                    let line = result(&module, &src, &s, &limits);
                    println!("{p} [{label}] fuel={fuel}: {line}");
                }
            }
        }
    }
}

/// One run's outcome, instruction count and a hash of its outputs.
fn result(
    module: &ptxc::ptx::ast::Module,
    src: &str,
    spec: &LaunchSpec,
    limits: &RunLimits,
) -> String {
    match ptx_interp::run(module, src, spec, limits) {
        Ok(r) => {
            let mut h = DefaultHasher::new();
            format!("{:?}", r.outputs).hash(&mut h);
            format!(
                "{:?} executed={} outputs={:016x}",
                r.outcome,
                r.executed,
                h.finish()
            )
        }
        Err(e) => format!("setup error {e}"),
    }
}

/// A module's text and perturbed copies: without its CTA barriers (races),
/// with warp barriers in their place (partial ordering).
fn sources(kdir: &Path, p: &str) -> Vec<(String, String)> {
    let src = std::fs::read_to_string(kdir.join(p)).unwrap();
    let strip = |with: &str| -> String {
        src.lines()
            .map(|l| {
                if l.trim_start().starts_with("bar.sync")
                    || l.trim_start().starts_with("barrier.sync")
                {
                    with.to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut out = vec![(p.to_string(), src.clone())];
    if src.contains("bar.sync") || src.contains("barrier.sync") {
        out.push((format!("{p}-nobar"), strip("")));
        out.push((format!("{p}-warpbar"), strip("\tbar.warp.sync -1;")));
    }
    out
}

/// The spec and perturbed copies of it.
fn variants(spec: &LaunchSpec) -> Vec<(String, LaunchSpec)> {
    let mut out = vec![("orig".to_string(), spec.clone())];
    let b = spec.block();
    let g = spec.grid();
    let shapes: [([u32; 3], [u32; 3]); 5] = [
        ([1, 1, 1], b),
        (g, [b[0].div_ceil(2).max(1), b[1], b[2]]),
        (g, [b[0] * 2, b[1], b[2]]),
        ([2, 1, 1], [(b[0] + 3).min(1024), 1, 1]),
        (g, [b[0], b[1].div_ceil(2), b[2]]),
    ];
    for (grid, block) in shapes {
        if block.iter().product::<u32>() > 1024 {
            continue;
        }
        let mut s = spec.clone();
        s.grid_dims = grid.to_vec();
        s.block_dims = block.to_vec();
        out.push((format!("grid {grid:?} block {block:?}"), s));
    }
    out
}
