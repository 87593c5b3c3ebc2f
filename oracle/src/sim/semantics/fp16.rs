//! Packed half-precision SASS opcodes: HADD2, HMUL2, HFMA2 (incl. `.MMA`,
//! `.F32`, `.RELU`, `.BF16_V2`), HSETP2, HSET2, HMNMX2, and the operand
//! half selectors.
//!
//! Lane 0 is bits 15:0, lane 1 bits 31:16 (`ptxc::float::packed`). Each
//! lane is computed by the shared `ptxc::float::arith` model with RN (the
//! only rounding of PTX half arithmetic): NaN results are the canonical
//! 0x7fff (UNCONFIRMED on hardware), `.FTZ` flushes f16 subnormals, `.SAT`
//! clamps to [+0, 1].
//!
//! Evaluation order per operand: register value -> half selector
//! ([`HalfSel`]) -> source modifier (`src_mods::SrcMods::apply_x2`) -> op.
//!
//! `HFMA2.MMA d, -RZ, RZ, hi, lo` is ptxas's 32-bit constant move (corpus,
//! sm_80+): (-0)*(+0) + c = c exactly for every non-NaN half, subnormals
//! included (no flush without `.FTZ`). A NaN half would come out as 0x7fff
//! under this model; whether ptxas ever materializes NaN halves this way,
//! and what hardware then writes, is UNCONFIRMED.

use ptxc::float::{arith, cvt_float, packed, CvtMods, FloatType, MinMaxMods, Mods, Rounding};

use super::fmods::{HalfMods, MnmxMods, SetMods, SetpMods};

/// An operand half selector of the H* opcodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HalfSel {
    /// No selector (`H1_H0`): the register as is.
    #[default]
    H1H0,
    /// `.H0_H0`: lane 0 broadcast to both lanes.
    H0H0,
    /// `.H1_H1`: lane 1 broadcast to both lanes.
    H1H1,
    /// `.F32`: the register holds an f32, converted (RN) to the lane format
    /// and broadcast. UNCONFIRMED (rounding, flush and even the exact meaning
    /// are from memory of the Volta encoding; not in the corpus).
    F32,
    /// `.H1` on the one-half source of the MUFU `.F16`/`.BF16` forms
    /// (ptxas 11.8 lowers `ex2.approx.f16x2 d, a` to `MUFU.EX2.F16 R7, R4`,
    /// `MUFU.EX2.F16 R8, R4.H1`, `PRMT R7, R7, 0x5410, R8`; measured on
    /// sm_75..sm_90): bits 31:16 read as the 16-bit source (moved to
    /// 15:0). Only the scalar-half operands accept it (`decode::float::src`).
    H1,
}

impl HalfSel {
    /// Parses an operand selector (`None` = no selector).
    pub fn parse(sel: Option<&str>) -> Result<HalfSel, String> {
        match sel {
            None | Some("H1_H0") => Ok(HalfSel::H1H0),
            Some("H0_H0") => Ok(HalfSel::H0H0),
            Some("H1_H1") => Ok(HalfSel::H1H1),
            Some("F32") => Ok(HalfSel::F32),
            Some("H1") => Ok(HalfSel::H1),
            Some(s) => Err(format!("unknown half selector .{s}")),
        }
    }

    /// Applies the selector to a 32-bit register value; `bf16` says which
    /// format `.F32` converts to.
    #[inline]
    pub fn apply(self, bits: u32, bf16: bool) -> u32 {
        match self {
            HalfSel::H1H0 => bits,
            HalfSel::H0H0 => (bits & 0xffff) * 0x0001_0001,
            HalfSel::H1H1 => (bits >> 16) * 0x0001_0001,
            HalfSel::H1 => bits >> 16,
            HalfSel::F32 => {
                let h = cvt_float(
                    FloatType::F32,
                    lane_type(bf16),
                    bits as u64,
                    Rounding::Rn,
                    CvtMods::NONE,
                ) as u32;
                h * 0x0001_0001
            }
        }
    }
}

