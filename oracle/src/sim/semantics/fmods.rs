//! Decoding of the opcode modifiers of SASS floating-point and conversion
//! instructions (`FSETP.GEU.FTZ.AND` -> opcode `FSETP`, modifiers `["GEU",
//! "FTZ", "AND"]`, as `ptxc::ir::sass_text::SassInst` holds them).
//!
//! Decoding happens once per static instruction; the result is a small `Copy`
//! value that the per-lane evaluation functions of the sibling modules take.
//! Every modifier must be understood: an unknown or duplicated modifier is an
//! error naming it, never silently ignored. Modifiers are accepted in any
//! order; where two of the same kind are positional (the destination and
//! source types of `F2F`), the first is the destination, as cuobjdump prints
//! them (`F2F.F32.F64` = f64 -> f32, `F2I.U32.F64.CEIL` = f64 -> u32).
//!
//! Operand-level selectors (`.H0_H0`, `.H1_H1`, `.F32` on an f16x2 source,
//! `.reuse`) are not opcode modifiers; see [`super::fp16::HalfSel`].
//!
//! Modifier spellings by family (what the corpus shows plus the documented
//! neighbours; anything else is rejected):
//!
//! | opcodes | modifiers |
//! |---|---|
//! | FADD FMUL FFMA (and `*32I`) | `RN RZ RM RP`, `FTZ`, `SAT` |
//! | DADD DMUL DFMA | `RN RZ RM RP` |
//! | FSETP DSETP HSETP2 | comparison, `FTZ` (not DSETP), `AND OR XOR`; HSETP2 also `H_AND`, `BF16_V2` |
//! | FSET HSET2 | as FSETP plus `BF` (result 1.0 instead of all ones) |
//! | FMNMX DMNMX HMNMX2 | `FTZ` (not DMNMX), `NAN`; HMNMX2 also `BF16_V2` |
//! | FCHK | none or `DIVIDE` |
//! | FRND | `F16 F32 F64` (default F32), `ROUND TRUNC FLOOR CEIL` (default ROUND), `FTZ` |
//! | HADD2 HMUL2 HFMA2 | `FTZ`, `SAT`, `F32` (f32 result), `BF16_V2`; HFMA2 also `MMA`, `RELU` |
//! | F2F | two float types (dst, src), `RN RZ RM RP` or (same size) `ROUND TRUNC FLOOR CEIL`, `FTZ`, `SAT` |
//! | F2I | int type (default S32), float type (default F32), `ROUND TRUNC FLOOR CEIL` (default ROUND), `FTZ`, `NTZ` |
//! | I2F | float type (default F32), int type (default S32), `RN RZ RM RP` |
//! | I2FP | `F32` and `S32`/`U32`, `RN RZ RM RP` |
//! | F2FP | `PACK_AB` (required), `F16`/`BF16` (default F16), `F32` (source, sm_90 spelling), `RN RZ RM RP`, `RELU`, `SATFINITE` |
//! | MUFU | one of `RCP RSQ SQRT EX2 LG2 SIN COS TANH RCP64H RSQ64H`; `F16`/`BF16` with EX2 and TANH |

use ptxc::float::{CmpOp, FloatType, IntType, Mods, Rounding};

/// A SASS floating-point comparison (FSETP/DSETP/HSETP2/FSET/HSET2). The
/// ordered/unordered pairs mean what they mean in PTX (ISA Tables 23-25);
/// `T` and `F` are constant true and false.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FCmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    Num,
    Nan,
    Ltu,
    Equ,
    Leu,
    Gtu,
    Neu,
    Geu,
    T,
}

impl FCmp {
    pub const ALL: [FCmp; 16] = [
        FCmp::F,
        FCmp::Lt,
        FCmp::Eq,
        FCmp::Le,
        FCmp::Gt,
        FCmp::Ne,
        FCmp::Ge,
        FCmp::Num,
        FCmp::Nan,
        FCmp::Ltu,
        FCmp::Equ,
        FCmp::Leu,
        FCmp::Gtu,
        FCmp::Neu,
        FCmp::Geu,
        FCmp::T,
    ];

    /// The SASS spelling.
    pub fn parse(s: &str) -> Option<FCmp> {
        Some(match s {
            "F" => FCmp::F,
            "LT" => FCmp::Lt,
            "EQ" => FCmp::Eq,
            "LE" => FCmp::Le,
            "GT" => FCmp::Gt,
            "NE" => FCmp::Ne,
            "GE" => FCmp::Ge,
            "NUM" => FCmp::Num,
            "NAN" => FCmp::Nan,
            "LTU" => FCmp::Ltu,
            "EQU" => FCmp::Equ,
            "LEU" => FCmp::Leu,
            "GTU" => FCmp::Gtu,
            "NEU" => FCmp::Neu,
            "GEU" => FCmp::Geu,
            "T" => FCmp::T,
            _ => return None,
        })
    }

