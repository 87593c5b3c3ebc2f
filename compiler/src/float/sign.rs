//! Sign manipulation: `abs`, `neg`, `copysign`.

use super::formats::FloatType;
use super::nan;

/// `abs{.ftz}.type`.
///
/// * f32: NaN input gives the canonical NaN 0x7fffffff. The ISA leaves it
///   unspecified (#floating-point-instructions-abs); docs/SEMANTICS.md records
///   that ptxas lowers `abs.f32` to `FADD d, |a|, -RZ`, and FADD returns the
///   canonical NaN for a NaN operand (CUDA guide). For non-NaN inputs
///   `|a| + (-0)` is exactly `|a|`, so the bit operation below is identical.
/// * f64: "NaN input is passed through unchanged" (ISA, same section; CUDA
///   guide: "Double-precision floating-point absolute value and negation are
///   not compliant with IEEE-754 with respect to NaNs; these are passed
///   through unchanged"): the sign bit of a NaN is NOT cleared. A
///   signalling NaN comes out quieted: ptxas lowers `abs/neg.f64` to `DADD
///   d, -RZ, |a|` / `DADD d, -RZ, -a`, and DADD quiets the NaN it passes on
///   (the SASS simulator's model, `oracle::sim::semantics::fp64`; the
///   quieting is UNCONFIRMED on hardware).
/// * f16/bf16 (`abs.f16`, `abs.bf16`, #half-precision-floating-point-
///   instructions-abs): the ISA leaves a NaN result unspecified; ptxas 11.8
///   lowers them to arithmetic (`HADD2 d, |a|.H0_H0, -RZ.H0_H0` for f16,
///   `HFMA2.BF16_V2 d, -RZ.H0_H0, RZ.H0_H0, |a|.H0_H0` for bf16, measured
///   with `ptxas -arch=sm_80/sm_90`), which returns the canonical NaN
///   0x7fff like every f16/bf16 operation (`nan.rs`).
///
/// `.ftz` flushes a subnormal input to a sign-preserving zero first.
#[inline]
pub fn abs(ty: FloatType, x: u64, ftz: bool) -> u64 {
    let x = x & ty.mask();
    let x = if ftz { ty.flush(x) } else { x };
    if ty.is_nan(x) {
        return match ty {
            FloatType::F64 => x | ty.quiet_bit(),
            _ => nan::canonical_nan(ty),
        };
    }
    ty.abs_bits(x)
}

/// `neg{.ftz}.type`. NaN policy as for [`abs`]: f32, f16 and bf16 the
/// canonical NaN (lowered to `FADD d, -a, -RZ`, `HADD2 d, -a, -RZ`,
/// `HFMA2.BF16_V2 d, -RZ, RZ, -a`), f64 passed through with its sign
/// (quieted).
#[inline]
pub fn neg(ty: FloatType, x: u64, ftz: bool) -> u64 {
    let x = x & ty.mask();
    let x = if ftz { ty.flush(x) } else { x };
    if ty.is_nan(x) {
        return match ty {
            FloatType::F64 => x | ty.quiet_bit(),
            _ => nan::canonical_nan(ty),
        };
    }
    x ^ ty.sign_mask()
}

/// `copysign.type d, a, b`: "Copy sign bit of a into value of b"
/// (#floating-point-instructions-copysign). Note the operand order: this is
/// C's `copysign(b, a)`. A pure bit operation: a NaN `b` keeps its payload.
#[inline]
pub fn copysign(ty: FloatType, a: u64, b: u64) -> u64 {
    ((b & ty.mask()) & !ty.sign_mask()) | (a & ty.sign_mask())
}
