//! Integer ALU: IADD3, IMAD (all forms), LEA, SHF, ISETP, IMNMX, IABS,
//! POPC, FLO, BREV, SGXT, BMSK, and their uniform twins (same code, one
//! lane).
//!
//! Semantics (docs/SEMANTICS.md, "Integer instructions"; choices marked UNCONFIRMED):
//! - IADD3 forms the sum of three 32-bit terms in 34 bits; a negated source
//!   (`-R`) contributes `~x + 1` (so `a - 0` carries, carry = NOT borrow).
//!   In `.X` forms a negated or inverted source contributes `~x` and the two
//!   carry-in predicates add 1 each. Carry-outs: `sum >> 32` is 0, 1 or 2;
//!   the first predicate is set when it is at least 1, the second when it is
//!   2 (UNCONFIRMED encoding: it makes two-predicate chains of `a - b - c`
//!   exact, and agrees with plain bit 32 whenever only one carry can occur).
//! - IMAD: `.MOV`, `.SHL`, `.IADD` are the plain formula `a * b + c`.
//!   `.HI` and `.WIDE` take a 64-bit addend: a register pair (`IMAD.HI.U32
//!   R13, R13, R21, R12` adds `R12:R13`, which is how ptxas' division
//!   sequence adds the estimate to the high product), a 64-bit constant or
//!   an immediate. `.HI` gives bits 32..63 of `a * b + c64`; `.WIDE` the 64
//!   bits; the carry-out is bit 64 (`.HI`, `.WIDE`) or bit 32 (plain). A
//!   negated `a` or `b` negates the product; a negated addend is `-c`
//!   (plain) or `~c` (`.X`, plus the carry-in).
//! - LEA: `(a << s) + b` (carry-out bit 32); `.HI`: the high word of
//!   `(c:a) << s` plus `b`; `.SX32` takes `c` as the sign of `a`.
//! - SHF: a 64-bit funnel `hi:lo` shifted by `min(s, w)` (or `s & (w-1)`
//!   with `.W`), `w` = 32 for `.U32/.S32`, 64 for `.U64/.S64`; `.HI` returns
//!   the upper word. `.S32/.S64` shift right arithmetically.
//! - ISETP: `P = cmp(a, b) OP p`, `Q = !cmp(a, b) OP p`. With `.EX` the
//!   comparison is of the high words chained with the low-word predicate:
//!   `EQ: eq && c`, `NE: ne || c`, ordered: `strict || (eq && c)`.
//! - FLO: index of the most significant 1 (for `.S32` of the most
//!   significant bit that differs from the sign), `0xffffffff` if none;
//!   `.SH` gives `31 - index`.

use super::super::program::{Bop, Dst, ICmp, ImadMode, PDst, PSrc, Sop, Src};
use super::super::warp::{Stop, Warp, V};
use ptxc::int::{self, sum_with_carry, Funnel};

/// Applies integer source modifiers (`-x` two's complement, `~x`).
#[inline(always)]
pub fn imod(mut v: V, s: &Sop) -> V {
    if s.neg {
        for x in v.iter_mut() {
            *x = x.wrapping_neg();
        }
    }
    if s.not {
        for x in v.iter_mut() {
            *x = !*x;
        }
    }
    if s.abs {
        for x in v.iter_mut() {
            *x = (*x as i32).unsigned_abs();
        }
    }
    v
}

#[inline(always)]
fn term(v: u32, s: &Sop, x: bool) -> u64 {
    if s.not || (s.neg && x) {
        u64::from(!v)
    } else if s.neg {
        u64::from(!v) + 1
    } else {
        u64::from(v)
    }
}

