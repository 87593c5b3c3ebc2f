//! The candidate instruction forms of the register-only menu: per opcode of
//! `ptxc::ptx::isa::Opcode`, the modifier axes (PTX ISA 9.7, each
//! instruction's "Syntax", in the order the syntax writes them) and the
//! operands. The cross product of the axes is a superset: `menu.rs` keeps a
//! form only when the front end's validator accepts it and the interpreter
//! executes it, so nothing here decides validity. `""` on an axis is "no
//! modifier".
//!
//! Operand constraints that keep a program defined are data too: an integer
//! `div`/`rem` divisor is [`Opd::NonZero`] (PTX ISA 9.7.1.8: division by
//! zero is unspecified; the interpreter reports it as UB). Shift amounts,
//! `bfe`/`bfi`/`bmsk`/`szext` positions and `shf` amounts need nothing: the
//! ISA clamps or wraps them (9.7.1.19-9.7.1.21, 9.7.8.7-9.7.8.9;
//! docs/SEMANTICS.md, Shifts and bit fields).

use ptxc::ptx::isa::Opcode;

/// Which type an operand has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// The first type modifier (`cvt`'s, `set`'s and `slct`'s destination).
    First,
    /// The last type modifier (the operand type of most opcodes).
    Last,
    /// Twice the last type's width (`mul.wide`, `mad.wide`).
    Wide,
    Pred,
    U32,
    B32,
}

/// One operand of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opd {
    Dst(Ty),
    Src(Ty),
    /// A source that must not be zero (integer divisors).
    NonZero(Ty),
    /// An immediate below the bound (`lop3`'s truth table).
    Imm(u32),
    /// A source whose value must not exceed the mask (a power of two
    /// minus one): `fns`'s base, "must be <= 31, otherwise behavior is
    /// undefined" (PTX ISA 9.7.1.17).
    Masked(Ty, u32),
}