/// String convenience for [`HalfSel`] (f16 lanes): `"H0_H0"`, `"H1_H1"`,
/// `"F32"`, `"H1_H0"` or `""` (none).
pub fn select_halves(bits: u32, sel: &str) -> Result<u32, String> {
    let s = if sel.is_empty() { None } else { Some(sel) };
    Ok(HalfSel::parse(s)?.apply(bits, false))
}

#[inline(always)]
const fn lane_type(bf16: bool) -> FloatType {
    if bf16 {
        FloatType::Bf16
    } else {
        FloatType::F16
    }
}

#[inline(always)]
const fn lane_mods(m: HalfMods) -> Mods {
    Mods {
        ftz: m.ftz,
        sat: m.sat,
    }
}

/// `.RELU` on one lane result: NaN -> canonical NaN, negative (incl. -0,
/// UNCONFIRMED) -> +0 (PTX `fma.rn.relu`).
#[inline(always)]
fn relu(t: FloatType, r: u64) -> u64 {
    if t.is_nan(r) {
        ptxc::float::canonical_nan(t)
    } else if t.sign(r) {
        0
    } else {
        r
    }
}

#[derive(Clone, Copy)]
enum Op3 {
    Add,
    Mul,
    Fma,
}

/// `.F32` forms: lane 0 of each operand converted exactly to f32, the
/// operation done in f32 with RN and a single rounding, `.FTZ`/`.SAT`
/// applied in f32. UNCONFIRMED except for the `x + -0` conversion idiom
/// (exact either way).
#[inline]
fn f32_form(op: Op3, a: u32, b: u32, c: u32, m: HalfMods) -> u32 {
    let t = lane_type(m.bf16);
    let up = |x: u32| {
        cvt_float(
            t,
            FloatType::F32,
            (x & 0xffff) as u64,
            Rounding::Rn,
            CvtMods::NONE,
        )
    };
    let f = FloatType::F32;
    let mods = lane_mods(m);
    let r = match op {
        Op3::Add => arith::add(f, up(a), up(b), Rounding::Rn, mods),
        Op3::Mul => arith::mul(f, up(a), up(b), Rounding::Rn, mods),
        Op3::Fma => arith::fma(f, up(a), up(b), up(c), Rounding::Rn, mods),
    };
    let r = if m.relu { relu(f, r) } else { r };
    r as u32
}

/// `HADD2{.F32}{.FTZ}{.SAT}{.BF16_V2} d, a, b` (operands already selected
/// and sign-modified). With `.F32` the result is one f32 (see
/// [`HalfMods::f32_out`]).
#[inline]
pub fn hadd2(a: u32, b: u32, m: HalfMods) -> u32 {
    if m.f32_out {
        return f32_form(Op3::Add, a, b, 0, m);
    }
    let (t, mods) = (lane_type(m.bf16), lane_mods(m));
    packed::binary_x2(a, b, |x, y| arith::add(t, x, y, Rounding::Rn, mods))
}

/// `HMUL2{.F32}{.FTZ}{.SAT}{.BF16_V2} d, a, b`.
#[inline]
pub fn hmul2(a: u32, b: u32, m: HalfMods) -> u32 {
    if m.f32_out {
        return f32_form(Op3::Mul, a, b, 0, m);
    }
    let (t, mods) = (lane_type(m.bf16), lane_mods(m));
    packed::binary_x2(a, b, |x, y| arith::mul(t, x, y, Rounding::Rn, mods))
}

