//! Warp-collective decoders: VOTE/VOTEU, SHFL, MATCH, REDUX.

use ptxc::ir::Inst;

use super::super::program::{Kind, ReduxOp, ShflMode, VoteKind};
use super::modifiers::has;
use super::{DResult, Dec, Roles};

pub(super) fn vote(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let kind = if has(i, "ALL") {
        VoteKind::All
    } else if has(i, "ANY") {
        VoteKind::Any
    } else if has(i, "EQ") {
        VoteKind::Eq
    } else {
        return Err("VOTE needs .ALL/.ANY/.EQ".into());
    };
    let dr = match r.get("d") {
        Some(x) => d.dst(x)?,
        None => super::super::program::Dst::None,
    };
    Ok(Kind::Vote {
        d: dr,
        p: d.opt_pdst(r.get("pd"))?,
        kind,
        src: d.psrc(r.req("src")?)?,
    })
}

pub(super) fn shfl(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    Ok(Kind::Shfl {
        p: d.pdst(r.req("pd")?)?,
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
        b: d.plain(r.req("b")?)?,
        c: d.plain(r.req("c")?)?,
        mode: if has(i, "IDX") {
            ShflMode::Idx
        } else if has(i, "UP") {
            ShflMode::Up
        } else if has(i, "DOWN") {
            ShflMode::Down
        } else if has(i, "BFLY") {
            ShflMode::Bfly
        } else {
            return Err("SHFL needs a mode".into());
        },
    })
}

pub(super) fn match_(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let p = d.opt_pdst(r.get("pd"))?;
    let dr = d.dst(r.req("d")?)?;
    Ok(Kind::Match {
        p,
        d: dr,
        a: d.plain(r.req("a")?)?,
        wide: has(i, "U64"),
        all: has(i, "ALL"),
    })
}

pub(super) fn redux(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let op = [
        ("SUM", ReduxOp::Sum),
        ("MIN", ReduxOp::Min),
        ("MAX", ReduxOp::Max),
        ("AND", ReduxOp::And),
        ("OR", ReduxOp::Or),
        ("XOR", ReduxOp::Xor),
    ]
    .iter()
    .find(|(m, _)| has(i, m))
    // No modifier: AND, REDUX's default (ptxas 11.8 prints
    // `redux.sync.and.b32` as `REDUX UR6, R0`).
    .map_or(ReduxOp::And, |x| x.1);
    Ok(Kind::Redux {
        d: d.dst(r.req("d")?)?,
        a: d.plain(r.req("a")?)?,
        op,
        signed: has(i, "S32"),
    })
}
