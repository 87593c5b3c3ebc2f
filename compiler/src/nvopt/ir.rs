//! The nvopt SSA form: one PTX function as a control-flow graph of basic
//! blocks whose instructions keep the front end's opcode and modifiers
//! (`ptx::isa::Opcode`, `ast::Mods`) and whose register operands are SSA
//! values. Memory stays memory: `ld`/`st`/`atom` keep their addresses and
//! state spaces, and `.param`/`.local`/`.shared` variables declared in the
//! body stay variables ([`Function::locals`]).
//!
//! Two PTX features that are not plain SSA are modelled explicitly:
//! - A guarded definition `@p add d, a, b` writes `d` only where `p` holds:
//!   it is a new value `d'` that merges with the old one. [`Inst::old`] holds,
//!   per definition, the value `d` had before; it is an ordinary use, so a
//!   pass that deletes the old value's definition sees it is still needed
//!   (semantics: `d' = p ? op(a, b) : old`).
//! - `add.cc`/`addc`/`subc`/`madc` communicate through the carry flag, an
//!   implicit register: such instructions count as having side effects
//!   ([`Inst::is_pure`] is false), so no pass deletes, moves or merges them.
//!
//! Which operands an instruction defines follows the PTX ISA's operand
//! order (chapter 9: the destination comes first) with the exceptions
//! listed in [`def_count`].

use crate::ptx::ast::{Imm, Mods, SpecialReg, VarDecl};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

/// An SSA value: an index into [`Function::values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A basic block: an index into [`Function::blocks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl Value {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

impl BlockId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// What the function knows about a value.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueInfo {
    /// The PTX register it came from (for names and diagnostics).
    pub reg: Sym,
    /// The register's declared type (copies and declarations use it).
    pub ty: ScalarType,
    /// The value of a register read before any write (no definition).
    pub undef: bool,
}

/// An instruction operand: the AST's operand shapes with every register
/// replaced by an SSA value.
#[derive(Clone, Debug, PartialEq)]
pub enum Opnd {
    Val(Value),
    /// `!%p` (a negated predicate source).
    Not(Value),
    /// `%p|%q`: two destinations (setp) or a value and a predicate (shfl).
    Pair(Value, Value),
    Imm(Imm),
    Sreg(SpecialReg),
    /// A variable or function name.
    Sym(Sym),
    /// `name+4` outside brackets.
    SymOffset(Sym, i64),
    Addr(Box<Address>),
    Vector(Vec<Opnd>),
    VectorPred(Vec<Opnd>, Value),
    Sink,
    List(Vec<Opnd>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum AddrBase {
    Val(Value),
    Sym(Sym),
    None,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    pub base: AddrBase,
    pub offset: i64,
    pub rest: Vec<Opnd>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub val: Value,
    pub negated: bool,
}

/// A non-terminator instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub op: Opcode,
    pub mods: Mods,
    pub guard: Option<Guard>,
    pub ops: Vec<Opnd>,
    /// For a guarded instruction: per definition (in [`Inst::defs`] order),
    /// the value the register held before. Empty when unguarded.
    pub old: Vec<Value>,
}

/// A block's last instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Br {
        target: BlockId,
        mods: Mods,
    },
    /// `@[!]pred bra then`, else fall to `else_`.
    CondBr {
        pred: Value,
        negated: bool,
        then_: BlockId,
        else_: BlockId,
        mods: Mods,
    },
    Ret {
        mods: Mods,
    },
    Exit {
        mods: Mods,
    },
    Trap {
        mods: Mods,
    },
}

impl Term {
    pub fn succs(&self) -> Vec<BlockId> {
        match *self {
            Term::Br { target, .. } => vec![target],
            Term::CondBr { then_, else_, .. } => {
                if then_ == else_ {
                    vec![then_]
                } else {
                    vec![then_, else_]
                }
            }
            _ => vec![],
        }
    }

    pub fn succs_mut(&mut self) -> Vec<&mut BlockId> {
        match self {
            Term::Br { target, .. } => vec![target],
            Term::CondBr { then_, else_, .. } => vec![then_, else_],
            _ => vec![],
        }
    }

