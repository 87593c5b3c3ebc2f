//! Data movement: mov, ld/ldu/st (scalar and vector), atom/red, cvta,
//! isspacep (PTX ISA 9.7.8, 9.7.9, 9.7.13.5-6). Every access is checked for
//! natural alignment (misalignment is UB) and bounds (outside every
//! allocation is a fault naming the address).

use super::{extend, mask, Ctx};
use crate::ptx_interp::clocks::Clocks;
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::memory::{load_le, range, store_le};
use crate::ptx_interp::program::{AddrBase, Inst, Opnd, Space};
use crate::ptx_interp::race::{self, Accessor};
use crate::ptx_interp::result::UbKind;
use crate::ptx_interp::semantics::atomic::{self, AtomOp, AtomTy};
use crate::ptx_interp::undef_mem::{ReadError, UndefMem};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

/// Where an access goes.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub space: Space,
    pub addr: u64,
}

/// `ld`/`st` with `.volatile`, `.relaxed`, `.acquire` or `.release`: strong
/// operations in the PTX memory model (volatile behaves as relaxed.sys).
/// Decision: scopes are not compared, so a `.cta`-scoped relaxed access in
/// one CTA and one in another are not reported as racing.
fn is_strong(i: &Inst) -> bool {
    i.mods.has(Mod::Volatile)
        || i.mods.has(Mod::Relaxed)
        || i.mods.has(Mod::Acquire)
        || i.mods.has(Mod::Release)
}

/// Spaces whose accesses race detection records (the others are private or
/// read-only).
#[inline]
fn tracked(s: Space) -> bool {
    matches!(s, Space::Global | Space::Generic | Space::Shared)
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Generic => "generic",
        Space::Global => "global",
        Space::Shared => "shared",
        Space::Local => "local",
        Space::Const => "const",
        Space::KernelParam => "param",
        Space::FrameParam => "param",
    }
}

impl Ctx<'_, '_> {
    /// The place an address operand names, for an instruction in `space`.
    pub fn place(&mut self, o: &Opnd, space: Space) -> Result<Place, Stop> {
        let Opnd::Addr { base, offset, .. } = o else {
            return Err(Stop::fault("expected an address operand"));
        };
        let (space, addr) = match base {
            AddrBase::Var(v) => (v.space, self.var_address(v.space, v.offset)),
            AddrBase::Reg(s) => {
                let a = self.reg(*s)?;
                (space, if self.m.prog.addr64 { a } else { mask(32, a) })
            }
            AddrBase::Abs => (space, 0),
            AddrBase::Handle(h) => (Space::Global, *h),
        };
        let addr = addr.wrapping_add(*offset as u64);
        let addr = if self.m.prog.addr64 {
            addr
        } else {
            mask(32, addr)
        };
        Ok(match space {
            Space::Generic => {
                let (s, a) = self.m.windows.resolve(addr);
                Place { space: s, addr: a }
            }
            s => Place { space: s, addr },
        })
    }

    fn fault(&self, p: Place, n: u64, what: &str) -> Stop {
        Stop::fault(format!(
            "{what} of {n} bytes at {} address 0x{:x} is outside every allocation",
            space_name(p.space),
            p.addr
        ))
    }

    /// Records an access for race detection (shared and global memory).
    fn race(&mut self, p: Place, n: u64, write: bool, strong: bool) -> Result<(), Stop> {
        let shared = match p.space {
            Space::Global | Space::Generic => false,
            Space::Shared => true,
            _ => return Ok(()),
        };
        let cta = &mut *self.cta;
        let me = accessor(&cta.clocks, cta.linear, self.t);
        let raced = if shared {
            cta.shared_shadow.record(p.addr, n, &me, write, strong)
        } else {
            match self.m.global.locate(p.addr, n) {
                Some((r, off)) => self
                    .m
                    .global_shadow
                    .record(r, off, n as usize, &me, write, strong),
                None => None,
            }
        };
        match raced {
            Some((k, other)) => Err(race_ub((self.m.grid, self.m.block), &me, p.addr + k, other)),
            None => Ok(()),
        }
    }

