//! MUFU: dispatch to the shared models in `ptxc::float::approx::mufu` (the
//! PTX interpreter's `rcp/sqrt/rsqrt/ex2/lg2/sin/cos/tanh.approx` are built
//! from the same functions, so both sides compute identical bits). The
//! models are (nearly) correctly rounded, not the hardware's tables; see
//! `compiler/src/float/approx.rs` for their accuracy and special cases.
//!
//! * RCP, RSQ, SQRT, EX2, LG2, SIN, COS flush subnormal inputs and results;
//!   TANH passes subnormals through. NaN -> 0x7fffffff.
//! * SIN/COS take revolutions (ptxas multiplies by 1/(2 pi) with FMUL.RZ
//!   first).
//! * RCP64H/RSQ64H operate on the HIGH word of a double: the source register
//!   is bits 63:32 of an f64 (sign, 11-bit exponent, top 20 fraction bits;
//!   the low word is not read) and the result is the high word of
//!   1/x resp. 1/sqrt(x), rounded to 20 fraction bits. ptxas uses it as
//!   the seed of f64 division/sqrt Newton iterations, pairing it with a low
//!   word it sets itself (`rcp.approx.ftz.f64` writes 0 there).
//! * `.F16`/`.BF16` forms of EX2 and TANH (sm_75+/sm_90): modelled as the
//!   PTX `ex2.approx.f16`, `ex2.approx.ftz.bf16`, `tanh.approx.f16`,
//!   `tanh.approx.bf16` functions on bits 15:0 of the source, the 16-bit
//!   result in bits 15:0 and zero above. UNCONFIRMED layout (not in the
//!   corpus; the f16x2 PTX forms may be lowered differently).

use ptxc::float::approx::{self, mufu as m};

use super::fmods::MufuOp;

/// `MUFU.RCP`: 1/x.
#[inline]
pub fn rcp(x: u32) -> u32 {
    m::rcp(x)
}

/// `MUFU.RSQ`: 1/sqrt(x).
#[inline]
pub fn rsq(x: u32) -> u32 {
    m::rsq(x)
}

/// `MUFU.SQRT`.
#[inline]
pub fn sqrt(x: u32) -> u32 {
    m::sqrt(x)
}

/// `MUFU.EX2`: 2^x.
#[inline]
pub fn ex2(x: u32) -> u32 {
    m::ex2(x)
}

/// `MUFU.LG2`: log2(x).
#[inline]
pub fn lg2(x: u32) -> u32 {
    m::lg2(x)
}

/// `MUFU.SIN` of an argument in revolutions: sin(2 pi x).
#[inline]
pub fn sin(x: u32) -> u32 {
    m::sin(x)
}

/// `MUFU.COS` of an argument in revolutions: cos(2 pi x).
#[inline]
pub fn cos(x: u32) -> u32 {
    m::cos(x)
}

/// `MUFU.TANH` (sm_75+).
#[inline]
pub fn tanh(x: u32) -> u32 {
    m::tanh(x)
}

/// `MUFU.RCP64H`: high word in, high word of 1/x out.
#[inline]
pub fn rcp64h(hi: u32) -> u32 {
    m::rcp64h(hi)
}

/// `MUFU.RSQ64H`: high word in, high word of 1/sqrt(x) out.
#[inline]
pub fn rsq64h(hi: u32) -> u32 {
    m::rsq64h(hi)
}

