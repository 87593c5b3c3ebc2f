//! PTX function -> nvopt SSA ([`super::ir`]).
//!
//! 1. Flatten the body: nested `{ }` scopes go away; their non-register
//!    declarations (`.param` call arguments, `.local`, `.shared`) become
//!    function-level [`Function::locals`], renamed where a name repeats or
//!    shadows a module or parameter name. `.loc` and body pragmas are
//!    dropped (they carry no semantics the interpreter or back end reads).
//! 2. Cut basic blocks at labels and after control transfers. A guarded
//!    `ret`/`exit`/`trap` becomes a conditional branch to a block holding
//!    it; falling off the end of the body is a `ret`. Unreachable blocks
//!    are dropped.
//! 3. Build SSA: phis at the iterated dominance frontiers of each
//!    register's definitions (Cytron et al., 1991), renaming along the
//!    dominator tree; phis whose value no instruction reads are pruned.
//!
//! Constructs the SSA form does not model are refused with a
//! [`LiftError`] (the caller leaves such a function untouched): vector
//! registers and their components, `brx.idx` with `.branchtargets`,
//! `.callprototype`, and `.reg` parameters of a `.func`.

use super::ir::*;
use crate::ptx::ast::{self, OperandKind, StateSpace, Statement, VarType};
use crate::ptx::intern::{split_numbered, Interner, Sym};
use crate::ptx::isa::Opcode;
use crate::ptx::types::ScalarType;
use rustc_hash::{FxHashMap, FxHashSet};

/// Why a function was not lifted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftError(pub String);

impl std::fmt::Display for LiftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(s: impl Into<String>) -> Result<T, LiftError> {
    Err(LiftError(s.into()))
}

/// Registers of the function before SSA: an index per distinct name.
#[derive(Default)]
struct Regs {
    /// Exactly declared names.
    named: FxHashMap<String, ScalarType>,
    /// `%r<N>` ranges: prefix -> (count, type).
    ranges: FxHashMap<String, (u32, ScalarType)>,
    ids: FxHashMap<Sym, u32>,
    info: Vec<(Sym, ScalarType)>,
}

impl Regs {
    fn ty_of(&self, name: &str) -> Option<ScalarType> {
        if let Some(&t) = self.named.get(name) {
            return Some(t);
        }
        let (prefix, k) = split_numbered(name)?;
        self.ranges
            .get(prefix)
            .and_then(|&(n, t)| (k < n).then_some(t))
    }

    fn id(&mut self, names: &Interner, s: Sym) -> Option<u32> {
        if let Some(&i) = self.ids.get(&s) {
            return Some(i);
        }
        let t = self.ty_of(names.name(s))?;
        let i = self.info.len() as u32;
        self.info.push((s, t));
        self.ids.insert(s, i);
        Some(i)
    }
}

/// A flattened body element.
enum Item {
    Label(Sym),
    Instr(ast::Instruction),
}

struct Flattener<'a> {
    names: &'a mut Interner,
    taken: FxHashSet<Sym>,
    scopes: Vec<FxHashMap<Sym, Sym>>,
    regs: Regs,
    locals: Vec<ast::VarDecl>,
    items: Vec<Item>,
}

