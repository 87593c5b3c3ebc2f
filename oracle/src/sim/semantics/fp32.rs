//! f32 SASS opcodes: FADD, FMUL, FFMA, FMNMX, FSETP, FSET, FCHK, FRND.
//!
//! All arithmetic goes through `ptxc::float` (one model shared with the PTX
//! interpreter): NaN results are the canonical 0x7fffffff, `.FTZ` flushes
//! subnormal inputs and results (after rounding) to sign-preserving zero,
//! `.SAT` clamps to [+0, 1] with NaN and -0 -> +0. Operands arrive with their
//! source modifiers already applied (`src_mods`).
//!
//! FSEL is a plain select and is left to the caller.

use ptxc::float::{fp32, FloatType, MinMaxMods};

use super::fmods::{ArithMods, FrndMods, MnmxMods, SetMods, SetpMods};

const F32: FloatType = FloatType::F32;

/// `FADD{.rnd}{.FTZ}{.SAT} d, a, b`.
#[inline]
pub fn fadd(a: u32, b: u32, m: ArithMods) -> u32 {
    fp32::add(a, b, m.rnd, m.mods())
}

/// `FMUL{.rnd}{.FTZ}{.SAT} d, a, b`.
#[inline]
pub fn fmul(a: u32, b: u32, m: ArithMods) -> u32 {
    fp32::mul(a, b, m.rnd, m.mods())
}

/// `FFMA{.rnd}{.FTZ}{.SAT} d, a, b, c` = a * b + c, one rounding.
#[inline]
pub fn ffma(a: u32, b: u32, c: u32, m: ArithMods) -> u32 {
    fp32::fma(a, b, c, m.rnd, m.mods())
}

/// `FMNMX{.FTZ}{.NAN} d, a, b, p`: `pick_min` is the value of the predicate
/// operand (PT = min, !PT = max; docs/SEMANTICS.md, Float instructions; the corpus has
/// e.g. `FMNMX R, RZ, R, !PT`, i.e. max(0, x)). One NaN operand gives the other
/// operand, two give 0x7fffffff, `.NAN` makes any NaN give 0x7fffffff; -0 <
/// +0 (PTX min/max; hardware behaviour on NaN/-0 UNCONFIRMED beyond the fact
/// that ptxas lowers `min.f32`/`max.f32` to a bare FMNMX).
#[inline]
pub fn fmnmx(a: u32, b: u32, pick_min: bool, m: MnmxMods) -> u32 {
    let mm = MinMaxMods {
        ftz: m.ftz,
        nan: m.nan,
        xorsign_abs: false,
    };
    if pick_min {
        fp32::min(a, b, mm)
    } else {
        fp32::max(a, b, mm)
    }
}

/// `.XORSIGN` of FMNMX/HMNMX2, one lane of `bits` bits: the min/max
/// result `r` (computed from the operands as modified, `|a|` and `|b|` in
/// ptxas's form) with its sign bit replaced by sign(`sa`) XOR sign(`sb`),
/// the operands before `|.|`; a NaN result is left alone. ptxas 11.8
/// lowers PTX `min`/`max.xorsign.abs` (ISA: magnitude min/max(|a|, |b|),
/// sign sign(a) XOR sign(b) unless NaN) to `FMNMX.XORSIGN d, |a|, |b|` and
/// `HMNMX2{.BF16_V2}.XORSIGN d, |a|, |b|` (sm_86..sm_90): the sign can only
/// come from before the `|.|`. Other operand forms are UNCONFIRMED.
#[inline]
pub fn xorsign(ty: FloatType, r: u64, sa: u64, sb: u64) -> u64 {
    if ty.is_nan(r) {
        return r;
    }
    let s = ty.sign_mask();
    (r & !s) | ((sa ^ sb) & s)
}

