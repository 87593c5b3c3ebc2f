//! Control flow and convergence: BRA (incl. `.DIV`, `.U`, the predicate
//! operand), BRX, JMP, CALL, RET, EXIT, BSSY/BSYNC/BREAK/BMOV, WARPSYNC
//! (incl. `.COLLECTIVE` and ENDCOLLECTIVE), BAR, B2R.
//!
//! Semantics (UNCONFIRMED where marked):
//! - `@G BRA P, target` branches the lanes where both the guard and `P`
//!   hold (ptxas' division fast path: `@P0 BRA P1, 0x350` skips the slow
//!   path only when both checks passed). `BRA.U` is a plain branch (its
//!   predicate is uniform by construction).
//! - `BRA.DIV mask, target` (mask `~URZ` = all lanes, or a register): the
//!   whole executing group branches when it does not hold every live lane
//!   of `mask`, i.e. when the warp is diverged with respect to `mask`
//!   (UNCONFIRMED: derived from the shfl fallback paths ptxas emits).
//! - `BRX R, off`: target = `R + off + address of the next instruction`
//!   (cuobjdump prints the raw relative offset; `BRX R2 -0x830` at 0x820
//!   jumps to the address in R2: the jump table holds function offsets).
//!   `RET.REL.NODEC R, off`: target = `R + off` (cuobjdump prints RET's
//!   offset already resolved: the encoding at double_noinline.sm_80 0x690
//!   holds -0x6a0 = -(next address), printed as 0x0). `CALL.REL.NOINC`
//!   jumps; the caller has put the return address in a register (`MOV R4,
//!   0xc0`). There is no call stack. `CALL.REL.NOINC R6 0x0` (ptxas 11.8
//!   through a function address, `MOV R6, 0xf0`) jumps to `R + off` per
//!   lane, as RET does (the encoding holds -(next address) there too:
//!   `0xffffff50` at 0xa0).
//! - `BSSY Bn` records the executing lanes in `Bn` (its participants);
//!   `BSYNC Bn` blocks the executing lanes. The barrier resolves when every
//!   live participant waits at a `BSYNC Bn`, and releases its participants
//!   only; a waiting lane outside `Bn` stays blocked until a later value of
//!   `Bn` (restored by `BMOV Bn, R`) includes it and resolves. `BREAK Bn`
//!   removes lanes from `Bn`. `BMOV R, Bn` reads it (`.CLEAR` zeroes it),
//!   `BMOV Bn, R` sets it.
//!   Sources: NVIDIA's patent application US 2016/0019066 A1 ("Execution
//!   of divergent threads using a convergence barrier", abstract: the
//!   scheduler "determines that all of the participating threads are
//!   synchronized at the convergence barrier and the convergence barrier
//!   is cleared"); and ptxas 11.8's recursion (corpus/regressions/
//!   recursion_then_shfl, `-O3`): `fact` keeps its callers' barrier
//!   (`BMOV.32.CLEAR R2, B6` on entry, `BMOV.32 B6, R2` after its
//!   `BSSY B6`/`BSYNC B6` region) and the kernel's `SHFL` after the call
//!   has no `WARPSYNC`. With per-lane depths, lanes of several activations
//!   wait at, or reach together (one pc, one group), the same `BSYNC B6`
//!   while `B6` holds one activation's lanes; that listing is correct only
//!   if the others neither leave with them nor pass. The rule before
//!   (release every lane waiting on `Bn`; lanes outside `Bn` pass) ran that
//!   `SHFL` on part of the warp, and deadlocked ptxc's listing of the same
//!   PTX. UNCONFIRMED on hardware (no GPU measurement).
//! - `WARPSYNC mask` blocks until every live lane of `mask` has arrived at
//!   a `WARPSYNC` (any; sm_70+ allows different instructions). Exited lanes
//!   of `mask` count as arrived (UNCONFIRMED; PTX calls it undefined).
//!   `WARPSYNC.COLLECTIVE mask, target` does the same and records `target`,
//!   where `ENDCOLLECTIVE` continues (UNCONFIRMED).

use super::super::program::{BarKind, Kind, PSrc, Src};
use super::super::warp::{Stop, WaitKind, Warp};
use super::{Ctx, Flow};

/// The value of a uniform-looking operand for the group (its lowest lane).
fn scalar(w: &Warp, s: Src, m: u32) -> Result<u32, Stop> {
    let lane = if m == 0 { 0 } else { m.trailing_zeros() };
    match s {
        Src::Imm(v) => Ok(v),
        _ => w.read1(s, lane),
    }
}

fn code_target(ctx: &Ctx<'_>, a: i64, lane: u32, what: &str) -> Result<u32, Stop> {
    if a < 0 {
        return Err(Stop::fault(
            lane,
            format!("{what} to negative address {a:#x}"),
        ));
    }
    ctx.prog.index_of_addr(a as u64).ok_or_else(|| {
        Stop::fault(
            lane,
            format!("{what} to {a:#x}, which is not an instruction of the function"),
        )
    })
}

