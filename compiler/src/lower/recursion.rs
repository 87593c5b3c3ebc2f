//! Recursion: a `.func` on a cycle of the call graph (call_graph.rs): one
//! that calls itself, directly or through a function pointer, or a cycle
//! of functions at least one of whose calls goes through a pointer (mutual
//! recursion through direct calls only is refused there).
//!
//! The ABI (mod.rs) gives each callee one fixed set of virtual registers,
//! so an activation of `f` started while `f` is active (by `f` itself, or
//! by another function of its cycle) overwrites every register of the
//! earlier one: its parameters, return-address pair, temporaries. ptxas
//! 11.8 compiles direct self-recursion (ptxas's driver phase 17 aborts only on
//! *mutual* recursion; `ptxas -v` on a recursive factorial: "Stack size for
//! entry function 'k' cannot be statically determined", `fact`: "16 bytes
//! stack frame"): its callee saves the callee-saved registers it uses
//! (`R16`.., the return address `R20:R21`) to its frame on entry and reloads
//! them before `RET` (fact.sm_80 -O3: `IADD3 R1, R1, -0x10, RZ ; STL
//! [R1+0xc], R21 ; STL [R1+0x8], R20 ; STL [R1+0x4], R17 ; STL [R1], R2 ;
//! MOV R17, R4 ; BMOV.32.CLEAR R2, B6` ... `LDL R20, [R1+0x8] ; BMOV.32 B6,
//! R2 ; ... IADD3 R1, R1, 0x10, RZ ; RET.REL.NODEC R20 0x0`).
//!
//! DECISION (our equivalent on virtual registers; callee-saving needs the
//! fixed physical ABI, where the incoming arguments are caller-saved
//! scratch): the *caller* saves, around each call that may re-enter it
//! (a "self-call" below: a call to a function of its own cycle, or a
//! pointer call with such a candidate). Before the
//! argument copies, `IADD3 R1, R1, -S, RZ` and an `STL [R1+4k]` of each
//! register of the function live after the call sequence (its result
//! copies excluded: they receive the callee's values); after the result
//! copies, the `LDL`s back and `IADD3 R1, R1, S, RZ`. `S` is four bytes a
//! register, rounded up to 16 (frames keep R1 16-byte aligned, mod.rs
//! `frame_layout`). A predicate travels through a general register as the
//! allocator spills one (`SEL %t, RZ, 0x1, !%p` / `ISETP.NE.AND %p, PT,
//! %t, RZ, PT`, regalloc/spill.rs). Liveness is the function's own
//! (intraprocedural, [`save_sets`]): the return address and return slots
//! are live at each `RET`, a self-`CALL` clobbers every register. Every
//! function of a cycle saves this way around its own such calls, so each
//! activation gets its registers back whichever function of the cycle
//! runs in between (ptxas 11.8 on `even` -> pointer -> `odd` -> `even`:
//! both save their callee-saved registers and return address, call_graph.rs).
//!
//! The convergence barrier of a call to `f` (call.rs: `B(1 + height)` of
//! `f`'s component, call_graph.rs) is the same for every function of the
//! cycle, and self-calls open no region, so a recursive `f` keeps its
//! callers' barrier as ptxas does (`BMOV.32.CLEAR %t, Bn` on entry,
//! `BMOV.32 Bn, %t` before each `RET`, with `%t` saved across the
//! self-calls like any other live register).
//!
//! Warp-synchronous code after a call that recursed to per-lane depths
//! (corpus/regressions/recursion_then_shfl: a full-mask `shfl.sync` after
//! `fact(%tid.x & 7)`) relies on each activation's `BSYNC Bn` releasing
//! that activation's lanes only: lanes of outer activations wait at the
//! same `BSYNC` (or reach it together with the inner ones) while `Bn`
//! holds the inner activation's lanes. ptxas's listing has the same shape
//! (and no `WARPSYNC` before the `SHFL`); the simulator's rule and its
//! sources are in oracle/src/sim/exec/control.rs.
//!
//! The stack grows by the frame and the save area per activation; its
//! depth is not static (regalloc/frame.rs [`crate::regalloc::stack_depth`]
//! counts one activation, the driver warns as ptxas). Running out of the
//! thread's local memory faults in the simulator (an access below the
//! window), and the PTX interpreter stops at its call-depth limit.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::inst::Inst;
use crate::ir::opcode::Op;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::Reg;

use super::builder::*;
use super::{AbiSlot, Cx};

/// A self-recursive function's convergence: the register holding its
/// callers' barrier, the barrier, and the label of its one exit (`BSYNC`,
/// `BMOV.32` back, the frame popped, `RET`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecFrame {
    pub saved: u32,
    pub barrier: u8,
    pub exit: u32,
}

