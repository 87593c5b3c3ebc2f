//! The half-precision forms lowered to the packed H* opcodes and the MUFU
//! `.F16` functions: bf16 fma/min/max/setp, min/max on f16 (sm_80+) and
//! f16x2, `.xorsign.abs` on all four, `setp.f16x2`, `ex2`/`tanh` on f16
//! (bf16 neg/abs: float.rs). The sequences are ptxas 11.8's (`ptxas -arch=sm_XX -O3`, measured on
//! sm_70, 75, 80, 86, 89, 90; identical on every target that accepts them):
//!
//! | PTX | SASS | targets |
//! |---|---|---|
//! | `fma.rn{.relu}.bf16 d, a, b, c` | `HFMA2.BF16_V2{.RELU} d, a.H0_H0, b.H0_H0, c.H0_H0` | sm_80+ |
//! | `fma.rn{.relu}.bf16x2` | `HFMA2.BF16_V2{.RELU} d, a, b, c` | sm_80+ |
//! | `min`/`max{.NaN}.bf16` | `HMNMX2.BF16_V2{.NAN} d, a.H0_H0, b.H0_H0, PT` (min) / `!PT` (max) | sm_80+ |
//! | `min`/`max{.NaN}.bf16x2` | `HMNMX2.BF16_V2{.NAN} d, a, b, PT`/`!PT` | sm_80+ |
//! | `min`/`max{.ftz}{.NaN}.f16` | `HMNMX2{.FTZ}{.NAN} d, a.H0_H0, b.H0_H0, PT`/`!PT` | sm_80+ |
//! | `min`/`max{.NaN}.xorsign.abs.bf16{x2}` | `HMNMX2.BF16_V2{.NAN}.XORSIGN d, \|a\|, \|b\|, PT`/`!PT` (`.H0_H0` for bf16) | sm_86+ |
//! | `min`/`max{.ftz}{.NaN}.xorsign.abs.f16{x2}` | `HMNMX2{.FTZ}{.NAN}.XORSIGN d, \|a\|, \|b\|, PT`/`!PT` (`.H0_H0` for f16) | sm_86+ |
//! | `setp.cmp{.bool}.bf16 p, a, b{, c}` | `HSETP2.BF16_V2.CMP.BOOL P, PT, a.H0_H0, b.H0_H0, c` | sm_90 |
//! | `setp.cmp{.bool}.bf16x2 p\|q, a, b{, c}` | `HSETP2.BF16_V2.CMP.BOOL P, Q, a, b, c` | sm_90 |
//! | `setp.cmp{.ftz}{.bool}.f16x2 p\|q, a, b{, c}` | `HSETP2.CMP{.FTZ}.BOOL P, Q, a, b, c` | all |
//! | `setp.cmp{.ftz}{.bool}.f16x2 p, a, b{, c}` | `HSETP2.CMP{.FTZ}.BOOL P, PT, a.H0_H0, b.H0_H0, c` | all |
//! | `ex2`/`tanh.approx.f16 d, a` | `MUFU.EX2.F16`/`MUFU.TANH.F16 d, a` | sm_75+ |
//! | `ex2`/`tanh.approx.f16x2 d, a` | `MUFU.*.F16 l, a` ; `MUFU.*.F16 h, a.H1` ; `PRMT d, l, 0x5410, h` | sm_75+ |
//! | `ex2.approx.ftz`/`tanh.approx` `.bf16{x2}` | the same with `MUFU.EX2.BF16`/`MUFU.TANH.BF16` | sm_90 |
//!
//! ptxas prints `setp.lt.bf16` at -O3 as the complementary compare with
//! inverted uses (`HSETP2.BF16_V2.GEU` + `SEL R, RZ, 0x1, P`); this
//! lowering emits the direct compare (ptxas's -O0 form), which the later
//! phases may rearrange. Scalar results are masked back to 16 bits (the
//! register convention; ptxas stores them with `STG.E.U16`).
//!
//! Targets that ptxas refuses (its messages: "Feature '.bf16' requires
//! .target sm_80 or higher", "Feature 'setp.bf16' requires .target sm_90
//! or higher", "Feature 'ex2.f16/f16x2' requires .target sm_75 or
//! higher", "Feature 'tanh' requires .target sm_75 or higher", "Feature
//! 'ex2.bf16' requires .target sm_90 or higher"):
//! - `setp.bf16{x2}` below sm_90: our sequence, exact: each bf16 is the
//!   upper half of the f32 of the same value (`SHF.L.U32 x, a, 0x10, RZ`,
//!   ptxas's own `cvt.f32.bf16` on sm_80; `LOP3` with `0xffff0000` for an
//!   upper half), compared with `FSETP` (no flush: bf16 subnormals are f32
//!   subnormals, and FSETP without `.FTZ` keeps them).
//! - `ex2.approx.f16{x2}` on sm_70: our sequence `HADD2.F32 t, -RZ,
//!   a.H0_H0` ; `MUFU.EX2 t, t` ; `F2F.F16.F32 d, t`: the PTX
//!   interpreter's model of the instruction is exactly RN_f16(MUFU.EX2(f32
//!   a)) (`ptxc::float::approx::ex2_approx_f16`), and f32 MUFU.EX2 exists
//!   on sm_70.
//! - refused: bf16 `fma`/`min`/`max`/`neg`/`abs` below sm_80 (no exact
//!   short sequence for the fma, which needs one rounding of a*b+c; ptxas
//!   refuses all of them), `tanh` on f16 on sm_70 (no MUFU.TANH there),
//!   `ex2`/`tanh` on bf16 below sm_90, `min`/`max.xorsign.abs` on the half
//!   types below sm_86 ("Modifier '.xorsign' requires .target sm_86 or
//!   higher"; HMNMX2.XORSIGN is sm_86+ in the opcode table) and
//!   three-source `min`/`max` on every target (ptxas 11.8: "Arguments
//!   mismatch for instruction 'min'"; the PTX ISA has them from PTX 8.8 on
//!   sm_100, which no target of the SM table is).

