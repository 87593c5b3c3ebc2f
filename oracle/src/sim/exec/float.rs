//! Floating-point opcodes (FADD FMUL FFMA FMNMX FSETP FSET FCHK FRND MUFU
//! F2F F2I I2F I2FP F2FP HADD2 HMUL2 HFMA2 HSETP2 DADD DMUL DFMA DSETP)
//! over the bit-exact models in `ptxc::float` (shared with the PTX
//! interpreter). FSEL lives with SEL (`logic.rs`). Kept in one file so
//! that the lane functions can switch to `sim::semantics` (branch
//! `sim-float`) in one place.
//!
//! Semantics (UNCONFIRMED where marked):
//! - Source modifiers `-x`, `|x|` act on the sign bit (f32, f64, and each
//!   half of an f16 pair); `.FTZ`/`.SAT` and the rounding modifier go to the
//!   float model. Without a rounding modifier: RN.
//! - FMNMX: the predicate operand selects min (true) or max (false).
//! - FSETP/DSETP/HSETP2: `P = cmp OP p`, `Q = !cmp OP p`; HSETP2 compares
//!   the low halves for P and the high halves for Q (UNCONFIRMED;
//!   `.H_AND`: both halves for P, the negation for Q).
//! - FCHK.DIVIDE P, a, b: P is set when the fast reciprocal-based division
//!   path cannot be trusted: a or b NaN, infinite or b zero or subnormal,
//!   the quotient's exponent out of (-126, 126), `|b| >= 2^126`, or `a`
//!   within 2^24 of the subnormal range (UNCONFIRMED: the exact condition
//!   is not documented; ptxas' slow path computes the IEEE quotient for
//!   every input, so a conservative check changes no result).
//! - F2I: NaN gives 0 with `.NTZ`, else `1 << (N-1)` (which is PTX cvt's
//!   rule: ptxas emits `.NTZ` exactly for f32 sources to 32-bit or smaller
//!   destinations).
//! - F2FP.PACK_AB d, a, b: `d = cvt(a) << 16 | cvt(b)`, RN; without a type
//!   modifier the destination format is f16 (sm_80/86 print
//!   `F2FP.PACK_AB` where sm_89/90 print `F2FP.F16.F32.PACK_AB`).
//! - HADD2.F32/HMUL2.F32/HFMA2.F32: the selected low halves widened to f32
//!   (exact), then one f32 operation. HFMA2's two trailing immediates are
//!   the high then the low half of `c` (`HFMA2.MMA R10, -RZ, RZ, 0,
//!   4.76837158203125e-07` puts 8 in R10).
//! - MUFU.SIN/COS take revolutions; MUFU.RCP64H/RSQ64H map an f64 upper
//!   word to an upper word (`ptxc::float::approx::mufu`).

use ptxc::float::{
    approx::mufu, arith, cmp::compare, convert, minmax, CmpOp, CvtMods, FloatType, IntType,
    MinMaxMods, Mods, Rounding,
};
use ptxc::ir::{Inst, Op, Operand};

use super::super::program::{bop, Bop, DResult, Dec, Dst, PDst, PSrc, Sel, Sop, Sop64, Src};
use super::super::warp::{Stop, Warp, V};

/// How a float immediate is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmTy {
    F32,
    F64,
    F16,
    /// An integer context: a float immediate is refused.
    Int,
}

/// The bits of a float immediate as cuobjdump prints it: decimal text,
/// `+INF`, `-QNAN`, ... (`QNAN` is the default quiet NaN: f32 0x7fc00000,
/// as in the encoding of `MUFU.RSQ R7, -QNAN`, 0xffc00000).
pub fn parse_imm(t: &str, ty: ImmTy) -> DResult<u64> {
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (exp_all, frac_q, sign) = match ty {
        ImmTy::F32 => (0x7f80_0000u64, 0x0040_0000u64, 1u64 << 31),
        ImmTy::F64 => (0x7ff0_0000_0000_0000, 0x0008_0000_0000_0000, 1 << 63),
        ImmTy::F16 => (0x7c00, 0x0200, 0x8000),
        ImmTy::Int => return Err(format!("float immediate {t} in an integer operation")),
    };
    let s = if neg { sign } else { 0 };
    let bits = match body {
        "INF" => exp_all,
        "QNAN" | "NAN" => exp_all | frac_q,
        "SNAN" => return Err("SNAN immediates are not modelled".into()),
        _ => {
            let v: f64 = body
                .parse()
                .map_err(|_| format!("bad float immediate {t}"))?;
            return Ok(match ty {
                ImmTy::F32 => u64::from(((if neg { -v } else { v }) as f32).to_bits()),
                ImmTy::F64 => (if neg { -v } else { v }).to_bits(),
                _ => u64::from(crate::launch::f64_to_f16_bits(if neg { -v } else { v })),
            });
        }
    };
    Ok(bits | s)
}

