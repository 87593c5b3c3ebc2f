//! nvopt SSA -> PTX AST (out of SSA), printed by `ptx::printer::print`.
//!
//! Every class of coalesced SSA values ([`super::coalesce`]) gets its own
//! register, declared per type as a range (`.reg .b32 %nvb32_<N>;`). Phis become copies on their incoming edges:
//! at the end of a predecessor with one successor, or in a new block on
//! the edge when the predecessor branches two ways (splitting the critical
//! edge, so a copy never runs on the other path: the "lost copy"
//! problem). The copies of one edge are a parallel copy, sequentialized
//! so no copy overwrites a register another still reads; a cycle (the
//! "swap" problem) goes through a fresh temporary.
//!
//! A guarded definition `d' = @p op ... [old]` prints as `mov d', old;
//! @p op d', ...`. An undefined value (a register read before any write)
//! that a copy reads is set to 0 at the entry, so the copy reads a
//! written register; where only real instructions read it (the input
//! reads an unwritten register) it stays unwritten, as in the input.

use super::ir::*;
use crate::ptx::ast::{self, Item, OperandKind, StateSpace, Statement, VarDecl, VarType};
use crate::ptx::intern::{Interner, Sym};
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::span::Span;
use crate::ptx::types::ScalarType;
use rustc_hash::FxHashMap;

struct Names<'a> {
    interner: &'a mut Interner,
    /// Per type: how many registers are declared.
    counts: FxHashMap<ScalarType, u32>,
    /// Value -> register name.
    of: Vec<Option<Sym>>,
    types: Vec<ScalarType>,
    /// Per value, its register class ([`super::coalesce::classes`]).
    rep: Vec<Value>,
}

impl Names<'_> {
    fn fresh(&mut self, ty: ScalarType) -> Sym {
        if !self.types.contains(&ty) {
            self.types.push(ty);
        }
        let c = self.counts.entry(ty).or_insert(0);
        let name = format!("%nv{}_{}", ty.name(), *c);
        *c += 1;
        self.interner.intern(&name)
    }

    fn val(&mut self, f: &Function, v: Value) -> Sym {
        let v = self.rep[v.idx()];
        if let Some(s) = self.of[v.idx()] {
            return s;
        }
        let s = self.fresh(f.values[v.idx()].ty);
        self.of[v.idx()] = Some(s);
        s
    }
}

fn op(kind: OperandKind) -> ast::Operand {
    ast::Operand {
        kind,
        span: Span::default(),
    }
}

fn instr(
    opcode: Opcode,
    mods: ast::Mods,
    guard: Option<ast::Guard>,
    ops: Vec<ast::Operand>,
) -> ast::Instruction {
    ast::Instruction {
        guard,
        opcode,
        mods,
        operands: ops.into_iter().collect(),
        op_span: Span::default(),
        span: Span::default(),
    }
}

/// The `mov` type for a register type: `.pred`, else the bit type.
fn mov_type(t: ScalarType) -> ScalarType {
    if t == ScalarType::Pred {
        t
    } else {
        t.bit_type()
    }
}

/// `setp.ne.u32 d, 0, 0`: a false predicate (no `mov.pred` from an
/// immediate exists).
fn pred_zero(d: Sym) -> Statement {
    let zero = || op(OperandKind::Imm(ast::Imm::int(0)));
    Statement::Instr(instr(
        Opcode::Setp,
        ast::Mods::from_slice(&[Mod::Ne, Mod::U32]),
        None,
        vec![op(OperandKind::Name(d)), zero(), zero()],
    ))
}

fn mov(d: Sym, s: OperandKind, ty: ScalarType) -> Statement {
    Statement::Instr(instr(
        Opcode::Mov,
        ast::Mods::from_slice(&[Mod::of_type(mov_type(ty))]),
        None,
        vec![op(OperandKind::Name(d)), op(s)],
    ))
}

