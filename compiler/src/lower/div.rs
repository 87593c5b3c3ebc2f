//! Division, remainder, and the correctly rounded rcp/sqrt/div.
//!
//! - u32/s32 div and rem by a variable: ptxas's reciprocal sequence
//!   (int_bitops.sm_80 0x0450..0x0730): `I2F.U32.RP`, `MUFU.RCP`, `IADD3
//!   +0x0ffffffe`, `F2I.FTZ.U32.TRUNC.NTZ`, one Newton step with `IMAD` /
//!   `IMAD.HI.U32`, the quotient estimate `IMAD.HI.U32`, two conditional
//!   corrections, and `LOP3.LUT ~b` for a zero divisor (all ones, as the
//!   vendor sequence gives: docs/SEMANTICS.md, Division and remainder). The vendor folds the Newton
//!   step's add into `IMAD.HI.U32 q, q, t, pair(0, q)`; here it is an
//!   explicit `IADD3` (same value, no 64-bit addend). Signed forms run on
//!   `IABS` values and fix the sign after.
//! - 64-bit div/rem: ptxas calls a subroutine (i64_hash); this lowering
//!   inlines a 64-step restoring shift-subtract loop instead (exact; not the
//!   vendor sequence). A zero divisor gives an all-ones quotient and the
//!   dividend as remainder.
//! - div/rcp/sqrt with .rz/.rm/.rp: ptxas 11.8's sequence per form
//!   (`lower/directed.rs`).
//! - div.rn.f32: the vendor fast path (`MUFU.RCP`, `FCHK`, four `FFMA`) and
//!   its slow-path subroutine, from saxpy_div.sm_80 (`seq/f32div_*.sass`);
//!   div.rn.f64 and sqrt.rn.f64 from double_noinline.sm_80
//!   (`seq/f64div_*.sass`, `seq/f64sqrt_*.sass`). rcp.rn is div.rn of 1;
//!   sqrt.rn.f32 is the f64 square root rounded to f32 (exact: 53 >= 2*24+2).
//!   `.ftz` flushes inputs and result with `FADD.FTZ x, -RZ`.
//! - div.approx.ftz.f32: `MUFU.RCP` then `FMUL.FTZ`; div.approx.f32 scales a
//!   divisor below 2^-126 and the dividend by 2^24 first, as div.full does
//!   (ptxas 11.8, sm_70..sm_90; `ptxc::float::approx::div_approx_f32`).
//!   div.full.f32: ptxas 11.8's
//!   scaling sequence (sm_80): `FSETP.GT |b|, 2^126` and, without `.ftz`,
//!   `FSETP.GEU |b|, 2^-126`; guarded `FMUL`s scale both operands by 1/4
//!   (large divisor) or 2^24 (small divisor); then `MUFU.RCP` and `FMUL`
//!   (`ptxc::float::approx::div_full_f32` is the same model).

use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::template::Seq;
use super::Cx;

pub static F32_DIV_RN: Seq = Seq {
    name: "f32_div_rn",
    fast: include_str!("seq/f32div_fast.sass"),
    end: 0x1a0,
    slow: Some(include_str!("seq/f32div_slow.sass")),
    inputs: &[11, 0],
    outputs: &[8],
};

pub static F64_DIV_RN: Seq = Seq {
    name: "f64_div_rn",
    fast: include_str!("seq/f64div_fast.sass"),
    end: 0x350,
    slow: Some(include_str!("seq/f64div_slow.sass")),
    inputs: &[6, 7, 10, 11],
    outputs: &[8, 9],
};

pub static F64_SQRT_RN: Seq = Seq {
    name: "f64_sqrt_rn",
    fast: include_str!("seq/f64sqrt_fast.sass"),
    end: 0x220,
    slow: Some(include_str!("seq/f64sqrt_slow.sass")),
    inputs: &[10, 11],
    outputs: &[4, 5],
};

