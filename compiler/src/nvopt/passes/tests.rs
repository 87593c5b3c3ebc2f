//! Unit tests of the passes on PTX snippets: lift, run one pass, print,
//! and compare the function body's instructions with the exact expected
//! text.

use super::*;
use crate::nvopt::{lift_module, print_module};

/// The instruction lines of printed PTX (labels, declarations, comments and
/// braces dropped, whitespace normalized): what the snippet tests compare.
pub(super) fn body_lines(out: &str) -> String {
    out.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with('.')
                && !l.starts_with('$')
                && !l.starts_with("//")
                && l != "{"
                && l != "}"
                && !l.starts_with(')')
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The instruction lines of the printed module's first function (labels
/// and declarations dropped, whitespace normalized).
fn body_after(src: &str, passes: &[&str]) -> String {
    let m = crate::ptx::parse_checked("t.ptx", src).unwrap();
    let mut lm = lift_module(&m);
    for (_, f) in &mut lm.funcs {
        let f = f.as_mut().unwrap();
        for p in passes {
            by_name(p).unwrap().run(f);
        }
    }
    let out = crate::ptx::printer::print(&print_module(&lm));
    crate::ptx::parse_checked("out.ptx", &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    body_lines(&out)
}

fn kernel(body: &str) -> String {
    format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 k_p)\n{{\n\
         .reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd2, %rd1;\n{body}\nret;\n}}\n"
    )
}

const HEAD: &str = "ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;";

#[test]
fn round_trip_keeps_straight_line_code() {
    let src = kernel("mov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\nst.global.u32 [%rd2], %r2;");
    assert_eq!(
        body_after(&src, &[]),
        format!("{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nadd.s32 %nvb32_1, %nvb32_0, 1;\nst.global.u32 [%nvb64_1], %nvb32_1;\nret;")
    );
}

#[test]
fn guarded_definition_shares_the_old_register_when_nothing_else_reads_it() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 4;\nmov.u32 %r2, 7;\n@%p1 add.s32 %r2, %r1, 1;\nst.global.u32 [%rd2], %r2;",
    );
    assert_eq!(
        body_after(&src, &[]),
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\nmov.u32 %nvb32_1, 7;\n\
             @%nvpred_0 add.s32 %nvb32_1, %nvb32_0, 1;\nst.global.u32 [%nvb64_1], %nvb32_1;\nret;"
        )
    );
}

#[test]
fn guarded_definition_copies_the_old_value_when_it_stays_live() {
    // After copy propagation the old value (7) is read after the guarded
    // add, so the two cannot share a register: `mov d, old` comes first.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 4;\nmov.u32 %r2, 7;\nmov.b32 %r5, %r2;\n@%p1 add.s32 %r2, %r1, 1;\nst.global.u32 [%rd2], %r2;\nst.global.u32 [%rd2+4], %r5;",
    );
    assert_eq!(
        body_after(&src, &["instcombine", "dce"]),
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\nmov.u32 %nvb32_1, 7;\n\
             mov.b32 %nvb32_2, %nvb32_1;\n@%nvpred_0 add.s32 %nvb32_2, %nvb32_0, 1;\nst.global.u32 [%nvb64_1], %nvb32_2;\n\
             st.global.u32 [%nvb64_1+4], %nvb32_1;\nret;"
        )
    );
}

#[test]
fn sequentialize_breaks_a_swap_with_a_temporary() {
    // a := b, b := a.
    let seq = crate::nvopt::print::sequentialize(&[(1u32, 2u32), (2, 1)], |_| 9);
    assert_eq!(seq, vec![(9, 1), (1, 2), (2, 9)]);
    // A chain needs no temporary: c := b, b := a (write c first).
    let seq = crate::nvopt::print::sequentialize(&[(2u32, 1u32), (3, 2)], |_| 9);
    assert_eq!(seq, vec![(3, 2), (2, 1)]);
}

#[test]
fn dce_removes_unused_pure_instructions_only() {
    let src = kernel("mov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\nmul.lo.s32 %r3, %r2, 3;\nst.global.u32 [%rd2], %r1;");
    assert_eq!(
        body_after(&src, &["dce"]),
        format!("{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nst.global.u32 [%nvb64_1], %nvb32_0;\nret;")
    );
}

#[test]
fn sccp_folds_integer_chains_and_constant_branches() {
    let src = kernel(
        "mov.u32 %r1, 6;\nshl.b32 %r2, %r1, 2;\nsub.s32 %r3, %r2, 30;\nsetp.lt.s32 %p1, %r3, 0;\n@%p1 bra DONE;\nst.global.u32 [%rd2], 1;\nDONE:\nst.global.u32 [%rd2+4], %r3;",
    );
    // 6 << 2 = 24; 24 - 30 = -6 < 0: the branch is taken, the store skipped.
    assert_eq!(
        body_after(&src, &["sccp", "simplifycfg", "dce"]),
        format!("{HEAD}\nmov.b32 %nvb32_0, -6;\nst.global.u32 [%nvb64_1+4], %nvb32_0;\nret;")
    );
}

