//! Bit-exact semantics of the PTX integer, bit-manipulation and logic instructions, as pure
//! functions over raw values.
//!
//! Conventions, shared by every function here:
//!
//! * A value is a `u64` carrying the operand's bits in its low `t.bits` bits. Upper bits of inputs
//!   are ignored; results are returned zero-extended (upper bits 0) unless a function says
//!   otherwise. Functions whose PTX destination is `.u32` whatever the source type (`popc`, `clz`,
//!   `bfind`) return that 32-bit value in a `u64`.
//! * Instructions that only exist on 32-bit registers (`prmt`, `shf`, `lop3`, `fns`, `bmsk`,
//!   `szext`, `dp4a`, `dp2a`, the packed `x2`/`x4` forms) take and return `u32`.
//! * No function panics for any input. Widths outside 1..=64 are clamped into that range.
//! * Section numbers cite the PTX ISA (docs.nvidia.com/cuda/parallel-thread-execution) as
//!   numbered in PTX ISA 9.1: 9.7.1 "Integer Arithmetic Instructions" (anchors
//!   `#integer-arithmetic-instructions-<op>`), 9.7.2 "Extended-Precision Integer Arithmetic
//!   Instructions" (`#extended-precision-arithmetic-instructions-<op>`), 9.7.8 "Logic and Shift
//!   Instructions" (`#logic-and-shift-instructions-<op>`), 9.7.9.7 "Data Movement and Conversion
//!   Instructions: prmt" (`#data-movement-and-conversion-instructions-prmt`). Older ISA versions
//!   number some of these one lower (PTX 8.1: logic 9.7.7.x, prmt 9.7.8.7); the anchors are
//!   stable.
//!
//! This file is self-contained: no `crate::` paths, and `super::` only in its own test module.

/// An integer operand type: width 8/16/32/64 and signedness (bit types are unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    pub const U8: IntTy = IntTy::new(8, false);
    pub const U16: IntTy = IntTy::new(16, false);
    pub const U32: IntTy = IntTy::new(32, false);
    pub const U64: IntTy = IntTy::new(64, false);
    pub const S8: IntTy = IntTy::new(8, true);
    pub const S16: IntTy = IntTy::new(16, true);
    pub const S32: IntTy = IntTy::new(32, true);
    pub const S64: IntTy = IntTy::new(64, true);
    /// Bit types (`.b8` .. `.b64`) behave as unsigned types.
    pub const B8: IntTy = IntTy::U8;
    pub const B16: IntTy = IntTy::U16;
    pub const B32: IntTy = IntTy::U32;
    pub const B64: IntTy = IntTy::U64;

    pub const fn new(bits: u32, signed: bool) -> IntTy {
        IntTy { bits, signed }
    }
}

/// Width of `t` in bits, clamped into 1..=64 so that odd inputs cannot panic.
fn width(t: IntTy) -> u32 {
    t.bits.clamp(1, 64)
}

/// All-ones mask of the low `bits` bits (`bits >= 64` gives all ones, 0 gives 0).
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Bit `i` of `v` (false when `i >= 64`).
fn bit(v: u64, i: u32) -> bool {
    i < 64 && (v >> i) & 1 == 1
}

/// Keep the low `bits` bits of `v` (zero-extend from `bits`). `bits >= 64` keeps all of `v`.
pub fn trunc(bits: u32, v: u64) -> u64 {
    v & mask(bits)
}

/// Sign-extend the low `bits` bits of `v` to 64 bits. `bits >= 64` returns `v`; `bits == 0`
/// returns 0.
pub fn sext(bits: u32, v: u64) -> u64 {
    if bits == 0 {
        0
    } else if bits >= 64 {
        v
    } else {
        let sh = 64 - bits;
        (((v << sh) as i64) >> sh) as u64
    }
}

/// Truncate `v` to the width of `t` (the zero-extended result convention).
fn fit(t: IntTy, v: u64) -> u64 {
    trunc(width(t), v)
}

/// The value of `v` as a mathematical integer under `t` (sign- or zero-extended).
fn value(t: IntTy, v: u64) -> i128 {
    let w = width(t);
    if t.signed {
        sext(w, v) as i64 as i128
    } else {
        trunc(w, v) as i128
    }
}

/// Smallest and largest value of `t`.
fn range(t: IntTy) -> (i128, i128) {
    let w = width(t);
    if t.signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// Clamp the exact integer `x` into the range of `t` and encode it.
fn saturate(t: IntTy, x: i128) -> u64 {
    let (lo, hi) = range(t);
    fit(t, x.clamp(lo, hi) as u64)
}

// ---------------------------------------------------------------------------------------------
// add / sub (9.7.1.1, 9.7.1.2)
// ---------------------------------------------------------------------------------------------

/// `add.type d, a, b` (9.7.1.1): `d = a + b`, wrapping modulo 2^N.
pub fn add(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a.wrapping_add(b))
}

/// `sub.type d, a, b` (9.7.1.2): `d = a - b`, wrapping modulo 2^N.
pub fn sub(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a.wrapping_sub(b))
}

