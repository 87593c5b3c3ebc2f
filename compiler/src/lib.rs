//! ptxc: a reference compiler from PTX to SASS-like machine code, modelled on
//! NVIDIA's ptxas. This crate also holds what the oracle shares with the
//! compiler: the PTX front end, the SM target table and machine facts, the
//! IR and its SASS text layer (for the simulator), and the bit-exact
//! arithmetic (docs/ARCHITECTURE.md, "Crates and modules").

pub mod cli;
pub mod driver;
pub mod float;
pub mod int;
pub mod ir;
pub mod lower;
pub mod nvopt;
pub mod phases;
pub mod pipe;
pub mod ptx;
pub mod regalloc;
pub mod sched;
pub mod targets;
