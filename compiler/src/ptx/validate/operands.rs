//! Per-instruction checking helpers shared by the family validators:
//! modifiers, types, operand count and operand kinds, and version/target gates.
//! Operand numbers in messages are 1-based with the destination first.

use super::scope::{FnCx, LabelKind, Resolved};
use crate::ptx::ast::*;
use crate::ptx::isa::{Family, Opcode};
use crate::ptx::modifiers::{Mod, ModCat};
use crate::ptx::span::Span;
use crate::ptx::types::{ScalarType, TypeKind};
use crate::targets::PtxVersion;

pub(crate) struct ICx<'a, 'm, 'd> {
    pub f: &'a mut FnCx<'m, 'd>,
    pub i: &'m Instruction,
    /// Set once an error was reported for this instruction.
    pub failed: bool,
}

/// How strictly a register's declared type must match the instruction type.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fit {
    /// PTX ISA "Type Checking Rules".
    Exact,
    /// ld/st/cvt: an integer or bit-size register may be wider than the type
    /// (PTX ISA "Operand Size Exceeding Instruction-Type Size": the relaxed
    /// rules for ld, st and cvt; loads sign- or zero-extend, stores truncate).
    Relaxed,
}

impl<'a, 'm, 'd> ICx<'a, 'm, 'd> {
    pub fn new(f: &'a mut FnCx<'m, 'd>, i: &'m Instruction) -> Self {
        ICx {
            f,
            i,
            failed: false,
        }
    }

    pub fn check(mut self) {
        let i = self.i;
        if let Some(g) = i.guard {
            self.pred_name(g.reg, g.span, 0);
        }
        let info = i.opcode.info();
        if self.f.t.ptx < info.min_ptx {
            self.need_ptx(i.opcode.name(), info.min_ptx);
        }
        if self.f.t.sm < info.min_sm {
            self.need_sm(i.opcode.name(), info.min_sm);
        }
        match i.opcode.family() {
            Family::Integer => super::int::check(&mut self),
            Family::Float => super::float::check(&mut self),
            Family::Compare | Family::Logic => super::logic::check(&mut self),
            Family::Data => super::data::check(&mut self),
            Family::Texture => super::tex::check(&mut self),
            Family::Control => super::control::check(&mut self),
            Family::Sync | Family::Misc => super::sync::check(&mut self),
        }
    }

    pub fn op(&self) -> Opcode {
        self.i.opcode
    }

