//! Loads, stores, constant loads, atomics (global, shared, local and
//! generic; `ATOMS.CAST.SPIN`) and the generic-window query `QSPC`. Lanes access memory in lane order (for conflicting stores of
//! one instruction the highest lane's value remains; UNCONFIRMED which lane
//! wins on hardware, PTX leaves it unspecified). Cache and ordering
//! modifiers (`.E`, `.CONSTANT`, `.STRONG.GPU`, `.SYS`, `.U`, ...) do not
//! change results and are ignored, except `.E` which makes a global or
//! generic address 64-bit.

use super::super::memory::{resolve_generic, CtaMem, Place};
use super::super::program::{Addr, Dst, PDst, Space, Src, Src64};
use super::super::warp::{Stop, Warp, V};
use super::Ctx;
use crate::ptx_interp::semantics::atomic::{atom, AtomOp, AtomTy};
use crate::ptx_interp::UbKind;
use ptxc::ir::atom_reach::Reach;

/// Per-lane addresses.
pub fn addresses(w: &Warp, a: &Addr, m: u32) -> Result<[u64; 32], Stop> {
    let mut out = [0u64; 32];
    let base: [u64; 32] = match a.base {
        Src::Imm(v) => [u64::from(v); 32],
        Src::R(i) if a.wide && !a.base32 => w.read64(Src64::R(i), m)?,
        Src::U(i) if a.wide && !a.base32 => w.read64(Src64::U(i), m)?,
        s => w.read(s, m)?.map(u64::from),
    };
    let idx: [u64; 32] = match a.index {
        None => [0; 32],
        Some(i) if a.wide => w.read64(Src64::U(i), m)?,
        Some(i) => w.read(Src::U(i), m)?.map(u64::from),
    };
    for l in 0..32 {
        let v = base[l].wrapping_add(idx[l]).wrapping_add(a.offset as u64);
        out[l] = if a.wide { v } else { v & 0xffff_ffff };
    }
    Ok(out)
}

/// Checks an access of `n` bytes at `a` and says where it goes.
#[inline(always)]
fn place(ctx: &Ctx<'_>, space: Space, a: u64, n: u64, lane: u32) -> Result<Place, Stop> {
    // Sizes are powers of two.
    if a & (n - 1) != 0 {
        return Err(misaligned(lane, a, n));
    }
    match space {
        Space::Shared => {
            if let Some(o) = ctx.cta.shared_off(a, n) {
                return Ok(Place::Shared(o));
            }
        }
        Space::Local => {
            if let Some(o) = CtaMem::local_off(a, n) {
                return Ok(Place::Local(o));
            }
        }
        Space::Global => {
            if let Some((b, o)) = ctx.global.locate(a, n) {
                return Ok(Place::Global(b, o));
            }
        }
        Space::Generic => return generic_place(ctx, a, n, lane),
    }
    Err(outside(space, a, n, lane))
}

#[cold]
fn misaligned(lane: u32, a: u64, n: u64) -> Stop {
    Stop::ub(
        lane,
        UbKind::Misaligned {
            address: a,
            size: n as u32,
        },
    )
}

#[cold]
fn outside(space: Space, a: u64, n: u64, lane: u32) -> Stop {
    let what = match space {
        Space::Global => {
            return Stop::fault(
                lane,
                format!("global access of {n} bytes at {a:#x} is outside every buffer"),
            )
        }
        Space::Shared => "shared",
        _ => "local",
    };
    Stop::fault(
        lane,
        format!("{what} access of {n} bytes at {a:#x} is outside the {what} window"),
    )
}

#[inline(never)]
fn generic_place(ctx: &Ctx<'_>, a: u64, n: u64, lane: u32) -> Result<Place, Stop> {
    match resolve_generic(a, ctx.inputs.addr32) {
        (b's', o) => place(ctx, Space::Shared, o, n, lane),
        (b'l', o) => place(ctx, Space::Local, o, n, lane),
        (_, g) => place(ctx, Space::Global, g, n, lane),
    }
}