/// The candidate forms of one opcode.
pub struct Template {
    pub op: Opcode,
    pub axes: &'static [&'static [&'static str]],
    pub opds: &'static [Opd],
}

use Opd::{Dst, Imm, Masked, NonZero, Src};
use Ty::*;

const INTS: &[&str] = &["s16", "u16", "s32", "u32", "s64", "u64"];
const SINTS: &[&str] = &["s16", "s32", "s64"];
const I3264: &[&str] = &["s32", "u32", "s64", "u64"];
const BITS: &[&str] = &["b32", "b64"];
const FLOATS: &[&str] = &["f32", "f64"];
const HALVES: &[&str] = &["f16", "f16x2", "bf16", "bf16x2"];
const FRND: &[&str] = &["", "rn", "rz", "rm", "rp"];
const RND: &[&str] = &["rn", "rz", "rm", "rp"];
const FTZ: &[&str] = &["", "ftz"];
const SAT: &[&str] = &["", "sat"];
const ICMP: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"];
const FCMP: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
];
const BOOL: &[&str] = &["and", "or", "xor"];
const CMP_TYPES: &[&str] = &[
    "b16", "b32", "b64", "s16", "u16", "s32", "u32", "s64", "u64",
];
const MOV_TYPES: &[&str] = &[
    "pred", "b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64",
];
const SEL_TYPES: &[&str] = &[
    "b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64",
];
const CVT_TYPES: &[&str] = &[
    "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "bf16", "f32", "f64",
];
const CVT_RND: &[&str] = &["", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"];

const D_AB: &[Opd] = &[Dst(Last), Src(Last), Src(Last)];
const D_ABC: &[Opd] = &[Dst(Last), Src(Last), Src(Last), Src(Last)];
const D_A: &[Opd] = &[Dst(Last), Src(Last)];

/// Every template. Rows are grouped as the PTX ISA chapters are.
#[rustfmt::skip]
pub const TEMPLATES: &[Template] = &[
    // Integer arithmetic (9.7.1).
    Template { op: Opcode::Add, axes: &[SAT, INTS], opds: D_AB },
    Template { op: Opcode::Sub, axes: &[SAT, INTS], opds: D_AB },
    Template { op: Opcode::Mul, axes: &[&["lo", "hi"], INTS], opds: D_AB },
    Template { op: Opcode::Mul, axes: &[&["wide"], &["s16", "u16", "s32", "u32"]], opds: &[Dst(Wide), Src(Last), Src(Last)] },
    Template { op: Opcode::Mad, axes: &[&["lo", "hi"], INTS], opds: D_ABC },
    Template { op: Opcode::Mad, axes: &[&["hi"], &["sat"], &["s32"]], opds: D_ABC },
    Template { op: Opcode::Mad, axes: &[&["wide"], &["s16", "u16", "s32", "u32"]], opds: &[Dst(Wide), Src(Last), Src(Last), Src(Wide)] },
    Template { op: Opcode::Mul24, axes: &[&["lo", "hi"], &["s32", "u32"]], opds: D_AB },
    Template { op: Opcode::Mad24, axes: &[&["lo", "hi"], &["s32", "u32"]], opds: D_ABC },
    Template { op: Opcode::Sad, axes: &[INTS], opds: D_ABC },
    Template { op: Opcode::Div, axes: &[INTS], opds: &[Dst(Last), Src(Last), NonZero(Last)] },
    Template { op: Opcode::Rem, axes: &[INTS], opds: &[Dst(Last), Src(Last), NonZero(Last)] },
    Template { op: Opcode::Abs, axes: &[SINTS], opds: D_A },
    Template { op: Opcode::Neg, axes: &[SINTS], opds: D_A },
    Template { op: Opcode::Min, axes: &[INTS], opds: D_AB },
    Template { op: Opcode::Max, axes: &[INTS], opds: D_AB },
    Template { op: Opcode::Popc, axes: &[BITS], opds: &[Dst(U32), Src(Last)] },
    Template { op: Opcode::Clz, axes: &[BITS], opds: &[Dst(U32), Src(Last)] },
    Template { op: Opcode::Bfind, axes: &[&["", "shiftamt"], I3264], opds: &[Dst(U32), Src(Last)] },
    Template { op: Opcode::Brev, axes: &[BITS], opds: D_A },
    Template { op: Opcode::Bfe, axes: &[I3264], opds: &[Dst(Last), Src(Last), Src(U32), Src(U32)] },
    Template { op: Opcode::Bfi, axes: &[BITS], opds: &[Dst(Last), Src(Last), Src(Last), Src(U32), Src(U32)] },
    Template { op: Opcode::Fns, axes: &[&["b32"]], opds: &[Dst(B32), Src(B32), Masked(U32, 31), Src(U32)] },
    Template { op: Opcode::Bmsk, axes: &[&["clamp", "wrap"], &["b32"]], opds: &[Dst(B32), Src(U32), Src(U32)] },
    Template { op: Opcode::Szext, axes: &[&["clamp", "wrap"], &["s32", "u32"]], opds: &[Dst(Last), Src(Last), Src(U32)] },
    Template { op: Opcode::Dp4a, axes: &[&["u32", "s32"], &["u32", "s32"]], opds: &[Dst(B32), Src(B32), Src(B32), Src(B32)] },
    Template { op: Opcode::Dp2a, axes: &[&["lo", "hi"], &["u32", "s32"], &["u32", "s32"]], opds: &[Dst(B32), Src(B32), Src(B32), Src(B32)] },
    // Floating point (9.7.3) and half precision (9.7.4).
    Template { op: Opcode::Add, axes: &[FRND, FTZ, SAT, FLOATS], opds: D_AB },
    Template { op: Opcode::Sub, axes: &[FRND, FTZ, SAT, FLOATS], opds: D_AB },
    Template { op: Opcode::Mul, axes: &[FRND, FTZ, SAT, FLOATS], opds: D_AB },
    Template { op: Opcode::Fma, axes: &[RND, FTZ, SAT, FLOATS], opds: D_ABC },
    Template { op: Opcode::Mad, axes: &[RND, FTZ, SAT, FLOATS], opds: D_ABC },
    Template { op: Opcode::Div, axes: &[&["approx", "full", "rn", "rz", "rm", "rp"], FTZ, FLOATS], opds: D_AB },
    Template { op: Opcode::Abs, axes: &[FTZ, FLOATS], opds: D_A },
    Template { op: Opcode::Neg, axes: &[FTZ, FLOATS], opds: D_A },
    Template { op: Opcode::Min, axes: &[FTZ, &["", "NaN"], FLOATS], opds: D_AB },
    Template { op: Opcode::Max, axes: &[FTZ, &["", "NaN"], FLOATS], opds: D_AB },
    Template { op: Opcode::Rcp, axes: &[&["approx", "rn", "rz", "rm", "rp"], FTZ, FLOATS], opds: D_A },
    Template { op: Opcode::Sqrt, axes: &[&["approx", "rn", "rz", "rm", "rp"], FTZ, FLOATS], opds: D_A },
    Template { op: Opcode::Rsqrt, axes: &[&["approx"], FTZ, FLOATS], opds: D_A },
    Template { op: Opcode::Sin, axes: &[&["approx"], FTZ, &["f32"]], opds: D_A },
    Template { op: Opcode::Cos, axes: &[&["approx"], FTZ, &["f32"]], opds: D_A },
    Template { op: Opcode::Lg2, axes: &[&["approx"], FTZ, &["f32"]], opds: D_A },
    Template { op: Opcode::Ex2, axes: &[&["approx"], FTZ, &["f32"]], opds: D_A },
    Template { op: Opcode::Tanh, axes: &[&["approx"], &["f32"]], opds: D_A },
    Template { op: Opcode::Testp, axes: &[&["finite", "infinite", "number", "notanumber", "normal", "subnormal"], FLOATS], opds: &[Dst(Pred), Src(Last)] },
    Template { op: Opcode::Copysign, axes: &[FLOATS], opds: D_AB },
    Template { op: Opcode::Add, axes: &[&["", "rn"], FTZ, SAT, HALVES], opds: D_AB },
    Template { op: Opcode::Sub, axes: &[&["", "rn"], FTZ, SAT, HALVES], opds: D_AB },
    Template { op: Opcode::Mul, axes: &[&["", "rn"], FTZ, SAT, HALVES], opds: D_AB },
    Template { op: Opcode::Fma, axes: &[&["rn"], FTZ, SAT, HALVES], opds: D_ABC },
    Template { op: Opcode::Neg, axes: &[FTZ, HALVES], opds: D_A },
    Template { op: Opcode::Abs, axes: &[FTZ, HALVES], opds: D_A },
    Template { op: Opcode::Min, axes: &[FTZ, &["", "NaN"], HALVES], opds: D_AB },
    Template { op: Opcode::Max, axes: &[FTZ, &["", "NaN"], HALVES], opds: D_AB },
    // Comparison and selection (9.7.5).
    Template { op: Opcode::Setp, axes: &[ICMP, CMP_TYPES], opds: &[Dst(Pred), Src(Last), Src(Last)] },
    Template { op: Opcode::Setp, axes: &[ICMP, BOOL, CMP_TYPES], opds: &[Dst(Pred), Src(Last), Src(Last), Src(Pred)] },
    Template { op: Opcode::Setp, axes: &[FCMP, FTZ, &["f32", "f64", "f16", "bf16"]], opds: &[Dst(Pred), Src(Last), Src(Last)] },
    Template { op: Opcode::Setp, axes: &[FCMP, BOOL, FTZ, FLOATS], opds: &[Dst(Pred), Src(Last), Src(Last), Src(Pred)] },
    Template { op: Opcode::Set, axes: &[ICMP, &["u32", "s32", "f32"], CMP_TYPES], opds: &[Dst(First), Src(Last), Src(Last)] },
    Template { op: Opcode::Set, axes: &[FCMP, FTZ, &["u32", "s32", "f32"], FLOATS], opds: &[Dst(First), Src(Last), Src(Last)] },
    Template { op: Opcode::Selp, axes: &[SEL_TYPES], opds: &[Dst(Last), Src(Last), Src(Last), Src(Pred)] },
    Template { op: Opcode::Slct, axes: &[FTZ, SEL_TYPES, &["s32", "f32"]], opds: &[Dst(First), Src(First), Src(First), Src(Last)] },
    // Logic and shift (9.7.7).
    Template { op: Opcode::And, axes: &[&["pred", "b16", "b32", "b64"]], opds: D_AB },
    Template { op: Opcode::Or, axes: &[&["pred", "b16", "b32", "b64"]], opds: D_AB },
    Template { op: Opcode::Xor, axes: &[&["pred", "b16", "b32", "b64"]], opds: D_AB },
    Template { op: Opcode::Not, axes: &[&["pred", "b16", "b32", "b64"]], opds: D_A },
    Template { op: Opcode::Cnot, axes: &[&["b16", "b32", "b64"]], opds: D_A },
    Template { op: Opcode::Lop3, axes: &[&["b32"]], opds: &[Dst(Last), Src(Last), Src(Last), Src(Last), Imm(256)] },
    Template { op: Opcode::Shf, axes: &[&["l", "r"], &["wrap", "clamp"], &["b32"]], opds: &[Dst(Last), Src(Last), Src(Last), Src(U32)] },
    Template { op: Opcode::Shl, axes: &[&["b16", "b32", "b64"]], opds: &[Dst(Last), Src(Last), Src(U32)] },
    Template { op: Opcode::Shr, axes: &[&["b16", "b32", "b64", "s16", "s32", "s64", "u16", "u32", "u64"]], opds: &[Dst(Last), Src(Last), Src(U32)] },
    // Data movement and conversion (9.7.8, 9.7.9).
    Template { op: Opcode::Mov, axes: &[MOV_TYPES], opds: D_A },
    Template { op: Opcode::Prmt, axes: &[&["b32"], &["", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]], opds: &[Dst(B32), Src(B32), Src(B32), Src(B32)] },
    Template { op: Opcode::Cvt, axes: &[CVT_RND, FTZ, SAT, CVT_TYPES, CVT_TYPES], opds: &[Dst(First), Src(Last)] },
];
