//! Spill areas in the stack frames, and the stack depth.
//!
//! R1 is the stack pointer (lower/mod.rs): the kernel loads it from
//! `c[0x0][0x28]` first thing, and a function with a frame moves it down
//! (`IADD3 R1, R1, -F, RZ`) and back up before each `RET` (under the
//! return's guard when the return is guarded). The *depth* at a point of a
//! procedure is how far R1 is below its value at the procedure's entry
//! (for the kernel: right after the load); [`proc_depths`] computes it by
//! a forward walk and refuses code where it is ambiguous (paths that
//! disagree, R1 written any other way).
//!
//! A procedure with `S` bytes of spill slots (rounded up to 16: frames
//! keep R1 16-byte aligned, lower/mod.rs `frame_layout`) gets
//! `IADD3 R1, R1, -S, RZ` at its entry (the kernel: after the load) and
//! `IADD3 R1, R1, S, RZ` right before each `RET`; its spill area is the
//! `S` bytes just below its entry R1, `[R1 + depth - S + slot]` at a point
//! of depth `depth`. Callees put their frames below the caller's R1, so
//! the areas of different procedures never overlap.
//!
//! The stack size of the kernel ([`stack_depth`]) is the largest depth
//! reached, a callee's stack counting from the depth of its call site; a
//! call through a register counts its deepest candidate callee; a
//! procedure's direct self-calls count one activation (the real depth is
//! data-dependent: [`has_self_calls`], lower/recursion.rs).

use std::collections::HashMap;

use super::spill::{Slots, SPILL_TAG};
use super::AllocError;
use crate::ir::cfg::Cfg;
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::Op;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{ConstRef, Reg, RegOperand};
use crate::ir::Function;
use crate::targets::SmInfo;

fn is_sp(o: &Operand) -> bool {
    matches!(o, Operand::Reg(r) if r.reg == Reg::R(1) && !r.neg && !r.not && !r.abs)
}

/// `IADD3 R1, R1, imm, RZ`: the immediate.
fn sp_adjust(inst: &Inst) -> Option<i64> {
    if inst.op != Op::IADD3 || inst.operands.len() != 4 || !inst.mods.is_empty() {
        return None;
    }
    let o = &inst.operands;
    match (&o[2], &o[3]) {
        (Operand::Imm(v), Operand::Reg(z)) if is_sp(&o[0]) && is_sp(&o[1]) && z.reg == Reg::Rz => {
            Some(*v)
        }
        _ => None,
    }
}

fn writes_sp(inst: &Inst) -> bool {
    regs::defs(inst).contains(&RegUnit::R(1))
}

fn reg(r: Reg) -> Operand {
    Operand::Reg(RegOperand {
        reg: r,
        neg: false,
        not: false,
        abs: false,
        reuse: false,
        sel: None,
    })
}

fn adjust(by: i64, guard: Option<crate::ir::sass_text::Guard>) -> Inst {
    Inst::new(
        Op::IADD3,
        &[],
        guard,
        [
            reg(Reg::R(1)),
            reg(Reg::R(1)),
            Operand::Imm(by),
            reg(Reg::Rz),
        ],
    )
    .expect("IADD3 R1, R1, imm, RZ is a valid shape")
}

/// The prologue's stack pointer load, as the lowering writes it (the
/// vendor's `IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]`, `LDC R1, c[0x0][0x28]`
/// on sm_90, lower/mod.rs).
fn load_sp(sm: &SmInfo) -> Result<Inst, AllocError> {
    let cb = sm.cbank.ok_or_else(|| {
        AllocError(format!(
            "{}: no constant bank layout for the stack pointer",
            sm.name
        ))
    })?;
    let c = Operand::Const(ConstRef {
        bank: 0,
        reg: None,
        offset: Some(i64::from(cb.stack_pointer)),
        neg: false,
        abs: false,
        not: false,
    });
    let i = if sm.sm >= 90 {
        Inst::new(Op::LDC, &[], None, [reg(Reg::R(1)), c])
    } else {
        Inst::new(
            Op::IMAD,
            &["MOV", "U32"],
            None,
            [reg(Reg::R(1)), reg(Reg::Rz), reg(Reg::Rz), c],
        )
    };
    i.map_err(|e| AllocError(format!("internal: {e}")))
}

