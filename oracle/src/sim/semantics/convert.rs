//! Conversions: F2F, F2I, I2F, I2FP, F2FP, and FRND (all formats).
//!
//! Values are raw bit patterns in the low bits of a `u64` (16-bit formats in
//! bits 15:0, f32 in 31:0, f64/64-bit integers in all 64 bits, i.e. a
//! register pair). All rounding and special-value handling is the shared
//! `ptxc::float::convert` model; the only SASS-specific rule is F2I's NaN
//! result, which SASS spells explicitly with `.NTZ`.

use ptxc::float::{
    cvt_f2i, cvt_float, cvt_i2f, cvt_round_int, packed, CvtMods, FloatType, IntType,
};

use super::fmods::{F2fMods, F2fpMods, F2iMods, FrndMods, I2fMods};

/// `F2F{.FTZ}{.SAT}.dst.src{.rnd}`: float-to-float conversion (shared
/// `cvt_float`: widening exact; narrowing rounds with `rnd`; NaN to f64 keeps
/// the payload, to f16/bf16/f32 gives the canonical NaN; `.FTZ` flushes f32
/// inputs (except to f16, the hardware-observed `cvt.ftz.f16.f32` rule) and
/// f32 results; `.SAT` clamps to [+0, 1]). With an integer rounding
/// (`.ROUND/.TRUNC/.FLOOR/.CEIL`, same size only) it rounds to an integral
/// value like FRND.
///
/// Result placement: an f16/bf16 result is in bits 15:0 with bits 31:16
/// zero (UNCONFIRMED: what F2F.F16.F32 writes to the upper half of the
/// register is not settled; ptxas only stores the low 16 bits in the corpus).
#[inline]
pub fn f2f(x: u64, m: F2fMods) -> u64 {
    if m.int_round {
        return cvt_round_int(m.dst, x, m.rnd, m.ftz, m.sat);
    }
    let cm = CvtMods {
        ftz: m.ftz,
        sat: m.sat,
        relu: false,
        satfinite: false,
    };
    cvt_float(m.src, m.dst, x, m.rnd, cm)
}

/// Sign- or zero-extends a sub-32-bit integer result to the 32-bit register.
#[inline(always)]
fn widen(dst: IntType, v: u64) -> u64 {
    match dst.bits() {
        8 | 16 if dst.signed() => dst.value(v) as i32 as u32 as u64,
        _ => v,
    }
}

/// `F2I{.FTZ}.dst.src{.rnd}{.NTZ}`: float-to-integer conversion, clamped to
/// the destination range (shared `cvt_f2i`; +-inf -> MAX/MIN; `.FTZ`
/// flushes a subnormal f32 input first, which matters for `.CEIL/.FLOOR`).
///
/// NaN: with `.NTZ` ("NaN to zero") 0, otherwise `1 << (N-1)` (0x80000000,
/// 0x8000000000000000, ...). ptxas emits `.NTZ` exactly where the PTX rule
/// gives 0 (f32/f16 source and a destination of at most 32 bits: corpus
/// `F2I.TRUNC.NTZ`, `F2I.U32.NTZ` vs `F2I.S64.TRUNC`, `F2I.U64.TRUNC`,
/// `F2I.F64.TRUNC`, `F2I.U32.F64.CEIL`), so this agrees with the PTX
/// interpreter's `cvt` on every form ptxas generates (checked in the tests).
///
/// Result: 64-bit destinations fill the register pair; 32-bit ones the low
/// word; 8/16-bit results are written to the 32-bit register sign-extended
/// (signed) or zero-extended (unsigned). UNCONFIRMED for 8/16 bits.
#[inline]
pub fn f2i(x: u64, m: F2iMods) -> u64 {
    let xs = x & m.src.mask();
    if m.src.is_nan(xs) {
        let v = if m.ntz { 0 } else { 1u64 << (m.dst.bits() - 1) };
        return widen(m.dst, v);
    }
    widen(m.dst, cvt_f2i(m.src, xs, m.dst, m.rnd, m.ftz))
}

/// `I2F.dst.src{.rnd}`: integer-to-float conversion, correctly rounded
/// (shared `cvt_i2f`). The source is the low `src.bits()` bits of the
/// register (pair), sign- or zero-extended per `.S*`/`.U*` (UNCONFIRMED for
/// 8/16-bit sources: older SASS had byte selectors; sm_70+ spells only the
/// type). Zero gives +0.
#[inline]
pub fn i2f(x: u64, m: I2fMods) -> u64 {
    cvt_i2f(m.src, x, m.dst, m.rnd, false)
}

