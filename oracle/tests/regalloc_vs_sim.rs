//! Register allocation, executed: every corpus kernel (`NAME.ptx` and
//! `NAME.O0.ptx`) through the default pipeline at -O0..-O3 on sm_70,
//! sm_75, sm_80, sm_86, sm_89 and sm_90, once with the SM's whole register
//! file and once with a budget of 24 (ptxas's lowest `--maxrregcount`),
//! then run in the SM simulator and compared with `NAME.expected.json`
//! (convert_round: with the PTX interpreter, as `phases_vs_sim.rs` does).
//!
//! Besides the outputs, each allocated function must name no virtual
//! register and no general register at or above the budget, and it must
//! contain spill code exactly when the pressure before allocation
//! (`driver::resources`, virtual units live at once) exceeds what the
//! budget leaves besides R1. The simulator is deterministic, so a function
//! equal to one already run for the same kernel and target is not run
//! again. At the end the test prints, per kernel, the registers ptxc uses
//! at -O3 against the vendor's sm_80 listing (a report, not a check).

use oracle::launch::{compare, LaunchSpec, OutputSet};
use oracle::phase_check::before_phase;
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::driver::resources;
use ptxc::ir::regs::{self, RegUnit};
use ptxc::ir::{Function, Op};
use ptxc::lower::{lower_module, LowerOptions};
use ptxc::phases::table::ALLOCATE_REGISTERS;
use ptxc::phases::PhaseOptions;
use ptxc::regalloc::RegBudget;
use std::path::{Path, PathBuf};

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];
const LEVELS: [u8; 4] = [0, 1, 2, 3];
/// The small budget: ptxas's lower bound for `--maxrregcount`.
const SMALL: u32 = ptxc::driver::MIN_MAXRREGCOUNT;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

fn local_accesses(f: &Function) -> usize {
    f.insts()
        .filter(|i| matches!(i.op, Op::LDL | Op::STL))
        .count()
}

/// The highest general register index named, R1 included.
fn max_register(f: &Function) -> Option<u8> {
    f.insts()
        .flat_map(regs::mentioned)
        .filter_map(|u| match u {
            RegUnit::R(n) => Some(n),
            _ => None,
        })
        .max()
}

/// The vendor's register count: the highest `Rn` in the listing plus one.
fn vendor_registers(sass: &str) -> u32 {
    let b = sass.as_bytes();
    let mut best = 0u32;
    for (i, _) in sass.match_indices('R') {
        if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
            continue;
        }
        let digits: String = sass[i + 1..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        if let Ok(n) = digits.parse::<u32>() {
            best = best.max(n + 1);
        }
    }
    best
}

