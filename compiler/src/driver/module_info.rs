//! What the driver needs to know about a parsed module before any function
//! is compiled: the call graph (ptxas's driver phase 11 walkers, docs/MODEL.md, Compilation driver, and the
//! mutual-recursion marker that phase 17 acts on), indirect calls and
//! `mma.f64` uses (phase 17), the reasons a module is compiled without ABI
//! (phase 9), and the cache-operator rewrite of phase 16.

use rustc_hash::{FxHashMap, FxHashSet};

use super::options::CacheMode;
use crate::ptx::ast::{
    Block, FuncKind, Function, Instruction, Item, Module, OperandKind, Statement,
};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::{Mod, ModCat};
use crate::ptx::types::ScalarType;
use crate::ptx::Span;

/// Calls out of one function body.
#[derive(Clone, Debug, Default)]
pub struct FuncCalls {
    /// Direct callees with the span of the first call to each, in order.
    pub callees: Vec<(Sym, Span)>,
    /// Spans of calls through a register (`call (r), %rd1, (a), proto;`).
    pub indirect: Vec<Span>,
    /// The first `mma` with an `.f64` type, if any.
    pub mma_f64: Option<Span>,
}

/// The module's call graph, over functions with bodies.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    pub calls: FxHashMap<Sym, FuncCalls>,
}

fn walk_instrs<'a>(b: &'a Block, f: &mut dyn FnMut(&'a Instruction)) {
    for s in &b.stmts {
        match s {
            Statement::Instr(i) => f(i),
            Statement::Block(inner) => walk_instrs(inner, f),
            _ => {}
        }
    }
}

fn walk_instrs_mut(b: &mut Block, f: &mut dyn FnMut(&mut Instruction)) {
    for s in &mut b.stmts {
        match s {
            Statement::Instr(i) => f(i),
            Statement::Block(inner) => walk_instrs_mut(inner, f),
            _ => {}
        }
    }
}

/// Whether an instruction is `mma` on `.f64` operands. The front end does
/// not parse `mma` yet (corpus/ptx/beyond/165_mma_sync.ptx), so this is
/// matched by the opcode's spelling and becomes live when it does.
fn is_mma_f64(i: &Instruction) -> bool {
    i.opcode.name() == "mma" && i.types().any(|t| t == ScalarType::F64)
}

impl CallGraph {
    pub fn new(m: &Module) -> CallGraph {
        let funcs: FxHashSet<Sym> = m.functions().map(|f| f.name).collect();
        let mut calls = FxHashMap::default();
        for f in m.functions() {
            let Some(body) = &f.body else { continue };
            let mut fc = FuncCalls::default();
            walk_instrs(body, &mut |i| {
                if is_mma_f64(i) && fc.mma_f64.is_none() {
                    fc.mma_f64 = Some(i.span);
                }
                if i.opcode != Opcode::Call {
                    return;
                }
                // `call (rets), target, (args)[, proto]`: the target is the
                // first plain name.
                let target = i.operands.iter().find_map(|o| match o.kind {
                    OperandKind::Name(s) => Some(s),
                    _ => None,
                });
                match target {
                    Some(t) if funcs.contains(&t) && !fc.callees.iter().any(|c| c.0 == t) => {
                        fc.callees.push((t, i.span));
                    }
                    Some(t) if funcs.contains(&t) => {}
                    Some(_) => fc.indirect.push(i.span),
                    None => {}
                }
            });
            calls.insert(f.name, fc);
        }
        CallGraph { calls }
    }