/// `I2FP.F32.{S32,U32}{.rnd}` (sm_86+; ptxas uses it for `cvt.rn.f32.s32`
/// and `.u32`): the same conversion as I2F, issued on the FMA pipe.
#[inline]
pub fn i2fp(x: u32, m: I2fMods) -> u32 {
    cvt_i2f(m.src, x as u64, FloatType::F32, m.rnd, false) as u32
}

/// `F2FP{.BF16|.F16}{.F32}.PACK_AB{.RELU}{.SATFINITE}{.rnd} d, a, b`: both f32
/// sources converted, `a` to the HIGH half and `b` to the low half (as PTX
/// `cvt.rn.f16x2.f32 d, a, b`; corpus: `F2FP.PACK_AB R6, RZ, R6` is
/// `cvt.rn.f16.f32`, the result in the low half and +0 above it).
#[inline]
pub fn f2fp(a: u32, b: u32, m: F2fpMods) -> u32 {
    let cm = CvtMods {
        ftz: false,
        sat: false,
        relu: m.relu,
        satfinite: m.satfinite,
    };
    packed::cvt_pack(m.dst, a, b, m.rnd, cm)
}

/// `FRND{.F16|.F64}{.rnd}{.FTZ}`: round to an integral value in the same
/// format (IEEE roundToIntegral, sign kept: FRND(-0.4) = -0; shared
/// `cvt_round_int`). NaN -> canonical (f16/f32) or the quieted input (f64).
#[inline]
pub fn frnd(x: u64, m: FrndMods) -> u64 {
    cvt_round_int(m.ty, x, m.rnd, m.ftz, false)
}

#[cfg(test)]
mod tests {
    use super::super::test_ref::*;
    use super::*;
    use ptxc::float::Rounding::{self, *};
    use quickcheck::{QuickCheck, TestResult};
    use FloatType::*;
    use IntType::*;

    fn fi(dst: IntType, src: FloatType, rnd: Rounding, ftz: bool, ntz: bool) -> F2iMods {
        F2iMods {
            dst,
            src,
            rnd,
            ftz,
            ntz,
        }
    }
    fn f32b(x: f32) -> u64 {
        x.to_bits() as u64
    }

    #[test]
    fn f2i_nan_rule() {
        let nan32 = 0x7fc0_0000u64;
        let nan64 = 0xfff8_0000_0000_0001u64;
        assert_eq!(f2i(nan32, fi(S32, F32, Rz, false, true)), 0);
        assert_eq!(f2i(nan32, fi(S32, F32, Rz, false, false)), 0x8000_0000);
        assert_eq!(f2i(nan32, fi(U32, F32, Rn, false, true)), 0);
        assert_eq!(f2i(nan32, fi(S64, F32, Rz, false, false)), 1 << 63);
        assert_eq!(f2i(nan32, fi(U64, F32, Rz, false, false)), 1 << 63);
        assert_eq!(f2i(nan64, fi(S32, F64, Rz, false, false)), 0x8000_0000);
        assert_eq!(f2i(nan64, fi(U32, F64, Rp, false, false)), 0x8000_0000);
        // 16-bit signed: 0x8000 = -32768, sign-extended (UNCONFIRMED).
        assert_eq!(f2i(nan32, fi(S16, F32, Rz, false, false)), 0xffff_8000);
        assert_eq!(f2i(nan32, fi(U16, F32, Rz, false, false)), 0x8000);
        // Agreement with the PTX cvt rule on every form ptxas emits: NTZ iff
        // source not f64 and destination not 64-bit.
        for src in [F16, F32, F64] {
            let nan = match src {
                F16 => 0x7e00,
                F32 => nan32,
                _ => nan64,
            };
            for dst in IntType::ALL {
                let ntz = src != F64 && dst.bits() != 64;
                let ptx = cvt_f2i(src, nan, dst, Rz, false);
                let sass = f2i(nan, fi(dst, src, Rz, false, ntz));
                assert_eq!(sass & dst.mask(), ptx, "{src:?} -> {dst:?}");
            }
        }
    }

