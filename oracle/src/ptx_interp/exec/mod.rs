//! Executes decoded instructions for one thread. Families live in their own
//! files; this one holds operand access, special registers and control flow.

mod collective;
mod fast;
mod float;
mod int;
mod mem;
mod tex;

pub use collective::{complete_barrier, try_collective};
pub use fast::run;
pub use float::cmp_op as float_cmp_op;

use super::machine::{Cta, Frame, Machine, Stop, TState, Thread, WARP};
use super::program::{Class, Inst, Opnd, Space};
use super::result::UbKind;
use ptxc::ptx::ast::{Dim, SpecialReg};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::types::ScalarType;

/// Function "addresses" (`mov.u64 %rd, func`) are this plus 16 x index.
pub const FUNC_BASE: u64 = 0x7c00_0000_0000_0000;

/// Low `bits` of `v`.
#[inline]
pub fn mask(bits: u32, v: u64) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// `v`'s low `bits` sign-extended to 64.
#[inline]
pub fn sext(bits: u32, v: u64) -> u64 {
    if bits >= 64 {
        v
    } else {
        let s = 64 - bits;
        (((v << s) as i64) >> s) as u64
    }
}

/// A value of type `t` as stored in a register: signed types sign-extended,
/// others zero-extended, so that a later read at a narrower or wider width
/// sees what PTX's relaxed type rules say it should.
#[inline]
pub fn extend(t: ScalarType, v: u64) -> u64 {
    let b = t.bits().min(64);
    if t.is_signed() {
        sext(b, v)
    } else {
        mask(b, v)
    }
}

/// The executing thread's view: machine, CTA, thread index, instruction.
pub struct Ctx<'a, 'p> {
    pub m: &'a mut Machine<'p>,
    pub cta: &'a mut Cta,
    pub t: usize,
}

impl Ctx<'_, '_> {
    #[inline]
    pub fn th(&mut self) -> &mut Thread {
        &mut self.cta.threads[self.t]
    }

    /// Reads a register slot; reading one never written is UB.
    #[inline]
    pub fn reg(&self, s: u32) -> Result<u64, Stop> {
        let th = &self.cta.threads[self.t];
        if !th.is_written(s) {
            return Err(self.uninit(s));
        }
        Ok(th.regs[s as usize])
    }

    #[cold]
    fn uninit(&self, s: u32) -> Stop {
        let th = &self.cta.threads[self.t];
        let f = &self.m.prog.funcs[th.func as usize];
        let name = f.reg_names.get(s as usize).map_or("?", |n| n);
        Stop::ub(UbKind::UninitializedRegister(name.to_string()))
    }

    /// Reads an operand as raw bits (registers as stored).
    #[inline]
    pub fn get(&mut self, o: &Opnd) -> Result<u64, Stop> {
        match o {
            Opnd::Reg(s) => self.reg(*s),
            Opnd::Pred { slot, neg } => Ok(u64::from((self.reg(*slot)? != 0) ^ neg)),
            Opnd::Imm(v) => Ok(*v),
            Opnd::Sreg(r) => Ok(self.sreg(*r)),
            Opnd::VarAddr(v, off) => Ok(self
                .var_address(v.space, v.offset)
                .wrapping_add(*off as u64)),
            Opnd::FuncAddr(f) | Opnd::Func(f) => Ok(FUNC_BASE + 16 * u64::from(*f)),
            other => Err(Stop::fault(format!(
                "operand {other:?} cannot be read as a value"
            ))),
        }
    }

    /// Reads a predicate operand.
    pub fn pred(&mut self, o: &Opnd) -> Result<bool, Stop> {
        Ok(self.get(o)? & 1 != 0)
    }

    /// Writes an operand (register, predicate or sink).
    pub fn set(&mut self, o: &Opnd, v: u64) -> Result<(), Stop> {
        let th = &mut self.cta.threads[self.t];
        match o {
            Opnd::Reg(s) => {
                th.regs[*s as usize] = v;
                th.set_written(*s);
            }
            Opnd::Pred { slot, .. } => {
                th.regs[*slot as usize] = v & 1;
                th.set_written(*slot);
            }
            Opnd::Sink => {}
            other => return Err(Stop::fault(format!("operand {other:?} cannot be written"))),
        }
        Ok(())
    }

    /// Writes a value of type `t`, extended as registers hold it.
    pub fn set_typed(&mut self, o: &Opnd, t: ScalarType, v: u64) -> Result<(), Stop> {
        self.set(o, extend(t, v))
    }

    /// The address of a variable in its own space (local ones relative to
    /// the current frame).
    pub fn var_address(&self, space: Space, offset: u64) -> u64 {
        match space {
            Space::Local | Space::FrameParam => self.cta.threads[self.t].frame_base + offset,
            _ => offset,
        }
    }