/// A comparison: a PTX float comparison or the constants F/T.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmp {
    Op(CmpOp),
    False,
    True,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MufuFn {
    Rcp,
    Rsq,
    Sqrt,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Tanh,
    Rcp64h,
    Rsq64h,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Mul,
    Fma,
}

/// A decoded float instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FInst {
    F32 {
        op: Arith,
        d: Dst,
        a: Sop,
        b: Sop,
        c: Sop,
        rnd: Rounding,
        m: Mods,
    },
    Fmnmx {
        d: Dst,
        a: Sop,
        b: Sop,
        p: PSrc,
        m: MinMaxMods,
    },
    Setp {
        ty: FloatType,
        p: PDst,
        q: PDst,
        a: Sop64,
        b: Sop64,
        cmp: FCmp,
        ftz: bool,
        bop: Bop,
        ps: PSrc,
    },
    Fset {
        d: Dst,
        a: Sop,
        b: Sop,
        cmp: FCmp,
        ftz: bool,
        bop: Bop,
        ps: PSrc,
        bf: bool,
    },
    Fchk {
        p: PDst,
        a: Sop,
        b: Sop,
    },
    Mufu {
        d: Dst,
        a: Sop,
        f: MufuFn,
    },
    /// F2F and FRND: float to float (`int_rnd`: round to integral).
    F2f {
        d: Dst,
        a: Sop64,
        src: FloatType,
        dst: FloatType,
        rnd: Rounding,
        int_rnd: bool,
        m: CvtMods,
    },
    F2i {
        d: Dst,
        a: Sop64,
        src: FloatType,
        dst: IntType,
        rnd: Rounding,
        ftz: bool,
        ntz: bool,
    },
    I2f {
        d: Dst,
        a: Sop64,
        src: IntType,
        dst: FloatType,
        rnd: Rounding,
    },
    F2fp {
        d: Dst,
        a: Sop,
        b: Sop,
        dst: FloatType,
        relu: bool,
    },
    F64 {
        op: Arith,
        d: Dst,
        a: Sop64,
        b: Sop64,
        c: Sop64,
        rnd: Rounding,
    },
    Half {
        op: Arith,
        ty: FloatType,
        d: Dst,
        a: Sop,
        b: Sop,
        c: Sop,
        m: Mods,
        f32_out: bool,
    },
    Hsetp2 {
        ty: FloatType,
        p: PDst,
        q: PDst,
        a: Sop,
        b: Sop,
        cmp: FCmp,
        ftz: bool,
        bop: Bop,
        ps: PSrc,
        h_and: bool,
    },
}

fn has(i: &Inst, m: &str) -> bool {
    i.mods.contains(&m)
}

fn rounding(i: &Inst) -> Rounding {
    if has(i, "RZ") || has(i, "TRUNC") {
        Rounding::Rz
    } else if has(i, "RM") || has(i, "FLOOR") {
        Rounding::Rm
    } else if has(i, "RP") || has(i, "CEIL") {
        Rounding::Rp
    } else {
        Rounding::Rn
    }
}

fn fcmp(i: &Inst) -> DResult<FCmp> {
    for m in &i.mods {
        let c = match *m {
            "F" => FCmp::False,
            "T" => FCmp::True,
            "LT" => FCmp::Op(CmpOp::Lt),
            "EQ" => FCmp::Op(CmpOp::Eq),
            "LE" => FCmp::Op(CmpOp::Le),
            "GT" => FCmp::Op(CmpOp::Gt),
            "NE" => FCmp::Op(CmpOp::Ne),
            "GE" => FCmp::Op(CmpOp::Ge),
            "NUM" => FCmp::Op(CmpOp::Num),
            "NAN" => FCmp::Op(CmpOp::Nan),
            "LTU" => FCmp::Op(CmpOp::Ltu),
            "EQU" => FCmp::Op(CmpOp::Equ),
            "LEU" => FCmp::Op(CmpOp::Leu),
            "GTU" => FCmp::Op(CmpOp::Gtu),
            "NEU" => FCmp::Op(CmpOp::Neu),
            "GEU" => FCmp::Op(CmpOp::Geu),
            _ => continue,
        };
        return Ok(c);
    }
    Err("no comparison modifier".into())
}

