//! `.func` calls (the ABI is documented in mod.rs).
//!
//! Caller: `MOV` each argument word into the callee's parameter registers,
//! `MOV %ra, .L_ret ; MOV %ra+1, RZ ; CALL.REL.NOINC .L_callee`, then at
//! `.L_ret` `MOV` the return words out (double_noinline.sm_80: `MOV R4, 0xc0
//! ; CALL.REL.NOINC 0x3f0`). Callee: its body at `.L_callee` after the
//! kernel, `ret` is `RET.REL.NODEC %ra 0x0`.
//!
//! Convergence: the call is bracketed by `BSSY Bn, .L_ret` ... `.L_ret:
//! BSYNC Bn`, as ptxas brackets it (`BSSY B0, 0xb0 ; CALL.REL.NOINC ;
//! BSYNC B0`), so lanes that leave a divergent callee at different times
//! rejoin before anything after the call runs: a `vote.sync`/`shfl.sync`
//! after a call to a function with a data-dependent loop otherwise ran on
//! part of the warp (generator seed 7019, found by the reducer). The
//! barrier register must not be reused by anything the callee runs while
//! the caller's region is open, so a call to `f` uses `B(1 + height(f))`,
//! where `height` is 0 for a function that calls nothing and one more than
//! its deepest callee otherwise: heights strictly decrease down any call
//! chain (recursion is refused), and `B0` stays the slow-path templates'
//! (template.rs), whose regions contain no calls.

use rustc_hash::FxHashSet;

use crate::ir::sass_text::SassOperand;
use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, Instruction, OperandKind, StateSpace, Statement};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::regs::{Binding, Val};
use super::{var_size_align, AbiSlot, CurFn, Cx, FuncAbi, LowerError};

fn callees(b: &ast::Block, out: &mut Vec<(Sym, crate::ptx::Span)>) {
    for s in &b.stmts {
        match s {
            Statement::Instr(i) if i.opcode == Opcode::Call => {
                if let Some(o) = i
                    .operands
                    .iter()
                    .find(|o| matches!(o.kind, OperandKind::Name(_)))
                {
                    if let OperandKind::Name(f) = o.kind {
                        out.push((f, i.span));
                    }
                }
            }
            Statement::Block(inner) => callees(inner, out),
            _ => {}
        }
    }
}

/// The call height of `f`: 0 when it calls nothing, else one more than
/// its highest callee's (recursion is refused before lowering).
pub fn call_height(m: &ast::Module, f: &ast::Function) -> u32 {
    let Some(body) = &f.body else { return 0 };
    let mut cs = Vec::new();
    callees(body, &mut cs);
    cs.iter()
        .filter_map(|&(c, _)| m.function(m.name(c)))
        .map(|g| 1 + call_height(m, g))
        .max()
        .unwrap_or(0)
}

/// Convergence barrier registers: B0..B15 (B0 is the slow paths').
const BARRIERS: u32 = 16;

/// Refuses recursion (direct or not) among the functions a kernel reaches.
pub fn check_no_recursion(m: &ast::Module, f: &ast::Function) -> Result<(), LowerError> {
    fn visit(
        m: &ast::Module,
        f: &ast::Function,
        stack: &mut Vec<Sym>,
        done: &mut FxHashSet<Sym>,
    ) -> Result<(), LowerError> {
        let Some(body) = &f.body else { return Ok(()) };
        let mut cs = Vec::new();
        callees(body, &mut cs);
        for (c, span) in cs {
            if stack.contains(&c) {
                return Err(LowerError::new(
                    span,
                    format!("recursive call to `{}` is not lowered", m.name(c)),
                ));
            }
            if done.contains(&c) {
                continue;
            }
            if let Some(g) = m.function(m.name(c)) {
                stack.push(c);
                visit(m, g, stack, done)?;
                stack.pop();
            }
            done.insert(c);
        }
        Ok(())
    }
    visit(m, f, &mut vec![f.name], &mut FxHashSet::default())
}

