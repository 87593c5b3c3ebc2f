//! Control flow: labels start blocks (mod.rs), `bra` (guarded or not) is
//! `[@P] BRA .L_x_N`, `ret`/`exit` in a kernel is `EXIT`, `ret` in a
//! `.func` restores the stack pointer and returns with `RET.REL.NODEC`
//! through the return-address pair (call.rs). A PTX guard on any other
//! instruction predicates each instruction it lowers to, or branches
//! around a sequence that has its own predication or control flow
//! (`Cx::instruction`).
//!
//! `brx.idx i, T` with `T: .branchtargets L0, L1, ...` is OUR sequence,
//! not ptxas' (which loads a code offset from a jump table in constant
//! memory and jumps with `BRX R, off`, switch_local; the lowering has no
//! code-address relocations for such a table): one compare-and-branch per
//! target, `ISETP.EQ.U32.AND P, PT, i, k, PT ; @P BRA .L_x_k`, then
//! `BPT.TRAP 0x1` for an index outside the table (PTX ISA 9.7.12.2 leaves
//! it undefined; the interpreter stops with a fault, the simulator on the
//! BPT). Each lane takes the branch its own index selects, as `brx.idx`
//! does.

use crate::ir::sass_text::{Guard, Reg};
use crate::ir::{Op, Operand};
use rustc_hash::FxHashMap;

use crate::ptx::ast::{self, Instruction, OperandKind, Statement};
use crate::ptx::intern::Sym;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

impl Cx<'_> {
    pub fn lower_bra(&mut self, i: &Instruction, g: Option<Guard>) -> R {
        let target = match i.operands.first().map(|o| &o.kind) {
            Some(OperandKind::Name(s)) => self.label_of(*s),
            _ => return self.err("bra needs a label"),
        };
        self.branch(g, target)
    }

    pub fn lower_brx(&mut self, i: &Instruction) -> R {
        let Some(OperandKind::Name(t)) = i.operands.get(1).map(|o| &o.kind) else {
            return self.err("brx.idx needs a .branchtargets label");
        };
        let Some(targets) = self.branch_tables.get(t).cloned() else {
            return self.err(format!(
                "brx.idx: `{}` is not a .branchtargets list of this function",
                self.name(*t)
            ));
        };
        let idx = self.src32(&i.operands[0], ScalarType::U32)?;
        let idx = self.in_reg(idx)?;
        for (k, l) in targets.into_iter().enumerate() {
            let q = self.b.vpred();
            self.b.emit(
                Op::ISETP,
                &["EQ", "U32", "AND"],
                [p(q), pt(), idx.clone(), imm(k as i64), pt()],
            )?;
            let target = self.label_of(l);
            self.branch(Some(guard(q, false)), target)?;
        }
        // An index outside the table (undefined in PTX) traps.
        self.b.emit(Op::BPT, &["TRAP"], [imm(1)])?;
        let l = self.b.new_label();
        self.b.start_block(l);
        Ok(())
    }

    /// Whether the block being filled is unreachable: it is empty, and
    /// neither a branch, a PTX label nor fallthrough reaches it (a run of
    /// empty blocks before it counts as one: consecutive labels). A block
    /// after a guarded `BRA` is reached by fallthrough: `@%p bra L; ret;`
    /// keeps its `ret`.
    fn at_dead_end(&self) -> bool {
        let blocks = &self.b.blocks;
        let mut k = blocks.len();
        while k > 0 && blocks[k - 1].insts.is_empty() {
            let l = blocks[k - 1].label;
            let targeted = blocks
                .iter()
                .any(|blk| blk.insts.iter().any(|i| i.targets().any(|t| t == l)))
                || self.labels.values().any(|&x| x == l);
            if targeted {
                return false;
            }
            k -= 1;
        }
        if k == blocks.len() {
            return false;
        }
        // `blocks[k - 1]` is the last block with code; none: the entry.
        k > 0 && !crate::ir::cfg::falls_through(blocks[k - 1].insts.last())
    }

    /// `ret` (also the implicit one at the end of a body). In a
    /// self-recursive `.func`, a branch to its one exit (recursion.rs).
    pub fn lower_ret(&mut self, _g: Option<Guard>) -> R {
        if self.at_dead_end() && self.b.guard.is_none() {
            return Ok(());
        }
        if self.cur.is_entry {
            self.b.emit(Op::EXIT, &[], [])?;
        } else if let Some(rec) = self.cur.recursive {
            self.b.emit(Op::BRA, &[], [Operand::Label(rec.exit)])?;
        } else {
            self.return_sequence()?;
        }
        let l = self.b.new_label();
        self.b.start_block(l);
        Ok(())
    }

    /// A `.func`'s return: return values into its class's registers,
    /// the callers' barrier back (recursion.rs), the frame popped, `RET`.
    pub(super) fn return_sequence(&mut self) -> R {
        for (own, class) in self.cur.ret_copies.clone() {
            self.copy_slot(own, class)?;
        }
        if let Some(rec) = self.cur.recursive {
            self.b.emit(
                Op::BMOV,
                &["32"],
                [
                    crate::ir::sass_text::SassOperand::Barrier(rec.barrier),
                    r(rec.saved),
                ],
            )?;
        }
        if self.cur.frame > 0 {
            self.b.emit(
                Op::IADD3,
                &[],
                [sp(), sp(), imm(i64::from(self.cur.frame)), rz()],
            )?;
        }
        self.b.emit(
            Op::RET,
            &["REL", "NODEC"],
            [Operand::RegRel {
                reg: Reg::V(self.cur.ra),
                offset: 0,
            }],
        )
    }
}

/// The `.branchtargets` tables of a function body (nested blocks
/// included; labels are function-scoped).
pub fn branch_tables(body: &ast::Block) -> FxHashMap<Sym, Vec<Sym>> {
    fn walk(b: &ast::Block, out: &mut FxHashMap<Sym, Vec<Sym>>) {
        for s in &b.stmts {
            match s {
                Statement::BranchTargets { label, targets, .. } => {
                    out.insert(*label, targets.iter().map(|(t, _)| *t).collect());
                }
                Statement::Block(inner) => walk(inner, out),
                _ => {}
            }
        }
    }
    let mut out = FxHashMap::default();
    walk(body, &mut out);
    out
}
