//! The PTX abstract syntax tree. Faithful to the text: it keeps every
//! directive, declaration, label, instruction modifier (in source order) and
//! operand, with spans, so the printer can write the module back and
//! `parse(print(m)) == m` up to spans.

use super::intern::{Interner, Sym};
use super::isa::Opcode;
use super::modifiers::Mod;
use super::span::Span;
use super::types::ScalarType;
use crate::targets::PtxVersion;

#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub version: Option<(PtxVersion, Span)>,
    /// `.target` entries in order, e.g. `sm_70`, `texmode_independent`, `debug`.
    pub targets: Vec<(Sym, Span)>,
    pub address_size: Option<(u32, Span)>,
    pub items: Vec<Item>,
    pub names: Interner,
}

impl Module {
    pub fn name(&self, s: Sym) -> &str {
        self.names.name(s)
    }

    /// The first `.target` that names an SM (`sm_XX`).
    pub fn sm_target(&self) -> Option<(&str, Span)> {
        self.targets
            .iter()
            .map(|&(s, sp)| (self.name(s), sp))
            .find(|(n, _)| n.starts_with("sm_"))
    }

    /// 64 unless `.address_size 32` (PTX ISA 11.1.4: the default is 32 when
    /// the directive is absent; every real producer writes it).
    pub fn address_bits(&self) -> u32 {
        self.address_size.map(|(n, _)| n).unwrap_or(32)
    }

    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            _ => None,
        })
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        let sym = self.names.get(name)?;
        self.functions().find(|f| f.name == sym && f.body.is_some())
    }

    pub fn globals(&self) -> impl Iterator<Item = &VarDecl> {
        self.items.iter().filter_map(|i| match i {
            Item::Var(v) => Some(v),
            _ => None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Var(VarDecl),
    Function(Function),
    /// `.file N "name" [, timestamp, size]`
    File {
        index: u32,
        name: String,
        extra: Vec<u64>,
        span: Span,
    },
    /// `.section NAME { ... }`: debug sections, kept verbatim.
    Section {
        name: String,
        body: String,
        span: Span,
    },
    /// A module-level `.pragma "...";`.
    Pragma {
        text: String,
        span: Span,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    None,
    Visible,
    Extern,
    Weak,
    Common,
}

impl Linkage {
    pub fn text(self) -> Option<&'static str> {
        match self {
            Linkage::None => None,
            Linkage::Visible => Some(".visible"),
            Linkage::Extern => Some(".extern"),
            Linkage::Weak => Some(".weak"),
            Linkage::Common => Some(".common"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    Entry,
    Func,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub linkage: Linkage,
    pub kind: FuncKind,
    pub name: Sym,
    pub name_span: Span,
    /// `.func (.reg .b32 r) f(...)`: return parameters (`.func` only).
    pub returns: Option<Vec<VarDecl>>,
    pub params: Vec<VarDecl>,
    /// `.noreturn` and performance directives, in order.
    pub attrs: Vec<FuncAttr>,
    /// None for a declaration (prototype) without a body.
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FuncAttr {
    Noreturn,
    MaxNtid(Vec<u32>),
    ReqNtid(Vec<u32>),
    MinNctaPerSm(u32),
    MaxNctaPerSm(u32),
    MaxNreg(u32),
    /// `.explicitcluster`, `.reqnctapercluster`, `.maxclusterrank` (PTX 7.8, sm_90).
    ExplicitCluster,
    ReqNctaPerCluster(Vec<u32>),
    MaxClusterRank(u32),
    Pragma(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateSpace {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    Tex,
}

impl StateSpace {
    pub fn text(self) -> &'static str {
        match self {
            StateSpace::Reg => ".reg",
            StateSpace::Sreg => ".sreg",
            StateSpace::Const => ".const",
            StateSpace::Global => ".global",
            StateSpace::Local => ".local",
            StateSpace::Param => ".param",
            StateSpace::Shared => ".shared",
            StateSpace::Tex => ".tex",
        }
    }
}

/// The type of a variable: a scalar or one of the opaque handle types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarType {
    Scalar(ScalarType),
    Texref,
    Samplerref,
    Surfref,
}

/// A variable, register or parameter declaration:
/// `[linkage] space [.ptr .space .align N] [.align N] [.vN] type name[<N>][dims] [= init];`
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub linkage: Linkage,
    pub space: StateSpace,
    pub align: Option<u32>,
    /// `.param .u64 .ptr .global .align 16 p` (kernel parameters).
    pub ptr: Option<PtrAttr>,
    /// Vector width for `.v2`/`.v4`/`.v8` variables.
    pub vector: Option<u8>,
    pub ty: VarType,
    pub name: Sym,
    pub name_span: Span,
    /// `%r<46>` declares `%r0 .. %r45`.
    pub range: Option<u32>,
    /// Array dimensions; `None` for an unsized `[]` (extern shared, or sized by the initializer).
    pub dims: Vec<Option<u64>>,
    pub init: Option<Init>,
    /// `.attribute(.managed)` and similar, kept verbatim.
    pub attributes: Vec<String>,
    pub span: Span,
}

impl VarDecl {
    pub fn scalar(&self) -> Option<ScalarType> {
        match self.ty {
            VarType::Scalar(t) => Some(t),
            _ => None,
        }
    }

    /// Number of elements (product of the dimensions, times the vector width); None if unsized.
    pub fn element_count(&self) -> Option<u64> {
        let mut n: u64 = self.vector.map(u64::from).unwrap_or(1);
        for d in &self.dims {
            n = n.checked_mul((*d)?)?;
        }
        Some(n)
    }

    /// Bytes and alignment as every layout places the variable: element
    /// size (8 for the opaque types) times the element count, 0 for an
    /// unsized `[]`; `.align`, else element size times vector width, at
    /// least 1. `None` when the size overflows 64 bits (the validator
    /// refuses 4 GiB and more: validate/sizes.rs).
    pub fn size_align(&self) -> Option<(u64, u64)> {
        let elem = match self.ty {
            VarType::Scalar(t) => u64::from(t.bytes()),
            _ => 8,
        };
        let align = self
            .align
            .map_or(elem * u64::from(self.vector.unwrap_or(1)), u64::from)
            .max(1);
        if self.dims.iter().any(Option::is_none) {
            return Some((0, align));
        }
        Some((self.element_count()?.checked_mul(elem)?, align))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrAttr {
    pub space: Option<StateSpace>,
    pub align: Option<u32>,
}

/// Initializers of module-scope variables (PTX ISA 5.4.4).
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Int(i128),
    F32(u32),
    F64(u64),
    /// A decimal float literal, kept as written (value as f64 bits).
    Float(u64),
    /// Address of a variable or function, `generic(v)` when `generic`, plus an offset.
    Addr {
        sym: Sym,
        generic: bool,
        offset: i64,
    },
    List(Vec<Init>),
    /// `{ addr_mode_0 = clamp_to_edge, filter_mode = nearest }`: sampler and
    /// texture reference fields (PTX ISA 5.3.3).
    Fields(Vec<(String, String)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Statement>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Decl(Box<VarDecl>),
    Label(Sym, Span),
    Instr(Instruction),
    Block(Block),
    /// `.pragma "nounroll";`
    Pragma(String, Span),
    /// `.loc file line col [, extra...]`, kept verbatim after the directive.
    Loc(String, Span),
    /// `label: .branchtargets L1, L2, ...;`
    BranchTargets {
        label: Sym,
        targets: Vec<(Sym, Span)>,
        span: Span,
    },
    /// `label: .callprototype (ret) _ (params);`, kept as parsed declarations.
    CallPrototype {
        label: Sym,
        returns: Option<Box<[VarDecl]>>,
        params: Box<[VarDecl]>,
        noreturn: bool,
        span: Span,
    },
}

/// `@%p` or `@!%p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub reg: Sym,
    pub negated: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    pub opcode: Opcode,
    /// Modifiers in source order (types included).
    pub mods: Mods,
    /// Inline for up to three operands (most instructions): no allocation.
    pub operands: Operands,
    /// Span of the opcode token (`add.s32`), used for opcode-level errors.
    pub op_span: Span,
    pub span: Span,
}

impl Instruction {
    pub fn has(&self, m: Mod) -> bool {
        self.mods.contains(m)
    }

    /// The type modifiers in order (`cvt.f32.s32` gives [f32, s32]).
    pub fn types(&self) -> impl Iterator<Item = ScalarType> + '_ {
        self.mods.iter().filter_map(|m| m.as_type())
    }

    /// The last type modifier: the instruction's operand type for most opcodes.
    pub fn ty(&self) -> Option<ScalarType> {
        self.types().last()
    }
}

/// Modifiers stored inline (no instruction in PTX carries more than this many).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Mods {
    len: u8,
    items: [Option<Mod>; Mods::CAP],
}

impl Mods {
    pub const CAP: usize = 14;

    /// Appends a modifier; false if the list is full.
    pub fn push(&mut self, m: Mod) -> bool {
        if (self.len as usize) < Self::CAP {
            self.items[self.len as usize] = Some(m);
            self.len += 1;
            true
        } else {
            false
        }
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = Mod> + '_ {
        self.items[..self.len as usize].iter().map(|m| m.unwrap())
    }

    pub fn contains(&self, m: Mod) -> bool {
        self.iter().any(|x| x == m)
    }

    pub fn from_slice(ms: &[Mod]) -> Mods {
        let mut out = Mods::default();
        for &m in ms {
            out.push(m);
        }
        out
    }
}

impl std::fmt::Debug for Mods {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An instruction's operand list.
pub type Operands = smallvec::SmallVec<[Operand; 3]>;

#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind {
    /// A register, variable, function or label name.
    Name(Sym),
    /// `%v.x` component of a vector register.
    Component(Sym, u8),
    /// `!%p`.
    Not(Sym),
    /// `%p|%q` (setp's two destinations).
    PredPair(Sym, Sym),
    Special(SpecialReg),
    Imm(Imm),
    /// `name+4` outside brackets (address of a variable plus offset).
    SymOffset(Sym, i64),
    Addr(Box<Address>),
    /// `{a, b, ...}`.
    Vector(Box<[Operand]>),
    /// `{a, b, ...}|%p`: a vector result plus a predicate (tex residency).
    VectorPred(Box<[Operand]>, Sym),
    /// `_` (sink).
    Sink,
    /// `(a, b, ...)` argument lists of `call`.
    List(Box<[Operand]>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Imm {
    /// An integer literal: magnitude and sign (so both `-1` and
    /// `0xFFFFFFFFFFFFFFFF` are exact); `unsigned` when written with `U`.
    Int {
        magnitude: u64,
        negative: bool,
        unsigned: bool,
    },
    /// `0fXXXXXXXX`.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX`.
    F64(u64),
    /// A decimal float literal (`1.5`, `2e-3`), as f64 bits.
    Float(u64),
}

impl Imm {
    /// An integer literal's value.
    pub fn int(value: i128) -> Imm {
        Imm::Int {
            magnitude: value.unsigned_abs() as u64,
            negative: value < 0,
            unsigned: false,
        }
    }

    /// The value of an integer literal.
    pub fn int_value(&self) -> Option<i128> {
        match *self {
            Imm::Int {
                magnitude,
                negative,
                ..
            } => Some(if negative {
                -(magnitude as i128)
            } else {
                magnitude as i128
            }),
            _ => None,
        }
    }
}

/// `[base+offset]`, or for textures and surfaces `[handle, sampler?, {coords}]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    pub base: AddrBase,
    /// Span of the base name or number.
    pub base_span: Span,
    pub offset: i64,
    /// Further comma-separated elements (texture coordinates and samplers).
    pub rest: Vec<Operand>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AddrBase {
    /// A register or variable name.
    Name(Sym),
    /// An absolute address `[0x100]`.
    None,
}

/// Special registers (PTX ISA chapter 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    Tid(Dim),
    Ntid(Dim),
    Ctaid(Dim),
    Nctaid(Dim),
    ClusterId(Dim),
    NclusterId(Dim),
    ClusterCtaid(Dim),
    ClusterNctaid(Dim),
    ClusterCtarank,
    ClusterNctarank,
    IsExplicitCluster,
    Laneid,
    Warpid,
    Nwarpid,
    Smid,
    Nsmid,
    Gridid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
    Clock,
    ClockHi,
    Clock64,
    Globaltimer,
    GlobaltimerLo,
    GlobaltimerHi,
    TotalSmemSize,
    AggrSmemSize,
    DynamicSmemSize,
    Pm(u8),
    Pm64(u8),
    Envreg(u8),
    ReservedSmemOffsetBegin,
    ReservedSmemOffsetEnd,
    ReservedSmemOffsetCap,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    X,
    Y,
    Z,
}
