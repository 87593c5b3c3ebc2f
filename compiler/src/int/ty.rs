//! The integer operand type and the encodings every integer rule shares: a value is a `u64`
//! carrying the operand's bits in its low `t.bits` bits (see the module comment of
//! [`crate::int`]).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    pub const U8: IntTy = IntTy::new(8, false);
    pub const U16: IntTy = IntTy::new(16, false);
    pub const U32: IntTy = IntTy::new(32, false);
    pub const U64: IntTy = IntTy::new(64, false);
    pub const S8: IntTy = IntTy::new(8, true);
    pub const S16: IntTy = IntTy::new(16, true);
    pub const S32: IntTy = IntTy::new(32, true);
    pub const S64: IntTy = IntTy::new(64, true);
    /// Bit types (`.b8` .. `.b64`) behave as unsigned types.
    pub const B8: IntTy = IntTy::U8;
    pub const B16: IntTy = IntTy::U16;
    pub const B32: IntTy = IntTy::U32;
    pub const B64: IntTy = IntTy::U64;

    pub const fn new(bits: u32, signed: bool) -> IntTy {
        IntTy { bits, signed }
    }
}

/// Width of `t` in bits, clamped into 1..=64 so that odd inputs cannot panic.
#[inline]
pub(super) fn width(t: IntTy) -> u32 {
    t.bits.clamp(1, 64)
}

/// All-ones mask of the low `bits` bits (`bits >= 64` gives all ones, 0 gives 0).
#[inline]
pub(super) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Bit `i` of `v` (false when `i >= 64`).
#[inline]
pub(super) fn bit(v: u64, i: u32) -> bool {
    i < 64 && (v >> i) & 1 == 1
}

/// Keep the low `bits` bits of `v` (zero-extend from `bits`). `bits >= 64` keeps all of `v`.
#[inline]
pub fn trunc(bits: u32, v: u64) -> u64 {
    v & mask(bits)
}

/// Sign-extend the low `bits` bits of `v` to 64 bits. `bits >= 64` returns `v`; `bits == 0`
/// returns 0.
#[inline]
pub fn sext(bits: u32, v: u64) -> u64 {
    if bits == 0 {
        0
    } else if bits >= 64 {
        v
    } else {
        let sh = 64 - bits;
        (((v << sh) as i64) >> sh) as u64
    }
}

/// Truncate `v` to the width of `t` (the zero-extended result convention).
#[inline]
pub(super) fn fit(t: IntTy, v: u64) -> u64 {
    trunc(width(t), v)
}

/// The value of `v` as a mathematical integer under `t` (sign- or zero-extended).
#[inline]
pub(super) fn value(t: IntTy, v: u64) -> i128 {
    let w = width(t);
    if t.signed {
        sext(w, v) as i64 as i128
    } else {
        trunc(w, v) as i128
    }
}

/// Smallest and largest value of `t`.
#[inline]
pub(super) fn range(t: IntTy) -> (i128, i128) {
    let w = width(t);
    if t.signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}
