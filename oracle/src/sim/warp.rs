//! The SIMT state of one warp: register files in structure-of-arrays form
//! (each general register a `[u32; 32]`, each predicate a lane mask), the
//! per-lane "written" masks that catch reads of never-written registers, the
//! ready groups (lanes that share a pc), the lanes blocked at a convergence
//! barrier, a `WARPSYNC` or a CTA barrier, and the convergence barrier
//! registers `B0..B15`.

use super::program::{Dst, PDst, PSrc, Src, Src64};
use super::regs::RegMap;
use crate::ptx_interp::UbKind;

/// One value per lane.
pub type V = [u32; 32];
pub type V64 = [u64; 32];

/// Why execution stopped, with the lane it concerns.
#[derive(Debug)]
pub struct Stop {
    pub kind: StopKind,
    pub lane: u32,
}

#[derive(Debug)]
pub enum StopKind {
    Fault(String),
    Ub(UbKind),
    /// A never-written register: file (`b'R'`, `b'U'`, `b'P'`, `b'Q'`
    /// for uniform predicates) and index, named later.
    Uninit(u8, u32),
    Timeout,
    /// The scoreboard check failed (see `hazard.rs`).
    Hazard(Box<crate::ptx_interp::Hazard>),
}

impl Stop {
    #[cold]
    pub fn fault(lane: u32, msg: impl Into<String>) -> Stop {
        Stop {
            kind: StopKind::Fault(msg.into()),
            lane,
        }
    }

    #[cold]
    pub fn ub(lane: u32, k: UbKind) -> Stop {
        Stop {
            kind: StopKind::Ub(k),
            lane,
        }
    }

    #[cold]
    fn uninit(file: u8, idx: u32, missing: u32) -> Stop {
        Stop {
            kind: StopKind::Uninit(file, idx),
            lane: missing.trailing_zeros(),
        }
    }

    /// The UB kind for an uninitialised read, with the register's name.
    pub fn name_register(file: u8, idx: u32, regs: &RegMap) -> UbKind {
        UbKind::UninitializedRegister(match file {
            b'R' => regs.name(idx),
            b'U' => regs.uname(idx),
            b'P' => regs.pname(idx, false),
            _ => regs.pname(idx, true),
        })
    }
}

/// Lanes at the same pc, ready to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub pc: u32,
    pub mask: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitKind {
    /// At `BSYNC Bn`.
    Bsync(u8),
    /// At `WARPSYNC mask`.
    Warpsync(u32),
    /// At a CTA barrier (`BAR.SYNC`/`BAR.RED`), id.
    Bar(u32),
}

/// Blocked lanes; they resume at `pc` when released.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    pub kind: WaitKind,
    pub pc: u32,
    pub mask: u32,
}

pub struct Warp {
    /// Index of the warp in its CTA.
    pub id: u32,
    pub tid: [[u32; 3]; 32],
    /// Lanes that exist (a partial last warp has fewer).
    pub launched: u32,
    /// Launched and not exited.
    pub live: u32,
    pub r: Vec<V>,
    pub rw: Vec<u32>,
    pub p: Vec<u32>,
    pub pw: Vec<u32>,
    pub ur: Vec<u32>,
    pub urw: Vec<bool>,
    pub up: Vec<bool>,
    pub upw: Vec<bool>,
    pub groups: Vec<Group>,
    pub waits: Vec<Wait>,
    pub b: [u32; 16],
    /// The result of the last `BAR.RED` per lane (read by `B2R.RESULT`).
    pub bar_result: V,
    /// Where `ENDCOLLECTIVE` continues (set by `WARPSYNC.COLLECTIVE`).
    pub coll_target: Option<u32>,
    /// Consecutive instructions of the current group while others wait
    /// (forward progress for spinning lanes).
    pub streak: u32,
    /// Set when the streak ran out: the next pick rotates past `last_pc`.
    pub rotate: bool,
    pub last_pc: u32,
    /// Issue cycles and outstanding scoreboards (`hazard.rs`).
    pub timing: super::hazard::Timing,
}

