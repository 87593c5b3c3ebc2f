//! Bit-exact floating-point semantics shared by the PTX reference
//! interpreter and the SASS simulator.
//!
//! All values are raw bit patterns (`u16` for f16/bf16, `u32` for f32, `u64`
//! for f64 in the typed modules [`fp16`], [`bf16`], [`fp32`], [`fp64`]; the
//! generic functions take a [`FloatType`] and a `u64` holding the pattern in
//! its low bits). Nothing here touches the host's floating-point environment.
//!
//! # Layout
//!
//! | file | job |
//! |---|---|
//! | `formats.rs` | [`FloatType`]: field widths, classification, unpacking, flush |
//! | `round.rs` | the one rounding routine (RN/RZ/RM/RP, subnormals, overflow) |
//! | `nan.rs` | which NaN an operation returns |
//! | `arith.rs` | add, sub, mul, fma, div, sqrt, rcp with `.ftz`/`.sat` |
//! | `sign.rs` | abs, neg, copysign |
//! | `cmp.rs` | setp/set comparisons |
//! | `minmax.rs` | min/max incl. `.NaN` and `.xorsign.abs` |
//! | `classify.rs` | testp |
//! | `convert.rs` | cvt float<->float, float<->int, round-to-integral |
//! | `approx.rs` | approximate instructions and the MUFU models |
//! | `packed.rs` | f16x2/bf16x2 lane helpers |
//! | `from_f64.rs` | a host `f64` rounded exactly into f16 bits |
//!
//! # Dispatch
//!
//! An interpreter that decodes `add.rz.ftz.f32` once can take a plain
//! function pointer from [`binary_fn`] (`fn(u64, u64, Rounding, Mods) ->
//! u64`, monomorphized per format) and keep the [`Rounding`] and [`Mods`]
//! as decoded data; or call the typed functions (`fp32::add(a, b, rnd,
//! mods)`).
//!
//! # Semantic decisions (listed with the others in docs/SEMANTICS.md, Floating point)
//!
//! (Sources: PTX ISA 9.x at docs.nvidia.com/cuda/parallel-thread-execution,
//! anchors given in each file; CUDA headers; third-party hardware tests in
//! vosen/ptx_tests. "UNCONFIRMED" marks a choice no source settles.)
//!
//! * NaN results: f32 0x7fffffff, f16/bf16 0x7fff (cuda_fp16.h/cuda_bf16.h
//!   "canonical NaN"); f64 propagates the first NaN operand quieted (ISA
//!   9.7.3: "NaN payloads are supported for double-precision instructions";
//!   operand priority UNCONFIRMED) and gives 0xfff8000000000000 (CUDA
//!   `CUDART_NAN`) for invalid operations (UNCONFIRMED). See `nan.rs`.
//! * `.ftz` flushes after rounding (a result that rounds up to the smallest
//!   normal is kept). `.sat` maps NaN and every value with the sign bit set,
//!   -0.0 included, to +0.0 (cvt.sat hardware-observed; arithmetic assumed).
//! * abs/neg: f32 NaN -> 0x7fffffff (FADD lowering), f64 NaN unchanged (sign
//!   bit included), f16/bf16 pure sign-bit operations (UNCONFIRMED).
//! * copysign is a pure bit operation (NaN payload of `b` kept).
//! * min/max with two NaNs: canonical NaN (f64: first NaN quieted).
//! * cvt float->int NaN: 0, or 1 << (N-1) for an f64 source or a 64-bit
//!   destination (ISA cvt "Integer Notes"; docs/SEMANTICS.md, Conversions).
//! * cvt NaN to f64 keeps the payload; to f16/bf16/f32 gives the canonical
//!   NaN (UNCONFIRMED). `cvt.ftz.f16.f32` does not flush the f32 input
//!   (hardware-observed erratum); `.relu` maps -0.0 to +0.0 (UNCONFIRMED).
//! * Approximate instructions: see `approx.rs` (models, lowering
//!   assumptions, hardware-observed subnormal behaviour).

pub mod approx;
pub mod arith;
pub mod classify;
pub mod cmp;
pub mod convert;
pub mod formats;
mod from_f64;
pub mod minmax;
pub mod nan;
pub mod packed;
mod round;
pub mod sign;

#[cfg(test)]
mod tests;

pub use classify::{testp, TestpOp};
pub use cmp::{compare, CmpOp};
pub use convert::{cvt_f2i, cvt_float, cvt_i2f, cvt_round_int, CvtMods, IntType};
pub use formats::{Class, FloatType};
pub use from_f64::f64_to_f16_bits;
pub use minmax::{max, min, MinMaxMods};
pub use nan::{canonical_nan, F64_DEFAULT_NAN};
pub use sign::{abs, copysign, neg};