/// One self-call (a call that may re-enter the function, module doc), by
/// builder positions (block index, instruction index): where its argument
/// copies start, its `CALL`, where its result copies start and end.
#[derive(Clone, Debug)]
pub(crate) struct SelfCall {
    pub save_at: (usize, usize),
    pub call_at: (usize, usize),
    pub results_at: (usize, usize),
    pub restore_at: (usize, usize),
}

/// The registers (general and predicate) named by an ABI slot.
pub(super) fn slot_units(s: &AbiSlot, out: &mut Vec<RegUnit>) {
    match s {
        AbiSlot::Words(first, n) => out.extend((*first..first + n).map(RegUnit::VR)),
        AbiSlot::Reg(v, _) => match v {
            super::regs::Val::P(p) => out.push(RegUnit::VP(*p)),
            v => out.extend(v.words().into_iter().map(RegUnit::VR)),
        },
    }
}

/// Backwards over one instruction.
fn step(live: &mut FxHashSet<RegUnit>, inst: &Inst) {
    if regs::kills(inst) {
        for d in regs::defs(inst) {
            live.remove(&d);
        }
    }
    live.extend(regs::uses(inst));
}

fn saved_kind(u: &RegUnit) -> bool {
    matches!(u, RegUnit::VR(_) | RegUnit::VP(_))
}

