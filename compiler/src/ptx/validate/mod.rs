//! Validation: module rules (versions, targets, address size, duplicate
//! definitions) and, per instruction, modifiers, types and operand shapes.
//! Rules cite the PTX ISA section they come from; the target facts come from
//! the SM table in `crate::targets`.

mod control;
mod data;
mod float;
mod int;
mod logic;
mod module;
mod operands;
mod scope;
mod sizes;
mod sync;
mod tex;

use super::ast::*;
use super::diag::Diagnostic;
use crate::targets::PtxVersion;

/// What the module declares about its target, needed by every rule.
#[derive(Clone, Copy)]
pub(crate) struct TargetCtx {
    pub ptx: PtxVersion,
    pub sm: u32,
    pub addr64: bool,
}

/// Validates a parsed module; returns the diagnostics (errors and warnings).
pub fn validate(m: &Module) -> Vec<Diagnostic> {
    validate_for(m, None)
}

/// Validates for a compile target given on the command line (`-arch`).
pub fn validate_for(m: &Module, arch: Option<&'static crate::targets::SmInfo>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let target = module::check_module(m, &mut diags);
    if let Some(a) = arch {
        module::check_arch(m, a, &mut diags);
    }
    sizes::check_sizes(m, &mut diags);
    let globals = module::collect_globals(m, &mut diags);
    for f in m.functions() {
        scope::check_function(m, f, &globals, target, &mut diags);
    }
    diags.sort_by_key(|d| d.span.lo);
    diags
}
