//! Warp-level operations with a member mask beyond shfl/vote/activemask
//! (warp.rs): `match.sync`, `redux.sync`, `vote.sync.uni`.
//!
//! SASS's MATCH/VOTE/REDUX have no member mask: they act on the lanes that
//! execute them together. ptxas 11.8 makes the member lanes converge first
//! (`WARPSYNC.EXCLUSIVE mask` on sm_80/sm_90) or, on sm_80, intersects
//! the result with `activemask & membermask` (`VOTE.ANY R, PT, PT` then
//! `LOP3.LUT` with the mask). The lowering never emits WARPSYNC (nor does
//! warp.rs for shfl/vote); the member set is `activemask & membermask`,
//! computed as ptxas does on sm_80, on every target:
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
//! - `redux.sync.op.{u32,s32,b32} d, a, m`: where the target has REDUX
//!   (the SM table: sm_80+), `REDUX.<OP>[.S32] %ur, a ; IMAD.U32 d, RZ, RZ,
//!   %ur` (ptxas sm_80/sm_90; add is `.SUM`, `.S32` only for signed
//!   min/max). Where it does not (sm_70, sm_75: ptxas refuses `redux`
//!   there, "requires .target sm_80"), the expansion of seed 002's
//!   ConvertUnsupportedOps, done here because the rule is per target and
//!   the lowering already consults the table: see [`Cx::redux_expand`].
//!   `redux.sync...f32` (PTX 8.6, sm_100a) is refused: no target in the
//!   SM table has it.

use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::int::{LUT_AND, LUT_OR, LUT_XOR};
use super::Cx;

/// The integer operations of `redux.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl ReduxOp {
    fn of(i: &Instruction) -> Option<ReduxOp> {
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

    /// The REDUX modifier; AND is REDUX's default and prints without one
    /// (ptxas 11.8, sm_80: `redux.sync.and.b32` is `REDUX UR6, R0`).
    fn sass(self) -> Option<&'static str> {
        Some(match self {
            ReduxOp::Add => "SUM",
            ReduxOp::Min => "MIN",
            ReduxOp::Max => "MAX",
            ReduxOp::And => return None,
            ReduxOp::Or => "OR",
            ReduxOp::Xor => "XOR",
        })
    }

    /// The start value of the expansion's loop (the operation's identity).
    fn identity(self, signed: bool) -> i64 {
        match (self, signed) {
            (ReduxOp::And, _) | (ReduxOp::Min, false) => -1,
            (ReduxOp::Min, true) => i64::from(i32::MAX),
            (ReduxOp::Max, true) => i64::from(i32::MIN),
            _ => 0,
        }
    }
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
        let Some(op) = ReduxOp::of(i) else {
            return self.err("redux.sync needs an operation");
        };
        let signed = ty == ScalarType::S32 && matches!(op, ReduxOp::Min | ReduxOp::Max);
        let d = self.dst32(&i.operands[0])?;
        let a = self.src32r(&i.operands[1], ty)?;
        if self.sm.has_opcode(Op::REDUX) {
            let u = self.b.uvreg();
            let mut mods: Vec<&str> = op.sass().into_iter().collect();
            if signed {
                mods.push("S32");
            }
            let ur = reg(crate::ir::sass_text::Reg::Uv(u));
            self.b.emit(Op::REDUX, &mods, [ur.clone(), a])?;
            return self.b.emit(Op::IMAD, &["U32"], [r(d), rz(), rz(), ur]);
        }
        self.redux_expand(i, op, signed, d, a)
    }

    /// `acc = op(x, y)` (one reduction step).
    fn redux_step(&mut self, op: ReduxOp, signed: bool, acc: u32, x: Operand, y: Operand) -> R {
        let lut = |l| [r(acc), x.clone(), y.clone(), rz(), imm(l), npt()];
        match op {
            ReduxOp::Add => self.b.emit(Op::IADD3, &[], [r(acc), x, y, rz()]),
            ReduxOp::And => self.b.emit(Op::LOP3, &["LUT"], lut(LUT_AND)),
            ReduxOp::Or => self.b.emit(Op::LOP3, &["LUT"], lut(LUT_OR)),
            ReduxOp::Xor => self.b.emit(Op::LOP3, &["LUT"], lut(LUT_XOR)),
            ReduxOp::Min | ReduxOp::Max => {
                let mods: &[&str] = if signed { &[] } else { &["U32"] };
                let sel = if op == ReduxOp::Min { pt() } else { npt() };
                self.b.emit(Op::IMNMX, mods, [r(acc), x, y, sel])
            }
        }
    }

    /// `redux.sync` without REDUX (sm_70, sm_75). The member set is
    /// `activemask & membermask` (module doc). When it is the whole warp,
    /// a `SHFL.BFLY` butterfly (offsets 16, 8, 4, 2, 1; clamp 0x1f) gives
    /// every lane the reduction in five steps, the way CUDA's
    /// `__reduce_*_sync` fallbacks do. Otherwise a butterfly would read
    /// lanes that do not execute (their registers are undefined), so each
    /// member's value is fetched in turn: `FLO.U32` picks the highest
    /// member left, `SHFL.IDX` reads its value, the operation folds it in,
    /// its bit is cleared, until no member is left (at most 32 rounds; the
    /// set is the same in every member lane, so the loop does not diverge).
    /// Both paths fold in an order different from REDUX's, which only
    /// matters for nothing: all six operations are associative and
    /// commutative on 32-bit words.
    fn redux_expand(
        &mut self,
        i: &Instruction,
        op: ReduxOp,
        signed: bool,
        d: u32,
        a: Operand,
    ) -> R {
        let set = self.member_set(i, 2)?;
        let full = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(full), pt(), r(set), imm(-1), pt()],
        )?;
        let (slow, head, done) = (self.b.new_label(), self.b.new_label(), self.b.new_label());
        self.branch(Some(guard(full, true)), slow)?;
        // Whole warp: the butterfly.
        let acc = self.b.vreg();
        self.mov(acc, a.clone())?;
        for k in [16, 8, 4, 2, 1] {
            let t = self.b.vreg();
            self.b
                .emit(Op::SHFL, &["BFLY"], [pt(), r(t), r(acc), imm(k), imm(0x1f)])?;
            self.redux_step(op, signed, acc, r(acc), r(t))?;
        }
        self.mov(d, r(acc))?;
        self.branch(None, done)?;
        // Part of the warp: one member at a time.
        self.b.start_block(slow);
        let (acc, rest) = (self.b.vreg(), self.b.vreg());
        self.mov(acc, imm(op.identity(signed)))?;
        self.mov(rest, r(set))?;
        self.b.start_block(head);
        let empty = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(empty), pt(), r(rest), rz(), pt()],
        )?;
        let out = self.b.new_label();
        self.branch(Some(guard(empty, false)), out)?;
        let (j, v, bit, one) = (self.b.vreg(), self.b.vreg(), self.b.vreg(), self.b.vreg());
        self.b.emit(Op::FLO, &["U32"], [r(j), r(rest)])?;
        self.b
            .emit(Op::SHFL, &["IDX"], [pt(), r(v), a, r(j), imm(0x1f)])?;
        self.redux_step(op, signed, acc, r(acc), r(v))?;
        self.mov(one, imm(1))?;
        self.b
            .emit(Op::SHF, &["L", "U32"], [r(bit), r(one), r(j), rz()])?;
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(rest), r(rest), r(bit), rz(), imm(0x30), npt()],
        )?;
        self.branch(None, head)?;
        self.b.start_block(out);
        self.mov(d, r(acc))?;
        self.b.start_block(done);
        Ok(())
    }
}
