//! The nvopt passes, one file each, named after seed 003's passes where
//! the job is the same. A function pass ([`Pass`]) works on one lifted
//! function ([`super::ir::Function`]), a module pass
//! ([`module::ModulePass`]) on the whole module; each says whether it
//! changed something.

pub mod dce;
pub mod dead_arg_elim;
pub mod early_cse;
pub mod inline;
pub mod inst_combine;
pub mod ip_const_prop;
pub mod licm;
pub mod module;
pub mod sccp;
pub mod simplify_cfg;
pub mod util;

use super::ir::Function;

/// A function pass.
pub trait Pass: Send + Sync {
    /// The pass name in pipeline text (`--passes=`), e.g. `simplifycfg`.
    fn name(&self) -> &'static str;
    /// Runs on one function; true when it changed something.
    fn run(&self, f: &mut Function) -> bool;
}

/// Every implemented pass, by its pipeline name: the one place a name maps
/// to a pass.
pub fn by_name(name: &str) -> Option<Box<dyn Pass>> {
    Some(match name {
        "simplifycfg" => Box::new(simplify_cfg::SimplifyCfg),
        "dce" => Box::new(dce::Dce),
        "adce" => Box::new(dce::Adce),
        "instcombine" => Box::new(inst_combine::InstCombine),
        "sccp" => Box::new(sccp::Sccp),
        "early-cse" => Box::new(early_cse::EarlyCse),
        "licm" => Box::new(licm::Licm),
        _ => return None,
    })
}

/// The pipeline names of every implemented pass.
pub const NAMES: &[&str] = &[
    "simplifycfg",
    "dce",
    "adce",
    "instcombine",
    "sccp",
    "early-cse",
    "licm",
    "always-inline",
    "inline",
    "ipconstprop",
    "deadargelim",
    "globaldce",
];

/// Every implemented module pass ([`module::ModulePass`]), by its
/// pipeline name; their names are in [`NAMES`] too.
pub fn module_by_name(name: &str) -> Option<Box<dyn module::ModulePass>> {
    Some(match name {
        "always-inline" => Box::new(inline::AlwaysInliner),
        "inline" => Box::new(inline::Inliner),
        "ipconstprop" => Box::new(ip_const_prop::IpConstProp),
        "deadargelim" => Box::new(dead_arg_elim::DeadArgElim),
        "globaldce" => Box::new(module::GlobalDce),
        _ => return None,
    })
}

/// Whether a pipeline name is a module pass (AddPass records it with the
/// module kind and the barrier bit).
pub fn is_module_pass(name: &str) -> bool {
    module_by_name(name).is_some()
}

#[cfg(test)]
mod module_tests;
#[cfg(test)]
mod tests;
