//! Control: an instruction's guard removed (`@%p bra L` becomes `bra L`,
//! `@!%p add ...` becomes `add ...`), and a nested `{ }` block merged into
//! the statements around it.

use ptxc::ptx::ast::Statement;

use super::{Edit, Pass};
use crate::reduce::case::{statements_where, stmt, stmt_mut, Case, StmtPath};

pub struct Control;

fn unguard(path: StmtPath) -> Edit {
    Box::new(move |c: &Case| {
        let mut module = c.module.clone();
        match stmt_mut(&mut module, &path)? {
            Statement::Instr(i) if i.guard.is_some() => i.guard = None,
            _ => return None,
        }
        Some(Case {
            module,
            spec: c.spec.clone(),
        })
    })
}

fn flatten(path: StmtPath) -> Edit {
    Box::new(move |c: &Case| {
        let mut module = c.module.clone();
        let (last, parent) = path.split_last()?;
        // The parent statement list: the body, or an enclosing block.
        let list: &mut Vec<Statement> = if parent.len() == 1 {
            match module.items.get_mut(parent[0])? {
                ptxc::ptx::ast::Item::Function(f) => &mut f.body.as_mut()?.stmts,
                _ => return None,
            }
        } else {
            match stmt_mut(&mut module, parent)? {
                Statement::Block(b) => &mut b.stmts,
                _ => return None,
            }
        };
        let Statement::Block(b) = list.get(*last)?.clone() else {
            return None;
        };
        list.splice(*last..=*last, b.stmts);
        Some(Case {
            module,
            spec: c.spec.clone(),
        })
    })
}

impl Pass for Control {
    fn name(&self) -> String {
        "control".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let mut out = Vec::new();
        for path in statements_where(&c.module, |s| {
            matches!(s, Statement::Instr(i) if i.guard.is_some())
                || matches!(s, Statement::Block(_))
        }) {
            match stmt(&c.module, &path) {
                Some(Statement::Block(_)) => out.push(flatten(path)),
                _ => out.push(unguard(path)),
            }
        }
        out
    }
}
