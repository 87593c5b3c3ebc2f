//! The loop phases and if-conversion, each run alone and executed: for
//! every corpus kernel (`NAME.ptx` and `NAME.O0.ptx`, lowered for sm_70,
//! sm_80 and sm_90) and the targeted kernels under
//! `oracle/tests/loop_phases/`, on the raw lowered function and on the IR
//! the phase sees in the default pipeline, OriLoopSimplification (18),
//! OriStrengthReduce (21), OriLoopUnrolling (22), OriHoistInvariants*
//! (35, 66, 79, 88) and OriDoPredication (63) must leave the simulated
//! outcome and outputs unchanged on the launch spec and reseeded inputs
//! (`oracle::phase_check::check_alone`), at the default NvOpt level and at
//! the most aggressive one (5).
//!
//! Each phase must fire somewhere, and on the targeted kernels exactly
//! where their construction says (see the comments in the `.ptx` files).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use oracle::launch::LaunchSpec;
use oracle::phase_check::{apply_alone, before_phase, check_alone, corpus_cases, Case};
use oracle::ptx_interp::RunLimits;
use ptxc::lower::{lower_module, LowerOptions};
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
    assert_eq!(names, ["counted_loops", "if_else"]);
    let mut out = Vec::new();
    for k in names {
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let src = std::fs::read_to_string(dir.join(format!("{k}.ptx"))).unwrap();
        let m = ptxc::ptx::parse_checked(&k, &src).unwrap_or_else(|e| panic!("{k}: {e}"));
        for arch in ARCHS {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let kernel = lower_module(&m, sm, &LowerOptions::default())
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

/// Checks every phase on every case (raw lowered IR and the IR before the
/// phase in the default plan) at NvOpt levels 3 and 5; returns, per phase,
/// the cases where it changed the function.
fn check_all(cases: &[Case]) -> BTreeMap<u16, BTreeSet<String>> {
    let limits = RunLimits::default();
    let plan = Plan::default();
    let mut fired: BTreeMap<u16, BTreeSet<String>> = BTreeMap::new();
    for &p in &phases() {
        fired.insert(p, BTreeSet::new());
    }
    for case in cases {
        for &p in &phases() {
            let raw = case.kernel.function.clone();
            let piped = before_phase(&plan, p, case).unwrap();
            let inputs = if piped == raw {
                vec![("raw", raw)]
            } else {
                vec![("raw", raw), ("pipeline", piped)]
            };
            for (what, f) in &inputs {
                for level in [3u8, 5] {
                    let rep = check_alone(case, p, &config(level), f, SEEDS, &limits)
                        .unwrap_or_else(|e| {
                            panic!("{} on {what} IR at NvOpt {level}: {e}", case.name)
                        });
                    if rep.changed && level == 3 {
                        fired
                            .get_mut(&p)
                            .unwrap()
                            .insert(format!("{} {what}", case.name));
                    }
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
    // corpus indexes with 64-bit IMAD.WIDE products, which it leaves
    // alone) fire somewhere.
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
    let want: BTreeMap<&str, &str> = [
        ("OriLoopSimplification", "counted_loops"),
        ("OriStrengthReduce", "counted_loops"),
        ("OriLoopUnrolling", "counted_loops"),
        ("OriHoistInvariantsEarly", "counted_loops"),
        ("OriHoistInvariantsLate", "counted_loops"),
        ("OriHoistInvariantsLate2", "counted_loops"),
        ("OriHoistInvariantsLate3", "counted_loops"),
        ("OriDoPredication", "if_else"),
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
        let expect: BTreeSet<String> = ARCHS
            .iter()
            .map(|a| format!("{}.ptx {a} raw", want[name]))
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
    let bras = |f: &ptxc::ir::Function| {
        f.insts()
            .filter(|i| i.op == ptxc::ir::Op::BRA)
            .count()
    };
    let after = apply_alone(63, &config(3), f.clone(), case.sm).unwrap();
    // The diamond's two branches and the triangle's one.
    assert_eq!(bras(&f) - bras(&after), 3);
    assert!(after.insts().any(|i| i.op == ptxc::ir::Op::STG && i.guard.is_some()));
}
