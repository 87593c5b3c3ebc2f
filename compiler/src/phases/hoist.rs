//! The loop-invariant code motion phases: OriHoistInvariantsEarly (35),
//! OriHoistInvariantsLate (66), OriHoistInvariantsLate2 (79) and
//! OriHoistInvariantsLate3 (88) (ptxas's phase table names them "early/late
//! loop-invariant hoisting"), and the one hoisting core they share with
//! the scheduling-time HoistInvariants peephole (146, docs/MODEL.md, HoistInvariants,
//! `hoist_invariants.rs`): [`hoist_loop`] applies the rules below; each
//! phase only says which instructions are candidates ([`Movable`]), how
//! many may leave one loop, and which loops it visits.
//!
//! An instruction of a loop moves to the end of the loop's preheader
//! ([`LoopView::preheader`]; OriLoopSimplification makes one) when all of
//! these hold. The IR is not SSA, so each rule is stated per register
//! unit:
//!
//! 1. it is unguarded (a guarded definition is partial: its result mixes
//!    with the old value, so it is not a function of its operands);
//! 2. the phase's policy calls it [`Movable::Pure`] or [`Movable::Load`]
//!    (here: [`is_pure`], and in the late phases a load of one of the forms
//!    [`hoistable_load`] accepts);
//! 3. every unit it reads has no definition in the loop (or only
//!    definitions already hoisted);
//! 4. every unit it writes has exactly this one definition in the loop and
//!    is not live into the header: no read in the loop can see the value
//!    from before the loop or from the previous iteration, and the
//!    preheader's end, whose only successor is the header, has the unit
//!    dead, so writing it there clobbers nothing; and the preheader's
//!    terminator does not read it (the code goes before the terminator);
//! 5. its block dominates every latch and every exiting block, so it runs
//!    on the loop's first iteration for every lane that enters the loop,
//!    before the loop can be left: moved to the preheader it reads the
//!    same (invariant) operands on the same lanes — so a load that may
//!    fault or an operand that may be uninitialised (the simulator reports
//!    such a read as undefined behaviour) is read only where the original
//!    read it — and the value after the loop is its value either way. A
//!    top-tested loop that may run its body zero times, or an instruction
//!    under a condition inside the loop, keeps its instructions;
//!    The one exception is speculation, which only HoistInvariants (146)
//!    asks for (`speculate`; the generic phases leave it to that
//!    peephole): a [`Movable::Pure`] instruction
//!    without an indexed constant operand (`c[B][R+off]` may fault) may
//!    leave a block that not every trip runs when every unit it reads is
//!    definitely written at the preheader's end ([`Defined`], or by an
//!    instruction hoisted before it): it cannot fault, it reads no
//!    uninitialised register, and by rule 4 nothing can observe its
//!    result on a path that did not run it;
//! 6. a load's space (the [`Movable::Load`] space) must not be written by any store or atomic of the
//!    loop that may alias it ([`may_alias`]: shared, global, local and
//!    generic accesses; constant banks are never written), and the loop
//!    must hold no barrier or fence unless the load reads a constant bank
//!    (another thread's store becomes visible at a barrier). Only plain
//!    loads move: no `.STRONG`, `.MMIO` or scoped (volatile, relaxed,
//!    acquire) forms;
//! 7. it is not the last instruction of its block (blocks stay non-empty).
//!
//! Loops holding an opaque instruction (`CALL`, `R2P`, unmodelled) are
//! left alone, and so are loops without a preheader whose terminator is a
//! plain branch to the header. Inner loops go first, so an invariant of a
//! nest can climb one level per phase run. Physical registers (after
//! allocation) are handled like virtual ones: nothing new is allocated.
//!
//! # NvOpt levels
//!
//! The most instructions hoisted out of one loop per run:
//!
//! | level | 0 | 1 | 2 | 3 (default) | 4 | 5 |
//! |---|---|---|---|---|---|---|
//! | limit per loop | off | 2 | 8 | 32 | 128 | unlimited |
//!
//! OriHoistInvariantsEarly moves pure instructions only (address
//! arithmetic); the late phases move loads as well.

