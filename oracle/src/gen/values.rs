//! Operand values as a distribution that finds bugs (issue 29): the one
//! place that decides which numbers the generator writes, for immediate
//! constants (`emit.rs`), the `.const` table, the contents of the input
//! launch buffers (`launch.rs`) and the operand pairs of the values the
//! program computes (`second_opnd`, used by the integer, comparison and
//! selection builders).
//!
//! Random bits almost never hit the values where a lowering takes a
//! different path: 0, +-1, powers of two and their neighbours, the signed
//! and unsigned extremes, 64-bit values whose 32-bit halves are such edges,
//! the integers where float conversion stops being exact (2^11, 2^24,
//! 2^53), and for floats +-0, +-inf, quiet and signalling NaNs with
//! payloads, subnormals, the smallest and largest normals, values next to
//! integers and to halves. Random pairs almost never relate either: a
//! 64-bit compare whose low-word path is wrong shows only when the high
//! words are equal (probability 2^-32 for random operands). So operands are
//! also drawn *correlated*: `a = b`, `b +- 1`, `-b`, `~b`, `b ^ 0x80000000`,
//! equal high halves, equal low halves, `b << k`, the same register twice.
//!
//! Every draw goes through the generator's [`Src`], so programs stay
//! deterministic; nothing here can make a program undefined (divisors are
//! still guarded by the builders, `int.rs`).

use super::emit::{Gen, Reg, RC};
use super::features::{Family, VType};
use super::source::Src;

/// A number format: an integer of 8/16/32/64 bits (signedness only matters
/// when printed), or a float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Num {
    Int(u32),
    F16,
    F32,
    F64,
}

impl Num {
    pub fn of(t: VType) -> Num {
        match t {
            VType::U32 | VType::S32 => Num::Int(32),
            VType::U64 | VType::S64 => Num::Int(64),
            VType::F16 => Num::F16,
            VType::F32 => Num::F32,
            VType::F64 => Num::F64,
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            Num::Int(w) => w,
            Num::F16 => 16,
            Num::F32 => 32,
            Num::F64 => 64,
        }
    }

    fn mask(self) -> u64 {
        mask(self.bits())
    }

