//! Surface access rules (PTX ISA 9.7.11 "Surface Instructions") on the
//! launch spec's surfaces, shared by the PTX interpreter
//! (`ptx_interp/exec/surf.rs`: `suld.b`, `sust.b`, `sured.b`, `suq`) and
//! the SASS simulator (`sim/exec/surf.rs`: `SULD`, `SUST`, `SURED`, and
//! `TXQ` on a surface handle), so both runners agree by construction.
//!
//! * Byte addressing (9.7.11.1 suld, 9.7.11.2 sust, 9.7.11.3 sured, `.b`):
//!   "The lowest dimension coordinate represents a byte offset into the
//!   surface and is not scaled, and the size of the data transfer matches
//!   the size of destination operand d" (sust: "of source operand c").
//!   Coordinates are `.s32`; an array index (`.a1d`/`.a2d`) comes first,
//!   `.u32`.
//! * Alignment: "the address given by the coordinate vector must be
//!   naturally aligned to a multiple of the access size. If an address is
//!   not properly aligned, the resulting behavior is undefined" -> an
//!   error naming x and the size.
//! * Out of bounds (the `.clamp` field): suld "`.trap` causes an
//!   execution trap on out-of-bounds addresses; `.clamp` loads data at the
//!   nearest surface location (sized appropriately); `.zero` loads zero
//!   for out-of-bounds addresses"; sust/sured "`.clamp` stores data at the
//!   nearest surface location (sized appropriately); `.zero` drops stores
//!   to out-of-bounds addresses". Here `.trap` is an error naming the
//!   coordinates, `.zero` gives [`None`] (load zeros, drop the store or
//!   reduction), `.clamp` moves x into `[0, row_bytes - size]` and y, z into
//!   `[0, h-1]`, `[0, d-1]`.
//! * Ambiguous, so an error (Decision, docs/SEMANTICS.md, Sources: where
//!   the ISA leaves a case undefined the reference stops rather than
//!   guess): no `.clamp` field on an out-of-bounds access (ptxas 11.8
//!   refuses the instruction: "Clamp modifier required"); an access partly
//!   inside a row; `.clamp` where the row's size is not a multiple of the
//!   access size; an array index at or past the layer count, in any mode;
//!   a geometry whose dimensions or layering differ from the surface's.
//! * `sured.b` (9.7.11.3): "Operation add applies to .u32, .u64, and .s32
//!   types; min and max apply to .u32, .s32, .u64 and .s64 types;
//!   operations and and or apply to .b32 type" ([`reduce`]).
//! * `suq` (9.7.11.4) `.width .height .depth`: "value in elements"; a
//!   dimension the surface does not have gives 0 (as `txq`, texture.rs).

use crate::launch::SurfaceSpec;
use ptxc::ptx::modifiers::Mod;

/// How out-of-bounds accesses are handled (the `.clamp` field).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Oob {
    Trap,
    Clamp,
    Zero,
    /// no field given
    Unspecified,
}

/// A location: `(layer, x in bytes, y, z)`.
pub type Loc = (u32, u64, u32, u32);

/// The location an access of `size` bytes reaches on `spec` through a
/// geometry of `ndims` dimensions (`layered` for `.a1d`/`.a2d`), at the
/// coordinate words `coords` (array index first when layered, then x in
/// bytes, y, z as `.s32`; missing ones are 0). `Ok(None)`: out of bounds
/// under `.zero`. `Err`: the reason the access stops (no instruction
/// text; callers prefix theirs).
pub fn locate(
    spec: &SurfaceSpec,
    layered: bool,
    ndims: usize,
    oob: Oob,
    coords: &[u32],
    size: u64,
) -> Result<Option<Loc>, String> {
    locate_scaled(spec, layered, ndims, oob, coords, size, 1)
}