    #[test]
    fn f2i_rounding_and_range() {
        let m = |d, r| fi(d, F32, r, false, true);
        // 2.5 and -2.5 under each rounding.
        for (x, rn, rz, rm, rp) in [
            (2.5f32, 2i32, 2, 2, 3),
            (-2.5, -2, -2, -3, -2),
            (3.5, 4, 3, 3, 4),
        ] {
            assert_eq!(f2i(f32b(x), m(S32, Rn)), rn as u32 as u64);
            assert_eq!(f2i(f32b(x), m(S32, Rz)), rz as u32 as u64);
            assert_eq!(f2i(f32b(x), m(S32, Rm)), rm as u32 as u64);
            assert_eq!(f2i(f32b(x), m(S32, Rp)), rp as u32 as u64);
        }
        // Out of range and infinities clamp.
        assert_eq!(f2i(f32b(3e9), m(S32, Rz)), 0x7fff_ffff);
        assert_eq!(f2i(f32b(3e9), m(U32, Rz)), 3_000_000_000);
        assert_eq!(f2i(f32b(-3e9), m(S32, Rz)), 0x8000_0000);
        assert_eq!(f2i(f32b(-1.5), m(U32, Rz)), 0);
        assert_eq!(f2i(f32b(-0.5), m(U32, Rm)), 0); // floor -1 clamps to 0
        assert_eq!(f2i(0x7f80_0000, m(S32, Rn)), 0x7fff_ffff);
        assert_eq!(f2i(0xff80_0000, m(S32, Rn)), 0x8000_0000);
        assert_eq!(f2i(0xff80_0000, m(U32, Rn)), 0);
        // 64-bit: 2^63 saturates S64, -2^63 exact, 2^64 saturates U64.
        let l = |d, r| fi(d, F32, r, false, false);
        assert_eq!(f2i(0x5f00_0000, l(S64, Rz)), i64::MAX as u64);
        assert_eq!(f2i(0xdf00_0000, l(S64, Rz)), i64::MIN as u64);
        assert_eq!(f2i(0x5f80_0000, l(U64, Rz)), u64::MAX);
        assert_eq!(f2i(0x5f7f_ffff, l(U64, Rz)), 0xffff_ff00_0000_0000);
        // f64 source: 2^31 - 0.5 RN -> tie -> 2^31 (even) -> clamps to MAX.
        let d = |r| fi(S32, F64, r, false, false);
        assert_eq!(f2i(2147483647.5f64.to_bits(), d(Rn)), 0x7fff_ffff);
        assert_eq!(f2i((-2147483648.5f64).to_bits(), d(Rn)), 0x8000_0000);
        assert_eq!(f2i((-2147483649.0f64).to_bits(), d(Rz)), 0x8000_0000);
        assert_eq!(f2i(2.5f64.to_bits(), fi(U32, F64, Rp, false, false)), 3);
        // Small destinations (sign-extended, UNCONFIRMED).
        assert_eq!(f2i(f32b(40000.0), m(S16, Rz)), 0x7fff);
        assert_eq!(f2i(f32b(-40000.0), m(S16, Rz)), 0xffff_8000);
        assert_eq!(f2i(f32b(-5.0), m(S8, Rz)), 0xffff_fffb);
        assert_eq!(f2i(f32b(300.0), m(U8, Rz)), 0xff);
        assert_eq!(f2i(f32b(-1.0), m(U8, Rz)), 0);
        // FTZ: CEIL(2^-149) = 1 without, 0 with; FLOOR(-2^-149) = -1 / 0.
        assert_eq!(f2i(1, m(S32, Rp)), 1);
        assert_eq!(f2i(1, fi(S32, F32, Rp, true, true)), 0);
        assert_eq!(f2i(0x8000_0001, m(S32, Rm)), 0xffff_ffff);
        assert_eq!(f2i(0x8000_0001, fi(S32, F32, Rm, true, true)), 0);
        // f16 source: 0x4500 = 5.0.
        assert_eq!(f2i(0x4500, fi(S32, F16, Rz, false, true)), 5);
    }

