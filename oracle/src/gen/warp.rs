//! Warp-synchronous statements (`warp`): `shfl.sync`, `vote.sync`,
//! `activemask` and the CTA-wide `bar.red.popc`.
//!
//! Defined by construction: generated only where no thread-dependent
//! branch or loop encloses them (`diverged == 0`) and only in programs
//! whose blocks are whole warps (program.rs picks such a block shape), so
//! every lane of every warp is present and converged, and the member mask
//! `0xffffffff` is exactly the warp (PTX ISA 9.7.8.6: the mask must name
//! the executing threads). Shuffle lanes and clamps: `idx`/`bfly`/`down`
//! with `c = 0x1f`, `up` with `c = 0` (9.7.8.6's segment rules), lane and
//! offset values are masked to 0..31. `activemask` (which does not
//! synchronize) follows a `bar.warp.sync -1`, so it always sees the whole
//! warp.

use super::emit::{Gen, RC};
use super::features::VType;

impl Gen<'_, '_, '_> {
    pub fn warp_stmt(&mut self) {
        if self.diverged > 0 || self.in_func {
            return;
        }
        match self.src.below(5) {
            0 | 1 => {
                let mode = self.src.pick(&["idx", "bfly", "down", "up"]);
                let clamp = if mode == "up" { 0 } else { 31 };
                let b = if self.src.chance(0.5) {
                    self.src.below(32).to_string()
                } else {
                    let v = self.reg_of(VType::U32);
                    let t = self.fresh(RC::B32);
                    self.ins(format!("and.b32 {t}, {v}, 31"));
                    t.to_string()
                };
                let t = if self.fs.has_type(VType::F32) && self.src.chance(0.3) {
                    VType::F32
                } else {
                    VType::U32
                };
                let a = self.reg_of(t);
                let d = self.fresh(a.rc);
                if self.src.chance(0.3) {
                    let p = self.fresh(RC::Pred);
                    self.ins(format!(
                        "shfl.sync.{mode}.b32 {d}|{p}, {a}, {b}, {clamp}, -1"
                    ));
                    self.define(p);
                } else {
                    self.ins(format!("shfl.sync.{mode}.b32 {d}, {a}, {b}, {clamp}, -1"));
                }
                self.define(d);
            }
            2 => {
                let p = self.warp_pred();
                let d = self.fresh(RC::B32);
                self.ins(format!("vote.sync.ballot.b32 {d}, {p}, -1"));
                self.define(d);
            }
            3 => {
                let p = self.warp_pred();
                let mode = self.src.pick(&["any", "all"]);
                let d = self.fresh(RC::Pred);
                self.ins(format!("vote.sync.{mode}.pred {d}, {p}, -1"));
                self.define(d);
            }
            _ => {
                let d = self.fresh(RC::B32);
                if self.src.chance(0.3) {
                    // Reconvergence after earlier divergent code is not
                    // guaranteed (independent thread scheduling), so
                    // `activemask` alone may see part of the warp: the
                    // warp barrier first makes the full mask the only
                    // answer (found by the arch_matrix fuzz seeds: lanes
                    // still in a div.rn.f64 slow path).
                    self.ins("bar.warp.sync -1");
                    self.ins(format!("activemask.b32 {d}"));
                } else {
                    let p = self.warp_pred();
                    self.ins(format!("bar.red.popc.u32 {d}, 0, {p}"));
                }
                self.define(d);
            }
        }
    }

    /// A predicate for a vote: from the pool, or a fresh comparison.
    fn warp_pred(&mut self) -> String {
        if let Some(p) = self.pick_reg(RC::Pred) {
            if self.src.chance(0.5) {
                return p.to_string();
            }
        }
        let v = self.reg_of(VType::U32);
        let p = self.fresh(RC::Pred);
        let c = self.src.below(8);
        self.ins(format!("setp.lt.u32 {p}, {v}, {c}"));
        self.define(p);
        p.to_string()
    }
}
