//! PTX register declarations to virtual registers, and the scoped name
//! bindings of a function (registers, parameters, variables).
//!
//! Every PTX register becomes virtual registers of the class its type
//! needs: `.pred` a virtual predicate; 8/16/32-bit types one 32-bit
//! register (narrow values are kept zero-extended: every write of a
//! narrow register clears the upper bits); 64-bit types an aligned pair
//! (low word first); `.b128` an aligned quad. A `%r<N>` declaration
//! allocates all N at once (the interpreter's numbering, decode.rs), and
//! inner `{ }` scopes shadow outer ones.

use rustc_hash::FxHashMap;

use crate::ptx::ast::VarDecl;
use crate::ptx::intern::Sym;
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
    /// of constant bank 4 (filled by the runner, [`super::GlobalVar`]).
    Global {
        slot: u32,
    },
    /// A module `.texref`/`.surfref`: its handle word is at this byte
    /// offset of constant bank 0 (res_ref.rs).
    ResourceRef {
        offset: u32,
    },
}

#[derive(Default)]
pub struct Scope {
    pub names: FxHashMap<Sym, Binding>,
    /// `%r<N>` declarations: prefix -> (count, type, first value).
    pub ranges: FxHashMap<String, (u32, ScalarType, Vec<Val>)>,
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

    /// Declares a register (or a `%r<N>` range).
    pub fn declare_reg(&mut self, b: &mut Builder, v: &VarDecl, name: &str, ty: ScalarType) {
        let sc = self.stack.last_mut().expect("a scope");
        match v.range {
            Some(n) => {
                let vals = (0..n).map(|_| Val::of_type(b, ty)).collect();
                sc.ranges.insert(name.to_string(), (n, ty, vals));
            }
            None => {
                let val = Val::of_type(b, ty);
                sc.names.insert(v.name, Binding::Reg { val, ty });
            }
        }
    }

    pub fn lookup(&self, s: Sym, name: &str) -> Option<Binding> {
        let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
        let split = (digits > 0 && digits < name.len()).then(|| name.split_at(name.len() - digits));
        for sc in self.stack.iter().rev() {
            if let Some(&b) = sc.names.get(&s) {
                return Some(b);
            }
            if let Some((prefix, num)) = split {
                if let Some((count, ty, vals)) = sc.ranges.get(prefix) {
                    if let Ok(k) = num.parse::<u32>() {
                        if k < *count && !(num.len() > 1 && num.starts_with('0')) {
                            return Some(Binding::Reg {
                                val: vals[k as usize],
                                ty: *ty,
                            });
                        }
                    }
                }
            }
        }
        None
    }
}