    #[test]
    fn f2i_quickcheck_vs_host() {
        // Rust's float -> int `as` saturates and maps NaN to 0: the NTZ rule.
        fn p32(x: u32) -> bool {
            let v = f32::from_bits(x);
            let m = |d, r| fi(d, F32, r, false, true);
            f2i(x as u64, m(S32, Rz)) == v as i32 as u32 as u64
                && f2i(x as u64, m(U32, Rz)) == v as u32 as u64
                && f2i(x as u64, m(S32, Rm)) == v.floor() as i32 as u32 as u64
                && f2i(x as u64, m(S32, Rp)) == v.ceil() as i32 as u32 as u64
                && f2i(x as u64, m(S32, Rn)) == v.round_ties_even() as i32 as u32 as u64
                && f2i(x as u64, m(U32, Rp)) == v.ceil() as u32 as u64
        }
        fn p64(x: f64) -> TestResult {
            if x.is_nan() {
                return TestResult::discard();
            }
            let m = |d, r| fi(d, F64, r, false, false);
            let b = x.to_bits();
            TestResult::from_bool(
                f2i(b, m(S64, Rz)) == x as i64 as u64
                    && f2i(b, m(U64, Rm)) == x.floor() as u64
                    && f2i(b, m(S32, Rn)) == x.round_ties_even() as i32 as u32 as u64
                    && f2i(b, m(U32, Rp)) == x.ceil() as u32 as u64,
            )
        }
        QuickCheck::new()
            .tests(3000)
            .quickcheck(p32 as fn(u32) -> bool);
        QuickCheck::new()
            .tests(3000)
            .quickcheck(p64 as fn(f64) -> TestResult);
    }

    fn i2(dst: FloatType, src: IntType, rnd: Rounding) -> I2fMods {
        I2fMods { dst, src, rnd }
    }

    #[test]
    fn i2f_extremes_each_rounding() {
        // INT_MIN = -2^31 is exact: 0xcf000000 in every mode.
        for r in Rounding::ALL {
            assert_eq!(i2f(0x8000_0000, i2(F32, S32, r)), 0xcf00_0000);
            assert_eq!(i2f(1 << 63, i2(F32, S64, r)), 0xdf00_0000);
            assert_eq!(i2f(1 << 63, i2(F64, S64, r)), 0xc3e0_0000_0000_0000);
            assert_eq!(i2f(0, i2(F32, S32, r)), 0);
        }
        // u64::MAX = 2^64 - 1: RN/RP -> 2^64 (0x5f800000), RZ/RM -> 2^64 - 2^40
        // (0x5f7fffff).
        assert_eq!(i2f(u64::MAX, i2(F32, U64, Rn)), 0x5f80_0000);
        assert_eq!(i2f(u64::MAX, i2(F32, U64, Rp)), 0x5f80_0000);
        assert_eq!(i2f(u64::MAX, i2(F32, U64, Rz)), 0x5f7f_ffff);
        assert_eq!(i2f(u64::MAX, i2(F32, U64, Rm)), 0x5f7f_ffff);
        // To f64: RN/RP 2^64 (0x43f0...), RZ/RM 2^64 - 2^11 (0x43ef_ffff_ffff_ffff).
        assert_eq!(i2f(u64::MAX, i2(F64, U64, Rn)), 0x43f0_0000_0000_0000);
        assert_eq!(i2f(u64::MAX, i2(F64, U64, Rz)), 0x43ef_ffff_ffff_ffff);
        assert_eq!(i2f(u64::MAX, i2(F64, U64, Rm)), 0x43ef_ffff_ffff_ffff);
        assert_eq!(i2f(u64::MAX, i2(F64, U64, Rp)), 0x43f0_0000_0000_0000);
        // i64::MAX = 2^63 - 1 to f32: RN/RP 2^63, RZ/RM 2^63 - 2^39.
        assert_eq!(i2f(i64::MAX as u64, i2(F32, S64, Rn)), 0x5f00_0000);
        assert_eq!(i2f(i64::MAX as u64, i2(F32, S64, Rz)), 0x5eff_ffff);
        assert_eq!(i2f(i64::MAX as u64, i2(F32, S64, Rm)), 0x5eff_ffff);
        assert_eq!(i2f(i64::MAX as u64, i2(F32, S64, Rp)), 0x5f00_0000);
        // -(2^63 - 1) to f32: RM -> -2^63, RP/RZ -> -(2^63 - 2^39).
        let m = (-i64::MAX) as u64;
        assert_eq!(i2f(m, i2(F32, S64, Rm)), 0xdf00_0000);
        assert_eq!(i2f(m, i2(F32, S64, Rp)), 0xdeff_ffff);
        assert_eq!(i2f(m, i2(F32, S64, Rz)), 0xdeff_ffff);
        // u32::MAX: RN 2^32 (0x4f800000), RZ 0x4f7fffff.
        assert_eq!(i2f(0xffff_ffff, i2(F32, U32, Rn)), 0x4f80_0000);
        assert_eq!(i2f(0xffff_ffff, i2(F32, U32, Rz)), 0x4f7f_ffff);
        // Same bits as S32 = -1.
        assert_eq!(i2f(0xffff_ffff, i2(F32, S32, Rn)), 0xbf80_0000);
        // Ties: 2^24 + 1 -> 2^24 (even) under RN; 2^24 + 3 -> 2^24 + 4.
        assert_eq!(i2f(16_777_217, i2(F32, S32, Rn)), 0x4b80_0000);
        assert_eq!(i2f(16_777_217, i2(F32, S32, Rp)), 0x4b80_0001);
        assert_eq!(i2f(16_777_217, i2(F32, S32, Rm)), 0x4b80_0000);
        assert_eq!(i2f(16_777_219, i2(F32, S32, Rn)), 0x4b80_0002);
        assert_eq!(
            i2f((-16_777_217i32) as u32 as u64, i2(F32, S32, Rm)),
            0xcb80_0001
        );
        assert_eq!(
            i2f((-16_777_217i32) as u32 as u64, i2(F32, S32, Rz)),
            0xcb80_0000
        );
    }

