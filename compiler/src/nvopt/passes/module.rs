//! Module passes: the pass kind that sees the whole module
//! ([`LiftedModule`]: the AST plus every function's SSA form), for the
//! inter-procedural jobs of cicc (AlwaysInliner, the inliner,
//! IPConstantPropagation, DeadArgElimination, dead function removal).
//! AddPass records such a pass with flags 0 (not a function pass) and the
//! barrier bit: every earlier pass must have finished on the whole module
//! before it runs (docs/MODEL.md, AddPass).
//!
//! Also here: the call-graph facts those passes share (direct call
//! targets, which functions are referenced other than by a direct call,
//! recursion) and the shape of a call sequence.

use crate::nvopt::ir::*;
use crate::nvopt::LiftedModule;
use crate::ptx::ast::{self, FuncKind, Item, Linkage, OperandKind, StateSpace, Statement};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use rustc_hash::{FxHashMap, FxHashSet};

/// A module pass.
pub trait ModulePass: Send + Sync {
    /// The pass name in pipeline text (`--passes=`), e.g. `inline`.
    fn name(&self) -> &'static str;
    /// Runs on the whole module; true when it changed something.
    fn run(&self, m: &mut LiftedModule) -> bool;
}

/// The callee of a direct call: `call (rets), f, (args)` or `call f, (args)`
/// or `call f`.
pub fn call_target(i: &Inst) -> Option<Sym> {
    if i.op != Opcode::Call {
        return None;
    }
    let k = usize::from(matches!(i.ops.first(), Some(Opnd::List(_))) && i.ops.len() >= 2);
    match i.ops.get(k) {
        Some(Opnd::Sym(s)) => Some(*s),
        _ => None,
    }
}

