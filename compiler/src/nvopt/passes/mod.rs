//! The nvopt passes, one file each, named after cicc's passes (docs/MODEL.md, NvOpt pipelines) where
//! the job is the same. A function pass ([`Pass`]) works on one lifted
//! function ([`super::ir::Function`]), a module pass
//! ([`module::ModulePass`]) on the whole module; each says whether it
//! changed something.

pub mod dce;
pub mod dead_arg_elim;
pub mod dse;
pub mod early_cse;
pub mod gvn;
pub mod inline;
pub mod inst_combine;
pub mod ip_const_prop;
pub mod licm;
pub mod loop_index_split;
pub mod loop_simplify;
pub mod loop_unroll;
pub mod loop_util;
pub mod memory_space_opt;
pub mod module;
pub mod numbering;
pub mod nvvm_peephole;
pub mod reassociate;
pub mod remat;
pub mod sccp;
pub mod simplify_cfg;
pub mod sink;
pub mod sinking2;
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
        "loop-simplify" => Box::new(loop_simplify::LoopSimplify),
        "loop-unroll" => Box::new(loop_unroll::LoopUnroll::default()),
        "loop-index-split" => Box::new(loop_index_split::LoopIndexSplit),
        "reassociate" => Box::new(reassociate::Reassociate),
        "sink" => Box::new(sink::Sink),
        "sinking2" => Box::new(sinking2::Sinking2),
        "remat" => Box::new(remat::Remat::default()),
        "nvvm-peephole-optimizer" => Box::new(nvvm_peephole::NvvmPeephole),
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
    "loop-simplify",
    "loop-unroll",
    "loop-index-split",
    "reassociate",
    "sink",
    "sinking2",
    "remat",
    "nvvm-peephole-optimizer",
    "memory-space-opt",
    "sroa",
    "dse",
    "gvn",
    "always-inline",
    "inline",
    "ipconstprop",
    "deadargelim",
    "globaldce",
];

/// The `-opt` knobs that become pass parameters: (pass, knob, parameter).
/// The pipeline assembler forwards a knob that is set as `PARAM=VALUE`
/// (`loop-unroll<threshold=300>`); `--passes=` accepts the same
/// parameters. Every value is an unsigned integer.
pub const KNOB_PARAMS: &[(&str, &str, &str)] = &[
    ("loop-unroll", "unroll-threshold", "threshold"),
    ("loop-unroll", "unroll-max-count", "max-count"),
    ("loop-unroll", "unroll-count", "count"),
    ("remat", "remat-max-live-limit", "max-live-limit"),
    ("remat", "remat-use-limit", "use-limit"),
    ("always-inline", "inline-weak", "weak"),
    ("inline", "inline-weak", "weak"),
];

/// The parameters of `pass` from the knobs that are set (`value` gives a
/// knob's value).
pub fn knob_params(pass: &str, value: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    KNOB_PARAMS
        .iter()
        .filter(|(p, _, _)| *p == pass)
        .filter_map(|(_, knob, param)| value(knob).map(|v| format!("{param}={v}")))
        .collect()
}

/// Parses `name=value` parameters of `name` against [`KNOB_PARAMS`]:
/// unknown parameters and non-integer values are errors.
fn int_params<'p>(name: &str, params: &'p [String]) -> Result<Vec<(&'p str, u64)>, String> {
    let mut vals = Vec::new();
    for p in params {
        let (k, v) = p
            .split_once('=')
            .ok_or_else(|| format!("pass '{name}': parameter '{p}' is not NAME=VALUE"))?;
        if !KNOB_PARAMS
            .iter()
            .any(|(n, _, param)| *n == name && *param == k)
        {
            return Err(format!("pass '{name}' takes no parameter '{k}'"));
        }
        let v: u64 = v
            .parse()
            .map_err(|_| format!("pass '{name}': '{k}={v}' is not an unsigned integer"))?;
        vals.push((k, v));
    }
    Ok(vals)
}

/// The last value given for parameter `k`, or `d`.
fn param(vals: &[(&str, u64)], k: &str, d: u64) -> u64 {
    vals.iter().rev().find(|(n, _)| *n == k).map_or(d, |x| x.1)
}

/// A pass with parameters (`name=value` each); a pass without any takes
/// none. Unknown passes, unknown parameters and non-integer values are
/// errors.
pub fn create(name: &str, params: &[String]) -> Result<Box<dyn Pass>, String> {
    let Some(pass) = by_name(name) else {
        return Err(format!("unknown pass '{name}'"));
    };
    // MemorySpaceOpt's words (checked by `parse_params`) do not change
    // what it does (its file).
    if params.is_empty() || name == "memory-space-opt" {
        return Ok(pass);
    }
    let vals = int_params(name, params)?;
    let get = |k: &str, d: u64| param(&vals, k, d);
    Ok(match name {
        "loop-unroll" => {
            let d = loop_unroll::LoopUnroll::default();
            Box::new(loop_unroll::LoopUnroll {
                threshold: get("threshold", d.threshold),
                max_count: get("max-count", d.max_count),
                count: get("count", d.count),
            })
        }
        "remat" => {
            let d = remat::Remat::default();
            Box::new(remat::Remat {
                max_live_limit: get("max-live-limit", d.max_live_limit),
                use_limit: get("use-limit", d.use_limit),
            })
        }
        _ => unreachable!("KNOB_PARAMS names only passes handled here"),
    })
}

#[cfg(test)]
mod tests_loop;

/// Parses a pass's `<...>` parameters (`--passes=`): MemorySpaceOpt's
/// `first-time;warnings` words, the integer `NAME=VALUE` parameters of the
/// passes in [`KNOB_PARAMS`] (checked by [`create`]); any other pass takes
/// none.
pub fn parse_params(name: &str, text: &str) -> Result<Vec<String>, String> {
    match name {
        "memory-space-opt" => memory_space_opt::parse_params(text),
        _ if KNOB_PARAMS.iter().any(|(n, _, _)| *n == name) => {
            let params: Vec<String> = text.split(';').map(str::to_string).collect();
            if is_module_pass(name) {
                create_module(name, &params).map(drop)
            } else {
                create(name, &params).map(drop)
            }
            .map_err(|e| format!("--passes: {e}"))?;
            Ok(params)
        }
        _ => Err(format!(
            "--passes: pass '{name}' takes no parameters, got '<{text}>'"
        )),
    }
}

#[cfg(test)]
mod tests_mem;

/// Every implemented module pass ([`module::ModulePass`]), by its
/// pipeline name, with its default parameters; their names are in
/// [`NAMES`] too.
pub fn module_by_name(name: &str) -> Option<Box<dyn module::ModulePass>> {
    create_module(name, &[]).ok()
}

/// A module pass with parameters (`name=value` each, as [`create`]).
pub fn create_module(name: &str, params: &[String]) -> Result<Box<dyn module::ModulePass>, String> {
    let vals = int_params(name, params)?;
    let weak = param(&vals, "weak", 1) != 0;
    Ok(match name {
        "always-inline" => Box::new(inline::AlwaysInliner { weak }),
        "inline" => Box::new(inline::Inliner { weak }),
        "ipconstprop" => Box::new(ip_const_prop::IpConstProp),
        "deadargelim" => Box::new(dead_arg_elim::DeadArgElim),
        "globaldce" => Box::new(module::GlobalDce),
        _ => return Err(format!("unknown pass '{name}'")),
    })
}

/// Whether a pipeline name is a module pass (AddPass records it with the
/// module kind and the barrier bit).
pub fn is_module_pass(name: &str) -> bool {
    module_by_name(name).is_some()
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_module;
