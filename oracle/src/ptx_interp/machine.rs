//! The execution model. CTAs run one after another in grid order; a CTA's
//! threads run one at a time, in linear thread order, each until it blocks
//! (barrier, warp-collective instruction), exits, fails or has run a
//! quantum of instructions: a deterministic round-robin schedule with
//! independent-thread-scheduling semantics (issue 3), including forward
//! progress for spin-waiting threads. A
//! warp-collective instruction completes when every thread named in its
//! member mask has arrived at it; `bar.sync` when the expected number of the
//! CTA's threads have. When nothing can move, the run is a deadlock (UB).

use super::clocks::Clocks;
use super::memory::{GlobalMem, Windows};
use super::program::Program;
use super::result::{Location, Outcome, RunLimits, UbKind};
use super::shadow::WordShadow;
use super::undef_mem::UndefMem;
use crate::launch::{LaunchSpec, TextureImage};
use std::time::Instant;

pub const WARP: usize = 32;

/// Instructions a thread runs before the scheduler moves on (it stays
/// ready). Independent thread scheduling guarantees every thread forward
/// progress: a thread spinning on a flag must not starve the thread that will
/// set it. Round-robin with a fixed quantum keeps the schedule deterministic.
pub const QUANTUM: u32 = 4096;

/// Why a thread stopped running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TState {
    Ready,
    /// Waiting at `bar.sync`/`bar.arrive`/`bar.red` (pc of the instruction).
    Barrier {
        id: u32,
        expected: Option<u32>,
        pc: u32,
        arrive_only: bool,
    },
    /// Waiting at a warp-collective instruction.
    Warp {
        pc: u32,
        func: u32,
    },
    Exited,
}

/// A caller's saved frame (its return targets are in the call
/// instruction, at `ret_pc - 1`).
pub struct Frame {
    pub func: u32,
    pub ret_pc: u32,
    pub regs: Vec<u64>,
    pub written: Vec<u8>,
    pub frame_base: u64,
}

pub struct Thread {
    pub tid: [u32; 3],
    pub linear: u32,
    pub func: u32,
    pub pc: u32,
    pub regs: Vec<u64>,
    /// Per register slot: 1 once written (a byte each, not a bit, so that
    /// the hot path sets and tests it with one access).
    pub written: Vec<u8>,
    pub frames: Vec<Frame>,
    /// Local memory: the call frames, innermost last.
    pub local: UndefMem,
    pub frame_base: u64,
    pub state: TState,
    /// The carry flag of `add.cc`/`addc` chains.
    pub carry: bool,
    /// Register files (values, written bits) of finished calls, for reuse.
    pub spare_regs: Vec<(Vec<u64>, Vec<u8>)>,
    /// Scratch space for `call`'s argument values.
    pub scratch: Vec<u64>,
}

impl Thread {
    #[inline]
    pub fn is_written(&self, slot: u32) -> bool {
        self.written[slot as usize] != 0
    }

    #[inline]
    pub fn set_written(&mut self, slot: u32) {
        self.written[slot as usize] = 1;
    }
}

/// Why a thread stopped with an error: a fault, UB or the fuel/clock bound.
pub enum StopKind {
    Fault(String),
    Ub(UbKind),
    Timeout,
}

/// A failure while running, boxed so that the executor's `Result`s stay
/// register-sized on the hot path (errors are rare; results are not).
pub struct Stop(pub Box<StopKind>);

impl Stop {
    #[cold]
    pub fn fault(message: impl Into<String>) -> Stop {
        Stop(Box::new(StopKind::Fault(message.into())))
    }

    #[cold]
    pub fn ub(kind: UbKind) -> Stop {
        Stop(Box::new(StopKind::Ub(kind)))
    }

    #[cold]
    pub fn timeout() -> Stop {
        Stop(Box::new(StopKind::Timeout))
    }
}

pub struct Cta {
    pub ctaid: [u32; 3],
    /// Linear CTA index in the grid.
    pub linear: u32,
    pub threads: Vec<Thread>,
    pub shared: UndefMem,
    /// Race detection: the threads' vector clocks, the shared-memory
    /// shadow and its read sets, and release/acquire sync objects by
    /// (space is shared, address).
    pub clocks: Clocks,
    pub shared_shadow: WordShadow,
    pub sync_objects: rustc_hash::FxHashMap<(bool, u64), Vec<u32>>,
    /// Clocks contributed by `bar.arrive` to each barrier since its release
    /// (empty: none).
    pub arrive_clocks: Vec<Vec<u32>>,
    /// `bar.arrive` arrivals per barrier since its last release.
    pub arrivals: [u32; 16],
}

/// Everything a run shares across CTAs.
pub struct Machine<'p> {
    pub prog: &'p Program,
    pub spec: &'p LaunchSpec,
    pub global: GlobalMem,
    pub params: Vec<u8>,
    pub textures: Vec<TextureImage>,
    pub windows: Windows,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub limits: RunLimits,
    pub executed: u64,
    pub global_shadow: super::shadow::GlobalShadow,
    /// Fuel taken from `fuel_left` and not yet used (see `run_thread`).
    pub budget: u64,
    pub fuel_left: u64,
    pub started: Instant,
}