    /// The PTX comparison this is, or `None` for the constants `T`/`F`.
    #[inline]
    pub const fn cmp_op(self) -> Option<CmpOp> {
        Some(match self {
            FCmp::F | FCmp::T => return None,
            FCmp::Lt => CmpOp::Lt,
            FCmp::Eq => CmpOp::Eq,
            FCmp::Le => CmpOp::Le,
            FCmp::Gt => CmpOp::Gt,
            FCmp::Ne => CmpOp::Ne,
            FCmp::Ge => CmpOp::Ge,
            FCmp::Num => CmpOp::Num,
            FCmp::Nan => CmpOp::Nan,
            FCmp::Ltu => CmpOp::Ltu,
            FCmp::Equ => CmpOp::Equ,
            FCmp::Leu => CmpOp::Leu,
            FCmp::Gtu => CmpOp::Gtu,
            FCmp::Neu => CmpOp::Neu,
            FCmp::Geu => CmpOp::Geu,
        })
    }

    /// Evaluates the comparison on two values of format `ty` (the shared
    /// `ptxc::float::compare`); `ftz` flushes subnormal inputs first.
    #[inline]
    pub fn eval(self, ty: FloatType, a: u64, b: u64, ftz: bool) -> bool {
        match self.cmp_op() {
            Some(op) => ptxc::float::compare(ty, op, a, b, ftz),
            None => self == FCmp::T,
        }
    }
}

/// The predicate combination of the SETP/SET families: `P = r OP c`, where
/// `c` is the last (predicate) source operand. Decoded only; the caller
/// combines (helpers provided).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    #[inline(always)]
    pub const fn apply(self, a: bool, b: bool) -> bool {
        match self {
            BoolOp::And => a && b,
            BoolOp::Or => a || b,
            BoolOp::Xor => a ^ b,
        }
    }

    /// `(P, Q)` of a two-destination SETP: `P = r OP c`, `Q = !r OP c`.
    #[inline(always)]
    pub const fn pair(self, r: bool, c: bool) -> (bool, bool) {
        (self.apply(r, c), self.apply(!r, c))
    }
}

/// FADD/FMUL/FFMA modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArithMods {
    pub rnd: Rounding,
    pub ftz: bool,
    pub sat: bool,
}

impl ArithMods {
    pub const RN: ArithMods = ArithMods {
        rnd: Rounding::Rn,
        ftz: false,
        sat: false,
    };

    /// The `ptxc::float::Mods` part.
    #[inline(always)]
    pub const fn mods(self) -> Mods {
        Mods {
            ftz: self.ftz,
            sat: self.sat,
        }
    }
}

/// FSETP/DSETP/HSETP2 modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetpMods {
    pub cmp: FCmp,
    pub ftz: bool,
    pub bop: BoolOp,
    /// HSETP2 `.H_AND`: both lanes' results are AND-ed into one (P = (lo &&
    /// hi) OP c, Q = !(lo && hi) OP c). UNCONFIRMED (recalled Maxwell ISA
    /// text; not in the corpus).
    pub h_and: bool,
    /// HSETP2/HSET2 `.BF16_V2`: the operands are bf16x2.
    pub bf16: bool,
}

/// FSET/HSET2 modifiers: the SETP ones plus `.BF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetMods {
    pub setp: SetpMods,
    /// `.BF`: write 1.0 (f32 0x3f800000; f16 0x3c00, bf16 0x3f80 per half)
    /// for true instead of all ones.
    pub bf: bool,
}

/// FMNMX/DMNMX/HMNMX2 modifiers. The min/max choice is the predicate
/// operand (PT = min), evaluated by the caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MnmxMods {
    pub ftz: bool,
    /// `.NAN`: any NaN operand gives the canonical NaN (PTX `min.NaN`).
    pub nan: bool,
    /// HMNMX2 `.BF16_V2`.
    pub bf16: bool,
    /// FMNMX/HMNMX2 `.XORSIGN` (sm_86+): the result's sign bit is the XOR
    /// of the operands' sign bits read before their `|.|` modifier (see
    /// `fp32::xorsign`).
    pub xorsign: bool,
}

/// FRND (round to integral value in floating point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrndMods {
    pub ty: FloatType,
    /// `ROUND`/default = `Rn` (ties to even), `TRUNC` = `Rz`, `FLOOR` = `Rm`,
    /// `CEIL` = `Rp`.
    pub rnd: Rounding,
    pub ftz: bool,
}

/// HADD2/HMUL2/HFMA2 modifiers. Rounding is always to nearest even (PTX
/// half arithmetic has only `.rn`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HalfMods {
    /// `.BF16_V2`: lanes are bf16 instead of f16.
    pub bf16: bool,
    pub ftz: bool,
    pub sat: bool,
    /// `.F32`: the result is ONE f32 computed from lane 0 of the (selected)
    /// operands (ptxas: `HADD2.F32 d, -RZ, a.H0_H0` = `cvt.f32.f16`).
    pub f32_out: bool,
    /// HFMA2 `.MMA`: issued on the tensor pipe; same arithmetic.
    pub mma: bool,
    /// HFMA2 `.RELU` (`fma.rn.relu`): negative -> +0, NaN -> canonical NaN.
    pub relu: bool,
}

