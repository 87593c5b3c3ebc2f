//! EmitSassListing (phase 157): the final emission, the IR as a SASS
//! function ([`crate::ir::to_sass`], with labels). The driver adds the
//! header flags and its comment line and prints it.

use super::phase::{Phase, PhaseContext, PhaseError};

pub struct EmitSassListing {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for EmitSassListing {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let sf = crate::ir::to_sass(&cx.function, true).map_err(|e| PhaseError {
            phase: self.name(),
            message: e.to_string(),
        })?;
        cx.listing = Some(sf);
        Ok(())
    }
}
