//! Kernel launch specs (`*.launch.json`) and expected results
//! (`*.expected.json`), as specified in `LAUNCH_SPEC.md` (kept in the shared
//! folder next to the kernel corpus), with the readings of
//! `corpus/kernels/README.md` ("Reading of the launch spec used here").
//!
//! One spec drives every runner (PTX interpreter, SASS simulator,
//! differential engine, reducer), so everything a runner needs to set up a
//! launch and judge its outcome lives here:
//!
//! | file | job |
//! | --- | --- |
//! | `json.rs` | a strict JSON reader that keeps positions (for `line:col`) and number text (for exact integers and correctly rounded floats) |
//! | `error.rs` | [`LaunchError`]: file, `line:col`, field path, message |
//! | `types.rs` | [`ElemType`] (`u8` … `f64`, `b8` … `b64` aliases) |
//! | `float.rs` | element bits ↔ values (the f16 rounding is `ptxc::float`'s), value formatting |
//! | `splitmix.rs` | [`splitmix64`] as the spec writes it |
//! | `spec/` | [`LaunchSpec`] and its parts, the JSON field reader, parsing and validation, writing |
//! | `init.rs` | the `init` kinds: zeros, iota, values, bits, random, special_mix |
//! | `limits.rs` | what a launch may ask of the runners (local, shared, module variables) |
//! | `layout.rs` | buffer placement ([`GlobalLayout`]) and initial memory ([`MemoryImage`]) |
//! | `params.rs` | parameter-space encoding against the kernel's declarations |
//! | `surface.rs` | surface descriptions, handles and initial contents (this project's extension) |
//! | `texture.rs` | texture descriptions, handles and initial texels |
//! | `expected.rs` | [`OutputSet`]: `*.expected.json` reading and writing, output extraction |
//! | `compare.rs` | the compare rules (bitwise, `nan: any`, `ulps: n`) and mismatch reports |
//!
//! Nothing in this module panics on any input: every problem in a spec or an
//! expected file is a [`LaunchError`] that names the file, the position and the
//! field (for example `params[2]: unknown buffer 'q'`).
//!
//! Why not `serde_json`: without its `float_roundtrip` feature (not enabled in
//! this workspace) `serde_json` parses decimal floats with a fast path that is
//! not correctly rounded (a test in `json.rs` shows such a case), and a launch
//! spec's values must become exactly the f64 nearest to the decimal text. The
//! reader in `json.rs` also gives every value its position, so errors found
//! after parsing (an unknown buffer name) still point at `line:col`.

mod compare;
pub(crate) mod error;
mod expected;
mod float;
mod init;
pub(crate) mod json;
mod layout;
pub mod limits;
mod params;
mod spec;
mod splitmix;
mod surface;
mod texture;
mod types;

pub use compare::{compare, summarize, ulp_distance, values_match, Mismatch, MismatchDetail};
pub use error::{ErrorKind, LaunchError};
pub use expected::{extract_outputs, BufferBits, OutputSet};
pub use float::{bits_to_f64, f16_bits_to_f64, f64_to_bits, f64_to_f16_bits, format_value, is_nan};
pub use init::{element_bits, init_bits, init_bytes};
pub use layout::{
    BufferPlacement, GlobalLayout, MemoryImage, BUFFER_ALIGN, GLOBAL_BASE, GLOBAL_LIMIT,
    GUARD_BYTES,
};
pub use params::{encode_params, AddressSize, ParamBlock, ParamDecl};
pub use spec::{BufferSpec, CompareRule, Init, LaunchSpec, NanRule, ParamValue, Scalar};
pub use splitmix::splitmix64;
pub use surface::{SurfaceImage, SurfaceSpec, SURFACE_HANDLE_BASE, SURFACE_HANDLE_MASK};
pub use texture::{
    AddressMode, Filter, TextureImage, TextureSpec, MAX_TEXTURE_LAYERS, TEXTURE_HANDLE_BASE,
    TEXTURE_HANDLE_MASK,
};
pub use types::ElemType;
