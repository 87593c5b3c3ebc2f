//! IPConstantPropagation (cicc's, docs/MODEL.md, NvOpt pipelines; knob `no-ipconst`):
//! when every call of a function passes the same constant for a
//! parameter, the function reads that constant instead of the parameter.
//!
//! Rules: only a function whose every call site is known (a `.func`
//! without linkage that nothing names except direct calls,
//! [`super::module::internal`]); each caller stores the argument once,
//! unguarded, with a full-width `st.param [name+0]` of an immediate or
//! of a register defined by `mov reg, imm` (integer and bit types; a
//! decimal float literal is left alone, its rounding depends on the
//! type); the callee reads the parameter only with full-width
//! `ld.param [name+0]`, each of which becomes `mov.bN d, imm` (keeping
//! its guard). The argument stores stay; DeadArgElim removes them once
//! the parameter is unread.

use super::inline::imm_bits_literal;
use super::module::*;
use super::util::{constants, imm_bits, imm_of, mov_type, truncate};
use crate::nvopt::ir::*;
use crate::nvopt::LiftedModule;
use crate::ptx::ast::Mods;
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;

pub struct IpConstProp;

/// Every direct call of `callee` in lifted functions: (slot, block, index).
pub fn call_sites_of(lm: &LiftedModule, callee: Sym) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (slot, (_, f)) in lm.funcs.iter().enumerate() {
        let Ok(f) = f else { continue };
        for (bi, b) in f.blocks.iter().enumerate() {
            for (k, i) in b.insts.iter().enumerate() {
                if call_target(i) == Some(callee) {
                    out.push((slot, bi, k));
                }
            }
        }
    }
    out
}

/// The constant (truncated to `w` bits) a caller stores into its
/// argument `arg`: the single unguarded full-width store of the function.
fn stored_constant(f: &Function, arg: Sym, w: u32) -> Option<u64> {
    let mut found = None;
    for b in &f.blocks {
        for i in &b.insts {
            let mut mentions = false;
            inst_syms(i, &mut |s| mentions |= s == arg);
            if !mentions || i.op == Opcode::Call {
                continue;
            }
            let (s, iw) = param_access(i)?;
            if s != arg || i.op != Opcode::St || iw != w || i.guard.is_some() || found.is_some() {
                return None;
            }
            found = Some(match i.ops.get(1)? {
                Opnd::Imm(m) => imm_bits(&imm_bits_literal(m)?, w)?,
                Opnd::Val(v) => {
                    if f.values[v.idx()].ty.bits() != w {
                        return None;
                    }
                    constants(f)[v.idx()]?
                }
                _ => return None,
            });
        }
    }
    found.map(|c| truncate(c, w))
}

impl ModulePass for IpConstProp {
    fn name(&self) -> &'static str {
        "ipconstprop"
    }

    fn run(&self, lm: &mut LiftedModule) -> bool {
        let cg = call_graph(lm);
        let mut changed = false;
        let callees: Vec<Sym> = lm
            .funcs
            .iter()
            .filter(|(_, f)| f.is_ok())
            .filter_map(|(k, _)| match &lm.module.items[*k] {
                crate::ptx::ast::Item::Function(h) => Some(h.name),
                _ => None,
            })
            .collect();
        for g in callees {
            if !internal(lm, &cg, g) {
                continue;
            }
            let sites = call_sites_of(lm, g);
            if sites.is_empty() {
                continue;
            }
            let h = header(lm, g).unwrap().clone();
            for (p, decl) in h.params.iter().enumerate() {
                let Some(w) = scalar_param_bits(decl) else {
                    continue;
                };
                let mut value = None;
                let mut ok = true;
                for &(slot, b, k) in &sites {
                    let f = lm.funcs[slot].1.as_ref().unwrap();
                    let c = call_lists(&f.blocks[b].insts[k])
                        .filter(|(_, args)| args.len() == h.params.len())
                        .and_then(|(_, args)| stored_constant(f, args[p], w));
                    match (c, value) {
                        (Some(c), None) => value = Some(c),
                        (Some(c), Some(v)) if c == v => {}
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                let (true, Some(c)) = (ok, value) else {
                    continue;
                };
                let slot = func_slot(lm, g).unwrap();
                let f = lm.funcs[slot].1.as_mut().unwrap();
                if rewrite_loads(f, decl.name, w, c) {
                    changed = true;
                }
            }
        }
        changed
    }
}

/// Replaces every `ld.param d, [param]` by `mov.bN d, c`; nothing when
/// the parameter is mentioned any other way.
fn rewrite_loads(f: &mut Function, param: Sym, w: u32, c: u64) -> bool {
    let mut sites = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (k, i) in b.insts.iter().enumerate() {
            let mut mentions = false;
            inst_syms(i, &mut |s| mentions |= s == param);
            if !mentions {
                continue;
            }
            match (param_access(i), i.ops.first()) {
                (Some((s, iw)), Some(Opnd::Val(d)))
                    if s == param
                        && iw == w
                        && i.op == Opcode::Ld
                        && f.values[d.idx()].ty.bits() == w =>
                {
                    sites.push((bi, k, *d))
                }
                _ => return false,
            }
        }
    }
    for &(bi, k, d) in &sites {
        let ty = f.values[d.idx()].ty;
        let i = &mut f.blocks[bi].insts[k];
        *i = Inst {
            op: Opcode::Mov,
            mods: Mods::from_slice(&[Mod::of_type(mov_type(ty))]),
            guard: i.guard,
            ops: vec![Opnd::Val(d), Opnd::Imm(imm_of(c, w))],
            old: std::mem::take(&mut i.old),
        };
    }
    !sites.is_empty()
}
