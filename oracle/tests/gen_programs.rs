//! The random PTX generator (oracle::gen): determinism, validity for the
//! front end, UB-free runs in the PTX interpreter, feature coverage and
//! deny lists, the biased modes' patterns, the GenConfig JSON form,
//! `generate_from` on fixed bytes, and lowering with ptxc.

use oracle::gen::stats::{lower_for, run_kind, STATS_ARCHS};
use oracle::gen::{
    generate, generate_from, generate_with_usage, Bias, Family, GenConfig, GenProgram, FAMILIES,
    TYPES,
};
use oracle::launch::LaunchSpec;

fn parses(p: &GenProgram) {
    if let Err(e) = ptxc::ptx::parse_checked("gen.ptx", &p.ptx) {
        panic!("seed {:?} does not parse:\n{e}\n{}", p.seed, p.ptx);
    }
}

#[test]
fn same_seed_same_program_and_different_seeds_differ() {
    let cfg = GenConfig::default();
    for seed in 0..40 {
        let a = generate(seed, &cfg);
        let b = generate(seed, &cfg);
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(a.spec.to_json_string(), b.spec.to_json_string());
        assert_eq!(a.seed, Some(seed));
    }
    let texts: std::collections::BTreeSet<String> =
        (0..40).map(|s| generate(s, &cfg).ptx).collect();
    assert_eq!(
        texts.len(),
        40,
        "40 seeds gave only {} distinct modules",
        texts.len()
    );
}

#[test]
fn specs_are_self_contained_and_round_trip() {
    let cfg = GenConfig::default();
    for seed in 0..60 {
        let p = generate(seed, &cfg);
        assert_eq!(p.spec.ptx, None);
        p.spec
            .validate()
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let back = LaunchSpec::from_json_str(&p.spec.to_json_string(), "").unwrap();
        assert_eq!(back, p.spec, "seed {seed}");
    }
}

