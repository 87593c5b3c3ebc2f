//! `call` and `ret` (PTX ISA 9.7.12.4, 9.7.12.5): a call saves the caller's
//! registers and frame, copies the arguments into the callee's parameters
//! and starts the callee; `ret` copies the return values to the caller's
//! targets and resumes it (the `.param` copies are the ABI the PTX text
//! spells out with `st.param`/`ld.param`). Register files of finished calls
//! are kept for the next call, so calls do not allocate.

use super::{Ctx, FUNC_BASE};
use crate::launch::limits;
use crate::ptx_interp::machine::{Frame, Stop, TState};
use crate::ptx_interp::program::{Inst, Opnd, Param, Space};
use crate::ptx_interp::result::UbKind;

/// A call's (return list, target, argument list).
fn parts(ops: &[Opnd]) -> Option<(&[Opnd], &Opnd, &[Opnd])> {
    Some(match ops {
        [Opnd::List(r), tgt, Opnd::List(a), ..] => (r, tgt, a),
        [Opnd::List(r), tgt] => (r, tgt, &[]),
        [tgt, Opnd::List(a), ..] => (&[], tgt, a),
        [tgt] => (&[], tgt, &[]),
        _ => return None,
    })
}

/// An argument passed in memory: a `.param` or `.local` variable of the caller.
fn in_memory(a: &Opnd) -> Option<(Space, u64)> {
    match a {
        Opnd::VarAddr(v, _) if matches!(v.space, Space::FrameParam | Space::Local) => {
            Some((v.space, v.offset))
        }
        _ => None,
    }
}

pub fn call(cx: &mut Ctx, i: &Inst) -> Result<bool, Stop> {
    let Some((_, target, args)) = parts(&i.ops) else {
        return Err(Stop::fault("malformed call"));
    };
    let callee = match target {
        Opnd::Func(f) => *f,
        other => {
            let v = cx.get(other)?;
            let idx = v.wrapping_sub(FUNC_BASE) / 16;
            if v < FUNC_BASE || idx as usize >= cx.m.prog.funcs.len() {
                return Err(Stop::fault(format!(
                    "indirect call to 0x{v:x}, which is not a function"
                )));
            }
            idx as u32
        }
    };
    if cx.cta.threads[cx.t].frames.len() as u32 >= cx.m.limits.max_call_depth {
        return Err(Stop::ub(UbKind::CallDepth));
    }
    let prog = cx.m.prog;
    let f = &prog.funcs[callee as usize];
    if args.len() != f.params.len() {
        return Err(Stop::fault(format!(
            "call with {} arguments to {}, which has {} parameters",
            args.len(),
            f.name,
            f.params.len()
        )));
    }
    // Arguments match parameters by position (PTX ISA 9.7.12.4: "Arguments
    // may be registers, immediate constants, or variables in .param
    // space"). Read every argument in the caller's frame before changing
    // anything: a value for a register or immediate argument, the caller's
    // address for a `.param`/`.local` variable (checked to lie in the
    // frame).
    let mut vals = std::mem::take(&mut cx.th().scratch);
    vals.clear();
    for (a, p) in args.iter().zip(&f.params) {
        let v = match (in_memory(a), *p) {
            (Some((space, offset)), Param::Mem { size, .. }) => {
                let base = cx.var_address(space, offset);
                if !cx.th().local.contains(base, size) {
                    cx.th().scratch = vals;
                    return Err(Stop::fault("call argument outside the frame"));
                }
                Ok(base)
            }
            (Some(_), Param::Reg(_)) => Err(Stop::fault(
                "a .param or .local variable passed to a .reg parameter",
            )),
            (None, _) => cx.get(a),
        };
        match v {
            Ok(v) => vals.push(v),
            Err(e) => {
                cx.th().scratch = vals;
                return Err(e);
            }
        }
    }
    // The callee's frame, then its `.param` parameters: a variable's bytes,
    // or a value's low bytes, little-endian (zero beyond eight).
    let th = cx.th();
    let new_base = (th.local.len() as u64).div_ceil(16) * 16;
    if new_base + f.frame_bytes > limits::LOCAL_BYTES_PER_THREAD {
        let need = new_base + f.frame_bytes;
        cx.th().scratch = vals;
        return Err(Stop::fault(format!(
            "call stack overflow: the frames need {need} bytes of local memory; a thread has at most {} (512 KiB)",
            limits::LOCAL_BYTES_PER_THREAD
        )));
    }
    let th = cx.th();
    th.local.resize((new_base + f.frame_bytes) as usize);
    for ((&v, a), p) in vals.iter().zip(args.iter()).zip(&f.params) {
        let Param::Mem { offset, size } = *p else {
            continue;
        };
        let at = new_base + offset;
        if in_memory(a).is_some() {
            // The variable's bytes, written or not (reading an unwritten
            // one in the callee is the undefined behaviour).
            th.local.copy(v, size, at);
        } else if let Some(dst) = th.local.write(at, size) {
            let bytes = v.to_le_bytes();
            for (k, d) in dst.iter_mut().enumerate() {
                *d = bytes.get(k).copied().unwrap_or(0);
            }
        }
    }
    // The callee's registers, from the pool of finished calls.
    let (mut regs, mut written) = th.spare_regs.pop().unwrap_or_default();
    regs.clear();
    regs.extend_from_slice(&f.init_regs);
    written.clear();
    written.extend_from_slice(&f.init_written);
    let regs = std::mem::replace(&mut th.regs, regs);
    let written = std::mem::replace(&mut th.written, written);
    for (&v, p) in vals.iter().zip(&f.params) {
        if let Param::Reg(slot) = *p {
            th.regs[slot as usize] = v;
            th.set_written(slot);
        }
    }
    th.scratch = vals;
    th.frames.push(Frame {
        func: th.func,
        ret_pc: th.pc + 1,
        regs,
        written,
        frame_base: th.frame_base,
    });
    th.func = callee;
    th.pc = 0;
    th.frame_base = new_base;
    Ok(true)
}

