//! Machine-level intermediate forms of the compiler.
//!
//! [`sass_text`] is the text layer for NVIDIA SASS as printed by
//! `cuobjdump -sass`: a parser into a structured, opcode-agnostic assembly
//! form and a printer back to cuobjdump's spelling.

pub mod sass_text;
