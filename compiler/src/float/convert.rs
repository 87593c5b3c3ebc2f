//! `cvt` between floating-point formats and to/from integers (PTX ISA
//! 9.7.9.21 #data-movement-and-conversion-instructions-cvt).
//!
//! Integer rounding modes (`.rni .rzi .rmi .rpi`) are expressed with
//! [`Rounding`] too: `Rn` = `.rni` (nearest integer, ties to even), `Rz` =
//! `.rzi`, `Rm` = `.rmi`, `Rp` = `.rpi`.

use super::arith::saturate;
use super::formats::{Class, FloatType};
use super::nan;
use super::round::round_pack;
use super::Rounding;

/// An integer type of `cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
}

impl IntType {
    pub const ALL: [IntType; 8] = [
        IntType::U8,
        IntType::U16,
        IntType::U32,
        IntType::U64,
        IntType::S8,
        IntType::S16,
        IntType::S32,
        IntType::S64,
    ];

    #[inline(always)]
    pub const fn bits(self) -> u32 {
        match self {
            IntType::U8 | IntType::S8 => 8,
            IntType::U16 | IntType::S16 => 16,
            IntType::U32 | IntType::S32 => 32,
            IntType::U64 | IntType::S64 => 64,
        }
    }

    #[inline(always)]
    pub const fn signed(self) -> bool {
        matches!(
            self,
            IntType::S8 | IntType::S16 | IntType::S32 | IntType::S64
        )
    }

    /// Mask of the type's bits in a `u64`.
    #[inline(always)]
    pub const fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }

    /// Smallest value (MININT).
    #[inline(always)]
    pub const fn min_value(self) -> i128 {
        if self.signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    /// Largest value (MAXINT).
    #[inline(always)]
    pub const fn max_value(self) -> i128 {
        if self.signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// The value of the low `bits()` bits of `v` under this type's
    /// signedness.
    #[inline(always)]
    pub const fn value(self, v: u64) -> i128 {
        let v = v & self.mask();
        if self.signed() && (v >> (self.bits() - 1)) & 1 != 0 {
            v as i128 - (1i128 << self.bits())
        } else {
            v as i128
        }
    }
}

/// Modifiers of a float-to-float `cvt`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CvtMods {
    /// `.ftz`: flush f32 inputs and f32 results (see [`cvt_float`]).
    pub ftz: bool,
    /// `.sat`: clamp to [0.0, 1.0], NaN -> +0.0.
    pub sat: bool,
    /// `.relu` (f16/bf16 destinations): negative results -> +0.0, NaN ->
    /// canonical NaN.
    pub relu: bool,
    /// `.satfinite` (f16/bf16 destinations): results beyond the largest
    /// finite value (infinities included) -> sign-preserving MAX_NORM; NaN ->
    /// canonical NaN.
    pub satfinite: bool,
}

impl CvtMods {
    pub const NONE: CvtMods = CvtMods {
        ftz: false,
        sat: false,
        relu: false,
        satfinite: false,
    };
    pub const FTZ: CvtMods = CvtMods {
        ftz: true,
        sat: false,
        relu: false,
        satfinite: false,
    };
    pub const SAT: CvtMods = CvtMods {
        ftz: false,
        sat: true,
        relu: false,
        satfinite: false,
    };
}

