//! The interpreter's executable form: each function's instructions in a flat
//! array, registers as numbered slots, labels as instruction indices, and
//! variables as resolved locations. Decoding once means the run loop never
//! looks at names or the AST (issue 3: "pre-decode the AST into a compact
//! executable form rather than walking it").

pub use super::fast::FastInst;
use ptxc::float::Rounding;
use ptxc::ptx::ast::SpecialReg;
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

/// The set of modifiers an instruction carries, as a bitset for O(1) tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModSet([u64; 3]);

impl ModSet {
    pub fn insert(&mut self, m: Mod) {
        let i = m as usize;
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn has(&self, m: Mod) -> bool {
        let i = m as usize;
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

/// A memory state space as the interpreter addresses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Generic,
    Global,
    Shared,
    Local,
    Const,
    /// Kernel parameters (the launch's parameter block).
    KernelParam,
    /// A function's `.param` variables and parameters: per call frame, kept
    /// in the thread's local memory.
    FrameParam,
}

/// A variable's location, resolved at decode time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarRef {
    pub space: Space,
    /// Global: absolute address. Shared, Const, KernelParam: offset in that
    /// space. Local, FrameParam: offset from the current frame's base.
    pub offset: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AddrBase {
    /// A register holding an address in the instruction's space.
    Reg(u32),
    /// A variable (its location).
    Var(VarRef),
    /// A texture or surface reference variable (handle value).
    Handle(u64),
    /// An absolute address.
    Abs,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Opnd {
    Reg(u32),
    /// A predicate register, negated when `neg` (`!%p`).
    Pred {
        slot: u32,
        neg: bool,
    },
    /// An immediate already converted to the operand's type (its bits).
    Imm(u64),
    Sreg(SpecialReg),
    /// `[base + offset]` plus texture extras (sampler, coordinates).
    Addr {
        base: AddrBase,
        offset: i64,
        rest: Box<[Opnd]>,
    },
    /// The address of a variable as a value (`mov.u64 %rd, var`).
    VarAddr(VarRef, i64),
    /// A function's address (`mov.u64 %rd, func`): its index.
    FuncAddr(u32),
    Vector(Box<[Opnd]>),
    /// `{...}|%p`
    VectorPred(Box<[Opnd]>, u32),
    /// `%d|%p`: a register and a predicate destination.
    RegPred(u32, u32),
    Label(u32),
    /// A function (call target).
    Func(u32),
    /// Call argument and return lists.
    List(Box<[Opnd]>),
    /// A `.branchtargets` table.
    Targets(Box<[u32]>),
    Sink,
}

/// Which executor handles an instruction, decided once at decode time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Control,
    Collective,
    Memory,
    Texture,
    Float,
    FloatCompare,
    Convert,
    Int,
    /// Executes as a no-op (fences, prefetches, `nanosleep`, `pmevent`).
    Nop,
}

impl Class {
    pub fn of(op: Opcode, ty: ScalarType, ty2: ScalarType) -> Class {
        use Opcode::*;
        match op {
            Bra | Brx | Call | Ret | Exit | Trap => Class::Control,
            Brkpt | Nanosleep | Pmevent | Membar | Fence | Prefetch | Prefetchu => Class::Nop,
            Bar | Barrier | Vote | Shfl | Match | Redux | Activemask => Class::Collective,
            Ld | Ldu | St | Atom | Red | Cvta | Isspacep | Mov => Class::Memory,
            Tex | Tld4 | Txq | Suld | Sust | Sured | Suq | Istypep => Class::Texture,
            Cvt => Class::Convert,
            Setp if ty.is_float() => Class::FloatCompare,
            Set | Slct if ty2.is_float() => Class::FloatCompare,
            Testp | Copysign | Fma | Rcp | Sqrt | Rsqrt | Sin | Cos | Lg2 | Ex2 | Tanh => {
                Class::Float
            }
            Add | Sub | Mul | Mad | Div | Min | Max | Abs | Neg if ty.is_float() => Class::Float,
            _ => Class::Int,
        }
    }
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    pub op: Opcode,
    pub class: Class,
    pub mods: ModSet,
    /// The instruction's type (the last type modifier; `cvt`: the destination).
    pub ty: ScalarType,
    /// A second type where the opcode has one (`cvt`/`set`/`slct` source, `dp4a` b).
    pub ty2: ScalarType,
    /// Float rounding (`.rn` ... and the integer `.rni` ... mapped onto the same four).
    pub rnd: Option<Rounding>,
    /// The state space of a memory instruction.
    pub space: Space,
    /// Vector width of `ld`/`st` (1 when scalar).
    pub vec: u8,
    /// Guard predicate slot and negation.
    pub guard: Option<(u32, bool)>,
    pub ops: Vec<Opnd>,
    /// 1-based PTX source line.
    pub line: u32,
    /// The instruction as PTX text (for fault and UB reports).
    pub text: Box<str>,
}

/// A `.func` parameter: a `.reg` parameter's register slot, or a `.param`
/// parameter's offset in the frame and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    Reg(u32),
    Mem { offset: u64, size: u64 },
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub insts: Vec<Inst>,
    /// Register slots used by the function.
    pub nregs: u32,
    /// Names of the register slots (for uninitialized-read reports).
    pub reg_names: Vec<Box<str>>,
    /// Bytes of per-frame local memory (`.local` variables and `.param`
    /// variables and parameters of a `.func`).
    pub frame_bytes: u64,
    /// The parameters of a `.func`, in declaration order (none for a
    /// kernel: its parameters are the launch's).
    pub params: Vec<Param>,
    /// `.param` return values: offsets in the frame and sizes.
    pub ret_slots: Vec<(u64, u64)>,
    /// `.reg` returns: register slots.
    pub reg_rets: Vec<u32>,
    /// The instructions' fast forms (`fast`), by pc.
    pub fast: Vec<FastInst>,
    /// A new frame's registers: zero, except the constant slots of the fast
    /// forms; and which are written (the constant slots).
    pub init_regs: Vec<u64>,
    pub init_written: Vec<u8>,
}

/// A decoded module, ready to run one kernel.
#[derive(Clone, Debug)]
pub struct Program {
    pub funcs: Vec<Function>,
    pub entry: u32,
    /// Module `.global` variables: start address and initial bytes.
    pub globals_base: u64,
    pub globals: Vec<u8>,
    /// Module `.const` variables (constant bank).
    pub consts: Vec<u8>,
    /// Static `.shared` bytes per CTA (dynamic shared memory follows).
    pub static_shared: u64,
    /// Module-level `.texref` variables: name and handle.
    pub texrefs: Vec<(String, u64)>,
    pub addr64: bool,
}