/// The bare comparison of FSETP/FSET (before the `.AND/.OR/.XOR` with the
/// predicate source).
#[inline]
pub fn fcmp(a: u32, b: u32, m: SetpMods) -> bool {
    m.cmp.eval(F32, a as u64, b as u64, m.ftz)
}

/// `FSETP.cmp{.FTZ}.bop P, Q, a, b, c`: `(P, Q)` = `(r bop c, !r bop c)`.
#[inline]
pub fn fsetp(a: u32, b: u32, c: bool, m: SetpMods) -> (bool, bool) {
    m.bop.pair(fcmp(a, b, m), c)
}

/// `FSET{.BF}.cmp{.FTZ}.bop d, a, b, c`: `r bop c` as 0xffffffff/0, or with
/// `.BF` as 1.0f (0x3f800000)/+0.0.
#[inline]
pub fn fset(a: u32, b: u32, c: bool, m: SetMods) -> u32 {
    let r = m.setp.bop.apply(fcmp(a, b, m.setp), c);
    match (r, m.bf) {
        (false, _) => 0,
        (true, false) => u32::MAX,
        (true, true) => 0x3f80_0000,
    }
}

/// `FCHK.DIVIDE P, a, b`: true when the fast division path that ptxas
/// emits for `div.rn.f32` (`MUFU.RCP r, b`; `FFMA t, -b, r, 1`; `FFMA r', r,
/// t, r`; `FFMA q, a, r', RZ`; `FFMA e, -b, q, a`; `FFMA d, r', e, q`) might
/// not give the correctly rounded a/b, so the code branches to the exact
/// (integer-based) slow path.
///
/// The hardware's exact condition is not documented (docs/SEMANTICS.md lists it
/// as unconfirmed). Rule chosen here, on the biased exponent fields `ea`,
/// `eb` (1..=254 for normal numbers):
///
/// * `ea` or `eb` is 0 or 255: a or b is zero, subnormal, infinite or NaN;
/// * `eb >= 253`: |b| >= 2^126, the reciprocal 1/b is (almost) subnormal
///   and MUFU.RCP flushes it;
/// * `ea <= 25`: |a| < 2^-101, the residual `a - b*q` (about ulp(a)) may
///   fall below the normal range and lose bits;
/// * `ea - eb >= 126` or `ea - eb <= -125`: the quotient (in (2^(ea-eb-1),
///   2^(ea-eb+1))) may overflow or be subnormal.
///
/// This is CONSERVATIVE by design: it may answer true where the hardware
/// answers false, never (intentionally) the reverse. That is safe because
/// the slow path computes the correctly rounded quotient for every input, as
/// does the fast path wherever it is taken, so the final result of the
/// division is the same either way; only the path (instruction count) can
/// differ from hardware. The fast path's correctness outside the rule is
/// checked in the tests by running the sequence on the shared FFMA and
/// MUFU.RCP models.
#[inline]
pub fn fchk(a: u32, b: u32) -> bool {
    let ea = ((a >> 23) & 0xff) as i32;
    let eb = ((b >> 23) & 0xff) as i32;
    if ea == 0 || ea == 0xff || eb == 0 || eb == 0xff {
        return true;
    }
    if eb >= 253 || ea <= 25 {
        return true;
    }
    let d = ea - eb;
    !(-124..=125).contains(&d)
}

/// `FRND{.rnd}{.FTZ} d, a` on f32 (`m.ty` must be F32; see
/// [`super::convert::frnd`] for the generic form).
#[inline]
pub fn frnd(a: u32, m: FrndMods) -> u32 {
    debug_assert_eq!(m.ty, F32);
    fp32::round_int(a, m.rnd, m.ftz, false)
}

#[cfg(test)]
mod tests {
    use super::super::fmods::{BoolOp, FCmp};
    use super::*;
    use ptxc::float::Rounding::{self, *};
    use quickcheck::{QuickCheck, TestResult};

