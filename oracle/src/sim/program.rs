//! Decoding: a [`Function`] becomes a [`Program`] once per launch, each
//! instruction a [`DInst`] whose [`Kind`] holds pre-resolved operands
//! (register indices, immediates, constant-bank values), so the hot loop
//! never looks at strings. Anything the simulator cannot execute faithfully
//! decodes to [`Kind::Fault`], which faults (naming pc, lane and text) only
//! if it is executed.

use std::sync::Arc;

use ptxc::ir::atom_reach::{generic_reach, reach_type_mod, shared_has, Reach};
use ptxc::ir::opcode::Category;
use ptxc::ir::sass_text::{ConstRef, MemRef, Pred, Reg, RegOperand};
use ptxc::ir::{Function, Inst, Op, Operand};
use ptxc::targets::SmInfo;

use super::cbank::Banks;
use super::exec::float::{self, FInst};
use super::regs::RegMap;
use super::semantics::HalfSel;
use super::undecoded;
use crate::ptx_interp::semantics::atomic::{AtomOp, AtomTy};

/// A 32-bit source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    R(u32),
    U(u32),
    Imm(u32),
}

/// How a float immediate is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmTy {
    F32,
    F64,
    F16,
    /// An integer context: a float immediate is refused.
    Int,
}

/// The bits of a float immediate as cuobjdump prints it: decimal text,
/// `+INF`, `-QNAN`, ... (`QNAN` is the default quiet NaN: f32 0x7fc00000,
/// as in the encoding of `MUFU.RSQ R7, -QNAN`, 0xffc00000).
pub fn parse_imm(t: &str, ty: ImmTy) -> DResult<u64> {
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (exp_all, frac_q, sign) = match ty {
        ImmTy::F32 => (0x7f80_0000u64, 0x0040_0000u64, 1u64 << 31),
        ImmTy::F64 => (0x7ff0_0000_0000_0000, 0x0008_0000_0000_0000, 1 << 63),
        ImmTy::F16 => (0x7c00, 0x0200, 0x8000),
        ImmTy::Int => return Err(format!("float immediate {t} in an integer operation")),
    };
    let s = if neg { sign } else { 0 };
    let bits = match body {
        "INF" => exp_all,
        "QNAN" | "NAN" => exp_all | frac_q,
        "SNAN" => return Err("SNAN immediates are not modelled".into()),
        _ => {
            let v: f64 = body
                .parse()
                .map_err(|_| format!("bad float immediate {t}"))?;
            let v = if neg { -v } else { v };
            return Ok(match ty {
                ImmTy::F32 => u64::from((v as f32).to_bits()),
                ImmTy::F64 => v.to_bits(),
                _ => u64::from(crate::launch::f64_to_f16_bits(v)),
            });
        }
    };
    Ok(bits | s)
}

/// A source with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sop {
    pub s: Src,
    pub neg: bool,
    pub not: bool,
    pub abs: bool,
    /// Half selector (H* opcodes; `H1H0` = none).
    pub sel: HalfSel,
}

impl Sop {
    pub const ZERO: Sop = Sop::plain(Src::Imm(0));

    pub const fn plain(s: Src) -> Sop {
        Sop {
            s,
            neg: false,
            not: false,
            abs: false,
            sel: HalfSel::H1H0,
        }
    }
}

/// A 64-bit source: a register pair or a 64-bit value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src64 {
    R(u32),
    U(u32),
    Imm(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sop64 {
    pub s: Src64,
    pub neg: bool,
    pub not: bool,
    pub abs: bool,
}

/// A destination register (a pair or quad for wide results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    R(u32),
    U(u32),
    None,
}

/// A predicate destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PDst {
    P(u32),
    U(u32),
    None,
}

/// A predicate source: `P(i)` (0 = PT) or `U(i)` (0 = UPT), maybe negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PSrc {
    pub uniform: bool,
    pub idx: u32,
    pub neg: bool,
}

impl PSrc {
    pub const TRUE: PSrc = PSrc {
        uniform: false,
        idx: 0,
        neg: false,
    };
    pub const FALSE: PSrc = PSrc {
        uniform: false,
        idx: 0,
        neg: true,
    };
}

/// A memory address `[base + index + offset]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    /// `Src::R`, `Src::U` or `Src::Imm(0)` (no base / `RZ`).
    pub base: Src,
    /// A uniform index register (`[R6.64+UR4]`), if any.
    pub index: Option<u32>,
    pub offset: i64,
    /// 64-bit address: register pairs for base and index.
    pub wide: bool,
    /// `[R0.U32+UR4]`: a 32-bit base zero-extended, a 64-bit index.
    pub base32: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Local,
    Generic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ICmp {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    T,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bop {
    And,
    Or,
    Xor,
}

impl Bop {
    #[inline(always)]
    pub fn apply(self, a: u32, b: u32) -> u32 {
        match self {
            Bop::And => a & b,
            Bop::Or => a | b,
            Bop::Xor => a ^ b,
        }
    }
}

/// Special registers (`S2R`, `CS2R`, `S2UR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SReg {
    Zero,
    Tid(u8),
    Ctaid(u8),
    LaneId,
    ClockLo,
    ClockHi,
    Clock64,
    GlobalTimerLo,
    GlobalTimerHi,
    EqMask,
    LtMask,
    LeMask,
    GtMask,
    GeMask,
    VirtId,
    WarpId,
    SmId,
    CgaCtaId,
    /// `SR_SMEMSZ`: the CTA's shared memory, reserved bytes included.
    SmemSz,
    /// `SR_PM0`..`SR_PM7`: the performance-monitor counters.
    Pm(u8),
    /// `SR_SWINLO` / `SR_SWINHI`: the two words of the generic shared
    /// window's base (ptxas 11.8 builds sm_90 `cvta.shared` from them).
    SwinLo,
    SwinHi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImadMode {
    Lo,
    Hi,
    Wide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteKind {
    All,
    Any,
    Eq,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    Sum,
    Min,
    Max,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    Sync,
    Arrive,
    RedPopc,
    RedAnd,
    RedOr,
}

/// Texture access forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexOp {
    /// `TLD`: integer texel coordinates.
    Tld,
    /// `TEX`: float coordinates through the sampler.
    Tex,
    /// `TLD4`: gather of component `comp`.
    Tld4 { comp: u8 },
}

/// A decoded texture fetch (TLD, TEX, TLD4); see `decode_tex` for the
/// operand layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexInst {
    pub op: TexOp,
    /// Destinations of the first and of the second channel pair.
    pub d0: Dst,
    pub d1: Dst,
    /// The source values in order: the array index (`layered`), the
    /// `dims` coordinates, then the level of detail (`.LL`) or the packed
    /// texel offsets (`aoffi`). Value `k` is register `ra + k` for `k <
    /// ra_len`, else `rb + (k - ra_len)`.
    pub ra: Src,
    pub rb: Option<Src>,
    pub ra_len: u8,
    pub tex: TexRef,
    pub dims: u8,
    /// `ARRAY_1D` / `ARRAY_2D`: the first value is the array index.
    pub layered: bool,
    /// `.AOFFI`: the value after the coordinates packs texel offsets.
    pub aoffi: bool,
    /// The level-of-detail source.
    pub lod: TexLod,
    pub mask: u8,
    /// The optional predicate destination (`TEX.SCR.LL P0, R6, R4, ...`,
    /// ptxas 11.8 for a PTX residency predicate `{..}|p`, which it reads
    /// back negated: `SEL R7, RZ, 0x1, P0`, oracle/tests/tex_resident_vendor/):
    /// set in a lane where a texel is not resident.
    pub nonresident: PDst,
}

/// Where a fetch's level of detail comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexLod {
    /// `.LZ`, `TLD4`: level 0.
    Zero,
    /// `.LL`: the value after the coordinates (an f32).
    Level,
    /// `TXD`: Ra holds the coordinates then the array index, Rb the
    /// gradients (`dPdx.x, dPdy.x, dPdx.y, dPdy.y`), see `decode_txd`.
    Grad,
}

/// Where the texture comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexRef {
    /// A constant slot number (`TLD.SCR ... 0x58 ...`).
    Slot(u32),
    /// A handle in a uniform register (sm_90 `TLD.LZ ..., UR4, ...`).
    Handle(u32),
    /// A handle's low word in a general register, per lane (`TLD.LZ RZ,
    /// Rd, Rc, Rh, 0x0, 1D, 0xf`: the compiler's sm_70 form for a handle
    /// that is not a kernel parameter, UNCONFIRMED spelling).
    Reg(u32),
}

/// The convergence test of `BRA.DIV` and `BRA.CONV` (`exec/control.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convergence {
    /// `.DIV`: taken when the group lacks a live lane of the mask.
    Diverged,
    /// `.CONV`: taken when the group holds every live lane of the mask.
    Converged,
}

