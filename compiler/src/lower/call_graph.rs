//! The module's call graph as the lowering sees it: a direct call is an
//! edge to its target, a call through a function pointer an edge to each
//! of its candidates (call_indirect.rs: the address-taken functions of
//! the prototype's signature class). Its strongly connected components
//! decide recursion and the convergence barrier of each call.
//!
//! - A function is *recursive* when it lies on a cycle: it calls itself
//!   (directly or through a pointer) or shares a component with others.
//!   Recursive functions get recursion.rs's treatment: the callers'
//!   barrier kept with `BMOV`, one region over the body, the caller's saves
//!   around each call that may re-enter the component.
//! - A cycle of two or more functions made of direct calls only (mutual
//!   recursion) is refused: the driver's phase 17 refuses it first (docs/MODEL.md,
//!   Compilation driver; driver/module_info.rs, whose graph has direct edges only), and
//!   this check keeps the lowering's own entry points in line. A cycle
//!   that passes through a pointer call is compiled. ptxas 11.8 (measured,
//!   sm_80, -O0 and -O3) compiles self-recursion through a pointer and
//!   `even` -> (pointer) `odd` -> (direct) `even` with the same shape as
//!   direct self-recursion: every function of the cycle `BMOV.32.CLEAR R2,
//!   B6` on entry, `BSSY B6` over its body, `BSYNC B6 ; BMOV.32 B6, R2`
//!   before its `RET`, no region around the calls inside the cycle; and it
//!   warns only "Stack size for entry function 'k' cannot be statically
//!   determined". (It compiles direct mutual recursion the same way too;
//!   we keep the driver's refusal, docs/MODEL.md, Compilation driver.)
//! - The *height* of a component is 0 when it calls nothing outside
//!   itself, else one more than the highest component it calls. A call
//!   into a component opens region `B(1 + height)` (call.rs); every member
//!   of a recursive component keeps that same barrier (as ptxas uses B6
//!   for `even` and `odd` alike), and a call that stays inside the
//!   component opens none. Heights strictly decrease along calls between
//!   components, so nested regions never share a barrier.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ptx::ast;
use crate::ptx::intern::Sym;
use crate::ptx::Span;

use super::LowerError;

/// One call edge: callee, the call's span, whether it names the callee.
type Edge = (Sym, Span, bool);

/// Components, recursion and heights (module doc).
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    edges: FxHashMap<Sym, Vec<Edge>>,
    comp: FxHashMap<Sym, usize>,
    /// Per component: its members (module order), its height, and
    /// whether it is recursive.
    members: Vec<Vec<Sym>>,
    height: Vec<u32>,
    recursive: Vec<bool>,
}

impl CallGraph {
    pub fn new(m: &ast::Module) -> CallGraph {
        let order: Vec<Sym> = m
            .functions()
            .filter(|f| f.body.is_some())
            .map(|f| f.name)
            .collect();
        let mut edges: FxHashMap<Sym, Vec<Edge>> = FxHashMap::default();
        for f in m.functions() {
            let Some(body) = &f.body else { continue };
            let mut out = Vec::new();
            super::call::callees_marked(m, body, &mut |c, span, direct| {
                if m.function(m.name(c)).is_some_and(|g| g.body.is_some()) {
                    out.push((c, span, direct));
                }
            });
            edges.insert(f.name, out);
        }
        let succ = |s: Sym| -> Vec<Sym> {
            edges
                .get(&s)
                .map(|e| e.iter().map(|x| x.0).collect())
                .unwrap_or_default()
        };
        let sccs = tarjan(&order, succ);
        let mut comp = FxHashMap::default();
        for (i, c) in sccs.iter().enumerate() {
            for &s in c {
                comp.insert(s, i);
            }
        }
        // Tarjan completes a component after every component it reaches:
        // heights in completion order.
        let mut height = vec![0u32; sccs.len()];
        let mut recursive = vec![false; sccs.len()];
        for (i, c) in sccs.iter().enumerate() {
            let mut h = 0;
            for s in c {
                for e in edges.get(s).into_iter().flatten() {
                    match comp.get(&e.0) {
                        Some(&j) if j == i => recursive[i] = true,
                        Some(&j) => h = h.max(1 + height[j]),
                        None => {}
                    }
                }
            }
            height[i] = h;
        }
        CallGraph {
            edges,
            comp,
            members: sccs,
            height,
            recursive,
        }
    }

