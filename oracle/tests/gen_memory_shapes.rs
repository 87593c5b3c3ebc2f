//! The generator's memory shapes (gen/memory.rs, gen/atomic.rs,
//! gen/alias.rs): every form is written over a few hundred seeds of a
//! memory-heavy configuration, the programs run UB-free in the PTX
//! interpreter and lower with ptxc, and the alias family's two parameters
//! name one buffer.

use oracle::gen::stats::{lower_for, run_kind, STATS_ARCHS};
use oracle::gen::{generate, Family, GenConfig};
use oracle::launch::ParamValue;

/// The memory families (and what they lean on), the rest denied.
fn memory_config() -> GenConfig {
    let mut cfg = GenConfig::default();
    cfg.families.allow = vec![
        Family::Int,
        Family::Local,
        Family::Const,
        Family::Shared,
        Family::Atomic,
        Family::Alias,
        Family::Call,
        Family::Loop,
    ];
    cfg
}

/// Text of each form (each checked on the module text, independently of
/// the generator's bookkeeping).
const FORMS: &[&str] = &[
    // generic addressing of every space
    "cvta.global.u64",
    "cvta.shared.u64",
    "cvta.local.u64",
    "cvta.to.global.u64",
    "cvta.to.shared.u64",
    "cvta.to.local.u64",
    "isspacep.global",
    "isspacep.shared",
    "isspacep.local",
    "\tld.u32",
    "\tst.u32",
    "\tld.v4.u32",
    "\tst.v2.u32",
    "\tld.s8",
    // vectors in every space
    "ld.global.nc.v4.u32",
    "ld.global.v2.u32",
    "ld.global.v4.u32",
    "st.global.v4.u32",
    "ld.shared.v4.u32",
    "st.shared.v2.u32",
    "ld.local.v4.u32",
    "st.local.v2.u32",
    "ld.const.v4.u32",
    "ld.const.v2.u32",
    // 8- and 16-bit loads
    "ld.global.u8",
    "ld.global.nc.s8",
    "ld.global.s16",
    "ld.local.s8",
    "ld.local.u16",
    "st.local.u8",
    "ld.shared.s16",
    "ld.const.s8",
    "ld.const.u16",
    "ld.const.s16",
    // order qualifiers
    "ld.volatile.global",
    "ld.relaxed.gpu.global",
    "ld.acquire.gpu.global",
    // atomics
    "atom.global.add.u64",
    "atom.global.cas.b64",
    "atom.global.max.s32",
    "atom.global.exch.b64",
    "atom.global.inc.u32",
    "atom.shared.cas.b32",
    "red.global.add.u64",
    "red.global.max.s64",
    "red.shared.add.u64",
    "red.shared.xor.b32",
    "atom.acq_rel.",
    "red.release.",
    ".sys.",
    // aliasing
    "p_mem_alias",
    "bar.sync",
];

#[test]
fn every_memory_form_is_written() {
    let cfg = memory_config();
    let mut text = String::new();
    for seed in 0..400 {
        text.push_str(&generate(seed, &cfg).ptx);
    }
    // An operation counts with or without its memory order and scope
    // (`atom.relaxed.gpu.global.add.u64` writes `atom.global.add.u64`); the
    // qualifiers are checked as forms of their own.
    let unordered: String = text
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let mut l = l.to_string();
            if t.starts_with("atom") || t.starts_with("red") {
                for q in [
                    ".relaxed", ".acquire", ".release", ".acq_rel", ".cta", ".gpu", ".sys",
                ] {
                    l = l.replace(q, "");
                }
            }
            l + "\n"
        })
        .collect();
    let missing: Vec<&str> = FORMS
        .iter()
        .copied()
        .filter(|f| !text.contains(f) && !unordered.contains(f))
        .collect();
    assert_eq!(missing, Vec::<&str>::new(), "forms never generated");
    // an atom through a generic address (no state space)
    let generic_atom = text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("atom") && !l.contains(".global.") && !l.contains(".shared.")
    });
    assert!(generic_atom, "no generic atom");
}

#[test]
fn the_alias_parameters_name_one_buffer() {
    let cfg = memory_config();
    let mut offsets = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let p = generate(seed, &cfg);
        if !p.features.contains(&"alias") {
            continue;
        }
        let mem: Vec<u64> = p
            .spec
            .params
            .iter()
            .filter_map(|q| match q {
                ParamValue::Buffer { name, offset } if name == "mem" => Some(*offset),
                _ => None,
            })
            .collect();
        assert_eq!(mem.len(), 2, "seed {seed}: two parameters over mem");
        assert_eq!(mem[0], 0, "seed {seed}");
        offsets.insert(mem[1]);
        assert!(p.ptx.contains("p_mem_alias"), "seed {seed}");
        let outs = p.spec.outputs.clone().unwrap_or_default();
        assert!(
            outs.contains(&"mem".to_string()),
            "seed {seed}: mem observed"
        );
    }
    // an offset of 0 (the same address) and offsets into the buffer
    assert!(offsets.contains(&0) && offsets.len() >= 3, "{offsets:?}");
}

#[test]
fn memory_programs_run_ub_free_and_lower() {
    let cfg = memory_config();
    let mut failures = Vec::new();
    for seed in 0..300 {
        let p = generate(seed, &cfg);
        let (kind, detail) = run_kind(&p, &cfg);
        if kind != "completed" {
            failures.push(format!(
                "seed {seed}: {kind}: {}",
                detail.unwrap_or_default()
            ));
        }
        if seed % 5 == 0 {
            for a in STATS_ARCHS {
                if let Err(e) = lower_for(&p, a) {
                    failures.push(format!("seed {seed} {a}: {e}"));
                }
            }
        }
    }
    assert_eq!(failures, Vec::<String>::new());
}
