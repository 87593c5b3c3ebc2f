//! Instructions that complete for several threads at once: CTA barriers
//! (`bar`/`barrier`, PTX ISA 9.7.13.1) and warp-synchronous instructions
//! (`shfl`, `vote`, `match`, `redux`, `activemask`, `bar.warp.sync`; 9.7.13.x).
//! A thread that reaches one stops; the scheduler calls back here when the
//! participants may have arrived.

use super::{extend, mask, Ctx};
use crate::ptx_interp::machine::{Cta, Machine, Stop, TState, WARP};
use crate::ptx_interp::program::{Inst, Opnd};
use crate::ptx_interp::result::UbKind;
use crate::ptx_interp::semantics::warp::{self, ReduxOp, ShflMode};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

/// A thread reaches a collective instruction: it waits.
pub fn arrive(cx: &mut Ctx, i: &Inst) -> Result<bool, Stop> {
    let is_cta_barrier = matches!(i.op, Opcode::Bar | Opcode::Barrier) && !i.mods.has(Mod::Warp);
    if is_cta_barrier {
        // bar.red d, a{, b}, c: the id is operand 1; otherwise operand 0.
        let red = i.mods.has(Mod::Red);
        let id_k = usize::from(red);
        let id = mask(32, cx.get(&i.ops[id_k])?) as u32;
        if id >= 16 {
            return Err(Stop::fault(format!("barrier id {id} is outside 0..15")));
        }
        let count_k = id_k + 1;
        let has_count = if red {
            i.ops.len() == 4
        } else {
            i.ops.len() >= 2
        };
        let expected = if has_count {
            Some(mask(32, cx.get(&i.ops[count_k])?) as u32)
        } else {
            None
        };
        if let Some(n) = expected {
            if n % WARP as u32 != 0 || n == 0 {
                return Err(Stop::fault(format!(
                    "barrier thread count {n} is not a positive multiple of the warp size"
                )));
            }
        }
        if i.mods.has(Mod::Arrive) {
            // bar.arrive: counts toward the barrier without waiting.
            cx.cta.arrivals[id as usize] += 1;
            // Its accesses so far are ordered before the waiters' release.
            let t = cx.t;
            let cta = &mut *cx.cta;
            let into = &mut cta.arrive_clocks[id as usize];
            if into.is_empty() {
                into.resize(cta.threads.len(), 0);
            }
            cta.clocks.join_into(t, into);
            cta.clocks.tick(t);
            cx.th().pc += 1;
            return Ok(true);
        }
        let pc = cx.th().pc;
        cx.th().state = TState::Barrier {
            id,
            expected,
            pc,
            arrive_only: false,
        };
        return Ok(false);
    }
    let th = cx.th();
    th.state = TState::Warp {
        pc: th.pc,
        func: th.func,
    };
    Ok(false)
}

/// Releases the threads waiting at a barrier; for `bar.red`, computes the
/// reduction over the arriving threads' predicates first.
pub fn complete_barrier(m: &mut Machine, cta: &mut Cta, waiting: &[usize]) -> Result<(), Stop> {
    let prog = m.prog;
    let first = waiting[0];
    let th = &cta.threads[first];
    let inst = &prog.funcs[th.func as usize].insts[th.pc as usize];
    if let TState::Barrier { id, .. } = th.state {
        cta.arrivals[id as usize] = 0;
    }
    // The barrier orders the accesses of the threads it releases (and those
    // of the threads that arrived at it with bar.arrive).
    let id = match th.state {
        TState::Barrier { id, .. } => id as usize,
        _ => 0,
    };
    let arrived = std::mem::take(&mut cta.arrive_clocks[id]);
    cta.clocks
        .sync(waiting, (!arrived.is_empty()).then_some(&arrived[..]));
    if inst.mods.has(Mod::Red) {
        let mut preds = Vec::with_capacity(waiting.len());
        for &t in waiting {
            let th = &cta.threads[t];
            let inst = &prog.funcs[th.func as usize].insts[th.pc as usize];
            let mut cx = Ctx { m, cta, t };
            let last = inst.ops.len() - 1;
            preds.push(cx.pred(&inst.ops[last])?);
        }
        let popc = preds.iter().filter(|&&p| p).count() as u64;
        let all = preds.iter().all(|&p| p);
        let any = preds.iter().any(|&p| p);
        for &t in waiting {
            let th = &cta.threads[t];
            let inst = &prog.funcs[th.func as usize].insts[th.pc as usize];
            let v = if inst.mods.has(Mod::Popc) {
                popc
            } else if inst.mods.has(Mod::And) {
                u64::from(all)
            } else {
                u64::from(any)
            };
            let mut cx = Ctx { m, cta, t };
            cx.set(&inst.ops[0], v)?;
        }
    }
    for &t in waiting {
        let th = &mut cta.threads[t];
        th.pc += 1;
        th.state = TState::Ready;
    }
    Ok(())
}

