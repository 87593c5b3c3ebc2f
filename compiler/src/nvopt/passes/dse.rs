//! DSE (cicc's, docs/MODEL.md, NvOpt pipelines; knob `no-dse`): delete stores no read can
//! observe. Only thread-private memory is considered: `.local` (each
//! thread's own, PTX ISA 5.1.5) and `.param` variables of the function
//! body (a call's arguments, read only by the callee at the `call`). A
//! store to `.shared`/`.global` or through a generic address is never
//! deleted: another thread may read it without this thread reading
//! anything (a racing read is not undefined in the interpreter's model).
//!
//! Two rules:
//! - Overwritten: in one block, a non-volatile `st.local`/`st.param` whose
//!   bytes an unguarded later store of the same space and the same address
//!   base fully covers, with nothing in between that may read memory: any
//!   load except one of the same space and base at disjoint constant
//!   offsets, and anything else that is not pure and not a store (calls,
//!   atomics, barriers, fences, ...).
//! - Never read: a `.local` variable whose addresses do not escape (the
//!   analysis SROA uses: every access a plain load or store at a known
//!   constant offset, any two the same bytes or disjoint) gets its stores
//!   deleted where no load of the variable overlaps their bytes anywhere
//!   in the function (local memory ends with the thread).

use super::sroa::{accesses, derived, var_size};
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::ast::StateSpace;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::{Mod, ModCat};

pub struct Dse;

/// The space, base and byte range of a plain `.local`/`.param` store or
/// load: (space, base, offset, size).
fn place(i: &Inst) -> Option<(Mod, AddrBase, i64, i64)> {
    if !matches!(i.op, Opcode::Ld | Opcode::St) {
        return None;
    }
    if i.mods.iter().any(|m| m.cat() == ModCat::Order) {
        return None;
    }
    let space = i
        .mods
        .iter()
        .find(|m| matches!(m, Mod::Local | Mod::Param))?;
    let vec = match () {
        _ if i.has(Mod::V2) => 2,
        _ if i.has(Mod::V4) => 4,
        _ if i.has(Mod::V8) => 8,
        _ => 1,
    };
    let size = i64::from(i.ty()?.bytes()) * vec;
    let k = if i.op == Opcode::Ld { 1 } else { 0 };
    let Some(Opnd::Addr(a)) = i.ops.get(k) else {
        return None;
    };
    if !a.rest.is_empty() {
        return None;
    }
    Some((space, a.base.clone(), a.offset, size))
}

/// Rule 1 in one block: the indices of overwritten stores.
fn overwritten(b: &Block) -> Vec<usize> {
    let mut dead = Vec::new();
    for (k, s1) in b.insts.iter().enumerate() {
        if s1.op != Opcode::St {
            continue;
        }
        let Some((sp, base, off, size)) = place(s1) else {
            continue;
        };
        for i in &b.insts[k + 1..] {
            let p = place(i);
            if i.op == Opcode::St {
                if let Some((sp2, base2, off2, size2)) = &p {
                    if i.guard.is_none()
                        && *sp2 == sp
                        && *base2 == base
                        && *off2 <= off
                        && off + size <= off2 + size2
                    {
                        dead.push(k);
                        break;
                    }
                }
                continue;
            }
            if i.op == Opcode::Ld {
                match &p {
                    Some((sp2, base2, off2, size2))
                        if *sp2 == sp
                            && *base2 == base
                            && (off2 + size2 <= off || off + size <= *off2) => {}
                    _ => break,
                }
                continue;
            }
            if !i.is_pure() {
                break;
            }
        }
    }
    dead
}

impl Pass for Dse {
    fn name(&self) -> &'static str {
        "dse"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut dead: Vec<(usize, usize)> = Vec::new();
        for (bi, b) in f.blocks.iter().enumerate() {
            dead.extend(overwritten(b).into_iter().map(|k| (bi, k)));
        }
        let vars: Vec<_> = f
            .locals
            .iter()
            .filter(|d| d.space == StateSpace::Local && d.init.is_none())
            .filter_map(|d| Some((d.name, var_size(d)?)))
            .collect();
        for (var, size) in vars {
            let off = derived(f, var);
            let Some(acc) = accesses(f, var, size, &off) else {
                continue;
            };
            let loads: Vec<(i64, i64)> = acc
                .iter()
                .filter(|a| f.blocks[a.block].insts[a.inst].op == Opcode::Ld)
                .map(|a| (a.off, a.off + i64::from(a.size)))
                .collect();
            for a in &acc {
                let (lo, hi) = (a.off, a.off + i64::from(a.size));
                if f.blocks[a.block].insts[a.inst].op == Opcode::St
                    && !loads.iter().any(|&(l, h)| l < hi && lo < h)
                {
                    dead.push((a.block, a.inst));
                }
            }
        }
        if dead.is_empty() {
            return false;
        }
        dead.sort_unstable();
        dead.dedup();
        for &(b, k) in dead.iter().rev() {
            f.blocks[b].insts.remove(k);
        }
        true
    }
}
