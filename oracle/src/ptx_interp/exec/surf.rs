//! Surface instructions (PTX ISA 9.7.11 "Surface Instructions"): `suld.b`,
//! `sust.b`, `sust.p`, `sured.b` and `suq` on the launch spec's surfaces
//! (corpus/LAUNCH_SPEC.md "Surfaces", this project's extension). Every rule below
//! quotes its ISA section; where the ISA leaves a case undefined or
//! ambiguous the instruction faults, saying why, rather than guess.
//!
//! The access rules (byte addressing, alignment, `.trap`/`.clamp`/`.zero`,
//! the ambiguous cases that fault, the `sured` operations, `suq`
//! dimensions) live in `semantics/surface.rs` (`sust.p`: surface_format.rs), shared with the SASS
//! simulator; this file reads the operands and applies them. Also:
//!
//! * Cache operators (`.ca .cg .cs .cv`, `.wb .cg .cs .wt`) change no
//!   result and are ignored.
//! * Surfaces are global memory to the race detector: `suld`/`sust` are
//!   weak accesses, `sured` a strong (atomic) one (`Ctx::race_surface`).

use super::{mask, Ctx};
use crate::launch::SurfaceSpec;
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::program::{AddrBase, Inst, Opnd};
use crate::ptx_interp::semantics::surface::{self as rules, Oob, RedOp};
use crate::ptx_interp::semantics::surface_format as formats;
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

/// The surface (index into the image's surfaces) a handle operand names.
fn surface(cx: &mut Ctx, i: &Inst, o: &Opnd) -> Result<usize, Stop> {
    let Opnd::Addr { base, .. } = o else {
        return Err(Stop::fault(format!(
            "'{}': surface instruction without a [handle, ...] operand",
            i.text
        )));
    };
    let h = match base {
        AddrBase::Handle(h) => *h,
        AddrBase::Reg(s) => cx.get(&Opnd::Reg(*s))?,
        _ => {
            return Err(Stop::fault(format!(
                "'{}': the handle operand is not a surface",
                i.text
            )))
        }
    };
    cx.m.global
        .image
        .surfaces
        .iter()
        .position(|s| s.handle == h)
        .ok_or_else(|| {
            Stop::fault(format!(
                "'{}': 0x{h:x} is not a surface handle of this launch (a .surfref binds to the launch spec's surface of the same name; a .u64 holds a {{\"surface\": ...}} parameter)",
                i.text
            ))
        })
}

fn oob_mode(i: &Inst) -> Oob {
    if i.mods.has(Mod::Trap) {
        Oob::Trap
    } else if i.mods.has(Mod::Clamp) {
        Oob::Clamp
    } else if i.mods.has(Mod::Zero) {
        Oob::Zero
    } else {
        Oob::Unspecified
    }
}

/// The geometry: (layered, dimensions within a layer). Cube and
/// multi-sample geometries are not surface geometries (9.7.11.1 suld:
/// ".geom = { .1d, .2d, .3d, .a1d, .a2d }"; 9.7.11.3 sured: ".geom = {
/// .1d, .2d, .3d }").
fn geometry(i: &Inst) -> Result<(bool, usize), Stop> {
    let g = if i.mods.has(Mod::D1) {
        (false, 1)
    } else if i.mods.has(Mod::D2) {
        (false, 2)
    } else if i.mods.has(Mod::D3) {
        (false, 3)
    } else if i.mods.has(Mod::A1d) {
        (true, 1)
    } else if i.mods.has(Mod::A2d) {
        (true, 2)
    } else {
        return Err(Stop::fault(format!(
            "'{}': not a surface geometry (the PTX ISA's surface geometries are .1d, .2d, .3d, .a1d, .a2d)",
            i.text
        )));
    };
    if i.op == Opcode::Sured && g.0 {
        return Err(Stop::fault(format!(
            "'{}': sured has no array geometry (PTX ISA 9.7.11.3 sured: .geom = {{ .1d, .2d, .3d }})",
            i.text
        )));
    }
    Ok(g)
}

/// The element size in bytes of a `.b` data type (`.b8 .b16 .b32 .b64`).
fn b_size(i: &Inst) -> Result<u64, Stop> {
    match i.ty {
        ScalarType::B8 => Ok(1),
        ScalarType::B16 => Ok(2),
        ScalarType::B32 => Ok(4),
        ScalarType::B64 => Ok(8),
        t => Err(Stop::fault(format!(
            "'{}': .{} is not a data type of {}.b (PTX ISA 9.7.11: .b8, .b16, .b32, .b64)",
            i.text,
            t.name(),
            i.op.name()
        ))),
    }
}

