//! Bit-exact semantics of SASS floating-point and conversion instructions
//! for the SM simulator: pure functions on raw bit patterns (`u32` registers,
//! `u64` register pairs) and small decoded modifier values.
//!
//! Every operation delegates its arithmetic to `ptxc::float`, the model the
//! PTX interpreter uses, so the two sides of the differential harness share
//! one definition per operation; this module adds only what is SASS-specific
//! (modifier decoding, operand half selectors and sign modifiers, FCHK, F2I's
//! `.NTZ`, packing, MUFU dispatch).
//!
//! Use: decode once per static instruction with [`decode`] (opcode and
//! modifier strings as `ptxc::ir::sass_text::SassInst` holds them), then per
//! lane read the operands, apply [`HalfSel`] (H* opcodes) and [`SrcMods`]
//! (`-R`, `|R|`), and call the evaluation function of the family:
//!
//! | file | opcodes |
//! |---|---|
//! | `fmods.rs` | modifier decoding: [`decode`] -> [`FloatOp`] |
//! | `src_mods.rs` | `-R`, `|R|`, `-|R|` on 16/32/64-bit and packed values |
//! | `fp32.rs` | FADD FMUL FFMA FMNMX FSETP FSET FCHK FRND |
//! | `fp64.rs` | DADD DMUL DFMA DSETP DMNMX |
//! | `fp16.rs` | HADD2 HMUL2 HFMA2 HSETP2 HSET2 HMNMX2, half selectors |
//! | `convert.rs` | F2F F2I I2F I2FP F2FP FRND (all formats) |
//! | `mufu.rs` | MUFU |
//!
//! Nothing in the evaluation paths allocates; strings appear only in
//! decoding and its errors. "UNCONFIRMED" in the docs marks a choice no
//! available source settles.

pub mod convert;
pub mod fmods;
pub mod fp16;
pub mod fp32;
pub mod fp64;
pub mod mufu;
pub mod src_mods;

#[cfg(test)]
mod test_ref;

pub use fmods::{
    decode, is_float_opcode, ArithMods, BoolOp, F2fMods, F2fpMods, F2iMods, FCmp, FloatOp,
    FrndMods, HalfMods, I2fMods, MnmxMods, MufuOp, SetMods, SetpMods,
};
pub use fp16::{select_halves, HalfSel};
pub use src_mods::SrcMods;
