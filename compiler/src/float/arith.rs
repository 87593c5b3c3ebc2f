//! Correctly rounded arithmetic on raw bit patterns: add, sub, mul, fma, div,
//! sqrt and rcp, under RN/RZ/RM/RP, with the PTX `.ftz` and `.sat` modifiers
//! (PTX ISA #floating-point-instructions-add, -sub, -mul, -fma, -div, -rcp,
//! -sqrt and #half-precision-floating-point-instructions-add, -sub, -mul,
//! -fma).
//!
//! The exact engine works on `u128` significands: every operation produces an
//! exact value or an exact value plus a sticky bit and hands it to
//! `round::round_pack`. For f32 and f64 under RN the host's IEEE 754 arithmetic
//! (add, sub, mul, div, sqrt, which Rust guarantees to be correctly rounded) is
//! used as a fast path; its NaN results are replaced by the GPU's NaN policy.
//! The soft paths (`*_soft`) are public so that tests can check them
//! separately from the fast paths.

use super::formats::{Class, FloatType};
use super::nan;
use super::round::round_pack;
use super::{Mods, Rounding};

/// `.ftz` on an input: flush a subnormal to a zero of the same sign.
#[inline(always)]
pub(super) fn input(ty: FloatType, x: u64, m: Mods) -> u64 {
    let x = x & ty.mask();
    if m.ftz {
        ty.flush(x)
    } else {
        x
    }
}

/// `.ftz` and `.sat` on a result: flush after rounding, then saturate.
#[inline(always)]
pub(super) fn output(ty: FloatType, r: u64, m: Mods) -> u64 {
    let r = if m.ftz { ty.flush(r) } else { r };
    if m.sat {
        saturate(ty, r)
    } else {
        r
    }
}

/// `.sat`: clamp to [+0.0, 1.0]; NaN gives +0.0 (PTX ISA
/// #floating-point-instructions-add "Saturation modifier", and
/// #data-movement-and-conversion-instructions-cvt "Floating Point Notes").
/// A negative zero also gives +0.0: third-party hardware tests of `cvt.sat`
/// (vosen/ptx_tests, testcase/cvt.rs, comparing bits exactly) clamp `x <= 0`
/// to +0.0; assumed to hold for arithmetic `.sat` too (unconfirmed).
#[inline]
pub fn saturate(ty: FloatType, x: u64) -> u64 {
    let x = x & ty.mask();
    if ty.is_nan(x) || ty.sign(x) {
        0
    } else if x > ty.one() {
        ty.one()
    } else {
        x
    }
}

#[inline(always)]
fn msb(x: u128) -> i32 {
    127 - x.leading_zeros() as i32
}

/// Exactly adds `(-1)^sa * ma * 2^ea` and `(-1)^sb * mb * 2^eb` (non-zero
/// significands below 2^110) and rounds once.
///
/// The operand with the larger leading exponent is placed with its leading
/// bit at bit 125 of a `u128`; the other is aligned to it and, if bits fall
/// off the bottom, they are OR-ed ("jammed") into bit 0. Bits can only be lost
/// when the smaller operand's leading bit is at least 20 places lower, so the
/// result keeps its leading bit at >= 124 and at least 70 bits lie below the
/// rounding position: the jammed bit acts exactly like a sticky bit.
#[allow(clippy::too_many_arguments)]
pub(super) fn add_exact(
    ty: FloatType,
    sa: bool,
    ma: u128,
    ea: i32,
    sb: bool,
    mb: u128,
    eb: i32,
    rnd: Rounding,
) -> u64 {
    debug_assert!(ma != 0 && mb != 0 && ma < (1u128 << 110) && mb < (1u128 << 110));
    let (sx, mx, ex, sy, my, ey) = if ea + msb(ma) >= eb + msb(mb) {
        (sa, ma, ea, sb, mb, eb)
    } else {
        (sb, mb, eb, sa, ma, ea)
    };
    let sh = 125 - msb(mx);
    let x = mx << sh;
    let e = ex - sh;
    let d = ey - e;
    let y = if d >= 0 {
        my << d
    } else {
        let k = -d;
        if k >= 128 {
            1
        } else {
            (my >> k) | ((my & ((1u128 << k) - 1)) != 0) as u128
        }
    };
    if sx == sy {
        round_pack(ty, sx, x + y, e, false, rnd)
    } else {
        let (sign, diff) = if x >= y { (sx, x - y) } else { (sy, y - x) };
        if diff == 0 {
            // Exact cancellation: +0, or -0 when rounding toward -inf
            // (IEEE 754-2019 6.3).
            return ty.zero(rnd == Rounding::Rm);
        }
        round_pack(ty, sign, diff, e, false, rnd)
    }
}

