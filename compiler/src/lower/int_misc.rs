//! The integer instructions with one vendor opcode or a short sequence
//! that `int.rs` does not cover: `sad`, `dp4a`, `dp2a`, `bmsk`, `szext`,
//! `fns` (PTX ISA 9.7.1).
//!
//! Vendor forms (ptxas 11.8, the same on sm_70, sm_80 and sm_90; small
//! kernels compiled with `ptxas -arch=sm_XX` and read with `cuobjdump
//! -sass`):
//! - `dp4a.atype.btype d, a, b, c`: `IDP.4A.Ta.Tb d, a, b, c` with `Ta`,
//!   `Tb` = `U8`/`S8` from `atype`, `btype` (`dp4a.s32.u32` ->
//!   `IDP.4A.S8.U8`); `dp2a.{lo,hi}`: `IDP.2A.{LO,HI}.Ta.Tb`, `Ta` =
//!   `U16`/`S16`.
//! - `sad.u32`/`.s32`: `VABSDIFF.U32` / `VABSDIFF d, a, b, c`; `.u16`:
//!   `VABSDIFF.U32` of the zero-extended registers; `.s16`: the operands
//!   sign-extended first (`PRMT x, a, 0x9910, RZ`; here `SGXT x, a, 16`,
//!   the same value); both then keep the low 16 bits (the register
//!   convention, mod.rs). `.u64`/`.s64`: `ISETP.GE.U32` +
//!   `ISETP.GE(.U32).EX` (a >= b), both differences (`IADD3` +
//!   `IADD3.X`), `SEL` of each word, and the 64-bit add of `c`.
//! - `bmsk.clamp` / `.wrap`: `BMSK` / `BMSK.W`; `szext.clamp` / `.wrap`:
//!   `SGXT` / `SGXT.W` (`.U32` for `szext.*.u32`).
//! - `fns.b32 d, mask, base, offset`: see [`Cx::lower_fns`].

use crate::ir::Op;
use crate::ptx::ast::Instruction;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::int::LUT_AND;
use super::Cx;

