//! The scheduler and the control-code phases, executed.
//!
//! - ScheduleInstructions (147) alone, on the IR it sees in the default
//!   pipeline, for every corpus kernel on sm_80: the simulator's outcome and
//!   outputs agree before and after on reseeded inputs
//!   (`oracle::phase_check`).
//! - Every corpus kernel (`NAME.ptx`) through the whole default pipeline at
//!   -O0..-O3 on sm_70, sm_80 and sm_90: every instruction carries control
//!   codes, the simulator's scoreboard check finds no hazard, and the
//!   outputs match `NAME.expected.json` (convert_round: the PTX
//!   interpreter's, whose expected file has a pinned NaN deviation).

use oracle::launch::{compare, LaunchSpec, OutputSet};
use oracle::phase_check::{before_phase, check_alone, corpus_cases};
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::ir::Function;
use ptxc::lower::{lower_module, LowerOptions};
use ptxc::phases::table::{CONTROL_CODE_PHASES, SCHEDULE_INSTRUCTIONS as SCHED};
use ptxc::phases::{PhaseOptions, Plan};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

#[test]
fn schedule_instructions_alone_preserves_behaviour() {
    let limits = RunLimits::default();
    let plan = Plan::default();
    let mut unchanged = Vec::new();
    let mut cases = 0;
    for case in corpus_cases(&corpus(), &["sm_80"]).unwrap() {
        let f = before_phase(&plan, SCHED, &case).unwrap();
        let rep = check_alone(&case, SCHED, &plan.config, &f, 3, &limits)
            .unwrap_or_else(|e| panic!("{e}"));
        cases += 1;
        if !rep.changed {
            unchanged.push(case.name.clone());
        }
    }
    assert_eq!(cases, 32, "16 kernels, NAME.ptx and NAME.O0.ptx");
    // The scheduler reorders every kernel (so each comparison ran).
    assert_eq!(unchanged, Vec::<String>::new());
}

#[test]
fn corpus_at_every_opt_level_is_hazard_free_and_correct() {
    let limits = RunLimits::default();
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let plans: Vec<Plan> = (0..=3u8)
        .map(|o| PhaseOptions::default().plan(o).unwrap())
        .collect();
    let mut sims = 0;
    for k in &names {
        let dir = corpus().join(k);
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let expected = OutputSet::from_file(dir.join(format!("{k}.expected.json"))).unwrap();
        let src = std::fs::read_to_string(dir.join(format!("{k}.ptx"))).unwrap();
        let m = ptxc::ptx::parse_checked(k, &src).unwrap();
        let reference = (k == "convert_round").then(|| {
            let i = ptx_interp::run(&m, &src, &spec, &limits).unwrap();
            assert_eq!(i.outcome, Outcome::Completed);
            i.outputs
        });
        for arch in ["sm_70", "sm_80", "sm_90"] {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let kern = lower_module(&m, sm, &LowerOptions::default())
                .unwrap()
                .into_iter()
                .find(|x| x.name == spec.kernel)
                .unwrap();
            let mut seen: Vec<Function> = Vec::new();
            for (o, plan) in plans.iter().enumerate() {
                let what = format!("{k}.ptx {arch} -O{o}");
                let phased = ptxc::phases::run(plan, kern.function.clone(), Some(sm))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let f = phased.cx.function;
                ptxc::ir::verify(&f, Some(sm)).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(
                    f.insts().all(|i| i.control().is_some()),
                    "{what}: an instruction without control codes"
                );
                if o == 0 {
                    assert!(phased.cx.schedule.is_empty(), "{what}: scheduled at -O0");
                } else {
                    assert_eq!(phased.cx.schedule.len(), f.blocks.len(), "{what}");
                }
                if seen.contains(&f) {
                    continue;
                }
                sims += 1;
                let r = oracle::sim::run(&f, sm, &spec, &SimInputs::from_lowered(&kern), &limits)
                    .unwrap();
                assert_eq!(r.outcome, Outcome::Completed, "{what}");
                let want = reference.as_ref().unwrap_or(&expected);
                let diff = compare(want, &r.outputs, &spec.compare);
                assert!(
                    diff.is_empty(),
                    "{what}: {}",
                    oracle::launch::summarize(&diff, want)
                );
                seen.push(f);
            }
        }
    }
    eprintln!("{sims} distinct scheduled functions simulated");
}

/// After register allocation: the vendor listings (physical registers,
/// already scheduled by ptxas) rescheduled by ScheduleInstructions, their
/// control codes recomputed by AssignScoreboards, ComputeStallCounts and
/// SetReuseFlags, run hazard-free with outputs bit-identical to the
/// listing's own, on every architecture. libdevice_math is left out: its
/// code relocations name instruction offsets, which rescheduling moves.
#[test]
fn rescheduled_vendor_listings_are_hazard_free_and_equivalent() {
    use oracle::commands::sim::default_banks_path;
    use oracle::phase_check::apply_alone;
    let limits = RunLimits::default();
    let cfg = ptxc::phases::PhaseConfig::default();
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let (mut relocated, mut unchanged, mut runs) = (Vec::new(), Vec::new(), 0);
    for k in &names {
        let dir = corpus().join(k);
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        for arch in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let path = dir.join(format!("{k}.{arch}.sass"));
            let inputs = SimInputs::from_banks_file(&default_banks_path(&path).unwrap()).unwrap();
            if !inputs.relocs.is_empty() {
                relocated.push(format!("{k}.{arch}"));
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let file = ptxc::ir::sass_text::parse_file(&text).unwrap();
            let f = ptxc::ir::from_sass(&file.functions[0], Some(sm)).unwrap();
            let want = oracle::sim::run(&f, sm, &spec, &inputs, &limits).unwrap();
            assert_eq!(want.outcome, Outcome::Completed, "{k}.{arch}");
            let mut g = apply_alone(SCHED, &cfg, f.clone(), sm).unwrap();
            if g == f {
                unchanged.push(format!("{k}.{arch}"));
            }
            for p in CONTROL_CODE_PHASES {
                g = apply_alone(p, &cfg, g, sm).unwrap();
            }
            ptxc::ir::verify(&g, Some(sm)).unwrap_or_else(|e| panic!("{k}.{arch}: {e}"));
            let got = oracle::sim::run(&g, sm, &spec, &inputs, &limits).unwrap();
            assert_eq!(got.outcome, Outcome::Completed, "{k}.{arch}");
            let diff = compare(&want.outputs, &got.outputs, &Default::default());
            assert!(
                diff.is_empty(),
                "{k}.{arch}: {}",
                oracle::launch::summarize(&diff, &want.outputs)
            );
            runs += 1;
        }
    }
    let libdevice: Vec<String> = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]
        .iter()
        .map(|a| format!("libdevice_math.{a}"))
        .collect();
    assert_eq!(relocated, libdevice);
    // 15 kernels x 6 targets, and the scheduler reorders every one.
    assert_eq!(runs, 90);
    assert_eq!(unchanged, Vec::<String>::new());
}
