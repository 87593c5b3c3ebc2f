//! Texture instructions (PTX ISA 9.7.10): `tex`, `tld4`, `txq`, with the
//! sampling model in `semantics::texture`. Geometries: `tex` .1d/.2d/.3d and
//! the arrays .a1d/.a2d (on textures with `layers` in the launch spec),
//! `tld4` .2d/.a2d; cube and multi-sample geometries fault (the launch spec
//! has no such textures), and so do separate samplers ([`refuse_sampler`]). Surfaces (`suld`, `sust`, `sured`, `suq`) are in
//! `exec/surf.rs`.

use super::{mask, Ctx};
use crate::launch::TextureSpec;
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::program::{AddrBase, Inst, Opnd};
use crate::ptx_interp::semantics::texture::{self, Coord, Lod, TexQuery};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

/// The texture image a handle operand names.
fn image<'m>(cx: &mut Ctx<'_, 'm>, o: &Opnd) -> Result<usize, Stop> {
    let Opnd::Addr { base, .. } = o else {
        return Err(Stop::fault(
            "texture instruction without a [handle, ...] operand",
        ));
    };
    let h = match base {
        AddrBase::Handle(h) => *h,
        AddrBase::Reg(s) => cx.get(&Opnd::Reg(*s))?,
        _ => return Err(Stop::fault("texture handle is not a texture")),
    };
    cx.m.textures
        .iter()
        .position(|t| t.handle == h)
        .ok_or_else(|| Stop::fault(format!("0x{h:x} is not a texture handle of this launch")))
}

/// Coordinate dimensions within one image (within one layer for `.a1d` /
/// `.a2d`).
fn dims_of(i: &Inst) -> usize {
    if i.mods.has(Mod::D1) || i.mods.has(Mod::A1d) {
        1
    } else if i.mods.has(Mod::D2) || i.mods.has(Mod::A2d) {
        2
    } else {
        3
    }
}

/// Whether the instruction's geometry is a texture array (`.a1d`, `.a2d`).
fn layered_geometry(i: &Inst) -> bool {
    i.mods.has(Mod::A1d) || i.mods.has(Mod::A2d)
}

/// Cube textures are refused: the launch spec describes 1D, 2D and 3D
/// images and layered 1D/2D images only (no cube faces, no cube-face
/// selection from a direction vector).
fn refuse_cube(i: &Inst) -> Result<(), Stop> {
    if i.mods.has(Mod::Cube) || i.mods.has(Mod::Acube) {
        return Err(Stop::fault(format!(
            "'{}': cube textures are not supported: the launch spec has no cubemap textures (only 1d/2d/3d and layered 1d/2d images)",
            i.text
        )));
    }
    Ok(())
}

/// A separate sampler (`[tex, sampler, {coords}]`, independent texture
/// mode) faults. PTX ISA 5.3 ("Texture Sampler and Surface Types"): in
/// the independent mode the filter and addressing state comes from the
/// sampler, not the texture, and the launch spec defines no sampler
/// objects (a `.samplerref`'s initializers are not modelled). Fetching
/// with the texture's own sampling state and ignoring the sampler, as this
/// interpreter did before, would answer a different question than the
/// PTX asks.
fn refuse_sampler(i: &Inst) -> Result<(), Stop> {
    if matches!(i.ops.get(1), Some(Opnd::Addr { rest, .. }) if rest.len() > 1) {
        return Err(Stop::fault(format!(
            "'{}': separate samplers are not supported: in the independent texture mode the sampling state is the sampler's (PTX ISA 5.3), and the launch spec has no sampler objects",
            i.text
        )));
    }
    Ok(())
}

/// A layered instruction needs a layered texture and the reverse
/// ([`texture::check_geometry`], shared with the SASS simulator).
fn check_layering(i: &Inst, spec: &TextureSpec) -> Result<(), Stop> {
    texture::check_geometry(spec, layered_geometry(i))
        .map_err(|e| Stop::fault(format!("'{}': {e}", i.text)))
}

