//! Data movement, predicate and special-register decoders: SEL/FSEL,
//! P2R, R2P, PLOP3, MOV, R2UR, ULDC, CS2R, S2R/S2UR.

use ptxc::ir::sass_text::Reg;
use ptxc::ir::{Inst, Op, Operand};

use super::super::program::{extend, Kind, SReg, Src};
use super::modifiers::{has, mem_size, pr_shift};
use super::{DResult, Dec, Roles};

pub(super) fn sel(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Sel {
        d: d.dst(r.req("d")?)?,
        a: d.src(r.req("a")?)?,
        b: d.src(r.req("b")?)?,
        p: d.psrc(r.req("p")?)?,
        float: i.op == Op::FSEL,
    })
}

/// `P2R d, PR, [src,] mask`: read by position, since the `PR` operand
/// these forms print is a special register, which no table shape names.
pub(super) fn p2r(d: &Dec<'_>, i: &Inst) -> DResult<Kind> {
    let s = i.srcs();
    let shift = pr_shift(i);
    let (src, mask) = if s.len() == 3 {
        (d.plain(&s[1])?, d.plain(&s[2])?)
    } else {
        (Src::Imm(0), d.plain(&s[1])?)
    };
    if !matches!(&s[0], Operand::Special(n) if n == "PR") && s.len() == 3 {
        return Err("P2R needs PR as its first source".into());
    }
    Ok(Kind::P2r {
        d: d.dst(&i.dsts()[0])?,
        src,
        mask,
        shift,
        uniform: false,
    })
}

/// `R2P PR, src, mask`: by position, as [`p2r`].
pub(super) fn r2p(d: &Dec<'_>, i: &Inst) -> DResult<Kind> {
    let s = i.srcs();
    Ok(Kind::R2p {
        src: d.plain(&s[1])?,
        mask: d.plain(&s[2])?,
        shift: pr_shift(i),
        uniform: false,
    })
}

pub(super) fn plop3(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Plop3 {
        p: d.pdst(r.req("p")?)?,
        q: d.pdst(r.req("q")?)?,
        a: d.psrc(r.req("a")?)?,
        b: d.psrc(r.req("b")?)?,
        c: d.psrc(r.req("c")?)?,
        lut1: d.imm(r.req("lut1")?)? as u8,
        lut2: d.imm(r.req("lut2")?)? as u8,
    })
}

pub(super) fn mov(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    if let Some(m) = r.get("mask") {
        if d.imm(m)? & 0xf != 0xf {
            return Err("MOV with a partial lane mask is not modelled".into());
        }
    }
    // `MOV R, .L_x_N`: a return address (the lowering's call ABI),
    // the byte address of the labelled block.
    let a = match r.req("a")? {
        o @ Operand::Label(_) => Src::Imm(d.target(o)? * 16),
        o => d.plain(o)?,
    };
    Ok(Kind::Mov {
        d: d.dst(r.req("d")?)?,
        a,
    })
}

pub(super) fn r2ur(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Mov {
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
    })
}

pub(super) fn uldc(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let (size, signed) = mem_size(i);
    let Operand::Const(c) = r.req("c")? else {
        return Err("ULDC needs a constant operand".into());
    };
    if c.reg.is_some_and(|r| !matches!(r, Reg::Urz | Reg::Rz)) {
        return Err("indexed ULDC is not modelled".into());
    }
    let v = d
        .banks
        .read(c.bank, c.offset.unwrap_or(0), u32::from(size.min(8)))?;
    let v = extend(v, size, signed);
    Ok(if size == 8 {
        Kind::Ldc {
            d: d.dst(r.req("d")?)?,
            bank: c.bank,
            reg: None,
            off: c.offset.unwrap_or(0),
            size,
            signed,
        }
    } else {
        Kind::Mov {
            d: d.dst(r.req("d")?)?,
            a: Src::Imm(v as u32),
        }
    })
}

pub(super) fn cs2r(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let Operand::Special(n) = r.req("sr")? else {
        return Err("CS2R needs a special register".into());
    };
    Ok(Kind::S2r {
        d: d.dst(r.req("d")?)?,
        sr: sreg(n)?,
        wide: !has(i, "32"),
    })
}

pub(super) fn s2r(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    let Operand::Special(n) = r.req("sr")? else {
        return Err("S2R needs a special register".into());
    };
    Ok(Kind::S2r {
        d: d.dst(r.req("d")?)?,
        sr: sreg(n)?,
        wide: false,
    })
}

fn sreg(name: &str) -> DResult<SReg> {
    Ok(match name {
        "SRZ" => SReg::Zero,
        "SR_TID.X" => SReg::Tid(0),
        "SR_TID.Y" => SReg::Tid(1),
        "SR_TID.Z" => SReg::Tid(2),
        "SR_CTAID.X" => SReg::Ctaid(0),
        "SR_CTAID.Y" => SReg::Ctaid(1),
        "SR_CTAID.Z" => SReg::Ctaid(2),
        "SR_LANEID" => SReg::LaneId,
        "SR_CLOCKLO" => SReg::ClockLo,
        "SR_CLOCKHI" => SReg::ClockHi,
        "SR_CLOCK" => SReg::Clock64,
        "SR_GLOBALTIMERLO" => SReg::GlobalTimerLo,
        "SR_GLOBALTIMERHI" => SReg::GlobalTimerHi,
        "SR_EQMASK" => SReg::EqMask,
        "SR_LTMASK" => SReg::LtMask,
        "SR_LEMASK" => SReg::LeMask,
        "SR_GTMASK" => SReg::GtMask,
        "SR_GEMASK" => SReg::GeMask,
        "SR_VIRTID" => SReg::VirtId,
        "SR_WARPID" => SReg::WarpId,
        "SR_SMID" | "SR_VIRTUALSMID" => SReg::SmId,
        "SR_CgaCtaId" => SReg::CgaCtaId,
        "SR_SMEMSZ" => SReg::SmemSz,
        "SR_SWINLO" => SReg::SwinLo,
        "SR_SWINHI" => SReg::SwinHi,
        _ => {
            if let Some(n) = name
                .strip_prefix("SR_PM")
                .and_then(|n| n.parse::<u8>().ok())
            {
                if n < 8 {
                    return Ok(SReg::Pm(n));
                }
            }
            return Err(format!("special register {name} is not modelled"));
        }
    })
}
