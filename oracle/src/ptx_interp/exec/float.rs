//! Floating-point instructions, comparisons on floats, and every `cvt`
//! (PTX ISA 9.7.3, 9.7.4, 9.7.5, 9.7.9.21). All arithmetic goes through the
//! bit-exact helpers in `ptxc::float`, which the SASS simulator shares.
//! add/sub/mul without a rounding modifier round to nearest even, each on its
//! own (never fused: kernels README "Contraction").

use super::{extend, mask, sext, Ctx};
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::program::Inst;
use ptxc::float::{
    self, approx, arith, packed, CmpOp, CvtMods, FloatType, IntType, MinMaxMods, Mods, Rounding,
    TestpOp,
};
use ptxc::int::{saturate, IntTy};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

pub fn fty(t: ScalarType) -> Option<FloatType> {
    Some(match t {
        ScalarType::F16 | ScalarType::F16x2 => FloatType::F16,
        ScalarType::Bf16 | ScalarType::Bf16x2 => FloatType::Bf16,
        ScalarType::F32 => FloatType::F32,
        ScalarType::F64 => FloatType::F64,
        _ => return None,
    })
}

fn ity(t: ScalarType) -> Option<IntType> {
    use ScalarType::*;
    Some(match t {
        U8 | B8 => IntType::U8,
        U16 | B16 => IntType::U16,
        U32 | B32 => IntType::U32,
        U64 | B64 => IntType::U64,
        S8 => IntType::S8,
        S16 => IntType::S16,
        S32 => IntType::S32,
        S64 => IntType::S64,
        _ => return None,
    })
}

fn packed_ty(t: ScalarType) -> bool {
    matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2)
}

pub fn cmp_op(i: &Inst) -> Option<CmpOp> {
    let m = &i.mods;
    Some(if m.has(Mod::Eq) {
        CmpOp::Eq
    } else if m.has(Mod::Ne) {
        CmpOp::Ne
    } else if m.has(Mod::Lt) {
        CmpOp::Lt
    } else if m.has(Mod::Le) {
        CmpOp::Le
    } else if m.has(Mod::Gt) {
        CmpOp::Gt
    } else if m.has(Mod::Ge) {
        CmpOp::Ge
    } else if m.has(Mod::Equ) {
        CmpOp::Equ
    } else if m.has(Mod::Neu) {
        CmpOp::Neu
    } else if m.has(Mod::Ltu) {
        CmpOp::Ltu
    } else if m.has(Mod::Leu) {
        CmpOp::Leu
    } else if m.has(Mod::Gtu) {
        CmpOp::Gtu
    } else if m.has(Mod::Geu) {
        CmpOp::Geu
    } else if m.has(Mod::Num) {
        CmpOp::Num
    } else if m.has(Mod::Nan) {
        CmpOp::Nan
    } else {
        return None;
    })
}

/// Applies a lane function to a scalar or, for `.f16x2`/`.bf16x2`, lane-wise.
fn lanes(t: ScalarType, a: u64, b: u64, c: u64, f: impl Fn(u64, u64, u64) -> u64) -> u64 {
    if packed_ty(t) {
        u64::from(packed::ternary_x2(a as u32, b as u32, c as u32, f))
    } else {
        f(a, b, c)
    }
}