fn member_mask_operand(i: &Inst) -> Option<usize> {
    let sync = i.mods.has(Mod::Sync);
    match i.op {
        Opcode::Bar | Opcode::Barrier => Some(0),
        Opcode::Shfl if sync => Some(4),
        Opcode::Vote | Opcode::Match | Opcode::Redux if sync => Some(2),
        _ => None,
    }
}

/// Tries to complete the collective at `pc` for the lanes in `arrived` (a
/// lane mask of warp `w0`). Ok(true) if it completed. Err((lane, stop)) for a
/// fault or UB.
pub fn try_collective(
    m: &mut Machine,
    cta: &mut Cta,
    w0: usize,
    func: u32,
    pc: u32,
    arrived: u32,
    running: bool,
) -> Result<bool, (usize, Stop)> {
    let prog = m.prog;
    let inst = &prog.funcs[func as usize].insts[pc as usize];
    let n = cta.threads.len();
    let lanes_in_warp = (n - w0).min(WARP) as u32;
    let exited: u32 = (0..lanes_in_warp)
        .filter(|&l| cta.threads[w0 + l as usize].state == TState::Exited)
        .fold(0, |acc, l| acc | 1 << l);
    let participants = match member_mask_operand(inst) {
        Some(k) => {
            // Every arrived lane names a member mask; the instruction completes
            // when all named lanes have arrived here.
            let mut union = 0u32;
            for l in 0..lanes_in_warp {
                if arrived & (1 << l) == 0 {
                    continue;
                }
                let t = w0 + l as usize;
                let mut cx = Ctx { m, cta, t };
                let mm = cx.get(&inst.ops[k]).map_err(|s| (l as usize, s))? as u32;
                if mm & (1 << l) == 0 {
                    return Err((
                        l as usize,
                        Stop::ub(UbKind::WarpSyncMismatch(format!(
                            "lane {l} is not in its own member mask 0x{mm:08x}"
                        ))),
                    ));
                }
                union |= mm;
            }
            let valid = if lanes_in_warp == 32 {
                u32::MAX
            } else {
                (1u32 << lanes_in_warp) - 1
            };
            if union & !valid != 0 || union & exited != 0 {
                let bad = (union & !valid) | (union & exited);
                let msg = format!(
                    "member mask 0x{union:08x} names lanes 0x{bad:08x} that exited or do not exist"
                );
                return Err((
                    arrived.trailing_zeros() as usize,
                    Stop::ub(UbKind::WarpSyncMismatch(msg)),
                ));
            }
            if union & !arrived != 0 {
                // Some members have not arrived (yet).
                return Ok(false);
            }
            union
        }
        None => {
            // activemask and the non-.sync forms: the lanes that reached this
            // instruction once nothing else in the warp can run.
            if running {
                return Ok(false);
            }
            arrived
        }
    };
    execute(m, cta, w0, inst, participants)?;
    for l in 0..32 {
        if participants & (1 << l) != 0 {
            let th = &mut cta.threads[w0 + l];
            th.pc += 1;
            th.state = TState::Ready;
        }
    }
    Ok(true)
}

/// Reads operand `k` in every participating lane.
fn gather(
    m: &mut Machine,
    cta: &mut Cta,
    w0: usize,
    inst: &Inst,
    k: usize,
    part: u32,
) -> Result<[u64; 32], (usize, Stop)> {
    let mut out = [0u64; 32];
    for (l, slot) in out.iter_mut().enumerate() {
        if part & (1 << l) != 0 {
            let mut cx = Ctx { m, cta, t: w0 + l };
            *slot = cx.get(&inst.ops[k]).map_err(|s| (l, s))?;
        }
    }
    Ok(out)
}