impl Flattener<'_> {
    fn block(&mut self, b: &ast::Block) -> Result<(), LiftError> {
        self.scopes.push(FxHashMap::default());
        for s in &b.stmts {
            match s {
                Statement::Decl(d) => self.decl(d)?,
                Statement::Label(l, _) => self.items.push(Item::Label(*l)),
                Statement::Instr(i) => {
                    let mut i = i.clone();
                    self.rename_instr(&mut i);
                    self.items.push(Item::Instr(i));
                }
                Statement::Block(inner) => self.block(inner)?,
                Statement::Pragma(..) | Statement::Loc(..) => {}
                Statement::BranchTargets { .. } => return err("`.branchtargets` is not supported"),
                Statement::CallPrototype { .. } => return err("`.callprototype` is not supported"),
            }
        }
        self.scopes.pop();
        Ok(())
    }

    fn decl(&mut self, d: &ast::VarDecl) -> Result<(), LiftError> {
        if d.space == StateSpace::Reg {
            if d.vector.is_some() {
                return err("vector registers are not supported");
            }
            let VarType::Scalar(t) = d.ty else {
                return err("non-scalar register");
            };
            if t.bits() < 16 && t != ScalarType::Pred {
                return err("8-bit registers are not supported");
            }
            let mut name = self.names.name(d.name).to_string();
            match d.range {
                Some(n) => {
                    if self.regs.ranges.contains_key(&name) {
                        return err(format!("register range {name} declared twice"));
                    }
                    self.regs.ranges.insert(name, (n, t));
                }
                None => {
                    // A register declared again (an inner scope shadowing an
                    // outer one, as in clang's inline-asm blocks) is a
                    // different register: give it a fresh name.
                    if self.regs.named.contains_key(&name) || self.regs.ty_of(&name).is_some() {
                        let base = name.clone();
                        let mut k = 0;
                        loop {
                            name = format!("{base}_nvs{k}");
                            if self.names.get(&name).is_none() {
                                break;
                            }
                            k += 1;
                        }
                        let new = self.names.intern(&name);
                        self.scopes.last_mut().unwrap().insert(d.name, new);
                    }
                    self.regs.named.insert(name, t);
                }
            }
            return Ok(());
        }
        let mut d = d.clone();
        let orig = d.name;
        if self.taken.contains(&orig) {
            let base = self.names.name(orig).to_string();
            let mut k = 0;
            loop {
                let cand = format!("{base}_nv{k}");
                if self.names.get(&cand).is_none() {
                    d.name = self.names.intern(&cand);
                    break;
                }
                k += 1;
            }
        }
        self.taken.insert(d.name);
        self.scopes.last_mut().unwrap().insert(orig, d.name);
        self.locals.push(d);
        Ok(())
    }

    fn resolve(&self, s: Sym) -> Sym {
        for sc in self.scopes.iter().rev() {
            if let Some(&n) = sc.get(&s) {
                return n;
            }
        }
        s
    }

    fn rename_instr(&self, i: &mut ast::Instruction) {
        if let Some(g) = &mut i.guard {
            g.reg = self.resolve(g.reg);
        }
        for o in i.operands.iter_mut() {
            self.rename_opnd(&mut o.kind);
        }
    }

    fn rename_opnd(&self, k: &mut OperandKind) {
        match k {
            OperandKind::Name(s) | OperandKind::SymOffset(s, _) | OperandKind::Not(s) => {
                *s = self.resolve(*s)
            }
            OperandKind::PredPair(a, b) => {
                *a = self.resolve(*a);
                *b = self.resolve(*b);
            }
            OperandKind::Addr(a) => {
                if let ast::AddrBase::Name(s) = &mut a.base {
                    *s = self.resolve(*s);
                }
                for r in &mut a.rest {
                    self.rename_opnd(&mut r.kind);
                }
            }
            OperandKind::Vector(xs) | OperandKind::List(xs) => {
                for x in xs.iter_mut() {
                    self.rename_opnd(&mut x.kind);
                }
            }
            OperandKind::VectorPred(xs, p) => {
                *p = self.resolve(*p);
                for x in xs.iter_mut() {
                    self.rename_opnd(&mut x.kind);
                }
            }
            _ => {}
        }
    }
}

/// A terminator before labels are resolved.
enum PTerm {
    Br(Sym, ast::Mods),
    CondBr(Guard, Sym, ast::Mods),
    Other(Term),
    CondOther(Guard, Term),
    Fall,
}

