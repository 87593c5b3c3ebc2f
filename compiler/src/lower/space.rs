//! `isspacep.space p, a` (PTX ISA 9.7.9.19): whether generic address `a`
//! falls in a state space's generic window.
//!
//! The sequence is OURS, not ptxas': no corpus SASS has `isspacep` (ptxas
//! 11.8 uses `QSPC.E.{G,S,L}`; the simulator models `QSPC` on its shared
//! and local windows only, for atom_spin.rs, and has no answer for the
//! const and param windows or ptxas's extra `.global` test). It tests
//! the windows the runners define (mod.rs "Memory"; the PTX interpreter's
//! `ptx_interp::memory::Windows`, 64-bit addresses): each window is
//! `[base, base + WINDOW_SPAN)` with its base read from constant bank 0
//! like `cvta` does (shared `c[0x0][0x18]`, local `c[0x0][0x20]`, const
//! `c[0x0][0x150]`, param `c[0x0][0x158]`: mem.rs). One window test is
//!
//! ```text
//! IADD3 t, c, a.lo, -c[0x0][w], RZ        // t = a - base (64-bit)
//! IADD3.X t+1, a.hi, ~c[0x0][w+4], RZ, c, !PT
//! ISETP.LT.U32.<OR|AND> P, PT, t+1, 0x100, Pprev   // t < 2^40
//! ```
//!
//! - `.shared` (`::cta`, `::cluster`), `.local`, `.param` (`::entry`,
//!   `::func`: the interpreter treats every spelling as the kernel
//!   parameter window): their window.
//! - `.const`: its window, or (when the module has `cvta.const`) the
//!   global copy of bank 3 that our `cvta.const` points into (mem.rs
//!   `lower_cvta_const`), so `cvta.const` then `isspacep.const` agrees with
//!   the interpreter. Known difference: a `cvta.const` address past the
//!   bank's end is const to the interpreter (its window is 2^40 bytes) and
//!   not to this sequence.
//! - `.global`: in no window and not in the bank-3 copy (the interpreter:
//!   anything outside the four windows is global).
//!
//! With 32-bit addresses (`.address_size 32`) the same windows are the
//! interpreter's 32-bit ones (`Windows::new(false)`: shared `0xf000_0000`,
//! local `0xe000_0000`, const `0xd000_0000`, param `0xc000_0000`, each
//! [`WINDOW_SPAN_32`] bytes), whose bases the runners put in the same
//! bank-0 words; one window test is
//!
//! ```text
//! IADD3 t, a, -c[0x0][w], RZ                      // t = a - base (mod 2^32)
//! ISETP.LT.U32.<OR|AND> P, PT, t, 0x8000000, Pprev
//! ```
//!
//! (ptxas 11.8 `-m32` answers with `QSPC.{G,S,L} P0, RZ, [R0]` plus
//! `ISETP.GE.U32 ... c[0x0][0x50]` for `.global`, sm_70/sm_80.)
//!
//! Refused with a message: modules where a kernel takes a generic address
//! of a kernel parameter (`cvta.param`): ours points at the parameter's
//! local frame copy, the interpreter's into the parameter window, so the
//! two would answer `isspacep.param`/`.local` differently.

use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, FuncKind, Instruction, Statement};
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;
use crate::targets::abi::{
    CONST_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_SPAN, WINDOW_SPAN_32,
};

/// A generic address: its low word and, for 64-bit addresses, its high
/// word.
type Addr = (Operand, Option<Operand>);

/// How a window test combines with the previous predicate.
#[derive(Clone, Copy)]
enum Join {
    /// `P = inside || prev`.
    OrInside,
    /// `P = !inside && prev`.
    AndOutside,
}