    pub fn uses(&self) -> Option<Value> {
        match *self {
            Term::CondBr { pred, .. } => Some(pred),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Phi {
    pub dst: Value,
    /// One incoming value per predecessor edge.
    pub args: Vec<(BlockId, Value)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub phis: Vec<Phi>,
    pub insts: Vec<Inst>,
    pub term: Term,
}

/// One lifted function. `blocks[0]` is the entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Sym,
    pub blocks: Vec<Block>,
    pub values: Vec<ValueInfo>,
    /// Non-register variables declared in the body (nested scopes
    /// flattened, names made unique), printed at the top of the body.
    pub locals: Vec<VarDecl>,
}

impl Function {
    pub fn new_value(&mut self, reg: Sym, ty: ScalarType) -> Value {
        self.values.push(ValueInfo {
            reg,
            ty,
            undef: false,
        });
        Value(self.values.len() as u32 - 1)
    }

    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.idx()]
    }

    /// Predecessor lists (with an edge listed once per distinct successor).
    pub fn preds(&self) -> Vec<Vec<BlockId>> {
        let mut p = vec![Vec::new(); self.blocks.len()];
        for (i, b) in self.blocks.iter().enumerate() {
            for s in b.term.succs() {
                p[s.idx()].push(BlockId(i as u32));
            }
        }
        p
    }