/// [`locate`] with the x coordinate counted in units of `x_unit` bytes:
/// 1 for the `.b` forms (a byte offset), the element size for `sust.p`
/// (surface_format.rs: "a sample offset rather than a byte offset").
pub(super) fn locate_scaled(
    spec: &SurfaceSpec,
    layered: bool,
    ndims: usize,
    oob: Oob,
    coords: &[u32],
    size: u64,
    x_unit: i64,
) -> Result<Option<Loc>, String> {
    if layered != spec.layers.is_some() || ndims != spec.dims.len() {
        return Err(format!(
            "the geometry does not match surface '{}' ({}{} dimension(s)); the ISA does not define access through another geometry",
            spec.name,
            if spec.layers.is_some() { "layered, " } else { "" },
            spec.dims.len()
        ));
    }
    let (layer, coords) = if layered {
        let idx = coords.first().copied().unwrap_or(0);
        if idx >= spec.layer_count() {
            return Err(format!(
                "array index {idx} outside surface '{}' ({} layer(s)); the ISA does not say what an out-of-range layer does, in any .clamp mode",
                spec.name,
                spec.layer_count()
            ));
        }
        (idx, coords.get(1..).unwrap_or(&[]))
    } else {
        (0, coords)
    };
    let c = |k: usize| -> i64 {
        if k < ndims {
            i64::from(coords.get(k).copied().unwrap_or(0) as i32)
        } else {
            0
        }
    };
    let (x, y, z) = (c(0) * x_unit, c(1), c(2));
    if x.rem_euclid(size as i64) != 0 {
        return Err(format!(
            "x = {x} bytes is not a multiple of the access size ({size} bytes): a misaligned surface address is undefined (PTX ISA 9.7.11)"
        ));
    }
    let [w, h, d] = spec.dims3();
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
        return Err(format!(
            "the {size}-byte access at {} is partly outside surface '{}' (rows of {row} bytes); the ISA does not define a partly out-of-bounds access",
            at(),
            spec.name
        ));
    }
    match oob {
        Oob::Trap => Err(format!(
            "out-of-bounds surface access at {} on surface '{}' ({w} x {h} x {d} elements, rows of {row} bytes): .trap",
            at(),
            spec.name,
        )),
        Oob::Unspecified => Err(format!(
            "out-of-bounds surface access at {} on surface '{}' without a .trap/.clamp/.zero field (the ISA names no default)",
            at(),
            spec.name
        )),
        Oob::Zero => Ok(None),
        Oob::Clamp => {
            if row < s || row % s != 0 {
                return Err(format!(
                    ".clamp at {}: rows of surface '{}' are {row} bytes, not a multiple of the {size}-byte access, so the nearest location is not aligned (undefined)",
                    at(),
                    spec.name
                ));
            }
            let xc = x.clamp(0, row - s) as u64;
            let yc = y.clamp(0, i64::from(h) - 1) as u32;
            let zc = z.clamp(0, i64::from(d) - 1) as u32;
            Ok(Some((layer, xc, yc, zc)))
        }
    }
}

/// The byte offset of a location in the surface's data.
pub fn offset(spec: &SurfaceSpec, loc: Loc) -> Result<usize, String> {
    let (layer, xb, y, z) = loc;
    spec.byte_offset(layer, xb, y, z)
        .map(|o| o as usize)
        .ok_or_else(|| "surface location outside its image".to_string())
}

/// `n` little-endian elements of `es` bytes at `off`.
pub fn read(data: &[u8], off: usize, es: usize, n: usize) -> Vec<u64> {
    (0..n)
        .map(|k| {
            let a = off + k * es;
            let mut b = [0u8; 8];
            b[..es].copy_from_slice(&data[a..a + es]);
            u64::from_le_bytes(b)
        })
        .collect()
}

/// Writes the low `es` bytes of each value, little-endian, from `off`.
pub fn write(data: &mut [u8], off: usize, es: usize, vals: &[u64]) {
    for (k, v) in vals.iter().enumerate() {
        let a = off + k * es;
        data[a..a + es].copy_from_slice(&v.to_le_bytes()[..es]);
    }
}

/// A `sured.b` operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Add,
    Min,
    Max,
    And,
    Or,
}

/// Whether the ISA defines `op` on an operand of `bits` bits, signed or
/// not (9.7.11.3: add on .u32/.u64/.s32, min/max on .u32/.s32/.u64/.s64,
/// and/or on .b32 — `b32` counts as unsigned here).
pub fn red_defined(op: RedOp, bits: u32, signed: bool) -> bool {
    match op {
        RedOp::Add => !(signed && bits == 64),
        RedOp::Min | RedOp::Max => true,
        RedOp::And | RedOp::Or => bits == 32 && !signed,
    }
}

/// The new value of a `sured.b` location: `old op c` on `bits` bits
/// (32 or 64), min/max signed when `signed`.
pub fn reduce(op: RedOp, bits: u32, signed: bool, old: u64, c: u64) -> u64 {
    let m = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let (old, c) = (old & m, c & m);
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
    new & m
}

/// A `suq` field this module answers (`.memory_layout` is not one: the
/// launch spec does not say whether a surface's memory is linear).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfQuery {
    Dim(Dim),
    ChannelDataType,
    ChannelOrder,
    ArraySize,
}

impl SurfQuery {
    /// Each query with the PTX modifier that names it.
    pub const ALL: [(Mod, SurfQuery); 6] = [
        (Mod::Width, SurfQuery::Dim(Dim::Width)),
        (Mod::Height, SurfQuery::Dim(Dim::Height)),
        (Mod::Depth, SurfQuery::Dim(Dim::Depth)),
        (Mod::ChannelDataType, SurfQuery::ChannelDataType),
        (Mod::ChannelOrder, SurfQuery::ChannelOrder),
        (Mod::ArraySize, SurfQuery::ArraySize),
    ];

