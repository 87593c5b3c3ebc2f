//! Approximate operations: one deterministic, documented model per
//! instruction, shared bit-for-bit by the PTX interpreter and the SASS
//! simulator's MUFU.
//!
//! # Structure
//!
//! * [`mufu`]: the SASS multi-function unit. One model per MUFU function.
//!   MUFU flushes subnormal inputs and results to sign-preserving zero
//!   (except TANH, which passes subnormals through, per the ISA note on
//!   `tanh.approx.f32`). SIN/COS take their argument in revolutions
//!   (docs/SEMANTICS.md, Approximate instructions: ptxas first multiplies by 1/(2pi) with FMUL.RZ).
//! * PTX-level functions (`*_approx_*`, `div_full_f32`): each written as the
//!   composition of MUFU models and exact IEEE operations that mirrors the
//!   SASS sequence ptxas is believed to emit, so that the interpreter running
//!   the PTX instruction and the simulator running the SASS sequence compute
//!   the same bits. Where the lowering is a guess, it says so.
//!
//! # The models
//!
//! Hardware MUFU results are not reproduced (their tables are not public);
//! instead every model returns (nearly) the correctly rounded result, which
//! satisfies the ISA's error bound with a wide margin:
//!
//! | function | model | ISA bound |
//! |---|---|---|
//! | RCP | RN(1/x), exact soft-float division | 1 ulp (#floating-point-instructions-rcp) |
//! | SQRT | RN(sqrt x), exact | 2^-23 relative (#floating-point-instructions-sqrt) |
//! | RSQ | RN_f32(RN_f64(1 / RN_f64(sqrt x))) | 2^-22.9 relative (#floating-point-instructions-rsqrt) |
//! | EX2 | RN_f32(f64 kernel), kernel error < 2^-50 relative | 2 ulp (#floating-point-instructions-ex2) |
//! | LG2 | RN_f32(f64 kernel), kernel error < 2^-50 relative | 2^-22 abs on (0.5,2), relative elsewhere (#floating-point-instructions-lg2) |
//! | SIN/COS | RN_f32(sin/cos(2 pi r)) by f64 kernels, exact reduction in turns | 2^-20.5 abs on [-2pi,2pi], 2^-14.7 on [-100pi,100pi] (#floating-point-instructions-sin, -cos) |
//! | TANH | RN_f32(f64 kernel) | 2^-11 relative (#floating-point-instructions-tanh) |
//!
//! The f64 kernels below use only `+ - * /`, `round`, comparisons and bit
//! manipulation of `f64` (never `sin`, `exp`, `ln`, `powf`, ... from the
//! platform's libm, and never a fused multiply-add), all of which Rust
//! evaluates with IEEE 754 semantics on every supported target with SSE2 or
//! an equivalent FPU. The models are therefore bit-identical across
//! platforms. (32-bit x86 without SSE2, using x87 extended precision, would
//! break this; the project does not target it.)
//!
//! # Special cases and subnormals
//!
//! Special-value tables come from the ISA sections cited per function.
//! Subnormal inputs of the non-`.ftz` forms follow what ptxas 11.8 emits
//! (measured with `ptxas -arch=sm_80`, listings in
//! corpus/regressions/approx_f32_subnormal/): `rcp`, `sqrt`, `rsqrt` and
//! `lg2` wrap MUFU in a sequence that scales a subnormal (for `rcp` also a
//! huge) input and corrects the result, so subnormals are supported, as the
//! current ISA says; `ex2` halves inputs below -126 and squares the result,
//! producing subnormal results. The `.ftz` forms are the bare MUFU, which
//! treats a subnormal input as a zero of its sign (third-party hardware
//! tests, vosen/ptx_tests testcase/{rcp,sqrt,rsqrt,lg2,sin}.rs, report that
//! behaviour also without `.ftz`; that contradicts ptxas 11.8's sequences
//! and is presumably an older or differently configured compiler; the
//! harness follows the compiler it checks against). `sin`/`cos` are
//! `FMUL.RZ` + MUFU in both forms.

use super::arith;
use super::cmp::{compare, CmpOp};
use super::convert::{cvt_float, CvtMods};
use super::formats::{Class, FloatType};
use super::{Mods, Rounding};

