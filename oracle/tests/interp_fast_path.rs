//! The interpreter's fast path (specialised instruction forms) against its
//! general executor: random programs over the instructions that have fast
//! forms, with uninitialized registers, misaligned and out-of-bounds
//! accesses, generic addresses into every window, races, barriers and
//! guards, in 64- and 32-bit address modes; and every corpus kernel. Both
//! must give the same outcome (fault and UB reports included), instruction
//! count and outputs.

mod random_ptx;

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, RunLimits};
use random_ptx::{case, spec};
use std::path::Path;

fn same(src: &str, name: &str, spec: &LaunchSpec, limits: &RunLimits) -> bool {
    let Ok(m) = ptxc::ptx::parse_checked(name, src) else {
        return false;
    };
    let fast = ptx_interp::run(&m, src, spec, limits);
    let general = ptx_interp::run_general(&m, src, spec, limits);
    match (fast, general) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.outcome, b.outcome, "{name}:\n{src}");
            assert_eq!(a.executed, b.executed, "{name}:\n{src}");
            assert_eq!(a.outputs, b.outputs, "{name}:\n{src}");
        }
        (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{name}"),
    }
    true
}

#[test]
fn random_programs_run_the_same_on_both_paths() {
    let limits = RunLimits {
        fuel: 200_000,
        ..Default::default()
    };
    let mut ran = 0;
    let mut outcomes = std::collections::BTreeMap::new();
    for seed in 0..1000u64 {
        let (src, grid, block) = case(seed);
        let s = spec(grid, block);
        if same(&src, &format!("seed {seed}"), &s, &limits) {
            ran += 1;
            let m = ptxc::ptx::parse_checked("p", &src).unwrap();
            let o = ptx_interp::run(&m, &src, &s, &limits).unwrap().outcome;
            *outcomes
                .entry(format!("{o:?}").chars().take(18).collect::<String>())
                .or_insert(0) += 1;
        }
    }
    // The programs must be valid PTX, and reach every kind of outcome:
    // completion, faults, data races, misaligned and uninitialized reads.
    assert!(ran == 1000, "only {ran} programs parsed");
    assert!(outcomes.len() >= 5, "{outcomes:?}");
}

#[test]
fn corpus_kernels_run_the_same_on_both_paths() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let limits = RunLimits {
        fuel: 300_000,
        ..Default::default()
    };
    let mut kernels = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let k = e.file_name().to_string_lossy().to_string();
        let Ok(spec) = LaunchSpec::from_file(e.path().join(format!("{k}.launch.json"))) else {
            continue;
        };
        for f in std::fs::read_dir(e.path()).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().to_string();
            if name.ends_with(".ptx") {
                let src = std::fs::read_to_string(f.path()).unwrap();
                kernels += usize::from(same(&src, &name, &spec, &limits));
            }
        }
    }
    assert!(kernels >= 30, "{kernels}");
}