/// The coordinate vector's elements as raw 32-bit values.
fn coord_bits(cx: &mut Ctx, o: &Opnd) -> Result<Vec<u32>, Stop> {
    let Opnd::Addr { rest, .. } = o else {
        return Err(Stop::fault(
            "texture instruction without a [handle, ...] operand",
        ));
    };
    let Some(Opnd::Vector(v)) = rest.last() else {
        return Err(Stop::fault("texture instruction without coordinates"));
    };
    let mut out = Vec::with_capacity(v.len());
    for e in v.iter() {
        out.push(mask(32, cx.get(e)?) as u32);
    }
    Ok(out)
}

/// Up to three coordinates from `bits` (missing ones 0), as `.f32` or
/// `.s32`.
fn coords_of(bits: &[u32], float: bool) -> [Coord; 3] {
    let mut out = [Coord::Int(0); 3];
    for (k, &b) in bits.iter().take(3).enumerate() {
        out[k] = if float {
            Coord::Float(f32::from_bits(b))
        } else {
            Coord::Int(b as i32)
        };
    }
    out
}

/// Splits a coordinate vector into (layer, coordinates within the layer).
/// For `.a1d` / `.a2d` (and `tld4.a2d`) the first element is the array
/// index, a `.u32` whatever `.ctype` says (PTX ISA `tex`: "Operand c is a
/// bit-size type vector or tuple containing an index into the array of
/// textures followed by coordinates within the selected texture"; "The
/// texture array index is a 32-bit unsigned integer"); the layer is
/// [`texture::layer_or_fault`] of it; an index past the last layer faults
/// (its result is undocumented, see [`texture::layer_index`]).
fn split_layer(i: &Inst, spec: &TextureSpec, bits: &[u32]) -> Result<(u32, Vec<u32>), Stop> {
    if !layered_geometry(i) {
        return Ok((0, bits.to_vec()));
    }
    let Some((&index, rest)) = bits.split_first() else {
        return Err(Stop::fault(format!(
            "'{}': array geometry without an array index",
            i.text
        )));
    };
    let layer = texture::layer_or_fault(spec, index)
        .map_err(|e| Stop::fault(format!("'{}': {e}", i.text)))?;
    Ok((layer, rest.to_vec()))
}

/// The level of detail of a `tex` (`texture::Lod`): `tex.level`'s `lod`
/// operand (an `.f32`), `tex.grad`'s two gradient vectors (`.f32`
/// elements, missing ones 0), or none.
fn lod_of(cx: &mut Ctx, i: &Inst) -> Result<Lod, Stop> {
    if i.mods.has(Mod::Level) {
        let o = i
            .ops
            .get(2)
            .ok_or_else(|| Stop::fault(format!("'{}': tex.level without lod", i.text)))?;
        return Ok(Lod::Level(f32::from_bits(mask(32, cx.get(o)?) as u32)));
    }
    if i.mods.has(Mod::Grad) {
        let mut g = [[0f32; 3]; 2];
        for (k, gk) in g.iter_mut().enumerate() {
            let Some(Opnd::Vector(v)) = i.ops.get(2 + k) else {
                return Err(Stop::fault(format!(
                    "'{}': tex.grad without its gradient vectors",
                    i.text
                )));
            };
            for (e, x) in v.iter().zip(gk.iter_mut()) {
                *x = f32::from_bits(mask(32, cx.get(e)?) as u32);
            }
        }
        return Ok(Lod::Grad {
            dpdx: g[0],
            dpdy: g[1],
        });
    }
    Ok(Lod::Base)
}

fn write_vec(cx: &mut Ctx, o: &Opnd, vals: [u32; 4], t: ScalarType) -> Result<(), Stop> {
    match o {
        Opnd::Vector(v) | Opnd::VectorPred(v, _) => {
            for (k, e) in v.iter().enumerate() {
                cx.set_typed(e, t, u64::from(vals[k.min(3)]))?;
            }
            if let Opnd::VectorPred(_, p) = o {
                // The residency predicate: every texel is resident here.
                cx.set(
                    &Opnd::Pred {
                        slot: *p,
                        neg: false,
                    },
                    1,
                )?;
            }
            Ok(())
        }
        d => cx.set_typed(d, t, u64::from(vals[0])),
    }
}