    /// Blocks reachable from the entry, in reverse post-order.
    pub fn rpo(&self) -> Vec<BlockId> {
        let n = self.blocks.len();
        let mut seen = vec![false; n];
        let mut post = Vec::with_capacity(n);
        let mut stack: Vec<(BlockId, usize)> = vec![(BlockId(0), 0)];
        seen[0] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            let succs = self.blocks[b.idx()].term.succs();
            if *i < succs.len() {
                let s = succs[*i];
                *i += 1;
                if !seen[s.idx()] {
                    seen[s.idx()] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post.reverse();
        post
    }

    /// How many times each value is used (instructions, guards, old
    /// values, phis, terminators).
    pub fn use_counts(&self) -> Vec<u32> {
        let mut n = vec![0u32; self.values.len()];
        for b in &self.blocks {
            for p in &b.phis {
                for &(_, v) in &p.args {
                    n[v.idx()] += 1;
                }
            }
            for i in &b.insts {
                i.for_each_use(|v| n[v.idx()] += 1);
            }
            if let Some(v) = b.term.uses() {
                n[v.idx()] += 1;
            }
        }
        n
    }

    /// Replaces every use of `from` by `to` (phis, instructions, guards,
    /// old values, terminators). Definitions are untouched.
    pub fn replace_uses(&mut self, from: Value, to: Value) {
        let f = |v: &mut Value| {
            if *v == from {
                *v = to;
            }
        };
        for b in &mut self.blocks {
            for p in &mut b.phis {
                for (_, v) in &mut p.args {
                    f(v);
                }
            }
            for i in &mut b.insts {
                i.for_each_use_mut(f);
            }
            if let Term::CondBr { pred, .. } = &mut b.term {
                f(pred);
            }
        }
    }
}

/// How many leading operands an instruction defines, and whether operand
/// 0 is a destination at all (PTX ISA chapter 9: destinations first).
/// Exceptions: stores, reductions, barriers without `.red`, fences,
/// prefetches, surface stores/reductions and control flow define nothing;
/// `call` defines the registers of its first list when it has one.
pub fn defines_first(op: Opcode, mods: &Mods, ops: &[Opnd]) -> bool {
    use Opcode::*;
    match op {
        St | Red | Membar | Fence | Prefetch | Prefetchu | Sust | Sured | Pmevent | Nanosleep
        | Brkpt | Bra | Brx | Ret | Exit | Trap => false,
        Bar | Barrier => mods.contains(Mod::Red),
        Call => ops.len() >= 2 && matches!(ops.first(), Some(Opnd::List(_))),
        _ => !ops.is_empty(),
    }
}

/// Appends the values an operand in a definition position defines.
fn opnd_defs(o: &Opnd, out: &mut Vec<Value>) {
    match o {
        Opnd::Val(v) => out.push(*v),
        Opnd::Pair(a, b) => {
            out.push(*a);
            out.push(*b);
        }
        Opnd::Vector(xs) | Opnd::List(xs) => xs.iter().for_each(|x| opnd_defs(x, out)),
        Opnd::VectorPred(xs, p) => {
            xs.iter().for_each(|x| opnd_defs(x, out));
            out.push(*p);
        }
        _ => {}
    }
}

fn opnd_defs_mut<'a>(o: &'a mut Opnd, out: &mut Vec<&'a mut Value>) {
    match o {
        Opnd::Val(v) => out.push(v),
        Opnd::Pair(a, b) => {
            out.push(a);
            out.push(b);
        }
        Opnd::Vector(xs) | Opnd::List(xs) => xs.iter_mut().for_each(|x| opnd_defs_mut(x, out)),
        Opnd::VectorPred(xs, p) => {
            xs.iter_mut().for_each(|x| opnd_defs_mut(x, out));
            out.push(p);
        }
        _ => {}
    }
}

/// Calls `f` on every value an operand in a use position reads.
pub fn opnd_uses(o: &Opnd, f: &mut impl FnMut(Value)) {
    match o {
        Opnd::Val(v) | Opnd::Not(v) => f(*v),
        Opnd::Pair(a, b) => {
            f(*a);
            f(*b);
        }
        Opnd::Addr(a) => {
            if let AddrBase::Val(v) = a.base {
                f(v);
            }
            a.rest.iter().for_each(|x| opnd_uses(x, f));
        }
        Opnd::Vector(xs) | Opnd::List(xs) => xs.iter().for_each(|x| opnd_uses(x, f)),
        Opnd::VectorPred(xs, p) => {
            xs.iter().for_each(|x| opnd_uses(x, f));
            f(*p);
        }
        _ => {}
    }
}

pub fn opnd_uses_mut(o: &mut Opnd, f: &mut impl FnMut(&mut Value)) {
    match o {
        Opnd::Val(v) | Opnd::Not(v) => f(v),
        Opnd::Pair(a, b) => {
            f(a);
            f(b);
        }
        Opnd::Addr(a) => {
            if let AddrBase::Val(v) = &mut a.base {
                f(v);
            }
            a.rest.iter_mut().for_each(|x| opnd_uses_mut(x, f));
        }
        Opnd::Vector(xs) | Opnd::List(xs) => xs.iter_mut().for_each(|x| opnd_uses_mut(x, f)),
        Opnd::VectorPred(xs, p) => {
            xs.iter_mut().for_each(|x| opnd_uses_mut(x, f));
            f(p);
        }
        _ => {}
    }
}

/// Special registers whose value is fixed for a thread for the whole
/// launch (PTX ISA chapter 10); `%clock`, `%globaltimer`, `%warpid`,
/// `%smid` and the performance counters may change between reads.
pub fn sreg_is_invariant(r: SpecialReg) -> bool {
    use SpecialReg::*;
    matches!(
        r,
        Tid(_)
            | Ntid(_)
            | Ctaid(_)
            | Nctaid(_)
            | ClusterId(_)
            | NclusterId(_)
            | ClusterCtaid(_)
            | ClusterNctaid(_)
            | ClusterCtarank
            | ClusterNctarank
            | IsExplicitCluster
            | Laneid
            | Gridid
            | LanemaskEq
            | LanemaskLe
            | LanemaskLt
            | LanemaskGe
            | LanemaskGt
            | TotalSmemSize
            | AggrSmemSize
            | DynamicSmemSize
    )
}

impl Inst {
    /// Defined values, in operand order.
    pub fn defs(&self) -> Vec<Value> {
        let mut out = Vec::new();
        if defines_first(self.op, &self.mods, &self.ops) {
            opnd_defs(&self.ops[0], &mut out);
        }
        out
    }

    pub fn defs_mut(&mut self) -> Vec<&mut Value> {
        let mut out = Vec::new();
        if defines_first(self.op, &self.mods, &self.ops) {
            opnd_defs_mut(&mut self.ops[0], &mut out);
        }
        out
    }

