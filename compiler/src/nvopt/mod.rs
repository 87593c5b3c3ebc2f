//! nvopt: a PTX-to-PTX optimizer modelled on NVIDIA's cicc middle end
//! (docs/MODEL.md, NvOpt pipelines). A PTX function is lifted into an SSA form ([`ir`],
//! [`lift`]), transformed by passes ([`passes`]) that a pass manager
//! assembles into `nvopt<O#>` pipelines ([`pipeline`]), and printed back
//! as PTX ([`print`]) that the front end accepts. Every pass is checked
//! by the PTX interpreter alone: the PTX before and after must give the
//! same results (oracle/tests/nvopt_*.rs).

pub mod cli;
pub mod coalesce;
pub mod ir;
pub mod jobserver;
pub mod lift;
pub mod passes;
pub mod pipeline;
pub mod print;
pub mod size;
pub mod two_phase;
pub mod verify;

use crate::ptx::ast::{self, Item};
use crate::ptx::intern::Sym;
use rustc_hash::FxHashSet;

/// A module with its functions lifted where possible.
pub struct LiftedModule {
    pub module: ast::Module,
    /// Per function with a body: its item index and its SSA form, or why
    /// it was not lifted (such a function is printed unchanged).
    pub funcs: Vec<(usize, Result<ir::Function, lift::LiftError>)>,
}

/// Names declared at module scope (variables and functions): a local
/// must not shadow them.
fn module_names(m: &ast::Module) -> FxHashSet<Sym> {
    m.items
        .iter()
        .filter_map(|i| match i {
            Item::Var(v) => Some(v.name),
            Item::Function(f) => Some(f.name),
            _ => None,
        })
        .collect()
}

pub fn lift_module(m: &ast::Module) -> LiftedModule {
    let mut module = m.clone();
    let globals = module_names(m);
    let mut funcs = Vec::new();
    for (k, item) in m.items.iter().enumerate() {
        if let Item::Function(f) = item {
            if f.body.is_some() {
                funcs.push((k, lift::lift(&mut module.names, &globals, f)));
            }
        }
    }
    LiftedModule { module, funcs }
}

/// Prints every lifted function back into the module.
pub fn print_module(lm: &LiftedModule) -> ast::Module {
    let mut m = lm.module.clone();
    for (k, f) in &lm.funcs {
        if let Ok(f) = f {
            print::replace_function(&mut m, *k, f);
        }
    }
    m
}

/// The result of optimizing a module.
pub struct Optimized {
    pub module: ast::Module,
    /// Functions left unchanged, with the reason.
    pub skipped: Vec<(String, String)>,
}

/// Lifts, runs `pipeline` (module passes on the module, function passes
/// on every liftable function), and prints back; sequentially.
pub fn optimize(m: &ast::Module, pipeline: &pipeline::Pipeline) -> Optimized {
    optimize_with(m, pipeline, &two_phase::RunOptions::sequential()).0
}

/// [`optimize`] with two-phase options (threads, jobserver, split-module).
pub fn optimize_with(
    m: &ast::Module,
    pipeline: &pipeline::Pipeline,
    o: &two_phase::RunOptions,
) -> (Optimized, two_phase::RunReport) {
    let mut lm = lift_module(m);
    let mut skipped = Vec::new();
    for (k, f) in &lm.funcs {
        if let Err(e) = f {
            let name = match &m.items[*k] {
                Item::Function(f) => m.name(f.name).to_string(),
                _ => String::new(),
            };
            skipped.push((name, e.to_string()));
        }
    }
    let (module, report) = two_phase::run(&mut lm, pipeline, o);
    (Optimized { module, skipped }, report)
}

#[cfg(test)]
mod tests_pipeline;