/// One decoded instruction's handler and operands.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Nop,
    /// Not executable: the message says why.
    Fault(Box<str>),
    Iadd3 {
        d: Dst,
        c0: PDst,
        c1: PDst,
        a: Sop,
        b: Sop,
        c: Sop,
        x: bool,
        ci0: PSrc,
        ci1: PSrc,
    },
    Imad {
        mode: ImadMode,
        signed: bool,
        x: bool,
        d: Dst,
        co: PDst,
        a: Sop,
        b: Sop,
        /// 32-bit addend (`Lo`).
        c: Sop,
        /// 64-bit addend (`Hi`, `Wide`).
        c64: Sop64,
        ci: PSrc,
    },
    Lea {
        hi: bool,
        x: bool,
        sx32: bool,
        d: Dst,
        co: PDst,
        a: Sop,
        b: Sop,
        /// High word for `.HI` (not `.SX32`).
        c: Sop,
        sh: u32,
        ci: PSrc,
    },
    Lop3 {
        d: Dst,
        pd: PDst,
        a: Sop,
        b: Sop,
        c: Sop,
        lut: u8,
    },
    Shf {
        d: Dst,
        lo: Src,
        sh: Src,
        hi: Src,
        left: bool,
        hi_out: bool,
        wrap: bool,
        wide: bool,
        signed: bool,
    },
    Prmt {
        d: Dst,
        a: Src,
        sel: Src,
        b: Src,
        mode: u8,
    },
    Isetp {
        p: PDst,
        q: PDst,
        a: Sop,
        b: Sop,
        cmp: ICmp,
        signed: bool,
        bop: Bop,
        ps: PSrc,
        ex: Option<PSrc>,
    },
    Imnmx {
        d: Dst,
        a: Sop,
        b: Sop,
        signed: bool,
        pmin: PSrc,
    },
    Iabs {
        d: Dst,
        a: Sop,
    },
    Popc {
        d: Dst,
        a: Sop,
    },
    Flo {
        d: Dst,
        a: Sop,
        signed: bool,
        sh: bool,
    },
    Brev {
        d: Dst,
        a: Sop,
    },
    Sgxt {
        d: Dst,
        a: Src,
        n: Src,
        signed: bool,
        wrap: bool,
    },
    Bmsk {
        d: Dst,
        pos: Src,
        width: Src,
        wrap: bool,
    },
    /// SEL (`float` false) and FSEL (`float`: `-x`/`|x|` on the sign bit).
    Sel {
        d: Dst,
        a: Sop,
        b: Sop,
        p: PSrc,
        float: bool,
    },
    P2r {
        d: Dst,
        src: Src,
        mask: Src,
        shift: u32,
        uniform: bool,
    },
    R2p {
        src: Src,
        mask: Src,
        shift: u32,
        uniform: bool,
    },
    Plop3 {
        p: PDst,
        q: PDst,
        a: PSrc,
        b: PSrc,
        c: PSrc,
        lut1: u8,
        lut2: u8,
    },
    Mov {
        d: Dst,
        a: Src,
    },
    /// `IMAD.MOV d, RZ, RZ, -a`: the two's complement negation of one
    /// register, which like a copy passes a never-written value on.
    Neg {
        d: Dst,
        a: Src,
    },
    S2r {
        d: Dst,
        sr: SReg,
        wide: bool,
    },
    Vote {
        d: Dst,
        p: PDst,
        kind: VoteKind,
        src: PSrc,
    },
    Shfl {
        p: PDst,
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
        mode: ShflMode,
    },
    Match {
        p: PDst,
        d: Dst,
        a: Src,
        wide: bool,
        all: bool,
    },
    Redux {
        d: Dst,
        a: Src,
        op: ReduxOp,
        signed: bool,
    },
    Ld {
        space: Space,
        d: Dst,
        addr: Addr,
        size: u8,
        signed: bool,
    },
    St {
        space: Space,
        addr: Addr,
        v: Src,
        size: u8,
    },
    /// `QSPC.E.{S,L,G} P, RZ, [a]`: whether generic address `a` lies in
    /// the shared (`b's'`) or local (`b'l'`) window, or in neither
    /// (`b'g'`) (exec/mem.rs `qspc`).
    Qspc {
        pd: PDst,
        addr: Addr,
        space: u8,
    },
    Ldc {
        d: Dst,
        bank: u32,
        reg: Option<Src>,
        off: i64,
        size: u8,
        signed: bool,
    },
    Atom {
        space: Space,
        op: AtomOp,
        /// `ATOMS.POPC.INC`: adds 1 per participating thread (the source
        /// operand is ignored).
        popc: bool,
        /// `ATOMS.CAST.SPIN d, [a], cmp, new`: the 32-bit compare-and-store
        /// of ptxas's spin loops; `d` gets 1 when the word held `cmp` (and
        /// now holds `new`), else 0 (exec/mem.rs `atomic`).
        spin: bool,
        /// The spaces a generic `ATOM`/`RED` performs on
        /// (compiler/src/ir/atom_reach.rs); `All` for `ATOMS`/`ATOMG`.
        reach: Reach,
        ty: AtomTy,
        ftz: bool,
        d: Dst,
        pd: PDst,
        addr: Addr,
        b: Src,
        c: Src,
    },
    Bra {
        target: u32,
        p: PSrc,
        /// `BRA.DIV mask` / `BRA.CONV mask`: the convergence test that
        /// decides the branch for the whole group.
        div: Option<(Src, Convergence)>,
    },
    Brx {
        r: Src,
        off: i64,
    },
    Call {
        target: u32,
    },
    /// `CALL R off`: to the code address `R + off` (per lane).
    CallReg {
        r: Src,
        off: i64,
    },
    Ret {
        r: Src,
        off: i64,
    },
    Exit,
    Bssy {
        b: u8,
    },
    Bsync {
        b: u8,
    },
    Break {
        b: u8,
        p: PSrc,
    },
    BmovToR {
        d: Dst,
        b: u8,
        clear: bool,
    },
    BmovToB {
        b: u8,
        a: Src,
    },
    Warpsync {
        mask: Src,
        collective: Option<u32>,
    },
    EndCollective,
    Bar {
        kind: BarKind,
        id: Src,
        count: Option<Src>,
        p: PSrc,
    },
    /// `B2R.RESULT d[, p]`: the last `BAR.RED` result; `p` (the vendor's
    /// `B2R.RESULT RZ, P0` after `BAR.RED.AND/OR`) is set when it is nonzero.
    B2r {
        d: Dst,
        p: PDst,
    },
    /// IDP.4A / IDP.2A (exec/dot.rs).
    Idp {
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
        form: super::exec::dot::IdpForm,
    },
    /// VABSDIFF (exec/dot.rs).
    Vabsdiff {
        d: Dst,
        a: Src,
        b: Src,
        c: Src,
        signed: bool,
    },
    Tex(TexInst),
    /// `TXQ ..., TEX_HEADER_DIMENSION, ...`: width/height/depth (mask
    /// bits x, y, z) of a texture; `lod` is the register holding the level.
    Txq {
        d0: Dst,
        d1: Dst,
        lod: Src,
        tex: TexRef,
        mask: u8,
    },
    F(FInst),
    /// `SULD`/`SUST`/`SURED` (exec/surf.rs).
    Surf(Box<super::exec::surf::SurfInst>),
}

/// One instruction ready to run.
#[derive(Clone, Debug, PartialEq)]
pub struct DInst {
    pub kind: Kind,
    pub guard: PSrc,
    /// Uniform datapath instruction: computed once, for the lowest lane.
    pub uniform: bool,
    /// Byte address (16 bytes per instruction, layout order).
    pub addr: u32,
}

/// A decoded function.
#[derive(Clone, Debug)]
pub struct Program {
    pub insts: Vec<DInst>,
    /// The instruction text, for messages (shared with the hazard model).
    pub texts: Arc<[String]>,
    pub regs: RegMap,
}

impl Program {
    /// The instruction index of byte address `a`, if it is one.
    pub fn index_of_addr(&self, a: u64) -> Option<u32> {
        (a.is_multiple_of(16) && a / 16 < self.insts.len() as u64).then_some((a / 16) as u32)
    }

    /// `/*0040*/ IADD3 R1, R1, -0x40, RZ` for messages.
    pub fn describe(&self, pc: u32) -> String {
        format!("/*{:04x}*/ {}", pc * 16, self.texts[pc as usize])
    }
}

/// The text of an instruction.
pub fn inst_text(i: &Inst) -> String {
    let mut s = String::new();
    if let Some(g) = &i.guard {
        s.push('@');
        if g.negated {
            s.push('!');
        }
        s.push_str(&g.pred.to_string());
        s.push(' ');
    }
    s.push_str(i.op.name());
    for m in &i.mods {
        s.push('.');
        s.push_str(m);
    }
    if i.op == Op::UNDECODED {
        if let Some(e) = i.encoding {
            s.push_str(&format!(" (encoding {e:#034x})"));
        }
        return s;
    }
    for (k, o) in i.operands.iter().enumerate() {
        s.push_str(if k == 0 { " " } else { ", " });
        s.push_str(&o.to_string());
    }
    s
}

