//! Shifts (PTX ISA 9.7.8.7 - 9.7.8.9): shl and shr with the ISA's clamped amount, and the
//! funnel shift of PTX `shf` and SASS `SHF`.

use super::ty::{fit, sext, width, IntTy};

/// The form of a funnel shift: PTX `shf.{l,r}.{clamp,wrap}.b32` and every SASS `SHF`
/// (`SHF.{L,R}{.W}{.HI}.{U32,S32,U64,S64}`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Funnel {
    /// Shift left (`shf.l`, `SHF.L`); otherwise right.
    pub left: bool,
    /// Return the upper 32 bits of the shifted 64-bit value (`SHF .HI`); otherwise the lower.
    pub hi_out: bool,
    /// The amount is taken modulo the width (`.wrap`, `SHF .W`); otherwise clamped to it.
    pub wrap: bool,
    /// The width is 64 (`SHF .U64/.S64`); otherwise 32 (`shf`, `SHF .U32/.S32`).
    pub wide: bool,
    /// A right shift is arithmetic (`SHF.R .S32/.S64`); otherwise logical.
    pub signed: bool,
}

/// The funnel shift of `hi:lo` (hi = bits 63:32) by `s`, one 32-bit word of the result.
///
/// `s` is clamped to the width `w` (`min(s, w)`), or taken `s & (w - 1)` with `wrap`; `w` is 32
/// or 64 (`wide`). The 64-bit value is shifted left, right logically, or right arithmetically
/// (`signed`), and `hi_out` picks its upper word, else its lower one. PTX `shf.l` is
/// `{left, hi_out}` at width 32 and `shf.r` is `{right, low word}` at width 32 ([`shf_l`],
/// [`shf_r`], PTX ISA 9.7.8.7). The SASS `SHF` forms are the simulator's reading of the
/// instruction (docs/SEMANTICS.md, the SASS rules): `w` = 32 for `.U32/.S32`, 64 for
/// `.U64/.S64`, `.HI` returns the upper word, `.S32/.S64` shift right arithmetically; the
/// compiler's constant folding of `SHF` uses the same function, so the two agree.
#[inline(always)]
pub fn funnel_shift(lo: u32, hi: u32, s: u32, f: Funnel) -> u32 {
    let width = if f.wide { 64 } else { 32 };
    let s = if f.wrap {
        s & (width - 1)
    } else {
        s.min(width)
    };
    let x = (u64::from(hi) << 32) | u64::from(lo);
    let y: u64 = if f.left {
        if s >= 64 {
            0
        } else {
            x << s
        }
    } else if f.signed {
        ((x as i64) >> s.min(63)) as u64
    } else if s >= 64 {
        0
    } else {
        x >> s
    };
    if f.hi_out {
        (y >> 32) as u32
    } else {
        y as u32
    }
}

/// `shf.l.mode.b32 d, a, b, c` (9.7.8.7): shift the 64-bit value `{b, a}` (b = bits 63:32) left
/// and return its upper 32 bits. `n = (.mode == .clamp) ? min(c, 32) : c & 0x1f`
/// (`wrap = true` is `.wrap`). ISA: `d = (b << n) | (a >> (32-n))`, where a shift by 32 means
/// "all bits out" (so n = 32 gives `a`, n = 0 gives `b`).
#[inline]
pub fn shf_l(a: u32, b: u32, c: u32, wrap: bool) -> u32 {
    let f = Funnel {
        left: true,
        hi_out: true,
        wrap,
        ..Funnel::default()
    };
    funnel_shift(a, b, c, f)
}

/// `shf.r.mode.b32 d, a, b, c` (9.7.8.7): shift `{b, a}` right and return its lower 32 bits.
/// ISA: `d = (b << (32-n)) | (a >> n)` (n = 32 gives `b`, n = 0 gives `a`).
#[inline]
pub fn shf_r(a: u32, b: u32, c: u32, wrap: bool) -> u32 {
    let f = Funnel {
        wrap,
        ..Funnel::default()
    };
    funnel_shift(a, b, c, f)
}

/// `shl.type d, a, b` (9.7.8.8): `d = a << b`, b an unsigned 32-bit amount; "Shift amounts
/// greater than the register width N are clamped to N", so any amount >= N gives 0.
#[inline]
pub fn shl(t: IntTy, a: u64, amt: u32) -> u64 {
    let w = width(t);
    if amt >= w {
        0
    } else {
        fit(t, a << amt)
    }
}

/// `shr.type d, a, b` (9.7.8.9): "Signed shifts fill with the sign bit, unsigned and untyped
/// shifts fill with 0"; amounts >= N are clamped to N: 0, or all sign bits for signed types.
#[inline]
pub fn shr(t: IntTy, a: u64, amt: u32) -> u64 {
    let w = width(t);
    let amt = amt.min(w);
    if t.signed {
        let x = sext(w, a) as i64;
        fit(t, (x >> amt.min(63)) as u64)
    } else if amt >= w {
        0
    } else {
        fit(t, a) >> amt
    }
}
