//! Approximate instructions: ISA special-case tables and error bounds
//! against references (the exact rational reference where the function is
//! algebraic; the host's f64 libm, accurate to about 2^-52 relative, for the
//! transcendental ones, far below the bounds being checked).

use super::super::approx::{self, mufu};
use super::super::Rounding;
use super::reference::{self, decode_round, sqrt_round, value, Q};
use super::Rng;

const NAN: u32 = 0x7fff_ffff;
const INF: u32 = 0x7f80_0000;
const NINF: u32 = 0xff80_0000;
const ONE: u32 = 0x3f80_0000;
const NEG0: u32 = 0x8000_0000;
const SUB: u32 = 0x0000_0001;
const NSUB: u32 = 0x807f_ffff;

/// Both `.ftz` settings.
fn both(f: fn(u32, bool) -> u32, x: u32) -> [u32; 2] {
    [f(x, false), f(x, true)]
}

#[test]
fn special_tables_f32() {
    // rcp.approx (#floating-point-instructions-rcp): -inf -> -0, -0 -> -inf,
    // +0 -> +inf, +inf -> +0, NaN -> NaN; subnormal -> +-inf
    // (hardware-observed, module docs); 1/2^127 is subnormal -> flushed +0
    let rcp = approx::rcp_approx_f32;
    for (x, e) in [
        (NINF, NEG0),
        (NEG0, NINF),
        (0, INF),
        (INF, 0),
        (0x7fc0_0001, NAN),
        (0x4000_0000, 0x3f00_0000),
    ] {
        assert_eq!(both(rcp, x), [e, e], "rcp.approx({x:#x})");
    }
    // Subnormal and huge inputs: the bare MUFU with .ftz (subnormal -> inf,
    // 1/2^127 flushed to +0); without .ftz ptxas' scaling keeps them:
    // 1/2^-149 overflows to inf, 1/2^127 = 2^-127 (0x00400000), and the
    // largest subnormal's reciprocal is finite, within 1 ulp.
    for (x, ftz, plain) in [
        (0x0000_0001, INF, INF),
        (0x8000_0001, NINF, NINF),
        (0x7f00_0000, 0, 0x0040_0000),
        (0xff00_0000, NEG0, 0x8040_0000),
    ] {
        assert_eq!(both(rcp, x), [plain, ftz], "rcp.approx({x:#x})");
    }
    assert_eq!(both(rcp, SUB)[1], INF);
    assert_eq!(both(rcp, NSUB)[1], NINF);
    for x in [0x007f_ffff, NSUB] {
        let want = 1.0 / f64::from(f32::from_bits(x));
        let got = f64::from(f32::from_bits(rcp(x, false)));
        assert!(
            ((got - want) / want).abs() <= 2f64.powi(-22),
            "rcp({x:#x}) = {got}"
        );
    }
    // sqrt.approx: -inf -> NaN, -normal -> NaN, -0 -> -0, +0 -> +0, +inf ->
    // +inf, NaN; subnormal -> +-0 (hardware-observed)
    let sqrt = approx::sqrt_approx_f32;
    for (x, e) in [
        (NINF, NAN),
        (0xbf80_0000, NAN),
        (NEG0, NEG0),
        (0, 0),
        (INF, INF),
        (0xffc0_0000, NAN),
        (0x4080_0000, 0x4000_0000),
    ] {
        assert_eq!(both(sqrt, x), [e, e], "sqrt.approx({x:#x})");
    }
    // Subnormals: +-0 with .ftz; without, sqrt(2^-146) = 2^-73 exactly.
    assert_eq!(both(sqrt, SUB)[1], 0);
    assert_eq!(both(sqrt, NSUB)[1], NEG0);
    assert_eq!(sqrt(0x0000_0008, false), 0x1b00_0000, "sqrt(2^-146)");
    // rsqrt.approx: -inf -> NaN, -normal -> NaN, -0 -> -inf, +0 -> +inf,
    // +inf -> +0, NaN; subnormal -> +-inf
    let rsqrt = approx::rsqrt_approx_f32;
    for (x, e) in [
        (NINF, NAN),
        (0xc000_0000, NAN),
        (NEG0, NINF),
        (0, INF),
        (INF, 0),
        (0x7fc0_0000, NAN),
        (0x4080_0000, 0x3f00_0000),
    ] {
        assert_eq!(both(rsqrt, x), [e, e], "rsqrt.approx({x:#x})");
    }
    // Subnormals: +-inf with .ftz; without, 1/sqrt(2^-146) = 2^73.
    assert_eq!(both(rsqrt, SUB)[1], INF);
    assert_eq!(both(rsqrt, NSUB)[1], NINF);
    assert_eq!(rsqrt(0x0000_0008, false), 0x6400_0000, "rsqrt(2^-146)");
    // ex2.approx: -inf -> +0, -0 -> +1, +0 -> +1, +inf -> +inf, NaN; a
    // subnormal input gives 1.0 either way; 2^3 = 8 exactly; 2^128 = inf
    let ex2 = approx::ex2_approx_f32;
    for (x, e) in [
        (NINF, 0),
        (NEG0, ONE),
        (0, ONE),
        (INF, INF),
        (0xffc0_0000, NAN),
        (SUB, ONE),
        (NSUB, ONE),
        (0x4040_0000, 0x4100_0000),
        (0x4300_0000, INF),
        (0xc2f8_0000, 0x0180_0000),
        (0xc2fc_0000, 0x0080_0000),
    ] {
        assert_eq!(both(ex2, x), [e, e], "ex2.approx({x:#x})");
    }
    // lg2.approx: -inf -> NaN, -normal -> NaN, -0/+0 -> -inf, +inf -> +inf,
    // NaN; log2(1) = +0; log2(8) = 3 exactly
    let lg2 = approx::lg2_approx_f32;
    for (x, e) in [
        (NINF, NAN),
        (0xbf80_0000, NAN),
        (NEG0, NINF),
        (0, NINF),
        (INF, INF),
        (0x7f80_0001, NAN),
        (ONE, 0),
        (0x4100_0000, 0x4040_0000),
        (0x3e80_0000, 0xc000_0000),
    ] {
        assert_eq!(both(lg2, x), [e, e], "lg2.approx({x:#x})");
    }
    // Subnormals: -inf with .ftz; without, ptxas scales by 2^24 and
    // subtracts 24: log2(2^-149) = -149 exactly (ptxas' listing in the
    // simulator gives 0xc3150000 too); a negative subnormal is NaN.
    assert_eq!(both(lg2, SUB), [0xc315_0000, NINF]);
    assert_eq!(both(lg2, NSUB), [NAN, NINF]);
    // sin.approx: -inf -> NaN, -0 -> -0, +0 -> +0, +inf -> NaN, NaN;
    // subnormal -> sign-preserving zero (hardware-observed)
    let sin = approx::sin_approx_f32;
    for (x, e) in [
        (NINF, NAN),
        (NEG0, NEG0),
        (0, 0),
        (INF, NAN),
        (0x7fc0_0000, NAN),
        (SUB, 0),
        (NSUB, NEG0),
    ] {
        assert_eq!(both(sin, x), [e, e], "sin.approx({x:#x})");
    }
    // cos.approx: +-0 -> +1, +-inf -> NaN, NaN; subnormal -> 1
    let cos = approx::cos_approx_f32;
    for (x, e) in [
        (NINF, NAN),
        (NEG0, ONE),
        (0, ONE),
        (INF, NAN),
        (0xffc0_0000, NAN),
        (SUB, ONE),
        (NSUB, ONE),
    ] {
        assert_eq!(both(cos, x), [e, e], "cos.approx({x:#x})");
    }
    // tanh.approx (#floating-point-instructions-tanh): -inf -> -1, -0 ->
    // -0, +0 -> +0, +inf -> +1, NaN; subnormals pass through; large -> +-1
    for (x, e) in [
        (NINF, 0xbf80_0000),
        (NEG0, NEG0),
        (0, 0),
        (INF, ONE),
        (0xffc0_0000, NAN),
        (SUB, SUB),
        (NSUB, NSUB),
        (0x4120_0000, ONE),
        (0xc1a0_0000, 0xbf80_0000),
    ] {
        assert_eq!(approx::tanh_approx_f32(x), e, "tanh.approx({x:#x})");
    }
}

