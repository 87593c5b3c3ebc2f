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
//!   `BRA.CONV mask, target` is its complement: the group branches when it
//!   holds every live lane of `mask`. ptxas 11.8 (sm_80) guards a
//!   `shfl.sync.idx` with `BRA.CONV ~URZ` to the bare `SHFL.IDX` and falls
//!   into a `CALL` of a `WARPSYNC 0xffffffff; SHFL.IDX` routine otherwise
//!   (both paths give the same values on a converged warp; UNCONFIRMED on
//!   hardware like `.DIV`).
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
//! - Convergence barriers `B0..B15`: one 32-lane membership mask each
//!   (`w.b[n]`) and no other state (`BMOV` reads and writes a barrier as
//!   one 32-bit word; whether the hardware keeps more is UNCONFIRMED).
//!   Rules:
//!   - `BSSY Bn` adds the executing lanes: `b[n] |= m`. Source: NVIDIA's
//!     US 10,067,768 B2 (application US 2016/0019066 A1, "Execution of
//!     divergent threads using a convergence barrier"), claim 1: the first
//!     instruction, "when executed by a thread, indicates to a scheduler
//!     unit that the thread participates in a convergence barrier" (read
//!     as per thread, so lanes already in it stay: UNCONFIRMED beyond that
//!     wording). Evidence: ptxc's listing of the
//!     `corpus/arch_matrix` seeds (`oracle/tests/fuzz_seeds.rs`
//!     `arch_matrix_target_on_seeds`) opens `BSSY B0` call regions in both
//!     arms of a divergent `if`; this simulator runs the lowest pc first,
//!     so after the first arm's `CALL` the second arm's `BSSY B0` runs
//!     before the first arm's `BSYNC B0`. Overwriting `b[0]` then dropped
//!     the first arm from its own region (a deadlock once non-members
//!     wait, below); adding merges the two regions (below).
//!   - `BSYNC Bn` blocks every executing lane. The barrier resolves when it
//!     has live members and every live member waits at a `BSYNC Bn` (any
//!     one: the merged sibling regions above wait at two); then exactly
//!     the waiting members go on and leave it (`b[n] &= !members`), so a
//!     later `BSSY Bn` starts a fresh region. Exited lanes are not waited
//!     for. Source: the patent's claim 1, "determining that the
//!     participating threads are synchronized at the convergence barrier
//!     when each thread of the participating threads is in ... the blocked
//!     state ... and clearing the convergence barrier". (Its yielded state,
//!     which also counts as synchronized, is not modelled: `YIELD` is a
//!     no-op here.) Leaving on release is UNCONFIRMED; no committed SASS
//!     listing (corpus/, oracle/tests/*_vendor: 278 files) has two `BSYNC
//!     Bn` of one function without a `BSSY Bn` between, and without it a
//!     region opened by part of the warp after a warp-wide one on the same
//!     barrier would wait for lanes that left (sim_semantics
//!     `a_resolved_bsync_region_releases_its_members_from_the_barrier`).
//!   - A lane outside `Bn` at `BSYNC Bn` waits too, until a later value of
//!     `Bn` (restored by `BMOV Bn, R`) includes it and resolves; other
//!     lanes waiting on `Bn` never take it along. UNCONFIRMED on hardware;
//!     required by ptxas 11.8's recursion (corpus/regressions/
//!     recursion_then_shfl, `-O3`): `fact` keeps its callers' barrier
//!     (`BMOV.32.CLEAR R2, B6` on entry, `BMOV.32 B6, R2` after its
//!     `BSSY B6`/`BSYNC B6` region) and the kernel's `SHFL` after the call
//!     has no `WARPSYNC`. With per-lane depths, lanes of an outer
//!     activation reach, or wait at, the one `BSYNC B6` while `B6` holds
//!     an inner activation's lanes; that listing is correct only if they
//!     neither pass nor leave with the inner ones. Measured: letting such
//!     lanes pass runs the `SHFL` on part of the warp (sim_semantics
//!     `bsync_releases_only_its_participants_across_recursive_activations`,
//!     lower_recursion's ptxc listings, the regressions); releasing every
//!     waiting lane did the same (the rule before 2026-11-27).
//!   - Merged regions can deadlock where separate ones would not: a member
//!     waiting at `BSYNC B0` while another member of `B0` (the sibling arm)
//!     waits at a `WARPSYNC` whose mask needs the first before reaching its
//!     own `BSYNC B0`. With one mask per barrier the hardware merges alike
//!     when the arms interleave so; whether its scheduler ever interleaves
//!     them so is UNCONFIRMED (this one runs the lowest pc first and so
//!     switches arms at a `CALL`). Such a run is reported as a deadlock.
//!   - `BREAK Bn` removes the lanes where its predicate holds (no listing
//!     here has one: UNCONFIRMED). `BMOV R, Bn` reads the mask (`.CLEAR`
//!     zeroes it: the lanes leave without being released), `BMOV Bn, R`
//!     sets it (and may resolve it); both as ptxas's recursion uses them
//!     (oracle/tests/recursion_vendor, indirect_call_vendor).
//! - `WARPSYNC mask` blocks until every live lane of `mask` has arrived at
//!   a `WARPSYNC` (any; sm_70+ allows different instructions). Exited lanes
//!   of `mask` count as arrived (UNCONFIRMED; PTX calls it undefined).
//!   `WARPSYNC.COLLECTIVE mask, target` does the same and records `target`,
//!   where `ENDCOLLECTIVE` continues (UNCONFIRMED).

use super::super::program::{BarKind, Convergence, Kind, PSrc, Src};
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
            if let Some((mask, test)) = div {
                let mv = scalar(w, *mask, gmask)?;
                let converged = (w.live & mv) & !gmask == 0;
                if converged != (*test == Convergence::Converged) {
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
            w.b[*b as usize] |= m;
            Flow::Next
        }
        Kind::Bsync { b } => {
            if m == 0 {
                return Ok(Flow::Next);
            }
            match m & !w.resolve_bsync(*b, m) {
                0 => Flow::Next,
                stay => Flow::Wait(stay, WaitKind::Bsync(*b)),
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
