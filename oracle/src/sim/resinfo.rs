//! The driver's texture and surface information tables, built from the
//! launch spec: what `txq` / `suq` of a field that no TXQ mode answers
//! read (ptxas 11.8: `LDG.E.CONSTANT` from the table whose 64-bit address
//! is at `c[0x0][0x70]` / `c[0x0][0x80]`, sm_90 `c[0x0][0xf0]` /
//! `c[0x0][0x100]`; the SM table's `CbankLayout::tex_info` / `surf_info`).
//! Row layout, row sizes and field offsets: `ptxc::targets::abi::resinfo`
//! (the measurements: the lowering's resinfo.rs).
//!
//! Row `k` of the texture table belongs to the texture whose handle's low
//! word is `k` (`launch::TEXTURE_HANDLE_BASE | k`); row `k` of the surface
//! table to the surface whose handle's low word masked with `0xfffff` is
//! `k` (`SURFACE_HANDLE_BASE | k`: bit 31 set). sm_90 SASS does not mask
//! the low word (`UIMAD UR6, UR4, UR6, 0x20` of the whole word): a surface
//! row is then at `(0x8000_0000 | k) * SURF_INFO_ROW`, which is `k *
//! SURF_INFO_ROW` modulo 2^32 because the row size is even.
//!
//! The values are the PTX interpreter's answers
//! (`semantics::texture::txq`, `semantics::surface::suq`), so both runners
//! agree by construction. A field the interpreter does not answer
//! (`suq.memory_layout`) has no table offset and stays 0; the lowering
//! refuses it.
//!
//! The tables are read-only global allocations placed after the module
//! variables ([`super::memory::place_globals`], with guard gaps), only when
//! the launch has textures / surfaces; without them the pointer is 0 and a
//! read faults.

use crate::launch::{LaunchSpec, SurfaceImage, TextureImage};
use crate::ptx_interp::semantics::surface::{suq, SurfQuery};
use crate::ptx_interp::semantics::texture::{txq, TexQuery};
use ptxc::targets::abi::resinfo::{
    rows_hold_force_unnormalized, Table, FORCE_UNNORMALIZED_AT, SURF_INFO_FIELDS, TEX_INFO_FIELDS,
};
use ptxc::targets::abi::GlobalVar;

/// A table's name in fault messages.
pub fn table_name(t: Table) -> &'static str {
    match t {
        Table::Texture => "<texture information table>",
        Table::Surface => "<surface information table>",
    }
}

/// The row a handle's low word selects (the `& 0xfffff` of ptxas's
/// sequence below sm_90).
fn row_of(handle: u64) -> usize {
    (handle as u32 & 0xfffff) as usize
}