pub fn exec(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    match i.op {
        Opcode::Tex => {
            refuse_cube(i)?;
            refuse_sampler(i)?;
            if i.mods.has(Mod::D2ms) || i.mods.has(Mod::A2dms) {
                return Err(Stop::fault(format!(
                    "'{}': multi-sample textures are not in the launch spec",
                    i.text
                )));
            }
            let img = image(cx, &i.ops[1])?;
            check_layering(i, &cx.m.textures[img].spec)?;
            let bits = coord_bits(cx, &i.ops[1])?;
            let tex = &cx.m.textures[img];
            let (layer, rest) = split_layer(i, &tex.spec, &bits)?;
            let c = coords_of(&rest, i.ty2 == ScalarType::F32);
            let lod = lod_of(cx, i)?;
            let tex = &cx.m.textures[img];
            let vals = texture::fetch_lod(tex, &tex.spec, layer, c, dims_of(i), lod);
            write_vec(cx, &i.ops[0], vals, i.ty)
        }
        Opcode::Tld4 => {
            refuse_cube(i)?;
            refuse_sampler(i)?;
            // PTX ISA tld4: geometries .2d, .a2d, .cube, .acube.
            if !(i.mods.has(Mod::D2) || i.mods.has(Mod::A2d)) {
                return Err(Stop::fault(format!(
                    "'{}': tld4 takes .2d or .a2d textures here (the ISA's other tld4 geometries are cube maps)",
                    i.text
                )));
            }
            let img = image(cx, &i.ops[1])?;
            check_layering(i, &cx.m.textures[img].spec)?;
            let bits = coord_bits(cx, &i.ops[1])?;
            let tex = &cx.m.textures[img];
            let (layer, rest) = split_layer(i, &tex.spec, &bits)?;
            let [x, y] = [0, 1].map(|k| f32::from_bits(rest.get(k).copied().unwrap_or(0)));
            let comp = if i.mods.has(Mod::R) {
                0
            } else if i.mods.has(Mod::G) {
                1
            } else if i.mods.has(Mod::Bc) {
                2
            } else {
                3
            };
            let vals = texture::tld4_layer(tex, &tex.spec, layer, comp, x, y);
            write_vec(cx, &i.ops[0], vals, i.ty)
        }
        Opcode::Txq => {
            let img = image(cx, &i.ops[1])?;
            let q = TexQuery::of(|m| i.mods.has(m))
                .ok_or_else(|| Stop::fault(format!("'{}': txq without a query field", i.text)))?;
            let v = texture::txq(&cx.m.textures[img].spec, q);
            cx.set(&i.ops[0], u64::from(v))
        }
        // `istypep.type p, a` (PTX ISA 9.7.10.6): "Write predicate register
        // p with 1 if register a points to an opaque variable of the
        // specified type, and with 0 otherwise": true only for the launch's
        // own texture / surface handles; never for .samplerref (the launch
        // has no samplers). ptxas 11.8 tests bit 61 / 62 / 63 of the handle
        // instead (ptxc::targets::abi::resinfo); the launch's handles
        // (launch::TEXTURE_HANDLE_BASE, SURFACE_HANDLE_BASE), buffer
        // addresses (below 4 GiB) and generic window addresses (bits 61..63
        // clear) get the same answer from both rules. DECISION: the ISA's
        // rule here; a 64-bit integer with bit 61..63 set that is no handle
        // is where the lowered code answers differently.
        Opcode::Istypep => {
            let h = cx.get(&i.ops[1])?;
            let is_tex = cx.m.textures.iter().any(|t| t.handle == h);
            let is_surf = cx.m.global.image.surfaces.iter().any(|s| s.handle == h);
            cx.set(
                &i.ops[0],
                u64::from(
                    (is_tex && i.mods.has(Mod::Texref)) || (is_surf && i.mods.has(Mod::Surfref)),
                ),
            )
        }
        _ => super::surf::exec(cx, i),
    }
}
