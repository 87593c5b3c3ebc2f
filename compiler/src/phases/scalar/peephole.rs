//! Whole-function sweeps of the local rewrites: [`fold_all`] (the
//! one-instruction rules of [`super::fold`]), [`simplify_branches`] (docs/MODEL.md,
//! Early peephole driver: `control_flow`) and [`remove_nops`] (OriRemoveNopCode).
//!
//! Every sweep keeps each block non-empty (the verifier's `empty-block`):
//! the last instruction of a block is never deleted, at most replaced.

use super::fold::{is_plain_reg, simplify};
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::Op;
use crate::ir::regs;
use crate::ir::sass_text::Pred;
use crate::ir::Function;

/// Applies [`simplify`] to every instruction; returns the count rewritten.
pub fn fold_all(f: &mut Function) -> usize {
    let mut n = 0;
    for blk in &mut f.blocks {
        for inst in &mut blk.insts {
            if let Some(new) = simplify(inst) {
                if new != *inst {
                    *inst = new;
                    n += 1;
                }
            }
        }
    }
    n
}

/// Whether `inst` is a copy of a register onto itself (any guard: a
/// self-copy changes nothing whether or not it runs).
pub fn is_self_move(inst: &Inst) -> bool {
    let (d, s) = match inst.op {
        Op::MOV | Op::UMOV if inst.operands.len() == 2 => (&inst.operands[0], &inst.operands[1]),
        Op::IMAD
            if inst.ndst == 1
                && inst.operands.len() == 4
                && inst.has_mod("MOV")
                && inst.mods.iter().all(|m| matches!(*m, "MOV" | "U32"))
                && super::fold::int_value(&inst.operands[1]) == Some(0)
                && super::fold::int_value(&inst.operands[2]) == Some(0) =>
        {
            (&inst.operands[0], &inst.operands[3])
        }
        _ => return false,
    };
    matches!((d, s), (Operand::Reg(a), Operand::Reg(b)) if a.reg == b.reg)
        && is_plain_reg(s)
        && regs::operand_width(inst, 0) == 1
}

/// Whether `inst` never runs (`@!PT`).
fn never_runs(inst: &Inst) -> bool {
    regs::never_executes(inst)
}

/// Deletes the instructions `drop` says; returns the count deleted. A
/// block all of whose instructions go is deleted with them when a block
/// follows it (control that reached it falls through to that block, so
/// every label operand naming it is retargeted there); the last block
/// keeps its last instruction (the verifier's `empty-block` and
/// `falls-off-end`).
fn delete_where(f: &mut Function, mut drop: impl FnMut(usize, usize, &Inst) -> bool) -> usize {
    let mut n = 0;
    let nb = f.blocks.len();
    let mut gone: Vec<bool> = vec![false; nb];
    for (b, blk) in f.blocks.iter_mut().enumerate() {
        let mut marks: Vec<bool> = blk
            .insts
            .iter()
            .enumerate()
            .map(|(i, x)| drop(b, i, x))
            .collect();
        if !marks.is_empty() && marks.iter().all(|&m| m) {
            if b + 1 < nb {
                gone[b] = true;
            } else if let Some(last) = marks.last_mut() {
                *last = false;
            }
        }
        let mut k = 0;
        blk.insts.retain(|_| {
            let d = marks[k];
            k += 1;
            if d {
                n += 1;
            }
            !d
        });
    }
    if gone.iter().any(|&g| g) {
        // Each deleted block's label goes to the first kept block after it.
        let mut map: std::collections::HashMap<u32, u32> = Default::default();
        let mut next_kept: Option<u32> = None;
        for b in (0..nb).rev() {
            if gone[b] {
                if let Some(t) = next_kept {
                    map.insert(f.blocks[b].label, t);
                }
            } else {
                next_kept = Some(f.blocks[b].label);
            }
        }
        let mut b = 0;
        f.blocks.retain(|_| {
            let keep = !gone[b];
            b += 1;
            keep
        });
        for blk in &mut f.blocks {
            for inst in &mut blk.insts {
                for o in inst.operands.iter_mut() {
                    if let Operand::Label(l) = o {
                        if let Some(t) = map.get(l) {
                            *l = *t;
                        }
                    }
                }
            }
        }
    }
    n
}

/// Branch simplification: a branch that never runs is deleted, an `@PT`
/// guard is dropped, and a branch to the block right after it in layout
/// is deleted (control falls through there anyway). Returns the count.
pub fn simplify_branches(f: &mut Function) -> usize {
    let mut n = 0;
    for blk in &mut f.blocks {
        for inst in &mut blk.insts {
            if let Some(g) = inst.guard {
                if matches!(g.pred, Pred::Pt | Pred::Upt) && !g.negated {
                    inst.guard = None;
                    n += 1;
                }
            }
        }
    }
    let labels: Vec<u32> = f.blocks.iter().map(|b| b.label).collect();
    let lens: Vec<usize> = f.blocks.iter().map(|b| b.insts.len()).collect();
    n += delete_where(f, |b, i, inst| {
        inst.op == Op::BRA
            && (never_runs(inst)
                || (i + 1 == lens[b]
                    && inst.mods.is_empty()
                    && inst.targets().eq(labels.get(b + 1).copied())))
    });
    n
}

/// OriRemoveNopCode's sweep: `NOP`s, self-copies, instructions that never
/// run, and branches to the next block in layout.
pub fn remove_nops(f: &mut Function) -> usize {
    let lens: Vec<usize> = f.blocks.iter().map(|b| b.insts.len()).collect();
    let labels: Vec<u32> = f.blocks.iter().map(|b| b.label).collect();
    delete_where(f, |b, i, inst| {
        inst.op == Op::NOP && inst.operands.is_empty()
            || is_self_move(inst)
            || (never_runs(inst) && !matches!(inst.op, Op::CALL))
            || (inst.op == Op::BRA
                && i + 1 == lens[b]
                && inst.mods.is_empty()
                && inst.targets().eq(labels.get(b + 1).copied()))
    })
}
