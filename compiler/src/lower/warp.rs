//! Barriers, fences and warp-level operations.
//!
//! - `bar.sync a` / `barrier.sync`: `BAR.SYNC a` (`BAR.SYNC.DEFER_BLOCKING`
//!   on sm_80+, as the vendor prints it); `bar.arrive`: `BAR.ARV`;
//!   `bar.red.popc.u32 d, a, p`: `BAR.RED.POPC a, P` + `B2R.RESULT d`;
//!   `bar.red.{and,or}.pred d, a, p`: `BAR.RED.AND/OR a, P` + `B2R.RESULT
//!   RZ, d` (the predicate form of B2R, as ptxas prints it).
//! - `membar`/`fence`: `MEMBAR.SC.<scope>` (`.sc`) or `MEMBAR.ALL.<scope>`.
//! - `shfl.sync.<mode>.b32 d[|p], a, b, c, mask`: `WARPSYNC mask ;
//!   SHFL.<MODE> P, d, a, b, c` (the member mask is not an operand of SHFL;
//!   the WARPSYNC makes the members converge: `converge_members`).
//! - `vote.sync.ballot.b32 d, p, mask`: `WARPSYNC mask ; VOTE.ANY d, PT, p`;
//!   `.any/.all.pred`: `VOTE.ANY/ALL P, p` after the same WARPSYNC;
//!   `activemask.b32 d`: `VOTE.ANY d, PT, PT`; `.uni.pred`: warp_sync.rs.

use crate::ir::Op;
use crate::ptx::ast::{Instruction, OperandKind};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

