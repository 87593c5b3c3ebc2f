//! Declarations: a `.reg`, `.local` or `.shared` declaration no instruction
//! uses is removed, and a register range `%r<N>` is cut to one past the
//! highest register used (first all at once, then one declaration at a
//! time); a kernel parameter the body never reads is removed together with
//! its value in the launch spec (parameters are positional).

use ptxc::ptx::ast::{Item, Statement};

use super::{Edit, Pass};
use crate::reduce::case::{statements_where, stmt, stmt_mut, used_names, Case, StmtPath};

pub struct UnusedDecls;

/// What to do with one declaration: drop it, or cut its range to `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fix {
    Drop,
    Range(u32),
}

fn fixes(c: &Case) -> Vec<(StmtPath, Fix)> {
    let m = &c.module;
    let used = used_names(m);
    let used_names: Vec<&str> = used.iter().map(|&s| m.name(s)).collect();
    let mut out = Vec::new();
    for path in statements_where(m, |s| matches!(s, Statement::Decl(_))) {
        let Some(Statement::Decl(v)) = stmt(m, &path) else {
            continue;
        };
        let name = m.name(v.name);
        match v.range {
            Some(n) => {
                // One past the highest `name<k>` used.
                let need = used_names
                    .iter()
                    .filter_map(|u| u.strip_prefix(name)?.parse::<u32>().ok())
                    .filter(|&k| k < n)
                    .map(|k| k + 1)
                    .max()
                    .unwrap_or(0);
                if need == 0 {
                    out.push((path, Fix::Drop));
                } else if need < n {
                    out.push((path, Fix::Range(need)));
                }
            }
            None if !used.contains(&v.name) => out.push((path, Fix::Drop)),
            None => {}
        }
    }
    out
}

fn apply(c: &Case, fixes: &[(StmtPath, Fix)]) -> Option<Case> {
    let mut module = c.module.clone();
    let mut drop = Vec::new();
    for (path, fix) in fixes {
        match fix {
            Fix::Drop => drop.push(path.clone()),
            Fix::Range(n) => match stmt_mut(&mut module, path)? {
                Statement::Decl(v) => v.range = Some(*n),
                _ => return None,
            },
        }
    }
    Some(Case {
        module: crate::reduce::case::remove_statements(&module, &drop),
        spec: c.spec.clone(),
    })
}

impl Pass for UnusedDecls {
    fn name(&self) -> String {
        "unused-decls".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let all = fixes(c);
        if all.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<Edit> = Vec::new();
        if all.len() > 1 {
            let every = all.clone();
            out.push(Box::new(move |c: &Case| apply(c, &every)));
        }
        for f in all {
            out.push(Box::new(move |c: &Case| apply(c, std::slice::from_ref(&f))));
        }
        out
    }
}

pub struct UnusedParams;

impl Pass for UnusedParams {
    fn name(&self) -> String {
        "unused-params".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let Some(k) = c.kernel_item() else {
            return Vec::new();
        };
        let Item::Function(f) = &c.module.items[k] else {
            return Vec::new();
        };
        if f.params.len() != c.spec.params.len() {
            return Vec::new();
        }
        let used = used_names(&c.module);
        (0..f.params.len())
            .rev()
            .filter(|&i| !used.contains(&f.params[i].name))
            .map(|i| {
                let e: Edit = Box::new(move |c: &Case| {
                    let mut module = c.module.clone();
                    let Item::Function(f) = &mut module.items[k] else {
                        return None;
                    };
                    f.params.remove(i);
                    let mut spec = c.spec.clone();
                    spec.params.remove(i);
                    Some(Case { module, spec })
                });
                e
            })
            .collect()
    }
}
