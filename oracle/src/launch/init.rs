//! The `init` kinds of corpus/LAUNCH_SPEC.md ("Initial contents"), element by
//! element, as raw bit patterns of the element type.

use super::float::f64_to_bits;
use super::spec::{Init, Scalar};
use super::splitmix::splitmix64;
use super::types::ElemType;

/// 2^-53, exactly.
const TWO_POW_M53: f64 = 1.0 / 9_007_199_254_740_992.0;

/// The low bits of an integer, as the element stores it ("integers wrap").
fn wrap_int(ty: ElemType, v: i128) -> u64 {
    (v as u64) & ty.mask()
}

/// A number as an integer of the type's width: exact integers as they are;
/// a float (only in an `Init` built in code, the reader never makes one for
/// an integer type) truncated toward zero, saturating at the 128-bit range.
fn as_int(s: Scalar) -> i128 {
    match s {
        Scalar::Int(v) => v,
        Scalar::Float(f) => f as i128,
    }
}

/// A number as an f64 (integers rounded to nearest, only in code-built inits).
fn as_f64(s: Scalar) -> f64 {
    match s {
        Scalar::Int(v) => v as f64,
        Scalar::Float(f) => f,
    }
}

/// The float `random` rule: `a + ((z >> 11) * 2^-53) * (b - a)` in f64
/// (kernels README: "computed as a + ((z >> 11) * 2^-53) * (b - a) in f64,
/// then rounded to nearest into the type (directly from f64 for f16)").
/// Each operation rounds separately (no fused multiply-add).
pub(super) fn random_f64(z: u64, a: f64, b: f64) -> f64 {
    let unit = ((z >> 11) as f64) * TWO_POW_M53; // exact: 53 bits times a power of two
    a + unit * (b - a)
}

/// The integer `random` rule: `a + z mod (b - a + 1)` in 128-bit arithmetic
/// (corpus/LAUNCH_SPEC.md), then stored in the type (low bits).
pub(super) fn random_int(z: u64, a: i128, b: i128) -> i128 {
    let m = b.wrapping_sub(a).wrapping_add(1);
    if m <= 0 {
        // only for a reversed range built in code; the reader refuses it
        return a;
    }
    a.wrapping_add(i128::from(z) % m)
}

/// The 9 fixed values of `special_mix` for a float type, in the spec's order:
/// `+0, -0, +inf, -inf, canonical NaN, the smallest positive denormal, the
/// largest finite, 1, -1`. The canonical NaN is the GPU's: all exponent and
/// fraction bits set, sign clear (kernels README: "The canonical NaN written
/// by special_mix is 0x7fffffff (f32)"; Decision: 0x7fff for f16 and
/// 0x7fffffffffffffff for f64 by the same pattern).
pub(super) fn special_values(ty: ElemType) -> [u64; 9] {
    match ty {
        ElemType::F16 => [
            0x0000, 0x8000, 0x7c00, 0xfc00, 0x7fff, 0x0001, 0x7bff, 0x3c00, 0xbc00,
        ],
        ElemType::F32 => [
            0x0000_0000,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fff_ffff,
            0x0000_0001,
            0x7f7f_ffff,
            0x3f80_0000,
            0xbf80_0000,
        ],
        _ => [
            0x0000_0000_0000_0000,
            0x8000_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7fff_ffff_ffff_ffff,
            0x0000_0000_0000_0001,
            0x7fef_ffff_ffff_ffff,
            0x3ff0_0000_0000_0000,
            0xbff0_0000_0000_0000,
        ],
    }
}

/// A float value rounded into `ty` (for an integer type, which only an
/// `Init` built in code can ask for: truncated toward zero and wrapped).
fn float_into(ty: ElemType, v: f64) -> u64 {
    match f64_to_bits(ty, v) {
        Some(b) => b,
        None => wrap_int(ty, v as i128),
    }
}