    const NAN: u32 = 0x7fff_ffff;
    const INF: u32 = 0x7f80_0000;
    const NINF: u32 = 0xff80_0000;
    const MAX: u32 = 0x7f7f_ffff;
    const ONE: u32 = 0x3f80_0000;

    fn am(rnd: Rounding, ftz: bool, sat: bool) -> ArithMods {
        ArithMods { rnd, ftz, sat }
    }
    fn rn() -> ArithMods {
        am(Rn, false, false)
    }
    fn host(x: f32) -> u32 {
        if x.is_nan() {
            NAN
        } else {
            x.to_bits()
        }
    }
    fn f(x: u32) -> f32 {
        f32::from_bits(x)
    }

    #[test]
    fn rn_matches_host_quickcheck() {
        fn add(a: u32, b: u32) -> bool {
            fadd(a, b, rn()) == host(f(a) + f(b))
        }
        fn mul(a: u32, b: u32) -> bool {
            fmul(a, b, rn()) == host(f(a) * f(b))
        }
        fn fma(a: u32, b: u32, c: u32) -> bool {
            ffma(a, b, c, rn()) == host(f(a).mul_add(f(b), f(c)))
        }
        let mut qc = QuickCheck::new().tests(3000);
        qc.quickcheck(add as fn(u32, u32) -> bool);
        qc.quickcheck(mul as fn(u32, u32) -> bool);
        qc.quickcheck(fma as fn(u32, u32, u32) -> bool);
    }

    #[test]
    fn nan_results_are_canonical() {
        // Any NaN operand or invalid operation gives 0x7fffffff.
        assert_eq!(fadd(0x7fc0_1234, ONE, rn()), NAN);
        assert_eq!(fadd(ONE, 0xff80_0001, rn()), NAN); // signalling, negative
        assert_eq!(fadd(INF, NINF, rn()), NAN); // inf - inf
        assert_eq!(fmul(0, INF, rn()), NAN); // 0 * inf
        assert_eq!(ffma(0, INF, ONE, rn()), NAN);
        assert_eq!(ffma(ONE, ONE, 0xffc0_0000, am(Rz, true, false)), NAN);
        // FADD |x|, -RZ on a NaN (abs.f32 lowering) -> canonical.
        assert_eq!(fadd(0x7f80_0001, 0x8000_0000, rn()), NAN);
        // .SAT maps NaN to +0.
        assert_eq!(fadd(INF, NINF, am(Rn, false, true)), 0);
    }

    #[test]
    fn signed_zeros() {
        // IEEE 754 6.3: x + (-x) is +0 except under RM, where it is -0.
        assert_eq!(fadd(0, 0x8000_0000, rn()), 0);
        assert_eq!(fadd(0, 0x8000_0000, am(Rm, false, false)), 0x8000_0000);
        assert_eq!(fadd(0x8000_0000, 0x8000_0000, rn()), 0x8000_0000);
        assert_eq!(fadd(ONE, 0xbf80_0000, rn()), 0);
        assert_eq!(fadd(ONE, 0xbf80_0000, am(Rm, false, false)), 0x8000_0000);
        // -0 * +5 = -0; FFMA -0*1 + -0 = -0; +0 * -inf = NaN.
        assert_eq!(fmul(0x8000_0000, 0x40a0_0000, rn()), 0x8000_0000);
        assert_eq!(ffma(0x8000_0000, ONE, 0x8000_0000, rn()), 0x8000_0000);
        // FFMA -0*1 + +0 = +0 (RN), -0 (RM).
        assert_eq!(ffma(0x8000_0000, ONE, 0, rn()), 0);
        assert_eq!(ffma(0x8000_0000, ONE, 0, am(Rm, false, false)), 0x8000_0000);
    }

    #[test]
    fn infinities() {
        assert_eq!(fadd(INF, ONE, rn()), INF);
        assert_eq!(fmul(NINF, 0x4000_0000, rn()), NINF);
        assert_eq!(ffma(INF, ONE, NINF, rn()), NAN);
        assert_eq!(ffma(MAX, 0x4000_0000, NINF, rn()), NINF); // finite product + -inf
    }

