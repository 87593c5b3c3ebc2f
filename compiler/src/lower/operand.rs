//! PTX operands to IR operands.
//!
//! Sources: registers by their [`Val`]; integer immediates as 32-bit words
//! (a 64-bit immediate splits into low and high words); float literals as
//! float immediates where the text is exact, else materialized with `MOV`
//! of the bits; special registers through `S2R` (`SR_TID.X`, `SR_CTAID.X`,
//! `SR_LANEID`, the lane masks, the clocks) or, for the launch shape,
//! constant bank 0 at the SM table's offsets ([`crate::targets::CbankLayout`]):
//! `%ntid` at `c[0x0][0x0..0x8]` (every corpus kernel: `IMAD R2, R2,
//! c[0x0][0x0], R3`) and `%nctaid` at `c[0x0][0xc..0x14]` (there is no
//! `SR_NCTAID` S2R register on sm_70+; ptxas 11.8 reads `c[0x0][0xc]`).
//!
//! The launch-environment registers, as ptxas 11.8 reads them on sm_70..
//! sm_90 (measured; the offsets are the SM table's
//! [`crate::targets::CbankLayout`]): `%gridid` the 64-bit word at
//! `gridid`, `%envregN` the word at `envreg + 4N`, `%total_smem_size`
//! `S2R SR_SMEMSZ` minus the word at `reserved_smem` where the target has
//! one (sm_80+), `%pmN` `CS2R.32 R, SR_PMN` and `%pmN_64` `CS2R R, SR_PMN`.
//! The runners' values (corpus/LAUNCH_SPEC.md "Special registers"): grid 0, every
//! `%envreg` 0, the counters 0 (the interpreter's), and the CTA's static
//! plus dynamic shared bytes.

use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, Dim, Imm, OperandKind, SpecialReg};
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::regs::{Binding, Val};
use super::Cx;

/// The `S2R` name of a special register read by one `S2R`.
pub fn s2r_name(sr: SpecialReg) -> Option<String> {
    Some(match sr {
        SpecialReg::Tid(d) => format!("SR_TID.{}", dim_text(d)),
        SpecialReg::Ctaid(d) => format!("SR_CTAID.{}", dim_text(d)),
        SpecialReg::Laneid => "SR_LANEID".into(),
        SpecialReg::LanemaskEq => "SR_EQMASK".into(),
        SpecialReg::LanemaskLt => "SR_LTMASK".into(),
        SpecialReg::LanemaskLe => "SR_LEMASK".into(),
        SpecialReg::LanemaskGt => "SR_GTMASK".into(),
        SpecialReg::LanemaskGe => "SR_GEMASK".into(),
        SpecialReg::Clock => "SR_CLOCKLO".into(),
        SpecialReg::ClockHi => "SR_CLOCKHI".into(),
        SpecialReg::Smid => "SR_VIRTUALSMID".into(),
        SpecialReg::GlobaltimerLo => "SR_GLOBALTIMERLO".into(),
        SpecialReg::GlobaltimerHi => "SR_GLOBALTIMERHI".into(),
        _ => return None,
    })
}

/// A resolved source value.
#[derive(Clone, Debug)]
pub enum Src {
    /// One 32-bit word (8/16-bit values zero-extended).
    W(Operand),
    /// A 64-bit value: low and high words.
    D(Operand, Operand),
    /// A predicate and whether it is negated.
    P(u32, bool),
}

fn dim_index(d: Dim) -> u32 {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

fn dim_text(d: Dim) -> &'static str {
    match d {
        Dim::X => "X",
        Dim::Y => "Y",
        Dim::Z => "Z",
    }
}

