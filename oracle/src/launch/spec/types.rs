//! The launch spec's types: [`LaunchSpec`] and its parts, and the
//! questions a runner asks of a spec (dimensions, outputs); reading is
//! `parse.rs`, writing `write.rs`.

use std::path::{Path, PathBuf};

use super::super::error::LaunchError;
use super::super::surface::SurfaceSpec;
use super::super::texture::TextureSpec;
use super::super::types::ElemType;
use super::fields::read_text;
use super::parse::parse_spec;
use super::write::write_spec;

/// A number as the spec means it for one element type: an exact integer for
/// integer types, an f64 (the one nearest to the decimal text) for floats.
#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    Int(i128),
    Float(f64),
}

impl PartialEq for Scalar {
    /// Floats compare by bits (so -0.0 != 0.0 and a spec round trip is exact).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Scalar::Int(a), Scalar::Int(b)) => a == b,
            (Scalar::Float(a), Scalar::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

/// The initial contents of a buffer or texture (LAUNCH_SPEC.md, "Initial
/// contents"). Numbers are already checked against the element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// `"zeros"`
    Zeros,
    /// `{"iota": {"start": s, "step": d}}`: element i is `s + i*d`.
    Iota { start: Scalar, step: Scalar },
    /// `{"values": [...]}`: exactly `len` numbers.
    Values(Vec<Scalar>),
    /// `{"bits": ["0x…", ...]}`: exactly `len` raw patterns.
    Bits(Vec<u64>),
    /// `{"random": {"seed": n, "min": a, "max": b}}`; `range` is `(a, b)`.
    Random {
        seed: u64,
        range: Option<(Scalar, Scalar)>,
    },
    /// `{"special_mix": {"seed": n}}` (floats only).
    SpecialMix { seed: u64 },
}

/// One entry of `params`.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// `{"<type>": number}`
    Scalar { ty: ElemType, value: Scalar },
    /// `{"type": "<type>", "bits": "0x…"}`
    Bits { ty: ElemType, bits: u64 },
    /// `{"buffer": "name", "offset": bytes}` (offset 0 when absent)
    Buffer { name: String, offset: u64 },
    /// `{"texture": "name"}`
    Texture { name: String },
    /// `{"surface": "name"}`: the surface's handle, a `.u64` (this
    /// project's extension, LAUNCH_SPEC.md "Surfaces")
    Surface { name: String },
}

/// One entry of `buffers`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    pub name: String,
    pub ty: ElemType,
    pub len: u64,
    pub init: Init,
}

impl BufferSpec {
    /// Size in bytes (`len * element size`).
    pub fn byte_len(&self) -> u64 {
        self.len.saturating_mul(self.ty.size() as u64)
    }
}

/// `compare.nan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NanRule {
    /// every output bit for bit (the default)
    #[default]
    Bitwise,
    /// any NaN equals any NaN
    Any,
}

/// `compare`: `{"nan": "bitwise" | "any", "ulps": n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CompareRule {
    pub nan: NanRule,
    /// float elements may differ by up to this many units in the last place
    pub ulps: u64,
}

/// A launch spec (`*.launch.json`).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSpec {
    /// The file it was read from, if any (used in error messages).
    pub file: Option<PathBuf>,
    /// The folder `ptx` is relative to (the spec file's folder).
    pub base_dir: PathBuf,
    /// `ptx`: the module, relative to the spec file. Optional: "A command
    /// line may name the module instead."
    pub ptx: Option<String>,
    /// `kernel`: the `.entry` to launch.
    pub kernel: String,
    /// `grid` as written, 1 to 3 dimensions; see [`LaunchSpec::grid`].
    pub grid_dims: Vec<u32>,
    /// `block` as written, 1 to 3 dimensions; see [`LaunchSpec::block`].
    pub block_dims: Vec<u32>,
    pub params: Vec<ParamValue>,
    /// `buffers` in the order written (names are unique).
    pub buffers: Vec<BufferSpec>,
    /// `textures` in the order written (names are unique).
    pub textures: Vec<TextureSpec>,
    /// `surfaces` in the order written (names are unique among buffers and
    /// surfaces); this project's extension (LAUNCH_SPEC.md, "Surfaces").
    pub surfaces: Vec<SurfaceSpec>,
    /// `outputs` as written; `None` when missing (= all buffers and
    /// surfaces).
    pub outputs: Option<Vec<String>>,
    pub dynamic_shared_bytes: u32,
    pub compare: CompareRule,
}