#[allow(clippy::too_many_arguments)]
pub fn iadd3(
    w: &mut Warp,
    m: u32,
    d: Dst,
    c0: PDst,
    c1: PDst,
    a: &Sop,
    b: &Sop,
    c: &Sop,
    x: bool,
    ci0: PSrc,
    ci1: PSrc,
) -> Result<(), Stop> {
    let va = w.read(a.s, m)?;
    let vb = w.read(b.s, m)?;
    let vc = w.read(c.s, m)?;
    let (p0, p1) = if x {
        (w.pred(ci0, m)?, w.pred(ci1, m)?)
    } else {
        (0, 0)
    };
    let mut r = [0u32; 32];
    let (mut k0, mut k1) = (0u32, 0u32);
    for l in 0..32 {
        let terms = [
            term(va[l], a, x),
            term(vb[l], b, x),
            term(vc[l], c, x),
            u64::from(p0 >> l & 1),
            u64::from(p1 >> l & 1),
        ];
        let (t, carry) = sum_with_carry(32, terms.map(u128::from));
        r[l] = t as u32;
        k0 |= u32::from(carry >= 1) << l;
        k1 |= u32::from(carry >= 2) << l;
    }
    w.write(d, m, &r);
    w.write_pred(c0, m, k0);
    w.write_pred(c1, m, k1);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub fn imad(
    w: &mut Warp,
    m: u32,
    mode: ImadMode,
    signed: bool,
    x: bool,
    d: Dst,
    co: PDst,
    a: &Sop,
    b: &Sop,
    c: &Sop,
    c64: &super::super::program::Sop64,
    ci: PSrc,
) -> Result<(), Stop> {
    let va = w.read(a.s, m)?;
    let vb = w.read(b.s, m)?;
    let pc = if x { w.pred(ci, m)? } else { 0 };
    let negp = a.neg ^ b.neg;
    let (ma, mb) = (a.not, b.not);
    let mut k = 0u32;
    match mode {
        ImadMode::Lo => {
            let vc = w.read(c.s, m)?;
            let mut r = [0u32; 32];
            for l in 0..32 {
                let (aa, bb) = (
                    if ma { !va[l] } else { va[l] },
                    if mb { !vb[l] } else { vb[l] },
                );
                let mut p = aa.wrapping_mul(bb);
                if negp {
                    p = p.wrapping_neg();
                }
                let terms = [u64::from(p), term(vc[l], c, x), u64::from(pc >> l & 1)];
                let (t, carry) = sum_with_carry(32, terms.map(u128::from));
                r[l] = t as u32;
                k |= (carry as u32 & 1) << l;
            }
            w.write(d, m, &r);
        }
        ImadMode::Hi | ImadMode::Wide => {
            let vc = w.read64(c64.s, m)?;
            let mut r = [0u64; 32];
            for l in 0..32 {
                let (aa, bb) = (
                    if ma { !va[l] } else { va[l] },
                    if mb { !vb[l] } else { vb[l] },
                );
                let mut p = if signed {
                    (i64::from(aa as i32) * i64::from(bb as i32)) as u64
                } else {
                    u64::from(aa) * u64::from(bb)
                };
                if negp {
                    p = p.wrapping_neg();
                }
                let cc = if c64.not || (c64.neg && x) {
                    !vc[l]
                } else if c64.neg {
                    vc[l].wrapping_neg()
                } else {
                    vc[l]
                };
                let terms = [p, cc, u64::from(pc >> l & 1)];
                let (t, carry) = sum_with_carry(64, terms.map(u128::from));
                r[l] = t;
                k |= (carry as u32 & 1) << l;
            }
            if mode == ImadMode::Hi {
                let mut h = [0u32; 32];
                for l in 0..32 {
                    h[l] = (r[l] >> 32) as u32;
                }
                w.write(d, m, &h);
            } else {
                w.write64(d, m, &r);
            }
        }
    }
    w.write_pred(co, m, k);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub fn lea(
    w: &mut Warp,
    m: u32,
    hi: bool,
    x: bool,
    sx32: bool,
    d: Dst,
    co: PDst,
    a: &Sop,
    b: &Sop,
    c: &Sop,
    sh: u32,
    ci: PSrc,
) -> Result<(), Stop> {
    let va = w.read(a.s, m)?;
    let vb = w.read(b.s, m)?;
    let vc = if hi && !sx32 {
        w.read(c.s, m)?
    } else {
        [0; 32]
    };
    let pc = if x { w.pred(ci, m)? } else { 0 };
    let sh = sh & 63;
    let mut r = [0u32; 32];
    let mut k = 0u32;
    for l in 0..32 {
        let av = if a.not || (a.neg && x) {
            !va[l]
        } else if a.neg {
            va[l].wrapping_neg()
        } else {
            va[l]
        };
        let shifted = if hi {
            let cw = if sx32 {
                ((av as i32) >> 31) as u32
            } else {
                c_val(vc[l], c)
            };
            let v = (u128::from(cw) << 32) | u128::from(av);
            ((v << sh) >> 32) as u32
        } else {
            ((u64::from(av)) << sh) as u32
        };
        let terms = [
            u64::from(shifted),
            term(vb[l], b, x),
            u64::from(pc >> l & 1),
        ];
        let (t, carry) = sum_with_carry(32, terms.map(u128::from));
        r[l] = t as u32;
        k |= (carry as u32 & 1) << l;
    }
    w.write(d, m, &r);
    w.write_pred(co, m, k);
    Ok(())
}

#[inline(always)]
fn c_val(v: u32, c: &Sop) -> u32 {
    if c.not || c.neg {
        !v
    } else {
        v
    }
}

#[allow(clippy::too_many_arguments)]
pub fn shf(
    w: &mut Warp,
    m: u32,
    d: Dst,
    lo: Src,
    sh: Src,
    hi: Src,
    left: bool,
    hi_out: bool,
    wrap: bool,
    wide: bool,
    signed: bool,
) -> Result<(), Stop> {
    let vl = w.read(lo, m)?;
    let vs = w.read(sh, m)?;
    let vh = w.read(hi, m)?;
    let f = Funnel {
        left,
        hi_out,
        wrap,
        wide,
        signed,
    };
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = int::funnel_shift(vl[l], vh[l], vs[l], f);
    }
    w.write(d, m, &r);
    Ok(())
}

/// One integer comparison.
#[inline(always)]
pub fn icmp1(cmp: ICmp, signed: bool, a: u32, b: u32) -> bool {
    let (lt, gt) = if signed {
        ((a as i32) < (b as i32), (a as i32) > (b as i32))
    } else {
        (a < b, a > b)
    };
    match cmp {
        ICmp::F => false,
        ICmp::T => true,
        ICmp::Lt => lt,
        ICmp::Le => !gt,
        ICmp::Gt => gt,
        ICmp::Ge => !lt,
        ICmp::Eq => a == b,
        ICmp::Ne => a != b,
    }
}

/// `.EX`: the high-word comparison chained with the low-word result `c`.
#[inline(always)]
pub fn icmp_ex(cmp: ICmp, signed: bool, a: u32, b: u32, c: bool) -> bool {
    let eq = a == b;
    match cmp {
        ICmp::F => false,
        ICmp::T => true,
        ICmp::Eq => eq && c,
        ICmp::Ne => !eq || c,
        ICmp::Lt | ICmp::Le => icmp1(ICmp::Lt, signed, a, b) || (eq && c),
        ICmp::Gt | ICmp::Ge => icmp1(ICmp::Gt, signed, a, b) || (eq && c),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn isetp(
    w: &mut Warp,
    m: u32,
    p: PDst,
    q: PDst,
    a: &Sop,
    b: &Sop,
    cmp: ICmp,
    signed: bool,
    bop: Bop,
    ps: PSrc,
    ex: Option<PSrc>,
) -> Result<(), Stop> {
    // A never-written operand is no failure where the combining predicate
    // decides the result (`AND` with false, `OR` with true); elsewhere the
    // results are never-written (a guard or branch on them fails).
    // Measured (ptxas 11.8, sm_80, a generated program of this harness):
    // `@!P4 LOP3.LUT R18, ...` then `ISETP.EQ.AND P1, PT, R18, RZ, !P4`.
    let va = imod(w.read_unchecked(a.s), a);
    let vb = imod(w.read_unchecked(b.s), b);
    let unwritten = m & !(w.defined(a.s, m) & w.defined(b.s, m));
    let pv = w.pred(ps, m)?;
    let decided = match bop {
        Bop::And => !pv,
        Bop::Or => pv,
        Bop::Xor => 0,
    };
    let lost = unwritten & !decided;
    let mut t = 0u32;
    match ex {
        None => {
            for l in 0..32 {
                t |= u32::from(icmp1(cmp, signed, va[l], vb[l])) << l;
            }
        }
        Some(e) => {
            let ev = w.pred(e, m)?;
            for l in 0..32 {
                t |= u32::from(icmp_ex(cmp, signed, va[l], vb[l], ev >> l & 1 != 0)) << l;
            }
        }
    }
    w.write_pred(p, m, bop.apply(t, pv));
    w.write_pred(q, m, bop.apply(!t, pv));
    if lost != 0 {
        w.undefine_pred(p, lost);
        w.undefine_pred(q, lost);
    }
    Ok(())
}

pub fn imnmx(
    w: &mut Warp,
    m: u32,
    d: Dst,
    a: &Sop,
    b: &Sop,
    signed: bool,
    pmin: PSrc,
) -> Result<(), Stop> {
    let va = imod(w.read(a.s, m)?, a);
    let vb = imod(w.read(b.s, m)?, b);
    let pm = w.pred(pmin, m)?;
    let mut r = [0u32; 32];
    for l in 0..32 {
        let lt = if signed {
            (va[l] as i32) < (vb[l] as i32)
        } else {
            va[l] < vb[l]
        };
        let want_min = pm >> l & 1 != 0;
        r[l] = if lt == want_min { va[l] } else { vb[l] };
    }
    w.write(d, m, &r);
    Ok(())
}

/// IABS, POPC, FLO, BREV: one-source functions.
pub fn unary(w: &mut Warp, m: u32, d: Dst, a: &Sop, f: impl Fn(u32) -> u32) -> Result<(), Stop> {
    let va = imod(w.read(a.s, m)?, a);
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = f(va[l]);
    }
    w.write(d, m, &r);
    Ok(())
}

/// FLO of one value: PTX `bfind` on 32 bits (`ptxc::int::bfind`), `.SH`
/// its `.shiftamt`.
#[inline(always)]
pub fn flo(v: u32, signed: bool, sh: bool) -> u32 {
    int::bfind(int::IntTy::new(32, signed), u64::from(v), sh) as u32
}

/// Two plain sources through `f` (SGXT, BMSK).
pub fn binary(
    w: &mut Warp,
    m: u32,
    d: Dst,
    a: Src,
    b: Src,
    f: impl Fn(u32, u32) -> u32,
) -> Result<(), Stop> {
    let va = w.read(a, m)?;
    let vb = w.read(b, m)?;
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = f(va[l], vb[l]);
    }
    w.write(d, m, &r);
    Ok(())
}

/// SGXT: PTX `szext` (`ptxc::int::szext`); `.W` is `.wrap`, no `.W` is
/// `.clamp` (`n >= 32` keeps `a`).
#[inline(always)]
pub fn sgxt(a: u32, n: u32, signed: bool, wrap: bool) -> u32 {
    int::szext(signed, a, n, !wrap)
}

/// BMSK: PTX `bmsk` (`ptxc::int::bmsk`); `.W` is `.wrap`, no `.W` is
/// `.clamp`.
#[inline(always)]
pub fn bmsk(pos: u32, width: u32, wrap: bool) -> u32 {
    int::bmsk(pos, width, !wrap)
}
