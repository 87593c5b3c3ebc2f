//! The IR builder: blocks and labels, fresh virtual registers, pairs and
//! predicates, and [`Builder::emit`], which checks every instruction against
//! the opcode table (modifiers, operand shape) and the target SM.
//!
//! Virtual general registers are numbered from 0 with no gaps the lowering
//! relies on; a 64-bit value takes an aligned pair `V(2k), V(2k+1)` (low word
//! first) and a 128-bit one an aligned quad, the convention of the IR and
//! the simulator. Predicates are numbered separately.

use smallvec::SmallVec;

use super::LowerError;
use crate::ir::sass_text::{ConstRef, Guard, MemBase, MemRef, Pred, Reg, RegOperand};
use crate::ir::{Block, Inst, Op, Operand};
use crate::ptx::Span;
use crate::targets::SmInfo;

pub type R<T = ()> = Result<T, LowerError>;

pub struct Builder {
    pub sm: &'static SmInfo,
    pub blocks: Vec<Block>,
    next_v: u32,
    next_p: u32,
    next_uv: u32,
    next_label: u32,
    /// The guard applied to every emitted instruction that has none
    /// (a PTX `@%p` on a single-instruction lowering).
    pub guard: Option<Guard>,
    /// The PTX position errors are reported at.
    pub span: Span,
}

impl Builder {
    pub fn new(sm: &'static SmInfo) -> Builder {
        Builder {
            sm,
            blocks: vec![Block {
                label: 0,
                insts: Vec::new(),
            }],
            next_v: 0,
            next_p: 0,
            next_uv: 0,
            next_label: 1,
            guard: None,
            span: Span::DUMMY,
        }
    }

    pub fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(LowerError::new(self.span, msg))
    }

    /// A fresh 32-bit virtual register.
    pub fn vreg(&mut self) -> u32 {
        let v = self.next_v;
        self.next_v += 1;
        v
    }

    /// A fresh aligned pair (64-bit value); returns the low register.
    pub fn vpair(&mut self) -> u32 {
        self.valigned(2)
    }

    /// `n` consecutive registers aligned to `n` (n a power of two).
    pub fn valigned(&mut self, n: u32) -> u32 {
        let v = self.next_v.next_multiple_of(n);
        self.next_v = v + n;
        v
    }

    pub fn vpred(&mut self) -> u32 {
        let p = self.next_p;
        self.next_p += 1;
        p
    }

    /// A fresh uniform register pair (the global-memory descriptor).
    pub fn uvpair(&mut self) -> u32 {
        let v = self.next_uv.next_multiple_of(2);
        self.next_uv = v + 2;
        v
    }

    /// A fresh uniform register (`REDUX`'s destination).
    pub fn uvreg(&mut self) -> u32 {
        let v = self.next_uv;
        self.next_uv += 1;
        v
    }

    pub fn new_label(&mut self) -> u32 {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// Starts block `label` after the current one; control falls through.
    pub fn start_block(&mut self, label: u32) {
        self.blocks.push(Block {
            label,
            insts: Vec::new(),
        });
    }

    /// The label of the block being filled.
    pub fn cur_label(&self) -> u32 {
        self.blocks.last().expect("a block").label
    }

    /// Emits one instruction with the active guard.
    pub fn emit(&mut self, op: Op, mods: &[&str], ops: impl IntoIterator<Item = Operand>) -> R {
        let g = self.guard;
        self.emit_g(g, op, mods, ops)
    }

    /// Emits one instruction with its own guard; an active PTX guard and
    /// an instruction guard cannot both hold (the caller branches around).
    pub fn emit_g(
        &mut self,
        guard: Option<Guard>,
        op: Op,
        mods: &[&str],
        ops: impl IntoIterator<Item = Operand>,
    ) -> R {
        // The opcodes phase 5 (ConvertUnsupportedOps) expands are emitted
        // on every target; everything else the target lacks (an opcode, or
        // a modifier the opcode table marks as later) is refused.
        let lack = if op.expanded_where_missing() {
            op.lacking_modifier(mods, self.sm)
        } else {
            op.lacking(mods, self.sm)
        };
        if let Some(l) = lack {
            return self.err(l.message(self.sm));
        }
        let guard = match (guard, self.guard) {
            (Some(g), Some(a)) if g != a => {
                return self.err(format!(
                    "internal: guarded {op} inside a guarded PTX instruction"
                ))
            }
            (g, a) => g.or(a),
        };
        let ops: SmallVec<[Operand; 6]> = ops.into_iter().collect();
        let inst =
            Inst::new(op, mods, guard, ops).map_err(|e| LowerError::new(self.span, e.msg))?;
        self.blocks.last_mut().expect("a block").insts.push(inst);
        Ok(())
    }

    /// Removes empty blocks, retargeting their labels to the next block
    /// that has instructions (consecutive PTX labels, a label at the end).
    pub fn finish(mut self) -> Vec<Block> {
        let n = self.blocks.len();
        let mut target = vec![None; n];
        let mut next = None;
        for i in (0..n).rev() {
            if !self.blocks[i].insts.is_empty() {
                next = Some(self.blocks[i].label);
            }
            target[i] = next;
        }
        let mut map = std::collections::HashMap::new();
        for (i, b) in self.blocks.iter().enumerate() {
            if b.insts.is_empty() {
                if let Some(t) = target[i] {
                    map.insert(b.label, t);
                }
            }
        }
        self.blocks.retain(|b| !b.insts.is_empty());
        for b in &mut self.blocks {
            for i in &mut b.insts {
                for o in &mut i.operands {
                    if let Operand::Label(l) = o {
                        if let Some(&t) = map.get(l) {
                            *l = t;
                        }
                    }
                }
            }
        }
        self.blocks
    }
}

