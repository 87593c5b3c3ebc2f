//! Floating-point arithmetic: rounding modes, fma vs separate rounding,
//! min/max special cases, testp, f16 through .b16 registers.

use super::harness::*;

const F3: &str = "\t.reg .f32 %a, %b, %c, %d, %e;";
const D3: &str = "\t.reg .f64 %a, %b, %c, %d, %e;";

fn bin(ty: &str, op: &str) -> String {
    format!("\tld.global.{ty} %a, [%pa];\n\tld.global.{ty} %b, [%pb];\n\t{op} %d, %a, %b;\n\tst.global.{ty} [%pd], %d;")
}

const CANON_NAN: u64 = 0x7fff_ffff;

/// A host f32 result as the GPU writes it: NaN results are the canonical
/// NaN 0x7fffffff (docs/SEMANTICS.md, NaNs; CUDA programming guide), not the host's.
fn fc(x: f32) -> u64 {
    if x.is_nan() {
        CANON_NAN
    } else {
        f(x)
    }
}

#[test]
fn f32_basic_arithmetic_against_host() {
    let _c = rows_of("f32_basic_arithmetic_against_host");
    let mut t = Tables::new();
    // Host f32 arithmetic is IEEE round-to-nearest-even, like the .rn forms
    // (and the unsuffixed forms, which round to nearest without fusing).
    let pairs = [
        (1.0f32, 2.0f32),
        (0.1, 0.2),
        (1e38, 1e38),
        (-3.5, 1.25),
        (1.0, 3.0),
        (f32::from_bits(1), 0.5),
        (123456.7, -0.001),
        (-0.0, 0.0),
        (f32::MAX, -f32::MAX),
    ];
    type FOp = fn(f32, f32) -> f32;
    for (name, op) in [
        ("add.rn.f32", (|a, b| a + b) as FOp),
        ("sub.rn.f32", |a, b| a - b),
        ("mul.rn.f32", |a, b| a * b),
        ("div.rn.f32", |a, b| a / b),
        ("add.f32", |a, b| a + b),
        ("mul.f32", |a, b| a * b),
    ] {
        let rows = pairs
            .iter()
            .map(|&(a, b)| row(&[f(a), f(b)], &[fc(op(a, b))], name))
            .collect();
        t.t(name, F3, &bin("f32", name), rows);
    }
    // Hand-checked values: 1/3 = 0x3eaaaaab, sqrt(2) = 0x3fb504f3, 0.1+0.2 = 0x3e99999a.
    t.t(
        "div.rn.f32 1/3",
        F3,
        &bin("f32", "div.rn.f32"),
        vec![row(&[f(1.0), f(3.0)], &[0x3eaa_aaab], "1/3")],
    );
    t.t(
        "add.rn.f32 0.1+0.2",
        F3,
        &bin("f32", "add.rn.f32"),
        vec![row(&[f(0.1), f(0.2)], &[0x3e99_999a], "0.1+0.2")],
    );
    // sqrt.rn.f32 and rcp.rn.f32 (correctly rounded).
    let mut rows = Vec::new();
    for a in [2.0f32, 3.0, 0.5, 1e-40, 16.0, 1e30] {
        rows.push(row(&[f(a)], &[f(a.sqrt()), f(1.0 / a)], "sqrt/rcp"));
    }
    rows.push(row(&[f(2.0)], &[0x3fb5_04f3, f(0.5)], "sqrt(2) by hand"));
    rows.push(row(
        &[f(-0.0)],
        &[0x8000_0000, f(f32::NEG_INFINITY)],
        "sqrt(-0) = -0, rcp(-0) = -inf",
    ));
    rows.push(row(&[f(f32::INFINITY)], &[f(f32::INFINITY), 0], "inf"));
    t.t(
        "sqrt.rn.f32 / rcp.rn.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tsqrt.rn.f32 %d, %a;\n\trcp.rn.f32 %e, %a;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        rows,
    );
    // Invalid operations give the canonical NaN 0x7fffffff (docs/SEMANTICS.md, NaNs).
    t.t(
        "NaN results",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tsqrt.rn.f32 %d, %a;\n\tmul.rn.f32 %e, %b, 0f00000000;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![row(&[f(-1.0), f(f32::INFINITY)], &[CANON_NAN, CANON_NAN], "sqrt(-1), inf*0")],
    );
    // f64 arithmetic vs host.
    let dp = [(1.0f64, 3.0f64), (0.1, 0.7), (-1e300, 1e300), (2.0, 1e-310)];
    for (name, op) in [
        ("add.rn.f64", (|a, b| a + b) as fn(f64, f64) -> f64),
        ("mul.rn.f64", |a, b| a * b),
        ("div.rn.f64", |a, b| a / b),
        ("sub.f64", |a, b| a - b),
    ] {
        let rows = dp
            .iter()
            .map(|&(a, b)| row(&[d(a), d(b)], &[d(op(a, b))], name))
            .collect();
        t.t(name, D3, &bin("f64", name), rows);
    }
    let rows = [2.0f64, 1e-300, 12345.678]
        .iter()
        .map(|&a| row(&[d(a)], &[d(a.sqrt())], "sqrt.rn.f64"))
        .collect();
    t.t(
        "sqrt.rn.f64",
        D3,
        "\tld.global.f64 %a, [%pa];\n\tsqrt.rn.f64 %d, %a;\n\tst.global.f64 [%pd], %d;",
        rows,
    );
    t.check();
}

