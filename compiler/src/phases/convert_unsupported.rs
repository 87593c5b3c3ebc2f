//! ConvertUnsupportedOps (phase 5, docs/MODEL.md, Phase table: "Lower unsupported
//! operations to supported sequences"): the per-target step between the
//! target-independent lowering and every other code phase.
//!
//! The lowering emits the newest form of an operation on every target
//! (`REDUX` for `redux.sync`, `I2FP.F32.S32/U32` for a 32-bit int -> f32
//! `cvt`); this phase replaces each instruction whose opcode the target
//! lacks (the SM table, [`Op::available_on`]: the opcode table's first-SM
//! column, ptxas's generation boundaries:
//! docs/MODEL.md, Opcode generations) by a sequence the target has.
//! A modifier the target lacks (the table's per-modifier first SM,
//! `HFMA2.BF16_V2` from sm_80) has no expansion: an error here, and the
//! lowering never emits one (`Builder::emit`).
//! [`CONVERSIONS`] is the one list of the opcodes it expands: the lowering
//! may emit exactly these on any target ([`expands`], `lower::Builder::emit`),
//! and the IR verifier accepts them before this phase
//! (`VerifyOptions::before_conversion`) and nowhere after it. An
//! unavailable opcode without an expansion is an error naming the opcode
//! and the target. The table's `target-code` constraint keeps this phase
//! before every code phase (6..=157), so none sees an opcode the target
//! lacks.
//!
//! | opcode | where missing (SM table) | expansion |
//! |---|---|---|
//! | `REDUX[.OP][.S32] UR, a` | sm_70, sm_75 (ptxas 11.8 refuses `redux.sync` below sm_80: "requires .target sm_80") | [`expand_redux`]: a `SHFL.BFLY` butterfly when every lane of the warp executes, else a `FLO`/`SHFL.IDX` loop over the executing lanes; the uniform destination is replaced by a general register in its readers |
//! | `I2FP.F32.S32/U32[.rnd] d, a` | sm_70..sm_80 (I2FP from sm_86; ptxas 11.8 emits `I2F` before) | `I2F[.U32][.rnd] d, a`: the same conversion, rounding and source type (`I2F`'s default source is S32) |
//!
//! Uniform datapath: no lowering emits a uniform opcode on sm_70 (the
//! global-memory descriptor `ULDC.64` is sm_80+ only, mem.rs); the one
//! uniform register the lowering writes on every target is REDUX's
//! destination, which [`expand_redux`] replaces.

use super::loop_util::{fresh_vpred, fresh_vreg};
use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::opcode::match_shape;
use crate::ir::redux::ReduxOp;
use crate::ir::sass_text::{Guard, Reg};
use crate::ir::{Block, Function, Inst, Lacking, Op, Operand};
use crate::lower::builder::{guard, imm, npt, p, pt, r, rz};
use crate::targets::SmInfo;

/// One expansion: the instruction, the fresh-name source, and the code
/// replacing it ([`Seq`]).
type Expand = fn(&Inst, &mut Seq) -> Result<(), String>;

/// The opcodes this phase expands, each with its expansion (see the
/// module comment): the single source of what the lowering may emit
/// beyond the target's opcodes.
pub const CONVERSIONS: &[(Op, Expand)] = &[(Op::REDUX, expand_redux), (Op::I2FP, expand_i2fp)];

/// Whether this phase has an expansion for `op`: the opcode table's
/// [`Op::expanded_where_missing`], which the lowering and the IR verifier
/// read too (a unit test keeps it and [`CONVERSIONS`] the same list).
pub fn expands(op: Op) -> bool {
    op.expanded_where_missing()
}

/// The phase.
pub struct ConvertUnsupportedOps {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
}

impl Phase for ConvertUnsupportedOps {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        false
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let Some(sm) = cx.sm else {
            // No target: nothing is unsupported (the SM-free pipelines of
            // the unit tests).
            return Ok(());
        };
        let n = convert(&mut cx.function, sm).map_err(|message| PhaseError {
            phase: self.name(),
            message,
        })?;
        cx.fire(self.index, n);
        Ok(())
    }
}

/// The code replacing one instruction: `blocks[0]` continues the
/// instruction's block (its label is a placeholder), each later block has
/// a fresh label; the last one continues with the rest of the original
/// block. `rename`: a register of the old code whose readers read another
/// one from now on.
pub struct Seq {
    blocks: Vec<Block>,
    next_v: u32,
    next_p: u32,
    next_label: u32,
    rename: Vec<(Reg, Reg)>,
}