/// The location one access reaches (`surface::locate`): `Some((layer,
/// x_byte, y, z))`, or `None` for an out-of-bounds access under `.zero`
/// (load zeros, drop the store).
fn locate(
    i: &Inst,
    spec: &SurfaceSpec,
    cx: &mut Ctx,
    size: u64,
) -> Result<Option<rules::Loc>, Stop> {
    let (layered, ndims) = geometry(i)?;
    let bits = coord_words(i, cx)?;
    rules::locate(spec, layered, ndims, oob_mode(i), &bits, size)
        .map_err(|e| Stop::fault(format!("'{}': {e}", i.text)))
}

/// The coordinate vector's words (array index first when layered).
fn coord_words(i: &Inst, cx: &mut Ctx) -> Result<Vec<u32>, Stop> {
    let Opnd::Addr { rest, .. } = &i.ops[if i.op == Opcode::Suld { 1 } else { 0 }] else {
        return Err(Stop::fault(format!(
            "'{}': no [handle, coordinates] operand",
            i.text
        )));
    };
    let Some(Opnd::Vector(v)) = rest.last() else {
        return Err(Stop::fault(format!("'{}': no coordinate vector", i.text)));
    };
    let mut bits = Vec::with_capacity(v.len());
    for e in v.iter() {
        bits.push(mask(32, cx.get(e)?) as u32);
    }
    Ok(bits)
}

/// The byte offset of a location.
fn offset(i: &Inst, spec: &SurfaceSpec, loc: rules::Loc) -> Result<usize, Stop> {
    rules::offset(spec, loc).map_err(|e| Stop::fault(format!("'{}': {e}", i.text)))
}

/// The vector elements of the data operand (one for a scalar).
fn data_elems(o: &Opnd) -> Vec<Opnd> {
    match o {
        Opnd::Vector(v) => v.to_vec(),
        other => vec![other.clone()],
    }
}

/// `suld.b` (9.7.11.1).
fn suld(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.mods.has(Mod::P) {
        return Err(Stop::fault(format!(
            "'{}': suld.p is not in the PTX ISA (9.7.11.1 defines suld.b only)",
            i.text
        )));
    }
    let es = b_size(i)?;
    let si = surface(cx, i, &i.ops[1])?;
    let elems = data_elems(&i.ops[0]);
    let size = es * elems.len() as u64;
    let spec = cx.m.global.image.surfaces[si].spec.clone();
    let loc = locate(i, &spec, cx, size)?;
    let mut vals = vec![0u64; elems.len()];
    if let Some(loc) = loc {
        let off = offset(i, &spec, loc)?;
        cx.race_surface(si, off, size as usize, false, false)?;
        let data = &cx.m.global.image.surfaces[si].data;
        vals = rules::read(data, off, es as usize, elems.len());
    }
    for (e, v) in elems.iter().zip(vals) {
        cx.set_typed(e, i.ty, v)?;
    }
    Ok(())
}

/// `sust.b` (9.7.11.2); `sust.p` in [`sust_p`].
fn sust(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.mods.has(Mod::P) {
        return sust_p(cx, i);
    }
    let es = b_size(i)?;
    let si = surface(cx, i, &i.ops[0])?;
    let elems = data_elems(&i.ops[1]);
    let size = es * elems.len() as u64;
    let mut vals = Vec::with_capacity(elems.len());
    for e in &elems {
        vals.push(mask(es as u32 * 8, cx.get(e)?));
    }
    let spec = cx.m.global.image.surfaces[si].spec.clone();
    let Some(loc) = locate(i, &spec, cx, size)? else {
        return Ok(()); // .zero: "drops stores to out-of-bounds addresses"
    };
    let off = offset(i, &spec, loc)?;
    cx.race_surface(si, off, size as usize, true, false)?;
    let data = &mut cx.m.global.image.surfaces[si].data;
    rules::write(data, off, es as usize, &vals);
    Ok(())
}

/// `sust.p` (9.7.11.2): a formatted store of one sample, the rules of
/// `semantics/surface_format.rs` (sample addressing, conversion to the
/// channel type where exact, the cases that stop). The type is `.b32`
/// (the ISA's syntax `sust.p.geom.vec.b32.clamp`).
fn sust_p(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.ty != ScalarType::B32 {
        return Err(Stop::fault(format!(
            "'{}': sust.p takes .b32 data (PTX ISA 9.7.11.2: sust.p.geom.vec.b32.clamp)",
            i.text
        )));
    }
    let si = surface(cx, i, &i.ops[0])?;
    let mut words = Vec::new();
    for e in &data_elems(&i.ops[1]) {
        words.push(mask(32, cx.get(e)?) as u32);
    }
    let spec = cx.m.global.image.surfaces[si].spec.clone();
    let (layered, ndims) = geometry(i)?;
    let coords = coord_words(i, cx)?;
    let fail = |e: String| Stop::fault(format!("'{}': {e}", i.text));
    let Some(loc) =
        formats::locate_sample(&spec, layered, ndims, oob_mode(i), &coords).map_err(fail)?
    else {
        return Ok(()); // .zero: "drops stores to out-of-bounds addresses"
    };
    let vals = formats::convert_sample(&spec, &words).map_err(fail)?;
    let off = offset(i, &spec, loc)?;
    let es = spec.ty.size();
    cx.race_surface(si, off, es * vals.len(), true, false)?;
    let data = &mut cx.m.global.image.surfaces[si].data;
    rules::write(data, off, es, &vals);
    Ok(())
}

