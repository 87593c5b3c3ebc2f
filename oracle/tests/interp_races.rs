//! Data races are reported as UB, and properly ordered programs are not.

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits, UbKind};

fn run(body: &str, grid: u32, block: u32) -> Outcome {
    let src = format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\
         \t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n\t.shared .align 4 .b8 sh[256];\n\
         \tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmov.u32 %r1, %tid.x;\n{body}\n\tret;\n}}\n"
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
