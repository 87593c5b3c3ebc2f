//! EmitSassListing (phase 157): the final emission, the IR as a SASS
//! function ([`crate::ir::to_sass`], with labels). The driver adds the
//! header flags and its comment line and prints it.

use super::phase::{Phase, PhaseContext, PhaseError};

pub struct EmitSassListing;

impl Phase for EmitSassListing {
    fn index(&self) -> u16 {
        super::table::EMIT
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
