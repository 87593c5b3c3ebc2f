//! Comparison and selection (PTX ISA 9.7.5, 9.7.6 half-precision compare)
//! and logic and shift (9.7.7).

use super::int::{three, two};
use super::operands::ICx;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::{self, *};
use crate::targets::PtxVersion;

const INT_CMP: &[Mod] = &[Mod::Eq, Mod::Ne, Mod::Lt, Mod::Le, Mod::Gt, Mod::Ge];
const UNSIGNED_CMP: &[Mod] = &[Mod::Lo, Mod::Ls, Mod::Hi, Mod::Hs];
const FLOAT_CMP: &[Mod] = &[
    Mod::Equ,
    Mod::Neu,
    Mod::Ltu,
    Mod::Leu,
    Mod::Gtu,
    Mod::Geu,
    Mod::Num,
    Mod::Nan,
];
const BOOL: &[Mod] = &[Mod::And, Mod::Or, Mod::Xor];
const CMP_TYPES: &[ScalarType] = &[
    B16, B32, B64, U16, U32, U64, S16, S32, S64, F16, F16x2, Bf16, Bf16x2, F32, F64,
];

/// The comparison operator, checked against the operand type: bit types
/// allow only eq/ne; lo/ls/hi/hs are unsigned comparisons; the
/// unordered ones and num/nan are float only (9.7.5.1).
fn cmp_op(c: &mut ICx, t: ScalarType) {
    let all: Vec<Mod> = [INT_CMP, UNSIGNED_CMP, FLOAT_CMP].concat();
    let Some(m) = c.require_one(&all, "a comparison operator") else {
        return;
    };
    let ok = if t.is_float() {
        INT_CMP.contains(&m) || FLOAT_CMP.contains(&m)
    } else if t.is_signed() {
        INT_CMP.contains(&m)
    } else if t.is_int() {
        INT_CMP.contains(&m) || UNSIGNED_CMP.contains(&m)
    } else {
        // bit types: eq and ne only (ptxas 11.8 refuses `setp.lo.b32`:
        // "Mismatch between instruction type and comparison qualifier")
        matches!(m, Mod::Eq | Mod::Ne)
    };
    if !ok {
        c.mod_not_with_type(m, t);
    }
}

