//! Operands: a register operand (a source, or an address base) replaced by
//! the constant 0 or 1 of its type, or by a register of the same type
//! declared earlier (the earliest one used, then the nearest one used), so
//! the chains that computed it can be deleted. Declaration order makes the
//! replacements well-founded. A destination replaced this way usually no
//! longer validates and is dropped as invalid, cheaply.

use ptxc::ptx::ast::{AddrBase, Imm, Operand, OperandKind, Statement};
use ptxc::ptx::intern::Sym;
use ptxc::ptx::types::ScalarType;

use super::{Edit, Pass};
use crate::reduce::case::{statements_where, stmt_mut, used_names, Case, RegTypes};

pub struct Operands;

#[derive(Clone, Copy, Debug)]
enum Repl {
    Imm(Imm),
    Reg(Sym),
}

/// The constants 0 and 1 of a register type, when PTX has literals for it.
pub fn zero_one(ty: ScalarType) -> Option<[Imm; 2]> {
    use ScalarType::*;
    match ty {
        F32 => Some([Imm::F32(0), Imm::F32(1f32.to_bits())]),
        F64 => Some([Imm::F64(0), Imm::F64(1f64.to_bits())]),
        Pred | F16 | F16x2 | Bf16 | Bf16x2 | Tf32 | B128 => None,
        _ => Some([Imm::int(0), Imm::int(1)]),
    }
}

fn replace(path: Vec<usize>, operand: usize, base: bool, r: Repl) -> Edit {
    Box::new(move |c: &Case| {
        let mut module = c.module.clone();
        let Statement::Instr(i) = stmt_mut(&mut module, &path)? else {
            return None;
        };
        let o: &mut Operand = i.operands.get_mut(operand)?;
        match (base, r, &mut o.kind) {
            (true, Repl::Reg(s), OperandKind::Addr(a)) => a.base = AddrBase::Name(s),
            (false, Repl::Reg(s), k @ OperandKind::Name(_)) => *k = OperandKind::Name(s),
            (false, Repl::Imm(v), k @ OperandKind::Name(_)) => *k = OperandKind::Imm(v),
            _ => return None,
        }
        Some(Case {
            module,
            spec: c.spec.clone(),
        })
    })
}

impl Pass for Operands {
    fn name(&self) -> String {
        "operands".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let m = &c.module;
        let types = RegTypes::of(m);
        // Registers in use, by type, in declaration order.
        let mut used: Vec<(usize, ScalarType, Sym)> = used_names(m)
            .into_iter()
            .filter_map(|s| types.get(m, s).map(|(t, o)| (o, t, s)))
            .collect();
        used.sort_by_key(|&(o, _, _)| o);
        let earlier = |ty: ScalarType, order: usize| -> Vec<Sym> {
            let lower: Vec<Sym> = used
                .iter()
                .filter(|&&(o, t, _)| t == ty && o < order)
                .map(|&(_, _, s)| s)
                .collect();
            let mut v: Vec<Sym> = lower.first().copied().into_iter().collect();
            if let Some(&last) = lower.last() {
                if lower.len() > 1 {
                    v.push(last);
                }
            }
            v
        };
        let mut out = Vec::new();
        for path in statements_where(m, |s| matches!(s, Statement::Instr(_))) {
            let Some(Statement::Instr(i)) = crate::reduce::case::stmt(m, &path) else {
                continue;
            };
            for (k, o) in i.operands.iter().enumerate() {
                let (sym, base) = match &o.kind {
                    OperandKind::Name(s) => (*s, false),
                    OperandKind::Addr(a) => match a.base {
                        AddrBase::Name(s) => (s, true),
                        AddrBase::None => continue,
                    },
                    _ => continue,
                };
                let Some((ty, order)) = types.get(m, sym) else {
                    continue;
                };
                if !base {
                    for v in zero_one(ty).into_iter().flatten() {
                        out.push(replace(path.clone(), k, false, Repl::Imm(v)));
                    }
                }
                for r in earlier(ty, order) {
                    out.push(replace(path.clone(), k, base, Repl::Reg(r)));
                }
            }
        }
        out
    }
}