impl Seq {
    fn vreg(&mut self) -> u32 {
        self.next_v += 1;
        self.next_v - 1
    }
    fn vpred(&mut self) -> u32 {
        self.next_p += 1;
        self.next_p - 1
    }
    fn label(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label - 1
    }
    fn start(&mut self, label: u32) {
        self.blocks.push(Block {
            label,
            insts: Vec::new(),
        });
    }
    fn emit_g(
        &mut self,
        g: Option<Guard>,
        op: Op,
        mods: &[&str],
        ops: impl IntoIterator<Item = Operand>,
    ) -> Result<(), String> {
        let i = Inst::new(op, mods, g, ops).map_err(|e| format!("internal: {}", e.msg))?;
        self.blocks.last_mut().expect("a block").insts.push(i);
        Ok(())
    }
    fn emit(
        &mut self,
        op: Op,
        mods: &[&str],
        ops: impl IntoIterator<Item = Operand>,
    ) -> Result<(), String> {
        self.emit_g(None, op, mods, ops)
    }
    /// `[@g] BRA target`, then a new block.
    fn branch(&mut self, g: Option<Guard>, target: u32) -> Result<(), String> {
        self.emit_g(g, Op::BRA, &[], [Operand::Label(target)])?;
        let next = self.label();
        self.start(next);
        Ok(())
    }
}

/// Replaces every instruction of `f` that `sm` lacks by its expansion;
/// the number replaced. An unavailable opcode without an expansion, or a
/// replacement that does not fit, is an error naming the opcode and the
/// target; `f` is then left as it was.
pub fn convert(f: &mut Function, sm: &SmInfo) -> Result<u64, String> {
    if f.insts().all(|i| i.lacking(sm).is_none()) {
        return Ok(0);
    }
    let mut g = f.clone();
    let n = convert_all(&mut g, sm)?;
    *f = g;
    Ok(n)
}

fn convert_all(f: &mut Function, sm: &SmInfo) -> Result<u64, String> {
    let mut seq = Seq {
        blocks: Vec::new(),
        next_v: fresh_vreg(f),
        next_p: fresh_vpred(f),
        next_label: f.fresh_label(),
        rename: Vec::new(),
    };
    let mut count = 0;
    let mut out: Vec<Block> = Vec::with_capacity(f.blocks.len());
    for blk in std::mem::take(&mut f.blocks) {
        let mut cur = Block {
            label: blk.label,
            insts: Vec::new(),
        };
        for inst in blk.insts {
            let Some(lack) = inst.lacking(sm) else {
                cur.insts.push(inst);
                continue;
            };
            let expansion = match lack {
                Lacking::Opcode(..) => CONVERSIONS.iter().find(|(o, _)| *o == inst.op),
                // No expansion replaces a modifier.
                Lacking::Modifier(..) => None,
            };
            let Some(&(_, expand)) = expansion else {
                return Err(format!("{} and has no expansion", lack.message(sm)));
            };
            seq.blocks = vec![Block {
                label: cur.label,
                insts: std::mem::take(&mut cur.insts),
            }];
            expand(&inst, &mut seq).map_err(|e| format!("{} on {}: {e}", inst.op, sm.name))?;
            count += 1;
            let mut bs = std::mem::take(&mut seq.blocks);
            cur = bs.pop().expect("the expansion's last block");
            out.extend(bs);
        }
        out.push(cur);
    }
    f.blocks = out;
    drop_empty_blocks(f, sm)?;
    let renames = std::mem::take(&mut seq.rename);
    for (k, &(from, to)) in renames.iter().enumerate() {
        if renames[..k].iter().any(|&(x, _)| x == from) {
            return Err(format!(
                "{from} is the destination of more than one REDUX on {}: its readers cannot be renamed",
                sm.name
            ));
        }
        rename_reads(f, from, to, sm)?;
    }
    Ok(count)
}

