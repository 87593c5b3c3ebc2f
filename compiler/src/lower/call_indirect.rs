//! Function addresses and indirect calls through call prototypes (PTX ISA
//! 9.7.12.4: `mov.u64 %fp, f; ... call (r), %fp, (a), proto;` with `proto:
//! .callprototype (.param .b32 _) _ (.param .b32 _);`).
//!
//! ptxas 11.8 (measured, sm_70..sm_90, callees in the same module): the
//! address of `f` is the byte offset of `f`'s first instruction in the
//! kernel's code, high word 0 (`MOV R6, 0xf0 ; IMAD.MOV.U32 R7, RZ, RZ,
//! RZ`), and the call is `CALL.REL.NOINC R6 0x0` (the encoding's offset is
//! minus the next instruction's address, printed resolved as `RET`'s is),
//! after the same argument and return-address moves as a direct call. Here
//! the address is `MOV %r, .L_f` (the label of `f`'s first block, resolved
//! to its byte address as return addresses are) with high word 0, and
//! the call `CALL.REL.NOINC %fp 0x0` (the simulator jumps to the register's
//! address).
//!
//! DECISION (the value): the PTX interpreter's `mov.u64 %r, f` is
//! `ptx_interp::exec::FUNC_BASE + 16 x index` (its own numbering), the
//! compiled code's is a code address, as ptxas's: the two agree on what
//! an indirect call through the value does, not on the number. Programs
//! compared across the two must not observe it (store, compare or compute
//! with it); the generator emits no function addresses (oracle gen/call.rs:
//! direct calls only), and the tests (oracle/tests/lower_indirect_call.rs)
//! only call through it.
//!
//! ABI: every function whose address is taken (named outside a direct
//! call's target position) is called through one set of registers per
//! signature class (the parameters' and return values' state spaces,
//! types and sizes, [`Sig`]): a call through a pointer does not know its
//! callee, so the caller writes the class's parameter and return-address
//! registers and reads its return registers, whichever member runs. A
//! member copies the class registers into its own on entry, and its own
//! return values into the class's before each `RET` (a member may call
//! another member of its class). The candidates of an indirect call
//! (recursion checks, call heights) are the address-taken functions of the
//! prototype's class.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ptx::ast::{self, OperandKind, StateSpace, Statement};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;

/// A parameter or return value's state space, type and size: what a
/// caller through a pointer must agree on with the callee.
pub type Sig = (Vec<(bool, String, u32)>, Vec<(bool, String, u32)>);

fn decl_sig(ds: &[ast::VarDecl]) -> Vec<(bool, String, u32)> {
    ds.iter()
        .map(|d| {
            let ty = d.scalar().map(|t| format!("{t:?}")).unwrap_or_default();
            (d.space == StateSpace::Reg, ty, super::var_size_align(d).0)
        })
        .collect()
}

/// The signature class of a parameter and return list.
pub fn sig(params: &[ast::VarDecl], rets: Option<&[ast::VarDecl]>) -> Sig {
    (decl_sig(params), decl_sig(rets.unwrap_or(&[])))
}

/// The functions (with bodies) of the module whose address is taken: named
/// by an operand of anything but a direct call's target.
pub fn address_taken(m: &ast::Module) -> FxHashSet<Sym> {
    fn names(o: &ast::Operand, out: &mut Vec<Sym>) {
        match &o.kind {
            OperandKind::Name(s) | OperandKind::SymOffset(s, _) => out.push(*s),
            OperandKind::Vector(v) | OperandKind::List(v) => v.iter().for_each(|e| names(e, out)),
            _ => {}
        }
    }
    fn walk(m: &ast::Module, b: &ast::Block, out: &mut FxHashSet<Sym>) {
        for s in &b.stmts {
            match s {
                Statement::Instr(i) => {
                    let mut ns = Vec::new();
                    for (k, o) in i.operands.iter().enumerate() {
                        let direct_target = i.opcode == Opcode::Call
                            && matches!(o.kind, OperandKind::Name(_))
                            && i.operands[..k]
                                .iter()
                                .all(|p| matches!(p.kind, OperandKind::List(_)));
                        if !direct_target {
                            names(o, &mut ns);
                        }
                    }
                    for n in ns {
                        if m.function(m.name(n))
                            .is_some_and(|f| f.kind == ast::FuncKind::Func)
                        {
                            out.insert(n);
                        }
                    }
                }
                Statement::Block(inner) => walk(m, inner, out),
                _ => {}
            }
        }
    }
    let mut out = FxHashSet::default();
    for f in m.functions() {
        if let Some(b) = &f.body {
            walk(m, b, &mut out);
        }
    }
    out
}

/// The `.callprototype` labels of a body (nested blocks included) and
/// their signature classes.
pub fn prototypes(body: &ast::Block) -> FxHashMap<Sym, Sig> {
    fn walk(b: &ast::Block, out: &mut FxHashMap<Sym, Sig>) {
        for s in &b.stmts {
            match s {
                Statement::CallPrototype {
                    label,
                    returns,
                    params,
                    ..
                } => {
                    out.insert(*label, sig(params, returns.as_deref()));
                }
                Statement::Block(inner) => walk(inner, out),
                _ => {}
            }
        }
    }
    let mut out = FxHashMap::default();
    walk(body, &mut out);
    out
}

/// `call [(rets),] %fp, [(args),] proto`: the pointer register and the
/// prototype label, or `None` for a direct call.
pub fn indirect_parts(m: &ast::Module, i: &ast::Instruction) -> Option<(Sym, Option<Sym>)> {
    let mut it = i
        .operands
        .iter()
        .filter(|o| !matches!(o.kind, OperandKind::List(_)));
    let OperandKind::Name(t) = it.next()?.kind else {
        return None;
    };
    if m.function(m.name(t)).is_some() {
        return None;
    }
    let proto = it.next().and_then(|o| match o.kind {
        OperandKind::Name(p) => Some(p),
        _ => None,
    });
    Some((t, proto))
}

/// The functions an indirect call through prototype `proto` may reach:
/// the address-taken functions of its class, in module order.
pub fn candidates(
    m: &ast::Module,
    taken: &FxHashSet<Sym>,
    protos: &FxHashMap<Sym, Sig>,
    proto: Option<Sym>,
) -> Vec<Sym> {
    let Some(want) = proto.and_then(|p| protos.get(&p)) else {
        return Vec::new();
    };
    m.functions()
        .filter(|f| f.body.is_some() && taken.contains(&f.name))
        .filter(|f| &sig(&f.params, f.returns.as_deref()) == want)
        .map(|f| f.name)
        .collect()
}
