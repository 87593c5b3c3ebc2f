//! Spill code: spill everywhere, with split live ranges.
//!
//! A spilled general node gets a slot in the spill area of its procedure
//! (the only one whose code names it, [`super::nodes::Node::proc`]). Every
//! instruction that names it gets a fresh temporary node of the same size
//! and alignment instead: `LDL` of the slot into the temporary right
//! before the instruction when it reads the value, or defines it only in
//! part (one word of a pair, or a guarded definition whose spill code
//! cannot take the guard, see below), so that the store after it writes
//! the right value; `STL` of the temporary into the slot right after the
//! instruction when it defines the value. Sizes 1, 2 and 4 use
//! `LDL`/`STL`, `.64`, `.128` (the slot aligned to its size, as the
//! vendor's `STL.64 [R1+0x8], R8`, switch_local.sm_70); other sizes a
//! word at a time.
//!
//! The spill code of a guarded instruction runs under the instruction's
//! guard ([`spill_guard`]): the home is read and written on exactly the
//! lanes where the instruction runs, so a guarded definition needs no
//! reload of the old value (where the guard is false the home is not
//! touched), and a guarded use does not read a home that only a
//! definition under the same guard ever wrote. Only the reload of the
//! guard itself (a spilled predicate) is unguarded, and comes first.
//!
//! A spilled predicate lives in a fresh general register (its "home"):
//! `ISETP.NE.AND %pt, PT, %home, RZ, PT` reloads it, `SEL %home, RZ, 0x1,
//! !%pt` saves it (the vendor's idiom for a predicate as 0/1,
//! `SEL R4, RZ, 0x1, !P0`, fminmax_special.sm_80). The home register is an
//! ordinary node: a later round may spill it to memory.
//!
//! Slot addresses are written `[R1+SPILL_TAG+offset]` here, with the
//! offset inside the procedure's area; `frame.rs` replaces them with real
//! offsets once the frames are laid out.

use rustc_hash::FxHashMap as HashMap;

use super::nodes::{self, Class, Loc, Nodes, TempSet};
use super::AllocError;
use crate::ir::cfg::is_terminator;
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::Op;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{Guard, MemBase, MemRef, Pred, Reg, RegOperand};
use crate::ir::Function;

/// Marks a spill slot address until the frames are laid out (far past any
/// encodable offset, so never confused with a real one).
pub const SPILL_TAG: i64 = 1 << 40;

/// Spill areas per procedure and the spill instruction counts.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    /// Procedure index (`Cfg::procs`) -> bytes of its spill area so far.
    pub area: HashMap<usize, u32>,
    stores: u32,
    loads: u32,
    store_bytes: u32,
    load_bytes: u32,
}

impl Slots {
    fn take(&mut self, proc: usize, bytes: u32) -> u32 {
        let a = self.area.entry(proc).or_insert(0);
        let align = bytes.next_power_of_two().min(16);
        let off = a.next_multiple_of(align);
        *a = off + bytes;
        off
    }

    /// (stores, loads, store bytes, load bytes).
    pub fn counts(&self) -> (u32, u32, u32, u32) {
        (self.stores, self.loads, self.store_bytes, self.load_bytes)
    }
}

fn rop(r: Reg) -> Operand {
    Operand::Reg(RegOperand {
        reg: r,
        neg: false,
        not: false,
        abs: false,
        reuse: false,
        sel: None,
    })
}

fn slot_mem(off: u32) -> Operand {
    Operand::Mem(MemRef {
        desc: None,
        base: Some(MemBase {
            reg: Reg::R(1),
            wide: false,
            u32: false,
        }),
        index: None,
        offset: Some(SPILL_TAG + i64::from(off)),
    })
}

fn pred(p: Pred, not: bool) -> Operand {
    Operand::Pred { pred: p, not }
}

fn mk(op: Op, mods: &[&str], ops: Vec<Operand>) -> Result<Inst, AllocError> {
    Inst::new(op, mods, None, ops).map_err(|e| AllocError(format!("internal: spill code: {e}")))
}

