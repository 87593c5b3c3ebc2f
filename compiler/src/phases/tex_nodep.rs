//! TexNodep (149; docs/MODEL.md, TexNodep: the post-allocation texture
//! node peephole): four rewrites of texture fetches (`TEX`, `TLD`,
//! `TLD4`, `TXD`, `TXQ`) inside each block, on virtual or physical registers
//! alike (the table puts it after register allocation; every check below
//! is on register units, so it is sound before allocation too).
//!
//! 1. Shared descriptors (ptxas: "eliminate redundant descriptor loads when
//!    multiple texture fetches share the same descriptor"). A bindless
//!    fetch names its 64-bit handle in a uniform pair that `ULDC u,
//!    c[B][O]` + `UMOV u+1, URZ` loaded (the sm_90 lowering of a texture
//!    parameter, lower/tex.rs). When an earlier fetch of the block used a
//!    pair that still holds the same constant word and zero (neither unit
//!    redefined since, no call in between), the later fetch reads that
//!    pair instead; the loads of the pair it no longer reads are removed
//!    when nothing else reads them.
//! 2. Coordinate copies (ptxas: "merge texture address calculations with
//!    the fetch instruction"). A 1D fetch whose coordinate register was
//!    written by an unguarded `MOV c, x` of the same block, with neither
//!    `c` nor `x` redefined in between, reads `x`; the `MOV` is removed
//!    when nothing else reads `c`. (2D/3D coordinates must stand in
//!    consecutive registers and are left alone.)
//! 3. Clustering (ptxas: "cluster texture operations", "reorder texture
//!    fetch result extraction"): each fetch moves up toward the previous
//!    fetch of its block, past instructions it does not depend on (no
//!    register unit written by one and read or written by the other),
//!    and never past a store, atomic or surface write that may alias
//!    texture memory (global, generic, surface: everything but shared
//!    and local memory), a barrier, fence, convergence or control
//!    instruction, a call, or an instruction whose registers are not
//!    modelled. The fetches keep their relative order, and their result
//!    extraction (`MOV`s of the fetched pairs) stays behind them.
//!
//! 4. Texel offsets (ptxas: "merge texture address calculations with the
//!    fetch instruction"): an integer-coordinate fetch (`TLD`) whose
//!    coordinates were computed in the block by `IADD3 c, x, imm, RZ`
//!    with `imm` in -8..7 reads `x` and takes `imm` as its `.AOFFI` texel
//!    offset; `c` holds the packed offsets. The conditions and why it is
//!    exact (wrapping 32-bit add before the address mode, as the
//!    simulator's `TLD`): `tex_nodep/aoffi.rs`. Runs after rewrite 2 (so
//!    a coordinate that reached the fetch through a copy is seen) and
//!    before clustering.
//!
//! Each rewrite counts once in `--phase-stats`, under its rule in
//! [`RULES`]. Off at -O0 and NvOpt level 0.

use std::collections::BTreeMap;

use super::live_dead::remove_dead;
use super::phase::{Phase, PhaseContext, PhaseError, Rule, RuleCounts};
use crate::ir::opcode::Effects;
use crate::ir::regs::{self, RegUnit};
use crate::ir::remove::dead_instructions;
use crate::ir::sass_text::Reg;
use crate::ir::{Function, Inst, Op, Operand};

/// The four rewrites (module rewrites 1..4), in that order: the one
/// source of the rule names the fire counts are kept under.
pub const RULES: &[Rule] = &[
    Rule {
        name: "shared-descriptor",
        does: "a fetch reads an earlier fetch's handle pair holding the same descriptor",
    },
    Rule {
        name: "coordinate-copy",
        does: "a 1D fetch reads the source of the MOV that wrote its coordinate",
    },
    Rule {
        name: "cluster",
        does: "a fetch moves up toward the previous fetch of its block",
    },
    Rule {
        name: "texel-offset",
        does: "a TLD's add-immediate coordinates fold into its .AOFFI texel offsets",
    },
];

const SHARED_DESCRIPTOR: usize = 0;
const COORDINATE_COPY: usize = 1;
const CLUSTER: usize = 2;
const TEXEL_OFFSET: usize = 3;

/// Whether `i` is a texture fetch or query.
pub fn is_fetch(i: &Inst) -> bool {
    matches!(i.op, Op::TEX | Op::TLD | Op::TLD4 | Op::TXQ | Op::TXD)
}

/// What a uniform register holds, as far as the descriptor rewrite knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Held {
    /// A 32-bit word of constant bank `.0` at byte offset `.1`.
    Const(u32, i64),
    Zero,
}