#[inline(always)]
fn blend(dst: &mut V, m: u32, v: &V) {
    if m == u32::MAX {
        *dst = *v;
    } else {
        for l in 0..32 {
            if m >> l & 1 != 0 {
                dst[l] = v[l];
            }
        }
    }
}

impl Warp {
    pub fn new(id: u32, tid: [[u32; 3]; 32], launched: u32, regs: &RegMap) -> Warp {
        let np = regs.n_preds() as usize;
        let mut p = vec![0u32; np];
        let mut pw = vec![0u32; np];
        p[0] = u32::MAX;
        pw[0] = u32::MAX;
        let nup = regs.n_upreds() as usize;
        let mut up = vec![false; nup];
        let mut upw = vec![false; nup];
        up[0] = true;
        upw[0] = true;
        Warp {
            id,
            tid,
            launched,
            live: launched,
            r: vec![[0; 32]; regs.n_regs() as usize],
            rw: vec![0; regs.n_regs() as usize],
            p,
            pw,
            ur: vec![0; regs.n_uregs() as usize],
            urw: vec![false; regs.n_uregs() as usize],
            up,
            upw,
            groups: if launched != 0 {
                vec![Group {
                    pc: 0,
                    mask: launched,
                }]
            } else {
                Vec::new()
            },
            waits: Vec::new(),
            b: [0; 16],
            bar_result: [0; 32],
            coll_target: None,
            streak: 0,
            rotate: false,
            last_pc: 0,
            timing: Default::default(),
        }
    }

    /// A source's value in every lane; checks that lanes `m` wrote it.
    #[inline(always)]
    pub fn read(&self, s: Src, m: u32) -> Result<V, Stop> {
        match s {
            Src::R(i) => {
                let i = i as usize;
                let miss = m & !self.rw[i];
                if miss != 0 {
                    return Err(Stop::uninit(b'R', i as u32, miss));
                }
                Ok(self.r[i])
            }
            Src::U(i) => {
                if m != 0 && !self.urw[i as usize] {
                    return Err(Stop::uninit(b'U', i, m));
                }
                Ok([self.ur[i as usize]; 32])
            }
            Src::Imm(v) => Ok([v; 32]),
        }
    }

    /// The lanes of `m` where general register `i` was never written.
    #[inline]
    pub fn unwritten(&self, i: u32, m: u32) -> u32 {
        m & !self.rw.get(i as usize).copied().unwrap_or(0)
    }

    /// Marks general register `i` never-written in lanes `m` (a load of a
    /// word that held a never-written value, memory.rs).
    pub fn unwrite(&mut self, i: u32, m: u32) {
        if let Some(x) = self.rw.get_mut(i as usize) {
            *x &= !m;
        }
    }

    /// The lanes of `m` where source `s` holds a written value (a uniform
    /// register is written for the whole warp or not at all).
    #[inline]
    pub fn defined(&self, s: Src, m: u32) -> u32 {
        match s {
            Src::R(i) => m & self.rw[i as usize],
            Src::U(i) => {
                if self.urw[i as usize] {
                    m
                } else {
                    0
                }
            }
            Src::Imm(_) => m,
        }
    }

    /// Marks destination `d` never-written in lanes `m` (a copy of a
    /// never-written value; a uniform register for the whole warp).
    pub fn undefine(&mut self, d: Dst, m: u32) {
        match d {
            Dst::R(i) => self.unwrite(i, m),
            Dst::U(i) => {
                if m != 0 {
                    self.urw[i as usize] = false;
                }
            }
            Dst::None => {}
        }
    }

    /// Marks predicate `d` never-written in lanes `m` (a comparison of a
    /// never-written value that its combining predicate does not decide).
    pub fn undefine_pred(&mut self, d: PDst, m: u32) {
        match d {
            PDst::P(i) => self.pw[i as usize] &= !m,
            PDst::U(i) => {
                if m != 0 {
                    self.upw[i as usize] = false;
                }
            }
            PDst::None => {}
        }
    }

