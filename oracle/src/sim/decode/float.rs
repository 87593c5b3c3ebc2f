//! Float and conversion instructions (FADD ... HFMA2, F2F, I2F, MUFU; the
//! list in `exec/float.rs`) into an [`FInst`]: the [`FloatOp`] of the
//! opcode and modifiers (`semantics::decode`) and each operand, taken by
//! the role its opcode's shape names, resolved with its format ([`Fmt`]).
//!
//! Operand-level choices made here (not lane semantics):
//! - Immediates: f32 ops read float immediates as f32, D* ops as f64 (an
//!   integer immediate of a D* op is the upper word), H* ops as f16 and
//!   conversions by their source type. `HFMA2 d, a, b, hi, lo` (ptxas's
//!   `HFMA2.MMA R, -RZ, RZ, hi, lo` constant idiom) packs its two trailing
//!   immediates as `c = hi << 16 | lo`: `HFMA2.MMA R10, -RZ, RZ, 0,
//!   4.76837158203125e-07` puts 8 in R10 (4.76837158203125e-07 = 2^-21 is
//!   f16 0x0008), and `HFMA2.MMA R2, -RZ, RZ, 1.875, 0` is f32 1.0
//!   (0x3f800000, f16 1.875 = 0x3f80), both in the corpus (oracle/tests/sim_semantics.rs).
//! - `~x` on a float operand and `|x|` on an integer one are refused at
//!   decode; an I2F source's `-x` is two's complement negation (then `~`).
//! - Half selector then sign modifier, except `.F32`, where the modifier
//!   acts on the f32 before the conversion (`semantics::src_mods`).

use ptxc::float::FloatType;
use ptxc::ir::{Inst, Operand};

use super::super::exec::float::{FInst, FSrc, Fmt};
use super::super::program::{Dst, PDst, PSrc, Src, Src64};
use super::super::semantics::{self as sem, FloatOp, HalfSel, MufuOp, SrcMods};
use super::operands::{parse_imm, DResult, Dec, ImmTy, Roles};

fn imm_ty(fmt: Fmt) -> ImmTy {
    match fmt {
        Fmt::F32 => ImmTy::F32,
        Fmt::F16 | Fmt::F16Hi | Fmt::X2 { .. } => ImmTy::F16,
        Fmt::F64 => ImmTy::F64,
        Fmt::Int { .. } => ImmTy::Int,
    }
}

fn src64_of(s: Src) -> Src64 {
    match s {
        Src::R(i) => Src64::R(i),
        Src::U(i) => Src64::U(i),
        Src::Imm(v) => Src64::Imm(u64::from(v)),
    }
}

/// Resolves a source operand of format `fmt`.
fn src(d: &Dec<'_>, o: &Operand, fmt: Fmt) -> DResult<FSrc> {
    let wide = matches!(fmt, Fmt::F64 | Fmt::Int { wide: true, .. });
    let (s, neg, not, abs, sel) = if wide {
        let x = d.src64(o, imm_ty(fmt))?;
        (x.s, x.neg, x.not, x.abs, HalfSel::H1H0)
    } else {
        let x = d.src_as(o, imm_ty(fmt))?;
        (src64_of(x.s), x.neg, x.not, x.abs, x.sel)
    };
    let fmt = match fmt {
        Fmt::X2 { .. } if sel == HalfSel::H1 => {
            return Err(format!(
                "{o}: .H1 on a packed operand (H0_H0/H1_H1 select halves)"
            ))
        }
        Fmt::X2 { bf16, .. } => Fmt::X2 { sel, bf16 },
        Fmt::F16 if sel == HalfSel::H1 => Fmt::F16Hi,
        _ if sel != HalfSel::H1H0 => return Err(format!("{o}: a half selector here")),
        Fmt::Int { wide, .. } => {
            if abs {
                return Err(format!("{o}: |x| on an integer source is not modelled"));
            }
            return Ok(FSrc {
                s,
                fmt: Fmt::Int { wide, neg, not },
                m: SrcMods::NONE,
            });
        }
        f => f,
    };
    if not {
        return Err(format!("{o}: ~x on a float operand is not modelled"));
    }
    Ok(FSrc {
        s,
        fmt,
        m: SrcMods { neg, abs },
    })
}

/// The format of a conversion source of float type `t`.
fn float_fmt(t: FloatType) -> Fmt {
    match t {
        FloatType::F16 | FloatType::Bf16 => Fmt::F16,
        FloatType::F32 => Fmt::F32,
        FloatType::F64 => Fmt::F64,
    }
}

fn x2(bf16: bool) -> Fmt {
    Fmt::X2 {
        sel: HalfSel::H1H0,
        bf16,
    }
}

fn imm_text(o: &Operand) -> DResult<String> {
    match o {
        Operand::FloatImm(t) => Ok(t.clone()),
        Operand::Imm(v) => Ok(format!("{v}")),
        _ => Err(format!("{o}: expected an immediate")),
    }
}