/// Whether `i` ends every register fact (a call, or defs not modelled).
fn opaque(i: &Inst) -> bool {
    regs::reads_all_registers(i) || i.op == Op::UNDECODED
}

/// The index of the fetch's bindless handle operand (a uniform register).
fn handle_operand(i: &Inst) -> Option<(usize, Reg)> {
    (i.ndst as usize..i.operands.len()).find_map(|k| match &i.operands[k] {
        Operand::Reg(r) if matches!(r.reg, Reg::Ur(_) | Reg::Uv(_)) => Some((k, r.reg)),
        _ => None,
    })
}

fn pair(r: Reg) -> Option<(RegUnit, RegUnit)> {
    Some((RegUnit::of_reg(r, 0)?, RegUnit::of_reg(r, 1)?))
}

/// Rewrite 1 in one block; returns the units whose loads may be dead.
fn share_descriptors(insts: &mut [Inst], n: &mut RuleCounts, orphaned: &mut Vec<RegUnit>) {
    let mut held: BTreeMap<RegUnit, Held> = BTreeMap::new();
    // Pairs earlier fetches read (base register).
    let mut used: Vec<Reg> = Vec::new();
    for i in insts.iter_mut() {
        if opaque(i) {
            held.clear();
            used.clear();
            continue;
        }
        if is_fetch(i) {
            if let Some((k, r)) = handle_operand(i) {
                let contents = |r: Reg, held: &BTreeMap<RegUnit, Held>| {
                    let (a, b) = pair(r)?;
                    Some((*held.get(&a)?, *held.get(&b)?))
                };
                if let Some(c @ (Held::Const(..), Held::Zero)) = contents(r, &held) {
                    let other = used
                        .iter()
                        .copied()
                        .find(|&v| v != r && contents(v, &held) == Some(c));
                    match other {
                        Some(v) => {
                            if let Operand::Reg(op) = &mut i.operands[k] {
                                op.reg = v;
                            }
                            let (a, b) = pair(r).expect("a pair");
                            orphaned.extend([a, b]);
                            n.add(SHARED_DESCRIPTOR);
                        }
                        None => used.push(r),
                    }
                }
            }
        }
        for u in regs::defs(i) {
            held.remove(&u);
        }
        let unguarded = regs::kills(i);
        match (i.op, i.dsts().first(), i.srcs().first()) {
            (Op::ULDC, Some(Operand::Reg(d)), Some(Operand::Const(c)))
                if unguarded
                    && i.mods.iter().all(|m| *m == "32")
                    && c.reg.is_none()
                    && !(c.neg || c.abs || c.not) =>
            {
                if let (Some(u), Some(o)) = (RegUnit::of_reg(d.reg, 0), c.offset) {
                    held.insert(u, Held::Const(c.bank, o));
                }
            }
            (Op::UMOV, Some(Operand::Reg(d)), Some(Operand::Reg(s)))
                if unguarded && s.reg == Reg::Urz =>
            {
                if let Some(u) = RegUnit::of_reg(d.reg, 0) {
                    held.insert(u, Held::Zero);
                }
            }
            _ => {}
        }
    }
}

/// Rewrite 2 in one block.
fn fold_coordinates(insts: &mut [Inst], n: &mut RuleCounts, orphaned: &mut Vec<RegUnit>) {
    // Coordinate unit -> the register copied into it.
    let mut copies: BTreeMap<RegUnit, Reg> = BTreeMap::new();
    for i in insts.iter_mut() {
        if opaque(i) {
            copies.clear();
            continue;
        }
        let one_d = i
            .operands
            .iter()
            .any(|o| matches!(o, Operand::TexShape(s) if s == "1D"));
        if matches!(i.op, Op::TEX | Op::TLD | Op::TLD4) && one_d {
            let k = i.ndst as usize;
            if let Some(Operand::Reg(c)) = i.operands.get_mut(k) {
                let plain = !c.neg && !c.not && !c.abs && c.sel.is_none();
                let from = RegUnit::of_reg(c.reg, 0).and_then(|u| copies.get(&u).map(|x| (u, *x)));
                if let (true, Some((u, x))) = (plain, from) {
                    c.reg = x;
                    orphaned.push(u);
                    n.add(COORDINATE_COPY);
                }
            }
        }
        for d in regs::defs(i) {
            copies.retain(|k, v| *k != d && RegUnit::of_reg(*v, 0) != Some(d));
        }
        if let (Op::MOV, true, 2, Some(Operand::Reg(d)), Some(Operand::Reg(s))) = (
            i.op,
            regs::kills(i),
            i.operands.len(),
            i.dsts().first(),
            i.srcs().first(),
        ) {
            let plain = !s.neg && !s.not && !s.abs && s.sel.is_none();
            if plain && matches!(s.reg, Reg::R(_) | Reg::V(_)) {
                if let Some(u) = RegUnit::of_reg(d.reg, 0) {
                    copies.insert(u, s.reg);
                }
            }
        }
    }
}

