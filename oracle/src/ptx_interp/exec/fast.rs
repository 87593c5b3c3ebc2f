//! The fast path: runs a thread's instructions that have a fast form
//! (`ptx_interp::fast`) in a tight loop over borrowed registers and memory,
//! and hands every other instruction, and every instruction that would
//! report a fault or UB, to the general executor (`step`). Both paths count
//! and schedule instructions identically, so the choice of path is never
//! observable.

use super::mem::{accessor, race_ub};
use super::{step, thread_sreg};
use crate::ptx_interp::fast::{Fast, FloatOp2, IntOp1, IntOp2, PredOp, W};
use crate::ptx_interp::machine::{Cta, Machine, Stop, TState};
use crate::ptx_interp::memory::{range, GlobalMem, Windows};
use crate::ptx_interp::program::Space;
use crate::ptx_interp::race::Accessor;
use crate::ptx_interp::shadow::{GlobalShadow, WordShadow};
use crate::ptx_interp::undef_mem::UndefMem;
use ptxc::float::{self, arith, FloatType};
use ptxc::int::{self as s, IntTy};

/// Runs thread `t` for at most `limit` instructions: (instructions run,
/// whether the thread blocked or exited).
pub fn run(m: &mut Machine, cta: &mut Cta, t: usize, limit: u32) -> Result<(u32, bool), Stop> {
    let mut done = 0;
    while done < limit {
        let (n, blocked) = fast_steps(m, cta, t, limit - done)?;
        done += n;
        if blocked {
            return Ok((done, true));
        }
        if done == limit {
            break;
        }
        // The instruction at pc needs the general executor.
        m.executed += 1;
        done += 1;
        if !step(m, cta, t)? {
            return Ok((done, true));
        }
    }
    Ok((done, false))
}

/// `f(ity, a, b)` extended as the register holds type `w`.
#[inline(always)]
fn int2(w: W, a: u64, b: u64, f: impl Fn(IntTy, u64, u64) -> u64) -> u64 {
    match w {
        W::U32 => f(IntTy::U32, a, b) & 0xffff_ffff,
        W::S32 => f(IntTy::S32, a, b) as i32 as i64 as u64,
        W::U64 => f(IntTy::U64, a, b),
        W::S64 => f(IntTy::S64, a, b),
    }
}

fn ity(w: W) -> IntTy {
    match w {
        W::U32 => IntTy::U32,
        W::S32 => IntTy::S32,
        W::U64 => IntTy::U64,
        W::S64 => IntTy::S64,
    }
}

/// The memory a thread's fast loads and stores reach, borrowed for the loop.
struct Mem<'a> {
    global: &'a mut GlobalMem,
    global_shadow: &'a mut GlobalShadow,
    shared: &'a mut UndefMem,
    shared_shadow: &'a mut WordShadow,
    local: &'a mut UndefMem,
    consts: &'a [u8],
    params: &'a [u8],
    windows: Windows,
    me: Accessor<'a>,
    grid: [u32; 3],
    block: [u32; 3],
}

/// What a fast access did: Some(value) or None (the general executor
/// must run the instruction: it reports the fault).
type Access = Result<Option<u64>, Stop>;

