//! Unit tests of the loop and scheduling-ish passes (LoopSimplify,
//! LoopUnroll, LoopIndexSplit, Reassociate, Sink, NVVMSinking2,
//! NVVMRematerialization, NVVMPeephole) on PTX snippets: lift, run the
//! passes, print, and compare with the exact expected instructions and
//! block counts.

use super::loop_util::find_loops;
use super::*;
use crate::nvopt::ir::Term;
use crate::nvopt::{lift_module, print_module};

/// Runs `passes` on the first function of `src`; returns the SSA form
/// after the passes and the printed body's instruction lines (labels and
/// declarations dropped, whitespace normalized).
fn run(src: &str, passes: &[&dyn Pass]) -> (Function, String) {
    let m = crate::ptx::parse_checked("t.ptx", src).unwrap();
    let mut lm = lift_module(&m);
    let f = lm.funcs[0].1.as_mut().unwrap();
    for p in passes {
        p.run(f);
        crate::nvopt::verify::verify(f).unwrap_or_else(|e| panic!("{}: {e}", p.name()));
    }
    let f = f.clone();
    let out = crate::ptx::printer::print(&print_module(&lm));
    crate::ptx::parse_checked("out.ptx", &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let body = super::tests::body_lines(&out);
    (f, body)
}

fn named(names: &[&str]) -> Vec<Box<dyn Pass>> {
    names.iter().map(|n| by_name(n).unwrap()).collect()
}

fn run_named(src: &str, names: &[&str]) -> (Function, String) {
    let ps = named(names);
    let refs: Vec<&dyn Pass> = ps.iter().map(|p| p.as_ref()).collect();
    run(src, &refs)
}

fn kernel(body: &str) -> String {
    format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 k_p, .param .u32 k_n)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd2, %rd1;\n{body}\nret;\n}}\n"
    )
}

const HEAD: &str = "ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;";

fn inst_count(f: &Function) -> usize {
    f.blocks.iter().map(|b| b.insts.len()).sum()
}

/// A loop summing 0..4 (bottom-tested: the latch exits).
const SUM4: &str = "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\nL:\nadd.s32 %r2, %r2, %r1;\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 4;\n@%p1 bra L;\nst.global.u32 [%rd2], %r2;";

#[test]
fn loop_simplify_adds_preheader_single_latch_and_dedicated_exit() {
    // The header H is entered from the entry (a conditional branch) and
    // has two latches (A and B); the exit X is also reached from the entry.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 8;\n@%p1 bra X;\nH:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p2, %r1, 4;\n@%p2 bra A;\nsetp.lt.u32 %p3, %r1, 12;\n@!%p3 bra X;\nbra.uni H;\nA:\nbra.uni H;\nX:\nst.global.u32 [%rd2], %r1;",
    );
    let (before, _) = run_named(&src, &[]);
    let (f, _) = run_named(&src, &["loop-simplify"]);
    let loops = find_loops(&f);
    assert_eq!(loops.len(), 1);
    let l = &loops[0];
    let preds = f.preds();
    // Three new blocks: the preheader, the single latch, the dedicated exit.
    assert_eq!(f.blocks.len(), before.blocks.len() + 3);
    assert!(l.preheader(&f, &preds).is_some());
    assert_eq!(l.latches.len(), 1);
    for (_, e) in l.exit_edges(&f) {
        assert!(preds[e.idx()].iter().all(|p| l.contains(*p)), "exit {e:?}");
    }
    // The header's phi merges the preheader and the new latch only.
    assert_eq!(f.blocks[l.header.idx()].phis.len(), 1);
    assert_eq!(f.blocks[l.header.idx()].phis[0].args.len(), 2);
    // A second run has nothing to do.
    let mut g = f.clone();
    assert!(!loop_simplify::LoopSimplify.run(&mut g));
    assert_eq!(inst_count(&f), inst_count(&before));
}