/// Decoder state shared by the family decoders.
pub struct Dec<'a> {
    pub regs: &'a RegMap,
    pub banks: &'a Banks,
    pub block_starts: Vec<u32>,
    pub f: &'a Function,
}

/// A decode failure: the instruction cannot be executed as written.
pub type DResult<T> = Result<T, String>;

impl Dec<'_> {
    pub fn reg_src(&self, r: Reg) -> Src {
        match r {
            Reg::R(_) | Reg::V(_) => self.regs.r(r).map_or(Src::Imm(0), Src::R),
            Reg::Rz | Reg::Urz => Src::Imm(0),
            Reg::Ur(_) | Reg::Uv(_) => self.regs.ur(r).map_or(Src::Imm(0), Src::U),
        }
    }

    pub fn konst(&self, c: &ConstRef, n: u32) -> DResult<u64> {
        if c.reg.is_some_and(|r| !matches!(r, Reg::Rz | Reg::Urz)) {
            return Err("an indexed constant operand is only supported in LDC".into());
        }
        self.banks.read(c.bank, c.offset.unwrap_or(0), n)
    }

    /// A 32-bit source. Float immediates are read as f32.
    pub fn src(&self, o: &Operand) -> DResult<Sop> {
        self.src_as(o, ImmTy::F32)
    }

    pub fn src_as(&self, o: &Operand, fty: ImmTy) -> DResult<Sop> {
        Ok(match o {
            Operand::Reg(RegOperand {
                reg,
                neg,
                not,
                abs,
                sel,
                ..
            }) => Sop {
                s: self.reg_src(*reg),
                neg: *neg,
                not: *not,
                abs: *abs,
                sel: HalfSel::parse(sel.as_deref())?,
            },
            Operand::Imm(v) => Sop::plain(Src::Imm(*v as u32)),
            Operand::FloatImm(t) => Sop::plain(Src::Imm(parse_imm(t, fty)? as u32)),
            Operand::Const(c) => Sop {
                s: Src::Imm(self.konst(c, 4)? as u32),
                neg: c.neg,
                not: c.not,
                abs: c.abs,
                sel: HalfSel::H1H0,
            },
            Operand::Pred { .. } | Operand::Special(_) => {
                return Err(format!("operand {o} is not a value source"))
            }
            _ => return Err(format!("operand {o} is not a value source")),
        })
    }

    /// A 64-bit source (register pair, 64-bit constant, immediate).
    pub fn src64(&self, o: &Operand, fty: ImmTy) -> DResult<Sop64> {
        Ok(match o {
            Operand::Reg(r) => {
                if r.sel.is_some() {
                    return Err("a selector on a 64-bit operand is not modelled".into());
                }
                let s = match r.reg {
                    Reg::R(_) | Reg::V(_) => Src64::R(self.regs.r(r.reg).unwrap()),
                    Reg::Ur(_) | Reg::Uv(_) => Src64::U(self.regs.ur(r.reg).unwrap()),
                    _ => Src64::Imm(0),
                };
                Sop64 {
                    s,
                    neg: r.neg,
                    not: r.not,
                    abs: r.abs,
                }
            }
            Operand::Imm(v) => Sop64 {
                s: Src64::Imm(match fty {
                    // A 64-bit float immediate holds the upper word.
                    ImmTy::F64 => (*v as u64) << 32,
                    _ => *v as u64,
                }),
                neg: false,
                not: false,
                abs: false,
            },
            Operand::FloatImm(t) => Sop64 {
                s: Src64::Imm(parse_imm(t, fty)?),
                neg: false,
                not: false,
                abs: false,
            },
            Operand::Const(c) => Sop64 {
                s: Src64::Imm(self.konst(c, 8)?),
                neg: c.neg,
                not: c.not,
                abs: c.abs,
            },
            _ => return Err(format!("operand {o} is not a 64-bit value source")),
        })
    }

    pub fn plain(&self, o: &Operand) -> DResult<Src> {
        let s = self.src(o)?;
        if s.neg || s.not || s.abs || s.sel != HalfSel::H1H0 {
            return Err(format!("modifiers on {o} are not modelled here"));
        }
        Ok(s.s)
    }

    pub fn dst(&self, o: &Operand) -> DResult<Dst> {
        match o {
            Operand::Reg(r) => Ok(match r.reg {
                Reg::R(_) | Reg::V(_) => Dst::R(self.regs.r(r.reg).unwrap()),
                Reg::Ur(_) | Reg::Uv(_) => Dst::U(self.regs.ur(r.reg).unwrap()),
                _ => Dst::None,
            }),
            _ => Err(format!("{o} is not a register destination")),
        }
    }

    pub fn pdst(&self, o: &Operand) -> DResult<PDst> {
        match o {
            Operand::Pred { pred, not: false } => Ok(match pred {
                Pred::P(_) | Pred::V(_) => PDst::P(self.regs.p(*pred)),
                Pred::Up(_) | Pred::Uv(_) => PDst::U(self.regs.up(*pred)),
                Pred::Pt | Pred::Upt => PDst::None,
            }),
            _ => Err(format!("{o} is not a predicate destination")),
        }
    }

    pub fn psrc(&self, o: &Operand) -> DResult<PSrc> {
        match o {
            Operand::Pred { pred, not } => Ok(self.pred(*pred, *not)),
            _ => Err(format!("{o} is not a predicate")),
        }
    }

    pub fn pred(&self, p: Pred, neg: bool) -> PSrc {
        match p {
            Pred::Up(_) | Pred::Uv(_) | Pred::Upt => PSrc {
                uniform: true,
                idx: self.regs.up(p),
                neg,
            },
            _ => PSrc {
                uniform: false,
                idx: self.regs.p(p),
                neg,
            },
        }
    }

    pub fn imm(&self, o: &Operand) -> DResult<i64> {
        match o {
            Operand::Imm(v) => Ok(*v),
            _ => Err(format!("{o} is not an integer immediate")),
        }
    }

    /// The instruction index a label or address operand names.
    pub fn target(&self, o: &Operand) -> DResult<u32> {
        match o {
            Operand::Label(l) => self
                .f
                .block_index(*l)
                .map(|b| self.block_starts[b])
                .ok_or_else(|| format!("undefined label .L_x_{l}")),
            Operand::Imm(a) if *a >= 0 && a % 16 == 0 => Ok((*a / 16) as u32),
            _ => Err(format!("{o} is not a code address")),
        }
    }

    pub fn addr(&self, m: &MemRef, wide: bool) -> DResult<Addr> {
        if m.desc.is_some() {
            return Err("desc[...] addresses are not modelled".into());
        }
        let base32 = m.base.is_some_and(|b| b.u32);
        if base32 && m.index.is_none() {
            return Err("a .U32 address base without a uniform index".into());
        }
        let wide = wide || base32 || m.base.is_some_and(|b| b.wide);
        let base = m.base.map_or(Src::Imm(0), |b| self.reg_src(b.reg));
        let index = match m.index {
            None => None,
            Some(r) => match self.reg_src(r) {
                Src::U(i) => Some(i),
                Src::Imm(0) => None,
                _ => return Err("a non-uniform index register in an address".into()),
            },
        };
        Ok(Addr {
            base,
            index,
            offset: m.offset.unwrap_or(0),
            wide,
            base32,
        })
    }
}

fn has(i: &Inst, m: &str) -> bool {
    i.mods.contains(&m)
}

fn icmp(i: &Inst) -> DResult<ICmp> {
    for m in &i.mods {
        let c = match *m {
            "F" => ICmp::F,
            "LT" => ICmp::Lt,
            "EQ" => ICmp::Eq,
            "LE" => ICmp::Le,
            "GT" => ICmp::Gt,
            "NE" => ICmp::Ne,
            "GE" => ICmp::Ge,
            "T" => ICmp::T,
            _ => continue,
        };
        return Ok(c);
    }
    Err("no comparison modifier".into())
}

pub fn bop(i: &Inst) -> DResult<Bop> {
    if has(i, "AND") {
        Ok(Bop::And)
    } else if has(i, "OR") {
        Ok(Bop::Or)
    } else if has(i, "XOR") {
        Ok(Bop::Xor)
    } else {
        Err("no predicate-combining modifier (.AND/.OR/.XOR)".into())
    }
}

fn mem_size(i: &Inst) -> (u8, bool) {
    for m in &i.mods {
        match *m {
            "U8" | "8" => return (1, false),
            "S8" => return (1, true),
            "U16" | "16" => return (2, false),
            "S16" => return (2, true),
            "32" => return (4, false),
            "64" => return (8, false),
            "128" => return (16, false),
            _ => {}
        }
    }
    (4, false)
}