    /// (exponent bits, mantissa bits) of a float format (IEEE 754 binary16,
    /// binary32, binary64; PTX ISA 5.2.1).
    fn float_shape(self) -> Option<(u32, u32)> {
        match self {
            Num::F16 => Some((5, 10)),
            Num::F32 => Some((8, 23)),
            Num::F64 => Some((11, 52)),
            Num::Int(_) => None,
        }
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// The boundary classes of an integer value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IntClass {
    Zero,
    One,
    /// all ones (-1)
    AllOnes,
    /// 2^k
    Pow2,
    /// 2^k - 1 or 2^k + 1
    Pow2Neighbour,
    /// -(2^k)
    NegPow2,
    /// the signed minimum (0x80..0) and its neighbour above
    SignedMin,
    /// the signed maximum (0x7f..f) and its neighbour below
    SignedMax,
    /// each half is an edge of the half width (0x7fffffff_ffffffff,
    /// 0x00000001_00000000, 0xffffffff_80000000, ...)
    EdgeHalves,
    /// 2^11, 2^24, 2^53 and their neighbours (where conversions to f16,
    /// f32, f64 stop being exact), either sign
    FloatEdge,
    /// -64..=64 (shift amounts, bit-field positions)
    Small,
    /// uniform random bits
    Uniform,
}

/// `(class, weight)`: the integer distribution (weights out of 100).
pub(crate) const INT_CLASSES: &[(IntClass, u32)] = &[
    (IntClass::Zero, 4),
    (IntClass::One, 4),
    (IntClass::AllOnes, 5),
    (IntClass::Pow2, 7),
    (IntClass::Pow2Neighbour, 9),
    (IntClass::NegPow2, 4),
    (IntClass::SignedMin, 5),
    (IntClass::SignedMax, 5),
    (IntClass::EdgeHalves, 9),
    (IntClass::FloatEdge, 4),
    (IntClass::Small, 14),
    (IntClass::Uniform, 30),
];

/// The edges of a `w`-bit half: 0, 1, 2, the signed extremes and their
/// neighbours, all ones and its neighbour.
fn half_edges(w: u32) -> [u64; 8] {
    let m = mask(w);
    let min = 1u64 << (w - 1);
    [0, 1, 2, min - 1, min, min + 1, m - 1, m]
}

/// One integer of `w` bits (8, 16, 32 or 64) and its class.
pub(crate) fn int_value(src: &mut Src<'_, '_>, w: u32) -> (u64, IntClass) {
    let weights: Vec<u32> = INT_CLASSES.iter().map(|c| c.1).collect();
    let class = INT_CLASSES[src.weighted(&weights).unwrap_or(0)].0;
    let m = mask(w);
    let k = |src: &mut Src<'_, '_>| src.below(w);
    let v = match class {
        IntClass::Zero => 0,
        IntClass::One => 1,
        IntClass::AllOnes => m,
        IntClass::Pow2 => 1u64 << k(src),
        IntClass::Pow2Neighbour => {
            let p = 1u64 << src.range(1, w - 1);
            if src.chance(0.5) {
                p - 1
            } else {
                p + 1
            }
        }
        IntClass::NegPow2 => (1u64 << k(src)).wrapping_neg(),
        IntClass::SignedMin => (1u64 << (w - 1)) + u64::from(src.below(2)),
        IntClass::SignedMax => (m >> 1) - u64::from(src.below(2)),
        IntClass::EdgeHalves => {
            let h = w / 2;
            let e = half_edges(h);
            (src.pick(&e) << h) | src.pick(&e)
        }
        IntClass::FloatEdge => {
            let ps: &[u32] = match w {
                64 => &[11, 24, 53],
                32 => &[11, 24],
                _ => &[11],
            };
            let p = src.pick(ps).min(w - 2);
            let v = (1u64 << p) + u64::from(src.below(3)) - 1;
            if src.chance(0.5) {
                v.wrapping_neg()
            } else {
                v
            }
        }
        IntClass::Small => (i64::from(src.below(129)) - 64) as u64,
        IntClass::Uniform => uniform(src, w),
    };
    (v & m, class)
}

fn uniform(src: &mut Src<'_, '_>, w: u32) -> u64 {
    ((u64::from(src.word()) << 32) | u64::from(src.word())) & mask(w)
}

/// The boundary classes of a float value. The first eight are "special"
/// (only with the `special` family: NaN, +-0, infinities, subnormals and
/// the range ends, whose results overflow or flush).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FloatClass {
    /// +0 or -0
    Zero,
    /// +inf or -inf
    Inf,
    /// the canonical quiet NaN (either sign)
    QuietNan,
    /// a signalling NaN (quiet bit clear, payload non-zero)
    SignallingNan,
    /// a quiet NaN with a random payload
    NanPayload,
    /// the smallest, the largest or a random subnormal
    Subnormal,
    /// the smallest normal and its neighbour above
    MinNormal,
    /// the largest finite value and its neighbour below
    MaxNormal,
    /// +-1
    One,
    /// +-2^k and the neighbours one unit in the last place away
    Pow2,
    /// an integer, or its neighbours one ulp away
    NearInt,
    /// n + 0.5, or its neighbours one ulp away
    NearHalf,
    /// 2^p (p = mantissa bits + 1: 2^11, 2^24, 2^53) and its neighbours
    MantissaEdge,
    /// k/8 for k in -1000..=1000 (the old plain constants)
    Plain,
    /// random sign and mantissa, exponent within 2^-20..2^20 (f16: 2^-14..2^14)
    Uniform,
}