fn float_types(i: &Inst) -> Vec<FloatType> {
    i.mods
        .iter()
        .filter_map(|m| match *m {
            "F16" => Some(FloatType::F16),
            "BF16" => Some(FloatType::Bf16),
            "F32" => Some(FloatType::F32),
            "F64" => Some(FloatType::F64),
            _ => None,
        })
        .collect()
}

fn int_type(i: &Inst) -> Option<IntType> {
    i.mods.iter().find_map(|m| {
        Some(match *m {
            "U8" => IntType::U8,
            "S8" => IntType::S8,
            "U16" => IntType::U16,
            "S16" => IntType::S16,
            "U32" => IntType::U32,
            "S32" => IntType::S32,
            "U64" => IntType::U64,
            "S64" => IntType::S64,
            _ => return None,
        })
    })
}

fn wide_src(d: &Dec<'_>, o: &Operand, wide: bool, fty: ImmTy) -> DResult<Sop64> {
    if wide {
        d.src64(o, fty)
    } else {
        let s = d.src_as(o, fty)?;
        if s.sel != Sel::None {
            return Err("a selector on a conversion source is not modelled".into());
        }
        Ok(Sop64 {
            s: match s.s {
                Src::R(i) => super::super::program::Src64::R(i),
                Src::U(i) => super::super::program::Src64::U(i),
                Src::Imm(v) => super::super::program::Src64::Imm(u64::from(v)),
            },
            neg: s.neg,
            not: s.not,
            abs: s.abs,
        })
    }
}

