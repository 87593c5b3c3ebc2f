//! Texture descriptions (`textures` in corpus/LAUNCH_SPEC.md), their handles and
//! initial texels.

use super::init::init_bytes;
use super::spec::{Init, LaunchSpec};
use super::types::ElemType;

/// Texture handles passed for `{"texture": "name"}` parameters (a `.u64`):
/// `TEXTURE_HANDLE_BASE | index`, where `index` is the texture's position in
/// name order among the spec's textures. Decision: the spec leaves the
/// handle opaque; this value is far from every buffer address (buffers lie
/// below 4 GiB), non-zero, and easy to recognise in a dump. Of bits 61..63
/// it has bit 61 alone: ptxas 11.8 answers `istypep.texref` with bit 61,
/// `.samplerref` with bit 62 and `.surfref` with bit 63 of the handle
/// (ptxc::targets::abi::resinfo), so a texture handle is a texref and neither a
/// samplerref nor a surfref there, as in the PTX interpreter.
pub const TEXTURE_HANDLE_BASE: u64 = 0x2000_0000_0000_0000;
/// The bits of a handle that hold the index.
pub const TEXTURE_HANDLE_MASK: u64 = 0xffff_ffff;
/// The most layers a layered texture may have: CUDA's limit on every
/// target here (CUDA C++ Programming Guide, "Features and Technical
/// Specifications", compute capabilities 7.0-9.0: maximum number of layers
/// of a 1D and of a 2D layered texture, 2048;
/// `cudaDevAttrMaxTexture1DLayeredLayers`). It also keeps every layer below
/// 0xffff, the clamp ptxas applies to the array index before an array fetch
/// (`ptx_interp::semantics::texture::layer_or_fault`), so the clamped index
/// is past the last layer exactly when the PTX index is.
pub const MAX_TEXTURE_LAYERS: u32 = 2048;

/// `address_mode`, one per dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressMode {
    Clamp,
    Wrap,
    Mirror,
    Border,
}

impl AddressMode {
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "clamp" => AddressMode::Clamp,
            "wrap" => AddressMode::Wrap,
            "mirror" => AddressMode::Mirror,
            "border" => AddressMode::Border,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            AddressMode::Clamp => "clamp",
            AddressMode::Wrap => "wrap",
            AddressMode::Mirror => "mirror",
            AddressMode::Border => "border",
        }
    }
}

/// `filter`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    Point,
    Linear,
}

impl Filter {
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "point" => Some(Filter::Point),
            "linear" => Some(Filter::Linear),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Filter::Point => "point",
            Filter::Linear => "linear",
        }
    }
}

/// One entry of `textures`: `{"type": "f32", "channels": 1, "dims": [w] |
/// [w, h] | [w, h, d], "init": <init>, "address_mode": [...], "filter":
/// "point" | "linear", "normalized_coords": false, "border_color": [0, 0, 0, 0],
/// "layers": n}`.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureSpec {
    pub name: String,
    /// the type of one channel of a texel
    pub ty: ElemType,
    /// 1 to 4
    pub channels: u32,
    /// 1 to 3 dimensions, each at least 1
    pub dims: Vec<u32>,
    /// over `element_count()` elements, see [`TextureSpec::element_index`]
    pub init: Init,
    /// one per dimension
    pub address_mode: Vec<AddressMode>,
    pub filter: Filter,
    pub normalized_coords: bool,
    /// `None` when not given (see [`TextureSpec::border_color`])
    pub border_color: Option<[f64; 4]>,
    /// `Some(n)`: a layered (array) texture of `n >= 1` layers, each an
    /// image of `dims` (1 or 2 dimensions), for `tex.a1d` / `tex.a2d`.
    /// `None` (the default): not layered. This project's extension of the
    /// launch spec (corpus/LAUNCH_SPEC.md, `layers`).
    pub layers: Option<u32>,
}

impl TextureSpec {
    /// `[w, h, d]` with missing dimensions 1.
    pub fn dims3(&self) -> [u32; 3] {
        let mut out = [1u32; 3];
        for (o, d) in out.iter_mut().zip(&self.dims) {
            *o = *d;
        }
        out
    }