/// `ret`; in the kernel, the thread exits.
pub fn ret(cx: &mut Ctx) -> Result<bool, Stop> {
    let prog = cx.m.prog;
    let th = cx.th();
    let Some(frame) = th.frames.pop() else {
        th.state = TState::Exited;
        return Ok(false);
    };
    let f = &prog.funcs[th.func as usize];
    for &slot in &f.reg_rets {
        if !th.is_written(slot) {
            let name = f
                .reg_names
                .get(slot as usize)
                .map_or("?", |n| n)
                .to_string();
            return Err(Stop::ub(UbKind::UninitializedRegister(name)));
        }
    }
    // Resume the caller; the callee's frame stays in local memory until its
    // return values are copied out.
    let callee_base = th.frame_base;
    let callee_regs = std::mem::replace(&mut th.regs, frame.regs);
    let callee_written = std::mem::replace(&mut th.written, frame.written);
    th.func = frame.func;
    th.pc = frame.ret_pc;
    th.frame_base = frame.frame_base;
    let call = &prog.funcs[frame.func as usize].insts[frame.ret_pc as usize - 1];
    let rets = parts(&call.ops).map_or(&[][..], |p| p.0);
    let (mut bi, mut ri) = (0, 0);
    for tgt in rets {
        match tgt {
            Opnd::VarAddr(v, _) => {
                let at = cx.var_address(v.space, v.offset);
                if let Some(&(off, size)) = f.ret_slots.get(bi) {
                    // The caller's frame ends where the callee's began.
                    if at + size > callee_base {
                        return Err(Stop::fault("return value outside the frame"));
                    }
                    cx.th().local.copy(callee_base + off, size, at);
                }
                bi += 1;
            }
            other => {
                if let Some(&slot) = f.reg_rets.get(ri) {
                    cx.set(other, callee_regs[slot as usize])?;
                }
                ri += 1;
            }
        }
    }
    let th = cx.th();
    th.local.resize(callee_base as usize);
    th.spare_regs.push((callee_regs, callee_written));
    Ok(true)
}
