//! Unit tests of the memory passes (MemorySpaceOpt, SROA) on PTX
//! snippets: lift, run the passes, print, and compare the function body's
//! instructions with the exact expected text.

use super::*;
use crate::nvopt::{lift_module, print_module};

/// The instruction lines of the printed module's function bodies (labels,
/// declarations and braces dropped, whitespace normalized).
fn body_after(src: &str, passes: &[&str]) -> String {
    let m = crate::ptx::parse_checked("t.ptx", src).unwrap();
    let mut lm = lift_module(&m);
    for (_, f) in &mut lm.funcs {
        let f = f.as_mut().unwrap();
        for p in passes {
            by_name(p).unwrap().run(f);
        }
        crate::nvopt::verify::verify(f).unwrap();
    }
    let out = crate::ptx::printer::print(&print_module(&lm));
    crate::ptx::parse_checked("out.ptx", &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    super::tests::body_lines(&out)
}

/// A kernel with clang -O0's depot prologue (`%rd6` is the generic `%SP`)
/// and a global pointer `%rd3` from the parameter.
fn kernel(body: &str) -> String {
    format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{{\n\
         .local .align 8 .b8 __local_depot0[16];\n.shared .align 4 .b8 sh[64];\n\
         .reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<20>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<12>;\n\
         mov.u64 %rd5, __local_depot0;\ncvta.local.u64 %rd6, %rd5;\n\
         ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd2, %rd1;\ncvta.global.u64 %rd3, %rd2;\n\
         {body}\nret;\n}}\n"
    )
}

#[test]
fn memory_space_opt_converts_local_global_and_shared_chains() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nst.u32 [%rd6+4], %r1;\nld.u32 %r2, [%rd6+4];\n\
         mov.u64 %rd7, sh;\ncvta.shared.u64 %rd8, %rd7;\nmul.wide.u32 %rd9, %r1, 4;\n\
         add.s64 %rd10, %rd8, %rd9;\nst.volatile.u32 [%rd10], %r2;\nbar.sync 0;\n\
         atom.add.u32 %r3, [%rd3], %r2;\nst.u32 [%rd3+4], %r3;",
    );
    assert_eq!(
        body_after(&src, &["memory-space-opt", "dce"]),
        "mov.u64 %nvb64_0, __local_depot0;\nld.param.u64 %nvb64_1, [k_p];\n\
         cvta.to.global.u64 %nvb64_2, %nvb64_1;\nmov.u32 %nvb32_0, %tid.x;\n\
         st.local.u32 [%nvb64_0+4], %nvb32_0;\nld.local.u32 %nvb32_1, [%nvb64_0+4];\n\
         mov.u64 %nvb64_3, sh;\nmul.wide.u32 %nvb64_4, %nvb32_0, 4;\n\
         add.s64 %nvb64_5, %nvb64_3, %nvb64_4;\nst.volatile.shared.u32 [%nvb64_5], %nvb32_1;\n\
         bar.sync 0;\natom.global.add.u32 %nvb32_2, [%nvb64_2], %nvb32_1;\n\
         st.global.u32 [%nvb64_2+4], %nvb32_2;\nret;"
    );
}

#[test]
fn memory_space_opt_leaves_unprovable_and_invalid_forms() {
    // A kernel parameter pointer without cvta is generic; atom has no
    // .local form; pointer + pointer has no space.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nst.u32 [%rd1], %r1;\natom.add.u32 %r2, [%rd6], %r1;\n\
         add.s64 %rd7, %rd6, %rd3;\nst.u32 [%rd7], %r2;",
    );
    assert_eq!(
        body_after(&src, &["memory-space-opt"]),
        "mov.u64 %nvb64_0, __local_depot0;\ncvta.local.u64 %nvb64_1, %nvb64_0;\n\
         ld.param.u64 %nvb64_2, [k_p];\ncvta.to.global.u64 %nvb64_3, %nvb64_2;\n\
         cvta.global.u64 %nvb64_4, %nvb64_3;\nmov.u32 %nvb32_0, %tid.x;\n\
         st.u32 [%nvb64_2], %nvb32_0;\natom.add.u32 %nvb32_1, [%nvb64_1], %nvb32_0;\n\
         add.s64 %nvb64_5, %nvb64_1, %nvb64_4;\nst.u32 [%nvb64_5], %nvb32_1;\nret;"
    );
}

#[test]
fn memory_space_opt_follows_phis_of_one_space() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.b64 %rd7, %rd6;\n@%p1 bra L1;\n\
         add.s64 %rd7, %rd6, 8;\nL1:\nst.u32 [%rd7], %r1;",
    );
    let out = body_after(&src, &["memory-space-opt", "dce"]);
    assert!(out.contains("st.local.u32"), "{out}");
    assert!(!out.contains("cvta.local"), "{out}");
}

#[test]
fn memory_space_opt_params_follow_the_seed_parser() {
    assert_eq!(
        memory_space_opt::parse_params("first-time;warnings").unwrap(),
        vec!["first-time", "warnings"]
    );
    assert_eq!(
        memory_space_opt::parse_params("third-time").unwrap_err(),
        "invalid MemorySpaceOpt pass parameter 'third-time'"
    );
}

