//! Integer, bit, logic, shift, comparison and selection instructions
//! (PTX ISA 9.7.1, 9.7.2, 9.7.5, 9.7.7). The arithmetic itself is in
//! `ptxc::int`; this file decodes modifiers and moves values.

use super::{extend, mask, Ctx};
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::program::{Inst, Opnd};
use crate::ptx_interp::result::UbKind;
use ptxc::int::{self as s, IntCmp, IntTy, PrmtMode};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

pub fn ity(t: ScalarType) -> IntTy {
    IntTy::new(t.bits().clamp(8, 64), t.is_signed())
}

fn int_cmp(i: &Inst) -> Option<IntCmp> {
    let m = &i.mods;
    Some(if m.has(Mod::Eq) {
        IntCmp::Eq
    } else if m.has(Mod::Ne) {
        IntCmp::Ne
    } else if m.has(Mod::Lt) {
        IntCmp::Lt
    } else if m.has(Mod::Le) {
        IntCmp::Le
    } else if m.has(Mod::Gt) {
        IntCmp::Gt
    } else if m.has(Mod::Ge) {
        IntCmp::Ge
    } else if m.has(Mod::Lo) {
        IntCmp::Lo
    } else if m.has(Mod::Ls) {
        IntCmp::Ls
    } else if m.has(Mod::Hi) {
        IntCmp::Hi
    } else if m.has(Mod::Hs) {
        IntCmp::Hs
    } else {
        return None;
    })
}

/// Combines a comparison with the optional boolean operation and predicate
/// `c`, then writes setp's one or two predicates or set's value:
/// p = cmp BOOL c, q = !cmp BOOL c (docs/SEMANTICS.md, Comparisons: "setp with two
/// destinations"); set writes 0xffffffff or 1.0f for true.
pub fn finish_compare(
    cx: &mut Ctx,
    i: &Inst,
    lo: bool,
    hi: bool,
    packed: bool,
) -> Result<(), Stop> {
    let combine = |cx: &mut Ctx, v: bool| -> Result<bool, Stop> {
        if i.ops.len() < 4 {
            return Ok(v);
        }
        let c = cx.pred(&i.ops[3])?;
        Ok(if i.mods.has(Mod::And) {
            v && c
        } else if i.mods.has(Mod::Or) {
            v || c
        } else {
            v ^ c
        })
    };
    if i.op == Opcode::Set {
        let r = combine(cx, lo)?;
        // set writes 1.0 in a float destination, all ones in an integer one
        // (9.7.5.2); packed halves get one result per lane.
        let one = |t: ScalarType, v: bool| -> u64 {
            match (t, v) {
                (_, false) => 0,
                (ScalarType::F32, true) => u64::from(1.0f32.to_bits()),
                (ScalarType::F16 | ScalarType::F16x2, true) => 0x3c00,
                (ScalarType::Bf16 | ScalarType::Bf16x2, true) => 0x3f80,
                _ => u64::MAX,
            }
        };
        let v = if matches!(i.ty, ScalarType::F16x2 | ScalarType::Bf16x2) {
            let hi_r = combine(cx, hi)?;
            one(i.ty, r) | (one(i.ty, hi_r) << 16)
        } else {
            one(i.ty, r)
        };
        return cx.set_typed(&i.ops[0], i.ty, v);
    }
    match &i.ops[0] {
        Opnd::RegPred(p, q) => {
            let (pv, qv) = if packed {
                (combine(cx, lo)?, combine(cx, hi)?)
            } else {
                (combine(cx, lo)?, combine(cx, !lo)?)
            };
            cx.set(
                &Opnd::Pred {
                    slot: *p,
                    neg: false,
                },
                u64::from(pv),
            )?;
            cx.set(
                &Opnd::Pred {
                    slot: *q,
                    neg: false,
                },
                u64::from(qv),
            )
        }
        d => {
            let v = combine(cx, lo)?;
            cx.set(d, u64::from(v))
        }
    }
}

