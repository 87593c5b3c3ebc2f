//! The single rounding routine every exact operation funnels through: take an
//! exact (or exact-plus-sticky) intermediate and produce the correctly rounded
//! bit pattern of a format under one of the four IEEE rounding directions.

use super::formats::FloatType;
use super::Rounding;

/// Result of an overflow (|value| >= 2^(emax+1), or rounding past the largest
/// finite value) under `rnd`: IEEE 754-2019 section 7.4. RN gives infinity,
/// RZ the largest finite value, RM/RP infinity only in their own direction.
#[inline]
pub(super) fn overflow(ty: FloatType, sign: bool, rnd: Rounding) -> u64 {
    let to_inf = match rnd {
        Rounding::Rn => true,
        Rounding::Rz => false,
        Rounding::Rm => sign,
        Rounding::Rp => !sign,
    };
    ty.zero(sign) | if to_inf { ty.inf() } else { ty.max_finite() }
}

/// Rounds the exact value `(-1)^sign * (sig + f) * 2^exp` to `ty`, where
/// `f = 0` when `sticky` is false and `0 < f < 1` when it is true.
///
/// Precondition: when `sticky` is true, at least two bits of `sig` lie below
/// the result's least significant bit (guaranteed by callers keeping
/// `sig >= 2^(man_bits + 3)`); then the sticky fraction can only affect the
/// rounding decision as a non-zero "below the round bit" indication.
///
/// A zero `sig` without sticky gives a zero of the given sign. Results that
/// land below the normal range are rounded on the subnormal grid (one
/// rounding; IEEE results do not depend on when tininess is detected).
#[inline]
pub(super) fn round_pack(
    ty: FloatType,
    sign: bool,
    sig: u128,
    exp: i32,
    sticky: bool,
    rnd: Rounding,
) -> u64 {
    if sig == 0 {
        debug_assert!(!sticky, "sticky without significand");
        return ty.zero(sign);
    }
    let man = ty.man_bits() as i32;
    let msb = 127 - sig.leading_zeros() as i32;
    let top = exp + msb; // unbiased exponent of the leading bit
    if top > ty.max_exp() {
        return overflow(ty, sign, rnd);
    }
    // Exponent of the result's least significant bit.
    let lsb = (top - man).max(ty.min_lsb_exp());
    let shift = lsb - exp; // bits of `sig` below the result's lsb
    let (q, round_bit, low) = if shift <= 0 {
        debug_assert!(!sticky, "sticky with fewer than two discarded bits");
        // Exact: top - lsb <= man, so the shifted value fits in man+1 bits.
        (sig << (-shift) as u32, false, sticky)
    } else if shift > 128 {
        (0u128, false, true)
    } else if shift == 128 {
        (0u128, (sig >> 127) != 0, (sig << 1) != 0 || sticky)
    } else {
        debug_assert!(
            !sticky || shift >= 2,
            "sticky with fewer than two discarded bits"
        );
        let rem = sig & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        (
            sig >> shift,
            (rem & half) != 0,
            (rem & (half - 1)) != 0 || sticky,
        )
    };
    let inexact = round_bit || low;
    let up = match rnd {
        Rounding::Rn => round_bit && (low || (q & 1) != 0),
        Rounding::Rz => false,
        Rounding::Rm => sign && inexact,
        Rounding::Rp => !sign && inexact,
    };
    let mut q = (q + up as u128) as u64;
    let mut lsb = lsb;
    if q == 0 {
        return ty.zero(sign);
    }
    if (q >> (man + 1)) != 0 {
        // Rounding carried into a new binade: q == 2^(man+1) exactly.
        q >>= 1;
        lsb += 1;
    }
    let s = ty.zero(sign);
    if q < (1u64 << man) {
        // Subnormal (only reachable when lsb is the subnormal grid's lsb).
        debug_assert_eq!(lsb, ty.min_lsb_exp());
        return s | q;
    }
    let biased = (lsb + man + ty.bias()) as u64;
    if biased >= ty.exp_field_max() {
        return overflow(ty, sign, rnd);
    }
    s | (biased << man) | (q & ty.man_mask())
}
