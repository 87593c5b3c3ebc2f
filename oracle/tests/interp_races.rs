//! Data races are reported as UB, and properly ordered programs are not.

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits, UbKind};

/// Runs `body` after thread 0 of each CTA has zeroed `sh` and a barrier
/// (shared memory starts undefined; the barrier orders those stores before
/// everything the body does). The zeroing shares line 12 with the
/// prologue's last instruction, so the body starts on line 13.
fn run(body: &str, grid: u32, block: u32) -> Outcome {
    let zero = "setp.ne.u32 %p0, %r1, 0; @%p0 bra ZD; mov.u64 %rd0, sh; add.s64 %rd2, %rd0, 256; \
                ZL: st.shared.u32 [%rd0], 0; add.s64 %rd0, %rd0, 4; setp.lt.u64 %p0, %rd0, %rd2; @%p0 bra ZL; \
                ZD: bar.sync 0;";
    let src = format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\
         \t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n\t.shared .align 4 .b8 sh[256];\n\
         \tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmov.u32 %r1, %tid.x; {zero}\n{body}\n\tret;\n}}\n"
    );
    let spec = format!(
        r#"{{"kernel": "k", "grid": [{grid}], "block": [{block}], "params": [{{"buffer": "out"}}],
            "buffers": {{"out": {{"type": "u32", "len": 64, "init": "zeros"}}}}}}"#
    );
    let spec = LaunchSpec::from_json_str(&spec, std::path::Path::new(".")).unwrap();
    let m = ptxc::ptx::parse_checked("race.ptx", &src).unwrap_or_else(|e| panic!("{e}"));
    ptx_interp::run(&m, &src, &spec, &RunLimits::default())
        .unwrap()
        .outcome
}

fn is_race(o: &Outcome) -> bool {
    matches!(
        o,
        Outcome::Ub {
            kind: UbKind::DataRace { .. },
            ..
        }
    )
}

#[test]
fn shared_write_then_read_by_another_thread_without_barrier_races() {
    // Thread 0 writes sh[0]; every thread reads it: no barrier in between.
    let body = "\tsetp.ne.u32 %p1, %r1, 0;\n\t@!%p1 st.shared.u32 [sh], 7;\n\tld.shared.u32 %r2, [sh];\n\tst.global.u32 [%rd1], %r2;";
    let o = run(body, 1, 64);
    assert!(is_race(&o), "{o:?}");
    if let Outcome::Ub {
        kind: UbKind::DataRace { other_tid, .. },
        at,
    } = &o
    {
        // The writer was thread 0; the racing reader is a later thread.
        assert_eq!(*other_tid, [0, 0, 0]);
        assert_ne!(at.tid, [0, 0, 0]);
        // Lines 1-12 are the module header and prologue; 13 setp, 14 st, 15 ld.
        assert_eq!(at.line, 15, "{at}");
    }
}

#[test]
fn a_barrier_orders_the_same_accesses() {
    let body = "\tsetp.ne.u32 %p1, %r1, 0;\n\t@!%p1 st.shared.u32 [sh], 7;\n\tbar.sync 0;\n\tld.shared.u32 %r2, [sh];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;";
    assert_eq!(run(body, 1, 64), Outcome::Completed);
}

#[test]
fn two_threads_writing_one_global_word_race() {
    let body = "\tst.global.u32 [%rd1], %r1;";
    assert!(is_race(&run(body, 1, 2)));
}

#[test]
fn ctas_writing_one_global_word_race_even_one_at_a_time() {
    // One thread per CTA: within a CTA there is no conflict, across CTAs there is.
    let body = "\tst.global.u32 [%rd1], %r1;";
    assert_eq!(run(body, 1, 1), Outcome::Completed);
    assert!(is_race(&run(body, 2, 1)));
}

#[test]
fn atomics_from_every_thread_and_cta_do_not_race() {
    let body = "\tatom.global.add.u32 %r2, [%rd1], 1;\n\tatom.shared.add.u32 %r3, [sh], 1;";
    assert_eq!(run(body, 4, 64), Outcome::Completed);
}

#[test]
fn plain_read_of_a_word_others_update_atomically_races() {
    let body = "\tatom.shared.add.u32 %r2, [sh], 1;\n\tld.shared.u32 %r3, [sh];\n\tst.global.u32 [%rd1+4], %r3;";
    assert!(is_race(&run(body, 1, 64)));
}

#[test]
fn disjoint_per_thread_slots_do_not_race() {
    let body = "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r1;\n\tld.global.u32 %r2, [%rd3];\n\tst.global.u32 [%rd3], %r2;";
    assert_eq!(run(body, 1, 64), Outcome::Completed);
}

#[test]
fn warp_barrier_orders_lanes_of_a_warp() {
    // Lane 0 writes, bar.warp.sync, all lanes of warp 0 read: ordered.
    let body = "\tsetp.ne.u32 %p1, %r1, 0;\n\t@!%p1 st.shared.u32 [sh], 7;\n\tbar.warp.sync -1;\n\tld.shared.u32 %r2, [sh];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;";
    assert_eq!(run(body, 1, 32), Outcome::Completed);
}