/// Decodes a float instruction.
pub fn decode(d: &Dec<'_>, i: &Inst) -> DResult<FInst> {
    let o = &i.operands;
    let nd = i.ndst as usize;
    let s = &o[nd..];
    let dsts = &o[..nd];
    let ftz = has(i, "FTZ");
    let m = Mods {
        ftz,
        sat: has(i, "SAT"),
    };
    let f32s = |k: usize| d.src_as(&s[k], ImmTy::F32);
    Ok(match i.op {
        Op::FADD | Op::FMUL | Op::FFMA => {
            if ["D2", "D4", "D8", "M2", "M4", "M8"]
                .iter()
                .any(|x| has(i, x))
            {
                return Err("FMUL scale modifiers are not modelled".into());
            }
            let op = match i.op {
                Op::FADD => Arith::Add,
                Op::FMUL => Arith::Mul,
                _ => Arith::Fma,
            };
            FInst::F32 {
                op,
                d: d.dst(&dsts[0])?,
                a: f32s(0)?,
                b: f32s(1)?,
                c: if op == Arith::Fma {
                    f32s(2)?
                } else {
                    Sop::ZERO
                },
                rnd: rounding(i),
                m,
            }
        }
        Op::FMNMX => FInst::Fmnmx {
            d: d.dst(&dsts[0])?,
            a: f32s(0)?,
            b: f32s(1)?,
            p: d.psrc(&s[2])?,
            m: MinMaxMods {
                ftz,
                nan: has(i, "NAN"),
                xorsign_abs: has(i, "XORSIGN"),
            },
        },
        Op::FSETP | Op::DSETP => {
            let (ty, fty) = if i.op == Op::DSETP {
                (FloatType::F64, ImmTy::F64)
            } else {
                (FloatType::F32, ImmTy::F32)
            };
            FInst::Setp {
                ty,
                p: d.pdst(&dsts[0])?,
                q: d.pdst(&dsts[1])?,
                a: wide_src(d, &s[0], ty == FloatType::F64, fty)?,
                b: wide_src(d, &s[1], ty == FloatType::F64, fty)?,
                cmp: fcmp(i)?,
                ftz,
                bop: bop(i)?,
                ps: d.psrc(&s[2])?,
            }
        }
        Op::FSET => FInst::Fset {
            d: d.dst(&dsts[0])?,
            a: f32s(0)?,
            b: f32s(1)?,
            cmp: fcmp(i)?,
            ftz,
            bop: bop(i)?,
            ps: d.psrc(&s[2])?,
            bf: has(i, "BF"),
        },
        Op::FCHK => FInst::Fchk {
            p: d.pdst(&dsts[0])?,
            a: f32s(0)?,
            b: f32s(1)?,
        },
        Op::MUFU => {
            let f = [
                ("RCP64H", MufuFn::Rcp64h),
                ("RSQ64H", MufuFn::Rsq64h),
                ("RCP", MufuFn::Rcp),
                ("RSQ", MufuFn::Rsq),
                ("SQRT", MufuFn::Sqrt),
                ("EX2", MufuFn::Ex2),
                ("LG2", MufuFn::Lg2),
                ("SIN", MufuFn::Sin),
                ("COS", MufuFn::Cos),
                ("TANH", MufuFn::Tanh),
            ]
            .iter()
            .find(|(n, _)| has(i, n))
            .map(|x| x.1)
            .ok_or("MUFU needs a function")?;
            if has(i, "F16") {
                return Err("MUFU.F16 is not modelled".into());
            }
            FInst::Mufu {
                d: d.dst(&dsts[0])?,
                a: f32s(0)?,
                f,
            }
        }
        Op::F2F | Op::FRND => {
            let tys = float_types(i);
            let (dst, src) = match (i.op, tys.as_slice()) {
                (Op::FRND, []) => (FloatType::F32, FloatType::F32),
                (Op::FRND, [t]) => (*t, *t),
                (Op::F2F, [t, u]) => (*t, *u),
                (Op::F2F, [t]) => (*t, *t),
                _ => return Err("F2F needs its types".into()),
            };
            let int_rnd = i.op == Op::FRND
                || ["ROUND", "FLOOR", "CEIL", "TRUNC"]
                    .iter()
                    .any(|x| has(i, x));
            let fty = if src == FloatType::F64 {
                ImmTy::F64
            } else {
                ImmTy::F32
            };
            FInst::F2f {
                d: d.dst(&dsts[0])?,
                a: wide_src(d, &s[0], src == FloatType::F64, fty)?,
                src,
                dst,
                rnd: rounding(i),
                int_rnd,
                m: CvtMods {
                    ftz,
                    sat: has(i, "SAT"),
                    relu: false,
                    satfinite: false,
                },
            }
        }
        Op::F2I => {
            let src = float_types(i).first().copied().unwrap_or(FloatType::F32);
            FInst::F2i {
                d: d.dst(&dsts[0])?,
                a: wide_src(d, &s[0], src == FloatType::F64, ImmTy::F32)?,
                src,
                dst: int_type(i).unwrap_or(IntType::S32),
                rnd: rounding(i),
                ftz,
                ntz: has(i, "NTZ"),
            }
        }
        Op::I2F | Op::I2FP => {
            let src = int_type(i).unwrap_or(IntType::S32);
            FInst::I2f {
                d: d.dst(&dsts[0])?,
                a: wide_src(d, &s[0], src.bits() == 64, ImmTy::Int)?,
                src,
                dst: float_types(i).first().copied().unwrap_or(FloatType::F32),
                rnd: rounding(i),
            }
        }
        Op::F2FP => {
            if !has(i, "PACK_AB") {
                return Err("only F2FP.PACK_AB is modelled".into());
            }
            let dst = if has(i, "BF16") {
                FloatType::Bf16
            } else {
                FloatType::F16
            };
            FInst::F2fp {
                d: d.dst(&dsts[0])?,
                a: f32s(0)?,
                b: f32s(1)?,
                dst,
                relu: has(i, "RELU"),
            }
        }
        Op::DADD | Op::DMUL | Op::DFMA => {
            let op = match i.op {
                Op::DADD => Arith::Add,
                Op::DMUL => Arith::Mul,
                _ => Arith::Fma,
            };
            let z = Sop64 {
                s: super::super::program::Src64::Imm(0),
                neg: false,
                not: false,
                abs: false,
            };
            FInst::F64 {
                op,
                d: d.dst(&dsts[0])?,
                a: d.src64(&s[0], ImmTy::F64)?,
                b: d.src64(&s[1], ImmTy::F64)?,
                c: if op == Arith::Fma {
                    d.src64(&s[2], ImmTy::F64)?
                } else {
                    z
                },
                rnd: rounding(i),
            }
        }
        Op::HADD2 | Op::HMUL2 | Op::HFMA2 => {
            if has(i, "RELU") {
                return Err(".RELU is not modelled".into());
            }
            let op = match i.op {
                Op::HADD2 => Arith::Add,
                Op::HMUL2 => Arith::Mul,
                _ => Arith::Fma,
            };
            let ty = if has(i, "BF16_V2") {
                FloatType::Bf16
            } else {
                FloatType::F16
            };
            let hs = |k: usize| d.src_as(&s[k], ImmTy::F16);
            let c = if op != Arith::Fma {
                Sop::ZERO
            } else if s.len() == 4 {
                let hi = parse_imm(&imm_text(&s[2])?, ImmTy::F16)?;
                let lo = parse_imm(&imm_text(&s[3])?, ImmTy::F16)?;
                Sop::plain(Src::Imm(((hi as u32) << 16) | lo as u32))
            } else {
                hs(2)?
            };
            let f32_out = has(i, "F32");
            if f32_out && op == Arith::Fma {
                return Err("HFMA2.F32 is not modelled".into());
            }
            FInst::Half {
                op,
                ty,
                d: d.dst(&dsts[0])?,
                a: hs(0)?,
                b: hs(1)?,
                c,
                m,
                f32_out,
            }
        }
        Op::HSETP2 => FInst::Hsetp2 {
            ty: if has(i, "BF16_V2") {
                FloatType::Bf16
            } else {
                FloatType::F16
            },
            p: d.pdst(&dsts[0])?,
            q: d.pdst(&dsts[1])?,
            a: d.src_as(&s[0], ImmTy::F16)?,
            b: d.src_as(&s[1], ImmTy::F16)?,
            cmp: fcmp(i)?,
            ftz,
            bop: bop(i)?,
            ps: d.psrc(&s[2])?,
            h_and: has(i, "H_AND"),
        },
        _ => return Err("float opcode not modelled".into()),
    })
}