    fn sreg(&self, r: SpecialReg) -> u64 {
        let th = &self.cta.threads[self.t];
        let d = |x: Dim, v: [u32; 3]| u64::from(v[x as usize]);
        let lane = th.linear as u64 % WARP as u64;
        match r {
            SpecialReg::Tid(x) => d(x, th.tid),
            SpecialReg::Ntid(x) => d(x, self.m.block),
            SpecialReg::Ctaid(x) => d(x, self.cta.ctaid),
            SpecialReg::Nctaid(x) => d(x, self.m.grid),
            SpecialReg::Laneid => lane,
            // Decision: warps are numbered by linear thread id / 32, the
            // physical placement the simulator also uses.
            SpecialReg::Warpid => u64::from(th.linear) / WARP as u64,
            SpecialReg::Nwarpid => 64,
            SpecialReg::Smid => 0,
            SpecialReg::Nsmid => 1,
            SpecialReg::Gridid => 0,
            SpecialReg::LanemaskEq => 1 << lane,
            SpecialReg::LanemaskLe => (2u64 << lane) - 1,
            SpecialReg::LanemaskLt => (1u64 << lane) - 1,
            SpecialReg::LanemaskGe => mask(32, !((1u64 << lane) - 1)),
            SpecialReg::LanemaskGt => mask(32, !((2u64 << lane) - 1)),
            // Clocks: the executed-instruction count, deterministic.
            SpecialReg::Clock
            | SpecialReg::ClockHi
            | SpecialReg::Clock64
            | SpecialReg::Globaltimer => self.m.executed,
            SpecialReg::GlobaltimerLo => mask(32, self.m.executed),
            SpecialReg::GlobaltimerHi => self.m.executed >> 32,
            SpecialReg::DynamicSmemSize => u64::from(self.m.spec.dynamic_shared_bytes),
            SpecialReg::TotalSmemSize | SpecialReg::AggrSmemSize => self.cta.shared.len() as u64,
            _ => 0,
        }
    }
}

/// Executes the instruction at the thread's pc. Ok(true): keep running this
/// thread; Ok(false): it blocked or exited.
pub fn step(m: &mut Machine, cta: &mut Cta, t: usize) -> Result<bool, Stop> {
    let prog = m.prog;
    let th = &cta.threads[t];
    let func = &prog.funcs[th.func as usize];
    let Some(inst) = func.insts.get(th.pc as usize) else {
        return Err(Stop::fault("execution ran past the end of the function"));
    };
    let mut cx = Ctx { m, cta, t };
    if let Some((g, neg)) = inst.guard {
        if (cx.reg(g)? & 1 != 0) == neg {
            cx.th().pc += 1;
            return Ok(true);
        }
    }
    dispatch(&mut cx, inst)
}

fn dispatch(cx: &mut Ctx, i: &Inst) -> Result<bool, Stop> {
    match i.class {
        Class::Control => control(cx, i),
        Class::Collective => collective::arrive(cx, i),
        Class::Nop => advance(cx),
        Class::Memory => {
            mem::exec(cx, i)?;
            advance(cx)
        }
        Class::Texture => {
            tex::exec(cx, i)?;
            advance(cx)
        }
        Class::Float => {
            float::exec(cx, i)?;
            advance(cx)
        }
        Class::FloatCompare => {
            float::compare(cx, i)?;
            advance(cx)
        }
        Class::Convert => {
            float::cvt(cx, i)?;
            advance(cx)
        }
        Class::Int => {
            int::exec(cx, i)?;
            advance(cx)
        }
    }
}

#[inline]
fn advance(cx: &mut Ctx) -> Result<bool, Stop> {
    cx.th().pc += 1;
    Ok(true)
}

fn control(cx: &mut Ctx, i: &Inst) -> Result<bool, Stop> {
    use Opcode::*;
    match i.op {
        Bra => {
            let Opnd::Label(pc) = i.ops[0] else {
                return Err(Stop::fault("bad branch target"));
            };
            cx.th().pc = pc;
            Ok(true)
        }
        Brx => {
            let idx = mask(32, cx.get(&i.ops[0])?);
            let Opnd::Targets(ts) = &i.ops[1] else {
                return Err(Stop::fault("bad brx.idx table"));
            };
            match ts.get(idx as usize) {
                Some(&pc) => {
                    cx.th().pc = pc;
                    Ok(true)
                }
                // PTX ISA 9.7.12.2: an index out of range is undefined.
                None => Err(Stop::fault(format!(
                    "brx.idx index {idx} is outside its {} targets",
                    ts.len()
                ))),
            }
        }
        Exit => {
            cx.th().state = TState::Exited;
            Ok(false)
        }
        Ret => ret(cx),
        Call => call(cx, i),
        _ => Err(Stop::fault("trap")),
    }
}

