//! The executable form: a [`Function`] becomes a [`Program`] once per
//! launch ([`decode`]), each instruction a [`DInst`] whose [`Kind`] holds
//! pre-resolved operands (register indices, immediates, constant-bank
//! values), so the hot loop never looks at strings. Anything the simulator
//! cannot execute faithfully decodes to [`Kind::Fault`], which faults
//! (naming pc, lane and text) only if it is executed. The decoder itself,
//! one instruction at a time, is `decode/`.

use std::sync::Arc;

use ptxc::ir::atom_reach::Reach;
use ptxc::ir::opcode::Category;
use ptxc::ir::{Function, Inst, Op};
use ptxc::targets::SmInfo;

use super::cbank::Banks;
use super::decode::{inst as decode_inst, Dec};
use super::exec::float::FInst;
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

/// A decoded texture fetch (TLD, TEX, TLD4); see `decode/texture.rs`
/// for the operand layout.
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
    /// gradients (`dPdx.x, dPdy.x, dPdx.y, dPdy.y`), see `decode/texture.rs`.
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
        let kind = decode_inst(&dec, i, sm);
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