use super::loop_util::{
    insertion_point, is_pure, loop_def_counts, loop_is_plain, may_alias, space_of, unguarded,
    LoopView, Space,
};
use super::phase::{Phase, PhaseContext, PhaseError, Rule, RuleCounts};
use crate::ir::cfg::is_terminator;
use crate::ir::defined::Defined;
use crate::ir::loops::Loop;
use crate::ir::opcode::Effects;
use crate::ir::regs::{self, RegUnit};
use crate::ir::{Function, Inst, Op, Operand};

/// The OriHoistInvariants family (Early, Late, Late2, Late3): one struct,
/// parameterized by its table row.
pub struct OriHoistInvariants {
    pub index: u16,
    pub enabled: bool,
    /// Instructions hoisted out of one loop at most.
    pub limit: usize,
    /// Whether loads may move (the late phases).
    pub loads: bool,
}

/// The per-loop limit of NvOpt level `level` (module table).
pub fn limit_for_level(level: u8) -> usize {
    match level {
        0 => 0,
        1 => 2,
        2 => 8,
        3 => 32,
        4 => 128,
        _ => usize::MAX,
    }
}

/// The load forms that may move: the plain loads of each space with their
/// width, extension and cache-operator modifiers (`.SYS` alone is how
/// ptxas 11.8 prints an ordinary sm_70 global load). Everything else
/// (`.STRONG`, `.MMIO`, `.GPU`/`.CTA`/`.SM` scopes, `.PRIVATE`, `LDS.U`,
/// textures, surfaces) stays.
pub fn hoistable_load(inst: &Inst) -> Option<Space> {
    const OK: &[&str] = &[
        "E", "U8", "S8", "U16", "S16", "32", "64", "128", "CONSTANT", "SYS", "EF", "EL", "LU",
        "EU", "NA", "LTC64B", "LTC128B", "LTC256B",
    ];
    if !matches!(
        inst.op,
        Op::LDG | Op::LDS | Op::LDL | Op::LDC | Op::ULDC | Op::LD
    ) {
        return None;
    }
    if !inst.mods.iter().all(|m| OK.contains(m)) {
        return None;
    }
    space_of(inst.op)
}

/// What one hoisted instruction was, by the rule that let it move: the
/// one source of the rule names the hoisting phases (these and
/// HoistInvariants, 146) count their moves under.
pub const RULES: &[Rule] = &[
    Rule {
        name: "pure",
        does: "a pure instruction of a block every trip runs moves to the preheader (rule 5)",
    },
    Rule {
        name: "speculated",
        does: "a pure instruction of a block not every trip runs, all operands defined, moves (rule 5's speculation)",
    },
    Rule {
        name: "constant-load",
        does: "a constant-bank load moves to the preheader (rule 6: banks are never written)",
    },
    Rule {
        name: "memory-load",
        does: "a load of shared/global/local/generic memory no store of the loop may alias moves (rule 6)",
    },
];

const PURE: usize = 0;
const SPECULATED: usize = 1;
const CONSTANT_LOAD: usize = 2;
const MEMORY_LOAD: usize = 3;

/// What a phase's policy makes of an instruction (rule 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movable {
    /// Stays in the loop.
    No,
    /// No memory access: its result is a function of its operands.
    Pure,
    /// A load from this space: it moves only under rule 6.
    Load(Space),
}

/// The policy of the phases 35/66/79/88: pure instructions, and in the
/// late phases the plain loads of [`hoistable_load`].
fn ori_movable(inst: &Inst, loads: bool) -> Movable {
    if is_pure(inst) {
        return Movable::Pure;
    }
    match (loads, hoistable_load(inst)) {
        (true, Some(sp)) => Movable::Load(sp),
        _ => Movable::No,
    }
}

