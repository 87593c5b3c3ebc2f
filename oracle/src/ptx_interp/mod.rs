//! The PTX reference interpreter: the semantic oracle (issue 3). It shares
//! the parser, AST and the bit-exact float and integer arithmetic
//! (`ptxc::float`, `ptxc::int`) with `ptxc`, never the compiler's lowering
//! or IR (docs/ARCHITECTURE.md, Why the interpreter is independent of the compiler).
//!
//! `run` decodes the module for one kernel (`decode`), places memory
//! (`memory`), and runs the grid (`machine`, `exec`), returning outputs or
//! the fault, UB or timeout that stopped it (`result`).

mod assigned;
pub mod clocks;
pub mod decode;
mod exec;
pub mod fast;
pub mod machine;
pub mod memory;
pub mod program;
pub mod race;
pub mod result;
pub mod semantics;
pub mod shadow;
pub mod undef_mem;

pub use result::{Hazard, HazardKind, Location, Outcome, RunLimits, RunResult, UbKind};

use crate::launch::{
    encode_params, AddressSize, ElemType, LaunchSpec, MemoryImage, OutputSet, ParamDecl,
    TextureImage,
};
use machine::Machine;
use memory::{GlobalMem, Windows};
use ptxc::ptx::ast::{Module, VarType};
use std::time::Instant;

/// Why a run could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The kernel's parameter declarations as the launch module describes them.
fn param_decls(m: &Module, kernel: &str) -> Result<Vec<ParamDecl>, SetupError> {
    let f = m
        .function(kernel)
        .ok_or_else(|| SetupError(format!("the module has no kernel '{kernel}'")))?;
    f.params
        .iter()
        .map(|p| {
            let ty = match p.ty {
                VarType::Scalar(t) => ElemType::from_name(t.name())
                    .ok_or_else(|| SetupError(format!("parameter type {t} is not supported")))?,
                _ => ElemType::U64,
            };
            let len = p.dims.first().copied().flatten();
            Ok(match len {
                Some(n) => ParamDecl::array(ty, n as u32, p.align),
                None => ParamDecl {
                    ty,
                    array_len: None,
                    align: p.align,
                },
            })
        })
        .collect()
}

/// Runs `spec.kernel` of module `m` (parsed from `src`) on the launch spec.
pub fn run(
    m: &Module,
    src: &str,
    spec: &LaunchSpec,
    limits: &RunLimits,
) -> Result<RunResult, SetupError> {
    run_with(m, src, spec, limits, true)
}

/// As `run`, with every instruction through the general executor, never the
/// fast forms (`fast`): the reference the fast path is tested against. The
/// two give identical results.
pub fn run_general(
    m: &Module,
    src: &str,
    spec: &LaunchSpec,
    limits: &RunLimits,
) -> Result<RunResult, SetupError> {
    run_with(m, src, spec, limits, false)
}

fn run_with(
    m: &Module,
    src: &str,
    spec: &LaunchSpec,
    limits: &RunLimits,
    fast_forms: bool,
) -> Result<RunResult, SetupError> {
    let image = MemoryImage::new(spec).map_err(|e| SetupError(e.to_string()))?;
    let addr64 = m.address_bits() == 64;
    let decls = param_decls(m, &spec.kernel)?;
    let size = if addr64 {
        AddressSize::A64
    } else {
        AddressSize::A32
    };
    let params =
        encode_params(spec, image.layout(), &decls, size).map_err(|e| SetupError(e.to_string()))?;
    let globals_base = image.layout().end().div_ceil(256) * 256 + 256;
    let mut prog =
        decode::decode(m, src, spec, globals_base, &params).map_err(|e| SetupError(e.0))?;
    if !fast_forms {
        for fi in prog.funcs.iter_mut().flat_map(|f| f.fast.iter_mut()) {
            fi.op = fast::Fast::Slow;
            fi.safe = false;
        }
    }
    let global = GlobalMem::new(image, globals_base, prog.globals.clone());
    let block = spec.block();
    // Surfaces are global memory too: their shadows follow the global
    // regions' (exec/surf.rs, `Ctx::race_surface`).
    let global_shadow = shadow::GlobalShadow::new(
        global
            .region_sizes()
            .chain(global.image.surfaces.iter().map(|s| s.data.len())),
        block.iter().product::<u32>() as usize,
    );
    let mut machine = Machine {
        prog: &prog,
        spec,
        global,
        params: params.bytes,
        textures: TextureImage::all(spec),
        windows: Windows::new(addr64),
        grid: spec.grid(),
        block,
        limits: *limits,
        executed: 0,
        global_shadow,
        budget: 0,
        fuel_left: limits.fuel,
        started: Instant::now(),
    };
    let outcome = machine.run();
    let outputs = machine
        .global
        .image
        .outputs(spec)
        .unwrap_or_else(|_| OutputSet::default());
    Ok(RunResult {
        outcome,
        outputs,
        executed: machine.executed,
    })
}