/// F2F: float-to-float conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct F2fMods {
    pub dst: FloatType,
    pub src: FloatType,
    pub rnd: Rounding,
    /// `ROUND/TRUNC/FLOOR/CEIL` given: round to an integral value (only for
    /// `dst == src`).
    pub int_round: bool,
    pub ftz: bool,
    pub sat: bool,
}

/// F2I: float-to-integer conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct F2iMods {
    pub dst: IntType,
    pub src: FloatType,
    /// Integer rounding: default/`ROUND` = `Rn`, `TRUNC` = `Rz`, `FLOOR` =
    /// `Rm`, `CEIL` = `Rp`.
    pub rnd: Rounding,
    pub ftz: bool,
    /// `.NTZ`: NaN converts to zero (otherwise to `1 << (N-1)`).
    pub ntz: bool,
}

/// I2F / I2FP: integer-to-float conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct I2fMods {
    pub dst: FloatType,
    pub src: IntType,
    pub rnd: Rounding,
}

/// F2FP: two f32 values packed into f16x2/bf16x2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct F2fpMods {
    /// `FloatType::F16` or `FloatType::Bf16`.
    pub dst: FloatType,
    pub rnd: Rounding,
    pub relu: bool,
    pub satfinite: bool,
}

/// MUFU functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MufuOp {
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
    /// `MUFU.EX2.F16` (UNCONFIRMED layout: low half in, low half out).
    Ex2F16,
    /// `MUFU.TANH.F16` (same layout caveat).
    TanhF16,
    /// `MUFU.EX2.BF16` (same layout caveat).
    Ex2Bf16,
    /// `MUFU.TANH.BF16` (same layout caveat).
    TanhBf16,
}

/// One decoded floating-point / conversion instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    Fadd(ArithMods),
    Fmul(ArithMods),
    Ffma(ArithMods),
    Fmnmx(MnmxMods),
    Fsetp(SetpMods),
    Fset(SetMods),
    /// `FCHK` (the `.DIVIDE` check, the only one ptxas emits).
    Fchk,
    Frnd(FrndMods),
    Dadd(Rounding),
    Dmul(Rounding),
    Dfma(Rounding),
    Dsetp(SetpMods),
    Dmnmx(MnmxMods),
    Hadd2(HalfMods),
    Hmul2(HalfMods),
    Hfma2(HalfMods),
    Hsetp2(SetpMods),
    Hset2(SetMods),
    Hmnmx2(MnmxMods),
    F2f(F2fMods),
    F2i(F2iMods),
    I2f(I2fMods),
    I2fp(I2fMods),
    F2fp(F2fpMods),
    Mufu(MufuOp),
}

/// Opcodes [`decode`] understands.
pub const OPCODES: &[&str] = &[
    "FADD",
    "FADD32I",
    "FMUL",
    "FMUL32I",
    "FFMA",
    "FFMA32I",
    "FMNMX",
    "FSETP",
    "FSET",
    "FCHK",
    "FRND",
    "DADD",
    "DMUL",
    "DFMA",
    "DSETP",
    "DMNMX",
    "HADD2",
    "HADD2_32I",
    "HMUL2",
    "HMUL2_32I",
    "HFMA2",
    "HFMA2_32I",
    "HSETP2",
    "HSET2",
    "HMNMX2",
    "F2F",
    "F2I",
    "I2F",
    "I2FP",
    "F2FP",
    "MUFU",
];

/// Whether [`decode`] handles `opcode`.
pub fn is_float_opcode(opcode: &str) -> bool {
    OPCODES.contains(&opcode)
}

fn err(opcode: &str, m: &str, why: &str) -> String {
    format!("{opcode}: {why} modifier .{m}")
}

fn set_once<T>(slot: &mut Option<T>, v: T, opcode: &str, m: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(err(opcode, m, "duplicate or conflicting"));
    }
    *slot = Some(v);
    Ok(())
}

fn set_flag(flag: &mut bool, opcode: &str, m: &str) -> Result<(), String> {
    if *flag {
        return Err(err(opcode, m, "duplicate"));
    }
    *flag = true;
    Ok(())
}

fn ieee_rounding(m: &str) -> Option<Rounding> {
    Some(match m {
        "RN" => Rounding::Rn,
        "RZ" => Rounding::Rz,
        "RM" => Rounding::Rm,
        "RP" => Rounding::Rp,
        _ => return None,
    })
}

fn int_rounding(m: &str) -> Option<Rounding> {
    Some(match m {
        "ROUND" => Rounding::Rn,
        "TRUNC" => Rounding::Rz,
        "FLOOR" => Rounding::Rm,
        "CEIL" => Rounding::Rp,
        _ => return None,
    })
}

fn float_type(m: &str) -> Option<FloatType> {
    Some(match m {
        "F16" => FloatType::F16,
        "BF16" => FloatType::Bf16,
        "F32" => FloatType::F32,
        "F64" => FloatType::F64,
        _ => return None,
    })
}

fn int_type(m: &str) -> Option<IntType> {
    Some(match m {
        "U8" => IntType::U8,
        "U16" => IntType::U16,
        "U32" => IntType::U32,
        "U64" => IntType::U64,
        "S8" => IntType::S8,
        "S16" => IntType::S16,
        "S32" => IntType::S32,
        "S64" => IntType::S64,
        _ => return None,
    })
}