impl Mem<'_> {
    /// The race a recorded access ran into, as the error to stop with.
    #[inline(always)]
    fn raced(&self, raced: Option<(u64, u32)>, addr: u64) -> Result<(), Stop> {
        match raced {
            Some((k, other)) => Err(race_ub((self.grid, self.block), &self.me, addr + k, other)),
            None => Ok(()),
        }
    }

    /// A weak load of `N` bytes (as `Ctx::load_as`).
    #[inline(always)]
    fn load<const N: usize>(&mut self, space: Space, addr: u64) -> Access {
        let n = N as u64;
        let (space, addr) = match space {
            Space::Generic => self.windows.resolve(addr),
            s => (s, addr),
        };
        if addr & (n - 1) != 0 {
            return Ok(None);
        }
        Ok(Some(match space {
            Space::Shared => {
                // Outside, or never written: the general executor reports it.
                let Ok(b) = self.shared.read(addr, n) else {
                    return Ok(None);
                };
                let v = le::<N>(b);
                let r = self.shared_shadow.record(addr, n, &self.me, false, false);
                self.raced(r, addr)?;
                v
            }
            Space::Global | Space::Generic => {
                let Some((r, off)) = self.global.locate(addr, n) else {
                    return Ok(None);
                };
                let v = le::<N>(&self.global.bytes(r)[off..]);
                let r = self.global_shadow.record(r, off, N, &self.me, false, false);
                self.raced(r, addr)?;
                v
            }
            Space::Local | Space::FrameParam => match self.local.read(addr, n) {
                Ok(b) => le::<N>(b),
                Err(_) => return Ok(None),
            },
            Space::Const => match range(self.consts, addr, n) {
                Some(b) => le::<N>(b),
                None => return Ok(None),
            },
            Space::KernelParam => match range(self.params, addr, n) {
                Some(b) => le::<N>(b),
                None => return Ok(None),
            },
        }))
    }

    /// A weak store of the low `N` bytes of `v` (as `Ctx::store_as`).
    #[inline(always)]
    fn store<const N: usize>(&mut self, space: Space, addr: u64, v: u64) -> Access {
        let n = N as u64;
        let (space, addr) = match space {
            Space::Generic => self.windows.resolve(addr),
            s => (s, addr),
        };
        if addr & (n - 1) != 0 {
            return Ok(None);
        }
        match space {
            Space::Shared => {
                let Some(b) = self.shared.write(addr, n) else {
                    return Ok(None);
                };
                set_le::<N>(b, v);
                let r = self.shared_shadow.record(addr, n, &self.me, true, false);
                self.raced(r, addr)?;
            }
            Space::Global | Space::Generic => {
                let Some((r, off)) = self.global.locate(addr, n) else {
                    return Ok(None);
                };
                set_le::<N>(&mut self.global.bytes_mut(r)[off..], v);
                let r = self.global_shadow.record(r, off, N, &self.me, true, false);
                self.raced(r, addr)?;
            }
            Space::Local | Space::FrameParam => match self.local.write(addr, n) {
                Some(b) => set_le::<N>(b, v),
                None => return Ok(None),
            },
            Space::Const | Space::KernelParam => return Ok(None),
        }
        Ok(Some(0))
    }
}

/// The first `N` (at most 8) bytes of `b`, little-endian (`memory::load_le`
/// with the size known at compile time).
#[inline(always)]
fn le<const N: usize>(b: &[u8]) -> u64 {
    let mut x = [0u8; 8];
    x[..N].copy_from_slice(&b[..N]);
    u64::from_le_bytes(x)
}

/// Stores the low `N` bytes of `v` at the start of `b` (`memory::store_le`).
#[inline(always)]
fn set_le<const N: usize>(b: &mut [u8], v: u64) {
    b[..N].copy_from_slice(&v.to_le_bytes()[..N]);
}

/// Calls `$f::<N>` for the access size `$n` (1, 2, 4 or 8 bytes, the sizes
/// `fast::Lower` gives fast forms; the most common first).
macro_rules! sized {
    ($n:expr, $mem:ident . $f:ident ( $($arg:expr),* )) => {
        match $n {
            4 => $mem.$f::<4>($($arg),*),
            8 => $mem.$f::<8>($($arg),*),
            1 => $mem.$f::<1>($($arg),*),
            _ => $mem.$f::<2>($($arg),*),
        }
    };
}