/// The kernel's procedure: the one entered at block 0.
fn kernel_proc(cfg: &Cfg) -> Option<usize> {
    cfg.procs.iter().position(|p| p.entry == 0)
}

/// Per block of a procedure, the depth before each instruction.
pub type Depths = HashMap<usize, Vec<Option<i64>>>;

/// Depths of procedure `p`: for each of its blocks (by block index), the
/// depth before each instruction (`None` before the kernel's R1 load),
/// and the largest depth reached.
pub fn proc_depths(
    f: &Function,
    cfg: &Cfg,
    p: usize,
    is_kernel: bool,
) -> Result<(Depths, i64), String> {
    let proc = &cfg.procs[p];
    let mut start: HashMap<usize, Option<i64>> = HashMap::new();
    start.insert(proc.entry, if is_kernel { None } else { Some(0) });
    let mut out = HashMap::new();
    let mut work = vec![proc.entry];
    let mut max = 0i64;
    while let Some(b) = work.pop() {
        if out.contains_key(&b) {
            continue;
        }
        let mut d = start[&b];
        let insts = &f.blocks[b].insts;
        let mut before = Vec::with_capacity(insts.len());
        // A guarded adjustment: the rest of the block must be that
        // guard's return path.
        let mut returning: Option<crate::ir::sass_text::Guard> = None;
        for inst in insts {
            before.push(d);
            if regs::never_executes(inst) {
                continue;
            }
            if let Some(g) = returning {
                let same = inst.guard == Some(g);
                if !same || !(sp_adjust(inst).is_some() || inst.op == Op::RET) {
                    return Err(format!(
                        "block .L_x_{}: a guarded stack adjustment is not followed by the return under the same guard",
                        f.blocks[b].label
                    ));
                }
                continue;
            }
            if !writes_sp(inst) {
                continue;
            }
            match sp_adjust(inst) {
                Some(v) if d.is_some() => {
                    if regs::kills(inst) {
                        d = d.map(|x| x - v);
                        max = max.max(d.unwrap_or(0));
                    } else {
                        returning = inst.guard;
                    }
                }
                _ if is_kernel && d.is_none() && regs::kills(inst) => d = Some(0),
                _ => {
                    return Err(format!(
                        "block .L_x_{}: R1 (the stack pointer) is written outside the frame code",
                        f.blocks[b].label
                    ))
                }
            }
        }
        out.insert(b, before);
        for &s in &cfg.succs[b] {
            if proc.blocks.binary_search(&s).is_err() {
                continue;
            }
            match start.get(&s) {
                Some(&e) if e != d => {
                    return Err(format!(
                        "block .L_x_{}: the stack depth differs between its predecessors",
                        f.blocks[s].label
                    ))
                }
                Some(_) => {}
                None => {
                    start.insert(s, d);
                    work.push(s);
                }
            }
        }
    }
    Ok((out, max))
}

/// Moves the kernel's stack-pointer load (`MOV R1, c[0x0][0x28]`) to the
/// top of the entry block when spill code comes before it: the scheduler
/// (phase 147, before allocation) may sink the load below instructions
/// whose values the allocator then spills. The load reads only constant
/// bank 0 and nothing else writes R1, so it can move up freely (found by
/// generator seed 2002 at `--maxrregcount 24`).
fn hoist_sp_load(f: &mut Function, entry: usize) {
    let insts = &mut f.blocks[entry].insts;
    let Some(k) = insts.iter().position(writes_sp) else {
        return;
    };
    let spills_before = insts[..k].iter().any(|i| {
        i.operands
            .iter()
            .any(|o| matches!(o, Operand::Mem(m) if m.offset.is_some_and(|x| x >= SPILL_TAG)))
    });
    if spills_before {
        let load = insts.remove(k);
        insts.insert(0, load);
    }
}