    /// The query of the first modifier `has` accepts.
    pub fn of(has: impl Fn(Mod) -> bool) -> Option<SurfQuery> {
        SurfQuery::ALL
            .iter()
            .find(|(m, _)| has(*m))
            .map(|&(_, q)| q)
    }
}

/// `suq.query.b32 d, [a]` (9.7.11.4), following `txq`'s choices
/// (`texture::txq`):
/// * `.width .height .depth`: "value in elements" (width in elements, not
///   bytes); a dimension the surface does not have gives 0 (as txq).
/// * `.channel_data_type` / `.channel_order`: "Unsigned integer
///   corresponding to source language's channel data type [order]
///   enumeration": the OpenCL values txq uses (PTX ISA 5.3.3 Tables 12,
///   13); 64-bit channel types have none (0, as txq).
/// * `.array_size`: "For a surface array, number of surfaces in array, 0
///   otherwise."
pub fn suq(spec: &SurfaceSpec, q: SurfQuery) -> u32 {
    match q {
        SurfQuery::Dim(d) => dimension(spec, d),
        SurfQuery::ChannelDataType => super::texture::channel_data_type(spec.ty),
        SurfQuery::ChannelOrder => super::texture::channel_order(spec.channels),
        SurfQuery::ArraySize => spec.layers.unwrap_or(0),
    }
}

/// A surface dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Width,
    Height,
    Depth,
}

/// `suq.{width,height,depth}`: the dimension in elements, 0 when the
/// surface has fewer dimensions.
pub fn dimension(spec: &SurfaceSpec, d: Dim) -> u32 {
    let k = match d {
        Dim::Width => 0,
        Dim::Height => 1,
        Dim::Depth => 2,
    };
    spec.dims.get(k).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::{ElemType, Init};

    fn spec(dims: &[u32]) -> SurfaceSpec {
        SurfaceSpec {
            name: "s".into(),
            ty: ElemType::U32,
            channels: 1,
            dims: dims.to_vec(),
            layers: None,
            init: Init::Zeros,
        }
    }

    #[test]
    fn clamp_zero_trap_and_alignment() {
        let s = spec(&[4, 3]); // rows of 16 bytes
        let at = |oob, x: i32, y: i32, size| locate(&s, false, 2, oob, &[x as u32, y as u32], size);
        assert_eq!(at(Oob::Trap, 12, 2, 4), Ok(Some((0, 12, 2, 0))));
        assert_eq!(at(Oob::Clamp, -8, 7, 8), Ok(Some((0, 0, 2, 0))));
        assert_eq!(at(Oob::Clamp, 64, -1, 8), Ok(Some((0, 8, 0, 0))));
        assert_eq!(at(Oob::Zero, 16, 0, 4), Ok(None));
        assert!(at(Oob::Trap, 16, 0, 4).unwrap_err().contains(".trap"));
        assert!(at(Oob::Zero, 2, 0, 4).unwrap_err().contains("misaligned"));
        // 8 bytes at x = 8 of a 12-byte row: partly outside.
        let r12 = spec(&[3]);
        assert!(locate(&r12, false, 1, Oob::Zero, &[8], 8)
            .unwrap_err()
            .contains("partly"));
        assert!(at(Oob::Unspecified, 0, 3, 4)
            .unwrap_err()
            .contains("without"));
        // Geometry mismatch.
        assert!(locate(&s, false, 1, Oob::Zero, &[0], 4).is_err());
        // Clamp with rows not a multiple of the size (12-byte rows, 8-byte access).
        let t = spec(&[3]);
        assert!(locate(&t, false, 1, Oob::Clamp, &[16], 8).is_err());
    }

    #[test]
    fn reductions() {
        assert_eq!(reduce(RedOp::Add, 32, false, 0xffff_ffff, 2), 1);
        assert_eq!(reduce(RedOp::Min, 32, true, 5, 0xffff_fffe), 0xffff_fffe);
        assert_eq!(reduce(RedOp::Min, 32, false, 5, 0xffff_fffe), 5);
        assert_eq!(reduce(RedOp::Max, 32, true, 5, 0xffff_fffe), 5);
        assert_eq!(reduce(RedOp::Add, 64, false, u64::MAX, 3), 2);
        assert_eq!(reduce(RedOp::Or, 32, false, 0xf0, 0x0f), 0xff);
        assert!(!red_defined(RedOp::And, 64, false));
        assert!(!red_defined(RedOp::Add, 64, true));
        assert!(red_defined(RedOp::Max, 64, true));
        assert_eq!(dimension(&spec(&[4, 3]), Dim::Depth), 0);
        assert_eq!(dimension(&spec(&[4, 3]), Dim::Height), 3);
    }
}
