//! Inlining of `.func` calls: the AlwaysInliner (cicc's, docs/MODEL.md, NvOpt pipelines, in
//! the pre-optimization list) and the inliner (the same factory in the
//! Tier 1/2/3 list).
//!
//! A call sequence as LLVM writes it,
//! `{ .param .b32 param0; st.param.b32 [param0+0], %r1; .param .b32 retval0;
//!    call.uni (retval0), f, (param0); ld.param.b32 %r2, [retval0+0]; }`,
//! becomes the callee's body: its blocks copied into the caller with
//! fresh values (the printer gives every value its own register), its
//! parameters as values (each `ld.param [f_param_i]` of the callee reads
//! the value the caller stored: a `mov`, or the value itself when the
//! register types agree), each `ret` a branch to the code after the call,
//! and the stored return value (a phi when there are several `ret`s) in
//! place of the caller's `ld.param [retval0]`. Its `.local` and nested
//! call `.param` variables are renamed into the caller (fresh names).
//!
//! Rules (each a case where inlining could change a result, or where
//! this pass does not model the construct; such a call stays a call):
//! - never a function on a call-graph cycle (recursion, cicc: the
//!   inliner never inlines recursion), nor a callee nvopt did not lift;
//! - a `.weak`/`.common` definition only when the module is the whole
//!   program (parameter `weak=1`, the default; `-opt "-inline-weak=0"`
//!   turns it off): with no link step, as under ptxas without `-c` or
//!   nvcc without `-rdc`, the module's definition is the one that runs,
//!   and clang writes every C++ inline function (`linkonce_odr`: the
//!   CUDA headers' `__ballot_sync`, `__half2`'s constructors) as `.weak`.
//!   Separately compiled code (`-rdc`) may link a strong definition over
//!   a `.weak` one, so it must say `-inline-weak=0`;
//! - every parameter and return value travels as one register: a scalar
//!   `.param` or a byte array of 1, 2, 4 or 8 bytes (no vectors;
//!   [`scalar_param_bits`]) and each access to it is a full-width
//!   `ld`/`st.param [name+0]`: a narrower access zero- or sign-extends,
//!   which a plain copy would not do;
//! - the caller stores each argument exactly once, in the call's block
//!   before the call, and reads each return value only in that block
//!   after it; the call is unguarded;
//! - the callee writes each return value once per `ret` block, in that
//!   block, and never otherwise (a store that a later one overwrites, or
//!   a value left unwritten on some path, would need memory semantics);
//! - the callee declares no `.shared`/`.global`/`.const` variables
//!   (one instance per module: copying them would split it in two).
//!
//! Policies: `always-inline` inlines a callee called from exactly one
//! place that may be removed afterwards (no linkage, not referenced
//! otherwise), or one of at most [`ALWAYS_INLINE_SIZE`] instructions:
//! PTX has no always-inline attribute, so the cases where inlining can
//! only shrink the code stand in for it. `inline` inlines any callee of
//! at most [`INLINE_THRESHOLD`] instructions. Callees are processed
//! bottom-up (callees before their callers), so inlined bodies are
//! already inlined into. Afterwards, functions left without callers are
//! removed ([`super::module::GlobalDce`]).

use super::module::*;
use super::util::mov_type;
use crate::nvopt::ir::*;
use crate::nvopt::LiftedModule;
use crate::ptx::ast::{self, Imm, Linkage, Mods, StateSpace};
use crate::ptx::intern::{Interner, Sym};
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;
use rustc_hash::{FxHashMap, FxHashSet};

/// The AlwaysInliner's size bound (instructions, terminators excluded).
pub const ALWAYS_INLINE_SIZE: usize = 8;
/// The inliner's size bound (instructions, terminators excluded).
pub const INLINE_THRESHOLD: usize = 400;

/// `weak`: whether `.weak` definitions may be inlined (module doc).
pub struct AlwaysInliner {
    pub weak: bool,
}
pub struct Inliner {
    pub weak: bool,
}