/// Element `index` of a buffer or texture of type `ty` with this `init`.
/// Indexes past a `values`/`bits` list give 0 (never a panic).
pub fn element_bits(init: &Init, ty: ElemType, index: u64) -> u64 {
    match init {
        Init::Zeros => 0,
        // "element i is s + i*d, converted to the type (integers wrap)".
        // Integers: exact 128-bit arithmetic, then the low bits. Floats
        // (Decision): in f64 as s + (i*d), two roundings, no fma, then
        // rounded to nearest into the type.
        Init::Iota { start, step } => {
            if ty.is_float() {
                float_into(ty, as_f64(*start) + (index as f64) * as_f64(*step))
            } else {
                let v = as_int(*start).wrapping_add(i128::from(index).wrapping_mul(as_int(*step)));
                wrap_int(ty, v)
            }
        }
        // Numbers are converted like iota's: floats rounded to nearest into
        // the type from the f64, integers stored as their low bits.
        Init::Values(v) => match usize::try_from(index).ok().and_then(|i| v.get(i)) {
            Some(&s) if ty.is_float() => float_into(ty, as_f64(s)),
            Some(&s) => wrap_int(ty, as_int(s)),
            None => 0,
        },
        Init::Bits(v) => match usize::try_from(index).ok().and_then(|i| v.get(i)) {
            Some(&b) => b & ty.mask(),
            None => 0,
        },
        // "element i comes from splitmix64 of seed + i + 1" (wrapping u64).
        Init::Random { seed, range } => {
            let z = splitmix64(seed.wrapping_add(index).wrapping_add(1));
            match range {
                // "without min/max, the low bits of z"
                None => z & ty.mask(),
                Some((a, b)) if ty.is_float() => {
                    float_into(ty, random_f64(z, as_f64(*a), as_f64(*b)))
                }
                Some((a, b)) => wrap_int(ty, random_int(z, as_int(*a), as_int(*b))),
            }
        }
        // "z mod 10 picks, in order, +0, -0, +inf, -inf, canonical NaN, the
        // smallest positive denormal, the largest finite, 1, -1, or (9) a
        // value in [-1000, 1000) given by the float random rule applied to
        // splitmix64(z) instead of z."
        Init::SpecialMix { seed } => {
            let z = splitmix64(seed.wrapping_add(index).wrapping_add(1));
            let pick = (z % 10) as usize;
            if !ty.is_float() {
                // refused by the reader ("floats only"); keep code-built inits total
                return z & ty.mask();
            }
            if pick < 9 {
                special_values(ty)[pick]
            } else {
                float_into(ty, random_f64(splitmix64(z), -1000.0, 1000.0))
            }
        }
    }
}

/// All `len` elements, as bit patterns.
pub fn init_bits(init: &Init, ty: ElemType, len: u64) -> Vec<u64> {
    (0..len).map(|i| element_bits(init, ty, i)).collect()
}

