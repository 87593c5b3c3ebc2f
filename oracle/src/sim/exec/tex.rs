//! Texture fetches (TLD, TEX, TLD4, TXD) through the PTX interpreter's texture
//! model (`ptx_interp::semantics::texture`), so both runners sample alike.
//!
//! Operands (cuobjdump): `TLD.SCR.LZ RZ, R4, R4, 0x0, 0x58, 1D, 0x1` is
//! destinations `R4` (first pair) and `RZ` (second pair), coordinates from
//! `R4` (x; y and z in the following registers for 2D/3D, UNCONFIRMED), the
//! texture slot `0x58` and the write mask `0x1` (components x, y, z, w; the
//! selected ones fill the first pair, then the second, UNCONFIRMED). On
//! sm_90 the texture is a handle in a uniform register (`TLD.LZ RZ, R3, R3,
//! UR4, 0x0, 1D, 0x1`, UR4 = the parameter's low word).
//!
//! The compiler's sm_70 form for a handle that is not a kernel parameter
//! names a general register where the uniform one would be (`TLD.LZ RZ,
//! R4, R4, R6, 0x0, 1D, 0xf`, UNCONFIRMED spelling): each lane's own
//! handle (low word) selects its texture.
//!
//! Which texture a slot means: the banks file's `textures` map when it has
//! the slot; otherwise the 32-bit word in constant bank 0 at `4 * slot`
//! (slot 0x58 is c[0x0][0x160], the first parameter: the texture object's
//! low word; UNCONFIRMED but consistent with every listing). Only that
//! word is read: ptxas names a module `.texref`'s 4-byte word, relocated
//! with the texture's header index, in the same slot form (`TEX.SCR.LL RZ,
//! R4, R4, R9, 0x0, 0x5b, 2D` for the word at c[0x0][0x16c],
//! oracle/tests/texref_vendor/texref_mix.sm_80.{sass,rel.txt}), and the
//! word after it may be another reference's. A handle whose upper word is
//! 0 is read as the launch's texture index (real texture objects are small
//! integers; sm_90 SASS uses only the low word).

use super::super::program::{Dst, Src, TexInst, TexLod, TexOp, TexRef};
use super::super::warp::{Stop, Warp};
use super::Ctx;
use crate::launch::{TextureImage, TEXTURE_HANDLE_BASE};
use crate::ptx_interp::semantics::texture::{
    check_geometry, fetch_layer, fetch_lod, layer_or_fault, tld4_layer, txq as query, Coord, Lod,
    TexQuery,
};

fn by_handle<'t>(ctx: &'t Ctx<'_>, h: u64) -> Option<&'t TextureImage> {
    let h = if h >> 32 == 0 {
        TEXTURE_HANDLE_BASE | h
    } else {
        h
    };
    ctx.textures.iter().find(|t| t.handle == h)
}

fn resolve<'t>(ctx: &'t Ctx<'_>, w: &Warp, t: TexRef, lane: u32) -> Result<&'t TextureImage, Stop> {
    match t {
        TexRef::Slot(s) => {
            if let Some(name) = ctx.inputs.textures.get(&s) {
                return ctx
                    .textures
                    .iter()
                    .find(|t| &t.spec.name == name)
                    .ok_or_else(|| {
                        Stop::fault(
                            lane,
                            format!("texture slot {s}: the spec has no texture '{name}'"),
                        )
                    });
            }
            let h = ctx.banks.read(0, i64::from(s) * 4, 4).unwrap_or(0);
            by_handle(ctx, h).ok_or_else(|| {
                Stop::fault(
                    lane,
                    format!("texture slot {s:#x} is bound to no texture (handle {h:#x} in c[0x0][{:#x}])", s * 4),
                )
            })
        }
        TexRef::Reg(r) => {
            let h = u64::from(w.read1(Src::R(r), lane)?);
            by_handle(ctx, h)
                .ok_or_else(|| Stop::fault(lane, format!("texture handle {h:#x} names no texture")))
        }
        TexRef::Handle(u) => {
            let lo = w.read1(Src::U(u), lane)?;
            let hi = if (u as usize + 1) < w.ur.len() && w.urw[u as usize + 1] {
                w.ur[u as usize + 1]
            } else {
                0
            };
            let h = (u64::from(hi) << 32) | u64::from(lo);
            by_handle(ctx, h)
                .ok_or_else(|| Stop::fault(lane, format!("texture handle {h:#x} names no texture")))
        }
    }
}

/// Register `k` of a group that starts at `src` (an `RZ`/immediate group
/// reads the same value throughout).
fn group_reg(src: Src, k: u8) -> Src {
    match src {
        Src::R(i) => Src::R(i + u32::from(k)),
        other => other,
    }
}

