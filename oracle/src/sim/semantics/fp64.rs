//! f64 SASS opcodes: DADD, DMUL, DFMA (with `.RN .RZ .RM .RP`), DSETP,
//! DMNMX. Values are the 64-bit contents of an even:odd register pair
//! (low word in the even register).
//!
//! NaN policy (shared `ptxc::float` for the arithmetic): an invalid
//! operation on non-NaN operands gives 0xfff8000000000000 (UNCONFIRMED on
//! hardware). A NaN operand propagates, the first one in operand order
//! (a, b, c), quieted, and it is the operand's *register* value: the `-` and
//! `|.|` source modifiers do not touch a NaN ([`nan_operand`]). Source: the
//! CUDA C++ Programming Guide ("Double-precision floating-point absolute
//! value and negation are not compliant with IEEE-754 with respect to NaNs;
//! these are passed through unchanged") together with ptxas 11.8's lowering
//! of `neg.f64` to `DADD d, -RZ, -a` and `abs.f64` to `DADD d, -RZ, |a|`
//! (measured: `ptxas -arch=sm_80`, and corpus double_noinline): for the
//! guide to hold, DADD must return the unmodified NaN. The interpreter's
//! `abs/neg.f64` quiet a signalling NaN to match (`ptxc::float::sign`); the
//! quieting itself is UNCONFIRMED. No `.FTZ`: f64 subnormals are always
//! supported.

use ptxc::float::{fp64, FloatType, MinMaxMods, Rounding};

use super::fmods::{MnmxMods, SetpMods};

/// The result of DADD/DMUL/DFMA when an operand is NaN: the first NaN
/// operand's register value (before source modifiers), quieted (module
/// comment); `None` when no operand is NaN.
#[inline]
pub fn nan_operand(raw: &[u64]) -> Option<u64> {
    raw.iter()
        .find(|&&x| FloatType::F64.is_nan(x))
        .map(|&x| x | FloatType::F64.quiet_bit())
}

/// `DADD{.rnd} d, a, b`.
#[inline]
pub fn dadd(a: u64, b: u64, rnd: Rounding) -> u64 {
    fp64::add(a, b, rnd, ptxc::float::Mods::NONE)
}

/// `DMUL{.rnd} d, a, b`.
#[inline]
pub fn dmul(a: u64, b: u64, rnd: Rounding) -> u64 {
    fp64::mul(a, b, rnd, ptxc::float::Mods::NONE)
}

/// `DFMA{.rnd} d, a, b, c` = a * b + c, one rounding.
#[inline]
pub fn dfma(a: u64, b: u64, c: u64, rnd: Rounding) -> u64 {
    fp64::fma(a, b, c, rnd, ptxc::float::Mods::NONE)
}

/// The bare comparison of DSETP (`m.ftz` is always false for DSETP).
#[inline]
pub fn dcmp(a: u64, b: u64, m: SetpMods) -> bool {
    m.cmp.eval(FloatType::F64, a, b, false)
}

/// `DSETP.cmp.bop P, Q, a, b, c`: `(r bop c, !r bop c)`.
#[inline]
pub fn dsetp(a: u64, b: u64, c: bool, m: SetpMods) -> (bool, bool) {
    m.bop.pair(dcmp(a, b, m), c)
}

