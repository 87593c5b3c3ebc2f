//! Constants: an integer literal becomes 0, 1, half its value, or one
//! nearer 0; a float
//! literal 0.0 or 1.0; an address offset 0 or half. Trip counts of counted
//! loops shrink this way. Only moves towards 0 and 1 are proposed.

use ptxc::ptx::ast::{Imm, OperandKind, Statement};

use super::{Edit, Pass};
use crate::reduce::case::{statements_where, stmt, stmt_mut, Case};

pub struct Immediates;

/// The simpler values for a literal, simplest first.
fn simpler(v: Imm) -> Vec<Imm> {
    match v {
        Imm::Int { .. } => {
            let x = v.int_value().unwrap_or(0);
            let mut out = Vec::new();
            // x - 1 (towards 0) keeps a trip count just above what
            // halving would cut.
            let step = x - x.signum();
            for y in [0, 1, x / 2, step] {
                let nearer =
                    y.unsigned_abs() < x.unsigned_abs() || (y == 1 && x.unsigned_abs() > 1);
                if nearer && y != x && !out.contains(&Imm::int(y)) {
                    out.push(Imm::int(y));
                }
            }
            out
        }
        Imm::F32(b) => [0, 1f32.to_bits()]
            .into_iter()
            .filter(|&y| y != b && (b != 0))
            .map(Imm::F32)
            .collect(),
        Imm::F64(b) => [0, 1f64.to_bits()]
            .into_iter()
            .filter(|&y| y != b && (b != 0))
            .map(Imm::F64)
            .collect(),
        Imm::Float(b) => [0, 1f64.to_bits()]
            .into_iter()
            .filter(|&y| y != b && (b != 0))
            .map(Imm::Float)
            .collect(),
    }
}

fn halves(off: i64) -> Vec<i64> {
    let mut v = Vec::new();
    if off != 0 {
        v.push(0);
        if off / 2 != 0 {
            v.push(off / 2);
        }
    }
    v
}

enum Change {
    Imm(Imm),
    Offset(i64),
}

fn edit(path: Vec<usize>, operand: usize, ch: Change) -> Edit {
    Box::new(move |c: &Case| {
        let mut module = c.module.clone();
        let Statement::Instr(i) = stmt_mut(&mut module, &path)? else {
            return None;
        };
        match (&ch, &mut i.operands.get_mut(operand)?.kind) {
            (Change::Imm(v), OperandKind::Imm(x)) => *x = *v,
            (Change::Offset(v), OperandKind::Addr(a)) => a.offset = *v,
            _ => return None,
        }
        Some(Case {
            module,
            spec: c.spec.clone(),
        })
    })
}

impl Pass for Immediates {
    fn name(&self) -> String {
        "immediates".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let mut out = Vec::new();
        for path in statements_where(&c.module, |s| matches!(s, Statement::Instr(_))) {
            let Some(Statement::Instr(i)) = stmt(&c.module, &path) else {
                continue;
            };
            for (k, o) in i.operands.iter().enumerate() {
                match &o.kind {
                    OperandKind::Imm(v) => {
                        for y in simpler(*v) {
                            out.push(edit(path.clone(), k, Change::Imm(y)));
                        }
                    }
                    OperandKind::Addr(a) => {
                        for y in halves(a.offset) {
                            out.push(edit(path.clone(), k, Change::Offset(y)));
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_only_move_towards_zero_and_one() {
        assert_eq!(
            simpler(Imm::int(10)),
            [Imm::int(0), Imm::int(1), Imm::int(5), Imm::int(9)]
        );
        assert_eq!(
            simpler(Imm::int(-3)),
            [Imm::int(0), Imm::int(1), Imm::int(-1), Imm::int(-2)]
        );
        assert_eq!(
            simpler(Imm::int(3)),
            [Imm::int(0), Imm::int(1), Imm::int(2)]
        );
        assert_eq!(simpler(Imm::int(1)), [Imm::int(0)]);
        assert!(simpler(Imm::int(0)).is_empty());
        assert_eq!(
            simpler(Imm::F32(0x4040_0000)),
            [Imm::F32(0), Imm::F32(0x3f80_0000)]
        );
        assert_eq!(simpler(Imm::F32(0x3f80_0000)), [Imm::F32(0)]);
        assert!(simpler(Imm::F64(0)).is_empty());
        assert_eq!(halves(8), [0, 4]);
        assert_eq!(halves(1), [0]);
        assert!(halves(0).is_empty());
    }
}
