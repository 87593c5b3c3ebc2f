//! Float conversions: element bits ↔ values (the exact f64 → f16 rounding is
//! `ptxc::float::f64_to_f16_bits`), and the human-readable value shown in
//! mismatch reports.

use super::types::ElemType;
use ptxc::float::FloatType;

pub use ptxc::float::f64_to_f16_bits;

/// IEEE binary16 bits → the exact f64 value (NaNs stay NaN with their sign).
pub fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f64::from(h & 0x3ff);
    match exp {
        0 => sign * man * 2f64.powi(-24),
        0x1f if man == 0.0 => sign * f64::INFINITY,
        0x1f => {
            // quiet NaN carrying the payload and the sign
            let bits = (u64::from(h & 0x8000) << 48)
                | 0x7ff8_0000_0000_0000
                | (u64::from(h & 0x3ff) << 42);
            f64::from_bits(bits)
        }
        _ => sign * (1.0 + man / 1024.0) * 2f64.powi(exp - 15),
    }
}

/// The bits of `x` rounded to nearest-even into the float type `ty`
/// (`None` for integer types).
pub fn f64_to_bits(ty: ElemType, x: f64) -> Option<u64> {
    match ty {
        ElemType::F16 => Some(u64::from(f64_to_f16_bits(x))),
        // Rust's `as f32` rounds to nearest, ties to even, overflows to inf.
        ElemType::F32 => Some(u64::from((x as f32).to_bits())),
        ElemType::F64 => Some(x.to_bits()),
        _ => None,
    }
}

/// The value of an element as f64: exact for floats (and f16), the integer
/// value (signed for `s*` types) rounded to f64 for integer types.
pub fn bits_to_f64(ty: ElemType, bits: u64) -> f64 {
    let bits = bits & ty.mask();
    match ty {
        ElemType::F16 => f16_bits_to_f64(bits as u16),
        ElemType::F32 => f64::from(f32::from_bits(bits as u32)),
        ElemType::F64 => f64::from_bits(bits),
        t if t.is_signed_int() => sign_extend(bits, t.bits()) as f64,
        _ => bits as f64,
    }
}

/// `bits` (of width `width`) as a signed integer.
pub(super) fn sign_extend(bits: u64, width: u32) -> i64 {
    ptxc::int::sext(width, bits) as i64
}

/// Whether the element is a NaN (always false for integer types).
pub fn is_nan(ty: ElemType, bits: u64) -> bool {
    float_type(ty).is_some_and(|f| f.is_nan(bits & ty.mask()))
}

/// The float format of an element type (`None` for integer types).
fn float_type(ty: ElemType) -> Option<FloatType> {
    match ty {
        ElemType::F16 => Some(FloatType::F16),
        ElemType::F32 => Some(FloatType::F32),
        ElemType::F64 => Some(FloatType::F64),
        _ => None,
    }
}

/// The element's value as people read it: `1.0000001`, `-inf`, `NaN`,
/// `-0.0`, `65504.0`, `-17`, `4294967295`. f32 and f64 are shown with the
/// fewest digits that identify them in their own type, f16 exactly.
pub fn format_value(ty: ElemType, bits: u64) -> String {
    let bits = bits & ty.mask();
    match ty {
        ElemType::F16 => {
            // f16 values are short in decimal: show the exact value (65504.0,
            // not the shortest-unique 65500.0)
            let v = f16_bits_to_f64(bits as u16);
            if v.is_finite() {
                format!("{v:?}")
            } else {
                float_special(v)
            }
        }
        ElemType::F32 => {
            let v = f32::from_bits(bits as u32);
            if v.is_finite() {
                format!("{v:?}")
            } else {
                float_special(f64::from(v))
            }
        }
        ElemType::F64 => {
            let v = f64::from_bits(bits);
            if v.is_finite() {
                format!("{v:?}")
            } else {
                float_special(v)
            }
        }
        t if t.is_signed_int() => sign_extend(bits, t.bits()).to_string(),
        _ => bits.to_string(),
    }
}

