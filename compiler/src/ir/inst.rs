//! Instructions: an opcode from the table, its modifiers, an optional guard
//! predicate and its operands, destinations first.

use smallvec::SmallVec;

use super::control::Control;
use super::opcode::{match_shape, Op};
use super::sass_text::{Guard, SassOperand};
use super::IrError;

/// Operands are the SASS text layer's structured operands: registers
/// (physical or virtual) with their source modifiers, predicates, constant
/// banks, addresses, immediates, special registers, barriers, labels.
pub type Operand = SassOperand;

/// One instruction.
#[derive(Clone, Debug, Eq)]
pub struct Inst {
    pub op: Op,
    /// Dotted modifiers in order, each one the table accepts for `op`.
    pub mods: SmallVec<[&'static str; 4]>,
    pub guard: Option<Guard>,
    /// Destinations (the first `ndst`), then sources.
    pub operands: SmallVec<[Operand; 5]>,
    pub ndst: u8,
    /// The vendor encoding when the instruction came from a cuobjdump
    /// listing (its control bits carry the scoreboard use the latency test
    /// checks); `None` for compiler-made instructions.
    pub encoding: Option<u128>,
    /// The control codes of an instruction without an encoding (those of
    /// an encoded one are its encoding's bits): read and written through
    /// [`Inst::control`] and [`Inst::set_control`], which keep this `None`
    /// whenever `encoding` is set, so equal instructions have equal codes.
    pub ctrl: Option<Control>,
}

/// Field-by-field equality, as derived, in an order that rejects early:
/// the cheap scalar fields first, and the modifiers by address before
/// content (they are table strings, so equal ones usually share one).
/// Whole-function comparisons ([`super::analysis_cache`]) run this on
/// every instruction.
impl PartialEq for Inst {
    fn eq(&self, o: &Inst) -> bool {
        self.op == o.op
            && self.ndst == o.ndst
            && self.guard == o.guard
            && self.operands.len() == o.operands.len()
            && self.mods.len() == o.mods.len()
            && self
                .mods
                .iter()
                .zip(&o.mods)
                .all(|(a, b)| std::ptr::eq(*a, *b) || a == b)
            && self.operands == o.operands
            && self.encoding == o.encoding
            && self.ctrl == o.ctrl
    }
}

impl Inst {
    /// What `sm` lacks of this instruction (its opcode or a modifier, the
    /// opcode table's first-SM marks); `None` when `sm` can execute it.
    pub fn lacking(&self, sm: &crate::targets::SmInfo) -> Option<super::Lacking> {
        self.op.lacking(&self.mods, sm)
    }

    /// Builds an instruction, checking the modifiers and the operand shape
    /// against the opcode table.
    pub fn new(
        op: Op,
        mods: &[&str],
        guard: Option<Guard>,
        operands: impl IntoIterator<Item = Operand>,
    ) -> Result<Inst, IrError> {
        let info = op.info();
        let mods = mods
            .iter()
            .map(|m| {
                info.find_mod(m)
                    .ok_or_else(|| IrError::new(format!("{op} does not take modifier `.{m}`")))
            })
            .collect::<Result<_, _>>()?;
        let operands: SmallVec<[Operand; 5]> = operands.into_iter().collect();
        let m = match_shape(info.name, info.shapes, &operands)
            .map_err(|e| IrError::new(e.to_string()))?;
        Ok(Inst {
            op,
            mods,
            guard,
            operands,
            ndst: m.ndst as u8,
            encoding: None,
            ctrl: None,
        })
    }

    pub fn dsts(&self) -> &[Operand] {
        &self.operands[..self.ndst as usize]
    }

    pub fn srcs(&self) -> &[Operand] {
        &self.operands[self.ndst as usize..]
    }

    pub fn has_mod(&self, m: &str) -> bool {
        self.mods.contains(&m)
    }

    /// The label operands (branch, call and reconvergence targets).
    pub fn targets(&self) -> impl Iterator<Item = u32> + '_ {
        self.operands.iter().filter_map(|o| match o {
            Operand::Label(l) => Some(*l),
            _ => None,
        })
    }

    /// The control codes: an encoded instruction's encoding bits, else the
    /// ones a phase set (`None`: not scheduled).
    pub fn control(&self) -> Option<Control> {
        match self.encoding {
            Some(e) => Some(Control::decode(e)),
            None => self.ctrl,
        }
    }

    /// Sets the control codes: into the encoding's bits when there is one.
    pub fn set_control(&mut self, c: Control) {
        match &mut self.encoding {
            Some(e) => *e = c.encode_into(*e),
            None => self.ctrl = Some(c),
        }
    }

    /// Drops the control codes of an instruction without an encoding (an
    /// encoded one keeps its bits).
    pub fn clear_control(&mut self) {
        self.ctrl = None;
    }
}