#[test]
fn rounding_modes_and_fma() {
    let _c = rows_of("rounding_modes_and_fma");
    let mut t = Tables::new();
    let p = |e: i32| 2f32.powi(e);
    // 1 + 2^-30: rn/rz/rm -> 1.0, rp -> 1 + 2^-23. For -1 - 2^-30: rm -> -(1+2^-23).
    let rows = vec![
        row(
            &[f(1.0), f(p(-30))],
            &[f(1.0) | (f(1.0) << 32), f(1.0) | (0x3f80_0001 << 32)],
            "1 + 2^-30",
        ),
        row(
            &[f(-1.0), f(-p(-30))],
            &[f(-1.0) | (f(-1.0) << 32), 0xbf80_0001 | (f(-1.0) << 32)],
            "-1 - 2^-30",
        ),
        // Overflow: rz/rm of +huge give MAX, rp gives inf.
        row(
            &[f(f32::MAX), f(f32::MAX)],
            &[
                0x7f80_0000 | (0x7f7f_ffff << 32),
                0x7f7f_ffff | (0x7f80_0000 << 32),
            ],
            "MAX + MAX",
        ),
    ];
    t.t(
        "add.rn/rz/rm/rp.f32",
        "\t.reg .f32 %a, %b, %d<4>;",
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tadd.rn.f32 %d0, %a, %b;\n\tadd.rz.f32 %d1, %a, %b;\n\tadd.rm.f32 %d2, %a, %b;\n\tadd.rp.f32 %d3, %a, %b;\n\
         \tst.global.v2.f32 [%pd], {%d0, %d1};\n\tst.global.v2.f32 [%pe], {%d2, %d3};",
        rows,
    );
    // mul.rz vs mul.rn: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exactly half an
    // ulp above 1 + 2^-11; rn ties to even (1 + 2^-11, even), rp rounds up.
    let a = 1.0 + p(-12);
    t.t(
        "mul.rn/rp.f32 tie",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tmul.rn.f32 %d, %a, %a;\n\tmul.rp.f32 %e, %a, %a;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![row(&[f(a)], &[f(1.0 + p(-11)), f(1.0 + p(-11) + p(-23))], "(1+2^-12)^2")],
    );
    // fma.rn.f32 rounds once; mul.rn + add.rn round twice. With a = b = 1+2^-12
    // and c = -(1+2^-11): fma = 2^-24 exactly, separate rounding gives 0.
    let mut rows = vec![row(
        &[f(a), f(a), f(-(1.0 + p(-11)))],
        &[f(p(-24)), 0],
        "fma vs mul+add",
    )];
    for (x, y, z) in [
        (0.1f32, 10.0f32, -1.0f32),
        (1.0 + p(-23), 1.0 - p(-24), -1.0),
        (3.0, 1.0 / 3.0, -1.0),
        (1e20, 1e20, -f32::INFINITY),
        (f32::MAX, 2.0, -f32::MAX),
    ] {
        rows.push(row(
            &[f(x), f(y), f(z)],
            &[fc(x.mul_add(y, z)), fc(x * y + z)],
            "host mul_add vs separate",
        ));
    }
    t.t(
        "fma.rn.f32 vs mul.rn+add.rn",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tld.global.f32 %c, [%pc];\n\tfma.rn.f32 %d, %a, %b, %c;\n\
         \tmul.rn.f32 %e, %a, %b;\n\tadd.rn.f32 %e, %e, %c;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        rows,
    );
    // mad.rn.f32 is fma; fma.rn.f64 vs host.
    t.t(
        "mad.rn.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tld.global.f32 %c, [%pc];\n\tmad.rn.f32 %d, %a, %b, %c;\n\tst.global.f32 [%pd], %d;",
        vec![row(&[f(a), f(a), f(-(1.0 + p(-11)))], &[f(p(-24))], "mad.rn = fma")],
    );
    let mut rows = Vec::new();
    for (x, y, z) in [
        (0.1f64, 10.0f64, -1.0f64),
        (1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0, -1.0),
    ] {
        rows.push(row(
            &[d(x), d(y), d(z)],
            &[d(x.mul_add(y, z)), d(x * y + z)],
            "fma.f64",
        ));
    }
    t.t(
        "fma.rn.f64",
        D3,
        "\tld.global.f64 %a, [%pa];\n\tld.global.f64 %b, [%pb];\n\tld.global.f64 %c, [%pc];\n\tfma.rn.f64 %d, %a, %b, %c;\n\
         \tmul.rn.f64 %e, %a, %b;\n\tadd.rn.f64 %e, %e, %c;\n\tst.global.f64 [%pd], %d;\n\tst.global.f64 [%pe], %e;",
        rows,
    );
    // .ftz flushes subnormal inputs and results; .sat clamps to [0, 1].
    let sub = f32::from_bits(1);
    t.t(
        "add.ftz.f32 / add.f32 on subnormals",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tadd.ftz.f32 %d, %a, %b;\n\tadd.f32 %e, %a, %b;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![
            row(&[f(sub), f(0.0)], &[0, 1], "subnormal + 0"),
            row(&[f(-sub), f(-0.0)], &[0x8000_0000, 0x8000_0001], "-subnormal + -0"),
            row(&[f(1.0), f(sub)], &[f(1.0), f(1.0)], "1 + subnormal"),
        ],
    );
    t.t(
        "mul.ftz.f32 result flush",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tmul.ftz.f32 %d, %a, %b;\n\tmul.rn.f32 %e, %a, %b;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        // 2^-140 = 2^9 * 2^-149: the subnormal 0x00000200.
        vec![row(&[f(p(-70)), f(p(-70))], &[0, 0x200], "2^-140 is subnormal")],
    );
    t.t(
        "add.sat.f32",
        F3,
        &bin("f32", "add.sat.f32"),
        vec![
            row(&[f(1.0), f(0.5)], &[f(1.0)], "1.5 -> 1"),
            row(&[f(-1.0), f(0.5)], &[0], "-0.5 -> 0"),
            row(&[f(0.25), f(0.25)], &[f(0.5)], "0.5"),
            row(&[f(f32::NAN), f(1.0)], &[0], "NaN -> +0"),
        ],
    );
    t.check();
}

