//! Warp-synchronous statements (`warp`): `shfl.sync` (all four modes,
//! varied clamp and segment values), `vote.sync` (`.ballot.b32`,
//! `.any/.all/.uni.pred`), `match.any/.all.sync` (`.b32`, `.b64`),
//! `activemask` and the CTA-wide `bar.red` (`.popc.u32`, `.and/.or.pred`).
//!
//! Defined by construction: generated only where no thread-dependent
//! branch or loop encloses them (`diverged == 0`) and only in programs
//! whose blocks are whole warps (program.rs picks such a block shape), so
//! every lane of every warp is present, and the member mask names exactly
//! the lanes that execute the instruction (PTX ISA, shfl.sync / vote.sync / match.sync: the executing
//! thread must be in the mask, and every thread the mask names must
//! execute the same instruction):
//! - full-warp forms use the mask `0xffffffff` and are unguarded;
//! - half-warp forms (`half_warp_stmt`) are guarded by `lane < 16` (or
//!   `lane >= 16`) and name that half (`0x0000ffff` / `0xffff0000`); a
//!   shuffle there uses a segment width of at most 16 lanes with the
//!   matching clamp (`c = ((32-w) << 8) | 0x1f`, `up`: `(32-w) << 8`, as
//!   CUDA's `__shfl_*_sync(.., width)` writes it, docs/SEMANTICS.md) and a
//!   lane operand below `w`, so every source lane lies in the thread's own
//!   segment, inside its half (PTX ISA, shfl.sync's pseudo-code:
//!   `minLane = lane & segmask`, `maxLane = minLane | (c & ~segmask)`); the
//!   guarded write targets a register defined before (emit.rs rule).
//!
//! Full-warp shuffles take any `b` and any `c` (the pseudo-code computes a
//! lane in 0..31 or falls back to the thread's own value). `activemask`
//! (which does not synchronize), `match.sync` and `vote.sync.uni` follow a
//! `bar.warp.sync -1`: after divergent code, lanes need not have
//! reconverged (independent thread scheduling: found by the arch_matrix
//! fuzz seeds, lanes still in a div.rn.f64 slow path), and ptxc computes
//! the member set of MATCH/VOTE.uni as `activemask & mask`
//! (compiler/src/lower/warp_sync.rs), so the barrier makes the whole warp
//! the only answer.
//!
//! Not generated: `redux.sync` (PTX ISA, redux.sync: sm_80 and later; the
//! generator's modules declare `.target sm_70`, which the sm_70 columns of
//! every matrix need, so a `redux` would be a compile error there).

use super::emit::{Gen, Reg, RC};
use super::features::VType;