/// Lifts one function with a body. `names` is the module's interner (new
/// local names are added to it); `module_names` are the module-level
/// symbols a local must not shadow.
pub fn lift(
    names: &mut Interner,
    module_names: &FxHashSet<Sym>,
    f: &ast::Function,
) -> Result<Function, LiftError> {
    let Some(body) = &f.body else {
        return err("declaration without a body");
    };
    let mut taken = module_names.clone();
    for p in f.params.iter().chain(f.returns.iter().flatten()) {
        if p.space == StateSpace::Reg {
            return err("`.reg` parameters are not supported");
        }
        taken.insert(p.name);
    }
    let mut fl = Flattener {
        names,
        taken,
        scopes: Vec::new(),
        regs: Regs::default(),
        locals: Vec::new(),
        items: Vec::new(),
    };
    fl.block(body)?;
    let Flattener {
        names,
        mut regs,
        locals,
        items,
        ..
    } = fl;
    let names: &Interner = names;

    // Pass 1: blocks with pending terminators.
    let mut raw: Vec<(Vec<Inst>, Option<PTerm>)> = vec![(Vec::new(), None)];
    let mut label_block: FxHashMap<Sym, usize> = FxHashMap::default();
    for it in items {
        match it {
            Item::Label(l) => {
                let cur = raw.last_mut().unwrap();
                if !cur.0.is_empty() || cur.1.is_some() {
                    if cur.1.is_none() {
                        cur.1 = Some(PTerm::Fall);
                    }
                    raw.push((Vec::new(), None));
                }
                label_block.insert(l, raw.len() - 1);
            }
            Item::Instr(i) => {
                if raw.last().unwrap().1.is_some() {
                    raw.push((Vec::new(), None));
                }
                let guard = match i.guard {
                    Some(g) => {
                        let Some(r) = regs.id(names, g.reg) else {
                            return err(format!("guard {} is not a register", names.name(g.reg)));
                        };
                        Some(Guard {
                            val: Value(r),
                            negated: g.negated,
                        })
                    }
                    None => None,
                };
                let cur = raw.last_mut().unwrap();
                let mods = i.mods;
                let term = match i.opcode {
                    Opcode::Bra => {
                        let Some(OperandKind::Name(l)) = i.operands.first().map(|o| &o.kind) else {
                            return err("bra without a label");
                        };
                        Some(match guard {
                            Some(g) => PTerm::CondBr(g, *l, mods),
                            None => PTerm::Br(*l, mods),
                        })
                    }
                    Opcode::Brx => return err("brx.idx is not supported"),
                    Opcode::Ret | Opcode::Exit | Opcode::Trap => {
                        let t = match i.opcode {
                            Opcode::Ret => Term::Ret { mods },
                            Opcode::Exit => Term::Exit { mods },
                            _ => Term::Trap { mods },
                        };
                        Some(match guard {
                            Some(g) => PTerm::CondOther(g, t),
                            None => PTerm::Other(t),
                        })
                    }
                    _ => None,
                };
                match term {
                    Some(t) => cur.1 = Some(t),
                    None => {
                        let mut ops = Vec::with_capacity(i.operands.len());
                        for o in &i.operands {
                            ops.push(conv(&mut regs, names, &o.kind)?);
                        }
                        cur.0.push(Inst {
                            op: i.opcode,
                            mods,
                            guard,
                            ops,
                            old: Vec::new(),
                        });
                    }
                }
            }
        }
    }
    // Pass 2: resolve labels; fall-through and guarded returns.
    let n = raw.len();
    let mut blocks: Vec<Block> = Vec::with_capacity(n + 4);
    let mut extra: Vec<Block> = Vec::new();
    let ret = || Term::Ret {
        mods: ast::Mods::default(),
    };
    let mut need_end = false;
    let lookup = |l: Sym| -> Result<BlockId, LiftError> {
        label_block
            .get(&l)
            .map(|&b| BlockId(b as u32))
            .ok_or_else(|| LiftError(format!("unknown label {}", names.name(l))))
    };
    for (k, (insts, t)) in raw.into_iter().enumerate() {
        let next = BlockId(k as u32 + 1);
        let falls = |need: &mut bool| {
            if k + 1 == n {
                *need = true;
            }
            next
        };
        let term = match t {
            None | Some(PTerm::Fall) => Term::Br {
                target: falls(&mut need_end),
                mods: ast::Mods::default(),
            },
            Some(PTerm::Br(l, mods)) => Term::Br {
                target: lookup(l)?,
                mods,
            },
            Some(PTerm::CondBr(g, l, mods)) => Term::CondBr {
                pred: g.val,
                negated: g.negated,
                then_: lookup(l)?,
                else_: falls(&mut need_end),
                mods,
            },
            Some(PTerm::Other(t)) => t,
            Some(PTerm::CondOther(g, t)) => {
                extra.push(Block {
                    phis: vec![],
                    insts: vec![],
                    term: t,
                });
                Term::CondBr {
                    pred: g.val,
                    negated: g.negated,
                    then_: BlockId(u32::MAX - (extra.len() as u32 - 1)),
                    else_: falls(&mut need_end),
                    mods: ast::Mods::default(),
                }
            }
        };
        blocks.push(Block {
            phis: vec![],
            insts,
            term,
        });
    }
    if need_end {
        blocks.push(Block {
            phis: vec![],
            insts: vec![],
            term: ret(),
        });
    }
    let base = blocks.len() as u32;
    for b in &mut blocks {
        for s in b.term.succs_mut() {
            if s.0 > u32::MAX / 2 {
                *s = BlockId(base + (u32::MAX - s.0));
            }
        }
    }
    blocks.extend(extra);

    let mut func = Function {
        name: f.name,
        blocks,
        values: regs
            .info
            .iter()
            .map(|&(reg, ty)| ValueInfo {
                reg,
                ty,
                undef: false,
            })
            .collect(),
        locals,
    };
    remove_unreachable(&mut func);
    // The entry must have no predecessors (a phi there would miss the
    // function-entry edge): give a loop back to the first instruction its
    // own header.
    if func.preds()[0].is_empty() {
    } else {
        for b in &mut func.blocks {
            for s in b.term.succs_mut() {
                s.0 += 1;
            }
        }
        func.blocks.insert(
            0,
            Block {
                phis: vec![],
                insts: vec![],
                term: Term::Br {
                    target: BlockId(1),
                    mods: ast::Mods::default(),
                },
            },
        );
    }
    build_ssa(&mut func);
    Ok(func)
}

