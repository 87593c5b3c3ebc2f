//! Test-only reference conversions, written independently of
//! `ptxc::float` (brute-force nearest-value search on explicitly decoded
//! values) so that the f16/bf16 tests do not check the code against itself.

/// f16 positive pattern (0..=0x7bff) -> value * 2^48 (always an integer:
/// the smallest f16 step is 2^-24).
pub fn f16_scaled(p: u16) -> i128 {
    let e = (p >> 10) as u32;
    let m = (p & 0x3ff) as i128;
    if e == 0 {
        m << 24
    } else {
        (1024 + m) << (e + 23)
    }
}

/// Signed value * 2^48 of a finite f16.
pub fn f16_signed_scaled(x: u16) -> i128 {
    let v = f16_scaled(x & 0x7fff);
    if x & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// Whether an f16 is finite.
pub fn f16_finite(x: u16) -> bool {
    x & 0x7c00 != 0x7c00
}

/// RN-even rounding of the exact value `n / 2^48` to f16 (non-zero `n`).
pub fn f16_round_scaled(n: i128) -> u16 {
    assert!(n != 0);
    let sign = if n < 0 { 0x8000u16 } else { 0 };
    let mag = n.abs();
    // MAX (65504) + half an ulp (16) rounds to infinity (ties to even: MAX's
    // mantissa is odd).
    if mag >= 65520i128 << 48 {
        return sign | 0x7c00;
    }
    // Largest p with value(p) <= mag.
    let (mut lo, mut hi) = (0u16, 0x7bffu16);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if f16_scaled(mid) <= mag {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let p = lo;
    if p == 0x7bff {
        return sign | p;
    }
    let d1 = mag - f16_scaled(p);
    let d2 = f16_scaled(p + 1) - mag;
    let r = if d1 < d2 || (d1 == d2 && p % 2 == 0) {
        p
    } else {
        p + 1
    };
    sign | r
}

/// Value of a positive pattern of a small format with `man` fraction bits
/// and exponent bias `bias`, as f64 (exact).
fn small_val(p: u32, man: u32, bias: i32) -> f64 {
    let e = (p >> man) as i32;
    let m = (p & ((1 << man) - 1)) as f64;
    if e == 0 {
        m * 2f64.powi(1 - bias - man as i32)
    } else {
        (m + (1u32 << man) as f64) * 2f64.powi(e - bias - man as i32)
    }
}

/// RN-even rounding of a finite f64 to a 16-bit format (f16: man 10, bias
/// 15, max pattern 0x7bff; bf16: man 7, bias 127, max 0x7f7f). The
/// differences computed below are exact in f64 (x and its neighbours lie on
/// a common grid within 53 bits). Zero keeps its sign.
pub fn round16_from_f64(x: f64, bf16: bool) -> u16 {
    let (man, bias, maxp): (u32, i32, u32) = if bf16 {
        (7, 127, 0x7f7f)
    } else {
        (10, 15, 0x7bff)
    };
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    let mag = x.abs();
    let max = small_val(maxp, man, bias);
    let half_ulp_max = 2f64.powi(((maxp >> man) as i32) - bias - man as i32 - 1);
    if mag >= max + half_ulp_max {
        return sign | (maxp as u16 + 1); // infinity
    }
    let (mut lo, mut hi) = (0u32, maxp);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if small_val(mid, man, bias) <= mag {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let p = lo;
    if p == maxp {
        return sign | p as u16;
    }
    let d1 = mag - small_val(p, man, bias);
    let d2 = small_val(p + 1, man, bias) - mag;
    let r = if d1 < d2 || (d1 == d2 && p % 2 == 0) {
        p
    } else {
        p + 1
    };
    sign | r as u16
}

/// Exact f64 value of a finite f16.
pub fn f16_to_f64(x: u16) -> f64 {
    let v = small_val((x & 0x7fff) as u32, 10, 15);
    if x & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

#[test]
fn reference_self_check() {
    // Spot values from the IEEE binary16 definition.
    assert_eq!(f16_to_f64(0x3c00), 1.0);
    assert_eq!(f16_to_f64(0x7bff), 65504.0);
    assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24));
    assert_eq!(f16_to_f64(0x0400), 2f64.powi(-14));
    assert_eq!(f16_scaled(0x3c00), 1i128 << 48);
    assert_eq!(round16_from_f64(1.0, false), 0x3c00);
    assert_eq!(round16_from_f64(1.0, true), 0x3f80);
    assert_eq!(round16_from_f64(65519.0, false), 0x7bff);
    assert_eq!(round16_from_f64(65520.0, false), 0x7c00);
    assert_eq!(f16_round_scaled(3i128 << 48), 0x4200);
}