/// `HFMA2{.MMA}{.F32}{.FTZ}{.SAT}{.RELU}{.BF16_V2} d, a, b, c` = a*b + c per
/// lane, one rounding. `.MMA` (tensor pipe) computes the same.
#[inline]
pub fn hfma2(a: u32, b: u32, c: u32, m: HalfMods) -> u32 {
    if m.f32_out {
        return f32_form(Op3::Fma, a, b, c, m);
    }
    let (t, mods) = (lane_type(m.bf16), lane_mods(m));
    packed::ternary_x2(a, b, c, |x, y, z| {
        let r = arith::fma(t, x, y, z, Rounding::Rn, mods);
        if m.relu {
            relu(t, r)
        } else {
            r
        }
    })
}

/// Per-lane comparison of HSETP2/HSET2: (lane 0, lane 1).
#[inline]
pub fn hcmp2(a: u32, b: u32, m: SetpMods) -> (bool, bool) {
    let t = lane_type(m.bf16);
    (
        m.cmp
            .eval(t, (a & 0xffff) as u64, (b & 0xffff) as u64, m.ftz),
        m.cmp.eval(t, (a >> 16) as u64, (b >> 16) as u64, m.ftz),
    )
}

/// `HSETP2.cmp{.FTZ}{.H_AND}.bop P, Q, a, b, c`: `P = lane0 bop c`, `Q =
/// lane1 bop c`; with `.H_AND`, `r = lane0 && lane1`, `P = r bop c`, `Q =
/// !r bop c` (UNCONFIRMED: Maxwell-era ISA description, not in the corpus).
#[inline]
pub fn hsetp2(a: u32, b: u32, c: bool, m: SetpMods) -> (bool, bool) {
    let (lo, hi) = hcmp2(a, b, m);
    if m.h_and {
        m.bop.pair(lo && hi, c)
    } else {
        (m.bop.apply(lo, c), m.bop.apply(hi, c))
    }
}

/// `HSET2{.BF}.cmp{.FTZ}.bop d, a, b, c`: per lane `r bop c` as 0xffff/0, or
/// with `.BF` as 1.0 (f16 0x3c00, bf16 0x3f80)/+0 (UNCONFIRMED by analogy
/// with FSET).
#[inline]
pub fn hset2(a: u32, b: u32, c: bool, m: SetMods) -> u32 {
    let (lo, hi) = hcmp2(a, b, m.setp);
    let one: u32 = match (m.bf, m.setp.bf16) {
        (false, _) => 0xffff,
        (true, false) => 0x3c00,
        (true, true) => 0x3f80,
    };
    let lane = |r: bool| if m.setp.bop.apply(r, c) { one } else { 0 };
    lane(lo) | lane(hi) << 16
}

/// `HMNMX2{.FTZ}{.NAN}{.BF16_V2} d, a, b, p` (sm_80+): per lane min
/// (predicate true) or max, PTX `min/max.f16x2` semantics.
#[inline]
pub fn hmnmx2(a: u32, b: u32, pick_min: bool, m: MnmxMods) -> u32 {
    let t = lane_type(m.bf16);
    let mm = MinMaxMods {
        ftz: m.ftz,
        nan: m.nan,
        xorsign_abs: false,
    };
    packed::binary_x2(a, b, |x, y| {
        if pick_min {
            ptxc::float::min(t, x, y, mm)
        } else {
            ptxc::float::max(t, x, y, mm)
        }
    })
}

/// HMNMX2 `.XORSIGN`: [`super::fp32::xorsign`] on each half of the result
/// `r`, with the operands' halves `sa`, `sb` before their `|.|`.
#[inline]
pub fn xorsign_x2(r: u32, sa: u32, sb: u32, bf16: bool) -> u32 {
    let t = lane_type(bf16);
    packed::binary_x2(r, sa ^ sb, |x, s| super::fp32::xorsign(t, x, s, 0))
}

#[cfg(test)]
mod tests {
    use super::super::fmods::{BoolOp, FCmp};
    use super::super::src_mods::SrcMods;
    use super::super::test_ref::*;
    use super::*;
    use quickcheck::{QuickCheck, TestResult};

