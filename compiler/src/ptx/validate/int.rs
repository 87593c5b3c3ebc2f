//! Integer arithmetic (PTX ISA 9.7.1, 9.7.2). `add`, `sub`, `mul`, `mad`,
//! `min`, `max`, `abs`, `neg` with a float type go to the float rules.

use super::operands::ICx;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::{self, *};
use crate::targets::PtxVersion;

pub(super) const INTS: &[ScalarType] = &[U16, U32, U64, S16, S32, S64];
const I32_64: &[ScalarType] = &[U32, S32, U64, S64];

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    let op = c.op();
    // Arithmetic shared with floats: decide by the type.
    if matches!(op, Add | Sub | Mul | Mad | Min | Max | Abs | Neg | Div)
        && c.i.ty().is_some_and(|t| t.is_float())
    {
        return super::float::check(c);
    }
    match op {
        Add | Sub => {
            c.allow(&[Mod::Sat, Mod::Cc]);
            let Some(t) = c.one_type(&[U16, U32, U64, S16, S32, S64, U16, S16]) else {
                return;
            };
            // .sat only on .s32 (9.7.1.1); .cc on 32- and 64-bit types (9.7.2.1).
            if c.has(Mod::Sat) && t != S32 {
                c.mod_not_with_type(Mod::Sat, t);
            }
            if c.has(Mod::Cc) && t.bits() < 32 {
                c.mod_not_with_type(Mod::Cc, t);
            }
            three(c, t);
        }
        Mul | Mad => {
            c.allow(&[Mod::Hi, Mod::Lo, Mod::Wide, Mod::Sat, Mod::Cc]);
            let Some(t) = c.one_type(INTS) else { return };
            let Some(mode) =
                c.require_one(&[Mod::Hi, Mod::Lo, Mod::Wide], "one of .hi, .lo or .wide")
            else {
                return;
            };
            // mad.hi.sat.s32 only (9.7.1.4).
            if c.has(Mod::Sat) && (op == Mul || mode != Mod::Hi || t != S32) {
                c.mod_not_with_type(Mod::Sat, t);
            }
            if c.has(Mod::Cc) && (op == Mul || t.bits() < 32) {
                c.mod_not_with_type(Mod::Cc, t);
            }
            let dt = if mode == Mod::Wide {
                match t.widened().filter(|_| t.bits() <= 32) {
                    Some(w) => w,
                    None => return c.mod_not_with_type(Mod::Wide, t),
                }
            } else {
                t
            };
            let n = if op == Mul { 3 } else { 4 };
            if c.count(n) {
                c.dst(0, dt);
                c.src(1, t);
                c.src(2, t);
                if op == Mad {
                    c.src(3, dt);
                }
            }
        }
        Mul24 | Mad24 => {
            c.allow(&[Mod::Hi, Mod::Lo, Mod::Sat]);
            let Some(t) = c.one_type(&[U32, S32]) else {
                return;
            };
            let Some(mode) = c.require_one(&[Mod::Hi, Mod::Lo], "one of .hi or .lo") else {
                return;
            };
            if c.has(Mod::Sat) && (op == Mul24 || mode != Mod::Hi || t != S32) {
                c.mod_not_with_type(Mod::Sat, t);
            }
            if op == Mul24 {
                three(c, t)
            } else {
                four(c, t)
            }
        }
        Sad => {
            c.allow(&[]);
            if let Some(t) = c.one_type(INTS) {
                four(c, t);
            }
        }
        Div | Rem => {
            c.allow(&[]);
            if let Some(t) = c.one_type(INTS) {
                three(c, t);
            }
        }
        Abs | Neg => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[S16, S32, S64]) {
                two(c, t);
            }
        }
        Min | Max => {
            c.allow(&[Mod::Relu]);
            let Some(t) = c.one_type(INTS) else { return };
            if c.has(Mod::Relu) {
                c.mod_not_with_type(Mod::Relu, t);
            }
            three(c, t);
        }
        Popc | Clz => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[B32, B64]) {
                if c.count(2) {
                    c.dst(0, U32);
                    c.src(1, t);
                }
            }
        }
        Bfind => {
            c.allow(&[Mod::Shiftamt]);
            if let Some(t) = c.one_type(I32_64) {
                if c.count(2) {
                    c.dst(0, U32);
                    c.src(1, t);
                }
            }
        }
        Fns => {
            c.allow(&[]);
            if c.one_type(&[B32]).is_some() && c.count(4) {
                c.dst(0, B32);
                c.src(1, B32);
                c.src(2, U32);
                c.src(3, S32);
            }
        }
        Brev => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[B32, B64]) {
                two(c, t);
            }
        }
        Bfe => {
            c.allow(&[]);
            if let Some(t) = c.one_type(I32_64) {
                if c.count(4) {
                    c.dst(0, t);
                    c.src(1, t);
                    c.src(2, U32);
                    c.src(3, U32);
                    field_imms(c, 2..4);
                }
            }
        }
        Bfi => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[B32, B64]) {
                if c.count(5) {
                    c.dst(0, t);
                    c.src(1, t);
                    c.src(2, t);
                    c.src(3, U32);
                    c.src(4, U32);
                    field_imms(c, 3..5);
                }
            }
        }
        Bmsk => {
            c.allow(&[Mod::Clamp, Mod::Wrap]);
            c.require_one(&[Mod::Clamp, Mod::Wrap], "one of .clamp or .wrap");
            if c.one_type(&[B32]).is_some() && c.count(3) {
                c.dst(0, B32);
                c.src(1, U32);
                c.src(2, U32);
            }
        }
        Szext => {
            c.allow(&[Mod::Clamp, Mod::Wrap]);
            c.require_one(&[Mod::Clamp, Mod::Wrap], "one of .clamp or .wrap");
            if let Some(t) = c.one_type(&[U32, S32]) {
                if c.count(3) {
                    c.dst(0, t);
                    c.src(1, t);
                    c.src(2, U32);
                }
            }
        }
        Dp4a | Dp2a => {
            // dp4a.atype.btype d, a, b, c; d and c are .s32 if either input is
            // signed, else .u32 (9.7.1.23).
            if op == Dp2a {
                c.allow(&[Mod::Lo, Mod::Hi]);
                c.require_one(&[Mod::Lo, Mod::Hi], "one of .lo or .hi");
            } else {
                c.allow(&[]);
            }
            let Some(ts) = c.types_n(&[&[U32, S32], &[U32, S32]]) else {
                return;
            };
            let acc = if ts.contains(&S32) { S32 } else { U32 };
            if c.count(4) {
                c.dst(0, acc);
                c.src(1, ts[0]);
                c.src(2, ts[1]);
                c.src(3, acc);
            }
        }
        Addc | Subc => {
            c.allow(&[Mod::Cc]);
            if let Some(t) = c.one_type(I32_64) {
                if t.bits() == 64 {
                    c.need_ptx("addc/subc .u64", PtxVersion::new(4, 3));
                }
                three(c, t);
            }
        }
        Madc => {
            c.allow(&[Mod::Hi, Mod::Lo, Mod::Cc]);
            c.require_one(&[Mod::Hi, Mod::Lo], "one of .hi or .lo");
            if let Some(t) = c.one_type(I32_64) {
                four(c, t);
            }
        }
        _ => unreachable!("not an integer opcode: {op:?}"),
    }
}

