//! Logic and data movement: LOP3 (with its predicate output), PLOP3, PRMT,
//! SEL/FSEL, MOV, P2R/R2P.
//!
//! - LOP3.LUT uses PTX lop3's truth table (a = 0xF0, b = 0xCC, c = 0xAA);
//!   its optional predicate output is `result != 0` (docs/SEMANTICS.md, Integer instructions).
//! - PLOP3.LUT P, Q, a, b, c, lut1, lut2: `P = lut1(a, b, c)`, `Q =
//!   lut2(a, b, c)` (UNCONFIRMED for Q; ptxas 11.8 only emits `lut2 = 0`
//!   with `Q = PT` in the corpus).
//! - SEL/FSEL read only the operand each lane selects (so a register left
//!   unwritten on the other path is not an uninitialised read).
//! - PRMT does not check its data operands for never-written registers
//!   (half-register inserts, see [`prmt`]).
//! - P2R/R2P: predicate `Pi` is bit `i` of the byte (`.B1..B3` shift it by
//!   8, 16, 24), masked by the mask operand (UNCONFIRMED layout).

use super::super::program::{Dst, PDst, PSrc, Sop, Src};
use super::super::semantics::SrcMods;
use super::super::warp::{Stop, Warp};
use super::int::imod;
use ptxc::int::{self, PrmtMode};

#[allow(clippy::too_many_arguments)]
pub fn lop3(
    w: &mut Warp,
    m: u32,
    d: Dst,
    pd: PDst,
    a: &Sop,
    b: &Sop,
    c: &Sop,
    lut: u8,
) -> Result<(), Stop> {
    let va = imod(w.read(a.s, m)?, a);
    let vb = imod(w.read(b.s, m)?, b);
    let vc = imod(w.read(c.s, m)?, c);
    let mut r = [0u32; 32];
    let mut nz = 0u32;
    for l in 0..32 {
        r[l] = int::lop3(va[l], vb[l], vc[l], lut);
        nz |= u32::from(r[l] != 0) << l;
    }
    w.write(d, m, &r);
    w.write_pred(pd, m, nz);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub fn plop3(
    w: &mut Warp,
    m: u32,
    p: PDst,
    q: PDst,
    a: PSrc,
    b: PSrc,
    c: PSrc,
    lut1: u8,
    lut2: u8,
) -> Result<(), Stop> {
    let (va, vb, vc) = (w.pred(a, m)?, w.pred(b, m)?, w.pred(c, m)?);
    w.write_pred(p, m, int::lop3(va, vb, vc, lut1));
    w.write_pred(q, m, int::lop3(va, vb, vc, lut2));
    Ok(())
}

/// PRMT: PTX prmt (`ptxc::int::prmt`), `mode` 0 the generic form, then
/// F4E, B4E, RC8, ECL, ECR, RC16 (`PrmtMode::ALL`). Its data operands are
/// read without the never-written check:
/// ptxas keeps 16-bit values in halves of 32-bit registers and inserts one
/// half with `PRMT R14, R5, 0x7610, R14`, whose other half may never have
/// been written (half_arith.sm_70.sass); that is not a use of it.
pub fn prmt(w: &mut Warp, m: u32, d: Dst, a: Src, sel: Src, b: Src, mode: u8) -> Result<(), Stop> {
    let va = w.read_unchecked(a);
    let vs = w.read(sel, m)?;
    let vb = w.read_unchecked(b);
    let mode = PrmtMode::ALL[usize::from(mode)];
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = int::prmt(va[l], vb[l], vs[l], mode);
    }
    w.write(d, m, &r);
    Ok(())
}

/// SEL/FSEL: `p ? a : b`; each lane reads only what it selects. Source
/// modifiers: integer for SEL, sign bits for FSEL (`-x` flips, `|x|`
/// clears the sign bit).
pub fn sel(
    w: &mut Warp,
    m: u32,
    d: Dst,
    a: &Sop,
    b: &Sop,
    p: PSrc,
    float: bool,
) -> Result<(), Stop> {
    let pv = w.pred(p, m)?;
    let va = w.read(a.s, m & pv)?;
    let vb = w.read(b.s, m & !pv)?;
    let (va, vb) = if float {
        (fmod(va, a), fmod(vb, b))
    } else {
        (imod(va, a), imod(vb, b))
    };
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = if pv >> l & 1 != 0 { va[l] } else { vb[l] };
    }
    w.write(d, m, &r);
    Ok(())
}

