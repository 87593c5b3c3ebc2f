//! `.f16x2` / `.bf16x2` helpers: apply a 16-bit operation lane-wise.
//!
//! Lane 0 is the low half-word (`a[0:15]`), lane 1 the high half-word
//! (`a[16:31]`), as in the ISA pseudo-code of every half-precision
//! instruction (e.g. #half-precision-floating-point-instructions-add:
//! `fA[0] = a[0:15]; fA[1] = a[16:31]`). For `setp.f16x2 p|q`, `p` is lane 0
//! (#half-precision-comparison-instructions-setp). Note that `cvt.*x2.f32
//! d, a, b` is the exception: `a` goes to the HIGH half (see [`cvt_pack`]).

use super::cmp::{compare, CmpOp};
use super::convert::{cvt_float, CvtMods};
use super::formats::FloatType;
use super::Rounding;

/// Low half-word (lane 0).
#[inline(always)]
pub const fn lo(x: u32) -> u16 {
    x as u16
}

/// High half-word (lane 1).
#[inline(always)]
pub const fn hi(x: u32) -> u16 {
    (x >> 16) as u16
}

/// Packs lane 0 (`lo`) and lane 1 (`hi`).
#[inline(always)]
pub const fn pack(lo: u16, hi: u16) -> u32 {
    lo as u32 | (hi as u32) << 16
}

/// Unary lane-wise map.
#[inline]
pub fn map1(a: u32, f: impl Fn(u16) -> u16) -> u32 {
    pack(f(lo(a)), f(hi(a)))
}

/// Binary lane-wise map.
#[inline]
pub fn map2(a: u32, b: u32, f: impl Fn(u16, u16) -> u16) -> u32 {
    pack(f(lo(a), lo(b)), f(hi(a), hi(b)))
}

/// Ternary lane-wise map (fma).
#[inline]
pub fn map3(a: u32, b: u32, c: u32, f: impl Fn(u16, u16, u16) -> u16) -> u32 {
    pack(f(lo(a), lo(b), lo(c)), f(hi(a), hi(b), hi(c)))
}

/// Lifts a `u64`-based 16-bit operation of this library (for example
/// `|a, b| arith::add(FloatType::F16, a, b, rnd, mods)`) to a packed pair.
#[inline]
pub fn binary_x2(a: u32, b: u32, f: impl Fn(u64, u64) -> u64) -> u32 {
    map2(a, b, |x, y| f(x as u64, y as u64) as u16)
}

/// Lifts a `u64`-based ternary operation to a packed pair.
#[inline]
pub fn ternary_x2(a: u32, b: u32, c: u32, f: impl Fn(u64, u64, u64) -> u64) -> u32 {
    map3(a, b, c, |x, y, z| f(x as u64, y as u64, z as u64) as u16)
}

/// Lifts a `u64`-based unary operation to a packed pair.
#[inline]
pub fn unary_x2(a: u32, f: impl Fn(u64) -> u64) -> u32 {
    map1(a, |x| f(x as u64) as u16)
}

/// `setp.CmpOp{.ftz}.{f16x2,bf16x2} p|q, a, b`: (p, q) = (lane 0, lane 1),
/// before any BoolOp combination.
#[inline]
pub fn compare_x2(ty: FloatType, op: CmpOp, a: u32, b: u32, ftz: bool) -> (bool, bool) {
    (
        compare(ty, op, lo(a) as u64, lo(b) as u64, ftz),
        compare(ty, op, hi(a) as u64, hi(b) as u64, ftz),
    )
}

/// `cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b`: "the value
/// converted from input a is stored in the upper half of d and the value
/// converted from input b is stored in the lower half"
/// (#data-movement-and-conversion-instructions-cvt).
#[inline]
pub fn cvt_pack(dst: FloatType, a: u32, b: u32, rnd: Rounding, m: CvtMods) -> u32 {
    let conv = |x: u32| cvt_float(FloatType::F32, dst, x as u64, rnd, m) as u16;
    pack(conv(b), conv(a))
}
