//! The Ori-style machine IR (docs/MODEL.md, Ori IR and opcodes).
//!
//! | file | job |
//! |---|---|
//! | `opcode/` | the opcode table: the one list of opcodes, their shapes, modifiers, effects, SMs |
//! | `atom_reach.rs` | which spaces a generic `ATOM`/`RED` acts on (measured ptxas rule shared by the lowering and the simulator) |
//! | `inst.rs` | instructions: opcode, modifiers, guard, operands (destinations first) |
//! | `control.rs` | per-instruction control codes (stall, yield, scoreboards, wait mask, reuse): Volta+ bit layout and text form |
//! | `func.rs` | functions and basic blocks |
//! | `sass_io.rs` | IR <-> the SASS text layer (cuobjdump listings, and the IR's own printout) |
//! | `sass_text/` | the cuobjdump `-sass` text format: parser and printer |
//! | `regs.rs` | register units an instruction defines and uses; operand widths (pairs, quads) |
//! | `cfg.rs` | control-flow graph: successors, predecessors, calls, procedures, reverse postorder, reachability |
//! | `dom.rs` | dominator tree (Cooper–Harvey–Kennedy) |
//! | `loops.rs` | natural loops and nesting depth |
//! | `defuse.rs` | def-use chains per register unit (docs/MODEL.md, Def-use chains) |
//! | `liveness.rs` | block and instruction liveness (ptxas's `OriPerformLiveDead`, docs/MODEL.md) |
//! | `analysis_cache.rs` | the last liveness computed on this thread, reused while the function is unchanged (exact: compared by `==`) |
//! | `remove.rs` | removability (docs/MODEL.md, Removability) and dead instructions |
//! | `verify.rs` | the IR verifier: structural invariants, per SM |
//!
//! Registers are physical (`R0..R254`, `RZ`, `UR0..UR62`, `P0..P6`, ...)
//! after register allocation and virtual (`%r12`, `%ur3`, `%p4`, `%up1`)
//! before; both execute in the simulator, so the IR can be run after every
//! phase. A 64-bit value lives in a register pair `Rn:Rn+1` (n even), for
//! virtual registers too.

pub mod analysis_cache;
pub mod atom_reach;
pub mod cfg;
pub mod control;
pub mod defined;
pub mod defuse;
pub mod dom;
pub mod func;
pub mod inst;
pub mod liveness;
pub mod loops;
pub mod opcode;
pub mod redux;
pub mod regs;
pub mod remove;
pub mod sass_io;
pub mod sass_text;
pub mod verify;

pub use func::{Block, Function};
pub use inst::{Inst, Operand};
pub use opcode::{Lacking, Op, OpcodeInfo};
pub use sass_io::{from_sass, to_sass};
pub use verify::{verify, VerifyError};

/// An IR construction or conversion error, with the instruction address
/// when one is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrError {
    pub addr: Option<u32>,
    pub msg: String,
}

impl IrError {
    pub fn new(msg: impl Into<String>) -> IrError {
        IrError {
            addr: None,
            msg: msg.into(),
        }
    }

    pub fn at(addr: u32, msg: impl Into<String>) -> IrError {
        IrError {
            addr: Some(addr),
            msg: msg.into(),
        }
    }
}

impl std::fmt::Display for IrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.addr {
            Some(a) => write!(f, "/*{a:04x}*/: {}", self.msg),
            None => f.write_str(&self.msg),
        }
    }
}

impl std::error::Error for IrError {}