/// Inserts the spill areas of `slots` into the frames and gives every
/// spill instruction its real address. Returns the spill bytes added.
pub fn lay_out(f: &mut Function, slots: &Slots, sm: Option<&SmInfo>) -> Result<u32, AllocError> {
    let err = |m: String| AllocError(format!("spill frame: {m}"));
    let cfg = Cfg::new(f);
    let kernel = kernel_proc(&cfg);
    if let Some(k) = kernel {
        hoist_sp_load(f, cfg.procs[k].entry);
    }
    let mut total = 0;
    let mut sizes: HashMap<usize, i64> = HashMap::new();
    // Insertions: (block, index, instruction), applied back to front.
    let mut ins: Vec<(usize, usize, Inst)> = Vec::new();
    for (&p, &bytes) in &slots.area {
        let s = bytes.next_multiple_of(16);
        if s == 0 {
            continue;
        }
        total += s;
        sizes.insert(p, i64::from(s));
        let proc = &cfg.procs[p];
        let at = if Some(p) == kernel {
            match f.blocks[proc.entry].insts.iter().position(writes_sp) {
                Some(k) => k + 1,
                None => {
                    // The dead-code phases drop the prologue's load when
                    // nothing used R1: put it back first thing.
                    let sm = sm.ok_or_else(|| err("the kernel never loads R1".into()))?;
                    ins.push((proc.entry, 0, load_sp(sm)?));
                    0
                }
            }
        } else {
            0
        };
        ins.push((proc.entry, at, adjust(-i64::from(s), None)));
        for &b in &proc.rets {
            if cfg.procs_of(b).count() > 1 {
                return Err(err(format!(
                    "block .L_x_{} returns for several procedures",
                    f.blocks[b].label
                )));
            }
            let last = f.blocks[b].insts.len() - 1;
            let g = f.blocks[b].insts[last].guard;
            ins.push((b, last, adjust(i64::from(s), g)));
        }
    }
    // Back to front; at one position the later insertion goes in first so
    // that the earlier one ends up before it.
    let mut ins: Vec<(usize, (usize, usize, Inst))> = ins.into_iter().enumerate().collect();
    ins.sort_by_key(|(k, (b, i, _))| std::cmp::Reverse((*b, *i, *k)));
    for (_, (b, i, inst)) in ins {
        f.blocks[b].insts.insert(i, inst);
    }
    // Addresses.
    let cfg = Cfg::new(f);
    for (p, _) in cfg.procs.iter().enumerate() {
        let Some(&s) = sizes.get(&p) else { continue };
        let (depths, _) = proc_depths(f, &cfg, p, Some(p) == kernel).map_err(err)?;
        for (b, before) in depths {
            for (inst, d) in f.blocks[b].insts.iter_mut().zip(before) {
                for o in inst.operands.iter_mut() {
                    let Operand::Mem(m) = o else { continue };
                    let Some(off) = m.offset.filter(|&x| x >= SPILL_TAG) else {
                        continue;
                    };
                    let d =
                        d.ok_or_else(|| err("spill code before the stack pointer is set".into()))?;
                    let real = d - s + (off - SPILL_TAG);
                    if real < 0 {
                        return Err(err("a spill slot above the procedure's frame".into()));
                    }
                    m.offset = (real != 0).then_some(real);
                }
            }
        }
    }
    if f.insts()
        .flat_map(|i| i.operands.iter())
        .any(|o| matches!(o, Operand::Mem(m) if m.offset.is_some_and(|x| x >= SPILL_TAG)))
    {
        return Err(err("a spill instruction outside its procedure".into()));
    }
    Ok(total)
}