/// IEEE rounding direction. For integer rounding (`.rni .rzi .rmi .rpi`)
/// the same values are used: `Rn` = `.rni`, `Rz` = `.rzi`, `Rm` = `.rmi`,
/// `Rp` = `.rpi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// To nearest, ties to even (`.rn`, the default of add/sub/mul/fma).
    Rn,
    /// Toward zero (`.rz`).
    Rz,
    /// Toward negative infinity (`.rm`).
    Rm,
    /// Toward positive infinity (`.rp`).
    Rp,
}

impl Rounding {
    pub const ALL: [Rounding; 4] = [Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp];
}

/// The `.ftz` and `.sat` modifiers of arithmetic instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mods {
    /// Flush subnormal inputs and results to sign-preserving zero.
    pub ftz: bool,
    /// Clamp the result to [0.0, 1.0]; NaN -> +0.0.
    pub sat: bool,
}

impl Mods {
    pub const NONE: Mods = Mods {
        ftz: false,
        sat: false,
    };
    pub const FTZ: Mods = Mods {
        ftz: true,
        sat: false,
    };
    pub const SAT: Mods = Mods {
        ftz: false,
        sat: true,
    };
    pub const FTZ_SAT: Mods = Mods {
        ftz: true,
        sat: true,
    };
}

/// Binary arithmetic operations available through [`binary_fn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// Unary arithmetic operations available through [`unary_fn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Sqrt,
    Rcp,
}

/// `fn(a, rnd, mods)`.
pub type UnaryFn = fn(u64, Rounding, Mods) -> u64;
/// `fn(a, b, rnd, mods)`.
pub type BinaryFn = fn(u64, u64, Rounding, Mods) -> u64;
/// `fn(a, b, c, rnd, mods)` (fma).
pub type TernaryFn = fn(u64, u64, u64, Rounding, Mods) -> u64;

macro_rules! mono {
    ($($name:ident: $ty:expr),* $(,)?) => {
        mod mono {
            use super::{arith, FloatType, Mods, Rounding};
            $(
                pub mod $name {
                    use super::*;
                    const T: FloatType = $ty;
                    pub fn add(a: u64, b: u64, r: Rounding, m: Mods) -> u64 { arith::add(T, a, b, r, m) }
                    pub fn sub(a: u64, b: u64, r: Rounding, m: Mods) -> u64 { arith::sub(T, a, b, r, m) }
                    pub fn mul(a: u64, b: u64, r: Rounding, m: Mods) -> u64 { arith::mul(T, a, b, r, m) }
                    pub fn div(a: u64, b: u64, r: Rounding, m: Mods) -> u64 { arith::div(T, a, b, r, m) }
                    pub fn sqrt(a: u64, r: Rounding, m: Mods) -> u64 { arith::sqrt(T, a, r, m) }
                    pub fn rcp(a: u64, r: Rounding, m: Mods) -> u64 { arith::rcp(T, a, r, m) }
                    pub fn fma(a: u64, b: u64, c: u64, r: Rounding, m: Mods) -> u64 { arith::fma(T, a, b, c, r, m) }
                }
            )*
        }
    };
}

mono!(f16: FloatType::F16, bf16: FloatType::Bf16, f32: FloatType::F32, f64: FloatType::F64);

/// A function pointer for `op` on `ty`, specialized for the format.
pub fn binary_fn(op: BinaryOp, ty: FloatType) -> BinaryFn {
    macro_rules! pick {
        ($m:ident) => {
            match op {
                BinaryOp::Add => mono::$m::add,
                BinaryOp::Sub => mono::$m::sub,
                BinaryOp::Mul => mono::$m::mul,
                BinaryOp::Div => mono::$m::div,
            }
        };
    }
    match ty {
        FloatType::F16 => pick!(f16),
        FloatType::Bf16 => pick!(bf16),
        FloatType::F32 => pick!(f32),
        FloatType::F64 => pick!(f64),
    }
}

/// A function pointer for `op` on `ty`.
pub fn unary_fn(op: UnaryOp, ty: FloatType) -> UnaryFn {
    macro_rules! pick {
        ($m:ident) => {
            match op {
                UnaryOp::Sqrt => mono::$m::sqrt,
                UnaryOp::Rcp => mono::$m::rcp,
            }
        };
    }
    match ty {
        FloatType::F16 => pick!(f16),
        FloatType::Bf16 => pick!(bf16),
        FloatType::F32 => pick!(f32),
        FloatType::F64 => pick!(f64),
    }
}

