//! The IR verifier: the structural invariants every phase must keep.
//!
//! | invariant ([`Invariant::name`]) | rule |
//! |---|---|
//! | `no-blocks` | a function has at least one block |
//! | `empty-block` | every block has an instruction |
//! | `duplicate-label` | block labels are unique |
//! | `unknown-modifier` | every modifier is one the opcode table accepts for the opcode |
//! | `operand-shape` | the operands fit one of the opcode's shapes |
//! | `ndst-mismatch` | `ndst` is the destination count of the first shape the operands fit |
//! | `bad-destination` | a destination is a register, a predicate or a convergence barrier, with no source modifier: no `-R`, `\|R\|`, `~R`, `!P`, no `.reuse` (an operand-cache hint for reads) and no half/byte selector (`.H0_H0` selects part of a source); never an immediate, constant, address, special register or label |
//! | `undefined-label` | every label operand names a block of the function |
//! | `misplaced-control` | a control transfer (`BRA`, `BRX`, `JMP`, `JMX`, `EXIT`, `RET`, `KILL`, `RTT`, `BPT`) is the last instruction of its block; `CALL` returns to the next instruction and may stand anywhere |
//! | `falls-off-end` | control cannot run past the last block when that block is reachable |
//! | `misaligned-pair` | a 64-bit register operand starts at an even register, a 96- or 128-bit one at a multiple of 4 ([`regs::alignment`]; widths from [`regs::operand_width`]; virtual registers pair the same way) |
//! | `register-range` | physical numbers in range, the whole pair or quad included: `R0..R254`, `UR0..UR62`, `P0..P6`, `UP0..UP6`, `B0..B15`; virtual numbers up to [`MAX_VIRTUAL`] |
//! | `unavailable-opcode` | on a given SM, the opcode and each modifier exist there ([`Op::lacking`]: the opcode table's first SMs); with [`VerifyOptions::before_conversion`] (the lowered program, before phase 5 ConvertUnsupportedOps) also an opcode that phase expands ([`crate::phases::convert_unsupported::expands`]) |
//! | `no-uniform-registers` | on a given SM without a uniform datapath, no uniform register or predicate appears; with `before_conversion`, except a register that an instruction to be converted writes (REDUX's destination, which the conversion replaces in its readers) |
//! | `virtual-register` | with [`VerifyOptions::physical_only`] (after register allocation), no virtual register or predicate appears |
//!
//! `UNDECODED` slots pass (the vendor listings have them); their shape is
//! `=`, no operands.

use super::cfg::{is_terminator, Cfg};
use super::func::Function;
use super::inst::{Inst, Operand};
use super::opcode::{match_shape, Op};
use super::regs;
use super::sass_text::{Pred, Reg, MAX_VIRTUAL};
use crate::targets::SmInfo;

/// The invariants [`verify`] checks (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invariant {
    NoBlocks,
    EmptyBlock,
    DuplicateLabel,
    UnknownModifier,
    OperandShape,
    NdstMismatch,
    BadDestination,
    UndefinedLabel,
    MisplacedControl,
    FallsOffEnd,
    MisalignedPair,
    RegisterRange,
    UnavailableOpcode,
    NoUniformRegisters,
    VirtualRegister,
}

impl Invariant {
    /// A stable name, for tests and messages.
    pub fn name(self) -> &'static str {
        match self {
            Invariant::NoBlocks => "no-blocks",
            Invariant::EmptyBlock => "empty-block",
            Invariant::DuplicateLabel => "duplicate-label",
            Invariant::UnknownModifier => "unknown-modifier",
            Invariant::OperandShape => "operand-shape",
            Invariant::NdstMismatch => "ndst-mismatch",
            Invariant::BadDestination => "bad-destination",
            Invariant::UndefinedLabel => "undefined-label",
            Invariant::MisplacedControl => "misplaced-control",
            Invariant::FallsOffEnd => "falls-off-end",
            Invariant::MisalignedPair => "misaligned-pair",
            Invariant::RegisterRange => "register-range",
            Invariant::UnavailableOpcode => "unavailable-opcode",
            Invariant::NoUniformRegisters => "no-uniform-registers",
            Invariant::VirtualRegister => "virtual-register",
        }
    }
}