pub(super) fn two(c: &mut ICx, t: ScalarType) {
    if c.count(2) {
        c.dst(0, t);
        c.src(1, t);
    }
}

pub(super) fn three(c: &mut ICx, t: ScalarType) {
    if c.count(3) {
        c.dst(0, t);
        c.src(1, t);
        c.src(2, t);
    }
}

pub(super) fn four(c: &mut ICx, t: ScalarType) {
    if c.count(4) {
        c.dst(0, t);
        c.src(1, t);
        c.src(2, t);
        c.src(3, t);
    }
}

/// `bfe`/`bfi` position and length immediates must lie in 0..=255, as
/// ptxas 11.8 requires ("Argument 2 of instruction 'bfe': value
/// '1764753428' out of range, expected to be in range [0..255]"); the ISA
/// only says the hardware uses their low 8 bits. Registers are not checked.
fn field_imms(c: &mut ICx, operands: std::ops::Range<usize>) {
    use crate::ptx::ast::OperandKind;
    for k in operands {
        let o = c.operand(k);
        if let OperandKind::Imm(imm) = &o.kind {
            let v = imm.int_value().unwrap_or(0);
            if !(0..=255).contains(&v) {
                let msg = format!(
                    "argument {k} of instruction '{}': value '{v}' out of range, expected to be in range [0..255]",
                    c.name()
                );
                c.err(o.span, msg);
            }
        }
    }
}