pub fn exec(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    use Opcode::*;
    let t = i.ty;
    let Some(ft) = fty(t) else {
        return Err(Stop::fault(format!("'{}' has no float type", i.text)));
    };
    let rnd = i.rnd.unwrap_or(Rounding::Rn);
    let ftz = i.mods.has(Mod::Ftz);
    let m = Mods {
        ftz,
        sat: i.mods.has(Mod::Sat),
    };
    let a = if i.ops.len() > 1 {
        mask(t.bits(), cx.get(&i.ops[1])?)
    } else {
        0
    };
    let b = if i.ops.len() > 2 {
        mask(t.bits(), cx.get(&i.ops[2])?)
    } else {
        0
    };
    let c = if i.ops.len() > 3 {
        mask(t.bits(), cx.get(&i.ops[3])?)
    } else {
        0
    };
    let approx = i.mods.has(Mod::Approx);
    let r: u64 = match i.op {
        Add => lanes(t, a, b, 0, |x, y, _| arith::add(ft, x, y, rnd, m)),
        Sub => lanes(t, a, b, 0, |x, y, _| arith::sub(ft, x, y, rnd, m)),
        Mul => lanes(t, a, b, 0, |x, y, _| arith::mul(ft, x, y, rnd, m)),
        Fma | Mad => {
            let relu = i.mods.has(Mod::Relu);
            lanes(t, a, b, c, |x, y, z| {
                let r = arith::fma(ft, x, y, z, rnd, m);
                if relu {
                    float::cvt_float(
                        ft,
                        ft,
                        r,
                        Rounding::Rn,
                        CvtMods {
                            relu: true,
                            ..Default::default()
                        },
                    )
                } else {
                    r
                }
            })
        }
        Div => match (ft, approx, i.mods.has(Mod::Full)) {
            (FloatType::F32, true, _) => u64::from(approx::div_approx_f32(a as u32, b as u32, ftz)),
            (FloatType::F32, _, true) => u64::from(approx::div_full_f32(a as u32, b as u32, ftz)),
            _ => arith::div(ft, a, b, rnd, m),
        },
        Abs => lanes(t, a, 0, 0, |x, _, _| float::abs(ft, x, ftz)),
        Neg => lanes(t, a, 0, 0, |x, _, _| float::neg(ft, x, ftz)),
        Min | Max => {
            let mm = MinMaxMods {
                ftz,
                nan: i.mods.has(Mod::NaNProp),
                xorsign_abs: i.mods.has(Mod::Xorsign),
            };
            let is_min = i.op == Min;
            let f = |x, y| {
                if is_min {
                    float::min(ft, x, y, mm)
                } else {
                    float::max(ft, x, y, mm)
                }
            };
            let r = lanes(t, a, b, 0, |x, y, _| f(x, y));
            if i.ops.len() == 4 {
                lanes(t, r, c, 0, |x, y, _| f(x, y))
            } else {
                r
            }
        }
        Rcp => match (ft, approx) {
            (FloatType::F32, true) => u64::from(approx::rcp_approx_f32(a as u32, ftz)),
            (FloatType::F64, true) => approx::rcp_approx_ftz_f64(a),
            _ => arith::rcp(ft, a, rnd, m),
        },
        Sqrt => match (ft, approx) {
            (FloatType::F32, true) => u64::from(approx::sqrt_approx_f32(a as u32, ftz)),
            _ => arith::sqrt(ft, a, rnd, m),
        },
        Rsqrt => match ft {
            FloatType::F64 if ftz => approx::rsqrt_approx_ftz_f64(a),
            FloatType::F64 => approx::rsqrt_approx_f64(a),
            _ => u64::from(approx::rsqrt_approx_f32(a as u32, ftz)),
        },
        Sin => u64::from(approx::sin_approx_f32(a as u32, ftz)),
        Cos => u64::from(approx::cos_approx_f32(a as u32, ftz)),
        Lg2 => u64::from(approx::lg2_approx_f32(a as u32, ftz)),
        Ex2 => match ft {
            FloatType::F16 => lanes(t, a, 0, 0, |x, _, _| {
                u64::from(approx::ex2_approx_f16(x as u16))
            }),
            FloatType::Bf16 => lanes(t, a, 0, 0, |x, _, _| {
                u64::from(approx::ex2_approx_ftz_bf16(x as u16))
            }),
            _ => u64::from(approx::ex2_approx_f32(a as u32, ftz)),
        },
        Tanh => match ft {
            FloatType::F16 => lanes(t, a, 0, 0, |x, _, _| {
                u64::from(approx::tanh_approx_f16(x as u16))
            }),
            FloatType::Bf16 => lanes(t, a, 0, 0, |x, _, _| {
                u64::from(approx::tanh_approx_bf16(x as u16))
            }),
            _ => u64::from(approx::tanh_approx_f32(a as u32)),
        },
        Copysign => float::copysign(ft, a, b),
        Testp => {
            let op = if i.mods.has(Mod::Finite) {
                TestpOp::Finite
            } else if i.mods.has(Mod::Infinite) {
                TestpOp::Infinite
            } else if i.mods.has(Mod::Number) {
                TestpOp::Number
            } else if i.mods.has(Mod::Notanumber) {
                TestpOp::NotANumber
            } else if i.mods.has(Mod::Normal) {
                TestpOp::Normal
            } else {
                TestpOp::Subnormal
            };
            return cx.set(&i.ops[0], u64::from(float::testp(ft, op, a)));
        }
        _ => {
            return Err(Stop::fault(format!(
                "'{}' is not a float instruction the interpreter knows",
                i.text
            )))
        }
    };
    cx.set_typed(&i.ops[0], t, r)
}