/// `(class, weight, special)`: the float distribution.
pub(crate) const FLOAT_CLASSES: &[(FloatClass, u32, bool)] = &[
    (FloatClass::Zero, 5, true),
    (FloatClass::Inf, 4, true),
    (FloatClass::QuietNan, 3, true),
    (FloatClass::SignallingNan, 3, true),
    (FloatClass::NanPayload, 3, true),
    (FloatClass::Subnormal, 5, true),
    (FloatClass::MinNormal, 3, true),
    (FloatClass::MaxNormal, 3, true),
    (FloatClass::One, 6, false),
    (FloatClass::Pow2, 8, false),
    (FloatClass::NearInt, 8, false),
    (FloatClass::NearHalf, 8, false),
    (FloatClass::MantissaEdge, 5, false),
    (FloatClass::Plain, 16, false),
    (FloatClass::Uniform, 20, false),
];

/// A float of the format from sign, biased exponent and mantissa fields.
fn fbits(n: Num, sign: bool, exp: u64, mant: u64) -> u64 {
    let (e, m) = n.float_shape().expect("float format");
    (u64::from(sign) << (e + m)) | ((exp & mask(e)) << m) | (mant & mask(m))
}

/// The bits of `x` in the format, for a value the format holds exactly in
/// its normal range (integers, halves and powers of two below 2^p): the
/// f64 fields re-biased, the low mantissa bits (all zero) dropped.
fn exact_bits(n: Num, x: f64) -> u64 {
    let (e, m) = n.float_shape().expect("float format");
    if x == 0.0 {
        return fbits(n, x.is_sign_negative(), 0, 0);
    }
    let b = x.to_bits();
    let sign = b >> 63 != 0;
    let unbiased = ((b >> 52) & 0x7ff) as i64 - 1023;
    let bias = (1i64 << (e - 1)) - 1;
    let mant = (b & mask(52)) >> (52 - m);
    fbits(n, sign, (unbiased + bias) as u64, mant)
}

/// One ulp up (away from zero) or down (toward zero) in magnitude, or the
/// value itself.
fn ulp_step(src: &mut Src<'_, '_>, v: u64) -> u64 {
    match src.below(3) {
        0 => v.wrapping_add(1),
        1 => v.wrapping_sub(1),
        _ => v,
    }
}

/// One float of the format and its class; special classes only when
/// `special` (else their weight goes to the others).
pub(crate) fn float_value(src: &mut Src<'_, '_>, n: Num, special: bool) -> (u64, FloatClass) {
    let (e, m) = n.float_shape().expect("float format");
    let weights: Vec<u32> = FLOAT_CLASSES
        .iter()
        .map(|c| if c.2 && !special { 0 } else { c.1 })
        .collect();
    let class = FLOAT_CLASSES[src.weighted(&weights).unwrap_or(0)].0;
    let emax = mask(e);
    let bias = (1u64 << (e - 1)) - 1;
    let quiet = 1u64 << (m - 1);
    let sign = src.chance(0.5);
    let v = match class {
        FloatClass::Zero => fbits(n, sign, 0, 0),
        FloatClass::Inf => fbits(n, sign, emax, 0),
        FloatClass::QuietNan => fbits(n, sign, emax, quiet),
        FloatClass::SignallingNan => {
            let p = (uniform(src, m - 1) | 1) & mask(m - 1);
            fbits(n, sign, emax, p)
        }
        FloatClass::NanPayload => fbits(n, sign, emax, quiet | uniform(src, m - 1)),
        FloatClass::Subnormal => {
            let mant = match src.below(3) {
                0 => 1,
                1 => mask(m),
                _ => uniform(src, m) | 1,
            };
            fbits(n, sign, 0, mant)
        }
        FloatClass::MinNormal => fbits(n, sign, 1, u64::from(src.below(2))),
        FloatClass::MaxNormal => fbits(n, sign, emax - 1, mask(m) - u64::from(src.below(2))),
        FloatClass::One => fbits(n, sign, bias, 0),
        FloatClass::Pow2 => {
            let k = src.range(1, 2 * 12) as u64;
            let v = fbits(n, sign, bias + k - 12, 0);
            ulp_step(src, v)
        }
        FloatClass::NearInt => {
            let i = f64::from(src.range(2, 1000));
            let v = exact_bits(n, if sign { -i } else { i });
            ulp_step(src, v)
        }
        FloatClass::NearHalf => {
            let i = f64::from(src.below(500)) + 0.5;
            let v = exact_bits(n, if sign { -i } else { i });
            ulp_step(src, v)
        }
        FloatClass::MantissaEdge => {
            let v = fbits(n, sign, bias + u64::from(m) + 1, 0);
            ulp_step(src, v)
        }
        FloatClass::Plain => {
            let x = (f64::from(src.below(2001)) - 1000.0) / 8.0;
            exact_bits(n, x)
        }
        FloatClass::Uniform => {
            // exponents within 2^-20..2^20 (2^-14..2^14 for f16)
            let r = 20.min(bias - 1);
            let k = u64::from(src.below(2 * r as u32 + 1));
            fbits(n, sign, bias + k - r, uniform(src, m))
        }
    };
    (v & n.mask(), class)
}

