//! What a run returns: the output buffers, or why the run did not finish.
//! The SASS simulator (issue 4) returns the same type.

use crate::launch::OutputSet;
use std::time::Duration;

/// Bounds on a run (docs/ARCHITECTURE.md, Principles, 5: runs are bounded and say why
/// they stopped).
#[derive(Clone, Copy, Debug)]
pub struct RunLimits {
    /// Thread-instructions executed in total, across all threads.
    pub fuel: u64,
    /// Wall-clock bound.
    pub wall: Duration,
    /// Nested `call` depth per thread.
    pub max_call_depth: u32,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            fuel: 2_000_000_000,
            wall: Duration::from_secs(60),
            max_call_depth: 64,
        }
    }
}

/// Where something happened: the thread and the instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
    /// 1-based source line of the instruction in the PTX text (0 if unknown).
    pub line: u32,
    /// The instruction as PTX text.
    pub instruction: String,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ctaid ({},{},{}) tid ({},{},{}), line {}: {}",
            self.ctaid[0],
            self.ctaid[1],
            self.ctaid[2],
            self.tid[0],
            self.tid[1],
            self.tid[2],
            self.line,
            self.instruction
        )
    }
}

/// Undefined behaviour the oracle detects instead of computing a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UbKind {
    /// A register read before any write (PTX registers start undefined).
    UninitializedRegister(String),
    DivisionByZero,
    /// An access not aligned to its size (PTX ISA: addresses must be naturally aligned).
    Misaligned {
        address: u64,
        size: u32,
    },
    /// Two threads touch the same byte, at least one writes non-atomically,
    /// and no barrier orders them.
    DataRace {
        address: u64,
        other_tid: [u32; 3],
        other_ctaid: [u32; 3],
    },
    /// A warp-synchronous instruction whose member mask names a thread that
    /// exited or waits at a different instruction.
    WarpSyncMismatch(String),
    /// Not every thread reaches a barrier (or a warp-sync instruction).
    Deadlock(String),
    /// Recursion deeper than the limit, or other call-frame misuse.
    CallDepth,
    /// A read of shared or local memory (a `.local` or frame `.param`
    /// variable) that no store wrote: those spaces start undefined
    /// (`undef_mem`). `address` is in the space: a CTA's shared memory, or
    /// the thread's local memory (its frames, outermost at 0).
    UninitializedMemory {
        space: &'static str,
        address: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every thread exited; outputs are valid.
    Completed,
    /// An access outside every allocation, an unsupported construct, or a
    /// `trap`.
    Fault {
        message: String,
        at: Location,
    },
    Ub {
        kind: UbKind,
        at: Location,
    },
    /// Fuel or wall clock ran out.
    Timeout {
        executed: u64,
    },
    /// SASS only: the control codes let an instruction read or overwrite a
    /// register before the hazard model allows it (see
    /// `ptxc::pipe::model`). A verdict of its own: the code computes
    /// nothing wrong in the simulator, but would on the hardware.
    Hazard {
        hazard: Hazard,
        at: Location,
    },
}

/// What a [`Outcome::Hazard`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    pub kind: HazardKind,
    /// The register unit, e.g. `R4`, `%r12`, `P0`.
    pub register: String,
    /// The instruction whose result (or source read) is outstanding, as
    /// `/*0040*/ LDG.E R4, [R2.64]`.
    pub producer: String,
    /// The producer's scoreboard, where one is involved.
    pub scoreboard: Option<u8>,
}

/// The kinds of [`Hazard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    /// Reads a variable-latency result whose write scoreboard was not
    /// waited on.
    ReadBeforeWait,
    /// Writes a register a variable-latency write to which is outstanding.
    WriteBeforeWait,
    /// Overwrites a source of an instruction whose read scoreboard was not
    /// waited on.
    OverwriteBeforeRead,
    /// Reads a fixed-latency result `needed` cycles after issue, but only
    /// `elapsed` cycles passed.
    ReadTooEarly { needed: u32, elapsed: u32 },
    /// A variable-latency instruction that writes registers without a
    /// write scoreboard: nothing can ever wait for its result.
    NoScoreboard,
    /// An instruction without control codes in a function that has them.
    MissingControl,
}

impl std::fmt::Display for Hazard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sb = self
            .scoreboard
            .map(|k| format!(" (SB{k})"))
            .unwrap_or_default();
        match self.kind {
            HazardKind::ReadBeforeWait => write!(
                f,
                "reads {} before waiting for {}{sb}",
                self.register, self.producer
            ),
            HazardKind::WriteBeforeWait => write!(
                f,
                "writes {} before waiting for {}{sb}",
                self.register, self.producer
            ),
            HazardKind::OverwriteBeforeRead => write!(
                f,
                "overwrites {} before {} has read it{sb}",
                self.register, self.producer
            ),
            HazardKind::ReadTooEarly { needed, elapsed } => write!(
                f,
                "reads {} {elapsed} cycles after {} (needs {needed})",
                self.register, self.producer
            ),
            HazardKind::NoScoreboard => write!(
                f,
                "{} writes {} without a write scoreboard",
                self.producer, self.register
            ),
            HazardKind::MissingControl => write!(f, "no control codes (the function has them)"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub outcome: Outcome,
    /// The output buffers at the end of the run (also after a failed run, as
    /// far as it got).
    pub outputs: OutputSet,
    /// Thread-instructions executed.
    pub executed: u64,
}

impl RunResult {
    pub fn completed(&self) -> bool {
        self.outcome == Outcome::Completed
    }
}