// ---- operand constructors -------------------------------------------------

pub fn reg(r: Reg) -> Operand {
    Operand::Reg(RegOperand {
        reg: r,
        neg: false,
        not: false,
        abs: false,
        reuse: false,
        sel: None,
    })
}

/// Virtual general register `%rN`.
pub fn r(v: u32) -> Operand {
    reg(Reg::V(v))
}

pub fn rz() -> Operand {
    reg(Reg::Rz)
}

/// Physical R1, the stack pointer.
pub fn sp() -> Operand {
    reg(Reg::R(1))
}

/// `-x` of a register or constant operand; immediates are negated in value.
pub fn neg(o: Operand) -> Operand {
    match o {
        Operand::Reg(mut x) => {
            x.neg = !x.neg;
            Operand::Reg(x)
        }
        Operand::Const(mut c) => {
            c.neg = !c.neg;
            Operand::Const(c)
        }
        Operand::Imm(v) => Operand::Imm(-v),
        Operand::FloatImm(t) => Operand::FloatImm(match t.strip_prefix('-') {
            Some(s) => s.to_string(),
            None => format!("-{}", t.trim_start_matches('+')),
        }),
        o => o,
    }
}

/// `~x` of a register or constant operand; 32-bit immediates complemented.
pub fn not(o: Operand) -> Operand {
    match o {
        Operand::Reg(mut x) => {
            x.not = !x.not;
            Operand::Reg(x)
        }
        Operand::Const(mut c) => {
            c.not = !c.not;
            Operand::Const(c)
        }
        Operand::Imm(v) => Operand::Imm(i64::from(!(v as u32))),
        o => o,
    }
}

/// `|x|`.
pub fn abs(o: Operand) -> Operand {
    match o {
        Operand::Reg(mut x) => {
            x.abs = true;
            x.neg = false;
            Operand::Reg(x)
        }
        Operand::Const(mut c) => {
            c.abs = true;
            c.neg = false;
            Operand::Const(c)
        }
        o => o,
    }
}

pub fn p(v: u32) -> Operand {
    Operand::Pred {
        pred: Pred::V(v),
        not: false,
    }
}

pub fn pnot(v: u32) -> Operand {
    Operand::Pred {
        pred: Pred::V(v),
        not: true,
    }
}

pub fn pt() -> Operand {
    Operand::Pred {
        pred: Pred::Pt,
        not: false,
    }
}

pub fn npt() -> Operand {
    Operand::Pred {
        pred: Pred::Pt,
        not: true,
    }
}

/// A 32-bit immediate, kept as its signed value (cuobjdump prints `-0x1`).
pub fn imm(v: i64) -> Operand {
    Operand::Imm(v)
}

/// An immediate from 32 bits: values with the top bit set print as
/// cuobjdump does for logic ops (`0x80000000`).
pub fn imm32(v: u32) -> Operand {
    Operand::Imm(i64::from(v))
}

/// `c[bank][offset]`.
pub fn cbank(bank: u32, offset: u32) -> Operand {
    Operand::Const(ConstRef {
        bank,
        reg: None,
        offset: Some(i64::from(offset)),
        neg: false,
        abs: false,
        not: false,
    })
}

/// `[base+offset]`; `wide` prints `.64`.
pub fn mem(base: Reg, wide: bool, offset: i64) -> Operand {
    Operand::Mem(MemRef {
        desc: None,
        base: Some(MemBase {
            reg: base,
            wide,
            u32: false,
        }),
        index: None,
        offset: (offset != 0).then_some(offset),
    })
}

pub fn guard(v: u32, negated: bool) -> Guard {
    Guard {
        pred: Pred::V(v),
        negated,
    }
}

/// A float immediate for an f32 operand when its text is short and exact,
/// else `None` (the caller materializes the bits).
pub fn f32_imm(bits: u32) -> Option<Operand> {
    let f = f32::from_bits(bits);
    if !f.is_finite() {
        return None;
    }
    let t = format!("{f}");
    let exact = t.parse::<f32>().ok().map(f32::to_bits) == Some(bits)
        && t.parse::<f64>().ok().map(|d| (d as f32).to_bits()) == Some(bits);
    (exact && t.len() <= 16).then_some(Operand::FloatImm(t))
}

/// A float immediate for an f64 operand: only values whose low word is
/// zero (what the 32-bit immediate field of DADD/DMUL/DFMA encodes).
pub fn f64_imm(bits: u64) -> Option<Operand> {
    let f = f64::from_bits(bits);
    if !f.is_finite() || bits as u32 != 0 {
        return None;
    }
    let t = format!("{f}");
    (t.parse::<f64>().ok().map(f64::to_bits) == Some(bits) && t.len() <= 24)
        .then_some(Operand::FloatImm(t))
}

/// Whether an operand is a general register (register-only slots).
pub fn is_reg(o: &Operand) -> bool {
    matches!(o, Operand::Reg(x) if matches!(x.reg, Reg::V(_) | Reg::R(_) | Reg::Rz))
}