#[test]
fn mufu_turn_exact_points() {
    // MUFU.SIN/COS take revolutions: sin(2 pi * 1/4) = 1, cos(2 pi * 1/2)
    // = -1, zeros follow sinPi/cosPi (IEEE 754-2019 9.2.1)
    assert_eq!(mufu::sin(0x3e80_0000), ONE, "sin(pi/2)");
    assert_eq!(mufu::sin(0xbe80_0000), 0xbf80_0000, "sin(-pi/2)");
    assert_eq!(mufu::cos(0x3f00_0000), 0xbf80_0000, "cos(pi)");
    assert_eq!(mufu::cos(0x3e80_0000), 0, "cos(pi/2) = +0");
    assert_eq!(mufu::sin(0x3f00_0000), 0, "sin(pi) = +0");
    assert_eq!(mufu::sin(0xbf00_0000), NEG0, "sin(-pi) = -0");
    assert_eq!(mufu::sin(0x4b80_0000), 0, "sin(2pi * 2^24) = +0");
    assert_eq!(mufu::cos(0x4b80_0000), ONE);
    // 1/(2 pi) constant: f32 RN of 0.15915494309189535
    assert_eq!(
        approx::INV_2PI_F32,
        ((0.5 / core::f64::consts::PI) as f32).to_bits()
    );
}

