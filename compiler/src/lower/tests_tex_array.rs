//! Array texture lowering (tex_array.rs) against ptxas 11.8's sequences
//! (oracle/tests/tex_array_vendor/tex_array.sm_XX.O3.sass,
//! divergent_handle.sm_XX.O3.sass, level_grad.sm_XX.O3.sass).

use super::tests::{listing, norm};
use super::*;
use crate::ir::{regs, Inst, Op, Operand};
use crate::targets::lookup_sm;

const HEAD: &str = ".version 7.8\n.target sm_80\n.address_size 64\n";

/// A kernel with parameters `tex, out, l, x, y` (x and y of `cty`) whose
/// body is `fetch` (reading `%rd1` = the handle, `%r1` = the index, `%c1`
/// and `%c2` = the coordinates) and stores `%d1..%d4`.
fn kernel(cty: &str, dty: &str, pre: &str, fetch: &str) -> String {
    format!(
        "{HEAD}.visible .entry k(.param .u64 tex, .param .u64 out, .param .u32 l, .param .{cty} x, .param .{cty} y)\n{{\n\
         .local .align 8 .b8 depot[8];\n.reg .u32 %r<8>;\n.reg .u64 %rd<8>;\n.reg .{cty} %c<4>;\n.reg .{dty} %d<6>;\n\
         ld.param.u64 %rd1, [tex];\nld.param.u32 %r1, [l];\nld.param.{cty} %c1, [x];\nld.param.{cty} %c2, [y];\n\
         {pre}\n{fetch}\nld.param.u64 %rd3, [out];\nst.global.v4.{dty} [%rd3], {{%d1, %d2, %d3, %d4}};\nret;\n}}\n"
    )
}

fn lower(src: &str, sm: &str) -> Result<Vec<LoweredKernel>, String> {
    lower_source(
        "t.ptx",
        src,
        lookup_sm(sm).unwrap(),
        &LowerOptions::default(),
    )
}

/// The fetch instruction and the widths of its source registers.
fn fetch_widths(k: &LoweredKernel) -> (String, Vec<u8>) {
    let f = &k.function;
    let i: &Inst = f
        .insts()
        .find(|i| matches!(i.op, Op::TEX | Op::TLD | Op::TLD4))
        .expect("a fetch");
    let nd = i.ndst as usize;
    let w = (nd..i.operands.len())
        .filter(|&x| matches!(i.operands[x], Operand::Reg(_)))
        .map(|x| regs::operand_width(i, x))
        .collect();
    (i.op.info().name.to_string(), w)
}

fn has_seq(n: &[String], want: &[&str]) -> bool {
    n.windows(want.len())
        .any(|w| w.iter().zip(want).all(|(a, b)| a == b))
}

const A2D_F: &str = "tex.a2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %c1, %c2, %c2}];";

#[test]
fn a2d_float_from_a_parameter_clamps_the_index_and_splits_two_and_two() {
    // tex_array.sm_80.O3 (a2d_f): ISETP.GT.U32.AND P0, PT, R0, 0xffff, PT;
    // SEL R4, R4, 0xffff, !P0; IMAD.MOV.U32 R7, RZ, RZ, -0x3e000000 (-32.0);
    // TEX.SCR.LL R6, R4, R4, R6, 0x0, 0x58, ARRAY_2D (Ra = index, x;
    // Rb = y, level).
    for sm in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89"] {
        let ks = lower(&kernel("f32", "f32", "", A2D_F), sm).unwrap();
        let t = listing(&ks[0]);
        let n = norm(&t);
        assert!(
            has_seq(
                &n,
                &[
                    "ISETP.GT.U32.AND P, PT, R, 0xffff, PT",
                    "SEL R, R, 0xffff, !P"
                ]
            ),
            "{sm}: {t}"
        );
        assert!(n.contains(&"MOV R, 0xc2000000".to_string()), "{sm}: {t}");
        assert!(
            n.contains(&"TEX.SCR.LL R, R, R, R, 0x0, 0x58, ARRAY_2D, 0xf".to_string()),
            "{sm}: {t}"
        );
        assert_eq!(fetch_widths(&ks[0]), ("TEX".into(), vec![2, 2]), "{sm}");
    }
}

