//! The reducer (issue 9): shrinks a finding to a minimal PTX program that
//! still shows the same bug, without ever leaving the space of defined
//! programs.
//!
//! | file | job |
//! |---|---|
//! | `case.rs` | [`Case`] (module AST + launch spec), statement paths, name uses, register types, [`Size`] |
//! | `predicate.rs` | [`Predicate`] and [`Target`]: the validity check (parses, validates, runs UB-free within fuel in the oracle), then same-signature / mismatch / crash / an external script |
//! | `passes/` | the edits: ddmin deletion, declarations and parameters, guards and blocks, operands, constants, the launch |
//! | `reducer.rs` | the fixed-point loop, parallel and deterministic, with the progress line |
//! | `finding.rs` | reading a finding directory into a case and a target; writing the result beside it |
//! | `cvise.rs` | the interestingness script for C-Vise |

pub mod case;
pub mod cvise;
pub mod finding;
pub mod passes;
pub mod predicate;
pub mod reducer;

pub use case::{Case, Size};
pub use predicate::{Judgement, Predicate, Target};
pub use reducer::{reduce, Options, Reduction};
