//! Floating point (PTX ISA 9.7.3, 9.7.4): add/sub/mul/fma/mad, neg/abs,
//! min/max, the MUFU approximations, copysign, testp; f32, f64, f16, f16x2.
//!
//! - f32: `FADD`/`FMUL`/`FFMA` with `.FTZ`, `.SAT` and the rounding
//!   modifier when it is not `.rn` (vendor spelling: `FFMA.RZ R8, R13, R15,
//!   R14`, saxpy_div.sm_80 0x0640); f64: `DADD`/`DMUL`/`DFMA`.
//! - neg/abs as ptxas 11.8 lowers them, so NaNs come out as the interpreter
//!   says (`ptxc::float::sign`): f32 `FADD{.FTZ} d, -a, -RZ` / `FADD{.FTZ}
//!   d, |a|, -RZ` (docs/SEMANTICS.md, Sign operations; a NaN becomes the canonical NaN); f64
//!   `DADD d, -RZ, -a` / `DADD d, -RZ, |a|` (measured with `ptxas
//!   -arch=sm_80`; DADD passes a NaN operand on without its modifier, see
//!   the simulator's `semantics::fp64`); f16/f16x2 `HADD2 d, -a, -RZ.H0_H0`,
//!   bf16/bf16x2 `HFMA2.BF16_V2 d, -RZ.H0_H0, RZ.H0_H0, -a` (measured with
//!   `ptxas -arch=sm_80..sm_90`; `.H0_H0` on `a` for the scalar forms, whose
//!   results are masked back to 16 bits); below sm_80 refused, as ptxas
//!   11.8 refuses it ("Feature '.bf16' requires .target sm_80 or higher").
//! - min/max f32: `FMNMX d, a, b, PT|!PT` (`.NAN`, `.FTZ`), with
//!   `.xorsign.abs` `FMNMX{.FTZ}{.NAN}.XORSIGN d, |a|, |b|` (ptxas 11.8,
//!   sm_86+); f16 on sm_80+ `HMNMX2 .H0_H0` (half.rs), below it through
//!   f32 (`.ftz`/`.NaN` refused there); three sources refused (ptxas 11.8 refuses them); f64 has no
//!   min/max instruction before sm_90's table rows here: `DSETP` + `SEL`
//!   with the NaN and signed-zero rules of PTX.
//! - approximations: `MUFU.RCP/SQRT/RSQ/LG2/EX2/TANH`, `MUFU.RCP64H`,
//!   `MUFU.RSQ64H`; sin/cos scale by 1/(2pi) with `FMUL.RZ` first.
//! - f16: `HADD2`/`HMUL2`/`HFMA2` on `.H0_H0` halves (scalar) or packed
//!   (f16x2); scalar results are masked back to 16 bits.
//! - bf16 fma/min/max and `ex2`/`tanh` on f16: half.rs.

use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, Instruction};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::operand::Src;
use super::Cx;

/// The SASS rounding modifier of a PTX instruction (`.rn` is the default
/// and not printed).
pub fn rounding(i: &Instruction) -> Option<&'static str> {
    if i.has(Mod::Rz) {
        Some("RZ")
    } else if i.has(Mod::Rm) {
        Some("RM")
    } else if i.has(Mod::Rp) {
        Some("RP")
    } else {
        None
    }
}

fn fmods(i: &Instruction, allow_ftz: bool) -> Vec<&'static str> {
    let mut m = Vec::new();
    if allow_ftz && i.has(Mod::Ftz) {
        m.push("FTZ");
    }
    if let Some(r) = rounding(i) {
        m.push(r);
    }
    if i.has(Mod::Sat) {
        m.push("SAT");
    }
    m
}