/// Rounds a finite value `(-1)^sign * sig * 2^exp` to an integer under
/// `rnd` and returns it as an `i128`, saturated to +-2^100 for inputs of
/// at least 2^64
/// (the caller clamps to the destination range).
fn round_to_integer(sign: bool, sig: u64, exp: i32, rnd: Rounding) -> i128 {
    let mag: i128 = if exp >= 0 {
        if exp >= 64 {
            // sig >= 1, so the value is >= 2^64: beyond every destination.
            1i128 << 100
        } else {
            ((sig as u128) << exp) as i128
        }
    } else {
        let k = (-exp) as u32;
        let (q, round_bit, low) = if k > 64 {
            (0u64, false, sig != 0)
        } else if k == 64 {
            (0u64, (sig >> 63) != 0, (sig << 1) != 0)
        } else {
            let rem = sig & ((1u64 << k) - 1);
            let half = 1u64 << (k - 1);
            (sig >> k, rem & half != 0, rem & (half - 1) != 0)
        };
        let inexact = round_bit || low;
        let up = match rnd {
            Rounding::Rn => round_bit && (low || q & 1 != 0),
            Rounding::Rz => false,
            Rounding::Rm => sign && inexact,
            Rounding::Rp => !sign && inexact,
        };
        q as i128 + up as i128
    };
    if sign {
        -mag
    } else {
        mag
    }
}

/// Float-to-integer `cvt.irnd{.ftz}{.sat}.dtype.atype` (the result is
/// always clamped to the destination range, so `.sat` is redundant: ISA,
/// "For float-to-integer conversions, the result is clamped to the
/// destination range by default").
///
/// Returns the destination's bit pattern in the low `dst.bits()` bits
/// (zero-extended; sign-extend it yourself for a wider signed register).
///
/// * NaN: "Zero if source is not .f64 and destination is not .s64, .u64.
///   Otherwise 1 << (BitWidth(dst) - 1)" (ISA, cvt Integer Notes). So
///   `cvt.rzi.s32.f64(NaN)` = 0x80000000 and `cvt.rzi.s64.f32(NaN)` =
///   0x8000000000000000, `cvt.rzi.u8.f64(NaN)` = 0x80.
/// * +-inf: MAXINT / MININT.
/// * `.ftz` flushes a subnormal f32 input to zero ("For cvt.ftz.dtype.f32
///   float-to-integer conversions ... subnormal inputs are flushed to
///   sign-preserving zero"); it is ignored for other sources.
pub fn cvt_f2i(src: FloatType, x: u64, dst: IntType, rnd: Rounding, ftz: bool) -> u64 {
    let mut x = x & src.mask();
    if ftz && src == FloatType::F32 {
        x = src.flush(x);
    }
    let v: i128 = match src.classify(x) {
        Class::Nan => {
            return if src == FloatType::F64 || dst.bits() == 64 {
                1u64 << (dst.bits() - 1)
            } else {
                0
            };
        }
        Class::Infinite => {
            if src.sign(x) {
                dst.min_value()
            } else {
                dst.max_value()
            }
        }
        Class::Zero => 0,
        _ => {
            let (sign, sig, exp) = src.unpack(x);
            round_to_integer(sign, sig, exp, rnd)
        }
    };
    (v.clamp(dst.min_value(), dst.max_value()) as u64) & dst.mask()
}

/// Integer-to-float `cvt.frnd{.sat}.dtype.atype`: the integer (low
/// `src.bits()` bits of `v`) correctly rounded under `rnd`. Zero gives +0.0.
/// `.sat` clamps to [0.0, 1.0].
pub fn cvt_i2f(src: IntType, v: u64, dst: FloatType, rnd: Rounding, sat: bool) -> u64 {
    let val = src.value(v);
    let r = if val == 0 {
        0
    } else {
        round_pack(dst, val < 0, val.unsigned_abs(), 0, false, rnd)
    };
    if sat {
        saturate(dst, r)
    } else {
        r
    }
}

/// NaN result of a float-to-float conversion of the NaN `x`.
///
/// To f64 the payload is kept (fraction shifted to the top, sign kept,
/// quiet bit set), following the f64 payload rule (#floating-point-
/// instructions intro) - UNCONFIRMED for F2F. To f16/bf16/f32 the canonical
/// NaN of the destination (f32 results canonicalize; for f16/bf16 CUDA
/// defines 0x7fff as canonical) - UNCONFIRMED for F2F. The ISA says
/// "For cvt.f32.bf16, NaN input yields unspecified NaN".
fn convert_nan(src: FloatType, dst: FloatType, x: u64) -> u64 {
    if dst == FloatType::F64 {
        let frac = (x & src.man_mask()) << (52 - src.man_bits());
        let sign = if src.sign(x) { dst.sign_mask() } else { 0 };
        sign | dst.exp_mask() | frac | dst.quiet_bit()
    } else {
        nan::canonical_nan(dst)
    }
}

