//! Executes decoded instructions for one thread. Families live in their own
//! files; this one holds operand access, special registers and control flow.

mod call;
mod collective;
mod fast;
mod float;
mod int;
mod mem;
mod surf;
mod tex;

pub use collective::{complete_barrier, try_collective};
pub use fast::run;
pub use float::cmp_op as float_cmp_op;

use super::machine::{Cta, Machine, Stop, TState, Thread, WARP};
use super::program::{Class, Inst, Opnd, Space};
use super::result::UbKind;
use ptxc::ptx::ast::{Dim, SpecialReg};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::types::ScalarType;

/// Function "addresses" (`mov.u64 %rd, func`) are this plus 16 x index.
pub const FUNC_BASE: u64 = 0x7c00_0000_0000_0000;

/// `mask(bits, v)`: the low `bits` of `v`; `sext(bits, v)`: `v`'s low `bits` sign-extended to 64.
pub use ptxc::int::{sext, trunc as mask};

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
        let lane = th.linear as u64 % WARP as u64;
        let ids = (th.tid, th.linear);
        if let Some(v) = thread_sreg(r, ids, self.cta.ctaid, self.m.grid, self.m.block) {
            return v;
        }
        match r {
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

/// The special registers that are constant for a thread: `%tid`, `%ntid`,
/// `%ctaid`, `%nctaid`, `%laneid` and `%warpid`.
#[inline]
pub fn thread_sreg(
    r: SpecialReg,
    (tid, linear): ([u32; 3], u32),
    ctaid: [u32; 3],
    grid: [u32; 3],
    block: [u32; 3],
) -> Option<u64> {
    let d = |x: Dim, v: [u32; 3]| u64::from(v[x as usize]);
    Some(match r {
        SpecialReg::Tid(x) => d(x, tid),
        SpecialReg::Ntid(x) => d(x, block),
        SpecialReg::Ctaid(x) => d(x, ctaid),
        SpecialReg::Nctaid(x) => d(x, grid),
        SpecialReg::Laneid => linear as u64 % WARP as u64,
        // Decision: warps are numbered by linear thread id / 32, the
        // physical placement the simulator also uses.
        SpecialReg::Warpid => u64::from(linear) / WARP as u64,
        _ => return None,
    })
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
        Ret => call::ret(cx),
        Call => call::call(cx, i),
        _ => Err(Stop::fault("trap")),
    }
}
