//! The nvopt passes, one file each, named after seed 003's passes where
//! the job is the same. Every pass works on one lifted function
//! ([`super::ir::Function`]) and says whether it changed it.

pub mod dce;
pub mod early_cse;
pub mod inst_combine;
pub mod licm;
pub mod loop_index_split;
pub mod loop_simplify;
pub mod loop_unroll;
pub mod loop_util;
pub mod nvvm_peephole;
pub mod reassociate;
pub mod remat;
pub mod sccp;
pub mod simplify_cfg;
pub mod sink;
pub mod sinking2;
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
        "loop-simplify" => Box::new(loop_simplify::LoopSimplify),
        "loop-unroll" => Box::new(loop_unroll::LoopUnroll::default()),
        "loop-index-split" => Box::new(loop_index_split::LoopIndexSplit),
        "reassociate" => Box::new(reassociate::Reassociate),
        "sink" => Box::new(sink::Sink),
        "sinking2" => Box::new(sinking2::Sinking2),
        "remat" => Box::new(remat::Remat::default()),
        "nvvm-peephole-optimizer" => Box::new(nvvm_peephole::NvvmPeephole),
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
    "loop-simplify",
    "loop-unroll",
    "loop-index-split",
    "reassociate",
    "sink",
    "sinking2",
    "remat",
    "nvvm-peephole-optimizer",
];

#[cfg(test)]
mod tests;
#[cfg(test)]
mod loop_tests;