    #[test]
    fn subnormals_and_ftz() {
        let tiny = 0x0000_0001; // 2^-149
        assert_eq!(fadd(tiny, 0, rn()), tiny);
        assert_eq!(fadd(tiny, tiny, rn()), 2);
        // FTZ flushes inputs: tiny + tiny = 0; -tiny + 0 = (-0) + (+0) = +0.
        assert_eq!(fadd(tiny, tiny, am(Rn, true, false)), 0);
        assert_eq!(fadd(0x8000_0001, 0, am(Rn, true, false)), 0);
        // 2^-100 * 2^-30 = 2^-130 = 2^19 * 2^-149: subnormal 0x00080000.
        let (a, b) = (0x0d80_0000, 0x3080_0000);
        assert_eq!(fmul(a, b, rn()), 0x0008_0000);
        // FTZ flushes the result (sign kept).
        assert_eq!(fmul(a, b, am(Rn, true, false)), 0);
        assert_eq!(fmul(a | 0x8000_0000, b, am(Rn, true, false)), 0x8000_0000);
        // Smallest normal 2^-126 (0x00800000) survives FTZ.
        assert_eq!(fmul(0x0080_0000, ONE, am(Rn, true, false)), 0x0080_0000);
        // Subnormal * 2^24 is normal without FTZ, zero with it:
        // 2^-149 * 2^24 = 2^-125 = 0x01000000.
        assert_eq!(fmul(tiny, 0x4b80_0000, rn()), 0x0100_0000);
        assert_eq!(fmul(tiny, 0x4b80_0000, am(Rn, true, false)), 0);
        // FFMA with a subnormal addend.
        assert_eq!(ffma(0, 0, tiny, rn()), tiny);
        assert_eq!(ffma(0, 0, tiny, am(Rn, true, false)), 0);
    }

    #[test]
    fn rounding_ties_all_modes() {
        let half_ulp = 0x3380_0000; // 2^-24: half an ulp of 1.0
        let three_half_ulp = 0x3440_0000; // 1.5 * 2^-23
                                          // 1 + 2^-24 is the midpoint of 1.0 and 1.0 + 2^-23.
        assert_eq!(fadd(ONE, half_ulp, am(Rn, false, false)), ONE); // even
        assert_eq!(fadd(ONE, half_ulp, am(Rz, false, false)), ONE);
        assert_eq!(fadd(ONE, half_ulp, am(Rm, false, false)), ONE);
        assert_eq!(fadd(ONE, half_ulp, am(Rp, false, false)), 0x3f80_0001);
        // 1 + 1.5 ulp: midpoint of mantissas 1 (odd) and 2 (even).
        assert_eq!(fadd(ONE, three_half_ulp, am(Rn, false, false)), 0x3f80_0002);
        assert_eq!(fadd(ONE, three_half_ulp, am(Rz, false, false)), 0x3f80_0001);
        assert_eq!(fadd(ONE, three_half_ulp, am(Rm, false, false)), 0x3f80_0001);
        assert_eq!(fadd(ONE, three_half_ulp, am(Rp, false, false)), 0x3f80_0002);
        // Negative: -1 - 2^-24.
        let m1 = 0xbf80_0000;
        let nh = half_ulp | 0x8000_0000;
        assert_eq!(fadd(m1, nh, am(Rn, false, false)), m1);
        assert_eq!(fadd(m1, nh, am(Rz, false, false)), m1);
        assert_eq!(fadd(m1, nh, am(Rm, false, false)), 0xbf80_0001);
        assert_eq!(fadd(m1, nh, am(Rp, false, false)), m1);
        // FFMA: (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46; residual of RN product is
        // exactly 2^-46 (biased exponent 81: 0x28800000).
        let a = 0x3f80_0001;
        assert_eq!(fmul(a, a, rn()), 0x3f80_0002);
        assert_eq!(ffma(a, a, 0xbf80_0002, rn()), 0x2880_0000);
        // FFMA rounds once: 1*1 + 2^-24 under RP is 1 + 2^-23.
        assert_eq!(ffma(ONE, ONE, half_ulp, am(Rp, false, false)), 0x3f80_0001);
        assert_eq!(ffma(ONE, ONE, half_ulp, am(Rz, false, false)), ONE);
        // FMUL.RM of an inexact positive product: 3 * (1 + 2^-23) =
        // 3 + 3*2^-23, ulp(3) = 2^-22: 1.5 ulp above 3 -> RM 3 + 2^-22, RP 3 + 2^-21.
        assert_eq!(fmul(0x4040_0000, a, am(Rm, false, false)), 0x4040_0001);
        assert_eq!(fmul(0x4040_0000, a, am(Rp, false, false)), 0x4040_0002);
        assert_eq!(fmul(0x4040_0000, a, am(Rn, false, false)), 0x4040_0002);
    }

