//! Integer ALU decoders: IADD3, IMAD, LEA, LOP3, SHF, PRMT, ISETP, IMNMX,
//! IABS, POPC, FLO, BREV, SGXT, BMSK, IDP, VABSDIFF (and their uniform
//! forms). Operands by the roles of the opcode table's shapes.

use ptxc::ir::Inst;

use super::super::exec::dot::IdpForm;
use super::super::program::{ImadMode, Kind, PDst, PSrc, Sop, Sop64, Src64};
use super::modifiers::{bop, has, icmp};
use super::{DResult, Dec, ImmTy, Roles};

pub(super) fn iadd3(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let x = has(i, "X");
    let c0 = d.opt_pdst(r.get("co0"))?;
    let c1 = d.opt_pdst(r.get("co1"))?;
    let ci0 = d.opt_psrc(r.get("ci0"), PSrc::FALSE)?;
    let ci1 = d.opt_psrc(r.get("ci1"), PSrc::FALSE)?;
    Ok(Kind::Iadd3 {
        d: d.dst(r.req("d")?)?,
        c0,
        c1,
        a: d.src(r.req("a")?)?,
        b: d.src(r.req("b")?)?,
        c: d.src(r.req("c")?)?,
        x,
        ci0,
        ci1,
    })
}

pub(super) fn imad(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let mode = if has(i, "WIDE") {
        ImadMode::Wide
    } else if has(i, "HI") {
        ImadMode::Hi
    } else {
        ImadMode::Lo
    };
    let co = d.opt_pdst(r.get("co"))?;
    let ci = d.opt_psrc(r.get("ci"), PSrc::FALSE)?;
    let (c, c64) = if mode == ImadMode::Lo {
        (
            d.src(r.req("c")?)?,
            Sop64 {
                s: Src64::Imm(0),
                neg: false,
                not: false,
                abs: false,
            },
        )
    } else {
        (Sop::ZERO, d.src64(r.req("c")?, ImmTy::Int)?)
    };
    let (a, b) = (d.src(r.req("a")?)?, d.src(r.req("b")?)?);
    let x = has(i, "X");
    // `IMAD.MOV.U32 d, RZ, RZ, c` and its kin (a zero factor, no
    // carries): ptxas's register copy, run as one (`exec/logic.rs` `mov` passes
    // an unwritten value on instead of failing); with `-c`, its
    // negated copy, likewise (ptxas negates a value it may never
    // have set in some lanes: `@P0 F2I.F64.TRUNC R10, ...` then an
    // unguarded `IMAD.MOV R6, RZ, RZ, -R10` whose result only `@P0`
    // code reads, generator seed 9900827, sm_80).
    if mode == ImadMode::Lo
        && !x
        && co == PDst::None
        && ci == PSrc::FALSE
        && (a == Sop::ZERO || b == Sop::ZERO)
    {
        let plain = Sop::plain(c.s);
        if c == plain {
            return Ok(Kind::Mov {
                d: d.dst(r.req("d")?)?,
                a: c.s,
            });
        }
        if c == (Sop { neg: true, ..plain }) {
            return Ok(Kind::Neg {
                d: d.dst(r.req("d")?)?,
                a: c.s,
            });
        }
    }
    Ok(Kind::Imad {
        mode,
        signed: !has(i, "U32"),
        x,
        d: d.dst(r.req("d")?)?,
        co,
        a,
        b,
        c,
        c64,
        ci,
    })
}

/// `LEA d, [co,] a, b, [c,] sh [, ci]`: the high word `c` is a source of
/// `.HI` without `.SX32` only; the table's first shape names it.
pub(super) fn lea(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let hi = has(i, "HI");
    let sx32 = has(i, "SX32");
    let x = has(i, "X");
    let co = d.opt_pdst(r.get("co"))?;
    let (a, b) = (d.src(r.req("a")?)?, d.src(r.req("b")?)?);
    // The high word: a source of `.HI` without `.SX32` only.
    let c = match (r.get("c"), hi && !sx32) {
        (Some(c), true) => d.src(c)?,
        (None, false) => Sop::ZERO,
        (Some(_), false) => return Err("a high-word source without .HI (or with .SX32)".into()),
        (None, true) => return Err("LEA.HI without .SX32 needs a high-word source".into()),
    };
    let sh = d.imm(r.req("sh")?)? as u32;
    let ci = d.opt_psrc(r.get("ci"), PSrc::FALSE)?;
    Ok(Kind::Lea {
        hi,
        x,
        sx32,
        d: d.dst(r.req("d")?)?,
        co,
        a,
        b,
        c,
        sh,
        ci,
    })
}

