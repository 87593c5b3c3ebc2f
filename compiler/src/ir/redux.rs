//! `redux.sync`'s integer operations as REDUX's modifiers spell them: the
//! lowering of `redux.sync` (lower/warp_sync.rs) picks one, and phase 5
//! ConvertUnsupportedOps expands a REDUX with it where the target lacks
//! the opcode. It lives in the IR so that neither depends on the other.

use super::Inst;

/// `redux.sync`'s integer operations, as REDUX's modifiers spell them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl ReduxOp {
    /// The REDUX modifier; AND is REDUX's default and prints without one
    /// (ptxas 11.8, sm_80: `redux.sync.and.b32` is `REDUX UR6, R0`).
    pub fn sass(self) -> Option<&'static str> {
        Some(match self {
            ReduxOp::Add => "SUM",
            ReduxOp::Min => "MIN",
            ReduxOp::Max => "MAX",
            ReduxOp::And => return None,
            ReduxOp::Or => "OR",
            ReduxOp::Xor => "XOR",
        })
    }

    /// The operation of a REDUX instruction (from its modifiers).
    pub fn of_inst(i: &Inst) -> ReduxOp {
        [
            ReduxOp::Add,
            ReduxOp::Min,
            ReduxOp::Max,
            ReduxOp::Or,
            ReduxOp::Xor,
        ]
        .into_iter()
        .find(|o| o.sass().is_some_and(|m| i.has_mod(m)))
        .unwrap_or(ReduxOp::And)
    }

    /// The start value of the member loop (the operation's identity).
    pub fn identity(self, signed: bool) -> i64 {
        match (self, signed) {
            (ReduxOp::And, _) | (ReduxOp::Min, false) => -1,
            (ReduxOp::Min, true) => i64::from(i32::MAX),
            (ReduxOp::Max, true) => i64::from(i32::MIN),
            _ => 0,
        }
    }
}