impl Cx<'_> {
    /// The ABI slots of a parameter (or return value) list: a `.reg`
    /// declaration gets a register of its type, a `.param` one words.
    fn slots_for(&mut self, decls: &[ast::VarDecl]) -> R<Vec<AbiSlot>> {
        let mut out = Vec::with_capacity(decls.len());
        for d in decls {
            if d.space == StateSpace::Reg {
                let ty = match d.scalar() {
                    Some(t) if d.vector.is_none() && d.dims.is_empty() => t,
                    _ => {
                        return Err(LowerError::new(
                            d.span,
                            format!(
                                "`.reg` parameter `{}`: only scalar `.reg` parameters are lowered",
                                self.name(d.name)
                            ),
                        ))
                    }
                };
                if ty.bits() > 64 {
                    return Err(LowerError::new(
                        d.span,
                        format!(
                            "`.reg` parameter `{}`: 128-bit `.reg` parameters are not lowered",
                            self.name(d.name)
                        ),
                    ));
                }
                out.push(AbiSlot::Reg(Val::of_type(&mut self.b, ty), ty));
                continue;
            }
            let (size, _) = var_size_align(d);
            let words = size.div_ceil(4).max(1);
            let first = self.b.valigned(if words >= 2 { 2 } else { 1 });
            for _ in 1..words {
                self.b.vreg();
            }
            out.push(AbiSlot::Words(first, words));
        }
        Ok(out)
    }

    fn func_abi(&mut self, f: Sym) -> R<FuncAbi> {
        if let Some(a) = self.funcs.get(&f) {
            return Ok(a.clone());
        }
        let Some(func) = self.m.function(self.m.name(f)) else {
            return self.err(format!(
                "call to `{}`, which has no body in the module",
                self.name(f)
            ));
        };
        let label = self.b.new_label();
        let params = self.slots_for(&func.params)?;
        let rets = match &func.returns {
            Some(r) => self.slots_for(r)?,
            None => vec![],
        };
        let ra = self.b.vpair();
        let abi = FuncAbi {
            label,
            params,
            rets,
            ra,
        };
        self.funcs.insert(f, abi.clone());
        self.func_queue.push(f);
        Ok(abi)
    }

    /// The word registers a call argument or result names.
    fn arg_words(&mut self, o: &ast::Operand) -> R<(u32, u32)> {
        match &o.kind {
            OperandKind::Name(s) => match self.lookup(*s) {
                Some(Binding::ParamWords { first, words }) => Ok((first, words)),
                Some(Binding::Reg { val, .. }) => {
                    let w = val.words();
                    match w.first() {
                        Some(&f) => Ok((f, w.len() as u32)),
                        None => self.err("a predicate call argument"),
                    }
                }
                _ => self.err(format!(
                    "call argument `{}` is not a parameter",
                    self.name(*s)
                )),
            },
            _ => self.err("unsupported call argument"),
        }
    }

    pub fn lower_call(&mut self, i: &Instruction) -> R {
        let mut rets: &[ast::Operand] = &[];
        let mut args: &[ast::Operand] = &[];
        let mut callee = None;
        for o in &i.operands {
            match &o.kind {
                OperandKind::List(l) if callee.is_none() => rets = l,
                OperandKind::List(l) => args = l,
                OperandKind::Name(s) if callee.is_none() => callee = Some(*s),
                _ => return self.err("indirect calls and call prototypes are not lowered"),
            }
        }
        let f = callee.ok_or_else(|| LowerError::new(i.span, "call without a target"))?;
        let abi = self.func_abi(f)?;
        if args.len() != abi.params.len() || rets.len() != abi.rets.len() {
            return self.err("call arguments do not match the callee");
        }
        for (k, a) in args.iter().enumerate() {
            match abi.params[k] {
                AbiSlot::Words(pf, pw) => {
                    let (first, words) = self.arg_words(a)?;
                    for w in 0..words.min(pw) {
                        self.mov(pf + w, r(first + w))?;
                    }
                }
                AbiSlot::Reg(val, ty) => self.reg_arg(a, val, ty)?,
            }
        }
        let ret = self.b.new_label();
        let func = self.m.function(self.m.name(f)).expect("func_abi checked");
        let barrier = 1 + call_height(self.m, func);
        if barrier >= BARRIERS {
            return self.err(format!(
                "calls nest {barrier} deep; convergence barriers B1..B15 allow 14"
            ));
        }
        let barrier = SassOperand::Barrier(barrier as u8);
        self.b
            .emit(Op::BSSY, &[], [barrier.clone(), Operand::Label(ret)])?;
        self.b
            .emit(Op::MOV, &[], [r(abi.ra), Operand::Label(ret)])?;
        self.mov(abi.ra + 1, rz())?;
        self.b
            .emit(Op::CALL, &["REL", "NOINC"], [Operand::Label(abi.label)])?;
        self.b.start_block(ret);
        self.b.emit(Op::BSYNC, &[], [barrier])?;
        for (k, o) in rets.iter().enumerate() {
            match abi.rets[k] {
                AbiSlot::Words(rf, rw) => {
                    let (first, words) = self.arg_words(o)?;
                    for w in 0..words.min(rw) {
                        self.mov(first + w, r(rf + w))?;
                    }
                }
                AbiSlot::Reg(val, _) => self.reg_ret(o, val)?,
            }
        }
        Ok(())
    }

    /// Writes a call argument (a register or an immediate, PTX ISA 9.7.12.4
    /// "Arguments may be registers, immediate constants, or variables in
    /// .param space") into the callee's `.reg` parameter `val` of type
    /// `ty`, as `mov.ty` would.
    fn reg_arg(&mut self, a: &ast::Operand, val: Val, ty: ScalarType) -> R {
        if let OperandKind::Name(s) = a.kind {
            match self.lookup(s) {
                Some(Binding::Reg { .. }) => {}
                Some(_) => {
                    return self.err(format!(
                        "`{}` is not a register or an immediate: a `.reg` parameter takes one",
                        self.name(s)
                    ))
                }
                None => return self.err(format!("unknown name `{}`", self.name(s))),
            }
        }
        match val {
            Val::P(d) => {
                let x = self.src_pred(a)?;
                self.b.emit(
                    Op::PLOP3,
                    &["LUT"],
                    [p(d), pt(), x, pt(), pt(), imm(0xf0), imm(0)],
                )
            }
            Val::R(v) => {
                let x = self.src32(a, ty)?;
                self.mov(v, x)
            }
            Val::D(v) => {
                let (lo, hi) = self.src64(a, ty)?;
                self.mov(v, lo)?;
                self.mov(v + 1, hi)
            }
            Val::Q(_) => self.err("128-bit `.reg` parameters are not lowered"),
        }
    }

    /// Copies the callee's `.reg` return value `val` into the call's
    /// destination register (of the same kind: ptxas 11.8 refuses a
    /// mismatched type, "Type of argument does not match formal parameter").
    fn reg_ret(&mut self, o: &ast::Operand, val: Val) -> R {
        let (dst, _) = self.dst_val(o)?;
        match (dst, val) {
            (Val::P(d), Val::P(s)) => self.b.emit(
                Op::PLOP3,
                &["LUT"],
                [p(d), pt(), p(s), pt(), pt(), imm(0xf0), imm(0)],
            ),
            (Val::R(d), Val::R(s)) => self.mov(d, r(s)),
            (Val::D(d), Val::D(s)) => {
                self.mov(d, r(s))?;
                self.mov(d + 1, r(s + 1))
            }
            _ => self
                .err("the call's return register does not match the callee's `.reg` return value"),
        }
    }

    /// Lowers a callee's body after the kernel.
    pub fn lower_func(&mut self, f: Sym) -> R {
        let abi = self.funcs[&f].clone();
        let func = self.m.function(self.m.name(f)).expect("checked");
        self.b.span = func.name_span;
        self.b.start_block(abi.label);
        let saved = std::mem::replace(
            &mut self.cur,
            CurFn {
                is_entry: false,
                frame: 0,
                ra: abi.ra,
            },
        );
        self.scopes.push();
        for (k, v) in self.layout_vars() {
            self.scopes.bind(k, v);
        }
        for (p, &slot) in func.params.iter().zip(&abi.params) {
            let binding = match slot {
                AbiSlot::Words(first, words) => Binding::ParamWords { first, words },
                AbiSlot::Reg(val, ty) => Binding::Reg { val, ty },
            };
            self.scopes.bind(p.name, binding);
        }
        if let Some(rs) = &func.returns {
            for (p, &slot) in rs.iter().zip(&abi.rets) {
                let (first, words) = match slot {
                    AbiSlot::Words(first, words) => (first, words),
                    AbiSlot::Reg(val, ty) => {
                        self.scopes.bind(p.name, Binding::Reg { val, ty });
                        continue;
                    }
                };
                self.scopes
                    .bind(p.name, Binding::ParamWords { first, words });
                // A sub-word store (`st.param.b16 [func_retval0]`) merges
                // into its word: start from zero, not an undefined value.
                if super::sub_word(p) {
                    for w in 0..words {
                        self.mov(first + w, rz())?;
                    }
                }
            }
        }
        let body = func.body.as_ref().expect("a body");
        self.function_body(body)?;
        self.max_callee_frame = self.max_callee_frame.max(self.cur.frame);
        self.scopes.pop();
        self.cur = saved;
        Ok(())
    }
}
