//! The loop phases and if-conversion, each run alone and executed: for
//! every corpus kernel (`NAME.ptx` and `NAME.O0.ptx`, lowered for sm_70,
//! sm_80 and sm_90) and the targeted kernels under
//! `oracle/tests/loop_phases/`, on the raw lowered function and on the IR
//! the phase sees in the default pipeline, OriLoopSimplification (18),
//! OriStrengthReduce (21), OriLoopUnrolling (22), OriHoistInvariants*
//! (35, 66, 79, 88) and OriDoPredication (63) must leave the simulated
//! outcome and outputs unchanged on the launch spec and reseeded inputs
//! (what `oracle::phase_check::check_alone` checks, built from the same
//! pieces so that each input is simulated once for all phases), at the
//! default NvOpt level and, on the raw IR, at the most aggressive one (5).
//!
//! Each phase must fire somewhere, and on the targeted kernels exactly
//! where their construction says (see the comments in the `.ptx` files).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use oracle::launch::{compare, summarize, CompareRule, LaunchSpec};
use oracle::phase_check::{
    apply_alone, before_phase, corpus_cases, reseed, simulate, Case, SimOutcome,
};
use oracle::ptx_interp::{Outcome, RunLimits};
use ptxc::driver::lower_target;
use ptxc::ir::Function;
use ptxc::lower::LowerOptions;
use ptxc::phases::{table, PhaseConfig, Plan};

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];
/// Launches per check (the spec as written, then reseeds).
const SEEDS: u64 = 2;

/// The phases under test, by name (resolved through the table).
const NAMES: [&str; 8] = [
    "OriLoopSimplification",
    "OriStrengthReduce",
    "OriLoopUnrolling",
    "OriHoistInvariantsEarly",
    "OriHoistInvariantsLate",
    "OriHoistInvariantsLate2",
    "OriHoistInvariantsLate3",
    "OriDoPredication",
];

fn phases() -> Vec<u16> {
    NAMES
        .iter()
        .map(|n| table::find(n).unwrap_or_else(|| panic!("{n} is not in the table")))
        .collect()
}

fn targeted_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/loop_phases")
}

/// The targeted kernels: every `NAME.launch.json` with its `NAME.ptx`,
/// lowered for each target.
fn targeted_cases() -> Vec<Case> {
    let dir = targeted_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix(".launch.json")
                .map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names, ["counted_loops", "if_else", "wide_counters"]);
    let mut out = Vec::new();
    for k in names {
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let src = std::fs::read_to_string(dir.join(format!("{k}.ptx"))).unwrap();
        let m = ptxc::ptx::parse_checked(&k, &src).unwrap_or_else(|e| panic!("{k}: {e}"));
        for arch in ARCHS {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let kernel = lower_target(&m, sm, &LowerOptions::default())
                .unwrap_or_else(|e| panic!("{k} {arch}: {}", e.msg))
                .into_iter()
                .find(|x| x.name == spec.kernel)
                .unwrap();
            out.push(Case {
                name: format!("{k}.ptx {arch}"),
                kernel,
                sm,
                spec: spec.clone(),
            });
        }
    }
    out
}

fn config(nvopt_level: u8) -> PhaseConfig {
    PhaseConfig {
        nvopt_level,
        ..PhaseConfig::default()
    }
}

/// The simulated runs of `f` on the case's spec and its reseeds; the spec
/// as written must complete.
fn runs_of(case: &Case, f: &Function, limits: &RunLimits) -> Vec<SimOutcome> {
    (0..SEEDS)
        .map(|k| {
            let r = simulate(case, f, &reseed(&case.spec, k), limits).unwrap();
            if k == 0 {
                assert_eq!(
                    r.0,
                    Outcome::Completed,
                    "{}: the input does not complete",
                    case.name
                );
            }
            r
        })
        .collect()
}