fn sreg(name: &str) -> DResult<SReg> {
    Ok(match name {
        "SRZ" => SReg::Zero,
        "SR_TID.X" => SReg::Tid(0),
        "SR_TID.Y" => SReg::Tid(1),
        "SR_TID.Z" => SReg::Tid(2),
        "SR_CTAID.X" => SReg::Ctaid(0),
        "SR_CTAID.Y" => SReg::Ctaid(1),
        "SR_CTAID.Z" => SReg::Ctaid(2),
        "SR_LANEID" => SReg::LaneId,
        "SR_CLOCKLO" => SReg::ClockLo,
        "SR_CLOCKHI" => SReg::ClockHi,
        "SR_CLOCK" => SReg::Clock64,
        "SR_GLOBALTIMERLO" => SReg::GlobalTimerLo,
        "SR_GLOBALTIMERHI" => SReg::GlobalTimerHi,
        "SR_EQMASK" => SReg::EqMask,
        "SR_LTMASK" => SReg::LtMask,
        "SR_LEMASK" => SReg::LeMask,
        "SR_GTMASK" => SReg::GtMask,
        "SR_GEMASK" => SReg::GeMask,
        "SR_VIRTID" => SReg::VirtId,
        "SR_WARPID" => SReg::WarpId,
        "SR_SMID" | "SR_VIRTUALSMID" => SReg::SmId,
        "SR_CgaCtaId" => SReg::CgaCtaId,
        "SR_SMEMSZ" => SReg::SmemSz,
        "SR_SWINLO" => SReg::SwinLo,
        "SR_SWINHI" => SReg::SwinHi,
        _ => {
            if let Some(n) = name
                .strip_prefix("SR_PM")
                .and_then(|n| n.parse::<u8>().ok())
            {
                if n < 8 {
                    return Ok(SReg::Pm(n));
                }
            }
            return Err(format!("special register {name} is not modelled"));
        }
    })
}

/// Decodes `f` for `sm`, resolving constant operands from `banks`.
pub fn decode(f: &Function, sm: &SmInfo, banks: &Banks) -> Program {
    let regs = RegMap::new(f);
    let mut block_starts = Vec::with_capacity(f.blocks.len());
    let mut n = 0u32;
    for b in &f.blocks {
        block_starts.push(n);
        n += b.insts.len() as u32;
    }
    let dec = Dec {
        regs: &regs,
        banks,
        block_starts,
        f,
    };
    let mut insts = Vec::with_capacity(n as usize);
    let mut texts = Vec::with_capacity(n as usize);
    for (k, i) in f.insts().enumerate() {
        let mut text = inst_text(i);
        if let Some(v) = i.encoding.filter(|_| i.op == Op::UNDECODED) {
            if let Ok(v) = undecoded::decode(v) {
                text = format!("{} ({text})", v.text());
            }
        }
        let guard = i.guard.map_or(PSrc::TRUE, |g| dec.pred(g.pred, g.negated));
        let kind = if i.op == Op::UNDECODED {
            decode_undecoded(&dec, i, sm)
        } else if let Some(l) = i.lacking(sm) {
            Kind::Fault(l.message(sm).into())
        } else {
            match decode_inst(&dec, i) {
                Ok(k) => k,
                Err(e) => Kind::Fault(format!("{}: {e}", i.op).into()),
            }
        };
        // Uniform datapath instructions compute once (for the lowest active
        // lane); VOTEU gathers over the lanes like VOTE.
        let uniform = i.op.info().category == Category::Uniform && i.op != Op::VOTEU;
        insts.push(DInst {
            kind,
            guard,
            uniform,
            addr: 16 * k as u32,
        });
        texts.push(text);
    }
    Program {
        insts,
        texts: texts.into(),
        regs,
    }
}

/// An encoding-only slot (`undecoded.rs`): sm_90's VIMNMX runs as IMNMX;
/// anything else faults when executed, naming the encoding.
fn decode_undecoded(d: &Dec<'_>, i: &Inst, sm: &SmInfo) -> Kind {
    let enc = i.encoding.unwrap_or(0);
    let v = match undecoded::decode(enc) {
        Ok(v) if sm.sm >= 90 => v,
        Ok(_) => {
            return Kind::Fault(
                format!("UNDECODED instruction slot {enc:#034x}: VIMNMX needs sm_90").into(),
            )
        }
        Err(e) => {
            return Kind::Fault(
                format!("UNDECODED instruction slot: cuobjdump printed only its encoding; {e}")
                    .into(),
            )
        }
    };
    let dst = if v.d == undecoded::RZ {
        Dst::None
    } else {
        Dst::R(d.regs.r(Reg::R(v.d)).expect("physical register"))
    };
    Kind::Imnmx {
        d: dst,
        a: Sop::plain(v.a_src()),
        b: Sop::plain(v.b_src()),
        signed: v.signed,
        pmin: v.pmin(),
    }
}