#[test]
fn sroa_reinterprets_mixed_types_and_widens_loads() {
    // clang -O0 stores an f32 and reloads the bits as u32 (and zero-
    // extended into a 64-bit register).
    let src = kernel(
        "mov.u32 %r1, %tid.x;\ncvt.rn.f32.u32 %f1, %r1;\nst.f32 [%rd6+4], %f1;\n\
         ld.u32 %r2, [%rd6+4];\nld.u32 %rd4, [%rd6+4];\nst.u32 [%rd3], %r2;\nst.u64 [%rd3+8], %rd4;",
    );
    assert_eq!(
        body_after(&src, &["sroa"]),
        "ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;\n\
         cvta.global.u64 %nvb64_2, %nvb64_1;\nmov.u32 %nvb32_0, %tid.x;\n\
         cvt.rn.f32.u32 %nvf32_0, %nvb32_0;\nmov.b32 %nvb32_1, %nvf32_0;\n\
         cvt.u64.u32 %nvb64_3, %nvb32_1;\nst.u32 [%nvb64_2], %nvb32_1;\n\
         st.u64 [%nvb64_2+8], %nvb64_3;\nret;"
    );
}

#[test]
fn sroa_builds_loop_phis() {
    let src = kernel(
        "mov.u32 %r1, 0;\nst.u32 [%rd6], %r1;\nL1:\nld.u32 %r2, [%rd6];\nadd.s32 %r3, %r2, 1;\n\
         st.u32 [%rd6], %r3;\nsetp.lt.u32 %p1, %r3, 10;\n@%p1 bra L1;\nld.u32 %r4, [%rd6];\n\
         st.u32 [%rd3], %r4;",
    );
    assert_eq!(
        body_after(&src, &["sroa"]),
        "ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;\n\
         cvta.global.u64 %nvb64_2, %nvb64_1;\nmov.u32 %nvb32_0, 0;\n\
         add.s32 %nvb32_0, %nvb32_0, 1;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 10;\n\
         @%nvpred_0 bra $NVB1;\nst.u32 [%nvb64_2], %nvb32_0;\nret;"
    );
}

#[test]
fn sroa_handles_byte_slots() {
    // A bool stored as a byte and reloaded into a 32-bit register.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nselp.u16 %rs1, 1, 0, %p1;\n\
         st.u8 [%rd6+3], %rs1;\nld.u8 %r2, [%rd6+3];\nst.u32 [%rd3], %r2;",
    );
    assert_eq!(
        body_after(&src, &["sroa"]),
        "ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;\n\
         cvta.global.u64 %nvb64_2, %nvb64_1;\nmov.u32 %nvb32_0, %tid.x;\n\
         setp.eq.u32 %nvpred_0, %nvb32_0, 0;\nselp.u16 %nvb16_0, 1, 0, %nvpred_0;\n\
         and.b16 %nvb16_1, %nvb16_0, 255;\ncvt.u32.u16 %nvb32_1, %nvb16_1;\n\
         st.u32 [%nvb64_2], %nvb32_1;\nret;"
    );
}

#[test]
fn sroa_keeps_escaping_dynamic_and_overlapping_variables() {
    for body in [
        // The address stored to memory.
        "mov.u32 %r1, 1;\nst.u32 [%rd6], %r1;\nst.u64 [%rd3], %rd6;",
        // A register offset.
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd7, %r1, 4;\nadd.s64 %rd8, %rd6, %rd7;\n\
         st.u32 [%rd8], %r1;\nld.u32 %r2, [%rd6];\nst.u32 [%rd3], %r2;",
        // Partially overlapping accesses.
        "mov.u32 %r1, %tid.x;\nst.u32 [%rd6], %r1;\nld.u16 %rs1, [%rd6+2];\nst.u16 [%rd3], %rs1;",
        // A volatile access.
        "mov.u32 %r1, %tid.x;\nst.volatile.u32 [%rd6], %r1;\nld.u32 %r2, [%rd6];\nst.u32 [%rd3], %r2;",
        // Out of the variable's bounds.
        "mov.u32 %r1, %tid.x;\nst.u32 [%rd6+16], %r1;\nld.u32 %r2, [%rd6+16];\nst.u32 [%rd3], %r2;",
    ] {
        let out = body_after(&kernel(body), &["sroa"]);
        assert!(out.contains("__local_depot0"), "{body}\n{out}");
    }
}

