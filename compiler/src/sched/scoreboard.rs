//! AssignScoreboards (151): the write and read scoreboards and the wait
//! masks of every instruction, so that the code is hazard-free under
//! [`super::model`] with any register names (virtual or physical).
//!
//! Per block, in order, with the outstanding scoreboard operations:
//! - an instruction waits on the scoreboards of the outstanding writes to
//!   the units it reads or writes, and of the outstanding reads of the
//!   units it writes; those scoreboards then have nothing outstanding;
//! - a variable-latency instruction ([`super::latency`], so per SM) that
//!   writes registers sets a write scoreboard; one that reads registers
//!   sets a read scoreboard, the same one when it also writes: on the
//!   hardware variable-latency instructions may read their sources after
//!   issue (ptxas 11.8 sets read scoreboards on stores, atomics, loads,
//!   DFMA, F2I, SHFL, ... when a source is overwritten soon after; this
//!   phase does it always, which costs nothing when nothing overwrites). The scoreboard is a free one (nothing
//!   outstanding), else the one whose newest operation is oldest: sharing
//!   is correct, a wait then completes both.
//! - Control can reach a block's first instruction and the instruction
//!   after a `CALL` (the return) from elsewhere: those wait on every
//!   scoreboard that is outstanding at the end of any block or at any
//!   `CALL` of the function, and start with nothing outstanding.

use crate::ir::control::SCOREBOARDS;
use crate::ir::opcode::Op;
use crate::ir::regs::RegUnit;
use crate::ir::{Function, Inst};
use crate::targets::SmInfo;

use crate::pipe::latency::{latency, Lat};
use crate::pipe::model;

#[derive(Clone, Copy)]
struct Pend {
    unit: RegUnit,
    sb: u8,
    write: bool,
}

/// Whether control may arrive at instruction `k` of a block from
/// somewhere other than the instruction before it.
pub fn is_entry(insts: &[Inst], k: usize) -> bool {
    k == 0 || insts[k - 1].op == Op::CALL
}

/// Whether instruction `k` hands control elsewhere with the state it has
/// (the block's last instruction, or a `CALL`).
pub fn is_exit(insts: &[Inst], k: usize) -> bool {
    k + 1 == insts.len() || insts[k].op == Op::CALL
}

/// Assigns scoreboards and waits; returns how many instructions set a
/// scoreboard and how many wait.
pub fn assign(f: &mut Function, sm: &SmInfo) -> (usize, usize) {
    let mut cross = 0u8;
    let mut set = 0;
    for b in &mut f.blocks {
        let mut pending: Vec<Pend> = Vec::new();
        let mut last_use = [0u64; SCOREBOARDS as usize];
        let mut clock = 0u64;
        for k in 0..b.insts.len() {
            if is_entry(&b.insts, k) {
                pending.clear();
            }
            let inst = &b.insts[k];
            let mut c = inst.control().unwrap_or_default();
            let reads = model::reads(inst);
            let writes = model::writes(inst);
            let mut wait = 0u8;
            for p in &pending {
                if (p.write && reads.contains(&p.unit)) || writes.contains(&p.unit) {
                    wait |= 1 << p.sb;
                }
            }
            pending.retain(|p| wait >> p.sb & 1 == 0);
            c.wait = wait;
            c.write_sb = None;
            c.read_sb = None;
            if matches!(latency(inst, sm), Lat::Variable(_)) {
                let late = model::late_reads(inst);
                if !writes.is_empty() || !late.is_empty() {
                    let sb = (0..SCOREBOARDS)
                        .find(|&s| !pending.iter().any(|p| p.sb == s))
                        .unwrap_or_else(|| {
                            (0..SCOREBOARDS)
                                .min_by_key(|&s| last_use[s as usize])
                                .unwrap_or(0)
                        });
                    clock += 1;
                    last_use[sb as usize] = clock;
                    set += 1;
                    if !writes.is_empty() {
                        c.write_sb = Some(sb);
                        pending.extend(writes.iter().map(|&unit| Pend {
                            unit,
                            sb,
                            write: true,
                        }));
                    }
                    if !late.is_empty() {
                        c.read_sb = Some(sb);
                        pending.extend(late.iter().map(|&unit| Pend {
                            unit,
                            sb,
                            write: false,
                        }));
                    }
                }
            }
            b.insts[k].set_control(c);
            if is_exit(&b.insts, k) {
                for p in &pending {
                    cross |= 1 << p.sb;
                }
            }
        }
    }
    let mut waits = 0;
    for b in &mut f.blocks {
        for k in 0..b.insts.len() {
            if is_entry(&b.insts, k) && cross != 0 {
                let mut c = b.insts[k].control().unwrap_or_default();
                c.wait |= cross;
                b.insts[k].set_control(c);
            }
            if b.insts[k].control().is_some_and(|c| c.wait != 0) {
                waits += 1;
            }
        }
    }
    (set, waits)
}