#[test]
fn full_unroll_of_a_constant_trip_loop_removes_the_back_edge() {
    let src = kernel(SUM4);
    let (before, _) = run_named(&src, &["loop-simplify"]);
    assert_eq!(find_loops(&before).len(), 1);
    let (f, body) = run_named(&src, &["loop-simplify", "loop-unroll", "sccp", "dce"]);
    // One block, no loop: 0+1+2+3 = 6 is stored.
    assert_eq!(f.blocks.len(), 1);
    assert!(find_loops(&f).is_empty());
    assert_eq!(
        body,
        format!("{HEAD}\nmov.b32 %nvb32_0, 6;\nst.global.u32 [%nvb64_1], %nvb32_0;\nret;")
    );
}

#[test]
fn full_unroll_copies_the_body_once_per_iteration() {
    let src = kernel(SUM4);
    let (f, _) = run_named(&src, &["loop-simplify", "loop-unroll"]);
    // 2 head instructions, 2 initial movs, 4 copies of (add, add, setp),
    // the store: 17 instructions in one block.
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(inst_count(&f), 2 + 2 + 4 * 3 + 1);
    assert!(f.blocks[0].phis.is_empty());
}

#[test]
fn unroll_trip_counts_of_canonical_induction_variables() {
    use super::loop_util::{const_trip_count, find_iv, single_exit};
    // (loop, expected trip count)
    let cases: &[(&str, Option<u64>)] = &[
        // i = 0; do { i++ } while (i < 4): 4 tests.
        ("mov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 4;\n@%p1 bra L;", Some(4)),
        // <= : i = 0..=4 -> 5.
        ("mov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.le.u32 %p1, %r1, 4;\n@%p1 bra L;", Some(5)),
        // != by 3 from 0 to 12 -> 4.
        ("mov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 3;\nsetp.ne.s32 %p1, %r1, 12;\n@%p1 bra L;", Some(4)),
        // signed: from -3 while (i < 2): -2,-1,0,1,2 -> 5 tests.
        ("mov.u32 %r1, -3;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.lt.s32 %p1, %r1, 2;\n@%p1 bra L;", Some(5)),
        // unsigned: -3 is huge, so the first test exits -> 1.
        ("mov.u32 %r1, -3;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 2;\n@%p1 bra L;", Some(1)),
        // counting down with sub, compare reads the phi: 10,8,..,2 continue while > 0 -> tests at 10,8,6,4,2,0.
        ("mov.u32 %r1, 10;\nL:\nsetp.gt.s32 %p1, %r1, 0;\nsub.s32 %r1, %r1, 2;\n@%p1 bra L;", Some(6)),
        // exit taken on the true side: while !(i == 7).
        ("mov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.eq.u32 %p1, %r1, 7;\n@!%p1 bra L;", Some(7)),
        // invariant but unknown bound: no constant trip count.
        ("ld.param.u32 %r3, [k_n];\nmov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, %r3;\n@%p1 bra L;", None),
    ];
    for (body, want) in cases {
        let src = kernel(&format!("{body}\nst.global.u32 [%rd2], %r1;"));
        let (f, _) = run_named(&src, &["loop-simplify"]);
        let loops = find_loops(&f);
        let l = &loops[0];
        let (x, _, _) = single_exit(&f, l).unwrap();
        let iv = find_iv(&f, l, x).unwrap_or_else(|| panic!("no IV: {body}"));
        assert_eq!(const_trip_count(&f, &iv, 1000), *want, "{body}");
    }
}

#[test]
fn top_tested_loop_unrolls_fully() {
    // for (i = 0; i < 3; i++) s += i; with the test in the header.
    let src = kernel(
        "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\nH:\nsetp.ge.u32 %p1, %r1, 3;\n@%p1 bra X;\nadd.s32 %r2, %r2, %r1;\nadd.s32 %r1, %r1, 1;\nbra.uni H;\nX:\nst.global.u32 [%rd2], %r2;",
    );
    let (f, body) = run_named(&src, &["loop-simplify", "loop-unroll", "sccp", "dce"]);
    assert!(find_loops(&f).is_empty());
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(
        body,
        format!("{HEAD}\nmov.b32 %nvb32_0, 3;\nst.global.u32 [%nvb64_1], %nvb32_0;\nret;")
    );
}

