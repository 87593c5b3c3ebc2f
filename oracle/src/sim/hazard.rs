//! The scoreboard check: when a function carries control codes, each
//! warp's issue cycles and outstanding scoreboard operations are tracked
//! along its execution, and an instruction that breaks the hazard model of
//! `ptxc::pipe::model` ends the run with [`Outcome::Hazard`]
//! (crate::ptx_interp::Outcome). Functions without control codes are not
//! checked.
//!
//! Registers are per lane, so an outstanding write or read remembers the
//! lanes of the group that issued it: a divergent group never trips over
//! another group's registers. Issue cycles and scoreboards are per warp,
//! as on the hardware: a wait by any group completes every outstanding
//! operation of its scoreboards.

use std::collections::HashMap;
use std::sync::Arc;

use ptxc::ir::control::Control;
use ptxc::ir::regs::{RegUnit, Units};
use ptxc::ir::Function;
use ptxc::pipe::latency::{latency, Lat};
use ptxc::pipe::model;
use ptxc::targets::SmInfo;

use crate::ptx_interp::{Hazard, HazardKind};

/// What the check needs of one instruction.
struct Facts {
    ctrl: Option<Control>,
    /// The guard predicate's unit (read by every lane of the group).
    guard: Option<RegUnit>,
    reads: Units,
    /// Per read unit, the cycles after issue at which it is read.
    read_delay: Vec<u8>,
    /// Per written unit, its fixed latency.
    write_lat: Vec<u8>,
    /// Dense indices of `reads` and `writes` (into [`Timing::fixed`]).
    read_ids: Vec<u32>,
    write_ids: Vec<u32>,
    late_reads: Units,
    writes: Units,
    /// The writes the read scoreboard completes ([`model::read_sb_writes`]).
    read_sb_writes: Units,
    lat: Lat,
    depbar: Option<(u8, u32)>,
    queue: u8,
    /// [`model::is_shared_memory`].
    shared_mem: bool,
    /// [`model::drains_shared_memory`].
    drains_shared: bool,
}

/// The per-instruction facts of a checked function.
pub struct Model {
    insts: Vec<Facts>,
    texts: Arc<[String]>,
    /// How many distinct register units the function names.
    units: usize,
}

/// An outstanding scoreboard operation on one register unit.
#[derive(Clone, Debug)]
struct Pend {
    unit: RegUnit,
    sb: Option<u8>,
    /// A pending write (else a pending read of a source).
    write: bool,
    lanes: u32,
    pc: u32,
    /// The issuing instruction's sequence number (DEPBAR counts operations).
    seq: u64,
    /// Its in-order completion queue.
    queue: u8,
}

/// One warp's timing state.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    clock: u64,
    seq: u64,
    /// Fixed-latency results by dense unit index: ready cycle, issue
    /// cycle, lanes, producer pc.
    fixed: Vec<Option<(u64, u64, u32, u32)>>,
    pending: Vec<Pend>,
}

impl Model {
    /// The model of `f` when it carries control codes (any instruction
    /// does), else `None`.
    pub fn new(f: &Function, sm: &SmInfo, texts: &Arc<[String]>) -> Option<Model> {
        if !f.insts().any(|i| i.control().is_some()) {
            return None;
        }
        let mut ids: HashMap<RegUnit, u32> = HashMap::new();
        let mut id = |u: &RegUnit| {
            let n = ids.len() as u32;
            *ids.entry(*u).or_insert(n)
        };
        let insts = f
            .insts()
            .map(|i| {
                let reads = model::reads(i);
                let writes = model::writes(i);
                let read_ids = reads.iter().map(&mut id).collect();
                let write_ids = writes.iter().map(&mut id).collect();
                let lat = latency(i, sm);
                Facts {
                    ctrl: i.control(),
                    guard: i.guard.and_then(|g| RegUnit::of_pred(g.pred)),
                    read_delay: reads.iter().map(|&u| model::read_delay(i, u)).collect(),
                    write_lat: writes
                        .iter()
                        .map(|&u| match lat {
                            Lat::Fixed(n) => model::write_latency(i, u, n),
                            Lat::Variable(_) => 0,
                        })
                        .collect(),
                    read_ids,
                    write_ids,
                    reads,
                    late_reads: model::late_reads(i),
                    read_sb_writes: model::read_sb_writes(i),
                    writes,
                    lat,
                    depbar: model::depbar(i),
                    queue: model::in_order_queue(i),
                    shared_mem: model::is_shared_memory(i),
                    drains_shared: model::drains_shared_memory(i),
                }
            })
            .collect();
        Some(Model {
            insts,
            texts: Arc::clone(texts),
            units: ids.len(),
        })
    }