fn dims3(d: &[u32]) -> [u32; 3] {
    // "missing dimensions are 1"
    let mut out = [1u32; 3];
    for (o, v) in out.iter_mut().zip(d) {
        *o = *v;
    }
    out
}

impl LaunchSpec {
    /// Reads and validates a spec file; `ptx` is taken relative to its folder.
    pub fn from_file(path: impl AsRef<Path>) -> Result<LaunchSpec, LaunchError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        let base = path.parent().unwrap_or_else(|| Path::new(""));
        parse_spec(&text, base)
            .map_err(|e| e.with_file(Some(path)))
            .map(|mut s| {
                s.file = Some(path.to_path_buf());
                s
            })
    }

    /// Reads and validates a spec from text; `ptx` is relative to `base_dir`.
    pub fn from_json_str(
        text: &str,
        base_dir: impl AsRef<Path>,
    ) -> Result<LaunchSpec, LaunchError> {
        parse_spec(text, base_dir.as_ref())
    }

    /// Grid size in CTAs, `[x, y, z]`, missing dimensions 1.
    pub fn grid(&self) -> [u32; 3] {
        dims3(&self.grid_dims)
    }

    /// Threads per CTA, `[x, y, z]`, missing dimensions 1.
    pub fn block(&self) -> [u32; 3] {
        dims3(&self.block_dims)
    }

    /// Threads in one CTA.
    pub fn threads_per_block(&self) -> u64 {
        self.block().iter().map(|&d| u64::from(d)).product()
    }

    /// CTAs in the grid.
    pub fn block_count(&self) -> u64 {
        self.grid().iter().map(|&d| u64::from(d)).product()
    }

    /// The module's path (`base_dir` joined with `ptx`), if `ptx` is given.
    pub fn ptx_path(&self) -> Option<PathBuf> {
        self.ptx.as_ref().map(|p| self.base_dir.join(p))
    }

    pub fn buffer(&self, name: &str) -> Option<&BufferSpec> {
        self.buffers.iter().find(|b| b.name == name)
    }

    pub fn texture(&self, name: &str) -> Option<&TextureSpec> {
        self.textures.iter().find(|t| t.name == name)
    }

    /// The buffers (and surfaces) compared after the run: `outputs` in the
    /// order written, or, when `outputs` is missing, every buffer ("Missing
    /// means all buffers") and every surface (Decision: surfaces are
    /// kernel-written memory like buffers), in name order (Decision: name
    /// order, as for placement).
    pub fn output_names(&self) -> Vec<&str> {
        match &self.outputs {
            Some(o) => o.iter().map(String::as_str).collect(),
            None => {
                let mut v: Vec<&str> = self.buffers.iter().map(|b| b.name.as_str()).collect();
                v.extend(self.surfaces.iter().map(|s| s.name.as_str()));
                v.sort_unstable();
                v
            }
        }
    }

    /// Checks a spec built or changed in code by the same rules as a file
    /// (it is written out and read back, so the messages are the reader's).
    pub fn validate(&self) -> Result<(), LaunchError> {
        parse_spec(&self.to_json_string(), &self.base_dir)
            .map(|_| ())
            .map_err(|e| e.with_file(self.file.as_deref()))
    }

    /// The spec as JSON, in the layout of the corpus files (one param and
    /// one buffer per line). Reading it back gives an equal spec.
    pub fn to_json_string(&self) -> String {
        write_spec(self)
    }
}