/// `rsqrt.approx.f64` (ptxas 11.8, sm_80): one Newton-Raphson step on
/// MUFU.RSQ64H, the slow path for zero, NaN, negative, infinite and
/// subnormal inputs. The interpreter computes the same steps
/// (`ptxc::float::approx::rsqrt_approx_f64`).
pub static F64_RSQRT_APPROX: Seq = Seq {
    name: "f64_rsqrt_approx",
    fast: include_str!("seq/f64rsqrt_fast.sass"),
    end: 0x150,
    slow: Some(include_str!("seq/f64rsqrt_slow.sass")),
    inputs: &[4, 5],
    outputs: &[6, 7],
};

impl Cx<'_> {
    /// `q = a / b` or `a % b` on u32 registers (the vendor sequence).
    pub fn udiv32(&mut self, d: u32, a: Operand, b: Operand, rem: bool) -> R {
        let a = self.in_reg(a)?;
        let b = self.in_reg(b)?;
        let f = self.b.vreg();
        self.b.emit(Op::I2F, &["U32", "RP"], [r(f), b.clone()])?;
        self.b.emit(Op::MUFU, &["RCP"], [r(f), r(f)])?;
        self.b
            .emit(Op::IADD3, &[], [r(f), r(f), imm(0x0fff_fffe), rz()])?;
        let q0 = self.b.vreg();
        self.b
            .emit(Op::F2I, &["FTZ", "U32", "TRUNC", "NTZ"], [r(q0), r(f)])?;
        let nb = self.b.vreg();
        self.b
            .emit(Op::IADD3, &[], [r(nb), rz(), neg(b.clone()), rz()])?;
        let t = self.b.vreg();
        self.b.emit(Op::IMAD, &[], [r(t), r(nb), r(q0), rz()])?;
        let h = self.b.vreg();
        self.b
            .emit(Op::IMAD, &["HI", "U32"], [r(h), r(q0), r(t), rz()])?;
        self.b.emit(Op::IADD3, &[], [r(q0), r(q0), r(h), rz()])?;
        let q = self.b.vreg();
        self.b
            .emit(Op::IMAD, &["HI", "U32"], [r(q), r(q0), a.clone(), rz()])?;
        let rr = self.b.vreg();
        self.b.emit(Op::IMAD, &[], [r(rr), r(q), r(nb), a])?;
        for _ in 0..2 {
            let pc = self.b.vpred();
            self.b.emit(
                Op::ISETP,
                &["GE", "U32", "AND"],
                [p(pc), pt(), r(rr), b.clone(), pt()],
            )?;
            self.b.emit_g(
                Some(guard(pc, false)),
                Op::IADD3,
                &[],
                [r(rr), r(rr), neg(b.clone()), rz()],
            )?;
            self.b.emit_g(
                Some(guard(pc, false)),
                Op::IADD3,
                &[],
                [r(q), r(q), imm(1), rz()],
            )?;
        }
        let out = if rem { rr } else { q };
        let pz = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["NE", "U32", "AND"],
            [p(pz), pt(), b.clone(), rz(), pt()],
        )?;
        self.b.emit_g(
            Some(guard(pz, true)),
            Op::LOP3,
            &["LUT"],
            [r(out), rz(), b, rz(), imm(0x33), npt()],
        )?;
        self.mov(d, r(out))
    }

    /// Signed 32-bit div/rem: unsigned on |a|, |b|, then the sign.
    pub fn sdiv32(&mut self, d: u32, a: Operand, b: Operand, rem: bool) -> R {
        let a = self.in_reg(a)?;
        let b = self.in_reg(b)?;
        let ua = self.b.vreg();
        let ub = self.b.vreg();
        self.b.emit(Op::IABS, &[], [r(ua), a.clone()])?;
        self.b.emit(Op::IABS, &[], [r(ub), b.clone()])?;
        let t = self.b.vreg();
        self.udiv32(t, r(ua), r(ub), rem)?;
        let pn = self.b.vpred();
        if rem {
            self.b
                .emit(Op::ISETP, &["LT", "AND"], [p(pn), pt(), a, rz(), pt()])?;
        } else {
            let x = self.b.vreg();
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(x), a, b.clone(), rz(), imm(0x3c), npt()],
            )?;
            self.b
                .emit(Op::ISETP, &["LT", "AND"], [p(pn), pt(), r(x), rz(), pt()])?;
        }
        self.b.emit_g(
            Some(guard(pn, false)),
            Op::IADD3,
            &[],
            [r(t), rz(), neg(r(t)), rz()],
        )?;
        let pz = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["NE", "AND"],
            [p(pz), pt(), b.clone(), rz(), pt()],
        )?;
        self.b.emit_g(
            Some(guard(pz, true)),
            Op::LOP3,
            &["LUT"],
            [r(t), rz(), b, rz(), imm(0x33), npt()],
        )?;
        self.mov(d, r(t))
    }

    /// 64-bit unsigned div/rem: restoring division, one bit per iteration.
    pub fn udiv64(&mut self, d: u32, a: (Operand, Operand), b: (Operand, Operand), rem: bool) -> R {
        let q = self.b.vpair();
        let rr = self.b.vpair();
        let dv = self.b.vpair();
        self.mov(q, a.0)?;
        self.mov(q + 1, a.1)?;
        self.mov(dv, b.0)?;
        self.mov(dv + 1, b.1)?;
        self.mov(rr, rz())?;
        self.mov(rr + 1, rz())?;
        let n = self.b.vreg();
        self.mov(n, imm(64))?;
        let top = self.b.new_label();
        self.b.start_block(top);
        let c = self.b.vreg();
        self.b.emit(
            Op::SHF,
            &["R", "U32", "HI"],
            [r(c), rz(), imm(31), r(q + 1)],
        )?;
        self.shl64(rr, (r(rr), r(rr + 1)), imm(1))?;
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(rr), r(rr), r(c), rz(), imm(0xfc), npt()],
        )?;
        self.shl64(q, (r(q), r(q + 1)), imm(1))?;
        let ge = self.b.vpred();
        self.cmp64(ge, "GE", false, (r(rr), r(rr + 1)), (r(dv), r(dv + 1)))?;
        let g = Some(guard(ge, false));
        let cy = self.b.vpred();
        self.b
            .emit_g(g, Op::IADD3, &[], [r(rr), p(cy), r(rr), neg(r(dv)), rz()])?;
        self.b.emit_g(
            g,
            Op::IADD3,
            &["X"],
            [r(rr + 1), r(rr + 1), not(r(dv + 1)), rz(), p(cy), npt()],
        )?;
        self.b.emit_g(
            g,
            Op::LOP3,
            &["LUT"],
            [r(q), r(q), imm(1), rz(), imm(0xfc), npt()],
        )?;
        self.b.emit(Op::IADD3, &[], [r(n), r(n), imm(-1), rz()])?;
        let more = self.b.vpred();
        self.b
            .emit(Op::ISETP, &["NE", "AND"], [p(more), pt(), r(n), rz(), pt()])?;
        self.branch(Some(guard(more, false)), top)?;
        let out = if rem { rr } else { q };
        self.mov(d, r(out))?;
        self.mov(d + 1, r(out + 1))
    }

    /// `|a|` in a fresh pair, and the sign word of `a`.
    fn abs64(&mut self, a: (Operand, Operand)) -> R<(u32, u32)> {
        let x = self.b.vpair();
        let s = self.abs64_into(x, a)?;
        Ok((x, s))
    }

    pub fn lower_div_rem(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        let rem = i.opcode == crate::ptx::isa::Opcode::Rem;
        if ty.is_float() {
            return self.lower_fdiv(i, ty);
        }
        let signed = ty.is_signed();
        let bits = ty.bits();
        if bits == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            if !signed {
                return self.udiv64(d, a, b, rem);
            }
            let (ua, sa) = self.abs64(a)?;
            let (ub, sb) = self.abs64(b)?;
            let t = self.b.vpair();
            self.udiv64(t, (r(ua), r(ua + 1)), (r(ub), r(ub + 1)), rem)?;
            // Sign: of a for rem, a^b for div.
            let s = if rem {
                sa
            } else {
                let s = self.b.vreg();
                self.b.emit(
                    Op::LOP3,
                    &["LUT"],
                    [r(s), r(sa), r(sb), rz(), imm(0x3c), npt()],
                )?;
                s
            };
            let x = self.b.vpair();
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(x), r(t), r(s), rz(), imm(0x3c), npt()],
            )?;
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(x + 1), r(t + 1), r(s), rz(), imm(0x3c), npt()],
            )?;
            return self.add64(d, (r(x), r(x + 1)), (r(s), r(s)), true);
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32(&i.operands[1], ty)?;
        let b = self.src32(&i.operands[2], ty)?;
        if signed {
            let a = self.sext(a, bits)?;
            let b = self.sext(b, bits)?;
            self.sdiv32(d, a, b, rem)?;
        } else {
            self.udiv32(d, a, b, rem)?;
        }
        self.narrow(d, bits)
    }

    /// `FADD.FTZ t, x, -RZ`: flushes an f32 subnormal to zero.
    fn flush(&mut self, x: Operand) -> R<Operand> {
        let x = self.in_reg(x)?;
        let t = self.b.vreg();
        self.b.emit(Op::FADD, &["FTZ"], [r(t), x, neg(rz())])?;
        Ok(r(t))
    }

    fn lower_fdiv(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let ftz = i.has(Mod::Ftz);
        if let Some(rnd) = super::directed::directed(i) {
            return self.lower_directed(i, ty, ftz, rnd);
        }
        match ty {
            ScalarType::F32 => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32(&i.operands[1], ty)?;
                let b = self.src32r(&i.operands[2], ty)?;
                if i.has(Mod::Full) {
                    return self.div_full_f32(d, a, b, ftz);
                }
                if i.has(Mod::Approx) && !ftz {
                    return self.div_scaled_f32(d, a, b, false, false);
                }
                if i.has(Mod::Approx) {
                    let t = self.b.vreg();
                    let b = self.flush(b)?;
                    self.b.emit(Op::MUFU, &["RCP"], [r(t), b])?;
                    let a = self.in_reg(a)?;
                    let mods: &[&str] = if ftz { &["FTZ"] } else { &[] };
                    return self.b.emit(Op::FMUL, mods, [r(d), a, r(t)]);
                }
                self.div_rn_f32(d, a, b, ftz)
            }
            ScalarType::F64 => {
                let d = self.dst64(&i.operands[0])?;
                let (alo, ahi) = self.src64(&i.operands[1], ty)?;
                let (blo, bhi) = self.src64(&i.operands[2], ty)?;
                self.instantiate(&F64_DIV_RN, &[alo, ahi, blo, bhi], &[d, d + 1])
            }
            _ => self.err(format!("div on {ty} is not lowered")),
        }
    }

    /// `div.full{.ftz}.f32` as ptxas 11.8 writes it (module comment).
    fn div_full_f32(&mut self, d: u32, a: Operand, b: Operand, ftz: bool) -> R {
        self.div_scaled_f32(d, a, b, ftz, true)
    }

    /// `MUFU.RCP` and `FMUL` on operands scaled as ptxas 11.8 scales them
    /// (module comment): by 1/4 above 2^126 when `large` (div.full), by
    /// 2^24 below 2^-126 without `.ftz` (div.full and div.approx).
    fn div_scaled_f32(&mut self, d: u32, a: Operand, b: Operand, ftz: bool, large: bool) -> R {
        let ftz_mod: &[&str] = if ftz { &["FTZ"] } else { &[] };
        let (x, y) = (self.b.vreg(), self.b.vreg());
        self.mov(x, a)?;
        self.mov(y, b)?;
        let big = if large {
            let big = self.b.vpred();
            let setp_gt: &[&str] = if ftz {
                &["GT", "FTZ", "AND"]
            } else {
                &["GT", "AND"]
            };
            self.b.emit(
                Op::FSETP,
                setp_gt,
                [p(big), pt(), abs(r(y)), imm32(0x7e80_0000), pt()],
            )?;
            Some(big)
        } else {
            None
        };
        let normal = if ftz {
            None
        } else {
            let n = self.b.vpred();
            self.b.emit(
                Op::FSETP,
                &["GEU", "AND"],
                [p(n), pt(), abs(r(y)), imm32(0x0080_0000), pt()],
            )?;
            Some(n)
        };
        if let Some(big) = big {
            let quarter = Operand::FloatImm("0.25".into());
            for v in [y, x] {
                self.b.emit_g(
                    Some(guard(big, false)),
                    Op::FMUL,
                    ftz_mod,
                    vec![r(v), r(v), quarter.clone()],
                )?;
            }
        }
        if let Some(n) = normal {
            for v in [y, x] {
                self.b.emit_g(
                    Some(guard(n, true)),
                    Op::FMUL,
                    &[],
                    vec![r(v), r(v), Operand::FloatImm("16777216".into())],
                )?;
            }
        }
        let t = self.b.vreg();
        self.b.emit(Op::MUFU, &["RCP"], [r(t), r(y)])?;
        self.b.emit(Op::FMUL, ftz_mod, [r(d), r(t), r(x)])
    }

    fn div_rn_f32(&mut self, d: u32, a: Operand, b: Operand, ftz: bool) -> R {
        if ftz {
            let a = self.flush(a)?;
            let b = self.flush(b)?;
            let t = self.b.vreg();
            self.instantiate(&F32_DIV_RN, &[a, b], &[t])?;
            return self.b.emit(Op::FADD, &["FTZ"], [r(d), r(t), neg(rz())]);
        }
        self.instantiate(&F32_DIV_RN, &[a, b], &[d])
    }

    /// rcp.rn and sqrt.rn (f32, f64).
    pub fn lower_rn_sfu(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let is_sqrt = i.opcode == crate::ptx::isa::Opcode::Sqrt;
        let ftz = i.has(Mod::Ftz);
        if let Some(rnd) = super::directed::directed(i) {
            return self.lower_directed(i, ty, ftz, rnd);
        }
        match (ty, is_sqrt) {
            (ScalarType::F32, false) => {
                let d = self.dst32(&i.operands[0])?;
                let b = self.src32r(&i.operands[1], ty)?;
                self.div_rn_f32(d, imm(0x3f80_0000), b, ftz)
            }
            (ScalarType::F64, false) => {
                let d = self.dst64(&i.operands[0])?;
                let (blo, bhi) = self.src64(&i.operands[1], ty)?;
                self.instantiate(
                    &F64_DIV_RN,
                    &[rz(), imm(0x3ff0_0000), blo, bhi],
                    &[d, d + 1],
                )
            }
            (ScalarType::F64, true) => {
                let d = self.dst64(&i.operands[0])?;
                let (lo, hi) = self.src64(&i.operands[1], ty)?;
                self.instantiate(&F64_SQRT_RN, &[lo, hi], &[d, d + 1])
            }
            (ScalarType::F32, true) => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                let a = if ftz { self.flush(a)? } else { a };
                let w = self.b.vpair();
                self.b.emit(Op::F2F, &["F64", "F32"], [r(w), a])?;
                let s = self.b.vpair();
                self.instantiate(&F64_SQRT_RN, &[r(w), r(w + 1)], &[s, s + 1])?;
                let mods: &[&str] = if ftz {
                    &["F32", "F64", "FTZ"]
                } else {
                    &["F32", "F64"]
                };
                self.b.emit(Op::F2F, mods, [r(d), r(s)])
            }
            _ => self.err(format!(
                "{}.rn.{} is not lowered",
                i.opcode.name(),
                ty.name()
            )),
        }
    }

    /// div/sqrt/rcp with `.rz`/`.rm`/`.rp`: ptxas 11.8's sequence for the
    /// form (`lower/directed.rs`).
    fn lower_directed(&mut self, i: &Instruction, ty: ScalarType, ftz: bool, rnd: usize) -> R {
        let Some(seq) = super::directed::sequence(i.opcode, ty, ftz, rnd) else {
            return self.err(format!(
                "{} with a directed rounding on {ty} is not lowered",
                i.opcode.name()
            ));
        };
        let mut ins = Vec::new();
        let srcs = &i.operands[1..];
        if ty == ScalarType::F64 {
            let d = self.dst64(&i.operands[0])?;
            for s in srcs {
                let (lo, hi) = self.src64(s, ty)?;
                ins.extend([lo, hi]);
            }
            self.instantiate(seq, &ins, &[d, d + 1])
        } else {
            let d = self.dst32(&i.operands[0])?;
            for s in srcs {
                ins.push(self.src32(s, ty)?);
            }
            self.instantiate(seq, &ins, &[d])
        }
    }
}
