//! Reassociate (cicc's, docs/MODEL.md, NvOpt pipelines; knob `no-reassoc`): regroups
//! chains of an associative, commutative integer operation so constants
//! meet and fold, as LLVM's Reassociate ranks constants last.
//!
//! Integers only: `add`, `sub` by a constant (as `add` of the negated
//! constant), `mul.lo`, `and`, `or`, `xor` on `.bN`/`.uN`/`.sN` types
//! without `.sat`/`.cc` (or any other modifier). These are exact in
//! two's-complement arithmetic modulo 2^N (PTX ISA 9.7.1: the integer
//! results wrap), so any grouping gives the same bits. Float `add`/`mul`
//! are never reassociated: with rounding, `(a + b) + c` and
//! `a + (b + c)` differ in general, and no float operation in PTX is
//! exactly associative except where results are exact, which this pass
//! does not try to prove.
//!
//! Rewrites (unguarded instructions only; `t` must have the same opcode
//! and type as `d`):
//! 1. `t = x op c1; d = t op c2` gives `d = x op (c1 op c2)` (`t` stays
//!    for its other users; DCE removes it otherwise).
//! 2. `t = x op c; d = t op y` with `t` used once and in the same block
//!    gives `t' = x op y` placed just before `d` and `d = t' op c`: the
//!    constant moves outward, where rule 1 can meet the next constant.

use super::util::{def_sites, imm_of, int_width, truncate, DefSite};
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;

pub struct Reassociate;

/// The class of an instruction for this pass: (opcode as combined, width)
/// when it is a plain integer associative operation; `sub` counts as
/// `add`.
fn class(i: &Inst) -> Option<(Opcode, u32)> {
    if i.guard.is_some() || i.ops.len() != 3 || !matches!(i.ops[0], Opnd::Val(_)) {
        return None;
    }
    let ty = i.ty()?;
    if !ty.is_int() && !matches!(ty.bit_type(), t if t == ty) {
        return None;
    }
    let w = int_width(ty).filter(|&w| w > 1)?;
    let allowed: &[Mod] = if i.op == Opcode::Mul { &[Mod::Lo] } else { &[] };
    if !super::util::mods_only(i, allowed) {
        return None;
    }
    match i.op {
        Opcode::Add | Opcode::Sub | Opcode::And | Opcode::Or | Opcode::Xor => Some((
            if i.op == Opcode::Sub {
                Opcode::Add
            } else {
                i.op
            },
            w,
        )),
        Opcode::Mul if i.has(Mod::Lo) => Some((Opcode::Mul, w)),
        _ => None,
    }
}

/// `x op c` with `c` a constant: (x, c), with `sub x, c` as `add x, -c`.
fn with_const(i: &Inst, w: u32) -> Option<(Value, u64)> {
    let imm = |o: &Opnd| match o {
        Opnd::Imm(m) => super::util::imm_bits(m, w),
        _ => None,
    };
    match (&i.ops[1], &i.ops[2]) {
        (Opnd::Val(x), c) => {
            let c = imm(c)?;
            Some((
                *x,
                if i.op == Opcode::Sub {
                    truncate(c.wrapping_neg(), w)
                } else {
                    c
                },
            ))
        }
        (c, Opnd::Val(x)) if i.op != Opcode::Sub => Some((*x, imm(c)?)),
        _ => None,
    }
}

fn combine(op: Opcode, a: u64, b: u64, w: u32) -> u64 {
    truncate(
        match op {
            Opcode::Add => a.wrapping_add(b),
            Opcode::Mul => a.wrapping_mul(b),
            Opcode::And => a & b,
            Opcode::Or => a | b,
            _ => a ^ b,
        },
        w,
    )
}

fn as_op(i: &mut Inst, op: Opcode) {
    i.op = op;
}

fn step(f: &mut Function) -> bool {
    let sites = def_sites(f);
    let uses = f.use_counts();
    for bi in 0..f.blocks.len() {
        for k in 0..f.blocks[bi].insts.len() {
            let d = &f.blocks[bi].insts[k];
            let Some((op, w)) = class(d) else { continue };
            let same_type = |t: &Inst| t.ty() == d.ty() && class(t) == Some((op, w));
            // Rule 1.
            if let Some((t, c2)) = with_const(d, w) {
                if let Some(DefSite::Inst(tb, tk)) = sites[t.idx()] {
                    let ti = &f.blocks[tb.idx()].insts[tk];
                    if same_type(ti) {
                        if let Some((x, c1)) = with_const(ti, w) {
                            let c = combine(op, c1, c2, w);
                            let d = &mut f.blocks[bi].insts[k];
                            as_op(d, op);
                            d.ops[1] = Opnd::Val(x);
                            d.ops[2] = Opnd::Imm(imm_of(c, w));
                            return true;
                        }
                    }
                }
            }
            // Rule 2 (`sub` is not commutative: only `add` here).
            if d.op == Opcode::Sub {
                continue;
            }
            let (Opnd::Val(a), Opnd::Val(b)) = (&d.ops[1], &d.ops[2]) else {
                continue;
            };
            for (t, y) in [(*a, *b), (*b, *a)] {
                if uses[t.idx()] != 1 || t == y {
                    continue;
                }
                let Some(DefSite::Inst(tb, tk)) = sites[t.idx()] else {
                    continue;
                };
                if tb.idx() != bi || tk >= k {
                    continue;
                }
                let ti = &f.blocks[tb.idx()].insts[tk];
                if !same_type(ti) {
                    continue;
                }
                let Some((x, c)) = with_const(ti, w) else {
                    continue;
                };
                // y must be defined before d: it is (SSA), and t' sits
                // right before d.
                let mut tnew = f.blocks[bi].insts.remove(tk);
                as_op(&mut tnew, op);
                tnew.ops[1] = Opnd::Val(x);
                tnew.ops[2] = Opnd::Val(y);
                let k = k - 1;
                let d = &mut f.blocks[bi].insts[k];
                as_op(d, op);
                d.ops[1] = Opnd::Val(t);
                d.ops[2] = Opnd::Imm(imm_of(c, w));
                f.blocks[bi].insts.insert(k, tnew);
                return true;
            }
        }
    }
    false
}

impl Pass for Reassociate {
    fn name(&self) -> &'static str {
        "reassociate"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut changed = false;
        // Each rewrite removes a constant from an inner position or merges
        // two; the bound only guards against a mistake looping forever.
        let limit = 4 * f.blocks.iter().map(|b| b.insts.len()).sum::<usize>() + 16;
        for _ in 0..limit {
            if !step(f) {
                break;
            }
            changed = true;
        }
        changed
    }
}
