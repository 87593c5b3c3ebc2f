//! Between the IR and the SASS text layer: [`from_sass`] builds a
//! [`Function`] from a parsed listing (vendor cuobjdump output, or the
//! compiler's own printout), [`to_sass`] gives the listing back.
//!
//! Block boundaries of a cuobjdump listing (which has no labels) are the
//! classic leaders: the first instruction, every code address an operand
//! names (branch, `BSSY` and `WARPSYNC.COLLECTIVE` targets), and every
//! instruction after one that transfers control (`BRA`, `BRX`, `EXIT`,
//! `RET`, ...; not `CALL`, which returns to the next instruction). Blocks
//! are labelled 0, 1, 2, ... in address order. A listing with label lines
//! (`.L_x_N:`: the IR's own printout, or nvdisasm's) keeps its labels and
//! gives the other leaders fresh ones, so `from_sass(to_sass(f, true)) == f`
//! for every function whose blocks end at their control transfers.

use std::collections::BTreeSet;

use super::func::{Block, Function};
use super::inst::{Inst, Operand};
use super::opcode::{match_shape, Effects, Op};
use super::sass_text::{Pred, Reg, SassFunction, SassInst, UndecodedInst};
use super::IrError;
use crate::targets::SmInfo;

/// One instruction slot of a listing, in address order.
struct Slot {
    addr: u32,
    label: Option<u32>,
    inst: Inst,
    /// Which operands are code addresses (`L` in the shape).
    target_ops: Vec<usize>,
}

fn uses_uniform(inst: &Inst) -> bool {
    let ureg = |r: &Reg| matches!(r, Reg::Ur(_) | Reg::Urz | Reg::Uv(_));
    let upred = |p: &Pred| matches!(p, Pred::Up(_) | Pred::Upt | Pred::Uv(_));
    inst.guard.is_some_and(|g| upred(&g.pred))
        || inst.operands.iter().any(|o| match o {
            Operand::Reg(r) => ureg(&r.reg),
            Operand::Pred { pred, .. } => upred(pred),
            Operand::Const(c) => c.reg.as_ref().is_some_and(ureg),
            Operand::Mem(m) => {
                m.desc.is_some()
                    || m.index.as_ref().is_some_and(ureg)
                    || m.base.is_some_and(|b| ureg(&b.reg))
            }
            Operand::RegRel { reg, .. } => ureg(reg),
            _ => false,
        })
}

/// Converts one text instruction, checking it against the opcode table
/// and, when given, the target SM.
fn convert(si: &SassInst, sm: Option<&SmInfo>) -> Result<(Inst, Vec<usize>), IrError> {
    let at = |msg: String| IrError::at(si.addr, msg);
    let op = Op::from_name(&si.opcode)
        .filter(|&o| o != Op::UNDECODED)
        .ok_or_else(|| at(format!("unknown opcode `{}`", si.opcode)))?;
    let info = op.info();
    let mods = si
        .mods
        .iter()
        .map(|m| {
            info.find_mod(m)
                .ok_or_else(|| at(format!("{op} does not take modifier `.{m}`")))
        })
        .collect::<Result<_, _>>()?;
    let m = match_shape(info.name, info.shapes, &si.operands).map_err(|e| at(e.to_string()))?;
    let mut inst = Inst {
        op,
        mods,
        guard: si.guard,
        operands: si.operands.iter().cloned().collect(),
        ndst: m.ndst as u8,
        encoding: si.encoding,
        ctrl: None,
    };
    if let Some(c) = si.control {
        inst.set_control(c);
    }
    if let Some(sm) = sm {
        if let Some(l) = inst.lacking(sm) {
            return Err(at(l.message(sm)));
        }
        if !sm.uniform_registers && uses_uniform(&inst) {
            return Err(at(format!("{} has no uniform registers", sm.name)));
        }
    }
    let targets = (0..si.operands.len())
        .filter(|&i| m.kinds[i] == b'L')
        .collect();
    Ok((inst, targets))
}

fn undecoded(u: &UndecodedInst) -> Slot {
    Slot {
        addr: u.addr,
        label: u.label,
        inst: Inst {
            op: Op::UNDECODED,
            mods: Default::default(),
            guard: None,
            operands: Default::default(),
            ndst: 0,
            encoding: Some(u.encoding),
            ctrl: None,
        },
        target_ops: Vec::new(),
    }
}

