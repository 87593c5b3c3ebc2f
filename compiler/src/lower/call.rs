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
//! the caller's region is open, so a call to `f` uses `B(1 + height)`,
//! where `height` is that of `f`'s component of the call graph
//! (call_graph.rs: 0 for one that calls nothing outside itself, one more
//! than the highest component it calls otherwise): heights strictly
//! decrease down any call chain between components, and `B0` stays the
//! slow-path templates' (template.rs), whose regions contain no calls. A
//! call that may re-enter the caller (its callee, or one of a pointer
//! call's candidates, in the caller's recursive component) opens no
//! region: every function of the component keeps its callers' barrier and
//! closes its own region over its body before its one `RET`, as ptxas
//! 11.8 does (recursion.rs). DECISION: a pointer call whose candidates are
//! partly inside the component is such a call too (no region; the
//! caller's own region still reconverges its lanes before it returns, and
//! a `.sync` warp instruction after it starts with `WARPSYNC`, warp_sync.rs).

use rustc_hash::FxHashSet;

use crate::ir::sass_text::SassOperand;
use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, Instruction, OperandKind, StateSpace, Statement};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::call_indirect;
use super::regs::{Binding, Val};
use super::{var_size_align, AbiSlot, CurFn, Cx, FuncAbi, LowerError};

/// The functions a body calls (direct targets, and the candidates of each
/// indirect call, call_indirect.rs), each with whether the call names it.
pub(super) fn callees_marked(
    m: &ast::Module,
    body: &ast::Block,
    out: &mut dyn FnMut(Sym, crate::ptx::Span, bool),
) {
    let protos = call_indirect::prototypes(body);
    let mut taken = None;
    direct_and_indirect(m, body, &protos, &mut taken, out);
}

fn direct_and_indirect(
    m: &ast::Module,
    b: &ast::Block,
    protos: &rustc_hash::FxHashMap<Sym, call_indirect::Sig>,
    taken: &mut Option<FxHashSet<Sym>>,
    out: &mut dyn FnMut(Sym, crate::ptx::Span, bool),
) {
    for s in &b.stmts {
        match s {
            Statement::Instr(i) if i.opcode == Opcode::Call => {
                if let Some((_, proto)) = call_indirect::indirect_parts(m, i) {
                    let t = taken.get_or_insert_with(|| call_indirect::address_taken(m));
                    for c in call_indirect::candidates(m, t, protos, proto) {
                        out(c, i.span, false);
                    }
                } else if let Some(o) = i
                    .operands
                    .iter()
                    .find(|o| matches!(o.kind, OperandKind::Name(_)))
                {
                    if let OperandKind::Name(f) = o.kind {
                        out(f, i.span, true);
                    }
                }
            }
            Statement::Block(inner) => direct_and_indirect(m, inner, protos, taken, out),
            _ => {}
        }
    }
}

