//! Carries (PTX ISA 9.7.2, "Extended-Precision Integer Arithmetic Instructions", and the SASS
//! adders' carry predicates): the carry out of an adder is the exact sum's bits above its width.

use super::arith::{mul_hi, mul_lo};
use super::ty::{fit, width, IntTy};

/// The exact sum of `terms` split at bit `width` (1..=64): its low `width` bits and the carry
/// out of them (`sum >> width`, how many times `2^width` the sum holds).
///
/// The one carry rule of both ISAs' adders: PTX `add.cc`/`addc`/`sub.cc`/`subc`/`mad.cc` (9.7.2,
/// carry-out of the unsigned N-bit addition, [`add_cc`]) and the SASS adders' carry predicates
/// (`IADD3` with up to 2 carries out of its three terms and two carry-ins, `IMAD.X`, `LEA.X`,
/// as docs/SEMANTICS.md's SASS rules describe them). A term may be wider than `width`: SASS
/// reads a negated source `-x` as `~x + 1`, which is `2^32` for `x = 0` (so `a - 0` carries,
/// carry = NOT borrow, like PTX `sub.cc`).
#[inline(always)]
pub fn sum_with_carry<const N: usize>(width: u32, terms: [u128; N]) -> (u64, u64) {
    let width = width.clamp(1, 64);
    let s: u128 = terms.iter().sum();
    let low = if width == 64 {
        s as u64
    } else {
        (s as u64) & ((1u64 << width) - 1)
    };
    (low, (s >> width) as u64)
}

/// `add.cc` / `addc{.cc}` (9.7.2.1, 9.7.2.2): `d = a + b + carry_in` modulo 2^N, returning the
/// carry-out of the unsigned N-bit addition. `add.cc` is `carry_in = false`; `addc` passes CC.CF.
/// "Behavior is the same for unsigned and signed integers."
#[inline]
pub fn add_cc(t: IntTy, a: u64, b: u64, carry_in: bool) -> (u64, bool) {
    let terms = [fit(t, a), fit(t, b), u64::from(carry_in)].map(u128::from);
    let (d, carry) = sum_with_carry(width(t), terms);
    (d, carry & 1 == 1)
}

/// `sub.cc` / `subc{.cc}` (9.7.2.3, 9.7.2.4), in the carry = NOT-borrow convention of the
/// hardware: computes `a + ~b + carry_in` modulo 2^N and returns its carry-out.
///
/// * `sub.cc d, a, b`: call with `carry_in = true` (`a + ~b + 1 = a - b`); the flag returned is
///   `a >= b` (unsigned), i.e. NOT borrow.
/// * `subc d, a, b`: call with `carry_in = CC.CF`. The ISA writes `d = a - (b + CC.CF)` with
///   CC.CF holding a *borrow*; the hardware stores NOT borrow in the same flag, so
///   `a - (b + borrow) = a + ~b + (1 - borrow) = a + ~b + CF`. This is what ZLUDA's
///   hardware-checked tests (`ptx/src/test/.../addc_subc`) expect, and what docs/SEMANTICS.md
///   records: after `sub.cc 0 - 1`, `addc 0, 0` gives 0.
#[inline]
pub fn sub_cc(t: IntTy, a: u64, b: u64, carry_in: bool) -> (u64, bool) {
    add_cc(t, a, !b, carry_in)
}

/// `mad{.lo,.hi}.cc` / `madc{.lo,.hi}{.cc}` (9.7.2.5, 9.7.2.6): `d = t<half> + c + carry_in`
/// where `t = a * b` (signed or unsigned per `t`) and `half` is the low (`hi = false`) or high
/// N bits of the 2N-bit product; returns the carry-out of the unsigned N-bit addition.
/// `mad.cc` is `carry_in = false`; `madc` passes CC.CF.
#[inline]
pub fn mad_cc(t: IntTy, hi: bool, a: u64, b: u64, c: u64, carry_in: bool) -> (u64, bool) {
    let p = if hi { mul_hi(t, a, b) } else { mul_lo(t, a, b) };
    add_cc(t, p, c, carry_in)
}
