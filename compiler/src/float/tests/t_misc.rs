//! min/max, testp, copysign, abs/neg, comparisons and packed helpers:
//! tables following the ISA's rules, plus host cross-checks.

use quickcheck::QuickCheck;

use super::super::minmax::{max, min, MinMaxMods};
use super::super::packed::{binary_x2, compare_x2, hi, lo, pack, ternary_x2, unary_x2};
use super::super::{
    abs, arith, compare, copysign, neg, testp, CmpOp, FloatType, Mods, Rounding, TestpOp,
};
use super::reference::{self, value, Q};

const F16: FloatType = FloatType::F16;
const BF16: FloatType = FloatType::Bf16;
const F32: FloatType = FloatType::F32;
const F64: FloatType = FloatType::F64;

const ONE: u64 = 0x3f80_0000;
const TWO: u64 = 0x4000_0000;
const THREE: u64 = 0x4040_0000;
const NEG0: u64 = 0x8000_0000;
const QNAN: u64 = 0x7fc0_0000;
const NNAN: u64 = 0xffc0_1234;
const CNAN: u64 = 0x7fff_ffff;
const INF: u64 = 0x7f80_0000;
const NINF: u64 = 0xff80_0000;

fn mm(nan: bool, xa: bool, ftz: bool) -> MinMaxMods {
    MinMaxMods {
        ftz,
        nan,
        xorsign_abs: xa,
    }
}

#[test]
fn min_max_table() {
    let n = MinMaxMods::NONE;
    // (ty, a, b, mods, min, max)
    let rows: &[(FloatType, u64, u64, MinMaxMods, u64, u64)] = &[
        (F32, ONE, TWO, n, ONE, TWO),
        (F32, TWO, ONE, n, ONE, TWO),
        // one NaN operand is ignored (ISA min_num)
        (F32, QNAN, ONE, n, ONE, ONE),
        (F32, ONE, NNAN, n, ONE, ONE),
        (F32, QNAN, NINF, n, NINF, NINF),
        (F32, INF, 0x7f80_0001, n, INF, INF),
        // two NaNs: canonical NaN
        (F32, QNAN, NNAN, n, CNAN, CNAN),
        // -0.0 < +0.0 in either order
        (F32, NEG0, 0, n, NEG0, 0),
        (F32, 0, NEG0, n, NEG0, 0),
        (F32, NINF, INF, n, NINF, INF),
        (F32, ONE, ONE, n, ONE, ONE),
        // .NaN: any NaN -> canonical NaN (ISA min_nan)
        (F32, ONE, QNAN, mm(true, false, false), CNAN, CNAN),
        (F32, NNAN, ONE, mm(true, false, false), CNAN, CNAN),
        (F32, ONE, TWO, mm(true, false, false), ONE, TWO),
        // .xorsign.abs: magnitude min/max of |a|,|b|, sign = sa ^ sb
        (
            F32,
            0xc040_0000,
            TWO,
            mm(false, true, false),
            0xc000_0000,
            0xc040_0000,
        ),
        (
            F32,
            0xc040_0000,
            0xc000_0000,
            mm(false, true, false),
            TWO,
            THREE,
        ),
        (F32, THREE, TWO, mm(false, true, false), TWO, THREE),
        // xorsign uses the NaN's sign bit too; the NaN itself is ignored:
        // -NaN, 2 -> |2| with sign 1 ^ 0 = -2
        (
            F32,
            NNAN,
            TWO,
            mm(false, true, false),
            0xc000_0000,
            0xc000_0000,
        ),
        // NaN result: .xorsign.abs ignored
        (
            F32,
            NNAN,
            QNAN | 0x8000_0000,
            mm(false, true, false),
            CNAN,
            CNAN,
        ),
        (F32, NNAN, TWO, mm(true, true, false), CNAN, CNAN),
        // .ftz: subnormals are zeros of their sign
        (F32, 0x8000_0001, 0, mm(false, false, true), NEG0, 0),
        (F32, 0x8000_0001, 0, n, 0x8000_0001, 0),
        (F32, 0x0000_0005, 0x0000_0003, n, 3, 5),
        // f64: -0 < +0; two NaNs -> first NaN quieted (payload rule)
        (F64, 0x8000_0000_0000_0000, 0, n, 0x8000_0000_0000_0000, 0),
        (
            F64,
            0x7ff0_0000_0000_0001,
            0x7ff8_0000_0000_0002,
            n,
            0x7ff8_0000_0000_0001,
            0x7ff8_0000_0000_0001,
        ),
        (
            F64,
            0x7ff8_0000_0000_0000,
            0xbff0_0000_0000_0000,
            n,
            0xbff0_0000_0000_0000,
            0xbff0_0000_0000_0000,
        ),
        // f16 / bf16 (#half-precision-floating-point-instructions-min)
        (F16, 0x7e00, 0x3c00, n, 0x3c00, 0x3c00),
        (F16, 0x7e00, 0xfe01, n, 0x7fff, 0x7fff),
        (F16, 0x8000, 0x0000, n, 0x8000, 0x0000),
        (F16, 0xc200, 0x4000, mm(false, true, false), 0xc000, 0xc200),
        (F16, 0x3c00, 0x7c01, mm(true, false, false), 0x7fff, 0x7fff),
        (F16, 0x8001, 0x0000, mm(false, false, true), 0x8000, 0x0000),
        (BF16, 0x3f80, 0x4000, n, 0x3f80, 0x4000),
        (BF16, 0xffc1, 0x7fc0, n, 0x7fff, 0x7fff),
    ];
    for &(ty, a, b, m, emin, emax) in rows {
        assert_eq!(min(ty, a, b, m), emin, "min {ty:?} {a:#x} {b:#x} {m:?}");
        assert_eq!(max(ty, a, b, m), emax, "max {ty:?} {a:#x} {b:#x} {m:?}");
    }
}

