//! Instruction handlers, one file per family, and the dispatcher.
//!
//! [`step`] executes the instruction at `pc` for the lanes `gmask` of a
//! ready group: it evaluates the guard, runs the handler for the lanes
//! whose guard holds (one lane for uniform-datapath instructions) and says
//! how control continues ([`Flow`]). Lanes whose guard fails go to the next
//! instruction.

pub mod control;
pub mod dot;
pub mod float;
pub mod int;
pub mod logic;
pub mod mem;
pub mod surf;
pub mod tex;
pub mod uniform;
pub mod warp_ops;

use super::cbank::{Banks, SimInputs};
use super::memory::{CtaMem, GlobalMem};
use super::program::{Kind, Program};
use super::warp::{Stop, WaitKind, Warp};
use crate::launch::{LaunchSpec, SurfaceImage, TextureImage};

pub const ALL: u32 = u32::MAX;

/// What the handlers may touch besides the warp.
pub struct Ctx<'a> {
    pub prog: &'a Program,
    pub global: &'a mut GlobalMem,
    pub cta: &'a mut CtaMem,
    pub banks: &'a Banks,
    pub textures: &'a [TextureImage],
    /// The launch's surfaces (name order), read and written by
    /// `SULD`/`SUST`/`SURED`; written back as outputs after the run.
    pub surfaces: &'a mut [SurfaceImage],
    pub spec: &'a LaunchSpec,
    pub inputs: &'a SimInputs,
    pub ctaid: [u32; 3],
    /// `SR_CLOCKLO`: thread-instructions executed so far (deterministic).
    pub clock: u64,
}

/// How control continues after one instruction of a group.
#[derive(Debug)]
pub enum Flow {
    /// Every lane of the group goes to the next instruction.
    Next,
    /// Lanes `taken` go to `target`, the rest of the group to the next.
    Branch { taken: u32, target: u32 },
    /// Per-lane targets (`BRX`, `RET`): `(target, lanes)`; lanes of the
    /// group not listed go to the next instruction.
    Multi(Vec<(u32, u32)>),
    /// Lanes exit; the rest go to the next instruction.
    Exit(u32),
    /// Lanes block; they resume at the next instruction when released.
    Wait(u32, WaitKind),
    /// Lanes arrive at CTA barrier `id` (see `run.rs`).
    Bar {
        lanes: u32,
        id: u32,
        count: Option<u32>,
        kind: super::program::BarKind,
        preds: u32,
    },
}