/// `add.sat.type` (9.7.1.1): ".sat limits result to MININT..MAXINT (no overflow) for the size and
/// signedness of the operation". PTX 1.0 allows it on `.s32` only; PTX 9.2 adds `.u32`
/// (sm_120f). Works for any `t`.
pub fn add_sat(t: IntTy, a: u64, b: u64) -> u64 {
    saturate(t, value(t, a) + value(t, b))
}

/// `sub.sat.type` (9.7.1.2), same saturation rule as [`add_sat`].
pub fn sub_sat(t: IntTy, a: u64, b: u64) -> u64 {
    saturate(t, value(t, a) - value(t, b))
}

/// `add.sat.s32` (9.7.1.1): the sum clamped to `[i32::MIN, i32::MAX]`.
pub fn add_sat_s32(a: u64, b: u64) -> u64 {
    add_sat(IntTy::S32, a, b)
}

/// `sub.sat.s32` (9.7.1.2): the difference clamped to `[i32::MIN, i32::MAX]`.
pub fn sub_sat_s32(a: u64, b: u64) -> u64 {
    sub_sat(IntTy::S32, a, b)
}

/// Apply `f` lane by lane to `lanes` lanes of `lane_bits` bits packed in `a` and `b`.
fn packed2(a: u32, b: u32, lane_bits: u32, f: impl Fn(u64, u64) -> u64) -> u32 {
    let lanes = 32 / lane_bits;
    let mut d = 0u32;
    for i in 0..lanes {
        let sh = i * lane_bits;
        let x = u64::from(a >> sh) & mask(lane_bits);
        let y = u64::from(b >> sh) & mask(lane_bits);
        d |= ((f(x, y) & mask(lane_bits)) as u32) << sh;
    }
    d
}

/// `add{.sat}.u16x2` / `add{.sat}.s16x2` (9.7.1.1): two independent 16-bit additions on
/// `a[15:0]`/`b[15:0]` and `a[31:16]`/`b[31:16]`. Without `.sat` signedness does not matter;
/// with `.sat` (PTX 9.2, sm_120f) each lane saturates to its own type's range.
pub fn add_16x2(signed: bool, sat: bool, a: u32, b: u32) -> u32 {
    let t = IntTy::new(16, signed);
    packed2(
        a,
        b,
        16,
        |x, y| if sat { add_sat(t, x, y) } else { add(t, x, y) },
    )
}

/// `add{.sat}.u8x4` / `add{.sat}.s8x4` (9.7.1.1, PTX 9.2, sm_120f): four byte-lane additions.
pub fn add_8x4(signed: bool, sat: bool, a: u32, b: u32) -> u32 {
    let t = IntTy::new(8, signed);
    packed2(
        a,
        b,
        8,
        |x, y| if sat { add_sat(t, x, y) } else { add(t, x, y) },
    )
}

/// `sub{.sat}.u8x4` / `sub{.sat}.s8x4` (9.7.1.2, PTX 9.2, sm_120f): four byte-lane subtractions.
pub fn sub_8x4(signed: bool, sat: bool, a: u32, b: u32) -> u32 {
    let t = IntTy::new(8, signed);
    packed2(
        a,
        b,
        8,
        |x, y| if sat { sub_sat(t, x, y) } else { sub(t, x, y) },
    )
}

/// `neg.s8x4` (9.7.1.11, PTX 9.2, sm_120f): four byte-lane negations (wrapping: -(-128) = -128).
pub fn neg_s8x4(a: u32) -> u32 {
    packed2(a, 0, 8, |x, _| x.wrapping_neg())
}

// ---------------------------------------------------------------------------------------------
// Extended precision (9.7.2): one carry flag CC.CF
// ---------------------------------------------------------------------------------------------

/// `add.cc` / `addc{.cc}` (9.7.2.1, 9.7.2.2): `d = a + b + carry_in` modulo 2^N, returning the
/// carry-out of the unsigned N-bit addition. `add.cc` is `carry_in = false`; `addc` passes CC.CF.
/// "Behavior is the same for unsigned and signed integers."
pub fn add_cc(t: IntTy, a: u64, b: u64, carry_in: bool) -> (u64, bool) {
    let w = width(t);
    let s = u128::from(fit(t, a)) + u128::from(fit(t, b)) + u128::from(carry_in);
    (fit(t, s as u64), (s >> w) & 1 == 1)
}

/// `sub.cc` / `subc{.cc}` (9.7.2.3, 9.7.2.4), in the carry = NOT-borrow convention of the
/// hardware: computes `a + ~b + carry_in` modulo 2^N and returns its carry-out.
///
/// * `sub.cc d, a, b`: call with `carry_in = true` (`a + ~b + 1 = a - b`); the flag returned is
///   `a >= b` (unsigned), i.e. NOT borrow.
/// * `subc d, a, b`: call with `carry_in = CC.CF`. The ISA writes `d = a - (b + CC.CF)` with
///   CC.CF holding a *borrow*; the hardware stores NOT borrow in the same flag, so
///   `a - (b + borrow) = a + ~b + (1 - borrow) = a + ~b + CF`. This is what ZLUDA's
///   hardware-checked tests (`ptx/src/test/.../addc_subc`) expect, and what the project notes
///   record: after `sub.cc 0 - 1`, `addc 0, 0` gives 0.
pub fn sub_cc(t: IntTy, a: u64, b: u64, carry_in: bool) -> (u64, bool) {
    add_cc(t, a, !b, carry_in)
}

