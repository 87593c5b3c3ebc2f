//! Interpreter property test of the loop and scheduling-ish nvopt passes
//! (LoopSimplify, LoopUnroll, LoopIndexSplit, Reassociate, Sink,
//! NVVMSinking2, NVVMRematerialization, NVVMPeephole): on every corpus
//! kernel (clang -O3 and -O0 PTX) and generator seeds 0..200, lifting,
//! running the passes and printing gives PTX the front end accepts, the
//! SSA form still verifies, and the PTX interpreter gives the same
//! outputs as the input. The pass under test runs after `prep` (e.g.
//! LoopSimplify, which the loop passes expect); each test checks the pass
//! under test changed at least one function, so it is exercised.

mod nvopt_support;

use nvopt_support::*;
use ptxc::nvopt::lift_module;
use ptxc::nvopt::passes::{by_name, Pass};

/// The hand-written kernels of tests/nvopt_loop_kernels/ (shapes the
/// corpus and the generator lack: index-split candidates, signed
/// down-counting, top-tested loops with runtime bounds; cvta round trips
/// and redundant conversions).
fn loop_kernels() -> Vec<Input> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvopt_loop_kernels");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_str().unwrap().to_string())
        .filter(|n| n.ends_with(".launch.json"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| {
            let spec = oracle::launch::LaunchSpec::from_file(dir.join(n)).unwrap();
            let stem = n.trim_end_matches(".launch.json");
            Input {
                name: stem.to_string(),
                ptx: std::fs::read_to_string(dir.join(format!("{stem}.ptx"))).unwrap(),
                spec,
            }
        })
        .collect()
}

fn check_with(prep: &[&str], pass: &dyn Pass) -> usize {
    let mut inputs = all_inputs();
    inputs.extend(loop_kernels());
    check_pass_on(&inputs, prep, pass)
}

fn check(prep: &[&str], name: &str) -> usize {
    check_with(prep, by_name(name).unwrap().as_ref())
}

#[test]
fn loop_simplify_preserves_results() {
    check(&[], "loop-simplify");
}

#[test]
fn loop_unroll_preserves_results() {
    check(&["loop-simplify"], "loop-unroll");
}

#[test]
fn loop_unroll_by_two_with_kept_exit_tests_preserves_results() {
    // An explicit count unrolls loops of unknown trip count too: every
    // copy keeps its exit test.
    let pass = ptxc::nvopt::passes::loop_unroll::LoopUnroll {
        count: 2,
        threshold: 1000,
        ..Default::default()
    };
    check_with(&["loop-simplify"], &pass);
}

#[test]
fn loop_unroll_by_three_preserves_results() {
    let pass = ptxc::nvopt::passes::loop_unroll::LoopUnroll {
        count: 3,
        threshold: 1000,
        ..Default::default()
    };
    check_with(&["loop-simplify"], &pass);
}

#[test]
fn loop_index_split_preserves_results() {
    check(&["loop-simplify"], "loop-index-split");
}

#[test]
fn the_hand_written_kernels_run_and_exercise_their_shapes() {
    // The kernels complete in the interpreter (the property test compares
    // against these runs), and LoopIndexSplit splits L1 and L2 and folds
    // L5's always-true condition: 3 of the 5 loops change, 2 more loops.
    let ks = loop_kernels();
    assert_eq!(
        ks.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        ["convert", "loops"]
    );
    for k in &ks {
        run_text(&k.name, &k.ptx, &k.spec).unwrap();
    }
    // NVVMPeephole rewrites the two cvta round trips and three
    // conversions (two widen-narrow pairs and cvt.u32.u32; not the
    // saturating one) of `convert` into movs.
    let m = ptxc::ptx::parse_checked("convert", &ks[0].ptx).unwrap();
    let mut lm = lift_module(&m);
    let f = lm.funcs[0].1.as_mut().unwrap();
    let movs = |f: &ptxc::nvopt::ir::Function| {
        f.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|i| i.op == ptxc::ptx::isa::Opcode::Mov)
            .count()
    };
    let before = movs(f);
    assert!(by_name("nvvm-peephole-optimizer").unwrap().run(f));
    assert_eq!(movs(f), before + 5);
    let m = ptxc::ptx::parse_checked("loops", &ks[1].ptx).unwrap();
    let mut lm = lift_module(&m);
    let f = lm.funcs[0].1.as_mut().unwrap();
    by_name("loop-simplify").unwrap().run(f);
    let before = ptxc::nvopt::passes::loop_util::find_loops(f).len();
    assert_eq!(before, 6);
    assert!(by_name("loop-index-split").unwrap().run(f));
    assert_eq!(ptxc::nvopt::passes::loop_util::find_loops(f).len(), 8);
}

#[test]
fn reassociate_preserves_results() {
    // Unrolled loops give `(i + 1) + 1` chains.
    check(&["loop-simplify", "loop-unroll"], "reassociate");
}

#[test]
fn sink_preserves_results() {
    check(&[], "sink");
}

#[test]
fn sinking2_preserves_results() {
    check(&[], "sinking2");
}

#[test]
fn remat_preserves_results() {
    // Limit 0: every function with a live value counts as high pressure,
    // so every candidate is rematerialized.
    let pass = ptxc::nvopt::passes::remat::Remat {
        max_live_limit: 0,
        use_limit: 1000,
    };
    check_with(&[], &pass);
}

#[test]
fn nvvm_peephole_preserves_results() {
    check(&[], "nvvm-peephole-optimizer");
}

#[test]
fn hand_written_kernels_keep_their_results_at_every_level() {
    use ptxc::nvopt::pipeline::{build, Knobs, Level};
    let ks = loop_kernels();
    for level in Level::ALL {
        let p = build(level, &Knobs::default());
        let t = |m: &ptxc::ptx::ast::Module| {
            let out = ptxc::nvopt::optimize(m, &p);
            assert!(out.skipped.is_empty(), "{:?}", out.skipped);
            out.module
        };
        let fails = check_all(&ks, &t);
        assert!(fails.is_empty(), "{level:?}: {}", fails.join("\n"));
    }
}
