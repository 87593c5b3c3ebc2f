//! The value an `atom`/`red` writes back to memory, as a pure function of
//! the old memory value and the operands.
//!
//! `atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}` (PTX ISA,
//! #parallel-synchronization-and-communication-instructions-atom):
//! ```text
//! atomic {
//!     d = *a;
//!     *a = (operation == cas) ? operation(*a, b, c) : operation(*a, b);
//! }
//! inc(r, s)  = (r >= s) ? 0 : r+1;
//! dec(r, s)  = (r==0 || r > s) ? s : r-1;
//! exch(r, s) = s;
//! cas(r,s,t) = (r == s) ? t : r;
//! ```
//! [`atom`] returns the NEW memory value; the interpreter returns `old` in
//! `d`. `red` (#...-red) writes the same value and returns nothing.
//!
//! Values travel in the low bits of a `u64` (32-bit types in bits 0..32,
//! 16-bit types in 0..16, packed `x2` types with element 0 in the low
//! half); higher input bits are ignored and the result has them clear.
//!
//! Floating point (ISA text quoted at [`atom`]):
//! * `.add` rounds to nearest even. f32 and f64 use the host's IEEE
//!   binary32/binary64 addition, which is exactly round-to-nearest-even
//!   with subnormals (Rust never enables FTZ/DAZ). f16/bf16 are added in
//!   f64 and rounded once (see [`add_f16_like`] for why that is exact).
//! * `atom.add.f32` on global memory flushes subnormal inputs and results to
//!   sign-preserving zero (`global_ftz = true`); on shared memory it does
//!   not. f16/bf16 `.add.noftz` never flush; f64 never flushes (the ISA
//!   names only f32).
//! * NaN results follow the project's policy (compiler/src/float/nan.rs):
//!   f32 canonical `0x7fffffff`; f16/bf16 canonical `0x7fff` (cuda_fp16.h
//!   `CUDART_NAN_FP16`, cuda_bf16.h `CUDART_NAN_BF16`); f64: the first NaN
//!   operand in `(old, b)` order, quieted, else `0xfff8000000000000`
//!   (`CUDART_NAN`) for an invalid operation (inf + -inf). The NaN patterns
//!   the L2 atomic units write are UNCONFIRMED.
//! * `.min`/`.max` on float types (the ISA has them for the `.noftz`
//!   f16/bf16/f16x2/bf16x2 vector forms, sm_90) follow PTX `min`/`max`: a
//!   single NaN operand is ignored, two NaNs give the canonical NaN (f64:
//!   the first quieted), -0.0 < +0.0, no flushing.
//!
//! Combinations the ISA does not define (e.g. `inc` on `.s32`, `and` on
//! `.f32`) still get a value: the operation on the unsigned bit pattern of
//! the type's width (signed compare for `.s32`/`.s64` min/max only). The
//! front end is expected to reject them; this keeps the function total.

use ptxc::float::FloatType;

/// `.op` of `atom`/`red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Exch,
    Cas,
}

/// `.type` of `atom`/`red` (scalar element type; the vector forms apply
/// [`atom`] per element).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomTy {
    U32,
    S32,
    U64,
    S64,
    B32,
    B64,
    F32,
    F64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    B16,
}

impl AtomTy {
    /// Width of the memory operand in bits.
    pub fn bits(self) -> u32 {
        match self {
            AtomTy::F16 | AtomTy::Bf16 | AtomTy::B16 => 16,
            AtomTy::U32
            | AtomTy::S32
            | AtomTy::B32
            | AtomTy::F32
            | AtomTy::F16x2
            | AtomTy::Bf16x2 => 32,
            AtomTy::U64 | AtomTy::S64 | AtomTy::B64 | AtomTy::F64 => 64,
        }
    }

    /// All-ones mask of [`AtomTy::bits`].
    pub fn mask(self) -> u64 {
        u64::MAX >> (64 - self.bits())
    }

    fn is_signed(self) -> bool {
        matches!(self, AtomTy::S32 | AtomTy::S64)
    }
}

/// Canonical f32 NaN.
pub const F32_NAN: u32 = 0x7fff_ffff;
/// Canonical f16 / bf16 NaN.
pub const HALF_NAN: u16 = 0x7fff;
/// f64 result of an invalid operation without NaN operands (`CUDART_NAN`).
pub const F64_DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

/// The new memory value of `atom.op.ty [a], b{, c}` (or `red.op.ty`) when
/// memory held `old`. `c` is used by `.cas` only. `global_ftz` is true for
/// `atom.add.f32`/`red.add.f32` whose address is in global memory: "Current
/// implementation of atom.add.f32 on global memory flushes subnormal inputs
/// and results to sign-preserving zero; whereas atom.add.f32 on shared
/// memory supports subnormal inputs and results and doesn't flush them to
/// zero" (ISA #...-atom). It is ignored for every other type and op.
///
/// Other rules (ISA #...-atom): "The .inc and .dec operations return a
/// result in the range [0..b]"; "The floating-point operation .add
/// operation rounds to nearest even"; "atom.add.f16, atom.add.f16x2,
/// atom.add.bf16 and atom.add.bf16x2 operation requires the .noftz
/// qualifier; it preserves subnormal inputs and results".
pub fn atom(op: AtomOp, ty: AtomTy, old: u64, b: u64, c: u64, global_ftz: bool) -> u64 {
    let m = ty.mask();
    let (r, s, t) = (old & m, b & m, c & m);
    let out = match op {
        AtomOp::And => r & s,
        AtomOp::Or => r | s,
        AtomOp::Xor => r ^ s,
        AtomOp::Exch => s,
        AtomOp::Cas => {
            if r == s {
                t
            } else {
                r
            }
        }
        AtomOp::Inc => {
            if r >= s {
                0
            } else {
                r + 1
            }
        }
        AtomOp::Dec => {
            if r == 0 || r > s {
                s
            } else {
                r - 1
            }
        }
        AtomOp::Add => add(ty, r, s, global_ftz),
        AtomOp::Min => min_max(ty, r, s, false),
        AtomOp::Max => min_max(ty, r, s, true),
    };
    out & m
}

