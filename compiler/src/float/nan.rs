//! NaN policy: which bit pattern an operation returns when its result is NaN.
//!
//! Decisions (see the report in `mod.rs` for the full list of sources):
//!
//! * f32: every NaN result is the canonical NaN `0x7fffffff`. CUDA C++
//!   Programming Guide, appendix "Floating-Point Standard": "The result of a
//!   single-precision floating-point operation involving one or more input
//!   NaNs is the quiet NaN of bit pattern 0x7fffffff". Invalid operations
//!   (inf - inf, 0 * inf, 0/0, sqrt(-1)) give the same pattern.
//! * f16 and bf16: canonical NaN `0x7fff`. cuda_fp16.h documents
//!   `CUDART_NAN_FP16 = 0x7FFF` as "canonical NaN value for the half data
//!   type", cuda_bf16.h `CUDART_NAN_BF16 = 0x7FFF` likewise. Which pattern
//!   HADD2/HFMA2 actually write was not measured here (unconfirmed).
//! * f64, NaN inputs: the payload propagates. PTX ISA 9.7.3
//!   (#floating-point-instructions): "NaN payloads are supported for
//!   double-precision instructions (except for rcp.approx.ftz.f64 and
//!   rsqrt.approx.ftz.f64, which maps input NaNs to a canonical NaN)". We
//!   return the first NaN operand in PTX operand order (a, then b, then c),
//!   quieted (fraction MSB set). The operand priority is UNCONFIRMED.
//! * f64, invalid operation without NaN input: `0xfff8000000000000`, the
//!   value CUDA's math_constants.h uses for `CUDART_NAN`. What DADD/DMUL/DFMA
//!   write on hardware is UNCONFIRMED.

use super::formats::FloatType;

/// f64 result of an invalid operation that has no NaN operand (CUDART_NAN).
pub const F64_DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

/// The canonical NaN of a format as returned by f16/bf16/f32 arithmetic and
/// by `min`/`max` with `.NaN` (f32 `0x7fffffff`, f16/bf16 `0x7fff`). For f64
/// this returns [`F64_DEFAULT_NAN`].
#[inline(always)]
pub const fn canonical_nan(ty: FloatType) -> u64 {
    match ty {
        FloatType::F16 | FloatType::Bf16 => 0x7fff,
        FloatType::F32 => 0x7fff_ffff,
        FloatType::F64 => F64_DEFAULT_NAN,
    }
}

/// NaN result of an operation with the given operands, at least one of
/// which is NaN or the operation is invalid.
#[inline]
pub(super) fn result(ty: FloatType, operands: &[u64]) -> u64 {
    if ty == FloatType::F64 {
        for &x in operands {
            if ty.is_nan(x) {
                return x | ty.quiet_bit();
            }
        }
    }
    canonical_nan(ty)
}
