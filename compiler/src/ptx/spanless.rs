//! Span erasure, so two modules can be compared "up to spans"
//! (`parse(print(m)) == m`).

use super::ast::*;
use super::span::Span;

impl Module {
    /// A copy with every span set to `Span::DUMMY`.
    pub fn without_spans(&self) -> Module {
        let mut m = self.clone();
        if let Some(v) = m.version.as_mut() {
            v.1 = Span::DUMMY;
        }
        for t in &mut m.targets {
            t.1 = Span::DUMMY;
        }
        if let Some(a) = m.address_size.as_mut() {
            a.1 = Span::DUMMY;
        }
        for item in &mut m.items {
            match item {
                Item::Var(v) => var(v),
                Item::Function(f) => func(f),
                Item::File { span, .. }
                | Item::Section { span, .. }
                | Item::Pragma { span, .. } => *span = Span::DUMMY,
            }
        }
        m
    }
}

fn var(v: &mut VarDecl) {
    v.span = Span::DUMMY;
    v.name_span = Span::DUMMY;
}

fn func(f: &mut Function) {
    f.span = Span::DUMMY;
    f.name_span = Span::DUMMY;
    f.returns.iter_mut().flatten().for_each(var);
    f.params.iter_mut().for_each(var);
    if let Some(b) = f.body.as_mut() {
        block(b);
    }
}

fn block(b: &mut Block) {
    b.span = Span::DUMMY;
    for s in &mut b.stmts {
        match s {
            Statement::Decl(v) => var(v),
            Statement::Label(_, sp) | Statement::Pragma(_, sp) | Statement::Loc(_, sp) => {
                *sp = Span::DUMMY
            }
            Statement::Instr(i) => instr(i),
            Statement::Block(inner) => block(inner),
            Statement::BranchTargets { targets, span, .. } => {
                *span = Span::DUMMY;
                targets.iter_mut().for_each(|t| t.1 = Span::DUMMY);
            }
            Statement::CallPrototype {
                returns,
                params,
                span,
                ..
            } => {
                *span = Span::DUMMY;
                returns.iter_mut().flatten().for_each(var);
                params.iter_mut().for_each(var);
            }
        }
    }
}

fn instr(i: &mut Instruction) {
    i.span = Span::DUMMY;
    i.op_span = Span::DUMMY;
    if let Some(g) = i.guard.as_mut() {
        g.span = Span::DUMMY;
    }
    i.operands.iter_mut().for_each(operand);
}

fn operand(o: &mut Operand) {
    o.span = Span::DUMMY;
    match &mut o.kind {
        OperandKind::Vector(v) | OperandKind::VectorPred(v, _) | OperandKind::List(v) => {
            v.iter_mut().for_each(operand)
        }
        OperandKind::Addr(a) => {
            a.base_span = Span::DUMMY;
            a.rest.iter_mut().for_each(operand)
        }
        _ => {}
    }
}