    const NAN16: u16 = 0x7fff;

    fn hm() -> HalfMods {
        HalfMods::default()
    }
    fn lo(x: u32) -> u16 {
        x as u16
    }
    fn hi(x: u32) -> u16 {
        (x >> 16) as u16
    }
    fn pk(l: u16, h: u16) -> u32 {
        l as u32 | (h as u32) << 16
    }

    /// Independent f16 lane result for an exact value n / 2^48.
    fn expect(n: i128, zero_neg: bool) -> u16 {
        if n == 0 {
            if zero_neg {
                0x8000
            } else {
                0
            }
        } else {
            f16_round_scaled(n)
        }
    }

    #[test]
    fn f16_add_mul_fma_vs_exact_reference() {
        fn prop(a: u32, b: u32, c: u32) -> TestResult {
            let lanes = [(lo(a), lo(b), lo(c)), (hi(a), hi(b), hi(c))];
            if !lanes
                .iter()
                .all(|&(x, y, z)| f16_finite(x) && f16_finite(y) && f16_finite(z))
            {
                return TestResult::discard();
            }
            let m = HalfMods::default();
            let (s, p, f) = (hadd2(a, b, m), hmul2(a, b, m), hfma2(a, b, c, m));
            for (i, &(x, y, z)) in lanes.iter().enumerate() {
                let (vx, vy, vz) = (
                    f16_signed_scaled(x),
                    f16_signed_scaled(y),
                    f16_signed_scaled(z),
                );
                let sel = |r: u32| if i == 0 { lo(r) } else { hi(r) };
                // Exact zero sums are +0 unless both addends are -0 (RN).
                let sum_neg = x == 0x8000 && y == 0x8000;
                if sel(s) != expect(vx + vy, sum_neg) {
                    return TestResult::failed();
                }
                let prod_neg = (x ^ y) & 0x8000 != 0;
                if sel(p) != expect((vx >> 24) * (vy >> 24), prod_neg) {
                    return TestResult::failed();
                }
                let exact = (vx >> 24) * (vy >> 24) + vz;
                // (Exact zero fma results are covered by the literal tests.)
                if exact != 0 && sel(f) != f16_round_scaled(exact) {
                    return TestResult::failed();
                }
            }
            TestResult::passed()
        }
        QuickCheck::new()
            .tests(4000)
            .quickcheck(prop as fn(u32, u32, u32) -> TestResult);
    }