/// Whether a fetch may not move above `j`.
fn blocks_fetch(j: &Inst, f: &Inst) -> bool {
    if opaque(j) || j.op == Op::CALL || !j.op.info().is_modelled() {
        return true;
    }
    let e = j.op.info().effects;
    let private = matches!(j.op, Op::STS | Op::STL | Op::ATOMS);
    if (e.intersects(Effects::STORE.union(Effects::ATOMIC)) && !private)
        || e.intersects(
            Effects::BARRIER
                .union(Effects::FENCE)
                .union(Effects::CONVERGENCE)
                .union(Effects::CONTROL)
                .union(Effects::KEEP),
        )
    {
        return true;
    }
    let (jd, ju) = (regs::defs(j), regs::uses(j));
    let (fd, fu) = (regs::defs(f), regs::uses(f));
    jd.iter().any(|u| fu.contains(u) || fd.contains(u)) || ju.iter().any(|u| fd.contains(u))
}

/// Rewrite 3 in one block.
fn cluster(insts: &mut Vec<Inst>, n: &mut RuleCounts) {
    let mut prev: Option<usize> = None;
    let mut j = 0;
    while j < insts.len() {
        if !is_fetch(&insts[j]) {
            j += 1;
            continue;
        }
        if let Some(p) = prev {
            let mut to = j;
            while to > p + 1 && !blocks_fetch(&insts[to - 1], &insts[j]) {
                to -= 1;
            }
            if to < j {
                let f = insts.remove(j);
                insts.insert(to, f);
                n.add(CLUSTER);
                prev = Some(to);
                j += 1;
                continue;
            }
        }
        prev = Some(j);
        j += 1;
    }
}

/// Removes the dead instructions with opcode in `ops` whose every
/// definition is one of `orphaned` (only what this pass orphaned).
fn remove_orphaned(f: &mut Function, orphaned: &[RegUnit], ops: &[Op]) {
    if orphaned.is_empty() {
        return;
    }
    let dead: Vec<(usize, usize)> = dead_instructions(f)
        .into_iter()
        .filter(|&(b, i)| {
            let x = &f.blocks[b].insts[i];
            ops.contains(&x.op) && regs::defs(x).iter().all(|u| orphaned.contains(u))
        })
        .collect();
    remove_dead(f, &dead);
}

/// Runs the four rewrites over `f`; returns the count.
pub fn tex_nodep(f: &mut Function) -> usize {
    tex_nodep_by_rule(f).total()
}

/// Runs the four rewrites over `f`; returns the count per rule of [`RULES`].
pub fn tex_nodep_by_rule(f: &mut Function) -> RuleCounts {
    let mut n = RuleCounts::new(RULES);
    let mut descriptors = Vec::new();
    let mut copies = Vec::new();
    for b in &mut f.blocks {
        share_descriptors(&mut b.insts, &mut n, &mut descriptors);
        fold_coordinates(&mut b.insts, &mut n, &mut copies);
    }
    // The copies rewrite 2 orphaned would read the added coordinate
    // rewrite 4 looks at: they go first.
    remove_orphaned(f, &copies, &[Op::MOV]);
    let (folded, adds) = aoffi::fold_offsets(f);
    n.0[TEXEL_OFFSET] += folded as u64;
    for b in &mut f.blocks {
        cluster(&mut b.insts, &mut n);
    }
    // The descriptor loads (after clustering, as before rewrite 4 existed)
    // and the adds of the folded second/third coordinates.
    descriptors.extend(adds);
    remove_orphaned(f, &descriptors, &[Op::ULDC, Op::UMOV, Op::IADD3, Op::MOV]);
    n
}

/// The phase.
pub struct TexNodep {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub enabled: bool,
}

impl Phase for TexNodep {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = tex_nodep_by_rule(&mut cx.function);
        cx.fire_rules(self.index, RULES, &n.0);
        Ok(())
    }
}

mod aoffi;

#[cfg(test)]
mod tests;