const F32: FloatType = FloatType::F32;

/// f32 RN(1/(2 pi)) = 0x3e22f983, the constant of the FMUL.RZ that precedes
/// MUFU.SIN/COS.
pub const INV_2PI_F32: u32 = 0x3e22_f983;

// ---------------------------------------------------------------------------
// Deterministic f64 kernels.
// ---------------------------------------------------------------------------

/// 2^n for integer n in [-1022, 1023], exactly.
#[inline]
fn pow2(n: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&n));
    f64::from_bits(((n + 1023) as u64) << 52)
}

/// e^t for |t| <= 0.5: Taylor series to t^16/16! (truncation < 2^-60),
/// nested Horner form.
#[inline]
fn exp_small(t: f64) -> f64 {
    let mut p = 1.0f64;
    let mut k = 16;
    while k >= 1 {
        p = 1.0 + p * t / k as f64;
        k -= 1;
    }
    p
}

/// e^t - 1 for |t| <= 1: Taylor series to t^22/22!, nested form; relative
/// error a few 2^-53 (no cancellation).
#[inline]
fn expm1_small(t: f64) -> f64 {
    let mut p = 1.0f64;
    let mut k = 22;
    while k >= 2 {
        p = 1.0 + p * t / k as f64;
        k -= 1;
    }
    t * p
}

/// 2^x for |x| <= 1000 by x = n + f, |f| <= 1/2: 2^f = e^(f ln 2).
/// `f = x - n` is exact for every f32 input.
pub(super) fn exp2_kernel(x: f64) -> f64 {
    let n = x.round();
    let f = x - n;
    let y = exp_small(f * core::f64::consts::LN_2);
    // Apply 2^n in two steps so that both factors stay normal.
    let n = n as i32;
    let h = n / 2;
    y * pow2(h) * pow2(n - h)
}

/// e^y for 0 <= y <= 100 (used by tanh), Cody-Waite reduction by ln 2.
fn exp_kernel(y: f64) -> f64 {
    // ln 2 split so that n * LN2_HI is exact for |n| < 2^20.
    const LN2_HI: f64 = 0.693_147_180_369_123_8; // 0x3FE62E42FEE00000
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10; // 0x3DEA39EF35793C76
    let n = (y * core::f64::consts::LOG2_E).round();
    let r = (y - n * LN2_HI) - n * LN2_LO;
    exp_small(r) * pow2(n as i32)
}

/// log2(x) for finite positive normal x: x = m 2^e, m in [sqrt(1/2),
/// sqrt(2)), ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716, series to
/// s^27 (truncation < 2^-68 relative).
pub(super) fn log2_kernel(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let mut m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // m - 1 and m + 1 are exact for m with <= 52 fraction bits in [0.7, 1.42].
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut p = 0.0f64;
    let mut k = 13;
    while k >= 0 {
        p = p * s2 + 1.0 / (2 * k + 1) as f64;
        k -= 1;
    }
    let ln_m = 2.0 * s * p;
    e as f64 + ln_m * core::f64::consts::LOG2_E
}

/// sin(t) for |t| <= pi/4: Taylor series to t^19/19!, nested form.
#[inline]
fn sin_small(t: f64) -> f64 {
    let t2 = t * t;
    let mut p = 1.0f64;
    let mut k = 9;
    while k >= 1 {
        p = 1.0 - p * t2 / ((2 * k) * (2 * k + 1)) as f64;
        k -= 1;
    }
    t * p
}

/// cos(t) for |t| <= pi/4: Taylor series to t^20/20!, nested form.
#[inline]
fn cos_small(t: f64) -> f64 {
    let t2 = t * t;
    let mut p = 1.0f64;
    let mut k = 10;
    while k >= 1 {
        p = 1.0 - p * t2 / ((2 * k - 1) * (2 * k)) as f64;
        k -= 1;
    }
    p
}

