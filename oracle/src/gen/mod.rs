//! The random PTX generator (issue 7): a PTX module plus its launch spec
//! from a u64 seed or from `arbitrary::Unstructured` (so libFuzzer's
//! mutations become program changes). Same input, same program.
//!
//! Programs are defined and terminating by construction (the rules are
//! written next to the code that keeps them): counted loops with bounded
//! trip counts, guarded divisors, masked in-bounds indices, thread-private
//! output slots, shared-memory phases separated by barriers, warp
//! operations only on converged whole warps with the full member mask.
//! The PTX interpreter's UB, fault and timeout checks are the safety net;
//! `ptxdiff gen --stats` measures how often it is needed.
//!
//! | file | job |
//! |---|---|
//! | `source.rs` | the one source of choices (seed stream or fuzzer bytes) |
//! | `config.rs` | [`GenConfig`], [`Bias`], defaults and bounds |
//! | `config_json.rs` | the JSON form of `GenConfig` (reading with positions, writing) |
//! | `features.rs` | the family and type tables, swarm selection |
//! | `emit.rs` | registers, the pool of defined values, scopes, shared helpers |
//! | `int.rs` `float.rs` `cvt.rs` | arithmetic statements per family |
//! | `control.rs` | predication, branches, loops, GEMM-like loops |
//! | `ivloop.rs` | induction-variable loops for the loop phases |
//! | `memory.rs` | input loads, `.local`, `.const`, shared phases |
//! | `atomic.rs` | `atom` and `red` |
//! | `alias.rs` | aliasing pointers, generic addresses, store-then-reload |
//! | `warp.rs` `tex.rs` `call.rs` | warp operations, textures, device functions |
//! | `bias.rs` | the biased modes' patterns |
//! | `bias_nan_or_zero.rs` | the `nan_or_zero` mode's per-rule statements, operands with partly known facts |
//! | `program.rs` | statement dispatch, prologue, epilogue, module text |
//! | `launch.rs` | the launch spec of a program |
//! | `values.rs` | operand values: boundary classes, related operands, input buffer contents |
//! | `stats.rs` | `ptxdiff gen --stats`: run, compile and coverage figures |
//! | `shape.rs` | the shape key of an instruction (opcode, modifiers, types) |
//! | `menu_emit.rs` | family `menu`: writes any register-only menu form |
//! | `menu_data.rs` `menu.rs` | the instruction menu: candidate forms per ISA opcode, filtered by the validator and the interpreter |

mod alias;
mod atomic;
mod bias;
mod bias_nan_or_zero;
mod call;
mod carry;
mod config;
mod config_json;
mod control;
mod cvt;
mod emit;
mod features;
mod float;
mod int;
mod ivloop;
mod launch;
mod memory;
pub mod menu;
mod menu_data;
mod menu_emit;
mod program;
pub mod shape;
mod source;
pub mod stats;
mod tex;
mod values;
mod warp;

pub use config::{Bias, GenConfig, Lists, Probabilities, Sizes, BIAS_NAMES, SIZE_BOUNDS};
pub use features::{Family, VType, FAMILIES, TYPES};
pub use program::KERNEL;

use emit::Gen;
use features::FeatureSet;
use source::Src;

/// A generated program: the module text, its launch spec (`ptx: None`),
/// the families and types enabled for it (family names, then type names,
/// from [`FAMILIES`] and [`TYPES`]), and its seed when it came from one.
#[derive(Clone, Debug, PartialEq)]
pub struct GenProgram {
    pub ptx: String,
    pub spec: crate::launch::LaunchSpec,
    pub features: Vec<&'static str>,
    pub seed: Option<u64>,
}

/// The program of a seed.
pub fn generate(seed: u64, cfg: &GenConfig) -> GenProgram {
    generate_with_usage(seed, cfg).0
}

/// [`generate`], with the families that actually wrote a statement (a
/// family can be enabled and still write nothing: a warp operation drawn
/// inside a divergent branch is skipped), in [`FAMILIES`] order.
pub fn generate_with_usage(seed: u64, cfg: &GenConfig) -> (GenProgram, Vec<&'static str>) {
    let mut src = Src::from_seed(seed);
    let (mut p, used) = build(&mut src, cfg);
    p.seed = Some(seed);
    (p, used)
}

/// The program of fuzzer bytes; never fails (bytes that run out read as
/// zeros and give a small program). The `Result` is arbitrary's protocol.
pub fn generate_from(
    u: &mut arbitrary::Unstructured<'_>,
    cfg: &GenConfig,
) -> arbitrary::Result<GenProgram> {
    let mut src = Src::from_bytes(u);
    Ok(build(&mut src, cfg).0)
}

fn build(src: &mut Src<'_, '_>, cfg: &GenConfig) -> (GenProgram, Vec<&'static str>) {
    let fs = FeatureSet::choose(cfg, src);
    let mut g = Gen::new(src, cfg, fs);
    g.bias_features();
    // Block shape: whole warps when warp operations are on (or none
    // configured: then warp operations are dropped for this program).
    let warp_shapes: Vec<usize> = (0..cfg.blocks.len())
        .filter(|&i| cfg.blocks[i].iter().product::<u32>() % 32 == 0)
        .collect();
    let block = if g.fs.has(Family::Warp) && !warp_shapes.is_empty() {
        cfg.blocks[warp_shapes[g.src.below(warp_shapes.len() as u32) as usize]].clone()
    } else {
        if g.fs.has(Family::Warp) {
            g.fs.remove(Family::Warp);
        }
        cfg.blocks[g.src.below(cfg.blocks.len() as u32) as usize].clone()
    };
    let grid = cfg.grids[g.src.below(cfg.grids.len() as u32) as usize].clone();
    g.block_threads = block.iter().product();
    let mut funcs = Vec::new();
    if g.fs.has(Family::Call) && cfg.sizes.funcs > 0 {
        let n = g.src.range(1, cfg.sizes.funcs);
        for i in 0..n {
            let f = g.device_function(i);
            funcs.push(f);
        }
    }
    g.prologue();
    // A biased mode's pattern is in every program it makes: its first
    // statement is the mode's (the rest mixes it in by weight).
    if g.bias_active() {
        g.bias_stmt();
    }
    let max = cfg.sizes.stmts;
    let n = g.src.range(max.div_ceil(4), max);
    for _ in 0..n {
        if !g.room(4) {
            break;
        }
        g.stmt();
    }
    g.epilogue();
    let const_init: Vec<u32> = (0..memory_const_words(&g))
        .map(|_| g.const_word())
        .collect();
    let ptx = g.module_text(&funcs, &const_init);
    let spec = g.launch_spec(&grid, &block);
    let used = FAMILIES
        .iter()
        .filter(|f| g.used.contains(&f.0))
        .map(|f| f.1)
        .collect();
    let p = GenProgram {
        ptx,
        spec,
        features: g.fs.names(),
        seed: None,
    };
    (p, used)
}

fn memory_const_words(g: &Gen<'_, '_, '_>) -> u32 {
    g.needs.const_words.len() as u32
}