/// Sign of an exact zero sum of two zeros (IEEE 754-2019 6.3).
#[inline(always)]
fn zero_sum_sign(sa: bool, sb: bool, rnd: Rounding) -> bool {
    if rnd == Rounding::Rm {
        sa || sb
    } else {
        sa && sb
    }
}

/// a + b, correctly rounded, no modifiers (software path).
pub fn add_soft(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    let (a, b) = (a & ty.mask(), b & ty.mask());
    let (ca, cb) = (ty.classify(a), ty.classify(b));
    if ca == Class::Nan || cb == Class::Nan {
        return nan::result(ty, &[a, b]);
    }
    let (sa, sb) = (ty.sign(a), ty.sign(b));
    match (ca, cb) {
        (Class::Infinite, Class::Infinite) => {
            if sa != sb {
                nan::result(ty, &[a, b])
            } else {
                a
            }
        }
        (Class::Infinite, _) => a,
        (_, Class::Infinite) => b,
        (Class::Zero, Class::Zero) => ty.zero(zero_sum_sign(sa, sb, rnd)),
        (Class::Zero, _) => b,
        (_, Class::Zero) => a,
        _ => {
            let (_, ma, ea) = ty.unpack(a);
            let (_, mb, eb) = ty.unpack(b);
            add_exact(ty, sa, ma as u128, ea, sb, mb as u128, eb, rnd)
        }
    }
}

/// a - b, correctly rounded, no modifiers (software path).
pub fn sub_soft(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    let b = b & ty.mask();
    if ty.is_nan(b) {
        return nan::result(ty, &[a & ty.mask(), b]);
    }
    add_soft(ty, a, b ^ ty.sign_mask(), rnd)
}

/// a * b, correctly rounded, no modifiers (software path).
pub fn mul_soft(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    let (a, b) = (a & ty.mask(), b & ty.mask());
    let (ca, cb) = (ty.classify(a), ty.classify(b));
    if ca == Class::Nan || cb == Class::Nan {
        return nan::result(ty, &[a, b]);
    }
    let s = ty.sign(a) != ty.sign(b);
    match (ca, cb) {
        (Class::Infinite, Class::Zero) | (Class::Zero, Class::Infinite) => nan::result(ty, &[a, b]),
        (Class::Infinite, _) | (_, Class::Infinite) => ty.signed_inf(s),
        (Class::Zero, _) | (_, Class::Zero) => ty.zero(s),
        _ => {
            let (_, ma, ea) = ty.unpack(a);
            let (_, mb, eb) = ty.unpack(b);
            round_pack(ty, s, ma as u128 * mb as u128, ea + eb, false, rnd)
        }
    }
}

/// a * b + c with a single rounding, no modifiers (software path; used for
/// every format: the host's `mul_add` is not relied upon).
pub fn fma_soft(ty: FloatType, a: u64, b: u64, c: u64, rnd: Rounding) -> u64 {
    let (a, b, c) = (a & ty.mask(), b & ty.mask(), c & ty.mask());
    let (ca, cb, cc) = (ty.classify(a), ty.classify(b), ty.classify(c));
    if ca == Class::Nan || cb == Class::Nan || cc == Class::Nan {
        return nan::result(ty, &[a, b, c]);
    }
    let sp = ty.sign(a) != ty.sign(b);
    let sc = ty.sign(c);
    let a_inf = ca == Class::Infinite;
    let b_inf = cb == Class::Infinite;
    let a_zero = ca == Class::Zero;
    let b_zero = cb == Class::Zero;
    if (a_inf && b_zero) || (b_inf && a_zero) {
        return nan::result(ty, &[a, b, c]);
    }
    if a_inf || b_inf {
        if cc == Class::Infinite && sc != sp {
            return nan::result(ty, &[a, b, c]);
        }
        return ty.signed_inf(sp);
    }
    if cc == Class::Infinite {
        return c;
    }
    if a_zero || b_zero {
        if cc == Class::Zero {
            return ty.zero(zero_sum_sign(sp, sc, rnd));
        }
        return c;
    }
    let (_, ma, ea) = ty.unpack(a);
    let (_, mb, eb) = ty.unpack(b);
    let prod = ma as u128 * mb as u128;
    if cc == Class::Zero {
        // The exact sum is the exact (non-zero) product.
        return round_pack(ty, sp, prod, ea + eb, false, rnd);
    }
    let (_, mc, ec) = ty.unpack(c);
    add_exact(ty, sp, prod, ea + eb, sc, mc as u128, ec, rnd)
}