/// A value of the format and whether it came from a special class.
pub(crate) fn value(src: &mut Src<'_, '_>, n: Num, special: bool) -> (u64, bool) {
    match n {
        Num::Int(w) => (int_value(src, w).0, false),
        _ => {
            let (v, c) = float_value(src, n, special);
            (v, is_special(c))
        }
    }
}

fn is_special(c: FloatClass) -> bool {
    FLOAT_CLASSES.iter().any(|x| x.0 == c && x.2)
}

/// How an operand relates to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Corr {
    /// a = b (the same register twice, in a program)
    Same,
    /// a = b + 1
    PlusOne,
    /// a = b - 1
    MinusOne,
    /// a = -b
    Neg,
    /// a = ~b
    Not,
    /// a = b ^ 0x80000000 (the top bit of the low 32-bit word): equal high
    /// words, low words on either side of the signed boundary
    SignFlip,
    /// equal high halves, different low halves
    SameHi,
    /// equal low halves, different high halves
    SameLo,
    /// a = b << k
    Shl,
}

/// `(relation, weight)` of integer operands.
pub(crate) const INT_CORRS: &[(Corr, u32)] = &[
    (Corr::Same, 14),
    (Corr::PlusOne, 10),
    (Corr::MinusOne, 10),
    (Corr::Neg, 8),
    (Corr::Not, 8),
    (Corr::SignFlip, 12),
    (Corr::SameHi, 18),
    (Corr::SameLo, 10),
    (Corr::Shl, 10),
];

/// `(relation, weight)` of float operands: the same value, its negation,
/// its neighbour one ulp away (`PlusOne` on the bits).
pub(crate) const FLOAT_CORRS: &[(Corr, u32)] =
    &[(Corr::Same, 40), (Corr::Neg, 30), (Corr::PlusOne, 30)];

/// The relation drawn for a pair of operands of the format.
pub(crate) fn pick_corr(src: &mut Src<'_, '_>, n: Num) -> Corr {
    let table = match n {
        Num::Int(_) => INT_CORRS,
        _ => FLOAT_CORRS,
    };
    let weights: Vec<u32> = table.iter().map(|c| c.1).collect();
    table[src.weighted(&weights).unwrap_or(0)].0
}

/// The low half's top bit for `SignFlip` (bit 31 of a 64-bit value, the
/// top bit of a narrower one).
fn sign_flip_bit(w: u32) -> u64 {
    1u64 << (w.min(32) - 1)
}

/// A non-zero value of the half width for `SameHi`/`SameLo` (a half edge
/// or random bits).
fn half_delta(src: &mut Src<'_, '_>, w: u32) -> u64 {
    let h = w / 2;
    let v = if src.chance(0.5) {
        src.pick(&half_edges(h))
    } else {
        uniform(src, h)
    };
    if v == 0 {
        1
    } else {
        v
    }
}

