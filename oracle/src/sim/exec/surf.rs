//! Surface accesses (`SULD`, `SUST`, `SURED`) on the launch spec's
//! surfaces, through the rules the PTX interpreter uses
//! (`ptx_interp::semantics::surface`), and the surface a handle names
//! (also for `TXQ` on a surface handle: tex.rs asks [`find`]).
//!
//! Operands (ptxas 11.8, oracle/tests/surf_vendor/*.sass):
//! `SULD.D.BA.2D.64.STRONG.SM.TRAP R6, [R2], 0x0, 0x58` — data registers
//! `R6..`, coordinates `R2` (x in bytes), `R3` (y), `R4` (z for 3D), then
//! the surface: slot `0x58` (the handle in c[0x0][0x160]), or a uniform
//! register holding the handle's low word (`UR9, 0x0`, sm_90), or a general
//! register holding it (`[R7], R8`). `SUST`/`SURED`: `[Rc], Rdata, handle`.
//!
//! Arrays (`SULD.D.BA.1D_ARRAY ... [R8]`, `.2D_ARRAY`; ptxas 11.8,
//! surf_vendor/surf_array2.sm_XX.sass): `[Rc]` holds x, (y), then the layer
//! index; SURED has no array form (ptxas refuses `sured.b.a1d`).
//!
//! Modifiers: the access size `.U8` `.U16` (zero-extended into one
//! register), none (4 bytes), `.64` (a pair), `.128` (four registers);
//! the out-of-bounds mode `.TRAP` (PTX `.trap`), `.IGN` (`.zero`), none
//! (`.clamp`) — the spellings ptxas prints for each PTX mode, so these
//! meanings are the PTX ISA's (9.7.11); `SURED` `.ADD`/`.MIN`/`.MAX` (u32;
//! `.S32` signed, `.U64` 64-bit), `.AND`, `.OR`. The memory-order
//! modifiers (`.STRONG.CTA/.SM/.SYS`) change nothing in a sequential
//! simulator. Sub-word `.U8`/`.U16` loads are zero-extended (DECISION:
//! ptxas masks the result itself, `LOP3.LUT ... 0xff` after `SULD.U8` in
//! surf_copy.sm_80.sass, so no vendor code depends on the upper bits).
//!
//! `SUST.P` (formatted; ptxas 11.8 for `sust.p`,
//! oracle/tests/surfp_vendor/): `SUST.P.2D.STRONG.SM.RG.TRAP [R4], R2, 0x0,
//! 0x58` — the component mask `.R` (1 source register), `.RG` (2), none
//! (4: RGBA), no size. The sample's format is the surface's (the hardware
//! reads it from the surface descriptor; here the launch spec), x counts
//! samples: the interpreter's rules (semantics/surface_format.rs).
//!
//! Handles: which surface a handle names is decided by its low word alone
//! (the SASS operands carry no more on the register and sm_90 forms); the
//! launch gives every surface a low word no texture has
//! (`launch::SURFACE_HANDLE_BASE`).

use super::super::program::{Dst, Src, TexRef};
use super::super::warp::{Stop, Warp};
use super::Ctx;
use crate::ptx_interp::semantics::surface::{self as rules, Oob, RedOp};
use crate::ptx_interp::semantics::surface_format as formats;

/// What a surface instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfOp {
    Load,
    Store,
    /// `SURED`: operation, bits (32/64), signed
    Red(RedOp, u32, bool),
}

/// A decoded `SULD`/`SUST`/`SURED`.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfInst {
    pub op: SurfOp,
    /// `SULD`'s destination, `Dst::None` otherwise
    pub d: Dst,
    /// `SUST`/`SURED`'s first data register
    pub data: Src,
    /// the x coordinate register (y, z follow)
    pub coords: Src,
    pub dims: u8,
    /// `.1D_ARRAY`/`.2D_ARRAY`: the layer index follows the coordinates
    pub layered: bool,
    /// access bytes: 1, 2, 4, 8, 16 (`SUST.P`: 4 per source component)
    pub size: u8,
    /// `SUST.P`: a formatted store of one sample (x counts samples)
    pub formatted: bool,
    pub oob: Oob,
    pub surf: TexRef,
}

/// The handle a surface operand gives lane `lane` (a slot: the 32-bit word
/// there, the low word of a parameter's handle or a `.surfref`'s word, as
/// tex.rs reads texture slots).
fn handle(ctx: &Ctx<'_>, w: &Warp, t: TexRef, lane: u32) -> Result<u64, Stop> {
    Ok(match t {
        TexRef::Slot(s) => ctx
            .banks
            .read(0, i64::from(s) * 4, 4)
            .map_err(|e| Stop::fault(lane, format!("surface slot {s:#x}: {e}")))?,
        TexRef::Reg(r) => u64::from(w.read1(Src::R(r), lane)?),
        TexRef::Handle(u) => u64::from(w.read1(Src::U(u), lane)?),
    })
}

/// The surface (index into `ctx.surfaces`) lane `lane`'s handle names,
/// by its low word; `None` when it names none.
pub fn find(ctx: &Ctx<'_>, w: &Warp, t: TexRef, lane: u32) -> Result<Option<usize>, Stop> {
    if let TexRef::Slot(s) = t {
        // A banks file's texture slot, or a slot outside bank 0: a texture
        // (tex.rs reports its own errors).
        if ctx.inputs.textures.contains_key(&s) || ctx.banks.read(0, i64::from(s) * 4, 4).is_err() {
            return Ok(None);
        }
    }
    let h = handle(ctx, w, t, lane)?;
    Ok(ctx
        .surfaces
        .iter()
        .position(|s| s.handle as u32 == h as u32))
}

