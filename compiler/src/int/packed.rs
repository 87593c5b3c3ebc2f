//! Packed integer lanes (PTX ISA 9.7.1): `add`/`sub`/`neg`/`min`/`max` on `.u16x2`, `.s16x2`,
//! `.u8x4`, `.s8x4`, each lane on its own.

use super::arith::{add, max, min, relu, sub};
use super::sat::{add_sat, sub_sat};
use super::ty::{mask, IntTy};

/// Apply `f` lane by lane to `lanes` lanes of `lane_bits` bits packed in `a` and `b`.
#[inline]
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
#[inline]
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
#[inline]
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
#[inline]
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
#[inline]
pub fn neg_s8x4(a: u32) -> u32 {
    packed2(a, 0, 8, |x, _| x.wrapping_neg())
}

/// `min{.relu}.u16x2` / `min{.relu}.s16x2` (9.7.1.12, PTX 8.0, sm_90): per 16-bit lane
/// `d[i] = (iA[i] < iB[i]) ? iA[i] : iB[i]`, lanes `[15:0]` and `[31:16]`. `.relu` exists for
/// `.s16x2` only; on unsigned lanes it has no effect here.
#[inline]
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
#[inline]
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