    pub fn name(&self) -> &'static str {
        self.i.opcode.name()
    }

    pub fn has(&self, m: Mod) -> bool {
        self.i.has(m)
    }

    pub fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.failed = true;
        self.f.error(span, msg);
    }

    /// The span of the opcode name (before its modifiers).
    pub fn opcode_span(&self) -> Span {
        let lo = self.i.op_span.lo;
        Span {
            lo,
            hi: lo + self.name().len() as u32,
        }
    }

    /// The span of the `k`-th modifier (0-based) within the opcode token,
    /// computed from the spellings (the token has no spaces).
    pub fn mod_span(&self, k: usize) -> Span {
        let mut lo = self.i.op_span.lo + self.name().len() as u32;
        for (j, m) in self.i.mods.iter().enumerate() {
            let len = 1 + m.text().len() as u32;
            if j == k {
                return Span { lo, hi: lo + len };
            }
            lo += len;
        }
        self.opcode_span()
    }

    pub fn mod_index(&self, m: Mod) -> usize {
        self.i.mods.iter().position(|x| x == m).unwrap_or(0)
    }

    // ---- gates ----

    pub fn need_ptx(&mut self, feature: &str, v: PtxVersion) {
        if self.f.t.ptx < v {
            let span = self.opcode_span();
            self.err(
                span,
                format!("'{feature}' requires PTX ISA version {v} or later"),
            );
        }
    }

    pub fn need_sm(&mut self, feature: &str, sm: u32) {
        if self.f.t.sm < sm {
            let span = self.opcode_span();
            self.err(span, format!("'{feature}' requires sm_{sm} or later"));
        }
    }

    /// Gate on a modifier: PTX version and SM, reported at the modifier.
    pub fn gate_mod(&mut self, m: Mod, v: PtxVersion, sm: u32) {
        if !self.has(m) {
            return;
        }
        let feature = format!("{}.{}", self.name(), m.text());
        let span = self.mod_span(self.mod_index(m));
        if self.f.t.ptx < v {
            self.err(
                span,
                format!("'{feature}' requires PTX ISA version {v} or later"),
            );
        } else if self.f.t.sm < sm {
            self.err(span, format!("'{feature}' requires sm_{sm} or later"));
        }
    }

    // ---- modifiers ----

    /// Every modifier must be a type or in `allowed`.
    pub fn allow(&mut self, allowed: &[Mod]) {
        let mods: Vec<Mod> = self.i.mods.iter().collect();
        for (k, m) in mods.into_iter().enumerate() {
            if m.cat() != ModCat::Type && !allowed.contains(&m) {
                let span = self.mod_span(k);
                let msg = if m.cat() == ModCat::Space {
                    format!(
                        "state space '.{}' is not allowed for '{}'",
                        m.text(),
                        self.name()
                    )
                } else {
                    format!("unknown modifier '.{}' for '{}'", m.text(), self.name())
                };
                self.err(span, msg);
            }
        }
    }

    /// At most one modifier from `group`; returns it.
    pub fn one_of(&mut self, group: &[Mod]) -> Option<Mod> {
        let mut found: Option<Mod> = None;
        let mods: Vec<Mod> = self.i.mods.iter().collect();
        for (k, m) in mods.into_iter().enumerate() {
            if group.contains(&m) {
                if let Some(prev) = found {
                    let span = self.mod_span(k);
                    let msg = if prev == m {
                        format!("duplicate modifier '.{}'", m.text())
                    } else {
                        format!(
                            "conflicting modifiers '.{}' and '.{}'",
                            prev.text(),
                            m.text()
                        )
                    };
                    self.err(span, msg);
                } else {
                    found = Some(m);
                }
            }
        }
        found
    }

    /// Exactly one modifier from `group`; `what` names it in the message.
    pub fn require_one(&mut self, group: &[Mod], what: &str) -> Option<Mod> {
        let m = self.one_of(group);
        if m.is_none() && !self.failed {
            let span = self.opcode_span();
            self.err(span, format!("'{}' requires {what}", self.name()));
        }
        m
    }

    pub fn rounding(&mut self) -> Option<Mod> {
        self.one_of(&[Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Rna])
    }

    /// The type modifiers with their modifier index.
    pub fn type_mods(&self) -> Vec<(ScalarType, usize)> {
        self.i
            .mods
            .iter()
            .enumerate()
            .filter_map(|(k, m)| m.as_type().map(|t| (t, k)))
            .collect()
    }

    /// Exactly one type, from `allowed`.
    pub fn one_type(&mut self, allowed: &[ScalarType]) -> Option<ScalarType> {
        let ts = self.type_mods();
        match ts.as_slice() {
            [] => {
                let span = self.opcode_span();
                let msg = format!("missing type for '{}'", self.name());
                self.err(span, msg);
                None
            }
            [(t, k)] => {
                if allowed.contains(t) {
                    Some(*t)
                } else {
                    let span = self.mod_span(*k);
                    let msg = format!("type '{t}' is not allowed for '{}'", self.name());
                    self.err(span, msg);
                    None
                }
            }
            [(a, _), (b, k), ..] => {
                let span = self.mod_span(*k);
                self.err(span, format!("conflicting modifiers '{a}' and '{b}'"));
                None
            }
        }
    }

    /// No type modifier at all.
    pub fn no_type(&mut self) {
        if let Some(&(t, k)) = self.type_mods().first() {
            let span = self.mod_span(k);
            let msg = format!("type '{t}' is not allowed for '{}'", self.name());
            self.err(span, msg);
        }
    }

    /// Exactly `n` types (e.g. cvt's destination and source), each checked
    /// against its allowed list.
    pub fn types_n(&mut self, allowed: &[&[ScalarType]]) -> Option<Vec<ScalarType>> {
        let ts = self.type_mods();
        if ts.len() != allowed.len() {
            let span = if ts.len() > allowed.len() {
                self.mod_span(ts[allowed.len()].1)
            } else {
                self.opcode_span()
            };
            let msg = if ts.len() < allowed.len() {
                format!("missing type for '{}'", self.name())
            } else {
                format!("too many types for '{}'", self.name())
            };
            self.err(span, msg);
            return None;
        }
        let mut out = Vec::new();
        for ((t, k), ok) in ts.into_iter().zip(allowed) {
            if !ok.contains(&t) {
                let span = self.mod_span(k);
                let msg = format!("type '{t}' is not allowed for '{}'", self.name());
                self.err(span, msg);
                return None;
            }
            out.push(t);
        }
        Some(out)
    }

    /// Reports a modifier that is not valid with the chosen type.
    pub fn mod_not_with_type(&mut self, m: Mod, t: ScalarType) {
        if self.has(m) {
            let span = self.mod_span(self.mod_index(m));
            self.err(
                span,
                format!(
                    "modifier '.{}' is not allowed with '{t}' for '{}'",
                    m.text(),
                    self.name()
                ),
            );
        }
    }

    // ---- operands ----

    pub fn n_operands(&self) -> usize {
        self.i.operands.len()
    }

    pub fn count(&mut self, n: usize) -> bool {
        self.count_in(n, n)
    }

    pub fn count_in(&mut self, lo: usize, hi: usize) -> bool {
        let got = self.n_operands();
        if got < lo || got > hi {
            let want = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo} to {hi}")
            };
            let span = self.opcode_span();
            let msg = format!("'{}' expects {want} operands, found {got}", self.name());
            self.err(span, msg);
            false
        } else {
            true
        }
    }

    pub fn operand(&self, k: usize) -> &'m Operand {
        &self.i.operands[k]
    }

    fn undeclared(&mut self, s: crate::ptx::intern::Sym, span: Span) {
        let name = self.f.m.name(s);
        let msg = if name.starts_with('%') {
            format!("undeclared register '{name}'")
        } else {
            format!("undeclared identifier '{name}'")
        };
        self.err(span, msg);
    }

    /// The declared register type of a name, reporting undeclared names and
    /// non-registers. `k` is the 0-based operand index (for messages).
    pub fn reg_type(
        &mut self,
        s: crate::ptx::intern::Sym,
        span: Span,
        k: usize,
    ) -> Option<(ScalarType, Option<u8>)> {
        match self.f.resolve(s) {
            None => {
                self.undeclared(s, span);
                None
            }
            Some(Resolved::Decl(d)) if d.space == StateSpace::Reg => match d.ty {
                VarType::Scalar(t) => Some((t, d.vector)),
                _ => None,
            },
            Some(_) => {
                let msg = format!("operand {} of '{}' must be a register", k + 1, self.name());
                self.err(span, msg);
                None
            }
        }
    }

    fn type_fits(reg: ScalarType, want: ScalarType, fit: Fit) -> bool {
        if want.accepts_register(reg) {
            return true;
        }
        fit == Fit::Relaxed
            && reg.bits() > want.bits()
            && reg.kind() != TypeKind::Pred
            && want.kind() != TypeKind::Pred
            && (want.kind() != TypeKind::Float || reg.kind() == TypeKind::Bits)
            && (reg.kind() != TypeKind::Float || want.kind() == TypeKind::Bits)
    }

    fn incompatible(
        &mut self,
        s: crate::ptx::intern::Sym,
        span: Span,
        reg: ScalarType,
        want: ScalarType,
    ) {
        let msg = format!(
            "register '{}' has type '{reg}', which is not compatible with '{want}'",
            self.f.m.name(s)
        );
        self.err(span, msg);
    }

    /// A named register operand of type `want`.
    fn reg_of(
        &mut self,
        s: crate::ptx::intern::Sym,
        span: Span,
        k: usize,
        want: ScalarType,
        fit: Fit,
    ) {
        if let Some((t, vec)) = self.reg_type(s, span, k) {
            if vec.is_some() {
                let msg = format!(
                    "operand {} of '{}' must be a scalar register",
                    k + 1,
                    self.name()
                );
                self.err(span, msg);
            } else if !Self::type_fits(t, want, fit) {
                self.incompatible(s, span, t, want);
            }
        }
    }

    /// `%v.x` of a vector register.
    fn component_of(
        &mut self,
        s: crate::ptx::intern::Sym,
        c: u8,
        span: Span,
        k: usize,
        want: ScalarType,
        fit: Fit,
    ) {
        if let Some((t, vec)) = self.reg_type(s, span, k) {
            match vec {
                Some(n) if c < n => {
                    if !Self::type_fits(t, want, fit) {
                        self.incompatible(s, span, t, want);
                    }
                }
                _ => {
                    let msg = format!("invalid component of '{}'", self.f.m.name(s));
                    self.err(span, msg);
                }
            }
        }
    }

    /// Destination operand `k`: a register of type `want` (or `_` if `sink`).
    pub fn dst_op(&mut self, k: usize, want: ScalarType, fit: Fit, sink: bool) {
        let o = self.operand(k);
        match &o.kind {
            OperandKind::Name(s) => self.reg_of(*s, o.span, k, want, fit),
            OperandKind::Component(s, c) => self.component_of(*s, *c, o.span, k, want, fit),
            OperandKind::Sink if sink => {}
            OperandKind::Imm(_) => {
                let msg = format!("destination of '{}' must not be an immediate", self.name());
                self.err(o.span, msg);
            }
            _ => {
                let msg = format!("operand {} of '{}' must be a register", k + 1, self.name());
                self.err(o.span, msg);
            }
        }
    }

    /// `d` or `d|p`: a register of type `want`, optionally with a predicate
    /// output (shfl, match.all, lop3).
    pub fn dst_with_pred(&mut self, k: usize, want: ScalarType) {
        let o = self.operand(k);
        if let OperandKind::PredPair(d, p) = o.kind {
            self.reg_of(d, o.span, k, want, Fit::Exact);
            self.pred_name(p, o.span, k);
        } else {
            self.dst(k, want);
        }
    }

    pub fn dst(&mut self, k: usize, want: ScalarType) {
        self.dst_op(k, want, Fit::Exact, false);
    }

    /// Source operand `k` of type `want`: a register, an immediate that fits,
    /// or a special register.
    pub fn src_op(&mut self, k: usize, want: ScalarType, fit: Fit, imm_ok: bool) {
        let o = self.operand(k);
        match &o.kind {
            OperandKind::Name(s) => {
                // mov/cvta may take the address of a variable or function.
                if let Some(Resolved::Decl(d)) = self.f.resolve(*s) {
                    if d.space != StateSpace::Reg {
                        if self.takes_addresses() {
                            self.address_sized(k, want, d.space);
                        } else {
                            let msg = format!(
                                "operand {} of '{}' must be a register",
                                k + 1,
                                self.name()
                            );
                            self.err(o.span, msg);
                        }
                        return;
                    }
                }
                if let Some(Resolved::Func(_)) = self.f.resolve(*s) {
                    if self.op() == Opcode::Mov {
                        self.address_sized(k, want, StateSpace::Global);
                        return;
                    }
                }
                self.reg_of(*s, o.span, k, want, fit)
            }
            OperandKind::SymOffset(s, _) if self.takes_addresses() => match self.f.resolve(*s) {
                Some(Resolved::Decl(d)) if d.space != StateSpace::Reg => {
                    self.address_sized(k, want, d.space)
                }
                None => self.undeclared(*s, o.span),
                _ => {
                    let msg = format!(
                        "operand {} of '{}' must be a variable address",
                        k + 1,
                        self.name()
                    );
                    self.err(o.span, msg);
                }
            },
            OperandKind::Component(s, c) => self.component_of(*s, *c, o.span, k, want, fit),
            OperandKind::Special(r) => {
                let info = r.info();
                if !Self::type_fits(info.ty, want, fit) {
                    let msg = format!(
                        "special register '{}' has type '{}', which is not compatible with '{want}'",
                        r.name(),
                        info.ty
                    );
                    self.err(o.span, msg);
                }
                if self.f.t.ptx < info.min_ptx || self.f.t.sm < info.min_sm {
                    let msg = format!(
                        "special register '{}' requires PTX ISA version {} and sm_{}",
                        r.name(),
                        info.min_ptx,
                        info.min_sm
                    );
                    self.err(o.span, msg);
                }
            }
            OperandKind::Imm(imm) if imm_ok => self.imm_fits(*imm, want, o.span),
            OperandKind::Imm(_) => {
                let msg = format!("operand {} of '{}' must be a register", k + 1, self.name());
                self.err(o.span, msg);
            }
            OperandKind::Not(_) if want == ScalarType::Pred => {}
            _ => {
                let msg = format!("operand {} of '{}' must be a register", k + 1, self.name());
                self.err(o.span, msg);
            }
        }
    }

    pub fn src(&mut self, k: usize, want: ScalarType) {
        self.src_op(k, want, Fit::Exact, true);
    }

    fn takes_addresses(&self) -> bool {
        matches!(self.op(), Opcode::Mov | Opcode::Cvta)
    }

    /// An address used as a value must be as wide as the address size; the
    /// address of a .shared, .local, .const or .param variable in its own
    /// window may also be taken as 32 bits (nvcc writes `mov.u32 %r, smem`).
    fn address_sized(&mut self, k: usize, want: ScalarType, space: StateSpace) {
        let bits = if self.f.t.addr64 { 64 } else { 32 };
        let windowed = space != StateSpace::Global && want.bits() == 32;
        if (want.bits() != bits && !windowed) || want.is_float() {
            let span = self.operand(k).span;
            let msg = format!("an address is {bits} bits wide and does not fit '{want}'");
            self.err(span, msg);
        }
    }

    /// Integer immediates must fit the width (either signed or unsigned
    /// reading); float literals go only to float types (PTX ISA 4.5.1).
    pub fn imm_fits(&mut self, imm: Imm, want: ScalarType, span: Span) {
        // Half-precision operands are registers: PTX has no f16/bf16
        // literal, and ptxas 11.8 answers "Arguments mismatch" to an
        // immediate in any `.f16/.f16x2/.bf16/.bf16x2` source.
        if matches!(
            want,
            ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2
        ) {
            self.err(
                span,
                format!("an immediate is not allowed for '{want}' (half-precision operands are registers)"),
            );
            return;
        }
        match imm {
            Imm::Int { .. } => {
                let value = imm.int_value().unwrap();
                let bits = want.bits().min(64);
                let ok = match want.kind() {
                    TypeKind::Float => true,
                    TypeKind::Pred => value == 0 || value == 1,
                    _ => {
                        let lo = -(1i128 << (bits - 1));
                        let hi = (1i128 << bits) - 1;
                        value >= lo && value <= hi
                    }
                };
                if !ok {
                    self.err(span, format!("immediate does not fit in '{want}'"));
                }
            }
            Imm::F32(_) | Imm::F64(_) | Imm::Float(_) => {
                if !want.is_float() && want.kind() != TypeKind::Bits {
                    self.err(
                        span,
                        format!("a float immediate is not allowed for '{want}'"),
                    );
                }
            }
        }
    }

    /// A predicate register by name (guards, predicate operands).
    pub fn pred_name(&mut self, s: crate::ptx::intern::Sym, span: Span, k: usize) {
        match self.f.resolve(s) {
            None => self.undeclared(s, span),
            Some(Resolved::Decl(d))
                if d.space == StateSpace::Reg && d.ty == VarType::Scalar(ScalarType::Pred) => {}
            Some(_) => {
                let msg = if k == 0 && self.i.guard.is_some_and(|g| g.span == span) {
                    format!("guard of '{}' must be a predicate", self.name())
                } else {
                    format!("operand {} of '{}' must be a predicate", k + 1, self.name())
                };
                self.err(span, msg);
            }
        }
    }

    /// Predicate destination `k`; `pair` allows `%p|%q`, `sink` allows `_`.
    pub fn pred_dst(&mut self, k: usize, pair: bool, sink: bool) {
        let o = self.operand(k);
        match &o.kind {
            OperandKind::Name(s) => self.pred_name(*s, o.span, k),
            OperandKind::PredPair(a, b) if pair => {
                self.pred_name(*a, o.span, k);
                self.pred_name(*b, o.span, k);
            }
            OperandKind::Sink if sink => {}
            _ => {
                let msg = format!("operand {} of '{}' must be a predicate", k + 1, self.name());
                self.err(o.span, msg);
            }
        }
    }

    /// Predicate source `k`, optionally negated `!%p`, or an immediate 0/1.
    pub fn pred_src(&mut self, k: usize, negatable: bool) {
        let o = self.operand(k);
        match &o.kind {
            OperandKind::Imm(i @ Imm::Int { .. }) if matches!(i.int_value(), Some(0 | 1)) => {}
            OperandKind::Special(r) if r.info().ty == ScalarType::Pred => {}
            OperandKind::Name(s) => self.pred_name(*s, o.span, k),
            OperandKind::Not(s) if negatable => self.pred_name(*s, o.span, k),
            _ => {
                let msg = format!("operand {} of '{}' must be a predicate", k + 1, self.name());
                self.err(o.span, msg);
            }
        }
    }

    /// A `{a, b, ...}` vector of `n` registers of type `want` (sinks allowed
    /// in destinations).
    pub fn vector_op(&mut self, k: usize, n: usize, want: ScalarType, fit: Fit, is_dst: bool) {
        let o = self.operand(k);
        if let OperandKind::Name(s) = o.kind {
            // A register declared `.reg .v4 .f32 %v` stands for the whole vector.
            if let Some((t, Some(w))) = self.reg_type(s, o.span, k) {
                if w as usize != n {
                    let msg = format!(
                        "register '{}' is a vector of {w}, expected {n}",
                        self.f.m.name(s)
                    );
                    self.err(o.span, msg);
                } else if !Self::type_fits(t, want, fit) {
                    self.incompatible(s, o.span, t, want);
                }
                return;
            }
            if self.failed {
                return;
            }
        }
        let (OperandKind::Vector(elems) | OperandKind::VectorPred(elems, _)) = &o.kind else {
            let msg = format!(
                "operand {} of '{}' must be a vector of {n} registers",
                k + 1,
                self.name()
            );
            self.err(o.span, msg);
            return;
        };
        if elems.len() != n {
            let msg = format!(
                "operand {} of '{}' must be a vector of {n} registers, found {}",
                k + 1,
                self.name(),
                elems.len()
            );
            self.err(o.span, msg);
            return;
        }
        if let OperandKind::VectorPred(_, p) = o.kind {
            self.pred_name(p, o.span, k);
        }
        for e in elems {
            if self.failed {
                return;
            }
            match &e.kind {
                OperandKind::Name(s) => self.reg_of(*s, e.span, k, want, fit),
                OperandKind::Sink if is_dst => {}
                OperandKind::Imm(imm) if !is_dst => self.imm_fits(*imm, want, e.span),
                _ => {
                    let msg = format!(
                        "operand {} of '{}' must be a vector of {n} registers",
                        k + 1,
                        self.name()
                    );
                    self.err(e.span, msg);
                }
            }
        }
    }

    /// Operand `k` is `[address]`. Returns the declaration of a variable base,
    /// if the base is a variable.
    pub fn address(&mut self, k: usize) -> Option<Option<&'m VarDecl>> {
        let o = self.operand(k);
        let OperandKind::Addr(a) = &o.kind else {
            let msg = format!("operand {} of '{}' must be an address", k + 1, self.name());
            self.err(o.span, msg);
            return None;
        };
        match a.base {
            AddrBase::None => Some(None),
            AddrBase::Name(s) => match self.f.resolve(s) {
                None => {
                    self.undeclared(s, a.base_span);
                    None
                }
                Some(Resolved::Decl(d)) if d.space == StateSpace::Reg => {
                    let t = d.scalar();
                    let ok = t.is_some_and(|t| t.is_int() || t.kind() == TypeKind::Bits)
                        && t.map(|t| t.bits()) >= Some(32);
                    if !ok {
                        let msg = format!("register '{}' cannot hold an address", self.f.m.name(s));
                        self.err(o.span, msg);
                    }
                    Some(None)
                }
                Some(Resolved::Decl(d)) => Some(Some(d)),
                Some(Resolved::Func(_)) | Some(Resolved::Label(_)) => {
                    let msg = format!("operand {} of '{}' must be an address", k + 1, self.name());
                    self.err(o.span, msg);
                    None
                }
            },
        }
    }

    /// Operand `k` names a code label.
    pub fn label(&mut self, k: usize, want: LabelKind) {
        let o = self.operand(k);
        let OperandKind::Name(s) = o.kind else {
            let msg = format!("operand {} of '{}' must be a label", k + 1, self.name());
            self.err(o.span, msg);
            return;
        };
        match self.f.resolve(s) {
            Some(Resolved::Label(kind)) if kind == want => {}
            _ => {
                let msg = format!("undefined label '{}'", self.f.m.name(s));
                self.err(o.span, msg);
            }
        }
    }
}
