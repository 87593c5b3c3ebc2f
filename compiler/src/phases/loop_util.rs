//! What the loop phases (OriLoopSimplification 18, OriStrengthReduce 21,
//! OriLoopUnrolling 22, the OriHoistInvariants* phases 35/66/79/88) and
//! if-conversion (OriDoPredication 63) share: the analyses of one
//! function state ([`LoopView`]), the preheader test, which blocks a phase
//! may not put code in front of, the per-loop register facts, and the
//! instruction classes that bar a rewrite.
//!
//! The IR is not SSA: a register unit may have several definitions,
//! guarded (partial) ones, and 64-bit pairs are two units. Every question
//! here is asked per register unit ([`crate::ir::regs`]), so physical
//! registers (after allocation) and virtual ones are treated alike.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::cfg::{is_terminator, Cfg};
use crate::ir::dom::DomTree;
use crate::ir::liveness::Liveness;
use crate::ir::loops::{Loop, LoopInfo};
use crate::ir::opcode::Effects;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{Pred, Reg};
use crate::ir::{Function, Inst, Op, Operand};

/// The analyses of one state of a function. Any rewrite invalidates it:
/// build a new one after changing the function.
pub struct LoopView {
    pub cfg: Cfg,
    pub dom: DomTree,
    pub loops: LoopInfo,
    pub live: std::rc::Rc<Liveness>,
    /// Blocks whose label some instruction names other than as the target
    /// of a `BRA`/`JMP` that ends a block: return addresses (`MOV %ra,
    /// .L_x_N`, the call ABI of `lower/mod.rs`), `BSSY` reconvergence
    /// points, `CALL` targets, `WARPSYNC` labels. Control reaches them in
    /// ways the CFG does not show as edges from a branch, so no block may
    /// be put in front of them and their predecessors' code cannot be
    /// assumed to run before them.
    pub address_taken: Vec<bool>,
}

/// [`LoopView::address_taken`]: blocks that control reaches other than by
/// the CFG's branch edges (and the roots).
pub fn address_taken(f: &Function, cfg: &Cfg) -> Vec<bool> {
    let mut address_taken = vec![false; f.blocks.len()];
    let index = cfg.label_index();
    for blk in &f.blocks {
        for (i, inst) in blk.insts.iter().enumerate() {
            let is_branch_end = i + 1 == blk.insts.len() && matches!(inst.op, Op::BRA | Op::JMP);
            if is_branch_end {
                continue;
            }
            for l in inst.targets() {
                if let Some(b) = index.get(l) {
                    address_taken[b] = true;
                }
            }
        }
    }
    for &r in &cfg.roots {
        address_taken[r] = true;
    }
    address_taken
}

impl LoopView {
    pub fn new(f: &Function) -> LoopView {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(&cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let live = crate::ir::analysis_cache::liveness(f);
        let address_taken = address_taken(f, &cfg);
        LoopView {
            cfg,
            dom,
            loops,
            live,
            address_taken,
        }
    }

    /// The loop's preheader: the single predecessor of the header outside
    /// the loop, whose only successor is the header, which ends in no
    /// indirect branch and holds no `CALL` (code appended to it runs
    /// exactly once each time the loop is entered, and only then). `None`
    /// when the loop has none (OriLoopSimplification makes one), when the
    /// header is address-taken (a return or reconvergence point: control
    /// may enter it without passing the preheader), or when the header is
    /// the entry of a procedure.
    pub fn preheader(&self, f: &Function, l: &Loop) -> Option<usize> {
        let h = l.header;
        if self.address_taken[h] {
            return None;
        }
        let outside: Vec<usize> = self.cfg.preds[h]
            .iter()
            .copied()
            .filter(|p| l.blocks.binary_search(p).is_err())
            .collect();
        match outside[..] {
            [p] if self.cfg.succs[p] == [h]
                && !self.cfg.indirect[p]
                && self.cfg.reachable[p]
                && !f.blocks[p].insts.iter().any(|i| i.op == Op::CALL) =>
            {
                Some(p)
            }
            _ => None,
        }
    }

    /// The blocks of the loop that have a successor outside it.
    pub fn exiting_blocks(&self, l: &Loop) -> Vec<usize> {
        l.blocks
            .iter()
            .copied()
            .filter(|&b| {
                self.cfg.succs[b]
                    .iter()
                    .any(|s| l.blocks.binary_search(s).is_err())
            })
            .collect()
    }

    /// The blocks outside the loop that a loop block branches or falls to.
    pub fn exit_blocks(&self, l: &Loop) -> Vec<usize> {
        let mut out = BTreeSet::new();
        for &b in &l.blocks {
            for &s in &self.cfg.succs[b] {
                if l.blocks.binary_search(&s).is_err() {
                    out.insert(s);
                }
            }
        }
        out.into_iter().collect()
    }

    /// Whether unit `u` is live on some edge leaving the loop.
    pub fn live_on_exit(&self, l: &Loop, u: RegUnit) -> bool {
        self.exit_blocks(l)
            .into_iter()
            .any(|x| self.live.is_live_in(x, u))
    }
}

/// Where instructions may be appended to block `b`: before its final
/// terminator, at its end when it has none.
pub fn insertion_point(f: &Function, b: usize) -> usize {
    let insts = &f.blocks[b].insts;
    match insts.last() {
        Some(last) if is_terminator(last) => insts.len() - 1,
        _ => insts.len(),
    }
}

/// How many instructions of the loop define each unit (a guarded
/// definition counts: it is one).
pub fn loop_def_counts(f: &Function, l: &Loop) -> BTreeMap<RegUnit, usize> {
    let mut out = BTreeMap::new();
    for &b in &l.blocks {
        for inst in &f.blocks[b].insts {
            for u in regs::defs(inst) {
                *out.entry(u).or_insert(0) += 1;
            }
        }
    }
    out
}

/// Whether an instruction's register effects are not fully known from its
/// operands: `CALL` (the callee's reads and writes), `R2P` (writes the
/// predicate file as a whole, unreported), `UNDECODED` slots and opcodes
/// whose shapes the table does not model ([`regs::reads_all_registers`]).
/// A loop or region holding one is left alone by every phase here.
pub fn opaque(inst: &Inst) -> bool {
    regs::reads_all_registers(inst) || inst.op == Op::R2P
}

/// Whether an instruction is pure computation that depends only on its
/// register and constant operands: no memory access, no side effect, no
/// cross-lane exchange, no special-register read (`S2R SR_CLOCKLO` reads a
/// changing value; `S2R`/`S2UR`/`CS2R` are all excluded), not opaque.
pub fn is_pure(inst: &Inst) -> bool {
    let info = inst.op.info();
    !info.has_side_effects()
        && !info.effects.intersects(Effects::LOAD.union(Effects::WARP))
        && !matches!(
            inst.op,
            Op::S2R | Op::S2UR | Op::CS2R | Op::B2R | Op::LEPC | Op::GETLMEMBASE | Op::NOP
        )
        && !opaque(inst)
}

/// Whether the instruction is unconditionally executed when reached (no
/// guard, or `@PT`).
pub fn unguarded(inst: &Inst) -> bool {
    regs::kills(inst)
}

/// The memory spaces a load or store may touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Local,
    /// Constant banks: read-only while a kernel runs.
    Constant,
    /// Generic addressing (`LD`/`ST`/`ATOM`) and surfaces/textures: any
    /// writable space.
    Any,
}

