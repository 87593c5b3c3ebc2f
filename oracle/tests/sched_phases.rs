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
use ptxc::phases::{PhaseOptions, Plan};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

#[test]
fn schedule_instructions_alone_preserves_behaviour() {
    let limits = RunLimits::default();
    let plan = Plan::default();
    let (mut changed, mut cases) = (0, 0);
    for case in corpus_cases(&corpus(), &["sm_80"]).unwrap() {
        let f = before_phase(&plan, 147, &case).unwrap();
        let rep =
            check_alone(&case, 147, &plan.config, &f, 3, &limits).unwrap_or_else(|e| panic!("{e}"));
        cases += 1;
        changed += usize::from(rep.changed);
    }
    assert_eq!(cases, 32, "16 kernels, NAME.ptx and NAME.O0.ptx");
    // The scheduler moves something in most kernels (a test that cannot
    // see it do anything could not fail).
    assert!(changed > cases / 2, "{changed} of {cases} changed");
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
    assert!(sims >= names.len() * 3 * 2, "-O0 and -O3 differ: {sims}");
}