#[test]
fn min_max_abs_neg_copysign_testp() {
    let _c = rows_of("min_max_abs_neg_copysign_testp");
    let mut t = Tables::new();
    let nan = 0x7fc0_0000u64;
    // min/max: one NaN -> the other operand; both NaN -> canonical NaN;
    // -0 < +0 (docs/SEMANTICS.md, Min and max; ISA min/max).
    let rows = vec![
        row(&[nan, f(1.0)], &[f(1.0), f(1.0)], "NaN, 1"),
        row(&[f(1.0), nan], &[f(1.0), f(1.0)], "1, NaN"),
        row(&[f(-0.0), f(0.0)], &[0x8000_0000, 0], "-0, +0"),
        row(&[f(0.0), f(-0.0)], &[0x8000_0000, 0], "+0, -0"),
        row(&[f(-1.0), f(2.0)], &[f(-1.0), f(2.0)], "-1, 2"),
        row(
            &[f(f32::NEG_INFINITY), nan],
            &[f(f32::NEG_INFINITY), f(f32::NEG_INFINITY)],
            "-inf, NaN",
        ),
        row(&[nan, 0x7f80_0001], &[CANON_NAN, CANON_NAN], "NaN, NaN"),
    ];
    t.t(
        "min.f32 / max.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tmin.f32 %d, %a, %b;\n\tmax.f32 %e, %a, %b;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        rows,
    );
    // min.NaN.f32 propagates NaN (canonical).
    t.t(
        "min.NaN.f32 / max.NaN.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tmin.NaN.f32 %d, %a, %b;\n\tmax.NaN.f32 %e, %a, %b;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![row(&[nan, f(1.0)], &[CANON_NAN, CANON_NAN], "NaN, 1"), row(&[f(3.0), f(1.0)], &[f(1.0), f(3.0)], "3, 1")],
    );
    // f64 min/max: NaN and signed zeros.
    t.t(
        "min.f64 / max.f64",
        D3,
        "\tld.global.f64 %a, [%pa];\n\tld.global.f64 %b, [%pb];\n\tmin.f64 %d, %a, %b;\n\tmax.f64 %e, %a, %b;\n\tst.global.f64 [%pd], %d;\n\tst.global.f64 [%pe], %e;",
        vec![row(&[d(f64::NAN), d(-2.0)], &[d(-2.0), d(-2.0)], "NaN, -2"), row(&[d(0.0), d(-0.0)], &[d(-0.0), d(0.0)], "+0, -0")],
    );
    // abs/neg.f32 on numbers; neg.f64 of a NaN keeps its payload (f64 NaN passes through).
    t.t(
        "abs.f32 / neg.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tabs.f32 %d, %a;\n\tneg.f32 %e, %a;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![
            row(&[f(-2.0)], &[f(2.0), f(2.0)], "-2"),
            row(&[f(0.0)], &[0, 0x8000_0000], "+0"),
            row(&[f(-0.0)], &[0, 0], "-0"),
            row(&[f(f32::NEG_INFINITY)], &[f(f32::INFINITY), f(f32::INFINITY)], "-inf"),
        ],
    );
    t.t(
        "abs.f64 / neg.f64",
        D3,
        "\tld.global.f64 %a, [%pa];\n\tabs.f64 %d, %a;\n\tneg.f64 %e, %a;\n\tst.global.f64 [%pd], %d;\n\tst.global.f64 [%pe], %e;",
        vec![row(&[d(-3.0)], &[d(3.0), d(3.0)], "-3"), row(&[d(0.0)], &[d(0.0), d(-0.0)], "+0")],
    );
    // abs/neg of a NaN: an unspecified NaN (ISA); only NaN-ness is checked
    // (testp.notanumber on both results).
    t.t(
        "abs/neg.f64 of NaN is NaN",
        "\t.reg .f64 %a, %d, %e;\n\t.reg .pred %p, %q;",
        "\tld.global.f64 %a, [%pa];\n\tabs.f64 %d, %a;\n\tneg.f64 %e, %a;\n\ttestp.notanumber.f64 %p, %d;\n\ttestp.notanumber.f64 %q, %e;\n\
         \t@%p st.global.u32 [%pd], 1;\n\t@%q st.global.u32 [%pe], 1;",
        vec![row(&[0x7ff8_0000_0000_0001], &[1, 1], "NaN payload"), row(&[0xfff0_0000_0000_0001], &[1, 1], "negative sNaN")],
    );
    // copysign d, a, b: the sign of a on the magnitude of b.
    t.t(
        "copysign.f32",
        F3,
        &bin("f32", "copysign.f32"),
        vec![
            row(&[f(-1.0), f(2.0)], &[f(-2.0)], "sign of a"),
            row(&[f(1.0), f(-2.0)], &[f(2.0)], "positive a"),
            row(&[f(-0.0), f(0.0)], &[0x8000_0000], "-0"),
        ],
    );
    // testp: subnormal, normal, finite, infinite, number, notanumber.
    let vals: [u64; 8] = [
        0x0000_0001,
        0x807f_ffff,
        0x0080_0000,
        f(1.0),
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x0000_0000,
    ];
    for (op, pred) in [
        ("subnormal", (|x: f32| x.is_subnormal()) as fn(f32) -> bool),
        ("normal", |x| x.is_normal()),
        ("finite", |x| x.is_finite()),
        ("infinite", |x| x.is_infinite()),
        ("number", |x| !x.is_nan()),
        ("notanumber", |x| x.is_nan()),
    ] {
        let rows = vals
            .iter()
            .filter(|&&v| !(op == "normal" && v == 0)) // +-0 under .normal is unclear in the ISA text
            .map(|&v| {
                row(
                    &[v],
                    &[if pred(f32::from_bits(v as u32)) { 1 } else { 2 }],
                    op,
                )
            })
            .collect();
        t.t(
            &format!("testp.{op}.f32"),
            "\t.reg .f32 %a;\n\t.reg .pred %p;",
            &format!("\tld.global.f32 %a, [%pa];\n\ttestp.{op}.f32 %p, %a;\n\t@%p st.global.u32 [%pd], 1;\n\t@!%p st.global.u32 [%pd], 2;"),
            rows,
        );
    }
    t.t(
        "testp.subnormal.f64",
        "\t.reg .f64 %a;\n\t.reg .pred %p;",
        "\tld.global.f64 %a, [%pa];\n\ttestp.subnormal.f64 %p, %a;\n\t@%p st.global.u32 [%pd], 1;\n\t@!%p st.global.u32 [%pd], 2;",
        vec![row(&[1], &[1], "f64 subnormal"), row(&[d(1e-300)], &[2], "normal f64"), row(&[0x0000_0000_0080_0000], &[1], "f32 normal bits, f64 subnormal")],
    );
    t.check();
}