    /// The height of `f`'s component (module doc).
    pub fn height(&self, f: Sym) -> u32 {
        self.comp.get(&f).map_or(0, |&c| self.height[c])
    }

    /// Whether `f` lies on a cycle.
    pub fn is_recursive(&self, f: Sym) -> bool {
        self.comp.get(&f).is_some_and(|&c| self.recursive[c])
    }

    /// Whether a call from `caller` to `callee` may re-enter `caller`: both
    /// in one recursive component.
    pub fn within_cycle(&self, caller: Sym, callee: Sym) -> bool {
        self.is_recursive(caller) && self.comp.get(&caller) == self.comp.get(&callee)
    }

    /// Whether a function `entry` reaches (itself included) is recursive:
    /// its stack depth is not static.
    pub fn reaches_recursion(&self, entry: Sym) -> bool {
        let mut seen = FxHashSet::default();
        let mut stack = vec![entry];
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if self.is_recursive(f) {
                return true;
            }
            stack.extend(self.edges.get(&f).into_iter().flatten().map(|e| e.0));
        }
        false
    }

    /// Refuses mutual recursion through direct calls among the functions
    /// `entry` reaches (module doc): a cycle of two or more functions whose
    /// every call names its callee.
    pub fn check(&self, m: &ast::Module, entry: Sym) -> Result<(), LowerError> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![entry];
        let mut comps = Vec::new();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if let Some(&c) = self.comp.get(&f) {
                if self.members[c].len() > 1 && !comps.contains(&c) {
                    comps.push(c);
                }
            }
            stack.extend(self.edges.get(&f).into_iter().flatten().map(|e| e.0));
        }
        comps.sort();
        for c in comps {
            let inside: FxHashSet<Sym> = self.members[c].iter().copied().collect();
            let direct = |s: Sym| -> Vec<Sym> {
                self.edges[&s]
                    .iter()
                    .filter(|e| e.2 && e.0 != s && inside.contains(&e.0))
                    .map(|e| e.0)
                    .collect()
            };
            if let Some(cycle) = tarjan(&self.members[c], direct)
                .into_iter()
                .find(|x| x.len() > 1)
            {
                let first = cycle[0];
                let span = self.edges[&first]
                    .iter()
                    .find(|e| e.2 && cycle.contains(&e.0))
                    .map(|e| e.1)
                    .expect("a direct edge inside the cycle");
                let names: Vec<String> =
                    cycle.iter().map(|s| format!("`{}`", m.name(*s))).collect();
                return Err(LowerError::new(
                    span,
                    format!(
                        "recursive call: functions {} call each other directly (mutual recursion is not lowered; a cycle through a function pointer is)",
                        names.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Tarjan's strongly connected components over `nodes` (in that order),
/// each in node order; a component is listed after every component it
/// reaches. (Also the driver's mutual-recursion check, module_info.rs.)
pub fn tarjan(nodes: &[Sym], succ: impl Fn(Sym) -> Vec<Sym>) -> Vec<Vec<Sym>> {
    let pos: FxHashMap<Sym, usize> = nodes.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let n = nodes.len();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|&s| succ(s).iter().filter_map(|t| pos.get(t).copied()).collect())
        .collect();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut st = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        st.push(root);
        on[root] = true;
        while let Some(&(v, k)) = work.last() {
            if k < adj[v].len() {
                work.last_mut().expect("non-empty").1 += 1;
                let w = adj[v][k];
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    st.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut c = Vec::new();
                    while let Some(w) = st.pop() {
                        on[w] = false;
                        c.push(w);
                        if w == v {
                            break;
                        }
                    }
                    c.sort();
                    out.push(c.into_iter().map(|i| nodes[i]).collect());
                }
            }
        }
    }
    out
}
