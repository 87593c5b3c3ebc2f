//! Special registers (S2R, S2UR, CS2R). The uniform datapath's arithmetic
//! (UIADD3, ULOP3, USHF, UPRMT, USEL, UISETP, UMOV, R2UR, ULDC, ...) runs
//! through the same handlers as the vector forms, computed once for the
//! lowest executing lane and written to the uniform register file
//! (`DInst::uniform`).
//!
//! Values: `SR_CLOCKLO/HI` and the global timer are the run's count of
//! thread-instructions so far (deterministic, monotonic); `SR_VIRTID` has
//! the warp index in bits 14:8 (docs/SEMANTICS.md, Special registers), `SR_SMID`
//! and `SR_CgaCtaId` are 0 (one SM, no clusters), `SR_PM0..7` 0, and
//! `SR_SMEMSZ` the CTA's shared window with its reserved base (corpus/LAUNCH_SPEC.md
//! "Special registers"), `SR_SWINLO/HI` the generic shared window ([`swin`]).

use super::super::program::{Dst, SReg};
use super::super::warp::{Stop, Warp};
use super::Ctx;

pub fn s2r(ctx: &Ctx<'_>, w: &mut Warp, m: u32, d: Dst, sr: SReg, wide: bool) -> Result<(), Stop> {
    let mut r = [0u64; 32];
    for (l, x) in r.iter_mut().enumerate() {
        let lane = l as u32;
        *x = match sr {
            SReg::Zero => 0,
            SReg::Tid(k) => u64::from(w.tid[l][k as usize]),
            SReg::Ctaid(k) => u64::from(ctx.ctaid[k as usize]),
            SReg::LaneId => u64::from(lane),
            SReg::ClockLo | SReg::GlobalTimerLo => ctx.clock & 0xffff_ffff,
            SReg::ClockHi | SReg::GlobalTimerHi => ctx.clock >> 32,
            SReg::Clock64 => ctx.clock,
            SReg::EqMask => 1u64 << lane,
            SReg::LtMask => (1u64 << lane) - 1,
            SReg::LeMask => (1u64 << (lane + 1)) - 1,
            SReg::GtMask => u64::from(u32::MAX << lane) & !(1u64 << lane) & 0xffff_ffff,
            SReg::GeMask => u64::from(u32::MAX << lane),
            SReg::VirtId => u64::from(w.id & 0x7f) << 8,
            SReg::WarpId => u64::from(w.id),
            SReg::SmId | SReg::CgaCtaId => 0,
            // The CTA's window: the SM table's reserved base plus the
            // static and dynamic bytes (`bank0` puts the reserved size at
            // `CbankLayout::reserved_smem`, which `%total_smem_size`
            // subtracts on sm_80+: the interpreter's static + dynamic).
            SReg::SmemSz => u64::from(ctx.cta.shared_base) + ctx.cta.shared.len() as u64,
            // The interpreter's `%pmN`: 0 (no counters are modelled).
            SReg::Pm(_) => 0,
            SReg::SwinLo => swin(ctx) & 0xffff_ffff,
            SReg::SwinHi => swin(ctx) >> 32,
        };
    }
    if wide {
        w.write64(d, m, &r);
    } else {
        w.write(d, m, &r.map(|x| x as u32));
    }
    Ok(())
}

/// The base `SR_SWINLO`/`SR_SWINHI` report: the generic shared window,
/// generic = base + shared address (memory.rs), the word ptxc's
/// `cvta.shared` reads from `c[0x0][0x18]`. ptxas 11.8's sm_90
/// `cvta.shared` is `UIADD3 lo, UP0, s, SR_SWINLO` + `UIADD3.X hi, URZ,
/// SR_SWINHI` with `s` counting from 0x400, `cvta.to.shared` subtracts
/// `SR_SWINLO`, and its generic-atomic fallback takes a generic address's
/// low 24 bits as the shared address: the window is aligned.
fn swin(ctx: &Ctx<'_>) -> u64 {
    crate::ptx_interp::memory::Windows::new(!ctx.inputs.addr32).shared
}