/// `DMNMX d, a, b, p` (sm_80+; older targets use DSETP + FSEL): predicate
/// true = min. PTX `min.f64` semantics (one NaN -> the other operand, two
/// NaNs -> the first quieted, -0 < +0). UNCONFIRMED beyond the analogy with
/// FMNMX.
#[inline]
pub fn dmnmx(a: u64, b: u64, pick_min: bool, m: MnmxMods) -> u64 {
    let mm = MinMaxMods {
        ftz: false,
        nan: m.nan,
        xorsign_abs: false,
    };
    if pick_min {
        fp64::min(a, b, mm)
    } else {
        fp64::max(a, b, mm)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fmods::{BoolOp, FCmp};
    use super::*;
    use quickcheck::QuickCheck;
    use Rounding::*;

    const ONE: u64 = 0x3ff0_0000_0000_0000;
    const INF: u64 = 0x7ff0_0000_0000_0000;
    const NINF: u64 = 0xfff0_0000_0000_0000;
    const MAX: u64 = 0x7fef_ffff_ffff_ffff;
    const DNAN: u64 = 0xfff8_0000_0000_0000;

    fn d(x: u64) -> f64 {
        f64::from_bits(x)
    }

    #[test]
    fn rn_matches_host_quickcheck() {
        // Compare only non-NaN results (NaN bit patterns follow the GPU rule).
        fn add(a: u64, b: u64) -> bool {
            let h = d(a) + d(b);
            h.is_nan() || dadd(a, b, Rn) == h.to_bits()
        }
        fn mul(a: u64, b: u64) -> bool {
            let h = d(a) * d(b);
            h.is_nan() || dmul(a, b, Rn) == h.to_bits()
        }
        fn fma(a: u64, b: u64, c: u64) -> bool {
            let h = d(a).mul_add(d(b), d(c));
            h.is_nan() || dfma(a, b, c, Rn) == h.to_bits()
        }
        let mut qc = QuickCheck::new().tests(3000);
        qc.quickcheck(add as fn(u64, u64) -> bool);
        qc.quickcheck(mul as fn(u64, u64) -> bool);
        qc.quickcheck(fma as fn(u64, u64, u64) -> bool);
    }

    #[test]
    fn rn_matches_host_on_floats() {
        // Arbitrary f64 (not bit patterns) gives more ordinary values.
        fn prop(a: f64, b: f64, c: f64) -> bool {
            let (x, y, z) = (a.to_bits(), b.to_bits(), c.to_bits());
            let ok = |r: u64, h: f64| h.is_nan() || r == h.to_bits();
            ok(dadd(x, y, Rn), a + b)
                && ok(dmul(x, y, Rn), a * b)
                && ok(dfma(x, y, z, Rn), a.mul_add(b, c))
        }
        QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(f64, f64, f64) -> bool);
    }

    #[test]
    fn nan_payloads() {
        let qnan = 0x7ff8_0000_0000_1234;
        let snan = 0x7ff0_0000_0000_0001; // quiet bit clear
        assert_eq!(dadd(qnan, ONE, Rn), qnan);
        assert_eq!(dadd(ONE, snan, Rn), 0x7ff8_0000_0000_0001); // quieted
        assert_eq!(dmul(snan, qnan, Rn), 0x7ff8_0000_0000_0001); // first operand wins
        assert_eq!(
            dfma(ONE, ONE, 0xfff8_0000_0000_00ff, Rz),
            0xfff8_0000_0000_00ff
        );
        // Invalid operations: CUDART_NAN.
        assert_eq!(dadd(INF, NINF, Rn), DNAN);
        assert_eq!(dmul(0, NINF, Rn), DNAN);
        assert_eq!(dfma(INF, 0, ONE, Rn), DNAN);
        // abs.f64 lowering: DADD -RZ, |NaN| (sign already cleared by |.|).
        assert_eq!(
            dadd(1 << 63, 0x7ff8_0000_0000_0042, Rn),
            0x7ff8_0000_0000_0042
        );
    }

    #[test]
    fn zeros_and_subnormals() {
        let nz = 1u64 << 63;
        assert_eq!(dadd(0, nz, Rn), 0);
        assert_eq!(dadd(0, nz, Rm), nz);
        assert_eq!(dadd(nz, nz, Rp), nz);
        assert_eq!(dadd(ONE, ONE | nz, Rm), nz);
        // DADD -RZ, |x| is exact for any non-NaN x (abs lowering): -0 + +0 = +0.
        assert_eq!(dadd(nz, 0, Rn), 0);
        assert_eq!(dadd(nz, 0x4000_0000_0000_0000, Rn), 0x4000_0000_0000_0000);
        // Subnormals are kept: 2^-1074 + 2^-1074 = 2^-1073.
        assert_eq!(dadd(1, 1, Rn), 2);
        // 2^-1000 * 2^-60 = 2^-1060 = 2^14 * 2^-1074: subnormal 0x4000.
        let a = ((1023 - 1000) as u64) << 52;
        let b = ((1023 - 60) as u64) << 52;
        assert_eq!(dmul(a, b, Rn), 0x4000);
        // 2^-1074 * 0.5: exact result half the smallest subnormal: tie ->
        // even (0) under RN, 1 under RP, 0 under RZ/RM.
        let half = 0x3fe0_0000_0000_0000;
        assert_eq!(dmul(1, half, Rn), 0);
        assert_eq!(dmul(1, half, Rp), 1);
        assert_eq!(dmul(1, half, Rz), 0);
        assert_eq!(dmul(1 | nz, half, Rm), 1 | nz);
        // 3 * 2^-1074 * 0.5 = 1.5 * 2^-1074: tie between 1 and 2 -> 2.
        assert_eq!(dmul(3, half, Rn), 2);
    }

    #[test]
    fn rounding_ties_and_overflow() {
        let half_ulp = 0x3ca0_0000_0000_0000; // 2^-53
        assert_eq!(dadd(ONE, half_ulp, Rn), ONE);
        assert_eq!(dadd(ONE, half_ulp, Rz), ONE);
        assert_eq!(dadd(ONE, half_ulp, Rm), ONE);
        assert_eq!(dadd(ONE, half_ulp, Rp), ONE + 1);
        // 1 - 2^-54 is the midpoint of 1 - 2^-53 (odd) and 1 (even).
        let quarter = 0xbc90_0000_0000_0000; // -2^-54
        assert_eq!(dfma(ONE, ONE, quarter, Rm), 0x3fef_ffff_ffff_ffff);
        assert_eq!(dfma(ONE, ONE, quarter, Rz), 0x3fef_ffff_ffff_ffff);
        assert_eq!(dfma(ONE, ONE, quarter, Rn), ONE);
        assert_eq!(dfma(ONE, ONE, quarter, Rp), ONE);
        // (1 + 2^-52)^2 - RN((1 + 2^-52)^2) = 2^-104 (biased 919).
        let a = ONE + 1;
        assert_eq!(dmul(a, a, Rn), ONE + 2);
        assert_eq!(dfma(a, a, (ONE + 2) | (1 << 63), Rn), 919u64 << 52);
        let two = 0x4000_0000_0000_0000;
        assert_eq!(dmul(MAX, two, Rn), INF);
        assert_eq!(dmul(MAX, two, Rz), MAX);
        assert_eq!(dmul(MAX, two, Rm), MAX);
        assert_eq!(dmul(MAX, two, Rp), INF);
        assert_eq!(dmul(MAX | (1 << 63), two, Rp), MAX | (1 << 63));
        assert_eq!(dmul(MAX | (1 << 63), two, Rm), NINF);
    }

    fn sp(cmp: FCmp) -> SetpMods {
        SetpMods {
            cmp,
            ftz: false,
            bop: BoolOp::And,
            h_and: false,
            bf16: false,
        }
    }

    #[test]
    fn dsetp_cases() {
        let nan = 0x7ff8_0000_0000_0000;
        // Corpus forms: DSETP.GT |x|, RZ; DSETP.NEU |x|, +INF; DSETP.NE x, RZ.
        assert!(dcmp(ONE, 0, sp(FCmp::Gt)));
        assert!(!dcmp(nan, 0, sp(FCmp::Gt)));
        assert!(dcmp(nan, INF, sp(FCmp::Neu)));
        assert!(!dcmp(INF, INF, sp(FCmp::Neu)));
        assert!(!dcmp(nan, 0, sp(FCmp::Ne)));
        assert!(dcmp(nan, 0, sp(FCmp::Neu)));
        assert!(!dcmp(1 << 63, 0, sp(FCmp::Ne))); // -0 == +0
        assert!(dcmp(1, 0, sp(FCmp::Gt))); // subnormal > 0: no flush
        assert!(dcmp(nan, nan, sp(FCmp::Nan)));
        assert!(!dcmp(nan, ONE, sp(FCmp::Num)));
        assert!(dcmp(nan, ONE, sp(FCmp::T)));
        assert!(!dcmp(ONE, ONE, sp(FCmp::F)));
        assert_eq!(dsetp(ONE, 0, true, sp(FCmp::Gt)), (true, false));
        assert_eq!(dsetp(0, ONE, true, sp(FCmp::Gt)), (false, true));
    }

    #[test]
    fn dsetp_quickcheck_vs_host() {
        fn prop(a: f64, b: f64) -> bool {
            let (x, y) = (a.to_bits(), b.to_bits());
            dcmp(x, y, sp(FCmp::Lt)) == (a < b)
                && dcmp(x, y, sp(FCmp::Le)) == (a <= b)
                && dcmp(x, y, sp(FCmp::Eq)) == (a == b)
                && dcmp(x, y, sp(FCmp::Neu)) == (a != b)
                && dcmp(x, y, sp(FCmp::Geu))
                    == (a.partial_cmp(&b) != Some(std::cmp::Ordering::Less))
        }
        QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(f64, f64) -> bool);
    }

    #[test]
    fn dmnmx_cases() {
        let m = MnmxMods::default();
        let two = 0x4000_0000_0000_0000;
        let qnan = 0x7ff8_0000_0000_0005;
        assert_eq!(dmnmx(ONE, two, true, m), ONE);
        assert_eq!(dmnmx(ONE, two, false, m), two);
        assert_eq!(dmnmx(qnan, two, true, m), two);
        assert_eq!(dmnmx(0, 1 << 63, true, m), 1 << 63);
        assert_eq!(dmnmx(1 << 63, 0, false, m), 0);
        assert_eq!(dmnmx(qnan, 0x7ff0_0000_0000_0009, true, m), qnan);
    }
}