/// Decodes a float or conversion instruction, its operands by the roles of
/// its shape (`R:d = S:a S:b S:c`, `P:p P:q = S:a S:b P:ps`, `P:p = S:a
/// S:b` for FCHK).
pub fn decode(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<FInst> {
    let op = sem::decode(i.op.name(), &i.mods)?;
    let mut f = FInst {
        op,
        d: Dst::None,
        p: PDst::None,
        q: PDst::None,
        a: FSrc::ZERO,
        b: FSrc::ZERO,
        c: FSrc::ZERO,
        ps: PSrc::TRUE,
    };
    // Destinations: a register, or (SETP forms, FCHK) predicates.
    match op {
        FloatOp::Fsetp(_) | FloatOp::Dsetp(_) | FloatOp::Hsetp2(_) => {
            f.p = d.pdst(r.req("p")?)?;
            f.q = d.pdst(r.req("q")?)?;
        }
        FloatOp::Fchk => f.p = d.pdst(r.req("p")?)?,
        _ => f.d = d.dst(r.req("d")?)?,
    }
    // Sources: (format, count, whether a predicate source `ps` follows).
    use FloatOp as O;
    let (fmt, n, pred) = match op {
        O::Fadd(_) | O::Fmul(_) | O::Fchk | O::F2fp(_) => (Fmt::F32, 2, false),
        O::Ffma(_) => (Fmt::F32, 3, false),
        O::Fmnmx(_) | O::Fsetp(_) | O::Fset(_) => (Fmt::F32, 2, true),
        O::Frnd(m) => (float_fmt(m.ty), 1, false),
        O::Dadd(_) | O::Dmul(_) => (Fmt::F64, 2, false),
        O::Dfma(_) => (Fmt::F64, 3, false),
        O::Dsetp(_) | O::Dmnmx(_) => (Fmt::F64, 2, true),
        O::Hadd2(m) | O::Hmul2(m) => (x2(m.bf16), 2, false),
        O::Hfma2(m) => (x2(m.bf16), 3, false),
        O::Hsetp2(m) => (x2(m.bf16), 2, true),
        O::Hset2(m) => (x2(m.setp.bf16), 2, true),
        O::Hmnmx2(m) => (x2(m.bf16), 2, true),
        O::F2f(m) => (float_fmt(m.src), 1, false),
        O::F2i(m) => (float_fmt(m.src), 1, false),
        O::I2f(m) | O::I2fp(m) => (
            Fmt::Int {
                wide: m.src.bits() == 64,
                neg: false,
                not: false,
            },
            1,
            false,
        ),
        O::Mufu(MufuOp::Ex2F16 | MufuOp::TanhF16 | MufuOp::Ex2Bf16 | MufuOp::TanhBf16) => {
            (Fmt::F16, 1, false)
        }
        O::Mufu(_) => (Fmt::F32, 1, false),
    };
    f.a = match (op, r.req("a")?) {
        // cuobjdump prints the immediate of `MUFU.RCP64H`/`RSQ64H` as the
        // double whose high word it is (`MUFU.RCP64H R5, -468.875` for
        // `div.rn.f64 d, x, 0dC07D4E0000000000`; ptxas 11.8, sm_80), while
        // the operation reads the 32-bit high word.
        (O::Mufu(MufuOp::Rcp64h | MufuOp::Rsq64h), Operand::FloatImm(t)) => FSrc {
            s: Src64::Imm(parse_imm(t, ImmTy::F64)? >> 32),
            fmt,
            m: SrcMods::NONE,
        },
        (_, a) => src(d, a, fmt)?,
    };
    // HFMA2's second shape, `R:d = S:a S:b S:chi S:clo`: c's halves as two
    // immediates (ptxas's `HFMA2.MMA R, -RZ, RZ, hi, lo` constant idiom).
    // ptxas 11.8 also prints b's halves that way, `HFMA2 d, a, hi, lo, c`
    // (`HFMA2.MMA R11, R10, 1, 1, R4`, `old * 1.0 + b` in its f16x2
    // atomic-add loops, oracle/tests/atom_spin_vendor): the same kinds, so
    // the same shape; told apart here by which operands are immediates,
    // the b-pair form when `b` and `chi` are and `clo` is not.
    let halves = (r.get("chi"), r.get("clo"));
    if let (Some(chi), Some(clo)) = halves {
        let b = r.req("b")?;
        let imm = |o: &Operand| matches!(o, Operand::Imm(_) | Operand::FloatImm(_));
        if imm(b) && imm(chi) && !imm(clo) {
            f.b = pair(b, chi, fmt)?;
            f.c = src(d, clo, fmt)?;
            return Ok(f);
        }
        f.b = src(d, b, fmt)?;
        f.c = pair(chi, clo, fmt)?;
        return Ok(f);
    }
    if n >= 2 {
        f.b = src(d, r.req("b")?, fmt)?;
    }
    if n == 3 {
        f.c = src(d, r.req("c")?, fmt)?;
    }
    if pred {
        f.ps = d.psrc(r.req("ps")?)?;
    }
    Ok(f)
}

/// An f16x2 operand printed as its two halves, `hi` and `lo`: `hi << 16 |
/// lo`.
fn pair(hi: &Operand, lo: &Operand, fmt: Fmt) -> DResult<FSrc> {
    let hi = parse_imm(&imm_text(hi)?, ImmTy::F16)?;
    let lo = parse_imm(&imm_text(lo)?, ImmTy::F16)?;
    Ok(FSrc {
        s: Src64::Imm(hi << 16 | lo),
        fmt,
        m: SrcMods::NONE,
    })
}