/// The space a memory instruction touches, `None` for the others.
pub fn space_of(op: Op) -> Option<Space> {
    Some(match op {
        Op::LDG | Op::STG | Op::ATOMG | Op::RED | Op::REDG => Space::Global,
        Op::LDS | Op::STS | Op::ATOMS => Space::Shared,
        Op::LDL | Op::STL => Space::Local,
        Op::LDC | Op::ULDC => Space::Constant,
        Op::LD | Op::ST | Op::ATOM => Space::Any,
        _ => {
            let e = op.info().effects;
            if e.intersects(Effects::LOAD.union(Effects::STORE).union(Effects::ATOMIC)) {
                Space::Any
            } else {
                return None;
            }
        }
    })
}

/// Whether a write to space `w` may change what a load from `r` reads.
pub fn may_alias(r: Space, w: Space) -> bool {
    match (r, w) {
        (Space::Constant, _) | (_, Space::Constant) => false,
        (Space::Any, _) | (_, Space::Any) => true,
        (a, b) => a == b,
    }
}

/// The general (32-bit, non-uniform) register of a plain register operand:
/// no negation, complement, absolute value or selector.
pub fn plain_reg(o: &Operand) -> Option<Reg> {
    match o {
        Operand::Reg(r) if !r.neg && !r.not && !r.abs && r.sel.is_none() => Some(r.reg),
        _ => None,
    }
}

/// The unit of a plain general register operand (`None` for `RZ` and the
/// uniform file).
pub fn plain_gpr(o: &Operand) -> Option<RegUnit> {
    match plain_reg(o)? {
        r @ (Reg::R(_) | Reg::V(_)) => RegUnit::of_reg(r, 0),
        _ => None,
    }
}

/// Whether the function still has virtual registers (before allocation).
/// Phases that need fresh registers do nothing once it has none (after
/// register allocation every register is physical, and a phase here cannot
/// pick a free one soundly).
pub fn has_virtual_registers(f: &Function) -> bool {
    f.insts()
        .any(|i| regs::mentioned(i).iter().any(|u| u.is_virtual()))
}

/// The next unused number among the units `number` picks out.
fn fresh(f: &Function, number: impl Fn(RegUnit) -> Option<u32>) -> u32 {
    f.insts()
        .flat_map(regs::mentioned)
        .filter_map(number)
        .map(|n| n + 1)
        .max()
        .unwrap_or(0)
}

/// The next unused virtual general register number.
pub fn fresh_vreg(f: &Function) -> u32 {
    fresh(f, |u| match u {
        RegUnit::VR(n) => Some(n),
        _ => None,
    })
}

/// The next unused virtual predicate number.
pub fn fresh_vpred(f: &Function) -> u32 {
    fresh(f, |u| match u {
        RegUnit::VP(n) => Some(n),
        _ => None,
    })
}