    fn describe(&self, pc: u32) -> String {
        format!("/*{:04x}*/ {}", pc * 16, self.texts[pc as usize])
    }

    /// Checks and records the issue of instruction `pc` by the lanes
    /// `mask`, of which those in `exec` pass its guard. The guard is read
    /// by every lane; the other registers only by the lanes that execute:
    /// a lane whose guard fails neither reads nor writes them, so ptxas
    /// 11.8 may write a register under `@P0` while a write under `@!P0` is
    /// outstanding (`@!P0 LDG.E R10` with write SB4, then `@P0
    /// IMAD.IADD R10` with no wait: generator seed 8800279).
    pub fn issue(&self, t: &mut Timing, pc: u32, mask: u32, exec: u32) -> Result<(), Hazard> {
        let f = &self.insts[pc as usize];
        if t.fixed.len() < self.units {
            t.fixed.resize(self.units, None);
        }
        let hz = |kind, unit: RegUnit, p: u32, sb| Hazard {
            kind,
            register: unit.to_string(),
            producer: self.describe(p),
            scoreboard: sb,
        };
        let Some(c) = f.ctrl else {
            return Err(Hazard {
                kind: HazardKind::MissingControl,
                register: String::new(),
                producer: String::new(),
                scoreboard: None,
            });
        };
        // Waits complete whole scoreboards; DEPBAR all but the newest N.
        // An operation completes on one scoreboard as a whole (every unit
        // it tracks there). Its read and write scoreboards differ: a
        // completed write means the sources were read too, but sources
        // having been read says nothing about the result (`TLD.SCR.LZ RZ,
        // R2, R9, ...` with read SB0 and write SB5: a wait on SB0 frees R9,
        // not R2). A completed write also completes the earlier writes of
        // its in-order queue.
        let done = |t: &mut Timing, keep: &dyn Fn(&Pend) -> bool| {
            let mut newest: Vec<(u8, u64)> = Vec::new();
            let mut ops: Vec<(u64, Option<u8>)> = Vec::new();
            let mut written: Vec<u64> = Vec::new();
            for p in t.pending.iter().filter(|p| !keep(p)) {
                ops.push((p.seq, p.sb));
                if p.write {
                    written.push(p.seq);
                    match newest.iter_mut().find(|(q, _)| *q == p.queue) {
                        Some(e) => e.1 = e.1.max(p.seq),
                        None => newest.push((p.queue, p.seq)),
                    }
                }
            }
            t.pending.retain(|p| {
                keep(p)
                    && !ops.contains(&(p.seq, p.sb))
                    && (p.write || !written.contains(&p.seq))
                    && !(p.write
                        && p.sb.is_none()
                        && newest.iter().any(|&(q, s)| q == p.queue && p.seq < s))
            });
        };
        if c.wait != 0 {
            done(t, &|p: &Pend| !p.sb.is_some_and(|k| c.waits_on(k)));
        }
        if f.drains_shared {
            done(t, &|p: &Pend| !self.insts[p.pc as usize].shared_mem);
        }
        if let Some((k, n)) = f.depbar {
            let mut seqs: Vec<u64> = t
                .pending
                .iter()
                .filter(|p| p.sb == Some(k))
                .map(|p| p.seq)
                .collect();
            seqs.sort_unstable();
            seqs.dedup();
            let keep_from = seqs.len().saturating_sub(n as usize);
            let oldest_kept = seqs.get(keep_from).copied().unwrap_or(u64::MAX);
            done(t, &|p: &Pend| p.sb != Some(k) || p.seq >= oldest_kept);
        }
        for (k, &u) in f.reads.iter().enumerate() {
            let mask = if f.guard == Some(u) { mask } else { exec };
            let at = t.clock + u64::from(f.read_delay[k]);
            if let Some(p) = t
                .pending
                .iter()
                .find(|p| p.write && p.unit == u && p.lanes & mask != 0)
            {
                let kind = if p.sb.is_some() {
                    HazardKind::ReadBeforeWait
                } else {
                    HazardKind::NoScoreboard
                };
                return Err(hz(kind, u, p.pc, p.sb));
            }
            if let Some((ready, issued, lanes, p)) = t.fixed[f.read_ids[k] as usize] {
                if ready > at && lanes & mask != 0 {
                    return Err(hz(
                        HazardKind::ReadTooEarly {
                            needed: (ready - issued) as u32,
                            elapsed: (at - issued) as u32,
                        },
                        u,
                        p,
                        None,
                    ));
                }
            }
        }
        // A variable-latency instruction writes after it executes, and the
        // instructions of one in-order queue execute in order: it may
        // overwrite a source an earlier instruction of its queue has not
        // read yet (ptxas 11.8, sm_80: `DFMA R14, R14, R14, R12` with read
        // SB0, then `DFMA R12, R6, R6, RZ` with no wait on SB0).
        // Likewise an earlier write of its queue completes first, so a
        // second write to the same register lands last (ptxas 11.8, sm_80:
        // `LDS R19, [R19]` without a scoreboard, then `@!P0 LDS R19,
        // [0x100]`, generator seed 9061); the earlier write stops being
        // tracked for the lanes the new one covers.
        // From here on, the lanes that execute.
        let mask = exec;
        let variable = matches!(f.lat, Lat::Variable(_));
        let same_queue = |p: &Pend| variable && p.queue == f.queue;
        for &u in &f.writes {
            if let Some(p) = t
                .pending
                .iter()
                .find(|p| p.unit == u && p.lanes & mask != 0 && !same_queue(p))
            {
                let kind = if !p.write {
                    HazardKind::OverwriteBeforeRead
                } else if p.sb.is_some() {
                    HazardKind::WriteBeforeWait
                } else {
                    HazardKind::NoScoreboard
                };
                return Err(hz(kind, u, p.pc, p.sb));
            }
        }
        if variable {
            t.pending.retain(|p| {
                !(p.write
                    && p.queue == f.queue
                    && p.lanes & !mask == 0
                    && f.writes.contains(&p.unit))
            });
        }
        t.seq += 1;
        match f.lat {
            Lat::Fixed(_) => {
                for k in 0..f.writes.len() {
                    let ready = t.clock + u64::from(f.write_lat[k]);
                    t.fixed[f.write_ids[k] as usize] = Some((ready, t.clock, mask, pc));
                }
            }
            Lat::Variable(_) => {
                for (k, &u) in f.writes.iter().enumerate() {
                    t.fixed[f.write_ids[k] as usize] = None;
                    let sb = match c.read_sb {
                        Some(r) if f.read_sb_writes.contains(&u) => Some(r),
                        _ => c.write_sb,
                    };
                    t.pending.push(Pend {
                        unit: u,
                        sb,
                        write: true,
                        lanes: mask,
                        pc,
                        seq: t.seq,
                        queue: f.queue,
                    });
                }
            }
        }
        if let Some(k) = c.read_sb {
            for &u in &f.late_reads {
                t.pending.push(Pend {
                    unit: u,
                    sb: Some(k),
                    write: false,
                    lanes: mask,
                    pc,
                    seq: t.seq,
                    queue: f.queue,
                });
            }
        }
        t.clock += u64::from(c.stall.max(1));
        Ok(())
    }
}