fn decode_inst(d: &Dec<'_>, i: &Inst) -> DResult<Kind> {
    let o = &i.operands;
    let nd = i.ndst as usize;
    let s = &o[nd..];
    let dsts = &o[..nd];
    use Op::*;
    Ok(match i.op {
        // One SM, no caches and no cluster: barriers of memory order and
        // errors and cache invalidation (`CCTL.IVALL`) change nothing.
        NOP | YIELD | MEMBAR | DEPBAR | ERRBAR | CGAERRBAR | NANOSLEEP | CCTL | CCTLL => Kind::Nop,
        IADD3 | UIADD3 => {
            let x = has(i, "X");
            let c0 = dsts
                .get(1)
                .map(|p| d.pdst(p))
                .transpose()?
                .unwrap_or(PDst::None);
            let c1 = dsts
                .get(2)
                .map(|p| d.pdst(p))
                .transpose()?
                .unwrap_or(PDst::None);
            let ci0 = s
                .get(3)
                .map(|p| d.psrc(p))
                .transpose()?
                .unwrap_or(PSrc::FALSE);
            let ci1 = s
                .get(4)
                .map(|p| d.psrc(p))
                .transpose()?
                .unwrap_or(PSrc::FALSE);
            Kind::Iadd3 {
                d: d.dst(&dsts[0])?,
                c0,
                c1,
                a: d.src(&s[0])?,
                b: d.src(&s[1])?,
                c: d.src(&s[2])?,
                x,
                ci0,
                ci1,
            }
        }
        IMAD | UIMAD => {
            let mode = if has(i, "WIDE") {
                ImadMode::Wide
            } else if has(i, "HI") {
                ImadMode::Hi
            } else {
                ImadMode::Lo
            };
            let co = dsts
                .get(1)
                .map(|p| d.pdst(p))
                .transpose()?
                .unwrap_or(PDst::None);
            let ci = s
                .get(3)
                .map(|p| d.psrc(p))
                .transpose()?
                .unwrap_or(PSrc::FALSE);
            let (c, c64) = if mode == ImadMode::Lo {
                (
                    d.src(&s[2])?,
                    Sop64 {
                        s: Src64::Imm(0),
                        neg: false,
                        not: false,
                        abs: false,
                    },
                )
            } else {
                (Sop::ZERO, d.src64(&s[2], ImmTy::Int)?)
            };
            let (a, b) = (d.src(&s[0])?, d.src(&s[1])?);
            let x = has(i, "X");
            // `IMAD.MOV.U32 d, RZ, RZ, c` and its kin (a zero factor, no
            // carries): ptxas's register copy, run as one (`exec/logic.rs` `mov` passes
            // an unwritten value on instead of failing); with `-c`, its
            // negated copy, likewise (ptxas negates a value it may never
            // have set in some lanes: `@P0 F2I.F64.TRUNC R10, ...` then an
            // unguarded `IMAD.MOV R6, RZ, RZ, -R10` whose result only `@P0`
            // code reads, generator seed 9900827, sm_80).
            if mode == ImadMode::Lo
                && !x
                && co == PDst::None
                && ci == PSrc::FALSE
                && (a == Sop::ZERO || b == Sop::ZERO)
            {
                let plain = Sop::plain(c.s);
                if c == plain {
                    return Ok(Kind::Mov {
                        d: d.dst(&dsts[0])?,
                        a: c.s,
                    });
                }
                if c == (Sop { neg: true, ..plain }) {
                    return Ok(Kind::Neg {
                        d: d.dst(&dsts[0])?,
                        a: c.s,
                    });
                }
            }
            Kind::Imad {
                mode,
                signed: !has(i, "U32"),
                x,
                d: d.dst(&dsts[0])?,
                co,
                a,
                b,
                c,
                c64,
                ci,
            }
        }
        LEA | ULEA => {
            let hi = has(i, "HI");
            let sx32 = has(i, "SX32");
            let x = has(i, "X");
            let co = dsts
                .get(1)
                .map(|p| d.pdst(p))
                .transpose()?
                .unwrap_or(PDst::None);
            // sources: a, b, [c (HI without SX32)], shift, [carry-in]
            let (a, b) = (d.src(&s[0])?, d.src(&s[1])?);
            let mut k = 2;
            let c = if hi && !sx32 {
                k += 1;
                d.src(&s[2])?
            } else {
                Sop::ZERO
            };
            let sh = d.imm(&s[k])? as u32;
            let ci = s
                .get(k + 1)
                .map(|p| d.psrc(p))
                .transpose()?
                .unwrap_or(PSrc::FALSE);
            Kind::Lea {
                hi,
                x,
                sx32,
                d: d.dst(&dsts[0])?,
                co,
                a,
                b,
                c,
                sh,
                ci,
            }
        }
        LOP3 | ULOP3 => {
            // [P] R = S S S I P
            let (pd, dr) = if nd == 2 {
                (d.pdst(&dsts[0])?, d.dst(&dsts[1])?)
            } else {
                (PDst::None, d.dst(&dsts[0])?)
            };
            let pin = d.psrc(&s[4])?;
            // `!PT`, or `!UPT` on ULOP3 (index 0 is the constant true
            // predicate in both files).
            if !(pin.idx == 0 && pin.neg) {
                return Err("LOP3's predicate input other than !PT is not modelled".into());
            }
            Kind::Lop3 {
                d: dr,
                pd,
                a: d.src(&s[0])?,
                b: d.src(&s[1])?,
                c: d.src(&s[2])?,
                lut: d.imm(&s[3])? as u8,
            }
        }
        SHF | USHF => {
            let left = has(i, "L");
            if !left && !has(i, "R") {
                return Err("SHF needs .L or .R".into());
            }
            let wide = has(i, "U64") || has(i, "S64");
            Kind::Shf {
                d: d.dst(&dsts[0])?,
                lo: d.plain(&s[0])?,
                sh: d.plain(&s[1])?,
                hi: d.plain(&s[2])?,
                left,
                hi_out: has(i, "HI"),
                wrap: has(i, "W"),
                wide,
                signed: has(i, "S32") || has(i, "S64"),
            }
        }
        PRMT | UPRMT => {
            let mode = [
                ("F4E", 1),
                ("B4E", 2),
                ("RC8", 3),
                ("ECL", 4),
                ("ECR", 5),
                ("RC16", 6),
            ]
            .iter()
            .find(|(m, _)| has(i, m))
            .map_or(0, |x| x.1);
            Kind::Prmt {
                d: d.dst(&dsts[0])?,
                a: d.plain(&s[0])?,
                sel: d.plain(&s[1])?,
                b: d.plain(&s[2])?,
                mode,
            }
        }
        ISETP | UISETP => Kind::Isetp {
            p: d.pdst(&dsts[0])?,
            q: d.pdst(&dsts[1])?,
            a: d.src(&s[0])?,
            b: d.src(&s[1])?,
            cmp: icmp(i)?,
            signed: !has(i, "U32"),
            bop: bop(i)?,
            ps: d.psrc(&s[2])?,
            ex: if has(i, "EX") {
                Some(d.psrc(s.get(3).ok_or("ISETP.EX needs a chained predicate")?)?)
            } else {
                None
            },
        },
        IMNMX => Kind::Imnmx {
            d: d.dst(&dsts[0])?,
            a: d.src(&s[0])?,
            b: d.src(&s[1])?,
            signed: !has(i, "U32"),
            pmin: d.psrc(&s[2])?,
        },
        IABS => Kind::Iabs {
            d: d.dst(&dsts[0])?,
            a: d.src(&s[0])?,
        },
        POPC | UPOPC => Kind::Popc {
            d: d.dst(&dsts[0])?,
            a: d.src(&s[0])?,
        },
        FLO | UFLO => {
            if nd > 1 {
                return Err("FLO with a predicate output is not modelled".into());
            }
            Kind::Flo {
                d: d.dst(&dsts[0])?,
                a: d.src(&s[0])?,
                signed: !has(i, "U32"),
                sh: has(i, "SH"),
            }
        }
        BREV | UBREV => Kind::Brev {
            d: d.dst(&dsts[0])?,
            a: d.src(&s[0])?,
        },
        SGXT | USGXT => Kind::Sgxt {
            d: d.dst(&dsts[0])?,
            a: d.plain(&s[0])?,
            n: d.plain(&s[1])?,
            signed: !has(i, "U32"),
            wrap: has(i, "W"),
        },
        IDP => Kind::Idp {
            d: d.dst(&dsts[0])?,
            a: d.plain(&s[0])?,
            b: d.plain(&s[1])?,
            c: d.plain(&s[2])?,
            form: super::exec::dot::IdpForm::decode(&i.mods)?,
        },
        VABSDIFF => Kind::Vabsdiff {
            d: d.dst(&dsts[0])?,
            a: d.plain(&s[0])?,
            b: d.plain(&s[1])?,
            c: d.plain(&s[2])?,
            signed: !has(i, "U32"),
        },
        BMSK => Kind::Bmsk {
            d: d.dst(&dsts[0])?,
            pos: d.plain(&s[0])?,
            width: d.plain(&s[1])?,
            wrap: has(i, "W"),
        },
        SEL | USEL | FSEL => Kind::Sel {
            d: d.dst(&dsts[0])?,
            a: d.src(&s[0])?,
            b: d.src(&s[1])?,
            p: d.psrc(&s[2])?,
            float: i.op == FSEL,
        },
        P2R => {
            let shift = pr_shift(i);
            let (src, mask) = if s.len() == 3 {
                (d.plain(&s[1])?, d.plain(&s[2])?)
            } else {
                (Src::Imm(0), d.plain(&s[1])?)
            };
            if !matches!(&s[0], Operand::Special(n) if n == "PR") && s.len() == 3 {
                return Err("P2R needs PR as its first source".into());
            }
            Kind::P2r {
                d: d.dst(&dsts[0])?,
                src,
                mask,
                shift,
                uniform: false,
            }
        }
        R2P => Kind::R2p {
            src: d.plain(&s[1])?,
            mask: d.plain(&s[2])?,
            shift: pr_shift(i),
            uniform: false,
        },
        PLOP3 | UPLOP3 => Kind::Plop3 {
            p: d.pdst(&dsts[0])?,
            q: d.pdst(&dsts[1])?,
            a: d.psrc(&s[0])?,
            b: d.psrc(&s[1])?,
            c: d.psrc(&s[2])?,
            lut1: d.imm(&s[3])? as u8,
            lut2: d.imm(&s[4])? as u8,
        },
        MOV | UMOV => {
            if let Some(m) = s.get(1) {
                if d.imm(m)? & 0xf != 0xf {
                    return Err("MOV with a partial lane mask is not modelled".into());
                }
            }
            // `MOV R, .L_x_N`: a return address (the lowering's call ABI),
            // the byte address of the labelled block.
            let a = match &s[0] {
                Operand::Label(_) => Src::Imm(d.target(&s[0])? * 16),
                o => d.plain(o)?,
            };
            Kind::Mov {
                d: d.dst(&dsts[0])?,
                a,
            }
        }
        R2UR => Kind::Mov {
            d: d.dst(&dsts[0])?,
            a: d.plain(&s[0])?,
        },
        ULDC => {
            let (size, signed) = mem_size(i);
            let Operand::Const(c) = &s[0] else {
                return Err("ULDC needs a constant operand".into());
            };
            if c.reg.is_some_and(|r| !matches!(r, Reg::Urz | Reg::Rz)) {
                return Err("indexed ULDC is not modelled".into());
            }
            let v = d
                .banks
                .read(c.bank, c.offset.unwrap_or(0), u32::from(size.min(8)))?;
            let v = extend(v, size, signed);
            if size == 8 {
                Kind::Ldc {
                    d: d.dst(&dsts[0])?,
                    bank: c.bank,
                    reg: None,
                    off: c.offset.unwrap_or(0),
                    size,
                    signed,
                }
            } else {
                Kind::Mov {
                    d: d.dst(&dsts[0])?,
                    a: Src::Imm(v as u32),
                }
            }
        }
        CS2R => {
            let Operand::Special(n) = &s[0] else {
                return Err("CS2R needs a special register".into());
            };
            Kind::S2r {
                d: d.dst(&dsts[0])?,
                sr: sreg(n)?,
                wide: !has(i, "32"),
            }
        }
        S2R | S2UR => {
            let Operand::Special(n) = &s[0] else {
                return Err("S2R needs a special register".into());
            };
            Kind::S2r {
                d: d.dst(&dsts[0])?,
                sr: sreg(n)?,
                wide: false,
            }
        }
        VOTE | VOTEU => {
            let kind = if has(i, "ALL") {
                VoteKind::All
            } else if has(i, "ANY") {
                VoteKind::Any
            } else if has(i, "EQ") {
                VoteKind::Eq
            } else {
                return Err("VOTE needs .ALL/.ANY/.EQ".into());
            };
            let (mut dr, mut pd) = (Dst::None, PDst::None);
            for x in dsts {
                match x {
                    Operand::Reg(_) => dr = d.dst(x)?,
                    _ => pd = d.pdst(x)?,
                }
            }
            Kind::Vote {
                d: dr,
                p: pd,
                kind,
                src: d.psrc(&s[0])?,
            }
        }
        SHFL => Kind::Shfl {
            p: d.pdst(&dsts[0])?,
            d: d.dst(&dsts[1])?,
            a: d.plain(&s[0])?,
            b: d.plain(&s[1])?,
            c: d.plain(&s[2])?,
            mode: if has(i, "IDX") {
                ShflMode::Idx
            } else if has(i, "UP") {
                ShflMode::Up
            } else if has(i, "DOWN") {
                ShflMode::Down
            } else if has(i, "BFLY") {
                ShflMode::Bfly
            } else {
                return Err("SHFL needs a mode".into());
            },
        },
        MATCH => {
            let (p, dr) = if nd == 2 {
                (d.pdst(&dsts[0])?, d.dst(&dsts[1])?)
            } else {
                (PDst::None, d.dst(&dsts[0])?)
            };
            Kind::Match {
                p,
                d: dr,
                a: d.plain(&s[0])?,
                wide: has(i, "U64"),
                all: has(i, "ALL"),
            }
        }
        REDUX => {
            let op = [
                ("SUM", ReduxOp::Sum),
                ("MIN", ReduxOp::Min),
                ("MAX", ReduxOp::Max),
                ("AND", ReduxOp::And),
                ("OR", ReduxOp::Or),
                ("XOR", ReduxOp::Xor),
            ]
            .iter()
            .find(|(m, _)| has(i, m))
            // No modifier: AND, REDUX's default (ptxas 11.8 prints
            // `redux.sync.and.b32` as `REDUX UR6, R0`).
            .map_or(ReduxOp::And, |x| x.1);
            Kind::Redux {
                d: d.dst(&dsts[0])?,
                a: d.plain(&s[0])?,
                op,
                signed: has(i, "S32"),
            }
        }
        LDG | LD | LDS | LDL => {
            let space = match i.op {
                LDG => Space::Global,
                LDS => Space::Shared,
                LDL => Space::Local,
                _ => Space::Generic,
            };
            let (size, signed) = mem_size(i);
            let Operand::Mem(m) = &s[0] else {
                return Err("expected an address".into());
            };
            let wide = matches!(space, Space::Global | Space::Generic) && has(i, "E");
            Kind::Ld {
                space,
                d: d.dst(&dsts[0])?,
                addr: d.addr(m, wide)?,
                size,
                signed,
            }
        }
        STG | ST | STS | STL => {
            let space = match i.op {
                STG => Space::Global,
                STS => Space::Shared,
                STL => Space::Local,
                _ => Space::Generic,
            };
            let (size, _) = mem_size(i);
            let Operand::Mem(m) = &s[0] else {
                return Err("expected an address".into());
            };
            let wide = matches!(space, Space::Global | Space::Generic) && has(i, "E");
            Kind::St {
                space,
                addr: d.addr(m, wide)?,
                v: d.plain(&s[1])?,
                size,
            }
        }
        LDC => {
            let (size, signed) = mem_size(i);
            if has(i, "IL") || has(i, "IS") || has(i, "ISL") {
                return Err("LDC index modes are not modelled".into());
            }
            let Operand::Const(c) = &s[0] else {
                return Err("LDC needs a constant operand".into());
            };
            Kind::Ldc {
                d: d.dst(&dsts[0])?,
                bank: c.bank,
                reg: c.reg.map(|r| d.reg_src(r)),
                off: c.offset.unwrap_or(0),
                size,
                signed,
            }
        }
        ATOM | ATOMG | ATOMS | RED | REDG => decode_atom(d, i, dsts, s)?,
        QSPC => {
            // = P R M: the register result is not modelled (ptxas 11.8
            // writes RZ in every form measured: isspacep, the generic
            // f16x2 atomics).
            let space = [("S", b's'), ("L", b'l'), ("G", b'g')]
                .iter()
                .find(|(m, _)| has(i, m))
                .map(|x| x.1)
                .ok_or("QSPC without .S, .L or .G")?;
            if dsts.len() != 2 || d.dst(&dsts[1])? != Dst::None {
                return Err("QSPC with a register result is not modelled".into());
            }
            let Some(Operand::Mem(m)) = s.first() else {
                return Err("QSPC needs an address".into());
            };
            Kind::Qspc {
                pd: d.pdst(&dsts[0])?,
                addr: d.addr(m, has(i, "E"))?,
                space,
            }
        }
        BRA => {
            // = [P] [U] L
            let target = d.target(s.last().ok_or("BRA needs a target")?)?;
            let mut p = PSrc::TRUE;
            let mut div = None;
            for x in &s[..s.len() - 1] {
                match x {
                    Operand::Pred { .. } => p = d.psrc(x)?,
                    Operand::Reg(r) => {
                        let v = d.src(x)?;
                        let _ = r;
                        div = Some(v);
                    }
                    _ => return Err(format!("unexpected BRA operand {x}")),
                }
            }
            let test = if has(i, "DIV") {
                Some(Convergence::Diverged)
            } else if has(i, "CONV") {
                Some(Convergence::Converged)
            } else {
                None
            };
            let div = if let Some(test) = test {
                let m = div.unwrap_or(Sop::plain(Src::Imm(u32::MAX)));
                let mask = if m.not {
                    match m.s {
                        Src::Imm(v) => Src::Imm(!v),
                        _ => return Err("BRA.DIV/.CONV ~register is only modelled for URZ".into()),
                    }
                } else {
                    m.s
                };
                Some((mask, test))
            } else {
                if div.is_some() {
                    return Err(
                        "a BRA register operand without .DIV or .CONV is not modelled".into(),
                    );
                }
                if has(i, "INC") || has(i, "DEC") {
                    return Err("BRA.INC/.DEC are not modelled".into());
                }
                None
            };
            Kind::Bra { target, p, div }
        }
        JMP => Kind::Bra {
            target: d.target(&s[0])?,
            p: PSrc::TRUE,
            div: None,
        },
        BRX | JMX => {
            let Operand::RegRel { reg, offset } = &s[0] else {
                return Err("BRX needs `R offset`".into());
            };
            Kind::Brx {
                r: d.reg_src(*reg),
                off: *offset,
            }
        }
        CALL => match &s[0] {
            Operand::Label(_) | Operand::Imm(_) => Kind::Call {
                target: d.target(&s[0])?,
            },
            // `CALL.REL.NOINC R6 0x0` (ptxas 11.8 through a function
            // address): like RET, the printed offset is resolved.
            Operand::RegRel { reg, offset } => Kind::CallReg {
                r: d.reg_src(*reg),
                off: *offset,
            },
            _ => return Err("CALL needs a label, an address or `R offset`".into()),
        },
        RET => {
            let Operand::RegRel { reg, offset } = &s[0] else {
                return Err("RET needs `R offset`".into());
            };
            Kind::Ret {
                r: d.reg_src(*reg),
                off: *offset,
            }
        }
        EXIT => Kind::Exit,
        KILL => Kind::Exit,
        BSSY => {
            let Operand::Barrier(b) = &dsts[0] else {
                return Err("BSSY needs a barrier".into());
            };
            Kind::Bssy { b: *b }
        }
        BSYNC => {
            let Operand::Barrier(b) = &s[0] else {
                return Err("BSYNC needs a barrier".into());
            };
            Kind::Bsync { b: *b }
        }
        BREAK => {
            let Operand::Barrier(b) = s.last().unwrap() else {
                return Err("BREAK needs a barrier".into());
            };
            let p = if s.len() == 2 {
                d.psrc(&s[0])?
            } else {
                PSrc::TRUE
            };
            Kind::Break { b: *b, p }
        }
        BMOV => match (&dsts[0], &s[0]) {
            (Operand::Barrier(b), src) => Kind::BmovToB {
                b: *b,
                a: d.plain(src)?,
            },
            (dr, Operand::Barrier(b)) => Kind::BmovToR {
                d: d.dst(dr)?,
                b: *b,
                clear: has(i, "CLEAR"),
            },
            _ => return Err("BMOV form not modelled".into()),
        },
        WARPSYNC => {
            let mask = if has(i, "ALL") {
                Src::Imm(u32::MAX)
            } else {
                d.plain(&s[0])?
            };
            let collective = if has(i, "COLLECTIVE") {
                Some(d.target(s.get(1).ok_or("WARPSYNC.COLLECTIVE needs a target")?)?)
            } else {
                None
            };
            Kind::Warpsync { mask, collective }
        }
        ENDCOLLECTIVE => Kind::EndCollective,
        BAR => {
            let kind = if has(i, "RED") {
                if has(i, "POPC") {
                    BarKind::RedPopc
                } else if has(i, "AND") {
                    BarKind::RedAnd
                } else if has(i, "OR") {
                    BarKind::RedOr
                } else {
                    return Err("BAR.RED needs .POPC/.AND/.OR".into());
                }
            } else if has(i, "ARV") {
                BarKind::Arrive
            } else {
                BarKind::Sync
            };
            let mut vals = Vec::new();
            let mut p = PSrc::TRUE;
            for x in s {
                match x {
                    Operand::Pred { .. } => p = d.psrc(x)?,
                    _ => vals.push(d.plain(x)?),
                }
            }
            Kind::Bar {
                kind,
                id: vals.first().copied().unwrap_or(Src::Imm(0)),
                count: vals.get(1).copied(),
                p,
            }
        }
        B2R => {
            if !has(i, "RESULT") {
                return Err("only B2R.RESULT is modelled".into());
            }
            Kind::B2r {
                d: d.dst(&dsts[0])?,
                p: match dsts.get(1) {
                    Some(x) => d.pdst(x)?,
                    None => PDst::None,
                },
            }
        }
        TEX | TLD | TLD4 => decode_tex(d, i, dsts, s)?,
        TXD => decode_txd(d, i, dsts, s)?,
        TXQ => decode_txq(d, i, dsts, s)?,
        F2F | F2I | I2F | I2FP | FRND | F2FP | FADD | FMUL | FFMA | FMNMX | FSET | FSETP | FCHK
        | MUFU | DADD | DMUL | DFMA | DSETP | HADD2 | HMUL2 | HFMA2 | HSETP2 | HSET2 | HMNMX2 => {
            let fi = float::decode(d, i)?;
            match float::fold(&fi) {
                // All operands immediate: the constant, computed once.
                Some(v) => Kind::Mov {
                    d: fi.d,
                    a: Src::Imm(v),
                },
                None => Kind::F(fi),
            }
        }
        // Surfaces (corpus/LAUNCH_SPEC.md "Surfaces"): exec/surf.rs.
        SULD | SUST | SURED => Kind::Surf(Box::new(super::exec::surf::decode(d, i, dsts, s)?)),
        SUATOM => return Err("SUATOM is not modelled by the SASS simulator".into()),
        _ => return Err("not implemented in the simulator".into()),
    })
}

