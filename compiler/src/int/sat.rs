//! Saturation: clamping an exact result into a type's range (`.sat` of `add`, `sub`, `mad.hi`,
//! `mad24.hi`, and `cvt`'s integer-to-integer `.sat`).

use super::arith::{mul24_hi, mul_hi};
use super::ty::{fit, range, value, IntTy};

/// Clamp the exact integer `x` into the range of `t` and encode it: the `.sat` rule of the ISA
/// ("limits result to MININT..MAXINT (no overflow) for the size and signedness of the
/// operation", 9.7.1.1), also `cvt`'s integer-to-integer `.sat` (9.7.9.21: the value clamped
/// to the destination type's range) and `cvt.pack.sat`'s per-field clamp.
#[inline]
pub fn saturate(t: IntTy, x: i128) -> u64 {
    let (lo, hi) = range(t);
    fit(t, x.clamp(lo, hi) as u64)
}

/// `add.sat.type` (9.7.1.1): ".sat limits result to MININT..MAXINT (no overflow) for the size and
/// signedness of the operation". PTX 1.0 allows it on `.s32` only; PTX 9.2 adds `.u32`
/// (sm_120f). Works for any `t`.
#[inline]
pub fn add_sat(t: IntTy, a: u64, b: u64) -> u64 {
    saturate(t, value(t, a) + value(t, b))
}

/// `sub.sat.type` (9.7.1.2), same saturation rule as [`add_sat`].
#[inline]
pub fn sub_sat(t: IntTy, a: u64, b: u64) -> u64 {
    saturate(t, value(t, a) - value(t, b))
}

/// `add.sat.s32` (9.7.1.1): the sum clamped to `[i32::MIN, i32::MAX]`.
#[inline]
pub fn add_sat_s32(a: u64, b: u64) -> u64 {
    add_sat(IntTy::S32, a, b)
}

/// `sub.sat.s32` (9.7.1.2): the difference clamped to `[i32::MIN, i32::MAX]`.
#[inline]
pub fn sub_sat_s32(a: u64, b: u64) -> u64 {
    sub_sat(IntTy::S32, a, b)
}

/// `mad.hi.sat.s32` (9.7.1.4): the signed high word of `a * b` plus `c`, with ".sat limits result
/// to MININT..MAXINT (no overflow) for the size of the operation".
#[inline]
pub fn mad_hi_sat_s32(a: u64, b: u64, c: u64) -> u64 {
    add_sat_s32(mul_hi(IntTy::S32, a, b), c)
}

/// `mad24.hi.sat.s32` (9.7.1.6): ".sat limits result of 32-bit signed addition to
/// MININT..MAXINT": `t<47..16>` read as s32, plus `c`, saturated.
#[inline]
pub fn mad24_hi_sat_s32(a: u64, b: u64, c: u64) -> u64 {
    add_sat_s32(mul24_hi(IntTy::S32, a, b), c)
}