/// `mad{.lo,.hi}.cc` / `madc{.lo,.hi}{.cc}` (9.7.2.5, 9.7.2.6): `d = t<half> + c + carry_in`
/// where `t = a * b` (signed or unsigned per `t`) and `half` is the low (`hi = false`) or high
/// N bits of the 2N-bit product; returns the carry-out of the unsigned N-bit addition.
/// `mad.cc` is `carry_in = false`; `madc` passes CC.CF.
pub fn mad_cc(t: IntTy, hi: bool, a: u64, b: u64, c: u64, carry_in: bool) -> (u64, bool) {
    let p = if hi { mul_hi(t, a, b) } else { mul_lo(t, a, b) };
    add_cc(t, p, c, carry_in)
}

// ---------------------------------------------------------------------------------------------
// mul / mad (9.7.1.3, 9.7.1.4)
// ---------------------------------------------------------------------------------------------

/// The exact 2N-bit product of `a` and `b` under `t`, as a two's-complement 128-bit pattern.
fn product(t: IntTy, a: u64, b: u64) -> u128 {
    if t.signed {
        (value(t, a) * value(t, b)) as u128
    } else {
        u128::from(fit(t, a)) * u128::from(fit(t, b))
    }
}

/// `mul.lo.type` (9.7.1.3): `d = t<n-1..0>`, the low half of the product.
pub fn mul_lo(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a.wrapping_mul(b))
}

/// `mul.hi.type` (9.7.1.3): `d = t<2n-1..n>`, the upper half of the 2N-bit product (signed
/// product for signed types).
pub fn mul_hi(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, (product(t, a, b) >> width(t)) as u64)
}

/// `mul.wide.type` (9.7.1.3): the full 2N-bit product; `t` is the 16- or 32-bit source type and
/// the result is 32 or 64 bits wide ("The .wide suffix is supported only for 16- and 32-bit
/// integer types"; for a 64-bit `t` this returns the low 64 bits).
#[inline]
pub fn mul_wide(t: IntTy, a: u64, b: u64) -> u64 {
    trunc(2 * width(t), product(t, a, b) as u64)
}

/// `mad.lo.type` (9.7.1.4): `d = t<n-1..0> + c` modulo 2^N.
pub fn mad_lo(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    add(t, mul_lo(t, a, b), c)
}

/// `mad.hi.type` (9.7.1.4): `d = t<2n-1..n> + c` modulo 2^N.
pub fn mad_hi(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    add(t, mul_hi(t, a, b), c)
}

/// `mad.wide.type` (9.7.1.4): `d = t + c` where `t` is the 2N-bit product and `c`, `d` are 2N
/// bits wide; wraps modulo 2^(2N).
pub fn mad_wide(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    trunc(2 * width(t), mul_wide(t, a, b).wrapping_add(c))
}

/// `mad.hi.sat.s32` (9.7.1.4): the signed high word of `a * b` plus `c`, with ".sat limits result
/// to MININT..MAXINT (no overflow) for the size of the operation".
pub fn mad_hi_sat_s32(a: u64, b: u64, c: u64) -> u64 {
    add_sat_s32(mul_hi(IntTy::S32, a, b), c)
}

// ---------------------------------------------------------------------------------------------
// mul24 / mad24 (9.7.1.5, 9.7.1.6)
// ---------------------------------------------------------------------------------------------

/// The 48-bit product of the 24-bit operands. The ISA: "Compute the product of two 24-bit integer
/// values held in 32-bit source registers". Bits 31:24 of each source are ignored: the low 24
/// bits are sign-extended for `.s32` and zero-extended for `.u32` (the G80-era 24-bit multiplier,
/// and what ZLUDA's translation does: `(int(x << 8)) >> 8` / `x & 0xffffff`).
fn product24(t: IntTy, a: u64, b: u64) -> i64 {
    let f = |v: u64| {
        if t.signed {
            sext(24, v) as i64
        } else {
            trunc(24, v) as i64
        }
    };
    f(a) * f(b)
}

/// `mul24.lo.type` (9.7.1.5): `d = t<31..0>` of the 48-bit product.
pub fn mul24_lo(t: IntTy, a: u64, b: u64) -> u64 {
    trunc(32, product24(t, a, b) as u64)
}

/// `mul24.hi.type` (9.7.1.5): `d = t<47..16>` of the 48-bit product (not bits 63..32).
pub fn mul24_hi(t: IntTy, a: u64, b: u64) -> u64 {
    trunc(32, (product24(t, a, b) >> 16) as u64)
}

/// `mad24.lo.type` (9.7.1.6): `d = t<31..0> + c` modulo 2^32.
pub fn mad24_lo(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    trunc(32, mul24_lo(t, a, b).wrapping_add(c))
}