/// `cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}`: PTX ISA, "Data
/// Movement and Conversion Instructions: cvt.pack"
/// (#data-movement-and-conversion-instructions-cvt-pack). Its semantics:
///
/// ```text
/// ta = a < MIN(convertType) ? MIN(convertType) : a;
/// ta = a > MAX(convertType) ? MAX(convertType) : a;
/// tb = b < MIN(convertType) ? MIN(convertType) : b;
/// tb = b > MAX(convertType) ? MAX(convertType) : b;
/// size = sizeInBits(convertType);
/// td = tb;
/// for (i = size; i <= 2 * size - 1; i++) td[i] = ta[i - size];
/// if (isU16(convertType) || isS16(convertType)) d = td;
/// else { d[0 .. 2*size-1] = td[0 .. 2*size-1];
///        d[2*size .. 31] = c[0 .. 31 - 2*size]; }
/// ```
///
/// Read literally, each second line overwrites the first, so a value below
/// MIN would pass unclamped; the ISA's text says otherwise ("The inputs a
/// and b are converted to values of type specified by .convertType with
/// saturation"; ".sat modifier limits the converted values to
/// MIN(convertType).. MAX(convertedType) (no overflow)"), so both bounds
/// apply: `t = clamp(x, MIN, MAX)` (AMBIGUOUS pseudo-code, the prose
/// followed). The fields are the low `size` bits of the clamped values
/// (two's complement for the signed types): `tb` in bits `[0, size)`, `ta`
/// in `[size, 2*size)`, and with `c` the low `32 - 2*size` bits of `c` above
/// them: `d = c << 2*size | ta << size | tb` (u8: c's low 16 bits in bits
/// 16..31; matches the ISA example "%r7 = { %r5, %r6, %r8, %r9 }").
/// For `.u16`/`.s16` (no `c`), `d = ta << 16 | tb & 0xffff`.
pub fn cvt_pack_sat(size: u32, signed: bool, a: i32, b: i32, c: u32) -> u32 {
    debug_assert!(matches!(size, 2 | 4 | 8 | 16));
    let t = IntTy::new(size, signed);
    let field = |x: i32| saturate(t, i128::from(x)) as u32;
    let low = field(a) << size | field(b);
    if size == 16 {
        low
    } else {
        (c << (2 * size)) | low
    }
}

fn cvt_pack(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    use ptxc::ptx::types::ScalarType as T;
    let (size, signed) = match i.ty {
        T::U8 => (8, false),
        T::S8 => (8, true),
        T::U16 => (16, false),
        T::S16 => (16, true),
        t => {
            return Err(Stop::fault(format!(
                "'{}': cvt.pack to {t} (expected .u8, .s8, .u16 or .s16)",
                i.text
            )))
        }
    };
    if i.ty2 != T::S32 {
        return Err(Stop::fault(format!(
            "'{}': cvt.pack takes .s32 sources, found {}",
            i.text, i.ty2
        )));
    }
    let a = mask(32, cx.get(&i.ops[1])?) as u32 as i32;
    let b = mask(32, cx.get(&i.ops[2])?) as u32 as i32;
    let c = match (size, i.ops.get(3)) {
        (16, None) => 0,
        (16, Some(_)) | (_, None) => {
            return Err(Stop::fault(format!(
                "'{}': cvt.pack takes the c operand with .u8/.s8 and only then",
                i.text
            )))
        }
        (_, Some(o)) => mask(32, cx.get(o)?) as u32,
    };
    cx.set(&i.ops[0], u64::from(cvt_pack_sat(size, signed, a, b, c)))
}