impl<'p> Machine<'p> {
    /// Runs every CTA; returns the outcome.
    pub fn run(&mut self) -> Outcome {
        let [gx, gy, gz] = self.grid;
        // One CTA's storage, reset for each CTA in turn.
        let mut cta = self.new_cta([0; 3]);
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    self.reset_cta(&mut cta, [x, y, z]);
                    if let Some(o) = self.run_cta(&mut cta) {
                        return o;
                    }
                }
            }
        }
        Outcome::Completed
    }

    /// Makes `cta` the CTA `ctaid` at its start, reusing its storage.
    fn reset_cta(&self, cta: &mut Cta, ctaid: [u32; 3]) {
        let entry = &self.prog.funcs[self.prog.entry as usize];
        for th in &mut cta.threads {
            th.func = self.prog.entry;
            th.pc = 0;
            th.regs.clear();
            th.regs.extend_from_slice(&entry.init_regs);
            th.written.clear();
            th.written.extend_from_slice(&entry.init_written);
            th.frames.clear();
            th.local.reset(entry.frame_bytes as usize);
            th.frame_base = 0;
            th.state = TState::Ready;
            th.carry = false;
        }
        let [gx, gy, _] = self.grid;
        cta.ctaid = ctaid;
        cta.linear = ctaid[0] + gx * (ctaid[1] + gy * ctaid[2]);
        let shared_len = cta.shared.len();
        cta.shared.reset(shared_len);
        cta.shared_shadow.clear();
        cta.clocks = Clocks::new(cta.threads.len());
        cta.sync_objects.clear();
        for a in &mut cta.arrive_clocks {
            a.clear();
        }
        cta.arrivals = [0; 16];
    }

    /// A CTA's storage (`reset_cta` starts it).
    fn new_cta(&self, ctaid: [u32; 3]) -> Cta {
        let [bx, by, bz] = self.block;
        let entry = &self.prog.funcs[self.prog.entry as usize];
        let mut threads = Vec::with_capacity((bx * by * bz) as usize);
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    let linear = x + bx * (y + by * z);
                    threads.push(Thread {
                        tid: [x, y, z],
                        linear,
                        func: self.prog.entry,
                        pc: 0,
                        regs: entry.init_regs.clone(),
                        written: entry.init_written.clone(),
                        frames: Vec::new(),
                        local: UndefMem::new(entry.frame_bytes as usize),
                        frame_base: 0,
                        state: TState::Ready,
                        carry: false,
                        spare_regs: Vec::new(),
                        scratch: Vec::new(),
                    });
                }
            }
        }
        let shared = UndefMem::new(
            (self.prog.static_shared + u64::from(self.spec.dynamic_shared_bytes)) as usize,
        );
        let [gx, gy, _] = self.grid;
        let n = threads.len();
        Cta {
            ctaid,
            linear: ctaid[0] + gx * (ctaid[1] + gy * ctaid[2]),
            threads,
            shared_shadow: WordShadow::new(shared.len(), n),
            shared,
            arrivals: [0; 16],
            clocks: Clocks::new(n),
            sync_objects: Default::default(),
            arrive_clocks: vec![Vec::new(); 16],
        }
    }

    pub fn location(&self, cta: &Cta, t: usize) -> Location {
        let th = &cta.threads[t];
        let f = &self.prog.funcs[th.func as usize];
        let inst = f.insts.get(th.pc as usize);
        Location {
            ctaid: cta.ctaid,
            tid: th.tid,
            line: inst.map_or(0, |i| i.line),
            instruction: inst.map_or_else(String::new, |i| i.text.to_string()),
        }
    }

    fn stop_outcome(&self, cta: &Cta, t: usize, s: Stop) -> Outcome {
        let at = self.location(cta, t);
        match *s.0 {
            StopKind::Fault(message) => Outcome::Fault { message, at },
            StopKind::Ub(kind) => Outcome::Ub { kind, at },
            StopKind::Timeout => Outcome::Timeout {
                executed: self.executed,
            },
        }
    }

    /// Runs one CTA to completion; Some(outcome) if the run must stop.
    fn run_cta(&mut self, cta: &mut Cta) -> Option<Outcome> {
        let n = cta.threads.len();
        loop {
            let mut progress = false;
            for t in 0..n {
                if cta.threads[t].state == TState::Ready {
                    progress = true;
                    if let Err(s) = self.run_thread(cta, t) {
                        return Some(self.stop_outcome(cta, t, s));
                    }
                }
            }
            if cta.threads.iter().all(|t| t.state == TState::Exited) {
                return None;
            }
            match self.release_barriers(cta) {
                Ok(p) => progress |= p,
                Err((t, s)) => return Some(self.stop_outcome(cta, t, s)),
            }
            match self.release_warp_collectives(cta) {
                Ok(p) => progress |= p,
                Err((t, s)) => return Some(self.stop_outcome(cta, t, s)),
            }
            if !progress {
                let t = cta
                    .threads
                    .iter()
                    .position(|t| t.state != TState::Exited)
                    .unwrap_or(0);
                let waiting = describe_waits(cta);
                return Some(self.stop_outcome(cta, t, Stop::ub(UbKind::Deadlock(waiting))));
            }
        }
    }

    /// Releases every barrier whose expected thread count has arrived.
    /// PTX ISA 9.7.13.1: without a count, all threads of the CTA take part;
    /// threads that exited no longer count (sm_70+ behaviour, in which exited
    /// threads are removed from the barrier's expected set).
    fn release_barriers(&mut self, cta: &mut Cta) -> Result<bool, (usize, Stop)> {
        let live = cta
            .threads
            .iter()
            .filter(|t| t.state != TState::Exited)
            .count() as u32;
        let mut progress = false;
        // One pass: the waiting threads of each barrier, and its expected count.
        let mut waiting_by_id: [Vec<usize>; 16] = Default::default();
        let mut expected_by_id: [Option<u32>; 16] = [None; 16];
        for (i, th) in cta.threads.iter().enumerate() {
            if let TState::Barrier { id, expected, .. } = th.state {
                waiting_by_id[id as usize].push(i);
                expected_by_id[id as usize] = expected_by_id[id as usize].or(expected);
            }
        }
        for id in 0..16u32 {
            let waiting = std::mem::take(&mut waiting_by_id[id as usize]);
            if waiting.is_empty() {
                continue;
            }
            let expected = expected_by_id[id as usize].unwrap_or(live);
            if (waiting.len() as u32) + cta.arrivals[id as usize] < expected.min(live) {
                continue;
            }
            super::exec::complete_barrier(self, cta, &waiting).map_err(|s| (waiting[0], s))?;
            progress = true;
        }
        Ok(progress)
    }

    /// Completes warp-collective instructions whose participants have all
    /// arrived (see the module comment).
    fn release_warp_collectives(&mut self, cta: &mut Cta) -> Result<bool, (usize, Stop)> {
        let mut progress = false;
        let n = cta.threads.len();
        for w0 in (0..n).step_by(WARP) {
            let lanes = w0..(w0 + WARP).min(n);
            // Group the waiting lanes by instruction.
            let mut groups: Vec<(u32, u32, u32)> = Vec::new(); // (func, pc, lane mask)
            let mut running = false;
            for i in lanes.clone() {
                match cta.threads[i].state {
                    TState::Warp { pc, func } => {
                        let bit = 1u32 << (i - w0);
                        match groups.iter_mut().find(|g| g.0 == func && g.1 == pc) {
                            Some(g) => g.2 |= bit,
                            None => groups.push((func, pc, bit)),
                        }
                    }
                    TState::Ready => running = true,
                    _ => {}
                }
            }
            for (func, pc, arrived) in groups {
                match super::exec::try_collective(self, cta, w0, func, pc, arrived, running) {
                    Ok(done) => progress |= done,
                    Err((lane, s)) => return Err((w0 + lane, s)),
                }
            }
        }
        Ok(progress)
    }

    /// Runs thread `t` until it blocks, exits, fails or uses its quantum.
    fn run_thread(&mut self, cta: &mut Cta, t: usize) -> Result<(), Stop> {
        let mut quantum = QUANTUM;
        while quantum > 0 {
            if self.budget == 0 {
                // Fuel and the clock are checked in slices to keep the loop
                // tight; the slice's unused part carries over to the next
                // thread, so a run times out exactly when a thread would
                // execute an instruction beyond the fuel.
                if self.fuel_left == 0 || self.started.elapsed() > self.limits.wall {
                    return Err(Stop::timeout());
                }
                self.budget = self.fuel_left.min(1 << 16);
                self.fuel_left -= self.budget;
            }
            let limit = self.budget.min(u64::from(quantum)) as u32;
            let (done, blocked) = super::exec::run(self, cta, t, limit)?;
            quantum -= done;
            self.budget -= u64::from(done);
            if blocked {
                return Ok(());
            }
        }
        Ok(())
    }
}

fn describe_waits(cta: &Cta) -> String {
    let mut parts = Vec::new();
    for t in &cta.threads {
        match &t.state {
            TState::Barrier { id, pc, .. } => {
                parts.push(format!("tid {:?} at barrier {id} (pc {pc})", t.tid))
            }
            TState::Warp { pc, .. } => parts.push(format!(
                "tid {:?} at a warp-synchronous instruction (pc {pc})",
                t.tid
            )),
            _ => {}
        }
        if parts.len() >= 4 {
            break;
        }
    }
    format!("no thread can proceed: {}", parts.join("; "))
}
