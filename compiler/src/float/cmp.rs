//! Floating-point comparisons for `setp`/`set` (PTX ISA 9.3.1.2
//! #floating-point-comparisons, Tables 23-25; instructions
//! #comparison-and-selection-instructions-setp and -set, and the half
//! precision forms #half-precision-comparison-instructions-setp).

use core::cmp::Ordering;

use super::formats::FloatType;

/// A PTX floating-point comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl CmpOp {
    pub const ALL: [CmpOp; 14] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
        CmpOp::Equ,
        CmpOp::Neu,
        CmpOp::Ltu,
        CmpOp::Leu,
        CmpOp::Gtu,
        CmpOp::Geu,
        CmpOp::Num,
        CmpOp::Nan,
    ];
}

/// Numeric order of two non-NaN values (`None` if either is NaN). +0 and -0
/// compare equal (IEEE 754); `min`/`max` order them separately.
#[inline]
pub fn partial_cmp(ty: FloatType, a: u64, b: u64) -> Option<Ordering> {
    let (a, b) = (a & ty.mask(), b & ty.mask());
    if ty.is_nan(a) || ty.is_nan(b) {
        return None;
    }
    if ty.is_zero(a) && ty.is_zero(b) {
        return Some(Ordering::Equal);
    }
    Some(total_key(ty, a).cmp(&total_key(ty, b)))
}

/// Maps a non-NaN bit pattern to an integer that orders like the value,
/// with -0 just below +0.
#[inline(always)]
pub(super) fn total_key(ty: FloatType, x: u64) -> i64 {
    let mag = ty.abs_bits(x) as i64;
    if ty.sign(x) {
        -mag - 1
    } else {
        mag
    }
}

/// `setp.CmpOp{.ftz}.type`: the predicate. With `ftz`, subnormal inputs are
/// flushed to sign-preserving zero before comparing (so they equal zero).
#[inline]
pub fn compare(ty: FloatType, op: CmpOp, a: u64, b: u64, ftz: bool) -> bool {
    let (a, b) = if ftz {
        (ty.flush(a & ty.mask()), ty.flush(b & ty.mask()))
    } else {
        (a, b)
    };
    let ord = partial_cmp(ty, a, b);
    match ord {
        None => matches!(
            op,
            CmpOp::Equ
                | CmpOp::Neu
                | CmpOp::Ltu
                | CmpOp::Leu
                | CmpOp::Gtu
                | CmpOp::Geu
                | CmpOp::Nan
        ),
        Some(o) => match op {
            CmpOp::Eq | CmpOp::Equ => o == Ordering::Equal,
            CmpOp::Ne | CmpOp::Neu => o != Ordering::Equal,
            CmpOp::Lt | CmpOp::Ltu => o == Ordering::Less,
            CmpOp::Le | CmpOp::Leu => o != Ordering::Greater,
            CmpOp::Gt | CmpOp::Gtu => o == Ordering::Greater,
            CmpOp::Ge | CmpOp::Geu => o != Ordering::Less,
            CmpOp::Num => true,
            CmpOp::Nan => false,
        },
    }
}
