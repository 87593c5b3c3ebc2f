//! Sign manipulation: `abs`, `neg`, `copysign`.

use super::formats::FloatType;
use super::nan;

/// `abs{.ftz}.type`.
///
/// * f32: NaN input gives the canonical NaN 0x7fffffff. The ISA leaves it
///   unspecified (#floating-point-instructions-abs); SEMANTICS_NOTES records
///   that ptxas lowers `abs.f32` to `FADD d, |a|, -RZ`, and FADD returns the
///   canonical NaN for a NaN operand (CUDA guide). For non-NaN inputs
///   `|a| + (-0)` is exactly `|a|`, so the bit operation below is identical.
/// * f64: "NaN input is passed through unchanged" (ISA, same section; CUDA
///   guide: "Double-precision floating-point absolute value and negation are
///   not compliant with IEEE-754 with respect to NaNs; these are passed
///   through unchanged"): the sign bit of a NaN is NOT cleared.
/// * f16/bf16 (`abs.f16`, `abs.bf16`, #half-precision-floating-point-
///   instructions-abs): treated as a pure sign-bit operation, NaN payload and
///   all (UNCONFIRMED: the ISA says NaN results are unspecified).
///
/// `.ftz` flushes a subnormal input to a sign-preserving zero first.
#[inline]
pub fn abs(ty: FloatType, x: u64, ftz: bool) -> u64 {
    let x = x & ty.mask();
    let x = if ftz { ty.flush(x) } else { x };
    if ty.is_nan(x) {
        return match ty {
            FloatType::F32 => nan::canonical_nan(ty),
            FloatType::F64 => x,
            _ => ty.abs_bits(x),
        };
    }
    ty.abs_bits(x)
}

/// `neg{.ftz}.type`. NaN policy as for [`abs`]: f32 canonical NaN (lowered to
/// `FADD d, -a, -RZ`), f64 passed through unchanged, f16/bf16 sign flipped
/// (unconfirmed).
#[inline]
pub fn neg(ty: FloatType, x: u64, ftz: bool) -> u64 {
    let x = x & ty.mask();
    let x = if ftz { ty.flush(x) } else { x };
    if ty.is_nan(x) {
        return match ty {
            FloatType::F32 => nan::canonical_nan(ty),
            FloatType::F64 => x,
            _ => x ^ ty.sign_mask(),
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