/// One texture fetch over the active lanes `m`.
///
/// The level of detail (`.LL`'s value, `TXD`'s gradients) goes to the
/// interpreter's level rule ([`fetch_lod`]: every launch spec texture has
/// one level). A PTX `.1d` level-of-detail fetch arrives as a `2D` one at
/// y = 0 (ptxas's form, compiler/src/lower/tex_lod.rs), which reads a 1D
/// texture as the 1D fetch does: the missing dimension has size 1 and
/// clamps (`semantics::texture`).
///
/// Array fetches (`ARRAY_1D`, `ARRAY_2D`): the first source value is the
/// array index (after ptxas's clamp to 0xffff, which this does not redo);
/// the layer and the geometry check are the interpreter's
/// ([`layer_or_fault`], [`check_geometry`]), so an index past the last
/// layer, an array fetch of a plain texture and a plain fetch of a layered
/// one fault here as they do there.
pub fn tex(ctx: &mut Ctx<'_>, w: &mut Warp, m: u32, t: &TexInst) -> Result<(), Stop> {
    if m == 0 {
        return Ok(());
    }
    let layered = usize::from(t.layered);
    let dims = usize::from(t.dims);
    let extra = match t.lod {
        TexLod::Grad => 2 * dims,
        TexLod::Level => 1,
        TexLod::Zero => usize::from(t.aoffi),
    };
    let n = layered + dims + extra;
    let mut vals = Vec::with_capacity(n);
    for k in 0..n as u8 {
        let src = if k < t.ra_len {
            group_reg(t.ra, k)
        } else {
            let rb = t.rb.ok_or_else(|| {
                Stop::fault(m.trailing_zeros(), "texture fetch without its Rb group")
            })?;
            group_reg(rb, k - t.ra_len)
        };
        vals.push(w.read(src, m)?);
    }
    if t.lod == TexLod::Grad && t.layered {
        // TXD's Ra: the coordinates, then the index; the order here is the
        // index first.
        vals[..=dims].rotate_right(1);
    }
    let extra_at = layered + dims;
    let lod_of = |l: usize| -> Lod {
        let f = |k: usize| f32::from_bits(vals[extra_at + k][l]);
        match t.lod {
            TexLod::Zero => Lod::Base,
            TexLod::Level => Lod::Level(f(0)),
            TexLod::Grad => {
                let g = |j: usize| [0, 1, 2].map(|d| if d < dims { f(2 * d + j) } else { 0.0 });
                Lod::Grad {
                    dpdx: g(0),
                    dpdy: g(1),
                }
            }
        }
    };
    let cv = |k: usize, l: usize| vals.get(layered + k).map_or(0, |v| v[l]);
    let mut img = resolve(ctx, w, t.tex, m.trailing_zeros())?;
    let mut out = [[0u32; 32]; 4];
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        if matches!(t.tex, TexRef::Reg(_)) {
            img = resolve(ctx, w, t.tex, l as u32)?;
        }
        check_geometry(&img.spec, t.layered).map_err(|e| Stop::fault(l as u32, e))?;
        let layer = if t.layered {
            layer_or_fault(&img.spec, vals[0][l]).map_err(|e| Stop::fault(l as u32, e))?
        } else {
            0
        };
        let texel = match t.op {
            TexOp::Tld => {
                // `.AOFFI`: signed 4-bit offsets, x in bits 3:0, y 7:4, z 11:8.
                let offs = if t.aoffi { vals[n - 1][l] } else { 0 };
                let off = |k: usize| ((offs >> (4 * k)) << 28) as i32 >> 28;
                let c = [0, 1, 2].map(|k| Coord::Int((cv(k, l) as i32).wrapping_add(off(k))));
                fetch_layer(img, &img.spec, layer, c, dims)
            }
            TexOp::Tex => {
                let c = [0, 1, 2].map(|k| Coord::Float(f32::from_bits(cv(k, l))));
                fetch_lod(img, &img.spec, layer, c, dims, lod_of(l))
            }
            TexOp::Tld4 { comp } => tld4_layer(
                img,
                &img.spec,
                layer,
                comp as usize,
                f32::from_bits(cv(0, l)),
                f32::from_bits(cv(1, l)),
            ),
        };
        let mut k = 0;
        for (c, v) in texel.iter().enumerate() {
            if t.mask >> c & 1 != 0 {
                out[k][l] = *v;
                k += 1;
            }
        }
    }
    let n = (t.mask & 0xf).count_ones() as usize;
    for (k, o) in out.iter().enumerate().take(n) {
        let (d, idx) = if k < 2 { (t.d0, k) } else { (t.d1, k - 2) };
        w.write_at(d, idx as u32, m, o);
    }
    // The predicate destination says "not resident": every texel of a
    // launch texture is resident (the interpreter's rule for `{..}|p`,
    // ptx_interp/exec/tex.rs), so it is false in every lane.
    w.write_pred(t.nonresident, m, 0);
    Ok(())
}

/// `TXQ ..., TEX_HEADER_DIMENSION, mask`: components x, y, z of the mask
/// are the width, height and depth (the interpreter's `txq` model: 0 for a
/// dimension the texture does not have), packed like a fetch's channels.
/// Only level 0 is modelled (the lowering always queries it).
#[allow(clippy::too_many_arguments)]
pub fn txq(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    m: u32,
    d0: Dst,
    d1: Dst,
    lod: Src,
    t: TexRef,
    mask: u8,
) -> Result<(), Stop> {
    if m == 0 {
        return Ok(());
    }
    let lv = w.read(lod, m)?;
    let mut out = [[0u32; 32]; 4];
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros() as usize;
        mm &= mm - 1;
        if lv[l] != 0 {
            return Err(Stop::fault(
                l as u32,
                format!("TXQ at texture level {} is not modelled", lv[l]),
            ));
        }
        // `suq` lowers to TXQ too (compiler lower/surf.rs): a surface handle.
        let vals = match super::surf::find(ctx, w, t, l as u32)? {
            Some(s) => super::surf::txq_values(ctx, s, mask, l as u32)?,
            None => {
                let img = resolve(ctx, w, t, l as u32)?;
                [
                    TexQuery::Width,
                    TexQuery::Height,
                    TexQuery::Depth,
                    TexQuery::NumMipmapLevels,
                ]
                .map(|q| query(&img.spec, q))
            }
        };
        let mut k = 0;
        for (c, v) in vals.iter().enumerate() {
            if mask >> c & 1 != 0 {
                out[k][l] = *v;
                k += 1;
            }
        }
    }
    let n = (mask & 0xf).count_ones() as usize;
    for (k, o) in out.iter().enumerate().take(n) {
        let (d, idx) = if k < 2 { (d0, k) } else { (d1, k - 2) };
        w.write_at(d, idx as u32, m, o);
    }
    Ok(())
}
