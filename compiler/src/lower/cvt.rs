//! cvt (PTX ISA 9.7.9.21).
//!
//! | form | SASS |
//! |---|---|
//! | int -> int | copies, `SGXT` (sign extension of narrow values), `SHF.R.S32.HI` for the high word of a widened signed value, `LOP3` masks for narrowing |
//! | int -> float | `I2F[.F64][.srctype][.rnd]` (int_bitops.sm_80 `I2F.U32.RP`); `I2FP.F32.S32/U32[.rnd]` for 32-bit sources to f32 on every target (ptxas sm_86+), which phase 5 ConvertUnsupportedOps turns into `I2F[.U32][.rnd]` where the SM table has no I2FP (before sm_86) |
//! | float -> int | `F2I[.F64][.FTZ][.dsttype][.TRUNC/FLOOR/CEIL][.NTZ]` (`F2I.FTZ.U32.TRUNC.NTZ`) |
//! | float -> float | `F2F.dst.src[.rnd]`; same type with `.rni/.rzi/.rmi/.rpi`: `FRND[.F64][.TRUNC/FLOOR/CEIL]`; `.sat` f32: `FADD.SAT d, a, -RZ` |
//! | f16 <-> f32 | `HADD2.F32 d, -RZ, a.H0_H0`; `F2F.F16.F32` |

use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::regs::Val;
use super::Cx;

fn int_name(t: ScalarType) -> &'static str {
    match (t.bits(), t.is_signed()) {
        (8, false) => "U8",
        (8, true) => "S8",
        (16, false) => "U16",
        (16, true) => "S16",
        (32, false) => "U32",
        (32, true) => "S32",
        (64, false) => "U64",
        _ => "S64",
    }
}

fn float_name(t: ScalarType) -> &'static str {
    match t {
        ScalarType::F16 => "F16",
        ScalarType::Bf16 => "BF16",
        ScalarType::F64 => "F64",
        _ => "F32",
    }
}

