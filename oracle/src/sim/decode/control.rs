//! Control decoders: branches, calls and returns, convergence barriers
//! (BSSY/BSYNC/BREAK/BMOV), WARPSYNC, BAR and B2R.

use ptxc::ir::{Inst, Operand};

use super::super::program::{BarKind, Convergence, Kind, PDst, PSrc, Sop, Src};
use super::modifiers::has;
use super::{DResult, Dec, Roles};

/// `BRA [p,] [mask,] target`.
pub(super) fn bra(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let target = d.target(r.get("target").ok_or("BRA needs a target")?)?;
    let p = d.opt_psrc(r.get("p"), PSrc::TRUE)?;
    let div = r.get("mask").map(|x| d.src(x)).transpose()?;
    let test = if has(i, "DIV") {
        Some(Convergence::Diverged)
    } else if has(i, "CONV") {
        Some(Convergence::Converged)
    } else {
        None
    };
    let div = if let Some(test) = test {
        let m = div.unwrap_or(Sop::plain(Src::Imm(u32::MAX)));
        let mask = if m.not {
            match m.s {
                Src::Imm(v) => Src::Imm(!v),
                _ => return Err("BRA.DIV/.CONV ~register is only modelled for URZ".into()),
            }
        } else {
            m.s
        };
        Some((mask, test))
    } else {
        if div.is_some() {
            return Err("a BRA register operand without .DIV or .CONV is not modelled".into());
        }
        if has(i, "INC") || has(i, "DEC") {
            return Err("BRA.INC/.DEC are not modelled".into());
        }
        None
    };
    Ok(Kind::Bra { target, p, div })
}

pub(super) fn jmp(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Bra {
        target: d.target(r.req("target")?)?,
        p: PSrc::TRUE,
        div: None,
    })
}

/// BRX and JMX: `R offset`.
pub(super) fn brx(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    let Operand::RegRel { reg, offset } = r.req("target")? else {
        return Err("BRX needs `R offset`".into());
    };
    Ok(Kind::Brx {
        r: d.reg_src(*reg),
        off: *offset,
    })
}

pub(super) fn call(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    Ok(match r.req("target")? {
        o @ (Operand::Label(_) | Operand::Imm(_)) => Kind::Call {
            target: d.target(o)?,
        },
        // `CALL.REL.NOINC R6 0x0` (ptxas 11.8 through a function
        // address): like RET, the printed offset is resolved.
        Operand::RegRel { reg, offset } => Kind::CallReg {
            r: d.reg_src(*reg),
            off: *offset,
        },
        _ => return Err("CALL needs a label, an address or `R offset`".into()),
    })
}

pub(super) fn ret(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    let Operand::RegRel { reg, offset } = r.req("target")? else {
        return Err("RET needs `R offset`".into());
    };
    Ok(Kind::Ret {
        r: d.reg_src(*reg),
        off: *offset,
    })
}

/// The convergence barrier `B0..B15` that plays `role`.
fn barrier(r: &Roles<'_>, role: &str, what: &str) -> DResult<u8> {
    match r.get(role) {
        Some(Operand::Barrier(b)) => Ok(*b),
        _ => Err(format!("{what} needs a barrier")),
    }
}

pub(super) fn bssy(r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Bssy {
        b: barrier(r, "b", "BSSY")?,
    })
}

pub(super) fn bsync(r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Bsync {
        b: barrier(r, "b", "BSYNC")?,
    })
}

pub(super) fn brk(d: &Dec<'_>, r: &Roles<'_>) -> DResult<Kind> {
    let b = barrier(r, "b", "BREAK")?;
    let p = d.opt_psrc(r.get("p"), PSrc::TRUE)?;
    Ok(Kind::Break { b, p })
}

/// `BMOV d, B` (read, `.CLEAR` resets it) or `BMOV B, a` (write).
pub(super) fn bmov(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let b = barrier(r, "b", "BMOV")?;
    Ok(match (r.get("a"), r.get("d")) {
        (Some(a), _) => Kind::BmovToB { b, a: d.plain(a)? },
        (None, Some(dr)) => Kind::BmovToR {
            d: d.dst(dr)?,
            b,
            clear: has(i, "CLEAR"),
        },
        _ => return Err("BMOV form not modelled".into()),
    })
}

pub(super) fn warpsync(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let mask = if has(i, "ALL") {
        Src::Imm(u32::MAX)
    } else {
        d.plain(r.req("mask")?)?
    };
    let collective = if has(i, "COLLECTIVE") {
        // The second source: the target printed after the mask.
        let target = r.get("mask").and(r.get("target"));
        Some(d.target(target.ok_or("WARPSYNC.COLLECTIVE needs a target")?)?)
    } else {
        None
    };
    Ok(Kind::Warpsync { mask, collective })
}

pub(super) fn bar(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let kind = if has(i, "RED") {
        if has(i, "POPC") {
            BarKind::RedPopc
        } else if has(i, "AND") {
            BarKind::RedAnd
        } else if has(i, "OR") {
            BarKind::RedOr
        } else {
            return Err("BAR.RED needs .POPC/.AND/.OR".into());
        }
    } else if has(i, "ARV") {
        BarKind::Arrive
    } else {
        BarKind::Sync
    };
    let id = r.get("id").map(|x| d.plain(x)).transpose()?;
    let count = r.get("count").map(|x| d.plain(x)).transpose()?;
    Ok(Kind::Bar {
        kind,
        id: id.unwrap_or(Src::Imm(0)),
        count,
        p: d.opt_psrc(r.get("p"), PSrc::TRUE)?,
    })
}

/// `B2R.RESULT d[, p]`.
pub(super) fn b2r(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    if !has(i, "RESULT") {
        return Err("only B2R.RESULT is modelled".into());
    }
    Ok(Kind::B2r {
        d: d.dst(r.req("d")?)?,
        p: match r.get("pd") {
            Some(x) => d.pdst(x)?,
            None => PDst::None,
        },
    })
}
