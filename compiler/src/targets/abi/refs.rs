//! Module-level `.texref` / `.surfref` words in constant bank 0: the kind
//! of resource a word names and its relocation (ptxas 11.8's
//! `.rel.nv.constant0.KERNEL`; the measurements are in
//! compiler/src/lower/res_ref.rs, which places the words).

/// What a reference names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// `.texref`: a texture of the launch (relocation
    /// `R_CUDA_TEX_HEADER_INDEX`).
    Texture,
    /// `.surfref`: a surface of the launch (`R_CUDA_SURF_HEADER_INDEX`).
    Surface,
}

impl RefKind {
    /// The relocation type cuobjdump prints for the word.
    pub fn reloc_name(self) -> &'static str {
        match self {
            RefKind::Texture => "R_CUDA_TEX_HEADER_INDEX",
            RefKind::Surface => "R_CUDA_SURF_HEADER_INDEX",
        }
    }

    /// The high word of the value `mov.u64 %rd, NAME` gives (its low word
    /// is the reference's word). The PTX ISA leaves the value opaque (only
    /// its use as a handle is defined); ptxas 11.8 (measured, `mov.u64
    /// %rd, A; st.global.u64 [%rd1], %rd` on sm_70, sm_80, sm_90) writes
    /// high word 0x20000000 for a `.texref` (`HFMA2.MMA R5, -RZ, RZ,
    /// 0.0078125, 0`) and 0x80000000 for a `.surfref` (`-0.0, 0`), the
    /// `istypep` bits 61 and 63 (compiler/src/lower/resinfo.rs), and as low word the
    /// reference's word on sm_90, the word `| 0x80000000` on sm_70..sm_89
    /// (`LOP3.LUT R4, R6, c[0x0][0x168], RZ, 0xfc, !PT` with R6 =
    /// 0x80000000). We take the sm_90 value on every target (DECISION):
    /// with the runners' words (the handle's low word) it is the launch's
    /// handle itself, `TEXTURE_HANDLE_BASE | i` / `SURFACE_HANDLE_BASE |
    /// i` (oracle/src/launch), the value the PTX interpreter gives; a
    /// surface's low word has bit 31 set already, so only a texture's
    /// differs from ptxas below sm_90.
    pub fn handle_high_word(self) -> u32 {
        match self {
            RefKind::Texture => 0x2000_0000,
            RefKind::Surface => 0x8000_0000,
        }
    }

    pub fn from_reloc_name(s: &str) -> Option<RefKind> {
        match s {
            "R_CUDA_TEX_HEADER_INDEX" => Some(RefKind::Texture),
            "R_CUDA_SURF_HEADER_INDEX" => Some(RefKind::Surface),
            _ => None,
        }
    }
}
