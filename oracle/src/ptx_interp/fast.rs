//! Specialised forms of the hot instructions, chosen once at decode time:
//! operands resolved to register slots, modifiers folded into the variant,
//! so that `exec::fast` runs them without looking at operands or modifiers.
//!
//! An instruction gets a fast form only where the form computes exactly what
//! the general executor (`exec::*`) computes, calling the same semantic
//! functions; everything else stays `Fast::Slow`. A fast form never reports
//! an error itself except a data race: wherever the general executor would
//! report a fault or UB (an uninitialized register, a misaligned or
//! out-of-bounds access), the fast path hands the instruction to the general
//! executor, which reports it.
//!
//! Immediates become *constant slots*: extra registers of the function,
//! set (and marked written) when a frame starts, so every source operand of
//! a fast form is a register slot.

use super::exec::FUNC_BASE;
use super::memory::Windows;
use super::program::{AddrBase, Class, Function, Inst, Opnd, Space};
use ptxc::float::{CmpOp, FloatType, Mods, Rounding};
use ptxc::int::IntCmp;
use ptxc::ptx::ast::SpecialReg;
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::{ScalarType, TypeKind};
use rustc_hash::FxHashMap;

/// How a value of a type is held in a register (`exec::extend`): its low
/// `64 - shift` bits, sign-extended for signed types, else zero-extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ext {
    shift: u8,
    signed: bool,
}

impl Ext {
    pub fn of(t: ScalarType) -> Ext {
        Ext {
            shift: (64 - t.bits().min(64)) as u8,
            signed: t.is_signed(),
        }
    }

    #[inline(always)]
    pub fn apply(self, v: u64) -> u64 {
        let x = v << self.shift;
        if self.signed {
            ((x as i64) >> self.shift) as u64
        } else {
            x >> self.shift
        }
    }
}

/// The 32- and 64-bit integer types of fast integer forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum W {
    U32,
    S32,
    U64,
    S64,
}