    #[test]
    fn i2f_narrow_sources_and_f16() {
        // Only the low bits count; S16 0x8000 = -32768 (-2^15 = 0xc7000000).
        assert_eq!(i2f(0xdead_8000, i2(F32, S16, Rn)), 0xc700_0000);
        assert_eq!(i2f(0xdead_8000, i2(F32, U16, Rn)), 0x4700_0000);
        assert_eq!(i2f(0x1234_00ff, i2(F32, S8, Rn)), 0xbf80_0000);
        assert_eq!(i2f(0x1234_00ff, i2(F32, U8, Rn)), 0x437f_0000);
        // 64-bit register pair: the upper word matters for S64 only.
        assert_eq!(i2f(0x0000_0001_0000_0000, i2(F32, S64, Rn)), 0x4f80_0000);
        assert_eq!(i2f(0x0000_0001_0000_0000, i2(F32, S32, Rn)), 0);
        // To f16: 65519 < 65520 -> MAX; 65520 -> inf; RZ of 70000 -> MAX;
        // 2049 is a tie between 2048 (0x6800) and 2050 -> 2048.
        assert_eq!(i2f(65519, i2(F16, U32, Rn)), 0x7bff);
        assert_eq!(i2f(65520, i2(F16, U32, Rn)), 0x7c00);
        assert_eq!(i2f(70000, i2(F16, S32, Rz)), 0x7bff);
        assert_eq!(i2f((-70000i32) as u32 as u64, i2(F16, S32, Rm)), 0xfc00);
        assert_eq!(i2f(2049, i2(F16, S32, Rn)), 0x6800);
        assert_eq!(i2f(2049, i2(F16, S32, Rp)), 0x6801);
        // I2FP = I2F on the F32.S32/U32 forms.
        assert_eq!(
            i2fp(0x8000_0001, i2(F32, S32, Rn)),
            ((i32::MIN + 1) as f32).to_bits()
        );
        assert_eq!(i2fp(0xffff_ffff, i2(F32, U32, Rz)), 0x4f7f_ffff);
    }

    #[test]
    fn i2f_quickcheck_vs_host() {
        // Host `as` from integers rounds to nearest even.
        fn prop(x: u64) -> bool {
            let lo = x as u32;
            i2f(x, i2(F32, S32, Rn)) == (lo as i32 as f32).to_bits() as u64
                && i2f(x, i2(F32, U32, Rn)) == (lo as f32).to_bits() as u64
                && i2f(x, i2(F32, S64, Rn)) == (x as i64 as f32).to_bits() as u64
                && i2f(x, i2(F32, U64, Rn)) == (x as f32).to_bits() as u64
                && i2f(x, i2(F64, S64, Rn)) == (x as i64 as f64).to_bits()
                && i2f(x, i2(F64, U64, Rn)) == (x as f64).to_bits()
                && i2f(x, i2(F64, S32, Rz)) == (lo as i32 as f64).to_bits()
                && i2fp(lo, i2(F32, U32, Rn)) == (lo as f32).to_bits()
        }
        QuickCheck::new()
            .tests(3000)
            .quickcheck(prop as fn(u64) -> bool);
    }

    fn ff(dst: FloatType, src: FloatType, rnd: Rounding) -> F2fMods {
        F2fMods {
            dst,
            src,
            rnd,
            int_round: false,
            ftz: false,
            sat: false,
        }
    }

