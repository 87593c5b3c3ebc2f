//! Surface instructions (PTX ISA 9.7.11 "Surface Instructions"): `suld.b`,
//! `sust.b`, `sured.b` and `suq` on the launch spec's surfaces
//! (LAUNCH_SPEC.md "Surfaces", this project's extension). Every rule below
//! quotes its ISA section; where the ISA leaves a case undefined or
//! ambiguous the instruction faults, saying why, rather than guess.
//!
//! Rules common to `suld.b` / `sust.b` / `sured.b`:
//! * Operand `b` (9.7.11.1 suld, 9.7.11.2 sust, 9.7.11.3 sured): "a scalar
//!   or singleton tuple for 1d surfaces; is a two-element vector for 2d
//!   surfaces; and is a four-element vector for 3d surfaces, where the
//!   fourth element is ignored. Coordinate elements are of type .s32."
//!   For `.a1d` / `.a2d` (suld, sust): "The first element is interpreted as
//!   an unsigned integer index (.u32) into the surface array", then the 1d
//!   or 2d coordinates (`.a2d`: "The fourth element is ignored").
//! * Byte addressing (suld, sust, sured `.b`): "The lowest dimension
//!   coordinate represents a byte offset into the surface and is not
//!   scaled, and the size of the data transfer matches the size of
//!   destination operand d" (sust: "of source operand c").
//! * Alignment (all three): "the address given by the coordinate vector
//!   must be naturally aligned to a multiple of the access size. If an
//!   address is not properly aligned, the resulting behavior is undefined"
//!   -> a fault naming x and the access size.
//! * Out of bounds, the `.clamp` field (suld): "`.trap` causes an
//!   execution trap on out-of-bounds addresses; `.clamp` loads data at the
//!   nearest surface location (sized appropriately); `.zero` loads zero for
//!   out-of-bounds addresses"; (sust, sured): "`.clamp` stores data at the
//!   nearest surface location (sized appropriately); `.zero` drops stores
//!   to out-of-bounds addresses". Here: `.trap` is a fault naming the
//!   coordinates; `.zero` loads zeros / drops the store or reduction;
//!   `.clamp` moves x into `[0, row_bytes - size]` and y, z into
//!   `[0, h-1]`, `[0, d-1]` (the nearest in-bounds location of the access's
//!   size).
//! * Ambiguous, so a fault (Decision): no `.clamp` field on an
//!   out-of-bounds access (the ISA syntax lists the field and names no
//!   default); an access partly inside a row (x inside, x + size past the
//!   row's end: the ISA does not say whether it is out of bounds, nor
//!   what `.zero` / `.clamp` do with the part inside); `.clamp` where the
//!   row's byte size is not a multiple of the access size (the nearest
//!   location would be misaligned); an array index at or past the layer
//!   count, in any mode (the ISA does not say whether `.clamp`/`.zero`
//!   apply to the layer; the texture precedent in `exec/tex.rs` faults
//!   too); a geometry whose dimensions or layering differ from the
//!   surface's.
//! * Cache operators (`.ca .cg .cs .cv`, `.wb .cg .cs .wt`) change no
//!   result and are ignored.
//! * Surfaces are global memory to the race detector: `suld`/`sust` are
//!   weak accesses, `sured` a strong (atomic) one (`Ctx::race_surface`).

use super::{mask, Ctx};
use crate::launch::SurfaceSpec;
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::program::{AddrBase, Inst, Opnd};
use crate::ptx_interp::semantics::texture;
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

/// How out-of-bounds accesses are handled (the `.clamp` field).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Oob {
    Trap,
    Clamp,
    Zero,
    /// no field given
    Unspecified,
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

