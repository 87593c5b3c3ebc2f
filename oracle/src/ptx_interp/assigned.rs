//! Which registers are certainly written when an instruction runs: a
//! forward "must" data-flow analysis over a function's control flow. Where
//! every register a fast form reads (its guard included) is certainly
//! written, the fast path skips the uninitialized-read checks; everywhere
//! else the checks stay, so reading a register before writing it is still
//! reported exactly.
//!
//! The analysis is conservative: an instruction counts as writing only the
//! destinations it writes whenever it completes (fast forms, unguarded, and
//! `mov` from a special register); calls, collectives and everything else
//! count as writing nothing, and any instruction may fall through. Debug
//! builds check every skipped test (`exec::fast`).

use super::fast::{Fast, FastInst};
use super::program::{Function, Inst, Opnd};
use ptxc::ptx::isa::Opcode;

/// Above this many bits of analysis state, skip the analysis (keep every
/// check) rather than spend the memory.
const MAX_BITS: usize = 1 << 26;

/// The registers a fast form reads.
fn sources(op: &Fast) -> Vec<u32> {
    match *op {
        Fast::Int2 { a, b, .. }
        | Fast::Setp { a, b, .. }
        | Fast::Pred { a, b, .. }
        | Fast::Float2 { a, b, .. }
        | Fast::FSetp { a, b, .. } => vec![a, b],
        Fast::MadLo { a, b, c, .. } | Fast::Fma { a, b, c, .. } => vec![a, b, c],
        Fast::Selp { a, b, p, .. } => vec![a, b, p],
        Fast::Int1 { a, .. } | Fast::Mov { a, .. } | Fast::Cvt { a, .. } | Fast::Cvta { a, .. } => {
            vec![a]
        }
        Fast::Ld { base, .. } => vec![base],
        Fast::St { base, v, .. } => vec![base, v],
        Fast::StFrame { v, .. } => vec![v],
        Fast::LdFrame { .. }
        | Fast::MovSreg { .. }
        | Fast::MovFrame { .. }
        | Fast::Bra { .. }
        | Fast::Exit { .. }
        | Fast::Bar { .. }
        | Fast::Nop
        | Fast::Slow => vec![],
    }
}

/// The register an unguarded instruction writes whenever it completes.
fn destination(inst: &Inst, op: &Fast) -> Option<u32> {
    if inst.guard.is_some() {
        return None;
    }
    match *op {
        Fast::Int2 { d, .. }
        | Fast::Int1 { d, .. }
        | Fast::MadLo { d, .. }
        | Fast::Pred { d, .. }
        | Fast::Selp { d, .. }
        | Fast::Mov { d, .. }
        | Fast::MovSreg { d, .. }
        | Fast::MovFrame { d, .. }
        | Fast::Cvt { d, .. }
        | Fast::Cvta { d, .. }
        | Fast::Float2 { d, .. }
        | Fast::Fma { d, .. }
        | Fast::Ld { d, .. }
        | Fast::LdFrame { d, .. } => Some(d),
        Fast::Setp { p, .. } | Fast::FSetp { p, .. } => Some(p),
        Fast::Slow => match (inst.op, inst.ops.as_slice()) {
            // `exec::mem::mov` writes its destination after reading the
            // special register (which cannot fail).
            (Opcode::Mov, [Opnd::Reg(d), Opnd::Sreg(_)]) => Some(*d),
            _ => None,
        },
        _ => None,
    }
}

/// Where control may go after `inst` at `pc` (a superset is safe).
fn successors(inst: &Inst, pc: usize, out: &mut Vec<usize>) {
    out.clear();
    let guarded = inst.guard.is_some();
    match (inst.op, inst.ops.as_slice()) {
        (Opcode::Bra, [Opnd::Label(t), ..]) => {
            out.push(*t as usize);
            if guarded {
                out.push(pc + 1);
            }
        }
        (Opcode::Brx, [_, Opnd::Targets(ts), ..]) => {
            out.extend(ts.iter().map(|&t| t as usize));
            out.push(pc + 1);
        }
        (Opcode::Ret | Opcode::Exit, _) if !guarded => {}
        _ => out.push(pc + 1),
    }
}

/// Per instruction: whether every register its fast form reads is
/// certainly written when it runs.
pub fn sources_written(f: &Function, code: &[FastInst]) -> Vec<bool> {
    let n = f.insts.len();
    let words = (f.nregs as usize).div_ceil(64).max(1);
    if n * words * 64 > MAX_BITS {
        return vec![false; n];
    }
    // in[pc]: certainly written on entry; all ones = not reached yet.
    let mut ins = vec![u64::MAX; n * words];
    if n > 0 {
        let entry = &mut ins[..words];
        entry.fill(0);
        for (s, &w) in f.init_written.iter().enumerate() {
            if w != 0 {
                entry[s / 64] |= 1 << (s % 64);
            }
        }
    }
    let mut out = vec![0u64; words];
    let mut succ = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for pc in 0..n {
            out.copy_from_slice(&ins[pc * words..(pc + 1) * words]);
            if let Some(d) = destination(&f.insts[pc], &code[pc].op) {
                out[d as usize / 64] |= 1 << (d % 64);
            }
            successors(&f.insts[pc], pc, &mut succ);
            for &s in succ.iter().filter(|&&s| s < n) {
                for (a, &b) in ins[s * words..(s + 1) * words].iter_mut().zip(&out) {
                    let meet = *a & b;
                    changed |= meet != *a;
                    *a = meet;
                }
            }
        }
    }
    (0..n)
        .map(|pc| {
            let set = &ins[pc * words..(pc + 1) * words];
            let has = |s: u32| set[s as usize / 64] >> (s % 64) & 1 != 0;
            let guard_ok = code[pc].guard.is_none_or(|(g, _)| has(g));
            guard_ok && sources(&code[pc].op).into_iter().all(has)
        })
        .collect()
}