/// `BRA label`.
pub fn bra(label: u32) -> Inst {
    Inst::new(Op::BRA, &[], None, [Operand::Label(label)]).expect("BRA L is a valid shape")
}

/// Whether a guard predicate names a real (non-uniform) predicate register.
pub fn is_vector_pred(p: Pred) -> bool {
    matches!(p, Pred::P(_) | Pred::V(_))
}

/// Replaces the label `from` by `to` in the terminator of block `b`.
/// Returns whether one was replaced.
pub fn retarget(f: &mut Function, b: usize, from: u32, to: u32) -> bool {
    let Some(last) = f.blocks[b].insts.last_mut() else {
        return false;
    };
    if !matches!(last.op, Op::BRA | Op::JMP) {
        return false;
    }
    let mut did = false;
    for o in last.operands.iter_mut() {
        if *o == Operand::Label(from) {
            *o = Operand::Label(to);
            did = true;
        }
    }
    did
}

/// Inserts `blocks` (label, instructions) before block index `at`.
pub fn insert_blocks(f: &mut Function, at: usize, blocks: Vec<crate::ir::Block>) {
    let tail = f.blocks.split_off(at);
    f.blocks.extend(blocks);
    f.blocks.extend(tail);
}

/// Whether the loop is one a phase may rewrite at all: every block
/// reachable, no opaque instruction, no indirect branch.
pub fn loop_is_plain(f: &Function, v: &LoopView, l: &Loop) -> bool {
    l.blocks
        .iter()
        .all(|&b| v.cfg.reachable[b] && !v.cfg.indirect[b] && !f.blocks[b].insts.iter().any(opaque))
}

/// The IR as labelled SASS text (test messages).
#[cfg(test)]
pub(crate) fn text(f: &Function) -> String {
    crate::ir::to_sass(f, true).map_or_else(
        |e| e.to_string(),
        |s| crate::ir::sass_text::print_function(&s),
    )
}

#[cfg(test)]
mod tests {
    use crate::phases::order::check_order;
    use crate::phases::table::DEFAULT_ORDER;

    // The phases these tests name, by name.
    use crate::phases::table::index_of;
    const LOOP_SIMPLIFY: u16 = index_of("OriLoopSimplification");
    const STRENGTH_REDUCE: u16 = index_of("OriStrengthReduce");
    const UNROLL: u16 = index_of("OriLoopUnrolling");
    const PREDICATION: u16 = index_of("OriDoPredication");
    const HOIST_LATE3: u16 = index_of("OriHoistInvariantsLate3");
    const SCHED: u16 = index_of("ScheduleInstructions");
    /// The loop phases and if-conversion.
    const LOOP_PHASES: [u16; 8] = [
        LOOP_SIMPLIFY,
        STRENGTH_REDUCE,
        UNROLL,
        index_of("OriHoistInvariantsEarly"),
        PREDICATION,
        index_of("OriHoistInvariantsLate"),
        index_of("OriHoistInvariantsLate2"),
        HOIST_LATE3,
    ];

    #[test]
    fn the_loop_phases_must_run_before_scheduling() {
        use crate::phases::table::{row_of, Rule};
        for p in LOOP_PHASES {
            let row = row_of(p).unwrap();
            assert!(
                row.constraints
                    .iter()
                    .any(|c| c.name == "code-motion-before-scheduling"
                        && c.rule == Rule::Before(&[SCHED])),
                "{}",
                row.name
            );
        }
        // Moved after ScheduleInstructions (the phases without a numbered
        // successor, so that this is the first violation), the order is
        // refused by name.
        for p in [
            LOOP_SIMPLIFY,
            STRENGTH_REDUCE,
            UNROLL,
            PREDICATION,
            HOIST_LATE3,
        ] {
            let mut order: Vec<u16> = DEFAULT_ORDER.iter().copied().filter(|&x| x != p).collect();
            let sched = order.iter().position(|&x| x == SCHED).unwrap();
            order.insert(sched + 1, p);
            let e = check_order(&order).unwrap_err().to_string();
            assert!(
                e.contains("`code-motion-before-scheduling`") && e.contains(&format!("({SCHED})")),
                "{p}: {e}"
            );
        }
        check_order(DEFAULT_ORDER).unwrap();
    }

    #[test]
    fn the_loop_phases_are_no_ops_at_o0_and_follow_the_nvopt_level() {
        use crate::phases::phase::{create, PhaseConfig};
        let all = LOOP_PHASES;
        let mut cfg = PhaseConfig::default();
        for p in all {
            assert!(!create(p, &cfg).unwrap().is_no_op(), "{p} at -O3");
        }
        cfg.opt_level = 0;
        for p in all {
            assert!(create(p, &cfg).unwrap().is_no_op(), "{p} at -O0");
        }
        // NvOpt level 0 turns off everything but the canonicalization.
        cfg.opt_level = 3;
        cfg.nvopt_level = 0;
        let on: Vec<u16> = all
            .into_iter()
            .filter(|&p| !create(p, &cfg).unwrap().is_no_op())
            .collect();
        assert_eq!(on, [LOOP_SIMPLIFY]);
    }
}
