//! Types: a register declaration narrowed from 64 to 32 bits (`.b64` ->
//! `.b32`, `.u64` -> `.u32`, `.s64` -> `.s32`, `.f64` -> `.f32`), with
//! every instruction of the same function that names one of its registers
//! retyped alike (its 64-bit type modifiers become the 32-bit ones: see
//! [`retypes`]). Mixed-width instructions (`mul.wide`, addresses, `cvt` between
//! widths) usually stop validating or running and the candidate is
//! dropped as invalid; arithmetic chains narrow.

use ptxc::ptx::ast::{StateSpace, Statement, VarType};
use ptxc::ptx::intern::Sym;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;
use rustc_hash::FxHashSet;

use super::{Edit, Pass};
use crate::reduce::case::{operand_names, statements_where, stmt, stmt_mut, Case, StmtPath};

pub struct NarrowTypes;

/// The 32-bit type of a 64-bit one.
pub fn narrower(t: ScalarType) -> Option<ScalarType> {
    use ScalarType::*;
    Some(match t {
        B64 => B32,
        U64 => U32,
        S64 => S32,
        F64 => F32,
        _ => return None,
    })
}

/// Whether narrowing a `decl` register retypes an instruction's type
/// modifier `t`: integer registers (`.b64 .u64 .s64`, which PTX uses
/// interchangeably) retype every 64-bit integer modifier; `.f64`
/// registers retype `.f64` and `.b64`.
fn retypes(decl: ScalarType, t: ScalarType) -> bool {
    use ScalarType::*;
    match decl {
        F64 => matches!(t, F64 | B64),
        _ => matches!(t, B64 | U64 | S64),
    }
}

fn narrow(path: StmtPath) -> Edit {
    Box::new(move |c: &Case| {
        let mut module = c.module.clone();
        let (regs, from) = {
            let Statement::Decl(v) = stmt_mut(&mut module, &path)? else {
                return None;
            };
            let VarType::Scalar(from) = v.ty else {
                return None;
            };
            v.ty = VarType::Scalar(narrower(from)?);
            (v.name, from)
        };
        let base = module.name(regs).to_string();
        let range = match stmt(&module, &path) {
            Some(Statement::Decl(v)) => v.range,
            _ => None,
        };
        let names: FxHashSet<Sym> = match range {
            Some(n) => (0..n)
                .filter_map(|k| module.names.get(&format!("{base}{k}")))
                .collect(),
            None => std::iter::once(regs).collect(),
        };
        // Retype the instructions of this function that name one of them.
        let item = path[0];
        for p in statements_where(&module, |s| matches!(s, Statement::Instr(_))) {
            if p[0] != item {
                continue;
            }
            let Some(Statement::Instr(i)) = stmt_mut(&mut module, &p) else {
                continue;
            };
            let mut hit = false;
            for o in &i.operands {
                operand_names(o, &mut |s| hit |= names.contains(&s));
            }
            if !hit {
                continue;
            }
            let mods: Vec<Mod> = i
                .mods
                .iter()
                .map(|m| match m.as_type() {
                    Some(t) if retypes(from, t) => narrower(t).map_or(m, Mod::of_type),
                    _ => m,
                })
                .collect();
            i.mods = ptxc::ptx::ast::Mods::from_slice(&mods);
        }
        Some(Case {
            module,
            spec: c.spec.clone(),
        })
    })
}

impl Pass for NarrowTypes {
    fn name(&self) -> String {
        "narrow-types".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        statements_where(&c.module, |s| {
            matches!(s, Statement::Decl(v) if v.space == StateSpace::Reg
                && v.vector.is_none()
                && matches!(v.ty, VarType::Scalar(t) if narrower(t).is_some()))
        })
        .into_iter()
        .map(narrow)
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::LaunchSpec;

    #[test]
    fn a_64_bit_chain_narrows_with_its_instructions() {
        let ptx = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b64 %rd<2>;
    .reg .u64 %x<3>;
    ld.param.u64 %rd0, [p];
    mov.u64 %x0, 5;
    add.u64 %x1, %x0, 7;
    st.global.u64 [%rd0], %x1;
    ret;
}
"#;
        let spec = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"buffer": "o"}],
                "buffers": {"o": {"type": "u64", "len": 1, "init": "zeros"}}}"#,
            ".",
        )
        .unwrap();
        let c = Case::parse("t.ptx", ptx, spec).unwrap();
        let edits = NarrowTypes.edits(&c);
        // Both 64-bit declarations are candidates, in order.
        assert_eq!(edits.len(), 2);
        let x = edits[1](&c).unwrap().ptx();
        assert!(x.contains(".reg .u32 %x<3>"), "{x}");
        assert!(
            x.contains("mov.u32 \t%x0, 5") && x.contains("add.u32 \t%x1, %x0, 7"),
            "{x}"
        );
        assert!(x.contains("st.global.u32 \t[%rd0], %x1"), "{x}");
        // The pointer is untouched by the other declaration's edit.
        assert!(x.contains("ld.param.u64 \t%rd0, [p]"), "{x}");
        // The pointer's own narrowing retypes its load too (and then does
        // not run: a 32-bit address).
        let rd = edits[0](&c).unwrap().ptx();
        assert!(
            rd.contains(".reg .b32 %rd<2>") && rd.contains("ld.param.u32 \t%rd0, [p]"),
            "{rd}"
        );
        assert_eq!(narrower(ScalarType::F64), Some(ScalarType::F32));
        assert_eq!(narrower(ScalarType::U32), None);
    }
}
