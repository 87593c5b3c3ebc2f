//! Control flow (PTX ISA 9.7.12): bra, brx.idx, call, ret, exit.

use super::operands::ICx;
use super::scope::{LabelKind, Resolved};
use crate::ptx::ast::*;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::*;

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    match c.op() {
        Bra => {
            c.allow(&[Mod::Uni]);
            c.no_type();
            if c.count(1) {
                c.label(0, LabelKind::Code);
            }
        }
        Brx => {
            c.allow(&[Mod::Idx, Mod::Uni]);
            c.no_type();
            c.require_one(&[Mod::Idx], ".idx");
            if c.count(2) {
                c.src(0, U32);
                c.label(1, LabelKind::BranchTargets);
            }
        }
        Ret | Exit => {
            c.allow(&[Mod::Uni]);
            c.no_type();
            c.count(0);
        }
        Call => call(c),
        op => unreachable!("not a control opcode: {op:?}"),
    }
}

/// `call{.uni} [(rets),] target [, (args)] [, proto]`. A direct target is a
/// declared function whose parameter counts must match; an indirect target is
/// a register and needs a `.callprototype` label or a function list.
fn call(c: &mut ICx) {
    c.allow(&[Mod::Uni]);
    c.no_type();
    let ops = &c.i.operands;
    let mut k = 0;
    let rets = match ops.first().map(|o| &o.kind) {
        Some(OperandKind::List(v)) => {
            k = 1;
            Some(&v[..])
        }
        _ => None,
    };
    let Some(target) = ops.get(k) else {
        let span = c.opcode_span();
        c.err(span, "'call' expects a call target");
        return;
    };
    let args = match ops.get(k + 1).map(|o| &o.kind) {
        Some(OperandKind::List(v)) => Some(&v[..]),
        _ => None,
    };
    let after = k + 1 + usize::from(args.is_some());
    let proto = ops.get(after);
    if ops.len() > after + 1 {
        let span = ops[after + 1].span;
        c.err(span, "'call' has too many operands");
        return;
    }
    for list in [rets, args].into_iter().flatten() {
        for o in list {
            match &o.kind {
                OperandKind::Name(s) => {
                    if c.f.resolve(*s).is_none() {
                        let msg = format!("undeclared identifier '{}'", c.f.m.name(*s));
                        c.err(o.span, msg);
                    }
                }
                OperandKind::Imm(_) => {}
                _ => c.err(o.span, "call arguments must be names or immediates"),
            }
        }
    }
    let OperandKind::Name(t) = target.kind else {
        c.err(
            target.span,
            "the call target must be a function or a register",
        );
        return;
    };
    match c.f.resolve(t) {
        Some(Resolved::Func(f)) => {
            if let Some(p) = proto {
                c.err(p.span, "a direct call takes no prototype");
            }
            let want_rets = f.returns.as_ref().map_or(0, Vec::len);
            let got_rets = rets.map_or(0, <[Operand]>::len);
            let got_args = args.map_or(0, <[Operand]>::len);
            let name = c.f.m.name(t).to_string();
            if want_rets != got_rets {
                let msg = format!("'call' receives {got_rets} return values from '{name}', which returns {want_rets}");
                c.err(target.span, msg);
            } else if f.params.len() != got_args {
                let msg = format!(
                    "'call' passes {got_args} arguments to '{name}', which takes {}",
                    f.params.len()
                );
                c.err(target.span, msg);
            }
        }
        Some(Resolved::Decl(d)) if d.space == StateSpace::Reg => match proto.map(|p| &p.kind) {
            Some(OperandKind::Name(p)) => match c.f.resolve(*p) {
                Some(Resolved::Label(LabelKind::CallPrototype | LabelKind::BranchTargets)) => {}
                Some(Resolved::Decl(_)) => {}
                _ => {
                    let msg = format!("undefined label '{}'", c.f.m.name(*p));
                    let span = proto.unwrap().span;
                    c.err(span, msg);
                }
            },
            _ => c.err(
                target.span,
                "an indirect call needs a .callprototype or a function list",
            ),
        },
        None => {
            let msg = format!("undeclared identifier '{}'", c.f.m.name(t));
            c.err(target.span, msg);
        }
        Some(_) => c.err(
            target.span,
            "the call target must be a function or a register",
        ),
    }
}