#[inline(always)]
fn bytes_mut<'c>(ctx: &'c mut Ctx<'_>, p: Place, n: usize, thread: usize) -> &'c mut [u8] {
    match p {
        Place::Global(b, o) => ctx.global.bytes_mut(b, o, n),
        Place::Shared(o) => &mut ctx.cta.shared[o..o + n],
        Place::Local(o) => ctx.cta.local_bytes(thread, o, n),
    }
}

#[inline]
fn thread_of(w: &Warp, lane: u32) -> usize {
    (w.id * 32 + lane) as usize
}

/// Lane `l`'s loaded value from the bytes `b` (`size` of them).
#[inline(always)]
fn load_lane(b: &[u8], out: &mut [V], l: usize, size: u8, signed: bool) {
    match size {
        1 => out[0][l] = super::super::program::extend(u64::from(b[0]), 1, signed) as u32,
        2 => {
            let v = u64::from(u16::from_le_bytes([b[0], b[1]]));
            out[0][l] = super::super::program::extend(v, 2, signed) as u32;
        }
        _ => {
            for (o, c) in out.iter_mut().zip(b.chunks_exact(4)) {
                o[l] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub fn ld(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    m: u32,
    space: Space,
    d: Dst,
    a: &Addr,
    size: u8,
    signed: bool,
) -> Result<(), Stop> {
    let addrs = addresses(w, a, m)?;
    let n = size as usize;
    let words = n.div_ceil(4);
    let mut buf: [V; 4] = [[0; 32]; 4];
    let out = &mut buf[..words];
    let mut mm = m;
    if space == Space::Shared {
        // The hot case (tiles in shared memory): no per-lane dispatch.
        let sh = &ctx.cta;
        while mm != 0 {
            let l = mm.trailing_zeros();
            mm &= mm - 1;
            let ad = addrs[l as usize];
            if ad & (n as u64 - 1) != 0 {
                return Err(misaligned(l, ad, n as u64));
            }
            let Some(o) = sh.shared_off(ad, n as u64) else {
                return Err(outside(space, ad, n as u64, l));
            };
            load_lane(&sh.shared[o..o + n], out, l as usize, size, signed);
        }
    } else {
        while mm != 0 {
            let l = mm.trailing_zeros();
            mm &= mm - 1;
            let p = place(ctx, space, addrs[l as usize], n as u64, l)?;
            let th = thread_of(w, l);
            load_lane(bytes_mut(ctx, p, n, th), out, l as usize, size, signed);
        }
    }
    for (k, o) in out.iter().enumerate() {
        w.write_at(d, k as u32, m, o);
    }
    // Only local memory holds undefined words: global loads (the common
    // case) skip the per-thread scan.
    if n >= 4 && matches!(space, Space::Local | Space::Generic) {
        unwrite_undefined_words(ctx, w, m, space, d, &addrs, words)?;
    }
    Ok(())
}

/// After a load of `words` 4-byte words: the lanes whose word came from an
/// undefined local word (a never-written register stored there,
/// memory.rs) get that destination register back to never-written.
fn unwrite_undefined_words(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    m: u32,
    space: Space,
    d: Dst,
    addrs: &[u64; 32],
    words: usize,
) -> Result<(), Stop> {
    let Dst::R(first) = d else { return Ok(()) };
    if ctx.cta.local_undef.iter().all(|u| u.is_empty()) {
        return Ok(());
    }
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros();
        mm &= mm - 1;
        let Place::Local(o) = place(ctx, space, addrs[l as usize], 4 * words as u64, l)? else {
            continue;
        };
        let undef = &ctx.cta.local_undef[thread_of(w, l)];
        for k in 0..words {
            if undef.contains(&(o + 4 * k)) {
                w.unwrite(first + k as u32, 1 << l);
            }
        }
    }
    Ok(())
}

pub fn st(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    m: u32,
    space: Space,
    a: &Addr,
    v: Src,
    size: u8,
) -> Result<(), Stop> {
    let addrs = addresses(w, a, m)?;
    let n = size as usize;
    let words = n.div_ceil(4);
    let mut vals: [V; 4] = [[0; 32]; 4];
    // Per word, the lanes whose register was never written: allowed for
    // whole words stored to local memory (memory.rs), an error elsewhere.
    let mut undef = [0u32; 4];
    for (k, val) in vals.iter_mut().enumerate().take(words) {
        let s = match v {
            Src::R(i) => Src::R(i + k as u32),
            Src::U(i) => Src::U(i + k as u32),
            Src::Imm(x) => Src::Imm(if k == 0 { x } else { 0 }),
        };
        *val = match (w.read(s, m), s) {
            (Ok(x), _) => x,
            (Err(_), Src::R(i)) if n >= 4 => {
                undef[k] = w.unwritten(i, m);
                w.read_unchecked(s)
            }
            (Err(e), _) => return Err(e),
        };
    }
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros();
        mm &= mm - 1;
        let p = place(ctx, space, addrs[l as usize], n as u64, l)?;
        let th = thread_of(w, l);
        if let Place::Local(o) = p {
            for (k, u) in undef.iter().enumerate().take(words) {
                if u >> l & 1 != 0 {
                    ctx.cta.local_undef[th].insert(o + 4 * k);
                } else if !ctx.cta.local_undef[th].is_empty() {
                    ctx.cta.local_undef[th].remove(&(o + 4 * k));
                }
            }
        } else if let Some(k) = undef.iter().position(|u| u >> l & 1 != 0) {
            // Not local: the never-written read is the error it was.
            let Src::R(i) = v else {
                unreachable!("undef only for R")
            };
            return Err(w.read(Src::R(i + k as u32), 1 << l).unwrap_err());
        }
        let b = bytes_mut(ctx, p, n, th);
        if n < 4 {
            b.copy_from_slice(&vals[0][l as usize].to_le_bytes()[..n]);
        } else {
            for k in 0..words {
                b[4 * k..4 * k + 4].copy_from_slice(&vals[k][l as usize].to_le_bytes());
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub fn ldc(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    m: u32,
    d: Dst,
    bank: u32,
    reg: Option<Src>,
    off: i64,
    size: u8,
    signed: bool,
) -> Result<(), Stop> {
    let idx = match reg {
        Some(r) => w.read(r, m)?,
        None => [0; 32],
    };
    let mut lo = [0u32; 32];
    let mut hi = [0u32; 32];
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros();
        mm &= mm - 1;
        let o = off + i64::from(idx[l as usize] as i32);
        if o % i64::from(size.min(8)) != 0 {
            return Err(Stop::ub(
                l,
                UbKind::Misaligned {
                    address: o as u64,
                    size: u32::from(size),
                },
            ));
        }
        let v = ctx
            .banks
            .read(bank, o, u32::from(size.min(8)))
            .map_err(|e| Stop::fault(l, e))?;
        let v = super::super::program::extend(v, size, signed);
        lo[l as usize] = v as u32;
        hi[l as usize] = (v >> 32) as u32;
    }
    w.write_at(d, 0, m, &lo);
    if size == 8 {
        w.write_at(d, 1, m, &hi);
    }
    Ok(())
}

/// `QSPC.E.{S,L,G} P, RZ, [a]`: `P` is set for the lanes whose generic
/// address lies in the space's window (`G`: in neither the shared nor the
/// local window). Source: ptxas 11.8 answers `isspacep.shared`/`.local`/
/// `.global` with `QSPC.E.S`/`.L`/`.G P0, RZ, [R2]` (sm_80, measured; for
/// `.global` its code also compares the address with `c[0x0][0x50]`, the
/// constant window the run places (`CbankLayout::const_window`), in
/// instructions of its own; `G` itself is UNCONFIRMED beyond "not shared,
/// not local"), and its
/// generic f16x2 atomics take the shared path on `QSPC.E.S`. The windows
/// are the runners' (`memory::resolve_generic`).
pub fn qspc(
    ctx: &Ctx<'_>,
    w: &mut Warp,
    m: u32,
    pd: PDst,
    a: &Addr,
    space: u8,
) -> Result<(), Stop> {
    let addrs = addresses(w, a, m)?;
    let mut bits = 0u32;
    for (l, &a) in addrs.iter().enumerate() {
        if m >> l & 1 != 0 && resolve_generic(a, ctx.inputs.addr32).0 == space {
            bits |= 1 << l;
        }
    }
    w.write_pred(pd, m, bits);
    Ok(())
}

/// Atomics and reductions; the destination gets the old value. Lanes run
/// one after the other in lane order, so each lane's read-modify-write is
/// indivisible.
///
/// The predicate destination is set for the lanes that performed the
/// operation (for `CAS` too, swapped or not). Source: ptxas 11.8 follows
/// a guarded generic `ATOM.E.CAS.64 P0, ...` with `@P0 BRA done` and a
/// local `LD`/`ST` compare-and-store (oracle/tests/atom_generic_vendor),
/// which only makes sense if `P0` means "performed"; `ATOMG`/`ATOMS` get
/// `PT` from ptxas.
///
/// `ATOMS.CAST.SPIN[.64] d, [a], cmp, new` (`spin`): if the word at `a`
/// equals `cmp` it becomes `new` and `d` is 1, else the word is kept and
/// `d` is 0 (`.64`: `d` a pair, high word 0). Source: ptxas 11.8's
/// shared-memory spin loops for `atom.shared.add.noftz.f16x2` (sm_70..sm_90
/// -O3, listings in oracle/tests/atom_spin_vendor; sm_80 -O0 alike) read
/// `d` with `ISETP.EQ.U32.AND P0, PT, d, 0x1, PT` and branch back on
/// `!P0`, after `LDS old; HADD2 new, old, b`: 1 is success, the loop's
/// exit; the 64-bit generic fallbacks test `d.lo == 1 && d.hi == 0`
/// (oracle/tests/atom_generic_vendor).
///
/// Generic `ATOM`/`RED` act on the spaces of their `reach`
/// (compiler/src/ir/atom_reach.rs: the rule measured on ptxas 11.8 and
/// shared with ptxc's lowering): a lane whose address falls outside them
/// leaves memory and `d` unchanged and clears its predicate destination.
#[allow(clippy::too_many_arguments)]
pub fn atomic(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    m: u32,
    (space, reach): (Space, Reach),
    op: AtomOp,
    (popc, spin): (bool, bool),
    t: AtomTy,
    ftz: bool,
    d: Dst,
    pd: PDst,
    a: &Addr,
    b: Src,
    c: Src,
) -> Result<(), Stop> {
    let wide = t.bits() == 64;
    let n = (t.bits() / 8) as usize;
    let addrs = addresses(w, a, m)?;
    let read_src = |s: Src| -> Result<[u64; 32], Stop> {
        if wide {
            w.read64(
                match s {
                    Src::R(i) => Src64::R(i),
                    Src::U(i) => Src64::U(i),
                    Src::Imm(v) => Src64::Imm(u64::from(v)),
                },
                m,
            )
        } else {
            Ok(w.read(s, m)?.map(u64::from))
        }
    };
    let vb = if popc { [1u64; 32] } else { read_src(b)? };
    let vc = if op == AtomOp::Cas {
        read_src(c)?
    } else {
        [0; 32]
    };
    let mut old = [0u64; 32];
    let mut done = m;
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros();
        mm &= mm - 1;
        let li = l as usize;
        if reach != Reach::All {
            let sp = resolve_generic(addrs[li], ctx.inputs.addr32).0;
            if sp == b'l' || (reach == Reach::Global && sp == b's') {
                done &= !(1 << l);
                continue;
            }
        }
        let p = place(ctx, space, addrs[li], n as u64, l)?;
        let th = thread_of(w, l);
        let bytes = bytes_mut(ctx, p, n, th);
        let mut buf = [0u8; 8];
        buf[..n].copy_from_slice(bytes);
        let o = u64::from_le_bytes(buf);
        let new = atom(op, t, o, vb[li], vc[li], ftz);
        let swapped = op != AtomOp::Cas || o & t.mask() == vb[li] & t.mask();
        bytes.copy_from_slice(&new.to_le_bytes()[..n]);
        old[li] = if spin { u64::from(swapped) } else { o };
    }
    if wide {
        w.write64(d, done, &old);
    } else {
        w.write(d, done, &old.map(|x| x as u32));
    }
    w.write_pred(pd, m, done);
    Ok(())
}
