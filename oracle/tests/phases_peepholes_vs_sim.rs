//! ptxas's peepholes (docs/MODEL.md, Peepholes) — OptimizeNaNOrZero (145), HoistInvariants
//! (146), TexNodep (149) — each run alone (`oracle::phase_check::
//! check_alone`) on the IR it sees in the default pipeline (`before_phase`
//! on the default plan; for 146 without the generic hoisting, see
//! [`plan_for`]) of every corpus kernel (`NAME.ptx`, `NAME.O0.ptx`)
//! and of the targeted kernels in `corpus/peephole/` for sm_70, sm_80 and
//! sm_90, compared in the SM simulator before and after on reseeded
//! launches. Each runs with the default configuration and with NvOpt level
//! 5 (OptimizeNaNOrZero without its GEMM gate: every kernel's floats go
//! through the folds). The targeted kernels must make their peephole fire.

use oracle::launch::LaunchSpec;
use oracle::phase_check::{before_phase, check_alone, corpus_cases, Case};
use oracle::ptx_interp::RunLimits;
use ptxc::driver::lower_target;
use ptxc::ir::Function;
use ptxc::lower::LowerOptions;
use ptxc::phases::phase::create;
use ptxc::phases::table::index_of;
use ptxc::phases::{PhaseConfig, PhaseContext, Plan};
use std::path::{Path, PathBuf};

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];
/// Reseeded launches per check (0 is the spec as written).
const SEEDS: u64 = 3;
const SEEDS_O0: u64 = 2;
/// The peepholes and their targeted kernels (tex_offsets, tex_offsets_2d:
/// TexNodep's texel-offset fold in 1D and 2D, at coordinates that wrap
/// near INT_MIN/INT_MAX and far outside the texture).
const TARGETS: [(u16, &str); 5] = [
    (NAN_OR_ZERO, "nan_zero_gemm"),
    (HOIST, "hoist_loop"),
    (TEX_NODEP, "tex_multi"),
    (TEX_NODEP, "tex_offsets"),
    (TEX_NODEP, "tex_offsets_2d"),
];
const NAN_OR_ZERO: u16 = index_of("OptimizeNaNOrZero");
const HOIST: u16 = index_of("HoistInvariants");
const TEX_NODEP: u16 = index_of("TexNodep");
/// The generic loop-invariant code motion phases.
const ORI_HOIST: [u16; 4] = [
    index_of("OriHoistInvariantsEarly"),
    index_of("OriHoistInvariantsLate"),
    index_of("OriHoistInvariantsLate2"),
    index_of("OriHoistInvariantsLate3"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// The targeted kernels, lowered for each target.
fn peephole_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (_, k) in TARGETS {
        let d = root().join("peephole").join(k);
        let spec = LaunchSpec::from_file(d.join(format!("{k}.launch.json"))).unwrap();
        let src = std::fs::read_to_string(d.join(format!("{k}.ptx"))).unwrap();
        let m = ptxc::ptx::parse_checked(k, &src).unwrap();
        for arch in ARCHS {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let kernel = lower_target(&m, sm, &LowerOptions::default())
                .unwrap()
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

/// The pipeline whose prefix gives the IR phase `index` sees. For
/// HoistInvariants (146): the default order without the generic
/// loop-invariant code motion (OriHoistInvariantsEarly/Late/Late2/Late3:
/// 35, 66, 79, 88), which runs earlier and takes the same invariants out
/// of hoist_loop's loop first (compiler/tests/cli_peepholes.rs shows it).
fn plan_for(index: u16) -> Plan {
    let mut plan = Plan::default();
    if index == HOIST {
        plan.order.retain(|i| !ORI_HOIST.contains(i));
    }
    plan
}

/// Rewrites phase `index` records on `f` alone.
fn fired(index: u16, cfg: &PhaseConfig, f: &Function, case: &Case) -> u64 {
    let p = create(index, cfg).unwrap();
    let mut cx = PhaseContext::new(f.clone(), Some(case.sm));
    if !p.is_no_op() {
        p.execute(&mut cx).unwrap();
    }
    cx.fired.get(&index).copied().unwrap_or(0)
}

fn configs() -> [(&'static str, PhaseConfig); 2] {
    let aggressive = PhaseConfig {
        nvopt_level: 5,
        ..PhaseConfig::default()
    };
    [("default", PhaseConfig::default()), ("NvOpt 5", aggressive)]
}

/// Runs phase `index` alone on every case; returns the cases it changed.
fn check_phase(index: u16) -> Vec<String> {
    let mut cases = corpus_cases(&root().join("kernels"), &ARCHS).unwrap();
    cases.extend(peephole_cases());
    let plan = plan_for(index);
    let limits = RunLimits::default();
    let mut failures = Vec::new();
    let mut changed = Vec::new();
    let all = configs();
    // NvOpt level 5 changes OptimizeNaNOrZero only (its gate).
    let cfgs = if index == NAN_OR_ZERO {
        &all[..]
    } else {
        &all[..1]
    };
    for case in &cases {
        let f = before_phase(&plan, index, case).unwrap();
        // The -O0 kernels simulate slowly (every value through local
        // memory): fewer reseeds.
        let seeds = if case.name.contains(".O0.") {
            SEEDS_O0
        } else {
            SEEDS
        };
        for (what, cfg) in cfgs {
            match check_alone(case, index, cfg, &f, seeds, &limits) {
                Ok(rep) if rep.changed => changed.push(case.name.clone()),
                Ok(_) => {}
                Err(e) => failures.push(format!("{what}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    changed
}

/// The check compared something: the phase changed its targeted kernels on
/// every target.
fn assert_targets_changed(index: u16, changed: &[String]) {
    for (_, k) in TARGETS.iter().filter(|t| t.0 == index) {
        for arch in ARCHS {
            let name = format!("{k}.ptx {arch}");
            assert!(
                changed.contains(&name),
                "{name} unchanged; changed: {changed:?}"
            );
        }
    }
}

#[test]
fn optimize_nan_or_zero_alone_preserves_every_kernel() {
    assert_targets_changed(NAN_OR_ZERO, &check_phase(NAN_OR_ZERO));
}

#[test]
fn hoist_invariants_alone_preserves_every_kernel() {
    assert_targets_changed(HOIST, &check_phase(HOIST));
}

#[test]
fn tex_nodep_alone_preserves_every_kernel() {
    assert_targets_changed(TEX_NODEP, &check_phase(TEX_NODEP));
}

#[test]
fn the_targeted_kernels_make_their_peephole_fire() {
    let cfg = PhaseConfig::default();
    let mut silent = Vec::new();
    for case in peephole_cases() {
        let (index, _) = TARGETS
            .iter()
            .find(|(_, k)| case.name.starts_with(&format!("{k}.ptx")))
            .unwrap();
        let f = before_phase(&plan_for(*index), *index, &case).unwrap();
        if fired(*index, &cfg, &f, &case) == 0 {
            silent.push(case.name.clone());
        }
    }
    assert!(silent.is_empty(), "did not fire: {silent:?}");
}

#[test]
fn the_gemm_gate_opens_on_the_k_loop_only() {
    let plan = Plan::default();
    for case in peephole_cases() {
        let f = before_phase(&plan, NAN_OR_ZERO, &case).unwrap();
        let gemm = !ptxc::phases::gemm::gemm_loops(&f).is_empty();
        assert_eq!(
            gemm,
            case.name.starts_with("nan_zero_gemm"),
            "{}",
            case.name
        );
        // Gated: the default configuration folds nothing outside a GEMM
        // function; NvOpt level 5 lifts the gate (hoist_loop's loop has
        // one FFMA, nothing to fold either way).
        if !gemm {
            assert_eq!(
                fired(NAN_OR_ZERO, &PhaseConfig::default(), &f, &case),
                0,
                "{}",
                case.name
            );
        }
    }
}

/// The unsafe case each targeted kernel holds is left alone: `acc0 + 0`
/// (acc0 may be -0 or NaN) stays an FADD, the fetch after the global store
/// stays after it, the load under the trip-3 branch stays in the loop.
#[test]
fn the_unsafe_cases_in_the_targeted_kernels_stay() {
    use oracle::phase_check::apply_alone;
    use ptxc::ir::{cfg::Cfg, dom::DomTree, loops::LoopInfo, Op};
    let plan = Plan::default();
    let cfg = PhaseConfig::default();
    for case in peephole_cases() {
        let (index, k) = *TARGETS
            .iter()
            .find(|(_, k)| case.name.starts_with(&format!("{k}.ptx")))
            .unwrap();
        let f = before_phase(&plan, index, &case).unwrap();
        let g = apply_alone(index, &cfg, f, case.sm).unwrap();
        let ops: Vec<Op> = g.insts().map(|i| i.op).collect();
        match k {
            "nan_zero_gemm" => {
                let fadds = ops.iter().filter(|&&o| o == Op::FADD).count();
                assert_eq!(fadds, 1, "{}: acc0 + 0 must stay", case.name);
            }
            "tex_multi" => {
                let store = ops.iter().position(|&o| o == Op::STG).unwrap();
                let before = ops[..store]
                    .iter()
                    .filter(|&&o| matches!(o, Op::TEX | Op::TLD))
                    .count();
                assert_eq!(before, 2, "{}: a fetch crossed the store", case.name);
            }
            "tex_offsets_2d" => {
                // The (x - 1, y + 2) fetch reads (x, y) with offsets 0x2f,
                // written by the last MOV of its offsets register before it.
                let insts: Vec<&ptxc::ir::Inst> = g.insts().collect();
                let at: Vec<usize> = (0..insts.len())
                    .filter(|&k| insts[k].has_mod("AOFFI"))
                    .collect();
                assert_eq!(at.len(), 1, "{}", case.name);
                let f = insts[at[0]];
                let off = &f.operands[f.ndst as usize + 1];
                let ptxc::ir::Operand::Reg(r) = off else {
                    panic!("{}: {off:?}", case.name)
                };
                let mov = insts[..at[0]]
                    .iter()
                    .rev()
                    .find(|i| {
                        matches!(i.operands.first(), Some(ptxc::ir::Operand::Reg(d)) if d.reg == r.reg)
                    })
                    .unwrap();
                assert_eq!(mov.op, Op::MOV, "{}", case.name);
                assert_eq!(
                    mov.operands[1],
                    ptxc::ir::Operand::Imm(0x2f),
                    "{}",
                    case.name
                );
            }
            "tex_offsets" => {
                // x+1, x+7, x-8, y+1 fold; x+9 (out of range) stays an add,
                // x-3 (its sum also copied for the 2D fetch) too, and the
                // 2D fetch keeps its plain coordinates.
                let folded: Vec<&ptxc::ir::Inst> =
                    g.insts().filter(|i| i.has_mod("AOFFI")).collect();
                assert_eq!(folded.len(), 4, "{}", case.name);
                assert!(folded.iter().all(|i| i.op == Op::TLD), "{}", case.name);
                let imm_adds: Vec<i64> = g
                    .insts()
                    .filter(|i| i.op == Op::IADD3)
                    .filter_map(|i| {
                        i.srcs().iter().find_map(|o| match o {
                            ptxc::ir::Operand::Imm(v) => Some(*v),
                            _ => None,
                        })
                    })
                    .collect();
                for v in [9, -3, 2] {
                    assert!(imm_adds.contains(&v), "{}: x{v:+} folded", case.name);
                }
                let two_d = g
                    .insts()
                    .find(|i| {
                        i.operands
                            .iter()
                            .any(|o| matches!(o, ptxc::ir::Operand::TexShape(s) if s == "2D"))
                    })
                    .unwrap();
                assert!(!two_d.has_mod("AOFFI"), "{}", case.name);
            }
            _ => {
                let cfg_ = Cfg::new(&g);
                let li = LoopInfo::new(&cfg_, &DomTree::new(&cfg_));
                let b = g
                    .blocks
                    .iter()
                    .position(|b| {
                        b.insts
                            .iter()
                            .any(|i| i.op == Op::LDG && i.has_mod("CONSTANT"))
                    })
                    .unwrap();
                assert!(
                    li.innermost[b].is_some(),
                    "{}: the guarded load left the loop",
                    case.name
                );
            }
        }
    }
}