impl W {
    fn of(t: ScalarType) -> Option<W> {
        if !matches!(
            t.kind(),
            TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed
        ) {
            return None;
        }
        Some(match (t.bits(), t.is_signed()) {
            (32, false) => W::U32,
            (32, true) => W::S32,
            (64, false) => W::U64,
            (64, true) => W::S64,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp2 {
    Add,
    Sub,
    MulLo,
    /// `mul.wide` (32-bit sources only).
    MulWide,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp1 {
    Abs,
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp2 {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredOp {
    And,
    Or,
    Xor,
}

/// A specialised instruction. Register operands are slots; `d` is the
/// destination, `a`, `b`, `c` the sources in operand order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fast {
    /// Run by the general executor.
    Slow,
    /// An instruction without effect (`Class::Nop`).
    Nop,
    /// `op.type d, a, b` on a 32- or 64-bit integer type.
    Int2 {
        op: IntOp2,
        w: W,
        d: u32,
        a: u32,
        b: u32,
    },
    Int1 {
        op: IntOp1,
        w: W,
        d: u32,
        a: u32,
    },
    /// `mad.lo.type d, a, b, c`.
    MadLo {
        w: W,
        d: u32,
        a: u32,
        b: u32,
        c: u32,
    },
    /// `setp.cmp.type p, a, b` (one destination, no boolean operation).
    Setp {
        cmp: IntCmp,
        w: W,
        p: u32,
        a: u32,
        b: u32,
    },
    /// `and/or/xor.pred d, a, b`, each source possibly negated.
    Pred {
        op: PredOp,
        d: u32,
        a: u32,
        na: bool,
        b: u32,
        nb: bool,
    },
    /// `selp.type d, a, b, p` (`!p` when `neg`).
    Selp {
        ext: Ext,
        d: u32,
        a: u32,
        b: u32,
        p: u32,
        neg: bool,
    },
    /// `mov.type d, a` (also immediates and constant addresses).
    Mov {
        ext: Ext,
        d: u32,
        a: u32,
    },
    /// `mov.type d, %sreg` for a special register that is constant for the
    /// thread (`%tid`, `%ntid`, `%ctaid`, `%nctaid`, `%laneid`, `%warpid`).
    MovSreg {
        ext: Ext,
        d: u32,
        r: SpecialReg,
    },
    /// `mov.type d, var` for a `.local` or `.param` frame variable: the
    /// address `frame_base + off`.
    MovFrame {
        ext: Ext,
        d: u32,
        off: u64,
    },
    /// Integer-to-integer `cvt` without `.sat`: `to(from(a))`.
    Cvt {
        from: Ext,
        to: Ext,
        d: u32,
        a: u32,
    },
    /// `cvta`: `d = ext(a + add)` (a window base added or subtracted).
    Cvta {
        ext: Ext,
        add: u64,
        d: u32,
        a: u32,
    },
    /// `add/sub/mul.rnd.f32/f64`.
    Float2 {
        op: FloatOp2,
        ft: FloatType,
        rnd: Rounding,
        m: Mods,
        d: u32,
        a: u32,
        b: u32,
    },
    /// `fma.rnd.f32/f64` and float `mad`.
    Fma {
        ft: FloatType,
        rnd: Rounding,
        m: Mods,
        d: u32,
        a: u32,
        b: u32,
        c: u32,
    },
    /// `setp.cmp{.ftz}.f32/f64 p, a, b`.
    FSetp {
        cmp: CmpOp,
        ft: FloatType,
        ftz: bool,
        p: u32,
        a: u32,
        b: u32,
    },
    /// Scalar weak `ld`: `d = ext(mem[space][base + off])`, `n` bytes.
    Ld {
        space: Space,
        n: u8,
        ext: Ext,
        d: u32,
        base: u32,
        off: i64,
    },
    /// Scalar weak `ld` of a frame variable: `[frame_base + off]` in local memory.
    LdFrame {
        n: u8,
        ext: Ext,
        d: u32,
        off: u64,
    },
    /// Scalar weak `st`: the low `n` bytes of `v` to `mem[space][base + off]`.
    St {
        space: Space,
        n: u8,
        base: u32,
        off: i64,
        v: u32,
    },
    StFrame {
        n: u8,
        off: u64,
        v: u32,
    },
    /// `bra` (with any guard).
    Bra {
        pc: u32,
    },
    /// `exit`, and `ret` when the thread is in the kernel (in a `.func`,
    /// the general executor returns).
    Exit {
        ret: bool,
    },
    /// `bar.sync id{, count}` with immediate operands: the thread waits
    /// (`exec::collective::arrive`).
    Bar {
        id: u32,
        expected: Option<u32>,
    },
}

/// An instruction's guard (slot, negated) and its fast form.
#[derive(Clone, Copy, Debug)]
pub struct FastInst {
    pub guard: Option<(u32, bool)>,
    pub op: Fast,
    /// Every register the fast form reads (the guard included) is certainly
    /// written when it runs (`assigned`): no uninitialized-read checks.
    pub safe: bool,
}

/// Chooses the fast forms of a function's instructions, adding its constant
/// slots; sets `f.fast`, `f.init_regs` and `f.init_written`.
pub fn lower_function(f: &mut Function, addr64: bool) {
    let mut l = Lower {
        nregs: f.nregs,
        consts: FxHashMap::default(),
        windows: Windows::new(addr64),
    };
    f.fast = f
        .insts
        .iter()
        .map(|i| FastInst {
            guard: i.guard,
            op: l.inst(i).unwrap_or(Fast::Slow),
            safe: false,
        })
        .collect();
    let n = l.nregs as usize;
    f.reg_names.resize(n, "<constant>".into());
    f.nregs = l.nregs;
    f.init_regs = vec![0; n];
    f.init_written = vec![0; n];
    for (&v, &slot) in &l.consts {
        f.init_regs[slot as usize] = v;
        f.init_written[slot as usize] = 1;
    }
    let safe = super::assigned::sources_written(f, &f.fast);
    for (fi, safe) in f.fast.iter_mut().zip(safe) {
        fi.safe = safe;
    }
}

struct Lower {
    nregs: u32,
    /// Constant slots by value.
    consts: FxHashMap<u64, u32>,
    windows: Windows,
}

fn strong(i: &Inst) -> bool {
    [Mod::Volatile, Mod::Relaxed, Mod::Acquire, Mod::Release]
        .iter()
        .any(|&m| i.mods.has(m))
}

fn reg(o: &Opnd) -> Option<u32> {
    match o {
        Opnd::Reg(s) => Some(*s),
        _ => None,
    }
}

/// A predicate operand: (slot, negated).
fn pred(o: &Opnd) -> Option<(u32, bool)> {
    match o {
        Opnd::Pred { slot, neg } => Some((*slot, *neg)),
        _ => None,
    }
}

fn rounding(i: &Inst) -> Rounding {
    i.rnd.unwrap_or(Rounding::Rn)
}

fn float_ty(t: ScalarType) -> Option<FloatType> {
    match t {
        ScalarType::F32 => Some(FloatType::F32),
        ScalarType::F64 => Some(FloatType::F64),
        _ => None,
    }
}

/// Integer comparison of `setp`, as `exec::int` decodes it.
fn int_cmp(i: &Inst) -> Option<IntCmp> {
    use IntCmp::*;
    [
        (Mod::Eq, Eq),
        (Mod::Ne, Ne),
        (Mod::Lt, Lt),
        (Mod::Le, Le),
        (Mod::Gt, Gt),
        (Mod::Ge, Ge),
        (Mod::Lo, Lo),
        (Mod::Ls, Ls),
        (Mod::Hi, Hi),
        (Mod::Hs, Hs),
    ]
    .into_iter()
    .find(|(m, _)| i.mods.has(*m))
    .map(|(_, c)| c)
}

impl Lower {
    /// A slot holding `v`.
    fn constant(&mut self, v: u64) -> u32 {
        *self.consts.entry(v).or_insert_with(|| {
            self.nregs += 1;
            self.nregs - 1
        })
    }

    /// A source operand whose value `Ctx::get` returns without looking at
    /// the thread or frame: a register, or a constant slot.
    fn src(&mut self, o: &Opnd) -> Option<u32> {
        match o {
            Opnd::Reg(s) => Some(*s),
            Opnd::Imm(v) => Some(self.constant(*v)),
            Opnd::VarAddr(v, off) if !matches!(v.space, Space::Local | Space::FrameParam) => {
                Some(self.constant(v.offset.wrapping_add(*off as u64)))
            }
            Opnd::FuncAddr(f) | Opnd::Func(f) => {
                Some(self.constant(FUNC_BASE + 16 * u64::from(*f)))
            }
            _ => None,
        }
    }

    fn inst(&mut self, i: &Inst) -> Option<Fast> {
        match i.class {
            Class::Nop => Some(Fast::Nop),
            Class::Control => match (i.op, i.ops.as_slice()) {
                (Opcode::Bra, [Opnd::Label(pc), ..]) => Some(Fast::Bra { pc: *pc }),
                (Opcode::Exit, _) => Some(Fast::Exit { ret: false }),
                (Opcode::Ret, _) => Some(Fast::Exit { ret: true }),
                _ => None,
            },
            Class::Collective => Self::barrier(i),
            Class::Int => self.int(i),
            Class::Float => self.float(i),
            Class::FloatCompare => self.float_compare(i),
            Class::Convert => self.cvt(i),
            Class::Memory => self.memory(i),
            Class::Texture => None,
        }
    }

    /// Mirrors `exec::collective::arrive` for a CTA barrier that waits,
    /// with an immediate id (below 16) and count (a positive multiple of the
    /// warp size) where it fails for no thread.
    fn barrier(i: &Inst) -> Option<Fast> {
        let m = |md: Mod| i.mods.has(md);
        if !matches!(i.op, Opcode::Bar | Opcode::Barrier) || m(Mod::Warp) || m(Mod::Red) {
            return None;
        }
        if m(Mod::Arrive) {
            return None;
        }
        let imm32 = |o: &Opnd| match o {
            Opnd::Imm(v) => Some(*v as u32),
            _ => None,
        };
        let (id, expected) = match i.ops.as_slice() {
            [id] => (imm32(id)?, None),
            [id, count, ..] => (imm32(id)?, Some(imm32(count)?)),
            _ => return None,
        };
        let warp = super::machine::WARP as u32;
        let ok = id < 16 && expected.is_none_or(|n| n != 0 && n % warp == 0);
        ok.then_some(Fast::Bar { id, expected })
    }

    /// Mirrors `exec::int::exec`.
    fn int(&mut self, i: &Inst) -> Option<Fast> {
        use Opcode::*;
        let has = |m: Mod| i.mods.has(m);
        let ops = i.ops.as_slice();
        if i.ty == ScalarType::Pred {
            let op = match i.op {
                And => PredOp::And,
                Or => PredOp::Or,
                Xor => PredOp::Xor,
                _ => return None,
            };
            let [d, a, b] = ops else { return None };
            let (d, _) = pred(d)?;
            let (a, na) = pred(a)?;
            let (b, nb) = pred(b)?;
            return Some(Fast::Pred {
                op,
                d,
                a,
                na,
                b,
                nb,
            });
        }
        if i.op == Selp {
            let [d, a, b, p] = ops else { return None };
            let (p, neg) = pred(p)?;
            return Some(Fast::Selp {
                ext: Ext::of(i.ty),
                d: reg(d)?,
                a: self.src(a)?,
                b: self.src(b)?,
                p,
                neg,
            });
        }
        let w = W::of(i.ty)?;
        match (i.op, ops) {
            (Add | Sub | Mul | Min | Max | And | Or | Xor | Shl | Shr, [d, a, b]) => {
                let op = match i.op {
                    Add | Sub if has(Mod::Cc) || has(Mod::Sat) => return None,
                    Add => IntOp2::Add,
                    Sub => IntOp2::Sub,
                    Mul if has(Mod::Hi) => return None,
                    Mul if has(Mod::Wide) => match w {
                        W::U32 | W::S32 => IntOp2::MulWide,
                        _ => return None,
                    },
                    Mul => IntOp2::MulLo,
                    Min | Max if has(Mod::Relu) => return None,
                    Min => IntOp2::Min,
                    Max => IntOp2::Max,
                    And => IntOp2::And,
                    Or => IntOp2::Or,
                    Xor => IntOp2::Xor,
                    Shl => IntOp2::Shl,
                    _ => IntOp2::Shr,
                };
                Some(Fast::Int2 {
                    op,
                    w,
                    d: reg(d)?,
                    a: self.src(a)?,
                    b: self.src(b)?,
                })
            }
            (Abs | Neg | Not, [d, a]) => Some(Fast::Int1 {
                op: match i.op {
                    Abs => IntOp1::Abs,
                    Neg => IntOp1::Neg,
                    _ => IntOp1::Not,
                },
                w,
                d: reg(d)?,
                a: self.src(a)?,
            }),
            (Mad, [d, a, b, c])
                if !(has(Mod::Cc) || has(Mod::Wide) || has(Mod::Hi) || has(Mod::Sat)) =>
            {
                Some(Fast::MadLo {
                    w,
                    d: reg(d)?,
                    a: self.src(a)?,
                    b: self.src(b)?,
                    c: self.src(c)?,
                })
            }
            (Setp, [p, a, b]) => Some(Fast::Setp {
                cmp: int_cmp(i)?,
                w,
                p: pred(p)?.0,
                a: self.src(a)?,
                b: self.src(b)?,
            }),
            _ => None,
        }
    }

    /// Mirrors `exec::float::exec` for unpacked f32/f64.
    fn float(&mut self, i: &Inst) -> Option<Fast> {
        let ft = float_ty(i.ty)?;
        let m = Mods {
            ftz: i.mods.has(Mod::Ftz),
            sat: i.mods.has(Mod::Sat),
        };
        let rnd = rounding(i);
        match (i.op, i.ops.as_slice()) {
            (Opcode::Add | Opcode::Sub | Opcode::Mul, [d, a, b]) => Some(Fast::Float2 {
                op: match i.op {
                    Opcode::Add => FloatOp2::Add,
                    Opcode::Sub => FloatOp2::Sub,
                    _ => FloatOp2::Mul,
                },
                ft,
                rnd,
                m,
                d: reg(d)?,
                a: self.src(a)?,
                b: self.src(b)?,
            }),
            (Opcode::Fma | Opcode::Mad, [d, a, b, c]) if !i.mods.has(Mod::Relu) => {
                Some(Fast::Fma {
                    ft,
                    rnd,
                    m,
                    d: reg(d)?,
                    a: self.src(a)?,
                    b: self.src(b)?,
                    c: self.src(c)?,
                })
            }
            _ => None,
        }
    }

    /// Mirrors `exec::float::compare` for `setp` on f32/f64.
    fn float_compare(&mut self, i: &Inst) -> Option<Fast> {
        let [p, a, b] = i.ops.as_slice() else {
            return None;
        };
        if i.op != Opcode::Setp {
            return None;
        }
        Some(Fast::FSetp {
            cmp: super::exec::float_cmp_op(i)?,
            ft: float_ty(i.ty)?,
            ftz: i.mods.has(Mod::Ftz),
            p: pred(p)?.0,
            a: self.src(a)?,
            b: self.src(b)?,
        })
    }

    /// Mirrors `exec::float::cvt` for integer-to-integer conversions.
    fn cvt(&mut self, i: &Inst) -> Option<Fast> {
        let int = |t: ScalarType| {
            matches!(
                t.kind(),
                TypeKind::Bits | TypeKind::Unsigned | TypeKind::Signed
            ) && t.bits() <= 64
        };
        if !int(i.ty) || !int(i.ty2) || i.mods.has(Mod::Pack) || i.mods.has(Mod::Sat) {
            return None;
        }
        let [d, a] = i.ops.as_slice() else {
            return None;
        };
        Some(Fast::Cvt {
            from: Ext::of(i.ty2),
            to: Ext::of(i.ty),
            d: reg(d)?,
            a: self.src(a)?,
        })
    }

    /// Mirrors `exec::mem::exec` for `mov`, `cvta` and scalar weak `ld`/`st`.
    fn memory(&mut self, i: &Inst) -> Option<Fast> {
        let ops = i.ops.as_slice();
        match i.op {
            Opcode::Mov => {
                let [d, a] = ops else { return None };
                if i.ty == ScalarType::Pred {
                    return None;
                }
                if let Opnd::VarAddr(v, off) = a {
                    if matches!(v.space, Space::Local | Space::FrameParam) {
                        return Some(Fast::MovFrame {
                            ext: Ext::of(i.ty),
                            d: reg(d)?,
                            off: v.offset.wrapping_add(*off as u64),
                        });
                    }
                }
                if let Opnd::Sreg(r) = a {
                    use SpecialReg::*;
                    let constant =
                        matches!(r, Tid(_) | Ntid(_) | Ctaid(_) | Nctaid(_) | Laneid | Warpid);
                    return constant.then_some(Fast::MovSreg {
                        ext: Ext::of(i.ty),
                        d: reg(d)?,
                        r: *r,
                    });
                }
                Some(Fast::Mov {
                    ext: Ext::of(i.ty),
                    d: reg(d)?,
                    a: self.src(a)?,
                })
            }
            Opcode::Cvta => {
                let [d, a] = ops else { return None };
                let base = self.windows.to_generic(i.space, 0);
                let add = if i.mods.has(Mod::To) {
                    base.wrapping_neg()
                } else {
                    base
                };
                Some(Fast::Cvta {
                    ext: Ext::of(i.ty),
                    add,
                    d: reg(d)?,
                    a: self.src(a)?,
                })
            }
            Opcode::Ld | Opcode::Ldu => {
                let [d, addr] = ops else { return None };
                let (n, ext) = self.scalar_access(i)?;
                let d = reg(d)?;
                Some(match self.address(addr, i.space)? {
                    Address::Frame(off) => Fast::LdFrame { n, ext, d, off },
                    Address::At(space, base, off) => Fast::Ld {
                        space,
                        n,
                        ext,
                        d,
                        base,
                        off,
                    },
                })
            }
            Opcode::St => {
                let [addr, v] = ops else { return None };
                let (n, _) = self.scalar_access(i)?;
                let v = self.src(v)?;
                Some(match self.address(addr, i.space)? {
                    Address::Frame(off) => Fast::StFrame { n, off, v },
                    Address::At(space, base, off) => Fast::St {
                        space,
                        n,
                        base,
                        off,
                        v,
                    },
                })
            }
            _ => None,
        }
    }

    /// Size and register extension of a scalar weak access of 1 to 8 bytes.
    fn scalar_access(&self, i: &Inst) -> Option<(u8, Ext)> {
        let n = i.ty.bytes();
        let ok = i.vec == 1
            && !strong(i)
            && i.ty != ScalarType::Pred
            && matches!(n, 1 | 2 | 4 | 8)
            && i.ty.bits() == 8 * n;
        ok.then(|| (n as u8, Ext::of(i.ty)))
    }

    /// Mirrors `Ctx::place`.
    fn address(&mut self, o: &Opnd, space: Space) -> Option<Address> {
        let Opnd::Addr { base, offset, .. } = o else {
            return None;
        };
        Some(match base {
            AddrBase::Reg(s) => Address::At(space, *s, *offset),
            AddrBase::Var(v) if matches!(v.space, Space::Local | Space::FrameParam) => {
                Address::Frame(v.offset.wrapping_add(*offset as u64))
            }
            AddrBase::Var(v) => Address::At(v.space, self.constant(v.offset), *offset),
            AddrBase::Abs => Address::At(space, self.constant(0), *offset),
            AddrBase::Handle(h) => Address::At(Space::Global, self.constant(*h), *offset),
        })
    }
}

enum Address {
    /// `[frame_base + off]` in the thread's local memory.
    Frame(u64),
    /// `[base register + off]` in a space (`Generic`: resolved at run time).
    At(Space, u32, i64),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx_interp::exec::extend;

    #[test]
    fn ext_is_extend() {
        use ScalarType::*;
        let vals = [
            0u64,
            1,
            0x7f,
            0x80,
            0xffff,
            0x8000_0000,
            u64::MAX,
            0x1234_5678_9abc_def0,
        ];
        for t in [
            Pred, B8, U8, S8, B16, U16, S16, F16, Bf16, B32, U32, S32, F32, F16x2, B64, U64, S64,
            F64,
        ] {
            for v in vals {
                assert_eq!(Ext::of(t).apply(v), extend(t, v), "{t:?} {v:x}");
            }
        }
    }

    #[test]
    fn int_types_have_a_width_class() {
        assert_eq!(W::of(ScalarType::B32), Some(W::U32));
        assert_eq!(W::of(ScalarType::S64), Some(W::S64));
        assert_eq!(W::of(ScalarType::F32), None);
        assert_eq!(W::of(ScalarType::U16), None);
    }
}