fn resolve(ctx: &Ctx<'_>, w: &Warp, t: TexRef, lane: u32) -> Result<usize, Stop> {
    find(ctx, w, t, lane)?.ok_or_else(|| {
        let h = handle(ctx, w, t, lane).unwrap_or(0);
        Stop::fault(
            lane,
            format!("surface handle {h:#x} names no surface of the launch"),
        )
    })
}

fn reg(s: Src, k: u32) -> Src {
    match s {
        Src::R(i) => Src::R(i + k),
        other => other,
    }
}

/// Executes a surface access for the lanes `m`, lowest lane first.
pub fn exec(ctx: &mut Ctx<'_>, w: &mut Warp, m: u32, si: &SurfInst) -> Result<(), Stop> {
    if m == 0 {
        return Ok(());
    }
    let words = u32::from(si.size).div_ceil(4);
    let n_c = si.dims as usize + usize::from(si.layered);
    let mut cv = [[0u32; 32]; 3];
    for (k, c) in cv.iter_mut().enumerate().take(n_c) {
        *c = w.read(reg(si.coords, k as u32), m)?;
    }
    let mut data = [[0u32; 32]; 4];
    if si.op != SurfOp::Load {
        for (k, dv) in data.iter_mut().enumerate().take(words as usize) {
            *dv = w.read(reg(si.data, k as u32), m)?;
        }
    }
    let (es, n) = if si.size >= 4 {
        (4usize, words as usize)
    } else {
        (si.size as usize, 1)
    };
    let mut out = [[0u32; 32]; 4];
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros();
        mm &= mm - 1;
        let li = l as usize;
        let s = resolve(ctx, w, si.surf, l)?;
        // The rules take the index first; SASS has it last.
        let mut coords: Vec<u32> = (0..n_c).map(|k| cv[k][li]).collect();
        if si.layered {
            coords.rotate_right(1);
        }
        let spec = &ctx.surfaces[s].spec;
        if si.formatted {
            let words: Vec<u32> = (0..words as usize).map(|k| data[k][li]).collect();
            store_sample(ctx, s, si, &coords, &words).map_err(|e| Stop::fault(l, e))?;
            continue;
        }
        let loc = rules::locate(
            spec,
            si.layered,
            si.dims as usize,
            si.oob,
            &coords,
            u64::from(si.size),
        )
        .map_err(|e| Stop::fault(l, e))?;
        let Some(loc) = loc else {
            continue; // .IGN: loads give zeros, stores are dropped
        };
        let off = rules::offset(spec, loc).map_err(|e| Stop::fault(l, e))?;
        let bytes = &mut ctx.surfaces[s].data;
        match si.op {
            SurfOp::Load => {
                for (k, v) in rules::read(bytes, off, es, n).into_iter().enumerate() {
                    out[k][li] = v as u32;
                }
            }
            SurfOp::Store => {
                let vals: Vec<u64> = (0..n).map(|k| u64::from(data[k][li])).collect();
                rules::write(bytes, off, es, &vals);
            }
            SurfOp::Red(op, bits, signed) => {
                let c = if bits == 64 {
                    u64::from(data[0][li]) | u64::from(data[1][li]) << 32
                } else {
                    u64::from(data[0][li])
                };
                let eb = bits as usize / 8;
                let old = rules::read(bytes, off, eb, 1)[0];
                let new = rules::reduce(op, bits, signed, old, c);
                rules::write(bytes, off, eb, &[new]);
            }
        }
    }
    if si.op == SurfOp::Load {
        for (k, o) in out.iter().enumerate().take(words as usize) {
            w.write_at(si.d, k as u32, m, o);
        }
    }
    Ok(())
}

/// `SUST.P` on surface `s` for one lane: the interpreter's `sust.p`
/// rules (semantics/surface_format.rs: x counts samples, the source words
/// convert to the channel type where exact, else the store stops).
fn store_sample(
    ctx: &mut Ctx<'_>,
    s: usize,
    si: &SurfInst,
    coords: &[u32],
    words: &[u32],
) -> Result<(), String> {
    let spec = &ctx.surfaces[s].spec;
    let Some(loc) = formats::locate_sample(spec, si.layered, si.dims as usize, si.oob, coords)?
    else {
        return Ok(()); // .IGN: the store is dropped
    };
    let vals = formats::convert_sample(spec, words)?;
    let off = rules::offset(spec, loc)?;
    let es = spec.ty.size();
    rules::write(&mut ctx.surfaces[s].data, off, es, &vals);
    Ok(())
}

/// `TXQ ..., TEX_HEADER_DIMENSION, mask` on surface `s`: components x, y,
/// z are its width, height and depth in elements (`suq`, the interpreter's
/// rule in semantics/surface.rs); the level count (w) is not asked for a
/// surface by the lowering and faults.
pub fn txq_values(ctx: &Ctx<'_>, s: usize, mask: u8, lane: u32) -> Result<[u32; 4], Stop> {
    if mask & 0x8 != 0 {
        return Err(Stop::fault(
            lane,
            "TXQ level count of a surface is not modelled",
        ));
    }
    let spec = &ctx.surfaces[s].spec;
    Ok([
        rules::dimension(spec, rules::Dim::Width),
        rules::dimension(spec, rules::Dim::Height),
        rules::dimension(spec, rules::Dim::Depth),
        0,
    ])
}
