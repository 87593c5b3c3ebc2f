//! `tex.level` / `tex.grad` lowering (tex_lod.rs) against ptxas 11.8's
//! register groups (oracle/tests/tex_lod_vendor/lod.sm_XX.O3.sass; the
//! listing lines quoted are tex_lod.rs's table, whose kernel has other
//! parameters: the groups are compared by the parameter each register
//! holds).

use std::collections::HashMap;

use super::tests::listing;
use super::*;
use crate::targets::lookup_sm;

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// A kernel whose body is `fetch` (`%rd1` the texture, `%r1` the array
/// index, `%f1..%f3` = x, y, z, `%f4` = l, `%f5..%f8` = g1..g4).
fn kernel(fetch: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 tex, .param .u64 out, .param .u32 ix, .param .f32 x, .param .f32 y, \
         .param .f32 z, .param .f32 l, .param .f32 g1, .param .f32 g2, .param .f32 g3, .param .f32 g4)\n{{\n\
         .reg .u32 %r<4>;\n.reg .u64 %rd<4>;\n.reg .f32 %f<9>;\n.reg .f32 %d<5>;\n\
         ld.param.u64 %rd1, [tex];\nld.param.u32 %r1, [ix];\nld.param.f32 %f1, [x];\nld.param.f32 %f2, [y];\n\
         ld.param.f32 %f3, [z];\nld.param.f32 %f4, [l];\nld.param.f32 %f5, [g1];\nld.param.f32 %f6, [g2];\n\
         ld.param.f32 %f7, [g3];\nld.param.f32 %f8, [g4];\n{fetch}\nld.param.u64 %rd3, [out];\n\
         st.global.v4.f32 [%rd3], {{%d1, %d2, %d3, %d4}};\nret;\n}}\n"
    )
}

fn lower(src: &str, sm: &str) -> Result<Vec<LoweredKernel>, String> {
    lower_source(
        "t.ptx",
        src,
        lookup_sm(sm).unwrap(),
        &LowerOptions::default(),
    )
    .map_err(|e| e.to_string())
}

/// The parameter a value comes from, by name (`RZ` for zero, `index` for
/// the clamped array index), following the listing's `MOV` chains.
fn origin(movs: &HashMap<String, String>, reg: &str, sm90: bool) -> String {
    let mut r = reg.to_string();
    while let Some(s) = movs.get(&r) {
        r = s.clone();
    }
    let base = if sm90 { 0x210 } else { 0x160 };
    let names = [
        "tex", "tex_hi", "out", "out_hi", "ix", "x", "y", "z", "l", "g1", "g2", "g3", "g4",
    ];
    if let Some(off) = r
        .strip_prefix("c[0x0][0x")
        .and_then(|o| o.strip_suffix(']'))
        .and_then(|o| i64::from_str_radix(o, 16).ok())
    {
        return names[((off - base) / 4) as usize].to_string();
    }
    r
}

/// The fetch line (opcode, modifiers, shape) and the parameters its Ra and
/// Rb groups hold (`ra_n` and `rb_n` registers).
fn groups(t: &str, ra_n: u32, rb_n: u32, sm90: bool) -> (String, Vec<String>, Vec<String>) {
    let mut movs = HashMap::new();
    let mut fetch = None;
    for line in t.lines() {
        let l = line.trim().trim_end_matches(" ;");
        let (op, rest) = l.split_once(' ').unwrap_or((l, ""));
        let ops: Vec<&str> = rest.split(", ").collect();
        match op {
            "MOV" | "IMAD.MOV.U32" => {
                movs.insert(ops[0].to_string(), ops[ops.len() - 1].to_string());
            }
            "SEL" => {
                movs.insert(ops[0].to_string(), "index".to_string());
            }
            _ if op.starts_with("TEX") || op.starts_with("TXD") => {
                fetch = Some((
                    op.to_string(),
                    ops.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                ))
            }
            _ => {}
        }
    }
    let (op, ops) = fetch.unwrap_or_else(|| panic!("no fetch in {t}"));
    let group = |r: &str, n: u32| -> Vec<String> {
        let b: u32 = r.strip_prefix("%r").unwrap().parse().unwrap();
        (0..n)
            .map(|k| origin(&movs, &format!("%r{}", b + k), sm90))
            .collect()
    };
    let shape = ops.iter().find(|o| o.contains('D')).unwrap().clone();
    (
        format!("{op} {shape}"),
        group(&ops[2], ra_n),
        group(&ops[3], rb_n),
    )
}

