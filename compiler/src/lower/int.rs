//! Integer arithmetic, logic and shifts (PTX ISA 9.7.1, 9.7.2, 9.7.7).
//!
//! Vendor idioms (ptxas 11.8, corpus/kernels):
//! - 32-bit add/sub: `IADD3 d, a, b, RZ` / `IADD3 d, a, -b, RZ`.
//! - 64-bit add/sub: `IADD3 dlo, P0, alo, blo, RZ ; IADD3.X dhi, ahi, bhi,
//!   RZ, P0, !PT` through the carry predicate (saxpy_div.sm_80 address
//!   arithmetic; `~bhi` for subtraction, docs/SEMANTICS.md, Integer instructions).
//! - mul.lo/mad.lo: `IMAD`; mul.wide: `IMAD.WIDE(.U32)` (saxpy_div.sm_80
//!   0x0080 `IMAD.WIDE R8, R2, R3, c[0x0][0x178]`); mul.hi: `IMAD.HI(.U32)`;
//!   64-bit mul.lo: `IMAD.WIDE.U32` + two `IMAD` + `IADD3`.
//! - logic: `LOP3.LUT` with PTX lop3's truth table (and 0xc0, or 0xfc, xor
//!   0x3c, not 0x33: int_bitops.sm_80 0x0110 `LOP3.LUT R8, R7, R0, RZ, 0x3c, !PT`);
//!   predicates: `PLOP3.LUT`.
//! - shifts: `SHF.L.U32 d, a, s, RZ`, `SHF.R.U32.HI d, RZ, s, a`,
//!   `SHF.R.S32.HI`; 64-bit: `SHF.L.U64.HI` + `SHF.L.U32`, `SHF.R.U64` +
//!   `SHF.R.U32.HI` (`.S64`/`.S32.HI` signed). SHF clamps the amount to the
//!   width, which is PTX's shl/shr rule.
//! - min/max: `IMNMX(.U32) d, a, b, PT|!PT`; abs: `IABS`; clz: `FLO.U32`
//!   then `31 - r` (int_bitops.sm_80 0x06e0); popc `POPC`; brev `BREV`;
//!   bfind `FLO(.U32)(.SH)`; sign extension of narrow values `SGXT`.

use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

pub(crate) const LUT_AND: i64 = 0xc0;
pub(crate) const LUT_OR: i64 = 0xfc;
pub(crate) const LUT_XOR: i64 = 0x3c;