    #[test]
    fn f2f_f64_to_f32() {
        // 1 + 2^-24: midpoint of 1.0 and 1 + 2^-23.
        let tie = 1.0f64 + 2f64.powi(-24);
        assert_eq!(f2f(tie.to_bits(), ff(F32, F64, Rn)), 0x3f80_0000);
        assert_eq!(f2f(tie.to_bits(), ff(F32, F64, Rz)), 0x3f80_0000);
        assert_eq!(f2f(tie.to_bits(), ff(F32, F64, Rm)), 0x3f80_0000);
        assert_eq!(f2f(tie.to_bits(), ff(F32, F64, Rp)), 0x3f80_0001);
        // 1 + 3*2^-24: midpoint of mantissas 1 and 2 -> 2.
        let tie2 = 1.0f64 + 3.0 * 2f64.powi(-24);
        assert_eq!(f2f(tie2.to_bits(), ff(F32, F64, Rn)), 0x3f80_0002);
        assert_eq!(f2f((-tie2).to_bits(), ff(F32, F64, Rz)), 0xbf80_0001);
        assert_eq!(f2f((-tie2).to_bits(), ff(F32, F64, Rm)), 0xbf80_0002);
        // Overflow: 1e39.
        assert_eq!(f2f(1e39f64.to_bits(), ff(F32, F64, Rn)), 0x7f80_0000);
        assert_eq!(f2f(1e39f64.to_bits(), ff(F32, F64, Rz)), 0x7f7f_ffff);
        assert_eq!(f2f(1e39f64.to_bits(), ff(F32, F64, Rm)), 0x7f7f_ffff);
        assert_eq!(f2f(1e39f64.to_bits(), ff(F32, F64, Rp)), 0x7f80_0000);
        assert_eq!(f2f((-1e39f64).to_bits(), ff(F32, F64, Rm)), 0xff80_0000);
        assert_eq!(f2f((-1e39f64).to_bits(), ff(F32, F64, Rp)), 0xff7f_ffff);
        // MAX = (2^24 - 1) * 2^104: MAX + 2^102 (below the midpoint) -> MAX;
        // MAX + 2^103 (the midpoint; MAX's mantissa is odd) -> inf.
        let near = f64::from(f32::MAX) + 2f64.powi(102);
        assert_eq!(f2f(near.to_bits(), ff(F32, F64, Rn)), 0x7f7f_ffff);
        let mid = f64::from(f32::MAX) + 2f64.powi(103);
        assert_eq!(f2f(mid.to_bits(), ff(F32, F64, Rn)), 0x7f80_0000);
        assert_eq!(f2f(mid.to_bits(), ff(F32, F64, Rz)), 0x7f7f_ffff);
        // Subnormal results: 1.5 * 2^-149 -> tie -> 2 * 2^-149 (even).
        let s = 1.5 * 2f64.powi(-149);
        assert_eq!(f2f(s.to_bits(), ff(F32, F64, Rn)), 2);
        assert_eq!(f2f(s.to_bits(), ff(F32, F64, Rz)), 1);
        // FTZ flushes the f32 result.
        let ftz = F2fMods {
            ftz: true,
            ..ff(F32, F64, Rn)
        };
        assert_eq!(f2f(s.to_bits(), ftz), 0);
        assert_eq!(f2f((-s).to_bits(), ftz), 0x8000_0000);
        // 2^-1074 -> 0 (RN), 2^-149 (RP).
        assert_eq!(f2f(1, ff(F32, F64, Rn)), 0);
        assert_eq!(f2f(1, ff(F32, F64, Rp)), 1);
        assert_eq!(f2f(1 | 1 << 63, ff(F32, F64, Rm)), 0x8000_0001);
        // NaN -> canonical f32 NaN; inf, zeros keep sign.
        assert_eq!(f2f(0xfff8_0000_0000_1234, ff(F32, F64, Rn)), 0x7fff_ffff);
        assert_eq!(f2f(0xfff0_0000_0000_0000, ff(F32, F64, Rz)), 0xff80_0000);
        assert_eq!(f2f(1 << 63, ff(F32, F64, Rn)), 0x8000_0000);
        // SAT.
        let sat = F2fMods {
            sat: true,
            ..ff(F32, F64, Rn)
        };
        assert_eq!(f2f(1.5f64.to_bits(), sat), 0x3f80_0000);
        assert_eq!(f2f((-0.5f64).to_bits(), sat), 0);
        assert_eq!(f2f(0x7ff8_0000_0000_0000, sat), 0);
    }