/// (sin(2 pi r), cos(2 pi r)) for a finite r with at most 24 significant
/// bits (an f32 value): exact reduction to the nearest quarter turn, then
/// the small-angle series on at most pi/4.
pub(super) fn sincos_turns_kernel(r: f64) -> (f64, f64) {
    let rf = r - r.round(); // exact, in [-1/2, 1/2]
    let t = rf * 4.0; // exact
    let k = t.round();
    let f = t - k; // exact, in [-1/2, 1/2]
    let theta = f * core::f64::consts::FRAC_PI_2;
    let (s, c) = (sin_small(theta), cos_small(theta));
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// tanh(x) for finite x >= 0.
pub(super) fn tanh_kernel(ax: f64) -> f64 {
    if ax >= 10.0 {
        // 1 - tanh(10) < 2^-27: rounds to 1.0 in f32 and below.
        1.0
    } else if ax < 0.5 {
        let e = expm1_small(2.0 * ax);
        e / (e + 2.0)
    } else {
        let e = exp_kernel(2.0 * ax);
        1.0 - 2.0 / (e + 1.0)
    }
}

#[inline]
fn f32_of(x: f64) -> u32 {
    // `as` rounds to nearest even (IEEE), overflow to infinity.
    (x as f32).to_bits()
}

#[inline]
fn f64_of32(x: u32) -> f64 {
    f32::from_bits(x) as f64
}

/// The SASS MUFU functions (f32 unless named otherwise).
pub mod mufu {
    use super::*;

    #[inline(always)]
    fn flush(x: u32) -> u32 {
        F32.flush(x as u64) as u32
    }

    const NAN32: u32 = 0x7fff_ffff;

    /// MUFU.RCP: 1/x. Flushes subnormal inputs (-> +-inf) and results (->
    /// +-0: the ISA's `div.approx` rule "for 2^126 < |b| < 2^128 ... returns
    /// a sign-preserving zero" shows the reciprocal flushing). Table:
    /// +-inf -> +-0, +-0 -> +-inf, NaN -> NaN.
    pub fn rcp(x: u32) -> u32 {
        let x = flush(x);
        flush(arith::div_core(F32, F32.one(), x as u64, Rounding::Rn) as u32)
    }

    /// MUFU.SQRT: RN(sqrt x) with subnormal inputs flushed (-> +-0). -0 ->
    /// -0, negative -> NaN, +inf -> +inf. Results are never subnormal.
    pub fn sqrt(x: u32) -> u32 {
        arith::sqrt_core(F32, flush(x) as u64, Rounding::Rn) as u32
    }

    /// MUFU.RSQ: 1/sqrt(x). Table (#floating-point-instructions-rsqrt):
    /// -inf -> NaN, -normal -> NaN, -0 -> -inf, +0 -> +inf, +inf -> +0,
    /// NaN -> NaN; subnormals flushed first.
    pub fn rsq(x: u32) -> u32 {
        let x = flush(x);
        match F32.classify(x as u64) {
            Class::Nan => NAN32,
            Class::Zero => F32.signed_inf(F32.sign(x as u64)) as u32,
            _ if F32.sign(x as u64) => NAN32,
            Class::Infinite => 0,
            _ => f32_of(1.0 / f64_of32(x).sqrt()),
        }
    }

    /// MUFU.EX2: 2^x. Table (#floating-point-instructions-ex2): -inf -> +0,
    /// +-0 -> +1, +inf -> +inf, NaN -> NaN. Subnormal inputs flush (-> 1.0),
    /// subnormal results flush to +0.
    pub fn ex2(x: u32) -> u32 {
        let x = flush(x);
        match F32.classify(x as u64) {
            Class::Nan => NAN32,
            Class::Zero => F32.one() as u32,
            Class::Infinite => {
                if F32.sign(x as u64) {
                    0
                } else {
                    F32.inf() as u32
                }
            }
            _ => {
                let v = f64_of32(x);
                if v >= 128.0 {
                    F32.inf() as u32
                } else if v < -152.0 {
                    0
                } else {
                    flush(f32_of(exp2_kernel(v)))
                }
            }
        }
    }

    /// MUFU.LG2: log2(x). Table (#floating-point-instructions-lg2): -inf ->
    /// NaN, -normal -> NaN, +-0 -> -inf, +inf -> +inf, NaN -> NaN;
    /// subnormals flushed first (so they give -inf).
    pub fn lg2(x: u32) -> u32 {
        let x = flush(x);
        match F32.classify(x as u64) {
            Class::Nan => NAN32,
            Class::Zero => F32.signed_inf(true) as u32,
            _ if F32.sign(x as u64) => NAN32,
            Class::Infinite => x,
            _ => f32_of(log2_kernel(f64_of32(x))),
        }
    }

    /// MUFU.SIN of an argument in revolutions: sin(2 pi r). +-0 -> +-0,
    /// +-inf -> NaN, NaN -> NaN, subnormal inputs flushed. Other exact zeros
    /// (r a multiple of 1/2) follow IEEE 754-2019 sinPi: zero with the sign
    /// of r (the ISA does not specify them).
    pub fn sin(r: u32) -> u32 {
        let r = flush(r);
        match F32.classify(r as u64) {
            Class::Nan | Class::Infinite => NAN32,
            Class::Zero => r,
            _ => {
                let s = sincos_turns_kernel(f64_of32(r)).0;
                if s == 0.0 {
                    r & 0x8000_0000
                } else {
                    flush(f32_of(s))
                }
            }
        }
    }

    /// MUFU.COS of an argument in revolutions: cos(2 pi r). +-0 -> +1,
    /// +-inf -> NaN, NaN -> NaN, subnormal inputs flushed. Exact zeros (r an
    /// odd multiple of 1/4) are +0, as IEEE 754-2019 cosPi.
    pub fn cos(r: u32) -> u32 {
        let r = flush(r);
        match F32.classify(r as u64) {
            Class::Nan | Class::Infinite => NAN32,
            Class::Zero => F32.one() as u32,
            _ => {
                let c = sincos_turns_kernel(f64_of32(r)).1;
                if c == 0.0 {
                    0
                } else {
                    flush(f32_of(c))
                }
            }
        }
    }

    /// MUFU.TANH (sm_75+). Table (#floating-point-instructions-tanh): -inf
    /// -> -1, -0 -> -0, +0 -> +0, +inf -> +1, NaN -> NaN. "The subnormal
    /// inputs gets passed through to the output".
    pub fn tanh(x: u32) -> u32 {
        match F32.classify(x as u64) {
            Class::Nan => NAN32,
            Class::Zero | Class::Subnormal => x,
            Class::Infinite => F32.zero(F32.sign(x as u64)) as u32 | F32.one() as u32,
            _ => {
                let v = f64_of32(x);
                let t = tanh_kernel(v.abs());
                f32_of(if v < 0.0 { -t } else { t })
            }
        }
    }

    /// Rounds a positive f64 to 20 fraction bits (the 1.11.20 format of
    /// MUFU.RCP64H/RSQ64H results) and returns the upper word; results below
    /// the normal range are flushed to zero.
    fn to_hi20(y: f64) -> u32 {
        let b = y.to_bits();
        let lo = b & 0xffff_ffff;
        let mut hi = b >> 32;
        // Round to nearest, ties to even, on bit 32.
        if lo > 0x8000_0000 || (lo == 0x8000_0000 && hi & 1 == 1) {
            hi += 1; // may carry into the exponent: still correct
        }
        if (hi >> 20) & 0x7ff == 0 {
            0
        } else {
            hi as u32
        }
    }

    /// Upper-word special cases shared by RCP64H and RSQ64H.
    fn hi_class(hi: u32) -> Class {
        FloatType::F64.classify((hi as u64) << 32)
    }

    /// MUFU.RCP64H as used by `rcp.approx.ftz.f64`
    /// (#floating-point-instructions-rcp-approx-ftz-f64): takes the upper
    /// word of an f64 (1.11.20), returns the upper word of the result. Table:
    /// -inf -> -0, -subnormal -> -inf, -0 -> -inf, +0 -> +inf, +subnormal ->
    /// +inf, +inf -> +0, NaN -> 0x7fffffff (the ISA's canonical
    /// 0x7fffffff00000000). Model: RN to 20 fraction bits of RN_f64(1/v);
    /// subnormal results flush to zero.
    pub fn rcp64h(hi: u32) -> u32 {
        let neg = hi & 0x8000_0000;
        match hi_class(hi) {
            Class::Nan => 0x7fff_ffff,
            Class::Infinite => neg,
            Class::Zero | Class::Subnormal => neg | 0x7ff0_0000,
            _ => {
                let v = f64::from_bits(((hi & 0x7fff_ffff) as u64) << 32);
                neg | to_hi20(1.0 / v)
            }
        }
    }

    /// MUFU.RSQ64H as used by `rsqrt.approx.ftz.f64`: upper word in, upper
    /// word out. Table (by analogy with rsqrt.approx.f32 and the
    /// rcp.approx.ftz.f64 rules): -inf, -normal -> NaN (0x7fffffff);
    /// -0, -subnormal -> -inf; +0, +subnormal -> +inf; +inf -> +0; NaN ->
    /// 0x7fffffff. Model: RN to 20 fraction bits of RN_f64(1/RN_f64(sqrt v)).
    pub fn rsq64h(hi: u32) -> u32 {
        let neg = hi & 0x8000_0000;
        match hi_class(hi) {
            Class::Nan => 0x7fff_ffff,
            Class::Zero | Class::Subnormal => neg | 0x7ff0_0000,
            _ if neg != 0 => 0x7fff_ffff,
            Class::Infinite => 0,
            _ => {
                let v = f64::from_bits((hi as u64) << 32);
                to_hi20(1.0 / v.sqrt())
            }
        }
    }
}

// ---------------------------------------------------------------------------
// PTX-level approximate instructions.
// ---------------------------------------------------------------------------

/// Whether ptxas' non-`.ftz` sequences take their subnormal path:
/// `FSETP.GEU.AND P0, PT, |x|, 1.175494350822287508e-38` false, i.e. |x|
/// below the smallest normal (zeros included) or NaN.
#[inline]
fn below_normal(x: u32) -> bool {
    !compare(
        F32,
        CmpOp::Geu,
        u64::from(x & 0x7fff_ffff),
        0x0080_0000,
        false,
    )
}

#[inline]
fn fmul(a: u32, b: u32) -> u32 {
    arith::mul(F32, u64::from(a), u64::from(b), Rounding::Rn, Mods::NONE) as u32
}

/// ptxas 11.8's non-`.ftz` wrapper around a one-input MUFU (sm_70..sm_90,
/// measured with `ptxas -arch=sm_80`): `FSETP.GEU P0, |x|, 2^-126; @!P0
/// FMUL x, x, 2^24; MUFU r, x; @!P0 <fix> r`, so subnormal inputs are
/// computed on the scaled value. `fix` undoes the scaling on the result.
#[inline]
fn scaled_mufu(x: u32, mufu: fn(u32) -> u32, fix: impl Fn(u32) -> u32) -> u32 {
    if below_normal(x) {
        fix(mufu(fmul(x, 0x4b80_0000)))
    } else {
        mufu(x)
    }
}

/// `rcp.approx.f32` (ptxas 11.8, sm_80): `s = |x| > 2^126 ? 0.25 : (|x| >=
/// 2^-126 ? 1 : 2^24)` (two FSETP, two FSEL), `d = s * MUFU.RCP(x * s)`,
/// so subnormal and huge inputs keep their reciprocal. `.ftz`: the bare
/// MUFU.RCP (subnormal input -> +-inf, hardware-observed, module docs).
#[inline]
pub fn rcp_approx_f32(x: u32, ftz: bool) -> u32 {
    if ftz {
        return mufu::rcp(x);
    }
    let huge = compare(
        F32,
        CmpOp::Gt,
        u64::from(x & 0x7fff_ffff),
        0x7e80_0000,
        false,
    );
    let s = if huge {
        0x3e80_0000 // 0.25
    } else if below_normal(x) {
        0x4b80_0000 // 2^24
    } else {
        0x3f80_0000
    };
    fmul(s, mufu::rcp(fmul(x, s)))
}

/// `sqrt.approx.f32`: [`scaled_mufu`] with MUFU.SQRT and `r * 2^-12`.
/// `.ftz`: the bare MUFU.SQRT (subnormal input -> +-0).
#[inline]
pub fn sqrt_approx_f32(x: u32, ftz: bool) -> u32 {
    if ftz {
        return mufu::sqrt(x);
    }
    scaled_mufu(x, mufu::sqrt, |r| fmul(r, 0x3980_0000))
}

/// `rsqrt.approx.f32`: [`scaled_mufu`] with MUFU.RSQ and `r * 4096`.
/// `.ftz`: the bare MUFU.RSQ (subnormal input -> +-inf).
#[inline]
pub fn rsqrt_approx_f32(x: u32, ftz: bool) -> u32 {
    if ftz {
        return mufu::rsq(x);
    }
    scaled_mufu(x, mufu::rsq, |r| fmul(r, 0x4580_0000))
}

/// `lg2.approx.f32`: [`scaled_mufu`] with MUFU.LG2 and `r + -24`.
/// `.ftz`: the bare MUFU.LG2 (subnormal input -> -inf).
#[inline]
pub fn lg2_approx_f32(x: u32, ftz: bool) -> u32 {
    if ftz {
        return mufu::lg2(x);
    }
    scaled_mufu(x, mufu::lg2, |r| {
        arith::add(F32, u64::from(r), 0xc1c0_0000, Rounding::Rn, Mods::NONE) as u32
    })
}

/// `ex2.approx.ftz.f32` = MUFU.EX2 (seen in the corpus:
/// libdevice_math.sm_80.sass). Without `.ftz`, the sequence (measured with
/// `ptxas -arch=sm_80` on `ex2.approx.f32`):
/// `FSETP.GEU P0, x, -126; @!P0 FMUL x, x, 0.5; MUFU.EX2 r, x;
/// @!P0 FMUL r, r, r`, which yields subnormal results for x < -126.
#[inline]
pub fn ex2_approx_f32(x: u32, ftz: bool) -> u32 {
    if ftz {
        return mufu::ex2(x);
    }
    let minus126 = 0xc2fc_0000u64; // -126.0f
    if compare(F32, CmpOp::Lt, x as u64, minus126, false) {
        let h = arith::mul(F32, x as u64, 0x3f00_0000, Rounding::Rn, Mods::NONE) as u32;
        let r = mufu::ex2(h) as u64;
        arith::mul(F32, r, r, Rounding::Rn, Mods::NONE) as u32
    } else {
        mufu::ex2(x)
    }
}

/// `sin.approx{.ftz}.f32` = `FMUL.RZ t, x, 1/(2pi); MUFU.SIN d, t`
/// (docs/SEMANTICS.md, Approximate instructions). The FMUL carries the `.ftz` of the instruction; MUFU
/// flushes its input anyway, so subnormal x gives +-0 either way.
#[inline]
pub fn sin_approx_f32(x: u32, ftz: bool) -> u32 {
    let t = arith::mul(
        F32,
        x as u64,
        INV_2PI_F32 as u64,
        Rounding::Rz,
        Mods { ftz, sat: false },
    );
    mufu::sin(t as u32)
}

/// `cos.approx{.ftz}.f32` = `FMUL.RZ t, x, 1/(2pi); MUFU.COS d, t`.
#[inline]
pub fn cos_approx_f32(x: u32, ftz: bool) -> u32 {
    let t = arith::mul(
        F32,
        x as u64,
        INV_2PI_F32 as u64,
        Rounding::Rz,
        Mods { ftz, sat: false },
    );
    mufu::cos(t as u32)
}

/// `tanh.approx.f32` = MUFU.TANH.
#[inline]
pub fn tanh_approx_f32(x: u32) -> u32 {
    mufu::tanh(x)
}

/// `div.approx{.ftz}.f32`: "computed as d = a * (1/b)" (ISA
/// #floating-point-instructions-div): `MUFU.RCP r, b; FMUL{.FTZ} d, a, r`.
/// This reproduces the ISA rule for 2^126 < |b| < 2^128 (sign-preserving
/// zero, NaN when a is infinite). Without `.ftz` the ISA supports
/// subnormal inputs, and `MUFU.RCP` flushes them, so ptxas 11.8 scales a
/// divisor below 2^-126 (zero included, NaN not: `FSETP.GEU`) and the
/// dividend by 2^24 first (measured, sm_70/sm_80/sm_90: `FSETP.GEU.AND P0,
/// PT, |b|, 1.17549435e-38, PT; @!P0 FMUL b, b, 16777216; @!P0 FMUL a, a,
/// 16777216; MUFU.RCP r, b; FMUL d, r, a`). `1.0 / 2^-127` is then 2^127,
/// not the infinity of the unscaled sequence.
#[inline]
pub fn div_approx_f32(a: u32, b: u32, ftz: bool) -> u32 {
    let m = Mods { ftz, sat: false };
    if !ftz && F32.abs_bits(u64::from(b)) < 0x0080_0000 {
        let scale = 0x4b80_0000u64; // 2^24
        let a2 = arith::mul(F32, u64::from(a), scale, Rounding::Rn, m);
        let b2 = arith::mul(F32, u64::from(b), scale, Rounding::Rn, m);
        let r = mufu::rcp(b2 as u32) as u64;
        return arith::mul(F32, r, a2, Rounding::Rn, m) as u32;
    }
    let r = mufu::rcp(b) as u64;
    arith::mul(F32, a as u64, r, Rounding::Rn, m) as u32
}

/// `div.full{.ftz}.f32`: "a relatively fast, full-range approximation that
/// scales operands", max 2 ulp everywhere. MODEL (ptxas's exact sequence is
/// not known here): both operands are scaled by 1/4 when |b| > 2^126 and by
/// 2^24 when b is subnormal (non-`.ftz`), then d = a' * MUFU.RCP(b') with
/// RN. Within 1.5 ulp of a/b except where a' overflows (then a/b overflows
/// too). The simulator matches this only if ptxas emits the same sequence.
pub fn div_full_f32(a: u32, b: u32, ftz: bool) -> u32 {
    let m = Mods { ftz, sat: false };
    let (a, b) = (
        arith::input(F32, a as u64, m),
        arith::input(F32, b as u64, m),
    );
    let babs = F32.abs_bits(b);
    let scale = if F32.classify(b) == Class::Normal && babs > 0x7e80_0000 {
        0x3e80_0000u64 // 0.25
    } else if F32.classify(b) == Class::Subnormal {
        0x4b80_0000u64 // 2^24
    } else {
        F32.one()
    };
    let a2 = arith::mul_core(F32, a, scale, Rounding::Rn);
    let b2 = arith::mul_core(F32, b, scale, Rounding::Rn);
    let r = mufu::rcp(b2 as u32) as u64;
    arith::output(F32, arith::mul_core(F32, a2, r, Rounding::Rn), m) as u32
}

/// `rcp.approx.ftz.f64` (#floating-point-instructions-rcp-approx-ftz-f64):
/// `d[63:32] = MUFU.RCP64H(a[63:32]); d[31:0] = 0`.
#[inline]
pub fn rcp_approx_ftz_f64(x: u64) -> u64 {
    (mufu::rcp64h((x >> 32) as u32) as u64) << 32
}

/// `rsqrt.approx.ftz.f64` (#floating-point-instructions-rsqrt-approx-ftz-f64):
/// upper word only, like `rcp.approx.ftz.f64`; NaN -> 0x7fffffff00000000.
#[inline]
pub fn rsqrt_approx_ftz_f64(x: u64) -> u64 {
    (mufu::rsq64h((x >> 32) as u32) as u64) << 32
}

/// `rsqrt.approx.f64` ("emulated in software", no stated bound). MODEL:
/// ptxas 11.8's sequence, step by step (`ptxas -arch=sm_80`; the lowering
/// instantiates the same SASS, `ptxc::lower::div::F64_RSQRT_APPROX`), so the
/// interpreter, ptxc and ptxas agree to the bit:
///
/// - fast path, `x_hi - 0x100000 <u 0x7fe00000` (a positive normal number):
///   `y = RSQ64H(x_hi):0`, `e = fma(x, -(y*y), 1)`, `t = fma(e, 0.375, 0.5)`,
///   result `fma(t, y*e, y)` (one Newton-Raphson step with the cubic term);
/// - slow path: +-0 -> +-inf; NaN -> `x + x` (quieted); negative -> NaN
///   0xfff8000000000000; +inf -> +0; positive subnormal: the fast path on
///   `x * 2^54`, times `2^27`.
///
/// Every step is an RN f64 operation of the shared soft-float (`DMUL`,
/// `DFMA`, `DADD`), and RSQ64H is [`mufu::rsq64h`].
pub fn rsqrt_approx_f64(x: u64) -> u64 {
    const ONE: u64 = 0x3ff0_0000_0000_0000;
    const HALF: u64 = 0x3fe0_0000_0000_0000;
    const THREE_EIGHTHS: u64 = 0x3fd8_0000_0000_0000;
    const TWO_54: u64 = 0x4350_0000_0000_0000;
    const TWO_27: u64 = 0x41a0_0000_0000_0000;
    let f = FloatType::F64;
    let (rn, m) = (Rounding::Rn, Mods::NONE);
    let newton = |x: u64| {
        let y = (mufu::rsq64h((x >> 32) as u32) as u64) << 32;
        let yy = arith::mul(f, y, y, rn, m);
        let e = arith::fma(f, x, yy ^ f.sign_mask(), ONE, rn, m);
        let t = arith::fma(f, e, THREE_EIGHTHS, HALF, rn, m);
        let ye = arith::mul(f, y, e, rn, m);
        arith::fma(f, t, ye, y, rn, m)
    };
    let hi = (x >> 32) as u32;
    if hi.wrapping_sub(0x10_0000) < 0x7fe0_0000 {
        return newton(x);
    }
    let negative = x & f.sign_mask() != 0;
    match f.classify(x) {
        Class::Zero => (x & f.sign_mask()) | 0x7ff0_0000_0000_0000,
        Class::Nan => arith::add(f, x, x, rn, m),
        _ if negative => 0xfff8_0000_0000_0000,
        Class::Infinite => 0,
        _ => arith::mul(f, newton(arith::mul(f, x, TWO_54, rn, m)), TWO_27, rn, m),
    }
}

#[inline]
fn to_f32(ty: FloatType, x: u16) -> u32 {
    cvt_float(ty, F32, x as u64, Rounding::Rn, CvtMods::NONE) as u32
}

#[inline]
fn from_f32(ty: FloatType, x: u32) -> u16 {
    cvt_float(F32, ty, x as u64, Rounding::Rn, CvtMods::NONE) as u16
}

/// `ex2.approx.f16` (#half-precision-floating-point-instructions-ex2):
/// MODEL RN_f16(MUFU.EX2(f32(x))); f16 subnormal inputs are normal in f32 so
/// they are supported, as the ISA requires. Bound: 2^-9.9 relative.
#[inline]
pub fn ex2_approx_f16(x: u16) -> u16 {
    from_f32(FloatType::F16, mufu::ex2(to_f32(FloatType::F16, x)))
}

/// `ex2.approx.ftz.bf16`: MODEL RN_bf16(MUFU.EX2(f32(x))) with subnormal
/// inputs (-> 1.0) and results (-> +0) flushed. Bound: 2^-7 relative.
#[inline]
pub fn ex2_approx_ftz_bf16(x: u16) -> u16 {
    let b = FloatType::Bf16;
    let x = b.flush(x as u64) as u16;
    b.flush(from_f32(b, mufu::ex2(to_f32(b, x))) as u64) as u16
}

/// `tanh.approx.f16` (#half-precision-floating-point-instructions-tanh):
/// MODEL RN_f16(MUFU.TANH(f32(x))). Bound: 2^-10.987 absolute.
#[inline]
pub fn tanh_approx_f16(x: u16) -> u16 {
    from_f32(FloatType::F16, mufu::tanh(to_f32(FloatType::F16, x)))
}

/// `tanh.approx.bf16`: MODEL RN_bf16(MUFU.TANH(f32(x))); subnormals pass
/// through. Bound: 2^-8 absolute.
#[inline]
pub fn tanh_approx_bf16(x: u16) -> u16 {
    from_f32(FloatType::Bf16, mufu::tanh(to_f32(FloatType::Bf16, x)))
}