/// Where a spilled node lives.
#[derive(Clone, Copy, Debug)]
enum Home {
    /// Local memory at this offset of the procedure's area.
    Slot(u32),
    /// A general virtual register (spilled predicates).
    Reg(u32),
}

/// The highest virtual number of each file in `f`, plus one.
fn next_free(f: &Function) -> HashMap<Class, u32> {
    let mut m = HashMap::default();
    for i in f.insts() {
        for (c, lo, w) in nodes::runs(i) {
            let e = m.entry(c).or_insert(0);
            *e = (*e).max(lo + w);
        }
    }
    m
}

fn fresh(next: &mut HashMap<Class, u32>, c: Class, size: u32, align: u32) -> u32 {
    let e = next.entry(c).or_insert(0);
    let v = e.next_multiple_of(align.max(1));
    *e = v + size;
    v
}

/// Per victim node, per block: whether a definition of the node may reach
/// the block's entry (forward "maybe defined" dataflow; the first block
/// starts with nothing defined, other blocks without predecessors, such as
/// callee entries, conservatively with everything).
fn maybe_defined(f: &Function, ns: &Nodes, victims: &[usize]) -> HashMap<usize, Vec<bool>> {
    let cfg = crate::ir::cfg::Cfg::new(f);
    let nb = f.blocks.len();
    let mut out = HashMap::default();
    for &v in victims {
        let x = &ns.nodes[v];
        let unit = |n: u32| match x.class {
            Class::Gpr => RegUnit::VR(n),
            _ => RegUnit::VP(n),
        };
        let gen: Vec<bool> = f
            .blocks
            .iter()
            .map(|blk| {
                blk.insts.iter().any(|i| {
                    let d = regs::defs(i);
                    (x.lo..x.lo + x.size).any(|n| d.contains(&unit(n)))
                })
            })
            .collect();
        let mut inn: Vec<bool> = (0..nb).map(|b| b != 0 && cfg.preds[b].is_empty()).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..nb {
                let i = inn[b] || cfg.preds[b].iter().any(|&p| inn[p] || gen[p]);
                if i != inn[b] {
                    inn[b] = i;
                    changed = true;
                }
            }
        }
        out.insert(v, inn);
    }
    out
}

/// The guard the spill code around `inst` runs under (`None`: unguarded).
///
/// Rule: spill code takes the instruction's guard, so that it touches the
/// home only where the instruction reads or writes the value. Guard-aware
/// liveness (`ir::liveness`) treats a use under `g` as satisfied by a
/// definition under the same `g`; spill code that ignored the guard turned
/// such a pair into an unconditional read. Finding
/// `regalloc_uninit_after_fp64_loop` (corpus/regressions): a predicate
/// defined and used only under `@!%p0` inside a loop was spilled to a home
/// register, and the unguarded reload of its "old value" before the
/// guarded `DSETP` read the home on the first iteration, before anything
/// had written it (`ISETP.NE.AND P1, PT, R30, RZ, PT`; [`maybe_defined`]
/// sees the definition on the back edge). The exceptions, which keep
/// unguarded spill code (and reload the old value for a definition): no
/// guard or `PT` (the instruction always runs), a uniform predicate (the
/// `LDL`/`STL`/`ISETP`/`SEL` spill code cannot take one), and an
/// instruction that writes its own guard's predicate (the stores after it
/// would test the new value).
fn spill_guard(inst: &Inst, defs: &[RegUnit]) -> Option<Guard> {
    let g = inst.guard?;
    if !matches!(g.pred, Pred::P(_) | Pred::V(_)) {
        return None;
    }
    let u = RegUnit::of_pred(g.pred)?;
    (!defs.contains(&u)).then_some(g)
}