    #[test]
    fn f16_literal_cases() {
        let m = hm();
        // 1 + 1 = 2 (0x4000) in lane 0; 2 * 3 = 6 (0x4600) in lane 1.
        assert_eq!(
            hadd2(pk(0x3c00, 0x4000), pk(0x3c00, 0x4200), m),
            pk(0x4000, 0x4500)
        );
        assert_eq!(
            hmul2(pk(0x3c00, 0x4000), pk(0x3c00, 0x4200), m),
            pk(0x3c00, 0x4600)
        );
        // Tie: 1 + 2^-11 (half ulp, 0x1000) -> 1.0 (even); 1 + 3*2^-11
        // (1.5 * 2^-10 = 0x1600) -> 1 + 2^-9 (mantissa 2, even).
        assert_eq!(lo(hadd2(0x3c00, 0x1000, m)), 0x3c00);
        assert_eq!(lo(hadd2(0x3c00, 0x1600, m)), 0x3c02);
        // Overflow: 65504 + 65504 -> inf; 65504 * -2 -> -inf.
        assert_eq!(lo(hadd2(0x7bff, 0x7bff, m)), 0x7c00);
        assert_eq!(lo(hmul2(0x7bff, 0xc000, m)), 0xfc00);
        // NaN -> canonical 0x7fff; inf - inf -> NaN; 0 * inf -> NaN.
        assert_eq!(lo(hadd2(0x7e01, 0x3c00, m)), NAN16);
        assert_eq!(lo(hadd2(0x7c00, 0xfc00, m)), NAN16);
        assert_eq!(lo(hmul2(0, 0x7c00, m)), NAN16);
        assert_eq!(hi(hfma2(0, 0, pk(0, 0xfd00), m)), NAN16);
        // Subnormals: 2^-24 + 2^-24 = 2^-23 (0x0002); FTZ flushes to +0.
        assert_eq!(lo(hadd2(1, 1, m)), 2);
        let ftz = HalfMods { ftz: true, ..m };
        assert_eq!(lo(hadd2(1, 1, ftz)), 0);
        // 2^-14 * 0.5 = 2^-15 = subnormal 0x0200; flushed with FTZ (sign kept).
        assert_eq!(lo(hmul2(0x0400, 0x3800, m)), 0x0200);
        assert_eq!(lo(hmul2(0x8400, 0x3800, ftz)), 0x8000);
        // Signed zeros: -0 + -0 = -0; 1 + -1 = +0.
        assert_eq!(lo(hadd2(0x8000, 0x8000, m)), 0x8000);
        assert_eq!(lo(hadd2(0x3c00, 0xbc00, m)), 0);
        // SAT: 0.75 + 0.5 -> 1.0; -1 * 1 -> +0; NaN -> +0.
        let sat = HalfMods { sat: true, ..m };
        assert_eq!(lo(hadd2(0x3a00, 0x3800, sat)), 0x3c00);
        assert_eq!(lo(hmul2(0xbc00, 0x3c00, sat)), 0);
        assert_eq!(lo(hmul2(0, 0x7c00, sat)), 0);
        // FMA rounds once: 1 * 1 + 2^-11 -> tie -> 1.0; (1+2^-10)^2 - (1+2^-9)
        // = 2^-20 exactly (0x0010 = 16 * 2^-24).
        assert_eq!(lo(hfma2(0x3c00, 0x3c00, 0x1000, m)), 0x3c00);
        assert_eq!(lo(hfma2(0x3c01, 0x3c01, 0xbc02, m)), 0x0010);
    }