/// The shift of `Shl`: 1..w.
fn shl_amount(src: &mut Src<'_, '_>, w: u32) -> u32 {
    src.range(1, w - 1)
}

/// A value related to `b` (bits of the format) by `c`.
pub(crate) fn relate(src: &mut Src<'_, '_>, n: Num, c: Corr, b: u64) -> u64 {
    let w = n.bits();
    let v = match (n, c) {
        (_, Corr::Same) => b,
        (Num::Int(_), Corr::PlusOne) => b.wrapping_add(1),
        (Num::Int(_), Corr::MinusOne) => b.wrapping_sub(1),
        (Num::Int(_), Corr::Neg) => b.wrapping_neg(),
        (Num::Int(_), Corr::Not) => !b,
        (Num::Int(_), Corr::SignFlip) => b ^ sign_flip_bit(w),
        (Num::Int(_), Corr::SameHi) => b ^ half_delta(src, w),
        (Num::Int(_), Corr::SameLo) => b ^ (half_delta(src, w) << (w / 2)),
        (Num::Int(_), Corr::Shl) => b << shl_amount(src, w),
        // floats: the sign bit, or the bits one above
        (_, Corr::Neg) => b ^ (1u64 << (w - 1)),
        (_, _) => b.wrapping_add(1),
    };
    v & n.mask()
}

/// Whether bits of a float format are NaN or infinite.
fn non_finite(n: Num, v: u64) -> bool {
    match n.float_shape() {
        Some((e, m)) => (v >> m) & mask(e) == mask(e),
        None => false,
    }
}

/// Probability that an element of an input buffer is related to the one
/// before it (else drawn fresh).
const BUFFER_CORR: f64 = 0.35;
/// Probability that a fresh integer element of 32 bits or more takes its
/// high half from the buffer's small palette (so that elements at any two
/// indices share a high word often, not only neighbours).
const BUFFER_PALETTE: f64 = 0.5;
/// High halves in a buffer's palette.
const PALETTE: usize = 3;

/// The contents of an input buffer of `len` elements of the format:
/// boundary values and random bits, elements related to their neighbour
/// (`in[i+1] = in[i] + 1`, equal high words, ...) and high halves shared
/// across the buffer. Also returns whether a special float was drawn.
pub(crate) fn buffer_bits(
    src: &mut Src<'_, '_>,
    n: Num,
    len: u64,
    special: bool,
) -> (Vec<u64>, bool) {
    let w = n.bits();
    let palette: Vec<u64> = (0..PALETTE)
        .map(|_| match n {
            Num::Int(_) => int_value(src, w / 2).0,
            _ => 0,
        })
        .collect();
    let mut out: Vec<u64> = Vec::with_capacity(len as usize);
    let mut any_special = false;
    for i in 0..len {
        let v = match out.last() {
            Some(&prev) if src.chance(BUFFER_CORR) => {
                let c = pick_corr(src, n);
                let v = relate(src, n, c, prev);
                if !special && non_finite(n, v) {
                    prev
                } else {
                    v
                }
            }
            _ => {
                let (mut v, s) = value(src, n, special);
                any_special |= s;
                if matches!(n, Num::Int(w) if w >= 32) && src.chance(BUFFER_PALETTE) {
                    let h = w / 2;
                    v = (v & mask(h)) | (src.pick(&palette) << h);
                }
                v
            }
        };
        debug_assert!(i as usize == out.len());
        out.push(v);
    }
    (out, any_special)
}

/// Probability that the second operand of a 64-bit integer operation is
/// related to the first (the same register, or a value derived from it).
const RELATED_64: f64 = 0.3;
/// The same for 32-bit integer and float operations.
const RELATED_OTHER: f64 = 0.15;