/// Checks every phase on every case — on the raw lowered IR at NvOpt
/// levels 3 and 5 and on the IR before the phase in the default plan at
/// level 3 — the
/// way `oracle::phase_check::check_alone` does (the phase alone, the
/// verifier, the simulator before and after on the spec and its reseeds,
/// same outcome and bit-identical outputs), with each input's runs
/// simulated once and each distinct result checked once. Returns, per
/// phase, the inputs it changed at the default level.
fn check_all(cases: &[Case]) -> BTreeMap<u16, BTreeSet<String>> {
    let limits = RunLimits::default();
    let plan = Plan::default();
    let mut fired: BTreeMap<u16, BTreeSet<String>> = BTreeMap::new();
    for &p in &phases() {
        fired.insert(p, BTreeSet::new());
    }
    for case in cases {
        // Distinct inputs: the raw function, then each phase's pipeline IR.
        let mut inputs: Vec<Function> = vec![case.kernel.function.clone()];
        let mut of_phase: Vec<(u16, Vec<usize>)> = Vec::new();
        for &p in &phases() {
            let piped = before_phase(&plan, p, case).unwrap();
            let at = inputs.iter().position(|f| *f == piped).unwrap_or_else(|| {
                inputs.push(piped);
                inputs.len() - 1
            });
            let mut which = vec![0];
            if at != 0 {
                which.push(at);
            }
            of_phase.push((p, which));
        }
        let mut before: Vec<Option<Vec<SimOutcome>>> = vec![None; inputs.len()];
        let mut checked: Vec<Vec<Function>> = vec![Vec::new(); inputs.len()];
        for (p, which) in &of_phase {
            let name = table::name_of(*p);
            for &i in which {
                let what = if i == 0 { "raw" } else { "pipeline" };
                // The aggressive level on the raw IR only (runtime).
                let levels: &[u8] = if i == 0 { &[3, 5] } else { &[3] };
                for &level in levels {
                    let f = &inputs[i];
                    let after = apply_alone(*p, &config(level), f.clone(), case.sm).unwrap();
                    ptxc::ir::verify(&after, Some(case.sm)).unwrap_or_else(|e| {
                        panic!(
                            "{name} on {} {what} NvOpt {level}: invalid IR: {e}",
                            case.name
                        )
                    });
                    if after == *f {
                        continue;
                    }
                    if level == 3 {
                        fired
                            .get_mut(p)
                            .unwrap()
                            .insert(format!("{} {what}", case.name));
                    }
                    if checked[i].contains(&after) {
                        continue;
                    }
                    let want = before[i].get_or_insert_with(|| runs_of(case, f, &limits));
                    for (k, w) in want.iter().enumerate() {
                        let got =
                            simulate(case, &after, &reseed(&case.spec, k as u64), &limits).unwrap();
                        let at = format!("{name} on {} {what} NvOpt {level} reseed {k}", case.name);
                        assert_eq!(w.0, got.0, "{at}: the outcome changed");
                        let diff = compare(&w.1, &got.1, &CompareRule::default());
                        assert!(diff.is_empty(), "{at}: {}", summarize(&diff, &w.1));
                    }
                    checked[i].push(after);
                }
            }
        }
    }
    fired
}

#[test]
fn each_loop_phase_alone_keeps_the_corpus_behaviour() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let cases = corpus_cases(&dir, &ARCHS).unwrap();
    assert_eq!(cases.len(), 16 * 2 * ARCHS.len());
    let fired = check_all(&cases);
    for (p, where_) in &fired {
        eprintln!(
            "{}: fired on {} of {} corpus inputs",
            table::name_of(*p),
            where_.len(),
            cases.len() * 2
        );
    }
    // The corpus has loops with preheaders the lowering does not make
    // canonical, counted loops (i64_hash's 64-step division loop), loop
    // invariants and small conditionals: all but strength reduction (the
    // corpus indexes with 64-bit IMAD.WIDE products of derived values or of
    // counters stepping by 16, which it leaves alone: wide products are
    // reduced only for step-1 counters behind an `i < n` test) fire
    // somewhere.
    let silent: Vec<&str> = fired
        .iter()
        .filter(|(_, w)| w.is_empty())
        .map(|(p, _)| table::name_of(*p))
        .collect();
    assert_eq!(silent, ["OriStrengthReduce"]);
}

#[test]
fn each_loop_phase_fires_where_the_targeted_kernels_say() {
    let cases = targeted_cases();
    let fired = check_all(&cases);
    // On the raw lowered IR, by construction (the .ptx comments):
    // counted_loops has a loop with two back edges (18), a counter
    // multiply (21), a 10-iteration counted loop (22) with invariant
    // address math (35) and an invariant load (66, 79, 88); if_else has
    // a diamond and a triangle (63) and no loop.
    // wide_counters: two loops whose 64-bit counter products are proved
    // not to wrap (21) and a 5-trip counted do-while (22).
    let want: BTreeMap<&str, &[&str]> = [
        ("OriLoopSimplification", &["counted_loops"][..]),
        ("OriStrengthReduce", &["counted_loops", "wide_counters"][..]),
        ("OriLoopUnrolling", &["counted_loops", "wide_counters"][..]),
        ("OriHoistInvariantsEarly", &["counted_loops"][..]),
        ("OriHoistInvariantsLate", &["counted_loops"][..]),
        ("OriHoistInvariantsLate2", &["counted_loops"][..]),
        ("OriHoistInvariantsLate3", &["counted_loops"][..]),
        ("OriDoPredication", &["if_else"][..]),
    ]
    .into_iter()
    .collect();
    for (p, where_) in &fired {
        let name = table::name_of(*p);
        let raw: BTreeSet<String> = where_
            .iter()
            .filter(|w| w.ends_with(" raw"))
            .cloned()
            .collect();
        let expect: BTreeSet<String> = want[name]
            .iter()
            .flat_map(|k| ARCHS.iter().map(move |a| format!("{k}.ptx {a} raw")))
            .collect();
        assert_eq!(raw, expect, "{name}");
        eprintln!("{name}: {where_:?}");
    }
}

#[test]
fn if_conversion_removes_the_branches_of_the_targeted_kernel() {
    let case = targeted_cases()
        .into_iter()
        .find(|c| c.name == "if_else.ptx sm_80")
        .unwrap();
    let f = case.kernel.function.clone();
    let bras = |f: &ptxc::ir::Function| f.insts().filter(|i| i.op == ptxc::ir::Op::BRA).count();
    let after = apply_alone(
        table::index_of("OriDoPredication"),
        &config(3),
        f.clone(),
        case.sm,
    )
    .unwrap();
    // The diamond's two branches and the triangle's one.
    assert_eq!(bras(&f) - bras(&after), 3);
    assert!(after
        .insts()
        .any(|i| i.op == ptxc::ir::Op::STG && i.guard.is_some()));
}
