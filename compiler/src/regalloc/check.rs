//! The post-allocation verifier (phase 154, VerifyAllocatedProgram): what
//! register allocation promises, checked on the final code.
//!
//! - no virtual register or predicate is left;
//! - every general register but R1 is one the budget allows (below it, not
//!   reserved from the top); uniform registers and predicates within their
//!   files, uniform registers only where the SM has them (sm_75+, the SM
//!   table);
//! - register pairs start at an even register and quads at a multiple of
//!   four ([`regs::operand_width`] says which operands are wide);
//! - R1 is written only by the frame code: the kernel's load and
//!   `IADD3 R1, R1, imm, RZ` adjustments that keep the stack depth
//!   consistent ([`super::frame::proc_depths`]).

use super::frame::proc_depths;
use super::RegBudget;
use crate::ir::cfg::Cfg;
use crate::ir::inst::Operand;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::Reg;
use crate::ir::Function;
use crate::targets::SmInfo;

fn at(f: &Function, b: usize, i: usize) -> String {
    format!("block .L_x_{} instruction {i}", f.blocks[b].label)
}

/// Checks `f` after allocation under `budget`.
pub fn verify_allocated(
    f: &Function,
    budget: &RegBudget,
    sm: Option<&SmInfo>,
) -> Result<(), String> {
    for (b, blk) in f.blocks.iter().enumerate() {
        for (i, inst) in blk.insts.iter().enumerate() {
            for u in regs::mentioned(inst) {
                let bad = match u {
                    _ if u.is_virtual() => Some("a virtual register is left".to_string()),
                    RegUnit::R(1) => None,
                    RegUnit::R(n) if !budget.allows(u32::from(n)) => Some(format!(
                        "R{n} is outside the budget of {} registers",
                        budget.registers
                    )),
                    RegUnit::UR(_) if sm.is_some_and(|s| !s.uniform_registers) => {
                        Some("uniform registers do not exist on this SM".to_string())
                    }
                    RegUnit::P(n) | RegUnit::UP(n) if u32::from(n) >= super::PREDICATES => {
                        Some(format!("{u} is not a predicate register"))
                    }
                    _ => None,
                };
                if let Some(m) = bad {
                    return Err(format!("{}: {m} ({u})", at(f, b, i)));
                }
            }
            for (k, o) in inst.operands.iter().enumerate() {
                let w = regs::alignment(regs::operand_width(inst, k));
                if w == 1 {
                    continue;
                }
                let check = |r: Reg| -> Result<(), String> {
                    let n = match r {
                        Reg::R(n) | Reg::Ur(n) => u32::from(n),
                        _ => return Ok(()),
                    };
                    if n % w != 0 {
                        return Err(format!(
                            "{}: {r} starts a {w}-register operand at a misaligned register",
                            at(f, b, i)
                        ));
                    }
                    Ok(())
                };
                match o {
                    Operand::Reg(r) => check(r.reg)?,
                    Operand::RegRel { reg, .. } => check(*reg)?,
                    Operand::Mem(m) => {
                        if let Some(x) = m.base {
                            check(x.reg)?;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let cfg = Cfg::new(f);
    let kernel = cfg.procs.iter().position(|p| p.entry == 0);
    for p in 0..cfg.procs.len() {
        proc_depths(f, &cfg, p, Some(p) == kernel)?;
    }
    Ok(())
}