fn reg_val(regs: &mut Regs, names: &Interner, s: Sym) -> Result<Value, LiftError> {
    regs.id(names, s)
        .map(Value)
        .ok_or_else(|| LiftError(format!("{} is not a register", names.name(s))))
}

fn conv(regs: &mut Regs, names: &Interner, k: &OperandKind) -> Result<Opnd, LiftError> {
    Ok(match k {
        OperandKind::Name(s) => match regs.id(names, *s) {
            Some(r) => Opnd::Val(Value(r)),
            None => Opnd::Sym(*s),
        },
        OperandKind::Component(..) => return err("vector register components are not supported"),
        OperandKind::Not(s) => Opnd::Not(reg_val(regs, names, *s)?),
        OperandKind::PredPair(a, b) => {
            Opnd::Pair(reg_val(regs, names, *a)?, reg_val(regs, names, *b)?)
        }
        OperandKind::Special(r) => Opnd::Sreg(*r),
        OperandKind::Imm(i) => Opnd::Imm(*i),
        OperandKind::SymOffset(s, o) => Opnd::SymOffset(*s, *o),
        OperandKind::Addr(a) => {
            let base = match a.base {
                ast::AddrBase::Name(s) => match regs.id(names, s) {
                    Some(r) => AddrBase::Val(Value(r)),
                    None => AddrBase::Sym(s),
                },
                ast::AddrBase::None => AddrBase::None,
            };
            let mut rest = Vec::new();
            for r in &a.rest {
                rest.push(conv(regs, names, &r.kind)?);
            }
            Opnd::Addr(Box::new(Address {
                base,
                offset: a.offset,
                rest,
            }))
        }
        OperandKind::Vector(xs) => Opnd::Vector(conv_list(regs, names, xs)?),
        OperandKind::VectorPred(xs, p) => {
            Opnd::VectorPred(conv_list(regs, names, xs)?, reg_val(regs, names, *p)?)
        }
        OperandKind::Sink => Opnd::Sink,
        OperandKind::List(xs) => Opnd::List(conv_list(regs, names, xs)?),
    })
}

fn conv_list(
    regs: &mut Regs,
    names: &Interner,
    xs: &[ast::Operand],
) -> Result<Vec<Opnd>, LiftError> {
    xs.iter().map(|x| conv(regs, names, &x.kind)).collect()
}