    #[test]
    fn overflow_per_mode() {
        let two = 0x4000_0000;
        assert_eq!(fmul(MAX, two, am(Rn, false, false)), INF);
        assert_eq!(fmul(MAX, two, am(Rz, false, false)), MAX);
        assert_eq!(fmul(MAX, two, am(Rm, false, false)), MAX);
        assert_eq!(fmul(MAX, two, am(Rp, false, false)), INF);
        let nmax = MAX | 0x8000_0000;
        assert_eq!(fmul(nmax, two, am(Rn, false, false)), NINF);
        assert_eq!(fmul(nmax, two, am(Rz, false, false)), nmax);
        assert_eq!(fmul(nmax, two, am(Rm, false, false)), NINF);
        assert_eq!(fmul(nmax, two, am(Rp, false, false)), nmax);
        assert_eq!(fadd(MAX, MAX, am(Rz, false, false)), MAX);
        assert_eq!(ffma(MAX, two, nmax, am(Rz, false, false)), MAX); // exact MAX
    }

    #[test]
    fn saturation() {
        let s = am(Rn, false, true);
        // 0.5 + 0.75 = 1.25 -> 1.0; -0.5 + 0 -> +0; 0.25 + 0 -> 0.25.
        assert_eq!(fadd(0x3f00_0000, 0x3f40_0000, s), ONE);
        assert_eq!(fadd(0xbf00_0000, 0, s), 0);
        assert_eq!(fadd(0x3e80_0000, 0, s), 0x3e80_0000);
        // -0 -> +0 (cvt.sat hardware-observed rule, shared).
        assert_eq!(fmul(0x8000_0000, ONE, s), 0);
        assert_eq!(ffma(INF, ONE, 0, s), ONE);
        assert_eq!(ffma(NINF, ONE, 0, s), 0);
        assert_eq!(fmul(0, INF, s), 0); // NaN -> +0
    }

    #[test]
    fn fmnmx_cases() {
        let m = MnmxMods::default();
        let two = 0x4000_0000;
        assert_eq!(fmnmx(ONE, two, true, m), ONE);
        assert_eq!(fmnmx(ONE, two, false, m), two);
        assert_eq!(fmnmx(0xc000_0000, ONE, true, m), 0xc000_0000);
        // One NaN: the other operand.
        assert_eq!(fmnmx(0x7fc0_0001, two, true, m), two);
        assert_eq!(fmnmx(two, 0xffc0_0000, false, m), two);
        // Two NaNs: canonical.
        assert_eq!(fmnmx(0x7fc0_0001, 0xff80_0001, true, m), NAN);
        // -0 < +0.
        assert_eq!(fmnmx(0, 0x8000_0000, true, m), 0x8000_0000);
        assert_eq!(fmnmx(0x8000_0000, 0, false, m), 0);
        // Infinities.
        assert_eq!(fmnmx(INF, MAX, true, m), MAX);
        assert_eq!(fmnmx(NINF, MAX, false, m), MAX);
        // .NAN propagates.
        let n = MnmxMods { nan: true, ..m };
        assert_eq!(fmnmx(0x7fc0_0001, two, true, n), NAN);
        assert_eq!(fmnmx(ONE, two, false, n), two);
        // .FTZ: max(2^-149, +0) is 2^-149 without, +0 with.
        let z = MnmxMods { ftz: true, ..m };
        assert_eq!(fmnmx(1, 0, false, m), 1);
        assert_eq!(fmnmx(1, 0, false, z), 0);
        // `fmaxf(x, 0)` as FMNMX R, RZ, x, !PT.
        assert_eq!(fmnmx(0, 0xbf80_0000, false, m), 0);
    }