#[test]
fn half_precision_in_b16_registers() {
    let _c = rows_of("half_precision_in_b16_registers");
    let mut t = Tables::new();
    // add.f16 %h, %h, %h on .b16 registers (f16 bit patterns).
    let rows = vec![
        row(&[0x3c00, 0x4000], &[0x4200, 0x4000], "1 + 2 = 3; 1 * 2 = 2"),
        row(
            &[0x7bff, 0x5000],
            &[0x7c00, 0x7c00],
            "65504 + 32 = 65536 >= 65520 -> inf; 65504*32 -> inf",
        ),
        row(
            &[0x3c00, 0x1400],
            &[0x3c01, 0x1400],
            "1 + 2^-10 = 0x3c01; 1*2^-10",
        ),
        row(
            &[0x3c00, 0x0e00],
            &[0x3c00, 0x0e00],
            "1 + 3*2^-13 (< half ulp 2^-11): 1.0",
        ),
        row(
            &[0xc000, 0x4000],
            &[0x0000, 0xc400],
            "-2 + 2 = +0; -2*2 = -4",
        ),
    ];
    t.t(
        "add.f16 / mul.f16",
        "\t.reg .b16 %h<4>;",
        "\tld.global.b16 %h0, [%pa];\n\tld.global.b16 %h1, [%pb];\n\tadd.f16 %h2, %h0, %h1;\n\tmul.f16 %h3, %h0, %h1;\n\tst.global.b16 [%pd], %h2;\n\tst.global.b16 [%pe], %h3;",
        rows,
    );
    // fma.rn.f16: 0x3c01 * 0x3c01 - 1 = 2^-9 + 2^-20 exactly representable in f16
    // as a normal? 2^-9 (1 + 2^-11): needs 11 fraction bits -> rounds to 2^-9 (tie to even).
    t.t(
        "fma.rn.f16",
        "\t.reg .b16 %h<4>;",
        "\tld.global.b16 %h0, [%pa];\n\tld.global.b16 %h1, [%pb];\n\tld.global.b16 %h2, [%pc];\n\tfma.rn.f16 %h3, %h0, %h1, %h2;\n\tst.global.b16 [%pd], %h3;",
        vec![row(&[0x3c01, 0x3c01, 0xbc00], &[0x1800], "(1+2^-10)^2 - 1 = 2^-9 + 2^-20 -> 2^-9"), row(&[0x4000, 0x4200, 0x3c00], &[0x4700], "2*3+1 = 7")],
    );
    // Packed f16x2 in a .b32 register: lane-wise add; lane 0 is the low half.
    t.t(
        "add.f16x2",
        "\t.reg .b32 %a, %b, %d;",
        "\tld.global.b32 %a, [%pa];\n\tld.global.b32 %b, [%pb];\n\tadd.f16x2 %d, %a, %b;\n\tst.global.b32 [%pd], %d;",
        vec![row(&[0x4000_3c00, 0x3c00_4000], &[0x4200_4200], "(2,1)+(1,2)"), row(&[0xbc00_3c00, 0x3c00_3c00], &[0x0000_4000], "(-1,1)+(1,1)")],
    );
    // mov.b32 {lo, hi} unpack and repack of f16 halves.
    t.t(
        "mov.b32 unpack/pack halves",
        "\t.reg .b32 %a, %d;\n\t.reg .b16 %lo, %hi;",
        "\tld.global.b32 %a, [%pa];\n\tmov.b32 {%lo, %hi}, %a;\n\tmov.b32 %d, {%hi, %lo};\n\tst.global.b32 [%pd], %d;\n\tst.global.b16 [%pe], %lo;\n\tst.global.b16 [%pe+2], %hi;",
        vec![row(&[0x1111_2222], &[0x2222_1111, 0x1111_2222], "swap halves")],
    );
    t.check();
}