/// An expansion that ended a block's code leaves an empty block when the
/// instruction was its block's last: its label goes to the next block.
fn drop_empty_blocks(f: &mut Function, sm: &SmInfo) -> Result<(), String> {
    let mut map = Vec::new();
    let mut k = 0;
    while k < f.blocks.len() {
        if !f.blocks[k].insts.is_empty() {
            k += 1;
            continue;
        }
        let Some(next) = f.blocks.get(k + 1).map(|b| b.label) else {
            return Err(format!(
                "the code runs off the end of the function after an expansion on {}",
                sm.name
            ));
        };
        map.push((f.blocks[k].label, next));
        f.blocks.remove(k);
    }
    let resolve = |mut l: u32| {
        while let Some(&(_, t)) = map.iter().find(|(a, _)| *a == l) {
            l = t;
        }
        l
    };
    for b in &mut f.blocks {
        for i in &mut b.insts {
            for o in &mut i.operands {
                if let Operand::Label(l) = o {
                    *l = resolve(*l);
                }
            }
        }
    }
    Ok(())
}

/// Every read of `from` in `f` reads `to` instead; `from` must have had
/// exactly one definition (the replaced instruction's) and every reader
/// must still fit its opcode's shapes.
fn rename_reads(f: &mut Function, from: Reg, to: Reg, sm: &SmInfo) -> Result<(), String> {
    let defs = f
        .insts()
        .flat_map(|i| i.dsts())
        .filter(|d| matches!(d, Operand::Reg(x) if x.reg == from))
        .count();
    if defs != 0 {
        return Err(format!(
            "{from} is written again after REDUX on {}: its readers cannot be renamed",
            sm.name
        ));
    }
    for i in f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        let mut hit = false;
        for o in i.operands.iter_mut() {
            match o {
                Operand::Reg(x) if x.reg == from => {
                    x.reg = to;
                    hit = true;
                }
                Operand::Mem(m)
                    if m.desc == Some(from) || m.base.is_some_and(|b| b.reg == from) =>
                {
                    return Err(format!(
                        "{from} (REDUX's destination) addresses memory in {}: no general register can replace it on {}",
                        i.op, sm.name
                    ));
                }
                Operand::Const(c) if c.reg == Some(from) => {
                    return Err(format!(
                        "{from} (REDUX's destination) indexes a constant bank in {} on {}",
                        i.op, sm.name
                    ));
                }
                _ => {}
            }
        }
        if hit && match_shape(i.op.info().name, i.op.info().shapes, &i.operands).is_err() {
            return Err(format!(
                "{} reads {from}, which {} replaces by a general register: that form does not exist",
                i.op, sm.name
            ));
        }
    }
    Ok(())
}

/// LOP3 truth tables of `a & b`, `a | b`, `a ^ b`, `a & ~b`.
const LUT_AND: i64 = 0xc0;
const LUT_OR: i64 = 0xfc;
const LUT_XOR: i64 = 0x3c;
const LUT_AND_NOT: i64 = 0x30;

/// `acc = op(x, y)` (one reduction step).
fn redux_step(
    s: &mut Seq,
    op: ReduxOp,
    signed: bool,
    acc: u32,
    x: Operand,
    y: Operand,
) -> Result<(), String> {
    let lut = |l| [r(acc), x.clone(), y.clone(), rz(), imm(l), npt()];
    match op {
        ReduxOp::Add => s.emit(Op::IADD3, &[], [r(acc), x, y, rz()]),
        ReduxOp::And => s.emit(Op::LOP3, &["LUT"], lut(LUT_AND)),
        ReduxOp::Or => s.emit(Op::LOP3, &["LUT"], lut(LUT_OR)),
        ReduxOp::Xor => s.emit(Op::LOP3, &["LUT"], lut(LUT_XOR)),
        ReduxOp::Min | ReduxOp::Max => {
            let mods: &[&str] = if signed { &[] } else { &["U32"] };
            let sel = if op == ReduxOp::Min { pt() } else { npt() };
            s.emit(Op::IMNMX, mods, [r(acc), x, y, sel])
        }
    }
}