/// FSEL's f32 sign modifiers (`semantics::SrcMods`).
pub fn fmod(mut v: [u32; 32], s: &Sop) -> [u32; 32] {
    let sm = SrcMods {
        neg: s.neg,
        abs: s.abs,
    };
    if sm != SrcMods::NONE {
        v.iter_mut().for_each(|x| *x = sm.apply32(*x));
    }
    v
}

/// A register copy passes a never-written value on (the copy is as
/// unwritten as its source) instead of failing: ptxas copies registers
/// speculatively. Measured (ptxas 11.8, sm_80, a generated program of
/// this harness): `@!UP0 ULEA UR13, ...` then an unguarded
/// `IMAD.U32 R21, RZ, RZ, UR13` and `@!P1 LDG.E.U16 R21, [R20.64]` with
/// `P1 = UP0`: R21 is read only where UR13 was written. A use of the copy
/// that matters (an address, a stored value, a branch) still fails.
pub fn mov(w: &mut Warp, m: u32, d: Dst, a: Src) -> Result<(), Stop> {
    copy_with(w, m, d, a, |x| x)
}

/// [`mov`] of the negation (two's complement) of `a`.
pub fn neg(w: &mut Warp, m: u32, d: Dst, a: Src) -> Result<(), Stop> {
    copy_with(w, m, d, a, u32::wrapping_neg)
}

/// `d = f(a)` in the lanes `m`, never-written where `a` was.
fn copy_with(w: &mut Warp, m: u32, d: Dst, a: Src, f: impl Fn(u32) -> u32) -> Result<(), Stop> {
    let v = w.read_unchecked(a).map(f);
    w.write(d, m, &v);
    let lost = m & !w.defined(a, m);
    if lost != 0 {
        w.undefine(d, lost);
    }
    Ok(())
}

/// The predicate bits of each lane as a byte (P0 = bit 0).
fn pr_bits(w: &Warp, uniform: bool) -> [u32; 32] {
    let mut r = [0u32; 32];
    for i in 0..7u32 {
        let v = if uniform {
            if w.up[1 + i as usize] {
                u32::MAX
            } else {
                0
            }
        } else {
            w.p[1 + i as usize]
        };
        for (l, x) in r.iter_mut().enumerate() {
            *x |= (v >> l & 1) << i;
        }
    }
    r
}

pub fn p2r(
    w: &mut Warp,
    m: u32,
    d: Dst,
    src: Src,
    mask: Src,
    shift: u32,
    uniform: bool,
) -> Result<(), Stop> {
    let vs = w.read(src, m)?;
    let vm = w.read(mask, m)?;
    let bits = pr_bits(w, uniform);
    let mut r = [0u32; 32];
    for l in 0..32 {
        let mk = (vm[l] & 0x7f) << shift;
        r[l] = (vs[l] & !mk) | ((bits[l] << shift) & mk);
    }
    w.write(d, m, &r);
    Ok(())
}

pub fn r2p(
    w: &mut Warp,
    m: u32,
    src: Src,
    mask: Src,
    shift: u32,
    uniform: bool,
) -> Result<(), Stop> {
    let vs = w.read(src, m)?;
    let vm = w.read(mask, m)?;
    for i in 0..7u32 {
        let mut set = 0u32;
        let mut val = 0u32;
        for l in 0..32 {
            if vm[l] >> i & 1 != 0 {
                set |= 1 << l;
                val |= ((vs[l] >> (shift + i)) & 1) << l;
            }
        }
        let pd = if uniform {
            PDst::U(1 + i)
        } else {
            PDst::P(1 + i)
        };
        w.write_pred(pd, m & set, val);
    }
    Ok(())
}