    fn sp(cmp: FCmp, ftz: bool) -> SetpMods {
        SetpMods {
            cmp,
            ftz,
            bop: BoolOp::And,
            h_and: false,
            bf16: false,
        }
    }

    #[test]
    fn fsetp_truth_table() {
        use FCmp::*;
        // Columns: (1,2) less, (2,1) greater, (1,1) equal, (NaN,1) unordered,
        // (+0,-0) equal. Expected values from the IEEE predicate definitions
        // (ordered: false on NaN; U-suffixed: true on NaN).
        let pairs = [
            (ONE, 0x4000_0000),
            (0x4000_0000, ONE),
            (ONE, ONE),
            (0x7fc0_0000, ONE),
            (0, 0x8000_0000),
        ];
        let table: [(FCmp, [bool; 5]); 16] = [
            (F, [false, false, false, false, false]),
            (Lt, [true, false, false, false, false]),
            (Eq, [false, false, true, false, true]),
            (Le, [true, false, true, false, true]),
            (Gt, [false, true, false, false, false]),
            (Ne, [true, true, false, false, false]),
            (Ge, [false, true, true, false, true]),
            (Num, [true, true, true, false, true]),
            (Nan, [false, false, false, true, false]),
            (Ltu, [true, false, false, true, false]),
            (Equ, [false, false, true, true, true]),
            (Leu, [true, false, true, true, true]),
            (Gtu, [false, true, false, true, false]),
            (Neu, [true, true, false, true, false]),
            (Geu, [false, true, true, true, true]),
            (T, [true, true, true, true, true]),
        ];
        for (cmp, exp) in table {
            for (i, &(a, b)) in pairs.iter().enumerate() {
                assert_eq!(fcmp(a, b, sp(cmp, false)), exp[i], "{cmp:?} {a:#x} {b:#x}");
            }
        }
    }

    #[test]
    fn fsetp_ftz_and_bop() {
        // 2^-149 == 0 only when flushed.
        assert!(!fcmp(1, 0, sp(FCmp::Eq, false)));
        assert!(fcmp(1, 0, sp(FCmp::Eq, true)));
        assert!(fcmp(1, 0, sp(FCmp::Gt, false)));
        assert!(!fcmp(1, 0, sp(FCmp::Gt, true)));
        // |x| NEU +INF (isfinite lowering): NaN -> true, inf -> false.
        assert!(fcmp(0x7fff_ffff, INF, sp(FCmp::Neu, true)));
        assert!(!fcmp(INF, INF, sp(FCmp::Neu, true)));
        // (P, Q) = (r AND c, !r AND c).
        assert_eq!(fsetp(ONE, 0, true, sp(FCmp::Gt, false)), (true, false));
        assert_eq!(fsetp(ONE, 0, false, sp(FCmp::Gt, false)), (false, false));
        let or = SetpMods {
            bop: BoolOp::Or,
            ..sp(FCmp::Lt, false)
        };
        assert_eq!(fsetp(ONE, 0, true, or), (true, true));
        assert_eq!(fsetp(ONE, 0, false, or), (false, true));
        let xor = SetpMods {
            bop: BoolOp::Xor,
            ..sp(FCmp::Lt, false)
        };
        assert_eq!(fsetp(0, ONE, true, xor), (false, true));
    }

