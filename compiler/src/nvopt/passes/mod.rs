//! The nvopt passes, one file each, named after seed 003's passes where
//! the job is the same. Every pass works on one lifted function
//! ([`super::ir::Function`]) and says whether it changed it.

pub mod dce;
pub mod dse;
pub mod early_cse;
pub mod gvn;
pub mod inst_combine;
pub mod licm;
pub mod memory_space_opt;
pub mod sccp;
pub mod simplify_cfg;
pub mod sroa;
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
        "memory-space-opt" => Box::new(memory_space_opt::MemorySpaceOpt),
        "sroa" => Box::new(sroa::Sroa),
        "dse" => Box::new(dse::Dse),
        "gvn" => Box::new(gvn::Gvn),
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
    "memory-space-opt",
    "sroa",
    "dse",
    "gvn",
];

/// Parses a pass's `<...>` parameters (`--passes=`): the passes that take
/// parameters check them; any other pass takes none.
pub fn parse_params(name: &str, text: &str) -> Result<Vec<String>, String> {
    match name {
        "memory-space-opt" => memory_space_opt::parse_params(text),
        _ => Err(format!(
            "--passes: pass '{name}' takes no parameters, got '<{text}>'"
        )),
    }
}

#[cfg(test)]
mod mem_tests;
#[cfg(test)]
mod tests;