    /// Records an access to bytes `[off, off + n)` of surface `si` for race
    /// detection: surfaces are global memory (PTX ISA 9.7.11), so two
    /// unordered threads writing one byte, or one writing what the other
    /// reads, race as in a buffer. `sured` is atomic (strong). The race's
    /// reported address is the byte offset in the surface.
    pub(super) fn race_surface(
        &mut self,
        si: usize,
        off: usize,
        n: usize,
        write: bool,
        strong: bool,
    ) -> Result<(), Stop> {
        let region = self.m.global.region_sizes().count() + si;
        let cta = &mut *self.cta;
        let me = accessor(&cta.clocks, cta.linear, self.t);
        match self
            .m
            .global_shadow
            .record(region, off, n, &me, write, strong)
        {
            Some((k, other)) => Err(race_ub(
                (self.m.grid, self.m.block),
                &me,
                off as u64 + k,
                other,
            )),
            None => Ok(()),
        }
    }

    /// A release at a place: its sync object takes this thread's clock; the
    /// thread's clock advances.
    pub fn release(&mut self, p: Place) {
        if !tracked(p.space) {
            return;
        }
        let key = (p.space == Space::Shared, p.addr);
        let n = self.cta.threads.len();
        let cta = &mut *self.cta;
        let obj = cta.sync_objects.entry(key).or_insert_with(|| vec![0; n]);
        cta.clocks.join_into(self.t, obj);
        cta.clocks.tick(self.t);
    }

    /// An acquire at a place: this thread's clock joins the sync object's.
    pub fn acquire(&mut self, p: Place) {
        if !tracked(p.space) {
            return;
        }
        let key = (p.space == Space::Shared, p.addr);
        let cta = &mut *self.cta;
        if let Some(obj) = cta.sync_objects.get(&key) {
            cta.clocks.acquire(self.t, obj);
        }
    }

    /// Reads `n` bytes (1, 2, 4 or 8) at a place. A `strong` load (volatile, relaxed, acquire: PTX memory
    /// model "morally strong" operations) does not race with other strong
    /// operations, atomics included.
    #[inline]
    pub fn load_as(&mut self, p: Place, n: u64, strong: bool) -> Result<u64, Stop> {
        let v = self.load_raw(p, n)?;
        if tracked(p.space) {
            self.race(p, n, false, strong)?;
        }
        Ok(v)
    }

    #[inline]
    pub fn store_as(&mut self, p: Place, n: u64, v: u64, strong: bool) -> Result<(), Stop> {
        self.store_raw(p, n, v)?;
        if tracked(p.space) {
            self.race(p, n, true, strong)?;
        }
        Ok(())
    }

    fn load_raw(&mut self, p: Place, n: u64) -> Result<u64, Stop> {
        aligned(p.addr, n)?;
        let bytes = match p.space {
            Space::Global | Space::Generic => {
                let g = &mut self.m.global;
                g.locate(p.addr, n)
                    .map(|(r, off)| &g.bytes(r)[off..off + n as usize])
            }
            Space::Shared => undef_read(&self.cta.shared, p, n)?,
            Space::Local | Space::FrameParam => undef_read(&self.cta.threads[self.t].local, p, n)?,
            Space::Const => range(&self.m.prog.consts, p.addr, n),
            Space::KernelParam => range(&self.m.params, p.addr, n),
        };
        bytes.map(load_le).ok_or_else(|| self.fault(p, n, "load"))
    }

    fn store_raw(&mut self, p: Place, n: u64, v: u64) -> Result<(), Stop> {
        aligned(p.addr, n)?;
        let dst = match p.space {
            Space::Global | Space::Generic => {
                let g = &mut self.m.global;
                g.locate(p.addr, n)
                    .map(|(r, off)| &mut g.bytes_mut(r)[off..off + n as usize])
            }
            Space::Shared => self.cta.shared.write(p.addr, n),
            Space::Local | Space::FrameParam => self.cta.threads[self.t].local.write(p.addr, n),
            Space::Const | Space::KernelParam => None,
        };
        match dst {
            Some(d) => {
                store_le(d, v);
                Ok(())
            }
            None => Err(self.fault(p, n, "store")),
        }
    }
}

/// `n` bytes at `p` of memory that starts undefined: `Ok(None)` when
/// outside it (the caller reports the fault), undefined behaviour when
/// some byte was never written.
fn undef_read(m: &UndefMem, p: Place, n: u64) -> Result<Option<&[u8]>, Stop> {
    match m.read(p.addr, n) {
        Ok(b) => Ok(Some(b)),
        Err(ReadError::Outside) => Ok(None),
        Err(ReadError::Unwritten(address)) => Err(Stop::ub(UbKind::UninitializedMemory {
            space: space_name(p.space),
            address,
        })),
    }
}

