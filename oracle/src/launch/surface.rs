//! Surface descriptions (`surfaces` in corpus/LAUNCH_SPEC.md, this project's
//! extension of the launch spec), their handles and initial contents.
//!
//! A surface is an image a kernel reads and writes with `suld` / `sust` /
//! `sured` (PTX ISA 9.7.11 "Surface Instructions"). Its memory layout is a
//! texture's (see [`super::TextureSpec::element_index`]): x fastest, then
//! y, then z, channels interleaved within an element, layer 0 first. Its
//! final contents are an output like a buffer's (`outputs`, the expected
//! file), as `len = element_count()` elements of `type`.

use super::init::init_bytes;
use super::spec::{Init, LaunchSpec};
use super::types::ElemType;

/// Surface handles passed for `{"surface": "name"}` parameters (a `.u64`)
/// and bound to a `.surfref` of the same name: `SURFACE_HANDLE_BASE |
/// index`, where `index` is the surface's position in name order among the
/// spec's surfaces. Decision (the handle is opaque, as for textures):
/// distinct from every texture handle ([`super::TEXTURE_HANDLE_BASE`]) and
/// every buffer address — in its low word too (bit 31 set; texture low
/// words are their index): SASS names a surface by the handle's low word
/// only (`SULD ... [R7], R8`; sm_90 `ULDC UR9, c[0x0][0x210]` of the low
/// word), and ptxas 11.8 asks a surface's size with the texture header
/// query (`suq.width` is `TXQ ... TEX_HEADER_DIMENSION`), so textures and
/// surfaces share one numbering (oracle/tests/surf_vendor/). The high
/// word has bit 63 of the handle and not bits 61/62: ptxas 11.8 answers
/// `istypep.surfref` with bit 63 and `.texref` with bit 61
/// (ptxc::targets::abi::resinfo; [`super::TEXTURE_HANDLE_BASE`]).
pub const SURFACE_HANDLE_BASE: u64 = 0x8000_0000_8000_0000;
/// The bits of a handle that hold the index.
pub const SURFACE_HANDLE_MASK: u64 = 0x7fff_ffff;

/// One entry of `surfaces`: `{"type": "u32", "channels": 1, "dims": [w] |
/// [w, h] | [w, h, d], "layers": n, "init": <init>}`.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceSpec {
    pub name: String,
    /// the type of one channel of an element
    pub ty: ElemType,
    /// 1, 2 or 4 (see the reader)
    pub channels: u32,
    /// 1 to 3 dimensions, each at least 1; `dims[0]` is in elements
    pub dims: Vec<u32>,
    /// `Some(n)`: a surface array of `n >= 1` layers of 1 or 2 dimensions
    /// (`.a1d` / `.a2d`); `None`: not layered
    pub layers: Option<u32>,
    pub init: Init,
}

impl SurfaceSpec {
    /// `[w, h, d]` with missing dimensions 1.
    pub fn dims3(&self) -> [u32; 3] {
        let mut out = [1u32; 3];
        for (o, d) in out.iter_mut().zip(&self.dims) {
            *o = *d;
        }
        out
    }

    /// Bytes of one element (all its channels).
    pub fn element_bytes(&self) -> u64 {
        u64::from(self.channels) * self.ty.size() as u64
    }

    /// Bytes of one row: the range of the byte-addressed x coordinate.
    pub fn row_bytes(&self) -> u64 {
        u64::from(self.dims3()[0]) * self.element_bytes()
    }

    /// Layers: `layers`, or 1 when not layered.
    pub fn layer_count(&self) -> u32 {
        self.layers.unwrap_or(1)
    }

    /// Channel values in the surface (every layer): the output's `len`.
    pub fn element_count(&self) -> u64 {
        self.dims
            .iter()
            .fold(u64::from(self.channels), |a, &d| {
                a.saturating_mul(u64::from(d))
            })
            .saturating_mul(u64::from(self.layer_count()))
    }

    /// Size in bytes.
    pub fn byte_len(&self) -> u64 {
        self.element_count().saturating_mul(self.ty.size() as u64)
    }

    /// The byte offset of byte `xb` of row `(y, z)` of layer `layer`:
    /// `((layer*d + z)*h + y)*row_bytes + xb`. `None` outside.
    pub fn byte_offset(&self, layer: u32, xb: u64, y: u32, z: u32) -> Option<u64> {
        let [_, h, d] = self.dims3();
        if layer >= self.layer_count() || xb >= self.row_bytes() || y >= h || z >= d {
            return None;
        }
        let row = (u64::from(layer) * u64::from(d) + u64::from(z)) * u64::from(h) + u64::from(y);
        Some(row * self.row_bytes() + xb)
    }
}

/// A surface with its contents (little-endian elements in layout order)
/// and its handle.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceImage {
    pub spec: SurfaceSpec,
    pub handle: u64,
    pub data: Vec<u8>,
}

impl SurfaceImage {
    /// Every surface of the spec, in name order (the handle order), filled
    /// by its `init`.
    pub fn all(spec: &LaunchSpec) -> Vec<SurfaceImage> {
        sorted_surfaces(spec)
            .into_iter()
            .enumerate()
            .map(|(i, s)| SurfaceImage {
                spec: s.clone(),
                handle: SURFACE_HANDLE_BASE | i as u64,
                data: init_bytes(&s.init, s.ty, s.element_count()),
            })
            .collect()
    }
}

fn sorted_surfaces(spec: &LaunchSpec) -> Vec<&SurfaceSpec> {
    let mut v: Vec<&SurfaceSpec> = spec.surfaces.iter().collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

impl LaunchSpec {
    pub fn surface(&self, name: &str) -> Option<&SurfaceSpec> {
        self.surfaces.iter().find(|s| s.name == name)
    }

    /// The handle of surface `name` (see [`SURFACE_HANDLE_BASE`]).
    pub fn surface_handle(&self, name: &str) -> Option<u64> {
        sorted_surfaces(self)
            .iter()
            .position(|s| s.name == name)
            .map(|i| SURFACE_HANDLE_BASE | i as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_layout_and_contents() {
        let s = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1], "surfaces": {
              "zz": {"type": "u16", "channels": 2, "dims": [3, 2], "init": {"iota": {"start": 0, "step": 1}}},
              "a": {"type": "u32", "dims": [4], "layers": 2}}}"#,
            "",
        )
        .unwrap();
        assert_eq!(s.surface_handle("a"), Some(0x8000_0000_8000_0000));
        assert_eq!(s.surface_handle("zz"), Some(0x8000_0000_8000_0001));
        assert_eq!(s.surface_handle("q"), None);
        let imgs = SurfaceImage::all(&s);
        let zz = &imgs[1];
        assert_eq!(zz.spec.row_bytes(), 12);
        assert_eq!(zz.spec.byte_len(), 24);
        // element (x=2, y=1), channel 1: index (1*3 + 2)*2 + 1 = 11, byte 22
        assert_eq!(zz.spec.byte_offset(0, 10, 1, 0), Some(22));
        assert_eq!(&zz.data[22..24], &[11, 0]);
        assert_eq!(zz.spec.byte_offset(0, 12, 0, 0), None);
        assert_eq!(zz.spec.byte_offset(0, 0, 2, 0), None);
        let a = &imgs[0];
        assert_eq!(a.spec.byte_len(), 32);
        assert_eq!(a.spec.byte_offset(1, 4, 0, 0), Some(20));
        assert_eq!(a.spec.byte_offset(2, 0, 0, 0), None);
    }
}