#[test]
fn instcombine_applies_identities_and_keeps_float() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 0;\nxor.b32 %r3, %r2, %r2;\nmov.b32 %r4, %r1;\nmov.b32 %r5, 0f3F800000;\nmul.f32 %r6, %r4, %r5;\nst.global.u32 [%rd2], %r3;\nst.global.u32 [%rd2+4], %r6;",
    );
    assert_eq!(
        body_after(&src, &["instcombine", "dce"]),
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nmov.b32 %nvb32_1, 0;\nmov.b32 %nvb32_2, 0f3F800000;\n\
             mul.f32 %nvb32_3, %nvb32_0, %nvb32_2;\nst.global.u32 [%nvb64_1], %nvb32_1;\nst.global.u32 [%nvb64_1+4], %nvb32_3;\nret;"
        )
    );
}

#[test]
fn instcombine_folds_the_bool_round_trip_only_when_exact() {
    // setp.ne (selp 1, 0, p), 0 is p; setp.eq (selp 0, 5, p), 0 is p.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 4;\nselp.u32 %r2, 1, 0, %p1;\nsetp.ne.s32 %p2, %r2, 0;\n\
         selp.u32 %r3, 0, 5, %p1;\nsetp.eq.s32 %p3, %r3, 0;\nselp.u32 %r4, %r1, %r1, %p2;\n@%p2 st.global.u32 [%rd2], %r1;\n@%p3 st.global.u32 [%rd2+4], %r1;",
    );
    let out = body_after(&src, &["instcombine", "dce"]);
    assert_eq!(
        out,
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\n\
             @%nvpred_0 st.global.u32 [%nvb64_1], %nvb32_0;\n@%nvpred_0 st.global.u32 [%nvb64_1+4], %nvb32_0;\nret;"
        )
    );
    // Not folded: the compared constant is not 0, `eq` against a selp
    // whose true arm is nonzero (that is !p), a compared value that is
    // not the selp's (a conversion between), a combining predicate.
    for body in [
        "selp.u32 %r2, 1, 0, %p1;\nsetp.ne.s32 %p2, %r2, 1;",
        "selp.u32 %r2, 1, 0, %p1;\nsetp.eq.s32 %p2, %r2, 0;",
        "selp.u32 %r2, 65536, 0, %p1;\ncvt.u16.u32 %rs1, %r2;\nsetp.ne.s16 %p2, %rs1, 0;", // 0x10000 -> 0
        "selp.u32 %r2, 1, 0, %p1;\nsetp.ne.and.s32 %p2, %r2, 0, %p3;",
    ] {
        let src = kernel(&format!(
            ".reg .b16 %rs<2>;\nmov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 4;\nsetp.lt.u32 %p3, %r1, 9;\n{body}\n@%p2 st.global.u32 [%rd2], %r1;"
        ));
        let out = body_after(&src, &["instcombine", "dce"]);
        assert!(out.contains("selp"), "{body}\n{out}");
    }
}

#[test]
fn early_cse_merges_pure_ops_and_loads_but_not_across_stores() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 5;\nadd.s32 %r3, %r1, 5;\nld.global.u32 %r4, [%rd2];\nld.global.u32 %r5, [%rd2];\nst.global.u32 [%rd2+8], %r2;\nld.global.u32 %r6, [%rd2];\nadd.s32 %r7, %r3, %r4;\nadd.s32 %r8, %r5, %r6;\nst.global.u32 [%rd2], %r7;\nst.global.u32 [%rd2+4], %r8;",
    );
    assert_eq!(
        body_after(&src, &["early-cse"]),
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nadd.s32 %nvb32_1, %nvb32_0, 5;\nld.global.u32 %nvb32_2, [%nvb64_1];\n\
             st.global.u32 [%nvb64_1+8], %nvb32_1;\nld.global.u32 %nvb32_3, [%nvb64_1];\nadd.s32 %nvb32_4, %nvb32_1, %nvb32_2;\n\
             add.s32 %nvb32_5, %nvb32_2, %nvb32_3;\nst.global.u32 [%nvb64_1], %nvb32_4;\nst.global.u32 [%nvb64_1+4], %nvb32_5;\nret;"
        )
    );
}