/// The race-detection identity and clock of thread `t` of the CTA with
/// linear index `cta` and these clocks.
#[inline]
pub fn accessor(clocks: &Clocks, cta: u32, t: usize) -> Accessor<'_> {
    let block = clocks.len() as u32;
    let first = cta * block + 1;
    Accessor {
        who: first + t as u32,
        first,
        cta,
        tid: t as u32,
        gen: clocks.generation(),
        view: clocks.view(t),
    }
}

/// The data race `me` ran into at `address` with the earlier accessor
/// `other` (global thread id + 1, or `MULTI`: several readers that the read
/// set cannot name because they span CTAs, reported as `me`'s own CTA and
/// thread; within one CTA the set names an unordered reader).
#[cold]
pub fn race_ub(
    (grid, block): ([u32; 3], [u32; 3]),
    me: &Accessor,
    address: u64,
    other: u32,
) -> Stop {
    let threads = me.view.others.len() as u32;
    let (octa, otid) = if other == race::MULTI {
        (me.cta, me.tid)
    } else {
        ((other - 1) / threads, (other - 1) % threads)
    };
    let [gx, gy, _] = grid;
    let [bx, by, _] = block;
    Stop::ub(UbKind::DataRace {
        address,
        other_tid: [otid % bx, (otid / bx) % by, otid / (bx * by)],
        other_ctaid: [octa % gx, (octa / gx) % gy, octa / (gx * gy)],
    })
}

/// A vector access must be aligned to its whole size (`ld.v4.b32`: 16
/// bytes; docs/SEMANTICS.md, Alignment), not only to its element size.
fn vector_aligned(p: Place, n: u64, i: &Inst) -> Result<(), Stop> {
    if i.vec > 1 {
        aligned(p.addr, n * u64::from(i.vec))?;
    }
    Ok(())
}

/// Addresses must be naturally aligned to the access size (PTX ISA; a
/// misaligned access is undefined behaviour).
#[inline]
fn aligned(addr: u64, size: u64) -> Result<(), Stop> {
    if addr.is_multiple_of(size) {
        Ok(())
    } else {
        Err(Stop::ub(UbKind::Misaligned {
            address: addr,
            size: size as u32,
        }))
    }
}

/// The registers of a vector operand (or a single register).
fn elems(o: &Opnd) -> &[Opnd] {
    match o {
        Opnd::Vector(v) | Opnd::VectorPred(v, _) => v,
        other => std::slice::from_ref(other),
    }
}

pub fn exec(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    match i.op {
        Opcode::Mov => mov(cx, i),
        Opcode::Ld | Opcode::Ldu => {
            let n = u64::from(i.ty.bytes());
            let p = cx.place(&i.ops[1], i.space)?;
            vector_aligned(p, n, i)?;
            let strong = is_strong(i);
            for (k, d) in elems(&i.ops[0]).iter().enumerate() {
                let at = Place {
                    addr: p.addr + k as u64 * n,
                    ..p
                };
                let v = cx.load_as(at, n, strong)?;
                cx.set_typed(d, i.ty, v)?;
            }
            if i.mods.has(Mod::Acquire) {
                cx.acquire(p);
            }
            Ok(())
        }
        Opcode::St => {
            let n = u64::from(i.ty.bytes());
            let p = cx.place(&i.ops[0], i.space)?;
            vector_aligned(p, n, i)?;
            let strong = is_strong(i);
            if i.mods.has(Mod::Release) {
                cx.release(p);
            }
            for (k, s) in elems(&i.ops[1]).iter().enumerate() {
                let v = cx.get(s)?;
                let at = Place {
                    addr: p.addr + k as u64 * n,
                    ..p
                };
                cx.store_as(at, n, mask(i.ty.bits(), v), strong)?;
            }
            Ok(())
        }
        Opcode::Atom | Opcode::Red => atom(cx, i),
        Opcode::Cvta => {
            let to = i.mods.has(Mod::To);
            let space = if i.space == Space::KernelParam {
                Space::KernelParam
            } else {
                i.space
            };
            let a = cx.get(&i.ops[1])?;
            let v = if to {
                cx.m.windows.from_generic(space, a)
            } else {
                cx.m.windows.to_generic(space, a)
            };
            cx.set_typed(&i.ops[0], i.ty, v)
        }
        Opcode::Isspacep => {
            let a = cx.get(&i.ops[1])?;
            let yes = cx.m.windows.is_space(i.space, a);
            cx.set(&i.ops[0], u64::from(yes))
        }
        _ => unreachable!(),
    }
}