impl Cx<'_> {
    pub fn lower_int_misc(&mut self, i: &Instruction) -> R {
        match i.opcode {
            Opcode::Dp4a | Opcode::Dp2a => self.lower_dp(i),
            Opcode::Sad => self.lower_sad(i),
            Opcode::Bmsk => {
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ScalarType::B32)?;
                let b = self.src32(&i.operands[2], ScalarType::B32)?;
                // PTX: "bmsk.clamp" / "bmsk.wrap" (the mode is mandatory;
                // the interpreter takes a missing `.clamp` as wrap, and so
                // does this).
                let mods: &[&str] = if i.has(Mod::Clamp) { &[] } else { &["W"] };
                self.b.emit(Op::BMSK, mods, [r(d), a, b])
            }
            Opcode::Szext => {
                let ty = self.ty(i)?;
                let d = self.dst32(&i.operands[0])?;
                let a = self.src32r(&i.operands[1], ty)?;
                let b = self.src32(&i.operands[2], ScalarType::U32)?;
                let mut mods = Vec::new();
                if !i.has(Mod::Clamp) {
                    mods.push("W");
                }
                if !ty.is_signed() {
                    mods.push("U32");
                }
                self.b.emit(Op::SGXT, &mods, [r(d), a, b])
            }
            Opcode::Fns => self.lower_fns(i),
            _ => self.err("internal: int_misc"),
        }
    }

    fn lower_dp(&mut self, i: &Instruction) -> R {
        let tys: Vec<ScalarType> = i.types().collect();
        let [ta, tb] = tys[..] else {
            return self.err("dp4a/dp2a need two operand types");
        };
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ta)?;
        let b = self.src32r(&i.operands[2], tb)?;
        let acc = if ta.is_signed() || tb.is_signed() {
            ScalarType::S32
        } else {
            ScalarType::U32
        };
        let c = self.src32r(&i.operands[3], acc)?;
        let b8 = if tb.is_signed() { "S8" } else { "U8" };
        let mods: Vec<&str> = if i.opcode == Opcode::Dp4a {
            vec!["4A", if ta.is_signed() { "S8" } else { "U8" }, b8]
        } else {
            vec![
                "2A",
                if i.has(Mod::Hi) { "HI" } else { "LO" },
                if ta.is_signed() { "S16" } else { "U16" },
                b8,
            ]
        };
        self.b.emit(Op::IDP, &mods, [r(d), a, b, c])
    }

    fn lower_sad(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        let signed = ty.is_signed();
        if ty.bits() == 64 {
            let d = self.dst64(&i.operands[0])?;
            let a = self.src64(&i.operands[1], ty)?;
            let b = self.src64(&i.operands[2], ty)?;
            let c = self.src64(&i.operands[3], ty)?;
            let a = (self.in_reg(a.0)?, self.in_reg(a.1)?);
            let b = (self.in_reg(b.0)?, self.in_reg(b.1)?);
            let ge = self.b.vpred();
            self.cmp64(ge, "GE", signed, a.clone(), b.clone())?;
            let (x, y) = (self.b.vpair(), self.b.vpair());
            self.add64(x, a.clone(), b.clone(), true)?;
            self.add64(y, b, a, true)?;
            let t = self.b.vpair();
            for k in 0..2 {
                self.b
                    .emit(Op::SEL, &[], [r(t + k), r(x + k), r(y + k), p(ge)])?;
            }
            return self.add64(d, (r(t), r(t + 1)), c, false);
        }
        let d = self.dst32(&i.operands[0])?;
        let mut a = self.src32r(&i.operands[1], ty)?;
        let mut b = self.src32r(&i.operands[2], ty)?;
        let c = self.src32r(&i.operands[3], ty)?;
        let bits = ty.bits();
        if signed && bits < 32 {
            a = self.sext(a, bits)?;
            b = self.sext(b, bits)?;
        }
        let mods: &[&str] = if signed { &[] } else { &["U32"] };
        self.b.emit(Op::VABSDIFF, mods, [r(d), a, b, c])?;
        self.narrow(d, bits)
    }

    /// `fns.b32 d, mask, base, offset` (#integer-arithmetic-instructions-fns):
    /// the bit position of the `|offset|`-th set bit of `mask` counting
    /// from bit `base` upwards (`offset > 0`) or downwards (`offset < 0`),
    /// `base` itself when `offset == 0` and bit `base` is set; 0xffffffff
    /// when there is no such bit.
    ///
    /// ptxas 11.8 branches three ways on the sign of `offset` (a BSSY
    /// region: `BREV` of the mask for negative offsets, `1 << base` for a
    /// zero one), masks off the bits below the start, and finds the bit
    /// by a binary search over `POPC` of the low 16, 8, 4, 2 and 1 bits,
    /// each step guarded by `count < remaining`. The same algorithm is
    /// written here without branches (`SEL` on the sign instead of the
    /// BSSY region), so a guarded `fns` stays one straight-line sequence.
    /// DELIBERATE DIFFERENCE: the final "not found" test compares the
    /// population with `|offset|` unsigned (`ISETP.LT.U32`); ptxas compares
    /// signed, which for `offset = INT_MIN` (`|offset|` = 2^31) does not
    /// report "not found". The interpreter's rule (interp `fns`: not found
    /// when the candidates have at most `|offset| - 1` set bits) is the
    /// unsigned one.
    fn lower_fns(&mut self, i: &Instruction) -> R {
        let d = self.dst32(&i.operands[0])?;
        let mask = self.src32r(&i.operands[1], ScalarType::B32)?;
        let base = self.src32r(&i.operands[2], ScalarType::U32)?;
        let off = self.src32r(&i.operands[3], ScalarType::S32)?;
        let (negp, zerop) = (self.b.vpred(), self.b.vpred());
        self.b.emit(
            Op::ISETP,
            &["LT", "AND"],
            [p(negp), pt(), off.clone(), rz(), pt()],
        )?;
        self.b.emit(
            Op::ISETP,
            &["EQ", "AND"],
            [p(zerop), pt(), off.clone(), rz(), pt()],
        )?;
        // Negative offsets search the reversed mask upwards from 31 - base.
        let rev = self.b.vreg();
        self.b.emit(Op::BREV, &[], [r(rev), mask.clone()])?;
        let src = self.b.vreg();
        self.b.emit(Op::SEL, &[], [r(src), r(rev), mask, p(negp)])?;
        let start = self.b.vreg();
        self.b
            .emit(Op::IADD3, &[], [r(start), neg(base.clone()), imm(31), rz()])?;
        self.b
            .emit(Op::SEL, &[], [r(start), r(start), base, p(negp)])?;
        // The candidates: bits start..31 (bit `start` alone for offset 0);
        // SHF clamps amounts of 32 and more (base > 31, or 31 - base
        // negative), which leaves no candidates.
        let ones = self.in_reg(imm(-1))?;
        let lowm = self.b.vreg();
        self.b
            .emit(Op::SHF, &["L", "U32"], [r(lowm), ones, r(start), rz()])?;
        let unit = self.in_reg(imm(1))?;
        let one = self.b.vreg();
        self.b
            .emit(Op::SHF, &["L", "U32"], [r(one), unit, r(start), rz()])?;
        self.b
            .emit(Op::SEL, &[], [r(lowm), r(one), r(lowm), p(zerop)])?;
        let m = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(m), r(src), r(lowm), rz(), imm(LUT_AND), npt()],
        )?;
        // n = |offset| (1 for offset 0), unsigned.
        let n = self.b.vreg();
        self.b.emit(Op::IABS, &[], [r(n), off])?;
        self.b
            .emit(Op::SEL, &[], [r(n), r(n), imm(1), pnot(zerop)])?;
        let total = self.b.vreg();
        self.b.emit(Op::POPC, &[], [r(total), r(m)])?;
        // Binary search: `rest` shifts right past the low `s` bits when
        // they hold fewer than the `left` set bits still to skip.
        let (rest, left, pos) = (self.b.vreg(), self.b.vreg(), self.b.vreg());
        self.mov(rest, r(m))?;
        self.mov(left, r(n))?;
        self.mov(pos, rz())?;
        for s in [16u32, 8, 4, 2, 1] {
            let (low, cnt, q) = (self.b.vreg(), self.b.vreg(), self.b.vpred());
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [
                    r(low),
                    r(rest),
                    imm32((1u32 << s) - 1),
                    rz(),
                    imm(LUT_AND),
                    npt(),
                ],
            )?;
            self.b.emit(Op::POPC, &[], [r(cnt), r(low)])?;
            self.b.emit(
                Op::ISETP,
                &["LT", "U32", "AND"],
                [p(q), pt(), r(cnt), r(left), pt()],
            )?;
            let (sh, sub, add) = (self.b.vreg(), self.b.vreg(), self.b.vreg());
            self.b.emit(
                Op::SHF,
                &["R", "U32", "HI"],
                [r(sh), rz(), imm(i64::from(s)), r(rest)],
            )?;
            self.b.emit(Op::SEL, &[], [r(rest), r(sh), r(rest), p(q)])?;
            self.b
                .emit(Op::IADD3, &[], [r(sub), r(left), neg(r(cnt)), rz()])?;
            self.b
                .emit(Op::SEL, &[], [r(left), r(sub), r(left), p(q)])?;
            self.b
                .emit(Op::IADD3, &[], [r(add), r(pos), imm(i64::from(s)), rz()])?;
            self.b.emit(Op::SEL, &[], [r(pos), r(add), r(pos), p(q)])?;
        }
        // Reversed search: the position counts down from bit 31.
        let back = self.b.vreg();
        self.b
            .emit(Op::IADD3, &[], [r(back), neg(r(pos)), imm(31), rz()])?;
        self.b
            .emit(Op::SEL, &[], [r(pos), r(back), r(pos), p(negp)])?;
        let none = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["LT", "U32", "AND"],
            [p(none), pt(), r(total), r(n), pt()],
        )?;
        self.b
            .emit(Op::SEL, &[], [r(d), r(pos), imm(-1), pnot(none)])?;
        Ok(())
    }
}
