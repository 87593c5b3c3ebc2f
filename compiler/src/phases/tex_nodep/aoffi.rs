//! TexNodep rewrite 4: add-immediate coordinates fold into the fetch's
//! texel offsets (`.AOFFI`). docs/MODEL.md, TexNodep: it "merges texture address
//! calculations with the fetch instruction"; the vendor form is ptxas
//! 11.8's `TLD.SCR.LZ.AOFFI RZ, R8, R8, R23, 0x0, 0x66, 2D, 0x3` with
//! `R23 = 0xcc` for `tex.2d...s32` at `(x - 4, y - 4)` (sm_80, generator
//! seed 2003; oracle/src/sim/program.rs `decode_tex`): the register after
//! the coordinates packs one signed 4-bit offset per coordinate, x in bits
//! 3:0, y in 7:4, z in 11:8.
//!
//! The shape, inside one block:
//!
//! ```text
//! IADD3 c+k, x+k, imm_k, RZ      (or MOV c+k, x+k: offset 0), k < dims
//! ...
//! TLD[.SCR].LZ d1, d0, c, [handle,] ..., ND, mask
//! ```
//!
//! becomes `MOV c, packed` (in place of the definition of `c`) and
//! `TLD[.SCR].LZ.AOFFI d1, d0, x, c, [handle,] ...`; the definitions of
//! `c+1..` are removed (dead: see the last condition).
//!
//! Why it is exact: `IADD3 c, x, imm, RZ` computes `x + imm mod 2^32`;
//! the simulator's `TLD` adds each sign-extended 4-bit offset to its
//! coordinate as a wrapping 32-bit add *before* the address mode (clamp,
//! wrap, mirror, border) and the texel lookup (oracle/src/sim/exec/tex.rs:
//! `(c as i32).wrapping_add(off)`; "added to the integer coordinates before
//! the address mode", from the seed-2003 listing). So for every `x`,
//! out-of-range and near ±2^31 included, the fetch sees the same coordinate
//! as before. (Hardware at the i32 wrap is UNCONFIRMED; ptxas emits this
//! fold itself for an arbitrary `x`, so we follow it.)
//!
//! Conditions (each checked; anything else is left alone):
//! - the fetch is an unguarded `TLD` with `.LZ`, no `.LL`/`.AOFFI` yet (the
//!   simulator models `.AOFFI` only on `TLD` without `.LL`; combining two
//!   offset registers is not done because the lowering never emits one),
//!   no other modifier than `.SCR`/`.LZ`/`.NODEP`, whose only general
//!   register source is the coordinate (the slot and uniform-handle forms;
//!   the sm_70 general-register handle form is left alone);
//! - each coordinate unit `c+k` was last written in the block by an
//!   unguarded `IADD3 c+k, x_k, imm, RZ` (the three sources in any order,
//!   no carry out, no modifier, `x_k` a plain general register) with
//!   `imm` in `-8..=7` (as a 32-bit value), or by an unguarded plain
//!   `MOV c+k, x_k` (offset 0), and at least one of them is an `IADD3`
//!   (a 1D copy alone is rewrite 2);
//! - the `x_k` are consecutive (`x_k` = `x_0 + k`), disjoint from the
//!   coordinate units, and for 2D/3D physical and aligned like the
//!   coordinates the lowering allocates (`x_0` a multiple of 2 for 2D,
//!   4 for 3D); with virtual registers only 1D folds (a virtual group's
//!   alignment is the allocator's, and `x_0 + k` is no group). After
//!   allocation a 2D fetch folds when its coordinates are adds of a pair
//!   that already stands aligned, e.g. one loaded by `ld.v2` and still live
//!   (corpus/peephole/tex_offsets_2d: `MOV R10, 0x2f` + `TLD.SCR.LZ.AOFFI
//!   R10, R6, R2, R10, ..., 2D`); coordinates computed separately land in
//!   independent registers and stay;
//! - no `x_k` is written between its definition and the fetch, no `c+k`
//!   is read there, and no instruction there reads or writes registers
//!   unmodelled (a call, `UNDECODED`);
//! - no `c+k` is live after the fetch unless the fetch itself overwrites
//!   it (its destinations): the fetch is the only reader of the added
//!   values, so `c` may hold the packed offsets instead.
//!
//! The offsets need a register (the modelled `.AOFFI` form has no
//! immediate): DECISION: `c` itself, because the phase runs after register
//! allocation and cannot take a fresh one, and `c` is free by the last
//! condition. Each fold counts once in `--phase-stats`.