/// `mad24.hi.type` (9.7.1.6): `d = t<47..16> + c` modulo 2^32.
pub fn mad24_hi(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    trunc(32, mul24_hi(t, a, b).wrapping_add(c))
}

/// `mad24.hi.sat.s32` (9.7.1.6): ".sat limits result of 32-bit signed addition to
/// MININT..MAXINT": `t<47..16>` read as s32, plus `c`, saturated.
pub fn mad24_hi_sat_s32(a: u64, b: u64, c: u64) -> u64 {
    add_sat_s32(mul24_hi(IntTy::S32, a, b), c)
}

// ---------------------------------------------------------------------------------------------
// sad, div, rem, abs, neg, min, max (9.7.1.7 - 9.7.1.13)
// ---------------------------------------------------------------------------------------------

/// `sad.type` (9.7.1.7): `d = c + ((a<b) ? b-a : a-b)`, compared signed or unsigned per `t`,
/// wrapping modulo 2^N.
pub fn sad(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    let (x, y) = (value(t, a), value(t, b));
    let diff = if x < y { y - x } else { x - y };
    fit(t, c.wrapping_add(diff as u64))
}

/// `div.type` (9.7.1.8): `d = a / b`, truncating toward zero (C semantics). `None` when `b == 0`
/// ("Division by zero yields an unspecified, machine-specific value": the interpreter reports it).
/// Signed `INT_MIN / -1` wraps to `INT_MIN` (project notes: derived from ptxas's s32 sequence).
pub fn div(t: IntTy, a: u64, b: u64) -> Option<u64> {
    let w = width(t);
    if fit(t, b) == 0 {
        return None;
    }
    Some(if t.signed {
        fit(
            t,
            (sext(w, a) as i64).wrapping_div(sext(w, b) as i64) as u64,
        )
    } else {
        fit(t, a) / fit(t, b)
    })
}

/// `rem.type` (9.7.1.9): `d = a % b`, the remainder of the truncating division (its sign follows
/// `a`). `None` when `b == 0`. Signed `INT_MIN rem -1 = 0` (project notes).
pub fn rem(t: IntTy, a: u64, b: u64) -> Option<u64> {
    let w = width(t);
    if fit(t, b) == 0 {
        return None;
    }
    Some(if t.signed {
        fit(
            t,
            (sext(w, a) as i64).wrapping_rem(sext(w, b) as i64) as u64,
        )
    } else {
        fit(t, a) % fit(t, b)
    })
}

/// `abs.type` (9.7.1.10, signed types only): `d = |a|`, wrapping: `abs(INT_MIN) = INT_MIN`.
/// For an unsigned `t` (not legal PTX) the value is returned unchanged.
pub fn abs(t: IntTy, a: u64) -> u64 {
    if t.signed && bit(a, width(t) - 1) {
        neg(t, a)
    } else {
        fit(t, a)
    }
}

/// `neg.type` (9.7.1.11): `d = -a`, two's complement, wrapping: `neg(INT_MIN) = INT_MIN`.
pub fn neg(t: IntTy, a: u64) -> u64 {
    fit(t, a.wrapping_neg())
}

/// `min.type` (9.7.1.12): `d = (a < b) ? a : b`, signed or unsigned per `t`.
pub fn min(t: IntTy, a: u64, b: u64) -> u64 {
    if value(t, a) < value(t, b) {
        fit(t, a)
    } else {
        fit(t, b)
    }
}

/// `max.type` (9.7.1.13): `d = (a > b) ? a : b`, signed or unsigned per `t`.
pub fn max(t: IntTy, a: u64, b: u64) -> u64 {
    if value(t, a) > value(t, b) {
        fit(t, a)
    } else {
        fit(t, b)
    }
}

/// Apply `.relu` ("clamps the result to 0 if negative") to a signed lane value.
fn relu(t: IntTy, v: u64) -> u64 {
    if value(t, v) < 0 {
        0
    } else {
        fit(t, v)
    }
}

/// `min.relu.s32` (9.7.1.12, PTX 8.0, sm_90): `min` then "clamps the result to 0 if negative".
pub fn min_relu_s32(a: u64, b: u64) -> u64 {
    relu(IntTy::S32, min(IntTy::S32, a, b))
}

/// `max.relu.s32` (9.7.1.13, PTX 8.0, sm_90): `max` then clamp negative results to 0.
pub fn max_relu_s32(a: u64, b: u64) -> u64 {
    relu(IntTy::S32, max(IntTy::S32, a, b))
}

/// `min{.relu}.u16x2` / `min{.relu}.s16x2` (9.7.1.12, PTX 8.0, sm_90): per 16-bit lane
/// `d[i] = (iA[i] < iB[i]) ? iA[i] : iB[i]`, lanes `[15:0]` and `[31:16]`. `.relu` exists for
/// `.s16x2` only; on unsigned lanes it has no effect here.
pub fn min_16x2(signed: bool, relu_: bool, a: u32, b: u32) -> u32 {
    let t = IntTy::new(16, signed);
    packed2(a, b, 16, |x, y| {
        let m = min(t, x, y);
        if relu_ && signed {
            relu(t, m)
        } else {
            m
        }
    })
}

