//! The single-phase checker (`oracle::phase_check`) the per-phase property
//! tests rely on: it must accept a real phase that preserves semantics and
//! catch a function whose behaviour changed.

use oracle::phase_check::{
    apply_alone, check_alone, compare_functions, corpus_cases, reseed, Case,
};
use oracle::ptx_interp::RunLimits;
use ptxc::ir::sass_text::SassOperand;
use ptxc::ir::Function;
use ptxc::phases::PhaseConfig;
use std::path::Path;

fn saxpy() -> Case {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    corpus_cases(&dir, &["sm_80"])
        .unwrap()
        .into_iter()
        .find(|c| c.name == "saxpy_div.ptx sm_80")
        .expect("saxpy_div.ptx is in the corpus")
}

/// The first instruction with an integer immediate source, that immediate
/// plus one: a change the outputs must show.
fn bump_an_immediate(f: &Function) -> Function {
    let mut g = f.clone();
    for b in &mut g.blocks {
        for i in &mut b.insts {
            if i.op.info().name != "IMAD" && i.op.info().name != "IADD3" {
                continue;
            }
            for o in i.operands.iter_mut().skip(usize::from(i.ndst)) {
                if let SassOperand::Imm(v) = o {
                    *v += 1;
                    return g;
                }
            }
        }
    }
    panic!("no IMAD/IADD3 with an immediate");
}

#[test]
fn reseeding_changes_random_inputs_only() {
    let c = saxpy();
    assert_eq!(reseed(&c.spec, 0), c.spec);
    let r = reseed(&c.spec, 1);
    assert_ne!(r, c.spec, "saxpy_div has random inputs");
    assert_eq!(r.grid_dims, c.spec.grid_dims);
    assert_eq!(r.buffers.len(), c.spec.buffers.len());
}

#[test]
fn a_changed_function_is_caught_and_dead_code_removal_passes() {
    let c = saxpy();
    let limits = RunLimits::default();
    let f = &c.kernel.function;
    let bad = bump_an_immediate(f);
    let e = compare_functions(&c, f, &bad, 3, &limits).unwrap_err();
    assert!(e.contains("saxpy_div.ptx sm_80"), "{e}");
    // OriPerformLiveDead (143) preserves semantics; run alone it must pass.
    let cfg = PhaseConfig::default();
    let live_dead = ptxc::phases::table::ORI_PERFORM_LIVE_DEAD;
    let rep = check_alone(&c, live_dead, &cfg, f, 3, &limits).unwrap();
    let after = apply_alone(live_dead, &cfg, f.clone(), c.sm).unwrap();
    assert_eq!(rep.changed, &after != f);
    if rep.changed {
        assert_eq!(rep.launches, 3);
    }
}