fn imm_text(o: &Operand) -> DResult<String> {
    match o {
        Operand::FloatImm(t) => Ok(t.clone()),
        Operand::Imm(v) => Ok(format!("{v}")),
        _ => Err(format!("{o}: expected an immediate")),
    }
}

/// f32 operand with its sign modifiers.
#[inline(always)]
fn f32v(w: &Warp, s: &Sop, m: u32) -> Result<V, Stop> {
    let mut v = w.read(s.s, m)?;
    if s.abs || s.neg {
        for x in v.iter_mut() {
            if s.abs {
                *x &= 0x7fff_ffff;
            }
            if s.neg {
                *x ^= 0x8000_0000;
            }
        }
    }
    Ok(v)
}

fn f64v(w: &Warp, s: &Sop64, m: u32) -> Result<[u64; 32], Stop> {
    let mut v = w.read64(s.s, m)?;
    for x in v.iter_mut() {
        if s.abs {
            *x &= !(1 << 63);
        }
        if s.neg {
            *x ^= 1 << 63;
        }
        if s.not {
            *x = !*x;
        }
    }
    Ok(v)
}

/// Half-pair operand: selector, then per-half sign modifiers.
fn h2v(w: &Warp, s: &Sop, m: u32) -> Result<V, Stop> {
    let mut v = w.read(s.s, m)?;
    for x in v.iter_mut() {
        *x = match s.sel {
            Sel::None => *x,
            Sel::H0H0 => (*x & 0xffff) * 0x0001_0001,
            Sel::H1H1 => (*x >> 16) * 0x0001_0001,
        };
        if s.abs {
            *x &= 0x7fff_7fff;
        }
        if s.neg {
            *x ^= 0x8000_8000;
        }
    }
    Ok(v)
}

fn cmp1(ty: FloatType, c: FCmp, a: u64, b: u64, ftz: bool) -> bool {
    match c {
        FCmp::False => false,
        FCmp::True => true,
        FCmp::Op(op) => compare(ty, op, a, b, ftz),
    }
}

/// FCHK.DIVIDE (see the module comment).
pub fn fchk1(a: u32, b: u32) -> bool {
    let ea = ((a >> 23) & 0xff) as i32;
    let eb = ((b >> 23) & 0xff) as i32;
    let a_zero = a & 0x7fff_ffff == 0;
    if ea == 0xff || eb == 0xff || eb == 0 {
        return true;
    }
    if a_zero {
        return false;
    }
    let d = ea - eb;
    eb >= 253 || !(-126 < d && d < 126) || ea <= 24
}

