//! OriCheckInitialProgram (phase 0): the IR verifier ([`crate::ir::verify`])
//! on the program the lowering produced.

use super::phase::{Phase, PhaseContext, PhaseError};

pub struct CheckInitialProgram;

impl Phase for CheckInitialProgram {
    fn index(&self) -> u16 {
        super::table::CHECK_INITIAL
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        crate::ir::verify(&cx.function, cx.sm).map_err(|e| PhaseError {
            phase: self.name(),
            message: format!("the initial program is invalid: {e}"),
        })
    }
}