    #[test]
    fn f2f_f32_to_f64() {
        // Exact; NaN payload kept (fraction << 29, UNCONFIRMED model choice).
        assert_eq!(f2f(0x3f80_0000, ff(F64, F32, Rn)), 0x3ff0_0000_0000_0000);
        assert_eq!(f2f(1, ff(F64, F32, Rn)), 874u64 << 52); // 2^-149
        assert_eq!(f2f(0x7fc0_0001, ff(F64, F32, Rn)), 0x7ff8_0000_2000_0000);
        let ftz = F2fMods {
            ftz: true,
            ..ff(F64, F32, Rn)
        };
        assert_eq!(f2f(1, ftz), 0);
        assert_eq!(f2f(0x8000_0001, ftz), 1 << 63);
    }

    #[test]
    fn f2f_quickcheck() {
        fn p(x: u32, y: u64) -> bool {
            let fx = f32::from_bits(x);
            let fy = f64::from_bits(y);
            let up = f2f(x as u64, ff(F64, F32, Rn));
            let down = f2f(y, ff(F32, F64, Rn));
            (fx.is_nan() || up == (fx as f64).to_bits())
                && (fy.is_nan() || down == (fy as f32).to_bits() as u64)
        }
        fn p16(x: u32) -> TestResult {
            let v = f32::from_bits(x);
            if v.is_nan() {
                return TestResult::discard();
            }
            let exp = |bf: bool| {
                if v.is_infinite() {
                    if bf {
                        (x >> 16) as u16
                    } else {
                        ((x >> 16) as u16 & 0x8000) | 0x7c00
                    }
                } else {
                    round16_from_f64(v as f64, bf)
                }
            };
            TestResult::from_bool(
                f2f(x as u64, ff(F16, F32, Rn)) == exp(false) as u64
                    && f2f(x as u64, ff(Bf16, F32, Rn)) == exp(true) as u64
                    && f2fp(
                        x,
                        x,
                        F2fpMods {
                            dst: F16,
                            rnd: Rn,
                            relu: false,
                            satfinite: false,
                        },
                    ) == (exp(false) as u32) * 0x1_0001,
            )
        }
        QuickCheck::new()
            .tests(3000)
            .quickcheck(p as fn(u32, u64) -> bool);
        QuickCheck::new()
            .tests(3000)
            .quickcheck(p16 as fn(u32) -> TestResult);
    }

    #[test]
    fn f2f_half_formats() {
        // f16 -> f32 exhaustively exact.
        for h in 0..=0xffffu16 {
            if !f16_finite(h) {
                continue;
            }
            let r = f2f(h as u64, ff(F32, F16, Rn));
            assert_eq!(r, (f16_to_f64(h) as f32).to_bits() as u64, "{h:#x}");
        }
        // f32 -> f16: 65535 -> inf (RN), MAX (RZ); 2^-25 -> tie -> +0 (RN),
        // 2^-24 (RP); 1.5 * 2^-24 -> 2 * 2^-24.
        assert_eq!(f2f(f32b(65535.0), ff(F16, F32, Rn)), 0x7c00);
        assert_eq!(f2f(f32b(65535.0), ff(F16, F32, Rz)), 0x7bff);
        assert_eq!(f2f(f32b(-65535.0), ff(F16, F32, Rp)), 0xfbff);
        assert_eq!(f2f(f32b(2f32.powi(-25)), ff(F16, F32, Rn)), 0);
        assert_eq!(f2f(f32b(2f32.powi(-25)), ff(F16, F32, Rp)), 1);
        assert_eq!(f2f(f32b(1.5 * 2f32.powi(-24)), ff(F16, F32, Rn)), 2);
        // NaN -> canonical 0x7fff.
        assert_eq!(f2f(0xffc0_0000, ff(F16, F32, Rn)), 0x7fff);
        // f64 -> f16 vs the reference on a spread of values.
        for v in [
            1.0e-8f64,
            3.0e-5,
            0.1,
            1.0 / 3.0,
            2047.5,
            2049.0,
            65504.0,
            65519.99,
            -7.777,
        ] {
            assert_eq!(
                f2f(v.to_bits(), ff(F16, F64, Rn)),
                round16_from_f64(v, false) as u64,
                "{v}"
            );
        }
        // bf16: 1 + 2^-8 (tie) -> 1.0 (0x3f80); 1 + 3 * 2^-8 -> 0x3f82.
        assert_eq!(f2f(f32b(1.0 + 2f32.powi(-8)), ff(Bf16, F32, Rn)), 0x3f80);
        assert_eq!(
            f2f(f32b(1.0 + 3.0 * 2f32.powi(-8)), ff(Bf16, F32, Rn)),
            0x3f82
        );
        assert_eq!(
            f2f(f32b(1.0 + 3.0 * 2f32.powi(-8)), ff(Bf16, F32, Rz)),
            0x3f81
        );
        // Same-size integer rounding.
        let ir = |t, r| F2fMods {
            int_round: true,
            ..ff(t, t, r)
        };
        assert_eq!(f2f((-0.5f64).to_bits(), ir(F64, Rm)), (-1.0f64).to_bits());
        assert_eq!(f2f(f32b(2.5), ir(F32, Rn)), f32b(2.0));
        assert_eq!(f2f(0x4100, ir(F16, Rp)), 0x4200); // 2.5 -> 3.0
    }