/// The location one access reaches: `Some((layer, x_byte, y, z))`, or
/// `None` for an out-of-bounds access under `.zero` (load zeros, drop the
/// store).
fn locate(
    i: &Inst,
    spec: &SurfaceSpec,
    cx: &mut Ctx,
    size: u64,
) -> Result<Option<(u32, u64, u32, u32)>, Stop> {
    let (layered, ndims) = geometry(i)?;
    if layered != spec.layers.is_some() || ndims != spec.dims.len() {
        return Err(Stop::fault(format!(
            "'{}': the geometry does not match surface '{}' ({}{} dimension(s)); the ISA does not define access through another geometry",
            i.text,
            spec.name,
            if spec.layers.is_some() { "layered, " } else { "" },
            spec.dims.len()
        )));
    }
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
    // Array index first (.u32), then .s32 coordinates.
    let (layer, coords) = if layered {
        let idx = bits[0];
        if idx >= spec.layer_count() {
            return Err(Stop::fault(format!(
                "'{}': array index {idx} outside surface '{}' ({} layer(s)); the ISA does not say what an out-of-range layer does, in any .clamp mode",
                i.text,
                spec.name,
                spec.layer_count()
            )));
        }
        (idx, &bits[1..])
    } else {
        (0, &bits[..])
    };
    let c = |k: usize| -> i64 {
        if k < ndims {
            i64::from(coords.get(k).copied().unwrap_or(0) as i32)
        } else {
            0
        }
    };
    let (x, y, z) = (c(0), c(1), c(2));
    // Alignment (9.7.11.1 suld / 9.7.11.2 sust / 9.7.11.3 sured: "must be
    // naturally aligned to a multiple of the access size ... undefined").
    if x.rem_euclid(size as i64) != 0 {
        return Err(Stop::fault(format!(
            "'{}': x = {x} bytes is not a multiple of the access size ({size} bytes): a misaligned surface address is undefined (PTX ISA 9.7.11)",
            i.text
        )));
    }
    let [_, h, d] = spec.dims3();
    let row = spec.row_bytes() as i64;
    let s = size as i64;
    let x_in = x >= 0 && x + s <= row;
    let y_in = (0..i64::from(h)).contains(&y);
    let z_in = (0..i64::from(d)).contains(&z);
    let at = || {
        let mut t = format!("x = {x} bytes");
        if ndims > 1 {
            t.push_str(&format!(", y = {y}"));
        }
        if ndims > 2 {
            t.push_str(&format!(", z = {z}"));
        }
        if layered {
            t.push_str(&format!(", layer {layer}"));
        }
        t
    };
    if x_in && y_in && z_in {
        return Ok(Some((layer, x as u64, y as u32, z as u32)));
    }
    if x >= 0 && x < row && x + s > row {
        return Err(Stop::fault(format!(
            "'{}': the {size}-byte access at {} is partly outside surface '{}' (rows of {row} bytes); the ISA does not define a partly out-of-bounds access",
            i.text,
            at(),
            spec.name
        )));
    }
    match oob_mode(i) {
        Oob::Trap => Err(Stop::fault(format!(
            "'{}': out-of-bounds surface access at {} on surface '{}' ({} x {} x {} elements, rows of {row} bytes): .trap",
            i.text,
            at(),
            spec.name,
            spec.dims3()[0],
            h,
            d
        ))),
        Oob::Unspecified => Err(Stop::fault(format!(
            "'{}': out-of-bounds surface access at {} on surface '{}' without a .trap/.clamp/.zero field (the ISA names no default)",
            i.text,
            at(),
            spec.name
        ))),
        Oob::Zero => Ok(None),
        Oob::Clamp => {
            if row < s || row % s != 0 {
                return Err(Stop::fault(format!(
                    "'{}': .clamp at {}: rows of surface '{}' are {row} bytes, not a multiple of the {size}-byte access, so the nearest location is not aligned (undefined)",
                    i.text,
                    at(),
                    spec.name
                )));
            }
            let xc = x.clamp(0, row - s) as u64;
            let yc = y.clamp(0, i64::from(h) - 1) as u32;
            let zc = z.clamp(0, i64::from(d) - 1) as u32;
            Ok(Some((layer, xc, yc, zc)))
        }
    }
}

/// The vector elements of the data operand (one for a scalar).
fn data_elems(o: &Opnd) -> Vec<Opnd> {
    match o {
        Opnd::Vector(v) => v.to_vec(),
        other => vec![other.clone()],
    }
}

fn read_le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
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
    if let Some((layer, xb, y, z)) = loc {
        let off = spec.byte_offset(layer, xb, y, z).ok_or_else(|| {
            Stop::fault(format!("'{}': surface location outside its image", i.text))
        })? as usize;
        cx.race_surface(si, off, size as usize, false, false)?;
        let data = &cx.m.global.image.surfaces[si].data;
        for (k, v) in vals.iter_mut().enumerate() {
            let a = off + k * es as usize;
            *v = read_le(&data[a..a + es as usize]);
        }
    }
    for (e, v) in elems.iter().zip(vals) {
        cx.set_typed(e, i.ty, v)?;
    }
    Ok(())
}