#[test]
fn ftz_and_sat_modifier_combinations() {
    let _c = rows_of("ftz_and_sat_modifier_combinations");
    let mut t = Tables::new();
    let sub = 0x0000_0010u64; // a positive f32 subnormal
                              // setp.lt.ftz.f32: the subnormal is flushed to +0, so 0 < sub is false;
                              // without .ftz it is true.
    t.t(
        "setp.lt(.ftz).f32",
        "\t.reg .f32 %a, %b;\n\t.reg .pred %p, %q;",
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tsetp.lt.ftz.f32 %p, %a, %b;\n\tsetp.lt.f32 %q, %a, %b;\n\
         \t@%p st.global.u32 [%pd], 1;\n\t@!%p st.global.u32 [%pd], 2;\n\t@%q st.global.u32 [%pe], 1;\n\t@!%q st.global.u32 [%pe], 2;",
        vec![row(&[0, sub], &[2, 1], "0 < subnormal"), row(&[f(-1.0), sub], &[1, 1], "-1 < subnormal")],
    );
    // abs.ftz / min.ftz / fma.rn.ftz.sat / mul.rn.sat.
    t.t(
        "abs.ftz.f32 / min.ftz.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tabs.ftz.f32 %d, %a;\n\tmin.ftz.f32 %e, %a, %b;\n\tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        // -sub flushes to -0: abs -> +0; min(-0, +0) = -0.
        vec![row(&[0x8000_0010, 0], &[0, 0x8000_0000], "-subnormal"), row(&[f(-2.0), f(1.0)], &[f(2.0), f(-2.0)], "-2, 1")],
    );
    t.t(
        "fma.rn.ftz.sat.f32 / mul.rn.sat.f32",
        F3,
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tld.global.f32 %c, [%pc];\n\tfma.rn.ftz.sat.f32 %d, %a, %b, %c;\n\tmul.rn.sat.f32 %e, %a, %b;\n\
         \tst.global.f32 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![
            row(&[f(2.0), f(3.0), f(-5.5)], &[f(0.5), f(1.0)], "6 - 5.5 = 0.5; 6 -> 1"),
            row(&[f(-2.0), f(3.0), f(1.0)], &[0, 0], "negative -> 0"),
            row(&[f(0.25), f(2.0), sub], &[f(0.5), f(0.5)], "subnormal addend flushed"),
        ],
    );
    // cvt.rzi.ftz.s32.f32 and cvt.ftz.f64.f32 on a subnormal: flushed first.
    t.t(
        "cvt.ftz.f64.f32 / cvt.f64.f32 on a subnormal",
        "\t.reg .f32 %a;\n\t.reg .f64 %d, %e;",
        "\tld.global.f32 %a, [%pa];\n\tcvt.ftz.f64.f32 %d, %a;\n\tcvt.f64.f32 %e, %a;\n\tst.global.f64 [%pd], %d;\n\tst.global.f64 [%pe], %e;",
        vec![row(&[0x8000_0001], &[d(-0.0), d(-f64::from(f32::from_bits(1)))], "-2^-149")],
    );
    // cvt.sat.f32.f64 clamps the converted value into [0, 1].
    t.t(
        "cvt.rn.sat.f32.f64",
        "\t.reg .f64 %a;\n\t.reg .f32 %d;",
        "\tld.global.f64 %a, [%pa];\n\tcvt.rn.sat.f32.f64 %d, %a;\n\tst.global.f32 [%pd], %d;",
        vec![
            row(&[d(3.0)], &[f(1.0)], "3"),
            row(&[d(-3.0)], &[0], "-3"),
            row(&[d(0.75)], &[f(0.75)], "0.75"),
        ],
    );
    t.check();
}

