//! PlaceBlocksInSourceOrder (112), executed. For every corpus kernel on
//! sm_80, the IR the phase sees in the default -O3 pipeline is laid out in
//! a scrambled block order (`place_blocks::lay_out`, the entry kept first,
//! fallthroughs turned into branches), and then the phase, given the
//! source order AnalyzeControlFlow recorded, puts it back:
//! - the scrambled IR verifies and behaves as the original (the layout
//!   keeps every path), on reseeded inputs in the simulator;
//! - after the phase the blocks are in source order again, the IR
//!   verifies, and it behaves as the original.

use oracle::phase_check::{before_phase, compare_functions, corpus_cases};
use oracle::ptx_interp::RunLimits;
use ptxc::ir::Function;
use ptxc::phases::control_flow::CfgFacts;
use ptxc::phases::phase::{create, PhaseContext};
use ptxc::phases::place_blocks::lay_out;
use ptxc::phases::table::index_of;
use ptxc::phases::Plan;
use std::path::Path;

const PLACE_BLOCKS: u16 = index_of("PlaceBlocksInSourceOrder");

fn labels(f: &Function) -> Vec<u32> {
    f.blocks.iter().map(|b| b.label).collect()
}

/// A seeded permutation of the block indices with the entry first, never
/// the identity (`n` >= 3).
fn scramble(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut rest: Vec<usize> = (1..n).collect();
    for i in (1..rest.len()).rev() {
        // splitmix64's step (Vigna), a fixed stream for a fixed seed.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let j = (z % (i as u64 + 1)) as usize;
        rest.swap(i, j);
    }
    if rest.windows(2).all(|w| w[0] < w[1]) {
        rest.reverse();
    }
    std::iter::once(0).chain(rest).collect()
}

#[test]
fn scrambled_layouts_go_back_to_source_order_and_behave_the_same() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let limits = RunLimits::default();
    let plan = Plan::default();
    let phase = create(PLACE_BLOCKS, &plan.config).unwrap();
    assert!(!phase.is_no_op());
    let mut moved = Vec::new();
    for case in corpus_cases(&dir, &["sm_80"]).unwrap() {
        let f = before_phase(&plan, PLACE_BLOCKS, &case).unwrap();
        let facts = CfgFacts::of(&f);
        assert!(
            f.blocks.len() >= 3,
            "{}: too few blocks to scramble",
            case.name
        );
        let order = scramble(f.blocks.len(), 7);
        let g = lay_out(&f, &order);
        assert_ne!(
            labels(&g),
            labels(&f),
            "{}: the scramble moved nothing",
            case.name
        );
        ptxc::ir::verify(&g, Some(case.sm))
            .unwrap_or_else(|e| panic!("{}: scrambled layout: {e}", case.name));
        compare_functions(&case, &f, &g, 2, &limits)
            .unwrap_or_else(|e| panic!("{}: scrambled layout: {e}", case.name));
        let mut cx = PhaseContext::new(g, Some(case.sm));
        cx.cfg = Some(facts);
        phase.execute(&mut cx).unwrap();
        let h = cx.function;
        assert_eq!(labels(&h), labels(&f), "{}", case.name);
        ptxc::ir::verify(&h, Some(case.sm)).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert!(
            cx.fired.get(&PLACE_BLOCKS).copied().unwrap_or(0) > 0,
            "{}",
            case.name
        );
        compare_functions(&case, &f, &h, 2, &limits)
            .unwrap_or_else(|e| panic!("{}: after the phase: {e}", case.name));
        moved.push(case.name.clone());
    }
    assert_eq!(moved.len(), 32, "16 kernels, NAME.ptx and NAME.O0.ptx");
}
