//! The hazard model the control codes must satisfy: one set of rules that
//! the scoreboard and stall phases ([`crate::sched::scoreboard`], [`crate::sched::stall`])
//! build for and the simulator (`oracle/src/sim/hazard.rs`) checks.
//!
//! Along one warp's execution each instruction issues `max(stall, 1)`
//! cycles after the one before it (its predecessor's stall count; ptxas
//! 11.8 writes stall 0 only on the never-executed padding after the last
//! `EXIT`). Before issuing, the instruction waits on the scoreboards of its
//! wait mask: every outstanding operation on those scoreboards completes.
//! `DEPBAR.LE SBk, N` completes all but the newest `N` operations on
//! scoreboard `k` (they complete in issue order).
//!
//! At issue an instruction reads [`reads`] (its source, address and guard
//! register units) and later writes [`writes`]:
//! - a unit written by a fixed-latency instruction may be read
//!   [`latency`](super::latency::latency) cycles after that one issued
//!   ([`write_latency`]; a read happens [`read_delay`] cycles after issue);
//! - a unit written by a variable-latency instruction may be read, or
//!   written again, only after its write scoreboard was waited on (an
//!   instruction that writes registers without setting a write scoreboard
//!   makes them unreadable);
//! - a unit read by an instruction that sets a read scoreboard (stores and
//!   other late readers) may be written only after that scoreboard was
//!   waited on ([`late_reads`]: the sources, not the guard). Completing
//!   an operation (its write scoreboard waited on) completes its reads too.
//! - the writes of [`read_sb_writes`] (an `ATOM`'s predicate) complete
//!   with the read scoreboard when the instruction sets one.
//!
//! Variable-latency instructions of one [`in_order_queue`] complete in
//! issue order: waiting for one of them (through its scoreboard) also
//! completes the earlier ones of its queue, which is how ptxas 11.8 leaves
//! a scoreboard off an `LDS` or `SHFL` followed by another of its kind that
//! has one (matmul_tiled.sm_70.sass `/*02a0*/ LDS.U R8` then `/*02b0*/
//! LDS.U.128 R12` on SB0; warp_vote_xor.sm_70.sass `/*01a0*/ SHFL.BFLY`
//! then `/*01b0*/` on SB0).
//!
//! Instructions read their sources at issue otherwise; reuse flags are
//! performance hints and never make code incorrect in this model.

use crate::ir::opcode::Op;
use crate::ir::regs::{self, RegUnit, Units};
use crate::ir::sass_text::SassOperand;
use crate::ir::Inst;

/// The units an instruction reads.
pub fn reads(inst: &Inst) -> Units {
    regs::uses(inst)
}

/// Cycles after issue at which the instruction reads `unit` (0 but for the
/// wide multiply's addend, see [`wide_multiply`]).
pub fn read_delay(inst: &Inst, unit: RegUnit) -> u8 {
    if wide_multiply(inst) {
        // The addend pair is the last source; its high half is read two
        // cycles late (i64_hash.sm_90.sass `IMAD.MOV.U32 R17, RZ, RZ, RZ`
        // then `IMAD.WIDE.U32 R16, R8, R21, R16` two cycles later).
        if let Some(last) = (inst.ndst as usize..inst.operands.len()).last() {
            let u = regs::operand_uses(inst, last);
            if u.len() == 2 && u[1] == unit {
                return 2;
            }
        }
    }
    0
}

/// How a fixed latency applies to each written unit: the low half of a
/// wide multiply's result is readable one cycle earlier than the high half
/// (i64_hash.sm_90.sass `IMAD.WIDE.U32 R14, ...` read by `IADD3 R23, P0,
/// RZ, -R14, RZ` three cycles later; the high half `R15` four).
pub fn write_latency(inst: &Inst, unit: RegUnit, fixed: u8) -> u8 {
    if wide_multiply(inst) && regs::operand_defs(inst, 0).first() == Some(&unit) {
        return fixed.saturating_sub(1);
    }
    fixed
}

/// `IMAD.WIDE`: a 32x32 multiply with a 64-bit addend and result, which
/// the FMA pipe runs as two halves a cycle apart.
pub fn wide_multiply(inst: &Inst) -> bool {
    inst.op == Op::IMAD && inst.has_mod("WIDE")
}

/// The units a read scoreboard covers: the general-register and predicate
/// sources without the guard (the guard decides at issue whether the
/// instruction runs). Uniform registers are read at issue: ptxas 11.8
/// (sm_90) follows `TEX.LL RZ, R13, R20, R22, UR4, 0x0, 2D, 0x1` (read
/// scoreboard SB0) with `VOTEU.ANY UR4, UPT, PT` and no wait.
pub fn late_reads(inst: &Inst) -> Units {
    let mut g = inst.clone();
    g.guard = None;
    regs::uses(&g)
        .into_iter()
        .filter(|u| {
            !matches!(
                u,
                RegUnit::UR(_) | RegUnit::VUR(_) | RegUnit::UP(_) | RegUnit::VUP(_)
            )
        })
        .collect()
}