#[test]
fn unroll_by_a_factor_dividing_the_trip_count_keeps_one_exit_test() {
    // 40 iterations: too many to unroll fully (max count 20); the largest
    // factor <= 4 dividing 40 is 4.
    let src = kernel(
        "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\nL:\nadd.s32 %r2, %r2, %r1;\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 40;\n@%p1 bra L;\nst.global.u32 [%rd2], %r2;",
    );
    let (f, _) = run_named(&src, &["loop-simplify", "loop-unroll"]);
    let loops = find_loops(&f);
    assert_eq!(loops.len(), 1);
    // Preheader (entry) + one loop block + exit: the copies merged.
    assert_eq!(f.blocks.len(), 3);
    let l = &loops[0];
    assert_eq!(l.size(), 1);
    let b = &f.blocks[l.header.idx()];
    assert_eq!(b.insts.len(), 4 * 3);
    assert_eq!(b.phis.len(), 2);
    assert!(matches!(b.term, Term::CondBr { .. }));
}

#[test]
fn unroll_with_unknown_trip_count_keeps_every_exit_test() {
    let src = kernel(
        "ld.param.u32 %r3, [k_n];\nmov.u32 %r1, 0;\nL:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, %r3;\n@%p1 bra L;\nst.global.u32 [%rd2], %r1;",
    );
    let (f0, _) = run_named(&src, &["loop-simplify", "loop-unroll"]);
    assert_eq!(inst_count(&f0), 2 + 2 + 2 + 1, "no automatic unroll");
    let pass = loop_unroll::LoopUnroll {
        count: 2,
        ..Default::default()
    };
    let ls = loop_simplify::LoopSimplify;
    let (f, _) = run(&src, &[&ls, &pass]);
    let loops = find_loops(&f);
    assert_eq!(loops.len(), 1);
    // Two copies, each with its own exit branch to the exit block, whose
    // phi merges the two copies' counters.
    assert_eq!(loops[0].size(), 2);
    let exits = loops[0].exit_edges(&f);
    assert_eq!(exits.len(), 2);
    let e = exits[0].1;
    assert_eq!(exits[1].1, e);
    assert_eq!(f.blocks[e.idx()].phis.len(), 1);
    assert_eq!(f.blocks[e.idx()].phis[0].args.len(), 2);
}

#[test]
fn unroll_leaves_loops_with_barriers_alone() {
    let src = kernel(
        "mov.u32 %r1, 0;\nL:\nbar.sync 0;\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 4;\n@%p1 bra L;\nst.global.u32 [%rd2], %r1;",
    );
    let (f, _) = run_named(&src, &["loop-simplify", "loop-unroll"]);
    assert_eq!(find_loops(&f).len(), 1);
    assert_eq!(inst_count(&f), 2 + 1 + 3 + 1);
}

/// for (i = 0; i < 8; i++) s += (i < 3) ? 1 : 2; bottom-tested.
const SPLIT8: &str = "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\nL:\nsetp.lt.u32 %p2, %r1, 3;\n@%p2 bra A;\nadd.s32 %r2, %r2, 2;\nbra.uni J;\nA:\nadd.s32 %r2, %r2, 1;\nJ:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 8;\n@%p1 bra L;\nst.global.u32 [%rd2], %r2;";

#[test]
fn index_split_divides_the_iteration_space_at_the_monotonic_condition() {
    let src = kernel(SPLIT8);
    let (f, _) = run_named(&src, &["loop-simplify", "loop-index-split"]);
    let loops = find_loops(&f);
    // Two single-block loops, neither with an inner branch.
    assert_eq!(loops.len(), 2);
    for l in &loops {
        assert_eq!(l.size(), 1);
    }
    // entry, loop 1, loop 2, exit (the empty block between the loops is
    // bypassed by SimplifyCFG).
    assert_eq!(f.blocks.len(), 4);
    // Unrolled afterwards, the result folds to 3 * 1 + 5 * 2 = 13.
    let (_, body) = run_named(
        &src,
        &[
            "loop-simplify",
            "loop-index-split",
            "loop-simplify",
            "loop-unroll",
            // The second loop's start is the first one's end: a constant
            // once SCCP folded the unrolled first loop.
            "sccp",
            "loop-unroll",
            "sccp",
            "simplifycfg",
            "dce",
        ],
    );
    assert_eq!(
        body,
        format!("{HEAD}\nmov.b32 %nvb32_0, 13;\nst.global.u32 [%nvb64_1], %nvb32_0;\nret;")
    );
}