impl Cx<'_> {
    pub fn lower_isspacep(&mut self, i: &Instruction) -> R {
        if kernel_takes_param_address(self.m) {
            return self.err(
                "isspacep in a module whose kernel takes a generic parameter address \
                 (cvta.param) is not lowered: that address is a local frame copy here",
            );
        }
        let d = self.dst_pred(&i.operands[0])?;
        let a = if self.addr32() {
            let lo = self.src32(&i.operands[1], ScalarType::U32)?;
            (self.in_reg(lo)?, None)
        } else {
            let (lo, hi) = self.src64(&i.operands[1], ScalarType::U64)?;
            (self.in_reg(lo)?, Some(self.in_reg(hi)?))
        };
        let has = |m: &[Mod]| m.iter().any(|&m| i.has(m));
        if has(&[Mod::Shared, Mod::SharedCta, Mod::SharedCluster]) {
            self.window(d, a, SHARED_WINDOW, Join::OrInside, None)
        } else if has(&[Mod::Local]) {
            self.window(d, a, LOCAL_WINDOW, Join::OrInside, None)
        } else if has(&[Mod::Param, Mod::ParamEntry, Mod::ParamFunc]) {
            self.window(d, a, PARAM_WINDOW, Join::OrInside, None)
        } else if has(&[Mod::Const]) {
            let prev = self.in_const_copy(a.clone(), false)?;
            self.window(d, a, CONST_WINDOW, Join::OrInside, prev)
        } else if has(&[Mod::Global]) {
            let mut prev = self.in_const_copy(a.clone(), true)?;
            let windows = [SHARED_WINDOW, LOCAL_WINDOW, CONST_WINDOW, PARAM_WINDOW];
            for (k, w) in windows.into_iter().enumerate() {
                let t = if k + 1 == windows.len() {
                    d
                } else {
                    self.b.vpred()
                };
                self.window(t, a.clone(), w, Join::AndOutside, prev)?;
                prev = Some(t);
            }
            Ok(())
        } else {
            self.err("isspacep without a state space")
        }
    }

    /// `d = (a in [c[0x0][w], +span)) join prev` (prev: PT if none); the
    /// span is [`WINDOW_SPAN`] (64-bit `a`: the high word of `a - base`
    /// below `span >> 32`) or [`WINDOW_SPAN_32`] (32-bit `a`: `a - base`
    /// modulo 2^32 below it, the window ending below 2^32).
    fn window(&mut self, d: u32, a: Addr, w: u32, join: Join, prev: Option<u32>) -> R {
        let (cmp, comb, dflt) = match join {
            Join::OrInside => ("LT", "OR", npt()),
            Join::AndOutside => ("GE", "AND", pt()),
        };
        let prev = prev.map_or(dflt, p);
        let (t, limit) = match a {
            (lo, Some(hi)) => {
                let t = self.b.vpair();
                self.add64(t, (lo, hi), (cbank(0, w), cbank(0, w + 4)), true)?;
                (t + 1, imm((WINDOW_SPAN >> 32) as i64))
            }
            (lo, None) => {
                let t = self.b.vreg();
                self.b
                    .emit(Op::IADD3, &[], [r(t), lo, neg(cbank(0, w)), rz()])?;
                (t, imm32(WINDOW_SPAN_32))
            }
        };
        self.b.emit(
            Op::ISETP,
            &[cmp, "U32", comb],
            [p(d), pt(), r(t), limit, prev],
        )
    }

    /// Whether `a` lies in the global copy of constant bank 3 (`outside`:
    /// whether it does not); None when the module has no copy.
    fn in_const_copy(&mut self, a: Addr, outside: bool) -> R<Option<u32>> {
        let Some(slot) = self.layout_const_global() else {
            return Ok(None);
        };
        let size = self.layout_const_bank_len().max(1);
        let base = self.b.vpair();
        self.b.emit(Op::LDC, &["64"], [r(base), cbank(4, slot)])?;
        let (lo, Some(hi)) = a else {
            // 32-bit: the copy's address is its low word (every launch
            // address fits in 32 bits there); inside: a - base < size.
            let t = self.b.vreg();
            let (lo, _) = a;
            self.b
                .emit(Op::IADD3, &[], [r(t), lo, neg(r(base)), rz()])?;
            let q = self.b.vpred();
            let cmp = if outside { "GE" } else { "LT" };
            self.b.emit(
                Op::ISETP,
                &[cmp, "U32", "AND"],
                [p(q), pt(), r(t), imm32(size), pt()],
            )?;
            return Ok(Some(q));
        };
        let t = self.b.vpair();
        self.add64(t, (lo, hi), (r(base), r(base + 1)), true)?;
        // Inside: t.hi == 0 && t.lo < size.
        let (hi_cmp, lo_cmp, comb) = if outside {
            ("NE", "GE", "OR")
        } else {
            ("EQ", "LT", "AND")
        };
        let h = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &[hi_cmp, "U32", "AND"],
            [p(h), pt(), r(t + 1), rz(), pt()],
        )?;
        let q = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &[lo_cmp, "U32", comb],
            [p(q), pt(), r(t), imm32(size), p(h)],
        )?;
        Ok(Some(q))
    }
}

/// Whether an `.entry` of the module has `cvta.param` (to generic).
fn kernel_takes_param_address(m: &ast::Module) -> bool {
    fn walk(b: &ast::Block) -> bool {
        b.stmts.iter().any(|s| match s {
            Statement::Instr(i) => {
                i.opcode == Opcode::Cvta
                    && !i.has(Mod::To)
                    && [Mod::Param, Mod::ParamEntry, Mod::ParamFunc]
                        .iter()
                        .any(|&m| i.has(m))
            }
            Statement::Block(inner) => walk(inner),
            _ => false,
        })
    }
    m.functions()
        .any(|f| f.kind == FuncKind::Entry && f.body.as_ref().is_some_and(walk))
}