fn per_lane_targets(
    ctx: &Ctx<'_>,
    w: &Warp,
    m: u32,
    r: Src,
    base: i64,
    what: &str,
) -> Result<Flow, Stop> {
    let v = w.read(r, m)?;
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut mm = m;
    while mm != 0 {
        let l = mm.trailing_zeros();
        mm &= mm - 1;
        let t = code_target(ctx, base + i64::from(v[l as usize]), l, what)?;
        match out.iter_mut().find(|x| x.0 == t) {
            Some(x) => x.1 |= 1 << l,
            None => out.push((t, 1 << l)),
        }
    }
    Ok(Flow::Multi(out))
}

pub fn exec(
    ctx: &mut Ctx<'_>,
    w: &mut Warp,
    pc: u32,
    gmask: u32,
    m: u32,
    k: &Kind,
) -> Result<Flow, Stop> {
    Ok(match k {
        Kind::Bra { target, p, div } => {
            let mut taken = if *p == PSrc::TRUE {
                m
            } else {
                m & w.pred(*p, m)?
            };
            if let Some(mask) = div {
                let mv = scalar(w, *mask, gmask)?;
                if (w.live & mv) & !gmask == 0 {
                    taken = 0;
                }
            }
            Flow::Branch {
                taken,
                target: *target,
            }
        }
        Kind::Brx { r, off } => {
            let next = i64::from(pc) * 16 + 16;
            per_lane_targets(ctx, w, m, *r, off + next, "BRX")?
        }
        Kind::Call { target } => Flow::Branch {
            taken: m,
            target: *target,
        },
        Kind::CallReg { r, off } => per_lane_targets(ctx, w, m, *r, *off, "CALL")?,
        Kind::Ret { r, off } => per_lane_targets(ctx, w, m, *r, *off, "RET")?,
        Kind::Exit => Flow::Exit(m),
        Kind::Bssy { b } => {
            w.b[*b as usize] = m;
            Flow::Next
        }
        Kind::Bsync { b } => {
            if m == 0 {
                return Ok(Flow::Next);
            }
            let expected = w.b[*b as usize] & w.live;
            let at = w.waiting(|k| *k == WaitKind::Bsync(*b));
            if expected & m != 0 && expected & !(at | m) == 0 {
                // Resolved: its participants go on, lanes outside it stay.
                w.release(expected, |k| *k == WaitKind::Bsync(*b));
                match m & !expected {
                    0 => Flow::Next,
                    stay => Flow::Wait(stay, WaitKind::Bsync(*b)),
                }
            } else {
                Flow::Wait(m, WaitKind::Bsync(*b))
            }
        }
        Kind::Break { b, p } => {
            let lanes = m & w.pred(*p, m)?;
            w.b[*b as usize] &= !lanes;
            w.recheck();
            Flow::Next
        }
        Kind::BmovToR { d, b, clear } => {
            let v = [w.b[*b as usize]; 32];
            w.write(*d, m, &v);
            if *clear && m != 0 {
                w.b[*b as usize] = 0;
            }
            Flow::Next
        }
        Kind::BmovToB { b, a } => {
            if m != 0 {
                w.b[*b as usize] = scalar(w, *a, m)?;
                w.recheck();
            }
            Flow::Next
        }
        Kind::Warpsync { mask, collective } => {
            if m == 0 {
                return Ok(Flow::Next);
            }
            let mv = scalar(w, *mask, m)?;
            if let Some(t) = collective {
                w.coll_target = Some(*t);
            }
            let expected = mv & w.live;
            let at = w.waiting(|k| matches!(k, WaitKind::Warpsync(_)));
            if expected & !(at | m) == 0 {
                w.release(expected, |k| matches!(k, WaitKind::Warpsync(_)));
                Flow::Next
            } else {
                Flow::Wait(m, WaitKind::Warpsync(mv))
            }
        }
        Kind::EndCollective => match w.coll_target {
            Some(t) if m != 0 => Flow::Branch {
                taken: m,
                target: t,
            },
            Some(_) => Flow::Next,
            None if m == 0 => Flow::Next,
            None => {
                return Err(Stop::fault(
                    m.trailing_zeros(),
                    "ENDCOLLECTIVE without a preceding WARPSYNC.COLLECTIVE",
                ))
            }
        },
        Kind::Bar { kind, id, count, p } => {
            if m == 0 {
                return Ok(Flow::Next);
            }
            let idv = scalar(w, *id, m)?;
            if idv >= 16 {
                return Err(Stop::fault(
                    m.trailing_zeros(),
                    format!("barrier id {idv} is not in 0..16"),
                ));
            }
            let count = match count {
                Some(c) => Some(scalar(w, *c, m)?),
                None => None,
            };
            let preds = match kind {
                BarKind::RedPopc | BarKind::RedAnd | BarKind::RedOr => w.pred(*p, m)?,
                _ => 0,
            };
            Flow::Bar {
                lanes: m,
                id: idv,
                count,
                kind: *kind,
                preds,
            }
        }
        Kind::B2r { d, p } => {
            let v = w.bar_result;
            w.write(*d, m, &v);
            let nz = (0..32).fold(0u32, |acc, l| acc | u32::from(v[l] != 0) << l);
            w.write_pred(*p, m, nz);
            Flow::Next
        }
        other => {
            return Err(Stop::fault(
                m.trailing_zeros().min(31),
                format!("internal: no handler for {other:?}"),
            ))
        }
    })
}
