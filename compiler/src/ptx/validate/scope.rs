//! Name resolution inside a function: parameters, labels (function-wide),
//! and nested `{ }` scopes whose declarations shadow outer ones (PTX ISA 5.1.1:
//! a declaration is visible in its whole block, including nested blocks).
//! `.reg .b32 %r<46>` declares `%r0` .. `%r45` (PTX ISA 5.1.2, parameterized
//! variable names).

use super::module::{dup, Global};
use super::operands::ICx;
use super::TargetCtx;
use crate::ptx::ast::*;
use crate::ptx::diag::Diagnostic;
use crate::ptx::intern::{split_numbered, Sym};
use crate::ptx::span::Span;
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LabelKind {
    Code,
    BranchTargets,
    CallPrototype,
}

/// What a name resolves to.
#[derive(Clone, Copy)]
pub(crate) enum Resolved<'m> {
    Decl(&'m VarDecl),
    Func(&'m Function),
    Label(LabelKind),
}

#[derive(Default)]
struct Scope<'m> {
    names: FxHashMap<Sym, &'m VarDecl>,
    /// Parameterized register ranges by name prefix: (count, declaration).
    ranges: FxHashMap<&'m str, (u32, &'m VarDecl)>,
}

pub(crate) struct FnCx<'m, 'd> {
    pub m: &'m Module,
    pub t: TargetCtx,
    globals: &'m FxHashMap<Sym, Global<'m>>,
    labels: FxHashMap<Sym, LabelKind>,
    scopes: Vec<Scope<'m>>,
    pub diags: &'d mut Vec<Diagnostic>,
}

pub(crate) fn check_function<'m>(
    m: &'m Module,
    f: &'m Function,
    globals: &'m FxHashMap<Sym, Global<'m>>,
    t: TargetCtx,
    diags: &mut Vec<Diagnostic>,
) {
    let mut cx = FnCx {
        m,
        t,
        globals,
        labels: FxHashMap::default(),
        scopes: Vec::new(),
        diags,
    };
    let mut params = Scope::default();
    for p in f.returns.iter().flatten().chain(&f.params) {
        if params.names.insert(p.name, p).is_some() {
            cx.diags.push(dup(m, p.name, p.name_span));
        }
    }
    cx.scopes.push(params);
    let Some(body) = &f.body else { return };
    cx.collect_labels(body);
    cx.block(body);
}

impl<'m> FnCx<'m, '_> {
    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn collect_labels(&mut self, b: &'m Block) {
        for s in &b.stmts {
            let (sym, span, kind) = match s {
                Statement::Label(l, sp) => (*l, *sp, LabelKind::Code),
                Statement::BranchTargets { label, span, .. } => {
                    (*label, *span, LabelKind::BranchTargets)
                }
                Statement::CallPrototype { label, span, .. } => {
                    (*label, *span, LabelKind::CallPrototype)
                }
                Statement::Block(inner) => {
                    self.collect_labels(inner);
                    continue;
                }
                _ => continue,
            };
            if self.labels.insert(sym, kind).is_some() {
                let msg = format!("duplicate label '{}'", self.m.name(sym));
                self.error(span, msg);
            }
        }
    }

    fn block(&mut self, b: &'m Block) {
        let mut scope = Scope::default();
        for s in &b.stmts {
            if let Statement::Decl(d) = s {
                self.declare(&mut scope, d);
            }
        }
        self.scopes.push(scope);
        for s in &b.stmts {
            match s {
                Statement::Instr(i) => ICx::new(self, i).check(),
                Statement::Block(inner) => self.block(inner),
                Statement::BranchTargets { targets, .. } => {
                    for &(t, span) in targets {
                        if self.labels.get(&t) != Some(&LabelKind::Code) {
                            let msg = format!("undefined label '{}'", self.m.name(t));
                            self.error(span, msg);
                        }
                    }
                }
                _ => {}
            }
        }
        self.scopes.pop();
    }

    fn declare(&mut self, scope: &mut Scope<'m>, d: &'m VarDecl) {
        let name = self.m.name(d.name);
        let is_reg = d.space == StateSpace::Reg;
        // The first declaration stays in force; `%r2` inside an earlier
        // `%r<4>` (or the reverse) is a second declaration too.
        let clash = if let Some(n) = d.range {
            let covers_name = scope
                .names
                .keys()
                .any(|&s| split_numbered(self.m.name(s)).is_some_and(|(p, k)| p == name && k < n));
            covers_name || {
                let fresh = !scope.ranges.contains_key(name);
                scope.ranges.entry(name).or_insert((n, d));
                !fresh
            }
        } else {
            let in_range = split_numbered(name)
                .and_then(|(p, k)| scope.ranges.get(p).map(|&(n, _)| k < n))
                .unwrap_or(false);
            let fresh = !scope.names.contains_key(&d.name);
            scope.names.entry(d.name).or_insert(d);
            in_range || !fresh
        };
        if clash {
            let msg = if is_reg {
                format!("register '{name}' is declared twice in the same scope")
            } else {
                format!("duplicate definition of '{name}'")
            };
            self.error(d.name_span, msg);
        }
        if let VarType::Scalar(crate::ptx::types::ScalarType::Pred) = d.ty {
            if !is_reg {
                self.error(d.span, "'.pred' variables must be in the .reg state space");
            }
        }
    }

    /// Resolves a name: innermost scope first, then parameters, then module
    /// scope, then labels.
    pub fn resolve(&self, s: Sym) -> Option<Resolved<'m>> {
        let name = self.m.name(s);
        let split = split_numbered(name);
        for sc in self.scopes.iter().rev() {
            if let Some(d) = sc.names.get(&s) {
                return Some(Resolved::Decl(d));
            }
            if let Some((prefix, n)) = split {
                if let Some(&(count, d)) = sc.ranges.get(prefix) {
                    if n < count {
                        return Some(Resolved::Decl(d));
                    }
                }
            }
        }
        if let Some(g) = self.globals.get(&s) {
            return Some(match *g {
                Global::Var(v) => Resolved::Decl(v),
                Global::Func(f) => Resolved::Func(f),
            });
        }
        self.labels.get(&s).map(|&k| Resolved::Label(k))
    }
}