/// A broken invariant, where it broke, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub invariant: Invariant,
    /// The label of the block, when the error is in one.
    pub block: Option<u32>,
    /// The instruction's index in that block.
    pub inst: Option<usize>,
    pub msg: String,
}

impl VerifyError {
    pub fn name(&self) -> &'static str {
        self.invariant.name()
    }
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.invariant.name())?;
        if let Some(b) = self.block {
            write!(f, " in .L_x_{b}")?;
        }
        if let Some(i) = self.inst {
            write!(f, " at instruction {i}")?;
        }
        write!(f, ": {}", self.msg)
    }
}

impl std::error::Error for VerifyError {}

/// Options of [`verify_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Reject virtual registers and predicates (after register allocation).
    pub physical_only: bool,
    /// The program before phase 5 ConvertUnsupportedOps (phase 0
    /// OriCheckInitialProgram): the opcodes that phase expands, and the
    /// uniform registers they write, are accepted on any target. Every
    /// check after phase 5 leaves this off.
    pub before_conversion: bool,
}

/// Checks every invariant; the first broken one, in block and instruction
/// order (function-level ones first).
pub fn verify(f: &Function, sm: Option<&SmInfo>) -> Result<(), VerifyError> {
    verify_with(f, sm, VerifyOptions::default())
}

