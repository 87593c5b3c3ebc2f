//! The reduction passes. A pass looks at a case and proposes edits, in the
//! order it wants them tried; an edit builds a candidate (or nothing when
//! it does not apply). The reducer keeps the first interesting candidate,
//! asks the pass again from the same position, and goes on to the next
//! pass when none is; rounds over every pass repeat to a fixed point.
//!
//! Every edit moves towards a smaller or simpler program under an order
//! that cannot cycle: statements and declarations are only removed,
//! registers are only replaced by constants or by registers declared
//! earlier, constants only move towards 0 and 1, types only narrow,
//! launch dimensions and buffers only shrink. So the fixed point is reached.
//!
//! | file | edits |
//! |---|---|
//! | `delete.rs` | ddmin over statements (chunks of n/2, n/4, ..., 1), and whole `.func`s and module variables |
//! | `decls.rs` | unused register, local and shared declarations; `%r<N>` ranges cut to what is used; unused kernel parameters with their launch values |
//! | `control.rs` | guards removed (a conditional branch becomes unconditional, a predicated instruction unconditional); nested `{ }` blocks merged into their parent |
//! | `operands.rs` | a register operand replaced by 0, 1 or an earlier register of its type |
//! | `immediates.rs` | constants and address offsets moved towards 0 and 1 (loop trip counts shrink this way) |
//! | `types.rs` | a 64-bit register declaration narrowed to 32 bits, with the instructions that use it |
//! | `launch.rs` | grid and block dimensions, buffer lengths and contents, outputs, unused buffers and textures, dynamic shared memory |

pub mod control;
pub mod decls;
pub mod delete;
pub mod immediates;
pub mod launch;
pub mod operands;
pub mod types;

use super::case::Case;

/// One proposed change: the candidate it gives, if it applies.
pub type Edit = Box<dyn Fn(&Case) -> Option<Case> + Send + Sync>;

pub trait Pass: Send + Sync {
    /// For the progress line and the statistics.
    fn name(&self) -> String;
    /// The edits for `c`, in the order to try them.
    fn edits(&self, c: &Case) -> Vec<Edit>;
}

/// The passes of one round for a case of `instructions` instructions.
pub fn round(statements: usize) -> Vec<Box<dyn Pass>> {
    let mut v: Vec<Box<dyn Pass>> = vec![Box::new(launch::Launch), Box::new(delete::DeleteItems)];
    let mut chunk = (statements / 2).max(1);
    loop {
        v.push(Box::new(delete::DeleteStatements { chunk }));
        if chunk == 1 {
            break;
        }
        chunk /= 2;
    }
    v.push(Box::new(decls::UnusedDecls));
    v.push(Box::new(decls::UnusedParams));
    v.push(Box::new(control::Control));
    v.push(Box::new(operands::Operands));
    v.push(Box::new(immediates::Immediates));
    v.push(Box::new(types::NarrowTypes));
    v.push(Box::new(decls::UnusedDecls));
    v
}
