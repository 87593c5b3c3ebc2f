//! One-instruction rewrites: constant folding, algebraic identities and
//! strength reduction (docs/MODEL.md, Early peephole driver: `constant_fold` and
//! `strength_reduce`).
//!
//! [`simplify`] looks at one instruction whose sources copy propagation may
//! already have replaced by immediates and `RZ`, and returns what replaces
//! it, or `None`. Every rule keeps the instruction's guard and
//! destinations, and computes exactly what the SASS simulator's semantics
//! compute (oracle `sim/exec/int.rs`, `sim/semantics/fp32.rs`):
//!
//! | rule | source of the semantics |
//! |---|---|
//! | `IADD3 d, a, b, c` with three known terms -> `MOV d, a+b+c` (mod 2^32; `-x` is two's complement) | IADD3 without `.X`, carries, or carry-ins |
//! | `IADD3 d, x, 0, 0` -> `MOV d, x`; several immediates summed into one | same |
//! | `IMAD d, a, b, c` (plain, `.MOV`, `.SHL`, `.IADD`: all `a*b+c`) with known terms -> `MOV`; `a*0+c` -> `MOV d, c`; `x*1+0` -> `MOV d, x` | sim: "`.MOV`, `.SHL`, `.IADD` are the plain formula" |
//! | `IMAD d, x, 2^k, RZ` -> `IMAD.SHL.U32 d, x, 2^k, RZ` (ptxas' own form of a shift) | same formula |
//! | `LOP3.LUT d, a, b, c, lut, p` with known sources (no predicate destination) -> `MOV d, lut(a,b,c)` | `ptxc::int::lop3`: LUT bit i = f(a_i, b_i, c_i), index `a<<2|b<<1|c` applied to 0xf0/0xcc/0xaa |
//! | `SHF` with known sources -> `MOV` | the 64-bit funnel `ptxc::int::funnel_shift`, which the simulator executes |
//! | `SEL d, a, b, PT` -> `MOV d, a`; `!PT` -> `MOV d, b` | select |
//! | `FADD`/`FMUL`/`FFMA` with known sources -> `MOV d, bits` | `ptxc::float::fp32` with the instruction's rounding, `.FTZ` and `.SAT` |
//!
//! Floats are folded only when every source is a known constant and
//! neither a source nor the result is a NaN (no NaN payload question
//! arises), with no `.D2`..`.M8` scaling. No float identity is applied to
//! a non-constant source: `x + 0.0 -> x` is wrong for `x = -0.0` (the sum
//! is `+0.0`) and for a NaN `x` (FADD returns the canonical NaN, not `x`'s
//! payload); `x * 0 -> 0` is wrong for infinities and NaN; `x * 1.0 -> x`
//! is wrong for NaN payloads and under `.FTZ`.

use crate::float::{fp32, FloatType, Mods, Rounding};
use crate::int::{self, Funnel};
use crate::ir::inst::{Inst, Operand};
use crate::ir::opcode::Op;
use crate::ir::sass_text::{float_imm_bits, FloatImmType, Pred, Reg, RegOperand};

/// A known 32-bit integer source: `RZ`/`URZ` or an integer immediate, with
/// the integer source modifiers applied (`-x`, `~x`, `|x|`).
pub fn int_value(o: &Operand) -> Option<u32> {
    match o {
        Operand::Reg(r) if matches!(r.reg, Reg::Rz | Reg::Urz) && r.sel.is_none() => {
            Some(apply_int(0, r.neg, r.not, r.abs))
        }
        Operand::Imm(v) => Some(*v as u32),
        _ => None,
    }
}

fn apply_int(v: u32, neg: bool, not: bool, abs: bool) -> u32 {
    let mut v = if neg { v.wrapping_neg() } else { v };
    if not {
        v = !v;
    }
    if abs {
        v = (v as i32).unsigned_abs();
    }
    v
}

/// A known f32 source (bits), modifiers applied; `None` for NaN or unknown.
fn f32_value(o: &Operand) -> Option<u32> {
    let (bits, neg, abs) = match o {
        Operand::Reg(r) if matches!(r.reg, Reg::Rz | Reg::Urz) && r.sel.is_none() && !r.not => {
            (0u32, r.neg, r.abs)
        }
        Operand::Imm(v) => (*v as u32, false, false),
        // The simulator's reading of a float immediate (one reader for both;
        // a `QNAN` operand folds to a NaN, which is never folded below).
        Operand::FloatImm(t) => (
            float_imm_bits(t, FloatImmType::F32).ok()? as u32,
            false,
            false,
        ),
        _ => return None,
    };
    let mut b = bits;
    if abs {
        b &= 0x7fff_ffff;
    }
    if neg {
        b ^= 0x8000_0000;
    }
    (!FloatType::F32.is_nan(u64::from(b))).then_some(b)
}

