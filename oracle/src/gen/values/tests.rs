//! The value distribution (values.rs): every boundary class and every
//! relation occurs at a stated minimum rate, and each drawn value is what
//! its class says, checked by host arithmetic written here (not by the
//! generator's own helpers).

use super::*;
use std::collections::HashMap;

const DRAWS: u32 = 20_000;

fn mask_of(w: u32) -> u64 {
    if w == 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// `v` read as a signed `w`-bit integer.
fn signed(v: u64, w: u32) -> i128 {
    let s = 128 - w;
    ((i128::from(v)) << s) >> s
}

/// Host check of an integer class.
fn int_class_holds(c: IntClass, v: u64, w: u32) -> bool {
    let m = mask_of(w);
    let pow2 = |x: u64| x & m != 0 && (x & m).is_power_of_two();
    let min = 1u64 << (w - 1);
    match c {
        IntClass::Zero => v == 0,
        IntClass::One => v == 1,
        IntClass::AllOnes => v == m,
        IntClass::Pow2 => pow2(v),
        IntClass::Pow2Neighbour => pow2(v.wrapping_sub(1)) || pow2(v.wrapping_add(1)),
        IntClass::NegPow2 => pow2(v.wrapping_neg()),
        IntClass::SignedMin => v == min || v == min + 1,
        IntClass::SignedMax => v == min - 1 || v == min - 2,
        IntClass::EdgeHalves => {
            let h = w / 2;
            let hm = mask_of(h);
            let hmin = 1u64 << (h - 1);
            let edge = |x: u64| [0, 1, 2, hmin - 1, hmin, hmin + 1, hm - 1, hm].contains(&x);
            edge(v & hm) && edge(v >> h)
        }
        IntClass::FloatEdge => {
            let a = signed(v, w).unsigned_abs();
            [1u128 << 11, 1 << 24, 1 << 53]
                .iter()
                .any(|&p| (p - 1..=p + 1).contains(&a))
                || (w == 8 && (63..=65).contains(&a))
        }
        IntClass::Small => (-64..=64).contains(&signed(v, w)),
        IntClass::Uniform => v <= m,
    }
}

#[test]
fn every_integer_class_occurs_and_holds() {
    for w in [8u32, 16, 32, 64] {
        let mut src = Src::from_seed(u64::from(w));
        let mut count: HashMap<IntClass, u32> = HashMap::new();
        for _ in 0..DRAWS {
            let (v, c) = int_value(&mut src, w);
            assert!(int_class_holds(c, v, w), "w={w} {c:?} {v:#x}");
            *count.entry(c).or_default() += 1;
        }
        // every class at least 2% of the draws
        for &(c, _) in INT_CLASSES {
            let n = count.get(&c).copied().unwrap_or(0);
            assert!(n * 50 >= DRAWS, "w={w}: {c:?} {n}/{DRAWS}");
        }
        // boundary values (every class but uniform bits) at least 60%
        let uniform = count.get(&IntClass::Uniform).copied().unwrap_or(0);
        assert!((DRAWS - uniform) * 10 >= DRAWS * 6, "w={w}: {uniform}");
    }
}

#[test]
fn the_64_bit_edges_of_the_issue_are_drawn() {
    // 0x7fffffff/0x80000000/0xffffffff and the 64-bit values whose halves
    // are those, each at least once in the draws
    let mut src = Src::from_seed(64);
    let mut seen32 = [false; 3];
    let want32 = [0x7fff_ffffu64, 0x8000_0000, 0xffff_ffff];
    for _ in 0..DRAWS {
        let v = int_value(&mut src, 32).0;
        for (k, &x) in want32.iter().enumerate() {
            seen32[k] |= v == x;
        }
    }
    assert_eq!(seen32, [true; 3]);
    let want64 = [
        0x7fff_ffff_ffff_ffffu64,
        0x8000_0000_0000_0000,
        0xffff_ffff_ffff_ffff,
        0x0000_0000_ffff_ffff,
        0xffff_ffff_0000_0000,
        0x0000_0001_0000_0000,
        0x8000_0000_7fff_ffff,
        0x7fff_ffff_8000_0000,
    ];
    let mut seen64 = [false; 8];
    for _ in 0..DRAWS * 2 {
        let v = int_value(&mut src, 64).0;
        for (k, &x) in want64.iter().enumerate() {
            seen64[k] |= v == x;
        }
    }
    assert_eq!(seen64, [true; 8]);
}

/// A float format's bits decoded by host arithmetic: (sign, class name of
/// IEEE 754: "zero", "subnormal", "normal", "inf", "qnan", "snan", value).
fn decode(n: Num, v: u64) -> (bool, &'static str, f64) {
    let (e, m) = match n {
        Num::F16 => (5, 10),
        Num::F32 => (8, 23),
        _ => (11, 52),
    };
    let sign = v >> (e + m) & 1 == 1;
    let exp = (v >> m) & ((1 << e) - 1);
    let mant = v & ((1u64 << m) - 1);
    let bias = (1i32 << (e - 1)) - 1;
    let s = if sign { -1.0 } else { 1.0 };
    let frac = mant as f64 / (1u64 << m) as f64;
    if exp == (1 << e) - 1 {
        let kind = if mant == 0 {
            "inf"
        } else if mant >> (m - 1) == 1 {
            "qnan"
        } else {
            "snan"
        };
        return (sign, kind, f64::NAN);
    }
    if exp == 0 {
        let kind = if mant == 0 { "zero" } else { "subnormal" };
        return (sign, kind, s * frac * pow2i(1 - bias));
    }
    (sign, "normal", s * (1.0 + frac) * pow2i(exp as i32 - bias))
}

/// 2^k as an f64, exact down to the subnormals (`powi` goes through
/// 1/2^-k, which overflows below 2^-1023).
fn pow2i(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// One unit in the last place at `x` in the format (normal range; at 0 the
/// smallest subnormal).
fn ulp(n: Num, x: f64) -> f64 {
    let (m, emin) = match n {
        Num::F16 => (10, -14),
        Num::F32 => (23, -126),
        _ => (52, -1022),
    };
    let e = if x == 0.0 {
        emin
    } else {
        (x.abs().log2().floor() as i32).max(emin)
    };
    pow2i(e - m)
}

fn float_class_holds(n: Num, c: FloatClass, v: u64) -> bool {
    let (_, kind, x) = decode(n, v);
    let (max, min_normal) = match n {
        Num::F16 => (65504.0, pow2i(-14)),
        Num::F32 => (f64::from(f32::MAX), f64::from(f32::MIN_POSITIVE)),
        _ => (f64::MAX, f64::MIN_POSITIVE),
    };
    let p = match n {
        Num::F16 => 2048.0,
        Num::F32 => 16_777_216.0,
        _ => 9_007_199_254_740_992.0,
    };
    let a = x.abs();
    // within one ulp of t (both sides: the ulp below a power of two is half)
    let near = |t: f64| (a - t).abs() <= ulp(n, t);
    match c {
        FloatClass::Zero => kind == "zero",
        FloatClass::Inf => kind == "inf",
        FloatClass::QuietNan => {
            let m = match n {
                Num::F16 => 10,
                Num::F32 => 23,
                _ => 52,
            };
            kind == "qnan" && v & ((1u64 << m) - 1) == 1 << (m - 1)
        }
        FloatClass::SignallingNan => kind == "snan",
        FloatClass::NanPayload => kind == "qnan",
        FloatClass::Subnormal => kind == "subnormal",
        FloatClass::MinNormal => kind == "normal" && near(min_normal) && a >= min_normal,
        FloatClass::MaxNormal => kind == "normal" && near(max),
        FloatClass::One => kind == "normal" && a == 1.0,
        FloatClass::Pow2 => {
            kind == "normal" && {
                let k = a.log2().round() as i32;
                near(pow2i(k))
            }
        }
        FloatClass::NearInt => kind == "normal" && a >= 1.0 && near(a.round()),
        FloatClass::NearHalf => kind == "normal" && near(a.floor() + 0.5),
        FloatClass::MantissaEdge => kind == "normal" && near(p),
        FloatClass::Plain => {
            (kind == "normal" || kind == "zero") && (x * 8.0).fract() == 0.0 && a <= 125.0
        }
        FloatClass::Uniform => {
            let lim = if n == Num::F16 { pow2i(15) } else { pow2i(21) };
            kind == "normal" && a < lim && a >= 1.0 / lim
        }
    }
}

#[test]
fn every_float_class_occurs_and_holds() {
    for n in [Num::F16, Num::F32, Num::F64] {
        for special in [true, false] {
            let mut src = Src::from_seed(u64::from(n.bits()) + u64::from(special));
            let mut count: HashMap<FloatClass, u32> = HashMap::new();
            for _ in 0..DRAWS {
                let (v, c) = float_value(&mut src, n, special);
                assert!(float_class_holds(n, c, v), "{n:?} {c:?} {v:#x}");
                *count.entry(c).or_default() += 1;
            }
            for &(c, _, is_special) in FLOAT_CLASSES {
                let got = count.get(&c).copied().unwrap_or(0);
                if is_special && !special {
                    assert_eq!(got, 0, "{n:?}: {c:?} without the special family");
                } else {
                    // every class at least 1.5% of the draws
                    assert!(got * 200 >= DRAWS * 3, "{n:?} {special}: {c:?} {got}");
                }
            }
        }
    }
}

/// Host check of a relation between `a` and `b` of `w` bits.
fn int_corr_holds(c: Corr, a: u64, b: u64, w: u32) -> bool {
    let m = mask_of(w);
    let h = w / 2;
    let hm = mask_of(h);
    match c {
        Corr::Same => a == b,
        Corr::PlusOne => a == b.wrapping_add(1) & m,
        Corr::MinusOne => a == b.wrapping_sub(1) & m,
        Corr::Neg => a == b.wrapping_neg() & m,
        Corr::Not => a == !b & m,
        Corr::SignFlip => a ^ b == if w == 64 { 0x8000_0000 } else { 1 << (w - 1) },
        Corr::SameHi => a >> h == b >> h && a != b,
        Corr::SameLo => a & hm == b & hm && a != b,
        Corr::Shl => (1..w).any(|k| a == (b << k) & m),
    }
}

#[test]
fn every_relation_occurs_and_holds() {
    for w in [8u32, 16, 32, 64] {
        let n = Num::Int(w);
        let mut src = Src::from_seed(100 + u64::from(w));
        let mut count: HashMap<Corr, u32> = HashMap::new();
        for _ in 0..DRAWS {
            let b = int_value(&mut src, w).0;
            let c = pick_corr(&mut src, n);
            let a = relate(&mut src, n, c, b);
            assert!(int_corr_holds(c, a, b, w), "w={w} {c:?} a={a:#x} b={b:#x}");
            *count.entry(c).or_default() += 1;
        }
        // every relation at least 5% of the pairs
        for &(c, _) in INT_CORRS {
            let got = count.get(&c).copied().unwrap_or(0);
            assert!(got * 20 >= DRAWS, "w={w}: {c:?} {got}");
        }
    }
    // floats: the same value, the negation, the neighbour one ulp away
    for n in [Num::F16, Num::F32, Num::F64] {
        let mut src = Src::from_seed(7);
        let mut count: HashMap<Corr, u32> = HashMap::new();
        for _ in 0..DRAWS {
            let b = float_value(&mut src, n, false).0;
            let c = pick_corr(&mut src, n);
            let a = relate(&mut src, n, c, b);
            let (_, _, xa) = decode(n, a);
            let (_, _, xb) = decode(n, b);
            let ok = match c {
                Corr::Same => a == b,
                Corr::Neg => xa == -xb,
                Corr::PlusOne => xa.abs() > xb.abs() && xa.abs() - xb.abs() <= ulp(n, xb),
                _ => false,
            };
            assert!(ok, "{n:?} {c:?} a={a:#x} b={b:#x}");
            *count.entry(c).or_default() += 1;
        }
        for &(c, _) in FLOAT_CORRS {
            let got = count.get(&c).copied().unwrap_or(0);
            assert!(got * 5 >= DRAWS, "{n:?}: {c:?} {got}");
        }
    }
}

#[test]
fn buffers_relate_neighbours_and_share_high_words() {
    let mut src = Src::from_seed(9);
    let (mut adjacent, mut related, mut pairs, mut same_hi) = (0u32, 0u32, 0u32, 0u32);
    for _ in 0..200 {
        let (v, special) = buffer_bits(&mut src, Num::Int(64), 64, false);
        assert!(!special);
        assert_eq!(v.len(), 64);
        for i in 1..v.len() {
            adjacent += 1;
            let rel = INT_CORRS
                .iter()
                .any(|&(c, _)| int_corr_holds(c, v[i], v[i - 1], 64));
            related += u32::from(rel);
        }
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                pairs += 1;
                same_hi += u32::from(v[i] >> 32 == v[j] >> 32);
            }
        }
    }
    // a neighbour is related at least 30% of the time (random 64-bit
    // neighbours almost never are)
    assert!(related * 10 >= adjacent * 3, "{related}/{adjacent}");
    // any two elements share their high word at least 8% of the time
    assert!(same_hi * 100 >= pairs * 8, "{same_hi}/{pairs}");
}

#[test]
fn float_buffers_without_special_are_finite() {
    let mut src = Src::from_seed(11);
    for n in [Num::F16, Num::F32, Num::F64] {
        for _ in 0..100 {
            let (v, special) = buffer_bits(&mut src, n, 64, false);
            assert!(!special);
            for &x in &v {
                let (_, kind, _) = decode(n, x);
                assert!(kind == "normal" || kind == "zero", "{n:?} {x:#x}");
            }
        }
        let (_, special) = buffer_bits(&mut src, n, 64, true);
        assert!(special, "{n:?}: 64 draws with specials drew none");
    }
}
