//! Integer dot products (PTX ISA 9.7.1.23, 9.7.1.24): dp4a, dp2a.

use super::ty::{sext, trunc};

/// Byte or halfword `i` of `v` (lanes of `lane_bits`), sign- or zero-extended.
#[inline]
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
#[inline]
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
#[inline]
pub fn dp2a(hi: bool, a_signed: bool, b_signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let sel = if hi { 2 } else { 0 };
    let mut d = i64::from(c);
    for i in 0..2 {
        d += lane(a, 16, i, a_signed) * lane(b, 8, sel + i, b_signed);
    }
    d as u32
}