/// Whether `inst` reads a constant bank at a register-indexed address
/// (which faults out of range).
fn indexed_const(inst: &Inst) -> bool {
    inst.operands
        .iter()
        .any(|o| matches!(o, Operand::Const(c) if c.reg.is_some()))
}

/// Hoists out of loop `l` under rules 1..7, at most `limit` instructions
/// of those `movable` accepts; returns how many moved, per rule of
/// [`RULES`]. The caller
/// rebuilds `v` before using it on another loop when this moved anything
/// (liveness changes).
pub fn hoist_loop(
    f: &mut Function,
    v: &LoopView,
    l: &Loop,
    limit: usize,
    speculate: bool,
    movable: &dyn Fn(&Inst) -> Movable,
) -> RuleCounts {
    let mut counts = RuleCounts::new(RULES);
    let Some(ph) = v.preheader(f, l) else {
        return counts;
    };
    if !loop_is_plain(f, v, l) {
        return counts;
    }
    let h = l.header;
    let ph_term_uses = match f.blocks[ph].insts.last() {
        Some(t) if is_terminator(t) => {
            let only_header = matches!(t.op, Op::BRA | Op::JMP)
                && t.targets().all(|x| Some(x) == Some(f.blocks[h].label));
            if !only_header {
                return counts;
            }
            regs::uses(t)
        }
        _ => Default::default(),
    };
    let mut defs = loop_def_counts(f, l);
    let exiting = v.exiting_blocks(l);
    // Memory facts of the loop.
    let mut writes: Vec<Space> = Vec::new();
    let mut ordered = false;
    for &b in &l.blocks {
        for i in &f.blocks[b].insts {
            let e = i.op.info().effects;
            if e.intersects(Effects::STORE.union(Effects::ATOMIC)) {
                writes.push(space_of(i.op).unwrap_or(Space::Any));
            }
            if e.intersects(Effects::BARRIER.union(Effects::FENCE)) {
                ordered = true;
            }
        }
    }
    let rpo: Vec<usize> = v
        .cfg
        .rpo
        .iter()
        .copied()
        .filter(|b| l.blocks.binary_search(b).is_ok())
        .collect();
    let mut moved: Vec<(usize, usize)> = Vec::new();
    // Units written by the instructions chosen so far (all unguarded:
    // written in the preheader before anything after them reads them).
    let mut hoisted: Vec<RegUnit> = Vec::new();
    let mut defined: Option<Defined> = None;
    'blocks: for &b in &rpo {
        let every_iteration = l
            .latches
            .iter()
            .chain(&exiting)
            .all(|&e| v.dom.dominates(b, e));
        let n = f.blocks[b].insts.len();
        for (i, inst) in f.blocks[b].insts.iter().enumerate() {
            if moved.len() >= limit {
                break 'blocks;
            }
            if i + 1 == n || is_terminator(inst) || !unguarded(inst) {
                continue;
            }
            let kind = movable(inst);
            let rule = match kind {
                Movable::No => None,
                Movable::Pure if every_iteration => Some(PURE),
                Movable::Pure if speculate => {
                    let defined = defined.get_or_insert_with(|| Defined::new(f, &v.cfg));
                    (!indexed_const(inst)
                        && regs::uses(inst)
                            .iter()
                            .all(|&u| hoisted.contains(&u) || defined.at_end(ph, u)))
                    .then_some(SPECULATED)
                }
                Movable::Pure => None,
                Movable::Load(_) if !every_iteration => None,
                Movable::Load(Space::Constant) => Some(CONSTANT_LOAD),
                Movable::Load(sp) => {
                    (!ordered && writes.iter().all(|&w| !may_alias(sp, w))).then_some(MEMORY_LOAD)
                }
            };
            let Some(rule) = rule else {
                continue;
            };
            if regs::uses(inst)
                .iter()
                .any(|u| defs.get(u).copied().unwrap_or(0) > 0)
            {
                continue;
            }
            let d = regs::defs(inst);
            if d.is_empty() {
                continue;
            }
            let defs_ok = d.iter().all(|&u| {
                defs.get(&u).copied() == Some(1)
                    && !v.live.is_live_in(h, u)
                    && !ph_term_uses.contains(&u)
            });
            if !defs_ok {
                continue;
            }
            for u in d {
                defs.insert(u, 0);
                hoisted.push(u);
            }
            moved.push((b, i));
            counts.add(rule);
        }
    }
    if moved.is_empty() {
        return counts;
    }
    let insts: Vec<Inst> = moved
        .iter()
        .map(|&(b, i)| f.blocks[b].insts[i].clone())
        .collect();
    let mut by_block = moved.clone();
    by_block.sort_unstable_by(|a, b| b.cmp(a));
    for (b, i) in by_block {
        f.blocks[b].insts.remove(i);
    }
    let at = insertion_point(f, ph);
    let tail = f.blocks[ph].insts.split_off(at);
    f.blocks[ph].insts.extend(insts);
    f.blocks[ph].insts.extend(tail);
    counts
}