fn conv(n: &mut Names, f: &Function, o: &Opnd) -> ast::Operand {
    op(match o {
        Opnd::Val(v) => OperandKind::Name(n.val(f, *v)),
        Opnd::Not(v) => OperandKind::Not(n.val(f, *v)),
        Opnd::Pair(a, b) => OperandKind::PredPair(n.val(f, *a), n.val(f, *b)),
        Opnd::Imm(i) => OperandKind::Imm(*i),
        Opnd::Sreg(r) => OperandKind::Special(*r),
        Opnd::Sym(s) => OperandKind::Name(*s),
        Opnd::SymOffset(s, k) => OperandKind::SymOffset(*s, *k),
        Opnd::Addr(a) => {
            let base = match a.base {
                AddrBase::Val(v) => ast::AddrBase::Name(n.val(f, v)),
                AddrBase::Sym(s) => ast::AddrBase::Name(s),
                AddrBase::None => ast::AddrBase::None,
            };
            OperandKind::Addr(Box::new(ast::Address {
                base,
                base_span: Span::default(),
                offset: a.offset,
                rest: a.rest.iter().map(|x| conv(n, f, x)).collect(),
            }))
        }
        Opnd::Vector(xs) => OperandKind::Vector(xs.iter().map(|x| conv(n, f, x)).collect()),
        Opnd::VectorPred(xs, p) => {
            OperandKind::VectorPred(xs.iter().map(|x| conv(n, f, x)).collect(), n.val(f, *p))
        }
        Opnd::Sink => OperandKind::Sink,
        Opnd::List(xs) => OperandKind::List(xs.iter().map(|x| conv(n, f, x)).collect()),
    })
}

/// Sequentializes a parallel copy `dsts[i] := srcs[i]` (distinct
/// destinations) into moves. `fresh` gives a temporary of a type.
pub fn sequentialize<T: Copy + PartialEq>(
    copies: &[(T, T)],
    mut fresh: impl FnMut(T) -> T,
) -> Vec<(T, T)> {
    let mut pending: Vec<(T, T)> = copies.iter().copied().filter(|(d, s)| d != s).collect();
    let mut out = Vec::new();
    while !pending.is_empty() {
        // A copy whose destination no pending copy still reads.
        if let Some(k) =
            (0..pending.len()).find(|&k| !pending.iter().any(|&(_, s)| s == pending[k].0))
        {
            out.push(pending.remove(k));
            continue;
        }
        // Every destination is still read: a cycle. Save one destination
        // in a temporary and let its readers read the temporary.
        let d = pending[0].0;
        let t = fresh(d);
        out.push((t, d));
        for c in &mut pending {
            if c.1 == d {
                c.1 = t;
            }
        }
    }
    out
}

