//! The biased modes' differential run is clean: `N` programs of each mode
//! (default 12, `PTXDIFF_BIAS_PROGRAMS` overrides), run through the
//! oracle and ptxc at `fuzz_run::bias_matrix` (`sm_80 -O3`, default
//! pipeline and `NvOptLevel=5`), disagree nowhere.
//!
//! This is also the test command of `scripts/mutants.sh`: a mutant of a
//! peephole is killed when the differential run alone (not the unit
//! tests) finds it, so the harness's mutation score measures what the
//! generator's programs reach.

use oracle::commands::fuzz_run::bias_stats;
use oracle::gen::{Bias, GenConfig};

fn programs() -> u64 {
    std::env::var("PTXDIFF_BIAS_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

fn clean(mode: Bias) {
    let n = programs();
    let (stats, _) = bias_stats(mode, &GenConfig::default(), 1, n, 0).unwrap();
    assert_eq!(stats.programs, n);
    assert_eq!(stats.failures(), 0, "{}", stats.lines().join("\n"));
}

#[test]
fn the_nan_or_zero_runs_agree_with_the_oracle() {
    clean(Bias::NanOrZero);
}

#[test]
fn the_tex_nodep_runs_agree_with_the_oracle() {
    clean(Bias::TexNodep);
}

#[test]
fn the_hoist_invariants_runs_agree_with_the_oracle() {
    clean(Bias::HoistInvariants);
}