impl Cx<'_> {
    pub fn lower_cvt(&mut self, i: &Instruction) -> R {
        let tys: Vec<ScalarType> = i.types().collect();
        if tys.len() != 2 {
            return self.err("cvt needs two types");
        }
        let (dt, st) = (tys[0], tys[1]);
        let ftz = i.has(Mod::Ftz);
        let sat = i.has(Mod::Sat);
        let irnd = if i.has(Mod::Rzi) {
            Some("TRUNC")
        } else if i.has(Mod::Rmi) {
            Some("FLOOR")
        } else if i.has(Mod::Rpi) {
            Some("CEIL")
        } else if i.has(Mod::Rni) {
            Some("RN")
        } else {
            None
        };
        let frnd = super::float::rounding(i);
        let (dval, dregty) = self.dst_val(&i.operands[0])?;
        let dwords = dval.words();
        let d = *dwords
            .first()
            .ok_or_else(|| super::LowerError::new(i.span, "bad cvt destination"))?;
        // Source.
        let (lo, hi) = self.src64(&i.operands[1], st)?;
        let src_reg = |cx: &mut Self| -> R<Operand> {
            if st.bits() == 64 {
                let pair = cx.src64_pair(&i.operands[1], st)?;
                Ok(r(pair))
            } else {
                cx.in_reg(lo.clone())
            }
        };
        match (dt.is_float(), st.is_float()) {
            (false, false) => {
                if sat {
                    return self.cvt_sat_int(d, dt, st, dregty, lo, hi);
                }
                // Value as 64 bits (lo, hi), extended from the source.
                let lo = if st.bits() < 32 && st.is_signed() {
                    self.sext(lo, st.bits())?
                } else if st.bits() < 32 && self.wider_than(&i.operands[1], st.bits()) {
                    self.zext(lo, st.bits())?
                } else {
                    lo
                };
                if dt.bits() == 64 {
                    let hi = if st.bits() == 64 {
                        hi
                    } else if st.is_signed() {
                        let l = self.in_reg(lo.clone())?;
                        r(self.sign_word(l)?)
                    } else {
                        rz()
                    };
                    if !matches!(dval, Val::D(_)) {
                        return self.err("cvt to 64 bits needs a 64-bit register");
                    }
                    self.mov(d, lo)?;
                    return self.mov(d + 1, hi);
                }
                self.mov(d, lo)?;
                if dt.bits() < 32 {
                    if dt.is_signed() && dregty.bits() > dt.bits() {
                        self.b
                            .emit(Op::SGXT, &[], [r(d), r(d), imm(i64::from(dt.bits()))])?;
                        self.narrow(d, dregty.bits())?;
                    } else {
                        self.narrow(d, dt.bits())?;
                    }
                } else if dregty.bits() < 32 {
                    self.narrow(d, dregty.bits())?;
                }
                Ok(())
            }
            (true, false) => {
                // int -> float
                let a = src_reg(self)?;
                if dt == ScalarType::F32 && st.bits() == 32 {
                    let mut mods = vec!["F32", int_name(st)];
                    mods.extend(frnd);
                    self.b.emit(Op::I2FP, &mods, [r(d), a])?;
                    return if sat {
                        self.saturate_float(d, dt)
                    } else {
                        Ok(())
                    };
                }
                let a = if st.bits() < 32 {
                    // Narrow sources are extended to 32 bits first.
                    let x = if st.is_signed() {
                        self.sext(a, st.bits())?
                    } else if self.wider_than(&i.operands[1], st.bits()) {
                        self.zext(a, st.bits())?
                    } else {
                        a
                    };
                    self.in_reg(x)?
                } else {
                    a
                };
                let sname = if st.bits() < 32 {
                    if st.is_signed() {
                        "S32"
                    } else {
                        "U32"
                    }
                } else {
                    int_name(st)
                };
                let mut mods = vec![];
                if dt != ScalarType::F32 {
                    mods.push(float_name(dt));
                }
                if sname != "S32" {
                    mods.push(sname);
                }
                mods.extend(frnd);
                self.b.emit(Op::I2F, &mods, [r(d), a])?;
                if sat {
                    return self.saturate_float(d, dt);
                }
                if dt.bits() == 16 {
                    self.narrow(d, 16)?;
                }
                Ok(())
            }
            (false, true) => {
                // float -> int
                let mut a = src_reg(self)?;
                let mut sty = st;
                if st == ScalarType::F16 {
                    a = self.f16_to_f32(a)?;
                    sty = ScalarType::F32;
                }
                let mut mods = vec![];
                if sty == ScalarType::F64 {
                    mods.push("F64");
                }
                if ftz && sty == ScalarType::F32 {
                    mods.push("FTZ");
                }
                let dname = int_name(dt);
                if dname != "S32" {
                    mods.push(dname);
                }
                match irnd {
                    Some("RN") | None => {}
                    Some(x) => mods.push(x),
                }
                // `.NTZ` (NaN to zero) exactly where the PTX cvt rule maps
                // NaN to 0: an f32 source and a destination of at most 32
                // bits; NaN -> 1 << (N-1) otherwise (convert_round.sm_80:
                // `F2I.TRUNC.NTZ` for s32, `F2I.S64.TRUNC` for s64,
                // `F2I.F64.TRUNC` for an f64 source).
                if sty == ScalarType::F32 && dt.bits() <= 32 {
                    mods.push("NTZ");
                }
                self.b.emit(Op::F2I, &mods, [r(d), a])?;
                if dt.bits() < 32 && dregty.bits() < 32 {
                    self.narrow(d, dregty.bits())?;
                }
                Ok(())
            }
            (true, true) => {
                let a = src_reg(self)?;
                if dt == st {
                    if let Some(x) = irnd {
                        // ptxas 11.8 (sm_70/sm_80): `FRND.F16 R7, R4`,
                        // `FRND.F16.TRUNC`/`.FLOOR`/`.CEIL`; f32/f64 `FRND`
                        // `[.F64][.FTZ][.TRUNC/FLOOR/CEIL]`.
                        let mut mods = vec![];
                        match dt {
                            ScalarType::F16 => mods.push("F16"),
                            ScalarType::F64 => mods.push("F64"),
                            _ if ftz => mods.push("FTZ"),
                            _ => {}
                        }
                        if x != "RN" {
                            mods.push(x);
                        }
                        self.b.emit(Op::FRND, &mods, [r(d), a])?;
                    } else if dt == ScalarType::F32 && (sat || ftz) {
                        let mut mods = vec![];
                        if ftz {
                            mods.push("FTZ");
                        }
                        if sat {
                            mods.push("SAT");
                        }
                        return self.b.emit(Op::FADD, &mods, [r(d), a, neg(rz())]);
                    } else if dt == ScalarType::F16 {
                        // ptxas 11.8 (sm_80, `cvt.f16.f16`): `HADD2 R3,
                        // R2.H0_H0, -RZ.H0_H0`, a NaN made canonical.
                        let x = self.h0(a)?;
                        let z = self.h0(rz())?;
                        self.b.emit(Op::HADD2, &[], [r(d), x, neg(z)])?;
                        self.narrow(d, 16)?;
                    } else {
                        // f32/f64: a copy (ptxas emits none; the
                        // interpreter's rule, exec/float.rs `cvt`)
                        for (k, w) in dwords.iter().enumerate() {
                            self.mov(*w, r(Self::reg_index(&a) + k as u32))?;
                        }
                    }
                    if sat {
                        // `.sat` clamps to [0.0, 1.0], NaN to +0 (PTX ISA
                        // cvt). `cvt.sat.f16.f16` was lowered as a copy
                        // (generator seed 36, lower_menu_findings.rs).
                        return self.saturate_same_float(d, dt);
                    }
                    return Ok(());
                }
                if st == ScalarType::F16 && dt == ScalarType::F32 {
                    // Exact widening; `.sat` clamps the f32 (NaN -> +0),
                    // which the conversion alone did not (generator seed 98).
                    let t = self.f16_to_f32(a)?;
                    self.mov(d, t)?;
                    return if sat {
                        self.saturate_float(d, ScalarType::F32)
                    } else {
                        Ok(())
                    };
                }
                let mut mods = vec![float_name(dt), float_name(st)];
                mods.extend(frnd);
                if ftz {
                    mods.push("FTZ");
                }
                if sat {
                    mods.push("SAT");
                }
                self.b.emit(Op::F2F, &mods, [r(d), a])?;
                if dt.bits() == 16 {
                    self.narrow(d, 16)?;
                }
                Ok(())
            }
        }
    }

    fn reg_index(o: &Operand) -> u32 {
        match o {
            Operand::Reg(x) => match x.reg {
                crate::ir::sass_text::Reg::V(v) => v,
                _ => 0,
            },
            _ => 0,
        }
    }

    /// `cvt.sat.D.S` between integer types: the source, extended to 64
    /// bits, clamped to D's range (signed compares for a signed source,
    /// unsigned otherwise: `cmp64` + `SEL` per word), then narrowed.
    /// DECISION (not the vendor sequence: ptxas folds the clamps into
    /// IMNMX/`I2I.SAT` forms per width pair; this one is width-generic).
    fn cvt_sat_int(
        &mut self,
        d: u32,
        dt: ScalarType,
        st: ScalarType,
        dregty: ScalarType,
        lo: Operand,
        hi: Operand,
    ) -> R {
        let ss = st.is_signed();
        // The source chopped to its type's width first (PTX ISA 5.4.4.1:
        // `cvt.sat.s8.u8 %h, %h` reads the low byte of the 16-bit
        // register; generator seed 54 found the whole register clamped).
        let lo = if st.bits() < 32 && ss {
            self.sext(lo, st.bits())?
        } else if st.bits() < 32 {
            self.zext(lo, st.bits())?
        } else {
            lo
        };
        let lo = self.in_reg(lo)?;
        let vlo = self.b.vreg();
        let vhi = self.b.vreg();
        self.mov(vlo, lo.clone())?;
        if st.bits() == 64 {
            self.mov(vhi, hi)?;
        } else if ss {
            self.b
                .emit(Op::SHF, &["R", "S32", "HI"], [r(vhi), rz(), imm(31), lo])?;
        } else {
            self.mov(vhi, rz())?;
        }
        let range = |t: ScalarType| -> (i128, i128) {
            let b = t.bits();
            if t.is_signed() {
                (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
            } else {
                (0, (1i128 << b) - 1)
            }
        };
        let (dmin, dmax) = range(dt);
        let (smin, smax) = range(st);
        let words = |v: i128| (imm32(v as u64 as u32), imm32((v as u64 >> 32) as u32));
        for (bound, cmp, needed) in [(dmin, "LT", dmin > smin), (dmax, "GT", dmax < smax)] {
            if !needed {
                continue;
            }
            let pr = self.b.vpred();
            self.cmp64(pr, cmp, ss, (r(vlo), r(vhi)), words(bound))?;
            let (bl, bh) = words(bound);
            self.b.emit(Op::SEL, &[], [r(vlo), bl, r(vlo), p(pr)])?;
            self.b.emit(Op::SEL, &[], [r(vhi), bh, r(vhi), p(pr)])?;
        }
        if dt.bits() == 64 {
            self.mov(d, r(vlo))?;
            return self.mov(d + 1, r(vhi));
        }
        self.mov(d, r(vlo))?;
        if dt.bits() < 32 {
            if dt.is_signed() && dregty.bits() > dt.bits() {
                self.b
                    .emit(Op::SGXT, &[], [r(d), r(d), imm(i64::from(dt.bits()))])?;
                self.narrow(d, dregty.bits())?;
            } else {
                self.narrow(d, dt.bits())?;
            }
        } else if dregty.bits() < 32 {
            self.narrow(d, dregty.bits())?;
        }
        Ok(())
    }
}

