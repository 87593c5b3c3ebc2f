//! Float instruction forms the generator writes since issue 29: div, rcp
//! and sqrt in every rounding with and without `.ftz` (f32) and on f64, the
//! `.approx.ftz` functions on subnormal inputs, `cvt{.ftz}.sat.f32.f32`, and
//! add/sub/mul without a rounding modifier on f64. Expected values: exact
//! host arithmetic (the quotients and roots below, rounded by hand from their
//! binary expansions, agree with scripts/directed_rounding_expected.py) or the
//! ISA's special-value tables (9.7.3: each `.approx` function's table at +-0,
//! where `.ftz` sends a subnormal input).

use super::harness::*;

const F: &str = "\t.reg .f32 %a, %b, %d;";
const D: &str = "\t.reg .f64 %a, %b, %d;";

fn un(ty: &str, form: &str) -> String {
    format!("\tld.global.{ty} %a, [%pa];\n\t{form} %d, %a;\n\tst.global.{ty} [%pd], %d;")
}

fn bin(ty: &str, form: &str) -> String {
    format!(
        "\tld.global.{ty} %a, [%pa];\n\tld.global.{ty} %b, [%pb];\n\t{form} %d, %a, %b;\n\tst.global.{ty} [%pd], %d;"
    )
}

const SUB: u64 = 0x0000_0001; // the smallest f32 subnormal, 2^-149
const NSUB: u64 = 0x8000_0001;
const INF: u64 = 0x7f80_0000;
const NINF: u64 = 0xff80_0000;
const ONE: u64 = 0x3f80_0000;

#[test]
fn directed_div_rcp_sqrt_f32() {
    let _c = rows_of("directed_div_rcp_sqrt_f32");
    let mut t = Tables::new();
    // 1/3 = 0x3eaaaaaa.aaa... in f32 units: rz/rm truncate, rp rounds up;
    // -1/3 mirrored. sqrt(2) = 0x3fb504f3 + 0.33 ulp: rp 0x3fb504f4.
    for (mode, third, m_third, root2) in [
        ("rz", 0x3eaa_aaaa, 0xbeaa_aaaa, 0x3fb5_04f3),
        ("rm", 0x3eaa_aaaa, 0xbeaa_aaab, 0x3fb5_04f3),
        ("rp", 0x3eaa_aaab, 0xbeaa_aaaa, 0x3fb5_04f4),
    ] {
        for ftz in ["", ".ftz"] {
            let form = format!("div.{mode}{ftz}.f32");
            // .ftz: a subnormal dividend is +-0 (the quotient a signed zero);
            // without, 2^-149 / 2 rounds in the mode: rp 2^-149, else 0.
            let tiny = match (ftz, mode) {
                ("", "rp") => SUB,
                _ => 0,
            };
            t.t(
                &form,
                F,
                &bin("f32", &form),
                vec![
                    row(&[f(1.0), f(3.0)], &[third], "1/3"),
                    row(&[f(-1.0), f(3.0)], &[m_third], "-1/3"),
                    row(&[f(6.0), f(3.0)], &[f(2.0)], "exact"),
                    row(&[SUB, f(2.0)], &[tiny], "2^-149 / 2"),
                ],
            );
            let form = format!("rcp.{mode}{ftz}.f32");
            t.t(
                &form,
                F,
                &un("f32", &form),
                vec![
                    row(&[f(3.0)], &[third], "1/3"),
                    row(&[f(-3.0)], &[m_third], "-1/3"),
                    row(&[f(0.25)], &[f(4.0)], "exact"),
                ],
            );
            let form = format!("sqrt.{mode}{ftz}.f32");
            let sub_root = if ftz.is_empty() {
                // sqrt(2^-148) = 2^-74 exactly.
                f(2f32.powi(-74))
            } else {
                0
            };
            t.t(
                &form,
                F,
                &un("f32", &form),
                vec![
                    row(&[f(2.0)], &[root2], "sqrt 2"),
                    row(&[f(2.25)], &[f(1.5)], "exact"),
                    row(&[0x0000_0002], &[sub_root], "sqrt 2^-148"),
                ],
            );
        }
    }
    t.check();
}