#[test]
fn div_approx_rules() {
    let d = approx::div_approx_f32;
    // "For 2^126 < |b| < 2^128, if a is infinity, div.approx.f32 returns
    // NaN, otherwise it returns a sign-preserving zero"
    assert_eq!(d(ONE, 0x7f00_0000, false), 0);
    assert_eq!(d(0xbf80_0000, 0x7f00_0000, false), NEG0);
    assert_eq!(d(ONE, 0xff7f_ffff, false), NEG0);
    assert_eq!(d(INF, 0x7f00_0000, false), NAN);
    // |b| = 2^126 is in range: 1/2^126 = 2^-126
    assert_eq!(d(ONE, 0x7e80_0000, false), 0x0080_0000);
    // 6/3 = 2, 1/0 = inf, 0/0 = NaN
    assert_eq!(d(0x40c0_0000, 0x4040_0000, false), 0x4000_0000);
    assert_eq!(d(ONE, 0, false), INF);
    assert_eq!(d(0, 0, false), NAN);
    // .ftz on a: subnormal a flushed
    assert_eq!(
        d(0x0040_0000, 0x3f00_0000, false),
        0x0080_0000,
        "2^-127/0.5 = 2^-126"
    );
    assert_eq!(d(0x0040_0000, 0x3f00_0000, true), 0);
    // A subnormal divisor without .ftz: ptxas scales both operands by 2^24
    // first (MUFU.RCP flushes subnormals): 2^-140 / 2^-149 = 2^9 and
    // 1 / 2^-127 = 2^127, where the unscaled sequence gives infinity (as
    // .ftz does). A huge dividend overflows in the scaling: 2^120 / 2^-127.
    assert_eq!(d(0x0000_0200, SUB, false), 0x4400_0000);
    assert_eq!(d(ONE, 0x0040_0000, false), 0x7f00_0000);
    assert_eq!(d(ONE, 0x0040_0000, true), INF);
    assert_eq!(
        d(0xbf80_0000, 0x8040_0000, false),
        0x7f00_0000,
        "-1/-2^-127"
    );
    assert_eq!(d(0x7b80_0000, 0x0040_0000, false), INF);
    // div.full handles the large divisor: 2^127 / 2^127 = 1
    assert_eq!(approx::div_full_f32(0x7f00_0000, 0x7f00_0000, false), ONE);
    assert_eq!(
        approx::div_full_f32(ONE, 0x7f00_0000, false),
        0x0040_0000,
        "2^-127 subnormal"
    );
    assert_eq!(
        approx::div_full_f32(ONE, 0x7f00_0000, true),
        0,
        "ftz result"
    );
    // subnormal divisor without .ftz: 2^-140 / 2^-149 = 2^9
    assert_eq!(approx::div_full_f32(0x0000_0200, SUB, false), 0x4400_0000);
    assert_eq!(approx::div_full_f32(INF, INF, false), NAN);
}

