//! Bit counting and bit fields (PTX ISA 9.7.1.14 - 9.7.1.22): popc, clz, bfind (SASS `FLO`),
//! fns, brev, bfe, bfi, szext (SASS `SGXT`), bmsk (SASS `BMSK`).

use super::ty::{bit, fit, mask, width, IntTy};

// ---------------------------------------------------------------------------------------------
// Bit counting (9.7.1.14 - 9.7.1.18)
// ---------------------------------------------------------------------------------------------

/// `popc.type` (9.7.1.14): number of one bits of `a` (destination `.u32`).
#[inline]
pub fn popc(t: IntTy, a: u64) -> u64 {
    u64::from(fit(t, a).count_ones())
}

/// `clz.type` (9.7.1.15): number of leading zeros counted from bit N-1; `clz(0) = N`
/// ("between 0 and 32, inclusively" for `.b32`).
#[inline]
pub fn clz(t: IntTy, a: u64) -> u64 {
    let w = width(t);
    u64::from(fit(t, a).leading_zeros() - (64 - w))
}

/// `bfind{.shiftamt}.type` (9.7.1.16): position of the most significant non-sign bit.
/// Unsigned: the most significant 1. Signed: the input is complemented first when negative
/// ("negate negative signed inputs ... a = ~a"), so it finds the most significant 0 of a
/// negative value. "bfind returns 0xffffffff if no non-sign bit is found" (a = 0, or a = -1 when
/// signed). With `.shiftamt` it returns `msb - d` ("the shift amount needed to left-shift the
/// found bit into the most-significant bit position"); the not-found value stays 0xffffffff.
#[inline]
pub fn bfind(t: IntTy, a: u64, shiftamt: bool) -> u64 {
    let w = width(t);
    let msb = w - 1;
    let mut x = fit(t, a);
    if t.signed && bit(x, msb) {
        x = fit(t, !x);
    }
    if x == 0 {
        return 0xffff_ffff;
    }
    let d = 63 - x.leading_zeros();
    u64::from(if shiftamt { msb - d } else { d })
}

/// `fns.b32 d, mask, base, offset` (9.7.1.17): the bit position of the `offset`-th set bit of
/// `mask` counting from `base` (inclusive), upward for `offset > 0`, downward for `offset < 0`;
/// `offset == 0` returns `base` if `mask[base]` is set. 0xffffffff when not found. Transliterates
/// the ISA pseudocode:
///
/// ```text
/// d = 0xffffffff;
/// if (offset == 0) { if (mask[base] == 1) d = base; }
/// else { pos = base; count = |offset| - 1; inc = (offset > 0) ? 1 : -1;
///        while ((pos >= 0) && (pos < 32)) {
///            if (mask[pos] == 1) { if (count == 0) { d = pos; break; } else count--; }
///            pos += inc; } }
/// ```
///
/// "Operand base must be <= 31, otherwise behavior is undefined": see [`fns_base_is_ub`]. For
/// such a base this function follows the pseudocode literally with `mask[pos]` read as 0 outside
/// 0..=31 (the loop never runs), returning 0xffffffff.
#[inline]
pub fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if base > 31 {
        return 0xffff_ffff;
    }
    let m = u64::from(mask);
    if offset == 0 {
        return if bit(m, base) { base } else { 0xffff_ffff };
    }
    // count = |offset| - 1 set bits to skip before the one we return.
    let skip = offset.unsigned_abs() - 1;
    let candidates = if offset > 0 {
        // bits base..=31
        m >> base
    } else {
        // bits base..=0, reversed so that bit `base` comes first
        (m << (63 - base)).reverse_bits()
    };
    if candidates.count_ones() <= skip {
        return 0xffff_ffff;
    }
    // Position (within `candidates`) of its (skip+1)-th set bit.
    let mut rest = candidates;
    for _ in 0..skip {
        rest &= rest - 1; // clear the lowest set bit
    }
    let k = rest.trailing_zeros();
    if offset > 0 {
        base + k
    } else {
        base - k
    }
}

/// True when `fns`'s `base` operand makes the instruction undefined (9.7.1.17: "Operand base must
/// be <= 31, otherwise behavior is undefined"). `base` is `.b32/.u32/.s32`: a negative `.s32`
/// base reads as a value above 31 here.
#[inline]
pub fn fns_base_is_ub(base: u32) -> bool {
    base > 31
}

/// `brev.type` (9.7.1.18): `d[i] = a[msb-i]`.
#[inline]
pub fn brev(t: IntTy, a: u64) -> u64 {
    let w = width(t);
    a.reverse_bits() >> (64 - w)
}

// ---------------------------------------------------------------------------------------------
// Bit fields (9.7.1.19 - 9.7.1.22)
// ---------------------------------------------------------------------------------------------

/// Number of bits a field at `pos` of length `len` actually covers inside a `w`-bit value:
/// the `i` with `i < len && pos + i <= msb`.
#[inline]
fn field_len(w: u32, pos: u32, len: u32) -> u32 {
    if pos >= w {
        0
    } else {
        len.min(w - pos)
    }
}