fn pr_shift(i: &Inst) -> u32 {
    if has(i, "B1") {
        8
    } else if has(i, "B2") {
        16
    } else if has(i, "B3") {
        24
    } else {
        0
    }
}

/// Zero- or sign-extends the low `size` bytes.
pub fn extend(v: u64, size: u8, signed: bool) -> u64 {
    match (size, signed) {
        (1, true) => v as u8 as i8 as i64 as u64,
        (2, true) => v as u16 as i16 as i64 as u64,
        (1, false) => v & 0xff,
        (2, false) => v & 0xffff,
        _ => v,
    }
}

fn decode_atom(d: &Dec<'_>, i: &Inst, dsts: &[Operand], s: &[Operand]) -> DResult<Kind> {
    let space = match i.op {
        Op::ATOMS => Space::Shared,
        Op::ATOMG | Op::REDG => Space::Global,
        _ => Space::Generic,
    };
    let popc = has(i, "POPC") && has(i, "INC");
    let op = if popc {
        AtomOp::Add
    } else {
        [
            ("ADD", AtomOp::Add),
            ("SAFEADD", AtomOp::Add),
            ("MIN", AtomOp::Min),
            ("MAX", AtomOp::Max),
            ("INC", AtomOp::Inc),
            ("DEC", AtomOp::Dec),
            ("AND", AtomOp::And),
            ("OR", AtomOp::Or),
            ("XOR", AtomOp::Xor),
            ("EXCH", AtomOp::Exch),
            ("CAS", AtomOp::Cas),
            ("CAST", AtomOp::Cas),
        ]
        .iter()
        .find(|(m, _)| has(i, m))
        .map(|x| x.1)
        .ok_or("no atomic operation modifier")?
    };
    // `CAST.SPIN` is modelled on its shared forms, the ones ptxas 11.8
    // emits in its spin loops (exec/mem.rs `atomic`; `.64` for the 64-bit
    // generic fallbacks, compiler/src/lower/atom_generic.rs).
    let spin = has(i, "CAST") && has(i, "SPIN");
    if (has(i, "CAST") || has(i, "SPIN")) && (!spin || space != Space::Shared) {
        return Err("ATOMS.CAST/.SPIN other than ATOMS.CAST.SPIN[.64] are not modelled".into());
    }
    // The spaces a generic ATOM/RED acts on, and the forms the shared
    // ATOMS lacks: the rules ptxc's lowering uses too
    // (compiler/src/ir/atom_reach.rs, measured on ptxas 11.8).
    let opname = i
        .mods
        .iter()
        .copied()
        .find(|m| {
            matches!(
                *m,
                "ADD" | "MIN" | "MAX" | "INC" | "DEC" | "AND" | "OR" | "XOR" | "EXCH" | "CAS"
            )
        })
        .unwrap_or("ADD");
    let tymod = reach_type_mod(i.mods.iter().copied());
    if space == Space::Shared && !popc && !spin && !shared_has(opname, tymod) {
        return Err(format!(
            "ATOMS.{opname}.{} does not exist (ptxas 11.8 writes an ATOMS.CAST.SPIN loop)",
            tymod.unwrap_or("")
        ));
    }
    let reach = if space == Space::Generic {
        generic_reach(opname, tymod)
    } else {
        Reach::All
    };
    let ty = if has(i, "F32") {
        AtomTy::F32
    } else if has(i, "F64") {
        AtomTy::F64
    } else if has(i, "F16x2") {
        AtomTy::F16x2
    } else if has(i, "BF16x2") {
        AtomTy::Bf16x2
    } else if has(i, "S64") {
        AtomTy::S64
    } else if has(i, "64") || has(i, "U64") {
        AtomTy::U64
    } else if has(i, "S32") {
        AtomTy::S32
    } else {
        AtomTy::U32
    };
    let (mut dr, mut pd) = (Dst::None, PDst::None);
    for x in dsts {
        match x {
            Operand::Reg(_) => dr = d.dst(x)?,
            _ => pd = d.pdst(x)?,
        }
    }
    let Operand::Mem(m) = &s[0] else {
        return Err("expected an address".into());
    };
    let wide = space != Space::Shared && has(i, "E");
    Ok(Kind::Atom {
        space,
        op,
        popc,
        spin,
        reach,
        ty,
        ftz: has(i, "FTZ"),
        d: dr,
        pd,
        addr: d.addr(m, wide)?,
        b: s.get(1)
            .map(|x| d.plain(x))
            .transpose()?
            .unwrap_or(Src::Imm(0)),
        c: s.get(2)
            .map(|x| d.plain(x))
            .transpose()?
            .unwrap_or(Src::Imm(0)),
    })
}