#[test]
fn sm_90_puts_index_and_coordinates_in_ra_and_the_level_in_rb() {
    // tex_array.sm_90.O3: TEX.LL R6, R4, R4, R7, UR4, 0x0, ARRAY_2D (R4..R6
    // index, x, y; R7 -32.0); TLD.LZ R6, R4, R4, UR4, 0x0, ARRAY_1D.
    let ks = lower(&kernel("f32", "f32", "", A2D_F), "sm_90").unwrap();
    let t = listing(&ks[0]);
    assert!(
        norm(&t).contains(&"TEX.LL R, R, R, R, UR, 0x0, ARRAY_2D, 0xf".to_string()),
        "{t}"
    );
    // Three registers: a group at a multiple of 4 (ir::regs::alignment).
    assert_eq!(fetch_widths(&ks[0]), ("TEX".into(), vec![3, 1, 2]));
    assert_eq!(regs::alignment(3), 4);
    let a1d = "tex.a1d.v4.s32.s32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %c1}];";
    let ks = lower(&kernel("s32", "s32", "", a1d), "sm_90").unwrap();
    let t = listing(&ks[0]);
    assert!(
        norm(&t).contains(&"TLD.LZ R, R, R, UR, 0x0, ARRAY_1D, 0xf".to_string()),
        "{t}"
    );
    assert_eq!(fetch_widths(&ks[0]), ("TLD".into(), vec![2, 2]));
}

#[test]
fn integer_a1d_and_tld4_a2d_slot_forms() {
    // tex_array.sm_80.O3: TLD.SCR.LZ R6, R4, R4, R5, 0x0, 0x58, ARRAY_1D
    // (two values: Ra only; ptxas prints an unread Rb) and TLD4.SCR.G R6,
    // R4, R4, R6, 0x0, 0x58, ARRAY_2D (Rb = y).
    let a1d = "tex.a1d.v4.s32.s32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %c1}];";
    let ks = lower(&kernel("s32", "s32", "", a1d), "sm_80").unwrap();
    let t = listing(&ks[0]);
    assert!(
        norm(&t).contains(&"TLD.SCR.LZ R, R, R, 0x0, 0x58, ARRAY_1D, 0xf".to_string()),
        "{t}"
    );
    assert_eq!(fetch_widths(&ks[0]), ("TLD".into(), vec![2]));
    let g = "tld4.g.a2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %c1, %c2, %c2}];";
    let ks = lower(&kernel("f32", "f32", "", g), "sm_80").unwrap();
    let t = listing(&ks[0]);
    assert!(
        norm(&t).contains(&"TLD4.SCR.G R, R, R, R, 0x0, 0x58, ARRAY_2D, 0xf".to_string()),
        "{t}"
    );
    assert_eq!(fetch_widths(&ks[0]), ("TLD4".into(), vec![2, 1]));
}

#[test]
fn tex_level_passes_its_level() {
    // level_grad.sm_80.O3: TEX.SCR.LL R6, R4, R4, R10 with R11 = the level
    // operand (%f6, loaded from c[0x0][0x178]).
    let lv = "tex.level.a2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %c1, %c2, %c2}], %c2;";
    let ks = lower(&kernel("f32", "f32", "", lv), "sm_80").unwrap();
    let t = listing(&ks[0]);
    assert!(!t.contains("0xc2000000"), "{t}");
    assert!(t.contains("TEX.SCR.LL"), "{t}");
    // .level with integer coordinates is refused (ptxas rejects it;
    // tex.grad on arrays: tests_tex_lod.rs).
    let ls = "tex.level.a2d.v4.s32.s32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %c1, %c2, %c2}], %f1;";
    let src = kernel("s32", "s32", ".reg .f32 %f1;\nmov.f32 %f1, 0f00000000;", ls);
    let e = lower(&src, "sm_80").unwrap_err();
    assert!(e.to_string().contains("Arguments mismatch"), "{e}");
}

#[test]
fn a_handle_in_a_register_loops_on_sm_75_and_is_named_on_sm_70() {
    let pre = "st.local.u64 [depot], %rd1;\nld.local.u64 %rd2, [depot];";
    let f = "tex.a2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd2, {%r1, %c1, %c2, %c2}];";
    let src = kernel("f32", "f32", pre, f);
    let ks = lower(&src, "sm_80").unwrap();
    let t = listing(&ks[0]);
    let n = norm(&t);
    assert!(
        has_seq(
            &n,
            &[
                // `norm` reads R2UR's "R2" as a register
                "RUR UR, R",
                "UMOV UR, URZ",
                "ISETP.NE.U32.AND P, PT, R, UR, PT",
                "@!P TEX.LL R, R, R, R, UR, 0x0, ARRAY_2D, 0xf",
            ]
        ),
        "{t}"
    );
    assert_eq!(fetch_widths(&ks[0]), ("TEX".into(), vec![3, 1, 2]));
    let ks = lower(&src, "sm_70").unwrap();
    let t = listing(&ks[0]);
    assert!(
        norm(&t).contains(&"TEX.LL R, R, R, R, R, 0x0, ARRAY_2D, 0xf".to_string()),
        "{t}"
    );
    // The handle: its low word.
    assert_eq!(fetch_widths(&ks[0]), ("TEX".into(), vec![3, 1, 1]));
}