fn put(rows: &mut [u8], row: usize, table: Table, off: u32, v: u32) {
    let at = row * table.row() as usize + off as usize;
    rows[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// The texture table of a launch for target `sm` (the SM number; empty
/// without textures). Below sm_90 word 0 of a row holds
/// `txq.force_unnormalized_coords` instead of the width, which no code
/// reads from the table there (the DECISION in the lowering's resinfo.rs).
pub fn texture_table(spec: &LaunchSpec, sm: u32) -> Result<Vec<u8>, String> {
    let t = Table::Texture;
    let imgs = TextureImage::all(spec);
    let rows = imgs.iter().map(|i| row_of(i.handle) + 1).max().unwrap_or(0);
    let mut out = vec![0u8; rows * t.row() as usize];
    for img in &imgs {
        for &(name, off) in TEX_INFO_FIELDS {
            let q = TexQuery::of(|x| x.text() == name)
                .ok_or_else(|| format!("texture information field .{name} has no txq query"))?;
            put(&mut out, row_of(img.handle), t, off, txq(&img.spec, q));
        }
        if rows_hold_force_unnormalized(sm) {
            let v = txq(&img.spec, TexQuery::ForceUnnormalizedCoords);
            put(&mut out, row_of(img.handle), t, FORCE_UNNORMALIZED_AT, v);
        }
    }
    Ok(out)
}

/// The surface table of a launch (empty without surfaces).
pub fn surface_table(spec: &LaunchSpec) -> Result<Vec<u8>, String> {
    let t = Table::Surface;
    let imgs = SurfaceImage::all(spec);
    let rows = imgs.iter().map(|i| row_of(i.handle) + 1).max().unwrap_or(0);
    let mut out = vec![0u8; rows * t.row() as usize];
    for img in &imgs {
        for &(name, off) in SURF_INFO_FIELDS {
            let q = SurfQuery::of(|x| x.text() == name)
                .ok_or_else(|| format!("surface information field .{name} has no suq query"))?;
            put(&mut out, row_of(img.handle), t, off, suq(&img.spec, q));
        }
    }
    Ok(out)
}

/// The non-empty tables of a launch for target `sm`, as allocations to
/// place.
pub fn tables(spec: &LaunchSpec, sm: u32) -> Result<Vec<(Table, GlobalVar)>, String> {
    let mut out = Vec::new();
    for (t, bytes) in [
        (Table::Texture, texture_table(spec, sm)?),
        (Table::Surface, surface_table(spec)?),
    ] {
        if !bytes.is_empty() {
            out.push((
                t,
                GlobalVar {
                    name: table_name(t).to_string(),
                    size: bytes.len() as u32,
                    align: 16,
                    init: bytes,
                },
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn rows_hold_the_ptx_answers_at_ptxas_offsets() {
        let spec = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1],
              "textures": {"b": {"type": "f32", "channels": 2, "dims": [5, 3],
                                 "address_mode": ["wrap", "border"], "filter": "linear",
                                 "normalized_coords": true},
                           "a": {"type": "u8", "dims": [7], "layers": 4}},
              "surfaces": {"s": {"type": "s16", "channels": 4, "dims": [2, 3, 4]}}}"#,
            "",
        )
        .unwrap();
        let t = texture_table(&spec, 90).unwrap();
        assert_eq!(t.len(), 2 * 0x40);
        // Below sm_90 word 0 is force_unnormalized_coords (0), not the width.
        let t80 = texture_table(&spec, 80).unwrap();
        assert_eq!((word(&t80, 0x0), word(&t80, 0x40)), (0, 0));
        assert_eq!(word(&t80, 0x44), 3);
        // a (row 0): u8 = CL_UNSIGNED_INT8 0x10DA, CL_R 0x10B0, 4 layers.
        assert_eq!(word(&t, 0x0), 7);
        assert_eq!(word(&t, 0x20), 0x10DA);
        assert_eq!(word(&t, 0x24), 0x10B0);
        assert_eq!(word(&t, 0x28), 4);
        // b (row 1): f32 CL_FLOAT 0x10DE, CL_RG 0x10B2, wrap 0, border 4,
        // linear 1, normalized 1.
        let b = 0x40;
        assert_eq!([word(&t, b), word(&t, b + 4), word(&t, b + 8)], [5, 3, 0]);
        assert_eq!([word(&t, b + 0xc), word(&t, b + 0x10)], [0, 4]);
        assert_eq!([word(&t, b + 0x18), word(&t, b + 0x1c)], [1, 1]);
        assert_eq!([word(&t, b + 0x20), word(&t, b + 0x24)], [0x10DE, 0x10B2]);
        let s = surface_table(&spec).unwrap();
        assert_eq!(s.len(), 0x20);
        assert_eq!([word(&s, 0), word(&s, 4), word(&s, 8)], [2, 3, 4]);
        // s16 CL_SIGNED_INT16 0x10D8, CL_RGBA 0x10B5, not an array.
        assert_eq!(
            [word(&s, 0xc), word(&s, 0x10), word(&s, 0x1c)],
            [0x10D8, 0x10B5, 0]
        );
    }

    #[test]
    fn no_resources_no_tables() {
        let spec =
            LaunchSpec::from_json_str(r#"{"kernel": "k", "grid": [1], "block": [1]}"#, "").unwrap();
        assert!(tables(&spec, 80).unwrap().is_empty());
    }
}