/// `max{.relu}.u16x2` / `max{.relu}.s16x2` (9.7.1.13, PTX 8.0, sm_90), lane-wise like
/// [`min_16x2`].
pub fn max_16x2(signed: bool, relu_: bool, a: u32, b: u32) -> u32 {
    let t = IntTy::new(16, signed);
    packed2(a, b, 16, |x, y| {
        let m = max(t, x, y);
        if relu_ && signed {
            relu(t, m)
        } else {
            m
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Bit counting (9.7.1.14 - 9.7.1.18)
// ---------------------------------------------------------------------------------------------

/// `popc.type` (9.7.1.14): number of one bits of `a` (destination `.u32`).
pub fn popc(t: IntTy, a: u64) -> u64 {
    u64::from(fit(t, a).count_ones())
}

/// `clz.type` (9.7.1.15): number of leading zeros counted from bit N-1; `clz(0) = N`
/// ("between 0 and 32, inclusively" for `.b32`).
pub fn clz(t: IntTy, a: u64) -> u64 {
    let w = width(t);
    u64::from(fit(t, a).leading_zeros() - (64 - w))
}

/// `bfind{.shiftamt}.type` (9.7.1.16): position of the most significant non-sign bit.
/// Unsigned: the most significant 1. Signed: the input is complemented first when negative
/// ("negate negative signed inputs ... a = ~a"), so it finds the most significant 0 of a
/// negative value. "bfind returns 0xffffffff if no non-sign bit is found" (a = 0, or a = -1 when
/// signed). With `.shiftamt` it returns `msb - d` ("the shift amount needed to left-shift the
/// found bit into the most-significant bit position"); the not-found value stays 0xffffffff.
pub fn bfind(t: IntTy, a: u64, shiftamt: bool) -> u64 {
    let w = width(t);
    let msb = w - 1;
    let mut x = fit(t, a);
    if t.signed && bit(x, msb) {
        x = fit(t, !x);
    }
    if x == 0 {
        return 0xffff_ffff;
    }
    let d = 63 - x.leading_zeros();
    u64::from(if shiftamt { msb - d } else { d })
}

/// `fns.b32 d, mask, base, offset` (9.7.1.17): the bit position of the `offset`-th set bit of
/// `mask` counting from `base` (inclusive), upward for `offset > 0`, downward for `offset < 0`;
/// `offset == 0` returns `base` if `mask[base]` is set. 0xffffffff when not found. Transliterates
/// the ISA pseudocode:
///
/// ```text
/// d = 0xffffffff;
/// if (offset == 0) { if (mask[base] == 1) d = base; }
/// else { pos = base; count = |offset| - 1; inc = (offset > 0) ? 1 : -1;
///        while ((pos >= 0) && (pos < 32)) {
///            if (mask[pos] == 1) { if (count == 0) { d = pos; break; } else count--; }
///            pos += inc; } }
/// ```
///
/// "Operand base must be <= 31, otherwise behavior is undefined": see [`fns_base_is_ub`]. For
/// such a base this function follows the pseudocode literally with `mask[pos]` read as 0 outside
/// 0..=31 (the loop never runs), returning 0xffffffff.
pub fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if base > 31 {
        return 0xffff_ffff;
    }
    let m = u64::from(mask);
    if offset == 0 {
        return if bit(m, base) { base } else { 0xffff_ffff };
    }
    // count = |offset| - 1 set bits to skip before the one we return.
    let skip = offset.unsigned_abs() - 1;
    let candidates = if offset > 0 {
        // bits base..=31
        m >> base
    } else {
        // bits base..=0, reversed so that bit `base` comes first
        (m << (63 - base)).reverse_bits()
    };
    if candidates.count_ones() <= skip {
        return 0xffff_ffff;
    }
    // Position (within `candidates`) of its (skip+1)-th set bit.
    let mut rest = candidates;
    for _ in 0..skip {
        rest &= rest - 1; // clear the lowest set bit
    }
    let k = rest.trailing_zeros();
    if offset > 0 {
        base + k
    } else {
        base - k
    }
}

/// True when `fns`'s `base` operand makes the instruction undefined (9.7.1.17: "Operand base must
/// be <= 31, otherwise behavior is undefined"). `base` is `.b32/.u32/.s32`: a negative `.s32`
/// base reads as a value above 31 here.
pub fn fns_base_is_ub(base: u32) -> bool {
    base > 31
}

/// `brev.type` (9.7.1.18): `d[i] = a[msb-i]`.
pub fn brev(t: IntTy, a: u64) -> u64 {
    let w = width(t);
    a.reverse_bits() >> (64 - w)
}

// ---------------------------------------------------------------------------------------------
// Bit fields (9.7.1.19 - 9.7.1.22)
// ---------------------------------------------------------------------------------------------

/// Number of bits a field at `pos` of length `len` actually covers inside a `w`-bit value:
/// the `i` with `i < len && pos + i <= msb`.
fn field_len(w: u32, pos: u32, len: u32) -> u32 {
    if pos >= w {
        0
    } else {
        len.min(w - pos)
    }
}

/// `bfe.type d, a, b, c` (9.7.1.19), `b` = position, `c` = length:
///
/// ```text
/// msb = (.type==.u32 || .type==.s32) ? 31 : 63;
/// pos = b & 0xff; len = c & 0xff;
/// if (.type==.u32 || .type==.u64 || len==0) sbit = 0; else sbit = a[min(pos+len-1,msb)];
/// d = 0; for (i=0; i<=msb; i++) d[i] = (i<len && pos+i<=msb) ? a[pos+i] : sbit;
/// ```
///
/// So: length 0 gives 0; a field running past the msb is cut there and (signed) filled with
/// a[msb]; a start position beyond the msb gives 0 (unsigned) or the replicated a[msb] (signed).
pub fn bfe(t: IntTy, a: u64, pos: u32, len: u32) -> u64 {
    let w = width(t);
    let msb = w - 1;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let a = fit(t, a);
    let sbit = t.signed && len != 0 && bit(a, (pos + len - 1).min(msb));
    let n = field_len(w, pos, len);
    let field = if n == 0 { 0 } else { (a >> pos) & mask(n) };
    let fill = if sbit { mask(w) & !mask(n) } else { 0 };
    field | fill
}

/// `bfi.type f, a, b, c, d` (9.7.1.20): insert the low bits of `a` into `b` at position `pos`
/// (operand c) for `len` bits (operand d), both taken `& 0xff`:
///
/// ```text
/// f = b; for (i=0; i<len && pos+i<=msb; i++) f[pos+i] = a[i];
/// ```
///
/// "If the bit field length is zero, the result is b. If the start position is beyond the msb of
/// the input, the result is b."
pub fn bfi(t: IntTy, a: u64, b: u64, pos: u32, len: u32) -> u64 {
    let w = width(t);
    let (pos, len) = (pos & 0xff, len & 0xff);
    let n = field_len(w, pos, len);
    if n == 0 {
        return fit(t, b);
    }
    let m = mask(n) << pos;
    fit(t, (b & !m) | ((a << pos) & m))
}

/// `szext.mode.type d, a, b` (9.7.1.21, PTX 7.6, sm_70): sign- (`signed`, `.s32`) or zero-extend
/// (`.u32`) the low N bits of `a`, N = `n` (operand b). N = 0 gives 0. For N >= 32, `.clamp`
/// (`clamp = true`) returns `a`, `.wrap` uses N & 31. ISA pseudocode:
///
/// ```text
/// b1 = b & 0x1f; too_large = (b >= 32 && .mode == .clamp);
/// mask = too_large ? 0 : (~0) << b1; sign_pos = (b1 - 1) & 0x1f;
/// sign_bit = (b1 == 0 || too_large || .type != .s32) ? false : (a >> sign_pos) & 1;
/// d = (a & ~mask) | (sign_bit ? mask : 0);
/// ```
pub fn szext(signed: bool, a: u32, n: u32, clamp: bool) -> u32 {
    let b1 = n & 0x1f;
    let too_large = n >= 32 && clamp;
    let m: u32 = if too_large { 0 } else { u32::MAX << b1 };
    let sign_pos = b1.wrapping_sub(1) & 0x1f;
    let sign_bit = !(b1 == 0 || too_large || !signed) && (a >> sign_pos) & 1 == 1;
    (a & !m) | if sign_bit { m } else { 0 }
}

/// `bmsk.mode.b32 d, a, b` (9.7.1.22, PTX 7.6, sm_70): a mask of `b` (width) one bits starting at
/// bit `a` (position). ISA pseudocode:
///
/// ```text
/// a1 = a & 0x1f; mask0 = (~0) << a1; b1 = b & 0x1f; sum = a1 + b1; mask1 = (~0) << sum;
/// sum-overflow = sum >= 32; bit-position-overflow = false; bit-width-overflow = false;
/// if (.mode == .clamp) { if (a >= 32) { bit-position-overflow = true; mask0 = 0; }
///                        if (b >= 32) { bit-width-overflow = true; } }
/// if (sum-overflow || bit-position-overflow || bit-width-overflow) mask1 = 0;
/// else if (b1 == 0) mask1 = ~0;
/// d = mask0 & ~mask1;
/// ```
///
/// "The resulting bitmask is 0 ... when the value of a is 32 or higher and .mode is .clamp [and]
/// when either the specified value of b or the wrapped value of b (when .mode is .wrap) is 0."
/// Widths past bit 31 are cut at bit 31; in `.clamp` mode `b >= 32` means "to bit 31".
pub fn bmsk(pos: u32, width_: u32, clamp: bool) -> u32 {
    let a1 = pos & 0x1f;
    let mut mask0: u32 = u32::MAX << a1;
    let b1 = width_ & 0x1f;
    let sum = a1 + b1;
    let sum_overflow = sum >= 32;
    let mut pos_overflow = false;
    let mut width_overflow = false;
    if clamp {
        if pos >= 32 {
            pos_overflow = true;
            mask0 = 0;
        }
        if width_ >= 32 {
            width_overflow = true;
        }
    }
    let mask1: u32 = if sum_overflow || pos_overflow || width_overflow {
        0
    } else if b1 == 0 {
        u32::MAX
    } else {
        u32::MAX << sum // sum < 32 here
    };
    mask0 & !mask1
}

// ---------------------------------------------------------------------------------------------
// Dot products (9.7.1.23, 9.7.1.24)
// ---------------------------------------------------------------------------------------------

/// Byte or halfword `i` of `v` (lanes of `lane_bits`), sign- or zero-extended.
fn lane(v: u32, lane_bits: u32, i: u32, signed: bool) -> i64 {
    let x = u64::from(v >> (i * lane_bits));
    if signed {
        sext(lane_bits, x) as i64
    } else {
        trunc(lane_bits, x) as i64
    }
}

/// `dp4a.atype.btype d, a, b, c` (9.7.1.23, sm_61): `d = c + sum_i Va[i] * Vb[i]` over the four
/// bytes of `a` and `b`, each sign- or zero-extended per its type; 32-bit wrapping accumulate.
pub fn dp4a(a_signed: bool, b_signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let mut d = i64::from(c);
    for i in 0..4 {
        d += lane(a, 8, i, a_signed) * lane(b, 8, i, b_signed);
    }
    d as u32
}

/// `dp2a.mode.atype.btype d, a, b, c` (9.7.1.24, sm_61): `d = c + sum_{i<2} Va[i] *
/// Vb[b_select + i]` with `Va` the two halfwords of `a`, `Vb` the four bytes of `b` and
/// `b_select = (.mode == .lo) ? 0 : 2` (`hi = true` selects `.hi`); 32-bit wrapping.
pub fn dp2a(hi: bool, a_signed: bool, b_signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let sel = if hi { 2 } else { 0 };
    let mut d = i64::from(c);
    for i in 0..2 {
        d += lane(a, 16, i, a_signed) * lane(b, 8, sel + i, b_signed);
    }
    d as u32
}

// ---------------------------------------------------------------------------------------------
// Logic and shift (9.7.8)
// ---------------------------------------------------------------------------------------------

/// `and.type` (9.7.8.1): bitwise AND.
pub fn and(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a & b)
}

/// `or.type` (9.7.8.2): bitwise OR.
pub fn or(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a | b)
}

/// `xor.type` (9.7.8.3): bitwise XOR.
pub fn xor(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a ^ b)
}