/// Modifiers that exist in SASS but whose semantics are not modelled here:
/// rejected with a clearer message than "unknown".
fn known_unsupported(m: &str) -> bool {
    matches!(
        m,
        "FMZ"
            | "D2"
            | "D4"
            | "D8"
            | "M2"
            | "M4"
            | "M8"
            | "XORSIGN"
            | "PACK_AB_MERGE_C"
            | "E4M3"
            | "E5M2"
            | "RRO"
    )
}

fn unknown(opcode: &str, m: &str) -> String {
    if known_unsupported(m) {
        err(opcode, m, "unsupported (not modelled)")
    } else {
        err(opcode, m, "unknown")
    }
}

fn decode_arith(opcode: &str, mods: &[&str], allow_ftz_sat: bool) -> Result<ArithMods, String> {
    let mut rnd = None;
    let (mut ftz, mut sat) = (false, false);
    for &m in mods {
        if let Some(r) = ieee_rounding(m) {
            set_once(&mut rnd, r, opcode, m)?;
        } else if allow_ftz_sat && m == "FTZ" {
            set_flag(&mut ftz, opcode, m)?;
        } else if allow_ftz_sat && m == "SAT" {
            set_flag(&mut sat, opcode, m)?;
        } else {
            return Err(unknown(opcode, m));
        }
    }
    Ok(ArithMods {
        rnd: rnd.unwrap_or(Rounding::Rn),
        ftz,
        sat,
    })
}

/// Decodes a SETP/SET family. `ftz_ok`: FTZ allowed; `half`: H_AND and
/// BF16_V2 allowed; `bf_ok`: BF allowed (SET forms).
fn decode_setp(
    opcode: &str,
    mods: &[&str],
    ftz_ok: bool,
    half: bool,
    bf_ok: bool,
) -> Result<SetMods, String> {
    let (mut cmp, mut bop) = (None, None);
    let (mut ftz, mut h_and, mut bf16, mut bf) = (false, false, false, false);
    for &m in mods {
        if let Some(c) = FCmp::parse(m) {
            set_once(&mut cmp, c, opcode, m)?;
        } else if m == "AND" || m == "OR" || m == "XOR" {
            let b = match m {
                "AND" => BoolOp::And,
                "OR" => BoolOp::Or,
                _ => BoolOp::Xor,
            };
            set_once(&mut bop, b, opcode, m)?;
        } else if ftz_ok && m == "FTZ" {
            set_flag(&mut ftz, opcode, m)?;
        } else if half && m == "H_AND" {
            set_flag(&mut h_and, opcode, m)?;
        } else if half && m == "BF16_V2" {
            set_flag(&mut bf16, opcode, m)?;
        } else if bf_ok && m == "BF" {
            set_flag(&mut bf, opcode, m)?;
        } else {
            return Err(unknown(opcode, m));
        }
    }
    let cmp = cmp.ok_or_else(|| format!("{opcode}: missing comparison modifier"))?;
    let bop = bop.ok_or_else(|| format!("{opcode}: missing .AND/.OR/.XOR modifier"))?;
    Ok(SetMods {
        setp: SetpMods {
            cmp,
            ftz,
            bop,
            h_and,
            bf16,
        },
        bf,
    })
}

fn decode_mnmx(opcode: &str, mods: &[&str], ftz_ok: bool, half: bool) -> Result<MnmxMods, String> {
    let mut r = MnmxMods::default();
    for &m in mods {
        match m {
            "FTZ" if ftz_ok => set_flag(&mut r.ftz, opcode, m)?,
            "NAN" => set_flag(&mut r.nan, opcode, m)?,
            "BF16_V2" if half => set_flag(&mut r.bf16, opcode, m)?,
            "XORSIGN" if ftz_ok => set_flag(&mut r.xorsign, opcode, m)?,
            _ => return Err(unknown(opcode, m)),
        }
    }
    Ok(r)
}

fn decode_half(opcode: &str, mods: &[&str], fma: bool) -> Result<HalfMods, String> {
    let mut r = HalfMods::default();
    for &m in mods {
        match m {
            "FTZ" => set_flag(&mut r.ftz, opcode, m)?,
            "SAT" => set_flag(&mut r.sat, opcode, m)?,
            "F32" => set_flag(&mut r.f32_out, opcode, m)?,
            "BF16_V2" => set_flag(&mut r.bf16, opcode, m)?,
            "MMA" if fma => set_flag(&mut r.mma, opcode, m)?,
            "RELU" if fma => set_flag(&mut r.relu, opcode, m)?,
            // Explicit round-to-nearest is the only rounding of half
            // arithmetic; accept its spelling.
            "RN" => {}
            _ => return Err(unknown(opcode, m)),
        }
    }
    Ok(r)
}