fn add(ty: AtomTy, r: u64, s: u64, global_ftz: bool) -> u64 {
    match ty {
        AtomTy::F32 => u64::from(add_f32(r as u32, s as u32, global_ftz)),
        AtomTy::F64 => add_f64(r, s),
        AtomTy::F16 => u64::from(add_f16_like(HALF_F16, r as u16, s as u16)),
        AtomTy::Bf16 => u64::from(add_f16_like(HALF_BF16, r as u16, s as u16)),
        AtomTy::F16x2 => packed(r, s, |x, y| add_f16_like(HALF_F16, x, y)),
        AtomTy::Bf16x2 => packed(r, s, |x, y| add_f16_like(HALF_BF16, x, y)),
        // integers and bit types: two's complement, wraps at the width
        _ => r.wrapping_add(s),
    }
}

fn min_max(ty: AtomTy, r: u64, s: u64, want_max: bool) -> u64 {
    let pick = |a_wins: bool| if a_wins { r } else { s };
    match ty {
        AtomTy::F32 => u64::from(fminmax_small(F32_FMT, r, s, want_max) as u32),
        AtomTy::F64 => fminmax_f64(r, s, want_max),
        AtomTy::F16 => fminmax_small(HALF_F16, r, s, want_max),
        AtomTy::Bf16 => fminmax_small(HALF_BF16, r, s, want_max),
        AtomTy::F16x2 => packed(r, s, |x, y| {
            fminmax_small(HALF_F16, x.into(), y.into(), want_max) as u16
        }),
        AtomTy::Bf16x2 => packed(r, s, |x, y| {
            fminmax_small(HALF_BF16, x.into(), y.into(), want_max) as u16
        }),
        _ if ty.is_signed() => {
            let w = ty.bits();
            let sx = |v: u64| ((v << (64 - w)) as i64) >> (64 - w);
            let (a, b) = (sx(r), sx(s));
            pick(if want_max { a >= b } else { a <= b })
        }
        _ => pick(if want_max { r >= s } else { r <= s }),
    }
}

/// Applies `f` to the two 16-bit halves of packed `x2` operands.
fn packed(r: u64, s: u64, f: impl Fn(u16, u16) -> u16) -> u64 {
    let lo = f(r as u16, s as u16);
    let hi = f((r >> 16) as u16, (s >> 16) as u16);
    u64::from(lo) | (u64::from(hi) << 16)
}

// ------------------------------------------------------------ f32 / f64 add

fn f32_flush(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// `atom.add.f32`: IEEE binary32 addition, round to nearest even; with
/// `ftz`, subnormal inputs and the (rounded) result are flushed to
/// sign-preserving zero. NaN results are `0x7fffffff`.
pub fn add_f32(a: u32, b: u32, ftz: bool) -> u32 {
    let (a, b) = if ftz {
        (f32_flush(a), f32_flush(b))
    } else {
        (a, b)
    };
    let r = f32::from_bits(a) + f32::from_bits(b);
    if r.is_nan() {
        return F32_NAN;
    }
    let r = r.to_bits();
    if ftz {
        f32_flush(r)
    } else {
        r
    }
}

/// `atom.add.f64`: IEEE binary64 addition, round to nearest even, no
/// flushing. NaN: the first NaN of `(a, b)` with its quiet bit set, else
/// `0xfff8000000000000` (inf + -inf).
pub fn add_f64(a: u64, b: u64) -> u64 {
    for x in [a, b] {
        if f64::from_bits(x).is_nan() {
            return x | 0x0008_0000_0000_0000;
        }
    }
    let r = f64::from_bits(a) + f64::from_bits(b);
    if r.is_nan() {
        F64_DEFAULT_NAN
    } else {
        r.to_bits()
    }
}

// ----------------------------------------------------------- small formats

/// A binary floating-point format of at most 32 bits: `ebits` exponent
/// bits, `mbits` stored fraction bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallFmt {
    pub ebits: u32,
    pub mbits: u32,
}

/// IEEE binary16.
pub const HALF_F16: SmallFmt = SmallFmt {
    ebits: 5,
    mbits: 10,
};
/// bfloat16.
pub const HALF_BF16: SmallFmt = SmallFmt { ebits: 8, mbits: 7 };
/// IEEE binary32 (used to test the rounding routine against the host).
pub const F32_FMT: SmallFmt = SmallFmt {
    ebits: 8,
    mbits: 23,
};

impl SmallFmt {
    fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    fn sign_bit(self) -> u64 {
        1 << (self.ebits + self.mbits)
    }
    fn exp_mask(self) -> u64 {
        ((1u64 << self.ebits) - 1) << self.mbits
    }
    fn frac_mask(self) -> u64 {
        (1u64 << self.mbits) - 1
    }
    /// The same format in the shared float library, whose classification
    /// (`FloatType::is_nan`) this file uses.
    fn float_type(self) -> FloatType {
        match (self.ebits, self.mbits) {
            (5, 10) => FloatType::F16,
            (8, 7) => FloatType::Bf16,
            (8, 23) => FloatType::F32,
            _ => unreachable!(
                "no PTX float format has {} exponent and {} fraction bits",
                self.ebits, self.mbits
            ),
        }
    }
    fn canonical_nan(self) -> u64 {
        if self == F32_FMT {
            u64::from(F32_NAN)
        } else {
            u64::from(HALF_NAN)
        }
    }

