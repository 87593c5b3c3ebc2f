//! `testp`: floating-point property tests (#floating-point-instructions-testp).

use super::formats::{Class, FloatType};

/// The `testp` operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestpOp {
    /// Not infinite and not NaN.
    Finite,
    /// +inf or -inf.
    Infinite,
    /// Not NaN.
    Number,
    /// NaN.
    NotANumber,
    /// Normal, and, "as a special case, positive and negative zero are
    /// considered normal numbers" (ISA).
    Normal,
    /// Subnormal (not zero).
    Subnormal,
}

impl TestpOp {
    pub const ALL: [TestpOp; 6] = [
        TestpOp::Finite,
        TestpOp::Infinite,
        TestpOp::Number,
        TestpOp::NotANumber,
        TestpOp::Normal,
        TestpOp::Subnormal,
    ];
}

/// `testp.op.type p, a`. PTX defines `testp` for .f32 and .f64 only; the
/// other formats follow the same rules. `testp` has no `.ftz`.
#[inline]
pub fn testp(ty: FloatType, op: TestpOp, x: u64) -> bool {
    let c = ty.classify(x & ty.mask());
    match op {
        TestpOp::Finite => !matches!(c, Class::Infinite | Class::Nan),
        TestpOp::Infinite => c == Class::Infinite,
        TestpOp::Number => c != Class::Nan,
        TestpOp::NotANumber => c == Class::Nan,
        TestpOp::Normal => matches!(c, Class::Normal | Class::Zero),
        TestpOp::Subnormal => c == Class::Subnormal,
    }
}
