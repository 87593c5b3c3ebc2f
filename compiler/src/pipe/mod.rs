//! The pipe model: the machine's timing facts as the control codes must
//! respect them (latency classes, scoreboards, in-order queues, the
//! register units an instruction reads and writes).
//!
//! It is stated over the IR's instructions (`ir::Inst`), so it sits above
//! `ir` and below both of its readers: the scheduler (`sched`), which
//! builds control codes that satisfy it, and the simulator's hazard check
//! (`oracle::sim::hazard`), which ends a run that violates it. Neither
//! reader depends on the other; the vendor listings the simulator runs
//! (oracle/tests/sim_vendor_corpus.rs) are what validates the model.
//!
//! | file | job |
//! |---|---|
//! | `latency.rs` | the latency table: fixed latencies and variable estimates per opcode category and SM |
//! | `model.rs` | the hazard model the control codes satisfy and the simulator checks |

pub mod latency;
pub mod model;