#[test]
fn dse_deletes_overwritten_and_never_read_local_stores() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nst.local.u32 [%rd5+8], %r1;\nld.local.u32 %r4, [%rd5+12];\n\
         st.local.u32 [%rd5+8], %r4;\nld.local.u32 %r2, [%rd5+8];\nst.u32 [%rd6], %r2;\n\
         st.u32 [%rd3], %r2;",
    );
    // The first store to +8 is overwritten (the load between reads other
    // bytes); the generic store to +0 is never read.
    assert_eq!(
        body_after(&src, &["dse"]),
        "mov.u64 %nvb64_0, __local_depot0;\ncvta.local.u64 %nvb64_1, %nvb64_0;\n\
         ld.param.u64 %nvb64_2, [k_p];\ncvta.to.global.u64 %nvb64_3, %nvb64_2;\n\
         cvta.global.u64 %nvb64_4, %nvb64_3;\nmov.u32 %nvb32_0, %tid.x;\n\
         ld.local.u32 %nvb32_1, [%nvb64_0+12];\nst.local.u32 [%nvb64_0+8], %nvb32_1;\n\
         ld.local.u32 %nvb32_2, [%nvb64_0+8];\nst.u32 [%nvb64_4], %nvb32_2;\nret;"
    );
}

#[test]
fn dse_keeps_stores_others_may_read() {
    for body in [
        // Global and shared memory: other threads may read.
        "mov.u32 %r1, %tid.x;\nst.u32 [%rd3], %r1;\nst.u32 [%rd3], %r1;",
        "mov.u32 %r1, %tid.x;\nst.shared.u32 [sh], %r1;\nst.shared.u32 [sh], %r1;",
        // A load of the same bytes in between.
        "mov.u32 %r1, %tid.x;\nst.local.u32 [%rd5], %r1;\nld.local.u32 %r2, [%rd5];\n\
         st.local.u32 [%rd5], %r2;\nst.u64 [%rd3], %rd6;",
        // A generic load in between may read it.
        "mov.u32 %r1, %tid.x;\nst.local.u32 [%rd5], %r1;\nld.u32 %r2, [%rd6];\n\
         st.local.u32 [%rd5], %r2;\nst.u64 [%rd3], %rd6;",
        // A volatile store.
        "mov.u32 %r1, %tid.x;\nst.volatile.local.u32 [%rd5], %r1;\n\
         st.local.u32 [%rd5], %r1;\nst.u64 [%rd3], %rd6;",
    ] {
        let src = kernel(body);
        let before = body_after(&src, &[]);
        assert_eq!(body_after(&src, &["dse"]), before, "{body}");
    }
}

#[test]
fn gvn_numbers_commutative_operations_and_forwards_stores() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nadd.s32 %r3, %r1, %r2;\n\
         add.s32 %r4, %r2, %r1;\nst.global.u32 [%rd2], %r3;\nst.shared.u32 [sh], %r1;\n\
         ld.global.u32 %r5, [%rd2];\nadd.s32 %r6, %r5, %r4;\nst.global.u32 [%rd2+4], %r6;",
    );
    // r4 is r3; the load reads the stored r3 (the shared store is in
    // another state space).
    assert_eq!(
        body_after(&src, &["gvn", "dce"]),
        "ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;\n\
         mov.u32 %nvb32_0, %tid.x;\nmov.u32 %nvb32_1, %ctaid.x;\n\
         add.s32 %nvb32_2, %nvb32_0, %nvb32_1;\nst.global.u32 [%nvb64_1], %nvb32_2;\n\
         st.shared.u32 [sh], %nvb32_0;\nadd.s32 %nvb32_3, %nvb32_2, %nvb32_2;\n\
         st.global.u32 [%nvb64_1+4], %nvb32_3;\nret;"
    );
}

#[test]
fn gvn_keeps_loads_after_possible_writes() {
    for body in [
        // A generic store may write the global word.
        "mov.u32 %r1, %tid.x;\nst.global.u32 [%rd2], %r1;\nst.u32 [%rd3], 5;\n\
         ld.global.u32 %r2, [%rd2];\nst.global.u32 [%rd2+4], %r2;",
        // A barrier: other threads' writes become visible.
        "mov.u32 %r1, %tid.x;\nst.shared.u32 [sh], %r1;\nbar.sync 0;\n\
         ld.shared.u32 %r2, [sh];\nst.global.u32 [%rd2], %r2;",
        // An atomic on the same space.
        "mov.u32 %r1, %tid.x;\nld.global.u32 %r2, [%rd2];\natom.global.add.u32 %r3, [%rd2+8], 1;\n\
         ld.global.u32 %r4, [%rd2];\nadd.s32 %r5, %r2, %r4;\nst.global.u32 [%rd2+4], %r5;",
        // A volatile load.
        "ld.volatile.global.u32 %r2, [%rd2];\nld.volatile.global.u32 %r4, [%rd2];\n\
         add.s32 %r5, %r2, %r4;\nst.global.u32 [%rd2+4], %r5;",
        // Float operands are not reordered.
        "mov.u32 %r1, %tid.x;\ncvt.rn.f32.u32 %f1, %r1;\nmov.b32 %f2, 0f7FC00001;\n\
         add.f32 %f3, %f1, %f2;\nadd.f32 %f4, %f2, %f1;\nst.global.f32 [%rd2], %f3;\n\
         st.global.f32 [%rd2+4], %f4;",
    ] {
        let src = kernel(body);
        let before = body_after(&src, &[]);
        assert_eq!(body_after(&src, &["gvn"]), before, "{body}");
    }
}