    /// The exact value of the bit pattern `x` (NaN for NaN patterns).
    pub fn to_f64(self, x: u64) -> f64 {
        let neg = x & self.sign_bit() != 0;
        let e = ((x & self.exp_mask()) >> self.mbits) as i32;
        let f = x & self.frac_mask();
        let mag = if e == (1 << self.ebits) - 1 {
            if f == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        } else if e == 0 {
            // f * 2^(1 - bias - mbits); f < 2^23, the scale is a power of two
            f as f64 * pow2(1 - self.bias() - self.mbits as i32)
        } else {
            ((1u64 << self.mbits) | f) as f64 * pow2(e - self.bias() - self.mbits as i32)
        };
        if neg {
            -mag
        } else {
            mag
        }
    }

    /// `x` rounded to nearest, ties to even, into this format: subnormal
    /// results, overflow to infinity, the sign of zero kept. NaN gives the
    /// format's canonical NaN. Rounds directly from the f64 (one rounding).
    pub fn from_f64(self, x: f64) -> u64 {
        if x.is_nan() {
            return self.canonical_nan();
        }
        let bits = x.to_bits();
        let sign = if bits >> 63 == 1 { self.sign_bit() } else { 0 };
        let inf = self.exp_mask();
        let a = x.abs();
        if a == f64::INFINITY {
            return sign | inf;
        }
        if a == 0.0 {
            return sign;
        }
        // a = sig * 2^(e - 52) with sig having its top bit at 52
        let fe = ((bits >> 52) & 0x7ff) as i32;
        let fm = bits & ((1u64 << 52) - 1);
        let (e, sig) = if fe == 0 {
            // f64 subnormal: normalize
            let lz = fm.leading_zeros() as i32 - 11; // bits to shift to put top at 52
            (-1022 - lz, fm << lz)
        } else {
            (fe - 1023, (1u64 << 52) | fm)
        };
        let emin = 1 - self.bias();
        // quantum exponent: 2^(max(e, emin) - mbits)
        let q_exp = e.max(emin) - self.mbits as i32;
        let shift = q_exp - (e - 52);
        if shift > 54 {
            // sig < 2^53 < 2^(shift - 1) = half a quantum: rounds to zero
            return sign;
        }
        let shift = shift as u32; // >= 52 - mbits > 0
        let q = sig >> shift;
        let rem = sig & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        let q = if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        };
        let mag = if e >= emin {
            // q in [2^mbits, 2^(mbits+1)]: the implicit bit adds one to the
            // exponent field, a carry to 2^(mbits+1) moves into it.
            (((e - emin) as u64) << self.mbits) + q
        } else {
            // subnormal; q == 2^mbits is the smallest normal
            q
        };
        sign | mag.min(inf)
    }
}

fn pow2(e: i32) -> f64 {
    // exact for -1074 <= e <= 1023
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// `atom.add.noftz.{f16,bf16}` (one element): round to nearest even, no
/// flushing, NaN results `0x7fff`.
///
/// Why adding in f64 and rounding once is exact IEEE addition:
/// * f16: values are multiples of 2^-24 below 2^16 (11-bit significands);
///   the exact sum of two is a multiple of 2^-24 below 2^17, i.e. at most
///   41 significant bits, which f64 (53) holds exactly. So the f64 sum IS
///   the exact sum and [`SmallFmt::from_f64`] rounds it once.
/// * bf16: 8-bit significands, values from 2^-133 to below 2^128. Let `A`
///   be the operand of larger magnitude, 2^e <= |A| < 2^(e+1), and `b` the
///   other. If |b| >= 2^(e-44), every set bit of the exact sum lies at
///   positions e+1 down to e-51 (b's lowest bit is at most 7 below its
///   top bit; subnormals' lowest bit 2^-133 is then also >= 2^(e-51)):
///   53 bits, so the f64 sum is exact. Otherwise |b| < 2^(e-44). The bf16 rounding midpoints
///   nearest `A` are at least 2^(e-9) away from it (half of the smaller
///   neighbouring ulp, 2^(e-8) or 2^(e-7)), and both the exact sum and its
///   f64 rounding (rounding is monotone and `A` is an f64) lie within
///   |b| < 2^(e-44) of `A`, on the same side: both round to `A`.
///   Cancellation of nearly equal magnitudes is exact (Sterbenz).
/// * Signed zeros follow IEEE in both: x + (-x) = +0, -0 + -0 = -0, and a
///   nonzero sum that rounds to zero keeps its sign.
pub fn add_f16_like(fmt: SmallFmt, a: u16, b: u16) -> u16 {
    let (a, b) = (u64::from(a), u64::from(b));
    if fmt.float_type().is_nan(a) || fmt.float_type().is_nan(b) {
        return HALF_NAN;
    }
    let s = fmt.to_f64(a) + fmt.to_f64(b);
    if s.is_nan() {
        return HALF_NAN; // inf + -inf
    }
    fmt.from_f64(s) as u16
}

// ---------------------------------------------------------------- min/max

/// Numeric-order key of a non-NaN pattern of `fmt` with -0 < +0.
fn total_key(fmt: SmallFmt, x: u64) -> i64 {
    let mag = (x & !fmt.sign_bit()) as i64;
    if x & fmt.sign_bit() != 0 {
        -mag - 1
    } else {
        mag
    }
}

/// PTX `min`/`max` without `.NaN`/`.ftz` on f16/bf16/f32 patterns.
fn fminmax_small(fmt: SmallFmt, a: u64, b: u64, want_max: bool) -> u64 {
    let ty = fmt.float_type();
    match (ty.is_nan(a), ty.is_nan(b)) {
        (true, true) => fmt.canonical_nan(),
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            let (ka, kb) = (total_key(fmt, a), total_key(fmt, b));
            if (ka > kb) == want_max {
                a
            } else {
                b
            }
        }
    }
}