/// `bfe.type d, a, b, c` (9.7.1.19), `b` = position, `c` = length:
///
/// ```text
/// msb = (.type==.u32 || .type==.s32) ? 31 : 63;
/// pos = b & 0xff; len = c & 0xff;
/// if (.type==.u32 || .type==.u64 || len==0) sbit = 0; else sbit = a[min(pos+len-1,msb)];
/// d = 0; for (i=0; i<=msb; i++) d[i] = (i<len && pos+i<=msb) ? a[pos+i] : sbit;
/// ```
///
/// So: length 0 gives 0; a field running past the msb is cut there and (signed) filled with
/// a[msb]; a start position beyond the msb gives 0 (unsigned) or the replicated a[msb] (signed).
#[inline]
pub fn bfe(t: IntTy, a: u64, pos: u32, len: u32) -> u64 {
    let w = width(t);
    let msb = w - 1;
    let (pos, len) = (pos & 0xff, len & 0xff);
    let a = fit(t, a);
    let sbit = t.signed && len != 0 && bit(a, (pos + len - 1).min(msb));
    let n = field_len(w, pos, len);
    let field = if n == 0 { 0 } else { (a >> pos) & mask(n) };
    let fill = if sbit { mask(w) & !mask(n) } else { 0 };
    field | fill
}

/// `bfi.type f, a, b, c, d` (9.7.1.20): insert the low bits of `a` into `b` at position `pos`
/// (operand c) for `len` bits (operand d), both taken `& 0xff`:
///
/// ```text
/// f = b; for (i=0; i<len && pos+i<=msb; i++) f[pos+i] = a[i];
/// ```
///
/// "If the bit field length is zero, the result is b. If the start position is beyond the msb of
/// the input, the result is b."
#[inline]
pub fn bfi(t: IntTy, a: u64, b: u64, pos: u32, len: u32) -> u64 {
    let w = width(t);
    let (pos, len) = (pos & 0xff, len & 0xff);
    let n = field_len(w, pos, len);
    if n == 0 {
        return fit(t, b);
    }
    let m = mask(n) << pos;
    fit(t, (b & !m) | ((a << pos) & m))
}

/// `szext.mode.type d, a, b` (9.7.1.21, PTX 7.6, sm_70): sign- (`signed`, `.s32`) or zero-extend
/// (`.u32`) the low N bits of `a`, N = `n` (operand b). N = 0 gives 0. For N >= 32, `.clamp`
/// (`clamp = true`) returns `a`, `.wrap` uses N & 31. ISA pseudocode:
///
/// ```text
/// b1 = b & 0x1f; too_large = (b >= 32 && .mode == .clamp);
/// mask = too_large ? 0 : (~0) << b1; sign_pos = (b1 - 1) & 0x1f;
/// sign_bit = (b1 == 0 || too_large || .type != .s32) ? false : (a >> sign_pos) & 1;
/// d = (a & ~mask) | (sign_bit ? mask : 0);
/// ```
#[inline]
pub fn szext(signed: bool, a: u32, n: u32, clamp: bool) -> u32 {
    let b1 = n & 0x1f;
    let too_large = n >= 32 && clamp;
    let m: u32 = if too_large { 0 } else { u32::MAX << b1 };
    let sign_pos = b1.wrapping_sub(1) & 0x1f;
    let sign_bit = !(b1 == 0 || too_large || !signed) && (a >> sign_pos) & 1 == 1;
    (a & !m) | if sign_bit { m } else { 0 }
}

/// `bmsk.mode.b32 d, a, b` (9.7.1.22, PTX 7.6, sm_70): a mask of `b` (width) one bits starting at
/// bit `a` (position). ISA pseudocode:
///
/// ```text
/// a1 = a & 0x1f; mask0 = (~0) << a1; b1 = b & 0x1f; sum = a1 + b1; mask1 = (~0) << sum;
/// sum-overflow = sum >= 32; bit-position-overflow = false; bit-width-overflow = false;
/// if (.mode == .clamp) { if (a >= 32) { bit-position-overflow = true; mask0 = 0; }
///                        if (b >= 32) { bit-width-overflow = true; } }
/// if (sum-overflow || bit-position-overflow || bit-width-overflow) mask1 = 0;
/// else if (b1 == 0) mask1 = ~0;
/// d = mask0 & ~mask1;
/// ```
///
/// "The resulting bitmask is 0 ... when the value of a is 32 or higher and .mode is .clamp [and]
/// when either the specified value of b or the wrapped value of b (when .mode is .wrap) is 0."
/// Widths past bit 31 are cut at bit 31; in `.clamp` mode `b >= 32` means "to bit 31".
#[inline]
pub fn bmsk(pos: u32, width_: u32, clamp: bool) -> u32 {
    let a1 = pos & 0x1f;
    let mut mask0: u32 = u32::MAX << a1;
    let b1 = width_ & 0x1f;
    let sum = a1 + b1;
    let sum_overflow = sum >= 32;
    let mut pos_overflow = false;
    let mut width_overflow = false;
    if clamp {
        if pos >= 32 {
            pos_overflow = true;
            mask0 = 0;
        }
        if width_ >= 32 {
            width_overflow = true;
        }
    }
    let mask1: u32 = if sum_overflow || pos_overflow || width_overflow {
        0
    } else if b1 == 0 {
        u32::MAX
    } else {
        u32::MAX << sum // sum < 32 here
    };
    mask0 & !mask1
}