/// Prints a lifted function back as a PTX function: `header` gives the
/// linkage, name, parameters and attributes; its body is replaced.
pub fn print_function(
    interner: &mut Interner,
    f: &Function,
    header: &ast::Function,
) -> ast::Function {
    let mut n = Names {
        interner,
        counts: FxHashMap::default(),
        of: vec![None; f.values.len()],
        types: Vec::new(),
        rep: super::coalesce::classes(f),
    };
    let nb = f.blocks.len();
    let labels: Vec<Sym> = (0..nb)
        .map(|b| n.interner.intern(&format!("$NVB{b}")))
        .collect();
    // Undefined values read by a copy (phi argument or old value).
    let mut init_undef: Vec<Value> = Vec::new();
    {
        let mut note = |v: Value| {
            if f.values[v.idx()].undef && !init_undef.contains(&v) {
                init_undef.push(v);
            }
        };
        for b in &f.blocks {
            for p in &b.phis {
                p.args.iter().for_each(|&(_, v)| note(v));
            }
            for i in &b.insts {
                i.old.iter().for_each(|&v| note(v));
            }
        }
    }
    let mut body: Vec<Statement> = Vec::new();
    let mut edge_blocks: Vec<Statement> = Vec::new();
    let mut edge_count = 0u32;
    // The parallel copy of edge b -> s, as moves.
    let edge_copies = |n: &mut Names, b: usize, s: BlockId| -> Vec<Statement> {
        let copies: Vec<(Value, Value)> = f.blocks[s.idx()]
            .phis
            .iter()
            .map(|p| {
                let a = p
                    .args
                    .iter()
                    .find(|(pb, _)| pb.idx() == b)
                    .map(|&(_, v)| v)
                    .expect("a phi has an argument for every predecessor");
                (p.dst, a)
            })
            .collect();
        let regs: Vec<(Sym, Sym)> = copies
            .iter()
            .map(|&(d, s)| (n.val(f, d), n.val(f, s)))
            .collect();
        let mut ty_of: FxHashMap<Sym, ScalarType> = FxHashMap::default();
        for &(d, s) in &copies {
            ty_of.insert(n.val(f, d), f.values[d.idx()].ty);
            ty_of.insert(n.val(f, s), f.values[s.idx()].ty);
        }
        let mut temps: Vec<(Sym, ScalarType)> = Vec::new();
        let seq = sequentialize(&regs, |d| {
            let t = ty_of[&d];
            let s = n.fresh(t);
            temps.push((s, t));
            s
        });
        for (s, t) in temps {
            ty_of.insert(s, t);
        }
        seq.into_iter()
            .map(|(d, s)| mov(d, OperandKind::Name(s), ty_of[&d]))
            .collect()
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        body.push(Statement::Label(labels[bi], Span::default()));
        if bi == 0 {
            for &v in &init_undef {
                let name = n.val(f, v);
                let ty = f.values[v.idx()].ty;
                if ty == ScalarType::Pred {
                    body.push(pred_zero(name));
                } else {
                    body.push(mov(name, OperandKind::Imm(ast::Imm::int(0)), ty));
                }
            }
        }
        for i in &b.insts {
            if i.guard.is_some() {
                for (d, &o) in i.defs().into_iter().zip(&i.old) {
                    let (dn, on) = (n.val(f, d), n.val(f, o));
                    if dn != on {
                        body.push(mov(dn, OperandKind::Name(on), f.values[d.idx()].ty));
                    }
                }
            }
            let guard = i.guard.map(|g| ast::Guard {
                reg: n.val(f, g.val),
                negated: g.negated,
                span: Span::default(),
            });
            let ops = i.ops.iter().map(|o| conv(&mut n, f, o)).collect();
            body.push(Statement::Instr(instr(i.op, i.mods, guard, ops)));
        }
        let next = bi + 1;
        let bra = |target: Sym, mods: ast::Mods, guard: Option<ast::Guard>| {
            Statement::Instr(instr(
                Opcode::Bra,
                mods,
                guard,
                vec![op(OperandKind::Name(target))],
            ))
        };
        match &b.term {
            Term::Br { target, mods } => {
                body.extend(edge_copies(&mut n, bi, *target));
                if target.idx() != next {
                    body.push(bra(labels[target.idx()], *mods, None));
                }
            }
            Term::CondBr {
                pred,
                negated,
                then_,
                else_,
                mods,
            } => {
                // Each successor with phis is reached through an edge block.
                let mut target = |n: &mut Names, s: BlockId| -> Sym {
                    let copies = edge_copies(n, bi, s);
                    if copies.is_empty() {
                        return labels[s.idx()];
                    }
                    let l = n.interner.intern(&format!("$NVE{edge_count}"));
                    edge_count += 1;
                    edge_blocks.push(Statement::Label(l, Span::default()));
                    edge_blocks.extend(copies);
                    edge_blocks.push(bra(labels[s.idx()], ast::Mods::default(), None));
                    l
                };
                let tl = target(&mut n, *then_);
                let el = if then_ == else_ {
                    tl
                } else {
                    target(&mut n, *else_)
                };
                let guard = ast::Guard {
                    reg: n.val(f, *pred),
                    negated: *negated,
                    span: Span::default(),
                };
                body.push(bra(tl, *mods, Some(guard)));
                let falls = next < nb && el == labels[next] && else_.idx() == next;
                if !falls {
                    body.push(bra(el, ast::Mods::default(), None));
                }
            }
            Term::Ret { mods } => {
                body.push(Statement::Instr(instr(Opcode::Ret, *mods, None, vec![])))
            }
            Term::Exit { mods } => {
                body.push(Statement::Instr(instr(Opcode::Exit, *mods, None, vec![])))
            }
            Term::Trap { mods } => {
                body.push(Statement::Instr(instr(Opcode::Trap, *mods, None, vec![])))
            }
        }
    }
    // Every block ends in an explicit transfer or falls to the next
    // block, so the edge blocks after the last one are reached only by
    // their branches.
    body.extend(edge_blocks);
    let mut stmts: Vec<Statement> = f
        .locals
        .iter()
        .map(|d| Statement::Decl(Box::new(d.clone())))
        .collect();
    let mut types = n.types.clone();
    types.sort_by_key(|t| t.name());
    for t in types {
        let count = n.counts[&t];
        let name = n.interner.intern(&format!("%nv{}_", t.name()));
        stmts.push(Statement::Decl(Box::new(VarDecl {
            linkage: ast::Linkage::None,
            space: StateSpace::Reg,
            align: None,
            ptr: None,
            vector: None,
            ty: VarType::Scalar(t),
            name,
            name_span: Span::default(),
            range: Some(count),
            dims: vec![],
            init: None,
            attributes: vec![],
            span: Span::default(),
        })));
    }
    stmts.extend(body);
    let mut out = header.clone();
    out.body = Some(ast::Block {
        stmts,
        span: Span::default(),
    });
    out
}

/// Replaces the body of item `idx` of `m` by the printed `f`.
pub fn replace_function(m: &mut ast::Module, idx: usize, f: &Function) {
    let Item::Function(header) = &m.items[idx] else {
        panic!("item {idx} is not a function");
    };
    let header = header.clone();
    let printed = print_function(&mut m.names, f, &header);
    m.items[idx] = Item::Function(printed);
}
