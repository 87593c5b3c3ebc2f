//! Texture sampling for `tex`, `tld4` and `txq` over the textures of a launch
//! spec (`textures` in corpus/LAUNCH_SPEC.md; types in `crate::launch`).
//!
//! Sources:
//! * PTX ISA (docs.nvidia.com/cuda/parallel-thread-execution):
//!   #texture-instructions-tex, #texture-instructions-tld4,
//!   #texture-instructions-txq, #texture-sampler-and-surface-types (5.3),
//!   #channel-data-type-and-channel-order-fields (5.3.3).
//! * CUDA C++ Programming Guide, "Texture Fetching" (#nearest-point-sampling,
//!   #linear-filtering) and "Texture Object API" (address modes).
//!
//! # The model
//!
//! Per dimension `d` of the instruction's geometry (`dims`), the coordinate
//! selects one or two texel indices ("taps") with weights in 1/256:
//!
//! * `Coord::Int(k)` (`.s32` coordinates): the single texel `k`, weight 1.
//!   Integer coordinates are texel indices whatever `normalized_coords` says.
//! * `Coord::Float(x)`: `u = x * N` with normalized coordinates (N = size of
//!   the dimension), `u = x` otherwise, computed exactly.
//!   - point filtering: texel `floor(u)` (Guide, nearest-point sampling:
//!     "tex(x) = T[i] where i = floor(x)");
//!   - linear filtering: `xB = u - 0.5`, `i = floor(xB)`,
//!     `alpha = frac(xB)`, taps `i` with weight `1 - alpha` and `i + 1` with
//!     weight `alpha`. The Guide: "alpha, beta, and gamma are stored in 9-bit
//!     fixed point format with 8 bits of fractional value (so 1.0 is exactly
//!     represented)". The rounding of frac(xB) to that format is not stated;
//!     modelled as round-half-up to a multiple of 1/256, `k = floor(256 *
//!     frac(xB) + 1/2)` in 0..=256, as the CUDA Handbook's emulation does
//!     (cudahandbook texturing/tex1d_9bit.cu: `(int)(frac*256.0f+0.5f)`)
//!     — UNCONFIRMED on hardware. All of this is computed exactly in integer
//!     arithmetic (no f32 rounding of `x*N` or `x - 0.5`).
//! * Dimensions at or beyond `dims` use texel 0.
//!
//! Each tap index goes through the dimension's address mode:
//! * clamp: `clamp(i, 0, N-1)` (clamp-to-edge);
//! * wrap: `i mod N` (Guide: x -> frac(x) in normalized coordinates, which is
//!   `floor(x*N) mod N` in texel space);
//! * mirror: `p = i mod 2N; p < N ? p : 2N-1-p` (Guide: frac(x) if floor(x)
//!   is even, 1 - frac(x) if odd);
//! * border: outside `[0, N)` the texel is the border colour.
//!
//! With unnormalized coordinates wrap and mirror act as clamp (Guide:
//! "cudaAddressModeWrap and cudaAddressModeMirror are only supported for
//! normalized texture coordinates"; docs/SEMANTICS.md, Textures: the runtime turns them
//! into clamp), see [`effective_address_mode`].
//!
//! Linear filtering (float channel types only) returns, per channel, the
//! exact weighted sum of the footprint texels (weights products of the
//! per-dimension k/256) rounded ONCE to nearest-even f32 — the Guide's
//! formula `tex(x) = (1-alpha)T[i] + alpha T[i+1]` (and its 2D/3D forms)
//! evaluated without intermediate rounding. The hardware's blend precision
//! is UNCONFIRMED; this model is exact and reproducible. Taps of weight 0
//! are skipped (so an inf/NaN neighbour of a texel centre does not leak);
//! a footprint with a single distinct weighted texel (a texel centre, or
//! both taps clamped onto the edge texel) returns that texel exactly as
//! point sampling would (taps at the same texel are merged first).
//! Otherwise NaN results are `0x7fffffff`, +inf and -inf together give
//! NaN, and an exact zero sum is -0.0 only if every weighted texel is -0.0.
//!
//! # Returned channels
//! `[r, g, b, a]` as 32-bit patterns:
//! * f32 textures: the f32 bits; f16: converted exactly to f32 (a NaN
//!   becomes `0x7fffffff`, the project's cvt policy); f64 (no CUDA format):
//!   rounded to f32;
//! * integer textures (read as elements, no normalization): zero- or
//!   sign-extended to 32 bits; 64-bit types (no CUDA format): low 32 bits;
//! * channels the texture does not have: 0, alpha included. NVIDIA's own
//!   VisRTX (PR #341, "fix(rtx): apply ANARI channel-fill to image
//!   samplers"): "CUDA texture fetches zero-fill components absent from the
//!   array's channel format (a 1-channel texture read as float4 returns
//!   (r,0,0,0))". This also holds for border texels (UNCONFIRMED).
//! * border colour (`border_color`, default 0): float types take
//!   `border_color[c]` rounded to f32; integer types take it converted to the
//!   channel type with saturation (NaN -> 0) and then extended — CUDA's
//!   border colour is a float4 and its meaning for integer formats is
//!   UNCONFIRMED.
//!
//! Linear filtering of an integer texture is refused by CUDA ("Linear
//! texture filtering may be done only for textures that are configured to
//! return floating-point data"); here it falls back to point sampling, and
//! [`check_spec`] reports it.
//!
//! Coordinates: a NaN coordinate is treated as 0.0; infinite or huge
//! coordinates saturate to texel indices of magnitude 2^62 (then go through
//! the address mode). Real hardware converts coordinates to a fixed-point
//! format of limited range, so coordinates beyond about 2^20 texels are
//! UNCONFIRMED.

use crate::launch::{f16_bits_to_f64, AddressMode, ElemType, Filter, TextureImage, TextureSpec};
use ptxc::ptx::modifiers::Mod;

/// One texture coordinate: `.s32` or `.f32`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Coord {
    Int(i32),
    Float(f32),
}

/// `txq` queries (#texture-instructions-txq).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexQuery {
    Width,
    Height,
    Depth,
    ChannelDataType,
    ChannelOrder,
    NormalizedCoords,
    FilterMode,
    AddrMode0,
    AddrMode1,
    AddrMode2,
    ArraySize,
    NumMipmapLevels,
    NumSamples,
    /// `.force_unnormalized_coords` (sampler query, independent mode).
    ForceUnnormalizedCoords,
}

impl TexQuery {
    /// Each query with the PTX modifier that names it.
    pub const ALL: [(Mod, TexQuery); 14] = [
        (Mod::Width, TexQuery::Width),
        (Mod::Height, TexQuery::Height),
        (Mod::Depth, TexQuery::Depth),
        (Mod::ChannelDataType, TexQuery::ChannelDataType),
        (Mod::ChannelOrder, TexQuery::ChannelOrder),
        (Mod::NormalizedCoords, TexQuery::NormalizedCoords),
        (Mod::FilterMode, TexQuery::FilterMode),
        (Mod::AddrMode0, TexQuery::AddrMode0),
        (Mod::AddrMode1, TexQuery::AddrMode1),
        (Mod::AddrMode2, TexQuery::AddrMode2),
        (Mod::ArraySize, TexQuery::ArraySize),
        (Mod::NumMipmapLevels, TexQuery::NumMipmapLevels),
        (Mod::NumSamples, TexQuery::NumSamples),
        (
            Mod::ForceUnnormalizedCoords,
            TexQuery::ForceUnnormalizedCoords,
        ),
    ];

    /// The query of the first modifier `has` accepts.
    pub fn of(has: impl Fn(Mod) -> bool) -> Option<TexQuery> {
        TexQuery::ALL.iter().find(|(m, _)| has(*m)).map(|&(_, q)| q)
    }
}

/// Saturation bound for texel indices computed from huge coordinates.
const INDEX_LIMIT: i64 = 1 << 62;

/// The address mode dimension `dim` uses: the spec's mode (clamp when the
/// spec lists fewer modes than `dim + 1`), with wrap and mirror turned into
/// clamp when the coordinates are unnormalized.
pub fn effective_address_mode(spec: &TextureSpec, dim: usize) -> AddressMode {
    let mode = spec
        .address_mode
        .get(dim)
        .copied()
        .unwrap_or(AddressMode::Clamp);
    match mode {
        AddressMode::Wrap | AddressMode::Mirror if !spec.normalized_coords => AddressMode::Clamp,
        m => m,
    }
}

/// Texel index `i` of a dimension of size `n` (>= 1) under `mode`; `None`
/// is the border.
pub fn address(i: i64, n: u32, mode: AddressMode) -> Option<u32> {
    let n64 = i64::from(n.max(1));
    Some(match mode {
        AddressMode::Clamp => i.clamp(0, n64 - 1) as u32,
        AddressMode::Wrap => i.rem_euclid(n64) as u32,
        AddressMode::Mirror => {
            let p = i.rem_euclid(2 * n64);
            (if p < n64 { p } else { 2 * n64 - 1 - p }) as u32
        }
        AddressMode::Border => {
            if (0..n64).contains(&i) {
                i as u32
            } else {
                return None;
            }
        }
    })
}

// ------------------------------------------------------------ coordinates

/// A float coordinate scaled to texel space, exactly: `t * 2^e`
/// (`|t| < 2^56`). A NaN coordinate becomes 0.
#[derive(Clone, Copy, Debug)]
enum Scaled {
    Finite { t: i128, e: i32 },
    PosInf,
    NegInf,
}

fn scale(x: f32, scale: u32) -> Scaled {
    let bits = x.to_bits();
    let neg = bits >> 31 == 1;
    let ef = (bits >> 23) & 0xff;
    let mf = bits & 0x7f_ffff;
    if ef == 0xff {
        return if mf != 0 {
            Scaled::Finite { t: 0, e: 0 } // NaN -> 0.0
        } else if neg {
            Scaled::NegInf
        } else {
            Scaled::PosInf
        };
    }
    let (m, e) = if ef == 0 {
        (i128::from(mf), -149)
    } else {
        (i128::from(mf | 0x80_0000), ef as i32 - 150)
    };
    let t = m * i128::from(scale);
    Scaled::Finite {
        t: if neg { -t } else { t },
        e,
    }
}