    #[test]
    fn fset_values() {
        let m = SetMods {
            setp: sp(FCmp::Lt, false),
            bf: false,
        };
        assert_eq!(fset(0, ONE, true, m), 0xffff_ffff);
        assert_eq!(fset(ONE, 0, true, m), 0);
        let bf = SetMods { bf: true, ..m };
        assert_eq!(fset(0, ONE, true, bf), 0x3f80_0000);
        assert_eq!(fset(ONE, 0, true, bf), 0);
        assert_eq!(fset(0, ONE, false, bf), 0); // AND with false predicate
    }

    /// ptxas's fast path for div.rn.f32 (saxpy_div.sm_80.sass, 0x00f0-0x0160)
    /// on the shared FFMA and MUFU.RCP models.
    fn fast_div(a: u32, b: u32) -> u32 {
        let r = super::super::mufu::mufu(super::super::fmods::MufuOp::Rcp, b);
        let nb = b ^ 0x8000_0000;
        let t = ffma(nb, r, ONE, rn());
        let r2 = ffma(r, t, r, rn());
        let q = ffma(a, r2, 0, rn());
        let e = ffma(nb, q, a, rn());
        ffma(r2, e, q, rn())
    }

    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn fchk_special_inputs() {
        let three = 0x4040_0000;
        assert!(!fchk(ONE, three));
        assert!(fchk(0, three)); // a zero (conservative)
        assert!(fchk(ONE, 0)); // b zero
        assert!(fchk(ONE, 1)); // b subnormal
        assert!(fchk(1, ONE)); // a subnormal
        assert!(fchk(0x7fc0_0000, ONE)); // a NaN
        assert!(fchk(ONE, NINF)); // b inf
        assert!(fchk(ONE, 0x7f00_0000)); // |b| = 2^127: rcp subnormal
        assert!(fchk(MAX, 0x3e80_0000)); // MAX / 0.25 overflows
        assert!(fchk(0x0100_0000, 0x4b80_0000)); // 2^-125 / 2^24: subnormal quotient
        assert!(fchk(0x4b80_0000, 0x0100_0000)); // 2^24 / 2^-125 = 2^149 overflows
        assert!(!fchk(0x4b80_0000, 0x3f00_0000)); // 2^24 / 0.5: plain case
    }

    #[test]
    fn fchk_false_implies_fast_path_exact() {
        // Where FCHK says "fast path ok", the fast path must give RN(a/b)
        // (host division is correctly rounded).
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for i in 0..200_000u32 {
            let mut a = rng.next() as u32;
            let mut b = rng.next() as u32;
            if i % 2 == 0 {
                // Concentrate on the boundaries of the rule.
                let ea = [1u32, 24, 25, 26, 27, 100, 127, 200, 252, 253, 254][i as usize % 11];
                let eb = [1u32, 2, 3, 100, 127, 200, 251, 252, 253, 254][(i as usize / 11) % 10];
                a = (a & 0x807f_ffff) | ea << 23;
                b = (b & 0x807f_ffff) | eb << 23;
            }
            if fchk(a, b) {
                continue;
            }
            checked += 1;
            assert_eq!(fast_div(a, b), host(f(a) / f(b)), "{a:#x} / {b:#x}");
        }
        assert!(checked > 50_000);
    }

