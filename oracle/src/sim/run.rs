//! Running a grid: CTAs one after another in grid order (x fastest), the
//! warps of a CTA round-robin (each for up to [`QUANTUM`] instructions or
//! until it has no ready lanes), fuel and wall clock.
//!
//! # SIMT and reconvergence model
//!
//! A warp's lanes are partitioned into *ready groups* (lanes at the same
//! pc, executed together as one instruction stream), *waiting* lanes
//! (blocked at a `BSYNC`, a `WARPSYNC` or a CTA barrier) and exited lanes.
//! This is independent thread scheduling as on sm_70+: a divergent branch
//! splits a group in two; the scheduler runs the group with the lowest pc
//! first and merges groups that reach the same pc (so structured code
//! reconverges at its join points, as the hardware may, and every lane keeps
//! its own progress). Convergence that the code *requires* is explicit:
//! `BSYNC Bn` and `WARPSYNC mask` block lanes until the lanes they name have
//! arrived (see `exec/control.rs`), after which those lanes run as one
//! group. Warp-synchronous instructions (SHFL, VOTE, MATCH, REDUX) act on
//! the executing group. A group that runs [`GROUP_QUANTUM`] instructions
//! while other groups of its warp are ready yields to the next group by pc
//! (cyclically), so a lane spinning on another lane's progress cannot
//! starve it. Everything is deterministic.
//!
//! CTA barriers (`BAR.SYNC`, `BAR.RED.*`, `BAR.ARV`) count threads: a
//! barrier without a thread count completes when all live (non-exited)
//! threads of the CTA have arrived, one with a count when that many have.
//! `BAR.RED` reduces the arriving lanes' predicates; `B2R.RESULT` reads the
//! result (POPC: the count; AND/OR: 1 or 0, UNCONFIRMED encoding). When no
//! lane of a CTA can move and some have not exited, the run ends with
//! [`UbKind::Deadlock`].

use std::time::Instant;

use super::cbank::{bank0, write_refs, Banks, SimInputs, DEFAULT_STATIC_SHARED, GLOBALS_BANK};
use super::exec::{step, Ctx, Flow};
use super::hazard;
use super::memory::{global_bytes, place_globals, CtaMem, GlobalMem, LOCAL_BYTES};
use super::program::{decode, BarKind, PSrc, Program};
use super::reloc;
use super::resinfo;
use super::warp::{Group, Stop, StopKind, Wait, WaitKind, Warp};
use crate::launch::limits;
use crate::launch::{LaunchSpec, MemoryImage, OutputSet, SurfaceImage, TextureImage};
use crate::ptx_interp::{Location, Outcome, RunLimits, RunResult, SetupError, UbKind};
use ptxc::ir::Function;
use ptxc::targets::abi::GlobalVar;
use ptxc::targets::SmInfo;

/// Warp-instructions a warp runs before the next warp's turn.
pub const QUANTUM: u32 = 4096;
/// Consecutive instructions of one group while others of its warp are
/// ready, before the next group gets a turn.
pub const GROUP_QUANTUM: u32 = 1024;