fn check(fetch: &str, sm: &str, want_op: &str, ra: &[&str], rb: &[&str]) {
    let ks = lower(&kernel(fetch), sm).unwrap_or_else(|e| panic!("{sm}: {e}"));
    let t = listing(&ks[0]);
    let got = groups(&t, ra.len() as u32, rb.len() as u32, sm == "sm_90");
    assert_eq!(
        (got.0.as_str(), got.1, got.2),
        (
            want_op,
            ra.iter().map(|s| s.to_string()).collect(),
            rb.iter().map(|s| s.to_string()).collect()
        ),
        "{sm} {fetch}\n{t}"
    );
}

const LEVEL_1D: &str = "tex.level.1d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1}], %f4;";
const LEVEL_2D: &str = "tex.level.2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1, %f2}], %f4;";
const LEVEL_3D: &str =
    "tex.level.3d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1, %f2, %f3, %f3}], %f4;";
const GRAD_1D: &str = "tex.grad.1d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1}], {%f5}, {%f6};";
const GRAD_2D: &str =
    "tex.grad.2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1, %f2}], {%f5, %f6}, {%f7, %f8};";
const GRAD_A1D: &str =
    "tex.grad.a1d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %f1}], {%f5}, {%f6};";
const GRAD_A2D: &str = "tex.grad.a2d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %f1, %f2, %f2}], {%f5, %f6}, {%f7, %f8};";

#[test]
fn tex_level_is_tex_ll_with_the_level_after_the_coordinates() {
    for sm in ARCHS {
        if sm == "sm_90" {
            // lod.sm_90: TEX.LL R34, R32, R32, R26, UR4, 0x0, 2D (R32 = x,
            // R33 = 0, R26 = l); TEX.LL R26, R24, R2, R26, UR4, 0x0, 2D;
            // TEX.LL R10, R8, R20, R26, UR4, 0x0, 3D (R20..R22 = x, y, z).
            check(LEVEL_1D, sm, "TEX.LL 2D", &["x", "RZ"], &["l"]);
            check(LEVEL_2D, sm, "TEX.LL 2D", &["x", "y"], &["l"]);
            check(LEVEL_3D, sm, "TEX.LL 3D", &["x", "y", "z"], &["l"]);
        } else {
            // lod.sm_80: TEX.SCR.LL R34, R32, R8, R31, 0x0, 0x58, 2D (R8 =
            // x, R9 = 0, R31 = l); TEX.SCR.LL R30, R28, R28, R31, ..., 2D;
            // TEX.SCR.LL R18, R16, R16, R30, ..., 3D (R30 = z, R31 = l).
            check(LEVEL_1D, sm, "TEX.SCR.LL 2D", &["x", "RZ"], &["l"]);
            check(LEVEL_2D, sm, "TEX.SCR.LL 2D", &["x", "y"], &["l"]);
            check(LEVEL_3D, sm, "TEX.SCR.LL 3D", &["x", "y"], &["z", "l"]);
        }
    }
}