    /// Strongly connected components of two or more functions: mutual
    /// recursion (ptxas's driver phase 11 marks them, phase 17 aborts). Each
    /// cycle is reported once, as the functions in module order, with the
    /// span of the call that closes it from the first one. A function that
    /// calls only itself is direct recursion, which the lowering compiles
    /// (lower/recursion.rs; ptxas 11.8 does too).
    pub fn mutual_recursion(&self, m: &Module) -> Vec<(Vec<Sym>, Span)> {
        // Tarjan's algorithm over the functions in module order.
        let order: Vec<Sym> = m
            .functions()
            .filter(|f| f.body.is_some())
            .map(|f| f.name)
            .collect();
        let pos: FxHashMap<Sym, usize> = order.iter().enumerate().map(|(i, s)| (*s, i)).collect();
        let mut sccs: Vec<Vec<usize>> = crate::lower::call_graph::tarjan(&order, |s| {
            self.calls[&s].callees.iter().map(|(c, _)| *c).collect()
        })
        .into_iter()
        .filter(|comp| comp.len() >= 2)
        .map(|comp| comp.iter().map(|s| pos[s]).collect())
        .collect();
        sccs.sort();
        sccs.into_iter()
            .map(|comp| {
                let first = order[comp[0]];
                let members: Vec<Sym> = comp.iter().map(|&i| order[i]).collect();
                let span = self.calls[&first]
                    .callees
                    .iter()
                    .find(|(c, _)| members.contains(c))
                    .map(|c| c.1)
                    .unwrap_or_default();
                (members, span)
            })
            .collect()
    }

    /// Every function reachable from `root` through direct calls, `root`
    /// first, then in discovery order.
    pub fn reachable(&self, root: Sym) -> Vec<Sym> {
        let mut out = vec![root];
        let mut i = 0;
        while i < out.len() {
            if let Some(fc) = self.calls.get(&out[i]) {
                for (c, _) in &fc.callees {
                    if !out.contains(c) {
                        out.push(*c);
                    }
                }
            }
            i += 1;
        }
        out
    }
}

/// Why ptxas would compile a module without ABI: a function with more
/// than one return value (ptxas 11.8 warns "Function 'two' with multiple
/// return values found, disabling ABI" for `.func (.reg .b32 a, .reg .b32
/// b) two()`). The reason's text, if any.
pub fn abi_less_reason(m: &Module) -> Option<String> {
    m.items.iter().find_map(|item| match item {
        Item::Function(f) if f.returns.as_ref().is_some_and(|r| r.len() > 1) => Some(format!(
            "Function '{}' with multiple return values found, disabling ABI",
            m.name(f.name)
        )),
        _ => None,
    })
}

/// Entries with bodies, in module order.
pub fn entries(m: &Module) -> Vec<&Function> {
    m.functions()
        .filter(|f| f.kind == FuncKind::Entry && f.body.is_some())
        .collect()
}

fn is_cache_op(m: Mod) -> bool {
    matches!(
        m,
        Mod::Ca | Mod::Cg | Mod::Cs | Mod::Lu | Mod::Cv | Mod::Wb | Mod::Wt
    )
}