/// A function pointer for fma on `ty`.
pub fn fma_fn(ty: FloatType) -> TernaryFn {
    match ty {
        FloatType::F16 => mono::f16::fma,
        FloatType::Bf16 => mono::bf16::fma,
        FloatType::F32 => mono::f32::fma,
        FloatType::F64 => mono::f64::fma,
    }
}

macro_rules! typed_format {
    ($(#[$doc:meta])* $name:ident, $bits:ty, $ty:expr) => {
        $(#[$doc])*
        pub mod $name {
            use super::{
                arith, classify, cmp, convert, minmax, sign, CmpOp, FloatType, IntType, MinMaxMods,
                Mods, Rounding, TestpOp,
            };

            /// The format.
            pub const TYPE: FloatType = $ty;
            /// The NaN this library returns for an invalid operation.
            pub const NAN: $bits = super::nan::canonical_nan($ty) as $bits;
            /// +1.0.
            pub const ONE: $bits = $ty.one() as $bits;
            /// +infinity.
            pub const INF: $bits = $ty.inf() as $bits;
            /// Largest finite value.
            pub const MAX: $bits = $ty.max_finite() as $bits;

            #[inline]
            pub fn add(a: $bits, b: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::add(TYPE, a as u64, b as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn sub(a: $bits, b: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::sub(TYPE, a as u64, b as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn mul(a: $bits, b: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::mul(TYPE, a as u64, b as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn fma(a: $bits, b: $bits, c: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::fma(TYPE, a as u64, b as u64, c as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn div(a: $bits, b: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::div(TYPE, a as u64, b as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn sqrt(a: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::sqrt(TYPE, a as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn rcp(a: $bits, rnd: Rounding, m: Mods) -> $bits {
                arith::rcp(TYPE, a as u64, rnd, m) as $bits
            }
            #[inline]
            pub fn abs(a: $bits, ftz: bool) -> $bits {
                sign::abs(TYPE, a as u64, ftz) as $bits
            }
            #[inline]
            pub fn neg(a: $bits, ftz: bool) -> $bits {
                sign::neg(TYPE, a as u64, ftz) as $bits
            }
            /// `copysign d, a, b`: sign of `a`, magnitude of `b`.
            #[inline]
            pub fn copysign(a: $bits, b: $bits) -> $bits {
                sign::copysign(TYPE, a as u64, b as u64) as $bits
            }
            #[inline]
            pub fn min(a: $bits, b: $bits, m: MinMaxMods) -> $bits {
                minmax::min(TYPE, a as u64, b as u64, m) as $bits
            }
            #[inline]
            pub fn max(a: $bits, b: $bits, m: MinMaxMods) -> $bits {
                minmax::max(TYPE, a as u64, b as u64, m) as $bits
            }
            #[inline]
            pub fn compare(op: CmpOp, a: $bits, b: $bits, ftz: bool) -> bool {
                cmp::compare(TYPE, op, a as u64, b as u64, ftz)
            }
            #[inline]
            pub fn testp(op: TestpOp, a: $bits) -> bool {
                classify::testp(TYPE, op, a as u64)
            }
            /// `cvt.irnd{.ftz}{.sat}.T.T`: round to an integral value.
            #[inline]
            pub fn round_int(a: $bits, rnd: Rounding, ftz: bool, sat: bool) -> $bits {
                convert::cvt_round_int(TYPE, a as u64, rnd, ftz, sat) as $bits
            }
            /// `cvt.irnd{.ftz}.dst.T`: float to integer (low `dst.bits()` bits).
            #[inline]
            pub fn to_int(a: $bits, dst: IntType, rnd: Rounding, ftz: bool) -> u64 {
                convert::cvt_f2i(TYPE, a as u64, dst, rnd, ftz)
            }
            /// `cvt.frnd{.sat}.T.src`: integer to float.
            #[inline]
            pub fn from_int(src: IntType, v: u64, rnd: Rounding, sat: bool) -> $bits {
                convert::cvt_i2f(src, v, TYPE, rnd, sat) as $bits
            }
        }
    };
}

typed_format!(
    /// IEEE binary16 (`.f16`) on `u16` bit patterns.
    fp16, u16, FloatType::F16
);
typed_format!(
    /// bfloat16 (`.bf16`) on `u16` bit patterns.
    bf16, u16, FloatType::Bf16
);
typed_format!(
    /// IEEE binary32 (`.f32`) on `u32` bit patterns.
    fp32, u32, FloatType::F32
);
typed_format!(
    /// IEEE binary64 (`.f64`) on `u64` bit patterns.
    fp64, u64, FloatType::F64
);