fn decode_frnd(opcode: &str, mods: &[&str]) -> Result<FrndMods, String> {
    let (mut ty, mut rnd, mut ftz) = (None, None, false);
    for &m in mods {
        if let Some(t) = float_type(m).filter(|t| *t != FloatType::Bf16) {
            set_once(&mut ty, t, opcode, m)?;
        } else if let Some(r) = int_rounding(m) {
            set_once(&mut rnd, r, opcode, m)?;
        } else if m == "FTZ" {
            set_flag(&mut ftz, opcode, m)?;
        } else {
            return Err(unknown(opcode, m));
        }
    }
    Ok(FrndMods {
        ty: ty.unwrap_or(FloatType::F32),
        rnd: rnd.unwrap_or(Rounding::Rn),
        ftz,
    })
}

fn decode_f2f(opcode: &str, mods: &[&str]) -> Result<F2fMods, String> {
    let (mut dst, mut src) = (None, None);
    let (mut rnd, mut irnd) = (None, None);
    let (mut ftz, mut sat) = (false, false);
    for &m in mods {
        if let Some(t) = float_type(m) {
            if dst.is_none() {
                dst = Some(t);
            } else {
                set_once(&mut src, t, opcode, m)?;
            }
        } else if let Some(r) = ieee_rounding(m) {
            set_once(&mut rnd, r, opcode, m)?;
        } else if let Some(r) = int_rounding(m) {
            set_once(&mut irnd, r, opcode, m)?;
        } else if m == "FTZ" {
            set_flag(&mut ftz, opcode, m)?;
        } else if m == "SAT" {
            set_flag(&mut sat, opcode, m)?;
        } else {
            return Err(unknown(opcode, m));
        }
    }
    let (Some(dst), Some(src)) = (dst, src) else {
        return Err(format!(
            "{opcode}: needs a destination and a source type modifier"
        ));
    };
    if rnd.is_some() && irnd.is_some() {
        return Err(format!(
            "{opcode}: both an IEEE and an integer rounding modifier"
        ));
    }
    if irnd.is_some() && dst != src {
        return Err(format!(
            "{opcode}: integer rounding needs equal source and destination types"
        ));
    }
    Ok(F2fMods {
        dst,
        src,
        rnd: rnd.or(irnd).unwrap_or(Rounding::Rn),
        int_round: irnd.is_some(),
        ftz,
        sat,
    })
}

fn decode_f2i(opcode: &str, mods: &[&str]) -> Result<F2iMods, String> {
    let (mut dst, mut src, mut rnd) = (None, None, None);
    let (mut ftz, mut ntz) = (false, false);
    for &m in mods {
        if let Some(t) = int_type(m) {
            set_once(&mut dst, t, opcode, m)?;
        } else if let Some(t) = float_type(m) {
            set_once(&mut src, t, opcode, m)?;
        } else if let Some(r) = int_rounding(m) {
            set_once(&mut rnd, r, opcode, m)?;
        } else if m == "FTZ" {
            set_flag(&mut ftz, opcode, m)?;
        } else if m == "NTZ" {
            set_flag(&mut ntz, opcode, m)?;
        } else {
            return Err(unknown(opcode, m));
        }
    }
    Ok(F2iMods {
        dst: dst.unwrap_or(IntType::S32),
        src: src.unwrap_or(FloatType::F32),
        rnd: rnd.unwrap_or(Rounding::Rn),
        ftz,
        ntz,
    })
}

fn decode_i2f(opcode: &str, mods: &[&str], i2fp: bool) -> Result<I2fMods, String> {
    let (mut dst, mut src, mut rnd) = (None, None, None);
    for &m in mods {
        if let Some(t) = int_type(m) {
            set_once(&mut src, t, opcode, m)?;
        } else if let Some(t) = float_type(m) {
            set_once(&mut dst, t, opcode, m)?;
        } else if let Some(r) = ieee_rounding(m) {
            set_once(&mut rnd, r, opcode, m)?;
        } else {
            return Err(unknown(opcode, m));
        }
    }
    let r = I2fMods {
        dst: dst.unwrap_or(FloatType::F32),
        src: src.unwrap_or(IntType::S32),
        rnd: rnd.unwrap_or(Rounding::Rn),
    };
    if i2fp && (r.dst != FloatType::F32 || !matches!(r.src, IntType::S32 | IntType::U32)) {
        return Err(format!("{opcode}: only .F32.S32 and .F32.U32 are modelled"));
    }
    Ok(r)
}

fn decode_f2fp(opcode: &str, mods: &[&str]) -> Result<F2fpMods, String> {
    let (mut dst, mut src, mut rnd) = (None, None, None);
    let (mut pack, mut relu, mut satfinite) = (false, false, false);
    for &m in mods {
        match m {
            "F16" | "BF16" => {
                let t = if m == "F16" {
                    FloatType::F16
                } else {
                    FloatType::Bf16
                };
                set_once(&mut dst, t, opcode, m)?;
            }
            "F32" => set_once(&mut src, FloatType::F32, opcode, m)?,
            "PACK_AB" => set_flag(&mut pack, opcode, m)?,
            "RELU" => set_flag(&mut relu, opcode, m)?,
            "SATFINITE" => set_flag(&mut satfinite, opcode, m)?,
            _ => match ieee_rounding(m) {
                Some(r) => set_once(&mut rnd, r, opcode, m)?,
                None => return Err(unknown(opcode, m)),
            },
        }
    }
    if !pack {
        return Err(format!("{opcode}: only the .PACK_AB form is modelled"));
    }
    Ok(F2fpMods {
        dst: dst.unwrap_or(FloatType::F16),
        rnd: rnd.unwrap_or(Rounding::Rn),
        relu,
        satfinite,
    })
}

