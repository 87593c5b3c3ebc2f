//! The launch spec: its types, reading with validation, and writing.
//!
//! Every field of LAUNCH_SPEC.md is read here. Choices the spec leaves open
//! are marked "Decision:" next to the code that makes them.
//!
//! | file | job |
//! | --- | --- |
//! | `types.rs` | [`LaunchSpec`] and its parts |
//! | `fields.rs` | the JSON field reader: typed values, field paths, `line:col` |
//! | `parse.rs` | reading and validating a spec |
//! | `image.rs` | reading textures and surfaces |
//! | `write.rs` | writing a spec as JSON |

mod fields;
mod image;
mod parse;
#[cfg(test)]
mod tests;
mod types;
mod write;

pub(super) use fields::{elem_type, idx, read_text, sub, Ctx};
pub use types::{BufferSpec, CompareRule, Init, LaunchSpec, NanRule, ParamValue, Scalar};
pub(super) use write::hex_text;