/// `floor((t * 2^e + a) / 2^b)` where `a` is an integer and `b >= 0`, for
/// `|t| < 2^57` and `|a| < 2^9`, saturated to `[-INDEX_LIMIT, INDEX_LIMIT]`.
fn floor_affine(t: i128, e: i32, a: i128, b: u32) -> i64 {
    // value = (t * 2^e + a) / 2^b
    let v: i128 = if e >= 0 {
        if e > 70 {
            // t << e would overflow i128 (|t| < 2^57); |t * 2^e| >= 2^71
            // unless t == 0: saturate by sign
            return match t.signum() {
                0 => (a >> b) as i64,
                1 => INDEX_LIMIT,
                _ => -INDEX_LIMIT,
            };
        }
        ((t << e) + a) >> b
    } else {
        let k = (-e) as u32;
        if k > 100 {
            // |t * 2^e| < 2^-43: only its sign can matter, and only when
            // `a` is a multiple of 2^b (exactly on an integer)
            let base = a >> b;
            let exact = base << b == a;
            return if exact && t < 0 { base - 1 } else { base } as i64;
        }
        // (t + a * 2^k) / 2^(k + b)
        (t + (a << k)) >> (k + b)
    };
    v.clamp(-i128::from(INDEX_LIMIT), i128::from(INDEX_LIMIT)) as i64
}

/// Point sampling: `floor(u)`.
fn point_index(s: Scaled) -> i64 {
    match s {
        Scaled::PosInf => INDEX_LIMIT,
        Scaled::NegInf => -INDEX_LIMIT,
        Scaled::Finite { t, e } => floor_affine(t, e, 0, 0),
    }
}

/// Linear filtering: `(i, k)` with `i = floor(u - 1/2)` and
/// `k = floor(256 * frac(u - 1/2) + 1/2)` in `0..=256`.
fn linear_index(s: Scaled) -> (i64, u32) {
    match s {
        Scaled::PosInf => (INDEX_LIMIT, 0),
        Scaled::NegInf => (-INDEX_LIMIT, 0),
        Scaled::Finite { t, e } => {
            // i = floor((2u - 1) / 2)
            let i = floor_affine(t, e + 1, -1, 1);
            if i.abs() >= INDEX_LIMIT {
                return (i, 0);
            }
            // R = floor(256 (u - 1/2) + 1/2) = floor((512 u - 255) / 2);
            // k = R - 256 i
            let r = floor_affine(t, e + 9, -255, 1);
            if r.abs() >= INDEX_LIMIT {
                return (i, 0);
            }
            let k = r - 256 * i;
            debug_assert!((0..=256).contains(&k), "k = {k}");
            (i, k.clamp(0, 256) as u32)
        }
    }
}

/// One tap: texel index (`None` = border) and weight in 1/256.
type Tap = (Option<u32>, u32);

fn taps(spec: &TextureSpec, dim: usize, coord: Option<Coord>, linear: bool) -> ([Tap; 2], usize) {
    let n = spec.dims3()[dim].max(1);
    let mode = effective_address_mode(spec, dim);
    let one = |i: i64| ([(address(i, n, mode), 256), (None, 0)], 1);
    match coord {
        None => one(0),
        Some(Coord::Int(k)) => one(i64::from(k)),
        Some(Coord::Float(x)) => {
            let s = scale(x, if spec.normalized_coords { n } else { 1 });
            if linear {
                let (i, k) = linear_index(s);
                (
                    [(address(i, n, mode), 256 - k), (address(i + 1, n, mode), k)],
                    2,
                )
            } else {
                one(point_index(s))
            }
        }
    }
}

// ------------------------------------------------------------ texel values

/// A channel value before conversion: the stored element or the border.
#[derive(Clone, Copy, Debug)]
enum Chan {
    Texel(u64),
    Border(f64),
}

fn channel(
    tex: &TextureImage,
    spec: &TextureSpec,
    layer: u32,
    at: [Option<u32>; 3],
    c: usize,
) -> Chan {
    match at {
        [Some(x), Some(y), Some(z)] => Chan::Texel(
            tex.layer_element_bits(layer, x, y, z, c as u32)
                .unwrap_or(0),
        ),
        _ => Chan::Border(spec.border_color()[c]),
    }
}

fn f32_bits_of_f64(v: f64) -> u32 {
    if v.is_nan() {
        0x7fff_ffff
    } else {
        (v as f32).to_bits() // Rust rounds f64 -> f32 to nearest even
    }
}

/// The 32-bit pattern a channel is returned as (see the module docs).
fn out_bits(ty: ElemType, v: Chan) -> u32 {
    match v {
        Chan::Texel(raw) => match ty {
            ElemType::U8 | ElemType::U16 | ElemType::U32 => raw as u32,
            ElemType::S8 => raw as u8 as i8 as i32 as u32,
            ElemType::S16 => raw as u16 as i16 as i32 as u32,
            ElemType::S32 | ElemType::U64 | ElemType::S64 => raw as u32,
            ElemType::F16 => f32_bits_of_f64(f16_bits_to_f64(raw as u16)),
            ElemType::F32 => raw as u32,
            ElemType::F64 => f32_bits_of_f64(f64::from_bits(raw)),
        },
        Chan::Border(b) => match ty {
            ElemType::F16 | ElemType::F32 | ElemType::F64 => f32_bits_of_f64(b),
            ElemType::U8 => u32::from(b as u8),
            ElemType::U16 => u32::from(b as u16),
            ElemType::U32 => b as u32,
            ElemType::S8 => b as i8 as i32 as u32,
            ElemType::S16 => b as i16 as i32 as u32,
            ElemType::S32 => b as i32 as u32,
            ElemType::U64 => b as u64 as u32,
            ElemType::S64 => b as i64 as u32,
        },
    }
}

// ------------------------------------------------------------ tex

/// `tex.geom.v4.dtype.ctype d, [tex, {coords}]` for a texture of the launch
/// spec: the four channels `[r, g, b, a]` as 32-bit patterns (see the
/// module docs for the whole model). `tex` supplies the texels (its layout
/// comes from `tex.spec`); `spec` the sampler state and sizes (normally
/// `&tex.spec`). `dims` is the geometry's dimension count (1 for `.1d`, 2
/// for `.2d`, 3 for `.3d`); coordinates at index `>= dims` are ignored.
///
/// `tex.1d.v4.*.s32` with `Coord::Int` coordinates is `tex1Dfetch`: texel
/// `[x]` with the address mode applied.
pub fn fetch(tex: &TextureImage, spec: &TextureSpec, coords: [Coord; 3], dims: usize) -> [u32; 4] {
    fetch_layer(tex, spec, 0, coords, dims)
}

/// The layer a layered (array) texture instruction selects with its array
/// index `index` (the first element of the coordinate vector).
///
/// * The index is unsigned. PTX ISA, `tex` (#texture-instructions-tex),
///   `tex.{a1d,a2d}`: "The texture array index is a 32-bit unsigned
///   integer"; `tld4.a2d` (#texture-instructions-tld4): "The first element
///   in operand c is interpreted as an unsigned integer index (.u32) into
///   the texture array". So an `.s32` value of -1 is the index 0xffffffff,
///   above every layer, not below layer 0.
/// * An index at or above `layers` has no documented result: neither the
///   PTX ISA nor the CUDA C++ Programming Guide ("Layered Textures": "the
///   index denotes a layer within the sequence") says what it reads
///   (OpenGL and Direct3D clamp to the last layer; unconfirmed for CUDA
///   on NVIDIA hardware). The oracle does not guess: `None`, and the
///   interpreter stops with a fault naming the index.
pub fn layer_index(spec: &TextureSpec, index: u32) -> Option<u32> {
    (index < spec.layer_count()).then_some(index)
}

/// [`layer_index`] or the fault message both runners give for an index past
/// the last layer (one wording for the interpreter's `tex.a1d/.a2d`,
/// `tld4.a2d` and the simulator's `ARRAY_1D/ARRAY_2D` fetches).
///
/// The SASS sees the index after ptxas's clamp `min(index, 0xffff)`
/// (`ISETP.GT.U32.AND P0, PT, R0, 0xffff, PT` + `SEL R4, R4, 0xffff, !P0`
/// before every array fetch, oracle/tests/tex_array_vendor/); the launch
/// spec allows at most [`crate::launch::MAX_TEXTURE_LAYERS`] layers, so
/// the clamped index is past the last layer exactly when the PTX index is,
/// and both runners fault alike.
pub fn layer_or_fault(spec: &TextureSpec, index: u32) -> Result<u32, String> {
    layer_index(spec, index).ok_or_else(|| {
        format!(
            "array index {index} outside texture '{}' with {} layer(s) (the result of an out-of-range layer is undocumented)",
            spec.name,
            spec.layer_count()
        )
    })
}

/// Whether a fetch's geometry fits the texture: an array geometry (`layered`:
/// PTX `.a1d`/`.a2d`, SASS `ARRAY_1D`/`ARRAY_2D`) needs a texture with
/// `layers` in the launch spec and a plain one (`.1d/.2d/.3d`) one without.
/// CUDA C++ Programming Guide, "Layered Textures": "A one-dimensional
/// layered texture is addressed using an integer index and a
/// floating-point texture coordinate" (tex1DLayered/tex2DLayered); a plain
/// fetch of a layered texture, or an array fetch of a plain one, has no
/// documented result, so both runners fault.
/// `dims` is the geometry's coordinate count within one layer; a texture
/// with fewer dimensions reads index 0 in the missing ones ([`fetch`]), as
/// for the plain geometries.
pub fn check_geometry(spec: &TextureSpec, layered: bool) -> Result<(), String> {
    match (layered, spec.layers) {
        (true, None) => Err(format!(
            "array geometry on texture '{}', which is not layered (give it \"layers\" in the launch spec)",
            spec.name
        )),
        (false, Some(n)) => Err(format!(
            "texture '{}' is layered ({n} layers) and needs an array geometry (.a1d or .a2d)",
            spec.name
        )),
        _ => Ok(()),
    }
}

/// The level of detail a `tex` asks for (PTX ISA `tex`,
/// #texture-instructions-tex): none (`.base`, the implicit level), an
/// explicit level (`tex.level`, operand `lod`; SASS `TEX.LL`), or
/// explicit gradients (`tex.grad`, operands `dPdx`, `dPdy`, one element
/// per dimension; SASS `TXD`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lod {
    Base,
    Level(f32),
    Grad { dpdx: [f32; 3], dpdy: [f32; 3] },
}

/// The mip level a fetch reads: its level of detail clamped to the levels
/// the texture has. A launch spec texture has exactly one level (no
/// mipmaps: its `txq.num_mipmap_levels` answers 0, [`txq`]), so every
/// level of detail selects level 0 — an explicit `lod` of any value (NaN
/// and infinities included) and any gradients — and the filter is the
/// texture's `filter` whatever the level (CUDA C++ Programming Guide,
/// "Texture Object API": `maxMipmapLevelClamp` / `minMipmapLevelClamp`
/// bound the level; a texture over a plain CUDA array has only level 0,
/// and `mipmapFilterMode` concerns the choice between levels). Both
/// runners call this (the interpreter's `tex.level`/`tex.grad`, the
/// simulator's `TEX.LL`/`TXD`), through [`fetch_lod`].
pub fn mip_level(_spec: &TextureSpec, _lod: Lod) -> u32 {
    0
}