/// `REDUX[.OP][.S32] ur, a` without REDUX (sm_70, sm_75).
///
/// REDUX has no member mask: it reduces over the lanes that execute it
/// together, and so does this expansion (DECISION, kept from the
/// lowering's former expansion: the lanes executing together are
/// `activemask`, `VOTE.ANY act, PT, PT`; for a valid `redux.sync` every
/// member executes it and every executing lane is a member, so this is
/// the member set). When it is the whole warp, a `SHFL.BFLY` butterfly
/// (offsets 16, 8, 4, 2, 1; clamp 0x1f) gives every lane the reduction in
/// five steps, the way CUDA's `__reduce_*_sync` fallbacks do. Otherwise a
/// butterfly would read lanes that do not execute (their registers are
/// undefined), so each executing lane's value is fetched in turn: `FLO.U32`
/// picks the highest lane left, `SHFL.IDX` reads its value, the operation
/// folds it in, its bit is cleared, until no lane is left (at most 32
/// rounds; the set is the same in every executing lane, so the loop does
/// not diverge). The folding order differs from REDUX's, which does not
/// matter: all six operations are associative and commutative on 32-bit
/// words. The result lands in a fresh general register `t` that every
/// reader of `ur` reads instead (sm_70 has no uniform registers). A
/// guarded REDUX is branched around (`@!g BRA`): its readers carry the
/// same guard.
pub fn expand_redux(i: &Inst, s: &mut Seq) -> Result<(), String> {
    let (Some(Operand::Reg(d)), Some(a)) = (i.operands.first(), i.operands.get(1)) else {
        return Err("REDUX needs a destination and a source register".into());
    };
    let ur = d.reg;
    let a = a.clone();
    let op = ReduxOp::of_inst(i);
    let signed = i.has_mod("S32");
    let t = s.vreg();
    let done = s.label();
    if let Some(g) = i.guard {
        s.branch(
            Some(Guard {
                pred: g.pred,
                negated: !g.negated,
            }),
            done,
        )?;
    }
    let act = s.vreg();
    s.emit(Op::VOTE, &["ANY"], [r(act), pt(), pt()])?;
    let full = s.vpred();
    s.emit(
        Op::ISETP,
        &["EQ", "U32", "AND"],
        [p(full), pt(), r(act), imm(-1), pt()],
    )?;
    let slow = s.label();
    s.branch(Some(guard(full, true)), slow)?;
    // The whole warp: the butterfly.
    s.emit(Op::MOV, &[], [r(t), a.clone()])?;
    for k in [16, 8, 4, 2, 1] {
        let x = s.vreg();
        s.emit(Op::SHFL, &["BFLY"], [pt(), r(x), r(t), imm(k), imm(0x1f)])?;
        redux_step(s, op, signed, t, r(t), r(x))?;
    }
    s.branch(None, done)?;
    // Part of the warp: one executing lane at a time.
    s.start(slow);
    let rest = s.vreg();
    s.emit(Op::MOV, &[], [r(t), imm(op.identity(signed))])?;
    s.emit(Op::MOV, &[], [r(rest), r(act)])?;
    let head = s.label();
    s.start(head);
    let empty = s.vpred();
    s.emit(
        Op::ISETP,
        &["EQ", "U32", "AND"],
        [p(empty), pt(), r(rest), rz(), pt()],
    )?;
    s.branch(Some(guard(empty, false)), done)?;
    let (j, v, bit, one) = (s.vreg(), s.vreg(), s.vreg(), s.vreg());
    s.emit(Op::FLO, &["U32"], [r(j), r(rest)])?;
    s.emit(Op::SHFL, &["IDX"], [pt(), r(v), a, r(j), imm(0x1f)])?;
    redux_step(s, op, signed, t, r(t), r(v))?;
    s.emit(Op::MOV, &[], [r(one), imm(1)])?;
    s.emit(Op::SHF, &["L", "U32"], [r(bit), r(one), r(j), rz()])?;
    s.emit(
        Op::LOP3,
        &["LUT"],
        [r(rest), r(rest), r(bit), rz(), imm(LUT_AND_NOT), npt()],
    )?;
    s.emit(Op::BRA, &[], [Operand::Label(head)])?;
    s.start(done);
    // The lowering's reader `IMAD.U32 d, RZ, RZ, ur` becomes `IMAD.U32 d,
    // RZ, RZ, t`: the same value.
    s.rename.push((ur, Reg::V(t)));
    Ok(())
}

/// `I2FP.F32.S32/U32[.rnd] d, a` as `I2F[.U32][.rnd] d, a` (I2F's default
/// source type is S32 and its default destination F32: the lowering's
/// `cvt.rn.f32.s32` is `I2F R5, R2` on sm_80, `I2F.U32` for u32, with the
/// rounding modifier of the cvt).
pub fn expand_i2fp(i: &Inst, s: &mut Seq) -> Result<(), String> {
    let mut mods: Vec<&str> = Vec::new();
    for &m in &i.mods {
        match m {
            "F32" | "S32" => {}
            "U32" | "RN" | "RZ" | "RM" | "RP" => mods.push(m),
            _ => return Err(format!("I2FP modifier .{m} has no I2F counterpart")),
        }
    }
    s.emit_g(i.guard, Op::I2F, &mods, i.operands.iter().cloned())
}
