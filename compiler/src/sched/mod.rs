//! Instruction scheduling and control codes (phases 147, 151, 152, 153).
//!
//! | file | job |
//! |---|---|
//! | `dag.rs` | the dependence DAG of a block (registers, memory, barriers, control) |
//! | `list.rs` | the list scheduler (critical path first) and ptxas's per-block statistics (docs/MODEL.md, Scheduler statistics) |
//! | `scoreboard.rs` | AssignScoreboards: write/read scoreboards and wait masks |
//! | `stall.rs` | ComputeStallCounts: stall cycles covering fixed latencies |
//! | `reuse.rs` | SetReuseFlags: operand-reuse flags |
//!
//! The phase objects are in `phases/sched.rs`. The latency table and the
//! hazard model these phases build for are the pipe model, `crate::pipe`
//! (shared with the simulator's hazard check).

pub mod dag;
pub mod list;
pub mod reuse;
pub mod scoreboard;
pub mod stall;

#[cfg(test)]
mod tests;