/// All `len` elements, little-endian bytes.
pub fn init_bytes(init: &Init, ty: ElemType, len: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity((len as usize).saturating_mul(ty.size()));
    if matches!(init, Init::Zeros) {
        out.resize((len as usize).saturating_mul(ty.size()), 0);
        return out;
    }
    for i in 0..len {
        ty.push_le(&mut out, element_bits(init, ty, i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ElemType::*;

    fn sm(x: u64) -> u64 {
        splitmix64(x)
    }

    #[test]
    fn zeros_and_bits() {
        assert_eq!(init_bits(&Init::Zeros, F32, 3), [0, 0, 0]);
        assert_eq!(init_bytes(&Init::Zeros, U16, 3), [0; 6]);
        let b = Init::Bits(vec![0xff80_0000, 0x1]);
        assert_eq!(init_bits(&b, F32, 2), [0xff80_0000, 1]);
        assert_eq!(init_bytes(&b, F32, 2), [0, 0, 0x80, 0xff, 1, 0, 0, 0]);
        // past the list: 0, no panic
        assert_eq!(element_bits(&b, F32, 7), 0);
        assert_eq!(element_bits(&b, U8, u64::MAX), 0);
    }

    #[test]
    fn iota_integers_wrap() {
        let it = |s: i128, d: i128| Init::Iota {
            start: Scalar::Int(s),
            step: Scalar::Int(d),
        };
        // u8: 250, 253, 256 -> 0, 259 -> 3
        assert_eq!(init_bits(&it(250, 3), U8, 4), [250, 253, 0, 3]);
        // s8: 126, 127, 128 -> 0x80 (-128), 129 -> 0x81
        assert_eq!(init_bits(&it(126, 1), S8, 4), [0x7e, 0x7f, 0x80, 0x81]);
        // s16 counting down through zero
        assert_eq!(init_bits(&it(1, -1), S16, 3), [1, 0, 0xffff]);
        // u64 near the top: 2^64-2, 2^64-1, 2^64 -> 0
        assert_eq!(
            init_bits(&it(u64::MAX as i128 - 1, 1), U64, 3),
            [u64::MAX - 1, u64::MAX, 0]
        );
        // s64 from its minimum with the largest step: -2^63 + i*(2^64-1) mod 2^64
        // = -2^63 - i (mod 2^64): 0x8000..., 0x7fff...ffff, 0x7fff...fffe
        assert_eq!(
            init_bits(&it(i64::MIN as i128, u64::MAX as i128), S64, 3),
            [
                0x8000_0000_0000_0000,
                0x7fff_ffff_ffff_ffff,
                0x7fff_ffff_ffff_fffe
            ]
        );
        // u32 with a step larger than the type: 2^32 + 5 steps by 5
        assert_eq!(init_bits(&it(0, (1 << 32) + 5), U32, 3), [0, 5, 10]);
    }

    #[test]
    fn iota_floats() {
        let it = Init::Iota {
            start: Scalar::Float(-3.0),
            step: Scalar::Float(0.125),
        };
        let v = init_bits(&it, F32, 3);
        assert_eq!(v, [0xc040_0000, 0xc038_0000, 0xc030_0000]); // -3, -2.875, -2.75
                                                                // 0.1 steps in f64 are inexact: 3 * 0.1 = 0.30000000000000004, not 0.3
        let it = Init::Iota {
            start: Scalar::Float(0.0),
            step: Scalar::Float(0.1),
        };
        assert_eq!(element_bits(&it, F64, 3), (3.0f64 * 0.1).to_bits());
        assert_ne!(element_bits(&it, F64, 3), 0.3f64.to_bits());
        // f16 from f64 directly; 65504 + 16 is a tie that goes to inf
        let it = Init::Iota {
            start: Scalar::Float(65504.0),
            step: Scalar::Float(16.0),
        };
        assert_eq!(init_bits(&it, F16, 2), [0x7bff, 0x7c00]);
        let it = Init::Iota {
            start: Scalar::Float(0.0),
            step: Scalar::Float(1.0),
        };
        assert_eq!(init_bits(&it, F16, 3), [0, 0x3c00, 0x4000]);
    }

    #[test]
    fn values_convert_to_the_type() {
        let v = Init::Values(vec![
            Scalar::Float(1.0),
            Scalar::Float(-0.0),
            Scalar::Float(1e-45),
            Scalar::Float(1e39),
        ]);
        assert_eq!(
            init_bits(&v, F32, 4),
            [0x3f80_0000, 0x8000_0000, 1, 0x7f80_0000]
        );
        assert_eq!(init_bits(&v, F16, 4), [0x3c00, 0x8000, 0, 0x7c00]);
        let v = Init::Values(vec![Scalar::Int(-1), Scalar::Int(255), Scalar::Int(-128)]);
        assert_eq!(init_bits(&v, U8, 3), [0xff, 0xff, 0x80]);
        assert_eq!(init_bits(&v, S32, 3), [0xffff_ffff, 0xff, 0xffff_ff80]);
        // f64 values -> f32 round to nearest: 16777217 is a tie -> 16777216
        let v = Init::Values(vec![Scalar::Float(16777217.0), Scalar::Float(16777219.0)]);
        assert_eq!(init_bits(&v, F32, 2), [0x4b80_0000, 0x4b80_0002]);
    }

    #[test]
    fn random_integers_without_range_are_low_bits_of_z() {
        let r = Init::Random {
            seed: 44,
            range: None,
        };
        assert_eq!(element_bits(&r, U64, 0), sm(45));
        assert_eq!(element_bits(&r, S32, 0), sm(45) & 0xffff_ffff);
        assert_eq!(element_bits(&r, U8, 2), sm(47) & 0xff);
        // seed + i + 1 wraps in u64
        let r = Init::Random {
            seed: u64::MAX,
            range: None,
        };
        assert_eq!(element_bits(&r, U64, 0), sm(0));
        assert_eq!(element_bits(&r, U64, 1), sm(1));
        assert_eq!(element_bits(&r, U64, 0), 0);
    }

    /// 128-bit range arithmetic at the u64/i64 limits: values worked out from
    /// the formula with python3 big integers, e.g.
    /// python3 -c "
    /// M=(1<<64)-1
    /// def sm(x):
    ///     z=(x*0x9E3779B97F4A7C15)&M; z=((z^(z>>30))*0xBF58476D1CE4E5B9)&M
    ///     z=((z^(z>>27))*0x94D049BB133111EB)&M; return z^(z>>31)
    /// a,b=-(1<<63),(1<<64)-1
    /// print([hex((a + sm(7+i+1) % (b-a+1)) & M) for i in range(3)])"
    #[test]
    fn random_integers_full_width_ranges() {
        // the whole s64+u64 range: modulus 2^64 + 2^63 > any z, so the value is a + z
        let r = Init::Random {
            seed: 7,
            range: Some((Scalar::Int(i64::MIN as i128), Scalar::Int(u64::MAX as i128))),
        };
        let got = init_bits(&r, U64, 3);
        assert_eq!(
            got,
            [
                0x4584_133a_c916_ab3c,
                0xbee5_7890_41c9_8ac3,
                0x73b8_488c_368c_b0a6
            ]
        );
        for (i, g) in got.iter().enumerate() {
            assert_eq!(*g, sm(8 + i as u64) ^ (1 << 63)); // a + z = z - 2^63 (mod 2^64)
        }
        // [0, 2^64 - 1]: modulus 2^64, the value is z itself
        let r = Init::Random {
            seed: 7,
            range: Some((Scalar::Int(0), Scalar::Int(u64::MAX as i128))),
        };
        assert_eq!(init_bits(&r, U64, 3), [sm(8), sm(9), sm(10)]);
        // [i64::MIN, i64::MAX]: modulus 2^64 again, the value is z - 2^63
        let r = Init::Random {
            seed: 7,
            range: Some((Scalar::Int(i64::MIN as i128), Scalar::Int(i64::MAX as i128))),
        };
        assert_eq!(init_bits(&r, S64, 1), [sm(8) ^ (1 << 63)]);
        // a one-value range
        let r = Init::Random {
            seed: 3,
            range: Some((Scalar::Int(-5), Scalar::Int(-5))),
        };
        assert_eq!(init_bits(&r, S16, 3), [0xfffb; 3]);
        // [2^64 - 3, 2^64 - 1] into u64, u8 (stored as low bits)
        let r = Init::Random {
            seed: 0,
            range: Some((
                Scalar::Int(u64::MAX as i128 - 2),
                Scalar::Int(u64::MAX as i128),
            )),
        };
        let z = [sm(1), sm(2), sm(3)];
        assert_eq!(init_bits(&r, U64, 3), z.map(|z| u64::MAX - 2 + z % 3));
        assert_eq!(init_bits(&r, U8, 3), z.map(|z| (0xfd + z % 3) & 0xff));
    }

    /// Small ranges checked against python3:
    /// python3 -c "(same sm as above); print([-40 + sm(22+i+1) % 81 for i in range(4)])"
    #[test]
    fn random_integers_small_range() {
        let r = Init::Random {
            seed: 22,
            range: Some((Scalar::Int(-40), Scalar::Int(40))),
        };
        let got: Vec<i64> = init_bits(&r, S32, 4)
            .iter()
            .map(|&b| b as u32 as i32 as i64)
            .collect();
        assert_eq!(got, [11, 0, -1, -20]);
    }

    /// Float random: python3 -c "(same sm); import struct; z=sm(2);
    /// print(hex(struct.unpack('<Q',struct.pack('<d',-8.0 + ((z>>11)*2**-53)*16.0))[0]))"
    #[test]
    fn random_floats() {
        let r = Init::Random {
            seed: 1,
            range: Some((Scalar::Float(-8.0), Scalar::Float(8.0))),
        };
        let z = sm(2);
        let want = -8.0 + ((z >> 11) as f64 * 2f64.powi(-53)) * 16.0;
        assert_eq!(element_bits(&r, F64, 0), want.to_bits());
        assert_eq!(element_bits(&r, F64, 0), 0xbff1_8761_955e_46a0); // -1.0955520472238405
        assert_eq!(element_bits(&r, F32, 0), u64::from((want as f32).to_bits()));
        // rounding happens once, from f64, also for f16
        let r = Init::Random {
            seed: 101,
            range: Some((Scalar::Float(-100.0), Scalar::Float(100.0))),
        };
        for i in 0..64 {
            let z = sm(101 + i + 1);
            let x = -100.0 + ((z >> 11) as f64 * 2f64.powi(-53)) * 200.0;
            assert_eq!(
                element_bits(&r, F16, i),
                u64::from(super::super::float::f64_to_f16_bits(x))
            );
            assert!((-100.0..100.0).contains(&x));
        }
        // min == max gives min
        let r = Init::Random {
            seed: 9,
            range: Some((Scalar::Float(2.5), Scalar::Float(2.5))),
        };
        assert_eq!(init_bits(&r, F32, 2), [0x4020_0000; 2]);
    }

    /// special_mix: find, for each of the 10 cases, an index whose z picks
    /// it (z from the formula, independently of the code under test) and
    /// check the value.
    #[test]
    fn special_mix_all_ten_cases() {
        let seed = 42u64;
        let init = Init::SpecialMix { seed };
        let mut seen = [false; 10];
        for i in 0..200u64 {
            let z = sm(seed + i + 1);
            let case = (z % 10) as usize;
            seen[case] = true;
            let f32_bits = element_bits(&init, F32, i);
            let f16_bits = element_bits(&init, F16, i);
            let f64_bits = element_bits(&init, F64, i);
            let want32: u64 = match case {
                0 => 0x0000_0000,
                1 => 0x8000_0000,
                2 => 0x7f80_0000,
                3 => 0xff80_0000,
                4 => 0x7fff_ffff,
                5 => 0x0000_0001,
                6 => 0x7f7f_ffff,
                7 => 0x3f80_0000,
                8 => 0xbf80_0000,
                _ => {
                    let z2 = sm(z);
                    let v = -1000.0 + ((z2 >> 11) as f64 * 2f64.powi(-53)) * 2000.0;
                    assert!((-1000.0..1000.0).contains(&v));
                    assert_eq!(f64_bits, v.to_bits());
                    assert_eq!(f16_bits, u64::from(super::super::float::f64_to_f16_bits(v)));
                    u64::from((v as f32).to_bits())
                }
            };
            assert_eq!(f32_bits, want32, "i={i} case={case}");
            let want16: u64 = match case {
                0 => 0x0000,
                1 => 0x8000,
                2 => 0x7c00,
                3 => 0xfc00,
                4 => 0x7fff,
                5 => 0x0001,
                6 => 0x7bff,
                7 => 0x3c00,
                8 => 0xbc00,
                _ => f16_bits,
            };
            assert_eq!(f16_bits, want16, "i={i} case={case}");
            let want64: u64 = match case {
                0 => 0,
                1 => 1 << 63,
                2 => f64::INFINITY.to_bits(),
                3 => f64::NEG_INFINITY.to_bits(),
                4 => 0x7fff_ffff_ffff_ffff,
                5 => 1,
                6 => f64::MAX.to_bits(),
                7 => 1f64.to_bits(),
                8 => (-1f64).to_bits(),
                _ => f64_bits,
            };
            assert_eq!(f64_bits, want64, "i={i} case={case}");
        }
        assert_eq!(seen, [true; 10]);
    }
}