pub fn exec(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    use Opcode::*;
    let t = i.ty;
    let it = ity(t);
    let n = i.ops.len();
    let get = |cx: &mut Ctx, k: usize| -> Result<u64, Stop> { cx.get(&i.ops[k]) };
    let a = if n > 1 { get(cx, 1)? } else { 0 };
    let b = if n > 2 { get(cx, 2)? } else { 0 };
    let has = |m: Mod| i.mods.has(m);
    let dst = &i.ops[0];
    let r: u64 = match i.op {
        Add | Sub => {
            if t == ScalarType::Pred {
                return Err(Stop::fault("add on predicates"));
            }
            if has(Mod::Cc) {
                let (v, c) = if i.op == Add {
                    s::add_cc(it, a, b, false)
                } else {
                    s::sub_cc(it, a, b, true)
                };
                cx.th().carry = c;
                v
            } else if has(Mod::Sat) {
                if i.op == Add {
                    s::add_sat_s32(a, b)
                } else {
                    s::sub_sat_s32(a, b)
                }
            } else if i.op == Add {
                s::add(it, a, b)
            } else {
                s::sub(it, a, b)
            }
        }
        Addc | Subc => {
            let cin = cx.th().carry;
            let (v, c) = if i.op == Addc {
                s::add_cc(it, a, b, cin)
            } else {
                s::sub_cc(it, a, b, cin)
            };
            if has(Mod::Cc) {
                cx.th().carry = c;
            }
            v
        }
        Mul => {
            if has(Mod::Wide) {
                let wt = t.widened().unwrap_or(t);
                return cx.set_typed(dst, wt, s::mul_wide(it, a, b));
            } else if has(Mod::Hi) {
                s::mul_hi(it, a, b)
            } else {
                s::mul_lo(it, a, b)
            }
        }
        Mad | Madc => {
            let c = get(cx, 3)?;
            if i.op == Madc || has(Mod::Cc) {
                let cin = if i.op == Madc { cx.th().carry } else { false };
                let (v, co) = s::mad_cc(it, has(Mod::Hi), a, b, c, cin);
                if has(Mod::Cc) {
                    cx.th().carry = co;
                }
                v
            } else if has(Mod::Wide) {
                let wt = t.widened().unwrap_or(t);
                return cx.set_typed(dst, wt, s::mad_wide(it, a, b, c));
            } else if has(Mod::Hi) {
                if has(Mod::Sat) {
                    s::mad_hi_sat_s32(a, b, c)
                } else {
                    s::mad_hi(it, a, b, c)
                }
            } else {
                s::mad_lo(it, a, b, c)
            }
        }
        Mul24 => {
            if has(Mod::Hi) {
                s::mul24_hi(it, a, b)
            } else {
                s::mul24_lo(it, a, b)
            }
        }
        Mad24 => {
            let c = get(cx, 3)?;
            if has(Mod::Hi) {
                if has(Mod::Sat) {
                    s::mad24_hi_sat_s32(a, b, c)
                } else {
                    s::mad24_hi(it, a, b, c)
                }
            } else {
                s::mad24_lo(it, a, b, c)
            }
        }
        Sad => {
            let c = get(cx, 3)?;
            s::sad(it, a, b, c)
        }
        Div | Rem => {
            let r = if i.op == Div {
                s::div(it, a, b)
            } else {
                s::rem(it, a, b)
            };
            r.ok_or(Stop::ub(UbKind::DivisionByZero))?
        }
        Abs => s::abs(it, a),
        Neg => s::neg(it, a),
        Min => {
            if has(Mod::Relu) {
                s::min_relu_s32(a, b)
            } else {
                s::min(it, a, b)
            }
        }
        Max => {
            if has(Mod::Relu) {
                s::max_relu_s32(a, b)
            } else {
                s::max(it, a, b)
            }
        }
        Popc => return cx.set_typed(dst, ScalarType::U32, s::popc(it, a)),
        Clz => return cx.set_typed(dst, ScalarType::U32, s::clz(it, a)),
        Bfind => return cx.set_typed(dst, ScalarType::U32, s::bfind(it, a, has(Mod::Shiftamt))),
        Fns => {
            let c = get(cx, 3)?;
            u64::from(s::fns(a as u32, b as u32, c as u32 as i32))
        }
        Brev => s::brev(it, a),
        Bfe => {
            let c = get(cx, 3)?;
            s::bfe(it, a, b as u32, c as u32)
        }
        Bfi => {
            let c = get(cx, 3)?;
            let d = get(cx, 4)?;
            s::bfi(it, a, b, c as u32, d as u32)
        }
        Bmsk => u64::from(s::bmsk(a as u32, b as u32, has(Mod::Clamp))),
        Szext => u64::from(s::szext(t.is_signed(), a as u32, b as u32, has(Mod::Clamp))),
        Dp4a | Dp2a => {
            let c = get(cx, 3)? as u32;
            let (sa, sb) = (i.ty.is_signed(), i.ty2.is_signed());
            let acc = if sa || sb {
                ScalarType::S32
            } else {
                ScalarType::U32
            };
            let v = if i.op == Dp4a {
                s::dp4a(sa, sb, a as u32, b as u32, c)
            } else {
                s::dp2a(has(Mod::Hi), sa, sb, a as u32, b as u32, c)
            };
            return cx.set_typed(dst, acc, u64::from(v));
        }
        And | Or | Xor | Not | Cnot if t == ScalarType::Pred => {
            let (x, y) = (a & 1, b & 1);
            match i.op {
                And => x & y,
                Or => x | y,
                Xor => x ^ y,
                Not => x ^ 1,
                _ => u64::from(x == 0),
            }
        }
        And => s::and(it, a, b),
        Or => s::or(it, a, b),
        Xor => s::xor(it, a, b),
        Not => s::not(it, a),
        Cnot => s::cnot(it, a),
        Lop3 => {
            let c = get(cx, 3)?;
            let lut = get(cx, 4)?;
            u64::from(s::lop3(a as u32, b as u32, c as u32, lut as u8))
        }
        Shf => {
            let c = get(cx, 3)?;
            let wrap = has(Mod::Wrap);
            u64::from(if has(Mod::L) {
                s::shf_l(a as u32, b as u32, c as u32, wrap)
            } else {
                s::shf_r(a as u32, b as u32, c as u32, wrap)
            })
        }
        Shl => s::shl(it, a, b as u32),
        Shr => s::shr(it, a, b as u32),
        Prmt => {
            let c = get(cx, 3)?;
            let mode = if has(Mod::F4e) {
                PrmtMode::F4e
            } else if has(Mod::B4e) {
                PrmtMode::B4e
            } else if has(Mod::Rc8) {
                PrmtMode::Rc8
            } else if has(Mod::Ecl) {
                PrmtMode::Ecl
            } else if has(Mod::Ecr) {
                PrmtMode::Ecr
            } else if has(Mod::Rc16) {
                PrmtMode::Rc16
            } else {
                PrmtMode::Default
            };
            u64::from(s::prmt(a as u32, b as u32, c as u32, mode))
        }
        Selp => {
            let c = cx.pred(&i.ops[3])?;
            if c {
                a
            } else {
                b
            }
        }
        Slct => {
            // slct.dtype.s32 d, a, b, c: d = c >= 0 ? a : b (9.7.5.4).
            let c = get(cx, 3)?;
            if (c as u32 as i32) >= 0 {
                a
            } else {
                b
            }
        }
        Setp | Set => {
            let st = if i.op == Set { i.ty2 } else { t };
            let op = int_cmp(i).ok_or_else(|| Stop::fault("missing comparison"))?;
            let v = s::compare(ity(st), op, mask(st.bits(), a), mask(st.bits(), b));
            return finish_compare(cx, i, v, v, false);
        }
        _ => {
            return Err(Stop::fault(format!(
                "'{}' is not implemented by the interpreter",
                i.text
            )))
        }
    };
    cx.set(dst, extend(t, r))
}