use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

/// ptxas 11.8's refusal of `.bf16` below sm_80.
const BF16_SM80: &str =
    "requires sm_80 or higher (ptxas 11.8: \"Feature '.bf16' requires .target sm_80 or higher\")";

fn is_bf16(ty: ScalarType) -> bool {
    matches!(ty, ScalarType::Bf16 | ScalarType::Bf16x2)
}

fn is_scalar_half(ty: ScalarType) -> bool {
    matches!(ty, ScalarType::F16 | ScalarType::Bf16)
}

impl Cx<'_> {
    /// A half source: a register, `.H0_H0` for the scalar types.
    fn half_src(&mut self, o: &crate::ptx::ast::Operand, ty: ScalarType) -> R<Operand> {
        let x = self.src32r(o, ty)?;
        if is_scalar_half(ty) {
            self.h0(x)
        } else {
            Ok(x)
        }
    }

    /// ptxas 11.8's refusal of `.bf16`/`.bf16x2` below sm_80.
    pub(super) fn need_bf16_sm80(&self, i: &Instruction) -> R {
        if self.sm.sm < 80 {
            return self.err(format!(
                "{}.{} on {} {BF16_SM80}",
                i.opcode.name(),
                self.ty(i)?.name(),
                self.sm.name
            ));
        }
        Ok(())
    }

    /// `fma.rn{.relu}.bf16{x2}`.
    pub(super) fn lower_bf16_fma(&mut self, i: &Instruction, ty: ScalarType) -> R {
        self.need_bf16_sm80(i)?;
        if i.has(Mod::Sat) || i.has(Mod::Ftz) || crate::lower::float::rounding(i).is_some() {
            return self.err(format!("fma{ty}: only .rn and .relu exist"));
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.half_src(&i.operands[1], ty)?;
        let b = self.half_src(&i.operands[2], ty)?;
        let c = self.half_src(&i.operands[3], ty)?;
        let mods: &[&str] = if i.has(Mod::Relu) {
            &["BF16_V2", "RELU"]
        } else {
            &["BF16_V2"]
        };
        self.b.emit(Op::HFMA2, mods, [r(d), a, b, c])?;
        if is_scalar_half(ty) {
            self.narrow(d, 16)
        } else {
            Ok(())
        }
    }

    /// `min`/`max{.NaN}{.xorsign.abs}.bf16{x2}` (sm_80+).
    pub(super) fn lower_bf16_minmax(&mut self, i: &Instruction, ty: ScalarType) -> R {
        self.need_bf16_sm80(i)?;
        if i.has(Mod::Ftz) {
            return self.err(format!("{}{ty} has no .ftz", i.opcode.name()));
        }
        self.half_minmax(i, ty)
    }

    /// `min`/`max` on the half types as ptxas 11.8 emits them (module doc):
    /// `HMNMX2{.BF16_V2}{.FTZ}{.NAN}{.XORSIGN} d, a, b, PT` (min) / `!PT`
    /// (max), `.H0_H0` sources for the scalar types, `|a|, |b|` with
    /// `.xorsign.abs` (sm_86+; ptxas 11.8 below: "Modifier '.xorsign'
    /// requires .target sm_86 or higher"; PTX ISA and LLVM's NVVM
    /// builtins: `.xorsign.abs` needs PTX 7.2 and sm_86). Three sources are
    /// refused: ptxas 11.8 refuses them on every target ("Arguments
    /// mismatch for instruction 'min'"), and the PTX ISA (9.0 syntax
    /// `min{.ftz}{.NaN}{.abs}.f32 d, a, b, c`) has them only on `.f32`,
    /// from PTX 8.8 on sm_100.
    pub(super) fn half_minmax(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let name = i.opcode.name();
        if i.operands.len() != 3 {
            return self.err(format!(
                "{name}{ty} with three sources is not lowered (ptxas 11.8 refuses it: \"Arguments mismatch for instruction '{name}'\"; the PTX ISA has three-source min/max only on .f32, from PTX 8.8 on sm_100)"
            ));
        }
        let xorsign = i.has(Mod::Xorsign);
        if xorsign && self.sm.sm < 86 {
            return self.err(format!(
                "{name}.xorsign.abs{ty} on {} requires sm_86 or higher (ptxas 11.8: \"Modifier '.xorsign' requires .target sm_86 or higher\")",
                self.sm.name
            ));
        }
        let d = self.dst32(&i.operands[0])?;
        let mut a = self.half_src(&i.operands[1], ty)?;
        let mut b = self.half_src(&i.operands[2], ty)?;
        if xorsign {
            a = abs(a);
            b = abs(b);
        }
        let mut mods: Vec<&str> = vec![];
        if is_bf16(ty) {
            mods.push("BF16_V2");
        }
        if i.has(Mod::Ftz) {
            mods.push("FTZ");
        }
        if i.has(Mod::NaNProp) {
            mods.push("NAN");
        }
        if xorsign {
            mods.push("XORSIGN");
        }
        let sel = if i.opcode == crate::ptx::isa::Opcode::Min {
            pt()
        } else {
            npt()
        };
        self.b.emit(Op::HMNMX2, &mods, [r(d), a, b, sel])?;
        if is_scalar_half(ty) {
            self.narrow(d, 16)
        } else {
            Ok(())
        }
    }

    /// `add`/`sub`/`mul{.rn}.bf16{x2}`: `HADD2.BF16_V2` (`sub` negates the
    /// second source) and `HMUL2.BF16_V2`, sm_90 only. Measured with ptxas
    /// 11.8 on sm_90: `HADD2.BF16_V2 R7, R0.H0_H0, -R0.H1_H1` (sub.bf16),
    /// `HMUL2.BF16_V2 R11, R4, R5` (mul.bf16x2); below sm_90 it refuses
    /// ("Feature 'add.bf16' requires .target sm_90 or higher").
    pub(super) fn lower_bf16_arith(&mut self, i: &Instruction, ty: ScalarType) -> R {
        use crate::ptx::isa::Opcode as O;
        let name = i.opcode.name();
        if self.sm.sm < 90 {
            return self.err(format!(
                "{name}{ty} on {} requires sm_90 or higher (ptxas 11.8: \"Feature '{name}.bf16' requires .target sm_90 or higher\")",
                self.sm.name
            ));
        }
        if i.has(Mod::Sat) || i.has(Mod::Ftz) {
            return self.err(format!("{name}{ty}: only .rn exists"));
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.half_src(&i.operands[1], ty)?;
        let b = self.half_src(&i.operands[2], ty)?;
        match i.opcode {
            O::Add => self.b.emit(Op::HADD2, &["BF16_V2"], [r(d), a, b])?,
            O::Sub => self.b.emit(Op::HADD2, &["BF16_V2"], [r(d), a, neg(b)])?,
            _ => self.b.emit(Op::HMUL2, &["BF16_V2"], [r(d), a, b])?,
        }
        if is_scalar_half(ty) {
            self.narrow(d, 16)
        } else {
            Ok(())
        }
    }

    /// `min`/`max{.ftz}{.NaN}{.xorsign.abs}.f16x2`: `HMNMX2` with `PT`
    /// (min) or `!PT` (max), from sm_80, as ptxas 11.8 emits it (`HMNMX2
    /// R7, R0, R5, PT`, `HMNMX2.NAN R5, R0, R5, !PT` on sm_80 and sm_90;
    /// [`Self::half_minmax`]); below sm_80 ptxas refuses ("Feature 'min.f16
    /// or min.f16x2' requires .target sm_80 or higher"). The scalar `.f16`
    /// forms go through f32 (float.rs), but for `.xorsign.abs`.
    pub(super) fn lower_f16x2_minmax(&mut self, i: &Instruction) -> R {
        let name = i.opcode.name();
        if self.sm.sm < 80 {
            return self.err(format!(
                "{name}.f16x2 on {} requires sm_80 or higher (ptxas 11.8: \"Feature '{name}.f16 or {name}.f16x2' requires .target sm_80 or higher\")",
                self.sm.name
            ));
        }
        self.half_minmax(i, ScalarType::F16x2)
    }

    /// `ex2`/`tanh.approx` on `.f16`/`.f16x2`.
    pub(super) fn lower_half_sfu(&mut self, i: &Instruction, ty: ScalarType) -> R {
        use crate::ptx::isa::Opcode as O;
        let func = match i.opcode {
            O::Ex2 => "EX2",
            O::Tanh => "TANH",
            _ => return self.err(format!("{}{ty} is not lowered", i.opcode.name())),
        };
        if is_bf16(ty) && self.sm.sm < 90 {
            return self.err(format!(
                "{}{ty} on {} requires sm_90 or higher (ptxas 11.8: \"Feature '{}.bf16' requires .target sm_90 or higher\")",
                i.opcode.name(),
                self.sm.name,
                i.opcode.name()
            ));
        }
        let fmt = if is_bf16(ty) { "BF16" } else { "F16" };
        if self.sm.sm < 75 && func == "TANH" {
            return self.err(format!(
                "tanh{ty} on {} requires sm_75 or higher (ptxas 11.8: \"Feature 'tanh' requires .target sm_75 or higher\")",
                self.sm.name
            ));
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ty)?;
        if is_scalar_half(ty) {
            let t = self.half_fn(func, fmt, a, false)?;
            self.mov(d, r(t))?;
            return self.narrow(d, 16);
        }
        let lo = self.half_fn(func, fmt, a.clone(), false)?;
        let hi = self.half_fn(func, fmt, a, true)?;
        self.b
            .emit(Op::PRMT, &[], [r(d), r(lo), imm(0x5410), r(hi)])
    }

    /// One half's function into a fresh register (bits 15:0): `MUFU.F16`
    /// / `MUFU.BF16` (`fmt`; sm_75+ / sm_90) or the f32 route (f16 on sm_70,
    /// EX2 only; module doc).
    fn half_fn(
        &mut self,
        func: &'static str,
        fmt: &'static str,
        a: Operand,
        upper: bool,
    ) -> R<u32> {
        let Operand::Reg(mut x) = a else {
            return self.err("internal: half_fn on a non-register");
        };
        let t = self.b.vreg();
        if self.sm.sm >= 75 {
            if upper {
                x.sel = Some("H1".into());
            }
            self.b
                .emit(Op::MUFU, &[func, fmt], [r(t), Operand::Reg(x)])?;
            return Ok(t);
        }
        x.sel = Some(if upper { "H1_H1" } else { "H0_H0" }.into());
        let f = self.b.vreg();
        self.b
            .emit(Op::HADD2, &["F32"], [r(f), neg(rz()), Operand::Reg(x)])?;
        self.b.emit(Op::MUFU, &[func], [r(f), r(f)])?;
        self.b.emit(Op::F2F, &["F16", "F32"], [r(t), r(f)])?;
        Ok(t)
    }

    /// `setp` on `.f16x2` (every target), `.bf16`/`.bf16x2` (HSETP2 on
    /// sm_90, the f32 route below it): `p` from the low halves, `q` from
    /// the high halves (PTX ISA 9.7.5.1: "setp.f16x2 ... p = result of
    /// comparison of lower halves, q = upper halves"), each combined with
    /// `c` by the boolean operation. Scalar bf16 with `p|q`: `q` is the
    /// complement, as for the other types.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn half_setp(
        &mut self,
        i: &Instruction,
        ty: ScalarType,
        c: &'static str,
        dsts: (u32, Option<u32>),
        boolop: &'static str,
        comb: Operand,
    ) -> R {
        // A packed compare with one destination compares the low halves
        // (ptxas 11.8, sm_90: `setp.lt.f16x2 p, a, b` is `HSETP2.LT.AND P0,
        // PT, R0.H0_H0, R5.H0_H0, PT`; the interpreter writes the low
        // result): the scalar form.
        let packed = !is_scalar_half(ty) && dsts.1.is_some();
        if is_bf16(ty) && i.has(Mod::Ftz) {
            return self.err(format!("setp{ty} has no .ftz"));
        }
        let a = self.src32r(&i.operands[1], ty)?;
        let b = self.src32r(&i.operands[2], ty)?;
        if ty == ScalarType::F16x2 || self.sm.sm >= 90 {
            let (a, b) = if packed {
                (a, b)
            } else {
                (self.h0(a)?, self.h0(b)?)
            };
            let mut mods = vec![];
            if is_bf16(ty) {
                mods.push("BF16_V2");
            }
            mods.push(c);
            if i.has(Mod::Ftz) {
                mods.push("FTZ");
            }
            mods.push(boolop);
            let q = if packed {
                p(dsts.1.unwrap_or_default())
            } else {
                pt()
            };
            return self.b.emit(Op::HSETP2, &mods, [p(dsts.0), q, a, b, comb]);
        }
        // bf16 below sm_90: each half as the f32 it is.
        let halves: &[bool] = if packed { &[false, true] } else { &[false] };
        for &upper in halves {
            let fa = self.bf16_as_f32(a.clone(), upper)?;
            let fb = self.bf16_as_f32(b.clone(), upper)?;
            let dst = if upper {
                dsts.1.unwrap_or_default()
            } else {
                dsts.0
            };
            self.b.emit(
                Op::FSETP,
                &[c, boolop],
                [p(dst), pt(), fa, fb, comb.clone()],
            )?;
        }
        Ok(())
    }

    /// The f32 of one bf16 half of a register (exact: bf16 is the upper
    /// half of an f32).
    fn bf16_as_f32(&mut self, x: Operand, upper: bool) -> R<Operand> {
        let t = self.b.vreg();
        if upper {
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(t), x, imm32(0xffff_0000), rz(), imm(0xc0), npt()],
            )?;
        } else {
            self.b
                .emit(Op::SHF, &["L", "U32"], [r(t), x, imm(0x10), rz()])?;
        }
        Ok(r(t))
    }
}