/// a / b, correctly rounded, no modifiers (software path).
pub fn div_soft(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    let (a, b) = (a & ty.mask(), b & ty.mask());
    let (ca, cb) = (ty.classify(a), ty.classify(b));
    if ca == Class::Nan || cb == Class::Nan {
        return nan::result(ty, &[a, b]);
    }
    let s = ty.sign(a) != ty.sign(b);
    match (ca, cb) {
        (Class::Infinite, Class::Infinite) | (Class::Zero, Class::Zero) => nan::result(ty, &[a, b]),
        (Class::Infinite, _) => ty.signed_inf(s),
        (_, Class::Infinite) => ty.zero(s),
        (_, Class::Zero) => ty.signed_inf(s),
        (Class::Zero, _) => ty.zero(s),
        _ => {
            let (_, ma, ea) = ty.unpack(a);
            let (_, mb, eb) = ty.unpack(b);
            let la = 126 - msb(ma as u128);
            let lb = 63 - msb(mb as u128);
            let n = (ma as u128) << la;
            let d = (mb as u128) << lb;
            // n in [2^126, 2^127), d in [2^63, 2^64): q >= 2^62.
            let (q, r) = (n / d, n % d);
            round_pack(ty, s, q, (ea - la) - (eb - lb), r != 0, rnd)
        }
    }
}

/// Integer square root: (floor(sqrt(n)), n is not a perfect square).
///
/// An f64 estimate (any estimate would do; this one is within about 2^11 of
/// the root for n < 2^127) refined by one integer Newton step and then
/// corrected exactly, so the result does not depend on the estimate's
/// accuracy.
fn isqrt(n: u128) -> (u128, bool) {
    if n == 0 {
        return (0, false);
    }
    let mut r = ((n as f64).sqrt() as u128).max(1);
    r = (r + n / r) / 2;
    while r.checked_mul(r).is_none_or(|sq| sq > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|sq| sq <= n) {
        r += 1;
    }
    (r, r * r != n)
}

/// sqrt(a), correctly rounded, no modifiers (software path).
/// sqrt(-0) = -0 (IEEE 754-2019 9.2, PTX ISA #floating-point-instructions-sqrt
/// table), sqrt(negative) = NaN.
pub fn sqrt_soft(ty: FloatType, a: u64, rnd: Rounding) -> u64 {
    let a = a & ty.mask();
    match ty.classify(a) {
        Class::Nan => nan::result(ty, &[a]),
        Class::Zero => a,
        _ if ty.sign(a) => nan::result(ty, &[a]),
        Class::Infinite => a,
        _ => {
            let (_, m, e) = ty.unpack(a);
            let mut s = 124 - msb(m as u128);
            if (e - s) & 1 != 0 {
                s += 1;
            }
            // n in [2^124, 2^126): root in [2^62, 2^63).
            let (root, inexact) = isqrt((m as u128) << s);
            round_pack(ty, false, root, (e - s) / 2, inexact, rnd)
        }
    }
}

macro_rules! host_binary {
    ($ty:expr, $a:expr, $b:expr, $op:tt) => {
        match $ty {
            FloatType::F32 => {
                let r = f32::from_bits($a as u32) $op f32::from_bits($b as u32);
                if r.is_nan() {
                    nan::result($ty, &[$a & $ty.mask(), $b & $ty.mask()])
                } else {
                    r.to_bits() as u64
                }
            }
            _ => {
                let r = f64::from_bits($a) $op f64::from_bits($b);
                if r.is_nan() {
                    nan::result($ty, &[$a, $b])
                } else {
                    r.to_bits()
                }
            }
        }
    };
}

#[inline(always)]
fn host_rn(ty: FloatType, rnd: Rounding) -> bool {
    rnd == Rounding::Rn && matches!(ty, FloatType::F32 | FloatType::F64)
}

/// a + b without modifiers (fast path for f32/f64 RN).
#[inline]
pub fn add_core(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    if host_rn(ty, rnd) {
        host_binary!(ty, a & ty.mask(), b & ty.mask(), +)
    } else {
        add_soft(ty, a, b, rnd)
    }
}

/// a - b without modifiers.
#[inline]
pub fn sub_core(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    if host_rn(ty, rnd) {
        host_binary!(ty, a & ty.mask(), b & ty.mask(), -)
    } else {
        sub_soft(ty, a, b, rnd)
    }
}

/// a * b without modifiers.
#[inline]
pub fn mul_core(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    if host_rn(ty, rnd) {
        host_binary!(ty, a & ty.mask(), b & ty.mask(), *)
    } else {
        mul_soft(ty, a, b, rnd)
    }
}

