//! The texture and surface information tables (PTX ISA 9.7.10.5 `txq`,
//! 9.7.11.4 `suq`): one row per resource, found through a 64-bit pointer
//! in constant bank 0 (`CbankLayout::tex_info` / `surf_info`). The row
//! sizes are this project's values for the load-time relocations
//! `.nv.unified.texrefDescSize` / `.nv.surfrefDescSize`; the field offsets
//! are ptxas 11.8's. The lowering reads the rows
//! (compiler/src/lower/resinfo.rs, whose docs hold the measurements and
//! DECISIONs); the simulator builds them and resolves the relocations.

/// Bytes per texture row of the information table (our value for the
/// `.nv.unified.texrefDescSize` relocation; covers every field).
pub const TEX_INFO_ROW: u32 = 0x40;
/// Bytes per surface row (our value for `.nv.surfrefDescSize`).
pub const SURF_INFO_ROW: u32 = 0x20;

/// Byte offset of each `txq` field (by its PTX name) in a texture row (ptxas 11.8, the
/// `IMAD ..., 0xOFF` / `UIMAD ..., 0xOFF` of `txq.FIELD`, sm_70..sm_90).
pub const TEX_INFO_FIELDS: &[(&str, u32)] = &[
    ("width", 0x0),
    ("height", 0x4),
    ("depth", 0x8),
    ("addr_mode_0", 0xc),
    ("addr_mode_1", 0x10),
    ("addr_mode_2", 0x14),
    ("filter_mode", 0x18),
    ("normalized_coords", 0x1c),
    ("channel_data_type", 0x20),
    ("channel_order", 0x24),
    ("array_size", 0x28),
    ("num_mipmap_levels", 0x2c),
    ("num_samples", 0x30),
];

/// Where ptxas 11.8 reads `txq.force_unnormalized_coords` in a texture
/// row on every target: word 0, which holds `.width` for sm_90's
/// table-read dimensions (the lowering's resinfo.rs docs). Below sm_90 no width is read from
/// the table (TXQ), so this project's rows hold the
/// force_unnormalized_coords answer there (`oracle::sim::resinfo`).
pub const FORCE_UNNORMALIZED_AT: u32 = 0x0;

/// Whether rows built for target `sm` (the SM number) hold
/// `txq.force_unnormalized_coords` at [`FORCE_UNNORMALIZED_AT`] rather
/// than the width (the lowering's resinfo.rs docs).
pub fn rows_hold_force_unnormalized(sm: u32) -> bool {
    sm < 90
}

/// Byte offset of each `suq` field (by its PTX name) in a surface row (ptxas 11.8;
/// `.memory_layout` is at 0x14 and refused, see the lowering's resinfo.rs docs).
pub const SURF_INFO_FIELDS: &[(&str, u32)] = &[
    ("width", 0x0),
    ("height", 0x4),
    ("depth", 0x8),
    ("channel_data_type", 0xc),
    ("channel_order", 0x10),
    ("array_size", 0x1c),
];

/// Which table a query reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Texture,
    Surface,
}

impl Table {
    pub fn row(self) -> u32 {
        match self {
            Table::Texture => TEX_INFO_ROW,
            Table::Surface => SURF_INFO_ROW,
        }
    }

    pub fn fields(self) -> &'static [(&'static str, u32)] {
        match self {
            Table::Texture => TEX_INFO_FIELDS,
            Table::Surface => SURF_INFO_FIELDS,
        }
    }
}
