//! The IR a target executes straight after lowering: the lowering, then
//! phase 5 ConvertUnsupportedOps (which replaces the opcodes the target
//! lacks). The lowering does not run phases itself (a layer rule of
//! docs/ARCHITECTURE.md); tools and tests that simulate lowered IR
//! directly call this.

use crate::lower::{lower_module, LowerError, LowerOptions, LoweredKernel};
use crate::phases::convert_unsupported;
use crate::ptx::ast::Module;
use crate::ptx::Span;
use crate::targets::SmInfo;

/// [`lower_module`], then phase 5 ConvertUnsupportedOps on each kernel:
/// the IR as the target can execute it (what the pipeline has after phase
/// 5 when phases 1..=4 change nothing). For tests and tools that simulate
/// lowered IR directly; the driver's own pipeline lowers with
/// [`lower_module`] and runs the phase among the others.
pub fn lower_target(
    m: &Module,
    sm: &'static SmInfo,
    opts: &LowerOptions,
) -> Result<Vec<LoweredKernel>, LowerError> {
    let mut ks = lower_module(m, sm, opts)?;
    for k in &mut ks {
        convert_unsupported::convert(&mut k.function, sm).map_err(|e| {
            LowerError::new(
                Span::DUMMY,
                format!("{}: ConvertUnsupportedOps: {e}", k.name),
            )
        })?;
    }
    Ok(ks)
}