/// Drops blocks not reachable from the entry and renumbers the rest
/// (entry stays 0; layout order kept). Phi arguments from dropped blocks
/// are removed.
pub fn remove_unreachable(f: &mut Function) {
    let rpo = f.rpo();
    let mut reach = vec![false; f.blocks.len()];
    for b in &rpo {
        reach[b.idx()] = true;
    }
    if reach.iter().all(|&r| r) {
        return;
    }
    let mut map = vec![u32::MAX; f.blocks.len()];
    let mut k = 0;
    for (i, &r) in reach.iter().enumerate() {
        if r {
            map[i] = k;
            k += 1;
        }
    }
    let old = std::mem::take(&mut f.blocks);
    for (i, mut b) in old.into_iter().enumerate() {
        if !reach[i] {
            continue;
        }
        for s in b.term.succs_mut() {
            *s = BlockId(map[s.idx()]);
        }
        for p in &mut b.phis {
            p.args.retain(|(pb, _)| reach[pb.idx()]);
            for (pb, _) in &mut p.args {
                *pb = BlockId(map[pb.idx()]);
            }
        }
        f.blocks.push(b);
    }
}

/// Whether block `a` dominates block `b` (`idom` from [`idoms`]; an
/// unreachable `b` is dominated by nothing but itself).
pub fn dominates(idom: &[Option<BlockId>], a: BlockId, mut b: BlockId) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b.idx()] {
            Some(d) if d != b => b = d,
            _ => return false,
        }
    }
}