    #[test]
    fn fchk_quickcheck() {
        fn prop(a: u32, b: u32) -> TestResult {
            if fchk(a, b) {
                return TestResult::discard();
            }
            TestResult::from_bool(fast_div(a, b) == host(f(a) / f(b)))
        }
        QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(u32, u32) -> TestResult);
    }

    /// `FMNMX.XORSIGN d, |a|, |b|`: magnitude from the modified operands,
    /// sign from the operands before `|.|` (PTX `min.xorsign.abs`: -2 and 3
    /// give -2; -2 and -3 give +2), a NaN result untouched.
    #[test]
    fn xorsign_takes_the_signs_before_abs() {
        let m = MnmxMods::default();
        let (a, b) = ((-2.0f32).to_bits(), 3.0f32.to_bits());
        let abs = |x: u32| x & 0x7fff_ffff;
        let r = fmnmx(abs(a), abs(b), true, m);
        let x =
            |r: u32, a: u32, b: u32| xorsign(FloatType::F32, r.into(), a.into(), b.into()) as u32;
        assert_eq!(f32::from_bits(x(r, a, b)), -2.0);
        let c = (-3.0f32).to_bits();
        assert_eq!(f32::from_bits(x(fmnmx(abs(a), abs(c), true, m), a, c)), 2.0);
        assert_eq!(
            f32::from_bits(x(fmnmx(abs(a), abs(c), false, m), a, c)),
            3.0
        );
        assert_eq!(x(NAN, a, b), NAN);
    }

    #[test]
    fn frnd_f32() {
        let m = |rnd, ftz| FrndMods { ty: F32, rnd, ftz };
        // 2.5 -> 2 (ties to even), 3.5 -> 4, -2.5 -> -2, 0.5 -> +0.
        assert_eq!(frnd(0x4020_0000, m(Rn, false)), 0x4000_0000);
        assert_eq!(frnd(0x4060_0000, m(Rn, false)), 0x4080_0000);
        assert_eq!(frnd(0xc020_0000, m(Rn, false)), 0xc000_0000);
        assert_eq!(frnd(0x3f00_0000, m(Rn, false)), 0);
        // -0.4 -> -0 (sign kept).
        assert_eq!(frnd(0xbecc_cccd, m(Rn, false)), 0x8000_0000);
        // TRUNC(-2.75) = -2, FLOOR(-2.25) = -3, CEIL(2.25) = 3, CEIL(-0.5) = -0.
        assert_eq!(frnd(0xc030_0000, m(Rz, false)), 0xc000_0000);
        assert_eq!(frnd(0xc010_0000, m(Rm, false)), 0xc040_0000);
        assert_eq!(frnd(0x4010_0000, m(Rp, false)), 0x4040_0000);
        assert_eq!(frnd(0xbf00_0000, m(Rp, false)), 0x8000_0000);
        // CEIL of the smallest subnormal: 1.0 without FTZ, +0 with it.
        assert_eq!(frnd(1, m(Rp, false)), ONE);
        assert_eq!(frnd(1, m(Rp, true)), 0);
        // FLOOR(-2^-149) = -1 without FTZ, -0 with it.
        assert_eq!(frnd(0x8000_0001, m(Rm, false)), 0xbf80_0000);
        assert_eq!(frnd(0x8000_0001, m(Rm, true)), 0x8000_0000);
        // Already integral (2^23 + 1), inf, NaN.
        assert_eq!(frnd(0x4b00_0001, m(Rn, false)), 0x4b00_0001);
        assert_eq!(frnd(NINF, m(Rz, false)), NINF);
        assert_eq!(frnd(0xffc0_0001, m(Rn, false)), NAN);
    }

    #[test]
    fn frnd_quickcheck_vs_host() {
        fn prop(x: u32) -> bool {
            let v = f(x);
            let m = |rnd| FrndMods {
                ty: F32,
                rnd,
                ftz: false,
            };
            frnd(x, m(Rz)) == host(v.trunc())
                && frnd(x, m(Rm)) == host(v.floor())
                && frnd(x, m(Rp)) == host(v.ceil())
                && frnd(x, m(Rn)) == host(v.round_ties_even())
        }
        QuickCheck::new()
            .tests(3000)
            .quickcheck(prop as fn(u32) -> bool);
    }
}