/// setp/set/slct on float operands.
pub fn compare(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    let ftz = i.mods.has(Mod::Ftz);
    if i.op == Opcode::Slct {
        // slct.dtype.f32 d, a, b, c: d = c >= 0 ? a : b (9.7.5.4).
        let c = mask(32, cx.get(&i.ops[3])?);
        let ge = float::compare(FloatType::F32, CmpOp::Ge, c, 0, ftz);
        let v = cx.get(&i.ops[if ge { 1 } else { 2 }])?;
        return cx.set_typed(&i.ops[0], i.ty, v);
    }
    let st = if i.op == Opcode::Set { i.ty2 } else { i.ty };
    let ft =
        fty(st).ok_or_else(|| Stop::fault(format!("'{}' compares a non-float type", i.text)))?;
    let op = cmp_op(i).ok_or_else(|| Stop::fault("missing comparison"))?;
    let a = mask(st.bits(), cx.get(&i.ops[1])?);
    let b = mask(st.bits(), cx.get(&i.ops[2])?);
    let (lo, hi) = if packed_ty(st) {
        packed::compare_x2(ft, op, a as u32, b as u32, ftz)
    } else {
        let r = float::compare(ft, op, a, b, ftz);
        (r, r)
    };
    super::int::finish_compare(cx, i, lo, hi, packed_ty(st))
}

/// `cvt` in every direction (9.7.9.21). Integer roundings (.rni ...) were
/// decoded onto the four `Rounding`s.
pub fn cvt(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    if i.mods.has(Mod::Pack) {
        return cvt_pack(cx, i);
    }
    let (d, s) = (i.ty, i.ty2);
    let rnd = i.rnd.unwrap_or(Rounding::Rn);
    let ftz = i.mods.has(Mod::Ftz);
    let sat = i.mods.has(Mod::Sat);
    let cm = CvtMods {
        ftz,
        sat,
        relu: i.mods.has(Mod::Relu),
        satfinite: i.mods.has(Mod::Satfinite),
    };
    let a = mask(s.bits(), cx.get(&i.ops[1])?);
    let r = match (fty(d), fty(s)) {
        // Two f32 sources packed into f16x2/bf16x2: `a` goes to the upper half.
        (Some(df), Some(FloatType::F32)) if packed_ty(d) => {
            let b = mask(32, cx.get(&i.ops[2])?);
            u64::from(packed::cvt_pack(df, a as u32, b as u32, rnd, cm))
        }
        (Some(df), Some(sf)) => {
            let int_round = i.mods.has(Mod::Rni)
                || i.mods.has(Mod::Rzi)
                || i.mods.has(Mod::Rmi)
                || i.mods.has(Mod::Rpi);
            // `cvt.f32.f32` and `cvt.f64.f64` with no modifier at all copy
            // the bits, NaN payloads and signalling NaNs included: ptxas
            // 11.8 emits no instruction for them (a register copy; sm_80,
            // measured on NaN, sNaN and subnormal inputs). `cvt.f16.f16`
            // is an `HADD2 d, a.H0_H0, -RZ.H0_H0` there (a canonical NaN,
            // as `cvt_float` gives).
            let bare = i.rnd.is_none() && !int_round && cm == CvtMods::NONE;
            if df == sf && bare && matches!(df, FloatType::F32 | FloatType::F64) {
                a
            } else if df == sf && int_round {
                float::cvt_round_int(df, a, rnd, ftz, sat)
            } else {
                float::cvt_float(sf, df, a, rnd, cm)
            }
        }
        (None, Some(sf)) => {
            let it = ity(d).ok_or_else(|| Stop::fault(format!("cvt to {d}")))?;
            float::cvt_f2i(sf, a, it, rnd, ftz)
        }
        (Some(df), None) => {
            let it = ity(s).ok_or_else(|| Stop::fault(format!("cvt from {s}")))?;
            float::cvt_i2f(it, a, df, rnd, sat)
        }
        (None, None) => int_to_int(d, s, a, sat),
    };
    cx.set_typed(&i.ops[0], d, r)
}

/// Integer-to-integer cvt: extension by the source's signedness, truncation,
/// and with `.sat` clamping to the destination's range (9.7.9.21).
fn int_to_int(d: ScalarType, s: ScalarType, a: u64, sat: bool) -> u64 {
    let v: i128 = if s.is_signed() {
        sext(s.bits(), a) as i64 as i128
    } else {
        a as i128
    };
    if sat {
        extend(d, saturate(IntTy::new(d.bits(), d.is_signed()), v))
    } else {
        extend(d, v as u64)
    }
}