fn cvt_f2i(src: FloatType, x: u64, dst: IntType, rnd: Rounding, ftz: bool, ntz: bool) -> u64 {
    let nan = src.is_nan(x & src.mask());
    let v = if nan {
        if ntz {
            0
        } else {
            1u64 << (dst.bits() - 1)
        }
    } else {
        convert::cvt_f2i(src, x, dst, rnd, ftz)
    };
    // Extend to the register width.
    let v = dst.value(v);
    v as u64
}

pub fn exec(w: &mut Warp, m: u32, fi: &FInst) -> Result<(), Stop> {
    let mut r = [0u32; 32];
    match *fi {
        FInst::F32 {
            op,
            d,
            ref a,
            ref b,
            ref c,
            rnd,
            m: md,
        } => {
            let va = f32v(w, a, m)?;
            let vb = f32v(w, b, m)?;
            let vc = if op == Arith::Fma {
                f32v(w, c, m)?
            } else {
                [0; 32]
            };
            let ty = FloatType::F32;
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                let (x, y, z) = (u64::from(va[l]), u64::from(vb[l]), u64::from(vc[l]));
                r[l] = match op {
                    Arith::Add => arith::add(ty, x, y, rnd, md),
                    Arith::Mul => arith::mul(ty, x, y, rnd, md),
                    Arith::Fma => arith::fma(ty, x, y, z, rnd, md),
                } as u32;
            }
            w.write(d, m, &r);
        }
        FInst::Fmnmx {
            d,
            ref a,
            ref b,
            p,
            m: mm,
        } => {
            let va = f32v(w, a, m)?;
            let vb = f32v(w, b, m)?;
            let pv = w.pred(p, m)?;
            for l in 0..32 {
                let (x, y) = (u64::from(va[l]), u64::from(vb[l]));
                r[l] = if pv >> l & 1 != 0 {
                    minmax::min(FloatType::F32, x, y, mm)
                } else {
                    minmax::max(FloatType::F32, x, y, mm)
                } as u32;
            }
            w.write(d, m, &r);
        }
        FInst::Setp {
            ty,
            p,
            q,
            ref a,
            ref b,
            cmp,
            ftz,
            bop,
            ps,
        } => {
            let (va, vb) = if ty == FloatType::F64 {
                (f64v(w, a, m)?, f64v(w, b, m)?)
            } else {
                let sa = to32(a);
                let sb = to32(b);
                (
                    f32v(w, &sa, m)?.map(u64::from),
                    f32v(w, &sb, m)?.map(u64::from),
                )
            };
            let pv = w.pred(ps, m)?;
            let mut t = 0u32;
            for l in 0..32 {
                t |= u32::from(cmp1(ty, cmp, va[l], vb[l], ftz)) << l;
            }
            w.write_pred(p, m, bop.apply(t, pv));
            w.write_pred(q, m, bop.apply(!t, pv));
        }
        FInst::Fset {
            d,
            ref a,
            ref b,
            cmp,
            ftz,
            bop,
            ps,
            bf,
        } => {
            let va = f32v(w, a, m)?;
            let vb = f32v(w, b, m)?;
            let pv = w.pred(ps, m)?;
            for l in 0..32 {
                let t = cmp1(FloatType::F32, cmp, u64::from(va[l]), u64::from(vb[l]), ftz);
                let t = bop.apply(u32::from(t), pv >> l & 1) != 0;
                r[l] = match (t, bf) {
                    (true, true) => 0x3f80_0000,
                    (true, false) => u32::MAX,
                    (false, _) => 0,
                };
            }
            w.write(d, m, &r);
        }
        FInst::Fchk { p, ref a, ref b } => {
            let va = f32v(w, a, m)?;
            let vb = f32v(w, b, m)?;
            let mut t = 0u32;
            for l in 0..32 {
                t |= u32::from(fchk1(va[l], vb[l])) << l;
            }
            w.write_pred(p, m, t);
        }
        FInst::Mufu { d, ref a, f } => {
            let va = f32v(w, a, m)?;
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                let x = va[l];
                r[l] = match f {
                    MufuFn::Rcp => mufu::rcp(x),
                    MufuFn::Rsq => mufu::rsq(x),
                    MufuFn::Sqrt => mufu::sqrt(x),
                    MufuFn::Ex2 => mufu::ex2(x),
                    MufuFn::Lg2 => mufu::lg2(x),
                    MufuFn::Sin => mufu::sin(x),
                    MufuFn::Cos => mufu::cos(x),
                    MufuFn::Tanh => mufu::tanh(x),
                    MufuFn::Rcp64h => mufu::rcp64h(x),
                    MufuFn::Rsq64h => mufu::rsq64h(x),
                };
            }
            w.write(d, m, &r);
        }
        FInst::F2f {
            d,
            ref a,
            src,
            dst,
            rnd,
            int_rnd,
            m: cm,
        } => {
            let va = wide_val(w, a, src == FloatType::F64, src, m)?;
            let mut out = [0u64; 32];
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                out[l] = if int_rnd && src == dst {
                    convert::cvt_round_int(src, va[l], rnd, cm.ftz, cm.sat)
                } else {
                    convert::cvt_float(src, dst, va[l], rnd, cm)
                };
            }
            write_wide(w, d, m, &out, dst == FloatType::F64);
        }
        FInst::F2i {
            d,
            ref a,
            src,
            dst,
            rnd,
            ftz,
            ntz,
        } => {
            let va = wide_val(w, a, src == FloatType::F64, src, m)?;
            let mut out = [0u64; 32];
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                out[l] = cvt_f2i(src, va[l], dst, rnd, ftz, ntz);
            }
            write_wide(w, d, m, &out, dst.bits() == 64);
        }
        FInst::I2f {
            d,
            ref a,
            src,
            dst,
            rnd,
        } => {
            let va = int_val(w, a, src.bits() == 64, m)?;
            let mut out = [0u64; 32];
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                out[l] = convert::cvt_i2f(src, va[l], dst, rnd, false);
            }
            write_wide(w, d, m, &out, dst == FloatType::F64);
        }
        FInst::F2fp {
            d,
            ref a,
            ref b,
            dst,
            relu,
        } => {
            let va = f32v(w, a, m)?;
            let vb = f32v(w, b, m)?;
            let cm = CvtMods {
                relu,
                ..CvtMods::default()
            };
            for l in 0..32 {
                let f = |x: u32| {
                    convert::cvt_float(FloatType::F32, dst, u64::from(x), Rounding::Rn, cm) as u32
                };
                r[l] = (f(va[l]) << 16) | (f(vb[l]) & 0xffff);
            }
            w.write(d, m, &r);
        }
        FInst::F64 {
            op,
            d,
            ref a,
            ref b,
            ref c,
            rnd,
        } => {
            let va = f64v(w, a, m)?;
            let vb = f64v(w, b, m)?;
            let vc = if op == Arith::Fma {
                f64v(w, c, m)?
            } else {
                [0; 32]
            };
            let ty = FloatType::F64;
            let mut out = [0u64; 32];
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                out[l] = match op {
                    Arith::Add => arith::add(ty, va[l], vb[l], rnd, Mods::NONE),
                    Arith::Mul => arith::mul(ty, va[l], vb[l], rnd, Mods::NONE),
                    Arith::Fma => arith::fma(ty, va[l], vb[l], vc[l], rnd, Mods::NONE),
                };
            }
            w.write64(d, m, &out);
        }
        FInst::Half {
            op,
            ty,
            d,
            ref a,
            ref b,
            ref c,
            m: md,
            f32_out,
        } => {
            let va = h2v(w, a, m)?;
            let vb = h2v(w, b, m)?;
            let vc = if op == Arith::Fma {
                h2v(w, c, m)?
            } else {
                [0; 32]
            };
            for l in 0..32 {
                if m >> l & 1 == 0 {
                    continue;
                }
                if f32_out {
                    let wide = |x: u32| {
                        convert::cvt_float(
                            ty,
                            FloatType::F32,
                            u64::from(x & 0xffff),
                            Rounding::Rn,
                            CvtMods::default(),
                        )
                    };
                    let (x, y) = (wide(va[l]), wide(vb[l]));
                    r[l] = match op {
                        Arith::Add => arith::add(FloatType::F32, x, y, Rounding::Rn, md),
                        _ => arith::mul(FloatType::F32, x, y, Rounding::Rn, md),
                    } as u32;
                    continue;
                }
                let mut out = 0u32;
                for h in 0..2 {
                    let (x, y, z) = (
                        u64::from((va[l] >> (16 * h)) & 0xffff),
                        u64::from((vb[l] >> (16 * h)) & 0xffff),
                        u64::from((vc[l] >> (16 * h)) & 0xffff),
                    );
                    let v = match op {
                        Arith::Add => arith::add(ty, x, y, Rounding::Rn, md),
                        Arith::Mul => arith::mul(ty, x, y, Rounding::Rn, md),
                        Arith::Fma => arith::fma(ty, x, y, z, Rounding::Rn, md),
                    };
                    out |= (v as u32 & 0xffff) << (16 * h);
                }
                r[l] = out;
            }
            w.write(d, m, &r);
        }
        FInst::Hsetp2 {
            ty,
            p,
            q,
            ref a,
            ref b,
            cmp,
            ftz,
            bop,
            ps,
            h_and,
        } => {
            let va = h2v(w, a, m)?;
            let vb = h2v(w, b, m)?;
            let pv = w.pred(ps, m)?;
            let (mut t0, mut t1) = (0u32, 0u32);
            for l in 0..32 {
                let c = |h: u32| {
                    cmp1(
                        ty,
                        cmp,
                        u64::from((va[l] >> (16 * h)) & 0xffff),
                        u64::from((vb[l] >> (16 * h)) & 0xffff),
                        ftz,
                    )
                };
                t0 |= u32::from(c(0)) << l;
                t1 |= u32::from(c(1)) << l;
            }
            if h_and {
                let t = t0 & t1;
                w.write_pred(p, m, bop.apply(t, pv));
                w.write_pred(q, m, bop.apply(!t, pv));
            } else {
                w.write_pred(p, m, bop.apply(t0, pv));
                w.write_pred(q, m, bop.apply(t1, pv));
            }
        }
    }
    Ok(())
}