    /// Texels in one layer (the whole image when not layered).
    pub fn layer_texel_count(&self) -> u64 {
        self.dims
            .iter()
            .fold(1u64, |acc, &d| acc.saturating_mul(u64::from(d)))
    }

    /// Layers in the image: `layers`, or 1 when not layered.
    pub fn layer_count(&self) -> u32 {
        self.layers.unwrap_or(1)
    }

    pub fn is_layered(&self) -> bool {
        self.layers.is_some()
    }

    /// Texels in the image, every layer included.
    pub fn texel_count(&self) -> u64 {
        self.layer_texel_count()
            .saturating_mul(u64::from(self.layer_count()))
    }

    /// Elements (channel values) in the texture: texels times channels.
    pub fn element_count(&self) -> u64 {
        self.texel_count().saturating_mul(u64::from(self.channels))
    }

    /// The index into the `init` sequence of channel `c` of texel
    /// `(x, y, z)`. Decision: row-major with x fastest, then y, then z,
    /// channels interleaved within a texel (the layout of a CUDA array and
    /// of a linear buffer bound to a texture): `((z*h + y)*w + x)*channels + c`.
    /// `None` outside the texture.
    pub fn element_index(&self, x: u32, y: u32, z: u32, c: u32) -> Option<u64> {
        let [w, h, d] = self.dims3();
        if x >= w || y >= h || z >= d || c >= self.channels {
            return None;
        }
        let texel = (u64::from(z) * u64::from(h) + u64::from(y)) * u64::from(w) + u64::from(x);
        Some(texel * u64::from(self.channels) + u64::from(c))
    }

    /// [`TextureSpec::element_index`] in layer `layer`: the layers are
    /// consecutive images of `dims`, layer 0 first, so the index is
    /// `layer * layer_texel_count() * channels + element_index(x, y, z, c)`.
    /// `None` outside the texture or for `layer >= layer_count()`.
    pub fn layer_element_index(&self, layer: u32, x: u32, y: u32, z: u32, c: u32) -> Option<u64> {
        if layer >= self.layer_count() {
            return None;
        }
        let per_layer = self
            .layer_texel_count()
            .checked_mul(u64::from(self.channels))?;
        u64::from(layer)
            .checked_mul(per_layer)?
            .checked_add(self.element_index(x, y, z, c)?)
    }

    /// The border color, `[0, 0, 0, 0]` when not given.
    pub fn border_color(&self) -> [f64; 4] {
        self.border_color.unwrap_or([0.0; 4])
    }
}

/// A texture with its initial texels (little-endian elements in
/// [`TextureSpec::element_index`] order) and its handle.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureImage {
    pub spec: TextureSpec,
    pub handle: u64,
    pub data: Vec<u8>,
}

impl TextureImage {
    /// Every texture of the spec, in name order (the handle order).
    pub fn all(spec: &LaunchSpec) -> Vec<TextureImage> {
        sorted_textures(spec)
            .into_iter()
            .enumerate()
            .map(|(i, t)| TextureImage {
                spec: t.clone(),
                handle: TEXTURE_HANDLE_BASE | i as u64,
                data: init_bytes(&t.init, t.ty, t.element_count()),
            })
            .collect()
    }

    /// The bits of channel `c` of texel `(x, y, z)`; `None` outside.
    pub fn element_bits(&self, x: u32, y: u32, z: u32, c: u32) -> Option<u64> {
        self.layer_element_bits(0, x, y, z, c)
    }

    /// The bits of channel `c` of texel `(x, y, z)` of layer `layer`;
    /// `None` outside.
    pub fn layer_element_bits(&self, layer: u32, x: u32, y: u32, z: u32, c: u32) -> Option<u64> {
        let i = self.spec.layer_element_index(layer, x, y, z, c)?;
        self.spec.ty.read_le(&self.data, usize::try_from(i).ok()?)
    }
}