/// [`fetch_layer`] at the level [`mip_level`] selects for `lod` (every
/// launch spec texture has level 0 only, the level [`fetch_layer`]
/// reads).
pub fn fetch_lod(
    tex: &TextureImage,
    spec: &TextureSpec,
    layer: u32,
    coords: [Coord; 3],
    dims: usize,
    lod: Lod,
) -> [u32; 4] {
    let level = mip_level(spec, lod);
    debug_assert_eq!(level, 0, "launch spec textures have one level");
    fetch_layer(tex, spec, layer, coords, dims)
}

/// [`fetch`] in layer `layer` (`< spec.layer_count()`, see [`layer_index`])
/// of a layered texture: the coordinates address a texel of that layer
/// only; filtering and the address modes never reach another layer (CUDA
/// C++ Programming Guide, "Layered Textures": "Texture filtering ... is
/// done only within a layer, not across layers").
pub fn fetch_layer(
    tex: &TextureImage,
    spec: &TextureSpec,
    layer: u32,
    coords: [Coord; 3],
    dims: usize,
) -> [u32; 4] {
    let linear = spec.filter == Filter::Linear && spec.ty.is_float();
    let mut t: [([Tap; 2], usize); 3] = [([(None, 0); 2], 0); 3];
    for (d, slot) in t.iter_mut().enumerate() {
        let coord = if d < dims { Some(coords[d]) } else { None };
        *slot = taps(spec, d, coord, linear);
    }
    // the footprint: distinct texels (or border positions) with nonzero
    // weight, weights out of 2^24; taps that address the same texel (clamp
    // at an edge) are merged
    let mut footprint: Vec<([Option<u32>; 3], u32)> = Vec::with_capacity(8);
    for &(x, wx) in &t[0].0[..t[0].1] {
        for &(y, wy) in &t[1].0[..t[1].1] {
            for &(z, wz) in &t[2].0[..t[2].1] {
                let w = wx * wy * wz;
                if w == 0 {
                    continue;
                }
                match footprint.iter_mut().find(|(at, _)| *at == [x, y, z]) {
                    Some((_, acc)) => *acc += w,
                    None => footprint.push(([x, y, z], w)),
                }
            }
        }
    }
    let mut out = [0u32; 4];
    let channels = (spec.channels as usize).min(4);
    for (c, o) in out.iter_mut().enumerate().take(channels) {
        *o = if footprint.len() == 1 {
            out_bits(spec.ty, channel(tex, spec, layer, footprint[0].0, c))
        } else {
            let terms: Vec<(u32, u32)> = footprint
                .iter()
                .map(|&(at, w)| (w, out_bits(spec.ty, channel(tex, spec, layer, at, c))))
                .collect();
            weighted_sum_f32(&terms)
        };
    }
    out
}

/// `tld4.comp.2d.v4.dtype.f32 d, [tex, {x, y}]`: component `comp` (0 = r
/// ... 3 = a) of the four texels of the 2x2 bilinear footprint at `(x, y)`.
///
/// ISA (#texture-instructions-tld4): "The four texel samples are placed
/// into destination vector d in counter-clockwise order starting at lower
/// left." With `i = floor(u - 0.5)`, `j = floor(v - 0.5)` (texel space,
/// exact; no 1/256 rounding — the footprint, not the weights) the order is
/// `[T(i, j+1), T(i+1, j+1), T(i+1, j), T(i, j)]`: "lower" is the larger
/// row index. The ISA's wording is D3D's for gather4 ("placed into xyzw in
/// counter clockwise order starting with the sample to the lower left of
/// the queried location. This is the same as point sampling with (u,v)
/// texture coordinate deltas at the following locations: (-,+),(+,+),
/// (+,-),(-,-)", learn.microsoft.com gather4--sm4-1---asm-), which fixes
/// the order above; OpenGL's textureGather returns the same
/// (i0,j1),(i1,j1),(i1,j0),(i0,j0). The NVIDIA order itself is UNCONFIRMED.
///
/// Address modes and the border apply per texel as in [`fetch`]; the filter
/// mode is irrelevant. A `comp` the texture lacks gives zeros.
pub fn tld4(tex: &TextureImage, spec: &TextureSpec, comp: usize, x: f32, y: f32) -> [u32; 4] {
    tld4_layer(tex, spec, 0, comp, x, y)
}

/// [`tld4`] in layer `layer` of a layered texture (`tld4.a2d`; the layer
/// from [`layer_index`]); the footprint stays within the layer.
pub fn tld4_layer(
    tex: &TextureImage,
    spec: &TextureSpec,
    layer: u32,
    comp: usize,
    x: f32,
    y: f32,
) -> [u32; 4] {
    let sizes = spec.dims3();
    let corner = |d: usize, v: f32| -> (i64, u32, AddressMode) {
        let n = sizes[d].max(1);
        let s = scale(v, if spec.normalized_coords { n } else { 1 });
        (linear_index(s).0, n, effective_address_mode(spec, d))
    };
    let (i, nx, mx) = corner(0, x);
    let (j, ny, my) = corner(1, y);
    let z = address(0, sizes[2].max(1), effective_address_mode(spec, 2));
    let order = [(i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j)];
    let mut out = [0u32; 4];
    if comp >= (spec.channels as usize).min(4) {
        return out;
    }
    for (o, &(xi, yj)) in out.iter_mut().zip(order.iter()) {
        let at = [address(xi, nx, mx), address(yj, ny, my), z];
        *o = out_bits(spec.ty, channel(tex, spec, layer, at, comp));
    }
    out
}

// ------------------------------------------------------------ txq

/// OpenCL 1.0 channel data type values (PTX ISA 5.3.3, Table 12).
pub mod cl {
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
    /// Channel orders (Table 13).
    pub const R: u32 = 0x10B0;
    pub const RG: u32 = 0x10B2;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
}

/// `txq.query.b32 d, [tex]` (#texture-instructions-txq):
/// * `.width/.height/.depth`: "value in elements"; a dimension the texture
///   does not have gives 0 (docs/SEMANTICS.md, Textures: `txq` returns 0 for a property
///   that does not apply).
/// * `.channel_data_type` / `.channel_order`: "Unsigned integer corresponding
///   to source language's channel data type enumeration"; the ISA (5.3.3):
///   "Currently, OpenCL is the only source language that defines these
///   fields", Tables 12/13: u8 `CL_UNSIGNED_INT8` 0x10DA, u16 0x10DB, u32
///   0x10DC, s8 `CL_SIGNED_INT8` 0x10D7, s16 0x10D8, s32 0x10D9, f16
///   `CL_HALF_FLOAT` 0x10DD, f32 `CL_FLOAT` 0x10DE; 64-bit types have no
///   value (0). Order by channel count: `CL_R` 0x10B0, `CL_RG` 0x10B2,
///   `CL_RGB` 0x10B4, `CL_RGBA` 0x10B5. What the CUDA driver writes for a
///   CUDA texture object is UNCONFIRMED.
/// * `.normalized_coords`: 1 or 0. `.force_unnormalized_coords`: 0.
/// * `.filter_mode`: "Integer from enum { nearest, linear }": point 0,
///   linear 1.
/// * `.addr_mode_N`: "Integer from enum { wrap, mirror, clamp_ogl,
///   clamp_to_edge, clamp_to_border }": wrap 0, mirror 1, clamp
///   (clamp-to-edge) 3, border 4; the effective mode
///   ([`effective_address_mode`]), 0 for a dimension the texture does not
///   have (which reads as "wrap"; the notes' rule wins).
/// * `.array_size` (in the ISA's `.tquery` list): the number of textures
///   (layers) of a texture array, `layers`; 0 for a texture that is not an
///   array (docs/SEMANTICS.md, Textures: 0 for a property that does not apply).
/// * `.num_mipmap_levels`, `.num_samples`: 0 (the launch spec has no
///   mipmapped or multi-sample textures).
pub fn txq(spec: &TextureSpec, query: TexQuery) -> u32 {
    let ndims = spec.dims.len();
    let dim = |d: usize| if d < ndims { spec.dims[d] } else { 0 };
    let addr = |d: usize| {
        if d >= ndims {
            return 0;
        }
        match effective_address_mode(spec, d) {
            AddressMode::Wrap => 0,
            AddressMode::Mirror => 1,
            AddressMode::Clamp => 3,
            AddressMode::Border => 4,
        }
    };
    match query {
        TexQuery::Width => dim(0),
        TexQuery::Height => dim(1),
        TexQuery::Depth => dim(2),
        TexQuery::ChannelDataType => channel_data_type(spec.ty),
        TexQuery::ChannelOrder => channel_order(spec.channels),
        TexQuery::NormalizedCoords => u32::from(spec.normalized_coords),
        TexQuery::FilterMode => match spec.filter {
            Filter::Point => 0,
            Filter::Linear => 1,
        },
        TexQuery::AddrMode0 => addr(0),
        TexQuery::AddrMode1 => addr(1),
        TexQuery::AddrMode2 => addr(2),
        TexQuery::ArraySize => spec.layers.unwrap_or(0),
        TexQuery::NumMipmapLevels | TexQuery::NumSamples | TexQuery::ForceUnnormalizedCoords => 0,
    }
}

/// `txq.channel_data_type` / `suq.channel_data_type` of an element type:
/// the source language's enumeration (PTX ISA), OpenCL's `CL_*` values;
/// 0 for the 64-bit types, which no channel format has.
pub fn channel_data_type(ty: ElemType) -> u32 {
    match ty {
        ElemType::U8 => cl::UNSIGNED_INT8,
        ElemType::U16 => cl::UNSIGNED_INT16,
        ElemType::U32 => cl::UNSIGNED_INT32,
        ElemType::S8 => cl::SIGNED_INT8,
        ElemType::S16 => cl::SIGNED_INT16,
        ElemType::S32 => cl::SIGNED_INT32,
        ElemType::F16 => cl::HALF_FLOAT,
        ElemType::F32 => cl::FLOAT,
        ElemType::U64 | ElemType::S64 | ElemType::F64 => 0,
    }
}

/// `txq.channel_order` / `suq.channel_order` of a channel count (OpenCL's
/// `CL_R` .. `CL_RGBA`; 0 for a count no format has).
pub fn channel_order(channels: u32) -> u32 {
    match channels {
        1 => cl::R,
        2 => cl::RG,
        3 => cl::RGB,
        4 => cl::RGBA,
        _ => 0,
    }
}

