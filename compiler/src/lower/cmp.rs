//! Comparison and selection: setp, set, selp, slct (PTX ISA 9.7.5).
//!
//! - 32-bit (and narrower, extended first) integers: `ISETP.<cmp>[.U32].<bool>
//!   P, PT, a, b, c` (saxpy_div.sm_80 0x0040 `ISETP.GE.AND P0, PT, R2,
//!   c[0x0][0x160], PT`).
//! - 64-bit: the low words unsigned, then the high words with `.EX`
//!   consuming the low result: `ISETP.NE.U32.AND P0, PT, R2, RZ, PT ;
//!   ISETP.NE.AND.EX P0, PT, R3, RZ, PT, P0` (i64_hash).
//! - floats: `FSETP` (with `.FTZ`), `DSETP`; f16 compares through
//!   `HADD2.F32` conversion to f32; `setp` on f16x2, bf16 and bf16x2:
//!   `HSETP2` (half.rs).
//! - a two-destination `setp` computes `q = BoolOp(!t, c)` with the
//!   complementary comparison (the unordered complement for floats).
//! - selp: `SEL d, a, b, P`; 64-bit: one SEL per word.

use crate::ir::{Op, Operand};
use crate::ptx::ast::{Instruction, OperandKind};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

/// PTX comparison -> (SASS comparison, unsigned) for integers.
fn int_cmp(m: Mod, signed: bool) -> Option<(&'static str, bool)> {
    Some(match m {
        Mod::Eq => ("EQ", !signed),
        Mod::Ne => ("NE", !signed),
        Mod::Lt => ("LT", !signed),
        Mod::Le => ("LE", !signed),
        Mod::Gt => ("GT", !signed),
        Mod::Ge => ("GE", !signed),
        Mod::Lo => ("LT", true),
        Mod::Ls => ("LE", true),
        Mod::Hi => ("GT", true),
        Mod::Hs => ("GE", true),
        _ => return None,
    })
}

fn float_cmp(m: Mod) -> Option<&'static str> {
    Some(match m {
        Mod::Eq => "EQ",
        Mod::Ne => "NE",
        Mod::Lt => "LT",
        Mod::Le => "LE",
        Mod::Gt => "GT",
        Mod::Ge => "GE",
        Mod::Equ => "EQU",
        Mod::Neu => "NEU",
        Mod::Ltu => "LTU",
        Mod::Leu => "LEU",
        Mod::Gtu => "GTU",
        Mod::Geu => "GEU",
        Mod::Num => "NUM",
        Mod::Nan => "NAN",
        _ => return None,
    })
}