#[test]
fn f64_approx_tables() {
    let r = approx::rcp_approx_ftz_f64;
    // #floating-point-instructions-rcp-approx-ftz-f64 table
    assert_eq!(r(0xfff0_0000_0000_0000), 0x8000_0000_0000_0000, "-inf");
    assert_eq!(
        r(0x8000_0000_0000_0001),
        0xfff0_0000_0000_0000,
        "-subnormal"
    );
    assert_eq!(
        r(0x800f_ffff_0000_0000),
        0xfff0_0000_0000_0000,
        "-subnormal upper"
    );
    assert_eq!(r(0x8000_0000_0000_0000), 0xfff0_0000_0000_0000, "-0");
    assert_eq!(r(0), 0x7ff0_0000_0000_0000, "+0");
    assert_eq!(r(0x7ff0_0000_0000_0000), 0, "+inf");
    // "Input NaNs map to a canonical NaN with encoding 0x7fffffff00000000"
    assert_eq!(r(0x7ff8_0000_0000_0000), 0x7fff_ffff_0000_0000);
    assert_eq!(r(0xfff0_0001_0000_0000), 0x7fff_ffff_0000_0000);
    // only a[63:32] is used: a NaN payload in the low word reads as +inf
    assert_eq!(r(0x7ff0_0000_0000_0001), 0, "upper word is +inf");
    assert_eq!(r(0x3ff0_0000_ffff_ffff), 0x3ff0_0000_0000_0000, "1/1");
    assert_eq!(r(0x4000_0000_0000_0000), 0x3fe0_0000_0000_0000, "1/2");
    // 1/3 = 0x3fd5555555555555: upper word 0x3fd55555, low word below half
    assert_eq!(r(0x4008_0000_0000_0000), 0x3fd5_5555_0000_0000, "1/3");
    // 1/2^1023 = 2^-1023 is subnormal: flushed
    assert_eq!(r(0x7fe0_0000_0000_0000), 0);
    let s = approx::rsqrt_approx_ftz_f64;
    assert_eq!(s(0x4010_0000_0000_0000), 0x3fe0_0000_0000_0000, "1/sqrt(4)");
    assert_eq!(s(0xbff0_0000_0000_0000), 0x7fff_ffff_0000_0000, "negative");
    assert_eq!(s(0x8000_0000_0000_0000), 0xfff0_0000_0000_0000, "-0");
    assert_eq!(s(0x7ff0_0000_0000_0000), 0, "+inf");
    assert_eq!(s(0x7ff8_0000_0000_0000), 0x7fff_ffff_0000_0000, "NaN");
    // rsqrt.approx.f64 (no ftz): subnormals supported, f64 NaN payload rule
    let t = approx::rsqrt_approx_f64;
    assert_eq!(t(0x4010_0000_0000_0000), 0x3fe0_0000_0000_0000);
    assert_eq!(
        t(0x0000_0000_0000_0004),
        0x6170_0000_0000_0000,
        "1/sqrt(2^-1072) = 2^536"
    );
    assert_eq!(t(0), 0x7ff0_0000_0000_0000);
    assert_eq!(t(0x7ff0_0000_0000_0005), 0x7ff8_0000_0000_0005);
    // ptxas' slow path (the listing in lower/seq/f64rsqrt_slow.sass):
    // -0 -> -inf, negative -> 0xfff8000000000000, +inf -> +0, subnormal
    // scaled by 2^54 then 2^27.
    assert_eq!(t(0x8000_0000_0000_0000), 0xfff0_0000_0000_0000, "-0");
    assert_eq!(t(0xbff0_0000_0000_0000), 0xfff8_0000_0000_0000, "-1");
    assert_eq!(t(0xfff0_0000_0000_0000), 0xfff8_0000_0000_0000, "-inf");
    assert_eq!(t(0x7ff0_0000_0000_0000), 0, "+inf");
    assert_eq!(t(1), 0x6180_0000_0000_0000, "1/sqrt(2^-1074) = 2^537");
    assert_eq!(t(0x0010_0000_0000_0000), 0x5fe0_0000_0000_0000, "2^-1022");
    // One Newton step from a 20-bit estimate: within 2 ulps of the host's
    // 1/sqrt over the positive normal range.
    let mut rng = Rng(0x5eed_0f64);
    for _ in 0..20_000 {
        let x = 0x0010_0000_0000_0000 + rng.next() % (0x7fe0_0000_0000_0000);
        let got = t(x) as i64;
        let want = (1.0 / f64::from_bits(x).sqrt()).to_bits() as i64;
        assert!(
            (got - want).abs() <= 2,
            "rsqrt({x:#x}): {got:#x} vs {want:#x}"
        );
    }
}