fn sorted_textures(spec: &LaunchSpec) -> Vec<&TextureSpec> {
    let mut v: Vec<&TextureSpec> = spec.textures.iter().collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

impl LaunchSpec {
    /// The handle of texture `name` (see [`TEXTURE_HANDLE_BASE`]).
    pub fn texture_handle(&self, name: &str) -> Option<u64> {
        sorted_textures(self)
            .iter()
            .position(|t| t.name == name)
            .map(|i| TEXTURE_HANDLE_BASE | i as u64)
    }

    /// The texture a handle stands for; `None` for anything that is not one
    /// of this spec's handles.
    pub fn texture_by_handle(&self, handle: u64) -> Option<&TextureSpec> {
        if handle & !TEXTURE_HANDLE_MASK != TEXTURE_HANDLE_BASE {
            return None;
        }
        let i = usize::try_from(handle & TEXTURE_HANDLE_MASK).ok()?;
        sorted_textures(self).get(i).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"{"kernel": "k", "grid": [1], "block": [1],
      "textures": {
        "zz": {"type": "u16", "channels": 2, "dims": [3, 2], "init": {"iota": {"start": 0, "step": 1}}},
        "a": {"type": "f32", "dims": [4], "init": {"values": [1, 2, 3, 4]}},
        "m": {"type": "u8", "dims": [2, 2, 2], "init": {"random": {"seed": 3}}}
      }}"#;

    #[test]
    fn handles_follow_name_order() {
        let s = LaunchSpec::from_json_str(SPEC, "").unwrap();
        assert_eq!(s.texture_handle("a"), Some(0x2000_0000_0000_0000));
        assert_eq!(s.texture_handle("m"), Some(0x2000_0000_0000_0001));
        assert_eq!(s.texture_handle("zz"), Some(0x2000_0000_0000_0002));
        assert_eq!(s.texture_handle("b"), None);
        assert_eq!(
            s.texture_by_handle(0x2000_0000_0000_0002).unwrap().name,
            "zz"
        );
        assert!(s.texture_by_handle(0x2000_0000_0000_0003).is_none());
        assert!(s.texture_by_handle(0x7e00_0001_0000_0000).is_none());
        assert!(s.texture_by_handle(0x1000_0000).is_none());
    }

    #[test]
    fn texel_layout_and_contents() {
        let s = LaunchSpec::from_json_str(SPEC, "").unwrap();
        let imgs = TextureImage::all(&s);
        assert_eq!(imgs.len(), 3);
        let zz = &imgs[2];
        assert_eq!(zz.spec.name, "zz");
        assert_eq!(zz.handle, 0x2000_0000_0000_0002);
        assert_eq!(zz.spec.dims3(), [3, 2, 1]);
        assert_eq!(zz.spec.texel_count(), 6);
        assert_eq!(zz.spec.element_count(), 12);
        assert_eq!(zz.data.len(), 24);
        // iota 0, 1, 2, ...: texel (x, y) channel c holds (y*3 + x)*2 + c
        assert_eq!(zz.element_bits(0, 0, 0, 0), Some(0));
        assert_eq!(zz.element_bits(0, 0, 0, 1), Some(1));
        assert_eq!(zz.element_bits(1, 0, 0, 0), Some(2));
        assert_eq!(zz.element_bits(2, 1, 0, 1), Some(11));
        assert_eq!(zz.element_bits(0, 1, 0, 0), Some(6));
        assert_eq!(zz.element_bits(3, 0, 0, 0), None);
        assert_eq!(zz.element_bits(0, 2, 0, 0), None);
        assert_eq!(zz.element_bits(0, 0, 1, 0), None);
        assert_eq!(zz.element_bits(0, 0, 0, 2), None);
        let a = &imgs[0];
        assert_eq!(a.element_bits(3, 0, 0, 0), Some(0x4080_0000)); // 4.0f
        let m = &imgs[1];
        assert_eq!(m.data.len(), 8);
        // (x=1, y=1, z=1) is element 7: low byte of splitmix64(3 + 7 + 1)
        assert_eq!(
            m.element_bits(1, 1, 1, 0),
            Some(super::super::splitmix::splitmix64(11) & 0xff)
        );
        assert_eq!(a.spec.border_color(), [0.0; 4]);
    }
}
