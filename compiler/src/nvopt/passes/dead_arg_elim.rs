//! DeadArgElimination (cicc's, docs/MODEL.md, NvOpt pipelines): removes the parameters a
//! function never reads, from its signature (definition and every
//! declaration) and from every call: the argument, its `st.param` stores
//! and its `.param` declaration in the caller.
//!
//! Rules: only a `.func` whose every call site is known and may be
//! rewritten ([`super::module::internal`]: no linkage, named only by
//! direct calls in lifted functions); a kernel's `.entry` signature is
//! never changed (the launch fixes it). A parameter counts as read when
//! the body names it at all. At each call the argument name must be
//! mentioned only by `st.param` stores and the call; otherwise the
//! function keeps all its parameters.

use super::ip_const_prop::call_sites_of;
use super::module::*;
use crate::nvopt::ir::*;
use crate::nvopt::LiftedModule;
use crate::ptx::ast::Item;
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use rustc_hash::FxHashSet;

pub struct DeadArgElim;

fn mentions(f: &Function, s: Sym) -> bool {
    let mut m = false;
    for b in &f.blocks {
        for i in &b.insts {
            inst_syms(i, &mut |x| m |= x == s);
        }
    }
    m
}

impl ModulePass for DeadArgElim {
    fn name(&self) -> &'static str {
        "deadargelim"
    }

    fn run(&self, lm: &mut LiftedModule) -> bool {
        let cg = call_graph(lm);
        let mut changed = false;
        let candidates: Vec<Sym> = lm
            .funcs
            .iter()
            .filter(|(_, f)| f.is_ok())
            .filter_map(|(k, _)| match &lm.module.items[*k] {
                Item::Function(h) => Some(h.name),
                _ => None,
            })
            .collect();
        for g in candidates {
            if !internal(lm, &cg, g) {
                continue;
            }
            let h = header(lm, g).unwrap().clone();
            let slot = func_slot(lm, g).unwrap();
            let body = lm.funcs[slot].1.as_ref().unwrap();
            let dead: Vec<usize> = (0..h.params.len())
                .filter(|&p| !mentions(body, h.params[p].name))
                .collect();
            if dead.is_empty() {
                continue;
            }
            let sites = call_sites_of(lm, g);
            // Check every site first: all or nothing.
            let mut ok = true;
            for &(s, b, k) in &sites {
                let f = lm.funcs[s].1.as_ref().unwrap();
                let Some((_, args)) = call_lists(&f.blocks[b].insts[k]) else {
                    ok = false;
                    break;
                };
                if args.len() != h.params.len() {
                    ok = false;
                    break;
                }
                for &p in &dead {
                    let a = args[p];
                    for blk in &f.blocks {
                        for i in &blk.insts {
                            let mut m = false;
                            inst_syms(i, &mut |x| m |= x == a);
                            if m && i.op != Opcode::Call
                                && !(i.op == Opcode::St
                                    && param_access(i).is_some_and(|(x, _)| x == a))
                            {
                                ok = false;
                            }
                        }
                    }
                }
            }
            if !ok {
                continue;
            }
            // Rewrite the calls (all of them first: removing stores moves
            // instruction indices), then the stores and declarations.
            let mut gone_per_slot: Vec<(usize, FxHashSet<Sym>)> = Vec::new();
            for &(s, b, k) in &sites {
                let f = lm.funcs[s].1.as_mut().unwrap();
                let (_, args) = call_lists(&f.blocks[b].insts[k]).unwrap();
                let gone: FxHashSet<Sym> = dead.iter().map(|&p| args[p]).collect();
                let call = &mut f.blocks[b].insts[k];
                let has_rets =
                    matches!(call.ops.first(), Some(Opnd::List(_))) && call.ops.len() >= 2;
                let at = usize::from(has_rets) + 1;
                if let Some(Opnd::List(xs)) = call.ops.get_mut(at) {
                    xs.retain(|x| !matches!(x, Opnd::Sym(s) if gone.contains(s)));
                    if xs.is_empty() {
                        // `call (r), f;`: no empty argument list.
                        call.ops.truncate(at);
                    }
                }
                gone_per_slot.push((s, gone));
            }
            for (s, gone) in gone_per_slot {
                let f = lm.funcs[s].1.as_mut().unwrap();
                for blk in &mut f.blocks {
                    blk.insts.retain(|i| {
                        !(i.op == Opcode::St
                            && param_access(i).is_some_and(|(x, _)| gone.contains(&x)))
                    });
                }
                f.locals.retain(|d| !gone.contains(&d.name));
            }
            // The signature, in the definition and every declaration.
            let dead_names: FxHashSet<Sym> = dead.iter().map(|&p| h.params[p].name).collect();
            for item in &mut lm.module.items {
                if let Item::Function(fh) = item {
                    if fh.name == g {
                        if fh.params.len() == h.params.len() {
                            let mut p = 0;
                            fh.params.retain(|_| {
                                let keep = !dead.contains(&p);
                                p += 1;
                                keep
                            });
                        } else {
                            fh.params.retain(|d| !dead_names.contains(&d.name));
                        }
                    }
                }
            }
            changed = true;
        }
        changed
    }
}