/// Dispatch on the decoded function.
#[inline]
pub fn mufu(op: MufuOp, x: u32) -> u32 {
    let h = x as u16;
    match op {
        MufuOp::Rcp => rcp(x),
        MufuOp::Rsq => rsq(x),
        MufuOp::Sqrt => sqrt(x),
        MufuOp::Ex2 => ex2(x),
        MufuOp::Lg2 => lg2(x),
        MufuOp::Sin => sin(x),
        MufuOp::Cos => cos(x),
        MufuOp::Tanh => tanh(x),
        MufuOp::Rcp64h => rcp64h(x),
        MufuOp::Rsq64h => rsq64h(x),
        MufuOp::Ex2F16 => approx::ex2_approx_f16(h) as u32,
        MufuOp::TanhF16 => approx::tanh_approx_f16(h) as u32,
        MufuOp::Ex2Bf16 => approx::ex2_approx_ftz_bf16(h) as u32,
        MufuOp::TanhBf16 => approx::tanh_approx_bf16(h) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAN: u32 = 0x7fff_ffff;
    const INF: u32 = 0x7f80_0000;
    const NINF: u32 = 0xff80_0000;
    const ONE: u32 = 0x3f80_0000;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    /// Distance in ulps between two finite f32 of the same sign.
    fn ulps(a: u32, b: u32) -> u32 {
        (a as i64 - b as i64).unsigned_abs() as u32
    }

    #[test]
    fn rcp_special_and_accuracy() {
        // ISA table: +-0 -> +-inf, +-inf -> +-0, NaN -> NaN; subnormal input
        // flushes (-> +-inf); exact powers of two.
        assert_eq!(rcp(0), INF);
        assert_eq!(rcp(0x8000_0000), NINF);
        assert_eq!(rcp(INF), 0);
        assert_eq!(rcp(NINF), 0x8000_0000);
        assert_eq!(rcp(0x7fc0_0001), NAN);
        assert_eq!(rcp(1), INF);
        assert_eq!(rcp(0x8000_0001), NINF);
        assert_eq!(rcp(f(2.0)), f(0.5));
        assert_eq!(rcp(f(-0.25)), f(-4.0));
        // 1/2^127 = 2^-127 is subnormal: flushed to +0.
        assert_eq!(rcp(0x7f00_0000), 0);
        // Within 1 ulp (ISA bound) of host 1/x.
        for x in [3.0f32, 7.0, 0.1, 1.0e-30, 123456.7, -9.99] {
            assert!(ulps(rcp(f(x)), f(1.0 / x)) <= 1, "{x}");
        }
        assert_eq!(mufu(MufuOp::Rcp, f(4.0)), f(0.25));
    }

    #[test]
    fn sqrt_rsq() {
        assert_eq!(sqrt(f(4.0)), f(2.0));
        assert_eq!(sqrt(0x8000_0000), 0x8000_0000);
        assert_eq!(sqrt(f(-1.0)), NAN);
        assert_eq!(sqrt(INF), INF);
        assert_eq!(sqrt(1), 0); // subnormal flushed
        assert_eq!(rsq(f(4.0)), f(0.5));
        assert_eq!(rsq(f(0.25)), f(2.0));
        assert_eq!(rsq(0), INF);
        assert_eq!(rsq(0x8000_0000), NINF);
        assert_eq!(rsq(INF), 0);
        assert_eq!(rsq(f(-1.0)), NAN);
        assert_eq!(rsq(NINF), NAN);
        // Corpus: MUFU.RSQ R, -QNAN produces the NaN of the 0/0 slow path.
        assert_eq!(rsq(0xffc0_0000), NAN);
        for x in [2.0f32, 3.0, 1.0e-20, 5.0e30] {
            let host = 1.0 / (x as f64).sqrt();
            assert!(ulps(rsq(f(x)), f(host as f32)) <= 1, "{x}");
            assert!(ulps(sqrt(f(x)), f((x as f64).sqrt() as f32)) == 0, "{x}");
        }
    }

    #[test]
    fn ex2_lg2() {
        assert_eq!(ex2(0), ONE);
        assert_eq!(ex2(0x8000_0000), ONE);
        assert_eq!(ex2(NINF), 0);
        assert_eq!(ex2(INF), INF);
        assert_eq!(ex2(NAN), NAN);
        assert_eq!(ex2(f(10.0)), f(1024.0));
        assert_eq!(ex2(f(-3.0)), f(0.125));
        assert_eq!(ex2(f(128.0)), INF);
        assert_eq!(ex2(f(-127.0)), 0); // 2^-127 subnormal: flushed
        assert_eq!(ex2(1), ONE); // subnormal input flushed
        for x in [0.5f32, -0.3, 12.345, -100.25] {
            let host = (x as f64).exp2() as f32;
            assert!(ulps(ex2(f(x)), f(host)) <= 2, "{x}");
        }
        assert_eq!(lg2(f(8.0)), f(3.0));
        assert_eq!(lg2(f(0.5)), f(-1.0));
        assert_eq!(lg2(ONE), 0);
        assert_eq!(lg2(0), NINF);
        assert_eq!(lg2(0x8000_0000), NINF);
        assert_eq!(lg2(1), NINF); // subnormal flushed
        assert_eq!(lg2(f(-1.0)), NAN);
        assert_eq!(lg2(INF), INF);
        for x in [3.0f32, 10.0, 1.0e-10, 7.5e20] {
            let host = (x as f64).log2() as f32;
            assert!(ulps(lg2(f(x)), f(host)) <= 2, "{x}");
        }
    }

    #[test]
    fn sin_cos_in_revolutions() {
        assert_eq!(sin(f(0.25)), ONE);
        assert_eq!(sin(f(-0.25)), f(-1.0));
        assert_eq!(sin(f(0.5)), 0);
        assert_eq!(sin(0x8000_0000), 0x8000_0000);
        assert_eq!(sin(INF), NAN);
        assert_eq!(cos(0), ONE);
        assert_eq!(cos(f(0.5)), f(-1.0));
        assert_eq!(cos(f(0.25)), 0);
        assert_eq!(cos(NINF), NAN);
        assert_eq!(cos(1), ONE); // subnormal flushed: cos(0)
                                 // sin(2 pi / 12) = 0.5 within the ISA's 2^-20.5 absolute bound.
        let s = f32::from_bits(sin(f(1.0 / 12.0)));
        assert!((s - 0.5).abs() < 2f32.powi(-20));
    }

    #[test]
    fn tanh_cases() {
        assert_eq!(tanh(0), 0);
        assert_eq!(tanh(0x8000_0000), 0x8000_0000);
        assert_eq!(tanh(INF), ONE);
        assert_eq!(tanh(NINF), f(-1.0));
        assert_eq!(tanh(1), 1); // subnormals pass through
        assert_eq!(tanh(NAN), NAN);
        for x in [0.1f32, 0.9, -2.0, 5.0] {
            let t = f32::from_bits(tanh(f(x))) as f64;
            let h = (x as f64).tanh();
            assert!(((t - h) / h).abs() < 2f64.powi(-11), "{x}");
        }
    }

    #[test]
    fn rcp64h_rsq64h_high_word() {
        // 2.0 = 0x40000000_00000000 -> 0.5 = 0x3fe00000_...
        assert_eq!(rcp64h(0x4000_0000), 0x3fe0_0000);
        assert_eq!(rcp64h(0xc010_0000), 0xbfd0_0000); // -4 -> -0.25
                                                      // 3.0 (0x40080000): 1/3 = 0x3fd5555555555555; low word 0x55555555 <
                                                      // half, so the rounded high word is 0x3fd55555.
        assert_eq!(rcp64h(0x4008_0000), 0x3fd5_5555);
        // 1.5 (0x3ff80000): 2/3 = 0x3fe5555555555555 -> 0x3fe55555.
        assert_eq!(rcp64h(0x3ff8_0000), 0x3fe5_5555);
        assert_eq!(rcp64h(0), 0x7ff0_0000);
        assert_eq!(rcp64h(0x8000_0000), 0xfff0_0000);
        assert_eq!(rcp64h(0x0000_0001), 0x7ff0_0000); // subnormal -> inf
        assert_eq!(rcp64h(0x7ff0_0000), 0);
        assert_eq!(rcp64h(0xfff0_0000), 0x8000_0000);
        assert_eq!(rcp64h(0x7ff8_0000), NAN);
        assert_eq!(rsq64h(0x4010_0000), 0x3fe0_0000); // 4 -> 0.5
        assert_eq!(rsq64h(0x3fd0_0000), 0x4000_0000); // 0.25 -> 2
        assert_eq!(rsq64h(0xbff0_0000), NAN); // -1
        assert_eq!(rsq64h(0), 0x7ff0_0000);
        assert_eq!(rsq64h(0x8000_0000), 0xfff0_0000);
        assert_eq!(rsq64h(0x7ff0_0000), 0);
        assert_eq!(mufu(MufuOp::Rsq64h, 0x4010_0000), 0x3fe0_0000);
    }

    #[test]
    fn half_forms() {
        // ex2(f16 1.0 = 0x3c00) = 2.0 (0x4000); tanh(f16 0) = 0; bf16 ex2(1.0
        // = 0x3f80) = 2.0 (0x4000). Upper half zero.
        assert_eq!(mufu(MufuOp::Ex2F16, 0xffff_3c00), 0x4000);
        assert_eq!(mufu(MufuOp::TanhF16, 0x8000), 0x8000);
        assert_eq!(mufu(MufuOp::Ex2Bf16, 0x3f80), 0x4000);
        assert_eq!(mufu(MufuOp::TanhBf16, 0x7f80), 0x3f80); // tanh(inf) = 1
                                                            // Dispatch covers every f32 function.
        assert_eq!(mufu(MufuOp::Sqrt, f(9.0)), f(3.0));
        assert_eq!(mufu(MufuOp::Ex2, f(1.0)), f(2.0));
        assert_eq!(mufu(MufuOp::Lg2, f(2.0)), ONE);
        assert_eq!(mufu(MufuOp::Sin, 0), 0);
        assert_eq!(mufu(MufuOp::Cos, 0), ONE);
        assert_eq!(mufu(MufuOp::Tanh, 0), 0);
        assert_eq!(mufu(MufuOp::Rsq, f(16.0)), f(0.25));
        assert_eq!(mufu(MufuOp::Rcp64h, 0x3ff0_0000), 0x3ff0_0000);
    }
}