    /// A source's value without the never-written check.
    #[inline]
    pub fn read_unchecked(&self, s: Src) -> V {
        match s {
            Src::R(i) => self.r[i as usize],
            Src::U(i) => [self.ur[i as usize]; 32],
            Src::Imm(v) => [v; 32],
        }
    }

    /// One lane's value of a source (checked).
    #[inline]
    pub fn read1(&self, s: Src, lane: u32) -> Result<u32, Stop> {
        Ok(match s {
            Src::R(i) => {
                if self.rw[i as usize] >> lane & 1 == 0 {
                    return Err(Stop::uninit(b'R', i, 1 << lane));
                }
                self.r[i as usize][lane as usize]
            }
            Src::U(i) => {
                if !self.urw[i as usize] {
                    return Err(Stop::uninit(b'U', i, 1 << lane));
                }
                self.ur[i as usize]
            }
            Src::Imm(v) => v,
        })
    }

    /// A 64-bit source (register pair) in every lane.
    #[inline]
    pub fn read64(&self, s: Src64, m: u32) -> Result<V64, Stop> {
        match s {
            Src64::R(i) => {
                let lo = self.read(Src::R(i), m)?;
                let hi = self.read(Src::R(i + 1), m)?;
                let mut out = [0u64; 32];
                for l in 0..32 {
                    out[l] = u64::from(lo[l]) | u64::from(hi[l]) << 32;
                }
                Ok(out)
            }
            Src64::U(i) => {
                let lo = self.read(Src::U(i), m)?[0];
                let hi = self.read(Src::U(i + 1), m)?[0];
                Ok([u64::from(lo) | u64::from(hi) << 32; 32])
            }
            Src64::Imm(v) => Ok([v; 32]),
        }
    }

    /// Writes lanes `m` of `d`.
    #[inline(always)]
    pub fn write(&mut self, d: Dst, m: u32, v: &V) {
        match d {
            Dst::R(i) => {
                let i = i as usize;
                blend(&mut self.r[i], m, v);
                self.rw[i] |= m;
            }
            Dst::U(i) => {
                if m != 0 {
                    self.ur[i as usize] = v[m.trailing_zeros() as usize];
                    self.urw[i as usize] = true;
                }
            }
            Dst::None => {}
        }
    }

    /// Writes register `d + k` (the k-th word of a wide destination).
    #[inline]
    pub fn write_at(&mut self, d: Dst, k: u32, m: u32, v: &V) {
        let d = match d {
            Dst::R(i) => Dst::R(i + k),
            Dst::U(i) => Dst::U(i + k),
            Dst::None => Dst::None,
        };
        if let Dst::R(i) = d {
            if i as usize >= self.r.len() {
                return;
            }
        }
        if let Dst::U(i) = d {
            if i as usize >= self.ur.len() {
                return;
            }
        }
        self.write(d, m, v);
    }

    /// Writes a register pair.
    #[inline]
    pub fn write64(&mut self, d: Dst, m: u32, v: &V64) {
        let mut lo = [0u32; 32];
        let mut hi = [0u32; 32];
        for l in 0..32 {
            lo[l] = v[l] as u32;
            hi[l] = (v[l] >> 32) as u32;
        }
        self.write_at(d, 0, m, &lo);
        self.write_at(d, 1, m, &hi);
    }

    /// The lanes (of all 32) where predicate `p` holds; checks that lanes
    /// `m` wrote it.
    #[inline(always)]
    pub fn pred(&self, p: PSrc, m: u32) -> Result<u32, Stop> {
        let v = if p.uniform {
            if m != 0 && !self.upw[p.idx as usize] {
                return Err(Stop::uninit(b'Q', p.idx, m));
            }
            if self.up[p.idx as usize] {
                u32::MAX
            } else {
                0
            }
        } else {
            let i = p.idx as usize;
            let miss = m & !self.pw[i];
            if miss != 0 {
                return Err(Stop::uninit(b'P', p.idx, miss));
            }
            self.p[i]
        };
        Ok(if p.neg { !v } else { v })
    }