use crate::ir::liveness::Liveness;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::Reg;
use crate::ir::{Function, Inst, Op, Operand};

/// One planned fold.
struct Fold {
    block: usize,
    fetch: usize,
    /// The definition of each coordinate unit.
    defs: Vec<usize>,
    /// The register the fetch reads as its coordinates instead (`x_0`).
    base: Reg,
    packed: i64,
}

/// The coordinate count of a fetch (`1D`/`2D`/`3D`).
fn dims(i: &Inst) -> Option<u8> {
    i.operands.iter().find_map(|o| match o {
        Operand::TexShape(s) => match s.as_str() {
            "1D" => Some(1),
            "2D" => Some(2),
            "3D" => Some(3),
            _ => None,
        },
        _ => None,
    })
}

fn plain_reg(o: &Operand) -> Option<Reg> {
    match o {
        Operand::Reg(r)
            if !r.neg
                && !r.not
                && !r.abs
                && r.sel.is_none()
                && matches!(r.reg, Reg::R(_) | Reg::V(_)) =>
        {
            Some(r.reg)
        }
        _ => None,
    }
}

/// A 32-bit immediate as the signed value the adder sees.
fn imm32(v: i64) -> Option<i32> {
    i32::try_from(v)
        .ok()
        .or_else(|| u32::try_from(v).ok().map(|u| u as i32))
}