/// Convergence barrier registers: B0..B15 (B0 is the slow paths').
const BARRIERS: u32 = 16;

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

    pub(super) fn func_abi(&mut self, f: Sym) -> R<FuncAbi> {
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
        let shared = self.taken.contains(&f);
        let class = call_indirect::sig(&func.params, func.returns.as_deref());
        let (params, rets, ra) = match self.classes.get(&class) {
            Some(c) if shared => c.clone(),
            _ => {
                let params = self.slots_for(&func.params)?;
                let rets = match &func.returns {
                    Some(r) => self.slots_for(r)?,
                    None => vec![],
                };
                let regs = (params, rets, self.b.vpair());
                if shared {
                    self.classes.insert(class, regs.clone());
                }
                regs
            }
        };
        let abi = FuncAbi {
            label,
            params,
            rets,
            ra,
            shared,
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
                OperandKind::Name(_) => {}
                _ => return self.err("unsupported call operand"),
            }
        }
        if let Some((fp, proto)) = call_indirect::indirect_parts(self.m, i) {
            return self.lower_indirect_call(fp, proto, rets, args);
        }
        let f = callee.ok_or_else(|| LowerError::new(i.span, "call without a target"))?;
        let abi = self.func_abi(f)?;
        let func = self.m.function(self.m.name(f)).expect("func_abi checked");
        // A call that may re-enter the caller needs no region of its own:
        // the activation it starts closes one over its body before
        // returning (recursion.rs).
        let within = self.cur.name.is_some_and(|c| self.cg.within_cycle(c, f));
        let barrier = (!within).then(|| 1 + self.cg.height(f));
        let save_at = self.position();
        self.call_with(
            &abi,
            &func.params,
            barrier,
            Operand::Label(abi.label),
            rets,
            args,
        )?;
        if within {
            self.record_reentry(save_at);
        }
        Ok(())
    }

    /// Records the call just lowered (its sequence from `save_at`) as one
    /// that may re-enter the current function (recursion.rs).
    fn record_reentry(&mut self, save_at: (usize, usize)) {
        let sc = super::recursion::SelfCall {
            save_at,
            call_at: self.call_at,
            results_at: self.results_at,
            restore_at: self.position(),
        };
        self.cur.self_calls.push(sc);
    }

    /// The builder's current position: block index, instruction index.
    fn position(&self) -> (usize, usize) {
        let b = self.b.blocks.len() - 1;
        (b, self.b.blocks[b].insts.len())
    }

    /// `call (rets), %fp, (args), proto` (call_indirect.rs): the class
    /// registers of the prototype's signature, `CALL.REL.NOINC %fp 0x0`.
    fn lower_indirect_call(
        &mut self,
        fp: Sym,
        proto: Option<Sym>,
        rets: &[ast::Operand],
        args: &[ast::Operand],
    ) -> R {
        if !proto.is_some_and(|p| self.protos.contains_key(&p)) {
            return self.err(format!(
                "indirect call through `{}`: only calls with a `.callprototype` of this function are lowered",
                self.name(fp)
            ));
        }
        let cands = call_indirect::candidates(self.m, &self.taken, &self.protos, proto);
        let Some(&first) = cands.first() else {
            return self.err(format!(
                "indirect call through `{}`: no function of the prototype's signature has its address taken in the module",
                self.name(fp)
            ));
        };
        let mut height = 0;
        for &c in &cands {
            self.func_abi(c)?;
            height = height.max(self.cg.height(c));
        }
        let within = self
            .cur
            .name
            .is_some_and(|f| cands.iter().any(|&c| self.cg.within_cycle(f, c)));
        let abi = self.func_abi(first)?;
        let decls = &self.m.function(self.m.name(first)).expect("a body").params;
        let reg = match self.lookup(fp) {
            Some(Binding::Reg { val: Val::D(v), .. })
            | Some(Binding::Reg { val: Val::R(v), .. }) => v,
            _ => {
                return self.err(format!(
                    "indirect call target `{}` is not an address register",
                    self.name(fp)
                ))
            }
        };
        let target = Operand::RegRel {
            reg: crate::ir::sass_text::Reg::V(reg),
            offset: 0,
        };
        let save_at = self.position();
        let barrier = (!within).then_some(1 + height);
        self.call_with(&abi, decls, barrier, target, rets, args)?;
        if within {
            self.record_reentry(save_at);
        }
        Ok(())
    }

    /// The call sequence (module doc): arguments, `BSSY`, return address,
    /// `CALL.REL.NOINC target`, `BSYNC`, results.
    fn call_with(
        &mut self,
        abi: &FuncAbi,
        decls: &[ast::VarDecl],
        barrier: Option<u32>,
        target: Operand,
        rets: &[ast::Operand],
        args: &[ast::Operand],
    ) -> R {
        if args.len() != abi.params.len() || rets.len() != abi.rets.len() {
            return self.err("call arguments do not match the callee");
        }
        for (k, a) in args.iter().enumerate() {
            match abi.params[k] {
                AbiSlot::Words(pf, pw) => {
                    if let OperandKind::Imm(x) = a.kind {
                        // An immediate for a `.param` parameter (PTX ISA
                        // 9.7.12.4; ptxas 11.8 accepts `call (pr), f, (7,
                        // 0x100000005, 2.5)`): its bits at the parameter's
                        // type, zero-extended over the parameter's words.
                        let ty = decls
                            .get(k)
                            .and_then(ast::VarDecl::scalar)
                            .unwrap_or(ScalarType::B32);
                        let bits = super::operand::imm_bits(x, ty);
                        let bits = if ty.bits() >= 64 {
                            bits
                        } else {
                            bits & ((1u64 << ty.bits()) - 1)
                        };
                        for w in 0..pw {
                            let word = if w < 2 { (bits >> (32 * w)) as u32 } else { 0 };
                            self.mov(pf + w, imm(i64::from(word as i32)))?;
                        }
                        continue;
                    }
                    let (first, words) = self.arg_words(a)?;
                    for w in 0..words.min(pw) {
                        self.mov(pf + w, r(first + w))?;
                    }
                }
                AbiSlot::Reg(val, ty) => self.reg_arg(a, val, ty)?,
            }
        }
        let ret = self.b.new_label();
        let barrier = match barrier {
            Some(b) if b >= BARRIERS => {
                return self.err(format!(
                    "calls nest {b} deep; convergence barriers B1..B15 allow 14"
                ))
            }
            b => b.map(|b| SassOperand::Barrier(b as u8)),
        };
        if let Some(bar) = &barrier {
            self.b
                .emit(Op::BSSY, &[], [bar.clone(), Operand::Label(ret)])?;
        }
        self.b
            .emit(Op::MOV, &[], [r(abi.ra), Operand::Label(ret)])?;
        self.mov(abi.ra + 1, rz())?;
        self.call_at = self.position();
        self.b.emit(Op::CALL, &["REL", "NOINC"], [target])?;
        self.b.start_block(ret);
        if let Some(bar) = barrier {
            self.b.emit(Op::BSYNC, &[], [bar])?;
        }
        self.results_at = self.position();
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

    /// Copies one ABI slot into another of the same shape.
    pub(super) fn copy_slot(&mut self, from: AbiSlot, to: AbiSlot) -> R {
        match (from, to) {
            (AbiSlot::Words(a, n), AbiSlot::Words(b, m)) => {
                for w in 0..n.min(m) {
                    self.mov(b + w, r(a + w))?;
                }
                Ok(())
            }
            (AbiSlot::Reg(Val::P(a), _), AbiSlot::Reg(Val::P(b), _)) => self.b.emit(
                Op::PLOP3,
                &["LUT"],
                [p(b), pt(), p(a), pt(), pt(), imm(0xf0), imm(0)],
            ),
            (AbiSlot::Reg(a, _), AbiSlot::Reg(b, _)) => {
                for (x, y) in a.words().into_iter().zip(b.words()) {
                    self.mov(y, r(x))?;
                }
                Ok(())
            }
            _ => self.err("internal: ABI slots of different kinds"),
        }
    }

    /// Lowers a callee's body after the kernel.
    pub fn lower_func(&mut self, f: Sym) -> R {
        let abi = self.funcs[&f].clone();
        let func = self.m.function(self.m.name(f)).expect("checked");
        self.b.span = func.name_span;
        self.b.start_block(abi.label);
        let first_block = self.b.blocks.len() - 1;
        let saved = std::mem::replace(
            &mut self.cur,
            CurFn {
                is_entry: false,
                frame: 0,
                ra: abi.ra,
                ret_copies: Vec::new(),
                name: Some(f),
                self_calls: Vec::new(),
                recursive: None,
            },
        );
        self.scopes.push();
        for (k, v) in self.layout_vars() {
            self.scopes.bind(k, v);
        }
        let mut abi = abi;
        if abi.shared {
            // A member of a signature class (call_indirect.rs): its own
            // registers, copied from the class's on entry; its return
            // values go back before each RET (control.rs `lower_ret`).
            let params = self.slots_for(&func.params)?;
            let rets = match &func.returns {
                Some(r) => self.slots_for(r)?,
                None => vec![],
            };
            let ra = self.b.vpair();
            for (&from, &to) in abi.params.iter().zip(&params) {
                self.copy_slot(from, to)?;
            }
            self.mov(ra, r(abi.ra))?;
            self.mov(ra + 1, r(abi.ra + 1))?;
            self.cur.ra = ra;
            self.cur.ret_copies = rets.iter().copied().zip(abi.rets.iter().copied()).collect();
            abi.params = params;
            abi.rets = rets;
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
        if self.cg.is_recursive(f) {
            // Keep the callers' convergence barrier; one region over the
            // body (opened after the frame push, mod.rs `function_body`),
            // closed at its one exit (recursion.rs).
            let saved = self.b.vreg();
            let barrier = (1 + self.cg.height(f)) as u8;
            let exit = self.b.new_label();
            self.b.emit(
                Op::BMOV,
                &["32", "CLEAR"],
                [r(saved), SassOperand::Barrier(barrier)],
            )?;
            self.cur.recursive = Some(super::recursion::RecFrame {
                saved,
                barrier,
                exit,
            });
        }
        self.function_body(body)?;
        if let Some(rec) = self.cur.recursive {
            self.b.start_block(rec.exit);
            self.b
                .emit(Op::BSYNC, &[], [SassOperand::Barrier(rec.barrier)])?;
            self.return_sequence()?;
            let mut at_ret = Vec::new();
            at_ret.push(crate::ir::regs::RegUnit::VR(self.cur.ra));
            at_ret.push(crate::ir::regs::RegUnit::VR(self.cur.ra + 1));
            for s in abi.rets.iter().chain(&self.funcs[&f].rets) {
                super::recursion::slot_units(s, &mut at_ret);
            }
            self.save_around_self_calls(first_block, &at_ret)?;
        }
        self.scopes.pop();
        self.cur = saved;
        Ok(())
    }
}
