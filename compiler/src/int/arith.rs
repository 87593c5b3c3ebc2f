//! Integer arithmetic (PTX ISA 9.7.1): add, sub, mul, mad, mul24, mad24, sad, div, rem, abs,
//! neg, min, max.

use super::ty::{bit, fit, sext, trunc, value, width, IntTy};

// ---------------------------------------------------------------------------------------------
// add / sub (9.7.1.1, 9.7.1.2)
// ---------------------------------------------------------------------------------------------

/// `add.type d, a, b` (9.7.1.1): `d = a + b`, wrapping modulo 2^N.
#[inline]
pub fn add(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a.wrapping_add(b))
}

/// `sub.type d, a, b` (9.7.1.2): `d = a - b`, wrapping modulo 2^N.
#[inline]
pub fn sub(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a.wrapping_sub(b))
}

// ---------------------------------------------------------------------------------------------
// mul / mad (9.7.1.3, 9.7.1.4)
// ---------------------------------------------------------------------------------------------

/// The exact 2N-bit product of `a` and `b` under `t`, as a two's-complement 128-bit pattern.
#[inline]
fn product(t: IntTy, a: u64, b: u64) -> u128 {
    if t.signed {
        (value(t, a) * value(t, b)) as u128
    } else {
        u128::from(fit(t, a)) * u128::from(fit(t, b))
    }
}

/// `mul.lo.type` (9.7.1.3): `d = t<n-1..0>`, the low half of the product.
#[inline]
pub fn mul_lo(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a.wrapping_mul(b))
}

/// `mul.hi.type` (9.7.1.3): `d = t<2n-1..n>`, the upper half of the 2N-bit product (signed
/// product for signed types).
#[inline]
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
#[inline]
pub fn mad_lo(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    add(t, mul_lo(t, a, b), c)
}

/// `mad.hi.type` (9.7.1.4): `d = t<2n-1..n> + c` modulo 2^N.
#[inline]
pub fn mad_hi(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    add(t, mul_hi(t, a, b), c)
}

/// `mad.wide.type` (9.7.1.4): `d = t + c` where `t` is the 2N-bit product and `c`, `d` are 2N
/// bits wide; wraps modulo 2^(2N).
#[inline]
pub fn mad_wide(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    trunc(2 * width(t), mul_wide(t, a, b).wrapping_add(c))
}

// ---------------------------------------------------------------------------------------------
// mul24 / mad24 (9.7.1.5, 9.7.1.6)
// ---------------------------------------------------------------------------------------------

/// The 48-bit product of the 24-bit operands. The ISA: "Compute the product of two 24-bit integer
/// values held in 32-bit source registers". Bits 31:24 of each source are ignored: the low 24
/// bits are sign-extended for `.s32` and zero-extended for `.u32` (the G80-era 24-bit multiplier,
/// and what ZLUDA's translation does: `(int(x << 8)) >> 8` / `x & 0xffffff`).
#[inline]
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
#[inline]
pub fn mul24_lo(t: IntTy, a: u64, b: u64) -> u64 {
    trunc(32, product24(t, a, b) as u64)
}

/// `mul24.hi.type` (9.7.1.5): `d = t<47..16>` of the 48-bit product (not bits 63..32).
#[inline]
pub fn mul24_hi(t: IntTy, a: u64, b: u64) -> u64 {
    trunc(32, (product24(t, a, b) >> 16) as u64)
}

/// `mad24.lo.type` (9.7.1.6): `d = t<31..0> + c` modulo 2^32.
#[inline]
pub fn mad24_lo(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    trunc(32, mul24_lo(t, a, b).wrapping_add(c))
}

/// `mad24.hi.type` (9.7.1.6): `d = t<47..16> + c` modulo 2^32.
#[inline]
pub fn mad24_hi(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    trunc(32, mul24_hi(t, a, b).wrapping_add(c))
}

// ---------------------------------------------------------------------------------------------
// sad, div, rem, abs, neg, min, max (9.7.1.7 - 9.7.1.13)
// ---------------------------------------------------------------------------------------------

/// `sad.type` (9.7.1.7): `d = c + ((a<b) ? b-a : a-b)`, compared signed or unsigned per `t`,
/// wrapping modulo 2^N.
#[inline]
pub fn sad(t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    let (x, y) = (value(t, a), value(t, b));
    let diff = if x < y { y - x } else { x - y };
    fit(t, c.wrapping_add(diff as u64))
}

/// `div.type` (9.7.1.8): `d = a / b`, truncating toward zero (C semantics). `None` when `b == 0`
/// ("Division by zero yields an unspecified, machine-specific value": the interpreter reports it).
/// Signed `INT_MIN / -1` wraps to `INT_MIN` (docs/SEMANTICS.md: derived from ptxas's s32 sequence).
#[inline]
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
/// `a`). `None` when `b == 0`. Signed `INT_MIN rem -1 = 0` (docs/SEMANTICS.md).
#[inline]
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
#[inline]
pub fn abs(t: IntTy, a: u64) -> u64 {
    if t.signed && bit(a, width(t) - 1) {
        neg(t, a)
    } else {
        fit(t, a)
    }
}

/// `neg.type` (9.7.1.11): `d = -a`, two's complement, wrapping: `neg(INT_MIN) = INT_MIN`.
#[inline]
pub fn neg(t: IntTy, a: u64) -> u64 {
    fit(t, a.wrapping_neg())
}

/// `min.type` (9.7.1.12): `d = (a < b) ? a : b`, signed or unsigned per `t`.
#[inline]
pub fn min(t: IntTy, a: u64, b: u64) -> u64 {
    if value(t, a) < value(t, b) {
        fit(t, a)
    } else {
        fit(t, b)
    }
}

/// `max.type` (9.7.1.13): `d = (a > b) ? a : b`, signed or unsigned per `t`.
#[inline]
pub fn max(t: IntTy, a: u64, b: u64) -> u64 {
    if value(t, a) > value(t, b) {
        fit(t, a)
    } else {
        fit(t, b)
    }
}

/// Apply `.relu` ("clamps the result to 0 if negative") to a signed lane value.
#[inline]
pub(super) fn relu(t: IntTy, v: u64) -> u64 {
    if value(t, v) < 0 {
        0
    } else {
        fit(t, v)
    }
}

/// `min.relu.s32` (9.7.1.12, PTX 8.0, sm_90): `min` then "clamps the result to 0 if negative".
#[inline]
pub fn min_relu_s32(a: u64, b: u64) -> u64 {
    relu(IntTy::S32, min(IntTy::S32, a, b))
}

/// `max.relu.s32` (9.7.1.13, PTX 8.0, sm_90): `max` then clamp negative results to 0.
#[inline]
pub fn max_relu_s32(a: u64, b: u64) -> u64 {
    relu(IntTy::S32, max(IntTy::S32, a, b))
}
