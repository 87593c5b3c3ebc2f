//! Warp-level operations with a member mask beyond shfl/vote/activemask
//! (warp.rs): `match.sync`, `redux.sync`, `vote.sync.uni`.
//!
//! SASS's MATCH/VOTE/REDUX have no member mask: they act on the lanes that
//! execute them together. ptxas 11.8 makes the member lanes converge first
//! (`WARPSYNC.EXCLUSIVE mask` on sm_80/sm_90) or, on sm_80, intersects
//! the result with `activemask & membermask` (`VOTE.ANY R, PT, PT` then
//! `LOP3.LUT` with the mask). This file emits no WARPSYNC (warp.rs puts
//! one before shfl.sync and vote.sync); the member set is `activemask &
//! membermask`, computed as ptxas does on sm_80, on every target:
//! - `match.any.sync.b32 d, a, m`: `MATCH.ANY d', a ; LOP3 d = d' & m`
//!   (`.b64`: `MATCH.ANY.U64` of the pair).
//! - `match.all.sync.b32 d[|p], a, m` (ptxas sm_80): `VOTE.ANY act, PT,
//!   PT ; set = act & m ; MATCH.ANY x, a ; ISETP.EQ.U32 P, x & set, set ;
//!   SEL d, set, RZ, P`, `p = P`. DIFFERENCE from ptxas sm_90, which
//!   emits `WARPSYNC.EXCLUSIVE m ; MATCH.ALL P, d, a`: the sm_80 form needs
//!   no convergence step and is exact on every target.
//! - `vote.sync.uni.pred d, p, m` (ptxas sm_80): `ballot = VOTE.ANY PT, p`
//!   and `set` as above; `d = (ballot & set) == 0 || (ballot & set) ==
//!   set` (`ISETP.NE.U32` + `ISETP.EQ.U32.OR`). ptxas sm_90: `VOTE.EQ`
//!   after `WARPSYNC.EXCLUSIVE` (same DIFFERENCE).
//! - `redux.sync.op.{u32,s32,b32} d, a, m`: on every target `REDUX.<OP>
//!   [.S32] %ur, a ; IMAD.U32 d, RZ, RZ, %ur` (ptxas sm_80/sm_90; add is
//!   `.SUM`, `.S32` only for signed min/max). Where the target lacks REDUX
//!   (sm_70, sm_75: ptxas refuses `redux` there, "requires .target
//!   sm_80"), phase 5 ConvertUnsupportedOps replaces it by its SHFL
//!   expansion (crate::phases::convert_unsupported::expand_redux).
//!   `redux.sync...f32` (PTX 8.6, sm_100a) is refused: no target in the
//!   SM table has it.

use crate::ir::redux::ReduxOp;
use crate::ir::Op;
use crate::ptx::ast::Instruction;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::int::LUT_AND;
use super::Cx;

/// The operation of a `redux.sync` (its REDUX modifier is
/// [`ReduxOp::sass`]).
fn redux_op(i: &Instruction) -> Option<ReduxOp> {
    [
        (Mod::Add, ReduxOp::Add),
        (Mod::Min, ReduxOp::Min),
        (Mod::Max, ReduxOp::Max),
        (Mod::And, ReduxOp::And),
        (Mod::Or, ReduxOp::Or),
        (Mod::Xor, ReduxOp::Xor),
    ]
    .into_iter()
    .find(|(m, _)| i.has(*m))
    .map(|x| x.1)
}

impl Cx<'_> {
    pub fn lower_warp_sync(&mut self, i: &Instruction) -> R {
        match i.opcode {
            Opcode::Match => self.lower_match(i),
            Opcode::Redux => self.lower_redux(i),
            Opcode::Vote => self.lower_vote_uni(i),
            _ => self.err("internal: warp_sync"),
        }
    }

    /// `activemask & m` (the member mask operand `k`, when the instruction
    /// has one) in a fresh register.
    fn member_set(&mut self, i: &Instruction, k: usize) -> R<u32> {
        let act = self.b.vreg();
        self.b.emit(Op::VOTE, &["ANY"], [r(act), pt(), pt()])?;
        let Some(o) = i.operands.get(k) else {
            return Ok(act);
        };
        let m = self.src32(o, ScalarType::B32)?;
        let set = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(set), r(act), m, rz(), imm(LUT_AND), npt()],
        )?;
        Ok(set)
    }

    fn lower_vote_uni(&mut self, i: &Instruction) -> R {
        let d = self.dst_pred(&i.operands[0])?;
        let src = self.src_pred(&i.operands[1])?;
        let set = self.member_set(i, 2)?;
        let ballot = self.b.vreg();
        self.b.emit(Op::VOTE, &["ANY"], [r(ballot), pt(), src])?;
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(ballot), r(ballot), r(set), rz(), imm(LUT_AND), npt()],
        )?;
        let ne = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["NE", "U32", "AND"],
            [p(ne), pt(), r(ballot), r(set), pt()],
        )?;
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "OR"],
            [p(d), pt(), r(ballot), rz(), pnot(ne)],
        )
    }

    /// `MATCH.ANY(.U64) x, a` for operand 1 of `i`.
    fn match_any(&mut self, i: &Instruction) -> R<u32> {
        let ty = self.ty(i)?;
        let x = self.b.vreg();
        if ty.bits() == 64 {
            let a = self.src64_pair(&i.operands[1], ty)?;
            self.b.emit(Op::MATCH, &["ANY", "U64"], [r(x), r(a)])?;
        } else {
            let a = self.src32r(&i.operands[1], ty)?;
            self.b.emit(Op::MATCH, &["ANY"], [r(x), a])?;
        }
        Ok(x)
    }

    fn lower_match(&mut self, i: &Instruction) -> R {
        let (d, pd) = match &i.operands[0].kind {
            crate::ptx::ast::OperandKind::PredPair(a, b) => {
                let mk = |s| crate::ptx::ast::Operand {
                    kind: crate::ptx::ast::OperandKind::Name(s),
                    span: i.operands[0].span,
                };
                (self.dst32(&mk(*a))?, Some(self.dst_pred(&mk(*b))?))
            }
            _ => (self.dst32(&i.operands[0])?, None),
        };
        if !i.has(Mod::All) {
            let x = self.match_any(i)?;
            let m = self.src32(&i.operands[2], ScalarType::B32)?;
            return self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(d), r(x), m, rz(), imm(LUT_AND), npt()],
            );
        }
        let set = self.member_set(i, 2)?;
        let x = self.match_any(i)?;
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(x), r(x), r(set), rz(), imm(LUT_AND), npt()],
        )?;
        let all = match pd {
            Some(q) => q,
            None => self.b.vpred(),
        };
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(all), pt(), r(x), r(set), pt()],
        )?;
        self.b.emit(Op::SEL, &[], [r(d), r(set), rz(), p(all)])
    }

    fn lower_redux(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if ty == ScalarType::F32 {
            return self.err("redux.sync.f32 (sm_100a) is not lowered");
        }
        let Some(op) = redux_op(i) else {
            return self.err("redux.sync needs an operation");
        };
        let signed = ty == ScalarType::S32 && matches!(op, ReduxOp::Min | ReduxOp::Max);
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ty)?;
        let u = self.b.uvreg();
        let mut mods: Vec<&str> = op.sass().into_iter().collect();
        if signed {
            mods.push("S32");
        }
        let ur = reg(crate::ir::sass_text::Reg::Uv(u));
        self.b.emit(Op::REDUX, &mods, [ur.clone(), a])?;
        self.b.emit(Op::IMAD, &["U32"], [r(d), rz(), rz(), ur])
    }
}