/// Hoists out of every loop, innermost first; returns how many moved.
pub fn hoist_invariants(f: &mut Function, limit: usize, loads: bool) -> usize {
    hoist_invariants_by_rule(f, limit, loads).total()
}

/// Hoists out of every loop, innermost first; returns how many moved per
/// rule of [`RULES`].
pub fn hoist_invariants_by_rule(f: &mut Function, limit: usize, loads: bool) -> RuleCounts {
    let mut total = RuleCounts::new(RULES);
    let mut v = LoopView::new(f);
    // Hoisting changes no block, so loop k is the same loop throughout.
    for k in (0..v.loops.loops.len()).rev() {
        let l = v.loops.loops[k].clone();
        let n = hoist_loop(f, &v, &l, limit, false, &|i| ori_movable(i, loads));
        if n.total() > 0 {
            total.merge(&n);
            v = LoopView::new(f);
        }
    }
    total
}

impl Phase for OriHoistInvariants {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled || self.limit == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = hoist_invariants_by_rule(&mut cx.function, self.limit, self.loads);
        cx.fire_rules(self.index, RULES, &n.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    use crate::phases::loop_util::text;

    /// A counted loop (header 2, preheader 1) around `body`, then EXIT.
    fn looped(pre: &str, body: &str) -> Function {
        func(&format!(
            ".L_x_0:
             MOV %r0, RZ ;
             {pre}
             .L_x_1:
             MOV %r9, 0x4 ;
             .L_x_2:
             {body}
             IADD3 %r0, %r0, 0x1, RZ ;
             ISETP.NE.AND %p0, PT, %r0, %r9, PT ;
             @%p0 BRA .L_x_2 ;
             .L_x_3:
             EXIT ;"
        ))
    }

    #[test]
    fn invariant_address_math_and_a_load_move_to_the_preheader() {
        let mut f = looped(
            "MOV %r2, c[0x0][0x160] ;
             MOV %r3, c[0x0][0x164] ;",
            "IMAD.WIDE %r4, %r9, 0x4, %r2 ;
             LDG.E %r6, [%r4.64] ;
             FADD %r7, %r6, %r7 ;",
        );
        let mut g = f.clone();
        assert_eq!(
            hoist_invariants(&mut f, usize::MAX, true),
            2,
            "{}",
            text(&f)
        );
        crate::ir::verify(&f, None).unwrap();
        let pre: Vec<Op> = f.blocks[1].insts.iter().map(|i| i.op).collect();
        assert_eq!(pre, [Op::MOV, Op::IMAD, Op::LDG], "{}", text(&f));
        // The accumulator (live around the back edge) stays.
        assert_eq!(f.blocks[2].insts[0].op, Op::FADD);
        // The early phase moves the address math only.
        assert_eq!(hoist_invariants(&mut g, usize::MAX, false), 1);
        assert_eq!(g.blocks[2].insts[0].op, Op::LDG);
    }

    #[test]
    fn a_load_stays_when_a_store_in_the_loop_may_alias_it() {
        let body = "IMAD.WIDE %r4, %r9, 0x4, %r2 ;
             LDG.E %r6, [%r4.64] ;
             STG.E [%r10.64], %r6 ;
             FADD %r7, %r6, %r7 ;";
        let mut f = looped("", body);
        assert_eq!(hoist_invariants(&mut f, usize::MAX, true), 1);
        assert_eq!(f.blocks[2].insts[0].op, Op::LDG, "{}", text(&f));
        // A shared-memory store does not alias a global load.
        let mut g = looped("", &body.replace("STG.E [%r10.64]", "STS [%r10]"));
        assert_eq!(hoist_invariants(&mut g, usize::MAX, true), 2);
        // A barrier in the loop keeps every load but constant-bank ones.
        let mut b = looped("", &body.replace("STG.E [%r10.64], %r6", "BAR.SYNC 0x0"));
        assert_eq!(hoist_invariants(&mut b, usize::MAX, true), 1);
    }

    #[test]
    fn a_load_that_may_not_run_stays() {
        // Top-tested loop: the header 2 exits before the body 3 runs, so
        // the load in 3 might never execute (zero trips): it stays, and so
        // does the address math (it might read uninitialised registers).
        let mut f = func(
            ".L_x_0:
             MOV %r0, RZ ;
             .L_x_1:
             MOV %r9, c[0x0][0x170] ;
             .L_x_2:
             ISETP.GE.AND %p0, PT, %r0, %r9, PT ;
             @%p0 BRA .L_x_4 ;
             .L_x_3:
             IMAD.WIDE %r4, %r9, 0x4, %r2 ;
             LDG.E %r6, [%r4.64] ;
             FADD %r7, %r6, %r7 ;
             IADD3 %r0, %r0, 0x1, RZ ;
             BRA .L_x_2 ;
             .L_x_4:
             STG.E [%r2.64], %r7 ;
             EXIT ;",
        );
        let before = f.clone();
        assert_eq!(
            hoist_invariants(&mut f, usize::MAX, true),
            0,
            "{}",
            text(&f)
        );
        assert_eq!(f, before);
        // The same loop bottom-tested (the body dominates the exit): both
        // move.
        let mut g = func(
            ".L_x_0:
             MOV %r0, RZ ;
             .L_x_1:
             MOV %r9, c[0x0][0x170] ;
             .L_x_2:
             IMAD.WIDE %r4, %r9, 0x4, %r2 ;
             LDG.E %r6, [%r4.64] ;
             FADD %r7, %r6, %r7 ;
             IADD3 %r0, %r0, 0x1, RZ ;
             ISETP.LT.AND %p0, PT, %r0, %r9, PT ;
             @%p0 BRA .L_x_2 ;
             .L_x_4:
             STG.E [%r2.64], %r7 ;
             EXIT ;",
        );
        assert_eq!(
            hoist_invariants(&mut g, usize::MAX, true),
            2,
            "{}",
            text(&g)
        );
    }

    /// The speculating policy of HoistInvariants (146) on loop 0.
    fn hoist_loop_spec(f: &mut Function) -> usize {
        let v = LoopView::new(f);
        let l = v.loops.loops[0].clone();
        hoist_loop(f, &v, &l, usize::MAX, true, &|i| ori_movable(i, true)).total()
    }

    #[test]
    fn pure_code_a_trip_may_skip_moves_only_with_defined_operands() {
        // The body 3 does not run on every trip (the header exits first).
        // The generic phases never speculate. Its address math reads %r9 and %r2:%r3, all written before the
        // loop on every path: it is speculated into the preheader; the
        // load stays (it may fault). With %r2 written on one path only,
        // nothing moves (the hoisted read could be uninitialised).
        let src = |pre: &str| {
            func(&format!(
                ".L_x_0:
                 MOV %r0, RZ ;
                 {pre}
                 .L_x_1:
                 MOV %r9, c[0x0][0x170] ;
                 .L_x_2:
                 ISETP.GE.AND %p0, PT, %r0, %r9, PT ;
                 @%p0 BRA .L_x_4 ;
                 .L_x_3:
                 IMAD.WIDE %r4, %r9, 0x4, %r2 ;
                 LDG.E %r6, [%r4.64] ;
                 FADD %r7, %r6, %r7 ;
                 IADD3 %r0, %r0, 0x1, RZ ;
                 BRA .L_x_2 ;
                 .L_x_4:
                 EXIT ;"
            ))
        };
        let mut f = src("MOV %r2, c[0x0][0x160] ;\n MOV %r3, c[0x0][0x164] ;");
        assert_eq!(
            hoist_invariants(&mut f, usize::MAX, true),
            0,
            "{}",
            text(&f)
        );
        let mut h = f.clone();
        assert_eq!(hoist_loop_spec(&mut h), 1, "{}", text(&h));
        assert_eq!(h.blocks[1].insts.last().unwrap().op, Op::IMAD);
        assert_eq!(h.blocks[3].insts[0].op, Op::LDG);
        let mut g = src("MOV %r3, c[0x0][0x164] ;\n @%p5 MOV %r2, c[0x0][0x160] ;");
        assert_eq!(hoist_loop_spec(&mut g), 0, "{}", text(&g));
    }

    #[test]
    fn non_ssa_definitions_stay() {
        // %r5 has two definitions in the loop; %r8 is read before its
        // definition (live into the header from the back edge); %r11 is
        // defined under a guard. None moves.
        let mut f = looped(
            "",
            "IADD3 %r5, %r9, 0x1, RZ ;
             STG.E [%r2.64], %r5 ;
             IADD3 %r5, %r9, 0x2, RZ ;
             STG.E [%r2.64], %r5 ;
             STG.E [%r2.64], %r8 ;
             IADD3 %r8, %r9, 0x3, RZ ;
             @%p3 IADD3 %r11, %r9, 0x3, RZ ;
             STG.E [%r2.64], %r11 ;",
        );
        let before = f.clone();
        assert_eq!(hoist_invariants(&mut f, usize::MAX, true), 0);
        assert_eq!(f, before);
    }

    #[test]
    fn the_level_limits_how_many_move() {
        let body = "IADD3 %r4, %r9, 0x1, RZ ;
             IADD3 %r5, %r9, 0x2, RZ ;
             IADD3 %r6, %r9, 0x3, RZ ;
             STG.E [%r2.64], %r4 ;
             STG.E [%r2.64], %r5 ;
             STG.E [%r2.64], %r6 ;";
        for (level, want) in [(1u8, 2usize), (2, 3), (5, 3)] {
            let mut f = looped("", body);
            assert_eq!(
                hoist_invariants(&mut f, limit_for_level(level), false),
                want
            );
        }
        assert_eq!(limit_for_level(0), 0);
    }

    #[test]
    fn physical_registers_follow_the_same_rules() {
        // After register allocation: R4:R5 is the only definition in the
        // loop and dead on entry (moves); R6 is defined twice (stays).
        let mut f = func(
            ".L_x_0:
             MOV R0, RZ ;
             .L_x_1:
             MOV R9, 0x4 ;
             .L_x_2:
             IMAD.WIDE R4, R9, 0x4, R2 ;
             LDG.E R6, [R4.64] ;
             FADD R7, R6, R7 ;
             MOV R6, 0x1 ;
             STG.E [R2.64], R6 ;
             IADD3 R0, R0, 0x1, RZ ;
             ISETP.NE.AND P0, PT, R0, R9, PT ;
             @P0 BRA .L_x_2 ;
             .L_x_3:
             EXIT ;",
        );
        assert_eq!(
            hoist_invariants(&mut f, usize::MAX, true),
            1,
            "{}",
            text(&f)
        );
        assert_eq!(f.blocks[1].insts[1].op, Op::IMAD);
        assert_eq!(f.blocks[2].insts[0].op, Op::LDG);
    }
}
