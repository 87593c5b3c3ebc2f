//! Tests of the float library. Expected values come from the PTX ISA text,
//! from the host's IEEE arithmetic, or from the exact rational reference in
//! `reference.rs`, never from the code under test.

mod reference;
mod t_approx;
mod t_arith;
mod t_convert;
mod t_misc;

use super::FloatType;
use reference::Fmt;

/// SplitMix64: a small deterministic generator for sampled tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Reference format parameters of a `FloatType`.
pub fn fmt(ty: FloatType) -> Fmt {
    match ty {
        FloatType::F16 => reference::F16,
        FloatType::Bf16 => reference::BF16,
        FloatType::F32 => reference::F32,
        FloatType::F64 => reference::F64,
    }
}

/// Width in bits (restated).
pub fn width(ty: FloatType) -> u32 {
    let f = fmt(ty);
    1 + f.e + f.m
}

pub fn mask(ty: FloatType) -> u64 {
    if width(ty) == 64 {
        u64::MAX
    } else {
        (1u64 << width(ty)) - 1
    }
}

/// Special and boundary bit patterns of a format (positive; callers add the
/// sign): zero, smallest/largest subnormal, smallest normal, 1.0, largest
/// finite, infinity, quiet NaN, signalling NaN, NaN with payload.
pub fn specials(ty: FloatType) -> Vec<u64> {
    let f = fmt(ty);
    let exp_ones = ((1u64 << f.e) - 1) << f.m;
    let one = ((1u64 << (f.e - 1)) - 1) << f.m;
    let mut v = vec![
        0,
        1,
        2,
        (1u64 << f.m) - 1,
        1u64 << f.m,
        (1u64 << f.m) + 1,
        one,
        one + 1,
        one - 1,
        exp_ones - 1,
        exp_ones - 2,
        exp_ones,
        exp_ones | (1u64 << (f.m - 1)),
        exp_ones | 1,
        exp_ones | ((1u64 << f.m) - 1),
    ];
    let sign = f.sign_bit();
    let neg: Vec<u64> = v.iter().map(|x| x | sign).collect();
    v.extend(neg);
    v
}

/// A value biased toward interesting regions: specials and their
/// neighbours, uniformly random bit patterns, and values near 1.
pub fn interesting(ty: FloatType, rng: &mut Rng) -> u64 {
    let sp = specials(ty);
    match rng.below(8) {
        0 | 1 => sp[rng.below(sp.len() as u64) as usize],
        2 => {
            let base = sp[rng.below(sp.len() as u64) as usize];
            let d = rng.below(9) as i64 - 4;
            (base as i64).wrapping_add(d) as u64 & mask(ty)
        }
        _ => rng.next() & mask(ty),
    }
}

/// Like [`interesting`] but finite.
pub fn finite(ty: FloatType, rng: &mut Rng) -> u64 {
    loop {
        let x = interesting(ty, rng);
        if fmt(ty).is_finite(x) {
            return x;
        }
    }
}

/// A second operand whose exponent is close to `a`'s (to exercise
/// cancellation and rounding carries), or an unrelated finite value.
pub fn partner(ty: FloatType, a: u64, rng: &mut Rng) -> u64 {
    let f = fmt(ty);
    if rng.below(2) == 0 {
        return finite(ty, rng);
    }
    let e_field = (a >> f.m) & ((1u64 << f.e) - 1);
    let span = (f.m as u64 + 4).min((1u64 << f.e) - 2);
    let lo = e_field.saturating_sub(span / 2);
    let e = (lo + rng.below(span + 1)).min((1u64 << f.e) - 2);
    let frac = rng.next() & ((1u64 << f.m) - 1);
    let sign = if rng.below(2) == 0 { 0 } else { f.sign_bit() };
    sign | (e << f.m) | frac
}
