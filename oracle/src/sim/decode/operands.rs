//! Operand decoding: registers, predicates, immediates, constants and
//! addresses resolved once into the executable form ([`Src`], [`Sop`],
//! [`Dst`], ...), and [`Roles`], an instruction's operands named by the
//! role its opcode's shape gives them.

use ptxc::ir::opcode::{match_shape, ShapeMatch};
use ptxc::ir::sass_text::{
    float_imm_bits, ConstRef, FloatImmError, FloatImmType, MemRef, Pred, Reg, RegOperand,
};
use ptxc::ir::{Function, Inst, Operand};

use super::super::cbank::Banks;
use super::super::program::{Addr, Dst, PDst, PSrc, Sop, Sop64, Src, Src64};
use super::super::regs::RegMap;
use super::super::semantics::HalfSel;

/// How a float immediate is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmTy {
    F32,
    F64,
    F16,
    /// An integer context: a float immediate is refused.
    Int,
}

/// The bits of a float immediate as cuobjdump prints it (`0.5`, `+INF`,
/// `-QNAN`, ...): [`float_imm_bits`] of the SASS text layer, in the format
/// `ty`.
pub fn parse_imm(t: &str, ty: ImmTy) -> DResult<u64> {
    let fty = match ty {
        ImmTy::F32 => FloatImmType::F32,
        ImmTy::F64 => FloatImmType::F64,
        ImmTy::F16 => FloatImmType::F16,
        ImmTy::Int => return Err(format!("float immediate {t} in an integer operation")),
    };
    float_imm_bits(t, fty).map_err(|e| match e {
        FloatImmError::Snan => "SNAN immediates are not modelled".into(),
        FloatImmError::Bad => format!("bad float immediate {t}"),
    })
}

/// An instruction's operands by the role its opcode's shape names
/// (compiler/src/ir/opcode/shape.rs: `R:d [P:co] = S:a S:b S:c [P:ci]`):
/// "the carry-in", "operand b", instead of a position that depends on
/// which optional operands are printed.
pub struct Roles<'i> {
    ops: &'i [Operand],
    m: Option<ShapeMatch>,
}

impl<'i> Roles<'i> {
    pub fn of(i: &'i Inst) -> Roles<'i> {
        let info = i.op.info();
        Roles {
            ops: &i.operands,
            m: match_shape(info.name, info.shapes, &i.operands).ok(),
        }
    }

    /// The operand playing `role`, if the instruction has one.
    pub fn get(&self, role: &str) -> Option<&'i Operand> {
        let k = self.m.as_ref()?.position(role)?;
        Some(&self.ops[k])
    }

    /// The operand playing `role`; an error when it is absent.
    pub fn req(&self, role: &str) -> DResult<&'i Operand> {
        self.get(role).ok_or_else(|| format!("no `{role}` operand"))
    }
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
    /// An optional predicate destination: `PDst::None` when absent.
    pub fn opt_pdst(&self, o: Option<&Operand>) -> DResult<PDst> {
        o.map(|p| self.pdst(p))
            .transpose()
            .map(|p| p.unwrap_or(PDst::None))
    }

    /// An optional predicate source, `default` when absent.
    pub fn opt_psrc(&self, o: Option<&Operand>, default: PSrc) -> DResult<PSrc> {
        o.map(|p| self.psrc(p))
            .transpose()
            .map(|p| p.unwrap_or(default))
    }
}
