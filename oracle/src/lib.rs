//! oracle: the harness's semantic side. The PTX reference interpreter, the
//! SASS-level SM simulator, the random PTX generator, the differential engine,
//! the reducer and the reports (see docs/ARCHITECTURE.md).
//!
//! Which `ptxc` modules each module here may use (docs/ARCHITECTURE.md, "Why
//! the interpreter is independent of the compiler" and "What the simulator
//! may share with the compiler"):
//!
//! | oracle module | may use from `ptxc` |
//! |---|---|
//! | `ptx_interp` | the front end (`ptx`), the SM table (`targets`), the arithmetic (`float`, `int`); never the lowering, the IR or any pass |
//! | `sim` | the IR with its opcode table and SASS text layer (`ir`), the machine facts (`targets`, `pipe`), the arithmetic (`float`, `int`); never the passes (`lower`, `sched`, `regalloc`, `phases`, `driver`, `ori`, `nvopt`) |
//! | `launch` | the SM table and the ABI facts (`targets`) |
//! | `gen`, `reduce` | the front end; `gen`'s statistics also run the lowering to count what it accepts |
//! | `report` | the phase table's names (`phases::table`) |
//! | `diff`, `phase_check`, `commands`, `fuzz_targets` | the whole compiler (`driver`, `phases`, `lower`, `regalloc`, `nvopt`, `ir`, `targets`): they run it |
//!
//! Until the ABI facts and the pipe model move to `ptxc::targets` and
//! `ptxc::pipe` (issue 28), `sim` still reads them from `ptxc::lower` and
//! `ptxc::sched`.

pub mod commands;
pub mod diff;
pub mod fuzz_targets;
pub mod gen;
pub mod launch;
pub mod phase_check;
pub mod ptx_interp;
pub mod reduce;
pub mod report;
pub mod sim;