/// The bits of an immediate as a value of type `ty`.
pub fn imm_bits(imm: Imm, ty: ScalarType) -> u64 {
    match imm {
        Imm::Int { .. } => {
            let v = imm.int_value().unwrap_or(0) as u64;
            if ty == ScalarType::F32 {
                // An integer literal for a float operand is its value.
                (v as i64 as f32).to_bits().into()
            } else if ty == ScalarType::F64 {
                (v as i64 as f64).to_bits()
            } else {
                v
            }
        }
        Imm::F32(b) => match ty {
            ScalarType::F64 => f64::from(f32::from_bits(b)).to_bits(),
            _ => u64::from(b),
        },
        Imm::F64(b) | Imm::Float(b) => match ty {
            ScalarType::F32 => u64::from((f64::from_bits(b) as f32).to_bits()),
            ScalarType::F16 => crate::float::cvt_float(
                crate::float::FloatType::F64,
                crate::float::FloatType::F16,
                b,
                crate::float::Rounding::Rn,
                Default::default(),
            ),
            _ => b,
        },
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl Cx<'_> {
    /// A source operand of type `ty`.
    pub fn src(&mut self, o: &ast::Operand, ty: ScalarType) -> R<Src> {
        match &o.kind {
            OperandKind::Name(s) | OperandKind::Not(s) => {
                let negated = matches!(o.kind, OperandKind::Not(_));
                match self.lookup(*s) {
                    Some(Binding::Reg { val, .. }) => {
                        if negated && !matches!(val, Val::P(_)) {
                            return self.err("`!` on a non-predicate");
                        }
                        match val {
                            Val::P(p) => Ok(Src::P(p, negated)),
                            _ => self.reg_src(val, ty, o),
                        }
                    }
                    Some(Binding::VecReg { .. }) => self.err(format!(
                        "vector register `{}` used as a scalar operand",
                        self.name(*s)
                    )),
                    Some(b) => {
                        let b = self.param_copy(*s).unwrap_or(b);
                        self.address_of(b, ty)
                    }
                    None => self.function_address(*s, ty),
                }
            }
            OperandKind::SymOffset(s, off) => match self.lookup(*s) {
                Some(b) if !matches!(b, Binding::Reg { .. }) => {
                    let b = self.param_copy(*s).unwrap_or(b);
                    let a = self.address_of(b, ty)?;
                    self.add_offset(a, *off)
                }
                _ => self.err("`name+offset` of a register"),
            },
            OperandKind::Imm(imm) => {
                let bits = imm_bits(*imm, ty);
                Ok(self.imm_src(bits, ty))
            }
            OperandKind::Special(sr) => {
                let w = self.special(*sr)?;
                if ty.bits() == 64 {
                    match w {
                        Src::W(lo) => Ok(Src::D(lo, rz())),
                        d => Ok(d),
                    }
                } else {
                    Ok(w)
                }
            }
            OperandKind::Component(..) => {
                let (val, _) = self.component(o)?;
                self.reg_src(val, ty, o)
            }
            _ => self.err("unsupported operand"),
        }
    }

    /// The source a (non-predicate) register `val` gives at type `ty`.
    fn reg_src(&self, val: Val, ty: ScalarType, o: &ast::Operand) -> R<Src> {
        Ok(match val {
            Val::P(p) => Src::P(p, false),
            Val::R(v) => {
                if ty.bits() == 64 {
                    return self.err(format!(
                        "32-bit register `{}` used as a 64-bit operand",
                        self.operand_text(o)
                    ));
                }
                Src::W(r(v))
            }
            Val::D(v) => {
                if ty.bits() <= 32 && ty.bits() > 1 {
                    // A 64-bit register read at 32 bits: its low word.
                    Src::W(r(v))
                } else {
                    Src::D(r(v), r(v + 1))
                }
            }
            Val::Q(_) => return self.err("128-bit operands are not lowered"),
        })
    }

    /// A register operand's name as written (`%r1`, `%v.x`).
    fn operand_text(&self, o: &ast::Operand) -> String {
        match o.kind {
            OperandKind::Name(s) => self.name(s).to_string(),
            OperandKind::Component(s, c) => format!(
                "{}.{}",
                self.name(s),
                ["x", "y", "z", "w"][usize::from(c & 3)]
            ),
            _ => "operand".into(),
        }
    }

    /// `%v.x` (component `c` of a vector register): the component's
    /// register and the element type (regs.rs).
    pub fn component(&self, o: &ast::Operand) -> R<(Val, ScalarType)> {
        let OperandKind::Component(s, c) = o.kind else {
            return self.err("internal: not a vector register component");
        };
        match self.lookup(s) {
            Some(Binding::VecReg { comps, n, ty }) if c < n => Ok((comps[usize::from(c)], ty)),
            Some(Binding::VecReg { n, .. }) => self.err(format!(
                "`{}` has no component {c} (a vector of {n})",
                self.name(s)
            )),
            Some(_) => self.err(format!("`{}` is not a vector register", self.name(s))),
            None => self.err(format!("unknown name `{}`", self.name(s))),
        }
    }

    /// The elements of a vector operand: `{a, b, ...}` as written, a whole
    /// vector register `%v` as its components `{%v.x, %v.y, ...}` (PTX ISA
    /// 6.4.2; ptxas 11.8 stores `st.global.v4.b32 [a], %v` as one
    /// `STG.E.128` of the component registers), any other operand as
    /// itself.
    pub fn vector_items<'o>(&self, o: &'o ast::Operand) -> std::borrow::Cow<'o, [ast::Operand]> {
        use std::borrow::Cow;
        match &o.kind {
            OperandKind::Vector(v) => Cow::Borrowed(&v[..]),
            OperandKind::Name(s) => match self.lookup(*s) {
                Some(Binding::VecReg { n, .. }) => Cow::Owned(
                    (0..n)
                        .map(|c| ast::Operand {
                            kind: OperandKind::Component(*s, c),
                            span: o.span,
                        })
                        .collect(),
                ),
                _ => Cow::Borrowed(std::slice::from_ref(o)),
            },
            _ => Cow::Borrowed(std::slice::from_ref(o)),
        }
    }

    /// `mov.u64 %r, f`: the code address of `.func f`'s first block,
    /// high word 0 (call_indirect.rs, ptxas's `MOV R6, 0xf0`).
    fn function_address(&mut self, s: crate::ptx::intern::Sym, ty: ScalarType) -> R<Src> {
        match self.m.function(self.name(s)) {
            Some(f) if f.kind == ast::FuncKind::Func => {}
            Some(_) => {
                return self.err(format!(
                    "the address of kernel `{}` is not lowered",
                    self.name(s)
                ))
            }
            None => return self.err(format!("unknown name `{}`", self.name(s))),
        }
        let abi = self.func_abi(s)?;
        let v = self.b.vpair();
        self.b
            .emit(Op::MOV, &[], [r(v), Operand::Label(abi.label)])?;
        self.mov(v + 1, rz())?;
        Ok(if ty.bits() == 64 {
            Src::D(r(v), r(v + 1))
        } else {
            Src::W(r(v))
        })
    }

    /// The source for immediate bits of type `ty`.
    pub fn imm_src(&mut self, bits: u64, ty: ScalarType) -> Src {
        let bits = bits & mask(ty.bits());
        match ty.bits() {
            64 => {
                if ty == ScalarType::F64 {
                    if let Some(f) = f64_imm(bits) {
                        // Only where a whole value is needed; callers that
                        // split words use the integer form.
                        let _ = f;
                    }
                }
                Src::D(
                    imm(i64::from(bits as u32 as i32)),
                    imm(i64::from((bits >> 32) as u32 as i32)),
                )
            }
            1 => Src::P(0, bits == 0),
            _ => {
                if ty == ScalarType::F32 {
                    if let Some(f) = f32_imm(bits as u32) {
                        return Src::W(f);
                    }
                }
                Src::W(imm(i64::from(bits as u32 as i32)))
            }
        }
    }

    /// A parameter whose address is taken: its frame copy.
    fn param_copy(&self, s: crate::ptx::intern::Sym) -> Option<Binding> {
        self.param_copies
            .get(&s)
            .map(|&offset| Binding::Local { offset })
    }

    /// The address a variable name stands for (`mov.u64 %rd, smem;`).
    fn address_of(&mut self, b: Binding, ty: ScalarType) -> R<Src> {
        let lo = match b {
            Binding::Global { slot } => {
                let v = self.b.vpair();
                self.b.emit(Op::LDC, &["64"], [r(v), cbank(4, slot)])?;
                return Ok(if ty.bits() == 64 {
                    Src::D(r(v), r(v + 1))
                } else {
                    Src::W(r(v))
                });
            }
            Binding::ResourceRef { offset, kind } => {
                // The reference's handle word (res_ref.rs) and the kind's
                // constant high word: ptxas 11.8's value on sm_90 (the
                // rules and the sm_70..sm_89 difference: `RefKind::
                // handle_high_word`).
                let v = self.b.vreg();
                self.b.emit(Op::MOV, &[], [r(v), cbank(0, offset)])?;
                let hi = imm32(kind.handle_high_word());
                return Ok(if ty.bits() == 64 {
                    Src::D(r(v), hi)
                } else {
                    Src::W(r(v))
                });
            }
            Binding::Shared { addr } => imm(i64::from(addr)),
            Binding::Const { offset } => imm(i64::from(offset)),
            Binding::Local { offset } => {
                let v = self.b.vreg();
                self.b
                    .emit(Op::IADD3, &[], [r(v), sp(), imm(i64::from(offset)), rz()])?;
                r(v)
            }
            Binding::KernelParam { .. } | Binding::ParamWords { .. } => {
                return self.err("internal: the address of a parameter without a frame copy")
            }
            Binding::Reg { .. } | Binding::VecReg { .. } => {
                return self.err("internal: the address of a register")
            }
        };
        Ok(if ty.bits() == 64 {
            Src::D(lo, imm(0))
        } else {
            Src::W(lo)
        })
    }

    fn add_offset(&mut self, a: Src, off: i64) -> R<Src> {
        Ok(match a {
            Src::W(Operand::Imm(v)) => Src::W(imm(v + off)),
            Src::D(Operand::Imm(v), hi) => Src::D(imm(v + off), hi),
            Src::W(x) => {
                let v = self.b.vreg();
                self.b.emit(Op::IADD3, &[], [r(v), x, imm(off), rz()])?;
                Src::W(r(v))
            }
            Src::D(x, hi) => {
                let v = self.b.vreg();
                self.b.emit(Op::IADD3, &[], [r(v), x, imm(off), rz()])?;
                Src::D(r(v), hi)
            }
            p => p,
        })
    }

    /// A 32-bit (or narrower) source.
    pub fn src32(&mut self, o: &ast::Operand, ty: ScalarType) -> R<Operand> {
        match self.src(o, ty)? {
            Src::W(x) => Ok(x),
            Src::D(lo, _) => Ok(lo),
            Src::P(..) => self.err("a predicate where a value is expected"),
        }
    }

    /// A 32-bit source in a register.
    pub fn src32r(&mut self, o: &ast::Operand, ty: ScalarType) -> R<Operand> {
        let x = self.src32(o, ty)?;
        self.in_reg(x)
    }

    /// A 64-bit source: (low, high).
    pub fn src64(&mut self, o: &ast::Operand, ty: ScalarType) -> R<(Operand, Operand)> {
        match self.src(o, ty)? {
            Src::D(lo, hi) => Ok((lo, hi)),
            Src::W(x) => Ok((x, imm(0))),
            Src::P(..) => self.err("a predicate where a value is expected"),
        }
    }

    /// A 64-bit source in an aligned register pair (copied when it is not one).
    pub fn src64_pair(&mut self, o: &ast::Operand, ty: ScalarType) -> R<u32> {
        match &o.kind {
            OperandKind::Name(s) => {
                if let Some(Binding::Reg { val: Val::D(v), .. }) = self.lookup(*s) {
                    return Ok(v);
                }
            }
            OperandKind::Component(..) => {
                if let (Val::D(v), _) = self.component(o)? {
                    return Ok(v);
                }
            }
            _ => {}
        }
        let (lo, hi) = self.src64(o, ty)?;
        let v = self.b.vpair();
        self.mov(v, lo)?;
        self.mov(v + 1, hi)?;
        Ok(v)
    }

    /// A predicate source: (predicate operand).
    pub fn src_pred(&mut self, o: &ast::Operand) -> R<Operand> {
        match self.src(o, ScalarType::Pred)? {
            Src::P(_, neg) if matches!(o.kind, OperandKind::Imm(_)) => {
                Ok(if neg { npt() } else { pt() })
            }
            Src::P(v, neg) => Ok(if neg { pnot(v) } else { p(v) }),
            _ => self.err("expected a predicate"),
        }
    }

    /// Puts an operand in a register (`MOV` of an immediate or constant).
    pub fn in_reg(&mut self, x: Operand) -> R<Operand> {
        if is_reg(&x) && !matches!(&x, Operand::Reg(o) if o.neg || o.not || o.abs) {
            return Ok(x);
        }
        let v = self.b.vreg();
        self.mov(v, x)?;
        Ok(r(v))
    }

    /// `MOV %rv, x` (a register copy with modifiers becomes IMAD/LOP3).
    pub fn mov(&mut self, v: u32, x: Operand) -> R {
        match &x {
            Operand::Reg(o) if o.neg => self.b.emit(Op::IADD3, &[], [r(v), x, rz(), rz()]),
            Operand::Reg(o) if o.not => {
                let mut y = o.clone();
                y.not = false;
                self.b.emit(
                    Op::LOP3,
                    &["LUT"],
                    [r(v), rz(), Operand::Reg(y), rz(), imm(0x33), npt()],
                )
            }
            Operand::Pred { .. } => self.b.emit(Op::SEL, &[], [r(v), imm(1), rz(), x]),
            _ => self.b.emit(Op::MOV, &[], [r(v), x]),
        }
    }

    /// A special register's value.
    pub fn special(&mut self, sr: SpecialReg) -> R<Src> {
        let s2r = |cx: &mut Self, name: String| -> R<Src> {
            let v = cx.b.vreg();
            cx.b.emit(Op::S2R, &[], [r(v), Operand::Special(name)])?;
            Ok(Src::W(r(v)))
        };
        if let Some(name) = s2r_name(sr) {
            return s2r(self, name);
        }
        match sr {
            SpecialReg::Ntid(d) => Ok(Src::W(cbank(0, self.cb.ntid + 4 * dim_index(d)))),
            SpecialReg::Nctaid(d) => Ok(Src::W(cbank(0, self.cb.nctaid + 4 * dim_index(d)))),
            // ptxas 11.8, sm_70..sm_90: `MOV R10, 0x40` (the PTX
            // interpreter's %nwarpid is 64 as well).
            SpecialReg::Nwarpid => Ok(Src::W(imm(64))),
            // Constant bank 0 words the runner fills (the SM table's
            // offsets, measured; the simulator writes the interpreter's
            // values: 1 SM, the launch's dynamic shared bytes).
            SpecialReg::Nsmid => Ok(Src::W(cbank(0, self.cb.nsmid))),
            SpecialReg::DynamicSmemSize => Ok(Src::W(cbank(0, self.cb.dynamic_smem_size))),
            SpecialReg::Warpid => {
                // %warpid: SR_VIRTID bits [14:8] (docs/SEMANTICS.md, Special registers).
                let Src::W(x) = s2r(self, "SR_VIRTID".into())? else {
                    unreachable!()
                };
                let v = self.b.vreg();
                self.b
                    .emit(Op::SHF, &["R", "U32", "HI"], [r(v), rz(), imm(8), x])?;
                self.b.emit(
                    Op::LOP3,
                    &["LUT"],
                    [r(v), r(v), imm(0x7f), rz(), imm(0xc0), npt()],
                )?;
                Ok(Src::W(r(v)))
            }
            SpecialReg::Gridid => Ok(Src::D(
                cbank(0, self.cb.gridid),
                cbank(0, self.cb.gridid + 4),
            )),
            SpecialReg::Envreg(n) => Ok(Src::W(cbank(0, self.cb.envreg + 4 * u32::from(n)))),
            SpecialReg::TotalSmemSize => {
                let Src::W(x) = s2r(self, "SR_SMEMSZ".into())? else {
                    unreachable!()
                };
                let Some(reserved) = self.cb.reserved_smem else {
                    return Ok(Src::W(x));
                };
                let v = self.b.vreg();
                let mut c = cbank(0, reserved);
                if let Operand::Const(k) = &mut c {
                    k.neg = true;
                }
                self.b.emit(Op::IADD3, &[], [r(v), x, c, rz()])?;
                Ok(Src::W(r(v)))
            }
            SpecialReg::Pm(n) => {
                let v = self.b.vreg();
                self.b.emit(
                    Op::CS2R,
                    &["32"],
                    [r(v), Operand::Special(format!("SR_PM{n}"))],
                )?;
                Ok(Src::W(r(v)))
            }
            SpecialReg::Pm64(n) => {
                let v = self.b.vpair();
                self.b
                    .emit(Op::CS2R, &[], [r(v), Operand::Special(format!("SR_PM{n}"))])?;
                Ok(Src::D(r(v), r(v + 1)))
            }
            SpecialReg::Clock64 | SpecialReg::Globaltimer => {
                let name = if sr == SpecialReg::Clock64 {
                    "SR_CLOCKLO"
                } else {
                    "SR_GLOBALTIMERLO"
                };
                let v = self.b.vpair();
                self.b
                    .emit(Op::CS2R, &[], [r(v), Operand::Special(name.into())])?;
                Ok(Src::D(r(v), r(v + 1)))
            }
            other => self.err(format!("special register {other:?} is not lowered")),
        }
    }

    // ---- destinations ----

    pub fn dst_val(&self, o: &ast::Operand) -> R<(Val, ScalarType)> {
        match &o.kind {
            OperandKind::Name(s) => match self.lookup(*s) {
                Some(Binding::Reg { val, ty }) => Ok((val, ty)),
                _ => self.err(format!("`{}` is not a register", self.name(*s))),
            },
            OperandKind::Component(..) => self.component(o),
            OperandKind::Sink => self.err("internal: sink destination"),
            _ => self.err("unsupported destination operand"),
        }
    }

    /// A 32-bit destination register (also narrow registers).
    pub fn dst32(&self, o: &ast::Operand) -> R<u32> {
        match self.dst_val(o)? {
            (Val::R(v), _) => Ok(v),
            (Val::D(v), _) => Ok(v),
            _ => self.err("expected a 32-bit register destination"),
        }
    }

    /// A 64-bit destination pair (its low register).
    pub fn dst64(&self, o: &ast::Operand) -> R<u32> {
        match self.dst_val(o)? {
            (Val::D(v), _) => Ok(v),
            _ => self.err("expected a 64-bit register destination"),
        }
    }

    pub fn dst_pred(&self, o: &ast::Operand) -> R<u32> {
        match self.dst_val(o)? {
            (Val::P(p), _) => Ok(p),
            _ => self.err("expected a predicate destination"),
        }
    }

    /// Clears the bits above `bits` of `%rv` (narrow registers stay
    /// zero-extended).
    pub fn narrow(&mut self, v: u32, bits: u32) -> R {
        if bits < 32 {
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [
                    r(v),
                    r(v),
                    imm32((1u32 << bits) - 1),
                    rz(),
                    imm(0xc0),
                    npt(),
                ],
            )?;
        }
        Ok(())
    }

    /// Zero-extends the low `bits` of a source into a fresh register (a
    /// `LOP3` mask); immediates are masked in place.
    pub fn zext(&mut self, x: Operand, bits: u32) -> R<Operand> {
        if bits >= 32 {
            return Ok(x);
        }
        let mask = (1u32 << bits) - 1;
        if let Operand::Imm(v) = x {
            return Ok(imm(v & i64::from(mask)));
        }
        let x = self.in_reg(x)?;
        let v = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(v), x, imm32(mask), rz(), imm(0xc0), npt()],
        )?;
        Ok(r(v))
    }

    /// Whether source `o` may hold bits above `bits`: a register declared
    /// wider than the instruction type (PTX ISA 5.4.4.1, "Operand Size
    /// Exceeding Instruction-Type Size": the source is chopped to the
    /// type's size), or an immediate.
    pub fn wider_than(&self, o: &ast::Operand, bits: u32) -> bool {
        match self.dst_val(o) {
            Ok((_, ty)) => ty.bits() > bits,
            Err(_) => true,
        }
    }

    /// Sign-extends the low `bits` of a source into a fresh register (SGXT).
    pub fn sext(&mut self, x: Operand, bits: u32) -> R<Operand> {
        if bits >= 32 {
            return Ok(x);
        }
        if let Operand::Imm(v) = x {
            let sh = 64 - bits;
            return Ok(imm(((v << sh) >> sh) as i32 as i64));
        }
        let x = self.in_reg(x)?;
        let v = self.b.vreg();
        self.b
            .emit(Op::SGXT, &[], [r(v), x, imm(i64::from(bits))])?;
        Ok(r(v))
    }
}