/// [`verify`] with options.
pub fn verify_with(
    f: &Function,
    sm: Option<&SmInfo>,
    opts: VerifyOptions,
) -> Result<(), VerifyError> {
    match verify_all(f, sm, opts).into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn is_uniform_reg(r: Reg) -> bool {
    matches!(r, Reg::Ur(_) | Reg::Urz | Reg::Uv(_))
}

fn is_uniform_pred(p: Pred) -> bool {
    matches!(p, Pred::Up(_) | Pred::Upt | Pred::Uv(_))
}

/// Every register and predicate named by an instruction, with the width
/// of the operand it stands in (1 for predicates and inner registers
/// whose width is fixed).
fn named_regs(inst: &Inst) -> (Vec<(Reg, u8)>, Vec<Pred>) {
    let mut regs_ = Vec::new();
    let mut preds = Vec::new();
    if let Some(g) = inst.guard {
        preds.push(g.pred);
    }
    for (i, o) in inst.operands.iter().enumerate() {
        let w = regs::operand_width(inst, i);
        match o {
            Operand::Reg(r) => regs_.push((r.reg, w)),
            Operand::Pred { pred, .. } => preds.push(*pred),
            Operand::Mem(m) => {
                if let Some(d) = m.desc {
                    regs_.push((d, 2));
                }
                if let Some(b) = m.base {
                    regs_.push((b.reg, w));
                }
                if let Some(x) = m.index {
                    regs_.push((x, w));
                }
            }
            Operand::Const(c) => {
                if let Some(r) = c.reg {
                    regs_.push((r, 1));
                }
            }
            Operand::RegRel { reg, .. } => regs_.push((*reg, w)),
            _ => {}
        }
    }
    (regs_, preds)
}

/// Whether phase 5 will replace `inst` on `sm` (it lacks the opcode and
/// the phase expands it).
fn to_convert(inst: &Inst, sm: &SmInfo) -> bool {
    !inst.op.available_on(sm) && inst.op.expanded_where_missing()
}

fn check_inst(
    inst: &Inst,
    sm: Option<&SmInfo>,
    opts: VerifyOptions,
    pending: &[Reg],
    err: &mut dyn FnMut(Invariant, String),
) {
    let info = inst.op.info();
    for m in &inst.mods {
        if info.find_mod(m).is_none() {
            err(
                Invariant::UnknownModifier,
                format!("{} does not take `.{m}`", inst.op),
            );
        }
    }
    match match_shape(info.name, info.shapes, &inst.operands) {
        Err(e) => err(Invariant::OperandShape, e.to_string()),
        Ok(m) if m.ndst != inst.ndst as usize => err(
            Invariant::NdstMismatch,
            format!(
                "{} has ndst {} but its operands fit a shape with {}",
                inst.op, inst.ndst, m.ndst
            ),
        ),
        Ok(_) => {}
    }
    if inst.ndst as usize > inst.operands.len() {
        err(
            Invariant::NdstMismatch,
            format!("ndst {} exceeds the operand count", inst.ndst),
        );
    }
    for (i, d) in inst.operands.iter().take(inst.ndst as usize).enumerate() {
        let bad = match d {
            Operand::Reg(r) => (r.neg || r.abs || r.not || r.reuse || r.sel.is_some())
                .then_some("a source modifier"),
            Operand::Pred { not, .. } => not.then_some("a negation"),
            Operand::Barrier(_) => None,
            _ => Some("no register"),
        };
        if let Some(why) = bad {
            err(
                Invariant::BadDestination,
                format!("destination {i} (`{d}`) has {why}"),
            );
        }
    }
    let (rs, ps) = named_regs(inst);
    for &(r, w) in &rs {
        let w = u32::from(w.max(1));
        let (num, max) = match r {
            Reg::R(n) => (u32::from(n), 254),
            Reg::Ur(n) => (u32::from(n), 62),
            Reg::V(n) | Reg::Uv(n) => (n, MAX_VIRTUAL),
            Reg::Rz | Reg::Urz => continue,
        };
        let a = regs::alignment(w as u8);
        if num % a != 0 {
            err(
                Invariant::MisalignedPair,
                format!(
                    "{r} holds a {}-bit value: it must be a multiple of {a}",
                    32 * w
                ),
            );
        }
        if num + w - 1 > max {
            err(
                Invariant::RegisterRange,
                format!("{r} with width {w} runs past the last register"),
            );
        }
    }
    for &p in &ps {
        let bad = match p {
            Pred::P(n) | Pred::Up(n) => n > 6,
            Pred::V(n) | Pred::Uv(n) => n > MAX_VIRTUAL,
            Pred::Pt | Pred::Upt => false,
        };
        if bad {
            err(Invariant::RegisterRange, format!("no predicate {p}"));
        }
    }
    for o in &inst.operands {
        if let Operand::Barrier(n) = o {
            if *n > 15 {
                err(Invariant::RegisterRange, format!("no barrier B{n}"));
            }
        }
    }
    if let Some(sm) = sm {
        let lack = match inst.lacking(sm) {
            Some(crate::ir::Lacking::Opcode(..))
                if opts.before_conversion && to_convert(inst, sm) =>
            {
                inst.op.lacking_modifier(&inst.mods, sm)
            }
            l => l,
        };
        if let Some(l) = lack {
            err(Invariant::UnavailableOpcode, l.message(sm));
        }
        let uniform = rs
            .iter()
            .any(|&(r, _)| is_uniform_reg(r) && !pending.contains(&r))
            || ps.iter().any(|&p| is_uniform_pred(p));
        if !sm.uniform_registers && uniform {
            err(
                Invariant::NoUniformRegisters,
                format!("{} has no uniform registers", sm.name),
            );
        }
    }
    if opts.physical_only {
        let virt = rs.iter().any(|&(r, _)| matches!(r, Reg::V(_) | Reg::Uv(_)))
            || ps.iter().any(|&p| matches!(p, Pred::V(_) | Pred::Uv(_)));
        if virt {
            err(
                Invariant::VirtualRegister,
                format!("{} names a virtual register", inst.op),
            );
        }
    }
}

/// Every broken invariant, in the order [`verify`] reports the first.
pub fn verify_all(f: &Function, sm: Option<&SmInfo>, opts: VerifyOptions) -> Vec<VerifyError> {
    let mut out = Vec::new();
    if f.blocks.is_empty() {
        out.push(VerifyError {
            invariant: Invariant::NoBlocks,
            block: None,
            inst: None,
            msg: format!("function {} has no blocks", f.name),
        });
        return out;
    }
    let mut labels: Vec<u32> = f.blocks.iter().map(|b| b.label).collect();
    labels.sort_unstable();
    for w in labels.windows(2) {
        if w[0] == w[1] {
            out.push(VerifyError {
                invariant: Invariant::DuplicateLabel,
                block: Some(w[0]),
                inst: None,
                msg: format!("label .L_x_{} starts more than one block", w[0]),
            });
        }
    }
    // The uniform registers written by instructions phase 5 will replace.
    let pending: Vec<Reg> = match sm {
        Some(sm) if opts.before_conversion => f
            .insts()
            .filter(|i| to_convert(i, sm))
            .flat_map(|i| i.dsts())
            .filter_map(|d| match d {
                Operand::Reg(r) if is_uniform_reg(r.reg) => Some(r.reg),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let cfg = Cfg::new(f);
    let index = cfg.label_index();
    if cfg.falls_off_end {
        out.push(VerifyError {
            invariant: Invariant::FallsOffEnd,
            block: f.blocks.last().map(|b| b.label),
            inst: None,
            msg: "the last block is reachable and control runs past it".into(),
        });
    }
    for blk in &f.blocks {
        if blk.insts.is_empty() {
            out.push(VerifyError {
                invariant: Invariant::EmptyBlock,
                block: Some(blk.label),
                inst: None,
                msg: "block has no instructions".into(),
            });
        }
        let last = blk.insts.len().saturating_sub(1);
        for (i, inst) in blk.insts.iter().enumerate() {
            let mut err = |invariant: Invariant, msg: String| {
                out.push(VerifyError {
                    invariant,
                    block: Some(blk.label),
                    inst: Some(i),
                    msg,
                })
            };
            if inst.op == Op::UNDECODED && inst.operands.is_empty() {
                continue;
            }
            check_inst(inst, sm, opts, &pending, &mut err);
            for l in inst.targets() {
                if index.get(l).is_none() {
                    err(
                        Invariant::UndefinedLabel,
                        format!("no block is labelled .L_x_{l}"),
                    );
                }
            }
            if i != last && is_terminator(inst) {
                err(
                    Invariant::MisplacedControl,
                    format!("{} is not the last instruction of its block", inst.op),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::ir::sass_text::{RegOperand, SassOperand};
    use crate::targets::lookup_sm;

    const OK: &str = ".L_x_0:
         S2R %r0, SR_TID.X ;
         ISETP.GE.AND %p0, PT, %r0, 0x20, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_2:
         IMAD.WIDE %r2, %r0, 0x4, %r4 ;
         LDG.E.64 %r6, [%r2.64] ;
         STG.E.64 [%r2.64], %r6 ;
         .L_x_1:
         EXIT ;";

    fn first(f: &Function, sm: Option<&str>, opts: VerifyOptions) -> Option<&'static str> {
        let sm = sm.map(|s| lookup_sm(s).unwrap());
        verify_with(f, sm, opts).err().map(|e| e.name())
    }

    fn broken(text: &str) -> Option<&'static str> {
        first(&func(text), None, VerifyOptions::default())
    }

    #[test]
    fn a_good_function_verifies() {
        let f = func(OK);
        assert_eq!(verify(&f, None), Ok(()));
        assert_eq!(verify(&f, Some(lookup_sm("sm_70").unwrap())), Ok(()));
    }

    #[test]
    fn structural_invariants() {
        let mut f = func(OK);
        f.blocks.clear();
        assert_eq!(first(&f, None, VerifyOptions::default()), Some("no-blocks"));

        let mut f = func(OK);
        f.blocks[1].insts.clear();
        let e = verify(&f, None).unwrap_err();
        assert_eq!((e.name(), e.block, e.inst), ("empty-block", Some(2), None));

        let mut f = func(OK);
        f.blocks[2].label = 2;
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("duplicate-label")
        );

        let mut f = func(OK);
        f.blocks[0].insts[2].operands[0] = SassOperand::Label(9);
        let e = verify(&f, None).unwrap_err();
        assert_eq!(
            (e.name(), e.block, e.inst),
            ("undefined-label", Some(0), Some(2))
        );

        // A branch in the middle of a block.
        let mut f = func(OK);
        let bra = f.blocks[0].insts.remove(2);
        f.blocks[0].insts.insert(0, bra);
        let e = verify(&f, None).unwrap_err();
        assert_eq!((e.name(), e.inst), ("misplaced-control", Some(0)));
        // ... but a CALL may stand anywhere.
        assert_eq!(
            broken(
                ".L_x_0:
                 CALL.REL.NOINC .L_x_1 ;
                 EXIT ;
                 .L_x_1:
                 RET.REL.NODEC R4 0x0 ;"
            ),
            None
        );
        // Falling off the end (reachable), and the padding that does not.
        assert_eq!(
            broken(
                ".L_x_0:
                 @P0 EXIT ;
                 .L_x_1:
                 MOV R0, RZ ;"
            ),
            Some("falls-off-end")
        );
        assert_eq!(
            broken(
                ".L_x_0:
                 EXIT ;
                 .L_x_1:
                 BRA .L_x_1 ;
                 .L_x_2:
                 NOP ;"
            ),
            None
        );
    }

    #[test]
    fn instruction_invariants() {
        let mut f = func(OK);
        f.blocks[0].insts[1].mods.push("HI");
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("unknown-modifier")
        );

        let mut f = func(OK);
        f.blocks[0].insts[1].operands.pop();
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("operand-shape")
        );

        let mut f = func(OK);
        f.blocks[0].insts[1].ndst = 1;
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("ndst-mismatch")
        );

        // Destinations: an immediate, a negated register, a reuse flag, a
        // negated predicate.
        let mut f = func(OK);
        f.blocks[0].insts[0].operands[0] = SassOperand::Imm(1);
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("operand-shape")
        );
        let mut f = func(OK);
        f.blocks[1].insts[0].operands[0] = SassOperand::Reg(RegOperand {
            reg: Reg::V(2),
            neg: true,
            not: false,
            abs: false,
            reuse: false,
            sel: None,
        });
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("bad-destination")
        );
        assert_eq!(
            broken(
                ".L_x_0:
                 IADD3 R0.reuse, R1, R2, RZ ;
                 EXIT ;"
            ),
            Some("bad-destination")
        );
        assert_eq!(
            broken(
                ".L_x_0:
                 ISETP.GE.AND !P0, PT, R0, 0x20, PT ;
                 EXIT ;"
            ),
            Some("bad-destination")
        );

        // Pairs: an odd 64-bit destination, an odd address, an odd DADD
        // source; a 128-bit load at R6 (not a multiple of 4).
        for text in [
            "IMAD.WIDE R3, R0, 0x4, R4 ;",
            "LDG.E R0, [R3.64] ;",
            "STG.E.SYS [R3], R0 ;",
            "DADD R4, R5, R8 ;",
            "LDS.128 R6, [R0] ;",
            "CS2R R7, SRZ ;",
        ] {
            assert_eq!(
                broken(&format!(".L_x_0:\n{text}\nEXIT ;")),
                Some("misaligned-pair"),
                "{text}"
            );
        }
        // The 32-bit forms are fine at odd registers.
        for text in [
            "IMAD R3, R0, 0x4, R5 ;",
            "MUFU.RCP64H R9, R11 ;",
            "F2F.F32.F64 R15, R12 ;",
            "LDS R7, [R1] ;",
            "CS2R.32 R7, SRZ ;",
        ] {
            assert_eq!(broken(&format!(".L_x_0:\n{text}\nEXIT ;")), None, "{text}");
        }

        // Range: R254 as a pair runs into RZ's encoding; P7, B16.
        assert_eq!(
            broken(
                ".L_x_0:
                 LDG.E.64 R254, [R2.64] ;
                 EXIT ;"
            ),
            Some("register-range")
        );
        let mut f = func(OK);
        f.blocks[0].insts[1].operands[0] = SassOperand::Pred {
            pred: Pred::P(7),
            not: false,
        };
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("register-range")
        );
        let mut f = func(
            ".L_x_0:
             BSSY B0, .L_x_1 ;
             .L_x_1:
             EXIT ;",
        );
        f.blocks[0].insts[0].operands[0] = SassOperand::Barrier(16);
        assert_eq!(
            first(&f, None, VerifyOptions::default()),
            Some("register-range")
        );
    }

    #[test]
    fn target_invariants() {
        let f = func(
            ".L_x_0:
             F2FP.PACK_AB R0, R1, R2 ;
             EXIT ;",
        );
        assert_eq!(
            first(&f, Some("sm_75"), VerifyOptions::default()),
            Some("unavailable-opcode")
        );
        assert_eq!(first(&f, Some("sm_80"), VerifyOptions::default()), None);
        // A modifier later than its opcode (the table's mark): HFMA2 is on
        // every target, `.BF16_V2` from sm_80; also before conversion.
        let f = func(
            ".L_x_0:
             HFMA2.BF16_V2 R0, -RZ.H0_H0, RZ.H0_H0, -R1 ;
             EXIT ;",
        );
        let before = VerifyOptions {
            before_conversion: true,
            ..Default::default()
        };
        for opts in [VerifyOptions::default(), before] {
            assert_eq!(first(&f, Some("sm_75"), opts), Some("unavailable-opcode"));
            assert_eq!(first(&f, Some("sm_80"), opts), None);
        }
        let e = verify_with(
            &f,
            Some(crate::targets::lookup_sm("sm_75").unwrap()),
            before,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("HFMA2.BF16_V2 does not exist on sm_75 (from sm_80)"),
            "{e}"
        );
        let f = func(
            ".L_x_0:
             IADD3 R0, R1, UR4, RZ ;
             EXIT ;",
        );
        assert_eq!(
            first(&f, Some("sm_70"), VerifyOptions::default()),
            Some("no-uniform-registers")
        );
        assert_eq!(first(&f, Some("sm_75"), VerifyOptions::default()), None);
        let phys = VerifyOptions {
            physical_only: true,
            ..Default::default()
        };
        assert_eq!(first(&func(OK), None, phys), Some("virtual-register"));
        let e = verify_with(&func(OK), None, phys).unwrap_err();
        assert_eq!((e.block, e.inst), (Some(0), Some(0)));
        assert!(e
            .to_string()
            .starts_with("virtual-register in .L_x_0 at instruction 0"));
    }

    #[test]
    fn before_conversion_accepts_exactly_what_phase_5_expands() {
        let before = VerifyOptions {
            before_conversion: true,
            ..Default::default()
        };
        // REDUX into a uniform register and its reader, on sm_70 (no REDUX,
        // no uniform registers) and sm_75 (no REDUX).
        let redux = func(
            ".L_x_0:
             REDUX.SUM %ur0, %r1 ;
             IMAD.U32 %r2, RZ, RZ, %ur0 ;
             I2FP.F32.S32 %r3, %r2 ;
             EXIT ;",
        );
        for sm in ["sm_70", "sm_75"] {
            assert_eq!(first(&redux, Some(sm), before), None, "{sm}");
            assert_eq!(
                first(&redux, Some(sm), VerifyOptions::default()),
                Some("unavailable-opcode"),
                "{sm}"
            );
        }
        // After the conversion the uniform register alone is refused on
        // sm_70.
        let ur = func(
            ".L_x_0:
             IMAD.U32 %r2, RZ, RZ, %ur0 ;
             EXIT ;",
        );
        assert_eq!(
            first(&ur, Some("sm_70"), before),
            Some("no-uniform-registers")
        );
        // An opcode without an expansion stays refused.
        let f2fp = func(
            ".L_x_0:
             F2FP.PACK_AB R0, R1, R2 ;
             EXIT ;",
        );
        assert_eq!(
            first(&f2fp, Some("sm_75"), before),
            Some("unavailable-opcode")
        );
        // sm_90 has both: nothing to accept specially.
        assert_eq!(first(&redux, Some("sm_90"), VerifyOptions::default()), None);
    }
}