#[test]
fn tex_grad_is_txd_with_interleaved_gradients_and_the_index_last() {
    // lod.sm_80: TXD R6, R4, R8, R4, 0x0, 0x58, 2D (R8 = x, R9 = 0; R4,
    // R5 = dPdx, dPdy; R6, R7 = 0); TXD R14, R12, R20, R12, 0x0, 0x58, 2D
    // (R12..R15 = dPdx.x, dPdy.x, dPdx.y, dPdy.y); TXD R10, R8, R10, R8,
    // 0x0, 0x5a, ARRAY_1D (R10 = x, R11 = index); TXD R26, R24, R20, R24,
    // 0x0, 0x5a, ARRAY_2D (R20..R22 = x, y, index). lod.sm_90: the same
    // groups with a uniform handle (TXD R30, R28, R20, R28, UR6, 0x0,
    // ARRAY_2D).
    for sm in ARCHS {
        check(
            GRAD_1D,
            sm,
            "TXD 2D",
            &["x", "RZ"],
            &["g1", "g2", "RZ", "RZ"],
        );
        check(
            GRAD_2D,
            sm,
            "TXD 2D",
            &["x", "y"],
            &["g1", "g3", "g2", "g4"],
        );
        check(GRAD_A1D, sm, "TXD ARRAY_1D", &["x", "index"], &["g1", "g2"]);
        check(
            GRAD_A2D,
            sm,
            "TXD ARRAY_2D",
            &["x", "y", "index"],
            &["g1", "g3", "g2", "g4"],
        );
    }
}

#[test]
fn txd_prints_the_slot_without_scr_and_the_handle_on_sm_90() {
    let t = listing(&lower(&kernel(GRAD_2D), "sm_80").unwrap()[0]);
    assert!(t.contains(", 0x0, 0x58, 2D, 0xf ;"), "{t}");
    assert!(!t.contains("TXD.SCR"), "{t}");
    let t = listing(&lower(&kernel(GRAD_2D), "sm_90").unwrap()[0]);
    assert!(
        t.lines().any(|l| l.contains("TXD") && l.contains("%ur")),
        "{t}"
    );
}

#[test]
fn txd_register_widths_follow_the_groups() {
    // Ra = coordinates (+ index), Rb = 2 gradients per dimension, then the
    // handle (a uniform pair on sm_90).
    use crate::ir::{regs, Op, Operand};
    for (fetch, sm, want) in [
        (GRAD_2D, "sm_80", vec![2, 4]),
        (GRAD_A1D, "sm_80", vec![2, 2]),
        (GRAD_A2D, "sm_80", vec![3, 4]),
        (GRAD_A2D, "sm_90", vec![3, 4, 2]),
    ] {
        let ks = lower(&kernel(fetch), sm).unwrap();
        let i = ks[0].function.insts().find(|i| i.op == Op::TXD).unwrap();
        let nd = i.ndst as usize;
        let w: Vec<u8> = (nd..i.operands.len())
            .filter(|&x| matches!(i.operands[x], Operand::Reg(_)))
            .map(|x| regs::operand_width(i, x))
            .collect();
        assert_eq!(w, want, "{sm} {fetch}");
    }
}

#[test]
fn refused_forms_say_why() {
    let s32 =
        "tex.grad.2d.v4.f32.s32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %r1}], {%f5, %f6}, {%f7, %f8};";
    assert!(lower(&kernel(s32), "sm_80")
        .unwrap_err()
        .contains("integer bits"));
    let g3 = "tex.grad.3d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1, %f2, %f3, %f3}], {%f5}, {%f8, %f5, %f6, %f6};";
    assert!(lower(&kernel(g3), "sm_80")
        .unwrap_err()
        .contains("two gradient vectors of 3 element(s)"));
    let l32 = "tex.level.2d.v4.f32.s32 {%d1, %d2, %d3, %d4}, [%rd1, {%r1, %r1}], %f4;";
    assert!(lower(&kernel(l32), "sm_80")
        .unwrap_err()
        .contains("Arguments mismatch"));
}