    /// Sets predicate `d` in lanes `m` from `bits`.
    #[inline(always)]
    pub fn write_pred(&mut self, d: PDst, m: u32, bits: u32) {
        match d {
            PDst::P(i) => {
                let i = i as usize;
                self.p[i] = (self.p[i] & !m) | (bits & m);
                self.pw[i] |= m;
            }
            PDst::U(i) => {
                if m != 0 {
                    self.up[i as usize] = bits >> m.trailing_zeros() & 1 != 0;
                    self.upw[i as usize] = true;
                }
            }
            PDst::None => {}
        }
    }

    /// Adds a ready group, merging with one at the same pc.
    pub fn add_group(&mut self, pc: u32, mask: u32) {
        if mask == 0 {
            return;
        }
        if let Some(g) = self.groups.iter_mut().find(|g| g.pc == pc) {
            g.mask |= mask;
        } else {
            self.groups.push(Group { pc, mask });
        }
    }

    /// Lanes blocked at a wait of kind `k`.
    pub fn waiting(&self, k: impl Fn(&WaitKind) -> bool) -> u32 {
        self.waits
            .iter()
            .filter(|w| k(&w.kind))
            .fold(0, |a, w| a | w.mask)
    }

    /// Releases the lanes `m` of waits matching `k` back to ready groups.
    pub fn release(&mut self, m: u32, k: impl Fn(&WaitKind) -> bool) {
        let mut rel = Vec::new();
        self.waits.retain_mut(|w| {
            if !k(&w.kind) || w.mask & m == 0 {
                return true;
            }
            rel.push((w.pc, w.mask & m));
            w.mask &= !m;
            w.mask != 0
        });
        for (pc, mask) in rel {
            self.add_group(pc, mask);
        }
    }

    /// Resolves convergence barrier `Bn` if it can, with the lanes
    /// `arriving` at a `BSYNC Bn` now (not yet in `waits`): when `Bn` has
    /// live members and every one of them waits at (or arrives at) a
    /// `BSYNC Bn`, the waiting members go on and leave `Bn`. Returns the
    /// members that resolved it (all live members, or 0); lanes outside
    /// `Bn` keep waiting (exec/control.rs, the rules and their sources).
    pub fn resolve_bsync(&mut self, b: u8, arriving: u32) -> u32 {
        let at = self.waiting(|k| *k == WaitKind::Bsync(b)) | arriving;
        let members = self.b[b as usize] & self.live;
        if members == 0 || members & !at != 0 {
            return 0;
        }
        self.release(members, |k| *k == WaitKind::Bsync(b));
        self.b[b as usize] &= !members;
        members
    }

    /// Re-checks the convergence waits after lanes exited, arrived or left
    /// a barrier (or a `BMOV Bn, R` set one): `BSYNC Bn` as
    /// `resolve_bsync`; a `WARPSYNC` wait when every live lane of its mask
    /// waits at some `WARPSYNC`.
    pub fn recheck(&mut self) {
        loop {
            let mut progress = false;
            for b in 0..16u8 {
                if self.resolve_bsync(b, 0) != 0 {
                    progress = true;
                }
            }
            let at = self.waiting(|k| matches!(k, WaitKind::Warpsync(_)));
            if at != 0 {
                let masks: Vec<u32> = self
                    .waits
                    .iter()
                    .filter_map(|w| match w.kind {
                        WaitKind::Warpsync(m) if m & self.live & !at == 0 => Some(w.mask | m),
                        _ => None,
                    })
                    .collect();
                for m in masks {
                    self.release(m, |k| matches!(k, WaitKind::Warpsync(_)));
                    progress = true;
                }
            }
            if !progress {
                return;
            }
        }
    }
}