/// `not.type` (9.7.8.4): bitwise complement (one's complement) within the width.
pub fn not(t: IntTy, a: u64) -> u64 {
    fit(t, !a)
}

/// `cnot.type` (9.7.8.5): "logical negation using C/C++ semantics": `d = (a==0) ? 1 : 0`.
pub fn cnot(t: IntTy, a: u64) -> u64 {
    u64::from(fit(t, a) == 0)
}

/// `lop3.b32 d, a, b, c, immLut` (9.7.8.6): arbitrary 3-input bitwise function. The ISA defines
/// `immLut = F(ta, tb, tc)` with `ta = 0xF0, tb = 0xCC, tc = 0xAA`; bit `k` of those constants is
/// `(k>>2)&1`, `(k>>1)&1`, `k&1` respectively, so result bit `j` is
/// `(immLut >> (a[j]<<2 | b[j]<<1 | c[j])) & 1`.
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut d = 0u32;
    for k in 0..8u32 {
        if (lut >> k) & 1 == 1 {
            let ta = if k & 4 != 0 { a } else { !a };
            let tb = if k & 2 != 0 { b } else { !b };
            let tc = if k & 1 != 0 { c } else { !c };
            d |= ta & tb & tc;
        }
    }
    d
}

/// `shf.l.mode.b32 d, a, b, c` (9.7.8.7): shift the 64-bit value `{b, a}` (b = bits 63:32) left
/// and return its upper 32 bits. `n = (.mode == .clamp) ? min(c, 32) : c & 0x1f`
/// (`wrap = true` is `.wrap`). ISA: `d = (b << n) | (a >> (32-n))`, where a shift by 32 means
/// "all bits out" (so n = 32 gives `a`, n = 0 gives `b`).
pub fn shf_l(a: u32, b: u32, c: u32, wrap: bool) -> u32 {
    let n = if wrap { c & 0x1f } else { c.min(32) };
    let v = (u64::from(b) << 32) | u64::from(a);
    ((v << n) >> 32) as u32
}