/// Executes instruction `pc` for the group `gmask`.
#[inline]
pub fn step(ctx: &mut Ctx<'_>, w: &mut Warp, pc: u32, gmask: u32) -> Result<Flow, Stop> {
    let inst = &ctx.prog.insts[pc as usize];
    let mut m = gmask;
    if inst.guard != super::program::PSrc::TRUE {
        m &= w.pred(inst.guard, gmask)?;
    }
    if inst.uniform {
        m &= m.wrapping_neg();
    }
    use Kind::*;
    match &inst.kind {
        Nop => {}
        Fault(msg) => {
            if m != 0 {
                return Err(Stop::fault(m.trailing_zeros(), msg.to_string()));
            }
        }
        Iadd3 {
            d,
            c0,
            c1,
            a,
            b,
            c,
            x,
            ci0,
            ci1,
        } => int::iadd3(w, m, *d, *c0, *c1, a, b, c, *x, *ci0, *ci1)?,
        Imad {
            mode,
            signed,
            x,
            d,
            co,
            a,
            b,
            c,
            c64,
            ci,
        } => int::imad(w, m, *mode, *signed, *x, *d, *co, a, b, c, c64, *ci)?,
        Lea {
            hi,
            x,
            sx32,
            d,
            co,
            a,
            b,
            c,
            sh,
            ci,
        } => int::lea(w, m, *hi, *x, *sx32, *d, *co, a, b, c, *sh, *ci)?,
        Lop3 {
            d,
            pd,
            a,
            b,
            c,
            lut,
        } => logic::lop3(w, m, *d, *pd, a, b, c, *lut)?,
        Shf {
            d,
            lo,
            sh,
            hi,
            left,
            hi_out,
            wrap,
            wide,
            signed,
        } => int::shf(
            w, m, *d, *lo, *sh, *hi, *left, *hi_out, *wrap, *wide, *signed,
        )?,
        Prmt { d, a, sel, b, mode } => logic::prmt(w, m, *d, *a, *sel, *b, *mode)?,
        Isetp {
            p,
            q,
            a,
            b,
            cmp,
            signed,
            bop,
            ps,
            ex,
        } => int::isetp(w, m, *p, *q, a, b, *cmp, *signed, *bop, *ps, *ex)?,
        Imnmx {
            d,
            a,
            b,
            signed,
            pmin,
        } => int::imnmx(w, m, *d, a, b, *signed, *pmin)?,
        Iabs { d, a } => int::unary(w, m, *d, a, |v| (v as i32).unsigned_abs())?,
        Popc { d, a } => int::unary(w, m, *d, a, u32::count_ones)?,
        Flo { d, a, signed, sh } => {
            let (s, h) = (*signed, *sh);
            int::unary(w, m, *d, a, |v| int::flo(v, s, h))?
        }
        Brev { d, a } => int::unary(w, m, *d, a, u32::reverse_bits)?,
        Sgxt {
            d,
            a,
            n,
            signed,
            wrap,
        } => {
            let (s, wr) = (*signed, *wrap);
            int::binary(w, m, *d, *a, *n, |a, n| int::sgxt(a, n, s, wr))?
        }
        Idp { d, a, b, c, form } => {
            let f = *form;
            dot::ternary(w, m, *d, [*a, *b, *c], |a, b, c| f.eval(a, b, c))?
        }
        Vabsdiff { d, a, b, c, signed } => {
            let s = *signed;
            dot::ternary(w, m, *d, [*a, *b, *c], |a, b, c| dot::vabsdiff1(a, b, c, s))?
        }
        Bmsk {
            d,
            pos,
            width,
            wrap,
        } => {
            let wr = *wrap;
            int::binary(w, m, *d, *pos, *width, |p, n| int::bmsk(p, n, wr))?
        }
        Sel { d, a, b, p, float } => logic::sel(w, m, *d, a, b, *p, *float)?,
        P2r {
            d,
            src,
            mask,
            shift,
            uniform,
        } => logic::p2r(w, m, *d, *src, *mask, *shift, *uniform)?,
        R2p {
            src,
            mask,
            shift,
            uniform,
        } => logic::r2p(w, m, *src, *mask, *shift, *uniform)?,
        Plop3 {
            p,
            q,
            a,
            b,
            c,
            lut1,
            lut2,
        } => logic::plop3(w, m, *p, *q, *a, *b, *c, *lut1, *lut2)?,
        Mov { d, a } => logic::mov(w, m, *d, *a)?,
        Neg { d, a } => logic::neg(w, m, *d, *a)?,
        S2r { d, sr, wide } => uniform::s2r(ctx, w, m, *d, *sr, *wide)?,
        Vote { d, p, kind, src } => warp_ops::vote(w, m, *d, *p, *kind, *src)?,
        Shfl {
            p,
            d,
            a,
            b,
            c,
            mode,
        } => warp_ops::shfl(w, m, *p, *d, *a, *b, *c, *mode)?,
        Match { p, d, a, wide, all } => warp_ops::match_(w, m, *p, *d, *a, *wide, *all)?,
        Redux { d, a, op, signed } => warp_ops::redux(w, m, *d, *a, *op, *signed)?,
        Ld {
            space,
            d,
            addr,
            size,
            signed,
        } => mem::ld(ctx, w, m, *space, *d, addr, *size, *signed)?,
        St {
            space,
            addr,
            v,
            size,
        } => mem::st(ctx, w, m, *space, addr, *v, *size)?,
        Ldc {
            d,
            bank,
            reg,
            off,
            size,
            signed,
        } => mem::ldc(ctx, w, m, *d, *bank, *reg, *off, *size, *signed)?,
        Atom {
            space,
            op,
            popc,
            spin,
            reach,
            ty,
            ftz,
            d,
            pd,
            addr,
            b,
            c,
        } => mem::atomic(
            ctx,
            w,
            m,
            (*space, *reach),
            *op,
            (*popc, *spin),
            *ty,
            *ftz,
            *d,
            *pd,
            addr,
            *b,
            *c,
        )?,
        Qspc { pd, addr, space } => mem::qspc(ctx, w, m, *pd, addr, *space)?,
        Tex(t) => tex::tex(ctx, w, m, t)?,
        Txq {
            d0,
            d1,
            lod,
            tex,
            mask,
        } => tex::txq(ctx, w, m, *d0, *d1, *lod, *tex, *mask)?,
        Surf(si) => surf::exec(ctx, w, m, si)?,
        F(fi) => float::exec(w, m, fi)?,
        _ => return control::exec(ctx, w, pc, gmask, m, &inst.kind),
    }
    Ok(Flow::Next)
}