/// Runs fast forms from the thread's pc until `limit` instructions, an
/// instruction the general executor must run (left at pc, not counted), or
/// one that blocks or ends the thread: (instructions run, blocked).
fn fast_steps(m: &mut Machine, cta: &mut Cta, t: usize, limit: u32) -> Result<(u32, bool), Stop> {
    let prog = m.prog;
    let addr64 = prog.addr64;
    let Machine {
        global,
        global_shadow,
        params,
        windows,
        grid,
        block,
        executed,
        ..
    } = m;
    let Cta {
        threads,
        shared,
        clocks,
        shared_shadow,
        linear,
        ctaid,
        ..
    } = cta;
    let th = &mut threads[t];
    let th_ids = (th.tid, th.linear);
    let code = &prog.funcs[th.func as usize].fast[..];
    let frame_base = th.frame_base;
    let regs = &mut th.regs[..];
    let written = &mut th.written[..];
    let mut mem = Mem {
        global,
        global_shadow,
        shared,
        shared_shadow,
        local: &mut th.local,
        consts: &prog.consts,
        params,
        windows: *windows,
        me: accessor(clocks, *linear, t),
        grid: *grid,
        block: *block,
    };
    let wrap = |a: u64| if addr64 { a } else { a & 0xffff_ffff };
    let mut pc = th.pc as usize;
    let mut k = 0;
    // The state the thread blocks or exits in.
    let mut blocked = None;

    // The current instruction's sources are certainly written (`assigned`).
    let mut safe;
    // Reads a source slot; an unwritten one ends the loop (the general
    // executor reports it).
    macro_rules! get {
        ($s:expr) => {{
            let s = $s as usize;
            if safe {
                debug_assert!(written[s] != 0, "register analysis: slot {s} unwritten");
            } else if written[s] == 0 {
                break Ok(());
            }
            regs[s]
        }};
    }
    macro_rules! put {
        ($d:expr, $v:expr) => {{
            let (d, v) = ($d, $v);
            regs[d as usize] = v;
            written[d as usize] = 1;
        }};
    }
    // Unwraps an access: None ends the loop, an error (a race) ends the run.
    macro_rules! access {
        ($e:expr) => {
            match $e {
                Ok(Some(v)) => v,
                Ok(None) => break Ok(()),
                Err(stop) => break Err(stop),
            }
        };
    }

    let result: Result<(), Stop> = loop {
        if k == limit {
            break Ok(());
        }
        let Some(fi) = code.get(pc) else {
            break Ok(());
        };
        safe = fi.safe;
        if let Some((g, neg)) = fi.guard {
            if (get!(g) & 1 != 0) == neg {
                pc += 1;
                k += 1;
                continue;
            }
        }
        match fi.op {
            Fast::Slow => break Ok(()),
            Fast::Nop => {}
            Fast::Int2 { op, w, d, a, b } => {
                let (x, y) = (get!(a), get!(b));
                let r = match op {
                    IntOp2::Add => int2(w, x, y, s::add),
                    IntOp2::Sub => int2(w, x, y, s::sub),
                    IntOp2::MulLo => int2(w, x, y, s::mul_lo),
                    // The product is 64 bits wide: stored whole. (Only
                    // 32-bit sources have the fast form.)
                    IntOp2::MulWide => match w {
                        W::S32 => s::mul_wide(IntTy::S32, x, y),
                        _ => s::mul_wide(IntTy::U32, x, y),
                    },
                    IntOp2::Min => int2(w, x, y, s::min),
                    IntOp2::Max => int2(w, x, y, s::max),
                    IntOp2::And => int2(w, x, y, s::and),
                    IntOp2::Or => int2(w, x, y, s::or),
                    IntOp2::Xor => int2(w, x, y, s::xor),
                    IntOp2::Shl => int2(w, x, y, |t, a, b| s::shl(t, a, b as u32)),
                    IntOp2::Shr => int2(w, x, y, |t, a, b| s::shr(t, a, b as u32)),
                };
                put!(d, r);
            }
            Fast::Int1 { op, w, d, a } => {
                let x = get!(a);
                let r = match op {
                    IntOp1::Abs => int2(w, x, 0, |t, a, _| s::abs(t, a)),
                    IntOp1::Neg => int2(w, x, 0, |t, a, _| s::neg(t, a)),
                    IntOp1::Not => int2(w, x, 0, |t, a, _| s::not(t, a)),
                };
                put!(d, r);
            }
            Fast::MadLo { w, d, a, b, c } => {
                let (x, y, z) = (get!(a), get!(b), get!(c));
                put!(d, int2(w, x, y, |t, a, b| s::mad_lo(t, a, b, z)));
            }
            Fast::Setp { cmp, w, p, a, b } => {
                let (x, y) = (get!(a), get!(b));
                let t = ity(w);
                let v = s::compare(t, cmp, s::trunc(t.bits, x), s::trunc(t.bits, y));
                put!(p, u64::from(v));
            }
            Fast::Pred {
                op,
                d,
                a,
                na,
                b,
                nb,
            } => {
                let x = (get!(a) != 0) ^ na;
                let y = (get!(b) != 0) ^ nb;
                let r = match op {
                    PredOp::And => x & y,
                    PredOp::Or => x | y,
                    PredOp::Xor => x ^ y,
                };
                put!(d, u64::from(r));
            }
            Fast::Selp {
                ext,
                d,
                a,
                b,
                p,
                neg,
            } => {
                let (x, y) = (get!(a), get!(b));
                let c = (get!(p) != 0) ^ neg;
                put!(d, ext.apply(if c { x } else { y }));
            }
            Fast::Mov { ext, d, a } => put!(d, ext.apply(get!(a))),
            Fast::MovFrame { ext, d, off } => put!(d, ext.apply(frame_base.wrapping_add(off))),
            Fast::MovSreg { ext, d, r } => {
                // `ctaid` etc. never fail; anything else cannot get here.
                match thread_sreg(r, th_ids, *ctaid, *grid, *block) {
                    Some(v) => put!(d, ext.apply(v)),
                    None => break Ok(()),
                }
            }
            Fast::Cvt { from, to, d, a } => put!(d, to.apply(from.apply(get!(a)))),
            Fast::Cvta { ext, add, d, a } => put!(d, ext.apply(get!(a).wrapping_add(add))),
            Fast::Float2 {
                op,
                ft,
                rnd,
                m,
                d,
                a,
                b,
            } => {
                let (x, y) = (get!(a), get!(b));
                let f = |ft: FloatType| {
                    let (x, y) = (x & ft.mask(), y & ft.mask());
                    let r = match op {
                        FloatOp2::Add => arith::add(ft, x, y, rnd, m),
                        FloatOp2::Sub => arith::sub(ft, x, y, rnd, m),
                        FloatOp2::Mul => arith::mul(ft, x, y, rnd, m),
                    };
                    r & ft.mask()
                };
                // One copy per type, with the type's constants folded in.
                put!(
                    d,
                    if ft == FloatType::F32 {
                        f(FloatType::F32)
                    } else {
                        f(FloatType::F64)
                    }
                );
            }
            Fast::Fma {
                ft,
                rnd,
                m,
                d,
                a,
                b,
                c,
            } => {
                let (x, y, z) = (get!(a), get!(b), get!(c));
                let f = |ft: FloatType| {
                    let bits = ft.mask();
                    arith::fma(ft, x & bits, y & bits, z & bits, rnd, m) & bits
                };
                put!(
                    d,
                    if ft == FloatType::F32 {
                        f(FloatType::F32)
                    } else {
                        f(FloatType::F64)
                    }
                );
            }
            Fast::FSetp {
                cmp,
                ft,
                ftz,
                p,
                a,
                b,
            } => {
                let (x, y) = (get!(a), get!(b));
                let f = |ft: FloatType| {
                    let bits = ft.mask();
                    float::compare(ft, cmp, x & bits, y & bits, ftz)
                };
                put!(
                    p,
                    u64::from(if ft == FloatType::F32 {
                        f(FloatType::F32)
                    } else {
                        f(FloatType::F64)
                    })
                );
            }
            Fast::Ld {
                space,
                n,
                ext,
                d,
                base,
                off,
            } => {
                let addr = wrap(get!(base).wrapping_add(off as u64));
                let v = access!(sized!(n, mem.load(space, addr)));
                put!(d, ext.apply(v));
            }
            Fast::LdFrame { n, ext, d, off } => {
                let addr = wrap(frame_base.wrapping_add(off));
                let v = access!(sized!(n, mem.load(Space::Local, addr)));
                put!(d, ext.apply(v));
            }
            Fast::St {
                space,
                n,
                base,
                off,
                v,
            } => {
                let addr = wrap(get!(base).wrapping_add(off as u64));
                let v = get!(v);
                access!(sized!(n, mem.store(space, addr, v)));
            }
            Fast::StFrame { n, off, v } => {
                let addr = wrap(frame_base.wrapping_add(off));
                let v = get!(v);
                access!(sized!(n, mem.store(Space::Local, addr, v)));
            }
            Fast::Bra { pc: target } => {
                pc = target as usize;
                k += 1;
                continue;
            }
            Fast::Exit { ret } => {
                if ret && !th.frames.is_empty() {
                    break Ok(());
                }
                blocked = Some(TState::Exited);
                k += 1;
                break Ok(());
            }
            Fast::Bar { id, expected } => {
                blocked = Some(TState::Barrier {
                    id,
                    expected,
                    pc: pc as u32,
                    arrive_only: false,
                });
                k += 1;
                break Ok(());
            }
        }
        pc += 1;
        k += 1;
    };
    th.pc = pc as u32;
    // An error (a race) was found by the instruction at pc: it ran.
    *executed += u64::from(k) + u64::from(result.is_err());
    let is_blocked = blocked.is_some();
    if let Some(state) = blocked {
        th.state = state;
    }
    result.map(|()| (k, is_blocked))
}
