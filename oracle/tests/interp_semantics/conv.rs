//! cvt in every direction, comparisons, selection and predicate logic.

use super::harness::*;

/// Body: `ld.global.{lty} %a, [%pa]; {inst} %d, %a; st.global.{sty} [%pd], %d;`.
fn un(lty: &str, inst: &str, sty: &str) -> String {
    format!("\tld.global.{lty} %a, [%pa];\n\t{inst} %d, %a;\n\tst.global.{sty} [%pd], %d;")
}

#[test]
fn cvt_float_to_int() {
    let _c = rows_of("cvt_float_to_int");
    let mut t = Tables::new();
    let nan = 0x7fc0_0000u64;
    // cvt.rni.s32.f32: round to nearest even, clamp to the s32 range, NaN -> 0.
    let rows = vec![
        row(&[f(2.5)], &[i(2)], "2.5 ties to even 2"),
        row(&[f(-2.5)], &[i(-2)], "-2.5 ties to even -2"),
        row(&[f(3.5)], &[i(4)], "3.5 ties to even 4"),
        row(&[f(0.5)], &[i(0)], "0.5 -> 0"),
        row(&[f(-0.5)], &[i(0)], "-0.5 -> 0"),
        row(&[f(1.5)], &[i(2)], "1.5 -> 2"),
        row(&[f(-1.4999999)], &[i(-1)], "-1.4999999 -> -1"),
        row(&[f(1e10)], &[i(i32::MAX)], "clamps high"),
        row(&[f(-1e10)], &[i(i32::MIN)], "clamps low"),
        row(&[f(f32::INFINITY)], &[i(i32::MAX)], "+inf"),
        row(&[f(f32::NEG_INFINITY)], &[i(i32::MIN)], "-inf"),
        row(&[nan], &[0], "NaN -> 0"),
        row(
            &[f(2147483520.0)],
            &[i(2147483520)],
            "largest f32 below 2^31",
        ),
        row(&[f(2147483648.0)], &[i(i32::MAX)], "2^31 clamps"),
        row(&[f(-2147483648.0)], &[i(i32::MIN)], "-2^31 exact"),
    ];
    t.t(
        "cvt.rni.s32.f32",
        "\t.reg .f32 %a;\n\t.reg .b32 %d;",
        &un("f32", "cvt.rni.s32.f32", "u32"),
        rows,
    );
    // cvt.rzi.u32.f32: truncation; negatives and NaN give 0; clamps at 2^32-1.
    let rows = vec![
        row(&[f(-1.5)], &[0], "negative -> 0"),
        row(&[f(-0.0)], &[0], "-0 -> 0"),
        row(&[f(-1e10)], &[0], "very negative -> 0"),
        row(&[nan], &[0], "NaN -> 0"),
        row(&[f(3.99)], &[3], "3.99 -> 3"),
        row(&[f(4294967296.0)], &[0xffff_ffff], "2^32 clamps"),
        row(&[f(4294967040.0)], &[4294967040], "largest f32 below 2^32"),
        row(&[f(0.999)], &[0], "0.999 -> 0"),
    ];
    t.t(
        "cvt.rzi.u32.f32",
        "\t.reg .f32 %a;\n\t.reg .b32 %d;",
        &un("f32", "cvt.rzi.u32.f32", "u32"),
        rows,
    );
    // Directed integer roundings.
    let rows = vec![
        row(&[f(-1.5)], &[i(-2), i(-1)], "-1.5"),
        row(&[f(1.5)], &[i(1), i(2)], "1.5"),
        row(&[f(1.1)], &[i(1), i(2)], "1.1"),
        row(&[f(-1.1)], &[i(-2), i(-1)], "-1.1"),
        row(&[f(7.0)], &[i(7), i(7)], "7"),
    ];
    t.t(
        "cvt.rmi/rpi.s32.f32",
        "\t.reg .f32 %a;\n\t.reg .b32 %d, %e;",
        "\tld.global.f32 %a, [%pa];\n\tcvt.rmi.s32.f32 %d, %a;\n\tcvt.rpi.s32.f32 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // f64 sources, 64-bit destinations.
    let rows = vec![
        row(&[d(-3.7)], &[l(-3), l(-3)], "-3.7"),
        row(
            &[d(1e19)],
            &[l(i64::MAX), l(i32::MAX as i64)],
            "1e19 clamps",
        ),
        row(
            &[d(-1e19)],
            &[l(i64::MIN), l(i32::MIN as i64)],
            "-1e19 clamps",
        ),
        row(
            &[d(2147483647.9)],
            &[l(2147483647), l(2147483647)],
            "just below 2^31",
        ),
        row(
            &[d(-2147483648.9)],
            &[l(-2147483648), l(-2147483648)],
            "just below -2^31",
        ),
        row(
            &[d(9007199254740993.0)],
            &[l(9007199254740992), l(i32::MAX as i64)],
            "2^53+1 as f64 is 2^53",
        ),
    ];
    t.t(
        "cvt.rzi.s64.f64 / cvt.rzi.s32.f64",
        "\t.reg .f64 %a;\n\t.reg .b64 %d, %e;\n\t.reg .b32 %r;",
        "\tld.global.f64 %a, [%pa];\n\tcvt.rzi.s64.f64 %d, %a;\n\tcvt.rzi.s32.f64 %r, %a;\n\tcvt.s64.s32 %e, %r;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    let rows = vec![
        row(&[d(9223372036854775808.0)], &[1 << 63], "2^63 fits u64"),
        row(&[d(-1.0)], &[0], "-1 -> 0"),
        row(&[d(2.5)], &[2], "2.5 -> 2"),
        row(&[d(1e20)], &[u64::MAX], "clamps"),
    ];
    t.t(
        "cvt.rni.u64.f64",
        "\t.reg .f64 %a;\n\t.reg .b64 %d;",
        &un("f64", "cvt.rni.u64.f64", "u64"),
        rows,
    );
    // f32 -> narrow integer: cvt.rzi.s16.f32 clamps to s16, stored from a .b16 register.
    let rows = vec![
        row(&[f(40000.0)], &[0x7fff], "clamps to 32767"),
        row(&[f(-40000.0)], &[0x8000], "clamps to -32768"),
        row(&[f(-2.9)], &[0xfffe], "-2"),
    ];
    t.t(
        "cvt.rzi.s16.f32",
        "\t.reg .f32 %a;\n\t.reg .b16 %d;",
        &un("f32", "cvt.rzi.s16.f32", "u16"),
        rows,
    );
    let rows = vec![
        row(&[f(300.0)], &[255], "clamps to 255"),
        row(&[f(-3.0)], &[0], "negative -> 0"),
        row(&[f(17.5)], &[18], "17.5 ties to 18"),
    ];
    t.t(
        "cvt.rni.u8.f32",
        "\t.reg .f32 %a;\n\t.reg .b32 %d;",
        &un("f32", "cvt.rni.u8.f32", "u32"),
        rows,
    );
    t.check();
}

#[test]
fn cvt_float_to_float_and_int_to_float() {
    let _c = rows_of("cvt_float_to_float_and_int_to_float");
    let mut t = Tables::new();
    // cvt.{rn,rz,rm,rp}.f32.f64. x = 1 + 2^-24 + 2^-30 lies just above the
    // midpoint between 1 and 1 + 2^-23: rn and rp give 0x3f800001, rz and rm 1.0.
    let p = |e: i32| 2f64.powi(e);
    let x = 1.0 + p(-24) + p(-30);
    let rows = vec![
        row(
            &[d(x)],
            &[
                0x3f80_0001 | (0x3f80_0000 << 32),
                0x3f80_0000 | (0x3f80_0001 << 32),
            ],
            "1+2^-24+2^-30",
        ),
        row(
            &[d(-x)],
            &[
                0xbf80_0001 | (0xbf80_0000 << 32),
                0xbf80_0001 | (0xbf80_0000 << 32),
            ],
            "-(1+2^-24+2^-30)",
        ),
        // Exact midpoint 1 + 2^-24: rn ties to even (1.0).
        row(
            &[d(1.0 + p(-24))],
            &[
                0x3f80_0000 | (0x3f80_0000 << 32),
                0x3f80_0000 | (0x3f80_0001 << 32),
            ],
            "tie 1+2^-24",
        ),
        // Midpoint 1 + 3*2^-24 between 1+2^-23 (odd) and 1+2^-22 (even): rn -> 1+2^-22.
        row(
            &[d(1.0 + 3.0 * p(-24))],
            &[
                0x3f80_0002 | (0x3f80_0001 << 32),
                0x3f80_0001 | (0x3f80_0002 << 32),
            ],
            "tie 1+3*2^-24",
        ),
        // Overflow: rn/rp -> inf, rz/rm -> largest finite.
        row(
            &[d(1e300)],
            &[
                0x7f80_0000 | (0x7f7f_ffff << 32),
                0x7f7f_ffff | (0x7f80_0000 << 32),
            ],
            "1e300",
        ),
        row(
            &[d(-1e300)],
            &[
                0xff80_0000 | (0xff7f_ffff << 32),
                0xff80_0000 | (0xff7f_ffff << 32),
            ],
            "-1e300",
        ),
        // 1e-45 is above half the smallest subnormal (2^-149 ~ 1.4e-45): rn -> 0x1, rz -> 0.
        row(&[d(1e-45)], &[0x0000_0001, 0x0000_0001 << 32], "1e-45"),
        // Exact: 0.5 converts exactly under every rounding.
        row(
            &[d(0.5)],
            &[
                0x3f00_0000 | (0x3f00_0000 << 32),
                0x3f00_0000 | (0x3f00_0000 << 32),
            ],
            "0.5",
        ),
    ];
    t.t(
        "cvt.rn/rz/rm/rp.f32.f64",
        "\t.reg .f64 %a;\n\t.reg .f32 %d<4>;",
        "\tld.global.f64 %a, [%pa];\n\tcvt.rn.f32.f64 %d0, %a;\n\tcvt.rz.f32.f64 %d1, %a;\n\tcvt.rm.f32.f64 %d2, %a;\n\tcvt.rp.f32.f64 %d3, %a;\n\
         \tst.global.v2.f32 [%pd], {%d0, %d1};\n\tst.global.v2.f32 [%pe], {%d2, %d3};",
        rows,
    );
    // Host `as` rounds to nearest even: independent check on more values.
    let mut rows = Vec::new();
    for v in [
        0.1f64,
        1.0 / 3.0,
        -2.0 / 3.0,
        123456.789,
        1e-40,
        3.4028235677973366e38,
    ] {
        rows.push(row(&[d(v)], &[f(v as f32)], "host f64 as f32"));
    }
    t.t(
        "cvt.rn.f32.f64 vs host",
        "\t.reg .f64 %a;\n\t.reg .f32 %d;",
        &un("f64", "cvt.rn.f32.f64", "f32"),
        rows,
    );
    // cvt.f64.f32 is exact.
    let mut rows = Vec::new();
    for v in [0.1f32, -3.5, f32::MAX, f32::from_bits(1), f32::INFINITY] {
        rows.push(row(&[f(v)], &[d(f64::from(v))], "exact widening"));
    }
    t.t(
        "cvt.f64.f32",
        "\t.reg .f32 %a;\n\t.reg .f64 %d;",
        &un("f32", "cvt.f64.f32", "f64"),
        rows,
    );
    // cvt.rn.ftz.f32.f64 flushes a subnormal result to (signed) zero.
    t.t(
        "cvt.rn.ftz.f32.f64",
        "\t.reg .f64 %a;\n\t.reg .f32 %d;",
        &un("f64", "cvt.rn.ftz.f32.f64", "f32"),
        vec![
            row(&[d(1e-40)], &[0], "1e-40 flushed"),
            row(&[d(-1e-40)], &[0x8000_0000], "-1e-40 flushed to -0"),
            row(&[d(1.0)], &[f(1.0)], "1"),
        ],
    );
    // int -> f32: 16777217 is not representable: rn -> 16777216, 16777219 ties
    // to even 16777220; rz truncates.
    let rows = vec![
        row(&[i(16777217)], &[f(16777216.0), f(16777216.0)], "2^24+1"),
        row(&[i(16777219)], &[f(16777220.0), f(16777218.0)], "2^24+3"),
        row(
            &[i(-16777217)],
            &[f(-16777216.0), f(-16777216.0)],
            "-(2^24+1)",
        ),
        row(&[i(-5)], &[f(-5.0), f(-5.0)], "-5 loaded with ld.u32"),
        row(
            &[i(i32::MIN)],
            &[f(-2147483648.0), f(-2147483648.0)],
            "INT_MIN",
        ),
    ];
    t.t(
        "cvt.rn/rz.f32.s32",
        "\t.reg .b32 %a;\n\t.reg .f32 %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.rn.f32.s32 %d, %a;\n\tcvt.rz.f32.s32 %e, %a;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        rows,
    );
    // u32 0xffffffff: rn -> 2^32 (0x4f800000), rz -> 4294967040 (0x4f7fffff).
    let rows = vec![
        row(&[0xffff_ffff], &[0x4f80_0000, 0x4f7f_ffff], "0xffffffff"),
        row(&[0x8000_0000], &[0x4f00_0000, 0x4f00_0000], "2^31"),
    ];
    t.t(
        "cvt.rn/rz.f32.u32",
        "\t.reg .b32 %a;\n\t.reg .f32 %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.rn.f32.u32 %d, %a;\n\tcvt.rz.f32.u32 %e, %a;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        rows,
    );
    // 64-bit integers to f64: u64::MAX rn -> 2^64 (0x43f0000000000000), rz -> 0x43efffffffffffff.
    let rows = vec![
        row(
            &[u64::MAX],
            &[0x43f0_0000_0000_0000, 0x43ef_ffff_ffff_ffff],
            "u64 max",
        ),
        row(
            &[1 << 63],
            &[d(9223372036854775808.0), d(9223372036854775808.0)],
            "2^63",
        ),
    ];
    t.t(
        "cvt.rn/rz.f64.u64",
        "\t.reg .b64 %a;\n\t.reg .f64 %d, %e;",
        "\tld.global.u64 %a, [%pa];\n\tcvt.rn.f64.u64 %d, %a;\n\tcvt.rz.f64.u64 %e, %a;\n\tst.global.f64 [%pd], %d;\n\tst.global.f64 [%pe], %e;",
        rows,
    );
    let rows = vec![
        row(&[l(i64::MIN)], &[d(-9223372036854775808.0)], "i64 min"),
        row(&[l(-3)], &[d(-3.0)], "-3"),
    ];
    t.t(
        "cvt.rn.f64.s64",
        "\t.reg .b64 %a;\n\t.reg .f64 %d;",
        &un("u64", "cvt.rn.f64.s64", "f64"),
        rows,
    );
    // Small integer sources: cvt.rn.f32.s16 of 0x8000 is -32768, cvt.rn.f32.u16 is 32768.
    t.t(
        "cvt.rn.f32.s16/u16",
        "\t.reg .b16 %a;\n\t.reg .f32 %d, %e;",
        "\tld.global.u16 %a, [%pa];\n\tcvt.rn.f32.s16 %d, %a;\n\tcvt.rn.f32.u16 %e, %a;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![row(&[0x8000], &[f(-32768.0), f(32768.0)], "0x8000"), row(&[0xffff], &[f(-1.0), f(65535.0)], "0xffff")],
    );
    // f32 <-> f16 through .b16 registers.
    let rows = vec![
        row(&[f(1.0)], &[0x3c00, 0x3c00], "1.0"),
        row(
            &[f(65520.0)],
            &[0x7c00, 0x7bff],
            "65520: rn overflows to inf, rz gives max",
        ),
        row(&[f(65519.0)], &[0x7bff, 0x7bff], "65519"),
        row(&[f(1.0 / 3.0)], &[0x3555, 0x3555], "1/3"),
        row(
            &[f(2f32.powi(-25))],
            &[0x0000, 0x0000],
            "2^-25 ties to even 0",
        ),
        row(
            &[f(3.0 * 2f32.powi(-26))],
            &[0x0001, 0x0000],
            "0.75 * 2^-24 rounds up to 2^-24",
        ),
        row(&[f(-2.0)], &[0xc000, 0xc000], "-2"),
    ];
    t.t(
        "cvt.rn/rz.f16.f32",
        "\t.reg .f32 %a;\n\t.reg .b16 %d, %e;",
        "\tld.global.f32 %a, [%pa];\n\tcvt.rn.f16.f32 %d, %a;\n\tcvt.rz.f16.f32 %e, %a;\n\tst.global.b16 [%pd], %d;\n\tst.global.b16 [%pe], %e;",
        rows,
    );
    let rows = vec![
        row(&[0x3c01], &[f(1.0009765625)], "1 + 2^-10"),
        row(&[0x0001], &[f(2f32.powi(-24))], "smallest subnormal"),
        row(&[0xfc00], &[f(f32::NEG_INFINITY)], "-inf"),
        row(&[0x7bff], &[f(65504.0)], "max"),
    ];
    t.t(
        "cvt.f32.f16",
        "\t.reg .b16 %a;\n\t.reg .f32 %d;",
        &un("b16", "cvt.f32.f16", "f32"),
        rows,
    );
    // Round to integral in float: cvt.rni.f32.f32 (2.5 -> 2, -0.5 -> -0).
    let rows = vec![
        row(
            &[f(2.5)],
            &[f(2.0) | (f(2.0) << 32), f(2.0) | (f(3.0) << 32)],
            "2.5",
        ),
        row(
            &[f(-0.5)],
            &[
                0x8000_0000 | (0x8000_0000 << 32),
                f(-1.0) | (0x8000_0000 << 32),
            ],
            "-0.5",
        ),
        row(
            &[f(-1.7)],
            &[f(-2.0) | (f(-1.0) << 32), f(-2.0) | (f(-1.0) << 32)],
            "-1.7",
        ),
        row(
            &[f(1e20)],
            &[f(1e20) | (f(1e20) << 32), f(1e20) | (f(1e20) << 32)],
            "already integral",
        ),
    ];
    t.t(
        "cvt.rni/rzi/rmi/rpi.f32.f32",
        "\t.reg .f32 %a, %d<4>;",
        "\tld.global.f32 %a, [%pa];\n\tcvt.rni.f32.f32 %d0, %a;\n\tcvt.rzi.f32.f32 %d1, %a;\n\tcvt.rmi.f32.f32 %d2, %a;\n\tcvt.rpi.f32.f32 %d3, %a;\n\
         \tst.global.v2.f32 [%pd], {%d0, %d1};\n\tst.global.v2.f32 [%pe], {%d2, %d3};",
        rows,
    );
    t.t(
        "cvt.rni.f64.f64",
        "\t.reg .f64 %a, %d;",
        &un("f64", "cvt.rni.f64.f64", "f64"),
        vec![
            row(&[d(2.5)], &[d(2.0)], "2.5"),
            row(&[d(-3.5)], &[d(-4.0)], "-3.5"),
        ],
    );
    // cvt.sat.f32.f32 clamps to [0, 1], NaN -> +0.
    t.t(
        "cvt.sat.f32.f32",
        "\t.reg .f32 %a, %d;",
        &un("f32", "cvt.sat.f32.f32", "f32"),
        vec![
            row(&[f(1.5)], &[f(1.0)], "1.5"),
            row(&[f(-0.5)], &[0], "-0.5"),
            row(&[0x7fc0_0000], &[0], "NaN"),
            row(&[f(0.25)], &[f(0.25)], "0.25"),
        ],
    );
    t.check();
}

#[test]
fn cvt_int_to_int() {
    let _c = rows_of("cvt_int_to_int");
    let mut t = Tables::new();
    // cvt.u8.s32 truncates; the .b32 destination register is zero-extended
    // (ISA: a destination wider than the type is zero-extended for unsigned
    // types and sign-extended for signed types). cvt.sat.u8.s32 clamps to [0, 255].
    let rows = vec![
        row(&[i(300)], &[0x2c, 255], "300"),
        row(&[i(-1)], &[0xff, 0], "-1"),
        row(&[i(0x1ff)], &[0xff, 255], "0x1ff"),
        row(&[i(100)], &[100, 100], "100"),
        row(&[i(-5)], &[0xfb, 0], "-5"),
    ];
    t.t(
        "cvt.u8.s32 / cvt.sat.u8.s32",
        "\t.reg .b32 %a, %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.u8.s32 %d, %a;\n\tcvt.sat.u8.s32 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // cvt.s8.s32: truncate then sign-extend into the 32-bit register.
    let rows = vec![
        row(&[i(0x80)], &[0xffff_ff80, 127], "0x80"),
        row(&[i(0x17f)], &[0x7f, 127], "0x17f"),
        row(&[i(-200)], &[0x38, 0xffff_ff80], "-200"),
        row(&[i(-3)], &[0xffff_fffd, 0xffff_fffd], "-3"),
    ];
    t.t(
        "cvt.s8.s32 / cvt.sat.s8.s32",
        "\t.reg .b32 %a, %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.s8.s32 %d, %a;\n\tcvt.sat.s8.s32 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // Widening: the source type decides sign vs zero extension.
    let rows = vec![
        row(
            &[i(-5)],
            &[0xffff_ffff_ffff_fffb, 0x0000_0000_ffff_fffb],
            "-5",
        ),
        row(&[i(7)], &[7, 7], "7"),
        row(
            &[0x8000_0000],
            &[0xffff_ffff_8000_0000, 0x8000_0000],
            "0x80000000",
        ),
    ];
    t.t(
        "cvt.s64.s32 / cvt.u64.u32",
        "\t.reg .b32 %a;\n\t.reg .b64 %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.s64.s32 %d, %a;\n\tcvt.u64.u32 %e, %a;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    let rows = vec![row(&[i(-1)], &[u64::MAX, 0xffff_ffff], "-1")];
    t.t(
        "cvt.u64.s32 / cvt.s64.u32",
        "\t.reg .b32 %a;\n\t.reg .b64 %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.u64.s32 %d, %a;\n\tcvt.s64.u32 %e, %a;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    // A negative value computed by sub.s32 (signed instruction type), then
    // zero-extended by cvt.u64.u32: only its 32 bits count.
    let rows = vec![row(
        &[i(5)],
        &[0x0000_0000_ffff_fffb, 0xffff_ffff_ffff_fffb],
        "0 - 5",
    )];
    t.t(
        "sub.s32 result into cvt.u64.u32",
        "\t.reg .b32 %a, %b;\n\t.reg .b64 %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tsub.s32 %b, 0, %a;\n\tcvt.u64.u32 %d, %b;\n\tcvt.s64.s32 %e, %b;\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    // Narrowing from 64 bits: truncation vs .sat.
    let rows = vec![
        row(&[0x1_8000_0000], &[0x8000_0000, 0x7fff_ffff], "0x180000000"),
        row(&[l(-(1 << 40))], &[0, 0x8000_0000], "-2^40"),
        row(&[l(-7)], &[0xffff_fff9, 0xffff_fff9], "-7"),
    ];
    t.t(
        "cvt.s32.s64 / cvt.sat.s32.s64",
        "\t.reg .b64 %a;\n\t.reg .b32 %d, %e;",
        "\tld.global.u64 %a, [%pa];\n\tcvt.s32.s64 %d, %a;\n\tcvt.sat.s32.s64 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    let rows = vec![
        row(&[l(-1)], &[0, 0xffff_ffff], "-1"),
        row(&[0x1_0000_0000], &[0xffff_ffff, 0xffff_ffff], "2^32"),
    ];
    t.t(
        "cvt.sat.u32.s64 / cvt.sat.u32.u64",
        "\t.reg .b64 %a;\n\t.reg .b32 %d, %e;",
        "\tld.global.u64 %a, [%pa];\n\tcvt.sat.u32.s64 %d, %a;\n\tcvt.sat.u32.u64 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    let rows = vec![row(&[0xffff_ffff], &[0x7fff_ffff, 0], "0xffffffff")];
    t.t(
        "cvt.sat.s32.u32 / cvt.sat.u32.s32",
        "\t.reg .b32 %a, %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.sat.s32.u32 %d, %a;\n\tcvt.sat.u32.s32 %e, %a;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // Narrow sources read only their own bits: cvt.s32.s8 of 0x1ff is -1;
    // cvt.s32.s16 of 0x8000 is -32768; cvt.u32.u16 of 0x12345 is 0x2345.
    let rows = vec![
        row(
            &[0x0001_01ff],
            &[
                0xffff_ffff | (0x0000_01ff << 32),
                0x0000_00ff | (0x0000_01ff << 32),
            ],
            "0x101ff",
        ),
        row(
            &[0x0001_8000],
            &[0xffff_8000 << 32, 0x0000_8000 << 32],
            "0x18000",
        ),
    ];
    t.t(
        "cvt.s32.s8/s16, cvt.u32.u8/u16",
        "\t.reg .b32 %a, %d<4>;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.s32.s8 %d0, %a;\n\tcvt.s32.s16 %d1, %a;\n\tcvt.u32.u8 %d2, %a;\n\tcvt.u32.u16 %d3, %a;\n\
         \tst.global.v2.u32 [%pd], {%d0, %d1};\n\tst.global.v2.u32 [%pe], {%d2, %d3};",
        rows,
    );
    // Into .b16 registers: cvt.u16.u32 truncates; cvt.s16.s32 then cvt.s32.s16 round-trips the sign.
    let rows = vec![
        row(&[0x1_2345], &[0x2345, 0x2345], "0x12345"),
        row(&[0x0000_8001], &[0x8001, 0xffff_8001], "0x8001"),
    ];
    t.t(
        "cvt.u16.u32, cvt.s16.s32 -> cvt.s32.s16",
        "\t.reg .b32 %a, %e;\n\t.reg .b16 %d, %h;",
        "\tld.global.u32 %a, [%pa];\n\tcvt.u16.u32 %d, %a;\n\tcvt.s16.s32 %h, %a;\n\tcvt.s32.s16 %e, %h;\n\tst.global.u16 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    t.check();
}

/// Stores 1 (p true) or 2 (p false) at [%pd], through guarded stores.
const STORE_P: &str = "\t@%p st.global.u32 [%pd], 1;\n\t@!%p st.global.u32 [%pd], 2;";
const STORE_Q: &str = "\t@%q st.global.u32 [%pe], 1;\n\t@!%q st.global.u32 [%pe], 2;";
fn tf(b: bool) -> u64 {
    if b {
        1
    } else {
        2
    }
}

#[test]
fn setp_integer_and_float() {
    let _c = rows_of("setp_integer_and_float");
    let mut t = Tables::new();
    // setp.lt.s64 vs setp.lt.u64 on the same bits.
    let mut rows = Vec::new();
    for (a, b) in [
        (-1i64, 0i64),
        (i64::MIN, i64::MAX),
        (5, 5),
        (0x1_0000_0000, 0xffff_ffff),
        (-2, -1),
    ] {
        rows.push(row(
            &[l(a), l(b)],
            &[tf(a < b), tf((a as u64) < (b as u64))],
            "lt.s64/u64",
        ));
    }
    t.t(
        "setp.lt.s64 / setp.lt.u64",
        "\t.reg .b64 %a, %b;\n\t.reg .pred %p, %q;",
        &format!("\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tsetp.lt.s64 %p, %a, %b;\n\tsetp.lt.u64 %q, %a, %b;\n{STORE_P}\n{STORE_Q}"),
        rows,
    );
    // 32-bit: unsigned compares see 0x80000000 as large.
    let mut rows = Vec::new();
    for (a, b) in [
        (0x8000_0000u32, 1u32),
        (1, 0x8000_0000),
        (0xffff_ffff, 0),
        (3, 3),
        (7, 9),
    ] {
        rows.push(row(
            &[a.into(), b.into()],
            &[tf(a < b), tf((a as i32) < (b as i32))],
            "lt.u32/s32",
        ));
    }
    t.t(
        "setp.lt.u32 / setp.lt.s32",
        "\t.reg .b32 %a, %b;\n\t.reg .pred %p, %q;",
        &format!("\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tsetp.lt.u32 %p, %a, %b;\n\tsetp.lt.s32 %q, %a, %b;\n{STORE_P}\n{STORE_Q}"),
        rows,
    );
    // Every integer comparison on (a, b) = (-1, 1) as s32 and as u32 (lo/ls/hi/hs).
    let ops: [(&str, fn(i32, i32) -> bool); 6] = [
        ("eq.s32", |a, b| a == b),
        ("ne.s32", |a, b| a != b),
        ("le.s32", |a, b| a <= b),
        ("gt.s32", |a, b| a > b),
        ("ge.s32", |a, b| a >= b),
        ("lt.s32", |a, b| a < b),
    ];
    let uops: [(&str, fn(u32, u32) -> bool); 4] = [
        ("lo.u32", |a, b| a < b),
        ("ls.u32", |a, b| a <= b),
        ("hi.u32", |a, b| a > b),
        ("hs.u32", |a, b| a >= b),
    ];
    for (name, op) in ops {
        let mut rows = Vec::new();
        for (a, b) in [(-1i32, 1i32), (1, -1), (4, 4)] {
            rows.push(row(&[i(a), i(b)], &[tf(op(a, b))], name));
        }
        t.t(
            &format!("setp.{name}"),
            "\t.reg .b32 %a, %b;\n\t.reg .pred %p;",
            &format!("\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tsetp.{name} %p, %a, %b;\n{STORE_P}"),
            rows,
        );
    }
    for (name, op) in uops {
        let mut rows = Vec::new();
        for (a, b) in [(0xffff_ffffu32, 1u32), (1, 0xffff_ffff), (4, 4)] {
            rows.push(row(&[a.into(), b.into()], &[tf(op(a, b))], name));
        }
        t.t(
            &format!("setp.{name}"),
            "\t.reg .b32 %a, %b;\n\t.reg .pred %p;",
            &format!("\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tsetp.{name} %p, %a, %b;\n{STORE_P}"),
            rows,
        );
    }
    // 16-bit compares on .b16 registers: setp.lt.s16 of 0x8000 vs 1 is true, setp.lt.u16 false.
    t.t(
        "setp.lt.s16 / u16",
        "\t.reg .b16 %a, %b;\n\t.reg .pred %p, %q;",
        &format!("\tld.global.u16 %a, [%pa];\n\tld.global.u16 %b, [%pb];\n\tsetp.lt.s16 %p, %a, %b;\n\tsetp.lt.u16 %q, %a, %b;\n{STORE_P}\n{STORE_Q}"),
        vec![row(&[0x8000, 1], &[1, 2], "0x8000 < 1"), row(&[1, 0xffff], &[2, 1], "1 < 0xffff")],
    );
    // Comparison against an immediate: setp.gt.s32 %p, %a, -1.
    t.t(
        "setp.gt.s32 imm -1",
        "\t.reg .b32 %a;\n\t.reg .pred %p;",
        &format!("\tld.global.u32 %a, [%pa];\n\tsetp.gt.s32 %p, %a, -1;\n{STORE_P}"),
        vec![
            row(&[i(0)], &[1], "0 > -1"),
            row(&[i(-1)], &[2], "-1 > -1"),
            row(&[i(-2)], &[2], "-2"),
            row(&[0x7fff_ffff], &[1], "max"),
        ],
    );
    // Float compares: ordered ones are false on NaN; the u-forms are true.
    let nan = f32::NAN;
    let fops: [(&str, fn(f32, f32) -> bool); 14] = [
        ("eq", |a, b| a == b),
        ("ne", |a, b| a != b && !a.is_nan() && !b.is_nan()),
        ("lt", |a, b| a < b),
        ("le", |a, b| a <= b),
        ("gt", |a, b| a > b),
        ("ge", |a, b| a >= b),
        ("equ", |a, b| a == b || a.is_nan() || b.is_nan()),
        ("neu", |a, b| a != b),
        ("ltu", |a, b| !(a >= b)),
        ("leu", |a, b| !(a > b)),
        ("gtu", |a, b| !(a <= b)),
        ("geu", |a, b| !(a < b)),
        ("num", |a, b| !a.is_nan() && !b.is_nan()),
        ("nan", |a, b| a.is_nan() || b.is_nan()),
    ];
    for (name, op) in fops {
        let mut rows = Vec::new();
        for (a, b) in [
            (1.0f32, 2.0f32),
            (2.0, 1.0),
            (1.0, 1.0),
            (nan, 1.0),
            (1.0, nan),
            (-0.0, 0.0),
            (f32::NEG_INFINITY, -1e38),
        ] {
            rows.push(row(&[f(a), f(b)], &[tf(op(a, b))], name));
        }
        t.t(
            &format!("setp.{name}.f32"),
            "\t.reg .f32 %a, %b;\n\t.reg .pred %p;",
            &format!("\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tsetp.{name}.f32 %p, %a, %b;\n{STORE_P}"),
            rows,
        );
    }
    // f64 compare.
    t.t(
        "setp.lt.f64",
        "\t.reg .f64 %a, %b;\n\t.reg .pred %p;",
        &format!("\tld.global.f64 %a, [%pa];\n\tld.global.f64 %b, [%pb];\n\tsetp.lt.f64 %p, %a, %b;\n{STORE_P}"),
        vec![row(&[d(1.0), d(1.0 + f64::EPSILON)], &[1], "1 < 1+eps"), row(&[d(f64::NAN), d(1.0)], &[2], "NaN")],
    );
    t.check();
}

#[test]
fn setp_two_destinations_and_bool_ops() {
    let _c = rows_of("setp_two_destinations_and_bool_ops");
    let mut t = Tables::new();
    // setp.CMP.BOOL %p|%q, a, b, c: p = (a CMP b) BOOL c, q = !(a CMP b) BOOL c
    // (ISA setp). c is the predicate "slot c != 0".
    for (bop, f_) in [
        ("and", (|x: bool, y: bool| x && y) as fn(bool, bool) -> bool),
        ("or", |x, y| x || y),
        ("xor", |x, y| x ^ y),
    ] {
        let mut rows = Vec::new();
        for (a, b, c) in [
            (1i32, 1i32, 1u64),
            (1, 2, 1),
            (1, 1, 0),
            (1, 2, 0),
            (-1, -1, 1),
        ] {
            let cmp = a == b;
            let cb = c != 0;
            rows.push(row(
                &[i(a), i(b), c],
                &[tf(f_(cmp, cb)), tf(f_(!cmp, cb))],
                bop,
            ));
        }
        t.t(
            &format!("setp.eq.{bop}.s32 p|q"),
            "\t.reg .b32 %a, %b, %c;\n\t.reg .pred %p, %q, %r;",
            &format!(
                "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tsetp.ne.u32 %r, %c, 0;\n\
                 \tsetp.eq.{bop}.s32 %p|%q, %a, %b, %r;\n{STORE_P}\n{STORE_Q}"
            ),
            rows,
        );
    }
    // Negated bool operand: setp.lt.and.s32 %p|%q, a, b, !%r.
    let mut rows = Vec::new();
    for (a, b, c) in [(1i32, 2i32, 0u64), (1, 2, 1), (3, 2, 0)] {
        let cmp = a < b;
        let nc = c == 0;
        rows.push(row(
            &[i(a), i(b), c],
            &[tf(cmp && nc), tf(!cmp && nc)],
            "and !c",
        ));
    }
    t.t(
        "setp.lt.and.s32 with !c",
        "\t.reg .b32 %a, %b, %c;\n\t.reg .pred %p, %q, %r;",
        &format!(
            "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tsetp.ne.u32 %r, %c, 0;\n\
             \tsetp.lt.and.s32 %p|%q, %a, %b, !%r;\n{STORE_P}\n{STORE_Q}"
        ),
        rows,
    );
    // Float two-destination form with NaN: cmp is false, so q = true AND c.
    t.t(
        "setp.lt.and.f32 p|q with NaN",
        "\t.reg .f32 %a, %b;\n\t.reg .pred %p, %q, %r;",
        &format!("\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tsetp.eq.f32 %r, %a, %a;\n\tsetp.lt.or.f32 %p|%q, %a, %b, %r;\n{STORE_P}\n{STORE_Q}"),
        // r = (a == a): false for NaN. p = (a<b) OR r, q = !(a<b) OR r.
        vec![row(&[f(f32::NAN), f(1.0)], &[2, 1], "NaN: p = F|F, q = T|F"), row(&[f(0.0), f(1.0)], &[1, 1], "0 < 1 and r")],
    );
    // Predicate logic: and/or/xor/not/mov.pred.
    let mut rows = Vec::new();
    for (x, y) in [(0u64, 0u64), (0, 1), (1, 0), (1, 1)] {
        let (a, b) = (x != 0, y != 0);
        let bits = u64::from(a & b)
            | u64::from(a | b) << 1
            | u64::from(a ^ b) << 2
            | u64::from(!a) << 3
            | u64::from(b) << 4;
        rows.push(row(&[x, y], &[bits], "pred ops"));
    }
    t.t(
        "and/or/xor/not/mov.pred",
        "\t.reg .b32 %a, %b, %d;\n\t.reg .pred %x, %y, %p<5>;\n\t.reg .b32 %s<5>;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tsetp.ne.u32 %x, %a, 0;\n\tsetp.ne.u32 %y, %b, 0;\n\
         \tand.pred %p0, %x, %y;\n\tor.pred %p1, %x, %y;\n\txor.pred %p2, %x, %y;\n\tnot.pred %p3, %x;\n\tmov.pred %p4, %y;\n\
         \tselp.u32 %s0, 1, 0, %p0;\n\tselp.u32 %s1, 2, 0, %p1;\n\tselp.u32 %s2, 4, 0, %p2;\n\tselp.u32 %s3, 8, 0, %p3;\n\tselp.u32 %s4, 16, 0, %p4;\n\
         \tor.b32 %d, %s0, %s1;\n\tor.b32 %d, %d, %s2;\n\tor.b32 %d, %d, %s3;\n\tor.b32 %d, %d, %s4;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    t.check();
}

#[test]
fn selp_slct_set() {
    let _c = rows_of("selp_slct_set");
    let mut t = Tables::new();
    // selp.b32 d, a, b, p: p ? a : b.
    let mut rows = Vec::new();
    for (a, b, c) in [(11u64, 22u64, 1u64), (11, 22, 0), (0xffff_ffff, 0, 5)] {
        rows.push(row(&[a, b, c], &[if c != 0 { a } else { b }], "selp.b32"));
    }
    t.t(
        "selp.b32",
        "\t.reg .b32 %a, %b, %c, %d;\n\t.reg .pred %p;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tsetp.ne.u32 %p, %c, 0;\n\tselp.b32 %d, %a, %b, %p;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    // selp.s32 with immediates; selp.b64; selp.f32.
    t.t(
        "selp.s32 imm / selp.b64 / selp.f32",
        "\t.reg .b32 %c, %d;\n\t.reg .b64 %x, %y, %e;\n\t.reg .f32 %f, %g;\n\t.reg .pred %p;",
        "\tld.global.u32 %c, [%pc];\n\tsetp.ne.u32 %p, %c, 0;\n\tselp.s32 %d, -7, 9, %p;\n\tld.global.u64 %x, [%pa];\n\tld.global.u64 %y, [%pb];\n\tselp.b64 %e, %x, %y, %p;\n\
         \tselp.f32 %f, 0f3F800000, 0fC0000000, %p;\n\tst.global.u32 [%pd], %d;\n\tst.global.f32 [%pd+4], %f;\n\tst.global.u64 [%pe], %e;",
        vec![
            row(&[0x1_0000_0001, 0x2_0000_0002, 1], &[i(-7) | (f(1.0) << 32), 0x1_0000_0001], "p true"),
            row(&[0x1_0000_0001, 0x2_0000_0002, 0], &[9 | (f(-2.0) << 32), 0x2_0000_0002], "p false"),
        ],
    );
    // slct.s32.s32 d, a, b, c: c >= 0 ? a : b.
    let mut rows = Vec::new();
    for c in [0i32, 1, -1, i32::MIN, i32::MAX] {
        rows.push(row(
            &[100, 200, i(c)],
            &[if c >= 0 { 100 } else { 200 }],
            "slct.s32",
        ));
    }
    t.t(
        "slct.u32.s32",
        "\t.reg .b32 %a, %b, %c, %d;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tslct.u32.s32 %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    // slct.u32.f32: c >= 0.0 ? a : b. -0.0 >= 0 holds (negative zero equals
    // zero); NaN compares false, so b.
    let mut rows = Vec::new();
    for c in [
        0.0f32,
        -0.0,
        1.5,
        -1.5,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ] {
        let ge = c >= 0.0;
        rows.push(row(
            &[100, 200, f(c)],
            &[if ge { 100 } else { 200 }],
            &format!("slct.f32 c={c}"),
        ));
    }
    t.t(
        "slct.u32.f32",
        "\t.reg .b32 %a, %b, %d;\n\t.reg .f32 %c;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.f32 %c, [%pc];\n\tslct.u32.f32 %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    // set.lt.u32.s32 writes 0xffffffff/0; set.lt.f32.s32 writes 1.0f/0.0f;
    // set.ge.u32.f32 on floats.
    let mut rows = Vec::new();
    for (a, b) in [(-1i32, 1i32), (1, -1), (2, 2)] {
        let lt = a < b;
        rows.push(row(
            &[i(a), i(b)],
            &[if lt { 0xffff_ffff } else { 0 } | (if lt { f(1.0) } else { 0 } << 32)],
            "set",
        ));
    }
    t.t(
        "set.lt.u32.s32 / set.lt.f32.s32",
        "\t.reg .b32 %a, %b, %d;\n\t.reg .f32 %e;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tset.lt.u32.s32 %d, %a, %b;\n\tset.lt.f32.s32 %e, %a, %b;\n\tst.global.u32 [%pd], %d;\n\tst.global.f32 [%pd+4], %e;",
        rows,
    );
    t.t(
        "set.ge.u32.f32 / set.eq.and.u32.u32",
        "\t.reg .f32 %a, %b;\n\t.reg .b32 %d, %e, %x, %c;\n\t.reg .pred %p;",
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tsetp.ne.u32 %p, %c, 0;\n\tset.ge.u32.f32 %d, %a, %b;\n\
         \tmov.b32 %x, %a;\n\tset.eq.and.u32.u32 %e, %x, %x, %p;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        vec![
            row(&[f(2.0), f(1.0), 1], &[0xffff_ffff, 0xffff_ffff], "2 >= 1, c"),
            row(&[f(f32::NAN), f(1.0), 0], &[0, 0], "NaN, !c"),
            row(&[f(1.0), f(1.0), 0], &[0xffff_ffff, 0], "1 >= 1, !c"),
        ],
    );
    t.check();
}