#[test]
fn directed_div_rcp_sqrt_f64() {
    let _c = rows_of("directed_div_rcp_sqrt_f64");
    let mut t = Tables::new();
    // 1/3 = 0x3fd5555555555555.55..: rp rounds up; -2/3 mirrored at
    // 0xbfe5555555555555.55..: rm rounds away; sqrt(2) = 0x3ff6a09e667f3bcc.9..
    for (mode, third, m_two_thirds, root2) in [
        (
            "rz",
            0x3fd5_5555_5555_5555u64,
            0xbfe5_5555_5555_5555u64,
            0x3ff6_a09e_667f_3bccu64,
        ),
        (
            "rm",
            0x3fd5_5555_5555_5555,
            0xbfe5_5555_5555_5556,
            0x3ff6_a09e_667f_3bcc,
        ),
        (
            "rp",
            0x3fd5_5555_5555_5556,
            0xbfe5_5555_5555_5555,
            0x3ff6_a09e_667f_3bcd,
        ),
    ] {
        let form = format!("div.{mode}.f64");
        t.t(
            &form,
            D,
            &bin("f64", &form),
            vec![
                row(&[d(1.0), d(3.0)], &[third], "1/3"),
                row(&[d(-2.0), d(3.0)], &[m_two_thirds], "-2/3"),
                row(&[d(6.0), d(3.0)], &[d(2.0)], "exact"),
            ],
        );
        let form = format!("rcp.{mode}.f64");
        t.t(
            &form,
            D,
            &un("f64", &form),
            vec![
                row(&[d(3.0)], &[third], "1/3"),
                row(&[d(-1.5)], &[m_two_thirds], "-2/3"),
            ],
        );
        let form = format!("sqrt.{mode}.f64");
        t.t(
            &form,
            D,
            &un("f64", &form),
            vec![
                row(&[d(2.0)], &[root2], "sqrt 2"),
                row(&[d(2.25)], &[d(1.5)], "exact"),
            ],
        );
    }
    t.check();
}

#[test]
fn approx_ftz_functions_flush_subnormal_inputs() {
    let _c = rows_of("approx_ftz_functions_flush_subnormal_inputs");
    let mut t = Tables::new();
    // Each function's ISA table at +0 / -0.
    for (form, pos, neg) in [
        ("rcp.approx.ftz.f32", INF, NINF),
        ("sqrt.approx.ftz.f32", 0, 0x8000_0000),
        ("rsqrt.approx.ftz.f32", INF, NINF),
        ("ex2.approx.ftz.f32", ONE, ONE),
        ("lg2.approx.ftz.f32", NINF, NINF),
        ("sin.approx.ftz.f32", 0, 0x8000_0000),
        ("cos.approx.ftz.f32", ONE, ONE),
    ] {
        t.t(
            form,
            F,
            &un("f32", form),
            vec![
                row(&[SUB], &[pos], "+subnormal"),
                row(&[NSUB], &[neg], "-subnormal"),
            ],
        );
    }
    t.check();
}

#[test]
fn cvt_sat_f32_f32_and_plain_f64_arithmetic() {
    let _c = rows_of("cvt_sat_f32_f32_and_plain_f64_arithmetic");
    let mut t = Tables::new();
    // .sat clamps to [0, 1], NaN and -0 to +0; .ftz flushes a subnormal first.
    for (form, sub) in [("cvt.sat.f32.f32", SUB), ("cvt.ftz.sat.f32.f32", 0)] {
        t.t(
            form,
            F,
            &un("f32", form),
            vec![
                row(&[f(1.5)], &[ONE], "1.5 -> 1"),
                row(&[f(0.25)], &[f(0.25)], "0.25"),
                row(&[f(-2.0)], &[0], "-2 -> +0"),
                row(&[0x7fc0_0000], &[0], "NaN -> +0"),
                row(&[SUB], &[sub], "subnormal"),
            ],
        );
    }
    // No rounding modifier: round to nearest even, as the host.
    type Op = fn(f64, f64) -> f64;
    for (form, op) in [
        ("add.f64", (|a, b| a + b) as Op),
        ("sub.f64", |a, b| a - b),
        ("mul.f64", |a, b| a * b),
    ] {
        let rows = [(0.1, 0.2), (1e308, 1e308), (-3.5, 1.25), (1.0 / 3.0, 3.0)]
            .iter()
            .map(|&(a, b)| row(&[d(a), d(b)], &[d(op(a, b))], form))
            .collect();
        t.t(form, D, &bin("f64", form), rows);
    }
    t.check();
}