/// `mov`: register, immediate, special register, address; vector pack
/// (`mov.b64 %rd, {%r1, %r2}`: element 0 is the low part) and unpack.
fn mov(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.ty.bits() > 64 {
        // Register values are 64-bit words here: a `.b128` pack/unpack
        // would need 128-bit registers (PTX ISA 8.3), which the
        // interpreter does not model.
        return Err(Stop::fault(format!(
            "'{}': 128-bit mov is not supported (registers hold at most 64 bits)",
            i.text
        )));
    }
    match (&i.ops[0], &i.ops[1]) {
        (Opnd::Vector(d), src) => {
            let v = cx.get(src)?;
            let w = i.ty.bits() / d.len() as u32;
            for (k, e) in d.iter().enumerate() {
                cx.set(e, mask(w, v >> (w * k as u32)))?;
            }
            Ok(())
        }
        (dst, Opnd::Vector(s)) => {
            let w = i.ty.bits() / s.len() as u32;
            let mut v = 0u64;
            for (k, e) in s.iter().enumerate() {
                v |= mask(w, cx.get(e)?) << (w * k as u32);
            }
            cx.set(dst, v)
        }
        (dst, src) => {
            let v = cx.get(src)?;
            if i.ty == ScalarType::Pred {
                cx.set(dst, v & 1)
            } else {
                cx.set_typed(dst, i.ty, v)
            }
        }
    }
}

fn atom_op(i: &Inst) -> AtomOp {
    let m = &i.mods;
    if m.has(Mod::Add) {
        AtomOp::Add
    } else if m.has(Mod::Min) {
        AtomOp::Min
    } else if m.has(Mod::Max) {
        AtomOp::Max
    } else if m.has(Mod::Inc) {
        AtomOp::Inc
    } else if m.has(Mod::Dec) {
        AtomOp::Dec
    } else if m.has(Mod::And) {
        AtomOp::And
    } else if m.has(Mod::Or) {
        AtomOp::Or
    } else if m.has(Mod::Xor) {
        AtomOp::Xor
    } else if m.has(Mod::Exch) {
        AtomOp::Exch
    } else {
        AtomOp::Cas
    }
}

fn atom_ty(t: ScalarType) -> AtomTy {
    use ScalarType::*;
    match t {
        U32 => AtomTy::U32,
        S32 => AtomTy::S32,
        U64 => AtomTy::U64,
        S64 => AtomTy::S64,
        B32 => AtomTy::B32,
        B64 => AtomTy::B64,
        F32 => AtomTy::F32,
        F64 => AtomTy::F64,
        F16 => AtomTy::F16,
        F16x2 => AtomTy::F16x2,
        Bf16 => AtomTy::Bf16,
        Bf16x2 => AtomTy::Bf16x2,
        _ => AtomTy::B16,
    }
}

/// `atom`/`red`: read-modify-write; `atom` returns the old value. Threads run
/// one at a time, so every atomic is indivisible by construction.
fn atom(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    let n = u64::from(i.ty.bytes());
    let (addr_k, b_k) = if i.op == Opcode::Red { (0, 1) } else { (1, 2) };
    let p = cx.place(&i.ops[addr_k], i.space)?;
    let b = cx.get(&i.ops[b_k])?;
    let c = if i.ops.len() > b_k + 1 {
        cx.get(&i.ops[b_k + 1])?
    } else {
        0
    };
    let old = cx.load_raw(p, n)?;
    if i.mods.has(Mod::Release) || i.mods.has(Mod::AcqRel) {
        cx.release(p);
    }
    cx.race(p, n, true, true)?;
    // atom.add.f32 flushes subnormals on global memory, not on shared (ISA).
    let global_ftz = p.space == Space::Global;
    let new = atomic::atom(
        atom_op(i),
        atom_ty(i.ty),
        old,
        mask(i.ty.bits(), b),
        mask(i.ty.bits(), c),
        global_ftz,
    );
    cx.store_raw(p, n, mask(i.ty.bits(), new))?;
    if i.mods.has(Mod::Acquire) || i.mods.has(Mod::AcqRel) {
        cx.acquire(p);
    }
    if i.op == Opcode::Atom {
        cx.set(&i.ops[0], extend(i.ty, old))?;
    }
    Ok(())
}