/// `sured.b` (9.7.11.3): "Operation add applies to .u32, .u64, and .s32
/// types; min and max apply to .u32, .s32, .u64 and .s64 types;
/// operations and and or apply to .b32 type." It has no destination: the
/// old value is not returned. `sured.p` (sample addressing, data typed by
/// the surface format) is refused.
fn sured(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.mods.has(Mod::P) {
        return Err(Stop::fault(format!(
            "'{}': sured.p is not executed: its operand type follows the surface sample format (PTX ISA 9.7.11.3), which the launch spec does not define for surfaces",
            i.text
        )));
    }
    let op = if i.mods.has(Mod::Add) {
        RedOp::Add
    } else if i.mods.has(Mod::Min) {
        RedOp::Min
    } else if i.mods.has(Mod::Max) {
        RedOp::Max
    } else if i.mods.has(Mod::And) {
        RedOp::And
    } else {
        RedOp::Or
    };
    use ScalarType::*;
    let signed = matches!(i.ty, S32 | S64);
    let bits = if matches!(i.ty, U64 | S64) { 64 } else { 32 };
    let ok = matches!(i.ty, U32 | S32 | U64 | S64 | B32)
        && (i.ty == B32) == matches!(op, RedOp::And | RedOp::Or)
        && rules::red_defined(op, bits, signed);
    if !ok {
        return Err(Stop::fault(format!(
            "'{}': sured.b does not define this operation on .{} (PTX ISA 9.7.11.3: add on .u32/.u64/.s32, min/max on .u32/.s32/.u64/.s64, and/or on .b32)",
            i.text,
            i.ty.name()
        )));
    }
    if matches!(&i.ops[1], Opnd::Vector(v) if v.len() > 1) {
        return Err(Stop::fault(format!(
            "'{}': sured takes one value, not a vector (PTX ISA 9.7.11.3)",
            i.text
        )));
    }
    let es = u64::from(bits / 8);
    let si = surface(cx, i, &i.ops[0])?;
    let c = mask(bits, cx.get(&data_elems(&i.ops[1])[0])?);
    let spec = cx.m.global.image.surfaces[si].spec.clone();
    let Some(loc) = locate(i, &spec, cx, es)? else {
        return Ok(()); // .zero: "drops stores to out-of-bounds addresses"
    };
    let off = offset(i, &spec, loc)?;
    cx.race_surface(si, off, es as usize, true, true)?;
    let data = &mut cx.m.global.image.surfaces[si].data;
    let old = rules::read(data, off, es as usize, 1)[0];
    let new = rules::reduce(op, bits, signed, old, c);
    rules::write(data, off, es as usize, &[new]);
    Ok(())
}

/// `suq.query.b32 d, [a]` (9.7.11.4): the answers of
/// [`rules::suq`]. `.memory_layout` ("1 for surface with linear memory
/// layout; 0 otherwise") faults: the launch spec describes contents, not
/// the device layout (a CUDA surface over a CUDA array is not linear; one
/// over linear memory would be).
fn suq(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    let si = surface(cx, i, &i.ops[1])?;
    let spec = &cx.m.global.image.surfaces[si].spec;
    let Some(q) = rules::SurfQuery::of(|m| i.mods.has(m)) else {
        return Err(Stop::fault(format!(
            "'{}': suq.memory_layout is not answered: the launch spec does not say whether a surface's device memory is linear (PTX ISA 9.7.11.4: 1 for linear, 0 otherwise)",
            i.text
        )));
    };
    cx.set(&i.ops[0], u64::from(rules::suq(spec, q)))
}

pub fn exec(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    match i.op {
        Opcode::Suld => suld(cx, i),
        Opcode::Sust => sust(cx, i),
        Opcode::Sured => sured(cx, i),
        Opcode::Suq => suq(cx, i),
        _ => Err(Stop::fault(format!(
            "'{}': not a surface instruction",
            i.text
        ))),
    }
}