/// a / b without modifiers.
#[inline]
pub fn div_core(ty: FloatType, a: u64, b: u64, rnd: Rounding) -> u64 {
    if host_rn(ty, rnd) {
        host_binary!(ty, a & ty.mask(), b & ty.mask(), /)
    } else {
        div_soft(ty, a, b, rnd)
    }
}

/// sqrt(a) without modifiers.
#[inline]
pub fn sqrt_core(ty: FloatType, a: u64, rnd: Rounding) -> u64 {
    let a = a & ty.mask();
    match (ty, rnd) {
        (FloatType::F32, Rounding::Rn) if !ty.is_nan(a) => {
            let r = f32::from_bits(a as u32).sqrt();
            if r.is_nan() {
                nan::result(ty, &[a])
            } else {
                r.to_bits() as u64
            }
        }
        (FloatType::F64, Rounding::Rn) if !ty.is_nan(a) => {
            let r = f64::from_bits(a).sqrt();
            if r.is_nan() {
                nan::result(ty, &[a])
            } else {
                r.to_bits()
            }
        }
        _ => sqrt_soft(ty, a, rnd),
    }
}

/// `add{.rnd}{.ftz}{.sat}`: a + b.
#[inline]
pub fn add(ty: FloatType, a: u64, b: u64, rnd: Rounding, m: Mods) -> u64 {
    output(ty, add_core(ty, input(ty, a, m), input(ty, b, m), rnd), m)
}

/// `sub{.rnd}{.ftz}{.sat}`: a - b.
#[inline]
pub fn sub(ty: FloatType, a: u64, b: u64, rnd: Rounding, m: Mods) -> u64 {
    output(ty, sub_core(ty, input(ty, a, m), input(ty, b, m), rnd), m)
}

/// `mul{.rnd}{.ftz}{.sat}`: a * b.
#[inline]
pub fn mul(ty: FloatType, a: u64, b: u64, rnd: Rounding, m: Mods) -> u64 {
    output(ty, mul_core(ty, input(ty, a, m), input(ty, b, m), rnd), m)
}

/// a * b + c with one rounding, without modifiers. f32/f64 RN use the host's
/// `mul_add`, which Rust specifies as a fused multiply-add with a single
/// rounding (IEEE 754 fusedMultiplyAdd); NaN results still follow the GPU
/// NaN rule.
#[inline]
pub fn fma_core(ty: FloatType, a: u64, b: u64, c: u64, rnd: Rounding) -> u64 {
    let (a, b, c) = (a & ty.mask(), b & ty.mask(), c & ty.mask());
    match (ty, rnd) {
        (FloatType::F32, Rounding::Rn) => {
            let r = f32::from_bits(a as u32)
                .mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32));
            if r.is_nan() {
                nan::result(ty, &[a, b, c])
            } else {
                r.to_bits() as u64
            }
        }
        (FloatType::F64, Rounding::Rn) => {
            let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
            if r.is_nan() {
                nan::result(ty, &[a, b, c])
            } else {
                r.to_bits()
            }
        }
        _ => fma_soft(ty, a, b, c, rnd),
    }
}

/// `fma.rnd{.ftz}{.sat}` / `mad.rnd`: a * b + c with one rounding.
#[inline]
pub fn fma(ty: FloatType, a: u64, b: u64, c: u64, rnd: Rounding, m: Mods) -> u64 {
    let r = fma_core(ty, input(ty, a, m), input(ty, b, m), input(ty, c, m), rnd);
    output(ty, r, m)
}

/// `div.rnd{.ftz}`: a / b (IEEE, not `.approx`/`.full`; see `approx`).
#[inline]
pub fn div(ty: FloatType, a: u64, b: u64, rnd: Rounding, m: Mods) -> u64 {
    output(ty, div_core(ty, input(ty, a, m), input(ty, b, m), rnd), m)
}

/// `sqrt.rnd{.ftz}`: correctly rounded square root.
#[inline]
pub fn sqrt(ty: FloatType, a: u64, rnd: Rounding, m: Mods) -> u64 {
    output(ty, sqrt_core(ty, input(ty, a, m), rnd), m)
}

/// `rcp.rnd{.ftz}`: 1/a correctly rounded.
///
/// Known hardware deviation, not modelled: third-party tests
/// (vosen/ptx_tests testcase/rcp.rs) observed `rcp.rm.ftz.f32(-2^126)` =
/// -0.0 and `rcp.rp.ftz.f32(2^126)` = +0.0 on a GPU, where the exact result
/// +-2^-126 is a normal number (an artefact of ptxas's FFMA-based sequence).
#[inline]
pub fn rcp(ty: FloatType, a: u64, rnd: Rounding, m: Mods) -> u64 {
    output(ty, div_core(ty, ty.one(), input(ty, a, m), rnd), m)
}
