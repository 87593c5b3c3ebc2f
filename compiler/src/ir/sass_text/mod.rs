//! The text layer for NVIDIA SASS as printed by `cuobjdump -sass` (ptxas
//! 11.8, sm_70..sm_90).
//!
//! [`parse_file`] turns a cuobjdump listing into [`SassFile`]: functions made
//! of [`SassInst`]s with their addresses, guards, mnemonics (kept as strings:
//! this layer is opcode-agnostic; a later opcode table validates them), dotted
//! modifiers and structured [`SassOperand`]s. [`print_file`],
//! [`print_function`] and the [`std::fmt::Display`] impls print them back in
//! cuobjdump's spelling; the instruction text round-trips exactly (column
//! padding is cuobjdump's default, but not guaranteed identical).
//!
//! Recognized header lines: blank, `Fatbin ... code:`, `code for sm_NN`,
//! `Function : NAME`, `.headerflags ...`, and separator lines made only of
//! `=` or `.`. The two encoding comments (`/* 0x... */`) of an instruction are
//! kept as its 128-bit encoding; encoding pairs with no instruction text
//! (cuobjdump 11.8 prints some sm_90 opcodes that way) become
//! [`UndecodedInst`]s.
//!
//! Two extensions serve the compiler's IR, which prints through this layer:
//! virtual registers (`%r12`, `%ur3`, `%p4`, `%up1`) and labels (`.L_x_3`
//! operands, and `.L_x_3:` lines before the instruction they name, in
//! nvdisasm's spelling).
//!
//! Errors carry a 1-based line and byte column; no input makes the parser
//! panic.

mod float_imm;
mod lexer;
mod operand;
mod parse;
mod print;

pub use float_imm::{float_imm_bits, FloatImmError, FloatImmType};
pub use operand::{ConstRef, MemBase, MemRef, Pred, Reg, RegOperand, SassOperand, MAX_VIRTUAL};
pub use parse::{parse_file, parse_inst};
pub use print::{print_file, print_function};

/// A parse error at a 1-based line and byte column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassError {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl std::fmt::Display for SassError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}

impl std::error::Error for SassError {}

/// One `cuobjdump -sass` listing: one `code for sm_NN` section.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SassFile {
    /// `sm_80` from `code for sm_80`, if the header was present.
    pub arch: Option<String>,
    pub functions: Vec<SassFunction>,
}

/// One `Function : NAME` block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SassFunction {
    pub name: String,
    /// The text after `.headerflags`, e.g. `@"EF_CUDA_SM80 ..."`.
    pub header_flags: Option<String>,
    pub insts: Vec<SassInst>,
    /// Slots that cuobjdump printed as encodings only, with no instruction
    /// text (it lacks text for some sm_90 opcodes), in address order.
    pub undecoded: Vec<UndecodedInst>,
}

/// An instruction slot with an encoding but no text in the listing. Its
/// address is inferred: 0x10 after the slot before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UndecodedInst {
    pub addr: u32,
    /// The 128-bit encoding: the first `/* 0x... */` word is the low half.
    pub encoding: u128,
    /// A `.L_x_N:` label line before the slot (see [`SassInst::label`]).
    pub label: Option<u32>,
}

/// A guard predicate `@P0` / `@!P0` (also `@PT`, `@UP0`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub pred: Pred,
    pub negated: bool,
}

/// One instruction: `/*addr*/ [@[!]Pn] OPCODE[.MOD]* [operand, ...] ;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SassInst {
    /// The byte address from the `/*0040*/` comment (0 from [`parse_inst`]).
    pub addr: u32,
    pub guard: Option<Guard>,
    /// The mnemonic without modifiers, e.g. `ISETP`.
    pub opcode: String,
    /// The dotted modifiers in order, e.g. `["GE", "U32", "AND"]`.
    pub mods: Vec<String>,
    pub operands: Vec<SassOperand>,
    /// The 128-bit encoding from the two `/* 0x... */` comments (the first
    /// is the low half), when the text came with them.
    pub encoding: Option<u128>,
    /// Control codes written as a `/*ctrl ...*/` comment after the `;`
    /// (the IR's printout of compiler-made instructions; see
    /// [`crate::ir::control`]). cuobjdump never prints one.
    pub control: Option<crate::ir::control::Control>,
    /// A `.L_x_N:` label line before the instruction (the compiler's IR
    /// prints one per basic block; cuobjdump prints none).
    pub label: Option<u32>,
    /// nvdisasm's `(*"..."*)` annotation after the operands, e.g.
    /// `BRANCH_TARGETS .L_x_10,.L_x_3` on a `BRX`.
    pub annotation: Option<String>,
}