#[test]
fn licm_hoists_invariant_pure_ops_but_not_division_or_loads() {
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\nbra.uni HEAD;\nHEAD:\nmul.lo.s32 %r3, %r1, 3;\ndiv.u32 %r4, 100, %r1;\nld.global.u32 %r5, [%rd2];\nadd.s32 %r2, %r2, %r3;\nadd.s32 %r2, %r2, %r4;\nadd.s32 %r2, %r2, %r5;\nsetp.lt.u32 %p1, %r2, 1000;\n@%p1 bra HEAD;\nst.global.u32 [%rd2], %r2;",
    );
    let out = body_after(&src, &["licm"]);
    let lines: Vec<&str> = out.lines().collect();
    let at = |s: &str| lines.iter().position(|l| l.starts_with(s)).unwrap();
    // The multiply moved before the loop's first instruction (the division).
    assert!(at("mul.lo.s32") < at("div.u32"), "{out}");
    assert!(at("div.u32") < at("ld.global.u32"), "{out}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("mul.lo")).count(), 1);
}

#[test]
fn simplifycfg_merges_straight_line_blocks_and_folds_same_target_branches() {
    // A diamond whose arms are empty: both edges end at J, and then J's
    // phi has one argument per (distinct) predecessor.
    let src = kernel(
        "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 4;\n@%p1 bra A;\nbra.uni B;\nA:\nbra.uni J;\nB:\nbra.uni J;\nJ:\nst.global.u32 [%rd2], %r1;",
    );
    assert_eq!(
        body_after(&src, &["simplifycfg"]),
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, %tid.x;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\nst.global.u32 [%nvb64_1], %nvb32_0;\nret;"
        )
    );
}

#[test]
fn simplifycfg_removes_a_branch_on_a_constant_predicate() {
    let src = kernel(
        "setp.ne.u32 %p1, 1, 0;\n@%p1 bra SKIP;\nst.global.u32 [%rd2], 1;\nSKIP:\nst.global.u32 [%rd2+4], 2;",
    );
    assert_eq!(
        body_after(&src, &["simplifycfg", "dce"]),
        format!("{HEAD}\nst.global.u32 [%nvb64_1+4], 2;\nret;")
    );
}

#[test]
fn adce_removes_a_dead_loop_counter_that_dce_keeps() {
    // %r2 counts in the loop but only the loop's phi reads it; the exit
    // test uses %r3, so %r2's add and phi form a dead cycle.
    let src = kernel(
        "mov.u32 %r2, 0;\nmov.u32 %r3, 0;\nL:\nadd.s32 %r2, %r2, 5;\nadd.s32 %r3, %r3, 1;\nsetp.lt.u32 %p1, %r3, 4;\n@%p1 bra L;\nst.global.u32 [%rd2], %r3;",
    );
    let dce = body_after(&src, &["dce"]);
    assert!(dce.contains(", 5;"), "{dce}");
    let adce = body_after(&src, &["adce"]);
    assert!(!adce.contains(", 5;"), "{adce}");
    assert!(adce.contains(", 1;"), "{adce}");
}

#[test]
fn lift_refuses_what_the_ssa_form_does_not_model() {
    let cases = [
        (
            ".reg .v2 .b32 %v;\nmov.b32 %v.x, 1;",
            "vector registers are not supported",
        ),
        (
            "mov.u32 %r1, 0;\nbrx.idx %r1, T;\nT: .branchtargets A;\nA:",
            "`.branchtargets` is not supported",
        ),
    ];
    for (body, want) in cases {
        let src = kernel(body);
        let m = crate::ptx::parse_checked("t.ptx", &src).unwrap_or_else(|e| panic!("{e}"));
        let lm = lift_module(&m);
        let e = lm.funcs[0].1.as_ref().unwrap_err();
        assert_eq!(e.0, want, "{body}");
    }
}

#[test]
fn verify_rejects_a_use_before_its_definition() {
    let src = kernel("mov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\nst.global.u32 [%rd2], %r2;");
    let m = crate::ptx::parse_checked("t.ptx", &src).unwrap();
    let mut lm = lift_module(&m);
    let f = lm.funcs[0].1.as_mut().unwrap();
    crate::nvopt::verify::verify(f).unwrap();
    // Swap the mov and the add: the add now reads %r1 before it is written.
    f.blocks[0].insts.swap(2, 3);
    let e = crate::nvopt::verify::verify(f).unwrap_err();
    assert!(e.contains("not dominated by its definition"), "{e}");
}

#[test]
fn loop_counter_phi_is_coalesced_into_one_register() {
    let src = kernel(
        "mov.u32 %r3, 0;\nL:\nadd.s32 %r3, %r3, 1;\nsetp.lt.u32 %p1, %r3, 4;\n@%p1 bra L;\nst.global.u32 [%rd2], %r3;",
    );
    assert_eq!(
        body_after(&src, &[]),
        format!(
            "{HEAD}\nmov.u32 %nvb32_0, 0;\nadd.s32 %nvb32_0, %nvb32_0, 1;\nsetp.lt.u32 %nvpred_0, %nvb32_0, 4;\n\
             @%nvpred_0 bra $NVB1;\nst.global.u32 [%nvb64_1], %nvb32_0;\nret;"
        )
    );
}