/// `set`/`setp` on `.bf16`/`.bf16x2`: PTX 7.8, sm_90 (9.7.6.1/9.7.6.2;
/// ptxas 11.8: "Feature 'setp.bf16' requires .target sm_90 or higher",
/// measured on sm_80 at PTX 7.0 and 7.8).
fn bf16_compare_gate(c: &mut ICx, t: ScalarType) {
    if matches!(t, Bf16 | Bf16x2) {
        let feature = format!("{}{t}", c.name());
        c.need_ptx(&feature, PtxVersion::new(7, 8));
        c.need_sm(&feature, 90);
    }
}

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    let op = c.op();
    match op {
        Setp => {
            let mut allowed: Vec<Mod> = [INT_CMP, UNSIGNED_CMP, FLOAT_CMP, BOOL].concat();
            allowed.push(Mod::Ftz);
            c.allow(&allowed);
            let Some(t) = c.one_type(CMP_TYPES) else {
                return;
            };
            cmp_op(c, t);
            bf16_compare_gate(c, t);
            let combine = c.one_of(BOOL).is_some();
            // `setp.CmpOp{.ftz}.f16`, but `setp.CmpOp.bf16` (9.7.6.3: the
            // bf16 forms take no .ftz)
            if !matches!(t, F32 | F16 | F16x2) {
                c.mod_not_with_type(Mod::Ftz, t);
            }
            let n = if combine { 4 } else { 3 };
            if c.count(n) {
                // Packed halves compare lane-wise into a predicate pair.
                c.pred_dst(0, true, false);
                c.src(1, t);
                c.src(2, t);
                if combine {
                    c.pred_src(3, true);
                }
            }
        }
        Set => {
            let mut allowed: Vec<Mod> = [INT_CMP, UNSIGNED_CMP, FLOAT_CMP, BOOL].concat();
            allowed.push(Mod::Ftz);
            c.allow(&allowed);
            let Some(ts) = c.types_n(&[&[U32, S32, F32, F16, F16x2, Bf16, Bf16x2], CMP_TYPES])
            else {
                return;
            };
            cmp_op(c, ts[1]);
            bf16_compare_gate(c, ts[0]);
            bf16_compare_gate(c, ts[1]);
            let combine = c.one_of(BOOL).is_some();
            // as setp: `.ftz` only with f32 and half sources (ptxas 11.8:
            // "Illegal modifier '.ftz' for instruction 'set'" with .f64)
            if !matches!(ts[1], F32 | F16 | F16x2 | Bf16 | Bf16x2) {
                c.mod_not_with_type(Mod::Ftz, ts[1]);
            }
            let n = if combine { 4 } else { 3 };
            if c.count(n) {
                c.dst(0, ts[0]);
                c.src(1, ts[1]);
                c.src(2, ts[1]);
                if combine {
                    c.pred_src(3, true);
                }
            }
        }
        Selp => {
            c.allow(&[]);
            let Some(t) = c.one_type(&[B16, B32, B64, U16, U32, U64, S16, S32, S64, F32, F64])
            else {
                return;
            };
            if c.count(4) {
                c.dst(0, t);
                c.src(1, t);
                c.src(2, t);
                c.pred_src(3, false);
            }
        }
        Slct => {
            c.allow(&[Mod::Ftz]);
            let Some(ts) = c.types_n(&[
                &[B16, B32, B64, U16, U32, U64, S16, S32, S64, F32, F64],
                &[S32, F32],
            ]) else {
                return;
            };
            if ts[1] != F32 {
                c.mod_not_with_type(Mod::Ftz, ts[1]);
            }
            if c.count(4) {
                c.dst(0, ts[0]);
                c.src(1, ts[0]);
                c.src(2, ts[0]);
                c.src(3, ts[1]);
            }
        }
        And | Or | Xor => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[Pred, B16, B32, B64]) {
                three(c, t);
            }
        }
        Not => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[Pred, B16, B32, B64]) {
                two(c, t);
            }
        }
        Cnot => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[B16, B32, B64]) {
                two(c, t);
            }
        }
        Lop3 => {
            // lop3.b32 d, a, b, c, immLut (9.7.7.6); the predicate-output form
            // `lop3.BoolOp.b32 d|p, a, b, c, immLut, q` needs PTX 8.2.
            c.allow(&[Mod::And, Mod::Or]);
            let Some(t) = c.one_type(&[B32]) else { return };
            let pred_form = c.one_of(&[Mod::And, Mod::Or]).is_some();
            if pred_form {
                c.need_ptx("lop3 with a predicate output", PtxVersion::new(8, 2));
                if c.count(6) {
                    c.dst_with_pred(0, t);
                    lop3_inputs(c, t);
                    c.pred_src(5, true);
                }
            } else if c.count(5) {
                c.dst(0, t);
                lop3_inputs(c, t);
            }
        }
        Shf => {
            c.allow(&[Mod::L, Mod::R, Mod::Wrap, Mod::Clamp]);
            c.require_one(&[Mod::L, Mod::R], "a direction (.l or .r)");
            c.require_one(&[Mod::Wrap, Mod::Clamp], "a mode (.wrap or .clamp)");
            if let Some(t) = c.one_type(&[B32]) {
                if c.count(4) {
                    c.dst(0, t);
                    c.src(1, t);
                    c.src(2, t);
                    c.src(3, U32);
                }
            }
        }
        Shl | Shr => {
            c.allow(&[]);
            let allowed: &[ScalarType] = if op == Shl {
                &[B16, B32, B64]
            } else {
                &[B16, B32, B64, U16, U32, U64, S16, S32, S64]
            };
            if let Some(t) = c.one_type(allowed) {
                if c.count(3) {
                    c.dst(0, t);
                    c.src(1, t);
                    c.src(2, U32);
                }
            }
        }
        _ => unreachable!("not a compare/logic opcode: {op:?}"),
    }
}

fn lop3_inputs(c: &mut ICx, t: ScalarType) {
    c.src(1, t);
    c.src(2, t);
    c.src(3, t);
    // The truth table is an 8-bit immediate.
    let o = c.operand(4);
    match o.kind {
        crate::ptx::ast::OperandKind::Imm(i)
            if i.int_value().is_some_and(|v| (0..=255).contains(&v)) => {}
        _ => {
            let msg = "operand 5 of 'lop3' must be an 8-bit immediate truth table".to_string();
            c.err(o.span, msg);
        }
    }
}