impl Cx<'_> {
    pub fn lower_sync(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        match i.opcode {
            O::Membar | O::Fence => {
                let scope = if i.has(Mod::Cta) {
                    "CTA"
                } else if i.has(Mod::Sys) {
                    "SYS"
                } else {
                    "GPU"
                };
                let kind = if i.has(Mod::Sc) || i.opcode == O::Membar {
                    "SC"
                } else {
                    "ALL"
                };
                self.b.emit(Op::MEMBAR, &[kind, scope], [])
            }
            _ if i.has(Mod::Warp) => {
                // bar.warp.sync m: `WARPSYNC m` (ptxas 11.8 writes `NOP` for
                // a full mask where it proves the warp converged; WARPSYNC is
                // the general form). It was lowered as a CTA barrier `BAR.SYNC
                // -0x1` before (generator seed 40 of the arch_matrix target).
                let m = self.src32(&i.operands[0], ScalarType::U32)?;
                self.b.emit(Op::WARPSYNC, &[], [m])
            }
            _ => {
                if i.has(Mod::Red) {
                    // bar.red.popc.u32 d, a{, b}, {!}c: `BAR.RED.POPC a[, b], c ;
                    // B2R.RESULT d`; bar.red.{and,or}.pred p, a{, b}, {!}c:
                    // `BAR.RED.AND/OR a[, b], c ; B2R.RESULT RZ, p` (ptxas
                    // 11.8, sm_80/sm_90).
                    let a = self.src32(&i.operands[1], ScalarType::U32)?;
                    let pr = self.src_pred(i.operands.last().expect("operands"))?;
                    let mut ops = vec![a];
                    if i.operands.len() == 4 {
                        ops.push(self.src32(&i.operands[2], ScalarType::U32)?);
                    }
                    ops.push(pr);
                    let op = if i.has(Mod::Popc) {
                        "POPC"
                    } else if i.has(Mod::And) {
                        "AND"
                    } else {
                        "OR"
                    };
                    self.b.emit(Op::BAR, &["RED", op], ops)?;
                    if op == "POPC" {
                        let d = self.dst32(&i.operands[0])?;
                        return self.b.emit(Op::B2R, &["RESULT"], [r(d)]);
                    }
                    let d = self.dst_pred(&i.operands[0])?;
                    return self.b.emit(Op::B2R, &["RESULT"], [rz(), p(d)]);
                }
                let id = self.src32(&i.operands[0], ScalarType::U32)?;
                let count = if i.operands.len() > 1 {
                    Some(self.src32(&i.operands[1], ScalarType::U32)?)
                } else {
                    None
                };
                let mut mods = vec![if i.has(Mod::Arrive) { "ARV" } else { "SYNC" }];
                if self.sm.sm >= 80 && mods[0] == "SYNC" {
                    mods.push("DEFER_BLOCKING");
                }
                let mut ops = vec![id];
                ops.extend(count);
                self.b.emit(Op::BAR, &mods, ops)
            }
        }
    }

    /// `WARPSYNC mask` before a `.sync` warp operation whose member mask is
    /// operand `k`. PTX ISA (shfl.sync, vote.sync): the executing thread
    /// waits until every non-exited thread of the member mask executes the
    /// instruction; SASS's SHFL and VOTE act on the lanes that execute
    /// together, and nothing else makes the members converge after
    /// divergent code (ptxc places no BSSY/BSYNC around divergent `if`s:
    /// a lane group that called a function could reach the SHFL after the
    /// others; generator seeds 734 and 1199 of `ptxdiff run --matrix
    /// fuzz`). ptxas 11.8 instead encloses the divergent region in `BSSY
    /// B0`/`BSYNC B0` and, where it cannot prove convergence, calls a
    /// `WARPSYNC` + `SHFL` subroutine (sm_70 -O0); DIFFERENCE: one
    /// `WARPSYNC` per operation, a no-op in converged code.
    fn converge_members(&mut self, i: &Instruction, k: usize) -> R {
        if !i.has(Mod::Sync) {
            return Ok(());
        }
        let Some(o) = i.operands.get(k) else {
            return Ok(());
        };
        let m = self.src32(o, ScalarType::U32)?;
        self.b.emit(Op::WARPSYNC, &[], [m])
    }

    pub fn lower_warp(&mut self, i: &Instruction) -> R {
        use crate::ptx::isa::Opcode as O;
        match i.opcode {
            O::Activemask => {
                let d = self.dst32(&i.operands[0])?;
                self.b.emit(Op::VOTE, &["ANY"], [r(d), pt(), pt()])
            }
            O::Vote => {
                self.converge_members(i, 2)?;
                let src = self.src_pred(&i.operands[1])?;
                if i.has(Mod::Ballot) {
                    let d = self.dst32(&i.operands[0])?;
                    return self.b.emit(Op::VOTE, &["ANY"], [r(d), pt(), src]);
                }
                let d = self.dst_pred(&i.operands[0])?;
                let m = if i.has(Mod::All) {
                    "ALL"
                } else if i.has(Mod::Any) {
                    "ANY"
                } else {
                    return self.err("internal: vote.uni belongs to warp_sync.rs");
                };
                self.b.emit(Op::VOTE, &[m], [p(d), src])
            }
            O::Shfl => {
                let mode = if i.has(Mod::Up) {
                    "UP"
                } else if i.has(Mod::Down) {
                    "DOWN"
                } else if i.has(Mod::Bfly) {
                    "BFLY"
                } else {
                    "IDX"
                };
                let (d, pd) = match &i.operands[0].kind {
                    OperandKind::PredPair(a, b) => {
                        let mk = |s| crate::ptx::ast::Operand {
                            kind: OperandKind::Name(s),
                            span: i.operands[0].span,
                        };
                        (self.dst32(&mk(*a))?, Some(self.dst_pred(&mk(*b))?))
                    }
                    _ => (self.dst32(&i.operands[0])?, None),
                };
                let a = self.src32r(&i.operands[1], ScalarType::B32)?;
                let b = self.src32(&i.operands[2], ScalarType::B32)?;
                let c = self.src32(&i.operands[3], ScalarType::B32)?;
                self.converge_members(i, 4)?;
                let pdst = pd.map(p).unwrap_or_else(pt);
                self.b.emit(Op::SHFL, &[mode], [pdst, r(d), a, b, c])
            }
            _ => self.err("internal: warp"),
        }
    }
}