fn race_at(o: &Outcome) -> Option<(u64, [u32; 3], [u32; 3])> {
    match o {
        Outcome::Ub {
            kind: UbKind::DataRace {
                address, other_tid, ..
            },
            at,
        } => Some((*address, *other_tid, at.tid)),
        _ => None,
    }
}

#[test]
fn a_byte_read_overlapping_another_threads_word_write_races_at_that_byte() {
    // Thread 0 writes the word sh[0..4]; thread 1 reads byte 2 of it.
    let body = "\tsetp.ne.u32 %p1, %r1, 0;\n\t@!%p1 st.shared.u32 [sh], 7;\n\t@%p1 ld.shared.u8 %r2, [sh+2];";
    let o = run(body, 1, 2);
    assert_eq!(race_at(&o), Some((2, [0, 0, 0], [1, 0, 0])), "{o:?}");
    // A byte beside the word does not overlap it.
    let body = "\tsetp.ne.u32 %p1, %r1, 0;\n\t@!%p1 st.shared.u32 [sh], 7;\n\t@%p1 ld.shared.u8 %r2, [sh+4];";
    assert_eq!(run(body, 1, 2), Outcome::Completed);
}

#[test]
fn byte_writes_to_one_word_by_different_threads_do_not_race() {
    // Each of 4 threads writes its own byte of sh[0..4]; after a barrier
    // every thread reads the whole word.
    let body = "\tst.global.u8 [%rd1], %r1;\n\tcvt.u64.u32 %rd2, %r1;\n\tmov.u64 %rd3, sh;\n\tadd.s64 %rd3, %rd3, %rd2;\n\
                \tst.shared.u8 [%rd3], %r1;\n\tbar.sync 0;\n\tld.shared.u32 %r2, [sh];";
    // (the first store goes to global memory, out[0]: racy by itself)
    let o = run(body, 1, 4);
    assert_eq!(race_at(&o).map(|r| r.0 >= 0x1000_0000), Some(true), "{o:?}");
    let body = "\tcvt.u64.u32 %rd2, %r1;\n\tmov.u64 %rd3, sh;\n\tadd.s64 %rd3, %rd3, %rd2;\n\
                \tst.shared.u8 [%rd3], %r1;\n\tbar.sync 0;\n\tld.shared.u32 %r2, [sh];";
    assert_eq!(run(body, 1, 4), Outcome::Completed);
    // Without the barrier the word read races with the other threads' bytes:
    // thread 0 runs first (writes byte 0, reads bytes 0-3), so thread 1's
    // write of byte 1 races with thread 0's read of it.
    let body = "\tcvt.u64.u32 %rd2, %r1;\n\tmov.u64 %rd3, sh;\n\tadd.s64 %rd3, %rd3, %rd2;\n\
                \tst.shared.u8 [%rd3], %r1;\n\tld.shared.u32 %r2, [sh];";
    let o = run(body, 1, 4);
    assert_eq!(race_at(&o), Some((1, [0, 0, 0], [1, 0, 0])), "{o:?}");
}

#[test]
fn a_read_of_some_bytes_does_not_count_as_a_read_of_the_others() {
    // Lane 0 of warps 0 and 1 read sh[0..8] (ld.u64, unordered: a read set);
    // lane 0 of warp 2 reads only sh[0..4], then exits. Warps 0 and 1 meet
    // at a 64-thread barrier, then thread 32 writes sh[4..8]: ordered after
    // both readers of those bytes, and warp 2 never read them. No race.
    let body = "\tand.b32 %r2, %r1, 31;\n\tshr.u32 %r3, %r1, 5;\n\tsetp.ne.u32 %p1, %r2, 0;\n\t@%p1 bra SKIP;\n\
                \tsetp.eq.u32 %p1, %r3, 2;\n\t@%p1 bra W2;\n\tld.shared.u64 %rd2, [sh];\n\tbra.uni SKIP;\n\
                W2:\n\tld.shared.u32 %r4, [sh];\nSKIP:\n\tsetp.eq.u32 %p1, %r3, 2;\n\t@%p1 bra DONE;\n\
                \tbar.sync 1, 64;\n\tsetp.ne.u32 %p1, %r1, 32;\n\t@%p1 bra DONE;\n\tst.shared.u32 [sh+4], %r1;\nDONE:";
    assert_eq!(run(body, 1, 96), Outcome::Completed);
    // Writing sh[0..4] instead races with warp 2's read.
    let body = body.replace("[sh+4], %r1", "[sh], %r1");
    let o = run(&body, 1, 96);
    assert!(is_race(&o), "{o:?}");
}

#[test]
fn a_write_racing_with_several_readers_names_one_of_them() {
    // Threads 0..63 (two warps) read sh[0]; then thread 63 writes it with
    // no barrier in between. The report must name a reader other than the
    // writer itself.
    let body =
        "\tld.shared.u32 %r2, [sh];\n\tsetp.eq.u32 %p1, %r1, 63;\n\t@%p1 st.shared.u32 [sh], 7;";
    let o = run(body, 1, 64);
    let Outcome::Ub {
        kind: UbKind::DataRace { other_tid, .. },
        at,
    } = &o
    else {
        panic!("{o:?}")
    };
    assert_eq!(at.tid, [63, 0, 0], "{o:?}");
    assert_ne!(*other_tid, [63, 0, 0], "{o:?}");
    assert!(other_tid[0] < 63);
}
