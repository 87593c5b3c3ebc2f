//! OriCheckInitialProgram (phase 0): the IR verifier ([`crate::ir::verify`])
//! on the program the lowering produced, before phase 5
//! ConvertUnsupportedOps: the opcodes that phase expands are accepted on
//! every target (`VerifyOptions::before_conversion`).

use super::phase::{Phase, PhaseContext, PhaseError};

pub struct CheckInitialProgram {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for CheckInitialProgram {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let opts = crate::ir::verify::VerifyOptions {
            before_conversion: true,
            ..Default::default()
        };
        crate::ir::verify::verify_with(&cx.function, cx.sm, opts).map_err(|e| PhaseError {
            phase: self.name(),
            message: format!("the initial program is invalid: {e}"),
        })
    }
}
