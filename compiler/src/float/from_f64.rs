//! Exact conversions of a host `f64` value into a format's bits (the
//! launch specification's values and the SASS text's float immediates).

/// f64 → IEEE binary16 bits, rounded to nearest, ties to even, directly from
/// the f64 (no double rounding through f32). Keeps the sign of zeros, gives f16 subnormals, overflows to ±inf, and
/// turns a NaN into a quiet NaN with the same sign and the top payload bits.
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let man = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        if man == 0 {
            return sign | 0x7c00;
        }
        return sign | 0x7e00 | ((man >> 42) as u16 & 0x3ff);
    }
    if exp == 0 {
        // zero or an f64 subnormal (< 2^-1022): far below half the smallest
        // f16 subnormal (2^-25), so it rounds to a zero of the same sign.
        return sign;
    }
    let e = exp - 1023; // value = sig * 2^(e - 52), sig has 53 bits
    if e > 15 {
        return sign | 0x7c00;
    }
    let sig = (1u64 << 52) | man;
    // The f16 unit in the last place is 2^(e-10) for normals (e >= -14) and
    // 2^-24 for subnormals; drop the bits of `sig` below it.
    let shift = if e >= -14 { 42 } else { (28 - e) as u32 };
    if shift >= 54 {
        // sig < 2^53 <= half a unit: rounds to zero
        return sign;
    }
    let q = sig >> shift;
    let rem = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let q = if rem > half || (rem == half && (q & 1) == 1) {
        q + 1
    } else {
        q
    };
    let mag = if e >= -14 {
        // q in [1024, 2048]; a carry to 2048 moves into the exponent, and
        // past the largest exponent into the infinity pattern 0x7c00.
        (((e + 14) as u64) << 10) + q
    } else {
        // subnormal; q == 1024 is the smallest normal, 0x0400
        q
    };
    sign | mag.min(0x7c00) as u16
}
