//! Instruction scheduling and control codes (phases 147, 151, 152, 153).
//!
//! | file | job |
//! |---|---|
//! | `latency.rs` | the latency table: fixed latencies and variable estimates per opcode category and SM |
//! | `model.rs` | the hazard model the control codes satisfy and the simulator checks |

pub mod latency;
pub mod model;
