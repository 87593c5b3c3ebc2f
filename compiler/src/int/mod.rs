//! Bit-exact integer semantics shared by the PTX reference interpreter, the SASS simulator and
//! the compiler's constant folding (the scalar phases' `fold.rs`, NvOpt's SCCP and the loop
//! passes that evaluate through it): one definition of each integer rule, so that what the compiler folds, what the
//! simulator executes and what the interpreter computes cannot drift apart.
//!
//! The functions are pure: integers in, integers out, no dependency on any other `ptxc` module.
//! Decoding stays with the callers: the interpreter decodes PTX types and modifiers, the
//! simulator decodes SASS opcodes, modifiers and source modifiers (`-x`, `~x`, `|x|`, `.X`);
//! both then call the same arithmetic here.
//!
//! # Layout
//!
//! | file | job |
//! |---|---|
//! | `ty.rs` | [`IntTy`] (width and signedness), [`trunc`], [`sext`] |
//! | `arith.rs` | add, sub, mul, mad, mul24, mad24, sad, div, rem, abs, neg, min, max |
//! | `packed.rs` | the `x2`/`x4` lane forms of add, sub, neg, min, max |
//! | `sat.rs` | saturation ([`saturate`], `.sat` of add, sub, mad.hi, mad24.hi) |
//! | `carry.rs` | carries: [`sum_with_carry`], add.cc/addc, sub.cc/subc, mad.cc |
//! | `bits.rs` | popc, clz, bfind (SASS `FLO`), fns, brev, bfe, bfi, szext (`SGXT`), bmsk (`BMSK`) |
//! | `dot.rs` | dp4a, dp2a |
//! | `logic.rs` | and, or, xor, not, cnot, lop3 (`LOP3`, `PLOP3`), prmt (`PRMT`) |
//! | `shift.rs` | shl, shr (clamped amounts), the funnel shift of `shf` and `SHF` |
//! | `cmp.rs` | the integer comparisons of setp/set/slct |
//!
//! # Conventions, shared by every function here
//!
//! * A value is a `u64` carrying the operand's bits in its low `t.bits` bits. Upper bits of inputs
//!   are ignored; results are returned zero-extended (upper bits 0) unless a function says
//!   otherwise. Functions whose PTX destination is `.u32` whatever the source type (`popc`, `clz`,
//!   `bfind`) return that 32-bit value in a `u64`.
//! * Instructions that only exist on 32-bit registers (`prmt`, `shf`, `lop3`, `fns`, `bmsk`,
//!   `szext`, `dp4a`, `dp2a`, the packed `x2`/`x4` forms) take and return `u32`.
//! * No function panics for any input. Widths outside 1..=64 are clamped into that range.
//! * Section numbers cite the PTX ISA (docs.nvidia.com/cuda/parallel-thread-execution) as
//!   numbered in PTX ISA 9.1: 9.7.1 "Integer Arithmetic Instructions" (anchors
//!   `#integer-arithmetic-instructions-<op>`), 9.7.2 "Extended-Precision Integer Arithmetic
//!   Instructions" (`#extended-precision-arithmetic-instructions-<op>`), 9.7.8 "Logic and Shift
//!   Instructions" (`#logic-and-shift-instructions-<op>`), 9.7.9.7 "Data Movement and Conversion
//!   Instructions: prmt" (`#data-movement-and-conversion-instructions-prmt`). Older ISA versions
//!   number some of these one lower (PTX 8.1: logic 9.7.7.x, prmt 9.7.8.7); the anchors are
//!   stable.
//! * Where a SASS instruction is the same operation as a PTX one (`LOP3.LUT` and `lop3`, `PRMT`
//!   and `prmt`, `FLO` and `bfind`, `SGXT` and `szext`, `BMSK` and `bmsk`, `SHF` and `shf`),
//!   the PTX rule is the definition and the simulator maps the SASS modifiers onto it (`.W` is
//!   `.wrap`, no `.W` is `.clamp`, `FLO.SH` is `.shiftamt`); docs/SEMANTICS.md lists these
//!   choices with their sources.

mod arith;
mod bits;
mod carry;
mod cmp;
mod dot;
mod logic;
mod packed;
mod sat;
mod shift;
mod ty;

pub use arith::*;
pub use bits::*;
pub use carry::*;
pub use cmp::*;
pub use dot::*;
pub use logic::*;
pub use packed::*;
pub use sat::*;
pub use shift::*;
pub use ty::{sext, trunc, IntTy};

#[cfg(test)]
mod tests;