#[test]
fn half_special_tables() {
    // ex2.approx.f16: -inf -> +0, +-0 -> +1, +inf -> +inf, NaN
    for (x, e) in [
        (0xfc00u16, 0u16),
        (0x8000, 0x3c00),
        (0, 0x3c00),
        (0x7c00, 0x7c00),
        (0x7e00, 0x7fff),
        (0x4200, 0x4800),
        (0x0001, 0x3c00),
    ] {
        assert_eq!(approx::ex2_approx_f16(x), e, "ex2.f16({x:#x})");
    }
    // ex2.approx.ftz.bf16: -inf -> +0, -subnormal -> +1, +-0 -> +1,
    // +subnormal -> +1, +inf -> +inf, NaN
    for (x, e) in [
        (0xff80u16, 0u16),
        (0x8001, 0x3f80),
        (0x8000, 0x3f80),
        (0, 0x3f80),
        (0x0001, 0x3f80),
        (0x7f80, 0x7f80),
        (0x7fc1, 0x7fff),
        (0x4040, 0x4100),
    ] {
        assert_eq!(approx::ex2_approx_ftz_bf16(x), e, "ex2.ftz.bf16({x:#x})");
    }
    // tanh.approx.{f16,bf16}: -inf -> -1, -0 -> -0, +0 -> +0, +inf -> 1, NaN
    for (x, e) in [
        (0xfc00u16, 0xbc00u16),
        (0x8000, 0x8000),
        (0, 0),
        (0x7c00, 0x3c00),
        (0x7e01, 0x7fff),
        (0x0001, 0x0001),
    ] {
        assert_eq!(approx::tanh_approx_f16(x), e, "tanh.f16({x:#x})");
    }
    for (x, e) in [
        (0xff80u16, 0xbf80u16),
        (0x8000, 0x8000),
        (0x7f80, 0x3f80),
        (0xffc0, 0x7fff),
        (0x0001, 0x0001),
    ] {
        assert_eq!(approx::tanh_approx_bf16(x), e, "tanh.bf16({x:#x})");
    }
}

/// Distance in f32 ulps between an f32 result and a real reference value;
/// the ulp is that of the reference's binade (subnormal spacing below).
fn ulps32(got: u32, reference: f64) -> f64 {
    let g = f32::from_bits(got) as f64;
    let e = if reference == 0.0 {
        -126
    } else {
        (reference.abs().log2().floor() as i32).max(-126)
    };
    (g - reference).abs() / 2f64.powi(e - 23)
}

#[test]
fn rcp_sqrt_are_correctly_rounded() {
    // The RCP and SQRT models are documented as RN(1/x) and RN(sqrt x):
    // checked against the exact reference for normal inputs with normal
    // results (subnormal ones are flushed by the table above).
    let mut rng = Rng(31);
    for _ in 0..50_000 {
        let x = (rng.next() as u32) & 0x7fff_ffff;
        let e = (x >> 23) & 0xff;
        if e == 0 || e >= 0xfd {
            continue;
        }
        let q = value(reference::F32, x as u64);
        assert_eq!(
            mufu::rcp(x) as u64,
            decode_round(reference::F32, &Q::int(1).div(&q), Rounding::Rn),
            "rcp {x:#x}"
        );
        assert_eq!(
            mufu::sqrt(x) as u64,
            sqrt_round(reference::F32, &q, Rounding::Rn),
            "sqrt {x:#x}"
        );
        // RSQ: relative error within 2^-23 (ISA: 2^-22.9), checked exactly:
        // r = (1+e)/sqrt(x) <=> r^2 x = (1+e)^2
        let r = value(reference::F32, mufu::rsq(x) as u64);
        let t = r.mul(&r).mul(&q);
        let lo = Q::int((1 << 23) - 1).scale(-23);
        let hi = Q::int((1 << 23) + 1).scale(-23);
        assert!(
            t.cmp(&lo.mul(&lo)).is_ge() && t.cmp(&hi.mul(&hi)).is_le(),
            "rsq {x:#x}"
        );
    }
}