impl Cx<'_> {
    pub fn ty(&self, i: &Instruction) -> R<ScalarType> {
        i.ty()
            .ok_or_else(|| super::LowerError::new(i.span, "missing type"))
    }

    /// Orders two sources so that the first is a register (swapping a
    /// commutative pair, else materializing).
    pub fn reg_first(&mut self, a: Operand, b: Operand, commutes: bool) -> R<(Operand, Operand)> {
        if is_reg(&a) {
            return Ok((a, b));
        }
        if commutes && is_reg(&b) {
            return Ok((b, a));
        }
        Ok((self.in_reg(a)?, b))
    }

    /// The carry predicate of the current function.
    /// `s = x >> 31` (arithmetic): all ones when `x` is negative, else 0
    /// (`SHF.R.S32.HI s, RZ, 0x1f, x`, the vendor sign idiom).
    pub(super) fn sign_word(&mut self, x: Operand) -> R<u32> {
        let s = self.b.vreg();
        self.b
            .emit(Op::SHF, &["R", "S32", "HI"], [r(s), rz(), imm(31), x])?;
        Ok(s)
    }

    /// `d = |a|` for the 64-bit pair `a`: `(a ^ s) - s` with `s = a >> 63`.
    /// Returns `s`.
    pub(super) fn abs64_into(&mut self, d: u32, a: (Operand, Operand)) -> R<u32> {
        let lo = self.in_reg(a.0)?;
        let hi = self.in_reg(a.1)?;
        let s = self.sign_word(hi.clone())?;
        let x = self.b.vpair();
        for (k, w) in [lo, hi].into_iter().enumerate() {
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(x + k as u32), w, r(s), rz(), imm(LUT_XOR), npt()],
            )?;
        }
        self.add64(d, (r(x), r(x + 1)), (r(s), r(s)), true)?;
        Ok(s)
    }

    /// `d = t + c` (plus the carry flag when `carry_in`), setting the carry
    /// flag when `carry_out`: the vendor chain `IADD3[.X] d, [P,] t, c, RZ
    /// [, Pin, !PT]`.
    fn add_carry32(
        &mut self,
        d: u32,
        t: Operand,
        c: Operand,
        carry_in: bool,
        carry_out: bool,
    ) -> R {
        let cin = carry_in.then(|| self.carry());
        let cout = carry_out.then(|| self.b.vpred());
        let mut ops = vec![r(d)];
        ops.extend(cout.map(p));
        ops.extend([t, c, rz()]);
        let mods: &[&str] = match cin {
            Some(cin) => {
                ops.extend([p(cin), npt()]);
                &["X"]
            }
            None => &[],
        };
        self.b.emit(Op::IADD3, mods, ops)?;
        if cout.is_some() {
            self.cc = cout;
        }
        Ok(())
    }

    pub fn carry(&mut self) -> u32 {
        match self.cc {
            Some(c) => c,
            None => {
                let c = self.b.vpred();
                self.cc = Some(c);
                c
            }
        }
    }

    /// `d = t + c` on 64-bit words, plus the carry flag when `carry_in`,
    /// setting it from the high word when `carry_out`: `madc.u64` and
    /// `mad.{lo,hi}.cc.u64` (PTX ISA 9.7.2.4/9.7.2.5: the carry is the add's,
    /// out of bit 63), `IADD3[.X] d, P, tlo, clo, RZ [, Pin, !PT] ;
    /// IADD3.X d+1, [P',] thi, chi, RZ, P, !PT`.
    fn add64_carry(
        &mut self,
        d: u32,
        t: (Operand, Operand),
        c: (Operand, Operand),
        carry_in: bool,
        carry_out: bool,
    ) -> R {
        let cin = carry_in.then(|| self.carry());
        let tlo = self.in_reg(t.0)?;
        let thi = self.in_reg(t.1)?;
        let c1 = self.b.vpred();
        match cin {
            Some(cin) => self.b.emit(
                Op::IADD3,
                &["X"],
                [r(d), p(c1), tlo, c.0, rz(), p(cin), npt()],
            )?,
            None => self.b.emit(Op::IADD3, &[], [r(d), p(c1), tlo, c.0, rz()])?,
        }
        if carry_out {
            let cout = self.b.vpred();
            self.b.emit(
                Op::IADD3,
                &["X"],
                [r(d + 1), p(cout), thi, c.1, rz(), p(c1), npt()],
            )?;
            self.cc = Some(cout);
            return Ok(());
        }
        self.b
            .emit(Op::IADD3, &["X"], [r(d + 1), thi, c.1, rz(), p(c1), npt()])
    }

    /// `d = a + b` (or `a - b`) on 64-bit words.
    pub fn add64(&mut self, d: u32, a: (Operand, Operand), b: (Operand, Operand), sub: bool) -> R {
        let (alo, ahi) = a;
        let (blo, bhi) = b;
        let (blo, bhi) = match (sub, &blo, &bhi) {
            // An immediate takes no `-`: the pair's 64-bit negation
            // instead. `-R` adds `~R + 1` with the `+1` inside the low
            // word's carry (ptxas's `IADD3 -R` / `IADD3.X ~R`); folding
            // `-imm` into the low word drops that carry when the low word
            // is 0 (`a - 0x1_0000_0000` must borrow into the high word).
            (true, Operand::Imm(lo), Operand::Imm(hi)) => {
                let hi = if *lo as u32 == 0 { -*hi } else { !*hi };
                (Operand::Imm(-*lo), Operand::Imm(hi))
            }
            (true, _, _) => (neg(blo), not(bhi)),
            (false, _, _) => (blo, bhi),
        };
        let alo = self.in_reg(alo)?;
        let ahi = self.in_reg(ahi)?;
        let c = self.b.vpred();
        self.b.emit(Op::IADD3, &[], [r(d), p(c), alo, blo, rz()])?;
        self.b
            .emit(Op::IADD3, &["X"], [r(d + 1), ahi, bhi, rz(), p(c), npt()])
    }

    fn lower_add_sub_int(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let sub = matches!(
            i.opcode,
            crate::ptx::isa::Opcode::Sub | crate::ptx::isa::Opcode::Subc
        );
        let extended = matches!(
            i.opcode,
            crate::ptx::isa::Opcode::Addc | crate::ptx::isa::Opcode::Subc
        );
        if i.has(Mod::Sat) {
            return self.lower_add_sat(i, sub);
        }
        if ty.bits() == 64 {
            if i.has(Mod::Cc) || extended {
                // ptxas 11.8 (`add.cc.u64 ; addc.cc.u64 ; addc.u64`):
                // `IADD3 R10, P0, R4, R6, RZ ; IADD3.X R11, P0, R5, R7, RZ,
                // P0, !PT ; IADD3.X R8, P0, R4, R8, RZ, P0, !PT ; ...`; the
                // sub forms negate the low word (`-R6`, `~R8` with a carry
                // in) and complement the high word (`~R7`).
                let d = self.dst64(&i.operands[0])?;
                let (alo, ahi) = self.src64(&i.operands[1], ty)?;
                let (blo, bhi) = self.src64(&i.operands[2], ty)?;
                // The carry out is "no borrow": `a + ~b + 1` with the `+1`
                // in the low word (see `add64`), so an immediate `b` goes
                // through registers.
                let (blo, bhi) = if sub && !extended && matches!(blo, Operand::Imm(_)) {
                    (self.in_reg(blo)?, self.in_reg(bhi)?)
                } else {
                    (blo, bhi)
                };
                let (blo, bhi) = match (sub, extended) {
                    (false, _) => (blo, bhi),
                    (true, false) => (neg(blo), not(bhi)),
                    (true, true) => (not(blo), not(bhi)),
                };
                let alo = self.in_reg(alo)?;
                let ahi = self.in_reg(ahi)?;
                let c1 = self.b.vpred();
                if extended {
                    let cin = self.carry();
                    self.b.emit(
                        Op::IADD3,
                        &["X"],
                        [r(d), p(c1), alo, blo, rz(), p(cin), npt()],
                    )?;
                } else {
                    self.b.emit(Op::IADD3, &[], [r(d), p(c1), alo, blo, rz()])?;
                }
                if i.has(Mod::Cc) {
                    let cout = self.b.vpred();
                    self.b.emit(
                        Op::IADD3,
                        &["X"],
                        [r(d + 1), p(cout), ahi, bhi, rz(), p(c1), npt()],
                    )?;
                    self.cc = Some(cout);
                    return Ok(());
                }
                return self
                    .b
                    .emit(Op::IADD3, &["X"], [r(d + 1), ahi, bhi, rz(), p(c1), npt()]);
            }
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            return self.add64(d, a, b, sub);
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32(&i.operands[1], ty)?;
        let b = self.src32(&i.operands[2], ty)?;
        if extended {
            // a + b + CF, or a + ~b + CF (carry = not borrow).
            let cin = self.carry();
            let a = self.in_reg(a)?;
            let b = if sub { not(b) } else { b };
            if i.has(Mod::Cc) {
                let cout = self.b.vpred();
                self.b.emit(
                    Op::IADD3,
                    &["X"],
                    [r(d), p(cout), a, b, rz(), p(cin), npt()],
                )?;
                self.cc = Some(cout);
            } else {
                self.b
                    .emit(Op::IADD3, &["X"], [r(d), a, b, rz(), p(cin), npt()])?;
            }
        } else {
            // `sub.cc` with an immediate: the carry ("no borrow") needs
            // `-R`'s `~R + 1` (see `add64`), not a folded `-imm`.
            let b = if sub && i.has(Mod::Cc) && matches!(b, Operand::Imm(_)) {
                self.in_reg(b)?
            } else {
                b
            };
            let (a, b) = if sub {
                if is_reg(&a) {
                    (a, neg(b))
                } else if is_reg(&b) {
                    (neg(b), a)
                } else {
                    (self.in_reg(a)?, neg(b))
                }
            } else {
                self.reg_first(a, b, true)?
            };
            if i.has(Mod::Cc) {
                let c = self.b.vpred();
                self.b.emit(Op::IADD3, &[], [r(d), p(c), a, b, rz()])?;
                self.cc = Some(c);
            } else {
                self.b.emit(Op::IADD3, &[], [r(d), a, b, rz()])?;
            }
        }
        self.narrow(d, ty.bits())
    }

    /// `add.sat.s32`/`sub.sat.s32`: the 64-bit sum clamped to the s32 range.
    fn lower_add_sat(&mut self, i: &Instruction, sub: bool) -> R {
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ScalarType::S32)?;
        let b = self.src32r(&i.operands[2], ScalarType::S32)?;
        self.add_sat_s32(d, a, b, sub)
    }

    /// `d = sat(a + b)` (or `a - b`) in the s32 range; `a`, `b` registers.
    fn add_sat_s32(&mut self, d: u32, a: Operand, b: Operand, sub: bool) -> R {
        let ah = self.sign_word(a.clone())?;
        let bh = self.sign_word(b.clone())?;
        let s = self.b.vpair();
        self.add64(s, (a, r(ah)), (b, r(bh)), sub)?;
        // Clamp: s < INT_MIN -> INT_MIN; s > INT_MAX -> INT_MAX.
        let lo = self.b.vpred();
        let lo2 = self.b.vpred();
        self.cmp64(
            lo,
            "LT",
            true,
            (r(s), r(s + 1)),
            (imm(i64::from(i32::MIN)), imm(-1)),
        )?;
        self.cmp64(
            lo2,
            "GT",
            true,
            (r(s), r(s + 1)),
            (imm(i64::from(i32::MAX)), imm(0)),
        )?;
        self.b
            .emit(Op::SEL, &[], [r(d), imm32(0x8000_0000), r(s), p(lo)])?;
        self.b
            .emit(Op::SEL, &[], [r(d), imm32(0x7fff_ffff), r(d), p(lo2)])
    }

    pub fn lower_add_sub(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if ty.is_float() {
            return self.lower_fadd(i, ty);
        }
        self.lower_add_sub_int(i, ty)
    }

    pub fn lower_mul_mad(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        let ty = self.ty(i)?;
        if ty.is_float() {
            return self.lower_fmul_fma(i, ty);
        }
        let is_mad = matches!(i.opcode, O::Mad | O::Madc | O::Mad24);
        let signed = ty.is_signed();
        let bits = ty.bits();
        if matches!(i.opcode, O::Mul24 | O::Mad24) {
            if i.has(Mod::Hi) {
                // ptxas 11.8 (`mul24.hi.s32`, `mad24.hi.s32`): `SGXT R0, R0,
                // 0x18` (`.u32`: `PRMT R0, R0, 0x7210, RZ`) on both
                // operands, `IMAD.WIDE R4, R0, R5, RZ`, `SHF.R.S32.HI R0, RZ,
                // 0x10, R4`, `PRMT R3, R0, 0x5410, R5` (bits 16..47), then
                // `IADD3` of c; `.sat`: the saturating add.
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32(&i.operands[1], ty)?;
                let b = self.src32(&i.operands[2], ty)?;
                let a = self.low24(a, signed)?;
                let b = self.low24(b, signed)?;
                let a = self.in_reg(a)?;
                let t = self.b.vpair();
                let mods: &[&str] = if signed { &["WIDE"] } else { &["WIDE", "U32"] };
                self.b.emit(Op::IMAD, mods, [r(t), a, b, rz()])?;
                let x = self.b.vreg();
                let sh = if signed { "S32" } else { "U32" };
                self.b
                    .emit(Op::SHF, &["R", sh, "HI"], [r(x), rz(), imm(0x10), r(t)])?;
                let h = self.b.vreg();
                self.b
                    .emit(Op::PRMT, &[], [r(h), r(x), imm(0x5410), r(t + 1)])?;
                if !is_mad {
                    return self.mov(d, r(h));
                }
                let c = self.src32(&i.operands[3], ty)?;
                if i.has(Mod::Sat) {
                    let c = self.in_reg(c)?;
                    return self.add_sat_s32(d, r(h), c, false);
                }
                return self.b.emit(Op::IADD3, &[], [r(d), r(h), c, rz()]);
            }
            let d = self.dst32(&i.operands[0])?;
            let a = self.src32(&i.operands[1], ty)?;
            let b = self.src32(&i.operands[2], ty)?;
            let a = self.low24(a, signed)?;
            let b = self.low24(b, signed)?;
            let c = if is_mad {
                self.src32(&i.operands[3], ty)?
            } else {
                rz()
            };
            return self.b.emit(Op::IMAD, &[], [r(d), a, b, c]);
        }
        let wide = i.has(Mod::Wide);
        let hi = i.has(Mod::Hi);
        if bits == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            let t = self.b.vpair();
            if hi {
                self.mul_hi64(t, a, b, signed)?;
            } else {
                self.mul_lo64(t, a, b)?;
            }
            if is_mad {
                let c = self.src64(&i.operands[3], ty)?;
                let carry_in = i.opcode == O::Madc;
                if carry_in || i.has(Mod::Cc) {
                    return self.add64_carry(d, (r(t), r(t + 1)), c, carry_in, i.has(Mod::Cc));
                }
                return self.add64(d, (r(t), r(t + 1)), c, false);
            }
            self.mov(d, r(t))?;
            return self.mov(d + 1, r(t + 1));
        }
        if bits == 16 || bits == 8 {
            // Compute on 32-bit extended values.
            let a = self.src32(&i.operands[1], ty)?;
            let b = self.src32(&i.operands[2], ty)?;
            let (a, b) = if signed {
                (self.sext(a, bits)?, self.sext(b, bits)?)
            } else {
                (a, b)
            };
            let (a, b) = self.reg_first(a, b, true)?;
            let d = self.dst32(&i.operands[0])?;
            let c = if is_mad {
                let c = self.src32(
                    &i.operands[3],
                    if wide {
                        ScalarType::int_of(bits * 2, signed).unwrap()
                    } else {
                        ty
                    },
                )?;
                if hi {
                    // (a * b) >> bits, plus c, in the low bits.
                    let t = self.b.vreg();
                    self.b.emit(Op::IMAD, &[], [r(t), a, b, rz()])?;
                    self.b.emit(
                        Op::SHF,
                        &["R", "U32", "HI"],
                        [r(t), rz(), imm(i64::from(bits)), r(t)],
                    )?;
                    self.b.emit(Op::IADD3, &[], [r(d), r(t), c, rz()])?;
                    return self.narrow(d, bits);
                }
                c
            } else {
                rz()
            };
            self.b.emit(Op::IMAD, &[], [r(d), a, b, c])?;
            if hi {
                let sh = if signed { "S32" } else { "U32" };
                self.b.emit(
                    Op::SHF,
                    &["R", sh, "HI"],
                    [r(d), rz(), imm(i64::from(bits)), r(d)],
                )?;
                return self.narrow(d, bits);
            }
            if !wide {
                return self.narrow(d, bits);
            }
            return Ok(());
        }
        let a = self.src32(&i.operands[1], ty)?;
        let b = self.src32(&i.operands[2], ty)?;
        let (a, b) = self.reg_first(a, b, true)?;
        let u32m: &[&str] = if signed { &[] } else { &["U32"] };
        if wide {
            let d = self.dst64(&i.operands[0])?;
            let c = if is_mad {
                let wty = ty.widened().unwrap_or(ScalarType::B64);
                let (clo, chi) = self.src64(&i.operands[3], wty)?;
                if clo == imm(0) && chi == imm(0) {
                    rz()
                } else {
                    let v = self.src64_pair(&i.operands[3], wty)?;
                    r(v)
                }
            } else {
                rz()
            };
            let mods: Vec<&str> = std::iter::once("WIDE")
                .chain(u32m.iter().copied())
                .collect();
            let t = self.b.vpair();
            self.b.emit(Op::IMAD, &mods, [r(t), a, b, c])?;
            self.mov(d, r(t))?;
            return self.mov(d + 1, r(t + 1));
        }
        let d = self.dst32(&i.operands[0])?;
        if hi {
            let mods: Vec<&str> = std::iter::once("HI").chain(u32m.iter().copied()).collect();
            if is_mad {
                let t = self.b.vreg();
                self.b.emit(Op::IMAD, &mods, [r(t), a, b, rz()])?;
                let c = self.src32(&i.operands[3], ty)?;
                if i.has(Mod::Sat) {
                    // `mad.hi.sat.s32`: the high word plus c, saturated
                    // (the `.sat` was dropped before: lower_sequences).
                    let c = self.in_reg(c)?;
                    return self.add_sat_s32(d, r(t), c, false);
                }
                return self.add_carry32(d, r(t), c, i.opcode == O::Madc, i.has(Mod::Cc));
            }
            return self.b.emit(Op::IMAD, &mods, [r(d), a, b, rz()]);
        }
        // .lo
        if is_mad {
            let c = self.src32(&i.operands[3], ty)?;
            if i.opcode == O::Madc || i.has(Mod::Cc) {
                let t = self.b.vreg();
                self.b.emit(Op::IMAD, &[], [r(t), a, b, rz()])?;
                return self.add_carry32(d, r(t), c, i.opcode == O::Madc, i.has(Mod::Cc));
            }
            return self.b.emit(Op::IMAD, &[], [r(d), a, b, c]);
        }
        self.b.emit(Op::IMAD, &[], [r(d), a, b, rz()])
    }

    fn low24(&mut self, a: Operand, signed: bool) -> R<Operand> {
        if signed {
            self.sext(a, 24)
        } else {
            let a = self.in_reg(a)?;
            let v = self.b.vreg();
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(v), a, imm32(0xff_ffff), rz(), imm(LUT_AND), npt()],
            )?;
            Ok(r(v))
        }
    }

    /// 64-bit `mul.lo`: `IMAD.WIDE.U32 t, alo, blo, RZ ; IMAD h, alo, bhi, RZ ;
    /// IMAD h, ahi, blo, h ; IADD3 thi, thi, h, RZ` (docs/SEMANTICS.md, Observed lowerings; sm_80).
    pub fn mul_lo64(&mut self, t: u32, a: (Operand, Operand), b: (Operand, Operand)) -> R {
        let alo = self.in_reg(a.0)?;
        let ahi = self.in_reg(a.1)?;
        let (blo, bhi) = b;
        self.b.emit(
            Op::IMAD,
            &["WIDE", "U32"],
            [r(t), alo.clone(), blo.clone(), rz()],
        )?;
        let h = self.b.vreg();
        self.b.emit(Op::IMAD, &[], [r(h), alo, bhi, rz()])?;
        self.b.emit(Op::IMAD, &[], [r(h), ahi, blo, r(h)])?;
        self.b
            .emit(Op::IADD3, &[], [r(t + 1), r(t + 1), r(h), rz()])
    }

    /// The high 64 bits of a 64x64 product, from four `IMAD.WIDE.U32`
    /// partial products; signed: minus `b` if `a < 0`, minus `a` if `b < 0`.
    pub fn mul_hi64(
        &mut self,
        d: u32,
        a: (Operand, Operand),
        b: (Operand, Operand),
        signed: bool,
    ) -> R {
        let alo = self.in_reg(a.0)?;
        let ahi = self.in_reg(a.1)?;
        let blo = self.in_reg(b.0)?;
        let bhi = self.in_reg(b.1)?;
        let t = self.b.vpair();
        self.b.emit(
            Op::IMAD,
            &["WIDE", "U32"],
            [r(t), alo.clone(), blo.clone(), rz()],
        )?;
        // u = alo*bhi + t.hi
        let c = self.b.vpair();
        self.mov(c, r(t + 1))?;
        self.mov(c + 1, rz())?;
        let u = self.b.vpair();
        self.b.emit(
            Op::IMAD,
            &["WIDE", "U32"],
            [r(u), alo.clone(), bhi.clone(), r(c)],
        )?;
        // v = ahi*blo + u.lo
        let c2 = self.b.vpair();
        self.mov(c2, r(u))?;
        self.mov(c2 + 1, rz())?;
        let v = self.b.vpair();
        self.b.emit(
            Op::IMAD,
            &["WIDE", "U32"],
            [r(v), ahi.clone(), blo.clone(), r(c2)],
        )?;
        // w = ahi*bhi + u.hi
        let c3 = self.b.vpair();
        self.mov(c3, r(u + 1))?;
        self.mov(c3 + 1, rz())?;
        let w = self.b.vpair();
        self.b.emit(
            Op::IMAD,
            &["WIDE", "U32"],
            [r(w), ahi.clone(), bhi.clone(), r(c3)],
        )?;
        // d = w + v.hi
        self.add64(d, (r(w), r(w + 1)), (r(v + 1), rz()), false)?;
        if signed {
            // d -= (a < 0 ? b : 0) + (b < 0 ? a : 0)
            let sa = self.sign_word(ahi.clone())?;
            let sb = self.sign_word(bhi.clone())?;
            let ma = self.b.vpair();
            let mb = self.b.vpair();
            for (dst, x, m) in [
                (ma, blo, sa),
                (ma + 1, bhi, sa),
                (mb, alo, sb),
                (mb + 1, ahi, sb),
            ] {
                self.b.emit(
                    Op::LOP3,
                    &["LUT"],
                    [r(dst), x, r(m), rz(), imm(LUT_AND), npt()],
                )?;
            }
            self.add64(d, (r(d), r(d + 1)), (r(ma), r(ma + 1)), true)?;
            self.add64(d, (r(d), r(d + 1)), (r(mb), r(mb + 1)), true)?;
        }
        Ok(())
    }
}