fn decode_mufu(opcode: &str, mods: &[&str]) -> Result<MufuOp, String> {
    let (mut f, mut half) = (None, None);
    for &m in mods {
        let op = match m {
            "RCP" => MufuOp::Rcp,
            "RSQ" => MufuOp::Rsq,
            "SQRT" => MufuOp::Sqrt,
            "EX2" => MufuOp::Ex2,
            "LG2" => MufuOp::Lg2,
            "SIN" => MufuOp::Sin,
            "COS" => MufuOp::Cos,
            "TANH" => MufuOp::Tanh,
            "RCP64H" => MufuOp::Rcp64h,
            "RSQ64H" => MufuOp::Rsq64h,
            "F16" | "BF16" => {
                set_once(&mut half, m == "BF16", opcode, m)?;
                continue;
            }
            _ => return Err(unknown(opcode, m)),
        };
        set_once(&mut f, op, opcode, m)?;
    }
    let f = f.ok_or_else(|| format!("{opcode}: missing function modifier"))?;
    Ok(match (f, half) {
        (f, None) => f,
        (MufuOp::Ex2, Some(false)) => MufuOp::Ex2F16,
        (MufuOp::Tanh, Some(false)) => MufuOp::TanhF16,
        (MufuOp::Ex2, Some(true)) => MufuOp::Ex2Bf16,
        (MufuOp::Tanh, Some(true)) => MufuOp::TanhBf16,
        (f, Some(_)) => return Err(format!("{opcode}: {f:?} has no half-precision form")),
    })
}

fn no_mods(opcode: &str, mods: &[&str], allowed: &[&str]) -> Result<(), String> {
    for &m in mods {
        if !allowed.contains(&m) {
            return Err(unknown(opcode, m));
        }
    }
    Ok(())
}