    #[test]
    fn hfma2_mma_constant_move() {
        // HFMA2.MMA R, -RZ, RZ, hi, lo reproduces any non-NaN constant.
        fn prop(c: u32) -> TestResult {
            let nan = |h: u16| h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
            if nan(lo(c)) || nan(hi(c)) {
                return TestResult::discard();
            }
            let m = HalfMods {
                mma: true,
                ..HalfMods::default()
            };
            TestResult::from_bool(hfma2(SrcMods::NEG.apply_x2(0), 0, c, m) == c)
        }
        QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(u32) -> TestResult);
        // Corpus: HFMA2.MMA R, -RZ, RZ, 0, 4.76837158203125e-07 = 0x00000008.
        let m = HalfMods { mma: true, ..hm() };
        assert_eq!(hfma2(0x8000_8000, 0, 0x0000_0008, m), 0x0000_0008);
        // 1.0f (0x3f800000): halves 1.875 (0x3f80) and 0.
        assert_eq!(hfma2(0x8000_8000, 0, 0x3f80_0000, m), 0x3f80_0000);
    }

    #[test]
    fn hadd2_f32_is_exact_f16_to_f32() {
        // HADD2.F32 d, -RZ, a.H0_H0 = cvt.f32.f16, exhaustively.
        let m = HalfMods {
            f32_out: true,
            ..hm()
        };
        let nrz = SrcMods::NEG.apply_x2(0);
        for x in 0..=0xffffu32 {
            let a = HalfSel::H0H0.apply(x | 0xabcd_0000, false);
            let r = hadd2(nrz, a, m);
            let h = x as u16;
            let exp = if !f16_finite(h) {
                if h & 0x3ff != 0 {
                    0x7fff_ffff
                } else {
                    (h as u32 & 0x8000) << 16 | 0x7f80_0000
                }
            } else {
                (f16_to_f64(h) as f32).to_bits()
            };
            assert_eq!(r, exp, "{x:#x}");
        }
        // sm_70 spelling: HADD2.F32 d, a.H0_H0, -RZ.H0_H0.
        assert_eq!(hadd2(0x3c00_3c00, nrz, m), 0x3f80_0000);
        // HMUL2.F32: 65504 * 65504 is finite in f32 (exact 4290774016).
        let p = hmul2(
            0x7bff,
            0x7bff,
            HalfMods {
                f32_out: true,
                ..hm()
            },
        );
        assert_eq!(p, (65504.0f32 * 65504.0f32).to_bits());
        // HFMA2.F32: 2^-24 * 2^-24 + 0 = 2^-48, normal in f32.
        let q = hfma2(
            1,
            1,
            0,
            HalfMods {
                f32_out: true,
                ..hm()
            },
        );
        assert_eq!(q, 2f32.powi(-48).to_bits());
    }

    #[test]
    fn selectors() {
        let x = 0x1234_abcd;
        assert_eq!(select_halves(x, "H0_H0"), Ok(0xabcd_abcd));
        assert_eq!(select_halves(x, "H1_H1"), Ok(0x1234_1234));
        assert_eq!(select_halves(x, "H1_H0"), Ok(x));
        assert_eq!(select_halves(x, ""), Ok(x));
        // .F32: 1.0f -> f16 1.0 (0x3c00) broadcast; 65520.0f -> inf; bf16 1.0.
        assert_eq!(select_halves(0x3f80_0000, "F32"), Ok(0x3c00_3c00));
        assert_eq!(select_halves(65520.0f32.to_bits(), "F32"), Ok(0x7c00_7c00));
        assert_eq!(HalfSel::F32.apply(0x3f80_0000, true), 0x3f80_3f80);
        // .H1 (MUFU .F16/.BF16 sources): the high half moved to bits 15:0.
        assert_eq!(select_halves(x, "H1"), Ok(0x1234));
        assert!(select_halves(x, "H2_H0").unwrap_err().contains("H2_H0"));
        assert_eq!(HalfSel::parse(None), Ok(HalfSel::H1H0));
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
    fn hsetp2_and_hset2() {
        // lane0: 1 < 2; lane1: NaN vs 1.
        let a = pk(0x3c00, 0x7e00);
        let b = pk(0x4000, 0x3c00);
        assert_eq!(hcmp2(a, b, sp(FCmp::Lt)), (true, false));
        assert_eq!(hcmp2(a, b, sp(FCmp::Ltu)), (true, true));
        assert_eq!(hcmp2(a, b, sp(FCmp::Geu)), (false, true));
        assert_eq!(hsetp2(a, b, true, sp(FCmp::Lt)), (true, false));
        assert_eq!(hsetp2(a, b, false, sp(FCmp::Lt)), (false, false));
        let hand = SetpMods {
            h_and: true,
            ..sp(FCmp::Ltu)
        };
        assert_eq!(hsetp2(a, b, true, hand), (true, false));
        let hand_lt = SetpMods {
            h_and: true,
            ..sp(FCmp::Lt)
        };
        assert_eq!(hsetp2(a, b, true, hand_lt), (false, true));
        // Corpus: setp.lt.f16 p = !(HSETP2.GEU a.H0_H0, b.H0_H0).
        let h00 = |x: u32| HalfSel::H0H0.apply(x, false);
        assert!(!hsetp2(h00(0x3c00), h00(0x4000), true, sp(FCmp::Geu)).0);
        assert!(hsetp2(h00(0x7e00), h00(0x4000), true, sp(FCmp::Geu)).0);
        // FTZ: subnormal == 0 only when flushed.
        let ftz = SetpMods {
            ftz: true,
            ..sp(FCmp::Eq)
        };
        assert_eq!(hcmp2(1, 0, sp(FCmp::Eq)), (false, true));
        assert_eq!(hcmp2(1, 0, ftz), (true, true));
        // -0 == +0.
        assert_eq!(hcmp2(0x8000, 0, sp(FCmp::Eq)), (true, true));
        let set = SetMods {
            setp: sp(FCmp::Lt),
            bf: false,
        };
        assert_eq!(hset2(a, b, true, set), 0x0000_ffff);
        assert_eq!(hset2(a, b, true, SetMods { bf: true, ..set }), 0x0000_3c00);
        let bset = SetMods {
            setp: SetpMods {
                bf16: true,
                ..sp(FCmp::Lt)
            },
            bf: true,
        };
        // bf16 lanes: 1.0 (0x3f80) < 2.0 (0x4000); NaN (0x7fc0) vs 1.0.
        assert_eq!(
            hset2(pk(0x3f80, 0x7fc0), pk(0x4000, 0x3f80), true, bset),
            0x0000_3f80
        );
    }

    #[test]
    fn hmnmx2_cases() {
        let m = MnmxMods::default();
        // lane0: min(1, 2) = 1; lane1: min(NaN, 2) = 2.
        assert_eq!(
            hmnmx2(pk(0x3c00, 0x7e00), pk(0x4000, 0x4000), true, m),
            pk(0x3c00, 0x4000)
        );
        assert_eq!(
            hmnmx2(pk(0x3c00, 0x7e00), pk(0x4000, 0x4000), false, m),
            pk(0x4000, 0x4000)
        );
        let n = MnmxMods { nan: true, ..m };
        assert_eq!(
            hmnmx2(pk(0x3c00, 0x7e00), pk(0x4000, 0x4000), true, n),
            pk(0x3c00, NAN16)
        );
        assert_eq!(hmnmx2(0x8000, 0, true, m), 0x8000);
        assert_eq!(hmnmx2(0x7e00_7e00, 0x7d00_fe00, true, m), pk(NAN16, NAN16));
    }

    #[test]
    fn bf16_lanes() {
        let m = HalfMods { bf16: true, ..hm() };
        // bf16 1.0 = 0x3f80, ulp(1) = 2^-7; 2^-8 (0x3b80) is half an ulp: tie -> 1.0.
        assert_eq!(lo(hadd2(0x3f80, 0x3b80, m)), 0x3f80);
        // 1 + 3*2^-8 (0x3c40): midpoint of 0x3f81 (odd) and 0x3f82 (even).
        assert_eq!(lo(hadd2(0x3f80, 0x3c40, m)), 0x3f82);
        // 3 * 5 = 15 (0x4170) in lane 1; NaN canonical 0x7fff.
        assert_eq!(hmul2(pk(0, 0x4040), pk(0, 0x40a0), m), pk(0, 0x4170));
        assert_eq!(lo(hmul2(0x7fc1, 0x3f80, m)), NAN16);
        // bf16 fma vs the reference on products that are exact in f64.
        for (a, b, c) in [(0x3fc0u16, 0x4040u16, 0xbf80u16), (0x4049, 0x3eaa, 0x3c00)] {
            let exact = f64::from(f32::from_bits((a as u32) << 16))
                * f64::from(f32::from_bits((b as u32) << 16))
                + f64::from(f32::from_bits((c as u32) << 16));
            assert_eq!(
                lo(hfma2(a as u32, b as u32, c as u32, m)),
                round16_from_f64(exact, true)
            );
        }
        // RELU: negative -> +0, NaN -> canonical, positive kept.
        let r = HalfMods { relu: true, ..hm() };
        assert_eq!(
            hfma2(pk(0xbc00, 0x3c00), pk(0x3c00, 0x3c00), pk(0, 0), r),
            pk(0, 0x3c00)
        );
        assert_eq!(lo(hfma2(0x7c00, 0, 0, r)), NAN16);
    }
}
