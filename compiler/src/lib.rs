//! ptxc: a reference compiler from PTX to SASS-like machine code, modelled on
//! NVIDIA's ptxas. This crate also holds what the oracle shares with the
//! compiler: the PTX front end, and the SM target table.

pub mod cli;
pub mod driver;
pub mod float;
pub mod int;
pub mod ir;
pub mod lower;
pub mod nvopt;
pub mod ori;
pub mod phases;
pub mod ptx;
pub mod regalloc;
pub mod sched;
pub mod targets;