impl ModulePass for AlwaysInliner {
    fn name(&self) -> &'static str {
        "always-inline"
    }
    fn run(&self, m: &mut LiftedModule) -> bool {
        run(m, Policy::Always, self.weak)
    }
}

impl ModulePass for Inliner {
    fn name(&self) -> &'static str {
        "inline"
    }
    fn run(&self, m: &mut LiftedModule) -> bool {
        run(m, Policy::Threshold, self.weak)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Always,
    Threshold,
}

fn size(f: &Function) -> usize {
    f.blocks.iter().map(|b| b.insts.len()).sum()
}

/// Functions in bottom-up order: every function after the functions it
/// references (cycles broken arbitrarily; recursive callees are never
/// inlined anyway).
fn bottom_up(cg: &CallGraph) -> Vec<Sym> {
    let mut keys: Vec<Sym> = cg.refs.keys().copied().collect();
    keys.sort();
    let mut done = FxHashSet::default();
    let mut out = Vec::new();
    for root in keys {
        let mut stack = vec![(root, 0usize)];
        if !done.insert(root) {
            continue;
        }
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            let succ = cg.refs.get(&v).map_or(&[][..], |r| &r[..]);
            if *i < succ.len() {
                let w = succ[*i];
                *i += 1;
                if cg.refs.contains_key(&w) && done.insert(w) {
                    stack.push((w, 0));
                }
            } else {
                out.push(v);
                stack.pop();
            }
        }
    }
    out
}

fn run(lm: &mut LiftedModule, policy: Policy, weak: bool) -> bool {
    let cg = call_graph(lm);
    let mut changed = false;
    for caller in bottom_up(&cg) {
        let Some(slot) = func_slot(lm, caller) else {
            continue;
        };
        // One call at a time: each inlining renumbers blocks.
        while let Some((b, k, callee)) = next_site(lm, &cg, slot, policy, weak) {
            let callee_slot = func_slot(lm, callee).expect("checked by next_site");
            let callee_f = lm.funcs[callee_slot].1.as_ref().unwrap().clone();
            let callee_h = header(lm, callee).unwrap().clone();
            let mut f = std::mem::replace(
                lm.funcs[slot].1.as_mut().unwrap(),
                Function {
                    name: caller,
                    blocks: vec![],
                    values: vec![],
                    locals: vec![],
                },
            );
            let ok = inline_call(&mut lm.module.names, &mut f, b, k, &callee_f, &callee_h);
            *lm.funcs[slot].1.as_mut().unwrap() = f;
            debug_assert!(ok, "next_site checked the call site");
            if !ok {
                break;
            }
            changed = true;
        }
    }
    if changed {
        GlobalDce.run(lm);
    }
    changed
}

/// The first call site in function `slot` that the policy inlines:
/// (block, instruction index, callee).
fn next_site(
    lm: &LiftedModule,
    cg: &CallGraph,
    slot: usize,
    policy: Policy,
    weak: bool,
) -> Option<(usize, usize, Sym)> {
    let Ok(f) = &lm.funcs[slot].1 else {
        return None;
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        for (k, i) in b.insts.iter().enumerate() {
            let Some(callee) = call_target(i) else {
                continue;
            };
            if callee == f.name || cg.recursive.contains(&callee) {
                continue;
            }
            let Some(cs) = func_slot(lm, callee) else {
                continue;
            };
            let Ok(cf) = &lm.funcs[cs].1 else {
                continue;
            };
            let n = size(cf);
            let wanted = match policy {
                Policy::Always => {
                    n <= ALWAYS_INLINE_SIZE
                        || (cg.call_sites.get(&callee) == Some(&1) && internal(lm, cg, callee))
                }
                Policy::Threshold => n <= INLINE_THRESHOLD,
            };
            let h = header(lm, callee)?;
            // A `.weak`/`.common` definition may be replaced at link time
            // by another module's: unless the module is the whole
            // program, its body here is not necessarily the one that runs.
            if !weak && matches!(h.linkage, Linkage::Weak | Linkage::Common) {
                continue;
            }
            if wanted && plan(f, bi, k, cf, h).is_some() {
                return Some((bi, k, callee));
            }
        }
    }
    None
}

