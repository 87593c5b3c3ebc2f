//! Warp-synchronous operations over the executing lanes: VOTE/VOTEU, SHFL,
//! MATCH, REDUX.
//!
//! SASS's SHFL/VOTE/MATCH/REDUX have no member mask: they act on the lanes
//! executing together (the group). ptxas makes the named lanes converge
//! first (`WARPSYNC mask`, or a BSSY/BSYNC region), and the scheduler runs a
//! group only as one unit, so the group is exactly the converged set.
//! - VOTE: the ballot is `P & executing lanes`; `.ANY` = ballot != 0,
//!   `.ALL` = ballot == executing, `.EQ` = all equal. The register result is
//!   the ballot.
//! - SHFL (PTX `shfl.sync` rules, docs/SEMANTICS.md, Shuffles and votes): `c[4:0]` clamp,
//!   `c[12:8]` segment mask; an invalid source lane reads its own value and
//!   clears the predicate. A valid source lane outside the group is a
//!   warp-synchronisation error: the PTX interpreter rejects a `shfl.sync`
//!   that reads a lane not taking part (ISA: "undefined"), so in code
//!   compiled from a defined program it means the lanes the PTX named did
//!   not converge (a missing `WARPSYNC` or BSSY/BSYNC region). Reading the
//!   lane's stale register instead hid exactly that once (a `.func` call
//!   without a reconvergence barrier, blamed on register allocation
//!   because the stale value happened to be right before it).
//! - MATCH.ANY: lanes of the group with an equal value; `.ALL`: the group
//!   if all equal (predicate set), else 0.
//! - REDUX (uniform destination): over the group's values.

use super::super::program::{Dst, PDst, PSrc, ReduxOp, ShflMode, Src, VoteKind};
use super::super::warp::{Stop, Warp};
use crate::ptx_interp::UbKind;

pub fn vote(w: &mut Warp, m: u32, d: Dst, p: PDst, kind: VoteKind, src: PSrc) -> Result<(), Stop> {
    let ballot = w.pred(src, m)? & m;
    let b = match kind {
        VoteKind::Any => ballot != 0,
        VoteKind::All => ballot == m,
        VoteKind::Eq => ballot == 0 || ballot == m,
    };
    w.write(d, m, &[ballot; 32]);
    w.write_pred(p, m, if b { u32::MAX } else { 0 });
    Ok(())
}

/// The source lane of `lane` and whether it is valid (PTX shfl.sync).
#[inline]
pub fn shfl_lane(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let lane = i64::from(lane & 31);
    let bv = i64::from(b & 31);
    let cv = i64::from(c & 31);
    let seg = i64::from((c >> 8) & 31);
    let max_lane = (lane & seg) | (cv & !seg & 31);
    let min_lane = lane & seg;
    let (j, ok) = match mode {
        ShflMode::Up => (lane - bv, lane - bv >= max_lane),
        ShflMode::Down => (lane + bv, lane + bv <= max_lane),
        ShflMode::Bfly => (lane ^ bv, (lane ^ bv) <= max_lane),
        ShflMode::Idx => {
            let j = min_lane | (bv & !seg & 31);
            (j, j <= max_lane)
        }
    };
    if ok {
        (j as u32, true)
    } else {
        (lane as u32, false)
    }
}

#[allow(clippy::too_many_arguments)]
pub fn shfl(
    w: &mut Warp,
    m: u32,
    p: PDst,
    d: Dst,
    a: Src,
    b: Src,
    c: Src,
    mode: ShflMode,
) -> Result<(), Stop> {
    let va = w.read(a, m)?;
    let all = match a {
        Src::R(i) => w.r[i as usize],
        _ => va,
    };
    let vb = w.read(b, m)?;
    let vc = w.read(c, m)?;
    let mut r = [0u32; 32];
    let mut ok = 0u32;
    for l in 0..32u32 {
        let (j, valid) = shfl_lane(mode, l, vb[l as usize], vc[l as usize]);
        if m >> l & 1 != 0 && m >> j & 1 == 0 {
            return Err(Stop::ub(
                l,
                UbKind::WarpSyncMismatch(format!(
                    "SHFL in lane {l} reads lane {j}, which is not executing with it (the lanes did not converge)"
                )),
            ));
        }
        r[l as usize] = all[j as usize];
        ok |= u32::from(valid) << l;
    }
    w.write(d, m, &r);
    w.write_pred(p, m, ok);
    Ok(())
}

pub fn match_(
    w: &mut Warp,
    m: u32,
    p: PDst,
    d: Dst,
    a: Src,
    wide: bool,
    all: bool,
) -> Result<(), Stop> {
    let lo = w.read(a, m)?;
    let hi = if wide {
        match a {
            Src::R(i) => w.read(Src::R(i + 1), m)?,
            _ => [0; 32],
        }
    } else {
        [0; 32]
    };
    let key = |l: usize| (u64::from(hi[l]) << 32) | u64::from(lo[l]);
    let mut r = [0u32; 32];
    let first = m.trailing_zeros() as usize;
    let same_all = (0..32).all(|l| m >> l & 1 == 0 || key(l) == key(first.min(31)));
    for (l, x) in r.iter_mut().enumerate() {
        if m >> l & 1 == 0 {
            continue;
        }
        *x = if all {
            if same_all {
                m
            } else {
                0
            }
        } else {
            (0..32)
                .filter(|&k| m >> k & 1 != 0 && key(k) == key(l))
                .fold(0, |x, k| x | 1 << k)
        };
    }
    w.write(d, m, &r);
    w.write_pred(p, m, if same_all { u32::MAX } else { 0 });
    Ok(())
}

pub fn redux(w: &mut Warp, m: u32, d: Dst, a: Src, op: ReduxOp, signed: bool) -> Result<(), Stop> {
    let v = w.read(a, m)?;
    let lanes = (0..32).filter(|l| m >> l & 1 != 0).map(|l| v[l]);
    let r = match op {
        ReduxOp::Sum => lanes.fold(0u32, u32::wrapping_add),
        ReduxOp::And => lanes.fold(u32::MAX, |x, y| x & y),
        ReduxOp::Or => lanes.fold(0, |x, y| x | y),
        ReduxOp::Xor => lanes.fold(0, |x, y| x ^ y),
        ReduxOp::Min if signed => lanes.map(|x| x as i32).min().unwrap_or(0) as u32,
        ReduxOp::Max if signed => lanes.map(|x| x as i32).max().unwrap_or(0) as u32,
        ReduxOp::Min => lanes.min().unwrap_or(0),
        ReduxOp::Max => lanes.max().unwrap_or(0),
    };
    w.write(d, m, &[r; 32]);
    Ok(())
}