/// Runs `f` (a kernel as decoded from SASS, or the compiler's IR) on the
/// launch `spec` for target `sm`.
pub fn run(
    f: &Function,
    sm: &SmInfo,
    spec: &LaunchSpec,
    extra: &SimInputs,
    limits: &RunLimits,
) -> Result<RunResult, SetupError> {
    let mut image = MemoryImage::new(spec).map_err(|e| SetupError(e.to_string()))?;
    let cb = sm.cbank.ok_or_else(|| {
        SetupError(format!(
            "{}: no constant-bank layout in the SM table",
            sm.name
        ))
    })?;
    let mut banks = Banks::default();
    for (b, bytes) in &extra.banks {
        if *b == 0 {
            return Err(SetupError("a banks file may not give bank 0".into()));
        }
        banks.banks.insert(*b, bytes.clone());
    }
    let mut b0 = bank0(sm, spec, image.layout(), LOCAL_BYTES, extra.addr32).map_err(SetupError)?;
    write_refs(&mut b0, &extra.refs, &f.name, spec).map_err(SetupError)?;
    banks.banks.insert(0, b0);
    // Module variables: placed after the buffers, their addresses in bank 4
    // (the compiler's IR) and relocated into the code (vendor SASS).
    let mut global = GlobalMem::new(&image);
    // The driver's texture/surface information tables (resinfo.rs) follow
    // the module variables; their addresses go to bank 0.
    let tables = resinfo::tables(spec, sm.sm).map_err(SetupError)?;
    let mut placed = extra.globals.clone();
    placed.extend(tables.iter().map(|(_, g)| g.clone()));
    // The module's constant bank 3 as generic addresses see it: a copy
    // placed like a module variable, its address in bank 0 where ptxas's
    // `cvta.const` reads it (`CbankLayout::const_window`).
    let const_window = banks
        .banks
        .get(&3)
        .filter(|b| !b.is_empty())
        .map(|b| GlobalVar {
            name: "$const bank 3".into(),
            size: b.len() as u32,
            align: 16,
            init: b.clone(),
        });
    placed.extend(const_window.iter().cloned());
    let all_addrs = place_globals(&placed, image.layout().end()).map_err(SetupError)?;
    let (addrs, rest) = all_addrs.split_at(extra.globals.len());
    let (table_addrs, window_addr) = rest.split_at(tables.len());
    if let (Some(g), Some(&a)) = (&const_window, window_addr.first()) {
        global
            .add_variable(a, g.init.clone(), &g.name)
            .map_err(SetupError)?;
        if let Some(b0) = banks.banks.get_mut(&0) {
            let at = cb.const_window as usize;
            b0[at..at + 8].copy_from_slice(&a.to_le_bytes());
        }
    }
    for ((t, g), &a) in tables.iter().zip(table_addrs) {
        global
            .add_variable(a, g.init.clone(), &g.name)
            .map_err(SetupError)?;
        let at = match t {
            ptxc::targets::abi::resinfo::Table::Texture => cb.tex_info,
            ptxc::targets::abi::resinfo::Table::Surface => cb.surf_info,
        } as usize;
        if let Some(b0) = banks.banks.get_mut(&0) {
            b0[at..at + 8].copy_from_slice(&a.to_le_bytes());
        }
    }
    limits::check_module_variables(extra.globals.iter().map(|g| u64::from(g.size)).sum())
        .map_err(SetupError)?;
    for (g, &a) in extra.globals.iter().zip(addrs) {
        if extra.globals.iter().filter(|x| x.name == g.name).count() > 1 {
            return Err(SetupError(format!(
                "module variable '{}' is given twice",
                g.name
            )));
        }
        let bytes = global_bytes(g).map_err(SetupError)?;
        global.add_variable(a, bytes, &g.name).map_err(SetupError)?;
    }
    if let Some(b4) = SimInputs::globals_bank(addrs) {
        if banks.banks.insert(GLOBALS_BANK, b4).is_some() {
            return Err(SetupError(format!(
                "constant bank {GLOBALS_BANK} holds the module variables' addresses: the inputs may not give it"
            )));
        }
    }
    let relocated;
    let f = if extra.relocs.is_empty() {
        f
    } else {
        let symbol = |name: &str| {
            extra
                .globals
                .iter()
                .position(|g| g.name == name)
                .map(|k| addrs[k])
                .or_else(|| reloc::desc_size_symbol(name))
        };
        relocated = reloc::apply(f, &extra.relocs, &symbol).map_err(SetupError)?;
        &relocated
    };
    let prog = decode(f, sm, &banks);
    let hazards = hazard::Model::new(f, sm, &prog.texts);
    // An unknown static size (vendor SASS without its banks file) is not
    // held against the launch: the 48 KiB default is a window, not a need.
    limits::check_shared(
        extra.static_shared_bytes.map_or(0, u64::from),
        spec.dynamic_shared_bytes,
        u64::from(sm.max_shared_per_block),
        sm.name,
    )
    .map_err(SetupError)?;
    let shared = u64::from(extra.static_shared_bytes.unwrap_or(DEFAULT_STATIC_SHARED))
        + u64::from(spec.dynamic_shared_bytes);
    let mut m = Machine {
        prog: &prog,
        hazards: hazards.as_ref(),
        spec,
        global,
        banks: &banks,
        textures: TextureImage::all(spec),
        surfaces: std::mem::take(&mut image.surfaces),
        inputs: extra,
        limits: *limits,
        executed: 0,
        started: Instant::now(),
        shared_bytes: shared as usize,
        shared_base: cb.shared_base,
    };
    let outcome = m.run_grid();
    image.surfaces = std::mem::take(&mut m.surfaces);
    m.global.store_into(&mut image);
    let outputs = image.outputs(spec).unwrap_or_else(|_| OutputSet::default());
    Ok(RunResult {
        outcome,
        outputs,
        executed: m.executed,
    })
}

