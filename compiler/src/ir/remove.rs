//! Which instructions may be removed, and which are dead.
//!
//! [`can_remove`] follows ptxas's removal check (docs/MODEL.md, Removability), which
//! ptxas runs before unlinking an instruction.
//! Its tests, and how each maps onto this IR:
//!
//! 1. `STS` (base opcode 95) with five operands and data type codes 1, 2
//!    or 4 is kept. Every `STS` is a store here (`Effects::STORE`), so
//!    rule 5 keeps all of them; the special case is subsumed.
//! 2. A target hook on the SM backend (vtable +2128) may veto. No such
//!    hook exists here.
//! 3. `PLOP3` (opcode 23) writing a special register (register file type
//!    9) is kept. The IR has no special-register destinations: a PLOP3
//!    writes predicates only (shape `P P = P P P I I`), so the case cannot
//!    arise and is not represented.
//! 4. The dead-code check excludes opcodes 93 (`OUT_FINAL`),
//!    124 (`DMUL`) and 248 (an sm_90+ opcode the table does not name):
//!    the first two carry `Effects::KEEP` in the opcode table; 248 has no
//!    row.
//! 5. The per-opcode "must keep" flag (`byte[4*opcode+2] & 4` at Code
//!    Object +776): the table's effects, [`OpcodeInfo::has_side_effects`]
//!    (stores, atomics, barriers, fences, convergence, control flow,
//!    KEEP).
//!
//! Added here, because the IR has facts ptxas's check takes from
//! elsewhere:
//! - opcodes whose operand shapes the table does not model (`*`) and
//!   `UNDECODED` slots are kept: their destinations are unknown;
//! - strong (volatile) and MMIO loads are kept (`.STRONG`, `.MMIO`: the
//!   ptxas's volatile bit, flag word bit 5);
//! - reads of the clock and timer special registers are kept (`S2R`/
//!   `CS2R`/`S2UR` of `SR_CLOCKLO`, `SR_CLOCKHI`, `SR_GLOBALTIMER*`):
//!   removing one changes timing measurements the program makes.
//!
//! [`dead_instructions`] is the scan ptxas runs after
//! `OriPerformLiveDead`: an instruction with destination operands is dead
//! when it may be removed and none of the units it defines is live right
//! after it. One scan; removing the dead instructions may make others
//! dead (ptxas runs three rounds).
//!
//! [`OpcodeInfo::has_side_effects`]: super::opcode::OpcodeInfo::has_side_effects

use super::func::Function;
use super::inst::{Inst, Operand};
use super::liveness::Liveness;
use super::opcode::{Effects, Op};

fn reads_clock(inst: &Inst) -> bool {
    inst.srcs().iter().any(|o| {
        matches!(o, Operand::Special(s)
            if s.starts_with("SR_CLOCK") || s.starts_with("SR_GLOBALTIMER"))
    })
}

/// Whether `inst` may be removed when nothing reads what it writes
/// (docs/MODEL.md, Removability; see the module comment).
pub fn can_remove(inst: &Inst) -> bool {
    let info = inst.op.info();
    if info.has_side_effects() || !info.is_modelled() || inst.op == Op::UNDECODED {
        return false;
    }
    if info.effects.contains(Effects::LOAD) && (inst.has_mod("STRONG") || inst.has_mod("MMIO")) {
        return false;
    }
    !reads_clock(inst)
}

/// The dead instructions of `f`, as (block index, instruction index), in
/// layout order.
pub fn dead_instructions(f: &Function) -> Vec<(usize, usize)> {
    let live = crate::ir::analysis_cache::liveness(f);
    dead_instructions_with(f, &live)
}

/// [`dead_instructions`] with liveness already computed.
pub fn dead_instructions_with(f: &Function, live: &Liveness) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (b, blk) in f.blocks.iter().enumerate() {
        let used = live.defs_live_after(b);
        for (i, inst) in blk.insts.iter().enumerate() {
            if inst.ndst != 0 && !used[i] && can_remove(inst) {
                out.push((b, i));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::ir::sass_text::parse_inst;

    fn inst(text: &str) -> Inst {
        let si = parse_inst(text).unwrap();
        let op = Op::from_name(&si.opcode).unwrap();
        let mods: Vec<&str> = si.mods.iter().map(|s| s.as_str()).collect();
        Inst::new(op, &mods, si.guard, si.operands).unwrap()
    }

    #[test]
    fn removal_rules() {
        assert!(can_remove(&inst("IADD3 R0, R1, R2, RZ ;")));
        assert!(can_remove(&inst("LDG.E R0, [R2.64] ;")));
        assert!(can_remove(&inst("SHFL.BFLY PT, R10, R7, 0x4, 0x1f ;")));
        assert!(can_remove(&inst("S2R R0, SR_TID.X ;")));
        // Stores (ptxas's STS case), atomics, barriers, control.
        assert!(!can_remove(&inst("STS [R0], R1 ;")));
        assert!(!can_remove(&inst("STG.E [R2.64], R1 ;")));
        assert!(!can_remove(&inst("ATOMS.ADD RZ, [R7], R10 ;")));
        assert!(!can_remove(&inst("BAR.SYNC 0x0 ;")));
        assert!(!can_remove(&inst("B2R.RESULT R13 ;")));
        assert!(!can_remove(&inst("MEMBAR.SC.GPU ;")));
        assert!(!can_remove(&inst("BSSY B0, 0x100 ;")));
        assert!(!can_remove(&inst("BRA 0x100 ;")));
        // ptxas's exclusion list: DMUL is kept although pure.
        assert!(!can_remove(&inst("DMUL R4, R8, R8 ;")));
        assert!(can_remove(&inst("DADD R4, R8, R8 ;")));
        // Unmodelled shapes, volatile loads, clocks.
        assert!(!can_remove(&inst("HMMA R4, R8, R12, R4 ;")));
        assert!(!can_remove(&inst("LDG.E.STRONG.SYS R0, [R2.64] ;")));
        assert!(!can_remove(&inst("CS2R R4, SR_CLOCKLO ;")));
    }

    #[test]
    fn dead_scan() {
        // (0,0) R0 is overwritten at (0,1) before any read: dead.
        // (0,1) R0 feeds the store: live.
        // (0,2) R1 is read by nobody: dead.
        // (0,3) DMUL's result is unused, but DMUL is kept.
        // (0,4) the guarded def of R3 is unread: dead (a guarded def is
        //       still a def).
        // (0,5) P0 is unread and R6 too: dead.
        // (0,6) R8 is read in the loop block 1: live.
        let f = func(
            ".L_x_0:
             MOV R0, 0x1 ;
             MOV R0, 0x2 ;
             MOV R1, 0x3 ;
             DMUL R4, R8, R8 ;
             @P1 MOV R3, 0x4 ;
             IADD3 R6, P0, R0, 0x1, RZ ;
             MOV R8, 0x5 ;
             .L_x_1:
             STG.E [R10.64], R0 ;
             IADD3 R8, R8, 0x1, RZ ;
             ISETP.NE.AND P2, PT, R8, 0x10, PT ;
             @P2 BRA .L_x_1 ;
             .L_x_2:
             EXIT ;",
        );
        assert_eq!(dead_instructions(&f), vec![(0, 0), (0, 2), (0, 4), (0, 5)]);
    }
}