#[test]
fn index_split_folds_a_condition_that_holds_in_every_iteration() {
    // i < 20 holds for i = 0..8: the else side goes away.
    let src = kernel(&SPLIT8.replace("%r1, 3;", "%r1, 20;"));
    let (f, _) = run_named(&src, &["loop-simplify", "loop-index-split"]);
    let loops = find_loops(&f);
    assert_eq!(loops.len(), 1);
    assert_eq!(loops[0].size(), 1);
    let h = &f.blocks[loops[0].header.idx()];
    // setp (dead now), add 1, add, setp.
    assert_eq!(h.insts.len(), 4);
}

#[test]
fn index_split_leaves_a_non_monotonic_condition_alone() {
    // i == 3 is false, true, false: not monotonic.
    let src = kernel(&SPLIT8.replace("setp.lt.u32 %p2, %r1, 3;", "setp.eq.u32 %p2, %r1, 3;"));
    let (f0, _) = run_named(&src, &["loop-simplify"]);
    let mut f = f0.clone();
    assert!(!loop_index_split::LoopIndexSplit.run(&mut f));
    assert_eq!(f, f0);
}

#[test]
fn reassociate_folds_constant_chains_and_moves_constants_outward() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nld.param.u32 %r9, [k_n];\nadd.s32 %r2, %r1, 3;\nsub.s32 %r3, %r2, 10;\nadd.s32 %r4, %r3, %r9;\nadd.s32 %r5, %r4, 1;\nxor.b32 %r6, %r1, 12;\nxor.b32 %r7, %r6, 10;\nst.global.u32 [%rd2], %r5;\nst.global.u32 [%rd2+4], %r7;",
    );
    let (_, body) = run_named(&src, &["reassociate", "dce"]);
    // ((tid + 3) - 10) + n + 1 = (tid + n) - 6; (tid ^ 12) ^ 10 = tid ^ 6.
    assert_eq!(
        body,
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nld.param.u32 %nvb32_1, [k_n];\nadd.s32 %nvb32_2, %nvb32_0, %nvb32_1;\n\
             add.s32 %nvb32_3, %nvb32_2, -6;\nxor.b32 %nvb32_4, %nvb32_0, 6;\nst.global.u32 [%nvb64_1], %nvb32_3;\n\
             st.global.u32 [%nvb64_1+4], %nvb32_4;\nret;"
        )
    );
}

#[test]
fn reassociate_leaves_float_adds_alone() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\ncvt.rn.f32.u32 %r2, %r1;\nadd.f32 %r3, %r2, 0f3F800000;\nadd.f32 %r4, %r3, 0f3F800000;\nst.global.f32 [%rd2], %r4;",
    );
    let (f0, _) = run_named(&src, &[]);
    let mut f = f0.clone();
    assert!(!reassociate::Reassociate.run(&mut f));
    assert_eq!(f, f0);
}

/// `%r2` and the load are needed only when tid < 4.
const SINKABLE: &str = "mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 7;\nld.global.u32 %r3, [%rd2+64];\nsetp.lt.u32 %p1, %r1, 4;\n@!%p1 bra SKIP;\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd2], %r4;\nSKIP:\nst.global.u32 [%rd2+4], %r1;";

#[test]
fn sink_moves_pure_ops_and_loads_into_the_only_successor_using_them() {
    let (_, body) = run_named(&kernel(SINKABLE), &["sink"]);
    assert_eq!(
        body,
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\n@!%nvpred_0 bra $NVB2;\n\
             mul.lo.s32 %nvb32_1, %nvb32_0, 7;\nld.global.u32 %nvb32_2, [%nvb64_1+64];\nadd.s32 %nvb32_3, %nvb32_1, %nvb32_2;\n\
             st.global.u32 [%nvb64_1], %nvb32_3;\nst.global.u32 [%nvb64_1+4], %nvb32_0;\nret;"
        )
    );
}