fn decode_txq(d: &Dec<'_>, i: &Inst, dsts: &[Operand], s: &[Operand]) -> DResult<Kind> {
    // ptxas 11.8, sm_70/sm_80 (`txq.width.b32 %r1, [%rd1]`):
    // `TXQ RZ, R3, R3, TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1` when the
    // handle is kernel parameter c[0x0][0x160] (source: the level), and
    // `TXQ.B RZ, R5, R8, TEX_HEADER_DIMENSION, 0x1` for a handle in a
    // register (source pair: R8 the handle's low word, R9 the level).
    let q = s
        .iter()
        .position(|o| matches!(o, Operand::Special(n) if n.starts_with("TEX_")))
        .ok_or("TXQ without a query operand")?;
    let Operand::Special(query) = &s[q] else {
        unreachable!()
    };
    if query != "TEX_HEADER_DIMENSION" {
        return Err(format!("TXQ {query} is not modelled"));
    }
    let mask = d.imm(s.last().ok_or("TXQ without a mask")?)? as u8;
    let src = d.plain(&s[0])?;
    let (lod, tex) = if has(i, "B") {
        let Src::R(h) = src else {
            return Err("TXQ.B handle is not a general register".into());
        };
        (Src::R(h + 1), TexRef::Reg(h))
    } else {
        let slot = d.imm(s.get(q + 2).ok_or("TXQ without a slot")?)? as u32;
        (src, TexRef::Slot(slot))
    };
    Ok(Kind::Txq {
        d0: d.dst(&dsts[1])?,
        d1: d.dst(&dsts[0])?,
        lod,
        tex,
        mask,
    })
}