#[test]
fn ex2_lg2_bounds() {
    let mut rng = Rng(32);
    let mut worst_ex2 = 0f64;
    let mut worst_lg2 = 0f64;
    for i in 0..400_000u32 {
        // ex2 over the whole finite range that does not overflow/flush
        let x = if i % 2 == 0 {
            (rng.next() as u32) & 0xc31f_ffff // |x| < 160
        } else {
            (rng.next() as u32 & 0x807f_ffff) | 0x3f00_0000 // |x| in [0.5, 1)
        };
        let xf = f32::from_bits(x);
        if xf.is_finite() && xf > -126.0 && xf < 128.0 {
            let reference = (xf as f64).exp2();
            let got = approx::ex2_approx_f32(x, true);
            let u = ulps32(got, reference);
            worst_ex2 = worst_ex2.max(u);
            assert!(u <= 2.0, "ex2({xf:e}) {u} ulp (ISA: 2)");
        }
        // lg2 over positive normals
        let y = (rng.next() as u32) & 0x7fff_ffff;
        let yf = f32::from_bits(y);
        if yf.is_normal() {
            let reference = (yf as f64).log2();
            let got = f32::from_bits(approx::lg2_approx_f32(y, false)) as f64;
            let err = (got - reference).abs();
            if yf > 0.5 && yf < 2.0 {
                assert!(err <= 2f64.powi(-22), "lg2({yf:e}) abs err {err:e}");
            } else {
                assert!(
                    err <= 2f64.powi(-22) * reference.abs(),
                    "lg2({yf:e}) rel err"
                );
            }
            worst_lg2 = worst_lg2.max(ulps32(approx::lg2_approx_f32(y, false), reference));
        }
    }
    // The models are nearly correctly rounded: at most half an ulp plus the
    // f64 kernel error.
    assert!(worst_ex2 <= 0.5 + 1e-6, "ex2 worst {worst_ex2}");
    assert!(worst_lg2 <= 0.5 + 1e-6, "lg2 worst {worst_lg2}");
}

/// ex2.approx.f32 without .ftz produces subnormal results within 2 ulp:
/// every f32 in [-152, -126).
#[test]
fn ex2_subnormal_results() {
    let mut x = 0xc2fc_0001u32; // just below -126
    let end = 0xc318_0000u32; // -152
    let mut count = 0;
    while x <= end {
        let xf = f32::from_bits(x) as f64;
        let reference = xf.exp2();
        let got = approx::ex2_approx_f32(x, false);
        let u = (f32::from_bits(got) as f64 - reference).abs() / 2f64.powi(-149);
        assert!(u <= 2.0, "ex2({xf}) = {got:#x}: {u} subnormal ulps");
        assert_eq!(approx::ex2_approx_f32(x, true), 0, ".ftz flushes ex2({xf})");
        x += 7;
        count += 1;
    }
    assert!(count > 100_000);
}

