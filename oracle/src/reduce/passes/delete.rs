//! Deletion: ddmin over the statements of every function body (labels,
//! instructions, blocks, pragmas; declarations have their own pass), one
//! granularity per pass instance, and whole items (a `.func` other than the
//! kernel, a module variable). A loop collapses when its back edge goes.

use ptxc::ptx::ast::Statement;

use super::{Edit, Pass};
use crate::reduce::case::{remove_statements, statements_where, Case};

/// Deletes `chunk` consecutive statements at a time.
pub struct DeleteStatements {
    pub chunk: usize,
}

fn deletable(s: &Statement) -> bool {
    !matches!(s, Statement::Decl(_))
}

impl Pass for DeleteStatements {
    fn name(&self) -> String {
        format!("delete/{}", self.chunk)
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let units = statements_where(&c.module, deletable);
        let chunk = self.chunk.max(1);
        (0..units.len())
            .step_by(chunk)
            .map(|start| {
                let paths = units[start..(start + chunk).min(units.len())].to_vec();
                let e: Edit = Box::new(move |c: &Case| {
                    Some(Case {
                        module: remove_statements(&c.module, &paths),
                        spec: c.spec.clone(),
                    })
                });
                e
            })
            .collect()
    }
}

/// Deletes one module item at a time, never the kernel.
pub struct DeleteItems;

impl Pass for DeleteItems {
    fn name(&self) -> String {
        "delete-items".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let kernel = c.kernel_item();
        (0..c.module.items.len())
            .filter(|&k| Some(k) != kernel)
            .map(|k| {
                let e: Edit = Box::new(move |c: &Case| {
                    let mut module = c.module.clone();
                    module.items.remove(k);
                    Some(Case {
                        module,
                        spec: c.spec.clone(),
                    })
                });
                e
            })
            .collect()
    }
}