/// Immediate dominators (Cooper, Harvey, Kennedy) of the reachable
/// blocks; the entry's idom is itself, unreachable blocks get `None`.
pub fn idoms(f: &Function) -> Vec<Option<BlockId>> {
    let rpo = f.rpo();
    let n = f.blocks.len();
    let mut order = vec![usize::MAX; n];
    for (k, b) in rpo.iter().enumerate() {
        order[b.idx()] = k;
    }
    let preds = f.preds();
    let mut idom: Vec<Option<BlockId>> = vec![None; n];
    idom[0] = Some(BlockId(0));
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let mut new: Option<BlockId> = None;
            for &p in &preds[b.idx()] {
                if idom[p.idx()].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut c = p;
                        while a != c {
                            while order[a.idx()] > order[c.idx()] {
                                a = idom[a.idx()].unwrap();
                            }
                            while order[c.idx()] > order[a.idx()] {
                                c = idom[c.idx()].unwrap();
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[b.idx()] != new {
                idom[b.idx()] = new;
                changed = true;
            }
        }
    }
    idom
}

/// Rewrites a function whose values are registers (value i = register i,
/// every block's phis empty) into SSA form.
fn build_ssa(f: &mut Function) {
    let n = f.blocks.len();
    let nregs = f.values.len();
    let idom = idoms(f);
    let preds = f.preds();
    // Dominance frontiers.
    let mut df: Vec<Vec<BlockId>> = vec![Vec::new(); n];
    for b in 0..n {
        if preds[b].len() < 2 {
            continue;
        }
        let Some(ib) = idom[b] else { continue };
        for &p in &preds[b] {
            let mut r = p;
            while r != ib && idom[r.idx()].is_some() {
                if !df[r.idx()].contains(&BlockId(b as u32)) {
                    df[r.idx()].push(BlockId(b as u32));
                }
                if r.idx() == 0 {
                    break;
                }
                r = idom[r.idx()].unwrap();
            }
        }
    }
    // Definition sites.
    let mut defsites: Vec<Vec<usize>> = vec![Vec::new(); nregs];
    for (bi, b) in f.blocks.iter().enumerate() {
        for i in &b.insts {
            for d in i.defs() {
                if defsites[d.idx()].last() != Some(&bi) {
                    defsites[d.idx()].push(bi);
                }
            }
        }
    }
    // Phi placement: phi_regs[b] = registers with a phi at b.
    let mut phi_regs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (r, sites) in defsites.iter().enumerate() {
        let mut has = vec![false; n];
        let mut work: Vec<usize> = sites.clone();
        let mut queued = vec![false; n];
        for &s in sites {
            queued[s] = true;
        }
        while let Some(b) = work.pop() {
            for &y in &df[b] {
                if !has[y.idx()] {
                    has[y.idx()] = true;
                    phi_regs[y.idx()].push(r);
                    if !queued[y.idx()] {
                        queued[y.idx()] = true;
                        work.push(y.idx());
                    }
                }
            }
        }
    }
    // Renaming along the dominator tree.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, d) in idom.iter().enumerate().skip(1) {
        if let Some(d) = d {
            children[d.idx()].push(b);
        }
    }
    let reg_info: Vec<(Sym, ScalarType)> = f.values.iter().map(|v| (v.reg, v.ty)).collect();
    f.values.clear();
    let mut undef: Vec<Option<Value>> = vec![None; nregs];
    let mut stacks: Vec<Vec<Value>> = vec![Vec::new(); nregs];
    // Phi destinations, created up front so edges can fill arguments.
    let mut phi_dst: Vec<Vec<Value>> = vec![Vec::new(); n];
    for b in 0..n {
        for &r in &phi_regs[b] {
            let v = f.new_value(reg_info[r].0, reg_info[r].1);
            phi_dst[b].push(v);
        }
        f.blocks[b].phis = phi_dst[b]
            .iter()
            .map(|&dst| Phi { dst, args: vec![] })
            .collect();
    }
    let top =
        |stacks: &Vec<Vec<Value>>, undef: &mut Vec<Option<Value>>, f: &mut Function, r: usize| {
            if let Some(&v) = stacks[r].last() {
                return v;
            }
            *undef[r].get_or_insert_with(|| {
                let v = f.new_value(reg_info[r].0, reg_info[r].1);
                f.values[v.idx()].undef = true;
                v
            })
        };
    enum Step {
        Enter(usize),
        Leave(Vec<usize>),
    }
    let mut work = vec![Step::Enter(0)];
    while let Some(step) = work.pop() {
        let b = match step {
            Step::Leave(pushed) => {
                for r in pushed {
                    stacks[r].pop();
                }
                continue;
            }
            Step::Enter(b) => b,
        };
        let mut pushed = Vec::new();
        for (k, &r) in phi_regs[b].iter().enumerate() {
            stacks[r].push(phi_dst[b][k]);
            pushed.push(r);
        }
        let mut insts = std::mem::take(&mut f.blocks[b].insts);
        for inst in &mut insts {
            inst.for_each_use_mut(|v| *v = top(&stacks, &mut undef, f, v.idx()));
            let def_regs: Vec<usize> = inst.defs().iter().map(|v| v.idx()).collect();
            if inst.guard.is_some() {
                inst.old = def_regs
                    .iter()
                    .map(|&r| top(&stacks, &mut undef, f, r))
                    .collect();
            }
            for (d, &r) in inst.defs_mut().into_iter().zip(&def_regs) {
                let v = f.new_value(reg_info[r].0, reg_info[r].1);
                *d = v;
                stacks[r].push(v);
                pushed.push(r);
            }
        }
        f.blocks[b].insts = insts;
        if let Term::CondBr { pred, .. } = f.blocks[b].term {
            let v = top(&stacks, &mut undef, f, pred.idx());
            if let Term::CondBr { pred, .. } = &mut f.blocks[b].term {
                *pred = v;
            }
        }
        for s in f.blocks[b].term.succs() {
            for (k, &r) in phi_regs[s.idx()].iter().enumerate() {
                let v = top(&stacks, &mut undef, f, r);
                f.blocks[s.idx()].phis[k].args.push((BlockId(b as u32), v));
            }
        }
        work.push(Step::Leave(pushed));
        for &c in children[b].iter().rev() {
            work.push(Step::Enter(c));
        }
    }
    prune_dead_phis(f);
}

/// Removes phis whose value reaches no instruction or terminator (only
/// other dead phis).
pub fn prune_dead_phis(f: &mut Function) {
    let nv = f.values.len();
    let mut live = vec![false; nv];
    let mut phi_of: Vec<Option<(usize, usize)>> = vec![None; nv];
    for (bi, b) in f.blocks.iter().enumerate() {
        for (pi, p) in b.phis.iter().enumerate() {
            phi_of[p.dst.idx()] = Some((bi, pi));
        }
    }
    let mut work = Vec::new();
    for b in &f.blocks {
        for i in &b.insts {
            i.for_each_use(|v| work.push(v));
        }
        if let Some(v) = b.term.uses() {
            work.push(v);
        }
    }
    while let Some(v) = work.pop() {
        if live[v.idx()] {
            continue;
        }
        live[v.idx()] = true;
        if let Some((bi, pi)) = phi_of[v.idx()] {
            for &(_, a) in &f.blocks[bi].phis[pi].args {
                work.push(a);
            }
        }
    }
    for b in &mut f.blocks {
        b.phis.retain(|p| live[p.dst.idx()]);
    }
}