fn rounding(inst: &Inst) -> Rounding {
    if inst.has_mod("RZ") {
        Rounding::Rz
    } else if inst.has_mod("RM") {
        Rounding::Rm
    } else if inst.has_mod("RP") {
        Rounding::Rp
    } else {
        Rounding::Rn
    }
}

/// A register operand with no modifiers.
pub fn plain(r: Reg) -> Operand {
    Operand::Reg(RegOperand {
        reg: r,
        neg: false,
        not: false,
        abs: false,
        reuse: false,
        sel: None,
    })
}

/// Whether `o` is a register with no source modifier.
pub fn is_plain_reg(o: &Operand) -> bool {
    matches!(o, Operand::Reg(r) if !r.neg && !r.not && !r.abs && r.sel.is_none())
}

/// `MOV dst, src` with `inst`'s guard (UMOV for a uniform destination).
pub fn mov_like(inst: &Inst, dst: Operand, src: Operand) -> Option<Inst> {
    let op = match &dst {
        Operand::Reg(r) if matches!(r.reg, Reg::Ur(_) | Reg::Uv(_)) => Op::UMOV,
        Operand::Reg(_) => Op::MOV,
        _ => return None,
    };
    Inst::new(op, &[], inst.guard, [dst, src]).ok()
}

fn dst_is_single_reg(inst: &Inst) -> bool {
    inst.ndst == 1 && matches!(inst.operands[0], Operand::Reg(_))
}

/// Whether every modifier of `inst` is in `ok`.
fn mods_within(inst: &Inst, ok: &[&str]) -> bool {
    inst.mods.iter().all(|m| ok.contains(m))
}

fn mov_imm(inst: &Inst, v: u32) -> Option<Inst> {
    mov_like(inst, inst.operands[0].clone(), Operand::Imm(i64::from(v)))
}

/// The replacement of `inst`, or `None` (see the module comment).
pub fn simplify(inst: &Inst) -> Option<Inst> {
    simplify_with(inst, &|_| None)
}