#[test]
fn allocated_corpus_runs_in_the_simulator() {
    let limits = RunLimits::default();
    let plans: Vec<_> = LEVELS
        .iter()
        .map(|&l| PhaseOptions::default().plan(l).unwrap())
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let (mut compiles, mut sims) = (0usize, 0usize);
    let mut spilled_cases: Vec<String> = Vec::new();
    let mut report = Vec::new();
    for k in &names {
        let dir = corpus().join(k);
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let expected = OutputSet::from_file(dir.join(format!("{k}.expected.json"))).unwrap();
        for variant in ["ptx", "O0.ptx"] {
            let file = format!("{k}.{variant}");
            let src = std::fs::read_to_string(dir.join(&file)).unwrap();
            let m = ptxc::ptx::parse_checked(k, &src).unwrap();
            let reference = (k == "convert_round").then(|| {
                let i = ptx_interp::run(&m, &src, &spec, &limits).unwrap();
                assert_eq!(i.outcome, Outcome::Completed);
                i.outputs
            });
            for arch in ARCHS {
                let sm = ptxc::targets::lookup_sm(arch).unwrap();
                let ks = lower_module(&m, sm, &LowerOptions::default())
                    .unwrap_or_else(|e| panic!("{file} {arch}: {}", e.msg));
                let kern = ks.into_iter().find(|x| x.name == spec.kernel).unwrap();
                let case = oracle::phase_check::Case {
                    name: format!("{file} {arch}"),
                    kernel: kern.clone(),
                    sm,
                    spec: spec.clone(),
                };
                let inputs = SimInputs::from_lowered(&kern);
                let mut seen: Vec<Function> = Vec::new();
                for (plan, level) in plans.iter().zip(LEVELS) {
                    let before = before_phase(plan, ALLOCATE_REGISTERS, &case).unwrap();
                    let pressure = resources::pressure(&before);
                    for budget in [RegBudget::for_sm(sm), RegBudget::of(SMALL)] {
                        let what = format!("{file} {arch} -O{level} budget {}", budget.registers);
                        compiles += 1;
                        let phased = ptxc::phases::run_budgeted(
                            plan,
                            kern.function.clone(),
                            Some(sm),
                            Some(budget),
                        )
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                        let f = phased.cx.function;
                        ptxc::ir::verify(&f, Some(sm))
                            .unwrap_or_else(|e| panic!("{what}: invalid IR: {e}"));
                        // Physical registers only, within the budget.
                        let virt = f.insts().flat_map(regs::mentioned).find(|u| u.is_virtual());
                        assert_eq!(virt, None, "{what}: a virtual register survived");
                        let top = max_register(&f).map_or(0, |r| u32::from(r) + 1);
                        assert!(top <= budget.registers, "{what}: R{} used", top - 1);
                        let usage = phased.cx.resources.clone().expect("resource usage");
                        assert_eq!(usage.registers, top, "{what}");
                        assert!(
                            usage.stack_frame <= oracle::sim::memory::LOCAL_BYTES,
                            "{what}: a {}-byte stack does not fit the simulator's local memory",
                            usage.stack_frame
                        );
                        // Spill code exactly where the pressure needs it.
                        let spilled = local_accesses(&f) > local_accesses(&before);
                        let needs = pressure.max_virtual > budget.registers - 1;
                        assert_eq!(
                            spilled, needs,
                            "{what}: pressure {} (virtual), spill code {spilled}",
                            pressure.max_virtual
                        );
                        if spilled {
                            let a = phased.cx.alloc.as_ref().expect("the allocation's report");
                            assert!(a.spill_stores > 0 && a.spill_loads > 0, "{what}: {a:?}");
                            assert!(usage.spill_store_bytes > 0, "{what}");
                            if level == 3 {
                                spilled_cases.push(format!("{file} {arch}"));
                            }
                        }
                        if seen.contains(&f) {
                            continue;
                        }
                        sims += 1;
                        let r = oracle::sim::run(&f, sm, &spec, &inputs, &limits)
                            .unwrap_or_else(|e| panic!("{what}: setup: {e}"));
                        assert_eq!(r.outcome, Outcome::Completed, "{what}: did not complete");
                        let want = reference.as_ref().unwrap_or(&expected);
                        let diff = compare(want, &r.outputs, &spec.compare);
                        assert!(
                            diff.is_empty(),
                            "{what}: {}",
                            oracle::launch::summarize(&diff, want)
                        );
                        if arch == "sm_80"
                            && level == 3
                            && budget.registers != SMALL
                            && variant == "ptx"
                        {
                            let vendor =
                                std::fs::read_to_string(dir.join(format!("{k}.sm_80.sass")))
                                    .map(|s| vendor_registers(&s))
                                    .unwrap_or(0);
                            report.push(format!(
                                "{k:>16}: ptxc {top:>3} registers (pressure {:>3}), vendor sm_80 {vendor:>3}",
                                pressure.max_live
                            ));
                        }
                        seen.push(f);
                    }
                }
            }
            eprintln!("{file}: allocated and simulated");
        }
    }
    eprintln!("{compiles} allocations, {sims} distinct functions simulated");
    eprintln!("registers at -O3, sm_80, whole register file:");
    for l in &report {
        eprintln!("{l}");
    }
    eprintln!("spilling under budget {SMALL} at -O3: {spilled_cases:?}");
    // The small budget must make something spill, or the spill path went
    // untested.
    assert!(
        !spilled_cases.is_empty(),
        "no corpus kernel spilled under a budget of {SMALL}"
    );
}