/// Rewrites the `victims` with spill code.
pub fn spill(
    f: &mut Function,
    ns: &Nodes,
    victims: &[usize],
    temps: &mut TempSet,
    slots: &mut Slots,
) -> Result<(), AllocError> {
    let mut next = next_free(f);
    let mut homes: HashMap<usize, Home> = HashMap::default();
    for &v in victims {
        let x = &ns.nodes[v];
        let proc = x.proc.expect("victims are in one procedure");
        let h = match x.class {
            Class::Gpr => Home::Slot(slots.take(proc, 4 * x.size)),
            Class::Pred => Home::Reg(fresh(&mut next, Class::Gpr, 1, 1)),
            _ => unreachable!("only general registers and predicates are spilled"),
        };
        homes.insert(v, h);
    }
    let reach = maybe_defined(f, ns, victims);
    for b in 0..f.blocks.len() {
        // Victims a definition may have reached by this point of block b.
        let mut defined: Vec<usize> = victims
            .iter()
            .copied()
            .filter(|v| reach[v].get(b).copied().unwrap_or(true))
            .collect();
        let old = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(old.len());
        // The spilled guard's reload the next instruction shares, when it
        // is the rest of an earlier round's spill code (see below).
        let mut chain: Option<(usize, u32)> = None;
        for mut inst in old {
            let mut named: Vec<usize> = Vec::new();
            for (c, lo, _) in nodes::runs(&inst) {
                if let Some(k) = ns.node_of(c, lo) {
                    if homes.contains_key(&k) && !named.contains(&k) {
                        named.push(k);
                    }
                }
            }
            if named.is_empty() {
                out.push(inst);
                chain = None;
                continue;
            }
            let uses = regs::uses(&inst);
            let defs = regs::defs(&inst);
            let guard = spill_guard(&inst, &defs);
            // The guard's virtual predicate: its reload is unguarded and
            // comes first.
            let guard_pred = match guard.map(|g| g.pred) {
                Some(Pred::V(n)) => Some(n),
                _ => None,
            };
            let mut first = Vec::new();
            let mut before = Vec::new();
            let mut after = Vec::new();
            let mut map: HashMap<(Class, u32), u32> = HashMap::default();
            let mut guard_temp = None;
            for &k in &named {
                let x = &ns.nodes[k];
                let is_guard = x.class == Class::Pred && guard_pred == Some(x.lo);
                // An earlier round's spill code around one instruction (a
                // reload into a temporary under the guard, the instruction,
                // stores of its temporaries) is a chain of instructions that
                // define temporaries the next one reads, under one guard.
                // Spilling that guard now, the chain shares one reload:
                // separate reloads would put the temporary's definition and
                // its use under different guard registers, which guard-aware
                // liveness does not pair, so the temporary would look live
                // from the entry and every such temporary would interfere
                // (generator seed 9172 of a large configuration: 30 predicate
                // temporaries live at once, "cannot allocate").
                if let Some((_, t)) = chain.filter(|&(ck, _)| is_guard && ck == k) {
                    map.insert((x.class, x.lo), t);
                    guard_temp = Some((k, t));
                    continue;
                }
                let t = fresh(&mut next, x.class, x.size, x.align);
                if is_guard {
                    guard_temp = Some((k, t));
                }
                for i in 0..x.size {
                    temps.insert((x.class, t + i));
                    map.insert((x.class, x.lo + i), t + i);
                }
                let unit = |n: u32| match x.class {
                    Class::Gpr => RegUnit::VR(n),
                    _ => RegUnit::VP(n),
                };
                let reads = (x.lo..x.lo + x.size).any(|n| uses.contains(&unit(n)));
                let writes = (x.lo..x.lo + x.size).any(|n| defs.contains(&unit(n)));
                // Under the instruction's guard, a definition of every word is
                // whole: the store after it runs where it ran.
                let full = (guard.is_some() || regs::kills(&inst))
                    && (x.lo..x.lo + x.size).all(|n| defs.contains(&unit(n)));
                // A partial definition (one word of a pair, or guarded without
                // guarded spill code) keeps the old value where it does not
                // write; when no definition can have reached it there is no
                // old value, and reloading would read an undefined register
                // or slot (generator seed 51: `ISETP.NE P1, PT, R46, RZ` before
                // the guarded IADD3 that first defines the predicate). The
                // temporary starts at zero instead, so the store after it
                // reads defined bits on every lane. ("Maybe defined" is not
                // "defined on every path": a loop's back edge makes it true on
                // the first iteration too, which is why guarded definitions
                // take the guarded spill code of `spill_guard` instead.)
                let keep_old = reads || (writes && !full && defined.contains(&k));
                let zero_first = !keep_old && writes && !full;
                if writes && !defined.contains(&k) {
                    defined.push(k);
                }
                if writes && is_terminator(&inst) {
                    return Err(AllocError(format!(
                        "cannot spill {}{}: a control transfer defines it",
                        nodes::prefix(x.class),
                        x.lo
                    )));
                }
                match homes[&k] {
                    Home::Slot(off) => {
                        let words: Vec<(u32, &'static str, u32)> = match x.size {
                            1 => vec![(0, "", 1)],
                            2 if x.align >= 2 => vec![(0, "64", 2)],
                            4 if x.align >= 4 => vec![(0, "128", 4)],
                            n => (0..n).map(|i| (i, "", 1)).collect(),
                        };
                        if zero_first {
                            for i in 0..x.size {
                                before.push(mk(
                                    Op::MOV,
                                    &[],
                                    vec![rop(Reg::V(t + i)), rop(Reg::Rz)],
                                )?);
                            }
                        }
                        for &(w, m, n) in &words {
                            let mods: Vec<&str> = if m.is_empty() { vec![] } else { vec![m] };
                            if keep_old {
                                before.push(mk(
                                    Op::LDL,
                                    &mods,
                                    vec![rop(Reg::V(t + w)), slot_mem(off + 4 * w)],
                                )?);
                                slots.loads += 1;
                                slots.load_bytes += 4 * n;
                            }
                            if writes {
                                after.push(mk(
                                    Op::STL,
                                    &mods,
                                    vec![slot_mem(off + 4 * w), rop(Reg::V(t + w))],
                                )?);
                                slots.stores += 1;
                                slots.store_bytes += 4 * n;
                            }
                        }
                    }
                    Home::Reg(h) => {
                        if keep_old || zero_first {
                            let old = if keep_old { Reg::V(h) } else { Reg::Rz };
                            let into = if is_guard { &mut first } else { &mut before };
                            into.push(mk(
                                Op::ISETP,
                                &["NE", "AND"],
                                vec![
                                    pred(Pred::V(t), false),
                                    pred(Pred::Pt, false),
                                    rop(old),
                                    rop(Reg::Rz),
                                    pred(Pred::Pt, false),
                                ],
                            )?);
                        }
                        if writes {
                            after.push(mk(
                                Op::SEL,
                                &[],
                                vec![
                                    rop(Reg::V(h)),
                                    rop(Reg::Rz),
                                    Operand::Imm(1),
                                    pred(Pred::V(t), true),
                                ],
                            )?);
                        }
                    }
                }
            }
            // The chain goes on after an instruction that defines an
            // earlier round's temporary (its reader follows) under the
            // spilled guard, which it does not redefine (`spill_guard`).
            let defines_temp = defs.iter().any(|u| match *u {
                RegUnit::VR(n) => temps.contains(&(Class::Gpr, n)),
                RegUnit::VP(n) => temps.contains(&(Class::Pred, n)),
                _ => false,
            });
            chain = guard_temp.filter(|_| defines_temp);
            nodes::map_regs(&mut inst, &mut |c, n| {
                map.get(&(c, n)).map(|&t| Loc::Virt(t))
            });
            if guard.is_some() {
                // The instruction's guard, renamed with it when it is spilled.
                for i in before.iter_mut().chain(after.iter_mut()) {
                    i.guard = inst.guard;
                }
            }
            out.extend(first);
            out.extend(before);
            out.push(inst);
            out.extend(after);
        }
        f.blocks[b].insts = out;
    }
    Ok(())
}

/// Replaces every virtual register by its colour.
pub fn rewrite_to_physical(f: &mut Function, ns: &Nodes, assign: &[u32]) {
    for blk in &mut f.blocks {
        for inst in &mut blk.insts {
            nodes::map_regs(inst, &mut |c, n| {
                let k = ns.node_of(c, n)?;
                let x = &ns.nodes[k];
                Some(Loc::Phys(assign[k] + (n - x.lo)))
            });
        }
    }
}