/// [`simplify`], with `known` giving the constant a register holds (from
/// available constant facts), if any.
pub fn simplify_with(inst: &Inst, known: &dyn Fn(Reg) -> Option<u32>) -> Option<Inst> {
    let int_value = |o: &Operand| -> Option<u32> {
        int_value(o).or_else(|| match o {
            Operand::Reg(r) if r.sel.is_none() => {
                Some(apply_int(known(r.reg)?, r.neg, r.not, r.abs))
            }
            _ => None,
        })
    };
    let f32_value = |o: &Operand| -> Option<u32> {
        f32_value(o).or_else(|| match o {
            Operand::Reg(r) if r.sel.is_none() && !r.not => {
                let mut b = known(r.reg)?;
                if r.abs {
                    b &= 0x7fff_ffff;
                }
                if r.neg {
                    b ^= 0x8000_0000;
                }
                (!FloatType::F32.is_nan(u64::from(b))).then_some(b)
            }
            _ => None,
        })
    };
    let s = inst.srcs();
    match inst.op {
        Op::IADD3 if dst_is_single_reg(inst) && s.len() == 3 && inst.mods.is_empty() => {
            let known: Vec<Option<u32>> = s.iter().map(int_value).collect();
            if known.iter().all(Option::is_some) {
                let v = known.iter().fold(0u32, |a, k| a.wrapping_add(k.unwrap()));
                return mov_imm(inst, v);
            }
            let regs: Vec<&Operand> = s
                .iter()
                .zip(&known)
                .filter(|(_, k)| k.is_none())
                .map(|(o, _)| o)
                .collect();
            let sum = known.iter().flatten().fold(0u32, |a, k| a.wrapping_add(*k));
            if regs.len() == 1 && sum == 0 && is_plain_reg(regs[0]) {
                return mov_like(inst, inst.operands[0].clone(), regs[0].clone());
            }
            // Known terms summed into one immediate (in the second slot,
            // where SASS encodes it), when that changes anything.
            let folded_regs = s
                .iter()
                .filter(|o| self::int_value(o).is_none() && int_value(o).is_some())
                .count();
            let nimm = s.iter().filter(|o| matches!(o, Operand::Imm(_))).count();
            if (folded_regs > 0 || nimm >= 2)
                && !regs.is_empty()
                && regs.len() + usize::from(sum != 0) <= 3
                && regs.iter().all(|o| matches!(o, Operand::Reg(_)))
            {
                let mut srcs: Vec<Operand> = vec![regs[0].clone()];
                if sum != 0 {
                    srcs.push(Operand::Imm(i64::from(sum as i32)));
                }
                srcs.extend(regs[1..].iter().map(|o| (*o).clone()));
                while srcs.len() < 3 {
                    srcs.push(plain(Reg::Rz));
                }
                let mut ops = vec![inst.operands[0].clone()];
                ops.extend(srcs);
                return Inst::new(Op::IADD3, &[], inst.guard, ops).ok();
            }
            None
        }
        Op::IMAD
            if dst_is_single_reg(inst)
                && s.len() == 3
                && mods_within(inst, &["MOV", "SHL", "IADD", "U32"]) =>
        {
            let (a, b, c) = (int_value(&s[0]), int_value(&s[1]), int_value(&s[2]));
            if let (Some(a), Some(b), Some(c)) = (a, b, c) {
                return mov_imm(inst, a.wrapping_mul(b).wrapping_add(c));
            }
            if a == Some(0) || b == Some(0) {
                if let Some(c) = c {
                    return mov_imm(inst, c);
                }
                if is_plain_reg(&s[2]) && !inst.has_mod("MOV") {
                    return mov_like(inst, inst.operands[0].clone(), s[2].clone());
                }
                return None;
            }
            let (x, k) = match (a, b) {
                (None, Some(k)) => (&s[0], k),
                (Some(k), None) => (&s[1], k),
                _ => return None,
            };
            if c == Some(0) && k == 1 && is_plain_reg(x) {
                return mov_like(inst, inst.operands[0].clone(), x.clone());
            }
            let shl = inst.has_mod("SHL") && inst.has_mod("U32") && inst.mods.len() == 2;
            if c == Some(0) && k.is_power_of_two() && k > 1 && !shl && matches!(x, Operand::Reg(_))
            {
                return Inst::new(
                    Op::IMAD,
                    &["SHL", "U32"],
                    inst.guard,
                    [
                        inst.operands[0].clone(),
                        x.clone(),
                        Operand::Imm(i64::from(k)),
                        plain(Reg::Rz),
                    ],
                )
                .ok();
            }
            None
        }
        Op::LOP3 if inst.mods.as_slice() == ["LUT"] => {
            // `[P] R = S S S I P`: no predicate destination (or PT).
            let dst = inst
                .dsts()
                .iter()
                .position(|o| matches!(o, Operand::Reg(_)))?;
            if inst
                .dsts()
                .iter()
                .any(|o| matches!(o, Operand::Pred { pred, .. } if !matches!(pred, Pred::Pt)))
            {
                return None;
            }
            let (a, b, c) = (int_value(&s[0])?, int_value(&s[1])?, int_value(&s[2])?);
            let Operand::Imm(lut) = s[3] else { return None };
            let r = int::lop3(a, b, c, lut as u8);
            mov_like(inst, inst.operands[dst].clone(), Operand::Imm(i64::from(r)))
        }
        Op::SHF if dst_is_single_reg(inst) => {
            let (lo, sh, hi) = (int_value(&s[0])?, int_value(&s[1])?, int_value(&s[2])?);
            let left = inst.has_mod("L");
            if !left && !inst.has_mod("R") {
                return None;
            }
            let wide = inst.has_mod("U64") || inst.has_mod("S64");
            let signed = inst.has_mod("S32") || inst.has_mod("S64");
            let f = Funnel {
                left,
                hi_out: inst.has_mod("HI"),
                wrap: inst.has_mod("W"),
                wide,
                signed,
            };
            let r = int::funnel_shift(lo, hi, sh, f);
            mov_imm(inst, r)
        }
        Op::SEL if dst_is_single_reg(inst) => match s[2] {
            Operand::Pred {
                pred: Pred::Pt,
                not,
            } => mov_like(
                inst,
                inst.operands[0].clone(),
                if not { s[1].clone() } else { s[0].clone() },
            ),
            _ => None,
        },
        Op::FADD | Op::FMUL | Op::FFMA
            if dst_is_single_reg(inst)
                && mods_within(inst, &["FTZ", "SAT", "RN", "RZ", "RM", "RP"]) =>
        {
            let v: Vec<u32> = s.iter().map(f32_value).collect::<Option<_>>()?;
            let m = Mods {
                ftz: inst.has_mod("FTZ"),
                sat: inst.has_mod("SAT"),
            };
            let rnd = rounding(inst);
            let r = match inst.op {
                Op::FADD => fp32::add(v[0], v[1], rnd, m),
                Op::FMUL => fp32::mul(v[0], v[1], rnd, m),
                _ => fp32::fma(v[0], v[1], v[2], rnd, m),
            };
            if FloatType::F32.is_nan(u64::from(r)) {
                return None;
            }
            mov_imm(inst, r)
        }
        _ => None,
    }
}