/// `call`: saves the caller's frame, copies arguments into the callee's
/// parameters, and starts the callee (PTX ISA 9.7.12.4; the `.param` copy is
/// the ABI the PTX text spells out with `st.param`/`ld.param`).
fn call(cx: &mut Ctx, i: &Inst) -> Result<bool, Stop> {
    let (rets, target, args) = match i.ops.as_slice() {
        [Opnd::List(r), tgt, Opnd::List(a), ..] => (r.to_vec(), tgt.clone(), a.to_vec()),
        [Opnd::List(r), tgt] => (r.to_vec(), tgt.clone(), Vec::new()),
        [tgt, Opnd::List(a), ..] => (Vec::new(), tgt.clone(), a.to_vec()),
        [tgt] => (Vec::new(), tgt.clone(), Vec::new()),
        _ => return Err(Stop::fault("malformed call")),
    };
    let callee = match target {
        Opnd::Func(f) => f,
        other => {
            let v = cx.get(&other)?;
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
    // Argument values, read in the caller's frame.
    let mut arg_bytes: Vec<Vec<u8>> = Vec::new();
    let mut arg_regs: Vec<u64> = Vec::new();
    for (k, a) in args.iter().enumerate() {
        match a {
            Opnd::VarAddr(v, _) if matches!(v.space, Space::FrameParam | Space::Local) => {
                let size = f.param_slots.get(k).map_or(0, |s| s.1);
                let base = cx.var_address(v.space, v.offset);
                let th = cx.th();
                let bytes = super::memory::range(&th.local, base, size)
                    .ok_or_else(|| Stop::fault("call argument outside the frame"))?
                    .to_vec();
                arg_bytes.push(bytes);
            }
            other => arg_regs.push(cx.get(other)?),
        }
    }
    let th = cx.th();
    let caller_frame_end = th.local.len() as u64;
    let new_base = caller_frame_end.div_ceil(16) * 16;
    th.local.resize((new_base + f.frame_bytes) as usize, 0);
    for (k, bytes) in arg_bytes.iter().enumerate() {
        if let Some(&(off, size)) = f.param_slots.get(k) {
            let n = (size as usize).min(bytes.len());
            let at = (new_base + off) as usize;
            th.local[at..at + n].copy_from_slice(&bytes[..n]);
        }
    }
    let regs = std::mem::replace(&mut th.regs, f.init_regs.clone());
    let written = std::mem::replace(&mut th.written, f.init_written.clone());
    for (k, v) in arg_regs.into_iter().enumerate() {
        if let Some(&slot) = f.reg_params.get(k) {
            th.regs[slot as usize] = v;
            th.set_written(slot);
        }
    }
    th.frames.push(Frame {
        func: th.func,
        ret_pc: th.pc + 1,
        regs,
        written,
        frame_base: th.frame_base,
        ret_targets: rets,
    });
    th.func = callee;
    th.pc = 0;
    th.frame_base = new_base;
    Ok(true)
}

/// `ret`: copies return values to the caller's targets and resumes it; in
/// the kernel, the thread exits.
fn ret(cx: &mut Ctx) -> Result<bool, Stop> {
    let prog = cx.m.prog;
    let th = cx.th();
    let Some(frame) = th.frames.pop() else {
        th.state = TState::Exited;
        return Ok(false);
    };
    let f = &prog.funcs[th.func as usize];
    let mut ret_bytes = Vec::new();
    for &(off, size) in &f.ret_slots {
        let at = th.frame_base + off;
        ret_bytes.push(th.local[at as usize..(at + size) as usize].to_vec());
    }
    let mut ret_regs = Vec::new();
    for &slot in &f.reg_rets {
        if !th.is_written(slot) {
            let name = f
                .reg_names
                .get(slot as usize)
                .map_or("?", |n| n)
                .to_string();
            return Err(Stop::ub(UbKind::UninitializedRegister(name)));
        }
        ret_regs.push(th.regs[slot as usize]);
    }
    let callee_base = th.frame_base;
    th.local.truncate(callee_base as usize);
    th.func = frame.func;
    th.pc = frame.ret_pc;
    th.regs = frame.regs;
    th.written = frame.written;
    th.frame_base = frame.frame_base;
    let targets = frame.ret_targets;
    let (mut bi, mut ri) = (0, 0);
    for tgt in &targets {
        match tgt {
            Opnd::VarAddr(v, _) => {
                let at = cx.var_address(v.space, v.offset);
                if let Some(bytes) = ret_bytes.get(bi) {
                    let th = cx.th();
                    let end = at as usize + bytes.len();
                    if end > th.local.len() {
                        return Err(Stop::fault("return value outside the frame"));
                    }
                    th.local[at as usize..end].copy_from_slice(bytes);
                }
                bi += 1;
            }
            other => {
                if let Some(&v) = ret_regs.get(ri) {
                    cx.set(other, v)?;
                }
                ri += 1;
            }
        }
    }
    Ok(true)
}