/// Texture descriptions CUDA would refuse, which this module still samples
/// (by the rules in the module docs): linear filtering of an integer type
/// (sampled as point), 64-bit channel types, 3 channels ("The hardware only
/// supports 1, 2 and 4-component textures"). The interpreter may report
/// these as unsupported.
pub fn check_spec(spec: &TextureSpec) -> Result<(), String> {
    if spec.filter == Filter::Linear && !spec.ty.is_float() {
        return Err(format!(
            "texture '{}': linear filtering needs floating-point data (type {})",
            spec.name, spec.ty
        ));
    }
    if spec.ty.size() == 8 {
        return Err(format!(
            "texture '{}': CUDA has no 64-bit channel format (type {})",
            spec.name, spec.ty
        ));
    }
    if spec.channels == 3 {
        return Err(format!(
            "texture '{}': CUDA has no 3-channel formats",
            spec.name
        ));
    }
    Ok(())
}

// ------------------------------------------------------------ exact blend

/// 320-bit unsigned integer, little-endian limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct U320([u64; 5]);

impl U320 {
    const ZERO: U320 = U320([0; 5]);

    /// `self += v << sh`, `v < 2^49`, `sh <= 254`.
    fn add_shifted(&mut self, v: u64, sh: u32) {
        let limb = (sh / 64) as usize;
        let off = sh % 64;
        let lo = v << off;
        let hi = if off == 0 { 0 } else { v >> (64 - off) };
        let mut carry = 0u64;
        for (i, add) in [(limb, lo), (limb + 1, hi)] {
            if i < 5 {
                let (s1, c1) = self.0[i].overflowing_add(add);
                let (s2, c2) = s1.overflowing_add(carry);
                self.0[i] = s2;
                carry = u64::from(c1) + u64::from(c2);
            }
        }
        let mut i = limb + 2;
        while carry != 0 && i < 5 {
            let (s, c) = self.0[i].overflowing_add(carry);
            self.0[i] = s;
            carry = u64::from(c);
            i += 1;
        }
    }

    fn cmp_mag(&self, o: &U320) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(o.0.iter().rev())
    }

    /// `self - o`, requires `self >= o`.
    fn sub(&self, o: &U320) -> U320 {
        let mut r = [0u64; 5];
        let mut borrow = 0u64;
        for (ri, (&a, &b)) in r.iter_mut().zip(self.0.iter().zip(o.0.iter())) {
            let (d1, b1) = a.overflowing_sub(b);
            let (d2, b2) = d1.overflowing_sub(borrow);
            *ri = d2;
            borrow = u64::from(b1) + u64::from(b2);
        }
        U320(r)
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn bit_len(&self) -> u32 {
        for i in (0..5).rev() {
            if self.0[i] != 0 {
                return 64 * i as u32 + 64 - self.0[i].leading_zeros();
            }
        }
        0
    }

    fn bit(&self, n: u32) -> bool {
        n < 320 && (self.0[(n / 64) as usize] >> (n % 64)) & 1 == 1
    }

    /// Any bit below position `n` set.
    fn any_below(&self, n: u32) -> bool {
        let full = (n / 64) as usize;
        if self.0[..full.min(5)].iter().any(|&l| l != 0) {
            return true;
        }
        let rem = n % 64;
        full < 5 && rem != 0 && self.0[full] & ((1u64 << rem) - 1) != 0
    }

    /// `(self >> s) & (2^bits - 1)` for `bits <= 32`.
    fn bits_at(&self, s: u32, bits: u32) -> u64 {
        (0..bits).fold(0u64, |acc, k| acc | (u64::from(self.bit(s + k)) << k))
    }
}