fn decode_tex(d: &Dec<'_>, i: &Inst, dsts: &[Operand], s: &[Operand]) -> DResult<Kind> {
    // `TLD.SCR.LZ RZ, R4, R4, 0x0, 0x58, 1D, 0x1` (slot form) and
    // `TLD.LZ RZ, R3, R3, UR4, 0x0, 1D, 0x1` (handle form). With `.LL`
    // (explicit level of detail) an f32 LOD follows the coordinates:
    // `TEX.SCR.LL RZ, R12, R12, R28, 0x0, 0x66, 2D, 0x3` and
    // `TEX.LL RZ, R18, R18, R26, UR4, 0x0, 2D, 0x3` (ptxas 11.8 for a
    // `tex.2d` under divergent control, LOD -32.0). A launch spec's texture
    // has one level, and the level of detail is clamped to the levels there
    // are, so every LOD reads level 0 (like `.LZ`); the filter is the
    // texture's only one.
    //
    // `.AOFFI` (texel offsets) on TLD: `TLD.SCR.LZ.AOFFI RZ, R8, R8, R23,
    // 0x0, 0x66, 2D, 0x3` with `R23 = 0xcc` for `tex.2d...s32` at
    // coordinates `(x - 4, y - 4)` (ptxas 11.8, sm_80, generator seed
    // 2003): the value after the coordinates packs one signed 4-bit
    // offset per dimension, x in bits 3:0, y in 7:4, z in 11:8, added to
    // the integer coordinates before the address mode.
    //
    // The source values are [array index (ARRAY_1D/ARRAY_2D)] + the
    // coordinates + [LOD or offsets], in two register groups Ra and Rb
    // (ptxas 11.8 on tex.a1d/a2d, tld4.a2d, tex.level.a2d and tex.3d,
    // oracle/tests/tex_array_vendor/):
    // * `.SCR` (slot) forms: Ra holds the first two values (at most the
    //   index and the coordinates: a 1D `.AOFFI` fetch, this compiler's
    //   texel-offset fold, has x in Ra and the offsets in Rb), Rb the rest:
    //   `TEX.SCR.LL R6, R4, R4, R10, 0x0, 0x58, ARRAY_2D` for
    //   tex.level.a2d with the index in R4, x in R5, y in R10 and the LOD
    //   in R11 (level_grad.sm_80); `TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x58,
    //   3D` (z in R6). With two values or fewer ptxas still prints an Rb
    //   (`TLD.SCR.LZ R6, R4, R4, R5, ..., ARRAY_1D`), and with exactly
    //   two values that Rb holds the second (`TLD.SCR.LZ P1, R22, R20, R7,
    //   R6, ..., 2D`: x = R7, y = R6, tex_resident_vendor; R5 above is
    //   Ra + 1, so both readings agree there).
    //   Without Rb (this compiler's plain forms) Ra holds every value.
    // * handle forms (`UR4`, or the compiler's sm_70 general register
    //   handle, the last register before the `0x0`): Ra holds the index
    //   and the coordinates, Rb the LOD: `TEX.LL R6, R4, R4, R7, UR4, 0x0,
    //   ARRAY_2D` (index, x, y in R4..R6, LOD R7) and `TLD.LZ R6, R4, R4,
    //   UR4, 0x0, ARRAY_2D` (tex_array.sm_90).
    // The write mask follows the shape; ptxas omits it when it is 0xf
    // (`..., ARRAY_2D ;` with four channels stored).
    let aoffi = has(i, "AOFFI");
    if has(i, "DC") || has(i, "MS") || has(i, "PTP") || has(i, "CL") {
        return Err("texture modifiers .DC/.MS/.PTP/.CL are not modelled".into());
    }
    if aoffi && (i.op != Op::TLD || has(i, "LL")) {
        return Err("texel offsets (.AOFFI) are modelled only on TLD without .LL".into());
    }
    let explicit_lod = has(i, "LL");
    if !(has(i, "LZ") || explicit_lod || i.op == Op::TLD4) {
        return Err(
            "only level-zero and explicit-level (.LZ, .LL) texture accesses are modelled".into(),
        );
    }
    let (nonresident, rdsts) = tex_dests(d, dsts)?;
    let (t, dims, layered) = tex_shape(s)?;
    let mask = match s.get(t + 1) {
        Some(o) => d.imm(o)? as u8,
        None => 0xf,
    };
    let n = u8::from(layered) + dims + u8::from(explicit_lod || aoffi);
    let nregs = s[..t]
        .iter()
        .position(|o| !matches!(o, Operand::Reg(_)))
        .unwrap_or(t);
    let regs = &s[..nregs];
    let ra = d.plain(
        regs.first()
            .ok_or("texture fetch without source registers")?,
    )?;
    let (rb, tex, ra_len) = if has(i, "SCR") {
        let rb = regs.get(1).map(|o| d.plain(o)).transpose()?;
        let slot = TexRef::Slot(d.imm(&s[t - 1])? as u32);
        let coords = u8::from(layered) + dims;
        // Two values in all: x (or the index) in Ra, the second in Rb
        // (`TLD.SCR.LZ P1, R22, R20, R7, R6, 0x0, 0x5a, 2D` with x = R7,
        // y = R6, tex_resident_vendor/resident.sm_80.O3.sass).
        let ra_len = match rb {
            None => n,
            Some(_) if n == 2 => 1,
            Some(_) => coords.min(2),
        };
        (rb, slot, ra_len)
    } else {
        if regs.len() < 2 || regs.len() > 3 {
            return Err("texture handle form needs Ra, [Rb,] and a handle register".into());
        }
        let tex = match d.plain(&regs[regs.len() - 1])? {
            Src::U(u) => TexRef::Handle(u),
            Src::R(r) => TexRef::Reg(r),
            _ => return Err("texture handle is not a register".into()),
        };
        let rb = if regs.len() == 3 {
            Some(d.plain(&regs[1])?)
        } else {
            None
        };
        let ra_len = if rb.is_some() {
            u8::from(layered) + dims
        } else {
            n
        };
        (rb, tex, ra_len)
    };
    let op = match i.op {
        Op::TLD => TexOp::Tld,
        Op::TEX => TexOp::Tex,
        _ => TexOp::Tld4 {
            comp: if has(i, "G") {
                1
            } else if has(i, "B") {
                2
            } else if has(i, "A") {
                3
            } else {
                0
            },
        },
    };
    Ok(Kind::Tex(TexInst {
        op,
        d0: d.dst(&rdsts[1])?,
        d1: d.dst(&rdsts[0])?,
        ra,
        rb,
        ra_len,
        tex,
        dims,
        layered,
        aoffi,
        lod: if explicit_lod {
            TexLod::Level
        } else {
            TexLod::Zero
        },
        mask,
        nonresident,
    }))
}

/// A fetch's destinations: the optional predicate (first, when three are
/// printed) and the two channel-pair registers.
fn tex_dests<'o>(d: &Dec<'_>, dsts: &'o [Operand]) -> DResult<(PDst, &'o [Operand])> {
    match dsts {
        [pd, rest @ ..] if rest.len() == 2 => Ok((d.pdst(pd)?, rest)),
        [_, _] => Ok((PDst::None, dsts)),
        _ => Err("a texture fetch has [P,] and two register destinations".into()),
    }
}

/// The texture shape operand's position, dimensions and layering
/// (`1D`, `2D`, `3D`, `ARRAY_1D`, `ARRAY_2D`).
fn tex_shape(s: &[Operand]) -> DResult<(usize, u8, bool)> {
    let t = s
        .iter()
        .position(|o| matches!(o, Operand::TexShape(_)))
        .ok_or("no texture shape operand")?;
    let Operand::TexShape(shape) = &s[t] else {
        unreachable!()
    };
    let (dims, layered) = match shape.as_str() {
        "1D" => (1, false),
        "2D" => (2, false),
        "3D" => (3, false),
        "ARRAY_1D" => (1, true),
        "ARRAY_2D" => (2, true),
        _ => return Err(format!("texture shape {shape} is not modelled")),
    };
    Ok((t, dims, layered))
}

fn decode_txd(d: &Dec<'_>, i: &Inst, dsts: &[Operand], s: &[Operand]) -> DResult<Kind> {
    // `TXD` (explicit gradients; ptxas 11.8 for tex.grad.{1d,2d,a1d,a2d},
    // compiler/src/lower/tex_lod.rs, lod.sm_80/90): `TXD R26, R24, R20, R24, 0x0, 0x5a,
    // ARRAY_2D` (slot form, no `.SCR`: two source registers, then 0x0 and
    // the slot) and `TXD R30, R28, R20, R28, UR6, 0x0, ARRAY_2D` (handle
    // form: Ra, Rb and the handle; the compiler's sm_70 form names a
    // general register there). Ra holds the coordinates then the array
    // index (x, y, index for ARRAY_2D; x, index for ARRAY_1D), Rb the
    // gradients interleaved per dimension (dPdx.x, dPdy.x, dPdx.y,
    // dPdy.y). A PTX .1d fetch is a 2D TXD at y = 0.
    if i.mods.iter().any(|m| *m != "NODEP") {
        return Err("TXD modifiers other than .NODEP are not modelled".into());
    }
    let (nonresident, rdsts) = tex_dests(d, dsts)?;
    let (t, dims, layered) = tex_shape(s)?;
    if dims == 3 {
        return Err("a 3D TXD is not modelled".into());
    }
    let mask = match s.get(t + 1) {
        Some(o) => d.imm(o)? as u8,
        None => 0xf,
    };
    let nregs = s[..t]
        .iter()
        .position(|o| !matches!(o, Operand::Reg(_)))
        .unwrap_or(t);
    let ra = d.plain(&s[0])?;
    let rb = Some(d.plain(s.get(1).ok_or("TXD without its gradient group")?)?);
    let tex = match nregs {
        2 => TexRef::Slot(d.imm(&s[t - 1])? as u32),
        3 => match d.plain(&s[2])? {
            Src::U(u) => TexRef::Handle(u),
            Src::R(r) => TexRef::Reg(r),
            _ => return Err("texture handle is not a register".into()),
        },
        _ => return Err("TXD needs Ra, Rb and a slot or handle".into()),
    };
    Ok(Kind::Tex(TexInst {
        op: TexOp::Tex,
        d0: d.dst(&rdsts[1])?,
        d1: d.dst(&rdsts[0])?,
        ra,
        rb,
        ra_len: u8::from(layered) + dims,
        tex,
        dims,
        layered,
        aoffi: false,
        lod: TexLod::Grad,
        mask,
        nonresident,
    }))
}