/// The comparison with its operands swapped.
fn swapped(c: &'static str) -> &'static str {
    match c {
        "LT" => "GT",
        "GT" => "LT",
        "LE" => "GE",
        "GE" => "LE",
        "LTU" => "GTU",
        "GTU" => "LTU",
        "LEU" => "GEU",
        "GEU" => "LEU",
        c => c,
    }
}

/// The logical complement (`!(a c b)`); for floats the unordered forms.
fn complement(c: &'static str, float: bool) -> &'static str {
    match (c, float) {
        ("EQ", false) => "NE",
        ("NE", false) => "EQ",
        ("LT", false) => "GE",
        ("GE", false) => "LT",
        ("LE", false) => "GT",
        ("GT", false) => "LE",
        ("EQ", true) => "NEU",
        ("NE", true) => "EQU",
        ("LT", true) => "GEU",
        ("LE", true) => "GTU",
        ("GT", true) => "LEU",
        ("GE", true) => "LTU",
        ("EQU", true) => "NE",
        ("NEU", true) => "EQ",
        ("LTU", true) => "GE",
        ("LEU", true) => "GT",
        ("GTU", true) => "LE",
        ("GEU", true) => "LT",
        ("NUM", true) => "NAN",
        ("NAN", true) => "NUM",
        (c, _) => c,
    }
}

impl Cx<'_> {
    /// `dst = (a cmp b)` on 64-bit words, combined with `comb` by `boolop`.
    #[allow(clippy::too_many_arguments)]
    pub fn cmp64_comb(
        &mut self,
        dst: u32,
        cmp: &'static str,
        signed: bool,
        a: (Operand, Operand),
        b: (Operand, Operand),
        boolop: &'static str,
        comb: Operand,
    ) -> R {
        let alo = self.in_reg(a.0)?;
        let ahi = self.in_reg(a.1)?;
        let lo = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &[cmp, "U32", "AND"],
            [p(lo), pt(), alo, b.0, pt()],
        )?;
        let mods: Vec<&str> = if signed {
            vec![cmp, boolop, "EX"]
        } else {
            vec![cmp, "U32", boolop, "EX"]
        };
        self.b
            .emit(Op::ISETP, &mods, [p(dst), pt(), ahi, b.1, comb, p(lo)])
    }

    pub fn cmp64(
        &mut self,
        dst: u32,
        cmp: &'static str,
        signed: bool,
        a: (Operand, Operand),
        b: (Operand, Operand),
    ) -> R {
        self.cmp64_comb(dst, cmp, signed, a, b, "AND", pt())
    }

    /// One compare into `dst` (no second destination).
    #[allow(clippy::too_many_arguments)]
    fn compare_into(
        &mut self,
        i: &Instruction,
        ty: ScalarType,
        cmpm: Mod,
        complemented: bool,
        dst: u32,
        boolop: &'static str,
        comb: Operand,
    ) -> R {
        let ftz = i.has(Mod::Ftz);
        if ty.is_float() {
            let mut c = float_cmp(cmpm)
                .ok_or_else(|| super::LowerError::new(i.span, "bad float comparison"))?;
            if complemented {
                c = complement(c, true);
            }
            let (mut a, mut b) = if ty == ScalarType::F64 {
                let a = self.src64_pair(&i.operands[1], ty)?;
                let b = match self.src(&i.operands[2], ty)? {
                    super::operand::Src::D(Operand::Imm(0), Operand::Imm(0)) => rz(),
                    _ => r(self.src64_pair(&i.operands[2], ty)?),
                };
                (r(a), b)
            } else if ty == ScalarType::F16 {
                let a = self.src32(&i.operands[1], ty)?;
                let b = self.src32(&i.operands[2], ty)?;
                (self.f16_to_f32(a)?, self.f16_to_f32(b)?)
            } else if ty == ScalarType::F32 {
                (
                    self.src32(&i.operands[1], ty)?,
                    self.src32(&i.operands[2], ty)?,
                )
            } else {
                return self.err(format!("setp on {ty} is not lowered"));
            };
            if !is_reg(&a) {
                if is_reg(&b) {
                    std::mem::swap(&mut a, &mut b);
                    c = swapped(c);
                } else {
                    a = self.in_reg(a)?;
                }
            }
            if ty == ScalarType::F64 {
                return self
                    .b
                    .emit(Op::DSETP, &[c, boolop], [p(dst), pt(), a, b, comb]);
            }
            let mods: Vec<&str> = if ftz {
                vec![c, "FTZ", boolop]
            } else {
                vec![c, boolop]
            };
            return self.b.emit(Op::FSETP, &mods, [p(dst), pt(), a, b, comb]);
        }
        let signed = ty.is_signed();
        let (mut c, unsigned) = int_cmp(cmpm, signed)
            .ok_or_else(|| super::LowerError::new(i.span, "bad integer comparison"))?;
        if complemented {
            c = complement(c, false);
        }
        if ty.bits() == 64 {
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            return self.cmp64_comb(dst, c, !unsigned, a, b, boolop, comb);
        }
        let bits = ty.bits();
        let mut a = self.src32(&i.operands[1], ty)?;
        let mut b = self.src32(&i.operands[2], ty)?;
        if !unsigned && bits < 32 {
            a = self.sext(a, bits)?;
            b = self.sext(b, bits)?;
        }
        if !is_reg(&a) {
            if is_reg(&b) {
                std::mem::swap(&mut a, &mut b);
                c = swapped(c);
            } else {
                a = self.in_reg(a)?;
            }
        }
        let mods: Vec<&str> = if unsigned {
            vec![c, "U32", boolop]
        } else {
            vec![c, boolop]
        };
        self.b.emit(Op::ISETP, &mods, [p(dst), pt(), a, b, comb])
    }

    /// f16 bits (low half of a register) to f32: `HADD2.F32 d, -RZ, a.H0_H0`.
    pub fn f16_to_f32(&mut self, a: Operand) -> R<Operand> {
        let a = self.in_reg(a)?;
        let Operand::Reg(mut x) = a else {
            unreachable!()
        };
        x.sel = Some("H0_H0".into());
        let v = self.b.vreg();
        self.b
            .emit(Op::HADD2, &["F32"], [r(v), neg(rz()), Operand::Reg(x)])?;
        Ok(r(v))
    }

    fn cmp_mod(&self, i: &Instruction) -> R<Mod> {
        i.mods
            .iter()
            .find(|m| m.cat() == crate::ptx::modifiers::ModCat::Cmp)
            .ok_or_else(|| super::LowerError::new(i.span, "missing comparison"))
    }

    fn bool_mod(i: &Instruction) -> Option<&'static str> {
        if i.has(Mod::And) {
            Some("AND")
        } else if i.has(Mod::Or) {
            Some("OR")
        } else if i.has(Mod::Xor) {
            Some("XOR")
        } else {
            None
        }
    }

    pub fn lower_setp(&mut self, i: &Instruction) -> R {
        let cmpm = self.cmp_mod(i)?;
        // The source type is the last type modifier (set.dtype.stype too).
        let ty = self.ty(i)?;
        let (boolop, comb) = match Self::bool_mod(i) {
            Some(b) => {
                let c = self.src_pred(&i.operands[3])?;
                (b, c)
            }
            None => ("AND", pt()),
        };
        let half = matches!(
            ty,
            ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2
        );
        if half && i.opcode == crate::ptx::isa::Opcode::Setp {
            let c = float_cmp(cmpm)
                .ok_or_else(|| super::LowerError::new(i.span, "bad float comparison"))?;
            return match &i.operands[0].kind {
                OperandKind::PredPair(ps, qs) => {
                    let pv = self.dst_pred(&ast_name(*ps, i))?;
                    let qv = self.dst_pred(&ast_name(*qs, i))?;
                    if ty == ScalarType::Bf16 {
                        self.half_setp(i, ty, c, (pv, None), boolop, comb.clone())?;
                        let cc = complement(c, true);
                        self.half_setp(i, ty, cc, (qv, None), boolop, comb)
                    } else {
                        self.half_setp(i, ty, c, (pv, Some(qv)), boolop, comb)
                    }
                }
                _ => {
                    let d = self.dst_pred(&i.operands[0])?;
                    self.half_setp(i, ty, c, (d, None), boolop, comb)
                }
            };
        }
        if i.opcode == crate::ptx::isa::Opcode::Set {
            let dty = i.types().next().unwrap_or(ScalarType::U32);
            let d = self.dst32(&i.operands[0])?;
            let t = self.b.vpred();
            self.compare_into(i, ty, cmpm, false, t, boolop, comb)?;
            let one = if dty == ScalarType::F32 {
                Operand::FloatImm("1".into())
            } else {
                imm(-1)
            };
            return self.b.emit(Op::SEL, &[], [r(d), one, rz(), p(t)]);
        }
        match &i.operands[0].kind {
            OperandKind::PredPair(ps, qs) => {
                let pv = self.dst_pred(&ast_name(*ps, i))?;
                let qv = self.dst_pred(&ast_name(*qs, i))?;
                self.compare_into(i, ty, cmpm, false, pv, boolop, comb.clone())?;
                self.compare_into(i, ty, cmpm, true, qv, boolop, comb)
            }
            _ => {
                let d = self.dst_pred(&i.operands[0])?;
                self.compare_into(i, ty, cmpm, false, d, boolop, comb)
            }
        }
    }

    pub fn lower_selp(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if i.opcode == crate::ptx::isa::Opcode::Slct {
            // slct.dtype.stype d, a, b, c: c >= 0 ? a : b.
            let cty = ty;
            let dty = i.types().next().unwrap_or(ScalarType::B32);
            let c = self.src32r(&i.operands[3], cty)?;
            let pg = self.b.vpred();
            if cty == ScalarType::F32 {
                let mods: Vec<&str> = if i.has(Mod::Ftz) {
                    vec!["GE", "FTZ", "AND"]
                } else {
                    vec!["GE", "AND"]
                };
                self.b
                    .emit(Op::FSETP, &mods, [p(pg), pt(), c, rz(), pt()])?;
            } else {
                self.b
                    .emit(Op::ISETP, &["GE", "AND"], [p(pg), pt(), c, rz(), pt()])?;
            }
            if dty.bits() == 64 {
                // `.b64/.u64/.s64/.f64` data: one SEL per word.
                let d = self.dst64(&i.operands[0])?;
                let a = self.src64(&i.operands[1], dty)?;
                let b = self.src64(&i.operands[2], dty)?;
                let t = self.b.vpair();
                for (w, (x, y)) in [(a.0, b.0), (a.1, b.1)].into_iter().enumerate() {
                    let x = self.in_reg(x)?;
                    self.b.emit(Op::SEL, &[], [r(t + w as u32), x, y, p(pg)])?;
                }
                self.mov(d, r(t))?;
                return self.mov(d + 1, r(t + 1));
            }
            let d = self.dst32(&i.operands[0])?;
            let a = self.src32(&i.operands[1], dty)?;
            let b = self.src32(&i.operands[2], dty)?;
            let a = self.in_reg(a)?;
            return self.b.emit(Op::SEL, &[], [r(d), a, b, p(pg)]);
        }
        let c = self.src_pred(&i.operands[3])?;
        let flip = |c: &Operand| match c {
            Operand::Pred { pred, not } => Operand::Pred {
                pred: *pred,
                not: !*not,
            },
            o => o.clone(),
        };
        if ty.bits() == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            let t = self.b.vpair();
            for w in 0..2 {
                let (x, y) = if w == 0 {
                    (a.0.clone(), b.0.clone())
                } else {
                    (a.1.clone(), b.1.clone())
                };
                let (x, y, cc) = if is_reg(&x) {
                    (x, y, c.clone())
                } else if is_reg(&y) {
                    (y, x, flip(&c))
                } else {
                    (self.in_reg(x)?, y, c.clone())
                };
                self.b.emit(Op::SEL, &[], [r(t + w), x, y, cc])?;
            }
            self.mov(d, r(t))?;
            return self.mov(d + 1, r(t + 1));
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32(&i.operands[1], ty)?;
        let b = self.src32(&i.operands[2], ty)?;
        let (x, y, cc) = if is_reg(&a) {
            (a, b, c)
        } else if is_reg(&b) {
            (b, a, flip(&c))
        } else {
            (self.in_reg(a)?, b, c)
        };
        if ty == ScalarType::F32 {
            return self.b.emit(Op::FSEL, &[], [r(d), x, y, cc]);
        }
        self.b.emit(Op::SEL, &[], [r(d), x, y, cc])
    }
}

/// A name operand for one half of a `%p|%q` pair.
fn ast_name(s: crate::ptx::intern::Sym, i: &Instruction) -> crate::ptx::ast::Operand {
    crate::ptx::ast::Operand {
        kind: OperandKind::Name(s),
        span: i.operands[0].span,
    }
}