impl Cx<'_> {
    /// `.sat` of a float -> same-float conversion's value `d` (any value,
    /// NaN included): f32 `FADD.SAT d, d, -RZ`; f16 as ptxas 11.8 (sm_80,
    /// `cvt.sat.f16.f16`: `HADD2.SAT R0, R2.H0_H0, -RZ.H0_H0`); f64 has
    /// no `.SAT`: above 1.0 gives 1.0, anything not above +0 (negatives,
    /// -0, NaN) gives +0.
    fn saturate_same_float(&mut self, d: u32, dt: ScalarType) -> R {
        match dt {
            ScalarType::F32 => self.b.emit(Op::FADD, &["SAT"], [r(d), r(d), neg(rz())]),
            ScalarType::F16 => self.saturate_float(d, dt),
            ScalarType::F64 => {
                let (hi1, pos) = (self.b.vpred(), self.b.vpred());
                self.b.emit(
                    Op::DSETP,
                    &["GT", "AND"],
                    [p(hi1), pt(), r(d), Operand::FloatImm("1".into()), pt()],
                )?;
                self.b
                    .emit(Op::DSETP, &["GT", "AND"], [p(pos), pt(), r(d), rz(), pt()])?;
                self.b.emit(
                    Op::SEL,
                    &[],
                    [r(d + 1), imm32(0x3ff0_0000), r(d + 1), p(hi1)],
                )?;
                self.b.emit(Op::SEL, &[], [r(d), rz(), r(d), p(hi1)])?;
                self.b
                    .emit(Op::SEL, &[], [r(d + 1), r(d + 1), rz(), p(pos)])?;
                self.b.emit(Op::SEL, &[], [r(d), r(d), rz(), p(pos)])
            }
            _ => self.err(format!("cvt.sat to {dt} is not lowered")),
        }
    }

    /// `.sat` of an int -> float conversion: clamp the converted value `d`
    /// to [0.0, 1.0] (PTX ISA cvt). As ptxas 11.8 (sm_80): f32 `FADD.SAT d,
    /// RZ, d`, f16 `HADD2.SAT d, d.H0_H0, -RZ.H0_H0`; f64 (ptxas compares
    /// with DSETP.MAX/MIN) `d >= 1.0 ? 1.0 : +0.0`, exact because an
    /// integer is either at most 0 or at least 1 (generator seed 2030 found
    /// the `.sat` ignored).
    fn saturate_float(&mut self, d: u32, dt: ScalarType) -> R {
        match dt {
            ScalarType::F32 => self.b.emit(Op::FADD, &["SAT"], [r(d), rz(), r(d)]),
            ScalarType::F16 => {
                let x = self.h0(r(d))?;
                let z = self.h0(rz())?;
                self.b.emit(Op::HADD2, &["SAT"], [r(d), x, neg(z)])?;
                self.narrow(d, 16)
            }
            ScalarType::F64 => {
                let ge1 = self.b.vpred();
                self.b.emit(
                    Op::DSETP,
                    &["GE", "AND"],
                    [p(ge1), pt(), r(d), Operand::FloatImm("1".into()), pt()],
                )?;
                self.mov(d, rz())?;
                self.b
                    .emit(Op::SEL, &[], [r(d + 1), imm32(0x3ff0_0000), rz(), p(ge1)])
            }
            _ => self.err(format!("cvt.sat to {dt} is not lowered")),
        }
    }
}
