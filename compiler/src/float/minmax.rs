//! `min`/`max` (PTX ISA #floating-point-instructions-min, -max and
//! #half-precision-floating-point-instructions-min, -max).
//!
//! Semantics (ISA pseudo-code):
//! * one NaN operand is ignored (the other operand is returned); two NaNs
//!   give NaN; with `.NaN` any NaN operand gives the canonical NaN;
//! * -0.0 < +0.0;
//! * `.xorsign.abs`: the result's magnitude is min/max of |a|, |b| and its
//!   sign bit is sign(a) XOR sign(b), unless the result is NaN;
//! * `.ftz` flushes subnormal inputs (and so results) to sign-preserving zero.
//!
//! NaN bit patterns: f16/bf16/f32 give the canonical NaN (the ISA's `.NaN`
//! text says "canonical NaN"; for two NaN inputs without `.NaN` the ISA just
//! says NaN, canonical assumed). f64 has no `.NaN`; two NaN inputs return the
//! first one quieted, per the f64 payload rule in `nan.rs` (unconfirmed).

use super::cmp::total_key;
use super::formats::FloatType;
use super::nan;

/// Modifiers of `min`/`max`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MinMaxMods {
    /// `.ftz`
    pub ftz: bool,
    /// `.NaN`: propagate NaN (sm_80+).
    pub nan: bool,
    /// `.xorsign.abs` (sm_86+).
    pub xorsign_abs: bool,
}

impl MinMaxMods {
    pub const NONE: MinMaxMods = MinMaxMods {
        ftz: false,
        nan: false,
        xorsign_abs: false,
    };
}

#[inline]
fn min_max(ty: FloatType, a: u64, b: u64, m: MinMaxMods, want_max: bool) -> u64 {
    let mut a = a & ty.mask();
    let mut b = b & ty.mask();
    if m.ftz {
        a = ty.flush(a);
        b = ty.flush(b);
    }
    let xs = ty.sign(a) != ty.sign(b);
    if m.xorsign_abs {
        // `.xorsign` looks at the signs before `.abs` is applied (ISA).
        // |NaN| is still NaN, so taking the magnitude first is harmless.
        a = ty.abs_bits(a);
        b = ty.abs_bits(b);
    }
    let (an, bn) = (ty.is_nan(a), ty.is_nan(b));
    if an && bn {
        return nan::result(ty, &[a, b]);
    }
    if m.nan && (an || bn) {
        return nan::canonical_nan(ty);
    }
    let d = if an {
        b
    } else if bn {
        a
    } else {
        let (ka, kb) = (total_key(ty, a), total_key(ty, b));
        if (ka < kb) != want_max {
            a
        } else {
            b
        }
    };
    if m.xorsign_abs {
        (d & !ty.sign_mask()) | if xs { ty.sign_mask() } else { 0 }
    } else {
        d
    }
}

/// `min{.ftz}{.NaN}{.xorsign.abs}.type d, a, b`.
#[inline]
pub fn min(ty: FloatType, a: u64, b: u64, m: MinMaxMods) -> u64 {
    min_max(ty, a, b, m, false)
}

/// `max{.ftz}{.NaN}{.xorsign.abs}.type d, a, b`.
#[inline]
pub fn max(ty: FloatType, a: u64, b: u64, m: MinMaxMods) -> u64 {
    min_max(ty, a, b, m, true)
}