/// The bar: at least 99% of the programs of the default config
/// complete UB-free within fuel (1000 seeds here, 10^5 in the report).
/// Every program must parse and validate with the front end.
#[test]
fn default_programs_parse_and_run_ub_free() {
    let cfg = GenConfig::default();
    let mut failures = Vec::new();
    for seed in 0..1000 {
        let p = generate(seed, &cfg);
        parses(&p);
        let (kind, detail) = run_kind(&p, &cfg);
        if kind != "completed" {
            failures.push(format!(
                "seed {seed}: {kind}: {}",
                detail.unwrap_or_default()
            ));
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(
        failures.len() <= 10,
        "{} of 1000 programs did not complete:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_family_and_type_appears_over_the_seeds() {
    let cfg = GenConfig::default();
    let mut used = std::collections::BTreeSet::new();
    let mut enabled = std::collections::BTreeSet::new();
    for seed in 0..1000 {
        let (p, u) = generate_with_usage(seed, &cfg);
        used.extend(u);
        enabled.extend(p.features);
    }
    let missing: Vec<&str> = FAMILIES
        .iter()
        .map(|f| f.1)
        .filter(|f| !used.contains(f))
        .collect();
    assert_eq!(missing, Vec::<&str>::new(), "families never generated");
    let missing: Vec<&str> = TYPES
        .iter()
        .map(|t| t.1)
        .filter(|t| !enabled.contains(t))
        .collect();
    assert_eq!(missing, Vec::<&str>::new(), "types never enabled");
}

/// Text that only the family writes (checked on the module, independently
/// of the generator's own bookkeeping).
fn marker(f: Family) -> Option<&'static [&'static str]> {
    Some(match f {
        Family::Warp => &["shfl.sync", "vote.sync", "activemask", "bar.red"],
        Family::Tex => &["tex."],
        Family::Call => &["call", ".func"],
        Family::Local => &[".local"],
        Family::Const => &["ld.const", ".const"],
        Family::Alias => &["p_mem_alias", "isspacep", "salias", "lalias"],
        Family::Gemm => &["fma.rn.f16 %h", "ld.global.b16"],
        Family::Sfu => &[
            "sqrt.",
            "rcp.",
            "div.rn.f",
            "div.approx",
            "div.full",
            ".approx.f",
        ],
        _ => return None,
    })
}

#[test]
fn a_deny_list_removes_the_family() {
    for &(f, name, _) in FAMILIES {
        let mut cfg = GenConfig::default();
        // The menu family writes any register-only form (gen/menu.rs), so
        // a family's marker text is its own only with the menu denied too.
        cfg.families.deny = vec![f, Family::Menu];
        for seed in 0..120 {
            let (p, used) = generate_with_usage(seed, &cfg);
            assert!(!p.features.contains(&name), "{name} enabled, seed {seed}");
            assert!(!used.contains(&name), "{name} used, seed {seed}");
            if let Some(ms) = marker(f) {
                for m in ms {
                    // gemm's marker is specific to f16 fma loads; skip when
                    // other families could write the same text
                    if f == Family::Gemm {
                        continue;
                    }
                    assert!(!p.ptx.contains(m), "{name} denied but '{m}' in seed {seed}");
                }
            }
        }
    }
    // shared memory and barriers: with both shared and atomic denied no
    // barrier or shared access remains
    let mut cfg = GenConfig::default();
    cfg.families.deny = vec![Family::Shared, Family::Atomic, Family::Warp];
    for seed in 0..120 {
        let p = generate(seed, &cfg);
        for m in ["bar.sync", ".shared", "red.", "atom."] {
            assert!(!p.ptx.contains(m), "'{m}' in seed {seed}");
        }
    }
    // a type deny list
    let mut cfg = GenConfig::default();
    cfg.types.deny = vec![oracle::gen::VType::F64, oracle::gen::VType::F16];
    for seed in 0..120 {
        let p = generate(seed, &cfg);
        for m in [".f64 ", ".f16 ", "%fd", "%h"] {
            assert!(!p.ptx.contains(m), "'{m}' in seed {seed}:\n{}", p.ptx);
        }
    }
}

/// The lines of the kernel between a loop's label and its back branch.
fn loops(ptx: &str) -> Vec<Vec<&str>> {
    let lines: Vec<&str> = ptx.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if let Some(label) = l.strip_suffix(':').filter(|l| l.starts_with("$L_loop")) {
            let back = format!("bra {label};");
            if let Some(j) = lines[i..].iter().position(|x| x.ends_with(&back)) {
                out.push(lines[i + 1..i + j].to_vec());
            }
        }
    }
    out
}

#[test]
fn nan_or_zero_mode_writes_its_patterns() {
    let cfg = GenConfig {
        mode: Bias::NanOrZero,
        ..GenConfig::default()
    };
    // zeros of either sign and infinities (the rule statements of
    // gen/bias_nan_or_zero.rs build their operands from them)
    let zero_ops = [
        "0f00000000",
        "0d0000000000000000",
        "0f80000000",
        "0d8000000000000000",
        "0f7F800000",
        "0fFF800000",
        "0d7FF0000000000000",
        "0dFFF0000000000000",
    ];
    let nan_ops = ["0f7FFFFFFF", "0d7FFFFFFFFFFFFFFF"];
    let mut seen = [0usize; 4];
    for seed in 0..60 {
        let p = generate(seed, &cfg);
        parses(&p);
        let lines: Vec<&str> = p.ptx.lines().map(str::trim).collect();
        let zero = lines.iter().any(|l| {
            ["mul.", "fma.", "mov.f", "add.f", "sub.f", "selp.f", "@%p"]
                .iter()
                .any(|o| l.starts_with(o))
                && zero_ops.iter().any(|z| l.contains(z))
        });
        let nan = lines.iter().any(|l| {
            (l.starts_with("min.") || l.starts_with("max.") || l.starts_with("selp."))
                && nan_ops.iter().any(|z| l.contains(z))
        });
        let gemm = loops(&p.ptx)
            .iter()
            .any(|body| body.iter().any(|l| l.starts_with("fma.rn.")));
        assert!(
            zero || nan || gemm,
            "seed {seed}: no nan_or_zero pattern:\n{}",
            p.ptx
        );
        for (k, b) in [zero, nan, gemm, p.features.contains(&"special")]
            .iter()
            .enumerate()
        {
            seen[k] += usize::from(*b);
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "a sub-pattern never appears: {seen:?}"
    );
}

#[test]
fn tex_nodep_mode_writes_runs_of_fetches() {
    let cfg = GenConfig {
        mode: Bias::TexNodep,
        ..GenConfig::default()
    };
    for seed in 0..40 {
        let p = generate(seed, &cfg);
        parses(&p);
        // two or more fetches through one handle, each at `add.s32` of a
        // common base (14 lines: a fetch at float coordinates takes six,
        // the `add.s32`, two `cvt.rn.f32.s32` and two `add.f32` before it)
        let lines: Vec<&str> = p.ptx.lines().map(str::trim).collect();
        let mut found = false;
        for w in lines.windows(14) {
            let fetches: Vec<&&str> = w.iter().filter(|l| l.starts_with("tex.")).collect();
            let adds = w.iter().filter(|l| l.starts_with("add.s32")).count();
            if fetches.len() >= 2 && adds >= 2 {
                let handle = |l: &str| {
                    l.split('[')
                        .nth(1)
                        .and_then(|s| s.split(',').next())
                        .map(str::to_string)
                };
                found |= fetches.iter().all(|l| handle(l) == handle(fetches[0]));
            }
        }
        assert!(found, "seed {seed}: no run of tex fetches:\n{}", p.ptx);
    }
}

#[test]
fn hoist_invariants_mode_writes_invariant_loop_bodies() {
    let cfg = GenConfig {
        mode: Bias::HoistInvariants,
        ..GenConfig::default()
    };
    for seed in 0..40 {
        let p = generate(seed, &cfg);
        parses(&p);
        let ok = loops(&p.ptx).iter().any(|body| {
            let written: Vec<&str> = body
                .iter()
                .filter_map(|l| l.split_whitespace().nth(1))
                .map(|d| d.trim_end_matches(','))
                .collect();
            let invariant_addr = body.iter().any(|l| {
                l.starts_with("mul.wide.u32")
                    && l.split_whitespace()
                        .nth(2)
                        .is_some_and(|src| !written.contains(&src.trim_end_matches(',')))
            });
            invariant_addr
                && body.iter().any(|l| l.starts_with("ld.param.u32"))
                && body.iter().any(|l| l.starts_with("ld.const.u32"))
        });
        assert!(ok, "seed {seed}: no loop with invariant work:\n{}", p.ptx);
    }
}

#[test]
fn gen_config_json_round_trip() {
    let d = GenConfig::default();
    assert_eq!(GenConfig::from_json(&d.to_json()).unwrap(), d);
    assert_eq!(GenConfig::from_json("{}").unwrap(), d);
    let mut c = GenConfig {
        mode: Bias::HoistInvariants,
        swarm: false,
        ..GenConfig::default()
    };
    c.families.deny = vec![Family::Tex, Family::Call];
    c.families.allow = vec![Family::Int, Family::Tex, Family::Loop];
    c.types.deny = vec![oracle::gen::VType::F16];
    c.sizes.stmts = 7;
    c.probabilities.guard = 0.75;
    c.grids = vec![vec![2, 3]];
    c.blocks = vec![vec![8, 8, 2], vec![33]];
    let text = c.to_json();
    assert_eq!(GenConfig::from_json(&text).unwrap(), c, "{text}");
    for (name, mode) in [
        ("none", Bias::None),
        ("nan_or_zero", Bias::NanOrZero),
        ("tex_nodep", Bias::TexNodep),
        ("hoist_invariants", Bias::HoistInvariants),
    ] {
        let c = GenConfig::from_json(&format!("{{\"mode\": \"{name}\"}}")).unwrap();
        assert_eq!(c.mode, mode);
    }
}

#[test]
fn gen_config_errors_name_the_position() {
    let cases: &[(&str, &str)] = &[
        ("{\n  \"mdoe\": \"none\"\n}", "2:3: unknown key 'mdoe'"),
        ("{\"mode\": \"fast\"}", "1:10: mode: unknown mode 'fast'"),
        (
            "{\"families\": {\"deny\": [\"int\", \"simd\"]}}",
            "1:31: families.deny[1]: unknown name 'simd'",
        ),
        ("{\"sizes\": {\"depth\": 9}}", "1:21: sizes.depth: 9 is outside 0..=4"),
        (
            "{\"sizes\": {\"input_len\": 48}}",
            "1:25: sizes.input_len: 48 is not a power of two",
        ),
        (
            "{\"probabilities\": {\"guard\": 1.5}}",
            "1:29: probabilities.guard: 1.5 is outside [0, 1]",
        ),
        ("{\"block\": [[0]]}", "1:12: block[0]: a dimension is 0"),
        ("{\"block\": [[64, 64]]}", "1:12: block[0]: [64, 64] has 4096 elements"),
        ("{\"swarm\": 1}", "1:11: swarm: expected a boolean, found a number"),
        ("{\"sizes\": {\"stmts\": 3,}}", "1:23: expected a member name"),
        (
            "{\"types\": {\"deny\": [\"u32\", \"s32\", \"u64\", \"s64\", \"f16\", \"f32\", \"f64\"]}}",
            "1:1: types: every type is denied",
        ),
    ];
    for (text, want) in cases {
        let e = GenConfig::from_json(text).expect_err(text);
        assert!(e.starts_with(want), "{text}\n got: {e}\nwant: {want}...");
    }
}

#[test]
fn generate_from_fixed_bytes_is_deterministic_and_valid() {
    let cfg = GenConfig::default();
    let mut inputs: Vec<Vec<u8>> = vec![
        vec![],
        vec![0],
        vec![0xff; 7],
        vec![0; 64],
        vec![0xff; 4096],
        b"the quick brown fox jumps over the lazy dog".to_vec(),
        (0..=255).collect(),
    ];
    for k in 0..40u64 {
        let len = (oracle::launch::splitmix64(k) % 3000) as usize;
        inputs.push(
            (0..len)
                .map(|i| oracle::launch::splitmix64(k * 10_000 + i as u64) as u8)
                .collect(),
        );
    }
    for (i, bytes) in inputs.iter().enumerate() {
        let a = generate_from(&mut arbitrary::Unstructured::new(bytes), &cfg).unwrap();
        let b = generate_from(&mut arbitrary::Unstructured::new(bytes), &cfg).unwrap();
        assert_eq!(a, b, "input {i}");
        assert_eq!(a.seed, None);
        parses(&a);
        let (kind, detail) = run_kind(&a, &cfg);
        assert_eq!(kind, "completed", "input {i}: {detail:?}\n{}", a.ptx);
    }
    // every biased mode on empty input too
    for mode in [Bias::NanOrZero, Bias::TexNodep, Bias::HoistInvariants] {
        let cfg = GenConfig {
            mode,
            ..GenConfig::default()
        };
        let p = generate_from(&mut arbitrary::Unstructured::new(&[]), &cfg).unwrap();
        parses(&p);
    }
}

/// ptxc lowers every program of the default configuration for sm_70,
/// sm_80 and sm_90: no construct had to be disabled by default.
#[test]
fn programs_lower_with_ptxc_on_every_arch() {
    assert_eq!(STATS_ARCHS, &["sm_70", "sm_80", "sm_90"]);
    let mut failures = Vec::new();
    for mode in [
        Bias::None,
        Bias::NanOrZero,
        Bias::TexNodep,
        Bias::HoistInvariants,
    ] {
        let cfg = GenConfig {
            mode,
            ..GenConfig::default()
        };
        let n = if mode == Bias::None { 200 } else { 40 };
        for seed in 0..n {
            let p = generate(seed, &cfg);
            for a in STATS_ARCHS {
                if let Err(e) = lower_for(&p, a) {
                    failures.push(format!("{mode:?} seed {seed} {a}: {e}"));
                }
            }
        }
    }
    assert_eq!(failures, Vec::<String>::new());
}

/// A carry chain's first link (`add.cc`, `sub.cc`, `mad.{lo,hi}.cc`) is
/// never guarded: when it does not run, the next `addc`/`subc`/`madc` reads
/// a carry nothing set (ptxc's listing reads an unwritten predicate;
/// generator seed 251, fuzz matrix). And chains are written at all.
#[test]
fn carry_chains_start_unguarded() {
    let cfg = GenConfig::default();
    let mut chains = 0;
    for seed in 0..400 {
        let p = generate(seed, &cfg);
        for l in p.ptx.lines().map(str::trim) {
            let op = l.trim_start_matches(['@', '!']);
            let first = ["add.cc.", "sub.cc.", "mad.lo.cc.", "mad.hi.cc."]
                .iter()
                .any(|f| l.starts_with(f) || (l.starts_with('@') && op.contains(&format!(" {f}"))));
            if first {
                assert!(!l.starts_with('@'), "seed {seed}: guarded first link: {l}");
                chains += 1;
            }
        }
    }
    assert!(chains >= 20, "{chains} carry chains in 400 programs");
}