/// The per-thread stack the kernel needs: the largest depth below the
/// kernel's initial R1 reached anywhere, callees included.
///
/// A call to a procedure already on the call chain (a direct self-call,
/// or any call of a recursive cycle, lower/recursion.rs and
/// lower/call_graph.rs) is not followed: the depth counts one activation
/// of each recursive procedure, whose real depth depends on the data
/// ([`has_self_calls`], the driver; ptxas 11.8 reports the frame of one
/// activation and warns "Stack size for entry function 'k' cannot be
/// statically determined").
///
/// The callees of a `CALL` through a register (`CALL.REL.NOINC R`,
/// lower/call_indirect.rs) are its candidates, [`Cfg::register_callees`]
/// (the blocks nothing else reaches: every address-taken function, a
/// superset of the call's signature class, which the SASS does not
/// record); the depth takes the largest over them. A callee already on
/// the chain is skipped as above. A value computed with such a skip
/// depends on the chain and is not memoised. The result bounds one
/// activation of every real call chain from above (each is a chain of the
/// candidate graph, repeats counted once).
pub fn stack_depth(f: &Function) -> Result<u32, String> {
    let cfg = Cfg::new(f);
    let Some(kernel) = kernel_proc(&cfg) else {
        return Ok(0);
    };
    let mut memo: HashMap<usize, i64> = HashMap::new();
    /// The depth of procedure `p`, and the lowest position on `stack` of
    /// a candidate skipped for being on it (`None`: the value does not
    /// depend on the chain).
    fn go(
        f: &Function,
        cfg: &Cfg,
        p: usize,
        kernel: usize,
        memo: &mut HashMap<usize, i64>,
        stack: &mut Vec<usize>,
    ) -> Result<(i64, Option<usize>), String> {
        if let Some(&v) = memo.get(&p) {
            return Ok((v, None));
        }
        if stack.contains(&p) {
            return Err("recursive calls".into());
        }
        let here = stack.len();
        stack.push(p);
        let (depths, mut max) = proc_depths(f, cfg, p, p == kernel)?;
        let mut skipped: Option<usize> = None;
        for c in &cfg.calls {
            let Some(before) = depths.get(&c.block) else {
                continue;
            };
            let callees: &[usize] = match &c.target {
                Some(t) => std::slice::from_ref(t),
                None if regs::calls_through_register(&f.blocks[c.block].insts[c.inst]) => {
                    &cfg.register_callees
                }
                None => continue,
            };
            let d = before.get(c.inst).copied().flatten().unwrap_or(0);
            for &t in callees {
                let Some(q) = cfg.procs.iter().position(|x| x.entry == t) else {
                    continue;
                };
                // Recursion (lower/recursion.rs): one activation counts;
                // the depth is not static.
                if let Some(at) = stack.iter().position(|&x| x == q) {
                    skipped = Some(skipped.map_or(at, |s| s.min(at)));
                    continue;
                }
                let (v, s) = go(f, cfg, q, kernel, memo, stack)?;
                if let Some(s) = s {
                    skipped = Some(skipped.map_or(s, |x| x.min(s)));
                }
                max = max.max(d + v);
            }
        }
        stack.pop();
        // Skips at this procedure or deeper do not depend on the chain.
        let skipped = skipped.filter(|&s| s < here);
        if skipped.is_none() {
            memo.insert(p, max);
        }
        Ok((max, skipped))
    }
    let (v, _) = go(f, &cfg, kernel, kernel, &mut memo, &mut Vec::new())?;
    u32::try_from(v).map_err(|_| "negative stack depth".into())
}

/// Whether some procedure of `f` calls its own entry directly (a
/// self-recursive `.func`): the stack depth is then not static.
pub fn has_self_calls(f: &Function) -> bool {
    let cfg = Cfg::new(f);
    cfg.calls.iter().any(|c| {
        c.target.is_some_and(|t| {
            cfg.procs
                .iter()
                .any(|p| p.entry == t && p.blocks.binary_search(&c.block).is_ok())
        })
    })
}