/// `.FTZ`, `.SAT`, `.RELU` of an f16/f16x2 `add/sub/mul/fma`, in ptxas
/// 11.8's order (`HFMA2.FTZ.SAT`, measured on sm_70/80/90: `fma.rn.ftz.sat.f16`
/// and `add/mul.ftz.f16` keep their flush as `HADD2.FTZ`/`HMUL2.FTZ`).
fn half_mods(i: &Instruction) -> Vec<&'static str> {
    [(Mod::Ftz, "FTZ"), (Mod::Sat, "SAT"), (Mod::Relu, "RELU")]
        .into_iter()
        .filter(|(m, _)| i.has(*m))
        .map(|(_, s)| s)
        .collect()
}

impl Cx<'_> {
    /// An f64 source: a float immediate when encodable, else a register pair.
    pub fn fsrc64(&mut self, o: &ast::Operand) -> R<Operand> {
        if let ast::OperandKind::Imm(imm) = &o.kind {
            let bits = super::operand::imm_bits(*imm, ScalarType::F64);
            if bits == 0 {
                return Ok(rz());
            }
            if let Some(f) = f64_imm(bits) {
                return Ok(f);
            }
        }
        Ok(r(self.src64_pair(o, ScalarType::F64)?))
    }

    /// A float source of `ty` (f32: register or immediate; f64: see fsrc64;
    /// f16: a register).
    pub fn fsrc(&mut self, o: &ast::Operand, ty: ScalarType) -> R<Operand> {
        match ty {
            ScalarType::F64 => self.fsrc64(o),
            ScalarType::F32 => {
                let x = self.src32(o, ty)?;
                Ok(match x {
                    Operand::Imm(0) => rz(),
                    // Raw bits (a value with no short exact literal, such as
                    // a subnormal) go through a register: as an immediate a
                    // `-` from `sub` would negate the integer, not the float
                    // (`sub.rn.f32 d, x, 0f007FFFFF` became `FADD d, x,
                    // -0x7fffff`, a NaN; generator seed 74).
                    Operand::Imm(_) => self.in_reg(x)?,
                    x => x,
                })
            }
            _ => self.src32r(o, ty),
        }
    }

    /// Puts a float operand in a register (f64 immediates into a pair).
    fn freg(&mut self, x: Operand, ty: ScalarType) -> R<Operand> {
        if is_reg(&x) || matches!(&x, Operand::Reg(_)) {
            return Ok(x);
        }
        if ty == ScalarType::F64 {
            let bits = match &x {
                Operand::FloatImm(t) => t.parse::<f64>().map(f64::to_bits).unwrap_or(0),
                _ => 0,
            };
            let v = self.b.vpair();
            self.mov(v, imm(i64::from(bits as u32 as i32)))?;
            self.mov(v + 1, imm(i64::from((bits >> 32) as u32 as i32)))?;
            return Ok(r(v));
        }
        let bits = match &x {
            Operand::FloatImm(t) => t.parse::<f32>().map(f32::to_bits).unwrap_or(0),
            Operand::Imm(v) => *v as u32,
            _ => return self.in_reg(x),
        };
        self.in_reg(imm(i64::from(bits as i32)))
    }

    /// Destination of a float op: (register, is pair).
    fn fdst(&self, o: &ast::Operand, ty: ScalarType) -> R<u32> {
        if ty == ScalarType::F64 {
            self.dst64(o)
        } else {
            self.dst32(o)
        }
    }

    /// The f16 half selector on a register operand.
    pub(super) fn h0(&mut self, x: Operand) -> R<Operand> {
        let x = self.in_reg(x)?;
        let Operand::Reg(mut o) = x else {
            unreachable!()
        };
        o.sel = Some("H0_H0".into());
        Ok(Operand::Reg(o))
    }

    fn half_srcs(&mut self, i: &Instruction, ty: ScalarType, n: usize) -> R<Vec<Operand>> {
        let mut v = Vec::new();
        for k in 0..n {
            let x = self.src32r(&i.operands[1 + k], ty)?;
            v.push(if ty == ScalarType::F16 {
                self.h0(x)?
            } else {
                x
            });
        }
        Ok(v)
    }

    pub fn lower_fadd(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let sub = i.opcode == crate::ptx::isa::Opcode::Sub;
        if matches!(ty, ScalarType::Bf16 | ScalarType::Bf16x2) {
            return self.lower_bf16_arith(i, ty);
        }
        if matches!(ty, ScalarType::F16 | ScalarType::F16x2) {
            let d = self.dst32(&i.operands[0])?;
            let mut s = self.half_srcs(i, ty, 2)?;
            if sub {
                s[1] = neg(s[1].clone());
            }
            let mods = half_mods(i);
            self.b
                .emit(Op::HADD2, &mods, [r(d), s[0].clone(), s[1].clone()])?;
            return if ty == ScalarType::F16 {
                self.narrow(d, 16)
            } else {
                Ok(())
            };
        }
        let d = self.fdst(&i.operands[0], ty)?;
        let a = self.fsrc(&i.operands[1], ty)?;
        let b = self.fsrc(&i.operands[2], ty)?;
        let b = if sub { neg(b) } else { b };
        let (a, b) = if is_reg(&a) || matches!(a, Operand::Reg(_)) {
            (a, b)
        } else if matches!(b, Operand::Reg(_)) {
            (b, a)
        } else {
            (self.freg(a, ty)?, b)
        };
        match ty {
            ScalarType::F32 => self.b.emit(Op::FADD, &fmods(i, true), [r(d), a, b]),
            ScalarType::F64 => self.b.emit(Op::DADD, &fmods(i, false), [r(d), a, b]),
            _ => self.err(format!("add/sub on {ty} is not lowered")),
        }
    }

    pub fn lower_fmul_fma(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let is_fma = matches!(
            i.opcode,
            crate::ptx::isa::Opcode::Fma | crate::ptx::isa::Opcode::Mad
        );
        if matches!(ty, ScalarType::Bf16 | ScalarType::Bf16x2) {
            return if is_fma {
                self.lower_bf16_fma(i, ty)
            } else {
                self.lower_bf16_arith(i, ty)
            };
        }
        if matches!(ty, ScalarType::F16 | ScalarType::F16x2) {
            let d = self.dst32(&i.operands[0])?;
            let s = self.half_srcs(i, ty, if is_fma { 3 } else { 2 })?;
            let mods = half_mods(i);
            if is_fma {
                self.b.emit(
                    Op::HFMA2,
                    &mods,
                    [r(d), s[0].clone(), s[1].clone(), s[2].clone()],
                )?;
            } else {
                self.b
                    .emit(Op::HMUL2, &mods, [r(d), s[0].clone(), s[1].clone()])?;
            }
            return if ty == ScalarType::F16 {
                self.narrow(d, 16)
            } else {
                Ok(())
            };
        }
        if i.has(Mod::Hi) || i.has(Mod::Wide) {
            return self.err("integer modifiers on a float multiply");
        }
        let d = self.fdst(&i.operands[0], ty)?;
        let mut a = self.fsrc(&i.operands[1], ty)?;
        let mut b = self.fsrc(&i.operands[2], ty)?;
        let mut c = if is_fma {
            Some(self.fsrc(&i.operands[3], ty)?)
        } else {
            None
        };
        let regish = |x: &Operand| matches!(x, Operand::Reg(_));
        if !regish(&a) {
            if regish(&b) {
                std::mem::swap(&mut a, &mut b);
            } else {
                a = self.freg(a, ty)?;
            }
        }
        if let Some(cv) = &c {
            if !regish(&b) && !regish(cv) {
                c = Some(self.freg(cv.clone(), ty)?);
            }
        }
        let (op, ftz) = match (ty, is_fma) {
            (ScalarType::F32, false) => (Op::FMUL, true),
            (ScalarType::F32, true) => (Op::FFMA, true),
            (ScalarType::F64, false) => (Op::DMUL, false),
            (ScalarType::F64, true) => (Op::DFMA, false),
            _ => return self.err(format!("mul/fma on {ty} is not lowered")),
        };
        let mods = fmods(i, ftz);
        match c {
            Some(c) => self.b.emit(op, &mods, [r(d), a, b, c]),
            None => self.b.emit(op, &mods, [r(d), a, b]),
        }
    }

    pub fn lower_fneg_abs(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let is_abs = i.opcode == crate::ptx::isa::Opcode::Abs;
        let modify = |a: Operand| if is_abs { abs(a) } else { neg(a) };
        match ty {
            ScalarType::F32 => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                let mods: &[&str] = if i.has(Mod::Ftz) { &["FTZ"] } else { &[] };
                return self.b.emit(Op::FADD, mods, [r(d), modify(a), neg(rz())]);
            }
            ScalarType::F64 => {
                let d = self.fdst(&i.operands[0], ty)?;
                let a = self.fsrc(&i.operands[1], ty)?;
                let a = if matches!(a, Operand::Reg(_)) {
                    a
                } else {
                    self.freg(a, ty)?
                };
                return self.b.emit(Op::DADD, &[], [r(d), neg(rz()), modify(a)]);
            }
            _ => {}
        }
        let (scalar, bf16) = match ty {
            ScalarType::F16 => (true, false),
            ScalarType::F16x2 => (false, false),
            ScalarType::Bf16 => (true, true),
            ScalarType::Bf16x2 => (false, true),
            _ => return self.err(format!("neg/abs on {ty} is not lowered")),
        };
        if bf16 {
            // ptxas 11.8 refuses `neg`/`abs` on `.bf16`/`.bf16x2` below
            // sm_80 (measured on sm_70 and sm_75: "Feature '.bf16' requires
            // .target sm_80 or higher"; PTX ISA: bf16 neg/abs need sm_80),
            // and HFMA2.BF16_V2 is sm_80+ (the opcode table; LLVM's NVPTX
            // `neg`/`abs.bf16{x2}` patterns require PTX 7.0 and sm_80).
            self.need_bf16_sm80(i)?;
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ty)?;
        let a = if scalar { self.h0(a)? } else { a };
        let zero = self.h0(rz())?;
        if bf16 {
            self.b.emit(
                Op::HFMA2,
                &["BF16_V2"],
                [r(d), neg(zero.clone()), zero, modify(a)],
            )?;
        } else {
            self.b.emit(Op::HADD2, &[], [r(d), modify(a), neg(zero)])?;
        }
        if scalar {
            self.narrow(d, 16)
        } else {
            Ok(())
        }
    }

    pub fn lower_fminmax(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let is_min = i.opcode == crate::ptx::isa::Opcode::Min;
        let sel = if is_min { pt() } else { npt() };
        if matches!(ty, ScalarType::Bf16 | ScalarType::Bf16x2) {
            return self.lower_bf16_minmax(i, ty);
        }
        if ty == ScalarType::F16x2 {
            return self.lower_f16x2_minmax(i);
        }
        // ptxas 11.8 emits `HMNMX2{.FTZ}{.NAN} d, a.H0_H0, b.H0_H0, PT|!PT`
        // for `min`/`max.f16` on sm_80..sm_90 (refusing it below sm_80:
        // "Feature 'min.f16 or min.f16x2' requires .target sm_80 or
        // higher"); `.xorsign.abs` and three sources are refused there too.
        if ty == ScalarType::F16
            && (self.sm.sm >= 80 || i.has(Mod::Xorsign) || i.operands.len() != 3)
        {
            return self.half_minmax(i, ty);
        }
        if ty == ScalarType::F16 && (i.has(Mod::Ftz) || i.has(Mod::NaNProp)) {
            // The f32 route below sm_80 is exact only without them (an f16
            // subnormal is an f32 normal; FMNMX's NaN is not f16's).
            let name = i.opcode.name();
            return self.err(format!(
                "{name}.ftz/.NaN.f16 on {} requires sm_80 or higher (ptxas 11.8: \"Feature '{name}.f16 or {name}.f16x2' requires .target sm_80 or higher\")",
                self.sm.name
            ));
        }
        if i.operands.len() != 3 {
            let name = i.opcode.name();
            return self.err(format!(
                "{name}{ty} with three sources is not lowered (ptxas 11.8 refuses it: \"Arguments mismatch for instruction '{name}'\"; PTX ISA: PTX 8.8, sm_100)"
            ));
        }
        if i.has(Mod::Xorsign) && ty != ScalarType::F32 {
            return self.err(format!(
                "{}{ty} has no .xorsign.abs (f32 and the half types only)",
                i.opcode.name()
            ));
        }
        if i.has(Mod::Xorsign) && self.sm.sm < 86 {
            return self.err(format!(
                "{}.xorsign.abs{ty} on {} requires sm_86 or higher (ptxas 11.8: \"Modifier '.xorsign' requires .target sm_86 or higher\")",
                i.opcode.name(),
                self.sm.name
            ));
        }
        match ty {
            ScalarType::F32 if i.has(Mod::Xorsign) => {
                // ptxas 11.8, sm_86..sm_90: `FMNMX{.FTZ}{.NAN}.XORSIGN d,
                // |a|, |b|, PT|!PT`.
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                let b = self.src32r(&i.operands[2], ty)?;
                let mut mods = vec![];
                if i.has(Mod::Ftz) {
                    mods.push("FTZ");
                }
                if i.has(Mod::NaNProp) {
                    mods.push("NAN");
                }
                mods.push("XORSIGN");
                self.b.emit(Op::FMNMX, &mods, [r(d), abs(a), abs(b), sel])
            }
            ScalarType::F32 => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32(&i.operands[1], ty)?;
                let b = self.src32(&i.operands[2], ty)?;
                let (a, b) = if matches!(a, Operand::Reg(_)) {
                    (a, b)
                } else if matches!(b, Operand::Reg(_)) {
                    (b, a)
                } else {
                    (self.freg(a, ty)?, b)
                };
                let mut mods = vec![];
                if i.has(Mod::Ftz) {
                    mods.push("FTZ");
                }
                if i.has(Mod::NaNProp) {
                    mods.push("NAN");
                }
                self.b.emit(Op::FMNMX, &mods, [r(d), a, b, sel])
            }
            ScalarType::F16 => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32(&i.operands[1], ty)?;
                let b = self.src32(&i.operands[2], ty)?;
                let fa = self.f16_to_f32(a)?;
                let fb = self.f16_to_f32(b)?;
                let t = self.b.vreg();
                self.b.emit(Op::FMNMX, &[], [r(t), fa, fb, sel])?;
                self.b.emit(Op::F2F, &["F16", "F32"], [r(d), r(t)])?;
                self.narrow(d, 16)
            }
            ScalarType::F64 => {
                // r = a < b (min) / a > b (max) ? a : b; equal: OR (min) /
                // AND (max) of the bits (signed zeros); b NaN: a.
                let d = self.dst64(&i.operands[0])?;
                let a = self.src64_pair(&i.operands[1], ty)?;
                let b = self.src64_pair(&i.operands[2], ty)?;
                let (pl, pe, pn) = (self.b.vpred(), self.b.vpred(), self.b.vpred());
                let c = if is_min { "LT" } else { "GT" };
                self.b
                    .emit(Op::DSETP, &[c, "AND"], [p(pl), pt(), r(a), r(b), pt()])?;
                self.b
                    .emit(Op::DSETP, &["EQ", "AND"], [p(pe), pt(), r(a), r(b), pt()])?;
                self.b
                    .emit(Op::DSETP, &["NAN", "AND"], [p(pn), pt(), r(b), r(b), pt()])?;
                let t = self.b.vpair();
                let lut = if is_min {
                    super::int::LUT_OR
                } else {
                    super::int::LUT_AND
                };
                for w in 0..2 {
                    self.b
                        .emit(Op::SEL, &[], [r(t + w), r(a + w), r(b + w), p(pl)])?;
                    let e = self.b.vreg();
                    self.b.emit(
                        Op::LOP3,
                        &["LUT"],
                        [r(e), r(a + w), r(b + w), rz(), imm(lut), npt()],
                    )?;
                    self.b
                        .emit(Op::SEL, &[], [r(t + w), r(e), r(t + w), p(pe)])?;
                    self.b
                        .emit(Op::SEL, &[], [r(t + w), r(a + w), r(t + w), p(pn)])?;
                }
                // Two NaNs: `a`, quieted (docs/SEMANTICS.md "Min and max";
                // ptxas 11.8 sets the quiet bit the same way after its
                // `DSETP.MAX.AND P0, P1`: `@P1 LOP3.LUT R, R, 0x80000, RZ, 0xfc`).
                let pboth = self.b.vpred();
                self.b.emit(
                    Op::DSETP,
                    &["NAN", "AND"],
                    [p(pboth), pt(), r(a), r(a), p(pn)],
                )?;
                let q = self.b.vreg();
                self.b.emit(
                    Op::LOP3,
                    &["LUT"],
                    [
                        r(q),
                        r(t + 1),
                        imm32(0x8_0000),
                        rz(),
                        imm(super::int::LUT_OR),
                        npt(),
                    ],
                )?;
                self.b
                    .emit(Op::SEL, &[], [r(t + 1), r(q), r(t + 1), p(pboth)])?;
                self.mov(d, r(t))?;
                self.mov(d + 1, r(t + 1))
            }
            _ => self.err(format!("min/max on {ty} is not lowered")),
        }
    }

    /// rcp/sqrt/rsqrt/sin/cos/lg2/ex2/tanh.
    pub fn lower_sfu(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        let ty = self.ty(i)?;
        let approx = i.has(Mod::Approx);
        if !approx && matches!(i.opcode, O::Rcp | O::Sqrt) {
            return self.lower_rn_sfu(i, ty);
        }
        if ty == ScalarType::F64 && i.opcode == O::Rsqrt && !i.has(Mod::Ftz) {
            let d = self.dst64(&i.operands[0])?;
            let (lo, hi) = self.src64(&i.operands[1], ty)?;
            return self.instantiate(&super::div::F64_RSQRT_APPROX, &[lo, hi], &[d, d + 1]);
        }
        if ty == ScalarType::F64 {
            // `rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64`: the upper word
            // of MUFU.RCP64H / RSQ64H, lower word zero (ISA).
            let func = match i.opcode {
                O::Rcp => "RCP64H",
                O::Rsqrt => "RSQ64H",
                _ => return self.err(format!("{}.f64 is not lowered", i.opcode.name())),
            };
            let d = self.dst64(&i.operands[0])?;
            let (_, hi) = self.src64(&i.operands[1], ty)?;
            let hi = self.in_reg(hi)?;
            let t = self.b.vreg();
            self.b.emit(Op::MUFU, &[func], [r(t), hi])?;
            self.mov(d, rz())?;
            return self.mov(d + 1, r(t));
        }
        if matches!(
            ty,
            ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2
        ) {
            return self.lower_half_sfu(i, ty);
        }
        if ty != ScalarType::F32 {
            return self.err(format!("{}.{} is not lowered", i.opcode.name(), ty.name()));
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ty)?;
        let func = match i.opcode {
            O::Rcp => "RCP",
            O::Sqrt => "SQRT",
            O::Rsqrt => "RSQ",
            O::Lg2 => "LG2",
            O::Ex2 => "EX2",
            O::Tanh => "TANH",
            O::Sin | O::Cos => {
                // MUFU.SIN/COS take revolutions (docs/SEMANTICS.md, Approximate instructions).
                let t = self.b.vreg();
                self.b.emit(
                    Op::FMUL,
                    &["RZ"],
                    [r(t), a, Operand::FloatImm("0.15915493667125701904".into())],
                )?;
                let f = if i.opcode == O::Sin { "SIN" } else { "COS" };
                return self.b.emit(Op::MUFU, &[f], [r(d), r(t)]);
            }
            _ => return self.err("internal: sfu"),
        };
        if func == "TANH" && self.sm.sm < 75 {
            // MUFU.TANH is sm_75+ (the opcode table's modifier mark).
            return self.err(format!(
                "tanh.approx.f32 on {} requires sm_75 or higher (ptxas 11.8: \"Feature 'tanh' requires .target sm_75 or higher\")",
                self.sm.name
            ));
        }
        if i.has(Mod::Ftz) || func == "TANH" {
            return self.b.emit(Op::MUFU, &[func], [r(d), a]);
        }
        self.sfu_subnormal_safe(func, d, a)
    }

    /// ptxas 11.8's non-`.ftz` sequences around MUFU (measured with `ptxas
    /// -arch=sm_80`; `ptxc::float::approx` models the same steps): LG2, RSQ
    /// and SQRT scale a subnormal input by 2^24 and fix the result (`+ -24`,
    /// `* 4096`, `* 2^-12`); EX2 halves an input below -126 and squares the
    /// result; RCP scales by 2^24 (subnormal) or 1/4 (above 2^126).
    fn sfu_subnormal_safe(&mut self, func: &'static str, d: u32, a: Operand) -> R {
        let x = self.b.vreg();
        self.mov(x, a)?;
        let fimm = |t: &str| Operand::FloatImm(t.into());
        if func == "RCP" {
            let (normal, huge) = (self.b.vpred(), self.b.vpred());
            self.b.emit(
                Op::FSETP,
                &["GEU", "AND"],
                [p(normal), pt(), abs(r(x)), imm32(0x0080_0000), pt()],
            )?;
            self.b.emit(
                Op::FSETP,
                &["GT", "AND"],
                [p(huge), pt(), abs(r(x)), imm32(0x7e80_0000), pt()],
            )?;
            let s = self.b.vreg();
            self.mov(s, imm32(0x4b80_0000))?;
            self.b
                .emit(Op::FSEL, &[], [r(s), r(s), fimm("1"), pnot(normal)])?;
            self.b
                .emit(Op::FSEL, &[], [r(s), r(s), fimm("0.25"), pnot(huge)])?;
            let t = self.b.vreg();
            self.b.emit(Op::FMUL, &[], [r(t), r(x), r(s)])?;
            self.b.emit(Op::MUFU, &["RCP"], [r(t), r(t)])?;
            return self.b.emit(Op::FMUL, &[], [r(d), r(s), r(t)]);
        }
        let small = self.b.vpred();
        let (test, scale): (Operand, Operand) = if func == "EX2" {
            (r(x), fimm("0.5"))
        } else {
            (abs(r(x)), fimm("16777216"))
        };
        let bound = if func == "EX2" {
            imm32(0xc2fc_0000)
        } else {
            imm32(0x0080_0000)
        };
        self.b.emit(
            Op::FSETP,
            &["GEU", "AND"],
            [p(small), pt(), test, bound, pt()],
        )?;
        let unless = Some(guard(small, true));
        self.b
            .emit_g(unless, Op::FMUL, &[], vec![r(x), r(x), scale])?;
        self.b.emit(Op::MUFU, &[func], [r(d), r(x)])?;
        let (op, fix) = match func {
            "LG2" => (Op::FADD, fimm("-24")),
            "RSQ" => (Op::FMUL, fimm("4096")),
            "SQRT" => (Op::FMUL, fimm("0.000244140625")),
            _ => (Op::FMUL, r(d)),
        };
        self.b.emit_g(unless, op, &[], vec![r(d), r(d), fix])
    }

    pub fn lower_float_misc(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if i.opcode == crate::ptx::isa::Opcode::Copysign {
            // copysign d, a, b: b with the sign of a. LOP3 0xe2 = mask ? a : b.
            let (w, d) = if ty == ScalarType::F64 {
                (1, self.dst64(&i.operands[0])?)
            } else {
                (0, self.dst32(&i.operands[0])?)
            };
            let (alo, ahi) = self.src64(&i.operands[1], ty)?;
            let (blo, bhi) = self.src64(&i.operands[2], ty)?;
            let (a, b) = if w == 1 {
                (ahi, bhi)
            } else {
                (alo, blo.clone())
            };
            let a = self.in_reg(a)?;
            let b = self.in_reg(b)?;
            let t = self.b.vreg();
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(t), a, imm32(0x8000_0000), b, imm(0xe2), npt()],
            )?;
            if w == 1 {
                self.mov(d, blo)?;
            }
            return self.mov(d + w, r(t));
        }
        // testp.op.type p, a: on the magnitude bits.
        let d = self.dst_pred(&i.operands[0])?;
        let (lo, hi) = self.src64(&i.operands[1], ty)?;
        let (inf, min_normal): (u64, u64) = match ty {
            ScalarType::F32 => (0x7f80_0000, 0x0080_0000),
            ScalarType::F64 => (0x7ff0_0000_0000_0000, 0x0010_0000_0000_0000),
            _ => return self.err(format!("testp on {ty} is not lowered")),
        };
        let word = if ty == ScalarType::F64 {
            hi
        } else {
            lo.clone()
        };
        let word = self.in_reg(word)?;
        let mag = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(mag), word, imm32(0x7fff_ffff), rz(), imm(0xc0), npt()],
        )?;
        let x = if ty == ScalarType::F64 {
            (self.in_reg(lo)?, r(mag))
        } else {
            (r(mag), rz())
        };
        let k = |v: u64| {
            (
                imm(i64::from(v as u32 as i32)),
                imm(i64::from((v >> 32) as u32 as i32)),
            )
        };
        let cmp = |cx: &mut Self,
                   dst: u32,
                   c: &'static str,
                   v: u64,
                   comb: Operand,
                   bop: &'static str|
         -> R {
            if ty == ScalarType::F64 {
                cx.cmp64_comb(dst, c, false, x.clone(), k(v), bop, comb)
            } else {
                cx.b.emit(
                    Op::ISETP,
                    &[c, "U32", bop],
                    [p(dst), pt(), x.0.clone(), imm32(v as u32), comb],
                )
            }
        };
        if i.has(Mod::Finite) {
            cmp(self, d, "LT", inf, pt(), "AND")
        } else if i.has(Mod::Infinite) {
            cmp(self, d, "EQ", inf, pt(), "AND")
        } else if i.has(Mod::Number) {
            cmp(self, d, "LE", inf, pt(), "AND")
        } else if i.has(Mod::Notanumber) {
            cmp(self, d, "GT", inf, pt(), "AND")
        } else if i.has(Mod::Normal) {
            // +-0 counts as normal (ISA wording; ptxas 11.8 computes
            // `mag == 0 || (mag >= min_normal && mag < inf)`, sm_70/sm_80).
            let t = self.b.vpred();
            let u = self.b.vpred();
            cmp(self, t, "GE", min_normal, pt(), "AND")?;
            cmp(self, u, "LT", inf, p(t), "AND")?;
            cmp(self, d, "EQ", 0, p(u), "OR")
        } else if i.has(Mod::Subnormal) {
            let t = self.b.vpred();
            cmp(self, t, "NE", 0, pt(), "AND")?;
            cmp(self, d, "LT", min_normal, p(t), "AND")
        } else {
            self.err("testp: unknown test")
        }
    }
}

#[allow(dead_code)]
fn src_word(s: Src) -> Option<Operand> {
    match s {
        Src::W(x) => Some(x),
        _ => None,
    }
}