/// Float-to-float `cvt{.frnd}{.ftz}{.sat}{.relu}{.satfinite}.dtype.atype`
/// without integer rounding. Widening is exact (`rnd` is ignored since the
/// result is representable); narrowing rounds with `rnd`.
///
/// `.ftz` ("applies only to single precision (.f32) inputs and results"):
/// flushes an f32 subnormal source and an f32 subnormal result. Exception,
/// observed on hardware by third-party tests (vosen/ptx_tests,
/// testcase/cvt.rs, "ERRATA: `<rnd>.ftz{.sat}.f16.f32` flushes subnormals
/// only if `<rnd>` is explicit integer rounding"): `cvt.frnd.ftz.f16.f32` does NOT
/// flush the f32 input. The same is assumed NOT to hold for `.bf16.f32`
/// (flushes, per the ISA text; unconfirmed).
pub fn cvt_float(src: FloatType, dst: FloatType, x: u64, rnd: Rounding, m: CvtMods) -> u64 {
    let mut x = x & src.mask();
    if m.ftz && src == FloatType::F32 && dst != FloatType::F16 {
        x = src.flush(x);
    }
    let mut r = match src.classify(x) {
        Class::Nan => convert_nan(src, dst, x),
        Class::Infinite => dst.signed_inf(src.sign(x)),
        Class::Zero => dst.zero(src.sign(x)),
        _ => {
            let (sign, sig, exp) = src.unpack(x);
            round_pack(dst, sign, sig as u128, exp, false, rnd)
        }
    };
    if m.ftz && dst == FloatType::F32 {
        r = dst.flush(r);
    }
    if m.relu {
        if dst.is_nan(r) {
            r = nan::canonical_nan(dst);
        } else if dst.sign(r) {
            // Negative (including -0.0, unconfirmed) -> +0.0.
            r = 0;
        }
    }
    if m.satfinite {
        if dst.is_nan(r) {
            r = nan::canonical_nan(dst);
        } else if dst.is_inf(r) {
            r = dst.zero(dst.sign(r)) | dst.max_finite();
        }
    }
    if m.sat {
        r = saturate(dst, r);
    }
    r
}

/// Same-size float-to-float `cvt.irnd{.ftz}{.sat}.ftype.ftype`: round to an
/// integral value kept in floating point (IEEE roundToIntegral; the sign of
/// the input is kept, so `cvt.rni.f32.f32(-0.4)` = -0.0). NaN gives the
/// format's NaN (canonical for f16/bf16/f32, payload-preserving for f64);
/// infinities and zeros are returned unchanged. PTX allows `.ftz` only for
/// `.f32` ("cvt.ftz.f32.f32 float-to-float conversions with integer rounding,
/// subnormal inputs are flushed"); here it flushes whatever format is given.
pub fn cvt_round_int(ty: FloatType, x: u64, rnd: Rounding, ftz: bool, sat: bool) -> u64 {
    let mut x = x & ty.mask();
    if ftz {
        x = ty.flush(x);
    }
    let r = match ty.classify(x) {
        Class::Nan => nan::result(ty, &[x]),
        Class::Infinite | Class::Zero => x,
        _ => {
            let (sign, sig, exp) = ty.unpack(x);
            if exp >= 0 {
                x
            } else {
                let v = round_to_integer(sign, sig, exp, rnd);
                if v == 0 {
                    ty.zero(sign)
                } else {
                    round_pack(ty, sign, v.unsigned_abs(), 0, false, Rounding::Rn)
                }
            }
        }
    };
    let r = if ftz { ty.flush(r) } else { r };
    if sat {
        saturate(ty, r)
    } else {
        r
    }
}