/// `shf.r.mode.b32 d, a, b, c` (9.7.8.7): shift `{b, a}` right and return its lower 32 bits.
/// ISA: `d = (b << (32-n)) | (a >> n)` (n = 32 gives `b`, n = 0 gives `a`).
pub fn shf_r(a: u32, b: u32, c: u32, wrap: bool) -> u32 {
    let n = if wrap { c & 0x1f } else { c.min(32) };
    let v = (u64::from(b) << 32) | u64::from(a);
    (v >> n) as u32
}

/// `shl.type d, a, b` (9.7.8.8): `d = a << b`, b an unsigned 32-bit amount; "Shift amounts
/// greater than the register width N are clamped to N", so any amount >= N gives 0.
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

/// `prmt` modes (9.7.9.7): the generic form and `.f4e .b4e .rc8 .ecl .ecr .rc16`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// No mode: four 4-bit selectors in `c[15:0]`, selector bit 3 replicates the byte's sign.
    Default,
    /// Forward 4 extract.
    F4e,
    /// Backward 4 extract.
    B4e,
    /// Replicate 8.
    Rc8,
    /// Edge clamp left.
    Ecl,
    /// Edge clamp right.
    Ecr,
    /// Replicate 16.
    Rc16,
}

/// `prmt.b32{.mode} d, a, b, c` (9.7.9.7): pick four bytes of `{b, a}` = `{b7 b6 b5 b4, b3 b2 b1
/// b0}` (a = bytes 0..3, b = bytes 4..7).
///
/// Generic form: `ctl[i] = (c >> 4i) & 0xf` selects destination byte `i`; its 3 lsbs name the
/// source byte, its msb "defines if the byte value should be copied, or if the sign (msb of the
/// byte) should be replicated over all 8 bits of the target position"; `c[31:16]` is ignored.
///
/// Named modes use only `c[1:0]`; the ISA's table (destination bytes 3 2 1 0):
///
/// ```text
/// mode  c[1:0]=0   1         2         3
/// f4e   3 2 1 0    4 3 2 1   5 4 3 2   6 5 4 3
/// b4e   5 6 7 0    6 7 0 1   7 0 1 2   0 1 2 3
/// rc8   0 0 0 0    1 1 1 1   2 2 2 2   3 3 3 3
/// ecl   3 2 1 0    3 2 1 1   3 2 2 2   3 3 3 3
/// ecr   0 0 0 0    1 1 1 0   2 2 1 0   3 2 1 0
/// rc16  1 0 1 0    3 2 3 2   1 0 1 0   3 2 3 2
/// ```
///
/// (Cross-checked against SYCLomatic's hardware test `asm_prmt.cu`, whose lookup table is
/// `{0x3210,0x4321,0x5432,0x6543}, {0x5670,0x6701,0x7012,0x0123}, {0x0000,0x1111,0x2222,0x3333},
/// {0x3210,0x3211,0x3222,0x3333}, {0x0000,0x1110,0x2210,0x3210}, {0x1010,0x3232,0x1010,0x3232}`.)
/// "Note that the sign extension is only performed as part of generic form."
pub fn prmt(a: u32, b: u32, c: u32, mode: PrmtMode) -> u32 {
    const TABLE: [[u16; 4]; 6] = [
        [0x3210, 0x4321, 0x5432, 0x6543], // f4e
        [0x5670, 0x6701, 0x7012, 0x0123], // b4e
        [0x0000, 0x1111, 0x2222, 0x3333], // rc8
        [0x3210, 0x3211, 0x3222, 0x3333], // ecl
        [0x0000, 0x1110, 0x2210, 0x3210], // ecr
        [0x1010, 0x3232, 0x1010, 0x3232], // rc16
    ];
    let src = (u64::from(b) << 32) | u64::from(a);
    let (sel, sign_allowed) = match mode {
        PrmtMode::Default => (c & 0xffff, true),
        PrmtMode::F4e => (u32::from(TABLE[0][(c & 3) as usize]), false),
        PrmtMode::B4e => (u32::from(TABLE[1][(c & 3) as usize]), false),
        PrmtMode::Rc8 => (u32::from(TABLE[2][(c & 3) as usize]), false),
        PrmtMode::Ecl => (u32::from(TABLE[3][(c & 3) as usize]), false),
        PrmtMode::Ecr => (u32::from(TABLE[4][(c & 3) as usize]), false),
        PrmtMode::Rc16 => (u32::from(TABLE[5][(c & 3) as usize]), false),
    };
    let mut d = 0u32;
    for i in 0..4 {
        let ctl = (sel >> (4 * i)) & 0xf;
        let byte = ((src >> (8 * (ctl & 7))) & 0xff) as u32;
        let out = if sign_allowed && ctl & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d |= out << (8 * i);
    }
    d
}

// ---------------------------------------------------------------------------------------------
// Comparisons ("Comparison and Selection Instructions: setp", integer comparison operators)
// ---------------------------------------------------------------------------------------------

/// Integer comparison operators of `setp`/`set`/`slct`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntCmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
}

/// `setp.cmp.type`'s test: `eq ne lt le gt ge` compare signed or unsigned per `t`; `lo ls hi hs`
/// ("lower, lower-or-same, higher, higher-or-same") are unsigned comparisons regardless of `t`.
pub fn compare(t: IntTy, op: IntCmp, a: u64, b: u64) -> bool {
    let (x, y) = (value(t, a), value(t, b));
    let (ux, uy) = (fit(t, a), fit(t, b));
    match op {
        IntCmp::Eq => ux == uy,
        IntCmp::Ne => ux != uy,
        IntCmp::Lt => x < y,
        IntCmp::Le => x <= y,
        IntCmp::Gt => x > y,
        IntCmp::Ge => x >= y,
        IntCmp::Lo => ux < uy,
        IntCmp::Ls => ux <= uy,
        IntCmp::Hi => ux > uy,
        IntCmp::Hs => ux >= uy,
    }
}

#[cfg(test)]
#[path = "int_tests.rs"]
mod tests;