/// The return and argument name lists of a direct call (empty when
/// absent); None when an element is not a plain name.
pub fn call_lists(i: &Inst) -> Option<(Vec<Sym>, Vec<Sym>)> {
    let names = |o: &Opnd| -> Option<Vec<Sym>> {
        match o {
            Opnd::List(xs) => xs
                .iter()
                .map(|x| match x {
                    Opnd::Sym(s) => Some(*s),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    };
    let has_rets = matches!(i.ops.first(), Some(Opnd::List(_))) && i.ops.len() >= 2;
    let rets = if has_rets { names(&i.ops[0])? } else { vec![] };
    let after = usize::from(has_rets) + 1;
    let args = match i.ops.get(after) {
        Some(o) => names(o)?,
        None => vec![],
    };
    if i.ops.len() > after + 1 {
        return None; // a prototype operand: an indirect-call form
    }
    Some((rets, args))
}

/// Every symbol an instruction names (operands, addresses, lists).
pub fn inst_syms(i: &Inst, out: &mut impl FnMut(Sym)) {
    fn walk(o: &Opnd, out: &mut impl FnMut(Sym)) {
        match o {
            Opnd::Sym(s) | Opnd::SymOffset(s, _) => out(*s),
            Opnd::Addr(a) => {
                if let AddrBase::Sym(s) = a.base {
                    out(s);
                }
                a.rest.iter().for_each(|x| walk(x, out));
            }
            Opnd::Vector(xs) | Opnd::List(xs) | Opnd::VectorPred(xs, _) => {
                xs.iter().for_each(|x| walk(x, out))
            }
            _ => {}
        }
    }
    i.ops.iter().for_each(|o| walk(o, out));
}

/// Every symbol an AST statement list names (for functions nvopt did not
/// lift).
fn ast_syms(b: &ast::Block, out: &mut impl FnMut(Sym)) {
    fn walk(k: &OperandKind, out: &mut impl FnMut(Sym)) {
        match k {
            OperandKind::Name(s) | OperandKind::SymOffset(s, _) => out(*s),
            OperandKind::Addr(a) => {
                if let ast::AddrBase::Name(s) = a.base {
                    out(s);
                }
                a.rest.iter().for_each(|x| walk(&x.kind, out));
            }
            OperandKind::Vector(xs) | OperandKind::List(xs) | OperandKind::VectorPred(xs, _) => {
                xs.iter().for_each(|x| walk(&x.kind, out))
            }
            _ => {}
        }
    }
    for s in &b.stmts {
        match s {
            Statement::Instr(i) => i.operands.iter().for_each(|o| walk(&o.kind, out)),
            Statement::Block(inner) => ast_syms(inner, out),
            Statement::BranchTargets { .. } | Statement::CallPrototype { .. } => {
                // Conservatively: names in these are labels or types.
            }
            _ => {}
        }
    }
}

fn init_syms(i: &ast::Init, out: &mut impl FnMut(Sym)) {
    match i {
        ast::Init::Addr { sym, .. } => out(*sym),
        ast::Init::List(xs) => xs.iter().for_each(|x| init_syms(x, out)),
        _ => {}
    }
}

/// The module's call graph and reference facts, by function name.
pub struct CallGraph {
    /// Per defined function (item index order): the names it references
    /// (direct callees and any other mention).
    pub refs: FxHashMap<Sym, Vec<Sym>>,
    /// Functions named other than as a direct call's target (an address
    /// taken, a global initializer, a reference from a function nvopt did
    /// not lift): their call sites are not all known.
    pub escapes: FxHashSet<Sym>,
    /// Number of direct call sites per callee (in lifted functions).
    pub call_sites: FxHashMap<Sym, u32>,
    /// Functions on a call-graph cycle (recursion, direct or not).
    pub recursive: FxHashSet<Sym>,
}

/// The names of the module's functions with a body.
pub fn defined_functions(m: &ast::Module) -> FxHashSet<Sym> {
    m.functions()
        .filter(|f| f.body.is_some())
        .map(|f| f.name)
        .collect()
}

pub fn call_graph(lm: &LiftedModule) -> CallGraph {
    let funcs: FxHashSet<Sym> = lm.module.functions().map(|f| f.name).collect();
    let mut refs: FxHashMap<Sym, Vec<Sym>> = FxHashMap::default();
    let mut escapes = FxHashSet::default();
    let mut call_sites: FxHashMap<Sym, u32> = FxHashMap::default();
    for (k, f) in &lm.funcs {
        let Item::Function(header) = &lm.module.items[*k] else {
            continue;
        };
        let mut r = Vec::new();
        match f {
            Ok(f) => {
                for b in &f.blocks {
                    for i in &b.insts {
                        let target = call_target(i);
                        if let Some(t) = target {
                            *call_sites.entry(t).or_default() += 1;
                        }
                        let mut seen_target = false;
                        inst_syms(i, &mut |s| {
                            if !funcs.contains(&s) {
                                return;
                            }
                            r.push(s);
                            if Some(s) == target && !seen_target {
                                seen_target = true;
                            } else {
                                escapes.insert(s);
                            }
                        });
                    }
                }
            }
            Err(_) => {
                if let Some(body) = &header.body {
                    ast_syms(body, &mut |s| {
                        if funcs.contains(&s) {
                            r.push(s);
                            escapes.insert(s);
                        }
                    });
                }
            }
        }
        refs.entry(header.name).or_default().extend(r);
    }
    for item in &lm.module.items {
        if let Item::Var(v) = item {
            if let Some(i) = &v.init {
                init_syms(i, &mut |s| {
                    if funcs.contains(&s) {
                        escapes.insert(s);
                    }
                });
            }
        }
    }
    let recursive = cyclic(&refs);
    CallGraph {
        refs,
        escapes,
        call_sites,
        recursive,
    }
}

/// The functions on a cycle of `refs` (Tarjan's strongly connected
/// components, iteratively; a self-reference is a cycle).
fn cyclic(refs: &FxHashMap<Sym, Vec<Sym>>) -> FxHashSet<Sym> {
    let mut nodes: Vec<Sym> = refs.keys().copied().collect();
    nodes.sort();
    let mut index: FxHashMap<Sym, (u32, u32)> = FxHashMap::default();
    let mut on_stack = FxHashSet::default();
    let mut stack = Vec::new();
    let mut next = 0u32;
    let mut out = FxHashSet::default();
    let empty = Vec::new();
    for &root in &nodes {
        if index.contains_key(&root) {
            continue;
        }
        let mut work: Vec<(Sym, usize)> = vec![(root, 0)];
        index.insert(root, (next, next));
        next += 1;
        stack.push(root);
        on_stack.insert(root);
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            let succ = refs.get(&v).unwrap_or(&empty);
            if *i < succ.len() {
                let w = succ[*i];
                *i += 1;
                if w == v {
                    out.insert(v);
                }
                if let std::collections::hash_map::Entry::Vacant(e) = index.entry(w) {
                    e.insert((next, next));
                    next += 1;
                    stack.push(w);
                    on_stack.insert(w);
                    work.push((w, 0));
                } else if on_stack.contains(&w) {
                    let wi = index[&w].0;
                    let e = index.get_mut(&v).unwrap();
                    e.1 = e.1.min(wi);
                }
            } else {
                work.pop();
                let (vi, vl) = index[&v];
                if let Some(&(p, _)) = work.last() {
                    let pl = index[&p].1.min(vl);
                    index.get_mut(&p).unwrap().1 = pl;
                }
                if vi == vl {
                    let mut comp = Vec::new();
                    loop {
                        let w = stack.pop().unwrap();
                        on_stack.remove(&w);
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 {
                        out.extend(comp);
                    }
                }
            }
        }
    }
    out
}

/// Functions whose every call site is known and may be rewritten: a
/// `.func` without linkage (not `.visible`/`.extern`/`.weak`: another
/// module may call those) that nothing names except direct calls in
/// lifted functions.
pub fn internal(lm: &LiftedModule, cg: &CallGraph, name: Sym) -> bool {
    !cg.escapes.contains(&name)
        && lm
            .module
            .functions()
            .filter(|f| f.name == name)
            .all(|f| f.kind == FuncKind::Func && f.linkage == Linkage::None)
}

/// The index in `lm.funcs` of the defined function `name`.
pub fn func_slot(lm: &LiftedModule, name: Sym) -> Option<usize> {
    lm.funcs.iter().position(|(k, _)| {
        matches!(&lm.module.items[*k], Item::Function(f) if f.name == name && f.body.is_some())
    })
}

/// The AST header of a defined function.
pub fn header(lm: &LiftedModule, name: Sym) -> Option<&ast::Function> {
    lm.module
        .functions()
        .find(|f| f.name == name && f.body.is_some())
}

/// A `.param` declaration that can travel as one register: a scalar
/// without vector width, or a byte array of 1, 2, 4 or 8 bytes (clang's
/// spelling of a small struct such as `__half` or `__half2`:
/// `.param .align 4 .b8 p[2]`): its width in bits. The passes that use
/// this accept only full-width `[p+0]` accesses ([`param_access`]), which
/// read or write every byte of such an array at once, exactly as a
/// register of that width would.
pub fn scalar_param_bits(d: &ast::VarDecl) -> Option<u32> {
    use crate::ptx::types::ScalarType;
    if d.space != StateSpace::Param || d.vector.is_some() {
        return None;
    }
    let t = d.scalar()?;
    match d.dims[..] {
        [] => (t != ScalarType::Pred).then_some(t.bits()),
        [Some(n @ (1 | 2 | 4 | 8))] if t.bits() == 8 => Some(8 * n as u32),
        _ => None,
    }
}

/// A `ld.param`/`st.param` of `[sym+0]` (no other address parts): the
/// access width in bits, when `sym` is its base.
pub fn param_access(i: &Inst) -> Option<(Sym, u32)> {
    if !matches!(i.op, Opcode::Ld | Opcode::St) || !i.has(Mod::Param) {
        return None;
    }
    if i.mods
        .iter()
        .any(|m| m.as_type().is_none() && m != Mod::Param)
    {
        return None; // .v2/.v4 and the like
    }
    let addr = if i.op == Opcode::Ld {
        i.ops.get(1)
    } else {
        i.ops.first()
    };
    let Some(Opnd::Addr(a)) = addr else {
        return None;
    };
    let (AddrBase::Sym(s), 0, true) = (&a.base, a.offset, a.rest.is_empty()) else {
        return None;
    };
    Some((*s, i.ty()?.bits()))
}

/// Removes the given module items (functions, declarations), keeping
/// `lm.funcs` pointing at the right items.
pub fn remove_items(lm: &mut LiftedModule, dead: &FxHashSet<usize>) {
    if dead.is_empty() {
        return;
    }
    let mut new_index = vec![usize::MAX; lm.module.items.len()];
    let mut n = 0;
    for (k, slot) in new_index.iter_mut().enumerate() {
        if !dead.contains(&k) {
            *slot = n;
            n += 1;
        }
    }
    let items = std::mem::take(&mut lm.module.items);
    lm.module.items = items
        .into_iter()
        .enumerate()
        .filter(|(k, _)| !dead.contains(k))
        .map(|(_, i)| i)
        .collect();
    lm.funcs.retain(|(k, _)| !dead.contains(k));
    for (k, _) in &mut lm.funcs {
        *k = new_index[*k];
    }
}

/// Dead function removal (LLVM's GlobalDCE for functions): deletes every
/// `.func` without linkage, with its declarations, that no kernel, no
/// function with linkage and no global initializer reaches through
/// references. `.visible`/`.extern`/`.weak` functions stay (another
/// module may call them), as do kernels.
pub struct GlobalDce;

impl ModulePass for GlobalDce {
    fn name(&self) -> &'static str {
        "globaldce"
    }

    fn run(&self, lm: &mut LiftedModule) -> bool {
        let cg = call_graph(lm);
        let mut live: FxHashSet<Sym> = FxHashSet::default();
        let mut work: Vec<Sym> = Vec::new();
        for f in lm.module.functions() {
            if f.kind == FuncKind::Entry || f.linkage != Linkage::None {
                work.push(f.name);
            }
        }
        // Global initializers and unlifted bodies are in `escapes`.
        work.extend(cg.escapes.iter().copied());
        while let Some(s) = work.pop() {
            if !live.insert(s) {
                continue;
            }
            if let Some(r) = cg.refs.get(&s) {
                work.extend(r.iter().copied());
            }
        }
        let dead: FxHashSet<usize> = lm
            .module
            .items
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i, Item::Function(f) if !live.contains(&f.name)))
            .map(|(k, _)| k)
            .collect();
        let changed = !dead.is_empty();
        remove_items(lm, &dead);
        changed
    }
}