pub(super) fn lop3(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    let pd = d.opt_pdst(r.get("pd"))?;
    let dr = d.dst(r.req("d")?)?;
    let pin = d.psrc(r.req("pin")?)?;
    // `!PT`, or `!UPT` on ULOP3 (index 0 is the constant true
    // predicate in both files).
    if !(pin.idx == 0 && pin.neg) {
        return Err("LOP3's predicate input other than !PT is not modelled".into());
    }
    Ok(Kind::Lop3 {
        d: dr,
        pd,
        a: d.src(r.req("a")?)?,
        b: d.src(r.req("b")?)?,
        c: d.src(r.req("c")?)?,
        lut: d.imm(r.req("lut")?)? as u8,
    })
}

pub(super) fn shf(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let left = has(i, "L");
    if !left && !has(i, "R") {
        return Err("SHF needs .L or .R".into());
    }
    let wide = has(i, "U64") || has(i, "S64");
    Ok(Kind::Shf {
        d: d.dst(r.req("d")?)?,
        lo: d.plain(r.req("lo")?)?,
        sh: d.plain(r.req("sh")?)?,
        hi: d.plain(r.req("hi")?)?,
        left,
        hi_out: has(i, "HI"),
        wrap: has(i, "W"),
        wide,
        signed: has(i, "S32") || has(i, "S64"),
    })
}

pub(super) fn prmt(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let mode = [
        ("F4E", 1),
        ("B4E", 2),
        ("RC8", 3),
        ("ECL", 4),
        ("ECR", 5),
        ("RC16", 6),
    ]
    .iter()
    .find(|(m, _)| has(i, m))
    .map_or(0, |x| x.1);
    Ok(Kind::Prmt {
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
        sel: d.plain(r.req("sel")?)?,
        b: d.plain(r.req("b")?)?,
        mode,
    })
}

pub(super) fn isetp(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Isetp {
        p: d.pdst(r.req("p")?)?,
        q: d.pdst(r.req("q")?)?,
        a: d.src(r.req("a")?)?,
        b: d.src(r.req("b")?)?,
        cmp: icmp(i)?,
        signed: !has(i, "U32"),
        bop: bop(i)?,
        ps: d.psrc(r.req("ps")?)?,
        ex: if has(i, "EX") {
            Some(d.psrc(r.get("ex").ok_or("ISETP.EX needs a chained predicate")?)?)
        } else {
            None
        },
    })
}

pub(super) fn imnmx(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Imnmx {
        d: d.dst(r.req("d")?)?,
        a: d.src(r.req("a")?)?,
        b: d.src(r.req("b")?)?,
        signed: !has(i, "U32"),
        pmin: d.psrc(r.req("pmin")?)?,
    })
}

/// IABS, POPC and BREV: `d = S:a`.
pub(super) fn unary(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let (dr, a) = (d.dst(r.req("d")?)?, d.src(r.req("a")?)?);
    Ok(match i.op {
        ptxc::ir::Op::IABS => Kind::Iabs { d: dr, a },
        ptxc::ir::Op::POPC | ptxc::ir::Op::UPOPC => Kind::Popc { d: dr, a },
        _ => Kind::Brev { d: dr, a },
    })
}

pub(super) fn flo(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    if r.get("pd").is_some() {
        return Err("FLO with a predicate output is not modelled".into());
    }
    Ok(Kind::Flo {
        d: d.dst(r.req("d")?)?,
        a: d.src(r.req("a")?)?,
        signed: !has(i, "U32"),
        sh: has(i, "SH"),
    })
}

pub(super) fn sgxt(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Sgxt {
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
        n: d.plain(r.req("n")?)?,
        signed: !has(i, "U32"),
        wrap: has(i, "W"),
    })
}

pub(super) fn idp(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Idp {
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
        b: d.plain(r.req("b")?)?,
        c: d.plain(r.req("c")?)?,
        form: IdpForm::decode(&i.mods)?,
    })
}

pub(super) fn vabsdiff(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Vabsdiff {
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
        b: d.plain(r.req("b")?)?,
        c: d.plain(r.req("c")?)?,
        signed: !has(i, "U32"),
    })
}

pub(super) fn bmsk(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Bmsk {
        d: d.dst(r.req("d")?)?,
        pos: d.plain(r.req("pos")?)?,
        width: d.plain(r.req("width")?)?,
        wrap: has(i, "W"),
    })
}