/// What inlining one call needs, once its shape is checked.
struct Plan {
    /// Per argument: the operand the caller stored (a value or an
    /// immediate), and the index of that store in the call block.
    args: Vec<(Opnd, usize)>,
    /// Per caller `ld.param` of a return value: (instruction index,
    /// return index, destination).
    ret_loads: Vec<(usize, usize, Value)>,
    /// The caller's argument and return `.param` names (their
    /// declarations go away).
    names: Vec<Sym>,
}

/// The register width of a value.
fn bits(f: &Function, v: Value) -> u32 {
    f.values[v.idx()].ty.bits()
}

/// Checks the call site `f.blocks[b].insts[k]` and the callee against
/// the rules in the module doc.
fn plan(f: &Function, b: usize, k: usize, callee: &Function, h: &ast::Function) -> Option<Plan> {
    let call = &f.blocks[b].insts[k];
    if call.guard.is_some() {
        return None;
    }
    let (rets, args) = call_lists(call)?;
    let formals_ret = h.returns.clone().unwrap_or_default();
    if rets.len() != formals_ret.len() || args.len() != h.params.len() {
        return None;
    }
    let mut pbits = Vec::new();
    for d in h.params.iter().chain(&formals_ret) {
        pbits.push(scalar_param_bits(d)?);
    }
    // Caller side: every mention of an argument or return name.
    let mut stores: Vec<Option<(Opnd, usize)>> = vec![None; args.len()];
    let mut ret_loads = Vec::new();
    for (bi, blk) in f.blocks.iter().enumerate() {
        for (ii, i) in blk.insts.iter().enumerate() {
            if bi == b && ii == k {
                continue;
            }
            let mut mentions = false;
            inst_syms(i, &mut |s| {
                mentions |= args.contains(&s) || rets.contains(&s)
            });
            if !mentions {
                continue;
            }
            let (s, w) = param_access(i)?;
            if bi != b || i.guard.is_some() {
                return None;
            }
            if let Some(a) = args.iter().position(|&x| x == s) {
                let src = i.ops.get(1)?;
                let ok_src = match src {
                    Opnd::Val(v) => bits(f, *v) == w,
                    Opnd::Imm(m) => imm_bits_literal(m).is_some(),
                    _ => false,
                };
                if i.op != Opcode::St || ii > k || w != pbits[a] || !ok_src || stores[a].is_some() {
                    return None;
                }
                stores[a] = Some((src.clone(), ii));
            } else {
                let r = rets.iter().position(|&x| x == s)?;
                let Some(Opnd::Val(d)) = i.ops.first() else {
                    return None;
                };
                if i.op != Opcode::Ld || ii < k || w != pbits[args.len() + r] || bits(f, *d) != w {
                    return None;
                }
                ret_loads.push((ii, r, *d));
            }
        }
    }
    let args_ok: Vec<(Opnd, usize)> = stores.into_iter().collect::<Option<_>>()?;
    // The caller's names must be body-local `.param` variables.
    for s in args.iter().chain(&rets) {
        if !f
            .locals
            .iter()
            .any(|d| d.name == *s && d.space == StateSpace::Param)
        {
            return None;
        }
    }
    // Callee side.
    if !callee.preds()[0].is_empty() {
        return None;
    }
    if callee
        .locals
        .iter()
        .any(|d| !matches!(d.space, StateSpace::Local | StateSpace::Param))
    {
        return None;
    }
    let formal_params: Vec<Sym> = h.params.iter().map(|d| d.name).collect();
    let formal_rets: Vec<Sym> = formals_ret.iter().map(|d| d.name).collect();
    let mut ret_blocks = 0;
    for blk in &callee.blocks {
        let is_ret = matches!(blk.term, Term::Ret { .. });
        ret_blocks += usize::from(is_ret);
        let mut stored = vec![0u32; formal_rets.len()];
        for i in &blk.insts {
            let mut mentions = false;
            inst_syms(i, &mut |s| {
                mentions |= formal_params.contains(&s) || formal_rets.contains(&s)
            });
            if !mentions {
                continue;
            }
            let (s, w) = param_access(i)?;
            if let Some(p) = formal_params.iter().position(|&x| x == s) {
                let Some(Opnd::Val(d)) = i.ops.first() else {
                    return None;
                };
                if i.op != Opcode::Ld || w != pbits[p] || bits(callee, *d) != w {
                    return None;
                }
            } else {
                let r = formal_rets.iter().position(|&x| x == s)?;
                let ok_src = match i.ops.get(1) {
                    Some(Opnd::Val(v)) => bits(callee, *v) == w,
                    Some(Opnd::Imm(m)) => imm_bits_literal(m).is_some(),
                    _ => false,
                };
                if i.op != Opcode::St
                    || !is_ret
                    || i.guard.is_some()
                    || !ok_src
                    || w != pbits[args.len() + r]
                {
                    return None;
                }
                stored[r] += 1;
            }
        }
        if is_ret && stored.iter().any(|&n| n != 1) {
            return None;
        }
    }
    if ret_blocks == 0 {
        return None;
    }
    let mut names = args.clone();
    names.extend(&rets);
    Some(Plan {
        args: args_ok,
        ret_loads,
        names,
    })
}

