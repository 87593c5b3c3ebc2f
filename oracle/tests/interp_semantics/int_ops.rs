//! Integer arithmetic, carry chains, shifts and bit manipulation.

use super::harness::*;

/// Body: load a, b as `ty` from slots a, b; `op d, a, b`; store d as `sty`.
fn bin(ty: &str, op: &str, sty: &str) -> String {
    format!("\tld.global.{ty} %a, [%pa];\n\tld.global.{ty} %b, [%pb];\n\t{op} %d, %a, %b;\n\tst.global.{sty} [%pd], %d;")
}

const R32: &str = "\t.reg .b32 %a, %b, %c, %d, %e;";
const R64: &str = "\t.reg .b64 %a, %b, %c, %d, %e;";
const R16: &str = "\t.reg .b16 %a, %b, %c, %d, %e;";

#[test]
fn add_sub_wrap_and_saturate() {
    let _c = rows_of("add_sub_wrap_and_saturate");
    let mut t = Tables::new();
    let s32 = |x: i32| i(x);
    // add.s32: two's complement wrap.
    let mut rows = Vec::new();
    for (a, b) in [
        (1, 2),
        (0x7fff_ffff, 1),
        (-1, -1),
        (i32::MIN, -1),
        (-5, 3),
        (123456789, 987654321),
    ] {
        rows.push(row(&[s32(a), s32(b)], &[s32(a.wrapping_add(b))], "add.s32"));
    }
    t.t("add.s32", R32, &bin("u32", "add.s32", "u32"), rows);
    // sub.u16 wraps modulo 2^16.
    let mut rows = Vec::new();
    for (a, b) in [
        (0u16, 1u16),
        (5, 3),
        (0x8000, 0x8001),
        (0xffff, 0xffff),
        (1, 0xffff),
    ] {
        rows.push(row(
            &[a.into(), b.into()],
            &[a.wrapping_sub(b).into()],
            "sub.u16",
        ));
    }
    t.t("sub.u16", R16, &bin("u16", "sub.u16", "u16"), rows);
    // add.s64 / sub.s64 / add.u64.
    let mut rows = Vec::new();
    for (a, b) in [
        (1i64, -2i64),
        (i64::MAX, 1),
        (-1, 1),
        (0x1_0000_0000, -1),
        (i64::MIN, i64::MIN),
    ] {
        rows.push(row(&[l(a), l(b)], &[l(a.wrapping_add(b))], "add.s64"));
    }
    t.t("add.s64", R64, &bin("u64", "add.s64", "u64"), rows);
    let mut rows = Vec::new();
    for (a, b) in [(0i64, 1i64), (i64::MIN, 1), (5, 7), (0x1_0000_0000, 1)] {
        rows.push(row(&[l(a), l(b)], &[l(a.wrapping_sub(b))], "sub.s64"));
    }
    t.t("sub.s64", R64, &bin("u64", "sub.s64", "u64"), rows);
    // add.sat.s32 / sub.sat.s32 clamp to [INT_MIN, INT_MAX] (ISA 9.7.1.1).
    let mut rows = Vec::new();
    for (a, b) in [
        (0x7fff_ffff, 1),
        (i32::MIN, -1),
        (i32::MAX, i32::MAX),
        (-3, 5),
        (i32::MIN, i32::MIN),
    ] {
        rows.push(row(
            &[s32(a), s32(b)],
            &[s32(a.saturating_add(b))],
            "add.sat.s32",
        ));
    }
    t.t("add.sat.s32", R32, &bin("u32", "add.sat.s32", "u32"), rows);
    let mut rows = Vec::new();
    for (a, b) in [(i32::MIN, 1), (i32::MAX, -1), (0, i32::MIN), (-3, 5)] {
        rows.push(row(
            &[s32(a), s32(b)],
            &[s32(a.saturating_sub(b))],
            "sub.sat.s32",
        ));
    }
    t.t("sub.sat.s32", R32, &bin("u32", "sub.sat.s32", "u32"), rows);
    // Immediate operands: add.s32 d, a, -7 and sub.u32 d, 3, a.
    let mut rows = Vec::new();
    for a in [0i32, 7, -1, i32::MIN] {
        rows.push(row(
            &[s32(a)],
            &[s32(a.wrapping_add(-7)), s32(3i32.wrapping_sub(a))],
            "imm",
        ));
    }
    t.t(
        "add/sub immediates",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tadd.s32 %d, %a, -7;\n\tsub.u32 %e, 3, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    t.check();
}

#[test]
fn multiply_forms() {
    let _c = rows_of("multiply_forms");
    let mut t = Tables::new();
    // mul.lo.s32 / mul.lo.u32: low 32 bits of the product.
    let mut rows = Vec::new();
    for (a, b) in [
        (3i32, -7i32),
        (0x10000, 0x10000),
        (-1, -1),
        (i32::MIN, 2),
        (46341, 46341),
    ] {
        rows.push(row(&[i(a), i(b)], &[i(a.wrapping_mul(b))], "mul.lo.s32"));
    }
    t.t("mul.lo.s32", R32, &bin("u32", "mul.lo.s32", "u32"), rows);
    // mul.hi.u32: upper half of the 64-bit unsigned product.
    let mut rows = Vec::new();
    for (a, b) in [
        (0xffff_ffffu32, 0xffff_ffffu32),
        (0x8000_0000, 2),
        (0x1234_5678, 0x9abc_def0),
        (7, 9),
    ] {
        rows.push(row(
            &[a.into(), b.into()],
            &[((u64::from(a) * u64::from(b)) >> 32)],
            "mul.hi.u32",
        ));
    }
    t.t("mul.hi.u32", R32, &bin("u32", "mul.hi.u32", "u32"), rows);
    // mul.hi.s32: upper half of the signed 64-bit product.
    let mut rows = Vec::new();
    for (a, b) in [
        (-1i32, -1i32),
        (i32::MIN, i32::MIN),
        (-2, 3),
        (0x4000_0000, 4),
        (i32::MIN, 1),
    ] {
        rows.push(row(
            &[i(a), i(b)],
            &[i(((i64::from(a) * i64::from(b)) >> 32) as i32)],
            "mul.hi.s32",
        ));
    }
    t.t("mul.hi.s32", R32, &bin("u32", "mul.hi.s32", "u32"), rows);
    // mul.wide.s32: full signed 64-bit product; the inputs were loaded with
    // ld.u32 (zero-extended in any wider view), so the instruction itself must
    // sign-extend them.
    let mut rows = Vec::new();
    for (a, b) in [
        (-3i32, 7i32),
        (i32::MIN, i32::MIN),
        (-1, -1),
        (i32::MAX, -2),
        (100000, 100000),
    ] {
        rows.push(row(
            &[i(a), i(b)],
            &[l(i64::from(a) * i64::from(b))],
            "mul.wide.s32",
        ));
    }
    t.t(
        "mul.wide.s32",
        "\t.reg .b32 %a, %b;\n\t.reg .b64 %d;",
        &bin("u32", "mul.wide.s32", "u64"),
        rows,
    );
    let mut rows = Vec::new();
    for (a, b) in [(0xffff_ffffu32, 0xffff_ffffu32), (0x8000_0000, 2), (3, 5)] {
        rows.push(row(
            &[a.into(), b.into()],
            &[u64::from(a) * u64::from(b)],
            "mul.wide.u32",
        ));
    }
    t.t(
        "mul.wide.u32",
        "\t.reg .b32 %a, %b;\n\t.reg .b64 %d;",
        &bin("u32", "mul.wide.u32", "u64"),
        rows,
    );
    // mul.wide.s32 with a negative immediate: 8 * -4 = -32 as s64.
    let mut rows = Vec::new();
    for a in [8i32, -8, 0x4000_0000, i32::MIN] {
        rows.push(row(&[i(a)], &[l(i64::from(a) * -4)], "mul.wide.s32 imm -4"));
    }
    t.t(
        "mul.wide.s32 imm",
        "\t.reg .b32 %a;\n\t.reg .b64 %d;",
        "\tld.global.u32 %a, [%pa];\n\tmul.wide.s32 %d, %a, -4;\n\tst.global.u64 [%pd], %d;",
        rows,
    );
    // mul.wide.s16 -> 32-bit product; mul.wide.u16.
    let mut rows = Vec::new();
    for (a, b) in [(-300i16, 200i16), (i16::MIN, i16::MIN), (-1, 1)] {
        rows.push(row(
            &[u64::from(a as u16), u64::from(b as u16)],
            &[i(i32::from(a) * i32::from(b))],
            "mul.wide.s16",
        ));
    }
    t.t(
        "mul.wide.s16",
        "\t.reg .b16 %a, %b;\n\t.reg .b32 %d;",
        &bin("u16", "mul.wide.s16", "u32"),
        rows,
    );
    let mut rows = Vec::new();
    for (a, b) in [(0xffffu16, 0xffffu16), (300, 200)] {
        rows.push(row(
            &[a.into(), b.into()],
            &[u64::from(u32::from(a) * u32::from(b))],
            "mul.wide.u16",
        ));
    }
    t.t(
        "mul.wide.u16",
        "\t.reg .b16 %a, %b;\n\t.reg .b32 %d;",
        &bin("u16", "mul.wide.u16", "u32"),
        rows,
    );
    // 64-bit mul.lo / mul.hi.
    let mut rows = Vec::new();
    for (a, b) in [
        (u64::MAX, u64::MAX),
        (0x1_0000_0001, 0xffff_ffff),
        (1 << 63, 2),
        (12345678901, 98765),
    ] {
        let p = u128::from(a) * u128::from(b);
        rows.push(row(&[a, b], &[p as u64, (p >> 64) as u64], "mul.lo/hi.u64"));
    }
    t.t(
        "mul.lo/hi.u64",
        R64,
        "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tmul.lo.u64 %d, %a, %b;\n\tmul.hi.u64 %e, %a, %b;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    let mut rows = Vec::new();
    for (a, b) in [
        (-1i64, -1i64),
        (i64::MIN, 2),
        (i64::MIN, i64::MIN),
        (-5, 1 << 62),
    ] {
        let p = i128::from(a) * i128::from(b);
        rows.push(row(&[l(a), l(b)], &[(p >> 64) as u64], "mul.hi.s64"));
    }
    t.t("mul.hi.s64", R64, &bin("u64", "mul.hi.s64", "u64"), rows);
    // mad.lo.s32 d = a*b + c; mad.hi.u32; mad.wide.s32 (c is 64-bit).
    let mut rows = Vec::new();
    for (a, b, c) in [(3i32, -4i32, 100i32), (i32::MAX, 2, 5), (-1, -1, -1)] {
        rows.push(row(
            &[i(a), i(b), i(c)],
            &[i(a.wrapping_mul(b).wrapping_add(c))],
            "mad.lo.s32",
        ));
    }
    t.t(
        "mad.lo.s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tmad.lo.s32 %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    let mut rows = Vec::new();
    for (a, b, c) in [
        (0xffff_ffffu32, 0xffff_ffffu32, 7u32),
        (0x8000_0000, 4, 0xffff_ffff),
    ] {
        let hi = ((u64::from(a) * u64::from(b)) >> 32) as u32;
        rows.push(row(
            &[a.into(), b.into(), c.into()],
            &[hi.wrapping_add(c).into()],
            "mad.hi.u32",
        ));
    }
    t.t(
        "mad.hi.u32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tmad.hi.u32 %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    let mut rows = Vec::new();
    for (a, b, c) in [
        (-3i32, 5i32, 10i64),
        (i32::MIN, i32::MIN, -1i64),
        (-1, 1, i64::MIN),
    ] {
        rows.push(row(
            &[i(a), i(b), l(c)],
            &[l((i64::from(a) * i64::from(b)).wrapping_add(c))],
            "mad.wide.s32",
        ));
    }
    t.t(
        "mad.wide.s32",
        "\t.reg .b32 %a, %b;\n\t.reg .b64 %c, %d;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u64 %c, [%pc];\n\tmad.wide.s32 %d, %a, %b, %c;\n\tst.global.u64 [%pd], %d;",
        rows,
    );
    // mul24.lo.u32: product of the low 24 bits, low 32 bits of it.
    let mut rows = Vec::new();
    for (a, b) in [(0xff00_0003u32, 0x0100_0005u32), (0x00ff_ffff, 0x00ff_ffff)] {
        let p = u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff);
        rows.push(row(
            &[a.into(), b.into()],
            &[p & 0xffff_ffff],
            "mul24.lo.u32",
        ));
    }
    t.t(
        "mul24.lo.u32",
        R32,
        &bin("u32", "mul24.lo.u32", "u32"),
        rows,
    );
    t.check();
}

#[test]
fn div_rem_min_max_abs_neg() {
    let _c = rows_of("div_rem_min_max_abs_neg");
    let mut t = Tables::new();
    // div.s32 truncates toward zero; rem.s32 has the sign of the dividend.
    let mut rows = Vec::new();
    for (a, b) in [
        (7i32, 2i32),
        (-7, 2),
        (7, -2),
        (-7, -2),
        (i32::MIN, 3),
        (5, 7),
    ] {
        rows.push(row(&[i(a), i(b)], &[i(a / b), i(a % b)], "div/rem.s32"));
    }
    t.t(
        "div/rem.s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tdiv.s32 %d, %a, %b;\n\trem.s32 %e, %a, %b;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    let mut rows = Vec::new();
    for (a, b) in [(0xffff_fff9u32, 2u32), (100, 7), (0x8000_0000, 0xffff_ffff)] {
        rows.push(row(
            &[a.into(), b.into()],
            &[(a / b).into(), (a % b).into()],
            "div/rem.u32",
        ));
    }
    t.t(
        "div/rem.u32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tdiv.u32 %d, %a, %b;\n\trem.u32 %e, %a, %b;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    let mut rows = Vec::new();
    for (a, b) in [(-7i64, 2i64), (i64::MIN, 1 << 32), (1 << 40, -3)] {
        rows.push(row(&[l(a), l(b)], &[l(a / b), l(a % b)], "div/rem.s64"));
    }
    t.t(
        "div/rem.s64",
        R64,
        "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tdiv.s64 %d, %a, %b;\n\trem.s64 %e, %a, %b;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    // min/max signed vs unsigned on the same bits.
    let mut rows = Vec::new();
    for (a, b) in [(-1i32, 1i32), (i32::MIN, i32::MAX), (5, 5), (-3, -4)] {
        let (ua, ub) = (a as u32, b as u32);
        rows.push(row(
            &[i(a), i(b)],
            &[
                i(a.min(b)) | (u64::from(ua.min(ub)) << 32),
                i(a.max(b)) | (u64::from(ua.max(ub)) << 32),
            ],
            "min/max",
        ));
    }
    t.t(
        "min/max s32 vs u32",
        "\t.reg .b32 %a, %b, %d, %e, %f, %g;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tmin.s32 %d, %a, %b;\n\tmin.u32 %e, %a, %b;\n\tmax.s32 %f, %a, %b;\n\tmax.u32 %g, %a, %b;\n\
         \tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pd+4], %e;\n\tst.global.u32 [%pe], %f;\n\tst.global.u32 [%pe+4], %g;",
        rows,
    );
    // min.s16 on values loaded with ld.s16 into .b16 registers.
    let mut rows = Vec::new();
    for (a, b) in [(-2i16, 1i16), (i16::MIN, i16::MAX)] {
        rows.push(row(
            &[u64::from(a as u16), u64::from(b as u16)],
            &[u64::from(a.min(b) as u16), u64::from(a.max(b) as u16)],
            "min/max.s16",
        ));
    }
    t.t(
        "min/max.s16",
        R16,
        "\tld.global.s16 %a, [%pa];\n\tld.global.s16 %b, [%pb];\n\tmin.s16 %d, %a, %b;\n\tmax.s16 %e, %a, %b;\n\tst.global.u16 [%pd], %d;\n\tst.global.u16 [%pe], %e;",
        rows,
    );
    // abs.s32 / neg.s32: INT_MIN maps to itself.
    let mut rows = Vec::new();
    for a in [-5i32, 5, 0, i32::MIN, -1] {
        rows.push(row(
            &[i(a)],
            &[i(a.wrapping_abs()), i(a.wrapping_neg())],
            "abs/neg.s32",
        ));
    }
    t.t(
        "abs/neg.s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tabs.s32 %d, %a;\n\tneg.s32 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // abs.s64.
    let mut rows = Vec::new();
    for a in [-5i64, i64::MIN, 1 << 40] {
        rows.push(row(&[l(a)], &[l(a.wrapping_abs())], "abs.s64"));
    }
    t.t(
        "abs.s64",
        R64,
        "\tld.global.u64 %a, [%pa];\n\tabs.s64 %d, %a;\n\tst.global.u64 [%pd], %d;",
        rows,
    );
    t.check();
}

#[test]
fn carry_chains() {
    let _c = rows_of("carry_chains");
    let mut t = Tables::new();
    let vals: [(u64, u64); 6] = [
        (0xffff_ffff, 1),
        (u64::MAX, 1),
        (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321),
        (0x8000_0000_8000_0000, 0x8000_0000_8000_0000),
        (0, 0),
        (0xffff_ffff_0000_0000, 0x0000_0001_0000_0000),
    ];
    // 64-bit add from 32-bit halves: add.cc.u32 low, addc.u32 high.
    let rows = vals
        .iter()
        .map(|&(a, b)| row(&[a, b], &[a.wrapping_add(b)], "add.cc+addc"))
        .collect();
    t.t(
        "add.cc/addc 64-bit",
        "\t.reg .b32 %a0, %a1, %b0, %b1, %d0, %d1;",
        "\tld.global.u32 %a0, [%pa];\n\tld.global.u32 %a1, [%pa+4];\n\tld.global.u32 %b0, [%pb];\n\tld.global.u32 %b1, [%pb+4];\n\
         \tadd.cc.u32 %d0, %a0, %b0;\n\taddc.u32 %d1, %a1, %b1;\n\tst.global.u32 [%pd], %d0;\n\tst.global.u32 [%pd+4], %d1;",
        rows,
    );
    // Carry out of a 64-bit sum: add.cc, addc.cc, then addc 0 + 0.
    let rows = vals
        .iter()
        .map(|&(a, b)| {
            row(
                &[a, b],
                &[((u128::from(a) + u128::from(b)) >> 64) as u64],
                "carry out",
            )
        })
        .collect();
    t.t(
        "addc.cc carry out",
        "\t.reg .b32 %a0, %a1, %b0, %b1, %d0, %d1, %d2;",
        "\tld.global.u32 %a0, [%pa];\n\tld.global.u32 %a1, [%pa+4];\n\tld.global.u32 %b0, [%pb];\n\tld.global.u32 %b1, [%pb+4];\n\
         \tadd.cc.u32 %d0, %a0, %b0;\n\taddc.cc.u32 %d1, %a1, %b1;\n\taddc.u32 %d2, 0, 0;\n\tst.global.u32 [%pd], %d2;",
        rows,
    );
    // 64-bit subtract from halves: sub.cc.u32, subc.u32.
    let rows = vals
        .iter()
        .map(|&(a, b)| row(&[a, b], &[a.wrapping_sub(b)], "sub.cc+subc"))
        .collect();
    t.t(
        "sub.cc/subc 64-bit",
        "\t.reg .b32 %a0, %a1, %b0, %b1, %d0, %d1;",
        "\tld.global.u32 %a0, [%pa];\n\tld.global.u32 %a1, [%pa+4];\n\tld.global.u32 %b0, [%pb];\n\tld.global.u32 %b1, [%pb+4];\n\
         \tsub.cc.u32 %d0, %a0, %b0;\n\tsubc.u32 %d1, %a1, %b1;\n\tst.global.u32 [%pd], %d0;\n\tst.global.u32 [%pd+4], %d1;",
        rows,
    );
    // 32x32 -> 64 product plus a 64-bit addend: mad.lo.cc.u32 then madc.hi.u32.
    let mut rows = Vec::new();
    for (a, b, c) in [
        (0xffff_ffffu32, 0xffff_ffffu32, 0xffff_ffff_ffff_ffffu64),
        (0x1234_5678, 0x9abc_def0, 0x0000_0000_ffff_ffff),
        (3, 4, 5),
        (0x8000_0000, 2, 0x8000_0000),
    ] {
        let want = (u64::from(a) * u64::from(b)).wrapping_add(c);
        rows.push(row(&[a.into(), b.into(), c], &[want], "mad.lo.cc+madc.hi"));
    }
    t.t(
        "mad.lo.cc/madc.hi",
        "\t.reg .b32 %a, %b, %c0, %c1, %d0, %d1;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c0, [%pc];\n\tld.global.u32 %c1, [%pc+4];\n\
         \tmad.lo.cc.u32 %d0, %a, %b, %c0;\n\tmadc.hi.u32 %d1, %a, %b, %c1;\n\tst.global.u32 [%pd], %d0;\n\tst.global.u32 [%pd+4], %d1;",
        rows,
    );
    // 128-bit add from four 32-bit limbs (a and b are 128-bit: slots a,b and c,z).
    let mut rows = Vec::new();
    for (a, b) in [
        (u128::MAX, 1u128),
        (0xffff_ffff_ffff_ffff, 1),
        (
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
            0xffff_ffff_0000_0001_ffff_ffff_0000_0001,
        ),
    ] {
        let s = a.wrapping_add(b);
        rows.push(row(
            &[a as u64, (a >> 64) as u64, b as u64, (b >> 64) as u64],
            &[s as u64, (s >> 64) as u64],
            "128-bit add",
        ));
    }
    t.t(
        "128-bit add chain",
        "\t.reg .b32 %a<4>, %b<4>, %d<4>;",
        "\tld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%pa];\n\tld.global.v4.u32 {%b0, %b1, %b2, %b3}, [%pc];\n\
         \tadd.cc.u32 %d0, %a0, %b0;\n\taddc.cc.u32 %d1, %a1, %b1;\n\taddc.cc.u32 %d2, %a2, %b2;\n\taddc.u32 %d3, %a3, %b3;\n\
         \tst.global.v4.u32 [%pd], {%d0, %d1, %d2, %d3};",
        rows,
    );
    t.check();
}

/// bfe reference, transcribed from the ISA pseudo-code (9.7.1.x bfe):
/// pos = b & 0xff, len = c & 0xff, sbit = signed && len != 0 ? a[min(pos+len-1, msb)] : 0,
/// d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sbit.
fn bfe_ref(bits: u32, signed: bool, a: u64, b: u32, c: u32) -> u64 {
    let msb = bits - 1;
    let (pos, len) = (b & 0xff, c & 0xff);
    let bit = |x: u64, k: u32| (x >> k) & 1;
    let sbit = if signed && len != 0 {
        bit(a, (pos + len - 1).min(msb))
    } else {
        0
    };
    let mut d = 0u64;
    for k in 0..=msb {
        let v = if k < len && pos + k <= msb {
            bit(a, pos + k)
        } else {
            sbit
        };
        d |= v << k;
    }
    d
}

/// bfi reference (ISA): d = b; d[pos+i] = a[i] for i < len while pos + i <= msb.
fn bfi_ref(bits: u32, a: u64, b: u64, pos: u32, len: u32) -> u64 {
    let msb = bits - 1;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let mut d = b;
    for k in 0..len {
        if pos + k <= msb {
            d = (d & !(1 << (pos + k))) | (((a >> k) & 1) << (pos + k));
        }
    }
    d
}

#[test]
fn shifts_and_funnel_shifts() {
    let _c = rows_of("shifts_and_funnel_shifts");
    let mut t = Tables::new();
    // shl.b32 / shr.u32 / shr.s32: amounts above the width clamp to it.
    let mut rows = Vec::new();
    for (a, n) in [
        (0x8000_0001u32, 0u32),
        (0x8000_0001, 1),
        (0x8000_0001, 31),
        (0x8000_0001, 32),
        (0x8000_0001, 40),
        (0x7fff_ffff, 40),
        (0xf000_0000, 4),
        (0x1234_5678, 0xffff_ffff),
    ] {
        let shl = if n >= 32 { 0 } else { a << n };
        let shr = if n >= 32 { 0 } else { a >> n };
        let sar = ((a as i32) >> n.min(31)) as u32;
        rows.push(row(
            &[a.into(), n.into()],
            &[u64::from(shl) | (u64::from(shr) << 32), sar.into()],
            "shl/shr",
        ));
    }
    t.t(
        "shl.b32/shr.u32/shr.s32",
        "\t.reg .b32 %a, %b, %d, %e, %f;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tshl.b32 %d, %a, %b;\n\tshr.u32 %e, %a, %b;\n\tshr.s32 %f, %a, %b;\n\
         \tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pd+4], %e;\n\tst.global.u32 [%pe], %f;",
        rows,
    );
    // shr.s32 by an immediate 40 and shr.u32 by 40.
    let mut rows = Vec::new();
    for a in [-5i32, 5, i32::MIN] {
        rows.push(row(&[i(a)], &[i(a >> 31), 0], "shr by 40"));
    }
    t.t(
        "shr imm 40",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tshr.s32 %d, %a, 40;\n\tshr.u32 %e, %a, 40;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // A negative value produced by sub.s32, then shifted right logically: the
    // shift sees only 32 bits (0xfffffffb >> 4 = 0x0fffffff).
    let mut rows = Vec::new();
    for a in [5i32, 1, 0x7fff_ffff] {
        let neg = 0i32.wrapping_sub(a) as u32;
        rows.push(row(
            &[i(a)],
            &[u64::from(neg >> 4), u64::from(neg.rotate_left(0) >> 31)],
            "sub.s32 then shr.u32",
        ));
    }
    t.t(
        "s32 result into shr.u32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tsub.s32 %c, 0, %a;\n\tshr.u32 %d, %c, 4;\n\tshr.b32 %e, %c, 31;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // 64-bit shifts.
    let mut rows = Vec::new();
    for (a, n) in [
        (0x8000_0000_0000_0001u64, 63u32),
        (0x8000_0000_0000_0001, 64),
        (0x8000_0000_0000_0001, 1),
        (0xff, 32),
    ] {
        let shl = if n >= 64 { 0 } else { a << n };
        let sar = ((a as i64) >> n.min(63)) as u64;
        rows.push(row(&[a, n.into()], &[shl, sar], "shl/shr.s64"));
    }
    t.t(
        "shl.b64/shr.s64",
        "\t.reg .b64 %a, %d, %e;\n\t.reg .b32 %b;",
        "\tld.global.u64 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tshl.b64 %d, %a, %b;\n\tshr.s64 %e, %a, %b;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    // 16-bit shifts on .b16 registers: shr.s16 replicates bit 15, shr.u16 does not.
    let mut rows = Vec::new();
    for (a, n) in [(0x8001u16, 3u32), (0x8001, 16), (0x7ff0, 4)] {
        let sar = ((a as i16) >> n.min(15)) as u16;
        let shr = if n >= 16 { 0 } else { a >> n };
        rows.push(row(
            &[a.into(), n.into()],
            &[sar.into(), shr.into()],
            "shr.s16/u16",
        ));
    }
    t.t(
        "shr.s16/shr.u16",
        "\t.reg .b16 %a, %d, %e;\n\t.reg .b32 %b;",
        "\tld.global.u16 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tshr.s16 %d, %a, %b;\n\tshr.u16 %e, %a, %b;\n\tst.global.u16 [%pd], %d;\n\tst.global.u16 [%pe], %e;",
        rows,
    );
    // shf.l / shf.r: funnel shift of the 64-bit value {b (high), a (low)}.
    // .wrap uses c & 31, .clamp uses min(c, 32) (ISA shf). l: upper word of
    // ({b,a} << n); r: lower word of ({b,a} >> n).
    let funnel = |a: u32, b: u32, n: u32, left: bool| -> u32 {
        let v = (u64::from(b) << 32) | u64::from(a);
        if left {
            ((v << n) >> 32) as u32
        } else {
            (v >> n) as u32
        }
    };
    let mut rows = Vec::new();
    for (a, b, c) in [
        (0x1234_5678u32, 0x9abc_def0u32, 8u32),
        (0x1234_5678, 0x9abc_def0, 40),
        (0x1234_5678, 0x9abc_def0, 0),
        (0x1234_5678, 0x9abc_def0, 32),
        (0xffff_ffff, 0, 31),
        (1, 0x8000_0000, 33),
    ] {
        let l_wrap = funnel(a, b, c & 31, true);
        let l_clamp = funnel(a, b, c.min(32), true);
        let r_wrap = funnel(a, b, c & 31, false);
        let r_clamp = funnel(a, b, c.min(32), false);
        rows.push(row(
            &[a.into(), b.into(), c.into()],
            &[
                u64::from(l_wrap) | (u64::from(l_clamp) << 32),
                u64::from(r_wrap) | (u64::from(r_clamp) << 32),
            ],
            "shf",
        ));
    }
    t.t(
        "shf.l/r.wrap/clamp",
        "\t.reg .b32 %a, %b, %c, %d<4>;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\
         \tshf.l.wrap.b32 %d0, %a, %b, %c;\n\tshf.l.clamp.b32 %d1, %a, %b, %c;\n\tshf.r.wrap.b32 %d2, %a, %b, %c;\n\tshf.r.clamp.b32 %d3, %a, %b, %c;\n\
         \tst.global.v2.u32 [%pd], {%d0, %d1};\n\tst.global.v2.u32 [%pe], {%d2, %d3};",
        rows,
    );
    // Hand-checked: shf.l.wrap.b32 (a=0x12345678, b=0x9abcdef0, c=8) =
    // (0x9abcdef0 << 8) | (0x12345678 >> 24) = 0xbcdef012; shf.r.wrap = 0xf0123456.
    let mut rows = Vec::new();
    rows.push(row(
        &[0x1234_5678, 0x9abc_def0, 8],
        &[0xbcde_f012, 0xf012_3456],
        "shf by hand",
    ));
    t.t(
        "shf by hand",
        "\t.reg .b32 %a, %b, %c, %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\
         \tshf.l.wrap.b32 %d, %a, %b, %c;\n\tshf.r.wrap.b32 %e, %a, %b, %c;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    t.check();
}

#[test]
fn bit_field_and_count_ops() {
    let _c = rows_of("bit_field_and_count_ops");
    let mut t = Tables::new();
    // bfe.u32 / bfe.s32.
    let mut rows = Vec::new();
    for (a, p, n) in [
        (0x1234_5678u32, 4u32, 8u32),
        (0x0000_00f0, 4, 4),
        (0x8000_0000, 28, 8),
        (0x1234_5678, 0, 0),
        (0x1234_5678, 0, 32),
        (0x7000_0000, 28, 8),
        (0xdead_beef, 300, 4),   // pos & 0xff = 44 > msb: all sign bits
        (0xdead_beef, 8, 0x108), // len & 0xff = 8
    ] {
        rows.push(row(
            &[a.into(), p.into(), n.into()],
            &[
                bfe_ref(32, false, a.into(), p, n),
                bfe_ref(32, true, a.into(), p, n),
            ],
            "bfe",
        ));
    }
    t.t(
        "bfe.u32/s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tbfe.u32 %d, %a, %b, %c;\n\tbfe.s32 %e, %a, %b, %c;\n\
         \tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // Hand-checked bfe: bfe.s32(0xf0, 4, 4) = sign-extend 0xf = 0xffffffff;
    // bfe.u32(0x12345678, 4, 8) = 0x67; bfe.s32(0x80000000, 28, 8): bits 28..31
    // = 0x8, then bit 31 replicated = 0xfffffff8.
    t.t(
        "bfe by hand",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tbfe.s32 %d, %a, 4, 4;\n\tbfe.u32 %e, %a, 4, 8;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        vec![row(&[0xf0], &[0xffff_ffff, 0xf], "0xf0"), row(&[0x1234_5678], &[0x7, 0x67], "0x12345678")],
    );
    t.t(
        "bfe.s32 28,8 by hand",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tbfe.s32 %d, %a, 28, 8;\n\tst.global.u32 [%pd], %d;",
        vec![
            row(&[0x8000_0000], &[0xffff_fff8], "bit 31 replicated"),
            row(&[0x7000_0000], &[0x7], "positive"),
        ],
    );
    // bfe.s64.
    let mut rows = Vec::new();
    for (a, p, n) in [
        (0x8000_0000_0000_0000u64, 60u32, 8u32),
        (0x0000_00f0_0000_0000, 36, 4),
        (0x1234_5678_9abc_def0, 16, 32),
    ] {
        rows.push(row(
            &[a, p.into(), n.into()],
            &[bfe_ref(64, false, a, p, n), bfe_ref(64, true, a, p, n)],
            "bfe64",
        ));
    }
    t.t(
        "bfe.u64/s64",
        "\t.reg .b64 %a, %d, %e;\n\t.reg .b32 %b, %c;",
        "\tld.global.u64 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tbfe.u64 %d, %a, %b, %c;\n\tbfe.s64 %e, %a, %b, %c;\n\
         \tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    // bfi.b32 d, a, b, pos, len (a's low len bits into b at pos).
    let mut rows = Vec::new();
    for (a, b, p, n) in [
        (0xffu32, 0x1234_5678u32, 8u32, 4u32),
        (0xffff_ffff, 0, 28, 8),
        (0xabcd, 0xffff_ffff, 0, 0),
        (0x5, 0x0, 31, 1),
        (0xf, 0x1234_5678, 0, 32),
    ] {
        rows.push(row(
            &[a.into(), b.into(), p.into(), n.into()],
            &[bfi_ref(32, a.into(), b.into(), p, n)],
            "bfi",
        ));
    }
    rows.push(row(
        &[0xff, 0x1234_5678, 8, 4],
        &[0x1234_5f78],
        "bfi by hand",
    ));
    t.t(
        "bfi.b32",
        "\t.reg .b32 %a, %b, %c, %z, %d;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tld.global.u32 %z, [%pz];\n\tbfi.b32 %d, %a, %b, %c, %z;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    // popc / clz / brev / bfind on 32 bits.
    let mut rows = Vec::new();
    for a in [0u32, 1, 0x8000_0000, 0xffff_ffff, 0x1234_5678, 0x0001_0000] {
        let bf = if a == 0 {
            0xffff_ffff
        } else {
            31 - a.leading_zeros()
        };
        rows.push(row(
            &[a.into()],
            &[
                u64::from(a.count_ones()) | (u64::from(a.leading_zeros()) << 32),
                u64::from(a.reverse_bits()) | (u64::from(bf) << 32),
            ],
            "popc/clz/brev/bfind.u32",
        ));
    }
    rows.push(row(
        &[0x1234_5678],
        &[13 | (3 << 32), 0x1e6a_2c48 | (28 << 32)],
        "by hand",
    ));
    t.t(
        "popc/clz/brev/bfind.u32",
        "\t.reg .b32 %a, %d<4>;",
        "\tld.global.u32 %a, [%pa];\n\tpopc.b32 %d0, %a;\n\tclz.b32 %d1, %a;\n\tbrev.b32 %d2, %a;\n\tbfind.u32 %d3, %a;\n\
         \tst.global.v2.u32 [%pd], {%d0, %d1};\n\tst.global.v2.u32 [%pe], {%d2, %d3};",
        rows,
    );
    // bfind.s32: for negative inputs the most significant 0 bit;
    // bfind.shiftamt.u32 returns 31 - index.
    let mut rows = Vec::new();
    for a in [-1i32, -2, i32::MIN, 1, 0, 0x4000_0000] {
        let x = if a < 0 { !(a as u32) } else { a as u32 };
        let bf = if x == 0 {
            0xffff_ffff
        } else {
            31 - x.leading_zeros()
        };
        let u = a as u32;
        let sa = if u == 0 {
            0xffff_ffff
        } else {
            u.leading_zeros()
        };
        rows.push(row(&[i(a)], &[bf.into(), sa.into()], "bfind.s32/shiftamt"));
    }
    t.t(
        "bfind.s32, bfind.shiftamt.u32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tbfind.s32 %d, %a;\n\tbfind.shiftamt.u32 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // 64-bit popc / clz (results are .u32) / brev.b64 / bfind.u64.
    let mut rows = Vec::new();
    for a in [
        0u64,
        1,
        u64::MAX,
        0x0000_0001_0000_0000,
        0x8000_0000_0000_0000,
    ] {
        let bf = if a == 0 {
            0xffff_ffff
        } else {
            63 - a.leading_zeros()
        };
        rows.push(row(
            &[a],
            &[
                u64::from(a.count_ones()) | (u64::from(a.leading_zeros()) << 32),
                a.reverse_bits(),
            ],
            "64-bit counts",
        ));
        rows.push(row(&[a], &[u64::from(bf)], "bfind.u64"));
    }
    let body = "\tld.global.u64 %a, [%pa];\n\tpopc.b64 %d0, %a;\n\tclz.b64 %d1, %a;\n\tbrev.b64 %e, %a;\n\tbfind.u64 %d2, %a;\n\
                \tand.b32 %d3, %tx, 1;\n\tsetp.eq.u32 %p, %d3, 1;\n\
                \t@!%p st.global.v2.u32 [%pd], {%d0, %d1};\n\t@!%p st.global.u64 [%pe], %e;\n\t@%p st.global.u32 [%pd], %d2;";
    t.t(
        "popc/clz/brev/bfind 64",
        "\t.reg .b64 %a, %e;\n\t.reg .b32 %d<4>;\n\t.reg .pred %p;",
        body,
        rows,
    );
    t.check();
}

#[test]
fn logic_lop3_and_prmt() {
    let _c = rows_of("logic_lop3_and_prmt");
    let mut t = Tables::new();
    let mut rows = Vec::new();
    for (a, b) in [
        (0xf0f0_f0f0u32, 0xff00_ff00u32),
        (0, 0xffff_ffff),
        (0x1234_5678, 0x0f0f_0f0f),
    ] {
        rows.push(row(
            &[a.into(), b.into()],
            &[
                u64::from(a & b) | (u64::from(a | b) << 32),
                u64::from(a ^ b) | (u64::from(!a) << 32),
            ],
            "and/or/xor/not",
        ));
    }
    t.t(
        "and/or/xor/not.b32",
        "\t.reg .b32 %a, %b, %d<4>;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tand.b32 %d0, %a, %b;\n\tor.b32 %d1, %a, %b;\n\txor.b32 %d2, %a, %b;\n\tnot.b32 %d3, %a;\n\
         \tst.global.v2.u32 [%pd], {%d0, %d1};\n\tst.global.v2.u32 [%pe], {%d2, %d3};",
        rows,
    );
    // cnot.b32: 1 if a == 0 else 0. not.b16 keeps 16 bits.
    let rows = vec![
        row(&[0], &[1, 0xffff], "cnot 0"),
        row(&[5], &[0, 0xfffa], "cnot 5"),
        row(&[0x10000], &[0, 0xffff], "cnot 0x10000 (b16 of it is 0)"),
    ];
    t.t(
        "cnot.b32, not.b16",
        "\t.reg .b32 %a, %d;\n\t.reg .b16 %h, %g;",
        "\tld.global.u32 %a, [%pa];\n\tcnot.b32 %d, %a;\n\tld.global.u16 %h, [%pa];\n\tnot.b16 %g, %h;\n\tst.global.u32 [%pd], %d;\n\tst.global.u16 [%pe], %g;",
        rows,
    );
    // lop3.b32 d, a, b, c, lut: bit k of d = lut[(a_k << 2) | (b_k << 1) | c_k]
    // (ISA: ta = 0xF0, tb = 0xCC, tc = 0xAA).
    let lop3 = |a: u32, b: u32, c: u32, lut: u8| -> u32 {
        let mut d = 0;
        for k in 0..32 {
            let idx = (((a >> k) & 1) << 2) | (((b >> k) & 1) << 1) | ((c >> k) & 1);
            d |= u32::from((lut >> idx) & 1) << k;
        }
        d
    };
    for lut in [0xe2u8, 0x96, 0x80, 0xfe, 0x1b] {
        let mut rows = Vec::new();
        for (a, b, c) in [
            (0xf0f0_f0f0u32, 0xcccc_ccccu32, 0xaaaa_aaaau32),
            (0x1234_5678, 0x9abc_def0, 0x0f0f_0f0f),
        ] {
            rows.push(row(
                &[a.into(), b.into(), c.into()],
                &[lop3(a, b, c, lut).into()],
                &format!("lop3 0x{lut:02x}"),
            ));
        }
        t.t(
            &format!("lop3.b32 0x{lut:02x}"),
            R32,
            &format!("\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tlop3.b32 %d, %a, %b, %c, 0x{lut:02x};\n\tst.global.u32 [%pd], %d;"),
            rows,
        );
    }
    // prmt.b32 default mode: bytes 0-3 from a, 4-7 from b; selector nibble
    // bit 3 replicates the selected byte's sign bit (ISA prmt).
    let prmt = |a: u32, b: u32, c: u32| -> u32 {
        let bytes = ((u64::from(b) << 32) | u64::from(a)).to_le_bytes();
        let mut d = 0u32;
        for k in 0..4 {
            let sel = (c >> (4 * k)) & 0xf;
            let mut byte = bytes[(sel & 7) as usize];
            if sel & 8 != 0 {
                byte = if byte & 0x80 != 0 { 0xff } else { 0 };
            }
            d |= u32::from(byte) << (8 * k);
        }
        d
    };
    let mut rows = Vec::new();
    for c in [
        0x3210u32,
        0x7654,
        0x0123,
        0x4567,
        0x0008,
        0x8888,
        0xfedc_3210,
        0x5140,
    ] {
        let (a, b) = (0x4433_2280u32, 0x8877_6655u32);
        rows.push(row(
            &[a.into(), b.into(), c.into()],
            &[prmt(a, b, c).into()],
            &format!("prmt 0x{c:x}"),
        ));
    }
    // By hand: c = 0x0008 gives d0 = sign(a0 = 0x80) = 0xff, d1..d3 = a0 = 0x80.
    rows.push(row(
        &[0x4433_2280, 0x8877_6655, 0x0008],
        &[0x8080_80ff],
        "prmt sign by hand",
    ));
    rows.push(row(
        &[0x4433_2211, 0x8877_6655, 0x0123],
        &[0x1122_3344],
        "prmt byte swap by hand",
    ));
    t.t(
        "prmt.b32 default",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tprmt.b32 %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    // Named modes (ISA prmt table), bytes of {b, a} = 88 77 66 55 44 33 22 11:
    // f4e c=1: bytes 4 3 2 1 -> 0x55443322; rc8 c=2: byte 2 x4 -> 0x33333333;
    // rc16 c=1: bytes 3 2 3 2 -> 0x44334433; ecl c=1: 3 2 1 1 -> 0x44332222;
    // ecr c=2: 2 2 1 0 -> 0x33332211.
    let (a, b) = (0x4433_2211u64, 0x8877_6655u64);
    for (mode, c, want) in [
        ("f4e", 1u64, 0x5544_3322u64),
        ("f4e", 0, 0x4433_2211),
        ("rc8", 2, 0x3333_3333),
        ("rc16", 1, 0x4433_4433),
        ("ecl", 1, 0x4433_2222),
        ("ecr", 2, 0x3333_2211),
    ] {
        t.t(
            &format!("prmt.b32.{mode} {c}"),
            R32,
            &format!("\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tprmt.b32.{mode} %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;"),
            vec![row(&[a, b, c], &[want], mode)],
        );
    }
    t.check();
}

#[test]
fn mixed_width_and_signedness_register_reuse() {
    let _c = rows_of("mixed_width_and_signedness_register_reuse");
    let mut t = Tables::new();
    // %n = 0 - a computed by sub.s32 (a signed instruction type), then consumed
    // by unsigned 32-bit instructions, which must see exactly its 32 bits.
    let decls = "\t.reg .b32 %a, %n, %x<8>;\n\t.reg .b64 %w;\n\t.reg .pred %p;";
    let body = "\tld.global.u32 %a, [%pa];\n\tsub.s32 %n, 0, %a;\n\
                \tmul.hi.u32 %x0, %n, 2;\n\tpopc.b32 %x1, %n;\n\tbfind.u32 %x2, %n;\n\tbfe.u32 %x3, %n, 28, 8;\n\
                \trem.u32 %x4, %n, 10;\n\tadd.cc.u32 %x5, %n, %a;\n\taddc.u32 %x6, 0, 0;\n\tbrev.b32 %x7, %n;\n\
                \tst.global.v4.u32 [%pd], {%x0, %x1, %x2, %x3};\n\tst.global.v4.u32 [%pc], {%x4, %x5, %x6, %x7};\n\
                \tmul.wide.u32 %w, %n, 2;\n\tst.global.u64 [%pe], %w;\n\tld.global.v2.u32 {%x0, %x1}, [%pc];\n\tld.global.v2.u32 {%x2, %x3}, [%pc+8];\n\
                \txor.b32 %x0, %x0, %x1;\n\txor.b32 %x0, %x0, %x2;\n\txor.b32 %x0, %x0, %x3;\n\tst.global.u32 [%pe], %x0;";
    // Only one output slot pair per row: d = (mul.hi | popc << 32) packed as v4
    // spills into e; so check d and e as written: [%pd] gets x0..x3 (16 bytes:
    // slots d and e), then [%pe] is overwritten by the 64-bit mul.wide and its
    // low word by the xor of x4..x7.
    let mut rows = Vec::new();
    for a in [1u32, 5, 0x7fff_ffff, 0x8000_0001] {
        let n = 0u32.wrapping_sub(a);
        let x0 = ((u64::from(n) * 2) >> 32) as u32;
        let x1 = n.count_ones();
        let _x2 = 31 - n.leading_zeros();
        let _x3 = (n >> 28) & 0xf;
        let x4 = n % 10;
        let x5 = n.wrapping_add(a);
        let x6 = u32::from(u64::from(n) + u64::from(a) > 0xffff_ffff);
        let x7 = n.reverse_bits();
        let wide = u64::from(n) * 2;
        let e = (wide & !0xffff_ffff) | u64::from(x4 ^ x5 ^ x6 ^ x7);
        rows.push(row(
            &[a.into()],
            &[u64::from(x0) | (u64::from(x1) << 32), e],
            "32-bit view of a sub.s32 result",
        ));
    }
    t.t("s32 result into u32 instructions", decls, body, rows);
    // The parts of that body the row above cannot see (bfind, bfe) on their own.
    let mut rows = Vec::new();
    for a in [1u32, 0x7fff_ffff] {
        let n = 0u32.wrapping_sub(a);
        rows.push(row(
            &[a.into()],
            &[
                u64::from(31 - n.leading_zeros()),
                u64::from((n >> 28) & 0xf),
            ],
            "bfind/bfe of a sub.s32 result",
        ));
    }
    t.t(
        "s32 result into bfind.u32 / bfe.u32",
        decls,
        "\tld.global.u32 %a, [%pa];\n\tsub.s32 %n, 0, %a;\n\tbfind.u32 %x2, %n;\n\tbfe.u32 %x3, %n, 28, 8;\n\tst.global.u32 [%pd], %x2;\n\tst.global.u32 [%pe], %x3;",
        rows,
    );
    // 16-bit registers loaded with ld.s16 (a signed type), used by unsigned
    // 16-bit instructions: mul.wide.u16, setp.lt.u16, shr.u16, cvt.u32.u16.
    let mut rows = Vec::new();
    for (h, k) in [(0x8000u16, 2u16), (0xfffe, 3), (0x7fff, 0xffff)] {
        let wide = u32::from(h) * u32::from(k);
        let lt = u64::from(h < k);
        let shr = u64::from(h >> 4);
        rows.push(row(
            &[h.into(), k.into()],
            &[
                u64::from(wide) | (u64::from(u32::from(h)) << 32),
                lt | (shr << 32),
            ],
            "s16-loaded into u16 ops",
        ));
    }
    t.t(
        "ld.s16 registers into u16 instructions",
        "\t.reg .b16 %h, %k, %s;\n\t.reg .b32 %w, %c, %l;\n\t.reg .pred %p;",
        "\tld.global.s16 %h, [%pa];\n\tld.global.s16 %k, [%pb];\n\tmul.wide.u16 %w, %h, %k;\n\tcvt.u32.u16 %c, %h;\n\tsetp.lt.u16 %p, %h, %k;\n\tselp.u32 %l, 1, 0, %p;\n\
         \tshr.u16 %s, %h, 4;\n\tcvt.u32.u16 %c, %h;\n\tst.global.v2.u32 [%pd], {%w, %c};\n\tst.global.u32 [%pe], %l;\n\tst.global.u16 [%pe+4], %s;",
        rows,
    );
    // A u32-loaded (zero-extended) negative used by signed instructions:
    // mul.wide.s32, cvt.s64.s32, setp.lt.s32, shr.s32, div.s32, cvt.rn.f32.s32.
    let mut rows = Vec::new();
    for a in [-6i32, -1, i32::MIN] {
        let lt = u64::from(a < 0);
        rows.push(row(
            &[i(a)],
            &[l(i64::from(a) * 3), lt | (u64::from((a >> 1) as u32) << 32)],
            "u32-loaded into s32 ops",
        ));
    }
    t.t(
        "ld.u32 registers into s32 instructions",
        "\t.reg .b32 %a, %s, %l;\n\t.reg .b64 %w;\n\t.reg .pred %p;",
        "\tld.global.u32 %a, [%pa];\n\tmul.wide.s32 %w, %a, 3;\n\tsetp.lt.s32 %p, %a, 0;\n\tselp.u32 %l, 1, 0, %p;\n\tshr.s32 %s, %a, 1;\n\
         \tst.global.u64 [%pd], %w;\n\tst.global.v2.u32 [%pe], {%l, %s};",
        rows,
    );
    // A .b64 register written with a 32-bit mov is read by a 64-bit add.
    t.t(
        "32-bit loads into a .b64 register then 64-bit ops",
        "\t.reg .b64 %x, %y, %z;",
        "\tld.global.u32 %x, [%pa];\n\tld.global.s32 %y, [%pa];\n\tadd.s64 %z, %x, %y;\n\tst.global.u64 [%pd], %z;",
        // x = 0x00000000ffffffff, y = 0xffffffffffffffff: sum = 0xfffffffe.
        vec![row(&[0xffff_ffff], &[0xffff_fffe], "zext + sext of -1")],
    );
    // cvt.s8.s32 writes a sign-extended register; reading it as .u32 sees 0xffffff80.
    t.t(
        "cvt.s8 result read by a 32-bit compare",
        "\t.reg .b32 %a, %b, %l;\n\t.reg .pred %p;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.s8.s32 %b, %a;\n\tsetp.gt.u32 %p, %b, 255;\n\tselp.u32 %l, 1, 0, %p;\n\tst.global.u32 [%pd], %l;\n\tst.global.u32 [%pe], %b;",
        vec![row(&[0x80], &[1, 0xffff_ff80], "0x80 -> 0xffffff80 > 255"), row(&[0x7f], &[0, 0x7f], "0x7f")],
    );
    t.check();
}

#[test]
fn more_integer_forms() {
    let _c = rows_of("more_integer_forms");
    let mut t = Tables::new();
    // mad.hi.s32, mad.lo.u16, mul.lo.u16, mul24.hi.u32, sad.u32, min.relu.s32.
    let mut rows = Vec::new();
    for (a, b, c) in [(-3i32, 0x4000_0000i32, 5i32), (i32::MIN, i32::MIN, -1)] {
        let hi = ((i64::from(a) * i64::from(b)) >> 32) as i32;
        rows.push(row(
            &[i(a), i(b), i(c)],
            &[i(hi.wrapping_add(c))],
            "mad.hi.s32",
        ));
    }
    t.t(
        "mad.hi.s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tmad.hi.s32 %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    let mut rows = Vec::new();
    for (a, b, c) in [(300u16, 300u16, 7u16), (0xffff, 0xffff, 1)] {
        rows.push(row(
            &[a.into(), b.into(), c.into()],
            &[
                a.wrapping_mul(b).wrapping_add(c).into(),
                a.wrapping_mul(b).into(),
            ],
            "u16 mul/mad",
        ));
    }
    t.t(
        "mad.lo.u16 / mul.lo.u16",
        R16,
        "\tld.global.u16 %a, [%pa];\n\tld.global.u16 %b, [%pb];\n\tld.global.u16 %c, [%pc];\n\tmad.lo.u16 %d, %a, %b, %c;\n\tmul.lo.u16 %e, %a, %b;\n\tst.global.u16 [%pd], %d;\n\tst.global.u16 [%pe], %e;",
        rows,
    );
    // mul24.hi.u32: bits 47..16 of the 48-bit product of the low 24 bits (ISA mul24).
    let mut rows = Vec::new();
    for (a, b) in [(0x00ff_ffffu32, 0x00ff_ffffu32), (0xff12_3456, 0x0065_4321)] {
        let p = u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff);
        rows.push(row(
            &[a.into(), b.into()],
            &[(p >> 16) & 0xffff_ffff],
            "mul24.hi.u32",
        ));
    }
    t.t(
        "mul24.hi.u32",
        R32,
        &bin("u32", "mul24.hi.u32", "u32"),
        rows,
    );
    // sad.u32 d = c + |a - b|; sad.s32 with signed difference.
    let rows = vec![
        row(&[3, 10, 100], &[107, 107], "|3-10| + 100"),
        row(
            &[i(-5), 5, 0],
            &[0xffff_fff6, 10], // u32: |0xfffffffb - 5| + 0 = 0xfffffff6; s32: |-5 - 5| = 10
            "u32 vs s32 difference",
        ),
    ];
    t.t(
        "sad.u32 / sad.s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tsad.u32 %d, %a, %b, %c;\n\tsad.s32 %e, %a, %b, %c;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // dp4a: c + sum of byte products; .s32.s32 treats bytes as signed.
    let dp4a = |a: u32, b: u32, c: u32, sa: bool, sb: bool| -> u32 {
        let mut acc = c as i64;
        for k in 0..4 {
            let x = (a >> (8 * k)) as u8;
            let y = (b >> (8 * k)) as u8;
            let x = if sa { i64::from(x as i8) } else { i64::from(x) };
            let y = if sb { i64::from(y as i8) } else { i64::from(y) };
            acc += x * y;
        }
        acc as u32
    };
    let mut rows = Vec::new();
    for (a, b, c) in [
        (0x0102_0304u32, 0x0506_0708u32, 10u32),
        (0xff80_7f01, 0x02ff_80ff, 0),
        (0xffff_ffff, 0xffff_ffff, 1),
    ] {
        rows.push(row(
            &[a.into(), b.into(), c.into()],
            &[
                dp4a(a, b, c, false, false).into(),
                dp4a(a, b, c, true, true).into(),
            ],
            "dp4a",
        ));
    }
    t.t(
        "dp4a.u32.u32 / dp4a.s32.s32",
        R32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tdp4a.u32.u32 %d, %a, %b, %c;\n\tdp4a.s32.s32 %e, %a, %b, %c;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // 64-bit logic and 16-bit shifts.
    let rows = vec![row(
        &[0xf0f0_0000_ffff_0000, 0x0ff0_ffff_0000_ffff],
        &[0x00f0_0000_0000_0000, !0xf0f0_0000_ffff_0000u64],
        "and/not.b64",
    )];
    t.t(
        "and.b64 / not.b64",
        R64,
        "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tand.b64 %d, %a, %b;\n\tnot.b64 %e, %a;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    t.t(
        "shl.b16 by 15 / 16",
        R16,
        "\tld.global.u16 %a, [%pa];\n\tshl.b16 %d, %a, 15;\n\tshl.b16 %e, %a, 16;\n\tst.global.u16 [%pd], %d;\n\tst.global.u16 [%pe], %e;",
        vec![row(&[3], &[0x8000, 0], "3 << 15, 3 << 16")],
    );
    t.check();
}

#[test]
fn multiword_arithmetic_chains() {
    let _c = rows_of("multiword_arithmetic_chains");
    let mut t = Tables::new();
    let vals: [(u64, u64); 6] = [
        (u64::MAX, u64::MAX),
        (0xffff_ffff, 0xffff_ffff),
        (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321),
        (0x8000_0000_0000_0001, 3),
        (0, 0xdead_beef_dead_beef),
        (0xffff_ffff_0000_0001, 0x0000_0001_ffff_ffff),
    ];
    // 64x64 -> 128 schoolbook multiply on 32-bit limbs with mad.lo.cc / madc.hi(.cc) chains.
    let body = "\tld.global.v2.u32 {%a0, %a1}, [%pa];\n\tld.global.v2.u32 {%b0, %b1}, [%pb];\n\
                \tmul.lo.u32 %p0, %a0, %b0;\n\tmul.hi.u32 %p1, %a0, %b0;\n\tmad.lo.cc.u32 %p1, %a0, %b1, %p1;\n\tmadc.hi.u32 %p2, %a0, %b1, 0;\n\
                \tmad.lo.cc.u32 %p1, %a1, %b0, %p1;\n\tmadc.hi.cc.u32 %p2, %a1, %b0, %p2;\n\tmadc.hi.u32 %p3, %a1, %b1, 0;\n\tmad.lo.cc.u32 %p2, %a1, %b1, %p2;\n\taddc.u32 %p3, %p3, 0;\n\
                \tst.global.v4.u32 [%pd], {%p0, %p1, %p2, %p3};";
    let rows = vals
        .iter()
        .map(|&(a, b)| {
            let p = u128::from(a) * u128::from(b);
            row(&[a, b], &[p as u64, (p >> 64) as u64], "64x64->128")
        })
        .collect();
    t.t(
        "mad.lo.cc/madc.hi.cc 128-bit product",
        "\t.reg .b32 %a0, %a1, %b0, %b1, %p<4>;",
        body,
        rows,
    );
    // 64-bit subtract on 32-bit limbs plus the borrow as a mask: subc.u32 x, 0, 0
    // is 0xffffffff after a borrow out and 0 otherwise (under either carry convention).
    let body = "\tld.global.v2.u32 {%a0, %a1}, [%pa];\n\tld.global.v2.u32 {%b0, %b1}, [%pb];\n\tsub.cc.u32 %d0, %a0, %b0;\n\tsubc.cc.u32 %d1, %a1, %b1;\n\tsubc.u32 %m, 0, 0;\n\
                \tst.global.v2.u32 [%pd], {%d0, %d1};\n\tst.global.u32 [%pe], %m;";
    let rows = vals
        .iter()
        .map(|&(a, b)| {
            row(
                &[a, b],
                &[a.wrapping_sub(b), if a < b { 0xffff_ffff } else { 0 }],
                "sub chain",
            )
        })
        .collect();
    t.t(
        "sub.cc/subc.cc borrow mask",
        "\t.reg .b32 %a0, %a1, %b0, %b1, %d0, %d1, %m;",
        body,
        rows,
    );
    let rows = vals
        .iter()
        .map(|&(b, a)| {
            row(
                &[a, b],
                &[a.wrapping_sub(b), if a < b { 0xffff_ffff } else { 0 }],
                "sub chain (swapped)",
            )
        })
        .collect();
    t.t(
        "sub.cc/subc.cc borrow mask, swapped",
        "\t.reg .b32 %a0, %a1, %b0, %b1, %d0, %d1, %m;",
        body,
        rows,
    );
    // 128-bit add on 64-bit limbs: add.cc.u64 / addc.u64.
    let body = "\tld.global.v2.u64 {%a0, %a1}, [%pa];\n\tld.global.v2.u64 {%b0, %b1}, [%pc];\n\tadd.cc.u64 %d0, %a0, %b0;\n\taddc.u64 %d1, %a1, %b1;\n\tst.global.v2.u64 [%pd], {%d0, %d1};";
    let rows = [
        (u128::MAX, 1u128),
        (u128::from(u64::MAX), 1),
        (
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
            0xffff_ffff_ffff_ffff_0123_4567_89ab_cdef,
        ),
    ]
    .iter()
    .map(|&(a, b)| {
        let s = a.wrapping_add(b);
        row(
            &[a as u64, (a >> 64) as u64, b as u64, (b >> 64) as u64],
            &[s as u64, (s >> 64) as u64],
            "u64 limbs",
        )
    })
    .collect();
    t.t(
        "add.cc.u64/addc.u64",
        "\t.reg .b64 %a0, %a1, %b0, %b1, %d0, %d1;",
        body,
        rows,
    );
    t.check();
}