/// Why a warp stopped running.
enum Event {
    /// Its time slice ended or it has no ready lanes.
    Yield,
    Exited,
    Bar {
        lanes: u32,
        id: u32,
        count: Option<u32>,
        kind: BarKind,
        preds: u32,
    },
}

#[derive(Clone, Copy, Default)]
struct BarState {
    arrived: u32,
    count: Option<u32>,
    popc: u32,
    all: bool,
    any: bool,
    kind: Option<BarKind>,
}

struct Machine<'a> {
    prog: &'a Program,
    /// The scoreboard check, when the function carries control codes.
    hazards: Option<&'a hazard::Model>,
    spec: &'a LaunchSpec,
    global: GlobalMem,
    banks: &'a Banks,
    textures: Vec<TextureImage>,
    surfaces: Vec<SurfaceImage>,
    inputs: &'a SimInputs,
    limits: RunLimits,
    executed: u64,
    started: Instant,
    shared_bytes: usize,
    shared_base: u32,
}

impl Machine<'_> {
    fn location(&self, ctaid: [u32; 3], w: &Warp, lane: u32, pc: u32) -> Location {
        Location {
            ctaid,
            tid: w.tid[lane.min(31) as usize],
            line: 0,
            instruction: if (pc as usize) < self.prog.insts.len() {
                self.prog.describe(pc)
            } else {
                format!("/*{:04x}*/ <past the end>", pc * 16)
            },
        }
    }

    fn stop_outcome(&self, s: Stop, ctaid: [u32; 3], w: &Warp, pc: u32) -> Outcome {
        let at = self.location(ctaid, w, s.lane, pc);
        match s.kind {
            StopKind::Fault(message) => Outcome::Fault { message, at },
            StopKind::Ub(kind) => Outcome::Ub { kind, at },
            StopKind::Uninit(file, idx) => Outcome::Ub {
                kind: Stop::name_register(file, idx, &self.prog.regs),
                at,
            },
            StopKind::Hazard(hazard) => Outcome::Hazard {
                hazard: *hazard,
                at,
            },
            StopKind::Timeout => Outcome::Timeout {
                executed: self.executed,
            },
        }
    }

    fn run_grid(&mut self) -> Outcome {
        let [gx, gy, gz] = self.spec.grid();
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    let o = self.run_cta([x, y, z]);
                    if o != Outcome::Completed {
                        return o;
                    }
                }
            }
        }
        Outcome::Completed
    }

    fn run_cta(&mut self, ctaid: [u32; 3]) -> Outcome {
        let [bx, by, bz] = self.spec.block();
        let n = (bx * by * bz) as usize;
        let mut cta = CtaMem::new(self.shared_bytes, self.shared_base, n);
        let mut warps: Vec<Warp> = (0..n.div_ceil(32))
            .map(|wi| {
                let mut tid = [[0u32; 3]; 32];
                let mut launched = 0u32;
                for (l, t) in tid.iter_mut().enumerate() {
                    let lin = wi * 32 + l;
                    if lin < n {
                        let lin = lin as u32;
                        *t = [lin % bx, (lin / bx) % by, lin / (bx * by)];
                        launched |= 1 << l;
                    }
                }
                Warp::new(wi as u32, tid, launched, &self.prog.regs)
            })
            .collect();
        let mut bars = [BarState::default(); 16];
        loop {
            let mut any = false;
            for wi in 0..warps.len() {
                if warps[wi].groups.is_empty() {
                    continue;
                }
                any = true;
                match self.run_warp(&mut cta, &mut warps[wi], ctaid) {
                    Ok(Event::Bar {
                        lanes,
                        id,
                        count,
                        kind,
                        preds,
                    }) => {
                        let b = &mut bars[id as usize];
                        if b.arrived == 0 {
                            *b = BarState {
                                all: true,
                                ..BarState::default()
                            };
                        }
                        b.arrived += lanes.count_ones();
                        if count.is_some() {
                            b.count = count;
                        }
                        b.popc += (preds & lanes).count_ones();
                        b.all &= preds & lanes == lanes;
                        b.any |= preds & lanes != 0;
                        if kind != BarKind::Arrive {
                            b.kind = Some(kind);
                        }
                    }
                    Ok(Event::Yield | Event::Exited) => {}
                    Err((s, pc)) => return self.stop_outcome(s, ctaid, &warps[wi], pc),
                }
                Self::check_barriers(&mut warps, &mut bars);
                if self.executed >= self.limits.fuel || self.started.elapsed() > self.limits.wall {
                    return Outcome::Timeout {
                        executed: self.executed,
                    };
                }
            }
            if !any {
                if let Some((wi, wt)) = warps
                    .iter()
                    .enumerate()
                    .find_map(|(i, w)| w.waits.first().map(|x| (i, *x)))
                {
                    let lane = wt.mask.trailing_zeros();
                    let what = match wt.kind {
                        WaitKind::Bsync(b) => format!("BSYNC B{b}"),
                        WaitKind::Warpsync(m) => format!("WARPSYNC {m:#x}"),
                        WaitKind::Bar(id) => format!("barrier {id}"),
                    };
                    let live: u32 = warps.iter().map(|w| w.live.count_ones()).sum();
                    return Outcome::Ub {
                        kind: UbKind::Deadlock(format!(
                            "warp {wi} lanes {:#010x} wait at {what}; no lane of the CTA can move ({live} threads not exited)",
                            wt.mask
                        )),
                        at: self.location(ctaid, &warps[wi], lane, wt.pc.saturating_sub(1)),
                    };
                }
                return Outcome::Completed;
            }
        }
    }

    /// Releases every barrier whose expected threads have all arrived.
    fn check_barriers(warps: &mut [Warp], bars: &mut [BarState; 16]) {
        if bars.iter().all(|b| b.arrived == 0) {
            return;
        }
        let live: u32 = warps.iter().map(|w| w.live.count_ones()).sum();
        for (id, b) in bars.iter_mut().enumerate() {
            if b.arrived == 0 {
                continue;
            }
            let expected = b.count.unwrap_or(live);
            if b.arrived < expected {
                continue;
            }
            let result = match b.kind {
                Some(BarKind::RedPopc) => b.popc,
                Some(BarKind::RedAnd) => u32::from(b.all),
                Some(BarKind::RedOr) => u32::from(b.any),
                _ => 0,
            };
            let red = matches!(
                b.kind,
                Some(BarKind::RedPopc | BarKind::RedAnd | BarKind::RedOr)
            );
            let k = WaitKind::Bar(id as u32);
            for w in warps.iter_mut() {
                let lanes = w.waiting(|x| *x == k);
                if red {
                    for l in 0..32 {
                        if lanes >> l & 1 != 0 {
                            w.bar_result[l] = result;
                        }
                    }
                }
                w.release(u32::MAX, |x| *x == k);
            }
            *b = BarState::default();
        }
    }

    /// The group to run next: the lowest pc, or after a long streak the
    /// next pc cyclically.
    fn pick(w: &mut Warp) -> usize {
        let mut best = 0;
        for (i, g) in w.groups.iter().enumerate() {
            if g.pc < w.groups[best].pc {
                best = i;
            }
        }
        if w.rotate {
            w.rotate = false;
            let last = w.last_pc;
            if let Some((i, _)) = w
                .groups
                .iter()
                .enumerate()
                .filter(|(_, g)| g.pc > last)
                .min_by_key(|(_, g)| g.pc)
            {
                best = i;
            }
        }
        best
    }

    fn run_warp(
        &mut self,
        cta: &mut CtaMem,
        w: &mut Warp,
        ctaid: [u32; 3],
    ) -> Result<Event, (Stop, u32)> {
        let mut budget = QUANTUM;
        let n = self.prog.insts.len() as u32;
        let fuel = self.limits.fuel;
        let mut ctx = Ctx {
            prog: self.prog,
            global: &mut self.global,
            cta,
            banks: self.banks,
            textures: &self.textures,
            surfaces: &mut self.surfaces,
            spec: self.spec,
            inputs: self.inputs,
            ctaid,
            clock: 0,
        };
        'pick: loop {
            if w.groups.is_empty() || budget == 0 {
                return Ok(Event::Yield);
            }
            let gi = Self::pick(w);
            let Group { mut pc, mut mask } = w.groups.swap_remove(gi);
            w.last_pc = pc;
            loop {
                if pc >= n {
                    return Err((
                        Stop::fault(
                            mask.trailing_zeros(),
                            "execution ran past the end of the function",
                        ),
                        pc,
                    ));
                }
                if self.executed >= fuel {
                    w.add_group(pc, mask);
                    return Err((
                        Stop {
                            kind: StopKind::Timeout,
                            lane: mask.trailing_zeros(),
                        },
                        pc,
                    ));
                }
                ctx.clock = self.executed;
                if let Some(h) = self.hazards {
                    // The lanes whose guard holds (a guard that cannot be
                    // read: all, `step` reports it).
                    let guard = self.prog.insts[pc as usize].guard;
                    let exec = if guard == PSrc::TRUE {
                        mask
                    } else {
                        mask & w.pred(guard, mask).unwrap_or(mask)
                    };
                    if let Err(hz) = h.issue(&mut w.timing, pc, mask, exec) {
                        return Err((
                            Stop {
                                kind: StopKind::Hazard(Box::new(hz)),
                                lane: mask.trailing_zeros(),
                            },
                            pc,
                        ));
                    }
                }
                let flow = match step(&mut ctx, w, pc, mask) {
                    Ok(f) => f,
                    Err(s) => return Err((s, pc)),
                };
                self.executed += u64::from(mask.count_ones());
                budget -= 1;
                match flow {
                    Flow::Next => pc += 1,
                    Flow::Branch { taken, target } => {
                        if taken == mask {
                            pc = target;
                            if !w.groups.is_empty() {
                                w.add_group(pc, mask);
                                continue 'pick;
                            }
                        } else if taken == 0 {
                            pc += 1;
                        } else {
                            w.add_group(target, taken);
                            w.add_group(pc + 1, mask & !taken);
                            continue 'pick;
                        }
                    }
                    Flow::Multi(list) => {
                        let mut rest = mask;
                        for (t, l) in list {
                            w.add_group(t, l);
                            rest &= !l;
                        }
                        w.add_group(pc + 1, rest);
                        continue 'pick;
                    }
                    Flow::Exit(l) => {
                        w.live &= !l;
                        w.add_group(pc + 1, mask & !l);
                        w.recheck();
                        if l != 0 {
                            return Ok(Event::Exited);
                        }
                        continue 'pick;
                    }
                    Flow::Wait(l, kind) => {
                        if l != 0 {
                            w.waits.push(Wait {
                                kind,
                                pc: pc + 1,
                                mask: l,
                            });
                        }
                        w.add_group(pc + 1, mask & !l);
                        continue 'pick;
                    }
                    Flow::Bar {
                        lanes,
                        id,
                        count,
                        kind,
                        preds,
                    } => {
                        let rest = if kind == BarKind::Arrive {
                            mask
                        } else {
                            w.waits.push(Wait {
                                kind: WaitKind::Bar(id),
                                pc: pc + 1,
                                mask: lanes,
                            });
                            mask & !lanes
                        };
                        w.add_group(pc + 1, rest);
                        return Ok(Event::Bar {
                            lanes,
                            id,
                            count,
                            kind,
                            preds,
                        });
                    }
                }
                if !w.groups.is_empty() {
                    if let Some(k) = w.groups.iter().position(|g| g.pc == pc) {
                        mask |= w.groups.swap_remove(k).mask;
                    }
                    if !w.groups.is_empty() {
                        w.streak += 1;
                        if w.streak >= GROUP_QUANTUM {
                            w.streak = 0;
                            w.rotate = true;
                            w.add_group(pc, mask);
                            continue 'pick;
                        }
                    }
                }
                if budget == 0 {
                    w.add_group(pc, mask);
                    return Ok(Event::Yield);
                }
            }
        }
    }
}