#[test]
fn sin_cos_bounds() {
    let mut rng = Rng(33);
    let two_pi = 2.0 * core::f64::consts::PI;
    for i in 0..400_000 {
        let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        let (range, bound) = if i % 2 == 0 {
            (two_pi, 2f64.powf(-20.5))
        } else {
            (100.0 * core::f64::consts::PI, 2f64.powf(-14.7))
        };
        let x = (u * range) as f32;
        if x.abs() as f64 > range {
            continue;
        }
        let xb = x.to_bits();
        let s = f32::from_bits(approx::sin_approx_f32(xb, false)) as f64;
        let c = f32::from_bits(approx::cos_approx_f32(xb, false)) as f64;
        let (rs, rc) = ((x as f64).sin(), (x as f64).cos());
        assert!(
            (s - rs).abs() <= bound,
            "sin({x:e}) err {:e} > {bound:e}",
            (s - rs).abs()
        );
        assert!(
            (c - rc).abs() <= bound,
            "cos({x:e}) err {:e} > {bound:e}",
            (c - rc).abs()
        );
    }
    // MUFU in revolutions is nearly correctly rounded against sin(2 pi r)
    for _ in 0..200_000 {
        let r = ((rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 8.0 - 4.0) as f32;
        let a = 2.0 * core::f64::consts::PI * r as f64;
        let (rs, rc) = (a.sin(), a.cos());
        for (got, reference) in [(mufu::sin(r.to_bits()), rs), (mufu::cos(r.to_bits()), rc)] {
            if reference.abs() > 1e-30 {
                assert!(ulps32(got, reference) <= 0.5 + 1e-5, "mufu sin/cos({r:e})");
            }
        }
    }
}

#[test]
fn tanh_bounds() {
    let mut rng = Rng(34);
    for i in 0..300_000 {
        let x = if i % 2 == 0 {
            rng.next() as u32
        } else {
            (rng.next() as u32 & 0x83ff_ffff) | 0x3c00_0000
        };
        let xf = f32::from_bits(x);
        if !xf.is_normal() {
            continue;
        }
        let reference = (xf as f64).tanh();
        let got = f32::from_bits(approx::tanh_approx_f32(x)) as f64;
        // ISA: relative error 2^-11; the model is within ~half an ulp
        assert!(
            (got - reference).abs() <= 2f64.powi(-11) * reference.abs(),
            "tanh({xf:e})"
        );
        assert!(
            ulps32(approx::tanh_approx_f32(x), reference) <= 0.5 + 1e-4,
            "tanh({xf:e}) ulps"
        );
    }
}

/// The half-precision forms, exhaustively, against the ISA bounds.
#[test]
fn half_forms_exhaustive_bounds() {
    let f16 = reference::F16;
    let bf16 = reference::BF16;
    for x in 0..=0xffffu16 {
        if f16.is_finite(x as u64) {
            let v = value(f16, x as u64).to_f64();
            let e = v.exp2();
            if e < 65504.0 && e >= 2f64.powi(-14) {
                let got = value(f16, approx::ex2_approx_f16(x) as u64).to_f64();
                assert!((got - e).abs() <= 2f64.powf(-9.9) * e, "ex2.f16({x:#x})");
            }
            let t = v.tanh();
            let got = value(f16, approx::tanh_approx_f16(x) as u64).to_f64();
            assert!((got - t).abs() <= 2f64.powf(-10.987), "tanh.f16({x:#x})");
        }
        if bf16.is_finite(x as u64) {
            let v = value(bf16, x as u64).to_f64();
            let e = v.exp2();
            if e < 3.3e38 && e >= 2f64.powi(-126) && v.abs() >= 2f64.powi(-126) {
                let got = value(bf16, approx::ex2_approx_ftz_bf16(x) as u64).to_f64();
                assert!((got - e).abs() <= 2f64.powi(-7) * e, "ex2.bf16({x:#x})");
            }
            let t = v.tanh();
            let got = value(bf16, approx::tanh_approx_bf16(x) as u64).to_f64();
            assert!((got - t).abs() <= 2f64.powi(-8), "tanh.bf16({x:#x})");
        }
    }
}

/// div.approx within 2 ulp for |b| in [2^-126, 2^126]; div.full within 2
/// ulp everywhere (finite, non-overflowing quotients).
#[test]
fn div_bounds() {
    let mut rng = Rng(35);
    for i in 0..300_000 {
        let a = rng.next() as u32 & 0xff7f_ffff; // finite
        let b = rng.next() as u32 & 0xff7f_ffff;
        let (af, bf) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
        if bf == 0.0 || af.is_nan() || bf.is_nan() {
            continue;
        }
        let q = af / bf; // f64: within 2^-53 relative of the exact quotient
        if q.abs() >= 3.4e38 {
            continue;
        }
        let babs = bf.abs();
        // Without .ftz a subnormal divisor is in range too (scaled by 2^24,
        // which keeps |a| < 2^104 finite).
        if (babs <= 2f64.powi(126) && af.abs() < 2f64.powi(104)) && q.abs() >= 2f64.powi(-126) {
            let got = approx::div_approx_f32(a, b, false);
            assert!(ulps32(got, q) <= 2.0, "div.approx {af:e}/{bf:e}");
        }
        let ftz = i % 3 == 0;
        if ftz
            && (af.abs() < 2f64.powi(-126) || babs < 2f64.powi(-126) || q.abs() < 2f64.powi(-126))
        {
            continue;
        }
        let got = approx::div_full_f32(a, b, ftz);
        assert!(
            ulps32(got, q) <= 2.0,
            "div.full {af:e}/{bf:e} = {:e}",
            f32::from_bits(got)
        );
    }
}
