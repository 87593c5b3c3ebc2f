//! The phase pipeline, executed: every corpus kernel (`NAME.ptx` and
//! `NAME.O0.ptx`) lowered, run through the PhaseManager with 50 seeded
//! random phase orders that keep the table's constraints and with 20 ORI
//! shuffle knob settings (plus the default plan), then run as IR in the SM
//! simulator and compared with `NAME.expected.json` (convert_round: with
//! the PTX interpreter, as in `lower_vs_interp.rs`: its expected file has
//! a pinned NaN deviation).
//!
//! Plan j runs on sm_70, sm_80 or sm_90 in turn. The simulator is
//! deterministic, so a phased function equal to one already run for the
//! same kernel and target is not run again.

use oracle::launch::{compare, LaunchSpec, OutputSet};
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::ir::Function;
use ptxc::lower::{lower_module, LowerOptions};
use ptxc::phases::order::{check_order, random_valid_order, SplitMix64};
use ptxc::phases::{PhaseOptions, Plan};
use std::path::{Path, PathBuf};

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];
const ORDERS: u64 = 50;
const ORI_SETTINGS: u64 = 20;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// The `k`-th ORI shuffle knob string.
fn ori_knob(k: u64) -> String {
    let mut r = SplitMix64(0x5eed_0001_u64.wrapping_add(k));
    let mut v = |n: u64| r.next_u64() % n;
    let mut s = format!("ori=shuffle,shuffle={},reps={}", v(257), v(9));
    for i in 1..=6 {
        s.push_str(&format!(",swap{i}={}", v(30)));
    }
    for i in 1..=3 {
        s.push_str(&format!(",cpy{i}={},dce{i}={}", v(25), v(25)));
    }
    // Every other setting also varies the NvOpt level.
    if k % 2 == 1 {
        s.push_str(&format!(",NvOptLevel={}", v(6)));
    }
    s
}

fn plans() -> Vec<(String, Plan)> {
    let mut out = vec![("default".to_string(), Plan::default())];
    for seed in 0..ORDERS {
        let p = Plan {
            order: random_valid_order(seed),
            ..Plan::default()
        };
        check_order(&p.order).unwrap();
        out.push((format!("random order {seed}"), p));
    }
    for k in 0..ORI_SETTINGS {
        let knob = ori_knob(k);
        let p = PhaseOptions {
            knobs: vec![knob.clone()],
            ..Default::default()
        }
        .plan(3)
        .unwrap_or_else(|e| panic!("{knob}: {e}"));
        out.push((format!("--knob {knob}"), p));
    }
    out
}

#[test]
fn phased_corpus_runs_in_the_simulator() {
    let limits = RunLimits::default();
    let plans = plans();
    assert_eq!(plans.len() as u64, 1 + ORDERS + ORI_SETTINGS);
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let (mut compiles, mut sims, mut removed_somewhere) = (0usize, 0usize, false);
    for k in names {
        let dir = corpus().join(&k);
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let expected = OutputSet::from_file(dir.join(format!("{k}.expected.json"))).unwrap();
        for variant in ["ptx", "O0.ptx"] {
            let file = format!("{k}.{variant}");
            let Ok(src) = std::fs::read_to_string(dir.join(&file)) else {
                continue;
            };
            let m = ptxc::ptx::parse_checked(&k, &src).unwrap();
            let reference = (k == "convert_round").then(|| {
                let i = ptx_interp::run(&m, &src, &spec, &limits).unwrap();
                assert_eq!(i.outcome, Outcome::Completed);
                i.outputs
            });
            // Plan j runs on ARCHS[j % 3]: every plan once per kernel, every
            // target under a third of them.
            let mut lowered = Vec::new();
            for arch in ARCHS {
                let sm = ptxc::targets::lookup_sm(arch).unwrap();
                let ks = lower_module(&m, sm, &LowerOptions::default())
                    .unwrap_or_else(|e| panic!("{file} {arch}: {}", e.msg));
                let kern = ks.into_iter().find(|x| x.name == spec.kernel).unwrap();
                lowered.push((arch, sm, kern, Vec::<Function>::new()));
            }
            for (j, (what, plan)) in plans.iter().enumerate() {
                let (arch, sm, kern, seen) = &mut lowered[j % ARCHS.len()];
                let sm = *sm;
                compiles += 1;
                let phased = ptxc::phases::run(plan, kern.function.clone(), Some(sm))
                    .unwrap_or_else(|e| panic!("{file} {arch} {what}: {e}"));
                let f = phased.cx.function;
                assert!(phased.cx.listing.is_some(), "{file} {arch} {what}");
                ptxc::ir::verify(&f, Some(sm))
                    .unwrap_or_else(|e| panic!("{file} {arch} {what}: invalid IR: {e}"));
                removed_somewhere |= phased.cx.removed > 0;
                if seen.contains(&f) {
                    continue;
                }
                sims += 1;
                let inputs = SimInputs::from_lowered(kern);
                let r = oracle::sim::run(&f, sm, &spec, &inputs, &limits)
                    .unwrap_or_else(|e| panic!("{file} {arch} {what}: setup: {e}"));
                assert_eq!(
                    r.outcome,
                    Outcome::Completed,
                    "{file} {arch} {what}: did not complete"
                );
                let want = reference.as_ref().unwrap_or(&expected);
                let diff = compare(want, &r.outputs, &spec.compare);
                assert!(
                    diff.is_empty(),
                    "{file} {arch} {what}: {}",
                    oracle::launch::summarize(&diff, want)
                );
                seen.push(f);
            }
            eprintln!("{file}: {} plans pass", plans.len());
        }
    }
    eprintln!("{compiles} phased compiles, {sims} distinct functions simulated");
    assert!(
        removed_somewhere,
        "the dead-code phases removed nothing anywhere"
    );
}
