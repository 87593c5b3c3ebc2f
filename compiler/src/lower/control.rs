//! Control flow: labels start blocks (mod.rs), `bra` (guarded or not) is
//! `[@P] BRA .L_x_N`, `ret`/`exit` in a kernel is `EXIT`, `ret` in a
//! `.func` restores the stack pointer and returns with `RET.REL.NODEC`
//! through the return-address pair (call.rs). A PTX guard on any other
//! instruction predicates each instruction it lowers to, or branches
//! around a sequence that has its own predication or control flow
//! (`Cx::instruction`).

use crate::ir::sass_text::{Guard, Reg};
use crate::ir::{Op, Operand};
use crate::ptx::ast::{Instruction, OperandKind};

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

    /// Whether the block being filled is empty and no instruction targets it.
    fn at_dead_end(&self) -> bool {
        let b = self.b.blocks.last().expect("a block");
        if !b.insts.is_empty() {
            return false;
        }
        let l = b.label;
        !self
            .b
            .blocks
            .iter()
            .any(|blk| blk.insts.iter().any(|i| i.targets().any(|t| t == l)))
            && !self.labels.values().any(|&x| x == l)
    }

    /// `ret` (also the implicit one at the end of a body).
    pub fn lower_ret(&mut self, _g: Option<Guard>) -> R {
        if self.at_dead_end() && self.b.guard.is_none() {
            return Ok(());
        }
        if self.cur.is_entry {
            self.b.emit(Op::EXIT, &[], [])?;
        } else {
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
            )?;
        }
        let l = self.b.new_label();
        self.b.start_block(l);
        Ok(())
    }
}