impl Gen<'_, '_, '_> {
    /// An immediate of the type as PTX prints it (for f16: a `0x` bit
    /// pattern, for `mov.b16`). Special float classes only with the
    /// `special` family, which is then marked used.
    pub fn imm(&mut self, t: VType) -> String {
        let special =
            self.fs.has(Family::Special) && self.src.chance(self.cfg.probabilities.special);
        let n = Num::of(t);
        let (v, drew_special) = value(self.src, n, special);
        if drew_special {
            self.mark_used(Family::Special);
        }
        match t {
            VType::U32 | VType::U64 => v.to_string(),
            VType::S32 => (v as u32 as i32).to_string(),
            VType::S64 => (v as i64).to_string(),
            VType::F16 => format!("0x{v:04x}"),
            VType::F32 => format!("0f{v:08X}"),
            VType::F64 => format!("0d{v:016X}"),
        }
    }

    /// A 32-bit word for a `.const` table.
    pub fn const_word(&mut self) -> u32 {
        int_value(self.src, 32).0 as u32
    }

    /// The second operand of a binary operation, comparison or selection
    /// whose first operand is `a`: with some probability related to `a`
    /// (the same register, or a value derived from it just before; see
    /// [`Gen::related`]), else any operand of the type.
    pub fn second_opnd(&mut self, t: VType, a: Reg) -> String {
        let p = if matches!(t, VType::U64 | VType::S64) {
            RELATED_64
        } else {
            RELATED_OTHER
        };
        if self.src.chance(p) {
            let c = pick_corr(self.src, Num::of(t));
            return self.related(t, a, c).to_string();
        }
        self.opnd(t)
    }

    /// A register second operand (where the instruction takes no
    /// immediate), related to `a` with the same probability.
    pub fn second_reg(&mut self, t: VType, a: Reg) -> Reg {
        let p = if matches!(t, VType::U64 | VType::S64) {
            RELATED_64
        } else {
            RELATED_OTHER
        };
        if self.src.chance(p) {
            let c = pick_corr(self.src, Num::of(t));
            return self.related(t, a, c);
        }
        self.reg_of(t)
    }

    /// A register holding a value related to `a` by `c`: `a` itself for
    /// `Same`, else a fresh register (not pooled) written by one
    /// instruction (two for a float's ulp neighbour), the program-side
    /// counterpart of [`relate`].
    pub fn related(&mut self, t: VType, a: Reg, c: Corr) -> Reg {
        if c == Corr::Same {
            return a;
        }
        let n = Num::of(t);
        let w = n.bits();
        let d = self.fresh(RC::of(t));
        let text = match (n, c) {
            (Num::Int(_), Corr::PlusOne) => format!("add.s{w} {d}, {a}, 1"),
            (Num::Int(_), Corr::MinusOne) => format!("sub.s{w} {d}, {a}, 1"),
            (Num::Int(_), Corr::Neg) => format!("neg.s{w} {d}, {a}"),
            (Num::Int(_), Corr::Not) => format!("not.b{w} {d}, {a}"),
            (Num::Int(_), Corr::SignFlip) => format!("xor.b{w} {d}, {a}, {}", sign_flip_bit(w)),
            (Num::Int(_), Corr::SameHi) => {
                format!("xor.b{w} {d}, {a}, {}", half_delta(self.src, w))
            }
            (Num::Int(_), Corr::SameLo) => {
                format!("xor.b{w} {d}, {a}, {}", half_delta(self.src, w) << (w / 2))
            }
            (Num::Int(_), Corr::Shl) => format!("shl.b{w} {d}, {a}, {}", shl_amount(self.src, w)),
            (_, Corr::Neg) => format!("neg.{} {d}, {a}", t.name()),
            // a float's neighbour one ulp up in magnitude, through its bits
            // (f16 has no integer view in a b16 register here: its negation)
            (Num::F16, _) => format!("neg.f16 {d}, {a}"),
            (_, _) => {
                let ib = self.fresh(if w == 64 { RC::B64 } else { RC::B32 });
                self.ins(format!("mov.b{w} {ib}, {a}"));
                self.ins(format!("add.s{w} {ib}, {ib}, 1"));
                format!("mov.b{w} {d}, {ib}")
            }
        };
        self.ins(text);
        d
    }
}

#[cfg(test)]
mod tests;