/// What each self-call must save, by the function's own liveness over
/// `blocks[from..]` (the function's blocks). `at_ret`: what each `RET` needs (the return address, the
/// return slots); `results[c]`: the registers call `c`'s result copies
/// write.
///
/// Backwards, a self-`CALL` clobbers every general and predicate
/// register; at its restore point the registers live there (but its
/// results) are its save set `S` and die (the `LDL`s define them); at its
/// save point `S` becomes live (the `STL`s read it). The save sets grow
/// with the live sets to a common fixed point, so a value one call saves
/// is kept live across an earlier call (the return address across the
/// first of two self-calls, read by the second's save).
pub(crate) fn save_sets(
    blocks: &[crate::ir::Block],
    from: usize,
    at_ret: &[RegUnit],
    calls: &[SelfCall],
    results: &[FxHashSet<RegUnit>],
) -> Vec<FxHashSet<RegUnit>> {
    #[derive(Clone, Copy)]
    enum Hook {
        Save(usize),
        Restore(usize),
    }
    let n = blocks.len();
    let index: FxHashMap<u32, usize> = (from..n).map(|b| (blocks[b].label, b)).collect();
    let mut hooks: FxHashMap<(usize, usize), Vec<Hook>> = FxHashMap::default();
    // At one point, a restore comes before a later call's save; backwards,
    // the save is met first.
    for (c, sc) in calls.iter().enumerate() {
        hooks.entry(sc.save_at).or_default().push(Hook::Save(c));
    }
    for (c, sc) in calls.iter().enumerate() {
        hooks
            .entry(sc.restore_at)
            .or_default()
            .push(Hook::Restore(c));
    }
    let mut sets: Vec<FxHashSet<RegUnit>> = vec![FxHashSet::default(); calls.len()];
    let mut live_in: Vec<FxHashSet<RegUnit>> = vec![FxHashSet::default(); n];
    let apply =
        |at: (usize, usize), live: &mut FxHashSet<RegUnit>, sets: &mut Vec<FxHashSet<RegUnit>>| {
            for h in hooks.get(&at).into_iter().flatten() {
                match *h {
                    Hook::Save(c) => live.extend(sets[c].iter().copied()),
                    Hook::Restore(c) => {
                        let new: Vec<RegUnit> = live
                            .iter()
                            .copied()
                            .filter(|u| saved_kind(u) && !results[c].contains(u))
                            .collect();
                        sets[c].extend(new);
                        live.retain(|u| !sets[c].contains(u));
                    }
                }
            }
        };
    loop {
        let mut changed = false;
        for b in (from..n).rev() {
            let insts = &blocks[b].insts;
            let mut live = if crate::ir::cfg::falls_through(insts.last()) && b + 1 < n {
                live_in[b + 1].clone()
            } else {
                FxHashSet::default()
            };
            let before: Vec<usize> = sets.iter().map(FxHashSet::len).collect();
            for (i, inst) in insts.iter().enumerate().rev() {
                apply((b, i + 1), &mut live, &mut sets);
                if inst.op == Op::RET {
                    live.extend(at_ret.iter().copied());
                }
                if matches!(inst.op, Op::BRA | Op::JMP | Op::BRX | Op::JMX) {
                    for t in inst.targets() {
                        if let Some(&s) = index.get(&t) {
                            live.extend(live_in[s].iter().copied());
                        }
                    }
                }
                if inst.op == Op::CALL && calls.iter().any(|c| c.call_at == (b, i)) {
                    live.retain(|u| !saved_kind(u));
                    live.extend(regs::uses(inst));
                } else {
                    step(&mut live, inst);
                }
            }
            apply((b, 0), &mut live, &mut sets);
            let grew = sets.iter().map(FxHashSet::len).ne(before.iter().copied());
            if live != live_in[b] || grew {
                live_in[b] = live;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    sets
}

impl Cx<'_> {
    /// After the body of a recursive `.func` (its blocks from `from`):
    /// the saves around each self-call (module doc).
    pub(super) fn save_around_self_calls(&mut self, from: usize, at_ret: &[RegUnit]) -> R {
        let calls = std::mem::take(&mut self.cur.self_calls);
        if calls.is_empty() {
            return Ok(());
        }
        let results: Vec<FxHashSet<RegUnit>> = calls
            .iter()
            .map(|c| {
                let (rb, rk) = c.restore_at;
                let (qb, qk) = c.results_at;
                let mut out = FxHashSet::default();
                for b in qb..=rb {
                    let insts = &self.b.blocks[b].insts;
                    let lo = if b == qb { qk } else { 0 };
                    let hi = if b == rb { rk } else { insts.len() };
                    for i in &insts[lo..hi] {
                        out.extend(regs::defs(i));
                    }
                }
                out
            })
            .collect();
        let sets = save_sets(&self.b.blocks, from, at_ret, &calls, &results);
        // Insertions at descending positions keep the recorded ones valid;
        // at one position a save goes in first, so that it ends up after
        // an earlier call's restore.
        let mut edits: Vec<((usize, usize), u8, Vec<Inst>)> = Vec::new();
        for (c, set) in calls.iter().zip(sets) {
            let mut save: Vec<RegUnit> = set.into_iter().collect();
            save.sort();
            if save.is_empty() {
                continue;
            }
            let bytes = i64::from((4 * save.len() as u32).next_multiple_of(16));
            let (pre, post) = self.save_code(&save, bytes)?;
            edits.push((c.save_at, 1, pre));
            edits.push((c.restore_at, 0, post));
        }
        edits.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));
        for ((b, k), _, code) in edits {
            let insts = &mut self.b.blocks[b].insts;
            let tail = insts.split_off(k);
            insts.extend(code);
            insts.extend(tail);
        }
        Ok(())
    }

    /// The save and restore code for `units` in a `bytes`-byte area.
    fn save_code(&mut self, units: &[RegUnit], bytes: i64) -> R<(Vec<Inst>, Vec<Inst>)> {
        // Emit into a scratch block, then take the instructions out.
        // Unguarded even around a guarded call (the allocator's frame
        // walk wants R1 moved unconditionally; a save and restore that
        // run without the call leave every register as it was).
        let saved_guard = self.b.guard.take();
        let scratch = self.b.new_label();
        let n = self.b.blocks.len();
        self.b.start_block(scratch);
        self.b
            .emit(Op::IADD3, &[], [sp(), sp(), imm(-bytes), rz()])?;
        let mut temps = Vec::new();
        for (k, u) in units.iter().enumerate() {
            let at = mem(Reg::R(1), false, 4 * k as i64);
            let v = match *u {
                RegUnit::VR(v) => v,
                RegUnit::VP(q) => {
                    let t = self.b.vreg();
                    self.b.emit(Op::SEL, &[], [r(t), rz(), imm(1), pnot(q)])?;
                    temps.push(t);
                    t
                }
                _ => unreachable!("filtered to VR/VP"),
            };
            self.b.emit(Op::STL, &[], [at, r(v)])?;
        }
        let pre = std::mem::take(&mut self.b.blocks[n].insts);
        let mut t = temps.into_iter();
        for (k, u) in units.iter().enumerate() {
            let at = mem(Reg::R(1), false, 4 * k as i64);
            match *u {
                RegUnit::VR(v) => self.b.emit(Op::LDL, &[], [r(v), at])?,
                RegUnit::VP(q) => {
                    let tv = t.next().expect("one temporary per predicate");
                    self.b.emit(Op::LDL, &[], [r(tv), at])?;
                    self.b
                        .emit(Op::ISETP, &["NE", "AND"], [p(q), pt(), r(tv), rz(), pt()])?;
                }
                _ => unreachable!("filtered to VR/VP"),
            }
        }
        self.b
            .emit(Op::IADD3, &[], [sp(), sp(), imm(bytes), rz()])?;
        let post = std::mem::take(&mut self.b.blocks[n].insts);
        self.b.blocks.truncate(n);
        self.b.guard = saved_guard;
        Ok((pre, post))
    }
}