/// `sust.b` (9.7.11.2); `sust.p` refused.
fn sust(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.mods.has(Mod::P) {
        // 9.7.11.2 sust: sust.p converts to "the surface sample format"
        // ("UNORM, SNORM, or FLOAT ... .f32 is assumed; UINT ... .u32; SINT
        // ... .s32. The source data is then converted from this type to the
        // surface sample format") without saying how (rounding, saturation
        // to a narrower channel), and "Surface sample components that do
        // not occur in the source vector will be written with an
        // unpredictable value".
        return Err(Stop::fault(format!(
            "'{}': sust.p is not executed: the PTX ISA (9.7.11.2) does not define its conversion to the surface's channel type (rounding, saturation) and leaves unwritten components unpredictable",
            i.text
        )));
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
    let Some((layer, xb, y, z)) = locate(i, &spec, cx, size)? else {
        return Ok(()); // .zero: "drops stores to out-of-bounds addresses"
    };
    let off = spec
        .byte_offset(layer, xb, y, z)
        .ok_or_else(|| Stop::fault(format!("'{}': surface location outside its image", i.text)))?
        as usize;
    cx.race_surface(si, off, size as usize, true, false)?;
    let data = &mut cx.m.global.image.surfaces[si].data;
    for (k, v) in vals.iter().enumerate() {
        let a = off + k * es as usize;
        data[a..a + es as usize].copy_from_slice(&v.to_le_bytes()[..es as usize]);
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum RedOp {
    Add,
    Min,
    Max,
    And,
    Or,
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
    let ok = matches!(
        (op, i.ty),
        (RedOp::Add, U32 | U64 | S32)
            | (RedOp::Min | RedOp::Max, U32 | S32 | U64 | S64)
            | (RedOp::And | RedOp::Or, B32)
    );
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
    let es: u64 = if matches!(i.ty, U64 | S64) { 8 } else { 4 };
    let bits = es as u32 * 8;
    let si = surface(cx, i, &i.ops[0])?;
    let c = mask(bits, cx.get(&data_elems(&i.ops[1])[0])?);
    let spec = cx.m.global.image.surfaces[si].spec.clone();
    let Some((layer, xb, y, z)) = locate(i, &spec, cx, es)? else {
        return Ok(()); // .zero: "drops stores to out-of-bounds addresses"
    };
    let off = spec
        .byte_offset(layer, xb, y, z)
        .ok_or_else(|| Stop::fault(format!("'{}': surface location outside its image", i.text)))?
        as usize;
    cx.race_surface(si, off, es as usize, true, true)?;
    let data = &mut cx.m.global.image.surfaces[si].data;
    let old = read_le(&data[off..off + es as usize]);
    let signed = matches!(i.ty, S32 | S64);
    let sx = |v: u64| -> i64 {
        if bits == 32 {
            i64::from(v as u32 as i32)
        } else {
            v as i64
        }
    };
    let new = match op {
        RedOp::Add => old.wrapping_add(c),
        RedOp::And => old & c,
        RedOp::Or => old | c,
        RedOp::Min if signed => {
            if sx(c) < sx(old) {
                c
            } else {
                old
            }
        }
        RedOp::Max if signed => {
            if sx(c) > sx(old) {
                c
            } else {
                old
            }
        }
        RedOp::Min => old.min(c),
        RedOp::Max => old.max(c),
    };
    let new = mask(bits, new);
    data[off..off + es as usize].copy_from_slice(&new.to_le_bytes()[..es as usize]);
    Ok(())
}

/// `suq.query.b32 d, [a]` (9.7.11.4), following `txq`'s choices
/// (`semantics::texture::txq`):
/// * `.width .height .depth`: "value in elements" (width in elements, not
///   bytes); a dimension the surface does not have gives 0 (as txq).
/// * `.channel_data_type` / `.channel_order`: "Unsigned integer
///   corresponding to source language's channel data type [order]
///   enumeration": the OpenCL values txq uses (PTX ISA 5.3.3 Tables 12,
///   13); 64-bit channel types have none (0, as txq).
/// * `.array_size`: "For a surface array, number of surfaces in array, 0
///   otherwise."
/// * `.memory_layout`: "1 for surface with linear memory layout; 0
///   otherwise": the launch spec describes contents, not the device
///   layout (a CUDA surface over a CUDA array is not linear; one over
///   linear memory would be), so this query faults.
fn suq(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    let si = surface(cx, i, &i.ops[1])?;
    let spec = &cx.m.global.image.surfaces[si].spec;
    let dim = |k: usize| spec.dims.get(k).copied().unwrap_or(0);
    let v = if i.mods.has(Mod::Width) {
        dim(0)
    } else if i.mods.has(Mod::Height) {
        dim(1)
    } else if i.mods.has(Mod::Depth) {
        dim(2)
    } else if i.mods.has(Mod::ChannelDataType) {
        texture::channel_data_type(spec.ty)
    } else if i.mods.has(Mod::ChannelOrder) {
        texture::channel_order(spec.channels)
    } else if i.mods.has(Mod::ArraySize) {
        spec.layers.unwrap_or(0)
    } else {
        return Err(Stop::fault(format!(
            "'{}': suq.memory_layout is not answered: the launch spec does not say whether a surface's device memory is linear (PTX ISA 9.7.11.4: 1 for linear, 0 otherwise)",
            i.text
        )));
    };
    cx.set(&i.ops[0], u64::from(v))
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
