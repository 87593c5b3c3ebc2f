//! oracle: the harness's semantic side. The PTX reference interpreter, the
//! SASS-level SM simulator, the random PTX generator, the differential engine,
//! the reducer and the reports (see ARCHITECTURE.md). This crate shares only
//! the front end, the SM table and the bit-exact float helpers with `ptxc`.

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