/// tex.grad.3d (DECISION in tex_lod.rs): `TEX.SCR.LL` on the 3D shape at
/// level -32.0 in tex.level.3d's groups, no TXD.
#[test]
fn grad_3d_is_a_level_fetch_at_minus_32() {
    use crate::ir::{Op, Operand};
    let g3 = "tex.grad.3d.v4.f32.f32 {%d1, %d2, %d3, %d4}, [%rd1, {%f1, %f2, %f3, %f3}], {%f5, %f6, %f7, %f7}, {%f8, %f5, %f6, %f6};";
    for sm in ["sm_70", "sm_80", "sm_90"] {
        let ks = lower(&kernel(g3), sm).unwrap();
        let f = &ks[0].function;
        assert!(f.insts().all(|i| i.op != Op::TXD), "{sm}");
        let t = f.insts().find(|i| i.op == Op::TEX).expect("a TEX");
        assert!(t.has_mod("LL"), "{sm}");
        assert!(
            t.operands
                .iter()
                .any(|o| matches!(o, Operand::TexShape(s) if s == "3D")),
            "{sm}"
        );
        assert!(
            f.insts().any(|i| i
                .operands
                .iter()
                .any(|o| matches!(o, Operand::Imm(0xc200_0000)))),
            "{sm}: the level -32.0"
        );
    }
}

/// Residency predicates (tex.rs module docs; ptxas 11.8,
/// oracle/tests/tex_resident_vendor/resident.sm_80.O3.sass): the fetch
/// writes a predicate first (`TEX.SCR.LL P2, R14, ...`), a plain `.f32`
/// 1d fetch is `TEX.LL` on the 2D shape at -32.0, and the PTX predicate is
/// the negation (`PLOP3.LUT p, PT, !q, PT, PT, 0xf0`).
#[test]
fn residency_predicates_write_a_predicate_destination() {
    use crate::ir::{Op, Operand};
    let regs = ".reg .pred %q<2>;\n";
    for (fetch, op, shape) in [
        ("tex.1d.v4.f32.f32 {%d1, %d2, %d3, %d4}|%q1, [%rd1, {%f1}];", Op::TEX, "2D"),
        ("tex.3d.v4.f32.s32 {%d1, %d2, %d3, %d4}|%q1, [%rd1, {%r1, %r1, %r1, %r1}];", Op::TLD, "3D"),
        ("tld4.g.2d.v4.f32.f32 {%d1, %d2, %d3, %d4}|%q1, [%rd1, {%f1, %f2}];", Op::TLD4, "2D"),
        ("tex.grad.2d.v4.f32.f32 {%d1, %d2, %d3, %d4}|%q1, [%rd1, {%f1, %f2}], {%f5, %f6}, {%f7, %f8};", Op::TXD, "2D"),
        ("tex.a1d.v4.f32.f32 {%d1, %d2, %d3, %d4}|%q1, [%rd1, {%r1, %f1}];", Op::TEX, "ARRAY_1D"),
    ] {
        for sm in ["sm_70", "sm_80", "sm_90"] {
            let src = kernel(&format!("{regs}{fetch}"));
            let ks = lower(&src, sm).unwrap_or_else(|e| panic!("{sm} {fetch}: {e}"));
            let f = &ks[0].function;
            let t = f.insts().find(|i| i.op == op).expect("the fetch");
            assert!(
                matches!(t.operands[0], Operand::Pred { not: false, .. }) && t.ndst == 3,
                "{sm} {fetch}: {t:?}"
            );
            assert!(
                t.operands.iter().any(|o| matches!(o, Operand::TexShape(s) if s == shape)),
                "{sm} {fetch}"
            );
            if fetch.starts_with("tex.1d") {
                assert!(t.has_mod("LL"), "{sm}: TEX.LL");
            }
            let plop = f.insts().find(|i| i.op == Op::PLOP3).expect("the negation");
            assert!(
                matches!(plop.operands[2], Operand::Pred { not: true, .. }),
                "{sm} {fetch}: {plop:?}"
            );
        }
    }
}
