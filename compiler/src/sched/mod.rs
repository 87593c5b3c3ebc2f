//! Instruction scheduling and control codes (phases 147, 151, 152, 153).
//!
//! | file | job |
//! |---|---|
//! | `latency.rs` | the latency table: fixed latencies and variable estimates per opcode category and SM |
//! | `model.rs` | the hazard model the control codes satisfy and the simulator checks |
//! | `dag.rs` | the dependence DAG of a block (registers, memory, barriers, control) |
//! | `list.rs` | the list scheduler (critical path first) and ptxas's per-block statistics (docs/MODEL.md, Scheduler statistics) |
//! | `scoreboard.rs` | AssignScoreboards: write/read scoreboards and wait masks |
//! | `stall.rs` | ComputeStallCounts: stall cycles covering fixed latencies |
//! | `reuse.rs` | SetReuseFlags: operand-reuse flags |
//!
//! The phase objects are in `phases/sched.rs`.

pub mod dag;
pub mod latency;
pub mod list;
pub mod model;
pub mod reuse;
pub mod scoreboard;
pub mod stall;

#[cfg(test)]
mod tests;