/// PTX `min`/`max` on f64 patterns; two NaNs give the first, quieted.
fn fminmax_f64(a: u64, b: u64, want_max: bool) -> u64 {
    let nan = |x: u64| f64::from_bits(x).is_nan();
    match (nan(a), nan(b)) {
        (true, true) => a | 0x0008_0000_0000_0000,
        (true, false) => b,
        (false, true) => a,
        (false, false) => {
            let key = |x: u64| {
                let m = (x & 0x7fff_ffff_ffff_ffff) as i128;
                if x >> 63 == 1 {
                    -m - 1
                } else {
                    m
                }
            };
            if (key(a) > key(b)) == want_max {
                a
            } else {
                b
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;
    use AtomOp::*;
    use AtomTy::*;

    fn a(op: AtomOp, ty: AtomTy, old: u64, b: u64) -> u64 {
        atom(op, ty, old, b, 0, false)
    }

    // ------------------------------------------------------ inc / dec
    // inc(r, s) = (r >= s) ? 0 : r+1;  dec(r, s) = (r==0 || r > s) ? s : r-1

    #[test]
    fn inc_below_limit_increments() {
        assert_eq!(a(Inc, U32, 3, 5), 4);
        assert_eq!(a(Inc, U32, 0, 1), 1);
        assert_eq!(a(Inc, U32, 0xffff_fffd, 0xffff_ffff), 0xffff_fffe);
    }
    #[test]
    fn inc_at_limit_wraps_to_zero() {
        assert_eq!(a(Inc, U32, 5, 5), 0);
        assert_eq!(a(Inc, U32, 0xffff_ffff, 0xffff_ffff), 0);
    }
    #[test]
    fn inc_above_limit_gives_zero() {
        assert_eq!(a(Inc, U32, 6, 5), 0);
        assert_eq!(a(Inc, U32, 0xffff_ffff, 7), 0);
    }
    #[test]
    fn inc_with_zero_limit() {
        assert_eq!(a(Inc, U32, 0, 0), 0);
        assert_eq!(a(Inc, U32, 9, 0), 0);
    }
    #[test]
    fn inc_is_unsigned_compare() {
        // 0x80000000 is above 5 unsigned
        assert_eq!(a(Inc, U32, 0x8000_0000, 5), 0);
        assert_eq!(a(Inc, U32, 5, 0x8000_0000), 6);
    }
    #[test]
    fn dec_inside_range_decrements() {
        assert_eq!(a(Dec, U32, 3, 5), 2);
        assert_eq!(a(Dec, U32, 1, 5), 0);
    }
    #[test]
    fn dec_at_limit() {
        assert_eq!(a(Dec, U32, 5, 5), 4);
    }
    #[test]
    fn dec_zero_reloads_limit() {
        assert_eq!(a(Dec, U32, 0, 5), 5);
        assert_eq!(a(Dec, U32, 0, 0xffff_ffff), 0xffff_ffff);
    }
    #[test]
    fn dec_above_limit_reloads_limit() {
        assert_eq!(a(Dec, U32, 6, 5), 5);
        assert_eq!(a(Dec, U32, 0xffff_ffff, 2), 2);
    }
    #[test]
    fn dec_with_zero_limit() {
        assert_eq!(a(Dec, U32, 0, 0), 0);
        assert_eq!(a(Dec, U32, 1, 0), 0);
        assert_eq!(a(Dec, U32, 7, 0), 0);
    }
    quickcheck! {
        fn prop_inc_dec_stay_in_0_to_b(r: u32, s: u32) -> bool {
            // ISA: "The .inc and .dec operations return a result in the range [0..b]"
            let i = a(Inc, U32, r.into(), s.into());
            let d = a(Dec, U32, r.into(), s.into());
            i <= u64::from(s) && d <= u64::from(s)
        }
        fn prop_inc_counts_modulo(r: u32, s: u32) -> bool {
            // starting inside [0, s], inc behaves as (r + 1) mod (s + 1)
            let s = s.min(u32::MAX - 1);
            let r = if s == 0 { 0 } else { r % (s + 1) };
            a(Inc, U32, r.into(), s.into()) == (u64::from(r) + 1) % (u64::from(s) + 1)
        }
        fn prop_dec_counts_modulo(r: u32, s: u32) -> bool {
            let s = s.min(u32::MAX - 1);
            let r = if s == 0 { 0 } else { r % (s + 1) };
            let m = u64::from(s) + 1;
            a(Dec, U32, r.into(), s.into()) == (u64::from(r) + m - 1) % m
        }
    }

    // ------------------------------------------------------ cas / exch / bits

    #[test]
    fn cas_success_32() {
        assert_eq!(atom(Cas, B32, 7, 7, 99, false), 99);
    }
    #[test]
    fn cas_failure_32() {
        assert_eq!(atom(Cas, B32, 7, 8, 99, false), 7);
    }
    #[test]
    fn cas_64_compares_all_bits() {
        let old = 0x1_0000_0007;
        assert_eq!(atom(Cas, B64, old, 7, 1, false), old);
        assert_eq!(atom(Cas, B64, old, old, 1, false), 1);
    }
    #[test]
    fn cas_b16_uses_low_half() {
        assert_eq!(atom(Cas, B16, 0x1234, 0x1234, 0xbeef, false), 0xbeef);
        assert_eq!(atom(Cas, B16, 0x1234, 0x1235, 0xbeef, false), 0x1234);
        // bits above 16 are ignored on input and clear on output
        assert_eq!(
            atom(Cas, B16, 0xffff_1234, 0x1234, 0xaa_beef, false),
            0xbeef
        );
    }
    #[test]
    fn cas_32_ignores_upper_input_bits() {
        assert_eq!(
            atom(Cas, B32, 0xdead_0000_0005, 5, 0xffff_0000_0006, false),
            6
        );
    }
    #[test]
    fn cas_float_compares_bit_patterns() {
        // +0.0 vs -0.0 are different patterns: no swap
        assert_eq!(
            atom(Cas, B32, 0x8000_0000, 0, 0x3f80_0000, false),
            0x8000_0000
        );
    }
    #[test]
    fn exch_returns_b() {
        assert_eq!(a(Exch, B32, 1, 0xffff_ffff), 0xffff_ffff);
        assert_eq!(a(Exch, B64, 1, u64::MAX), u64::MAX);
        assert_eq!(a(Exch, B32, 1, 0x1_0000_0002), 2);
    }
    #[test]
    fn bitwise_ops() {
        assert_eq!(a(And, B32, 0xff00_ff00, 0x0ff0_0ff0), 0x0f00_0f00);
        assert_eq!(a(Or, B32, 0xff00_ff00, 0x0ff0_0ff0), 0xfff0_fff0);
        assert_eq!(a(Xor, B32, 0xff00_ff00, 0x0ff0_0ff0), 0xf0f0_f0f0);
        assert_eq!(a(And, B64, u64::MAX, 1 << 63), 1 << 63);
        assert_eq!(a(Or, B64, 1 << 40, 1), (1 << 40) | 1);
        assert_eq!(a(Xor, B64, u64::MAX, u64::MAX), 0);
    }

    // ------------------------------------------------------ integer add/min/max

    #[test]
    fn add_u32_wraps() {
        assert_eq!(a(Add, U32, 0xffff_ffff, 1), 0);
        assert_eq!(a(Add, U32, 0xffff_fff0, 0x20), 0x10);
        assert_eq!(a(Add, U32, 2, 3), 5);
    }
    #[test]
    fn add_s32_is_twos_complement() {
        assert_eq!(a(Add, S32, 5, 0xffff_ffff), 4); // 5 + -1
        assert_eq!(a(Add, S32, 0x7fff_ffff, 1), 0x8000_0000);
    }
    #[test]
    fn add_64_wraps() {
        assert_eq!(a(Add, U64, u64::MAX, 2), 1);
        assert_eq!(a(Add, S64, 0x7fff_ffff_ffff_ffff, 1), 0x8000_0000_0000_0000);
        assert_eq!(a(Add, U64, 0xffff_ffff, 1), 0x1_0000_0000);
    }
    #[test]
    fn min_max_u32_vs_s32() {
        let neg1 = 0xffff_ffffu64;
        assert_eq!(a(Min, U32, neg1, 1), 1);
        assert_eq!(a(Min, S32, neg1, 1), neg1);
        assert_eq!(a(Max, U32, neg1, 1), neg1);
        assert_eq!(a(Max, S32, neg1, 1), 1);
    }
    #[test]
    fn min_max_s32_extremes() {
        assert_eq!(a(Min, S32, 0x8000_0000, 0x7fff_ffff), 0x8000_0000);
        assert_eq!(a(Max, S32, 0x8000_0000, 0x7fff_ffff), 0x7fff_ffff);
        assert_eq!(a(Max, S32, 0xffff_fffe, 0xffff_ffff), 0xffff_ffff); // -2 vs -1
    }
    #[test]
    fn min_max_64() {
        let m1 = u64::MAX;
        assert_eq!(a(Min, U64, m1, 3), 3);
        assert_eq!(a(Min, S64, m1, 3), m1);
        assert_eq!(a(Max, S64, 1 << 63, 0), 0);
        assert_eq!(a(Max, U64, 1 << 63, 0), 1 << 63);
    }
    #[test]
    fn min_max_b32_is_unsigned() {
        assert_eq!(a(Min, B32, 0x8000_0000, 1), 1);
    }
    #[test]
    fn min_max_s32_ignores_upper_bits() {
        // the s32 sign comes from bit 31, not bit 63
        assert_eq!(
            a(Min, S32, 0x0000_0000_8000_0000, 0xffff_ffff_0000_0001),
            0x8000_0000
        );
    }
    quickcheck! {
        fn prop_int_min_max(x: i32, y: i32, p: u32, q: u32) -> bool {
            a(Min, S32, u64::from(x as u32), u64::from(y as u32)) == u64::from(x.min(y) as u32)
                && a(Max, S32, u64::from(x as u32), u64::from(y as u32)) == u64::from(x.max(y) as u32)
                && a(Min, U32, p.into(), q.into()) == u64::from(p.min(q))
                && a(Max, U32, p.into(), q.into()) == u64::from(p.max(q))
        }
        fn prop_add_u32_matches_wrapping(x: u32, y: u32, hi: u32) -> bool {
            a(Add, U32, (u64::from(hi) << 32) | u64::from(x), y.into()) == u64::from(x.wrapping_add(y))
        }
    }

    // ------------------------------------------------------ f32 add

    const ONE: u64 = 0x3f80_0000;
    fn f32a(x: u64, y: u64, global: bool) -> u64 {
        atom(Add, F32, x, y, 0, global)
    }

    #[test]
    fn f32_add_simple() {
        assert_eq!(f32a(ONE, 0x4000_0000, false), 0x4040_0000); // 1 + 2 = 3
        assert_eq!(f32a(ONE, 0xbf80_0000, true), 0); // 1 + -1 = +0
    }
    #[test]
    fn f32_add_rounds_to_nearest_even() {
        // 1 + 2^-24: tie -> 1.0
        assert_eq!(f32a(ONE, 0x3380_0000, false), ONE);
        // 1 + 1.5*2^-23: tie between 0x3f800001 and 0x3f800002 -> even
        assert_eq!(f32a(ONE, 0x3440_0000, false), 0x3f80_0002);
        // 1 + 1.25*2^-23 -> 0x3f800001 (below the midpoint)
        assert_eq!(f32a(ONE, 0x3420_0000, false), 0x3f80_0001);
    }
    #[test]
    fn f32_add_nan_canonical() {
        assert_eq!(f32a(0x7fc0_1234, ONE, false), 0x7fff_ffff);
        assert_eq!(f32a(ONE, 0xff80_0001, true), 0x7fff_ffff);
    }
    #[test]
    fn f32_add_inf() {
        assert_eq!(f32a(0x7f80_0000, ONE, false), 0x7f80_0000);
        assert_eq!(f32a(0x7f80_0000, 0xff80_0000, false), 0x7fff_ffff);
        // overflow: max + max -> inf
        assert_eq!(f32a(0x7f7f_ffff, 0x7f7f_ffff, true), 0x7f80_0000);
    }
    #[test]
    fn f32_add_subnormal_inputs_shared_kept() {
        // 2^-127 + 2^-126 = 1.5 * 2^-126
        assert_eq!(f32a(0x0040_0000, 0x0080_0000, false), 0x00c0_0000);
        assert_eq!(f32a(1, 1, false), 2);
    }
    #[test]
    fn f32_add_subnormal_inputs_global_flushed() {
        assert_eq!(f32a(0x0040_0000, 0x0080_0000, true), 0x0080_0000);
        assert_eq!(f32a(1, 1, true), 0);
    }
    #[test]
    fn f32_add_subnormal_result_global_flushed() {
        // (2^-126 + 2^-149) + (-2^-126) = 2^-149
        assert_eq!(f32a(0x0080_0001, 0x8080_0000, false), 1);
        assert_eq!(f32a(0x0080_0001, 0x8080_0000, true), 0);
        // negative subnormal result flushes to -0
        assert_eq!(f32a(0x8080_0001, 0x0080_0000, true), 0x8000_0000);
    }
    #[test]
    fn f32_add_flush_preserves_sign() {
        assert_eq!(f32a(0x8000_0001, 0x8000_0001, true), 0x8000_0000);
        assert_eq!(f32a(0x8000_0001, 0x8000_0001, false), 0x8000_0002);
        // -sub (flushed to -0) + +0 = +0
        assert_eq!(f32a(0x8000_0001, 0, true), 0);
    }
    #[test]
    fn f32_add_normal_result_kept_under_ftz() {
        // 2^-125 - 2^-126 = 2^-126, the smallest normal: not flushed
        assert_eq!(f32a(0x0100_0000, 0x8080_0000, true), 0x0080_0000); // 2^-125 - 2^-126
    }
    #[test]
    fn f32_add_ignores_global_for_other_types() {
        // f64 subnormals are never flushed
        assert_eq!(atom(Add, F64, 1, 1, 0, true), 2);
    }
    quickcheck! {
        fn prop_f32_add_matches_host(x: u32, y: u32) -> bool {
            let r = (f32::from_bits(x) + f32::from_bits(y)).to_bits();
            let want = if f32::from_bits(r).is_nan() { 0x7fff_ffff } else { r };
            f32a(x.into(), y.into(), false) == u64::from(want)
        }
        fn prop_f32_add_global_never_subnormal(x: u32, y: u32) -> bool {
            let r = f32a(x.into(), y.into(), true) as u32;
            !(r & 0x7f80_0000 == 0 && r & 0x007f_ffff != 0)
        }
    }

    // ------------------------------------------------------ f64 add

    const D1: u64 = 0x3ff0_0000_0000_0000;
    #[test]
    fn f64_add_simple_and_rounding() {
        assert_eq!(
            a(Add, F64, D1, 0x4000_0000_0000_0000),
            0x4008_0000_0000_0000
        );
        // 1 + 2^-53: tie -> 1.0
        assert_eq!(a(Add, F64, D1, 0x3ca0_0000_0000_0000), D1);
    }
    #[test]
    fn f64_add_nan_propagates_quieted() {
        assert_eq!(
            a(Add, F64, 0x7ff0_0000_0000_0001, D1),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(
            a(Add, F64, D1, 0xfff4_0000_0000_0000),
            0xfffc_0000_0000_0000
        );
        // both NaN: the memory operand (first) wins
        assert_eq!(
            a(Add, F64, 0x7ff8_0000_0000_0005, 0x7ff8_0000_0000_0009),
            0x7ff8_0000_0000_0005
        );
    }
    #[test]
    fn f64_add_invalid_gives_default_nan() {
        assert_eq!(
            a(Add, F64, 0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000),
            0xfff8_0000_0000_0000
        );
    }
    #[test]
    fn f64_add_signed_zero() {
        assert_eq!(a(Add, F64, 1 << 63, 1 << 63), 1 << 63);
        assert_eq!(a(Add, F64, 1 << 63, 0), 0);
    }

    // ------------------------------------------------------ f16 / bf16 add

    fn h(x: u64, y: u64) -> u64 {
        a(Add, F16, x, y)
    }
    fn bf(x: u64, y: u64) -> u64 {
        a(Add, Bf16, x, y)
    }

    #[test]
    fn f16_add_simple() {
        assert_eq!(h(0x3c00, 0x3c00), 0x4000); // 1 + 1 = 2
        assert_eq!(h(0x3c00, 0xbc00), 0x0000); // 1 - 1 = +0
        assert_eq!(h(0x4200, 0x3800), 0x4300); // 3 + 0.5 = 3.5
    }
    #[test]
    fn f16_add_ties_to_even() {
        assert_eq!(h(0x3c00, 0x1000), 0x3c00); // 1 + 2^-11 -> 1
        assert_eq!(h(0x3c01, 0x1000), 0x3c02); // (1+2^-10) + 2^-11 -> even
        assert_eq!(h(0x6800, 0x3c00), 0x6800); // 2048 + 1 -> 2048
        assert_eq!(h(0x6801, 0x3c00), 0x6802); // 2050 + 1 -> 2052
    }
    #[test]
    fn f16_add_overflow() {
        assert_eq!(h(0x7bff, 0x4c00), 0x7c00); // 65504 + 16 = 65520 -> inf
        assert_eq!(h(0x7bff, 0x4b80), 0x7bff); // 65504 + 15 -> 65504
        assert_eq!(h(0xfbff, 0xcc00), 0xfc00);
    }
    #[test]
    fn f16_add_subnormals_not_flushed() {
        assert_eq!(h(0x0001, 0x0001), 0x0002);
        assert_eq!(h(0x03ff, 0x0001), 0x0400); // largest subnormal + min = min normal
        assert_eq!(atom(Add, F16, 0x0001, 0x0001, 0, true), 0x0002); // global_ftz ignored
    }
    #[test]
    fn f16_add_signed_zeros() {
        assert_eq!(h(0x8000, 0x8000), 0x8000);
        assert_eq!(h(0x8000, 0x0000), 0x0000);
        assert_eq!(h(0x8001, 0x0001), 0x0000);
    }
    #[test]
    fn f16_add_nan_and_inf() {
        assert_eq!(h(0x7e00, 0x3c00), 0x7fff);
        assert_eq!(h(0x3c00, 0xfd00), 0x7fff); // signalling NaN pattern
        assert_eq!(h(0x7c00, 0xfc00), 0x7fff);
        assert_eq!(h(0x7c00, 0x3c00), 0x7c00);
        assert_eq!(h(0xfc00, 0xfc00), 0xfc00);
    }
    #[test]
    fn bf16_add_simple() {
        assert_eq!(bf(0x3f80, 0x3f80), 0x4000);
        assert_eq!(bf(0x3f80, 0xbf80), 0x0000);
        assert_eq!(bf(0x4040, 0x3f00), 0x4060); // 3 + 0.5
    }
    #[test]
    fn bf16_add_ties_to_even() {
        assert_eq!(bf(0x3f80, 0x3b80), 0x3f80); // 1 + 2^-8 -> 1
        assert_eq!(bf(0x3f81, 0x3b80), 0x3f82);
        assert_eq!(bf(0x3f81, 0x3b81), 0x3f82); // just above the tie -> up
    }
    #[test]
    fn bf16_add_huge_exponent_spread() {
        // 2^127 + 2^-133: the f64 sum is inexact, the result must be 2^127
        assert_eq!(bf(0x7f00, 0x0001), 0x7f00);
        assert_eq!(bf(0x7f00, 0x8001), 0x7f00);
        // 1.0 - 2^-133 -> 1.0 (the bf16 below 1.0 is 1 - 2^-8)
        assert_eq!(bf(0x3f80, 0x8001), 0x3f80);
    }
    #[test]
    fn bf16_add_overflow_and_subnormal() {
        assert_eq!(bf(0x7f7f, 0x7f7f), 0x7f80);
        assert_eq!(bf(0x0001, 0x0001), 0x0002);
        assert_eq!(bf(0x007f, 0x0001), 0x0080);
    }
    #[test]
    fn bf16_add_nan() {
        assert_eq!(bf(0x7fc0, 0x3f80), 0x7fff);
        assert_eq!(bf(0x7f80, 0xff80), 0x7fff);
        assert_eq!(bf(0xff80, 0x3f80), 0xff80);
    }
    #[test]
    fn f16x2_add_lanes_independent() {
        // (lo, hi) = (1.0, 2.0) + (1.0, NaN) = (2.0, NaN)
        assert_eq!(a(Add, F16x2, 0x4000_3c00, 0x7e00_3c00), 0x7fff_4000);
        // carry does not cross lanes: lo 65504+65504 = inf, hi 0 + 0
        assert_eq!(a(Add, F16x2, 0x0000_7bff, 0x0000_7bff), 0x0000_7c00);
    }
    #[test]
    fn bf16x2_add_lanes_independent() {
        assert_eq!(a(Add, Bf16x2, 0x3f80_4000, 0xbf80_3f80), 0x0000_4040);
    }

    /// Independent oracle: the nearest pattern of a format by binary search
    /// over the (monotone) positive patterns, ties to the even pattern.
    /// `v` must be finite, and differences must be exact in f64 (true for
    /// f16 and for the bf16 operands generated below).
    fn nearest(fmt: SmallFmt, v: f64) -> u64 {
        let sign = if v < 0.0 || (v == 0.0 && v.is_sign_negative()) {
            fmt.sign_bit()
        } else {
            0
        };
        let v = v.abs();
        let inf = fmt.exp_mask();
        let max = inf - 1;
        let maxv = fmt.to_f64(max);
        let ulp_max = maxv - fmt.to_f64(max - 1);
        if v >= maxv + ulp_max / 2.0 {
            return sign | inf; // IEEE: at or past max + half an ulp
        }
        // largest pattern with value <= v
        let (mut lo, mut hi) = (0u64, max);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if fmt.to_f64(mid) <= v {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let below = lo;
        if fmt.to_f64(below) == v || below == max {
            return sign | below;
        }
        let above = below + 1;
        let (db, da) = (v - fmt.to_f64(below), fmt.to_f64(above) - v);
        let pick = if db < da {
            below
        } else if da < db {
            above
        } else if below & 1 == 0 {
            below
        } else {
            above
        };
        sign | pick
    }

    fn oracle_add(fmt: SmallFmt, x: u16, y: u16) -> u16 {
        let (xv, yv) = (fmt.to_f64(x.into()), fmt.to_f64(y.into()));
        if xv.is_nan() || yv.is_nan() {
            return HALF_NAN;
        }
        if xv.is_infinite() || yv.is_infinite() {
            if xv.is_infinite() && yv.is_infinite() && xv != yv {
                return HALF_NAN;
            }
            return if xv.is_infinite() { x } else { y };
        }
        let s = xv + yv; // exact for the operands used
        if s == 0.0 {
            // exact zero: -0 only for -0 + -0 (IEEE, round to nearest)
            let both_neg = x & 0x8000 != 0 && y & 0x8000 != 0;
            return if both_neg { 0x8000 } else { 0 };
        }
        nearest(fmt, s) as u16
    }

    quickcheck! {
        fn prop_f16_add_matches_oracle(x: u16, y: u16) -> bool {
            h(x.into(), y.into()) == u64::from(oracle_add(HALF_F16, x, y))
        }
        fn prop_bf16_add_matches_oracle_close_exponents(x: u16, y: u16, e: u8) -> bool {
            // force y's exponent within 20 of x's so the f64 sum is exact
            let ex = (x >> 7) & 0xff;
            if ex == 0xff { return true; }
            let ey = (ex + u16::from(e % 20)).clamp(1, 0xfe);
            let y = (y & 0x807f) | (ey << 7);
            bf(x.into(), y.into()) == u64::from(oracle_add(HALF_BF16, x, y))
        }
        fn prop_f16x2_is_two_f16(x: u32, y: u32) -> bool {
            let lo = h((x & 0xffff).into(), (y & 0xffff).into());
            let hi = h((x >> 16).into(), (y >> 16).into());
            a(Add, F16x2, x.into(), y.into()) == lo | (hi << 16)
        }
        fn prop_rounding_matches_host_f32(bits: u64) -> bool {
            let x = f64::from_bits(bits);
            let want = if x.is_nan() { 0x7fff_ffff } else { u64::from((x as f32).to_bits()) };
            F32_FMT.from_f64(x) == want
        }
        fn prop_rounding_near_f32_range_matches_host(m: u64, e: i16) -> bool {
            // values with exponents around the f32 subnormal/normal/overflow range
            let e = i32::from(e) % 160;
            let x = (m >> 11) as f64 * pow2(e - 52);
            F32_FMT.from_f64(x) == u64::from((x as f32).to_bits())
                && F32_FMT.from_f64(-x) == u64::from((-x as f32).to_bits())
        }
        fn prop_f16_rounding_matches_launch(bits: u64) -> bool {
            // cross-check against the launch module's independent f64 -> f16
            let x = f64::from_bits(bits);
            x.is_nan() || HALF_F16.from_f64(x) == u64::from(crate::launch::f64_to_f16_bits(x))
        }
        fn prop_f16_decode_matches_launch(x: u16) -> bool {
            let v = HALF_F16.to_f64(x.into());
            let w = crate::launch::f16_bits_to_f64(x);
            (v.is_nan() && w.is_nan()) || v.to_bits() == w.to_bits()
        }
    }

    #[test]
    fn bf16_decode_is_f32_upper_half() {
        for x in [0u16, 1, 0x7f, 0x80, 0x3f80, 0xc0a0, 0x7f7f, 0x7f80, 0xff80] {
            let want = f64::from(f32::from_bits(u32::from(x) << 16));
            assert_eq!(HALF_BF16.to_f64(x.into()), want, "{x:#x}");
        }
    }

    // ------------------------------------------------------ float min/max

    #[test]
    fn f16_min_max() {
        assert_eq!(a(Min, F16, 0x3c00, 0xbc00), 0xbc00);
        assert_eq!(a(Max, F16, 0x3c00, 0xbc00), 0x3c00);
        assert_eq!(a(Min, F16, 0x0000, 0x8000), 0x8000); // -0 < +0
        assert_eq!(a(Max, F16, 0x8000, 0x0000), 0x0000);
    }
    #[test]
    fn f16_min_max_nan() {
        assert_eq!(a(Min, F16, 0x7e00, 0x4000), 0x4000);
        assert_eq!(a(Max, F16, 0x4000, 0xfe01), 0x4000);
        assert_eq!(a(Max, F16, 0x7e00, 0x7d00), 0x7fff);
    }
    #[test]
    fn bf16x2_min_max_lanes() {
        // lo: min(1, -1) = -1; hi: min(NaN, 2) = 2
        assert_eq!(a(Min, Bf16x2, 0x7fc0_3f80, 0x4000_bf80), 0x4000_bf80);
        assert_eq!(a(Max, Bf16x2, 0x7fc0_3f80, 0x4000_bf80), 0x4000_3f80);
    }
    #[test]
    fn f32_f64_min_max() {
        assert_eq!(a(Min, F32, 0x3f80_0000, 0xff80_0000), 0xff80_0000);
        assert_eq!(a(Max, F32, 0x7fc0_0000, 0xff80_0000), 0xff80_0000);
        assert_eq!(a(Max, F32, 0x7fc0_0000, 0xffc0_0000), 0x7fff_ffff);
        assert_eq!(a(Min, F64, D1, 1 << 63), 1 << 63);
        assert_eq!(
            a(Max, F64, 0x7ff0_0000_0000_0001, 0x7ff8_0000_0000_0002),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(a(Max, F64, 0x7ff8_0000_0000_0002, D1), D1);
    }

    #[test]
    fn widths_and_masks() {
        assert_eq!(B16.bits(), 16);
        assert_eq!(F16x2.bits(), 32);
        assert_eq!(S64.mask(), u64::MAX);
        assert_eq!(Bf16.mask(), 0xffff);
    }
}