/// Phase 16 applied: rewrites the cache operator of every global or generic
/// `ld` (by `load`) and `st` (by `store`) in the module, and returns how
/// many accesses of each function changed, by function name. Accesses
/// whose ordering forbids a cache operator (`.volatile`, `.relaxed`,
/// `.acquire`, `.release`, `.mmio`) and non-coherent loads (`.nc`) are left
/// alone.
pub fn apply_cache_modes(m: &mut Module, load: CacheMode, store: CacheMode) -> FxHashMap<Sym, u32> {
    let mut counts = FxHashMap::default();
    if load == CacheMode::Auto && store == CacheMode::Auto {
        return counts;
    }
    for item in &mut m.items {
        let Item::Function(f) = item else { continue };
        let Some(body) = &mut f.body else { continue };
        let mut n = 0u32;
        walk_instrs_mut(body, &mut |i| {
            let mode = match i.opcode {
                Opcode::Ld => load,
                Opcode::St => store,
                _ => return,
            };
            let ms: Vec<Mod> = i.mods.iter().collect();
            let space = ms.iter().find(|x| x.cat() == ModCat::Space).copied();
            if space.is_some_and(|s| s != Mod::Global)
                || ms
                    .iter()
                    .any(|x| x.cat() == ModCat::Order && *x != Mod::Weak || *x == Mod::Nc)
            {
                return;
            }
            let existing = ms.iter().position(|x| is_cache_op(*x));
            let new_mods: Vec<Mod> = match (mode, existing) {
                (CacheMode::Auto, _) | (CacheMode::Default(_), Some(_)) => return,
                (CacheMode::Forced(c), Some(k)) => {
                    if ms[k] == c.to_mod() {
                        return;
                    }
                    let mut v = ms.clone();
                    v[k] = c.to_mod();
                    v
                }
                (CacheMode::Default(c) | CacheMode::Forced(c), None) => {
                    // After `.weak` and the state space, where PTX writes it.
                    let at = ms
                        .iter()
                        .rposition(|x| x.cat() == ModCat::Space || *x == Mod::Weak)
                        .map_or(0, |p| p + 1);
                    let mut v = ms.clone();
                    v.insert(at, c.to_mod());
                    v
                }
            };
            i.mods = crate::ptx::ast::Mods::from_slice(&new_mods);
            n += 1;
        });
        if n > 0 {
            counts.insert(f.name, n);
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::CacheOp;

    fn module(body: &str) -> Module {
        let src = format!(".version 7.5\n.target sm_70\n.address_size 64\n{body}");
        crate::ptx::parse_checked("t.ptx", &src).unwrap()
    }

    #[test]
    fn a_three_function_cycle_is_one_mutual_recursion() {
        let f = |n: &str, c: &str| format!(".func {n}()\n{{\n\tcall {c}, ();\n\tret;\n}}\n");
        let m = module(&format!(
            ".func b();\n.func c();\n{}{}{}.func d()\n{{\n\tcall d, ();\n\tret;\n}}\n",
            f("a", "b"),
            f("b", "c"),
            f("c", "a")
        ));
        let g = CallGraph::new(&m);
        let cycles = g.mutual_recursion(&m);
        assert_eq!(cycles.len(), 1, "{cycles:?}");
        let names: Vec<&str> = cycles[0].0.iter().map(|s| m.name(*s)).collect();
        assert_eq!(names, ["a", "b", "c"]);
        // Direct recursion (d) is left to the lowering.
        assert_eq!(g.reachable(m.names.get("a").unwrap()).len(), 3);
    }

    #[test]
    fn cache_rewrite_skips_volatile_nc_and_other_spaces() {
        let mut m = module(
            ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r1, [%rd1];\n\tld.global.cg.u32 %r2, [%rd1];\n\tld.volatile.global.u32 %r3, [%rd1];\n\tld.global.nc.u32 %r4, [%rd1];\n\tld.u32 %r4, [%rd1];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n",
        );
        let n = apply_cache_modes(&mut m, CacheMode::Default(CacheOp::Ca), CacheMode::Auto);
        // ld.global.u32 and the generic ld.u32 get `.ca`; .cg keeps its own.
        assert_eq!(n.values().sum::<u32>(), 2);
        let printed = crate::ptx::printer::print(&m);
        assert!(printed.contains("ld.global.ca.u32"), "{printed}");
        assert!(printed.contains("ld.ca.u32"), "{printed}");
        assert!(printed.contains("ld.global.cg.u32"), "{printed}");
        let n = apply_cache_modes(
            &mut m,
            CacheMode::Forced(CacheOp::Cs),
            CacheMode::Forced(CacheOp::Wt),
        );
        // Three loads (two .ca, one .cg) and the store; not volatile, nc, param.
        assert_eq!(n.values().sum::<u32>(), 4);
        let printed = crate::ptx::printer::print(&m);
        assert!(printed.contains("st.global.wt.u32"), "{printed}");
        assert!(printed.contains("ld.volatile.global.u32"), "{printed}");
        assert!(printed.contains("ld.global.nc.u32"), "{printed}");
        assert!(printed.contains("ld.param.u64"), "{printed}");
        // The rewritten module still validates.
        assert!(crate::ptx::validate::validate(&m)
            .iter()
            .all(|d| !d.is_error()));
    }
}