    #[test]
    fn f2fp_forms() {
        let f = |x: f32| x.to_bits();
        let m = F2fpMods {
            dst: F16,
            rnd: Rn,
            relu: false,
            satfinite: false,
        };
        // F2FP.PACK_AB R, RZ, x = cvt.rn.f16.f32: low half only.
        assert_eq!(f2fp(0, f(1.0), m), 0x0000_3c00);
        // a -> high half, b -> low half.
        assert_eq!(f2fp(f(2.0), f(1.0), m), 0x4000_3c00);
        let b = F2fpMods { dst: Bf16, ..m };
        assert_eq!(f2fp(f(1.0), f(2.0), b), 0x3f80_4000);
        // bf16 RN of 0x3f808000 (tie, even low) -> 0x3f80; 0x3f818000 -> 0x3f82.
        assert_eq!(f2fp(0x3f80_8000, 0x3f81_8000, b), 0x3f80_3f82);
        let relu = F2fpMods { relu: true, ..m };
        assert_eq!(f2fp(f(-1.0), 0x7fc0_0000, relu), 0x0000_7fff);
        let sf = F2fpMods {
            satfinite: true,
            ..m
        };
        assert_eq!(f2fp(f(1e6), 0xff80_0000, sf), 0x7bff_fbff);
        let rz = F2fpMods { rnd: Rz, ..m };
        assert_eq!(
            f2fp(f(65535.0), f(1.0 + 2f32.powi(-11) * 1.5), rz),
            0x7bff_3c00
        );
    }

    #[test]
    fn frnd_all_formats() {
        fn p(x: f64) -> bool {
            let b = x.to_bits();
            let m = |r| FrndMods {
                ty: F64,
                rnd: r,
                ftz: false,
            };
            let ok = |r: u64, h: f64| {
                if h.is_nan() {
                    FloatType::F64.is_nan(r)
                } else {
                    r == h.to_bits()
                }
            };
            ok(frnd(b, m(Rz)), x.trunc())
                && ok(frnd(b, m(Rm)), x.floor())
                && ok(frnd(b, m(Rp)), x.ceil())
                && ok(frnd(b, m(Rn)), x.round_ties_even())
        }
        QuickCheck::new()
            .tests(3000)
            .quickcheck(p as fn(f64) -> bool);
        let m = |ty, r| FrndMods {
            ty,
            rnd: r,
            ftz: false,
        };
        // f64 NaN keeps its payload (quieted).
        assert_eq!(
            frnd(0x7ff0_0000_0000_0001, m(F64, Rn)),
            0x7ff8_0000_0000_0001
        );
        // f64 2^52 + 0.5 does not exist; 4503599627370495.5 RN -> ...496 (even).
        assert_eq!(
            frnd(4503599627370495.5f64.to_bits(), m(F64, Rn)),
            4503599627370496.0f64.to_bits()
        );
        assert_eq!(
            frnd(4503599627370495.5f64.to_bits(), m(F64, Rz)),
            4503599627370495.0f64.to_bits()
        );
        // f16: 0x3c00 + half = 1.5 (0x3e00) -> RN 2.0 (0x4000), RZ 1.0.
        assert_eq!(frnd(0x3e00, m(F16, Rn)), 0x4000);
        assert_eq!(frnd(0x3e00, m(F16, Rz)), 0x3c00);
        assert_eq!(frnd(0xbe00, m(F16, Rm)), 0xc000);
        assert_eq!(frnd(0x7e01, m(F16, Rn)), 0x7fff);
    }
}
