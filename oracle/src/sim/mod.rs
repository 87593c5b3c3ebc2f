//! The SASS-level SM simulator: runs NVIDIA's SASS as printed by cuobjdump
//! (ptxas 11.8, sm_70..sm_90) and the compiler's IR at any phase (virtual or
//! physical registers), and returns the same [`RunResult`] as the PTX
//! interpreter, so that the two can be compared (ARCHITECTURE.md).
//!
//! | file | job |
//! |---|---|
//! | `regs.rs` | register files: physical and virtual registers mapped densely at decode time |
//! | `cbank.rs` | constant banks: bank 0 from the SM table and the launch spec, banks 2/3, texture slots, module variables and relocations from `*.banks.json`; bank 4 (module-variable addresses) |
//! | `reloc.rs` | code relocations (module-variable addresses) applied to the [`Function`] before decoding |
//! | `program.rs` | the executable form: a [`Function`] decoded once into [`program::Program`], per instruction a handler with pre-resolved operands |
//! | `decode/` | the decoder of one instruction: operands by the opcode table's roles, one file per family |
//! | `warp.rs` | SIMT state of a warp: registers (structure of arrays), predicates as lane masks, ready groups, waits, convergence barriers |
//! | `resinfo.rs` | the driver's texture/surface information tables (`txq`/`suq` fields ptxas loads from global memory), built from the launch spec with the interpreter's answers |
//! | `memory.rs` | global, shared, local and generic accesses with their faults |
//! | `undecoded.rs` | sm_90 encoding-only slots (cuobjdump 11.8): VIMNMX from its encoding |
//! | `exec/` | the handlers, one file per family |
//! | `hazard.rs` | the scoreboard check: issue cycles and outstanding scoreboards per warp, when the function carries control codes |
//! | `run.rs` | grid, CTA and warp scheduling, barriers, fuel and wall clock |
//!
//! See `run.rs` for the SIMT and reconvergence model and README-style notes
//! on every semantic choice (marked UNCONFIRMED where no source settles it).

pub mod cbank;
pub mod decode;
pub mod exec;
pub mod hazard;
pub mod memory;
pub mod program;
pub mod regs;
pub mod reloc;
pub mod resinfo;
pub mod run;
pub mod semantics;
pub mod undecoded;
pub mod warp;

pub use cbank::{Banks, SimInputs};
pub use program::Program;
pub use run::run;

pub use crate::ptx_interp::{
    Hazard, HazardKind, Location, Outcome, RunLimits, RunResult, SetupError, UbKind,
};

#[doc(hidden)]
pub use ptxc::ir::Function;