impl Gen<'_, '_, '_> {
    pub fn warp_stmt(&mut self) {
        if self.diverged > 0 || self.in_func {
            return;
        }
        match self.src.below(9) {
            0 | 1 => self.shfl_stmt(),
            2 => {
                let p = self.warp_pred();
                let d = self.fresh(RC::B32);
                self.ins(format!("vote.sync.ballot.b32 {d}, {p}, -1"));
                self.define(d);
            }
            3 => {
                let p = self.warp_pred();
                let mode = self.src.pick(&["any", "all", "uni"]);
                let d = self.fresh(RC::Pred);
                if mode == "uni" {
                    self.ins("bar.warp.sync -1");
                }
                self.ins(format!("vote.sync.{mode}.pred {d}, {p}, -1"));
                self.define(d);
            }
            4 | 5 => self.match_stmt(),
            6 => self.half_warp_stmt(),
            7 => {
                let p = self.warp_pred();
                let d = self.fresh(RC::B32);
                self.ins(format!("bar.red.popc.u32 {d}, 0, {p}"));
                self.define(d);
            }
            _ => {
                if self.src.chance(0.5) {
                    let p = self.warp_pred();
                    let op = self.src.pick(&["and", "or"]);
                    let neg = if self.src.chance(0.3) { "!" } else { "" };
                    let d = self.fresh(RC::Pred);
                    self.ins(format!("bar.red.{op}.pred {d}, 0, {neg}{p}"));
                    self.define(d);
                } else {
                    let d = self.fresh(RC::B32);
                    self.ins("bar.warp.sync -1");
                    self.ins(format!("activemask.b32 {d}"));
                    self.define(d);
                }
            }
        }
    }

    /// A full-warp `shfl.sync` in one of the four modes, with the usual
    /// clamps (`0x1f`, `up`: 0), a segment width below 32, or any `c`.
    fn shfl_stmt(&mut self) {
        let mode = self.src.pick(&["idx", "bfly", "down", "up"]);
        let c = match self.src.below(3) {
            0 => {
                if mode == "up" {
                    0
                } else {
                    31
                }
            }
            1 => {
                let w = self.src.pick(&[2u32, 4, 8, 16]);
                segment_c(mode, w)
            }
            _ => self.src.below(0x2000),
        };
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
            self.ins(format!("shfl.sync.{mode}.b32 {d}|{p}, {a}, {b}, {c}, -1"));
            self.define(p);
        } else {
            self.ins(format!("shfl.sync.{mode}.b32 {d}, {a}, {b}, {c}, -1"));
        }
        self.define(d);
    }

    /// `match.any.sync` or `match.all.sync` (`.b32`/`.b64`, `.all` with or
    /// without its predicate) over a value that often repeats between
    /// lanes (a pooled value with few bits kept, or with equal halves).
    fn match_stmt(&mut self) {
        let wide = self.src.chance(0.4);
        let a = if wide {
            let v = self.reg_of(VType::U64);
            match self.src.below(3) {
                0 => v,
                1 => {
                    // few distinct values, differing in the high word only
                    let t = self.fresh(RC::B64);
                    self.ins(format!("and.b64 {t}, {v}, 0x300000000"));
                    t
                }
                _ => {
                    // one half kept: equal low words, lane-dependent high
                    let t = self.fresh(RC::B64);
                    let lane = self.lane();
                    let hi = self.fresh(RC::B32);
                    self.ins(format!("shr.u32 {hi}, {lane}, 3"));
                    let lo = self.reg_of(VType::U32);
                    self.ins(format!("mov.b64 {t}, {{{lo}, {hi}}}"));
                    t
                }
            }
        } else {
            let v = self.reg_of(VType::U32);
            if self.src.chance(0.6) {
                let t = self.fresh(RC::B32);
                let m = self.src.pick(&[1u32, 3, 7, 0x80000001]);
                self.ins(format!("and.b32 {t}, {v}, {m}"));
                t
            } else {
                v
            }
        };
        let ty = if wide { "b64" } else { "b32" };
        let d = self.fresh(RC::B32);
        self.ins("bar.warp.sync -1");
        if self.src.chance(0.5) {
            self.ins(format!("match.any.sync.{ty} {d}, {a}, -1"));
        } else if self.src.chance(0.5) {
            let p = self.fresh(RC::Pred);
            self.ins(format!("match.all.sync.{ty} {d}|{p}, {a}, -1"));
            self.define(p);
        } else {
            self.ins(format!("match.all.sync.{ty} {d}, {a}, -1"));
        }
        self.define(d);
    }

    /// A warp operation on one half of the warp: guarded by the half's
    /// lanes, the mask naming exactly them (see the module comment).
    fn half_warp_stmt(&mut self) {
        let lane = self.lane();
        let g = self.fresh(RC::Pred);
        let upper = self.src.chance(0.5);
        let (cmp, mask) = if upper {
            ("ge", "0xffff0000")
        } else {
            ("lt", "0x0000ffff")
        };
        self.ins(format!("setp.{cmp}.u32 {g}, {lane}, 16"));
        if self.src.chance(0.5) {
            let Some(d) = self.pick_mutable(RC::B32) else {
                return;
            };
            let mode = self.src.pick(&["idx", "bfly", "down", "up"]);
            let w = self.src.pick(&[2u32, 4, 8, 16]);
            let c = segment_c(mode, w);
            let v = self.reg_of(VType::U32);
            let b = self.fresh(RC::B32);
            self.ins(format!("and.b32 {b}, {v}, {}", w - 1));
            let a = self.reg_of(VType::U32);
            self.ins(format!(
                "@{g} shfl.sync.{mode}.b32 {d}, {a}, {b}, {c}, {mask}"
            ));
        } else {
            let p = self.warp_pred();
            let Some(d) = self.pick_mutable(RC::B32) else {
                return;
            };
            self.ins(format!("@{g} vote.sync.ballot.b32 {d}, {p}, {mask}"));
        }
    }

    /// The thread's lane: the linear thread index mod 32 (blocks are whole
    /// warps, numbered by the linear index).
    fn lane(&mut self) -> Reg {
        let fx = self.fx();
        let l = self.fresh(RC::B32);
        self.ins(format!("and.b32 {l}, {}, 31", fx.tid_lin));
        l
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

/// The `c` operand of a shuffle over segments of `w` lanes (PTX ISA
/// shfl.sync: the segment mask in bits 8..12, the clamp in bits
/// 0..4; `maxLane = minLane | (c & ~segmask)`, so a clamp of 0x1f is the
/// segment's last lane and `up`'s 0 its first).
fn segment_c(mode: &str, w: u32) -> u32 {
    let seg = (32 - w) << 8;
    if mode == "up" {
        seg
    } else {
        seg | 0x1f
    }
}
