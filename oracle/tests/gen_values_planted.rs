//! Issue 29's scenario as a test: a 64-bit integer comparison whose low
//! words are compared signed instead of unsigned (PTX ISA 9.7.5: the
//! 64-bit ordering is the high words', then on equal high words the low
//! words' *unsigned* order) is wrong only when the two operands have equal
//! high words and low words on both sides of 0x80000000. Random 64-bit
//! operands almost never have equal high words; the generator's related
//! operands and correlated input buffers (oracle/src/gen/values.rs) must
//! make default programs expose it.
//!
//! The bug is planted through ptxc's test-only hook (feature `test-hooks`,
//! oracle's dev-dependencies only): after an early phase, the low-word
//! `ISETP .U32` that feeds a signed `ISETP .EX` ordering loses its `.U32`.
//! The hook slot is process-wide, so this file is its own test binary.

use oracle::diff::run::run_oracle;
use oracle::diff::{run_config, Config, Program};
use oracle::gen::{generate, GenConfig};
use oracle::ptx_interp::RunLimits;
use ptxc::ir::Op;
use ptxc::phases::{table, test_hooks, PhaseContext};

/// The low words of every signed 64-bit ordering compared signed.
fn signed_low_words(cx: &mut PhaseContext) -> u64 {
    let ordering = |i: &ptxc::ir::Inst| ["LT", "LE", "GT", "GE"].iter().any(|m| i.has_mod(m));
    let lows: Vec<_> = cx
        .function
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .filter(|i| i.op == Op::ISETP && i.has_mod("EX") && !i.has_mod("U32") && ordering(i))
        .filter_map(|i| i.operands.last().cloned())
        .collect();
    let mut n = 0;
    for i in cx
        .function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
    {
        if i.op == Op::ISETP
            && !i.has_mod("EX")
            && i.has_mod("U32")
            && i.operands.first().is_some_and(|d| lows.contains(d))
        {
            i.mods.retain(|m| *m != "U32");
            n += 1;
        }
    }
    n
}

#[test]
fn default_programs_expose_a_bug_that_needs_equal_high_words() {
    let cfg = Config::parse("ptxc sm_80 -O3 default").unwrap();
    let limits = RunLimits::default();
    let gen = GenConfig::default();
    test_hooks::install(table::lookup("OriPerformLiveDeadFirst"), signed_low_words);
    let mut failing = Vec::new();
    let mut checked = 0;
    for seed in 1..=150u64 {
        let g = generate(seed, &gen);
        let p = Program::new(format!("gen-{seed}"), g.ptx, g.spec);
        let Ok(oracle) = run_oracle(&p, &limits) else {
            continue;
        };
        checked += 1;
        if run_config(&p, &oracle, &cfg, &limits).verdict.is_failure() {
            failing.push((p, oracle));
        }
    }
    test_hooks::clear();
    eprintln!(
        "{} of {checked} programs expose the planted bug",
        failing.len()
    );
    assert!(checked >= 140, "{checked} programs ran in the interpreter");
    // Measured: 4 of seeds 1..=100 fail here (0 with the generator before
    // values.rs), and with `ptxdiff run` 6 of the first 120 programs with
    // the bug planted in the lowering (none of 300 before). At least 2 of
    // 150 here.
    assert!(
        failing.len() >= 2,
        "{} of {checked} programs expose the planted bug",
        failing.len()
    );
    // ... and each of them only because of the plant
    for (p, oracle) in &failing {
        let v = run_config(p, oracle, &cfg, &limits).verdict;
        assert!(!v.is_failure(), "{} fails without the plant", p.name);
    }
}