/// Decodes one floating-point or conversion instruction: `opcode` without
/// modifiers (`"FSETP"`), `mods` without dots (`["GEU", "FTZ", "AND"]`).
pub fn decode(opcode: &str, mods: &[&str]) -> Result<FloatOp, String> {
    Ok(match opcode {
        "FADD" | "FADD32I" => FloatOp::Fadd(decode_arith(opcode, mods, true)?),
        "FMUL" | "FMUL32I" => FloatOp::Fmul(decode_arith(opcode, mods, true)?),
        "FFMA" | "FFMA32I" => FloatOp::Ffma(decode_arith(opcode, mods, true)?),
        "FMNMX" => FloatOp::Fmnmx(decode_mnmx(opcode, mods, true, false)?),
        "FSETP" => FloatOp::Fsetp(decode_setp(opcode, mods, true, false, false)?.setp),
        "FSET" => FloatOp::Fset(decode_setp(opcode, mods, true, false, true)?),
        "FCHK" => {
            no_mods(opcode, mods, &["DIVIDE"])?;
            FloatOp::Fchk
        }
        "FRND" => FloatOp::Frnd(decode_frnd(opcode, mods)?),
        "DADD" => FloatOp::Dadd(decode_arith(opcode, mods, false)?.rnd),
        "DMUL" => FloatOp::Dmul(decode_arith(opcode, mods, false)?.rnd),
        "DFMA" => FloatOp::Dfma(decode_arith(opcode, mods, false)?.rnd),
        "DSETP" => FloatOp::Dsetp(decode_setp(opcode, mods, false, false, false)?.setp),
        "DMNMX" => FloatOp::Dmnmx(decode_mnmx(opcode, mods, false, false)?),
        "HADD2" | "HADD2_32I" => FloatOp::Hadd2(decode_half(opcode, mods, false)?),
        "HMUL2" | "HMUL2_32I" => FloatOp::Hmul2(decode_half(opcode, mods, false)?),
        "HFMA2" | "HFMA2_32I" => FloatOp::Hfma2(decode_half(opcode, mods, true)?),
        "HSETP2" => FloatOp::Hsetp2(decode_setp(opcode, mods, true, true, false)?.setp),
        "HSET2" => FloatOp::Hset2(decode_setp(opcode, mods, true, true, true)?),
        "HMNMX2" => FloatOp::Hmnmx2(decode_mnmx(opcode, mods, true, true)?),
        "F2F" => FloatOp::F2f(decode_f2f(opcode, mods)?),
        "F2I" => FloatOp::F2i(decode_f2i(opcode, mods)?),
        "I2F" => FloatOp::I2f(decode_i2f(opcode, mods, false)?),
        "I2FP" => FloatOp::I2fp(decode_i2f(opcode, mods, true)?),
        "F2FP" => FloatOp::F2fp(decode_f2fp(opcode, mods)?),
        "MUFU" => FloatOp::Mufu(decode_mufu(opcode, mods)?),
        _ => return Err(format!("{opcode}: not a floating-point/conversion opcode")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Result<FloatOp, String> {
        let mut it = s.split('.');
        let op = it.next().unwrap();
        let mods: Vec<&str> = it.collect();
        decode(op, &mods)
    }

    #[test]
    fn corpus_spellings_decode() {
        use FloatType::*;
        use IntType::*;
        use Rounding::*;
        assert_eq!(
            d("F2I.FTZ.U32.TRUNC.NTZ"),
            Ok(FloatOp::F2i(F2iMods {
                dst: U32,
                src: F32,
                rnd: Rz,
                ftz: true,
                ntz: true
            }))
        );
        assert_eq!(
            d("F2I.U32.F64.CEIL"),
            Ok(FloatOp::F2i(F2iMods {
                dst: U32,
                src: F64,
                rnd: Rp,
                ftz: false,
                ntz: false
            }))
        );
        assert_eq!(
            d("F2I.NTZ"),
            Ok(FloatOp::F2i(F2iMods {
                dst: S32,
                src: F32,
                rnd: Rn,
                ftz: false,
                ntz: true
            }))
        );
        assert_eq!(
            d("F2I.S64"),
            Ok(FloatOp::F2i(F2iMods {
                dst: S64,
                src: F32,
                rnd: Rn,
                ftz: false,
                ntz: false
            }))
        );
        assert_eq!(
            d("F2I.FLOOR.NTZ"),
            Ok(FloatOp::F2i(F2iMods {
                dst: S32,
                src: F32,
                rnd: Rm,
                ftz: false,
                ntz: true
            }))
        );
        assert_eq!(
            d("I2F.U64.RP"),
            Ok(FloatOp::I2f(I2fMods {
                dst: F32,
                src: U64,
                rnd: Rp
            }))
        );
        assert_eq!(
            d("I2F.F64.S64"),
            Ok(FloatOp::I2f(I2fMods {
                dst: F64,
                src: S64,
                rnd: Rn
            }))
        );
        assert_eq!(
            d("I2F"),
            Ok(FloatOp::I2f(I2fMods {
                dst: F32,
                src: S32,
                rnd: Rn
            }))
        );
        assert_eq!(
            d("I2FP.F32.U32"),
            Ok(FloatOp::I2fp(I2fMods {
                dst: F32,
                src: U32,
                rnd: Rn
            }))
        );
        assert_eq!(
            d("F2F.F32.F64.RM"),
            Ok(FloatOp::F2f(F2fMods {
                dst: F32,
                src: F64,
                rnd: Rm,
                int_round: false,
                ftz: false,
                sat: false
            }))
        );
        assert_eq!(
            d("F2F.F64.F32"),
            Ok(FloatOp::F2f(F2fMods {
                dst: F64,
                src: F32,
                rnd: Rn,
                int_round: false,
                ftz: false,
                sat: false
            }))
        );
        assert_eq!(
            d("F2FP.F16.F32.PACK_AB"),
            Ok(FloatOp::F2fp(F2fpMods {
                dst: F16,
                rnd: Rn,
                relu: false,
                satfinite: false
            }))
        );
        assert_eq!(d("F2FP.PACK_AB"), d("F2FP.F16.F32.PACK_AB"));
        assert_eq!(
            d("FSETP.GTU.FTZ.AND"),
            Ok(FloatOp::Fsetp(SetpMods {
                cmp: FCmp::Gtu,
                ftz: true,
                bop: BoolOp::And,
                h_and: false,
                bf16: false
            }))
        );
        assert!(matches!(
            d("DSETP.NEU.AND"),
            Ok(FloatOp::Dsetp(SetpMods {
                cmp: FCmp::Neu,
                ftz: false,
                ..
            }))
        ));
        assert!(matches!(
            d("HSETP2.GEU.AND"),
            Ok(FloatOp::Hsetp2(SetpMods { cmp: FCmp::Geu, .. }))
        ));
        assert_eq!(
            d("FFMA.RM"),
            Ok(FloatOp::Ffma(ArithMods {
                rnd: Rm,
                ftz: false,
                sat: false
            }))
        );
        assert_eq!(
            d("FFMA.SAT"),
            Ok(FloatOp::Ffma(ArithMods {
                rnd: Rn,
                ftz: false,
                sat: true
            }))
        );
        assert_eq!(
            d("FADD.FTZ"),
            Ok(FloatOp::Fadd(ArithMods {
                rnd: Rn,
                ftz: true,
                sat: false
            }))
        );
        assert_eq!(d("DFMA.RP"), Ok(FloatOp::Dfma(Rp)));
        assert_eq!(d("DMUL"), Ok(FloatOp::Dmul(Rn)));
        assert!(matches!(
            d("HADD2.F32"),
            Ok(FloatOp::Hadd2(HalfMods { f32_out: true, .. }))
        ));
        assert!(matches!(
            d("HFMA2.MMA"),
            Ok(FloatOp::Hfma2(HalfMods { mma: true, .. }))
        ));
        assert_eq!(d("MUFU.RCP64H"), Ok(FloatOp::Mufu(MufuOp::Rcp64h)));
        assert_eq!(d("MUFU.RSQ"), Ok(FloatOp::Mufu(MufuOp::Rsq)));
        assert_eq!(d("MUFU.EX2.F16"), Ok(FloatOp::Mufu(MufuOp::Ex2F16)));
        assert_eq!(d("FCHK"), Ok(FloatOp::Fchk));
        assert_eq!(d("FCHK.DIVIDE"), Ok(FloatOp::Fchk));
        assert_eq!(d("FMNMX"), Ok(FloatOp::Fmnmx(MnmxMods::default())));
        assert_eq!(
            d("FRND.F64.FLOOR"),
            Ok(FloatOp::Frnd(FrndMods {
                ty: F64,
                rnd: Rm,
                ftz: false
            }))
        );
        assert_eq!(
            d("FRND"),
            Ok(FloatOp::Frnd(FrndMods {
                ty: F32,
                rnd: Rn,
                ftz: false
            }))
        );
    }

    #[test]
    fn errors_name_the_modifier() {
        let e = d("FADD.FOO").unwrap_err();
        assert!(e.contains(".FOO"), "{e}");
        let e = d("FMUL.D2").unwrap_err();
        assert!(e.contains(".D2") && e.contains("unsupported"), "{e}");
        assert!(d("FFMA.RN.RZ").unwrap_err().contains(".RZ"));
        assert!(d("FADD.FTZ.FTZ").unwrap_err().contains(".FTZ"));
        assert!(d("DADD.FTZ").unwrap_err().contains(".FTZ"));
        assert!(d("FSETP.GT").unwrap_err().contains("AND"));
        assert!(d("FSETP.AND").unwrap_err().contains("comparison"));
        assert!(d("FSETP.GT.LT.AND").unwrap_err().contains(".LT"));
        assert!(d("DSETP.GT.FTZ.AND").unwrap_err().contains(".FTZ"));
        assert!(d("F2F.F32").is_err());
        assert!(d("F2F.F32.F64.F16").unwrap_err().contains(".F16"));
        assert!(d("F2F.F32.F64.TRUNC").is_err());
        assert!(d("F2I.U32.RZ").unwrap_err().contains(".RZ"));
        assert!(d("I2F.TRUNC").unwrap_err().contains(".TRUNC"));
        assert!(d("I2FP.F64.S32").is_err());
        assert!(d("F2FP.BF16").is_err());
        assert!(d("MUFU").is_err());
        assert!(d("MUFU.RCP.SQRT").unwrap_err().contains(".SQRT"));
        assert!(d("MUFU.RCP.F16").is_err());
        assert!(d("FCHK.FOO").unwrap_err().contains(".FOO"));
        assert!(d("HADD2.MMA").unwrap_err().contains(".MMA"));
        assert!(d("IADD3").is_err());
        assert!(!is_float_opcode("IADD3"));
        assert!(is_float_opcode("HFMA2"));
    }

    #[test]
    fn all_comparisons_parse() {
        for c in FCmp::ALL {
            let s = format!("{c:?}").to_uppercase();
            assert_eq!(FCmp::parse(&s), Some(c));
        }
        assert_eq!(FCmp::parse("GE_U"), None);
    }

    #[test]
    fn bool_ops() {
        assert_eq!(BoolOp::And.pair(true, true), (true, false));
        assert_eq!(BoolOp::And.pair(false, true), (false, true));
        assert_eq!(BoolOp::Or.pair(false, true), (true, true));
        assert_eq!(BoolOp::Xor.pair(true, true), (false, true));
        assert_eq!(BoolOp::Xor.pair(true, false), (true, false));
    }
}

#[cfg(test)]
mod corpus_tests {
    use super::*;
    use ptxc::ir::sass_text::{parse_file, SassOperand};

    /// Every float/convert instruction of the vendor SASS corpus decodes, and
    /// every half selector on an H* operand parses.
    #[test]
    fn whole_corpus_decodes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return; // corpus not checked out
        };
        let (mut files, mut seen) = (0, 0);
        for e in entries.flatten() {
            for f in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
                let p = f.path();
                if p.extension().and_then(|x| x.to_str()) != Some("sass") {
                    continue;
                }
                files += 1;
                let text = std::fs::read_to_string(&p).unwrap();
                let file = parse_file(&text).unwrap();
                for func in &file.functions {
                    for i in &func.insts {
                        if !is_float_opcode(&i.opcode) {
                            continue;
                        }
                        seen += 1;
                        let mods: Vec<&str> = i.mods.iter().map(String::as_str).collect();
                        let op = decode(&i.opcode, &mods);
                        assert!(
                            op.is_ok(),
                            "{}: {} {:?}: {:?}",
                            p.display(),
                            i.opcode,
                            i.mods,
                            op
                        );
                        if i.opcode.starts_with('H') {
                            for o in &i.operands {
                                if let SassOperand::Reg(r) = o {
                                    let sel = r.sel.as_deref();
                                    assert!(
                                        crate::sim::semantics::HalfSel::parse(sel).is_ok(),
                                        "{sel:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        if files > 0 {
            assert!(seen > 1000, "{seen}");
        }
    }
}
