//! PTX register declarations to virtual registers, and the scoped name
//! bindings of a function (registers, parameters, variables).
//!
//! Every PTX register becomes virtual registers of the class its type
//! needs: `.pred` a virtual predicate; 8/16/32-bit types one 32-bit
//! register (narrow values are kept zero-extended: every write of a
//! narrow register clears the upper bits); 64-bit types an aligned pair
//! (low word first); `.b128` an aligned quad. A `%r<N>` declaration
//! allocates, in member order, the members that the module names at all
//! ([`NumberedNames`]: the others can be neither read nor written, and
//! `%r<2000000000>` must not ask for two billion registers); inner `{ }`
//! scopes shadow outer ones.
//!
//! A vector register (`.reg .v4 .b32 %v;`, PTX ISA 5.2.4 "Vectors" and
//! 6.4.2 "Vector Operands") is its N components, each exactly a register
//! of the element type ([`Binding::VecReg`]): `%v.x`/`%v.r` (and `.y/.g`,
//! `.z/.b`, `.w/.a`) name component 0..3 wherever a scalar register may
//! appear, and the whole register stands for the `{%v.x, %v.y, ...}`
//! vector operand of `ld`/`st`/`tex`/`suld`/`sust` ([`super::Cx::vector_items`]).
//! ptxas 11.8 does the same: `st.global.v4.b32 [%rd2], %v` after writing
//! the components is one `STG.E.128 [R2.64], R4` of the four component
//! registers (sm_80, measured). ptxas 11.8 refuses a component inside a
//! call's argument list ("Parsing error near '.z'"); here it is the
//! operand of a `.reg` parameter like any register.

use rustc_hash::FxHashMap;

use crate::ptx::ast::VarDecl;
use crate::ptx::intern::{NumberedNames, Sym};
use crate::ptx::types::ScalarType;

use super::builder::Builder;

/// Where a PTX register lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// A virtual predicate.
    P(u32),
    /// One 32-bit register (also 8/16-bit values, zero-extended).
    R(u32),
    /// An aligned pair: the low register.
    D(u32),
    /// An aligned quad: the first register.
    Q(u32),
}

impl Val {
    pub fn of_type(b: &mut Builder, ty: ScalarType) -> Val {
        match ty.bits() {
            1 => Val::P(b.vpred()),
            8 | 16 | 32 => Val::R(b.vreg()),
            64 => Val::D(b.vpair()),
            _ => Val::Q(b.valigned(4)),
        }
    }

    /// The registers holding the value, low word first.
    pub fn words(self) -> Vec<u32> {
        match self {
            Val::P(_) => vec![],
            Val::R(v) => vec![v],
            Val::D(v) => vec![v, v + 1],
            Val::Q(v) => vec![v, v + 1, v + 2, v + 3],
        }
    }
}

/// What a name means inside a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Reg {
        val: Val,
        ty: ScalarType,
    },
    /// A kernel parameter at this byte offset of the parameter block.
    KernelParam {
        offset: u32,
        size: u32,
    },
    /// A `.func` parameter, return value, or a caller's `.param` argument
    /// variable: its bytes live in consecutive 32-bit virtual registers.
    ParamWords {
        first: u32,
        words: u32,
    },
    /// A `.local` variable at this offset of the function's frame (from R1).
    Local {
        offset: u32,
    },
    /// A `.shared` variable at this CTA shared-memory address.
    Shared {
        addr: u32,
    },
    /// A `.const` variable at this offset of constant bank 3.
    Const {
        offset: u32,
    },
    /// A module `.global` variable: its 64-bit address is at this offset
    /// of constant bank 4 (filled by the runner, [`GlobalVar`](crate::targets::abi::GlobalVar)).
    Global {
        slot: u32,
    },
    /// A vector register (`.reg .vN .type`): component k is `comps[k]`
    /// (k < `n`), a register of type `ty` each.
    VecReg {
        comps: [Val; 4],
        n: u8,
        ty: ScalarType,
    },
    /// A module `.texref`/`.surfref`: its handle word is at this byte
    /// offset of constant bank 0 (res_ref.rs).
    ResourceRef {
        offset: u32,
        kind: crate::targets::abi::RefKind,
    },
}

#[derive(Default)]
pub struct Scope {
    pub names: FxHashMap<Sym, Binding>,
    /// The named members of the scope's `%r<N>` declarations. A plain
    /// declaration of the same name in the scope (`names`) wins.
    pub members: FxHashMap<Sym, Binding>,
}

#[derive(Default)]
pub struct Scopes {
    pub stack: Vec<Scope>,
}

impl Scopes {
    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    pub fn pop(&mut self) {
        self.stack.pop();
    }

    pub fn bind(&mut self, s: Sym, b: Binding) {
        self.stack.last_mut().expect("a scope").names.insert(s, b);
    }

    /// Declares a register (or the named members of a `%r<N>` range),
    /// scalar or vector (`vector`: the `.vN` width).
    pub fn declare_reg(
        &mut self,
        b: &mut Builder,
        numbered: &NumberedNames,
        v: &VarDecl,
        name: &str,
        ty: ScalarType,
    ) {
        let one = |b: &mut Builder| match v.vector {
            Some(n) => {
                let mut comps = [Val::R(0); 4];
                for c in comps.iter_mut().take(usize::from(n)) {
                    *c = Val::of_type(b, ty);
                }
                Binding::VecReg { comps, n, ty }
            }
            None => Binding::Reg {
                val: Val::of_type(b, ty),
                ty,
            },
        };
        let sc = self.stack.last_mut().expect("a scope");
        match v.range {
            Some(n) => {
                for &(_, member) in numbered.members(name, n) {
                    let reg = one(b);
                    sc.members.insert(member, reg);
                }
            }
            None => {
                let reg = one(b);
                sc.names.insert(v.name, reg);
            }
        }
    }

    pub fn lookup(&self, s: Sym) -> Option<Binding> {
        self.stack
            .iter()
            .rev()
            .find_map(|sc| sc.names.get(&s).or_else(|| sc.members.get(&s)).copied())
    }
}