impl Cx<'_> {
    pub fn lower_neg_abs(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if ty.is_float() {
            return self.lower_fneg_abs(i, ty);
        }
        let is_abs = i.opcode == crate::ptx::isa::Opcode::Abs;
        let bits = ty.bits();
        if bits == 64 {
            let d = self.dst64(&i.operands[0])?;
            let (lo, hi) = self.src64(&i.operands[1], ty)?;
            if !is_abs {
                return self.add64(d, (rz(), rz()), (lo, hi), true);
            }
            self.abs64_into(d, (lo, hi))?;
            return Ok(());
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32(&i.operands[1], ty)?;
        let a = self.sext(a, bits)?;
        let a = self.in_reg(a)?;
        if is_abs {
            self.b.emit(Op::IABS, &[], [r(d), a])?;
        } else {
            self.b.emit(Op::IADD3, &[], [r(d), rz(), neg(a), rz()])?;
        }
        self.narrow(d, bits)
    }

    pub fn lower_min_max(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if ty.is_float() {
            return self.lower_fminmax(i, ty);
        }
        let is_min = i.opcode == crate::ptx::isa::Opcode::Min;
        let signed = ty.is_signed();
        let bits = ty.bits();
        if bits == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            let a = (self.in_reg(a.0)?, self.in_reg(a.1)?);
            let pl = self.b.vpred();
            self.cmp64(
                pl,
                if is_min { "LT" } else { "GT" },
                signed,
                a.clone(),
                b.clone(),
            )?;
            let t = self.b.vpair();
            self.b.emit(Op::SEL, &[], [r(t), a.0, b.0, p(pl)])?;
            self.b.emit(Op::SEL, &[], [r(t + 1), a.1, b.1, p(pl)])?;
            self.mov(d, r(t))?;
            return self.mov(d + 1, r(t + 1));
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32(&i.operands[1], ty)?;
        let b = self.src32(&i.operands[2], ty)?;
        let (a, b) = if signed {
            (self.sext(a, bits)?, self.sext(b, bits)?)
        } else {
            (a, b)
        };
        let (a, b) = self.reg_first(a, b, true)?;
        let mods: &[&str] = if signed { &[] } else { &["U32"] };
        self.b.emit(
            Op::IMNMX,
            mods,
            [r(d), a, b, if is_min { pt() } else { npt() }],
        )?;
        self.narrow(d, bits)
    }

    pub fn lower_logic(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        let ty = self.ty(i)?;
        if ty == ScalarType::Pred {
            let d = self.dst_pred(&i.operands[0])?;
            let a = self.src_pred(&i.operands[1])?;
            let (b, lut) = match i.opcode {
                O::And => (self.src_pred(&i.operands[2])?, 0xc0),
                O::Or => (self.src_pred(&i.operands[2])?, 0xfc),
                O::Xor => (self.src_pred(&i.operands[2])?, 0x3c),
                O::Not => (pt(), 0x0f),
                _ => return self.err(format!("{}.pred is not lowered", i.opcode.name())),
            };
            return self.b.emit(
                Op::PLOP3,
                &["LUT"],
                [p(d), pt(), a, b, pt(), imm(lut), imm(0)],
            );
        }
        let words = if ty.bits() == 64 { 2 } else { 1 };
        let srcs: Vec<&crate::ptx::ast::Operand> = i.operands[1..].iter().collect();
        let mut vals: Vec<(Operand, Operand)> = Vec::new();
        for (k, o) in srcs.iter().enumerate() {
            if i.opcode == O::Lop3 && k == 3 {
                break;
            }
            vals.push(if words == 2 {
                self.src64(o, ty)?
            } else {
                (self.src32(o, ty)?, rz())
            });
        }
        let d = if words == 2 {
            self.dst64(&i.operands[0])?
        } else {
            self.dst32(&i.operands[0])?
        };
        for w in 0..words {
            let pick = |x: &(Operand, Operand)| if w == 0 { x.0.clone() } else { x.1.clone() };
            let (a, b, c, lut) = match i.opcode {
                O::And => (pick(&vals[0]), pick(&vals[1]), rz(), LUT_AND),
                O::Or => (pick(&vals[0]), pick(&vals[1]), rz(), LUT_OR),
                O::Xor => (pick(&vals[0]), pick(&vals[1]), rz(), LUT_XOR),
                O::Not => (rz(), pick(&vals[0]), rz(), 0x33),
                O::Lop3 => {
                    let lut = match &i.operands[4].kind {
                        crate::ptx::ast::OperandKind::Imm(x) => {
                            x.int_value().unwrap_or(0) as i64 & 0xff
                        }
                        _ => return self.err("lop3 needs an immediate truth table"),
                    };
                    (pick(&vals[0]), pick(&vals[1]), pick(&vals[2]), lut)
                }
                O::Cnot => {
                    // d = a == 0 ? 1 : 0 over the whole width: a 64-bit
                    // source is zero when both words are (their OR), and
                    // the high word of a 64-bit result is 0.
                    let pz = self.b.vpred();
                    let a = if words == 2 {
                        let lo = self.in_reg(vals[0].0.clone())?;
                        let t = self.b.vreg();
                        self.b.emit(
                            Op::LOP3,
                            &["LUT"],
                            [r(t), lo, vals[0].1.clone(), rz(), imm(LUT_OR), npt()],
                        )?;
                        r(t)
                    } else {
                        self.in_reg(pick(&vals[0]))?
                    };
                    self.b.emit(
                        Op::ISETP,
                        &["EQ", "U32", "AND"],
                        [p(pz), pt(), a, rz(), pt()],
                    )?;
                    self.b.emit(Op::SEL, &[], [r(d), imm(1), rz(), p(pz)])?;
                    if words == 2 {
                        self.mov(d + 1, rz())?;
                    }
                    return Ok(());
                }
                _ => return self.err("internal: logic opcode"),
            };
            // LOP3 takes one immediate, in the second slot.
            let (a, b) = if is_reg(&a) || matches!(a, Operand::Reg(_)) {
                (a, b)
            } else if is_reg(&b) && i.opcode != O::Lop3 {
                (b, a)
            } else {
                (self.in_reg(a)?, b)
            };
            let c = if is_reg(&c) { c } else { self.in_reg(c)? };
            self.b
                .emit(Op::LOP3, &["LUT"], [r(d + w), a, b, c, imm(lut), npt()])?;
        }
        if words == 1 {
            self.narrow(d, ty.bits())?;
        }
        Ok(())
    }

    /// `d = a << s` on a 64-bit pair (SHF.L.U64.HI + SHF.L.U32).
    pub fn shl64(&mut self, d: u32, a: (Operand, Operand), s: Operand) -> R {
        let lo = self.in_reg(a.0)?;
        let hi = self.in_reg(a.1)?;
        let t = self.b.vpair();
        self.b.emit(
            Op::SHF,
            &["L", "U64", "HI"],
            [r(t + 1), lo.clone(), s.clone(), hi],
        )?;
        self.b.emit(Op::SHF, &["L", "U32"], [r(t), lo, s, rz()])?;
        self.mov(d, r(t))?;
        self.mov(d + 1, r(t + 1))
    }

    /// `d = a >> s` on a 64-bit pair (SHF.R.U64 + SHF.R.U32.HI, or S64/S32).
    pub fn shr64(&mut self, d: u32, a: (Operand, Operand), s: Operand, signed: bool) -> R {
        let lo = self.in_reg(a.0)?;
        let hi = self.in_reg(a.1)?;
        let (w, h) = if signed {
            ("S64", "S32")
        } else {
            ("U64", "U32")
        };
        let t = self.b.vpair();
        self.b
            .emit(Op::SHF, &["R", w], [r(t), lo, s.clone(), hi.clone()])?;
        self.b
            .emit(Op::SHF, &["R", h, "HI"], [r(t + 1), rz(), s, hi])?;
        self.mov(d, r(t))?;
        self.mov(d + 1, r(t + 1))
    }

    pub fn lower_shift(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        let ty = self.ty(i)?;
        if i.opcode == O::Shf {
            let d = self.dst32(&i.operands[0])?;
            let a = self.src32r(&i.operands[1], ScalarType::B32)?;
            let b = self.src32r(&i.operands[2], ScalarType::B32)?;
            let c = self.src32(&i.operands[3], ScalarType::U32)?;
            let wrap = i.has(Mod::Wrap);
            let left = i.has(Mod::L);
            let mut mods = vec![if left { "L" } else { "R" }];
            if wrap {
                mods.push("W");
            }
            mods.push("U32");
            if left {
                mods.push("HI");
            }
            return self.b.emit(Op::SHF, &mods, [r(d), a, c, b]);
        }
        let s = self.src32(&i.operands[2], ScalarType::U32)?;
        let left = i.opcode == O::Shl;
        let signed = ty.is_signed();
        if ty.bits() == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            return if left {
                self.shl64(d, a, s)
            } else {
                self.shr64(d, a, s, signed)
            };
        }
        let bits = ty.bits();
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32(&i.operands[1], ty)?;
        if left {
            let a = self.in_reg(a)?;
            self.b.emit(Op::SHF, &["L", "U32"], [r(d), a, s, rz()])?;
        } else if signed {
            let a = self.sext(a, bits)?;
            let a = self.in_reg(a)?;
            self.b
                .emit(Op::SHF, &["R", "S32", "HI"], [r(d), rz(), s, a])?;
        } else {
            let a = self.in_reg(a)?;
            self.b
                .emit(Op::SHF, &["R", "U32", "HI"], [r(d), rz(), s, a])?;
        }
        self.narrow(d, bits)
    }

    pub fn lower_bitops(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        let ty = self.ty(i)?;
        let bits = ty.bits();
        match i.opcode {
            O::Popc | O::Clz | O::Bfind if bits == 64 => {
                let d = self.dst32(&i.operands[0])?;
                let (lo, hi) = self.src64(&i.operands[1], ty)?;
                let lo = self.in_reg(lo)?;
                let hi = self.in_reg(hi)?;
                match i.opcode {
                    O::Popc => {
                        let t = self.b.vreg();
                        self.b.emit(Op::POPC, &[], [r(t), lo])?;
                        self.b.emit(Op::POPC, &[], [r(d), hi])?;
                        self.b.emit(Op::IADD3, &[], [r(d), r(d), r(t), rz()])
                    }
                    O::Clz => {
                        // hi != 0 ? 31 - flo(hi) : 63 - flo(lo)
                        let fh = self.b.vreg();
                        let fl = self.b.vreg();
                        let ph = self.b.vpred();
                        self.b.emit(Op::FLO, &["U32"], [r(fh), hi.clone()])?;
                        self.b.emit(Op::FLO, &["U32"], [r(fl), lo])?;
                        self.b.emit(
                            Op::ISETP,
                            &["NE", "U32", "AND"],
                            [p(ph), pt(), hi, rz(), pt()],
                        )?;
                        let t = self.b.vreg();
                        self.b
                            .emit(Op::IADD3, &[], [r(t), neg(r(fl)), imm(63), rz()])?;
                        self.b
                            .emit(Op::IADD3, &[], [r(d), neg(r(fh)), imm(31), rz()])?;
                        self.b.emit(Op::SEL, &[], [r(d), r(d), r(t), p(ph)])
                    }
                    _ => {
                        // ptxas 11.8 (sm_70/sm_80, `bfind.u64 %r, %rd`):
                        // `FLO.U32 R0, R3 ; ISETP.NE.U32.AND P0, PT, R0, -0x1,
                        // PT ; @P0 IADD3 R7, R0, 0x20, RZ ; @P0 BRA ; FLO.U32
                        // R7, R2`; `.s64`: `FLO R0, R3` on the high word and,
                        // when it has no non-sign bit, `ISETP.GE.AND P0, PT,
                        // R3, RZ` choosing `FLO.U32 R5, R2` or `FLO.U32 R5,
                        // ~R2`; `.shiftamt`: the `.SH` forms, the low word's
                        // result +0x20 unless it is -1 (`@!P1 SEL R7, R4,
                        // 0xffffffff, P0`). The branches become SELs here.
                        let signed = ty.is_signed();
                        let sh = i.has(Mod::Shiftamt);
                        let mut hm: Vec<&str> = if signed { vec![] } else { vec!["U32"] };
                        let mut lm = vec!["U32"];
                        if sh {
                            hm.push("SH");
                            lm.push("SH");
                        }
                        let fh = self.b.vreg();
                        let fl = self.b.vreg();
                        self.b.emit(Op::FLO, &hm, [r(fh), hi.clone()])?;
                        if signed {
                            // A negative value: the highest 0 of the low word.
                            let pn = self.b.vpred();
                            let l2 = self.b.vreg();
                            self.b.emit(
                                Op::ISETP,
                                &["GE", "AND"],
                                [p(pn), pt(), hi, rz(), pt()],
                            )?;
                            self.b.emit(Op::FLO, &lm, [r(l2), lo.clone()])?;
                            self.b.emit(Op::FLO, &lm, [r(fl), not(lo)])?;
                            self.b.emit(Op::SEL, &[], [r(fl), r(l2), r(fl), p(pn)])?;
                        } else {
                            self.b.emit(Op::FLO, &lm, [r(fl), lo])?;
                        }
                        let ph = self.b.vpred();
                        self.b.emit(
                            Op::ISETP,
                            &["NE", "U32", "AND"],
                            [p(ph), pt(), r(fh), imm(-1), pt()],
                        )?;
                        if sh {
                            let pl = self.b.vpred();
                            self.b.emit(
                                Op::ISETP,
                                &["NE", "U32", "AND"],
                                [p(pl), pt(), r(fl), imm(-1), pt()],
                            )?;
                            let t = self.b.vreg();
                            self.b
                                .emit(Op::IADD3, &[], [r(t), r(fl), imm(0x20), rz()])?;
                            self.b.emit(Op::SEL, &[], [r(t), r(t), imm(-1), p(pl)])?;
                            self.b.emit(Op::SEL, &[], [r(d), r(fh), r(t), p(ph)])
                        } else {
                            let t = self.b.vreg();
                            self.b
                                .emit(Op::IADD3, &[], [r(t), r(fh), imm(0x20), rz()])?;
                            self.b.emit(Op::SEL, &[], [r(d), r(t), r(fl), p(ph)])
                        }
                    }
                }
            }
            O::Popc => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                self.b.emit(Op::POPC, &[], [r(d), a])
            }
            O::Clz => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                self.b.emit(Op::FLO, &["U32"], [r(d), a])?;
                self.b
                    .emit(Op::IADD3, &[], [r(d), neg(r(d)), imm(31), rz()])
            }
            O::Bfind => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                let mut mods = vec![];
                if !ty.is_signed() {
                    mods.push("U32");
                }
                if i.has(Mod::Shiftamt) {
                    mods.push("SH");
                }
                self.b.emit(Op::FLO, &mods, [r(d), a])
            }
            O::Brev => {
                if bits == 64 {
                    let d = self.dst64(&i.operands[0])?;
                    let (lo, hi) = self.src64(&i.operands[1], ty)?;
                    let lo = self.in_reg(lo)?;
                    let hi = self.in_reg(hi)?;
                    let t = self.b.vpair();
                    self.b.emit(Op::BREV, &[], [r(t), hi])?;
                    self.b.emit(Op::BREV, &[], [r(t + 1), lo])?;
                    self.mov(d, r(t))?;
                    return self.mov(d + 1, r(t + 1));
                }
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                self.b.emit(Op::BREV, &[], [r(d), a])
            }
            O::Bfe => self.lower_bfe(i, ty),
            O::Bfi => self.lower_bfi(i, ty),
            O::Prmt => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ScalarType::B32)?;
                let b = self.src32r(&i.operands[2], ScalarType::B32)?;
                let c = self.src32(&i.operands[3], ScalarType::B32)?;
                let mode = [
                    (Mod::F4e, "F4E"),
                    (Mod::B4e, "B4E"),
                    (Mod::Rc8, "RC8"),
                    (Mod::Ecl, "ECL"),
                    (Mod::Ecr, "ECR"),
                    (Mod::Rc16, "RC16"),
                ]
                .iter()
                .find(|(m, _)| i.has(*m))
                .map(|(_, s)| *s);
                let mods: Vec<&str> = mode.into_iter().collect();
                self.b.emit(Op::PRMT, &mods, [r(d), a, c, b])
            }
            _ => self.err("internal: bitop"),
        }
    }

    /// `min(x & 0xff, cap)` of a position/length operand, in a register.
    fn field_arg(&mut self, o: &crate::ptx::ast::Operand, cap: i64) -> R<Operand> {
        let x = self.src32(o, ScalarType::U32)?;
        if let Operand::Imm(v) = x {
            return Ok(imm((v & 0xff).min(cap)));
        }
        let t = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(t), x, imm(0xff), rz(), imm(LUT_AND), npt()],
        )?;
        self.b
            .emit(Op::IMNMX, &["U32"], [r(t), r(t), imm(cap), pt()])?;
        Ok(r(t))
    }

    /// bfe: `t = a >> pos` (arithmetic when signed), then the low `len` bits
    /// of `t` extended: `(t << (W - len)) >> (W - len)`, which gives 0 for
    /// `len == 0` and `t` for `len >= W`; SHF's clamp covers `pos >= W`.
    fn lower_bfe(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let signed = ty.is_signed();
        let w = i64::from(ty.bits());
        let pos = self.field_arg(&i.operands[2], 255)?;
        let len = self.field_arg(&i.operands[3], w)?;
        let sh = match len {
            Operand::Imm(l) => imm(w - l),
            l => {
                let t = self.b.vreg();
                self.b.emit(Op::IADD3, &[], [r(t), neg(l), imm(w), rz()])?;
                r(t)
            }
        };
        if w == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let t = self.b.vpair();
            self.shr64(t, a, pos, signed)?;
            self.shl64(t, (r(t), r(t + 1)), sh.clone())?;
            return self.shr64(d, (r(t), r(t + 1)), sh, signed);
        }
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ty)?;
        let hs = if signed { "S32" } else { "U32" };
        let t = self.b.vreg();
        self.b
            .emit(Op::SHF, &["R", hs, "HI"], [r(t), rz(), pos, a])?;
        self.b
            .emit(Op::SHF, &["L", "U32"], [r(t), r(t), sh.clone(), rz()])?;
        self.b
            .emit(Op::SHF, &["R", hs, "HI"], [r(d), rz(), sh, r(t)])
    }

    /// bfi: `m = ~(-1 << len) << pos`, `d = (b & ~m) | ((f << pos) & m)`.
    fn lower_bfi(&mut self, i: &Instruction, ty: ScalarType) -> R {
        let w = i64::from(ty.bits());
        let pos = self.field_arg(&i.operands[3], 255)?;
        let len = self.field_arg(&i.operands[4], w)?;
        if w == 64 {
            let d = self.dst64(&i.operands[0])?;
            let f = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            let ones = self.b.vpair();
            self.mov(ones, imm(-1))?;
            self.mov(ones + 1, imm(-1))?;
            let m = self.b.vpair();
            self.shl64(m, (r(ones), r(ones + 1)), len)?;
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(m), rz(), r(m), rz(), imm(0x33), npt()],
            )?;
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(m + 1), rz(), r(m + 1), rz(), imm(0x33), npt()],
            )?;
            self.shl64(m, (r(m), r(m + 1)), pos.clone())?;
            let fs = self.b.vpair();
            self.shl64(fs, f, pos)?;
            let (blo, bhi) = (self.in_reg(b.0)?, self.in_reg(b.1)?);
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(d), blo, r(m), r(fs), imm(0xb8), npt()],
            )?;
            return self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(d + 1), bhi, r(m + 1), r(fs + 1), imm(0xb8), npt()],
            );
        }
        let d = self.dst32(&i.operands[0])?;
        let f = self.src32r(&i.operands[1], ty)?;
        let b = self.src32r(&i.operands[2], ty)?;
        let m = self.b.vreg();
        self.mov(m, imm(-1))?;
        self.b
            .emit(Op::SHF, &["L", "U32"], [r(m), r(m), len, rz()])?;
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(m), rz(), r(m), rz(), imm(0x33), npt()],
        )?;
        self.b
            .emit(Op::SHF, &["L", "U32"], [r(m), r(m), pos.clone(), rz()])?;
        let fs = self.b.vreg();
        self.b.emit(Op::SHF, &["L", "U32"], [r(fs), f, pos, rz()])?;
        self.b
            .emit(Op::LOP3, &["LUT"], [r(d), b, r(m), r(fs), imm(0xb8), npt()])
    }
}