/// min/max without modifiers against IEEE 754-2019 minimumNumber /
/// maximumNumber as restated from the ISA: NaN ignored, -0 < +0.
#[test]
fn min_max_against_host() {
    fn prop(a: u32, b: u32) -> bool {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        let got_min = min(F32, a as u64, b as u64, MinMaxMods::NONE);
        let got_max = max(F32, a as u64, b as u64, MinMaxMods::NONE);
        if x.is_nan() && y.is_nan() {
            return got_min == CNAN && got_max == CNAN;
        }
        // host fmin/fmax ignore a single NaN; zeros need the sign rule.
        let (hmin, hmax) = if x == 0.0 && y == 0.0 {
            let neg = x.is_sign_negative() || y.is_sign_negative();
            let pos = x.is_sign_positive() || y.is_sign_positive();
            (
                if neg { -0.0f32 } else { 0.0 },
                if pos { 0.0f32 } else { -0.0 },
            )
        } else {
            (x.min(y), x.max(y))
        };
        got_min == hmin.to_bits() as u64 && got_max == hmax.to_bits() as u64
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(prop as fn(u32, u32) -> bool);
}

#[test]
fn testp_table() {
    use TestpOp::*;
    // (value, [finite, infinite, number, notanumber, normal, subnormal])
    let rows: &[(FloatType, u64, [bool; 6])] = &[
        // "positive and negative zero are considered normal numbers"
        (F32, 0, [true, false, true, false, true, false]),
        (F32, NEG0, [true, false, true, false, true, false]),
        (F32, 1, [true, false, true, false, false, true]),
        (F32, 0x807f_ffff, [true, false, true, false, false, true]),
        (F32, 0x0080_0000, [true, false, true, false, true, false]),
        (F32, ONE, [true, false, true, false, true, false]),
        (F32, 0xff7f_ffff, [true, false, true, false, true, false]),
        (F32, INF, [false, true, true, false, false, false]),
        (F32, NINF, [false, true, true, false, false, false]),
        (F32, QNAN, [false, false, false, true, false, false]),
        (F32, 0x7f80_0001, [false, false, false, true, false, false]),
        (F32, NNAN, [false, false, false, true, false, false]),
        (
            F64,
            0x8000_0000_0000_0001,
            [true, false, true, false, false, true],
        ),
        (
            F64,
            0x0010_0000_0000_0000,
            [true, false, true, false, true, false],
        ),
        (
            F64,
            0x7ff0_0000_0000_0000,
            [false, true, true, false, false, false],
        ),
        (
            F64,
            0xfff0_0000_0000_0001,
            [false, false, false, true, false, false],
        ),
        (F16, 0x03ff, [true, false, true, false, false, true]),
        (F16, 0x0400, [true, false, true, false, true, false]),
        (F16, 0x7c00, [false, true, true, false, false, false]),
        (BF16, 0x007f, [true, false, true, false, false, true]),
        (BF16, 0x7f81, [false, false, false, true, false, false]),
    ];
    for &(ty, x, exp) in rows {
        for (i, op) in [Finite, Infinite, Number, NotANumber, Normal, Subnormal]
            .iter()
            .enumerate()
        {
            assert_eq!(testp(ty, *op, x), exp[i], "testp.{op:?}.{ty:?}({x:#x})");
        }
    }
}

/// testp over every f16 and bf16 pattern against definitions stated on the
/// exact value: normal iff zero or |v| >= 2^(1-bias).
#[test]
fn testp_exhaustive_half() {
    for (ty, f, min_normal) in [
        (F16, reference::F16, Q::int(1).scale(-14)),
        (BF16, reference::BF16, Q::int(1).scale(-126)),
    ] {
        for x in 0..=0xffffu64 {
            let nan = f.is_nan(x);
            let finite = f.is_finite(x);
            assert_eq!(testp(ty, TestpOp::NotANumber, x), nan);
            assert_eq!(testp(ty, TestpOp::Number, x), !nan);
            assert_eq!(testp(ty, TestpOp::Finite, x), finite);
            assert_eq!(testp(ty, TestpOp::Infinite, x), !finite && !nan);
            if finite {
                let v = value(f, x);
                let mag = if v.num.sign() == num_bigint::Sign::Minus {
                    v.neg()
                } else {
                    v
                };
                let normal = mag.is_zero() || mag.cmp(&min_normal) != std::cmp::Ordering::Less;
                assert_eq!(testp(ty, TestpOp::Normal, x), normal, "{ty:?} {x:#x}");
                assert_eq!(testp(ty, TestpOp::Subnormal, x), !normal, "{ty:?} {x:#x}");
            } else {
                assert!(!testp(ty, TestpOp::Normal, x) && !testp(ty, TestpOp::Subnormal, x));
            }
        }
    }
}

#[test]
fn copysign_operand_order() {
    // copysign d, a, b: "Copy sign bit of a into value of b"
    assert_eq!(
        copysign(F32, 0xbf80_0000, TWO),
        0xc000_0000,
        "sign of a=-1 onto b=2"
    );
    assert_eq!(
        copysign(F32, TWO, 0xbf80_0000),
        ONE,
        "sign of a=+2 onto b=-1"
    );
    assert_eq!(copysign(F32, ONE, NINF), INF);
    assert_eq!(
        copysign(F32, NEG0, 0x7fc0_0001),
        0xffc0_0001,
        "NaN payload kept"
    );
    assert_eq!(
        copysign(F64, 0x3ff0_0000_0000_0000, 0xc008_0000_0000_0000),
        0x4008_0000_0000_0000
    );
    assert_eq!(copysign(F16, 0x8000, 0x3c00), 0xbc00);
    // against the host: PTX copysign(a, b) == C copysign(b, a)
    fn prop(a: u32, b: u32) -> bool {
        copysign(F32, a as u64, b as u64)
            == f32::from_bits(b).copysign(f32::from_bits(a)).to_bits() as u64
    }
    QuickCheck::new()
        .tests(10_000)
        .quickcheck(prop as fn(u32, u32) -> bool);
}

#[test]
fn abs_neg_table() {
    // f32: NaN -> canonical (FADD lowering); values: sign operations
    assert_eq!(abs(F32, 0xbf80_0000, false), ONE);
    assert_eq!(abs(F32, NEG0, false), 0);
    assert_eq!(abs(F32, NINF, false), INF);
    assert_eq!(abs(F32, NNAN, false), CNAN);
    assert_eq!(neg(F32, QNAN, false), CNAN);
    assert_eq!(neg(F32, 0, false), NEG0);
    assert_eq!(neg(F32, ONE, false), 0xbf80_0000);
    assert_eq!(
        abs(F32, 0x8000_0001, false),
        1,
        "subnormal kept without .ftz"
    );
    assert_eq!(abs(F32, 0x8000_0001, true), 0, ".ftz flushes, then abs");
    assert_eq!(
        neg(F32, 0x0000_0001, true),
        NEG0,
        ".ftz flushes to +0, neg gives -0"
    );
    // f64: NaN passed through with its sign (CUDA guide), a signalling NaN
    // quieted (DADD d, -RZ, -a passes the NaN on quieted: the simulator's
    // model, UNCONFIRMED on hardware)
    assert_eq!(
        abs(F64, 0xfff8_0000_0000_0001, false),
        0xfff8_0000_0000_0001
    );
    assert_eq!(
        neg(F64, 0x7ff8_0000_0000_0001, false),
        0x7ff8_0000_0000_0001
    );
    assert_eq!(
        neg(F64, 0x7ff0_0000_0000_0001, false),
        0x7ff8_0000_0000_0001
    );
    assert_eq!(
        abs(F64, 0xfff0_0000_0000_0001, false),
        0xfff8_0000_0000_0001
    );
    assert_eq!(
        abs(F64, 0xbff0_0000_0000_0000, false),
        0x3ff0_0000_0000_0000
    );
    assert_eq!(neg(F64, 0, false), 0x8000_0000_0000_0000);
    // f16/bf16: sign operations on numbers, the canonical NaN 0x7fff for a
    // NaN (ptxas lowers them to HADD2 / HFMA2.BF16_V2 arithmetic)
    assert_eq!(neg(F16, 0x3c00, false), 0xbc00);
    assert_eq!(abs(F16, 0xbc00, false), 0x3c00);
    assert_eq!(neg(F16, 0x0000, false), 0x8000);
    assert_eq!(abs(F16, 0xfe00, false), 0x7fff);
    assert_eq!(neg(F16, 0x7c01, false), 0x7fff);
    assert_eq!(neg(BF16, 0x7fc1, false), 0x7fff);
    assert_eq!(abs(BF16, 0xc000, false), 0x4000);
}

const OPS: [CmpOp; 14] = CmpOp::ALL;

/// Truth table rows "eq ne lt le gt ge equ neu ltu leu gtu geu num nan"
/// from ISA Tables 23-25.
fn row(bits: &str) -> [bool; 14] {
    let v: Vec<bool> = bits.chars().map(|c| c == '1').collect();
    v.try_into().unwrap()
}

#[test]
fn compare_table() {
    let less = row("01110001110010");
    let greater = row("01001101001110");
    let equal = row("10010110010110");
    let unordered = row("00000011111101");
    let rows: &[(FloatType, u64, u64, bool, [bool; 14])] = &[
        (F32, ONE, TWO, false, less),
        (F32, TWO, ONE, false, greater),
        (F32, ONE, ONE, false, equal),
        (F32, 0, NEG0, false, equal),
        (F32, QNAN, ONE, false, unordered),
        (F32, ONE, NNAN, false, unordered),
        (F32, QNAN, QNAN, false, unordered),
        (F32, NINF, INF, false, less),
        (F32, INF, INF, false, equal),
        (F32, 0xbf80_0000, NEG0, false, less),
        (F32, 1, 0, false, greater),
        (F32, 1, 0, true, equal),
        (F32, 0x8000_0001, 1, true, equal),
        (F32, 0x8000_0001, 1, false, less),
        (
            F64,
            0x3ff0_0000_0000_0000,
            0x3ff0_0000_0000_0001,
            false,
            less,
        ),
        (F64, 0x7ff0_0000_0000_0001, 0, false, unordered),
        (F16, 0x3c00, 0x4000, false, less),
        (F16, 0x0001, 0x8000, true, equal),
        (F16, 0x0001, 0x8000, false, greater),
        (F16, 0x7c01, 0x7c01, false, unordered),
        (BF16, 0xc000, 0xbf80, false, less),
    ];
    for &(ty, a, b, ftz, exp) in rows {
        for (i, op) in OPS.iter().enumerate() {
            assert_eq!(
                compare(ty, *op, a, b, ftz),
                exp[i],
                "setp.{op:?}.{ty:?}({a:#x}, {b:#x}) ftz={ftz}"
            );
        }
    }
}

/// Ordered/unordered comparisons against the host's IEEE comparisons.
#[test]
fn compare_against_host() {
    fn prop(a: u64, b: u64) -> bool {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        use std::cmp::Ordering::{Equal, Greater, Less};
        let un = x.is_nan() || y.is_nan();
        let ord = x.partial_cmp(&y);
        // unordered forms: true when the host comparison is unordered
        let u = |accept: &[std::cmp::Ordering]| ord.is_none_or(|o| accept.contains(&o));
        let c = |op| compare(F64, op, a, b, false);
        c(CmpOp::Eq) == (x == y)
            && c(CmpOp::Ne) == (x != y && !un)
            && c(CmpOp::Lt) == (x < y)
            && c(CmpOp::Le) == (x <= y)
            && c(CmpOp::Gt) == (x > y)
            && c(CmpOp::Ge) == (x >= y)
            && c(CmpOp::Equ) == (x == y || un)
            && c(CmpOp::Neu) == (x != y)
            && c(CmpOp::Ltu) == u(&[Less])
            && c(CmpOp::Leu) == u(&[Less, Equal])
            && c(CmpOp::Gtu) == u(&[Greater])
            && c(CmpOp::Geu) == u(&[Greater, Equal])
            && c(CmpOp::Num) != un
            && c(CmpOp::Nan) == un
    }
    QuickCheck::new()
        .tests(20_000)
        .quickcheck(prop as fn(u64, u64) -> bool);
}

#[test]
fn packed_lanes() {
    // lane 0 = low half: a = (1.0, 2.0), b = (0.5, 0.5)
    let a = pack(0x3c00, 0x4000);
    assert_eq!(a, 0x4000_3c00);
    assert_eq!((lo(a), hi(a)), (0x3c00, 0x4000));
    let b = pack(0x3800, 0x3800);
    let sum = binary_x2(a, b, |x, y| arith::add(F16, x, y, Rounding::Rn, Mods::NONE));
    assert_eq!(sum, pack(0x3e00, 0x4100), "(1.5, 2.5)");
    // fma lane-wise: a*b + a = (1.5, 3.0)
    let f = ternary_x2(a, b, a, |x, y, z| {
        arith::fma(F16, x, y, z, Rounding::Rn, Mods::NONE)
    });
    assert_eq!(f, pack(0x3e00, 0x4200));
    // setp.lt.f16x2 p|q: p is lane 0
    let (p, q) = compare_x2(
        F16,
        CmpOp::Lt,
        pack(0x3c00, 0x4200),
        pack(0x4000, 0x4000),
        false,
    );
    assert!(p && !q);
    // min.f16x2 with a NaN in one lane only
    let m = binary_x2(pack(0x7e00, 0x3c00), pack(0x4000, 0x7e00), |x, y| {
        min(F16, x, y, MinMaxMods::NONE)
    });
    assert_eq!(m, pack(0x4000, 0x3c00));
    // neg.bf16x2
    assert_eq!(
        unary_x2(pack(0x3f80, 0xbf80), |x| neg(BF16, x, false)),
        pack(0xbf80, 0x3f80)
    );
}

/// Exact value helper sanity: the reference decodes 1.0 and 2^-149.
#[test]
fn reference_sanity() {
    assert_eq!(
        value(reference::F32, ONE).cmp(&Q::int(1)),
        std::cmp::Ordering::Equal
    );
    assert_eq!(
        value(reference::F32, 1).cmp(&Q::int(1).scale(-149)),
        std::cmp::Ordering::Equal
    );
    assert_eq!(
        value(reference::F16, 0x7bff).cmp(&Q::int(65504)),
        std::cmp::Ordering::Equal
    );
    assert_eq!(
        value(reference::BF16, 0x4380).cmp(&Q::int(256)),
        std::cmp::Ordering::Equal
    );
}