/// A fresh name derived from `base` that the interner does not hold yet.
fn fresh_name(names: &mut Interner, base: Sym) -> Sym {
    let stem = names.name(base).to_string();
    let mut n = 0u32;
    loop {
        let cand = format!("{stem}_inl{n}");
        if names.get(&cand).is_none() {
            return names.intern(&cand);
        }
        n += 1;
    }
}

/// An immediate as the integer literal of its bits, for a `mov.bN`:
/// `0f`/`0d` literals give their bit patterns; a decimal float literal
/// (whose rounding depends on the context type) gives None.
pub fn imm_bits_literal(i: &Imm) -> Option<Imm> {
    match *i {
        Imm::Int { .. } => Some(*i),
        Imm::F32(b) => Some(Imm::int(i128::from(b))),
        Imm::F64(b) => Some(Imm::int(i128::from(b))),
        Imm::Float(_) => None,
    }
}

/// `mov.bN d, src` (`.pred` for a predicate), an immediate written as its
/// bits.
fn mov_inst(ty: ScalarType, d: Value, src: Opnd, guard: Option<Guard>, old: Vec<Value>) -> Inst {
    let src = match src {
        Opnd::Imm(i) => Opnd::Imm(imm_bits_literal(&i).expect("plan refuses decimal floats")),
        o => o,
    };
    Inst {
        op: Opcode::Mov,
        mods: Mods::from_slice(&[Mod::of_type(mov_type(ty))]),
        guard,
        ops: vec![Opnd::Val(d), src],
        old,
    }
}

fn rename_syms(o: &mut Opnd, map: &FxHashMap<Sym, Sym>) {
    let r = |s: &mut Sym| {
        if let Some(&n) = map.get(s) {
            *s = n;
        }
    };
    match o {
        Opnd::Sym(s) | Opnd::SymOffset(s, _) => r(s),
        Opnd::Addr(a) => {
            if let AddrBase::Sym(s) = &mut a.base {
                r(s);
            }
            a.rest.iter_mut().for_each(|x| rename_syms(x, map));
        }
        Opnd::Vector(xs) | Opnd::List(xs) | Opnd::VectorPred(xs, _) => {
            xs.iter_mut().for_each(|x| rename_syms(x, map))
        }
        _ => {}
    }
}

