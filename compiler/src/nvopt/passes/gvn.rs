//! GVN (cicc's GVN; docs/MODEL.md, NvOpt pipelines): value numbering over the dominator tree
//! plus redundant-load elimination and store-to-load forwarding.
//!
//! - Pure, unguarded instructions with one destination ([`Inst::is_pure`])
//!   are numbered by opcode, modifiers and operands (after earlier
//!   replacements), with the two sources of a commutative integer
//!   operation (`add`, `mul.lo`/`.hi`/`.wide`, `and`, `or`, `xor`, `min`,
//!   `max` on integer or bit types) put in a canonical order; one that
//!   repeats a number available in a dominating position is replaced by
//!   it. Float operations are not reordered: with two NaN inputs the
//!   result's payload may depend on the order.
//! - Memory, within one block: a plain load (unguarded, no `.volatile` or
//!   ordering, scalar) reads the value the last plain unguarded store of a
//!   register to the same address (same space, base and offset, the same
//!   access type size and register type) wrote, or the last identical load
//!   read. What may write memory in between forgets: a store forgets every
//!   entry of its space with another base or overlapping bytes, and the
//!   generic entries (a generic address may point anywhere; a generic store
//!   forgets everything); anything else that is not pure and not a plain
//!   load (calls, atomics, reductions, barriers, fences, volatile or
//!   ordered accesses) forgets everything. `.local` and `.param` are
//!   thread-private; for `.shared`/`.global` another thread's write with no
//!   barrier or atomic in between would be a data race, which the PTX
//!   memory model leaves without a defined result (ISA 8.10).

use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::{Mod, ModCat};

pub struct Gvn;

fn commutative(i: &Inst) -> bool {
    let int = i.ty().is_some_and(|t| !t.is_float());
    int && matches!(
        i.op,
        Opcode::Add
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Min
            | Opcode::Max
            | Opcode::Mul
    ) && !i.has(Mod::Cc)
        && !i.has(Mod::Sat)
}

fn key(i: &Inst) -> String {
    let mut srcs = i.srcs().to_vec();
    if commutative(i) && srcs.len() == 2 {
        let a = format!("{:?}", srcs[0]);
        let b = format!("{:?}", srcs[1]);
        if b < a {
            srcs.swap(0, 1);
        }
    }
    format!("{:?}{:?}{:?}", i.op, i.mods, srcs)
}

/// An address in memory: (space or None for generic, base, offset).
type Place = (Option<Mod>, String, i64);

/// A plain scalar load or store: its place and access size in bytes.
fn place(i: &Inst) -> Option<(Place, u32)> {
    if !matches!(i.op, Opcode::Ld | Opcode::St) || i.guard.is_some() {
        return None;
    }
    if i.mods
        .iter()
        .any(|m| matches!(m.cat(), ModCat::Order | ModCat::Vector | ModCat::Cache))
    {
        return None;
    }
    let space = i.mods.iter().find(|m| m.cat() == ModCat::Space);
    if space.is_some_and(|s| !matches!(s, Mod::Local | Mod::Param | Mod::Shared | Mod::Global)) {
        return None;
    }
    let k = usize::from(i.op == Opcode::Ld);
    let Some(Opnd::Addr(a)) = i.ops.get(k) else {
        return None;
    };
    if !a.rest.is_empty() {
        return None;
    }
    Some(((space, format!("{:?}", a.base), a.offset), i.ty()?.bytes()))
}

/// The available memory values of one block.
#[derive(Default)]
struct Mem {
    /// place -> (access size, value)
    vals: Vec<(Place, u32, Value)>,
}

impl Mem {
    /// A store to `p` of `size` bytes (None: unknown place in `space`).
    fn clobber(&mut self, space: Option<Mod>, p: Option<&(Place, u32)>) {
        self.vals.retain(|((s, base, off), size, _)| {
            if space.is_none() {
                return false; // a generic store may write anything
            }
            if s.is_none() {
                return false; // a generic entry may be in this space
            }
            if *s != space {
                return true; // disjoint state spaces
            }
            match p {
                Some(((_, b2, o2), sz2)) => {
                    b2 == base && (o2 + i64::from(*sz2) <= *off || off + i64::from(*size) <= *o2)
                }
                None => false,
            }
        });
    }
}

impl Pass for Gvn {
    fn name(&self) -> &'static str {
        "gvn"
    }

    fn run(&self, f: &mut Function) -> bool {
        super::numbering::run(f, key, |mem: &mut Mem, values, i, single| {
            if let Some((p, size)) = place(i) {
                if i.op == Opcode::Ld {
                    let d = single.expect("a scalar load defines one register");
                    let dt = values[d.idx()].ty;
                    let hit = mem
                        .vals
                        .iter()
                        .rev()
                        .find(|(q, sz, v)| *q == p && *sz == size && values[v.idx()].ty == dt);
                    let exact = dt.bits() == size * 8;
                    match hit {
                        Some(&(_, _, v)) if exact => return Some(v),
                        _ if exact => mem.vals.push((p, size, d)),
                        _ => {}
                    }
                } else {
                    mem.clobber(p.0, Some(&(p.clone(), size)));
                    if let Some(Opnd::Val(v)) = i.ops.get(1) {
                        if values[v.idx()].ty.bits() == size * 8 {
                            mem.vals.push((p, size, *v));
                        }
                    }
                }
            } else if i.op == Opcode::Ld && i.mods.iter().all(|m| m.cat() != ModCat::Order) {
                // A load this pass does not track reads only.
            } else if i.op == Opcode::St {
                let space = i.mods.iter().find(|m| m.cat() == ModCat::Space);
                mem.clobber(space, None);
            } else if !i.is_pure() {
                mem.vals.clear();
            }
            None
        })
    }
}