/// The units an instruction writes.
pub fn writes(inst: &Inst) -> Units {
    regs::defs(inst)
}

/// The written units that complete with the read scoreboard when the
/// instruction sets one (else with its write scoreboard): the predicate
/// destination of an `ATOM`. ptxas 11.8, sm_90:
/// `ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, [R2.64], R9` (read scoreboard
/// SB0, no write scoreboard) then `@P0 BRA` waiting on SB0 alone
/// (oracle/tests/atom_spin_vendor/spin.sm_90.O3.sass,
/// `red_f16x2_GenericGlobal`), and `ATOM.E.ADD.64.STRONG.GPU P0, R6,
/// [R4.64], R2` (write SB5, read SB0) then `@P0 BRA` waiting on SB0 alone
/// (oracle/tests/atom_generic_vendor/generic.sm_90.O3.sass,
/// `atom_add_u64_GenericGlobal`); sm_70..sm_89 give the `ATOM` a write
/// scoreboard and no read scoreboard, and `@P0 BRA` waits on the write
/// one. Whether the operation was performed (its address's space) is
/// known once the address is read.
pub fn read_sb_writes(inst: &Inst) -> Units {
    if inst.op != Op::ATOM {
        return Units::new();
    }
    regs::operand_defs(inst, 0)
        .into_iter()
        .filter(|u| matches!(u, RegUnit::P(_) | RegUnit::VP(_)))
        .collect()
}

/// The in-order completion queue of a variable-latency instruction, by
/// opcode category: the transcendental/conversion pipe (MUFU, F2I, I2F,
/// F2F, FRND, the variable-latency integer ops BREV/POPC/FLO, and FP64),
/// shared memory with the warp shuffles, the texture and surface unit, and
/// one queue per other category.
/// ptxas 11.8 relies on the first (int_bitops.sm_70.sass: `/*0220*/
/// MUFU.RCP R14` has no scoreboard; the wait on `/*0280*/ BREV`'s SB0
/// covers it), the second (see the module comment) and the third
/// (oracle/tests/texref_vendor/texref_order.sm_80.sass: `/*0090*/ TXQ RZ,
/// R0` has no scoreboard, then `/*00a0*/ SULD.D.BA.1D` sets SB5, and the
/// wait on SB5 at `/*00c0*/` covers the TXQ whose R0 `/*0100*/ IADD3`
/// reads).
/// `FCHK` (category `Fp32`) completes in the first queue too: ptxas 11.8
/// (sm_70, sm_80, sm_90) leaves `FCHK P0, R2, -97.75` without a scoreboard
/// when the next `F2I` or `FRND` has one and a wait on it comes before the
/// `@!P0 BRA` (corpus/regressions/fchk_conversion_queue).
pub fn in_order_queue(inst: &Inst) -> u8 {
    use crate::ir::opcode::Category::*;
    if inst.op == Op::FCHK {
        return 100;
    }
    match inst.op.info().category {
        SpecialFunction | Conversion | IntAlu | Fp64 => 100,
        MemShared | Warp => 101,
        Texture | Surface => 102,
        c => c as u8,
    }
}

/// Whether the warp, once past this instruction, has every earlier
/// shared-memory instruction (`LDS`, `STS`, `ATOMS`, ...) completed, its
/// results written: a blocking CTA barrier (`BAR.SYNC`, `BAR.RED`; not
/// `BAR.ARV`). ptxas 11.8 relies on it: `ATOMS.EXCH.64 R4, [R11], R4`
/// without a write scoreboard, `BAR.SYNC 0x0`, then `STG.E.64.SYS [R8], R4`
/// with no wait (oracle/tests/atom_generic_vendor/generic.sm_70.O3.sass,
/// `atom_exch_b64_SharedSpace`, and the same on sm_75..sm_90), where
/// without the barrier between them it gives the `ATOMS` SB0 and the
/// `STG` waits. The mechanism is UNCONFIRMED (presumably the barrier takes
/// the same in-order path as shared memory and resolves after it).
pub fn drains_shared_memory(inst: &Inst) -> bool {
    inst.op == Op::BAR && !inst.has_mod("ARV")
}

/// A shared-memory instruction, as [`drains_shared_memory`] means it: the
/// `MemShared` category and `ATOMS` (category `Atomic`).
pub fn is_shared_memory(inst: &Inst) -> bool {
    inst.op.info().category == crate::ir::opcode::Category::MemShared || inst.op == Op::ATOMS
}

/// `DEPBAR.LE SBk, N`: `(k, N)`.
pub fn depbar(inst: &Inst) -> Option<(u8, u32)> {
    if inst.op != Op::DEPBAR {
        return None;
    }
    let mut sb = None;
    let mut n = 0u32;
    for o in &inst.operands {
        match o {
            SassOperand::Scoreboard(k) => sb = Some(*k),
            SassOperand::Imm(v) => n = u32::try_from(*v).unwrap_or(u32::MAX),
            _ => {}
        }
    }
    sb.map(|k| (k, n))
}