/// `sum(w_k * T_k) / 2^24` rounded once to nearest-even f32, where the
/// weights `w_k` (> 0) add up to 2^24 and `T_k` are f32 bit patterns.
/// NaN -> `0x7fffffff`; +inf with -inf -> NaN; an exact zero is -0.0 only
/// if every `T_k` is -0.0.
fn weighted_sum_f32(terms: &[(u32, u32)]) -> u32 {
    let (mut pos_inf, mut neg_inf, mut all_neg_zero) = (false, false, true);
    for &(_, t) in terms {
        let mag = t & 0x7fff_ffff;
        if mag > 0x7f80_0000 {
            return 0x7fff_ffff;
        }
        if mag == 0x7f80_0000 {
            if t >> 31 == 1 {
                neg_inf = true;
            } else {
                pos_inf = true;
            }
        }
        if t != 0x8000_0000 {
            all_neg_zero = false;
        }
    }
    match (pos_inf, neg_inf) {
        (true, true) => return 0x7fff_ffff,
        (true, false) => return 0x7f80_0000,
        (false, true) => return 0xff80_0000,
        _ => {}
    }
    // each term: w * m * 2^(sh - 149) with w <= 2^24, m < 2^24; the sum in
    // units of 2^-173 (= 2^-149 * 2^-24) is an integer below 2^305.
    let (mut pos, mut neg) = (U320::ZERO, U320::ZERO);
    for &(w, t) in terms {
        let ef = (t >> 23) & 0xff;
        let mf = u64::from(t & 0x7f_ffff);
        let (m, sh) = if ef == 0 {
            (mf, 0)
        } else {
            (mf | 0x80_0000, ef - 1)
        };
        let v = u64::from(w) * m;
        if t >> 31 == 1 {
            neg.add_shifted(v, sh);
        } else {
            pos.add_shifted(v, sh);
        }
    }
    let (mag, sign) = match pos.cmp_mag(&neg) {
        std::cmp::Ordering::Less => (neg.sub(&pos), 0x8000_0000u32),
        _ => (pos.sub(&neg), 0),
    };
    if mag.is_zero() {
        return if all_neg_zero { 0x8000_0000 } else { 0 };
    }
    // value = mag * 2^-173; top bit exponent e
    let e = mag.bit_len() as i32 - 1 - 173;
    let q = (e - 23).max(-149); // exponent of the f32 quantum
    let s = (q + 173) as u32; // >= 24
    let mut m = mag.bits_at(s, 25);
    let half = mag.bit(s - 1);
    let sticky = mag.any_below(s - 1);
    if half && (sticky || m & 1 == 1) {
        m += 1;
    }
    let bits = if e >= -126 {
        (((e + 126) as u64) << 23) + m
    } else {
        m
    };
    sign | bits.min(0x7f80_0000) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::{init_bytes, Init};
    use quickcheck::quickcheck;
    use AddressMode::{Border, Clamp, Mirror, Wrap};

    struct T {
        img: TextureImage,
    }

    #[allow(clippy::too_many_arguments)]
    fn make(
        ty: ElemType,
        channels: u32,
        dims: &[u32],
        bits: Vec<u64>,
        modes: &[AddressMode],
        filter: Filter,
        normalized: bool,
        border: Option<[f64; 4]>,
    ) -> T {
        let init = Init::Bits(bits);
        let spec = TextureSpec {
            name: "t".into(),
            ty,
            channels,
            dims: dims.to_vec(),
            init: init.clone(),
            address_mode: modes.to_vec(),
            filter,
            normalized_coords: normalized,
            border_color: border,
            layers: None,
        };
        let data = init_bytes(&init, ty, spec.element_count());
        T {
            img: TextureImage {
                spec,
                handle: 0,
                data,
            },
        }
    }

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    /// 1D f32 texture [10, 20, 30, 40].
    fn t1(mode: AddressMode, filter: Filter, normalized: bool) -> T {
        make(
            ElemType::F32,
            1,
            &[4],
            vec![f(10.0), f(20.0), f(30.0), f(40.0)],
            &[mode],
            filter,
            normalized,
            None,
        )
    }

    impl T {
        fn x(&self, x: f32) -> f32 {
            let r = fetch(
                &self.img,
                &self.img.spec,
                [Coord::Float(x), Coord::Float(0.0), Coord::Float(0.0)],
                1,
            );
            f32::from_bits(r[0])
        }
        fn xi(&self, x: i32) -> f32 {
            let r = fetch(
                &self.img,
                &self.img.spec,
                [Coord::Int(x), Coord::Int(0), Coord::Int(0)],
                1,
            );
            f32::from_bits(r[0])
        }
        fn at(&self, c: [Coord; 3], dims: usize) -> [u32; 4] {
            fetch(&self.img, &self.img.spec, c, dims)
        }
        fn xy(&self, x: f32, y: f32) -> f32 {
            f32::from_bits(self.at([Coord::Float(x), Coord::Float(y), Coord::Float(0.0)], 2)[0])
        }
        fn g(&self, comp: usize, x: f32, y: f32) -> [u32; 4] {
            tld4(&self.img, &self.img.spec, comp, x, y)
        }
    }

    // ------------------------------------------------ integer coordinates

    #[test]
    fn int_coords_in_range() {
        let t = t1(Clamp, Filter::Point, false);
        assert_eq!(
            [t.xi(0), t.xi(1), t.xi(2), t.xi(3)],
            [10.0, 20.0, 30.0, 40.0]
        );
    }
    #[test]
    fn int_coords_clamp() {
        let t = t1(Clamp, Filter::Point, false);
        assert_eq!(t.xi(-1), 10.0);
        assert_eq!(t.xi(i32::MIN), 10.0);
        assert_eq!(t.xi(4), 40.0);
        assert_eq!(t.xi(i32::MAX), 40.0);
    }
    #[test]
    fn int_coords_border() {
        let t = t1(Border, Filter::Point, false);
        assert_eq!(t.xi(-1), 0.0);
        assert_eq!(t.xi(4), 0.0);
        assert_eq!(t.xi(3), 40.0);
    }
    #[test]
    fn int_coords_wrap_unnormalized_acts_as_clamp() {
        let t = t1(Wrap, Filter::Point, false);
        assert_eq!(t.xi(5), 40.0);
        assert_eq!(t.xi(-3), 10.0);
    }
    #[test]
    fn int_coords_wrap_and_mirror_normalized() {
        let t = t1(Wrap, Filter::Point, true);
        assert_eq!(t.xi(5), 20.0); // 5 mod 4 = 1
        assert_eq!(t.xi(-1), 40.0); // -1 mod 4 = 3
        let m = t1(Mirror, Filter::Point, true);
        // 0 1 2 3 | 3 2 1 0 | 0 1 ...
        assert_eq!(m.xi(4), 40.0);
        assert_eq!(m.xi(6), 20.0);
        assert_eq!(m.xi(8), 10.0);
        assert_eq!(m.xi(-1), 10.0);
        assert_eq!(m.xi(-5), 40.0);
    }
    #[test]
    fn int_coords_ignore_linear_filter() {
        let t = t1(Clamp, Filter::Linear, false);
        assert_eq!(t.xi(2), 30.0);
    }

    // ------------------------------------------------ point, unnormalized

    #[test]
    fn point_floor_of_coordinate() {
        let t = t1(Clamp, Filter::Point, false);
        assert_eq!(t.x(0.0), 10.0);
        assert_eq!(t.x(0.999), 10.0);
        assert_eq!(t.x(1.0), 20.0);
        assert_eq!(t.x(3.5), 40.0);
        assert_eq!(t.x(3.9999), 40.0);
    }
    #[test]
    fn point_clamp_beyond_edges() {
        let t = t1(Clamp, Filter::Point, false);
        assert_eq!(t.x(4.0), 40.0);
        assert_eq!(t.x(1e30), 40.0);
        assert_eq!(t.x(-0.5), 10.0);
        assert_eq!(t.x(-1e30), 10.0);
        assert_eq!(t.x(f32::INFINITY), 40.0);
        assert_eq!(t.x(f32::NEG_INFINITY), 10.0);
    }
    #[test]
    fn point_negative_zero_and_tiny_negative() {
        let t = t1(Border, Filter::Point, false);
        assert_eq!(t.x(-0.0), 10.0); // floor(-0) = 0
        assert_eq!(t.x(-1e-30), 0.0); // floor < 0: border
        assert_eq!(t.x(-f32::from_bits(1)), 0.0);
    }
    #[test]
    fn point_border_default_and_custom_colour() {
        let t = t1(Border, Filter::Point, false);
        assert_eq!(t.x(4.0), 0.0);
        assert_eq!(t.x(-0.5), 0.0);
        let mut t = t1(Border, Filter::Point, false);
        t.img.spec.border_color = Some([5.0, 6.0, 7.0, 8.0]);
        assert_eq!(t.x(-3.0), 5.0);
        // a 1-channel texture returns only r, even from the border
        let r = t.at([Coord::Float(9.0), Coord::Float(0.0), Coord::Float(0.0)], 1);
        assert_eq!(r, [5f32.to_bits(), 0, 0, 0]);
    }
    #[test]
    fn point_nan_coordinate_is_zero() {
        let t = t1(Border, Filter::Point, false);
        assert_eq!(t.x(f32::NAN), 10.0);
    }
    #[test]
    fn point_returns_raw_bits() {
        let t = make(
            ElemType::F32,
            1,
            &[2],
            vec![0x7fc0_1234, 0x0000_0001],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        let r = t.at([Coord::Float(0.5), Coord::Int(0), Coord::Int(0)], 1);
        assert_eq!(r[0], 0x7fc0_1234);
        assert_eq!(t.xi(1).to_bits(), 1);
    }

    // ------------------------------------------------ point, normalized

    #[test]
    fn normalized_point_scales_by_width() {
        let t = t1(Clamp, Filter::Point, true);
        assert_eq!(t.x(0.0), 10.0);
        assert_eq!(t.x(0.1), 10.0); // u = 0.4
        assert_eq!(t.x(0.25), 20.0); // u = 1
        assert_eq!(t.x(0.74), 30.0);
        assert_eq!(t.x(0.99), 40.0);
    }
    #[test]
    fn normalized_clamp_out_of_range() {
        // Guide: clamped to [0.0, 1.0)
        let t = t1(Clamp, Filter::Point, true);
        assert_eq!(t.x(1.0), 40.0);
        assert_eq!(t.x(7.3), 40.0);
        assert_eq!(t.x(-0.1), 10.0);
    }
    #[test]
    fn normalized_wrap_uses_fraction() {
        // Guide: wrap replaces x by frac(x) = x - floor(x)
        let t = t1(Wrap, Filter::Point, true);
        assert_eq!(t.x(1.0), 10.0); // frac 0
        assert_eq!(t.x(1.3), 20.0); // frac .3 -> u 1.2
        assert_eq!(t.x(-0.1), 40.0); // frac .9 -> u 3.6
        assert_eq!(t.x(-1.3), 30.0); // frac .7 -> u 2.8
        assert_eq!(t.x(1000.6), 30.0);
    }
    #[test]
    fn normalized_mirror_reflects_odd_periods() {
        // Guide: frac(x) if floor(x) is even, 1 - frac(x) if odd
        let t = t1(Mirror, Filter::Point, true);
        assert_eq!(t.x(0.3), 20.0); // u 1.2
        assert_eq!(t.x(1.3), 30.0); // 1 - .3 = .7 -> u 2.8
        assert_eq!(t.x(2.3), 20.0); // even period again
        assert_eq!(t.x(-0.1), 10.0); // floor -1 odd: 1 - .9 = .1 -> u .4
        assert_eq!(t.x(-0.8), 40.0); // 1 - .2 = .8 -> u 3.2
        assert_eq!(t.x(1.0), 40.0); // x' = 1.0 -> last texel
    }
    #[test]
    fn normalized_mirror_periodicity() {
        let t = t1(Mirror, Filter::Point, true);
        for x in [0.05f32, 0.3, 0.55, 0.8, 1.1, 1.45, 1.7, 1.95] {
            let want = t.x(x);
            for k in [-6.0f32, -4.0, -2.0, 2.0, 4.0, 10.0] {
                assert_eq!(t.x(x + k), want, "x {x} k {k}");
            }
            // reflection about 1.0 (and 0.0)
            assert_eq!(t.x(2.0 - x), want, "2 - {x}");
            assert_eq!(t.x(-x), want, "-{x}");
        }
    }
    #[test]
    fn mirror_exact_texel_boundary_uses_index_space() {
        // x = 1.25 -> u = 5, texel index 5 in the first mirrored period is
        // texel 2 (OpenGL/D3D index mirroring: 0 1 2 3 | 3 2 1 0); the
        // Guide's coordinate formula would give 1 - .25 = .75 -> texel 3.
        // Decision documented in the module: index space.
        let t = t1(Mirror, Filter::Point, true);
        assert_eq!(t.x(1.25), 30.0);
    }
    #[test]
    fn normalized_border() {
        let t = t1(Border, Filter::Point, true);
        assert_eq!(t.x(0.5), 30.0);
        assert_eq!(t.x(1.0), 0.0);
        assert_eq!(t.x(-0.01), 0.0);
    }
    #[test]
    fn unnormalized_mirror_acts_as_clamp() {
        let t = t1(Mirror, Filter::Point, false);
        assert_eq!(t.x(5.5), 40.0);
        assert_eq!(t.x(-2.5), 10.0);
    }

    /// Reference for normalized point sampling, from the Guide's coordinate
    /// rules (wrap) and OpenGL's MIRRORED_REPEAT index rule (mirror).
    fn ref_point_norm(vals: &[f32], mode: AddressMode, x: f32) -> f32 {
        let n = vals.len() as f64;
        let x = f64::from(x);
        match mode {
            Wrap => {
                let xf = x - x.floor();
                vals[((xf * n).floor() as usize).min(vals.len() - 1)]
            }
            Mirror => {
                // GL: i = (N-1) - mirror((floor(u) mod 2N) - N),
                // mirror(a) = a >= 0 ? a : -(1 + a)
                let i = (x * n).floor() as i64;
                let a = i.rem_euclid(2 * n as i64) - n as i64;
                let m = if a >= 0 { a } else { -(1 + a) };
                vals[(n as i64 - 1 - m) as usize]
            }
            Clamp => vals[((x * n).floor().clamp(0.0, n - 1.0)) as usize],
            Border => {
                let i = (x * n).floor();
                if i < 0.0 || i >= n {
                    0.0
                } else {
                    vals[i as usize]
                }
            }
        }
    }

    quickcheck! {
        fn prop_normalized_point_modes(x: i32, m: u8) -> bool {
            let x = x as f32 / 997.0; // a range of periods
            let mode = [Wrap, Mirror, Clamp, Border][m as usize % 4];
            let t = t1(mode, Filter::Point, true);
            t.x(x) == ref_point_norm(&[10.0, 20.0, 30.0, 40.0], mode, x)
        }
        fn prop_unnormalized_point_clamp(x: f32) -> bool {
            let t = t1(Clamp, Filter::Point, false);
            let xv = if x.is_nan() { 0.0 } else { f64::from(x) };
            let i = xv.floor().clamp(0.0, 3.0) as usize;
            t.x(x) == [10.0, 20.0, 30.0, 40.0][i]
        }
    }

    // ------------------------------------------------ linear, 1D

    #[test]
    fn linear_at_texel_centres_is_exact() {
        let t = t1(Clamp, Filter::Linear, false);
        assert_eq!(
            [t.x(0.5), t.x(1.5), t.x(2.5), t.x(3.5)],
            [10.0, 20.0, 30.0, 40.0]
        );
    }
    #[test]
    fn linear_midpoints() {
        let t = t1(Clamp, Filter::Linear, false);
        assert_eq!(t.x(1.0), 15.0);
        assert_eq!(t.x(2.0), 25.0);
        assert_eq!(t.x(3.0), 35.0);
    }
    #[test]
    fn linear_quarter_points() {
        let t = t1(Clamp, Filter::Linear, false);
        assert_eq!(t.x(1.25), 17.5); // xB .75: .25*10 + .75*20
        assert_eq!(t.x(0.75), 12.5);
    }
    #[test]
    fn linear_clamp_at_edges() {
        let t = t1(Clamp, Filter::Linear, false);
        assert_eq!(t.x(0.0), 10.0); // T[-1] -> T[0]
        assert_eq!(t.x(0.25), 10.0);
        assert_eq!(t.x(4.0), 40.0);
        assert_eq!(t.x(100.0), 40.0);
        assert_eq!(t.x(-100.0), 10.0);
    }
    #[test]
    fn linear_border_blends_border_colour() {
        let t = t1(Border, Filter::Linear, false);
        assert_eq!(t.x(0.0), 5.0); // .5 * 0 + .5 * 10
        assert_eq!(t.x(4.0), 20.0); // .5 * 40 + .5 * 0
        assert_eq!(t.x(4.5), 0.0);
        // xB -.75: i = -1 (border, weight .75) and 0 (weight .25)
        assert_eq!(t.x(-0.25), 2.5);
    }
    #[test]
    fn linear_weights_are_9_bit_fixed_point() {
        let t = t1(Clamp, Filter::Linear, false);
        // xB = .5 + 2^-10: 256*frac = 128.25 -> 128: exactly the midpoint
        assert_eq!(t.x(1.0 + 1.0 / 1024.0), 15.0);
        // 128.5 rounds half up to 129: (127*10 + 129*20)/256
        assert_eq!(t.x(1.0 + 1.0 / 512.0), 3850.0 / 256.0);
        // 128.75 -> 129
        assert_eq!(t.x(1.0 + 3.0 / 1024.0), 3850.0 / 256.0);
        // 128.49... -> 128
        assert_eq!(t.x(1.0 + 1.0 / 512.0 - 1.0 / 65536.0), 15.0);
    }
    #[test]
    fn linear_weight_one_is_representable() {
        // xB = 1 - 2^-10: 256*frac = 255.75 -> 256: all weight on T[i+1]
        let t = t1(Clamp, Filter::Linear, false);
        assert_eq!(t.x(1.5 - 1.0 / 1024.0), 20.0);
        // and just below: 255.25 -> 255
        assert_eq!(t.x(1.5 - 3.0 / 1024.0), (10.0 + 255.0 * 20.0) / 256.0);
    }
    #[test]
    fn linear_negative_coordinates_floor() {
        // x = -0.25: xB = -.75, i = -1, frac .25 -> texels -1 and 0
        let mut t = t1(Border, Filter::Linear, false);
        t.img.spec.border_color = Some([100.0, 0.0, 0.0, 0.0]);
        assert_eq!(t.x(-0.25), 0.75 * 100.0 + 0.25 * 10.0);
        // x = -1.0: xB -1.5, i = -2, frac .5: both border
        assert_eq!(t.x(-1.0), 100.0);
    }
    #[test]
    fn linear_normalized_wrap_blends_across_seam() {
        let t = t1(Wrap, Filter::Linear, true);
        assert_eq!(t.x(0.0), 25.0); // T[3] and T[0]
        assert_eq!(t.x(1.0), 25.0);
        assert_eq!(t.x(0.125), 10.0); // u .5: centre of texel 0
    }
    #[test]
    fn linear_normalized_mirror_and_clamp_at_zero() {
        assert_eq!(t1(Mirror, Filter::Linear, true).x(0.0), 10.0);
        assert_eq!(t1(Clamp, Filter::Linear, true).x(0.0), 10.0);
        assert_eq!(t1(Mirror, Filter::Linear, true).x(1.0), 40.0);
        // u = 4.5 (x = 1.125): texels 4 -> 3 and 5 -> 2 under mirroring
        assert_eq!(t1(Mirror, Filter::Linear, true).x(1.125), 40.0);
        assert_eq!(t1(Mirror, Filter::Linear, true).x(1.25), 35.0);
    }

    fn two(a: u32, b: u32) -> T {
        make(
            ElemType::F32,
            1,
            &[2],
            vec![a.into(), b.into()],
            &[Clamp],
            Filter::Linear,
            false,
            None,
        )
    }

    #[test]
    fn linear_blend_rounds_once_to_nearest_even() {
        let t = two(0x3f80_0000, 0x3f80_0001); // 1.0, 1 + 2^-23
                                               // alpha 1/256: 1 + 2^-31 -> 1.0
        assert_eq!(t.x(1.0 + 1.0 / 256.0 - 0.5).to_bits(), 0x3f80_0000);
        // alpha 1/2: 1 + 2^-24, a tie -> even (1.0)
        assert_eq!(t.x(1.0).to_bits(), 0x3f80_0000);
        // alpha 129/256: just above the tie -> up
        assert_eq!(t.x(1.0 + 1.0 / 256.0).to_bits(), 0x3f80_0001);
    }
    #[test]
    fn linear_blend_subnormals() {
        assert_eq!(two(1, 0).x(1.0).to_bits(), 0); // 2^-150: tie -> even 0
        assert_eq!(two(3, 0).x(1.0).to_bits(), 2); // 1.5 * 2^-149 -> 2^-148
        assert_eq!(two(1, 1).x(1.0).to_bits(), 1);
        assert_eq!(two(0x8000_0003, 0).x(1.0).to_bits(), 0x8000_0002);
    }
    #[test]
    fn linear_blend_signed_zeros_and_cancellation() {
        assert_eq!(two(0x8000_0000, 0x8000_0000).x(1.0).to_bits(), 0x8000_0000);
        assert_eq!(two(0x8000_0000, 0).x(1.0).to_bits(), 0);
        assert_eq!(two(0xbf80_0000, 0x3f80_0000).x(1.0).to_bits(), 0); // -1, 1
    }
    #[test]
    fn linear_blend_large_values_do_not_overflow() {
        let max = f32::MAX.to_bits();
        assert_eq!(two(max, max).x(1.0).to_bits(), max);
        assert_eq!(two(max, max | 0x8000_0000).x(1.0).to_bits(), 0);
        // .5 * max + .5 * (max - ulp) is exactly between them: tie -> even
        assert_eq!(two(max, max - 1).x(1.0).to_bits(), max - 1);
    }
    #[test]
    fn linear_blend_nan_and_inf() {
        let nan = 0x7fc0_0001;
        let inf = 0x7f80_0000;
        let one = 0x3f80_0000;
        assert_eq!(two(nan, one).x(1.0).to_bits(), 0x7fff_ffff);
        assert_eq!(two(inf, one).x(1.0).to_bits(), inf);
        assert_eq!(two(inf, inf | 0x8000_0000).x(1.0).to_bits(), 0x7fff_ffff);
        // weight-0 neighbours do not contribute: at the centre of texel 1
        assert_eq!(two(nan, one).x(1.5).to_bits(), one);
        assert_eq!(two(inf, one).x(1.5).to_bits(), one);
    }

    /// Independent 1D reference with integer-valued texels (the blend is
    /// then exact in f64): the Guide's formula with alpha rounded to 1/256.
    fn ref_linear_clamp(vals: &[f32], x: f32) -> f32 {
        let n = vals.len() as i64;
        let xb = f64::from(x) - 0.5;
        let i = xb.floor();
        let frac = xb - i;
        let k = (frac * 256.0 + 0.5).floor();
        let at = |j: f64| f64::from(vals[(j as i64).clamp(0, n - 1) as usize]);
        (((256.0 - k) * at(i) + k * at(i + 1.0)) / 256.0) as f32
    }

    quickcheck! {
        fn prop_linear_1d_matches_reference(num: i32) -> bool {
            let x = (num % 100_000) as f32 / 16384.0; // |x| < 6.2, fine steps
            let t = t1(Clamp, Filter::Linear, false);
            t.x(x) == ref_linear_clamp(&[10.0, 20.0, 30.0, 40.0], x)
        }
        fn prop_linear_constant_texture_is_constant(x: f32, v: u32) -> bool {
            // a convex combination of equal finite values is that value
            let v = v & 0x7f7f_ffff; // finite, non-negative
            let t = two(v, v);
            x.is_nan() || t.x(x).to_bits() == v
        }
        fn prop_linear_between_neighbours(num: i32, a: i16, b: i16) -> bool {
            let x = (num % 5000) as f32 / 1000.0;
            let (lo, hi) = (f32::from(a.min(b)), f32::from(a.max(b)));
            let t = two(lo.to_bits(), hi.to_bits());
            let r = t.x(x);
            lo <= r && r <= hi
        }
    }

    // ------------------------------------------------ 2D and 3D

    /// 3x3 f32 texture T(x, y) = 10*y + x + 1.
    fn t2(mode: AddressMode, filter: Filter) -> T {
        let bits = (0..3)
            .flat_map(|y| (0..3).map(move |x| f((10 * y + x + 1) as f32)))
            .collect();
        make(
            ElemType::F32,
            1,
            &[3, 3],
            bits,
            &[mode, mode],
            filter,
            false,
            None,
        )
    }

    #[test]
    fn point_2d_row_major_layout() {
        let t = t2(Clamp, Filter::Point);
        assert_eq!(t.xy(1.5, 2.5), 22.0);
        assert_eq!(t.xy(2.0, 0.0), 3.0);
        assert_eq!(t.xy(0.2, 1.9), 11.0);
    }
    #[test]
    fn int_2d_clamp_and_border() {
        let t = t2(Clamp, Filter::Point);
        let r = t.at([Coord::Int(-1), Coord::Int(5), Coord::Int(0)], 2);
        assert_eq!(f32::from_bits(r[0]), 21.0);
        let t = t2(Border, Filter::Point);
        let r = t.at([Coord::Int(1), Coord::Int(3), Coord::Int(0)], 2);
        assert_eq!(r[0], 0);
        let r = t.at([Coord::Int(2), Coord::Int(1), Coord::Int(0)], 2);
        assert_eq!(f32::from_bits(r[0]), 13.0);
    }
    #[test]
    fn bilinear_midpoint_of_four() {
        let t = t2(Clamp, Filter::Linear);
        assert_eq!(t.xy(1.0, 1.0), (1.0 + 2.0 + 11.0 + 12.0) / 4.0);
        assert_eq!(t.xy(2.0, 2.0), (12.0 + 13.0 + 22.0 + 23.0) / 4.0);
    }
    #[test]
    fn bilinear_uneven_weights() {
        // (1.25, 2.0): alpha .75 between x 0,1; beta .5 between y 1,2
        let t = t2(Clamp, Filter::Linear);
        let row1 = 0.25 * 11.0 + 0.75 * 12.0;
        let row2 = 0.25 * 21.0 + 0.75 * 22.0;
        assert_eq!(t.xy(1.25, 2.0), 0.5 * row1 + 0.5 * row2);
    }
    #[test]
    fn bilinear_at_centre_is_texel() {
        let t = t2(Clamp, Filter::Linear);
        assert_eq!(t.xy(1.5, 1.5), 12.0);
        assert_eq!(t.xy(2.5, 0.5), 3.0);
    }
    #[test]
    fn bilinear_corner_clamp_and_border() {
        assert_eq!(t2(Clamp, Filter::Linear).xy(0.0, 0.0), 1.0);
        // border: only T(0,0) inside, weight 1/4
        assert_eq!(t2(Border, Filter::Linear).xy(0.0, 0.0), 0.25);
        assert_eq!(t2(Border, Filter::Linear).xy(3.0, 3.0), 23.0 / 4.0);
    }
    #[test]
    fn mixed_address_modes_per_dimension() {
        let mut t = t2(Clamp, Filter::Point);
        t.img.spec.address_mode = vec![Border, Clamp];
        assert_eq!(t.xy(1.5, 7.0), 22.0); // y clamped
        assert_eq!(t.xy(-1.0, 1.0), 0.0); // x border
    }
    #[test]
    fn one_d_geometry_on_2d_texture_uses_row_0() {
        let t = t2(Clamp, Filter::Point);
        let r = t.at([Coord::Float(2.5), Coord::Float(2.5), Coord::Float(0.0)], 1);
        assert_eq!(f32::from_bits(r[0]), 3.0);
    }
    #[test]
    fn trilinear_centre_of_cube() {
        // 2x2x2 with T = 1..8
        let bits = (1..=8).map(|v| f(v as f32)).collect();
        let t = make(
            ElemType::F32,
            1,
            &[2, 2, 2],
            bits,
            &[Clamp, Clamp, Clamp],
            Filter::Linear,
            false,
            None,
        );
        let c = [Coord::Float(1.0), Coord::Float(1.0), Coord::Float(1.0)];
        assert_eq!(f32::from_bits(t.at(c, 3)[0]), 4.5);
        // point sampling of texel (1, 0, 1): index (1*2 + 0)*2 + 1 = 5 -> 6.0
        let mut t = t;
        t.img.spec.filter = Filter::Point;
        let c = [Coord::Float(1.5), Coord::Float(0.5), Coord::Float(1.5)];
        assert_eq!(f32::from_bits(t.at(c, 3)[0]), 6.0);
    }

    // ------------------------------------------------ channels and types

    #[test]
    fn two_channel_u16_missing_channels_zero() {
        let t = make(
            ElemType::U16,
            2,
            &[2],
            vec![1, 0xffff, 3, 4],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        let r = t.at([Coord::Int(0), Coord::Int(0), Coord::Int(0)], 1);
        assert_eq!(r, [1, 0xffff, 0, 0]);
        let r = t.at([Coord::Float(1.2), Coord::Int(0), Coord::Int(0)], 1);
        assert_eq!(r, [3, 4, 0, 0]);
    }
    #[test]
    fn signed_types_sign_extend() {
        let t = make(
            ElemType::S8,
            1,
            &[2],
            vec![0x80, 0x7f],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert_eq!(t.at([Coord::Int(0); 3], 1)[0], 0xffff_ff80);
        assert_eq!(
            t.at([Coord::Int(1), Coord::Int(0), Coord::Int(0)], 1)[0],
            0x7f
        );
        let t = make(
            ElemType::S16,
            1,
            &[1],
            vec![0xfffe],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert_eq!(t.at([Coord::Int(0); 3], 1)[0], 0xffff_fffe);
        let t = make(
            ElemType::U8,
            1,
            &[1],
            vec![0xfe],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert_eq!(t.at([Coord::Int(0); 3], 1)[0], 0xfe);
    }
    #[test]
    fn f16_texture_returns_f32() {
        // 1.5 (0x3e00), -2 (0xc000), NaN (0x7e01)
        let t = make(
            ElemType::F16,
            4,
            &[1],
            vec![0x3e00, 0xc000, 0x7e01, 0x0001],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        let r = t.at([Coord::Int(0); 3], 1);
        assert_eq!(
            r,
            [
                1.5f32.to_bits(),
                (-2.0f32).to_bits(),
                0x7fff_ffff,
                0x3380_0000
            ]
        );
    }
    #[test]
    fn f16_texture_linear() {
        let t = make(
            ElemType::F16,
            1,
            &[2],
            vec![0x3c00, 0x4000],
            &[Clamp],
            Filter::Linear,
            false,
            None,
        );
        assert_eq!(t.x(1.0), 1.5);
    }
    #[test]
    fn four_channel_border_colour() {
        let t = make(
            ElemType::F32,
            4,
            &[1],
            vec![f(1.0), f(2.0), f(3.0), f(4.0)],
            &[Border],
            Filter::Point,
            false,
            Some([0.5, -0.25, 1e300, 0.1]),
        );
        let r = t.at([Coord::Int(-1), Coord::Int(0), Coord::Int(0)], 1);
        assert_eq!(
            r,
            [
                0.5f32.to_bits(),
                (-0.25f32).to_bits(),
                0x7f80_0000,
                0.1f32.to_bits()
            ]
        );
        let r = t.at([Coord::Int(0); 3], 1);
        assert_eq!(
            r,
            [f(1.0) as u32, f(2.0) as u32, f(3.0) as u32, f(4.0) as u32]
        );
    }
    #[test]
    fn integer_border_colour_saturates() {
        let t = make(
            ElemType::U8,
            2,
            &[1],
            vec![1, 2],
            &[Border],
            Filter::Point,
            false,
            Some([300.0, -5.0, 9.0, 9.0]),
        );
        assert_eq!(
            t.at([Coord::Int(1), Coord::Int(0), Coord::Int(0)], 1),
            [255, 0, 0, 0]
        );
        let t = make(
            ElemType::S16,
            1,
            &[1],
            vec![1],
            &[Border],
            Filter::Point,
            false,
            Some([-7.9, 0.0, 0.0, 0.0]),
        );
        assert_eq!(
            t.at([Coord::Int(1), Coord::Int(0), Coord::Int(0)], 1)[0],
            (-7i32) as u32
        );
    }
    #[test]
    fn integer_texture_linear_falls_back_to_point() {
        let t = make(
            ElemType::U32,
            1,
            &[2],
            vec![10, 20],
            &[Clamp],
            Filter::Linear,
            false,
            None,
        );
        assert_eq!(
            t.at([Coord::Float(1.0), Coord::Int(0), Coord::Int(0)], 1)[0],
            20
        );
        assert_eq!(
            t.at([Coord::Float(0.9), Coord::Int(0), Coord::Int(0)], 1)[0],
            10
        );
        assert!(check_spec(&t.img.spec).is_err());
    }
    #[test]
    fn check_spec_cases() {
        let t = t1(Clamp, Filter::Linear, false);
        assert!(check_spec(&t.img.spec).is_ok());
        let t = make(
            ElemType::F64,
            1,
            &[1],
            vec![0],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert!(check_spec(&t.img.spec).is_err());
        let t = make(
            ElemType::U8,
            3,
            &[1],
            vec![0, 0, 0],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert!(check_spec(&t.img.spec).is_err());
    }
    #[test]
    fn f64_and_64_bit_int_textures() {
        let t = make(
            ElemType::F64,
            1,
            &[1],
            vec![0.1f64.to_bits()],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert_eq!(t.at([Coord::Int(0); 3], 1)[0], 0.1f32.to_bits());
        let t = make(
            ElemType::U64,
            1,
            &[1],
            vec![0x1234_5678_9abc_def0],
            &[Clamp],
            Filter::Point,
            false,
            None,
        );
        assert_eq!(t.at([Coord::Int(0); 3], 1)[0], 0x9abc_def0);
    }

    // ------------------------------------------------ level of detail

    #[test]
    fn every_level_of_detail_reads_the_one_level() {
        let t = make(
            ElemType::F32,
            1,
            &[4, 2],
            (0..8).map(|v| f(v as f32)).collect(),
            &[Clamp, Wrap],
            Filter::Linear,
            false,
            None,
        );
        let c = [Coord::Float(1.75), Coord::Float(0.5), Coord::Float(0.0)];
        let base = fetch_lod(&t.img, &t.img.spec, 0, c, 2, Lod::Base);
        assert_eq!(base, t.at(c, 2));
        for lod in [
            Lod::Level(0.0),
            Lod::Level(5.0),
            Lod::Level(-3.0),
            Lod::Level(f32::NAN),
            Lod::Grad {
                dpdx: [8.0, 0.0, 0.0],
                dpdy: [0.0, f32::INFINITY, 0.0],
            },
        ] {
            assert_eq!(mip_level(&t.img.spec, lod), 0);
            assert_eq!(
                fetch_lod(&t.img, &t.img.spec, 0, c, 2, lod),
                base,
                "{lod:?}"
            );
        }
    }

    #[test]
    fn a_1d_texture_fetched_as_2d_at_y_0_reads_the_1d_texel() {
        // ptxas fetches tex.level.1d / tex.grad.1d as 2D at y = 0
        // (compiler/src/lower/tex_lod.rs); the missing dimension has size 1
        // and clamps, so every mode and filter agrees with the 1D fetch.
        for mode in [Clamp, Wrap, Mirror, Border] {
            for filter in [Filter::Point, Filter::Linear] {
                for norm in [false, true] {
                    let t = make(
                        ElemType::F32,
                        1,
                        &[5],
                        (0..5).map(|v| f(v as f32 - 1.5)).collect(),
                        &[mode],
                        filter,
                        norm,
                        Some([9.0, 0.0, 0.0, 0.0]),
                    );
                    for x in [-1.0f32, -0.25, 0.0, 0.3, 1.5, 2.6, 4.9, 5.5, 7.0] {
                        let c1 = [Coord::Float(x), Coord::Int(0), Coord::Int(0)];
                        let c2 = [Coord::Float(x), Coord::Float(0.0), Coord::Int(0)];
                        assert_eq!(t.at(c1, 1), t.at(c2, 2), "{mode:?} {filter:?} {norm} {x}");
                    }
                }
            }
        }
    }

    // ------------------------------------------------ tld4

    /// 3x3 f32 texture T(x, y) = 10*y + x, 2 channels: (T, -T).
    fn tg(mode: AddressMode) -> T {
        let bits = (0..3)
            .flat_map(|y| {
                (0..3).flat_map(move |x| {
                    let v = (10 * y + x) as f32;
                    [f(v), f(-v)]
                })
            })
            .collect();
        make(
            ElemType::F32,
            2,
            &[3, 3],
            bits,
            &[mode, mode],
            Filter::Point,
            false,
            None,
        )
    }
    fn fl(v: [f32; 4]) -> [u32; 4] {
        v.map(f32::to_bits)
    }

    #[test]
    fn tld4_order_counter_clockwise_from_lower_left() {
        // (1, 1): footprint x 0..1, y 0..1 -> T(0,1), T(1,1), T(1,0), T(0,0)
        let t = tg(Clamp);
        assert_eq!(t.g(0, 1.0, 1.0), fl([10.0, 11.0, 1.0, 0.0]));
        assert_eq!(t.g(0, 2.0, 2.0), fl([21.0, 22.0, 12.0, 11.0]));
        assert_eq!(t.g(0, 2.0, 1.0), fl([11.0, 12.0, 2.0, 1.0]));
    }
    #[test]
    fn tld4_footprint_uses_floor_of_u_minus_half() {
        let t = tg(Clamp);
        // (1.49, 1.51): x 0..1 (floor .99), y 1..2 (floor 1.01)
        assert_eq!(t.g(0, 1.49, 1.51), fl([20.0, 21.0, 11.0, 10.0]));
    }
    #[test]
    fn tld4_second_component() {
        let t = tg(Clamp);
        assert_eq!(t.g(1, 1.0, 1.0), fl([-10.0, -11.0, -1.0, -0.0]));
    }
    #[test]
    fn tld4_missing_component_is_zero() {
        let t = tg(Clamp);
        assert_eq!(t.g(2, 1.0, 1.0), [0; 4]);
        assert_eq!(t.g(3, 1.0, 1.0), [0; 4]);
    }
    #[test]
    fn tld4_clamp_at_edges() {
        let t = tg(Clamp);
        // (0, 3): x -1..0 -> 0, 0; y 2..3 -> 2, 2
        assert_eq!(t.g(0, 0.0, 3.0), fl([20.0, 20.0, 20.0, 20.0]));
        assert_eq!(t.g(0, 3.0, 0.2), fl([2.0, 2.0, 2.0, 2.0]));
    }
    #[test]
    fn tld4_border() {
        let mut t = tg(Border);
        t.img.spec.border_color = Some([7.0, 8.0, 0.0, 0.0]);
        // (0, 0): (-1,0) B, (0,0) T, (0,-1) B, (-1,-1) B
        assert_eq!(t.g(0, 0.0, 0.0), fl([7.0, 0.0, 7.0, 7.0]));
        assert_eq!(t.g(1, 0.0, 0.0), fl([8.0, -0.0, 8.0, 8.0]));
    }
    #[test]
    fn tld4_normalized_wrap() {
        let mut t = tg(Wrap);
        t.img.spec.normalized_coords = true;
        // x = 0 -> u = 0 -> footprint x -1..0 -> wrap 2, 0; y = 0.5 -> v 1.5 -> 1..2
        assert_eq!(t.g(0, 0.0, 0.5), fl([22.0, 20.0, 10.0, 12.0]));
    }
    #[test]
    fn tld4_ignores_filter_mode() {
        let mut t = tg(Clamp);
        t.img.spec.filter = Filter::Linear;
        assert_eq!(t.g(0, 1.0, 1.0), fl([10.0, 11.0, 1.0, 0.0]));
    }

    // ------------------------------------------------ txq

    #[test]
    fn txq_sizes() {
        let t = t1(Clamp, Filter::Point, false);
        assert_eq!(txq(&t.img.spec, TexQuery::Width), 4);
        assert_eq!(txq(&t.img.spec, TexQuery::Height), 0);
        assert_eq!(txq(&t.img.spec, TexQuery::Depth), 0);
        let t = t2(Clamp, Filter::Point);
        assert_eq!(txq(&t.img.spec, TexQuery::Height), 3);
        let t = make(
            ElemType::U8,
            1,
            &[2, 3, 5],
            vec![0; 30],
            &[Clamp; 3],
            Filter::Point,
            false,
            None,
        );
        assert_eq!(
            [TexQuery::Width, TexQuery::Height, TexQuery::Depth].map(|q| txq(&t.img.spec, q)),
            [2, 3, 5]
        );
    }
    #[test]
    fn txq_channel_data_type_opencl_values() {
        let want = [
            (ElemType::S8, 0x10D7),
            (ElemType::S16, 0x10D8),
            (ElemType::S32, 0x10D9),
            (ElemType::U8, 0x10DA),
            (ElemType::U16, 0x10DB),
            (ElemType::U32, 0x10DC),
            (ElemType::F16, 0x10DD),
            (ElemType::F32, 0x10DE),
            (ElemType::F64, 0),
            (ElemType::U64, 0),
        ];
        for (ty, v) in want {
            let t = make(ty, 1, &[1], vec![0], &[Clamp], Filter::Point, false, None);
            assert_eq!(txq(&t.img.spec, TexQuery::ChannelDataType), v, "{ty}");
        }
    }
    #[test]
    fn txq_channel_order_opencl_values() {
        for (ch, v) in [(1, 0x10B0), (2, 0x10B2), (3, 0x10B4), (4, 0x10B5)] {
            let t = make(
                ElemType::U8,
                ch,
                &[1],
                vec![0; ch as usize],
                &[Clamp],
                Filter::Point,
                false,
                None,
            );
            assert_eq!(txq(&t.img.spec, TexQuery::ChannelOrder), v);
        }
    }
    #[test]
    fn txq_sampler_fields() {
        let t = t1(Border, Filter::Linear, true);
        assert_eq!(txq(&t.img.spec, TexQuery::NormalizedCoords), 1);
        assert_eq!(txq(&t.img.spec, TexQuery::FilterMode), 1);
        assert_eq!(txq(&t.img.spec, TexQuery::AddrMode0), 4);
        assert_eq!(txq(&t.img.spec, TexQuery::AddrMode1), 0);
        let t = t1(Clamp, Filter::Point, false);
        assert_eq!(txq(&t.img.spec, TexQuery::NormalizedCoords), 0);
        assert_eq!(txq(&t.img.spec, TexQuery::FilterMode), 0);
        assert_eq!(txq(&t.img.spec, TexQuery::AddrMode0), 3);
    }
    #[test]
    fn txq_addr_modes_wrap_mirror_effective() {
        assert_eq!(
            txq(&t1(Wrap, Filter::Point, true).img.spec, TexQuery::AddrMode0),
            0
        );
        assert_eq!(
            txq(
                &t1(Mirror, Filter::Point, true).img.spec,
                TexQuery::AddrMode0
            ),
            1
        );
        // unnormalized: wrap/mirror act as clamp (clamp_to_edge = 3)
        assert_eq!(
            txq(
                &t1(Wrap, Filter::Point, false).img.spec,
                TexQuery::AddrMode0
            ),
            3
        );
        assert_eq!(
            txq(
                &t1(Mirror, Filter::Point, false).img.spec,
                TexQuery::AddrMode0
            ),
            3
        );
        let mut t = t2(Clamp, Filter::Point);
        t.img.spec.address_mode = vec![Clamp, Border];
        assert_eq!(txq(&t.img.spec, TexQuery::AddrMode1), 4);
        assert_eq!(txq(&t.img.spec, TexQuery::AddrMode2), 0);
    }
    #[test]
    fn txq_not_applicable_is_zero() {
        let t = t2(Clamp, Filter::Point);
        for q in [
            TexQuery::ArraySize,
            TexQuery::NumMipmapLevels,
            TexQuery::NumSamples,
            TexQuery::ForceUnnormalizedCoords,
        ] {
            assert_eq!(txq(&t.img.spec, q), 0, "{q:?}");
        }
    }

    // ------------------------------------------------ helpers

    #[test]
    fn address_function() {
        assert_eq!(address(-1, 4, Clamp), Some(0));
        assert_eq!(address(9, 4, Clamp), Some(3));
        assert_eq!(address(-1, 4, Wrap), Some(3));
        assert_eq!(address(-5, 4, Wrap), Some(3));
        assert_eq!(address(8, 4, Wrap), Some(0));
        assert_eq!(address(-1, 4, Mirror), Some(0));
        assert_eq!(address(-4, 4, Mirror), Some(3));
        assert_eq!(address(-5, 4, Mirror), Some(3));
        assert_eq!(address(7, 4, Mirror), Some(0));
        assert_eq!(address(4, 4, Border), None);
        assert_eq!(address(-1, 4, Border), None);
        assert_eq!(address(i64::MIN, 1, Mirror), Some(0));
        assert_eq!(address(i64::MAX, 3, Wrap), Some((i64::MAX % 3) as u32));
    }
    #[test]
    fn linear_index_exact() {
        // u = 1.0 -> xB .5 -> (0, 128)
        assert_eq!(linear_index(scale(1.0, 1)), (0, 128));
        // u = 0 -> xB -.5 -> (-1, 128)
        assert_eq!(linear_index(scale(0.0, 1)), (-1, 128));
        // tiny u: still (-1, 128)
        assert_eq!(linear_index(scale(f32::from_bits(1), 1)), (-1, 128));
        assert_eq!(linear_index(scale(-f32::from_bits(1), 1)), (-1, 128));
        // normalized: x = .5, N = 3 -> u 1.5 -> (1, 0)
        assert_eq!(linear_index(scale(0.5, 3)), (1, 0));
        // huge coordinates saturate with zero fraction
        assert_eq!(linear_index(scale(1e30, 1)), (INDEX_LIMIT, 0));
        assert_eq!(linear_index(scale(f32::NEG_INFINITY, 1)), (-INDEX_LIMIT, 0));
        // 2^22 + .5 -> xB 2^22 exactly
        assert_eq!(linear_index(scale(4194304.5, 1)), (4194304, 0));
        // 2^23 + .5 is not an f32 (it rounds to 2^23): xB = 2^23 - .5
        assert_eq!(linear_index(scale(8388608.0, 1)), (8388607, 128));
    }
    quickcheck! {
        fn prop_linear_index_matches_f64(x: f32, n: u8) -> bool {
            // for moderate coordinates, f64 arithmetic is exact here
            if !x.is_finite() || x.abs() > 1e6 { return true; }
            let n = u32::from(n.max(1));
            let u = f64::from(x) * f64::from(n);
            let xb = u - 0.5;
            let i = xb.floor();
            let k = ((xb - i) * 256.0 + 0.5).floor();
            linear_index(scale(x, n)) == (i as i64, k as u32)
        }
        fn prop_point_index_matches_f64(x: f32, n: u16) -> bool {
            if !x.is_finite() || x.abs() > 1e12 { return true; }
            let n = u32::from(n.max(1));
            point_index(scale(x, n)) == (f64::from(x) * f64::from(n)).floor() as i64
        }
        fn prop_weighted_sum_matches_f64_when_exact(a: i16, b: i16, k: u8) -> bool {
            // small integers: the exact sum is representable
            let (ta, tb) = ((a as f32).to_bits(), (b as f32).to_bits());
            let w = u32::from(k) << 16; // weights summing to 2^24
            let got = if w == 0 {
                weighted_sum_f32(&[(1 << 24, ta)])
            } else {
                weighted_sum_f32(&[((1 << 24) - w, ta), (w, tb)])
            };
            let want = ((f64::from(a) * f64::from((1u32 << 24) - w) + f64::from(b) * f64::from(w))
                / 16777216.0) as f32;
            got == want.to_bits() || (want == 0.0 && got & 0x7fff_ffff == 0)
        }
        fn prop_weighted_sum_single_rounding(a: u32, b: u32, k: u8) -> bool {
            // compare with an f64 evaluation where that is provably exact:
            // positive normal values whose exponents differ by at most 4.
            // Each product w * m (w < 2^24, m < 2^24) is an integer below
            // 2^48 times 2^(exponent); the sum spans at most 49 + 4 = 53 bits.
            let ea = (a >> 23) & 0xff;
            if !(30..=200).contains(&ea) { return true; }
            let ta = a & 0x7fff_ffff;
            let tb = (b & 0x007f_ffff) | ((ea + (b >> 27) % 5) << 23);
            let w = u32::from(k.max(1)) << 16;
            let got = weighted_sum_f32(&[((1 << 24) - w, ta), (w, tb)]);
            let exact = f64::from(f32::from_bits(ta)) * f64::from((1u32 << 24) - w)
                + f64::from(f32::from_bits(tb)) * f64::from(w);
            got == ((exact / 16777216.0) as f32).to_bits()
        }
    }
}