#[test]
fn sink_keeps_a_load_above_a_store_or_barrier() {
    for between in [
        "st.global.u32 [%rd2+8], %r1;",
        "bar.sync 0;",
        "atom.global.add.u32 %r9, [%rd2+8], 1;",
    ] {
        let src = kernel(&SINKABLE.replace("setp.lt.u32", &format!("{between}\nsetp.lt.u32")));
        let (f, _) = run_named(&src, &["sink"]);
        let entry = &f.blocks[0];
        assert!(
            entry
                .insts
                .iter()
                .any(|i| i.op == crate::ptx::isa::Opcode::Ld
                    && i.has(crate::ptx::modifiers::Mod::Global)),
            "{between}"
        );
        // The multiply still moves.
        assert!(
            !entry
                .insts
                .iter()
                .any(|i| i.op == crate::ptx::isa::Opcode::Mul),
            "{between}"
        );
    }
}

#[test]
fn sink_never_moves_into_a_loop() {
    // %r2 is used only inside the loop: the loop header has two
    // predecessors, so it stays in the entry.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 7;\nmov.u32 %r3, 0;\nL:\nadd.s32 %r3, %r3, %r2;\nsetp.lt.u32 %p1, %r3, 100;\n@%p1 bra L;\nst.global.u32 [%rd2], %r3;",
    );
    for p in ["sink", "sinking2"] {
        let (f0, _) = run_named(&src, &[]);
        let mut f = f0.clone();
        assert!(!by_name(p).unwrap().run(&mut f), "{p}");
    }
}

#[test]
fn sinking2_moves_pure_ops_down_a_chain_but_not_loads_or_past_barriers() {
    // The multiply is used two blocks down (entry -> A -> B, each with one
    // predecessor); the load stays.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nmul.lo.s32 %r2, %r1, 7;\nld.global.u32 %r3, [%rd2+64];\nsetp.lt.u32 %p1, %r1, 4;\n@!%p1 bra SKIP;\nsetp.lt.u32 %p2, %r1, 2;\n@!%p2 bra SKIP;\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd2], %r4;\nSKIP:\nst.global.u32 [%rd2+4], %r1;",
    );
    let (f, _) = run_named(&src, &["sinking2"]);
    let holds = |op| {
        f.blocks
            .iter()
            .position(|b| b.insts.iter().any(|i| i.op == op))
            .unwrap()
    };
    use crate::ptx::isa::Opcode;
    assert_eq!(holds(Opcode::Ld), 0);
    let b = holds(Opcode::Mul);
    assert_eq!(b, holds(Opcode::Add));
    assert_eq!(f.blocks[b].insts[0].op, Opcode::Mul);
    // The same with a barrier in the last block: the multiply stops one
    // block above it.
    let src = src.replace("add.s32 %r4", "bar.sync 0;\nadd.s32 %r4");
    let (f, _) = run_named(&src, &["sinking2"]);
    let mul = f
        .blocks
        .iter()
        .position(|b| b.insts.iter().any(|i| i.op == Opcode::Mul))
        .unwrap();
    let bar = f
        .blocks
        .iter()
        .position(|b| b.insts.iter().any(|i| i.op == Opcode::Bar))
        .unwrap();
    assert_ne!(mul, 0);
    assert_ne!(mul, bar);
}

#[test]
fn remat_recomputes_cheap_values_in_the_using_blocks_under_pressure() {
    // %r2 (tid.x) and %r3 (5) are defined in the entry and used after a
    // branch; with limit 0 each using block gets its own copy.
    let src = kernel(
        "mov.u32 %r2, %tid.x;\nmov.u32 %r3, 5;\nld.global.u32 %r1, [%rd2+64];\nsetp.lt.u32 %p1, %r1, 4;\n@!%p1 bra SKIP;\nadd.s32 %r4, %r2, %r3;\nst.global.u32 [%rd2], %r4;\nSKIP:\nst.global.u32 [%rd2+4], %r2;",
    );
    let limit0 = remat::Remat {
        max_live_limit: 0,
        use_limit: 16,
    };
    let (_, body) = run(&src, &[&limit0, &dce::Dce]);
    assert_eq!(
        body,
        format!(
            "{HEAD}\nld.global.u32 %nvb32_0, [%nvb64_1+64];\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\n@!%nvpred_0 bra $NVB2;\n\
             mov.u32 %nvb32_1, %tid.x;\nmov.u32 %nvb32_2, 5;\nadd.s32 %nvb32_3, %nvb32_1, %nvb32_2;\nst.global.u32 [%nvb64_1], %nvb32_3;\n\
             mov.u32 %nvb32_4, %tid.x;\nst.global.u32 [%nvb64_1+4], %nvb32_4;\nret;"
        )
    );
    // Under the default limit the pressure (a handful of values) is low:
    // nothing changes.
    let (f0, _) = run_named(&src, &[]);
    let mut f = f0.clone();
    assert!(remat::max_pressure(&f) < remat::DEFAULT_MAX_LIVE as usize);
    assert!(!remat::Remat::default().run(&mut f));
}