fn to32(s: &Sop64) -> Sop {
    Sop {
        s: match s.s {
            super::super::program::Src64::R(i) => Src::R(i),
            super::super::program::Src64::U(i) => Src::U(i),
            super::super::program::Src64::Imm(v) => Src::Imm(v as u32),
        },
        neg: s.neg,
        not: s.not,
        abs: s.abs,
        sel: Sel::None,
    }
}

/// A conversion source: 64-bit pair or 32-bit register; float sign
/// modifiers on the source format's sign bit, integer ones as integers.
fn wide_val(w: &Warp, a: &Sop64, wide: bool, fty: FloatType, m: u32) -> Result<[u64; 32], Stop> {
    if wide {
        if fty == FloatType::F64 {
            return f64v(w, a, m);
        }
        let mut v = w.read64(a.s, m)?;
        for x in v.iter_mut() {
            if a.neg {
                *x = x.wrapping_neg();
            }
            if a.not {
                *x = !*x;
            }
        }
        return Ok(v);
    }
    let s = to32(a);
    let mut v = w.read(s.s, m)?.map(u64::from);
    let sign = match fty {
        FloatType::F16 | FloatType::Bf16 => 0x8000,
        _ => 0x8000_0000,
    };
    for x in v.iter_mut() {
        if a.abs {
            *x &= !sign;
        }
        if a.neg {
            *x ^= sign;
        }
        if a.not {
            *x = !*x & 0xffff_ffff;
        }
    }
    Ok(v)
}

/// An integer conversion source (integer modifiers).
fn int_val(w: &Warp, a: &Sop64, wide: bool, m: u32) -> Result<[u64; 32], Stop> {
    let mask = if wide { u64::MAX } else { 0xffff_ffff };
    let mut v = if wide {
        w.read64(a.s, m)?
    } else {
        w.read(to32(a).s, m)?.map(u64::from)
    };
    for x in v.iter_mut() {
        if a.neg {
            *x = x.wrapping_neg() & mask;
        }
        if a.not {
            *x = !*x & mask;
        }
    }
    Ok(v)
}

fn write_wide(w: &mut Warp, d: Dst, m: u32, v: &[u64; 32], wide: bool) {
    if wide {
        w.write64(d, m, v);
    } else {
        w.write(d, m, &v.map(|x| x as u32));
    }
}