fn float_special(v: f64) -> String {
    if v.is_nan() {
        if v.is_sign_negative() { "-NaN" } else { "NaN" }.to_string()
    } else if v > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every f16 pattern: to f64 and back is the identity (NaNs: still NaN
    /// with the same sign, quiet).
    #[test]
    fn f16_round_trip_exhaustive() {
        for h in 0..=u16::MAX {
            let v = f16_bits_to_f64(h);
            let back = f64_to_f16_bits(v);
            if (h & 0x7fff) > 0x7c00 {
                assert!(v.is_nan());
                assert_eq!(back & 0x8000, h & 0x8000);
                assert!((back & 0x7fff) > 0x7c00, "{h:#x} -> {back:#x}");
                assert_eq!(back & 0x200, 0x200, "quiet");
            } else {
                assert_eq!(back, h, "{h:#x} -> {v:e} -> {back:#x}");
            }
        }
    }

    /// The next f64 above / below a positive finite `x` (f64::next_up is
    /// newer than the workspace's minimum Rust version).
    fn up(x: f64) -> f64 {
        f64::from_bits(x.to_bits() + 1)
    }
    fn down(x: f64) -> f64 {
        f64::from_bits(x.to_bits() - 1)
    }

    /// f16 magnitude bits (below 0x7c00) decoded independently of
    /// `f16_bits_to_f64`: normals through the f32 bit layout (rebias the
    /// exponent, widen the fraction), subnormals as fraction * 2^-24.
    fn decode(h: u16) -> f64 {
        let e = u32::from(h >> 10);
        let m = u32::from(h & 0x3ff);
        if e == 0 {
            f64::from(m) / 16_777_216.0
        } else {
            f64::from(f32::from_bits(((e + 112) << 23) | (m << 13)))
        }
    }

    /// An independent f64 -> f16 reference for the tests: a binary search
    /// for the largest f16 magnitude not above |x|, then the nearer
    /// neighbour, ties to the even pattern. Both distances are exact in f64
    /// (Sterbenz: neighbouring f16 values are within a factor of 2).
    ///
    /// (While this was written, the `half` crate was also compared: its
    /// decoding and its `from_f32` agree with this module on every input
    /// tried, but `half::f16::from_f64` converts through f32 on x86-64 with
    /// F16C and so double-rounds, e.g. 0xc3f2 for -3.9716796326196917, whose
    /// nearest f16 is 0xc3f1; see `f16_no_double_rounding`. The tests do not
    /// depend on `half`, which the oracle crate does not have.)
    fn reference(x: f64) -> u16 {
        let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
        let a = x.abs();
        // 65520 is halfway between 65504 (0x7bff) and 65536 (one step more)
        if a >= 65520.0 {
            return sign | 0x7c00;
        }
        let (mut lo, mut hi) = (0u16, 0x7bffu16);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if decode(mid) <= a {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let below = lo;
        if decode(below) == a {
            return sign | below;
        }
        let above = below + 1;
        let v_above = if above == 0x7c00 {
            65536.0
        } else {
            decode(above)
        };
        let (d_lo, d_hi) = (a - decode(below), v_above - a);
        let pick = if d_lo < d_hi || (d_lo == d_hi && below % 2 == 0) {
            below
        } else {
            above
        };
        sign | pick
    }

    #[test]
    fn decoding_matches_the_independent_decoder_exhaustive() {
        for h in 0..=u16::MAX {
            let mine = f16_bits_to_f64(h);
            let mag = h & 0x7fff;
            if mag < 0x7c00 {
                let want = if h & 0x8000 != 0 {
                    -decode(mag)
                } else {
                    decode(mag)
                };
                assert_eq!(mine.to_bits(), want.to_bits(), "{h:#x}");
            } else if mag == 0x7c00 {
                assert_eq!(
                    mine,
                    if h & 0x8000 != 0 {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    }
                );
            } else {
                assert!(
                    mine.is_nan() && mine.is_sign_negative() == (h & 0x8000 != 0),
                    "{h:#x}"
                );
            }
        }
        // a few by hand
        assert_eq!(decode(0x3c00), 1.0);
        assert_eq!(decode(0x7bff), 65504.0);
        assert_eq!(decode(0x0400), 2f64.powi(-14));
        assert_eq!(decode(0x03ff), 1023.0 * 2f64.powi(-24));
        assert_eq!(decode(0x3555), 0.333251953125);
    }

    /// Every f16 value, every midpoint between two neighbouring f16 values
    /// (the exact ties) and one f64 ulp on either side of it, both signs,
    /// against the reference.
    #[test]
    fn f16_rounding_at_every_midpoint() {
        let mut checked = 0u64;
        for h in 0u16..0x7c00 {
            for s in [0u16, 0x8000] {
                let lo = f16_bits_to_f64(h | s);
                assert_eq!(f64_to_f16_bits(lo), h | s);
                // the next magnitude up; past 0x7bff, the virtual 65536
                let hi = if h == 0x7bff {
                    65536.0f64.copysign(lo)
                } else {
                    f16_bits_to_f64((h + 1) | s)
                };
                let mid = (lo + hi) / 2.0; // exact: both have <= 12 significant bits
                                           // ties go to the even pattern
                let even = if h % 2 == 0 { h | s } else { (h + 1) | s };
                assert_eq!(f64_to_f16_bits(mid), even, "mid {mid:e}");
                for x in [
                    mid,
                    up(mid.abs()).copysign(mid),
                    down(mid.abs()).copysign(mid),
                ] {
                    assert_eq!(
                        f64_to_f16_bits(x),
                        reference(x),
                        "x = {x:e} ({:#x})",
                        x.to_bits()
                    );
                    checked += 1;
                }
                // just above the tie rounds up, just below rounds down
                assert_eq!(f64_to_f16_bits(up(mid.abs()).copysign(mid)), (h + 1) | s);
                assert_eq!(f64_to_f16_bits(down(mid.abs()).copysign(mid)), h | s);
            }
        }
        assert_eq!(checked, 6 * 0x7c00);
    }

    #[test]
    fn f16_rounding_on_random_values() {
        // deterministic xorshift: all f64 bit patterns, the f16 range
        // specifically, and f32 values
        let mut s = 0x1234_5678_9abc_def0u64;
        for _ in 0..300_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let wide = f64::from_bits(s);
            // exponents 2^-30 .. 2^17 cover subnormals, normals and overflow
            let exp = 993 + (s >> 52) % 48;
            let narrow = f64::from_bits((s & 0x800f_ffff_ffff_ffff) | (exp << 52));
            let f = f64::from(f32::from_bits((s >> 32) as u32));
            for x in [wide, narrow, f] {
                if !x.is_nan() {
                    assert_eq!(f64_to_f16_bits(x), reference(x), "{x:e}");
                }
            }
        }
    }

    /// The case that shows double rounding through f32 is wrong.
    #[test]
    fn f16_no_double_rounding() {
        let x = -3.9716796326196917f64;
        // the tie between 0xc3f1 and 0xc3f2 is -3.9716796875; x is above it
        // (nearer zero), so the nearest f16 is 0xc3f1
        assert!(x > -3.9716796875);
        assert_eq!(f64_to_f16_bits(x), 0xc3f1);
        assert_eq!(reference(x), 0xc3f1);
        // through f32, x becomes the tie itself and goes to even
        assert_eq!(f64::from(x as f32), -3.9716796875);
        assert_eq!(f64_to_f16_bits(f64::from(x as f32)), 0xc3f2);
    }

    #[test]
    fn f16_hand_cases() {
        // values worked out by hand from the binary16 format
        assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f64_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f64_to_f16_bits(0.0), 0x0000);
        assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
        assert_eq!(f64_to_f16_bits(65504.0), 0x7bff); // largest finite
        assert_eq!(f64_to_f16_bits(65519.99), 0x7bff); // below the midpoint 65520
        assert_eq!(f64_to_f16_bits(65520.0), 0x7c00); // tie -> even -> inf
        assert_eq!(f64_to_f16_bits(1e10), 0x7c00);
        assert_eq!(f64_to_f16_bits(-1e300), 0xfc00);
        assert_eq!(f64_to_f16_bits(f64::INFINITY), 0x7c00);
        assert_eq!(f64_to_f16_bits(2f64.powi(-24)), 0x0001); // smallest subnormal
        assert_eq!(f64_to_f16_bits(2f64.powi(-25)), 0x0000); // tie -> even 0
        assert_eq!(f64_to_f16_bits(up(2f64.powi(-25))), 0x0001);
        assert_eq!(f64_to_f16_bits(3.0 * 2f64.powi(-25)), 0x0002); // 1.5 ulp tie -> 2
        assert_eq!(f64_to_f16_bits(-5.0 * 2f64.powi(-25)), 0x8002); // 2.5 ulp tie -> 2
        assert_eq!(f64_to_f16_bits(2f64.powi(-14)), 0x0400); // smallest normal
        assert_eq!(f64_to_f16_bits(2f64.powi(-14) - 2f64.powi(-25)), 0x0400); // tie -> even
        assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11)), 0x3c00); // tie -> even
        assert_eq!(f64_to_f16_bits(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02); // tie -> even
        assert_eq!(f64_to_f16_bits(f64::MIN_POSITIVE), 0);
        assert_eq!(f64_to_f16_bits(-5e-324), 0x8000);
        assert_eq!(f64_to_f16_bits(0.1), 0x2e66);
        assert_eq!(f64_to_f16_bits(f64::NAN) & 0x7e00, 0x7e00);
        // f64 -> f32 -> f16 would round 1 + 2^-11 + 2^-40 to f32 1 + 2^-11
        // (a tie) and then to 1.0; directly it is above the tie: 1 + 2^-10.
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(f64_to_f16_bits(x), 0x3c01);
        assert_eq!(f64_to_f16_bits(f64::from(x as f32)), 0x3c00);
    }

    #[test]
    fn bits_and_values() {
        assert_eq!(f64_to_bits(ElemType::F32, 1.0), Some(0x3f80_0000));
        assert_eq!(f64_to_bits(ElemType::F32, 1e39), Some(0x7f80_0000));
        assert_eq!(f64_to_bits(ElemType::F32, 1e-46), Some(0)); // below half the smallest denormal
        assert_eq!(f64_to_bits(ElemType::F32, 1e-45), Some(1));
        assert_eq!(
            f64_to_bits(ElemType::F64, -0.0),
            Some(0x8000_0000_0000_0000)
        );
        assert_eq!(f64_to_bits(ElemType::F16, 1.0), Some(0x3c00));
        assert_eq!(f64_to_bits(ElemType::S32, 1.0), None);
        assert_eq!(bits_to_f64(ElemType::S8, 0xff), -1.0);
        assert_eq!(bits_to_f64(ElemType::U8, 0xff), 255.0);
        assert_eq!(bits_to_f64(ElemType::F16, 0x7bff), 65504.0);
        assert_eq!(bits_to_f64(ElemType::F32, 0x3f80_0000), 1.0);
        assert!(is_nan(ElemType::F32, 0x7fff_ffff));
        assert!(is_nan(ElemType::F32, 0xffc0_0000));
        assert!(!is_nan(ElemType::F32, 0x7f80_0000));
        assert!(is_nan(ElemType::F16, 0x7c01));
        assert!(!is_nan(ElemType::F16, 0xfc00));
        assert!(is_nan(ElemType::F64, 0xfff8_0000_0000_0000));
        assert!(!is_nan(ElemType::U32, 0x7fff_ffff));
    }

    #[test]
    fn formatting() {
        assert_eq!(format_value(ElemType::F32, 0x3f80_0000), "1.0");
        assert_eq!(format_value(ElemType::F32, 0x3f80_0001), "1.0000001");
        assert_eq!(format_value(ElemType::F32, 0x8000_0000), "-0.0");
        assert_eq!(format_value(ElemType::F32, 0x7f80_0000), "inf");
        assert_eq!(format_value(ElemType::F32, 0xff80_0000), "-inf");
        assert_eq!(format_value(ElemType::F32, 0x7fff_ffff), "NaN");
        assert_eq!(format_value(ElemType::F32, 0x0000_0001), "1e-45");
        assert_eq!(format_value(ElemType::F64, 0x3fb9_9999_9999_999a), "0.1");
        assert_eq!(format_value(ElemType::F16, 0x2e66), "0.0999755859375");
        assert_eq!(format_value(ElemType::F16, 0x3c00), "1.0");
        assert_eq!(format_value(ElemType::F16, 0x7bff), "65504.0");
        assert_eq!(format_value(ElemType::F16, 0x0001), "5.960464477539063e-8");
        assert_eq!(format_value(ElemType::F16, 0xfc00), "-inf");
        assert_eq!(format_value(ElemType::S32, 0xffff_ffef), "-17");
        assert_eq!(format_value(ElemType::U32, 0xffff_ffff), "4294967295");
        assert_eq!(
            format_value(ElemType::S64, 1u64 << 63),
            "-9223372036854775808"
        );
        assert_eq!(format_value(ElemType::U8, 0x1ff), "255");
    }
}