fn remap_values(i: &mut Inst, base: u32) {
    for v in i.defs_mut() {
        v.0 += base;
    }
    i.for_each_use_mut(|v| v.0 += base);
}

/// Inlines the call `f.blocks[b].insts[k]` of `callee` (header `h`).
/// Returns false (and leaves `f` unchanged) when the site does not have
/// the shape [`plan`] accepts.
pub fn inline_call(
    names: &mut Interner,
    f: &mut Function,
    b: usize,
    k: usize,
    callee: &Function,
    h: &ast::Function,
) -> bool {
    let Some(plan) = plan(f, b, k, callee, h) else {
        return false;
    };
    let nparams = h.params.len();
    let formal_params: Vec<Sym> = h.params.iter().map(|d| d.name).collect();
    let formal_rets: Vec<Sym> = h
        .returns
        .as_ref()
        .map(|r| r.iter().map(|d| d.name).collect())
        .unwrap_or_default();
    let vbase = f.values.len() as u32;
    let bbase = f.blocks.len() as u32;
    let cont = BlockId(bbase + callee.blocks.len() as u32);
    f.values.extend(callee.values.iter().cloned());
    // Locals: renamed copies.
    let mut sym_map: FxHashMap<Sym, Sym> = FxHashMap::default();
    for d in &callee.locals {
        let mut d = d.clone();
        let n = fresh_name(names, d.name);
        sym_map.insert(d.name, n);
        d.name = n;
        f.locals.push(d);
    }
    // Callee blocks.
    let mut subst: Vec<Option<Value>> = vec![None; f.values.len()];
    let mut ret_vals: Vec<Vec<(BlockId, Opnd)>> = vec![Vec::new(); formal_rets.len()];
    let mut new_blocks = Vec::with_capacity(callee.blocks.len() + 1);
    for (ci, cb) in callee.blocks.iter().enumerate() {
        let me = BlockId(bbase + ci as u32);
        let mut nb = cb.clone();
        for p in &mut nb.phis {
            p.dst.0 += vbase;
            for (pb, v) in &mut p.args {
                pb.0 += bbase;
                v.0 += vbase;
            }
        }
        let mut insts = Vec::with_capacity(nb.insts.len());
        for mut i in std::mem::take(&mut nb.insts) {
            remap_values(&mut i, vbase);
            if let Some((s, _)) = param_access(&i) {
                if let Some(p) = formal_params.iter().position(|&x| x == s) {
                    let Some(Opnd::Val(d)) = i.ops.first().cloned() else {
                        unreachable!("plan checked the load")
                    };
                    let src = plan.args[p].0.clone();
                    match src {
                        Opnd::Val(v)
                            if i.guard.is_none()
                                && f.values[v.idx()].ty == f.values[d.idx()].ty =>
                        {
                            subst[d.idx()] = Some(v);
                        }
                        src => insts.push(mov_inst(
                            f.values[d.idx()].ty,
                            d,
                            src,
                            i.guard,
                            std::mem::take(&mut i.old),
                        )),
                    }
                    continue;
                }
                if let Some(r) = formal_rets.iter().position(|&x| x == s) {
                    ret_vals[r].push((me, i.ops[1].clone()));
                    continue;
                }
            }
            i.ops.iter_mut().for_each(|o| rename_syms(o, &sym_map));
            insts.push(i);
        }
        nb.insts = insts;
        for t in nb.term.succs_mut() {
            t.0 += bbase;
        }
        if let Term::CondBr { pred, .. } = &mut nb.term {
            pred.0 += vbase;
        }
        if matches!(nb.term, Term::Ret { .. }) {
            nb.term = Term::Br {
                target: cont,
                mods: Mods::default(),
            };
        }
        new_blocks.push(nb);
    }
    // The return values, as values: an immediate gets a `mov` at the end
    // of its `ret` block; several `ret`s merge in a phi.
    let mut phis = Vec::new();
    let mut ret_value: Vec<Option<Value>> = vec![None; formal_rets.len()];
    let needed: FxHashSet<usize> = plan.ret_loads.iter().map(|&(_, r, _)| r).collect();
    for (r, vals) in ret_vals.iter().enumerate() {
        if !needed.contains(&r) {
            continue;
        }
        let ty = h.returns.as_ref().unwrap()[r]
            .scalar()
            .expect("plan checked a scalar");
        let ty = ty.bit_type();
        // Values of one type (a value of another register type of the
        // same width is copied into the bit type first).
        let first_ty = match &vals[0].1 {
            Opnd::Val(v) => Some(f.values[v.idx()].ty),
            _ => None,
        };
        let same = first_ty.is_some()
            && vals
                .iter()
                .all(|(_, o)| matches!(o, Opnd::Val(v) if Some(f.values[v.idx()].ty) == first_ty));
        let mut incoming = Vec::new();
        for (blk, o) in vals {
            let v = match o {
                Opnd::Val(v) if same => *v,
                o => {
                    let reg = f.values.first().map_or(f.name, |x| x.reg);
                    let v = f.new_value(reg, ty);
                    subst.push(None);
                    new_blocks[(blk.0 - bbase) as usize].insts.push(mov_inst(
                        ty,
                        v,
                        o.clone(),
                        None,
                        vec![],
                    ));
                    v
                }
            };
            incoming.push((*blk, v));
        }
        if incoming.len() == 1 {
            ret_value[r] = Some(incoming[0].1);
        } else {
            let reg = f.values.first().map_or(f.name, |x| x.reg);
            let v = f.new_value(reg, f.values[incoming[0].1.idx()].ty);
            subst.push(None);
            phis.push(Phi {
                dst: v,
                args: incoming,
            });
            ret_value[r] = Some(v);
        }
    }
    // Split the call block.
    let call_block = &mut f.blocks[b];
    let after: Vec<Inst> = call_block.insts.split_off(k + 1);
    call_block.insts.pop(); // the call
    let old_term = std::mem::replace(
        &mut call_block.term,
        Term::Br {
            target: BlockId(bbase),
            mods: Mods::default(),
        },
    );
    let store_idx: FxHashSet<usize> = plan.args.iter().map(|&(_, i)| i).collect();
    let mut keep = 0;
    call_block.insts.retain(|_| {
        let drop = store_idx.contains(&keep);
        keep += 1;
        !drop
    });
    let mut cont_insts = Vec::with_capacity(after.len());
    for (off, i) in after.into_iter().enumerate() {
        let idx = k + 1 + off;
        if let Some(&(_, r, d)) = plan.ret_loads.iter().find(|&&(ii, _, _)| ii == idx) {
            let v = ret_value[r].expect("a needed return value");
            if f.values[v.idx()].ty == f.values[d.idx()].ty {
                subst[d.idx()] = Some(v);
            } else {
                cont_insts.push(mov_inst(
                    f.values[d.idx()].ty,
                    d,
                    Opnd::Val(v),
                    None,
                    vec![],
                ));
            }
            continue;
        }
        cont_insts.push(i);
    }
    // Successors of the old block now come from the continuation.
    for s in old_term.succs() {
        for p in &mut f.blocks[s.idx()].phis {
            for (pb, _) in &mut p.args {
                if pb.idx() == b {
                    *pb = cont;
                }
            }
        }
    }
    f.blocks.extend(new_blocks);
    f.blocks.push(Block {
        phis,
        insts: cont_insts,
        term: old_term,
    });
    f.locals.retain(|d| !plan.names.contains(&d.name));
    debug_assert_eq!(nparams, plan.args.len());
    super::util::replace_all(f, &subst);
    true
}
