//! The latency model: one table, keyed by the opcode table's latency class
//! and category (never a second list of opcodes), per SM generation where
//! it differs.
//!
//! A fixed-latency instruction's result may be read `fixed` cycles after it
//! issued (issue cycles add up the stall counts, see [`super::model`]); a
//! variable-latency one (memory, MUFU, conversions, S2R, ...) announces its
//! result through a scoreboard, and the `estimate` is only the scheduler's
//! guess of how long that takes.
//!
//! Sources of the numbers. Fixed latencies: the shortest
//! producer-to-consumer issue distances in the vendor listings of
//! `corpus/kernels` (ptxas 11.8, sm_70..sm_90), measured by running them in
//! the simulator with the scoreboard check (`oracle/tests/sim_vendor_corpus.rs`
//! fails if a vendor listing reads a result earlier than this table
//! allows): 4 cycles for every ALU/FMA pipe, matching the 4-cycle
//! dependent-issue latency of the Volta/Turing/Ampere microbenchmarks (Jia
//! et al. 2018/2019); 2 for the uniform datapath; the wide multiply's two
//! halves and addend are refined in [`super::model`]. FP64 is variable
//! (scoreboarded) before sm_90 and fixed on sm_90, where ptxas sets no
//! scoreboard on DFMA/DMUL/DADD/DSETP; 6 cycles there is within every
//! vendor distance. The variable estimates are the same papers' unloaded
//! latencies, rounded.

use crate::ir::opcode::{Category, Latency};
use crate::ir::Inst;
use crate::targets::SmInfo;

/// An instruction's latency class in this model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lat {
    /// The result is readable this many cycles after issue.
    Fixed(u8),
    /// Tracked by a scoreboard; the scheduler's estimate in cycles.
    Variable(u16),
}

impl Lat {
    /// The scheduler's cycle estimate (critical-path weight).
    pub fn cycles(self) -> u32 {
        match self {
            Lat::Fixed(n) => u32::from(n),
            Lat::Variable(n) => u32::from(n),
        }
    }
}

/// The fixed latency of a fixed-class instruction of category `c`.
fn fixed(c: Category, _sm: &SmInfo) -> u8 {
    use Category::*;
    match c {
        // The uniform datapath: ptxas 11.8 reads a ULDC/UMOV result two
        // cycles after issue (e.g. gather_2d.sm_80.sass `ULDC.64 UR4` then
        // `LDG.E ... [R2.64+UR4]` with stall 2).
        Uniform => 2,
        // The FP64 pipe where it is fixed (sm_90, see [`latency`]).
        Fp64 => 6,
        // Every other fixed-latency pipe, IMAD.WIDE included (the vendor
        // reads the high half of an IMAD.WIDE.U32 four cycles later,
        // i64_hash.sm_80.sass).
        _ => 4,
    }
}

/// The scheduler's estimate for a variable-latency instruction.
fn variable(c: Category, _sm: &SmInfo) -> u16 {
    use Category::*;
    match c {
        MemGlobal | MemLocal | Atomic | Texture | Surface => 400,
        MemShared => 30,
        MemConstant => 20,
        SpecialFunction | Conversion => 14,
        Fp64 => 20,
        Tensor => 32,
        _ => 20,
    }
}

/// The latency of `inst` on `sm`, from the opcode table's latency class
/// and category.
pub fn latency(inst: &Inst, sm: &SmInfo) -> Lat {
    let info = inst.op.info();
    match info.latency {
        // Hopper's FP64 pipe is fixed-latency: none of the 74 sm_90
        // DFMA/DMUL/DADD/DSETP instances of the corpus sets a scoreboard
        // (double_noinline.sm_90.sass `/*0530*/ DFMA R8` is read by the
        // next loop iteration after its stall count alone).
        Latency::Variable if info.category == Category::Fp64 && sm.sm >= 90 => {
            Lat::Fixed(fixed(info.category, sm))
        }
        Latency::Fixed => Lat::Fixed(fixed(info.category, sm)),
        Latency::Variable => Lat::Variable(variable(info.category, sm)),
    }
}