/// Builds the IR of one listed function. `sm`, when given, is the target
/// the listing is for: opcodes and uniform registers are checked against it.
pub fn from_sass(f: &SassFunction, sm: Option<&SmInfo>) -> Result<Function, IrError> {
    let mut slots = Vec::with_capacity(f.insts.len() + f.undecoded.len());
    for si in &f.insts {
        let (inst, target_ops) = convert(si, sm)?;
        slots.push(Slot {
            addr: si.addr,
            label: si.label,
            inst,
            target_ops,
        });
    }
    slots.extend(f.undecoded.iter().map(undecoded));
    slots.sort_by_key(|s| s.addr);
    for (i, s) in slots.iter().enumerate() {
        if s.addr != 16 * i as u32 {
            return Err(IrError::at(
                s.addr,
                format!(
                    "expected the instruction at {:#x}: addresses must be contiguous from 0",
                    16 * i
                ),
            ));
        }
    }
    let labelled = slots.iter().any(|s| s.label.is_some());
    let slot_of_label: std::collections::HashMap<u32, usize> = slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.label.map(|l| (l, i)))
        .collect();
    // Classic leaders: the entry, every target, every slot after a
    // control transfer.
    let mut set = BTreeSet::new();
    if !slots.is_empty() {
        set.insert(0usize);
    }
    for (i, s) in slots.iter().enumerate() {
        for &k in &s.target_ops {
            let t = match s.inst.operands[k] {
                Operand::Imm(a) => usize::try_from(a / 16)
                    .ok()
                    .filter(|&t| a % 16 == 0 && t < slots.len())
                    .ok_or_else(|| {
                        IrError::at(
                            s.addr,
                            format!("target {a:#x} is not an instruction of the function"),
                        )
                    })?,
                Operand::Label(l) => *slot_of_label
                    .get(&l)
                    .ok_or_else(|| IrError::at(s.addr, format!("undefined label .L_x_{l}")))?,
                _ => continue,
            };
            set.insert(t);
        }
        let ends = s.inst.op.info().effects.contains(Effects::CONTROL) && s.inst.op != Op::CALL;
        if ends && i + 1 < slots.len() {
            set.insert(i + 1);
        }
    }
    // Leaders: slot index -> label. A labelled listing keeps its labels and
    // gives leaders without one fresh labels; an unlabelled one numbers its
    // blocks in address order.
    let mut leaders: Vec<Option<u32>> = slots.iter().map(|s| s.label).collect();
    let mut fresh = if labelled {
        slot_of_label.keys().max().map_or(0, |m| m + 1)
    } else {
        0
    };
    for &i in &set {
        if leaders[i].is_none() {
            leaders[i] = Some(fresh);
            fresh += 1;
        }
    }
    let label_at = |addr: i64, from: u32| -> Result<u32, IrError> {
        usize::try_from(addr / 16)
            .ok()
            .filter(|_| addr % 16 == 0)
            .and_then(|t| leaders.get(t).copied().flatten())
            .ok_or_else(|| IrError::at(from, format!("target {addr:#x} does not start a block")))
    };
    let mut blocks: Vec<Block> = Vec::new();
    for (i, mut s) in slots.into_iter().enumerate() {
        for &k in &s.target_ops {
            let l = match s.inst.operands[k] {
                Operand::Imm(a) => label_at(a, s.addr)?,
                Operand::Label(l) => l,
                _ => continue,
            };
            s.inst.operands[k] = Operand::Label(l);
        }
        if let Some(label) = leaders[i] {
            blocks.push(Block {
                label,
                insts: Vec::new(),
            });
        }
        if let Some(b) = blocks.last_mut() {
            b.insts.push(s.inst);
        }
    }
    Ok(Function {
        name: f.name.clone(),
        header_flags: f.header_flags.clone(),
        blocks,
    })
}

/// The listing of `f`, laid out contiguously from address 0. With
/// `labels`, each block's first instruction carries its `.L_x_N:` line and
/// targets print as labels; without, targets print as addresses, as
/// cuobjdump does.
pub fn to_sass(f: &Function, labels: bool) -> Result<SassFunction, IrError> {
    let starts = f.block_addresses();
    let index = f.label_index();
    let addr_of = |l: u32| index.get(l).map(|i| starts[i]);
    let mut out = SassFunction {
        name: f.name.clone(),
        header_flags: f.header_flags.clone(),
        ..SassFunction::default()
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        if b.insts.is_empty() {
            return Err(IrError::new(format!("block .L_x_{} is empty", b.label)));
        }
        for (ii, inst) in b.insts.iter().enumerate() {
            let addr = starts[bi] + 16 * ii as u32;
            if inst.op == Op::UNDECODED {
                out.undecoded.push(UndecodedInst {
                    addr,
                    encoding: inst.encoding.unwrap_or(0),
                    label: (labels && ii == 0).then_some(b.label),
                });
                continue;
            }
            let mut operands = Vec::with_capacity(inst.operands.len());
            for o in &inst.operands {
                operands.push(match o {
                    Operand::Label(l) if !labels => {
                        let a = addr_of(*l).ok_or_else(|| {
                            IrError::at(addr, format!("undefined label .L_x_{l}"))
                        })?;
                        Operand::Imm(i64::from(a))
                    }
                    o => o.clone(),
                });
            }
            out.insts.push(SassInst {
                addr,
                guard: inst.guard,
                opcode: inst.op.name().to_string(),
                mods: inst.mods.iter().map(|m| m.to_string()).collect(),
                operands,
                encoding: inst.encoding,
                // Encoded instructions carry theirs in the encoding.
                control: inst.ctrl.filter(|_| inst.encoding.is_none()),
                label: (labels && ii == 0).then_some(b.label),
                annotation: None,
            });
        }
    }
    Ok(out)
}