#[test]
fn remat_pressure_counts_values_live_across_a_point() {
    // tid, 5 and the load are live together before the add; %rd2 (the
    // global pointer) too: 4 values, predicates not counted.
    let src = kernel(
        "mov.u32 %r2, %tid.x;\nmov.u32 %r3, 5;\nld.global.u32 %r1, [%rd2+64];\nadd.s32 %r4, %r2, %r3;\nadd.s32 %r5, %r4, %r1;\nst.global.u32 [%rd2], %r5;",
    );
    let (f, _) = run_named(&src, &[]);
    assert_eq!(remat::max_pressure(&f), 4);
}

#[test]
fn remat_does_not_copy_into_a_loop() {
    let src = kernel(
        "mov.u32 %r2, 7;\nmov.u32 %r3, 0;\nL:\nadd.s32 %r3, %r3, %r2;\nsetp.lt.u32 %p1, %r3, 100;\n@%p1 bra L;\nst.global.u32 [%rd2], %r3;",
    );
    let (f0, _) = run_named(&src, &[]);
    let mut f = f0.clone();
    let limit0 = remat::Remat {
        max_live_limit: 0,
        use_limit: 16,
    };
    assert!(!limit0.run(&mut f));
}

#[test]
fn nvvm_peephole_folds_cvta_round_trips_and_redundant_conversions() {
    let src = kernel(
        "cvta.global.u64 %rd3, %rd2;\ncvta.to.global.u64 %rd4, %rd3;\nld.global.u32 %r1, [%rd4];\n\
         cvt.u64.u32 %rd5, %r1;\ncvt.u32.u64 %r2, %rd5;\ncvt.s64.s32 %rd6, %r1;\ncvt.s32.s64 %r3, %rd6;\ncvt.u32.u32 %r4, %r1;\n\
         cvt.sat.u16.u32 %r5, %r1;\nadd.s32 %r6, %r2, %r3;\nadd.s32 %r7, %r6, %r4;\nadd.s32 %r8, %r7, %r5;\nst.global.u32 [%rd4], %r8;",
    );
    let (_, body) = run_named(&src, &["nvvm-peephole-optimizer", "instcombine", "dce"]);
    // Only the saturating conversion is left; every other value is %r1 or
    // the original pointer.
    assert_eq!(
        body,
        format!(
            "{HEAD}\nld.global.u32 %nvb32_0, [%nvb64_1];\ncvt.sat.u16.u32 %nvb32_1, %nvb32_0;\nadd.s32 %nvb32_2, %nvb32_0, %nvb32_0;\n\
             add.s32 %nvb32_3, %nvb32_2, %nvb32_0;\nadd.s32 %nvb32_4, %nvb32_3, %nvb32_1;\nst.global.u32 [%nvb64_1], %nvb32_4;\nret;"
        )
    );
}

#[test]
fn nvvm_peephole_keeps_the_generic_to_space_to_generic_pair_and_mixed_spaces() {
    let src = kernel(
        "cvta.to.global.u64 %rd3, %rd1;\ncvta.global.u64 %rd4, %rd3;\ncvta.shared.u64 %rd5, %rd3;\ncvta.to.global.u64 %rd6, %rd5;\n\
         st.global.u64 [%rd2], %rd4;\nst.global.u64 [%rd2+8], %rd6;",
    );
    let (f0, _) = run_named(&src, &[]);
    let mut f = f0.clone();
    assert!(!nvvm_peephole::NvvmPeephole.run(&mut f));
}