/// Distance in units in the last place between two finite f32 values of the same sign.
fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

#[test]
fn approximate_functions_within_isa_bounds() {
    let _c = rows_of("approximate_functions_within_isa_bounds");
    // One thread per input; each computes every approximate function of it.
    let xs: [f32; 6] = [0.5, 1.0, 2.0, 3.0, 10.0, 0.1];
    let input: Vec<u64> = xs.iter().map(|&x| f(x)).collect();
    let body = "\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %in, %t64;\n\tld.global.f32 %x, [%g];\n\tmul.wide.u32 %t64, %tx, 64;\n\tadd.s64 %g, %out, %t64;\n\
                \trcp.approx.f32 %r, %x;\n\tst.global.f32 [%g], %r;\n\tsqrt.approx.f32 %r, %x;\n\tst.global.f32 [%g+4], %r;\n\trsqrt.approx.f32 %r, %x;\n\tst.global.f32 [%g+8], %r;\n\
                \tex2.approx.f32 %r, %x;\n\tst.global.f32 [%g+12], %r;\n\tlg2.approx.f32 %r, %x;\n\tst.global.f32 [%g+16], %r;\n\tsin.approx.f32 %r, %x;\n\tst.global.f32 [%g+20], %r;\n\
                \tcos.approx.f32 %r, %x;\n\tst.global.f32 [%g+24], %r;\n\tdiv.approx.f32 %r, 0f3F800000, %x;\n\tst.global.f32 [%g+28], %r;\n\tdiv.full.f32 %r, 0f40400000, %x;\n\tst.global.f32 [%g+32], %r;";
    let got = run_ok(
        "\t.reg .b64 %g;\n\t.reg .f32 %x, %r;",
        body,
        input,
        8 * xs.len(),
        [1, 1, 1],
        [xs.len() as u32, 1, 1],
    );
    let slot = |k: usize, j: usize| -> f32 {
        let w = got[8 * k + j / 2];
        f32::from_bits(if j % 2 == 0 {
            w as u32
        } else {
            (w >> 32) as u32
        })
    };
    let mut errs = Vec::new();
    for (k, &x) in xs.iter().enumerate() {
        let xd = f64::from(x);
        // ISA accuracy: rcp.approx 1 ulp; sqrt.approx 2^-23 relative; rsqrt.approx
        // 2^-22.9 relative; ex2.approx 2 ulp; lg2.approx 2^-22 absolute on
        // (0.5, 2) and 2^-22 relative otherwise (a little slack at the ends);
        // sin/cos.approx 2^-20.5 absolute on [-2pi, 2pi], 2^-14.7 on
        // [-100pi, 100pi]; div.approx 2 ulp; div.full 2 ulp.
        let trig = if xd.abs() <= 2.0 * std::f64::consts::PI {
            2f64.powf(-20.5)
        } else {
            2f64.powf(-14.7)
        };
        let checks: [(&str, f32, f64, &str, f64); 9] = [
            ("rcp.approx", slot(k, 0), 1.0 / xd, "ulp", 1.0),
            (
                "sqrt.approx",
                slot(k, 1),
                xd.sqrt(),
                "rel",
                2f64.powf(-23.0) * 1.01,
            ),
            (
                "rsqrt.approx",
                slot(k, 2),
                1.0 / xd.sqrt(),
                "rel",
                2f64.powf(-22.9),
            ),
            ("ex2.approx", slot(k, 3), xd.exp2(), "ulp", 2.0),
            (
                "lg2.approx",
                slot(k, 4),
                xd.log2(),
                "abs",
                2f64.powf(-22.0) * (1.0 + xd.log2().abs()),
            ),
            ("sin.approx", slot(k, 5), xd.sin(), "abs", trig),
            ("cos.approx", slot(k, 6), xd.cos(), "abs", trig),
            ("div.approx", slot(k, 7), 1.0 / xd, "ulp", 2.0),
            ("div.full", slot(k, 8), 3.0 / xd, "ulp", 2.0),
        ];
        for (name, g, exact, kind, tol) in checks {
            count(1);
            let ok = match kind {
                "ulp" => f64::from(ulps(g, exact as f32)) <= tol,
                "rel" => ((f64::from(g) - exact) / exact).abs() <= tol,
                _ => (f64::from(g) - exact).abs() <= tol,
            };
            if !ok {
                errs.push(format!(
                    "{name}({x}) = {g} (0x{:08x}), exact {exact}, tolerance {tol} {kind}",
                    g.to_bits()
                ));
            }
        }
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}
