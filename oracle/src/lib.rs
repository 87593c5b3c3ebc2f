//! oracle: the harness's semantic side. The PTX reference interpreter, the
//! SASS-level SM simulator, the random PTX generator, the differential engine,
//! the reducer and the reports (see docs/ARCHITECTURE.md).
//!
//! Which `ptxc` modules each module here may use is the table of
//! docs/ARCHITECTURE.md, "Layers and import rules" (enforced by
//! compiler/tests/arch_layering.rs): the interpreter uses only the front end,
//! the SM table and the arithmetic; the simulator the IR, the machine facts
//! and the arithmetic, never a pass; the engine, `phase_check`, the commands
//! and the fuzz-target bodies drive the whole compiler.

pub mod commands;
pub mod diff;
pub mod fuzz_targets;
pub mod gen;
pub mod launch;
pub mod lowered_inputs;
pub mod phase_check;
pub mod ptx_interp;
pub mod reduce;
pub mod report;
pub mod sim;