    /// The source operands (everything but the destination operand).
    pub fn srcs(&self) -> &[Opnd] {
        if defines_first(self.op, &self.mods, &self.ops) {
            &self.ops[1..]
        } else {
            &self.ops
        }
    }

    pub fn srcs_mut(&mut self) -> &mut [Opnd] {
        if defines_first(self.op, &self.mods, &self.ops) {
            &mut self.ops[1..]
        } else {
            &mut self.ops
        }
    }

    /// Every value read: sources, the guard, and the old values of a
    /// guarded definition. A vector destination element that is an
    /// address (none in PTX) would also count; destinations never do.
    pub fn for_each_use(&self, mut f: impl FnMut(Value)) {
        let first_def = defines_first(self.op, &self.mods, &self.ops);
        for (k, o) in self.ops.iter().enumerate() {
            if !(k == 0 && first_def) {
                opnd_uses(o, &mut f);
            }
        }
        if let Some(g) = self.guard {
            f(g.val);
        }
        self.old.iter().for_each(|&v| f(v));
    }

    pub fn for_each_use_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        let first_def = defines_first(self.op, &self.mods, &self.ops);
        for (k, o) in self.ops.iter_mut().enumerate() {
            if !(k == 0 && first_def) {
                opnd_uses_mut(o, &mut f);
            }
        }
        if let Some(g) = &mut self.guard {
            f(&mut g.val);
        }
        self.old.iter_mut().for_each(f);
    }

    pub fn has(&self, m: Mod) -> bool {
        self.mods.contains(m)
    }

    /// The last type modifier (the operation type for most opcodes).
    pub fn ty(&self) -> Option<ScalarType> {
        self.mods.iter().filter_map(|m| m.as_type()).last()
    }

    /// No effect besides writing its destinations, and the same result for
    /// the same operands anywhere in the function: no memory, no carry
    /// flag, no warp-level or timing dependence. The set is a whitelist;
    /// anything not listed is kept. Integer `div`/`rem` are pure (PTX
    /// defines no trap; division by zero gives an unspecified value) but
    /// [`Inst::may_trap_or_undef`] keeps them from being hoisted.
    pub fn is_pure(&self) -> bool {
        use Opcode::*;
        if self.has(Mod::Cc) {
            return false;
        }
        let op_ok = matches!(
            self.op,
            Add | Sub
                | Mul
                | Mad
                | Mul24
                | Mad24
                | Sad
                | Div
                | Rem
                | Abs
                | Neg
                | Min
                | Max
                | Popc
                | Clz
                | Bfind
                | Brev
                | Bfe
                | Bfi
                | Bmsk
                | Szext
                | Dp4a
                | Dp2a
                | Fma
                | Rcp
                | Sqrt
                | Rsqrt
                | Sin
                | Cos
                | Lg2
                | Ex2
                | Tanh
                | Testp
                | Copysign
                | Set
                | Setp
                | Selp
                | Slct
                | And
                | Or
                | Xor
                | Not
                | Cnot
                | Lop3
                | Shf
                | Shl
                | Shr
                | Mov
                | Prmt
                | Cvt
                | Cvta
                | Isspacep
        );
        if !op_ok {
            return false;
        }
        let mut ok = true;
        for o in self.srcs() {
            check_pure_opnd(o, &mut ok);
        }
        ok
    }

    /// Integer division and remainder give an undefined result for a zero
    /// divisor; keep them under their guards and control flow.
    pub fn may_trap_or_undef(&self) -> bool {
        matches!(self.op, Opcode::Div | Opcode::Rem) && self.ty().is_some_and(|t| t.is_int())
    }
}

fn check_pure_opnd(o: &Opnd, ok: &mut bool) {
    match o {
        Opnd::Sreg(r) if !sreg_is_invariant(*r) => *ok = false,
        Opnd::Addr(_) => *ok = false,
        Opnd::Vector(xs) | Opnd::List(xs) | Opnd::VectorPred(xs, _) => {
            xs.iter().for_each(|x| check_pure_opnd(x, ok))
        }
        _ => {}
    }
}