fn execute(
    m: &mut Machine,
    cta: &mut Cta,
    w0: usize,
    inst: &Inst,
    part: u32,
) -> Result<(), (usize, Stop)> {
    let write =
        |m: &mut Machine, cta: &mut Cta, l: usize, o: &Opnd, v: u64| -> Result<(), (usize, Stop)> {
            let mut cx = Ctx { m, cta, t: w0 + l };
            cx.set(o, v).map_err(|s| (l, s))
        };
    let lanes = (0..32).filter(|l| part & (1 << l) != 0);
    match inst.op {
        Opcode::Bar | Opcode::Barrier => {
            let lanes: Vec<usize> = (0..32)
                .filter(|l| part & (1 << l) != 0)
                .map(|l| w0 + l)
                .collect();
            cta.clocks.sync(&lanes, None);
        }
        Opcode::Activemask => {
            for l in lanes {
                write(m, cta, l, &inst.ops[0], u64::from(part))?;
            }
        }
        Opcode::Shfl => {
            let mode = if inst.mods.has(Mod::Up) {
                ShflMode::Up
            } else if inst.mods.has(Mod::Down) {
                ShflMode::Down
            } else if inst.mods.has(Mod::Bfly) {
                ShflMode::Bfly
            } else {
                ShflMode::Idx
            };
            let a = gather(m, cta, w0, inst, 1, part)?;
            let b = gather(m, cta, w0, inst, 2, part)?;
            let c = gather(m, cta, w0, inst, 3, part)?;
            for l in lanes {
                let (j, valid) = warp::shfl(mode, l as u32, b[l] as u32, c[l] as u32);
                let src = if valid { j as usize } else { l };
                if part & (1 << src) == 0 {
                    return Err((
                        l,
                        Stop::ub(UbKind::WarpSyncMismatch(format!(
                            "shfl in lane {l} reads lane {src}, which does not take part"
                        ))),
                    ));
                }
                let v = mask(32, a[src]);
                match &inst.ops[0] {
                    Opnd::RegPred(d, p) => {
                        write(m, cta, l, &Opnd::Reg(*d), v)?;
                        write(
                            m,
                            cta,
                            l,
                            &Opnd::Pred {
                                slot: *p,
                                neg: false,
                            },
                            u64::from(valid),
                        )?;
                    }
                    d => write(m, cta, l, d, v)?,
                }
            }
        }
        Opcode::Vote => {
            let a = gather(m, cta, w0, inst, 1, part)?;
            let mut preds = [false; 32];
            for l in 0..32 {
                preds[l] = a[l] & 1 != 0;
            }
            let mm = if inst.mods.has(Mod::Sync) {
                gather(m, cta, w0, inst, 2, part)?[part.trailing_zeros() as usize] as u32
            } else {
                part
            };
            let v = if inst.mods.has(Mod::Ballot) {
                u64::from(warp::ballot(&preds, mm, part))
            } else if inst.mods.has(Mod::All) {
                u64::from(warp::vote_all(&preds, mm, part))
            } else if inst.mods.has(Mod::Any) {
                u64::from(warp::vote_any(&preds, mm, part))
            } else {
                u64::from(warp::vote_uni(&preds, mm, part))
            };
            for l in lanes {
                write(m, cta, l, &inst.ops[0], v)?;
            }
        }
        Opcode::Match => {
            let a = gather(m, cta, w0, inst, 1, part)?;
            let bits = inst.ty.bits();
            let mut vals = [0u64; 32];
            for l in 0..32 {
                vals[l] = mask(bits, a[l]);
            }
            if inst.mods.has(Mod::All) {
                let (mk, ok) = warp::match_all(&vals, part);
                for l in lanes {
                    match &inst.ops[0] {
                        Opnd::RegPred(d, p) => {
                            write(m, cta, l, &Opnd::Reg(*d), u64::from(mk))?;
                            write(
                                m,
                                cta,
                                l,
                                &Opnd::Pred {
                                    slot: *p,
                                    neg: false,
                                },
                                u64::from(ok),
                            )?;
                        }
                        d => write(m, cta, l, d, u64::from(mk))?,
                    }
                }
            } else {
                let r = warp::match_any(&vals, part);
                for l in lanes {
                    write(m, cta, l, &inst.ops[0], u64::from(r[l]))?;
                }
            }
        }
        Opcode::Redux => {
            let a = gather(m, cta, w0, inst, 1, part)?;
            let mut vals = [0u32; 32];
            for l in 0..32 {
                vals[l] = a[l] as u32;
            }
            let op = if inst.mods.has(Mod::Add) {
                ReduxOp::Add
            } else if inst.mods.has(Mod::Min) {
                ReduxOp::Min
            } else if inst.mods.has(Mod::Max) {
                ReduxOp::Max
            } else if inst.mods.has(Mod::And) {
                ReduxOp::And
            } else if inst.mods.has(Mod::Or) {
                ReduxOp::Or
            } else {
                ReduxOp::Xor
            };
            let v = if inst.ty == ScalarType::F32 {
                let fop = if op == ReduxOp::Min {
                    warp::ReduxFOp::Min
                } else {
                    warp::ReduxFOp::Max
                };
                warp::redux_f32(
                    fop,
                    inst.mods.has(Mod::Abs),
                    inst.mods.has(Mod::NaNProp),
                    &vals,
                    part,
                )
            } else {
                warp::redux(op, inst.ty == ScalarType::S32, &vals, part)
            };
            for l in lanes {
                write(m, cta, l, &inst.ops[0], extend(inst.ty, u64::from(v)))?;
            }
        }
        _ => {
            return Err((
                0,
                Stop::fault(format!("'{}' is not a collective instruction", inst.text)),
            ))
        }
    }
    Ok(())
}