/// `(x, offset, is_add)` when `i` is an unguarded `IADD3 d, x, imm, RZ`
/// (any source order) or `MOV d, x` writing exactly unit `d`.
fn add_immediate(i: &Inst, d: RegUnit) -> Option<(Reg, i32, bool)> {
    if !regs::kills(i) || i.ndst != 1 || !i.mods.is_empty() {
        return None;
    }
    let Some(Operand::Reg(dst)) = i.dsts().first() else {
        return None;
    };
    if RegUnit::of_reg(dst.reg, 0) != Some(d) || regs::defs(i).len() != 1 {
        return None;
    }
    let s = i.srcs();
    match (i.op, s.len()) {
        (Op::MOV, 1) => Some((plain_reg(&s[0])?, 0, false)),
        (Op::IADD3, 3) => {
            let x = s.iter().filter_map(plain_reg).collect::<Vec<_>>();
            let imms: Vec<i64> = s
                .iter()
                .filter_map(|o| match o {
                    Operand::Imm(v) => Some(*v),
                    _ => None,
                })
                .collect();
            let rz = s
                .iter()
                .filter(|o| matches!(o, Operand::Reg(r) if r.reg == Reg::Rz))
                .count();
            match (x.as_slice(), imms.as_slice(), rz) {
                ([x], [v], 1) => Some((*x, imm32(*v)?, true)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the fetch at `j` has the form the fold handles; its coordinate.
fn foldable_fetch(i: &Inst) -> Option<(Reg, u8)> {
    if i.op != Op::TLD
        || i.guard.is_some()
        || !i.has_mod("LZ")
        || i.mods.iter().any(|m| !matches!(*m, "SCR" | "LZ" | "NODEP"))
    {
        return None;
    }
    let n = dims(i)?;
    let k = i.ndst as usize;
    let c = plain_reg(i.operands.get(k)?)?;
    // No other general register source (the handle is a slot or uniform).
    let others = i.operands[k + 1..]
        .iter()
        .any(|o| matches!(o, Operand::Reg(r) if matches!(r.reg, Reg::R(_) | Reg::V(_))));
    (!others).then_some((c, n))
}

/// Plans the fold of the fetch at `j` of block `b`.
fn plan(f: &Function, live: &Liveness, b: usize, j: usize) -> Option<Fold> {
    let insts = &f.blocks[b].insts;
    let (c, n) = foldable_fetch(&insts[j])?;
    if n > 1 && !matches!(c, Reg::R(_)) {
        return None;
    }
    let cu: Vec<RegUnit> = (0..n)
        .map(|k| RegUnit::of_reg(c, k))
        .collect::<Option<_>>()?;
    let mut defs = Vec::new();
    let mut xs = Vec::new();
    let mut packed = 0i64;
    let mut any_add = false;
    for &u in &cu {
        // The last write of `u` before the fetch.
        let d = (0..j).rev().find(|&p| {
            regs::defs(&insts[p]).contains(&u) || regs::reads_all_registers(&insts[p])
        })?;
        let (x, off, add) = add_immediate(&insts[d], u)?;
        if !(-8..=7).contains(&off) {
            return None;
        }
        packed |= i64::from(off & 0xf) << (4 * xs.len());
        any_add |= add;
        defs.push(d);
        xs.push(x);
    }
    let base = xs[0];
    let xu: Vec<RegUnit> = (0..n)
        .map(|k| RegUnit::of_reg(base, k))
        .collect::<Option<_>>()?;
    if !any_add
        || xs
            .iter()
            .zip(&xu)
            .any(|(x, u)| RegUnit::of_reg(*x, 0) != Some(*u))
    {
        return None;
    }
    if let (Reg::R(r), true) = (base, n > 1) {
        if u32::from(r) % u32::from(n.next_power_of_two()) != 0 {
            return None;
        }
    }
    if xu.iter().any(|u| cu.contains(u)) {
        return None;
    }
    for (k, &d) in defs.iter().enumerate() {
        for i in &insts[d + 1..j] {
            if regs::reads_all_registers(i)
                || regs::defs(i).contains(&xu[k])
                || regs::uses(i).contains(&cu[k])
            {
                return None;
            }
        }
    }
    // The fetch is unguarded: what it writes is its own result afterwards.
    let after = live.live_after(b, j);
    let written = regs::defs(&insts[j]);
    if cu
        .iter()
        .any(|u| !written.contains(u) && live.units.index(*u).is_some_and(|x| after.contains(x)))
    {
        return None;
    }
    Some(Fold {
        block: b,
        fetch: j,
        defs,
        base,
        packed,
    })
}

/// Replaces the definition of `c` and the fetch; changes nothing unless
/// both new instructions build.
fn apply(f: &mut Function, p: &Fold) -> Option<()> {
    let insts = &mut f.blocks[p.block].insts;
    let dst = insts[p.defs[0]].dsts()[0].clone();
    let mov = Inst::new(Op::MOV, &[], None, [dst.clone(), Operand::Imm(p.packed)]).ok()?;
    let fetch = &insts[p.fetch];
    let k = fetch.ndst as usize;
    let mut ops: Vec<Operand> = fetch.operands.to_vec();
    let Operand::Reg(c) = &mut ops[k] else {
        return None;
    };
    c.reg = p.base;
    ops.insert(k + 1, dst);
    let mut mods: Vec<&str> = fetch.mods.to_vec();
    mods.push("AOFFI");
    let mut new = Inst::new(fetch.op, &mods, fetch.guard, ops).ok()?;
    if let Some(ctrl) = fetch.control() {
        new.set_control(ctrl);
    }
    insts[p.defs[0]] = mov;
    insts[p.fetch] = new;
    Some(())
}

/// Folds every foldable fetch of `f`; returns the count and the units whose
/// definitions (`c+1..`) are now dead.
pub fn fold_offsets(f: &mut Function) -> (usize, Vec<RegUnit>) {
    let mut n = 0;
    let mut orphaned = Vec::new();
    loop {
        let live = crate::ir::analysis_cache::liveness(f);
        let found = (0..f.blocks.len())
            .find_map(|b| (0..f.blocks[b].insts.len()).find_map(|j| plan(f, &live, b, j)));
        let Some(p) = found else {
            break;
        };
        let insts = &f.blocks[p.block].insts;
        for &d in &p.defs[1..] {
            orphaned.extend(regs::defs(&insts[d]));
        }
        if apply(f, &p).is_none() {
            // Unreachable by construction (the shapes were checked); stop
            // rather than loop on the same candidate.
            break;
        }
        n += 1;
    }
    (n, orphaned)
}
