//! Liveness: ptxas's `OriPerformLiveDead` (docs/MODEL.md, OriPerformLiveDead and OriCopyProp), the backward dataflow that
//! ptxas runs before each dead-code round:
//!
//! ```text
//! live_out[B] = ∪ live_in[S] over the successors S of B
//! live_in[B]  = (live_out[B] − def[B]) ∪ use[B]
//! ```
//!
//! iterated to a fixed point, on bitsets over a dense numbering of the
//! function's register units ([`UnitMap`]). ptxas walks the blocks in
//! reverse postorder; the fixed point does not depend on the order, and a
//! backward problem settles fastest in postorder, which is what we use.
//!
//! The transfer through a block is computed instruction by instruction
//! (backwards): `live = (live − kills(I)) ∪ uses(I)`, where a guarded
//! instruction kills nothing unconditionally ([`regs::kills`]: the old
//! value may survive) and an `@!PT` instruction does nothing.
//!
//! The walk is guard-aware, which ptxas's if-converted code needs (without
//! it most vendor kernels would show registers "read before written"):
//! a unit read only by instructions under guard `g` is needed only where
//! `g` holds, so a write under the same `g` (with `g`'s predicate not
//! rewritten in between) satisfies it; a write under `g` of a unit needed
//! everywhere leaves it needed under `!g`, so `@P0 MOV R12, ..` +
//! `@!P0 MOV R12, ..` together kill R12. The same holds across a block's
//! end: a block ending in `@g BRA L` needs `live_in[L]` under `g` and the
//! fallthrough block's live-in under `!g`. Everything is joined back into
//! one set at block boundaries, so this only sharpens the classic result
//! and stays sound. [`Liveness::block_use`] and
//! [`Liveness::block_def`] are ptxas's per-block `use`/`def` sets
//! (upward-exposed uses, and units killed in the block).
//!
//! Calls and returns (the function holds its callees' code, see
//! [`Cfg::procs`]): a `CALL L` to a block of the function makes live
//! before it exactly `live_in[L]` (plus, when the call is guarded, what is
//! live after it), and what is live after the call flows into the
//! `live_out` of every `RET` of the callee's procedure. Callees are thus
//! analysed context-insensitively: the union over all their call sites,
//! which is safe. A `CALL` through a register is a call to each of
//! [`Cfg::register_callees`] (live before it: the union of their
//! `live_in`; after it: into each one's returns). Where the code gives
//! no such knowledge — a `CALL` to an absolute target, a `RET` in no
//! called procedure, an
//! `UNDECODED` slot or an unmodelled opcode ([`regs::reads_all_registers`])
//! — every unit of the function is live.

// Fx: the unit index is hashed per mention, on every liveness query (SipHash
// showed up at several per cent of the differential engine's profile).
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

use super::cfg::Cfg;
use super::func::Function;
use super::inst::Inst;
use super::opcode::Op;
use super::regs::{self, RegUnit};

/// A fixed-size bitset.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    pub fn new(n: usize) -> BitSet {
        BitSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    pub fn full(n: usize) -> BitSet {
        let mut words = vec![u64::MAX; n.div_ceil(64)];
        if let Some(last) = words.last_mut() {
            if !n.is_multiple_of(64) {
                *last = (1u64 << (n % 64)) - 1;
            }
        }
        BitSet { words }
    }

    pub fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let was = self.words[w] & b != 0;
        self.words[w] |= b;
        !was
    }

    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1u64 << (i % 64));
    }

    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// `self |= o`; whether anything was added.
    pub fn union_with(&mut self, o: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }

    /// `self &= o`.
    pub fn intersect_with(&mut self, o: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= b;
        }
    }

    /// `self -= o`.
    pub fn subtract(&mut self, o: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= !b;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Empties the set, keeping its size.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// `self = o` (same size), reusing the allocation.
    pub fn copy_from(&mut self, o: &BitSet) {
        self.words.copy_from_slice(&o.words);
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members in ascending order (each word's set bits found by
    /// `trailing_zeros`, not by testing all 64).
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    wi * 64 + b
                })
            })
        })
    }
}

/// A dense numbering of the register units a function mentions, in first
/// mention order.
///
/// The lookup is the liveness computation's innermost operation (every
/// unit of every instruction, some thirty times per compile), so units are
/// found by array index per register class, not hashed: a unit's slot is
/// its register number within its class ([`slot`]). Numbers past
/// [`DENSE_LIMIT`] (only hand-written or fuzzed text has them) go to a map.
#[derive(Clone, Debug, Default)]
pub struct UnitMap {
    units: Vec<RegUnit>,
    /// Per register class, the index of unit number `n` plus one (0: none).
    dense: [Vec<u32>; 8],
    sparse: HashMap<RegUnit, usize>,
}

/// Two numberings are equal when they number the same units alike.
impl PartialEq for UnitMap {
    fn eq(&self, o: &UnitMap) -> bool {
        self.units == o.units
    }
}

impl Eq for UnitMap {}

/// Register numbers below this are looked up by array index.
const DENSE_LIMIT: u32 = 1 << 16;

/// The class and number of a unit.
fn slot(u: RegUnit) -> (usize, u32) {
    match u {
        RegUnit::R(n) => (0, u32::from(n)),
        RegUnit::VR(n) => (1, n),
        RegUnit::UR(n) => (2, u32::from(n)),
        RegUnit::VUR(n) => (3, n),
        RegUnit::P(n) => (4, u32::from(n)),
        RegUnit::VP(n) => (5, n),
        RegUnit::UP(n) => (6, u32::from(n)),
        RegUnit::VUP(n) => (7, n),
    }
}

impl UnitMap {
    pub fn new(f: &Function) -> UnitMap {
        let mut m = UnitMap::default();
        for i in f.insts() {
            for u in regs::mentioned(i) {
                m.add(u);
            }
        }
        m
    }

    fn add(&mut self, u: RegUnit) -> usize {
        if let Some(i) = self.index(u) {
            return i;
        }
        let i = self.units.len();
        self.units.push(u);
        let (c, n) = slot(u);
        if n < DENSE_LIMIT {
            let v = &mut self.dense[c];
            if v.len() <= n as usize {
                v.resize(n as usize + 1, 0);
            }
            v[n as usize] = i as u32 + 1;
        } else {
            self.sparse.insert(u, i);
        }
        i
    }

    pub fn len(&self) -> usize {
        self.units.len()
    }

    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    pub fn index(&self, u: RegUnit) -> Option<usize> {
        let (c, n) = slot(u);
        if n < DENSE_LIMIT {
            match self.dense[c].get(n as usize) {
                Some(&k) if k > 0 => Some(k as usize - 1),
                _ => None,
            }
        } else {
            self.sparse.get(&u).copied()
        }
    }

    pub fn unit(&self, i: usize) -> RegUnit {
        self.units[i]
    }

    /// The units of a bitset, in numbering order.
    pub fn units_of<'a>(&'a self, s: &'a BitSet) -> impl Iterator<Item = RegUnit> + 'a {
        s.iter().map(|i| self.units[i])
    }

    pub fn set_of(&self, units: impl IntoIterator<Item = RegUnit>) -> BitSet {
        let mut s = BitSet::new(self.len());
        for u in units {
            if let Some(i) = self.index(u) {
                s.insert(i);
            }
        }
        s
    }
}

/// A guard as a key: the predicate's unit index and the negation.
type GuardKey = (usize, bool);

/// What an instruction does to the live set, precomputed. The unit indices
/// it reads and writes live in the function's [`Steps::idx`] arena (one
/// allocation for all instructions, not two small vectors each: building
/// the steps was half of the liveness time).
#[derive(Clone, Copy, Debug)]
struct Step {
    /// Where the step's units start in the arena: `nuses` units read (the
    /// guard predicate excluded), then `ndefs` units written (guarded or
    /// not).
    at: u32,
    nuses: u32,
    ndefs: u32,
    /// The guard predicate's unit, read on every execution.
    guard_use: Option<usize>,
    /// The guard, when the instruction may not execute (`None` for none
    /// and for `@PT`).
    guard: Option<GuardKey>,
    kind: StepKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepKind {
    Plain,
    /// `@!PT`: no effect.
    Never,
    /// A call to the procedure rooted at this block.
    Call {
        callee: usize,
    },
    /// A call through a register: to any of [`Cfg::register_callees`].
    CallAny,
    /// Reads every unit.
    ReadsAll,
}

/// The steps of a function's instructions, block after block.
#[derive(Clone, Debug, Default)]
struct Steps {
    steps: Vec<Step>,
    /// Block `b`'s steps are `steps[start[b]..start[b + 1]]`.
    start: Vec<usize>,
    /// The unit indices of every step (see [`Step::at`]).
    idx: Vec<u32>,
}

impl Steps {
    fn block(&self, b: usize) -> &[Step] {
        &self.steps[self.start[b]..self.start[b + 1]]
    }

    fn uses(&self, s: &Step) -> &[u32] {
        &self.idx[s.at as usize..(s.at + s.nuses) as usize]
    }

    fn defs(&self, s: &Step) -> &[u32] {
        let d = (s.at + s.nuses) as usize;
        &self.idx[d..d + s.ndefs as usize]
    }

    fn blocks(&self) -> usize {
        self.start.len() - 1
    }
}

/// Pushes `k` onto the arena unless it is among the entries from `from` on.
fn push_new(idx: &mut Vec<u32>, from: usize, k: usize) {
    let k = k as u32;
    if !idx[from..].contains(&k) {
        idx.push(k);
    }
}

/// `step` of `inst`: its [`regs::uses`] and [`regs::defs`], numbered in
/// `units` and appended to the arena `idx`. The units are numbered in
/// first-mention order, as `UnitMap::new` numbers them (the guard, the
/// operands' uses in operand order, P2R's predicates, then the defs):
/// consumers iterate sets in unit order, so the numbering is part of the
/// output.
fn step(
    units: &mut UnitMap,
    idx: &mut Vec<u32>,
    inst: &Inst,
    callee: Option<usize>,
    any_callee: bool,
) -> Step {
    let guard_pred = inst.guard.and_then(|g| RegUnit::of_pred(g.pred));
    let kills = regs::kills(inst);
    let at = idx.len();
    let guard_unit = guard_pred.map(|u| units.add(u));
    // The guard is read on every execution (`guard_use`); it is among the
    // uses proper (read only when the guard holds) when an operand reads
    // it too, or when the instruction always executes.
    if let (Some(g), true) = (guard_unit, kills) {
        push_new(idx, at, g);
    }
    for i in 0..inst.operands.len() {
        regs::visit_operand_uses(inst, i, &mut |u| {
            let k = units.add(u);
            push_new(idx, at, k);
        });
    }
    if inst.op == Op::P2R {
        for n in 0..7 {
            let k = units.add(RegUnit::P(n));
            push_new(idx, at, k);
        }
    }
    let mut nuses = idx.len() - at;
    for i in 0..inst.ndst as usize {
        regs::visit_operand_defs(inst, i, &mut |u| {
            let k = units.add(u);
            push_new(idx, at + nuses, k);
        });
    }
    let ndefs = idx.len() - at - nuses;
    let mut s = Step {
        at: at as u32,
        nuses: 0,
        ndefs: ndefs as u32,
        guard_use: guard_unit,
        guard: None,
        kind: StepKind::Plain,
    };
    if regs::never_executes(inst) {
        idx.drain(at..at + nuses);
        nuses = 0;
        s.kind = StepKind::Never;
        s.guard_use = None;
    } else {
        if !kills {
            s.guard = guard_unit.map(|i| (i, inst.guard.is_some_and(|g| g.negated)));
        }
        if let Some(c) = callee {
            s.kind = StepKind::Call { callee: c };
        } else if any_callee && inst.op == Op::CALL && regs::calls_through_register(inst) {
            s.kind = StepKind::CallAny;
        } else if regs::reads_all_registers(inst) {
            s.kind = StepKind::ReadsAll;
        }
    }
    s.nuses = nuses as u32;
    s
}

/// The live set inside a block during the backward walk, guard-aware:
/// `always` holds the units needed on every path, `cond` the units needed
/// only where a guard holds (read by instructions under that guard). A
/// write under guard `g` satisfies the needs under `g`; a write under `g`
/// of a unit needed always leaves it needed under `!g`; writing a guard's
/// predicate turns the needs under it back into `always`; needs under both
/// `g` and `!g` are needs always. The live set proper is the union of all
/// of them.
///
/// One walk is reused for every block of a solve: dropped conditional
/// sets go to `spare` (cleared) and are taken back from there, so the
/// fixed point allocates no set per block or instruction.
#[derive(Clone, Debug)]
struct Walk {
    always: BitSet,
    cond: Vec<(GuardKey, BitSet)>,
    /// Empty sets of the right size, for `cond`.
    spare: Vec<BitSet>,
    /// The unit count (the size of every set).
    n: usize,
}

impl Walk {
    fn new(n: usize) -> Walk {
        Walk {
            always: BitSet::new(n),
            cond: Vec::new(),
            spare: Vec::new(),
            n,
        }
    }

    fn fresh(&mut self) -> BitSet {
        self.spare.pop().unwrap_or_else(|| BitSet::new(self.n))
    }

    fn recycle(&mut self, mut s: BitSet) {
        s.clear();
        self.spare.push(s);
    }

    fn clear_cond(&mut self) {
        while let Some((_, c)) = self.cond.pop() {
            self.recycle(c);
        }
    }

    /// Restarts the walk from the live set `out`.
    fn reset(&mut self, out: &BitSet) {
        self.clear_cond();
        self.always.copy_from(out);
    }

    /// Restarts the walk at the end of a block: from `out`, or, for a block
    /// that ends in a branch under guard `g` to `t` falling through to
    /// `ft`, from the needs of `t` under `g` and those of `ft` under `!g`.
    fn reset_at_end(
        &mut self,
        out: &BitSet,
        split: Option<(GuardKey, usize, usize)>,
        live_in: &[BitSet],
    ) {
        let Some((g, t, ft)) = split else {
            self.reset(out);
            return;
        };
        self.clear_cond();
        self.always.copy_from(&live_in[t]);
        self.always.intersect_with(&live_in[ft]);
        for (key, src) in [(g, t), ((g.0, !g.1), ft)] {
            let mut c = self.fresh();
            c.copy_from(&live_in[src]);
            c.subtract(&self.always);
            if c.is_empty() {
                self.recycle(c);
            } else {
                self.cond.push((key, c));
            }
        }
    }

    /// The live set proper, into `dst`.
    fn flat_into(&self, dst: &mut BitSet) {
        dst.copy_from(&self.always);
        for (_, c) in &self.cond {
            dst.union_with(c);
        }
    }

    fn flat(&self) -> BitSet {
        let mut s = BitSet::new(self.n);
        self.flat_into(&mut s);
        s
    }

    /// Whether `u` is in [`Walk::flat`], without building it.
    fn contains(&self, u: usize) -> bool {
        self.always.contains(u) || self.cond.iter().any(|(_, c)| c.contains(u))
    }

    fn demote_all(&mut self) {
        while let Some((_, c)) = self.cond.pop() {
            self.always.union_with(&c);
            self.recycle(c);
        }
    }

    fn cond_mut(&mut self, g: GuardKey) -> &mut BitSet {
        match self.cond.iter().position(|(k, _)| *k == g) {
            Some(i) => &mut self.cond[i].1,
            None => {
                let c = self.fresh();
                self.cond.push((g, c));
                &mut self.cond.last_mut().expect("pushed").1
            }
        }
    }

    /// Steps backwards over `s` (whose units `uses` and `defs` are). For a
    /// call, `on_call` receives the callee and the live set after the call.
    #[allow(clippy::too_many_arguments)]
    fn back(
        &mut self,
        s: &Step,
        uses: &[u32],
        defs: &[u32],
        live_in: &[BitSet],
        all: &BitSet,
        any: &[usize],
        on_call: &mut dyn FnMut(usize, &BitSet),
    ) {
        match s.kind {
            StepKind::Never => return,
            StepKind::Plain => {}
            StepKind::ReadsAll => {
                self.demote_all();
                self.always.union_with(all);
            }
            StepKind::CallAny if live_in.is_empty() => {}
            StepKind::CallAny => {
                // Every candidate may run: the union of their needs, and
                // what is live after flows into each one's returns.
                let after = self.flat();
                let mut need = BitSet::new(self.n);
                for &c in any {
                    on_call(c, &after);
                    need.union_with(&live_in[c]);
                }
                if s.guard.is_none() {
                    self.always = need;
                    self.clear_cond();
                } else {
                    self.demote_all();
                    self.always.union_with(&need);
                }
            }
            StepKind::Call { callee } => {
                on_call(callee, &self.flat());
                // The callee may write any predicate: no need stays
                // conditional across it.
                if s.guard.is_none() {
                    self.always.copy_from(&live_in[callee]);
                    self.clear_cond();
                } else {
                    self.demote_all();
                    self.always.union_with(&live_in[callee]);
                }
            }
        }
        // Needs under a guard whose predicate this instruction writes.
        let mut i = 0;
        while i < self.cond.len() {
            if defs.contains(&(self.cond[i].0 .0 as u32)) {
                let (_, c) = self.cond.remove(i);
                self.always.union_with(&c);
                self.recycle(c);
            } else {
                i += 1;
            }
        }
        match s.guard {
            None => {
                for &d in defs {
                    self.always.remove(d as usize);
                    for (_, c) in &mut self.cond {
                        c.remove(d as usize);
                    }
                }
                for &u in uses {
                    self.always.insert(u as usize);
                }
            }
            Some(g) => {
                if let Some(c) = self.cond.iter_mut().find(|(k, _)| *k == g) {
                    for &d in defs {
                        c.1.remove(d as usize);
                    }
                }
                let moved: SmallVec<[u32; 8]> = defs
                    .iter()
                    .copied()
                    .filter(|&d| self.always.contains(d as usize))
                    .collect();
                if !moved.is_empty() {
                    let other = self.cond_mut((g.0, !g.1));
                    for &d in &moved {
                        other.insert(d as usize);
                    }
                    for &d in &moved {
                        self.always.remove(d as usize);
                    }
                }
                let on_g = self.cond_mut(g);
                for &u in uses {
                    on_g.insert(u as usize);
                }
            }
        }
        if let Some(u) = s.guard_use {
            self.always.insert(u);
        }
        // Needed under `g` and under `!g` is needed always.
        if let Some(g) = s.guard {
            let pos = self.cond.iter().position(|(k, _)| *k == g);
            let neg = self.cond.iter().position(|(k, _)| *k == (g.0, !g.1));
            if let (Some(a), Some(b)) = (pos, neg) {
                let (lo, hi) = self.cond.split_at_mut(a.max(b));
                let (x, y) = (&mut lo[a.min(b)].1, &mut hi[0].1);
                for ((p, q), al) in x
                    .words
                    .iter_mut()
                    .zip(y.words.iter_mut())
                    .zip(self.always.words.iter_mut())
                {
                    let both = *p & *q;
                    *p &= !both;
                    *q &= !both;
                    *al |= both;
                }
            }
        }
        let mut i = 0;
        while i < self.cond.len() {
            if self.cond[i].1.is_empty() {
                let (_, c) = self.cond.remove(i);
                self.spare.push(c);
            } else {
                i += 1;
            }
        }
    }
}

/// Block-level liveness of a function.
#[derive(Clone, Debug)]
pub struct Liveness {
    pub units: UnitMap,
    live_in: Vec<BitSet>,
    live_out: Vec<BitSet>,
    block_use: Vec<BitSet>,
    block_def: Vec<BitSet>,
    steps: Steps,
    split: Vec<Option<(GuardKey, usize, usize)>>,
    /// Every unit (what a step that reads all registers reads).
    all: BitSet,
    /// [`Cfg::register_callees`]: what a call through a register may run.
    register_callees: Vec<usize>,
}

impl Liveness {
    pub fn new(f: &Function, cfg: &Cfg) -> Liveness {
        // Each instruction's uses and defs, once: they number the units (in
        // first-mention order, as `UnitMap::new`) and make the steps.
        let callee_of: HashMap<(usize, usize), usize> = cfg
            .calls
            .iter()
            .filter_map(|c| c.target.map(|t| ((c.block, c.inst), t)))
            .collect();
        let ninsts: usize = f.blocks.iter().map(|b| b.insts.len()).sum();
        let mut units = UnitMap::default();
        let mut steps = Steps {
            steps: Vec::with_capacity(ninsts),
            start: Vec::with_capacity(f.blocks.len() + 1),
            idx: Vec::with_capacity(4 * ninsts),
        };
        let any_callee = !cfg.register_callees.is_empty();
        steps.start.push(0);
        for (b, blk) in f.blocks.iter().enumerate() {
            for (i, inst) in blk.insts.iter().enumerate() {
                let callee = if callee_of.is_empty() {
                    None
                } else {
                    callee_of.get(&(b, i)).copied()
                };
                let s = step(&mut units, &mut steps.idx, inst, callee, any_callee);
                steps.steps.push(s);
            }
            steps.start.push(steps.steps.len());
        }
        Liveness::solve(f, cfg, units, steps)
    }

    /// The liveness of `f` after the instructions `removed` (block, index
    /// before removal; sorted) were taken out of the function this one was
    /// computed for, none of them a control-flow instruction: the dead-code
    /// rounds' update. The steps of the other instructions are kept, not
    /// recomputed; the numbering keeps units no instruction mentions any
    /// more, which no remaining instruction's liveness depends on (a unit's
    /// liveness depends only on the steps that name it, and on the steps
    /// that read every unit, whose set only grew by units nothing reads).
    pub fn after_removal(self, f: &Function, cfg: &Cfg, removed: &[(usize, usize)]) -> Liveness {
        let Liveness {
            units, mut steps, ..
        } = self;
        debug_assert!(removed.windows(2).all(|w| w[0] < w[1]));
        // Compact in place: the kept steps move down, the arena stays.
        let mut r = 0;
        let mut w = 0;
        for b in 0..steps.blocks() {
            let (lo, hi) = (steps.start[b], steps.start[b + 1]);
            steps.start[b] = w;
            for i in 0..hi - lo {
                if removed.get(r) == Some(&(b, i)) {
                    r += 1;
                    continue;
                }
                steps.steps[w] = steps.steps[lo + i];
                w += 1;
            }
        }
        let nb = steps.blocks();
        steps.start[nb] = w;
        steps.steps.truncate(w);
        debug_assert_eq!(r, removed.len());
        debug_assert!((0..nb).all(|b| steps.block(b).len() == f.blocks[b].insts.len()));
        Liveness::solve(f, cfg, units, steps)
    }

    /// The fixed point over the instructions' steps.
    fn solve(f: &Function, cfg: &Cfg, units: UnitMap, steps: Steps) -> Liveness {
        Liveness::solve_with(f, cfg, units, steps, true)
    }

    /// [`solve`](Self::solve); `skip_clean` false is the plain round-robin
    /// (every reachable block recomputed on every pass until a pass changes
    /// nothing), kept as the tests' reference. With `skip_clean`, a pass
    /// recomputes only the blocks some input of which changed since their
    /// last computation (a block's result is a function of the sets it
    /// reads, listed in `readers_in`/`readers_ret` below; recomputing one
    /// whose inputs are unchanged gives the sets it already merged and
    /// changes nothing), in the same order: every merge the round-robin
    /// makes is made, in the same order, so the sets are the same.
    fn solve_with(
        f: &Function,
        cfg: &Cfg,
        units: UnitMap,
        steps: Steps,
        skip_clean: bool,
    ) -> Liveness {
        let n = units.len();
        let nb = f.blocks.len();
        let all = BitSet::full(n);
        let mut w = Walk::new(n);
        let empty = BitSet::new(n);
        // Seed sets: upward-exposed uses and kills of each block.
        let mut block_use = vec![BitSet::new(n); nb];
        let mut block_def = vec![BitSet::new(n); nb];
        for b in 0..nb {
            w.reset(&empty);
            for s in steps.block(b).iter().rev() {
                let (uses, defs) = (steps.uses(s), steps.defs(s));
                if s.guard.is_none() && s.kind != StepKind::Never {
                    for &d in defs {
                        block_def[b].insert(d as usize);
                    }
                }
                // Calls and unknown reads are not part of the block's own
                // use set (module comment); their operands are.
                let plain = match s.kind {
                    StepKind::Plain | StepKind::Never => *s,
                    _ => Step {
                        kind: StepKind::Plain,
                        ..*s
                    },
                };
                w.back(&plain, uses, defs, &[], &all, &[], &mut |_, _| {});
            }
            w.flat_into(&mut block_use[b]);
        }
        // RET blocks: which callee entries' return sets feed them (a
        // register call's candidates included), or "unknown caller"
        // (every unit).
        let ret_sources: Vec<Option<Vec<usize>>> = (0..nb)
            .map(|b| {
                let ends_in_ret = f.blocks[b]
                    .insts
                    .last()
                    .is_some_and(|i| i.op == Op::RET && !regs::never_executes(i));
                if !ends_in_ret {
                    return Some(vec![]);
                }
                let callees: Vec<usize> = cfg
                    .procs_of(b)
                    .map(|p| cfg.procs[p].entry)
                    .filter(|&e| {
                        cfg.calls.iter().any(|c| c.target == Some(e))
                            || cfg.register_callees.contains(&e)
                    })
                    .collect();
                (!callees.is_empty()).then_some(callees)
            })
            .collect();
        // Blocks ending in `@g BRA L` that fall through otherwise: the
        // target's needs hold under `g`, the next block's under `!g`.
        let index = cfg.label_index();
        let split: Vec<Option<(GuardKey, usize, usize)>> = (0..nb)
            .map(|b| {
                let last = f.blocks[b].insts.last()?;
                let s = steps.block(b).last()?;
                let g = s.guard?;
                let plain = matches!(last.op, Op::BRA | Op::JMP)
                    && !last.has_mod("DIV")
                    && last
                        .srcs()
                        .iter()
                        .all(|o| matches!(o, super::inst::Operand::Label(_)));
                let t = last.targets().next().and_then(|l| index.get(l))?;
                (plain && cfg.succs[b].len() == 2 && t != b + 1 && cfg.succs[b].contains(&(b + 1)))
                    .then_some((g, t, b + 1))
            })
            .collect();
        // A block whose steps are all unguarded plain steps and that does
        // not end in a guarded branch has the classic transfer
        // `live_in = use ∪ (live_out − def)`: the walk computes exactly that
        // (it keeps no conditional needs), so the fixed point skips it.
        let simple: Vec<bool> = (0..nb)
            .map(|b| {
                split[b].is_none()
                    && steps.block(b).iter().all(|s| {
                        s.kind == StepKind::Never
                            || (s.kind == StepKind::Plain
                                && s.guard.is_none()
                                && s.guard_use.is_none())
                    })
            })
            .collect();
        let mut live_in = vec![BitSet::new(n); nb];
        let mut live_out = vec![BitSet::new(n); nb];
        // What is live after the calls of each callee entry.
        let mut ret_live = vec![BitSet::new(n); nb];
        let order: Vec<usize> = cfg.rpo.iter().rev().copied().collect();
        // Which blocks read each block's live-in set (its predecessors, a
        // split block's two successors, the blocks of the calls that may
        // run it) and each callee entry's `ret_live` (the RET blocks fed by
        // it): the blocks to recompute when that set grows.
        let mut readers_in: Vec<Vec<usize>> = vec![Vec::new(); nb];
        let mut readers_ret: Vec<Vec<usize>> = vec![Vec::new(); nb];
        for b in 0..nb {
            for &s in &cfg.succs[b] {
                readers_in[s].push(b);
            }
            if let Some((_, t, ft)) = split[b] {
                readers_in[t].push(b);
                readers_in[ft].push(b);
            }
            for s in steps.block(b) {
                match s.kind {
                    StepKind::Call { callee } => readers_in[callee].push(b),
                    StepKind::CallAny => {
                        for &c in &cfg.register_callees {
                            readers_in[c].push(b);
                        }
                    }
                    _ => {}
                }
            }
            if let Some(cs) = &ret_sources[b] {
                for &c in cs {
                    readers_ret[c].push(b);
                }
            }
        }
        // The blocks the passes visit, and which of them are due.
        let mut visited = vec![false; nb];
        for &b in &order {
            visited[b] = true;
        }
        let mut dirty = visited.clone();
        let mut pending = order.len();
        let mark = |dirty: &mut Vec<bool>, pending: &mut usize, rs: &[usize]| {
            for &r in rs {
                if visited[r] && !dirty[r] {
                    dirty[r] = true;
                    *pending += 1;
                }
            }
        };
        // Scratch sets, reused for every block of every pass.
        let mut out = BitSet::new(n);
        let mut inb = BitSet::new(n);
        let mut changed = true;
        while if skip_clean { pending > 0 } else { changed } {
            changed = false;
            for &b in &order {
                if dirty[b] {
                    dirty[b] = false;
                    pending -= 1;
                } else if skip_clean {
                    continue;
                }
                out.clear();
                for &s in &cfg.succs[b] {
                    out.union_with(&live_in[s]);
                }
                match &ret_sources[b] {
                    None => {
                        out.union_with(&all);
                    }
                    Some(cs) => {
                        for &c in cs {
                            out.union_with(&ret_live[c]);
                        }
                    }
                }
                if simple[b] {
                    inb.copy_from(&out);
                    inb.subtract(&block_def[b]);
                    inb.union_with(&block_use[b]);
                } else {
                    w.reset_at_end(&out, split[b], &live_in);
                    for s in steps.block(b).iter().rev() {
                        let (uses, defs) = (steps.uses(s), steps.defs(s));
                        w.back(
                            s,
                            uses,
                            defs,
                            &live_in,
                            &all,
                            &cfg.register_callees,
                            &mut |c, after| {
                                if ret_live[c].union_with(after) {
                                    changed = true;
                                    mark(&mut dirty, &mut pending, &readers_ret[c]);
                                }
                            },
                        );
                    }
                    w.flat_into(&mut inb);
                }
                // Nothing in the passes reads `live_out`.
                changed |= live_out[b].union_with(&out);
                if live_in[b].union_with(&inb) {
                    changed = true;
                    mark(&mut dirty, &mut pending, &readers_in[b]);
                }
            }
        }
        Liveness {
            units,
            live_in,
            live_out,
            block_use,
            block_def,
            steps,
            split,
            all,
            register_callees: cfg.register_callees.clone(),
        }
    }
    pub fn live_in(&self, b: usize) -> &BitSet {
        &self.live_in[b]
    }

    pub fn live_out(&self, b: usize) -> &BitSet {
        &self.live_out[b]
    }

    /// ptxas's `use[B]`: units read in `B` before any write in `B`.
    pub fn block_use(&self, b: usize) -> &BitSet {
        &self.block_use[b]
    }

    /// ptxas's `def[B]`: units overwritten in `B` (unguarded writes).
    pub fn block_def(&self, b: usize) -> &BitSet {
        &self.block_def[b]
    }

    /// Walks block `b` backwards from its end, calling `at` with each
    /// instruction's index, step and the live state right after it.
    fn walk_block(&self, b: usize, mut at: impl FnMut(usize, &[u32], &Walk)) {
        let mut w = Walk::new(self.units.len());
        w.reset_at_end(&self.live_out[b], self.split[b], &self.live_in);
        for (i, s) in self.steps.block(b).iter().enumerate().rev() {
            let (uses, defs) = (self.steps.uses(s), self.steps.defs(s));
            at(i, defs, &w);
            w.back(
                s,
                uses,
                defs,
                &self.live_in,
                &self.all,
                &self.register_callees,
                &mut |_, _| {},
            );
        }
    }

    /// The live set after each instruction of block `b` (index `i` is the
    /// set right after instruction `i`).
    pub fn live_after_each(&self, b: usize) -> Vec<BitSet> {
        let mut out = vec![BitSet::default(); self.steps.block(b).len()];
        self.walk_block(b, |i, _, w| out[i] = w.flat());
        out
    }

    /// For each instruction of block `b`, whether any unit it defines is
    /// live right after it ([`Liveness::live_after_each`] asked only that,
    /// without building a set per instruction: the dead-code scan's query).
    pub fn defs_live_after(&self, b: usize) -> Vec<bool> {
        let mut out = vec![false; self.steps.block(b).len()];
        self.walk_block(b, |i, defs, w| {
            out[i] = defs.iter().any(|&d| w.contains(d as usize))
        });
        out
    }

    /// The units live right after instruction `idx` of block `b`.
    pub fn live_after(&self, b: usize, idx: usize) -> BitSet {
        self.live_after_each(b).swap_remove(idx)
    }

    /// The units live right before instruction `idx` of block `b`.
    pub fn live_before(&self, b: usize, idx: usize) -> BitSet {
        if idx == 0 {
            self.live_in[b].clone()
        } else {
            self.live_after(b, idx - 1)
        }
    }

    /// Whether `u` is live at the start of block `b`.
    pub fn is_live_in(&self, b: usize, u: RegUnit) -> bool {
        self.units
            .index(u)
            .is_some_and(|i| self.live_in[b].contains(i))
    }

    /// Whether `u` is live at the end of block `b`.
    pub fn is_live_out(&self, b: usize, u: RegUnit) -> bool {
        self.units
            .index(u)
            .is_some_and(|i| self.live_out[b].contains(i))
    }

    /// The units of a set, sorted.
    pub fn units_sorted(&self, s: &BitSet) -> Vec<RegUnit> {
        let mut v: Vec<RegUnit> = self.units.units_of(s).collect();
        v.sort();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    fn names(l: &Liveness, s: &BitSet) -> Vec<String> {
        let mut v: Vec<String> = l.units_sorted(s).iter().map(|u| u.to_string()).collect();
        v.sort();
        v
    }

    fn live(text: &str) -> (Function, Liveness) {
        let f = func(text);
        let cfg = Cfg::new(&f);
        let l = Liveness::new(&f, &cfg);
        (f, l)
    }

    #[test]
    fn bitset_clear_and_copy_keep_the_size() {
        let mut a = BitSet::new(130);
        for i in [0, 63, 64, 129] {
            a.insert(i);
        }
        let mut b = BitSet::full(130);
        b.copy_from(&a);
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 63, 64, 129]);
        assert_eq!(b, a);
        b.clear();
        assert!(b.is_empty());
        assert_eq!(b, BitSet::new(130), "same size after clearing");
        assert_eq!(a.len(), 4, "the source is untouched");
    }

    /// `iter` yields exactly the members, ascending, on sets with members
    /// at word edges and on dense and sparse random sets.
    #[test]
    fn bitset_iter_lists_the_members_in_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in [1, 63, 64, 65, 128, 200] {
            for density in [1u64, 8, 32, 63] {
                let mut s = BitSet::new(n);
                for i in 0..n {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    if seed % 64 < density || i == 0 || i == n - 1 || i % 64 == 63 {
                        s.insert(i);
                    }
                }
                let want: Vec<usize> = (0..n).filter(|&i| s.contains(i)).collect();
                assert_eq!(
                    s.iter().collect::<Vec<_>>(),
                    want,
                    "n {n} density {density}"
                );
            }
        }
    }

    /// The steps number the units exactly as `UnitMap::new` does (first
    /// mention: guard, operand uses, P2R's predicates, defs), and each
    /// step's arena slices are the instruction's uses and defs.
    #[test]
    fn steps_number_units_in_first_mention_order() {
        let f = func(
            ".L_x_0:
             @P3 IADD3 R7, P1, R2, R2, R5 ;
             @!PT MOV R9, R8 ;
             P2R R10, RZ, 0x7f ;
             @!P3 LDG.E.64 R12, [R20.64+UR4] ;
             STG.E.64 [R20.64], R12 ;
             EXIT ;",
        );
        let l = Liveness::new(&f, &Cfg::new(&f));
        assert_eq!(l.units, UnitMap::new(&f));
        let name = |k: &u32| l.units.unit(*k as usize).to_string();
        let got: Vec<(Vec<String>, Vec<String>)> = l
            .steps
            .block(0)
            .iter()
            .map(|s| {
                let mut u: Vec<String> = l.steps.uses(s).iter().map(name).collect();
                let mut d: Vec<String> = l.steps.defs(s).iter().map(name).collect();
                u.sort();
                d.sort();
                (u, d)
            })
            .collect();
        let v = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        // The guard of `@P3` is read on every execution, not among the
        // uses proper; R2 once; `@!PT` reads nothing but still names R9.
        assert_eq!(got[0], (v(&["R2", "R5"]), v(&["P1", "R7"])));
        assert_eq!(got[1], (v(&[]), v(&["R9"])));
        assert_eq!(
            got[2].0,
            v(&["P0", "P1", "P2", "P3", "P4", "P5", "P6"]),
            "P2R reads the predicate file"
        );
        assert_eq!(
            got[3],
            (v(&["R20", "R21", "UR4", "UR5"]), v(&["R12", "R13"]))
        );
        let p3 = l.units.index(RegUnit::P(3)).unwrap();
        assert_eq!(l.steps.block(0)[0].guard_use, Some(p3));
        assert_eq!(l.steps.block(0)[0].guard, Some((p3, false)));
        assert_eq!(l.steps.block(0)[1].kind, StepKind::Never);
        assert_eq!(l.steps.block(0)[3].guard, Some((p3, true)));
    }

    /// Removing steps compacts the per-block ranges and keeps the others'
    /// arena slices.
    #[test]
    fn after_removal_keeps_the_other_steps() {
        let mut f = func(
            ".L_x_0:
             MOV R0, 0x1 ;
             MOV R1, 0x2 ;
             .L_x_1:
             MOV R2, 0x3 ;
             IADD3 R3, R0, R0, RZ ;
             STG.E [R4.64], R3 ;
             EXIT ;",
        );
        let l = Liveness::new(&f, &Cfg::new(&f));
        f.blocks[0].insts.remove(1);
        f.blocks[1].insts.remove(0);
        let l = l.after_removal(&f, &Cfg::new(&f), &[(0, 1), (1, 0)]);
        assert_eq!(l.steps.block(0).len(), 1);
        assert_eq!(l.steps.block(1).len(), 3);
        let fresh = Liveness::new(&f, &Cfg::new(&f));
        for b in 0..2 {
            for (s, t) in l.steps.block(b).iter().zip(fresh.steps.block(b)) {
                let n = |ls: &Liveness, ks: &[u32]| -> Vec<RegUnit> {
                    ks.iter().map(|&k| ls.units.unit(k as usize)).collect()
                };
                assert_eq!(n(&l, l.steps.uses(s)), n(&fresh, fresh.steps.uses(t)));
                assert_eq!(n(&l, l.steps.defs(s)), n(&fresh, fresh.steps.defs(t)));
            }
            assert_eq!(
                names(&l, l.live_in(b)),
                names(&fresh, fresh.live_in(b)),
                "block {b}"
            );
            assert_eq!(l.defs_live_after(b), fresh.defs_live_after(b));
        }
    }

    #[test]
    fn unit_numbering_by_class_and_past_the_dense_limit() {
        let mut m = UnitMap::default();
        let big = RegUnit::VR(DENSE_LIMIT + 7);
        let us = [
            RegUnit::VR(3),
            RegUnit::R(3),
            big,
            RegUnit::VP(3),
            RegUnit::VR(3),
            RegUnit::UP(0),
        ];
        let got: Vec<usize> = us.iter().map(|&u| m.add(u)).collect();
        assert_eq!(got, [0, 1, 2, 3, 0, 4]);
        assert_eq!(m.len(), 5);
        assert_eq!(m.index(big), Some(2));
        assert_eq!(m.index(RegUnit::VR(DENSE_LIMIT + 8)), None);
        assert_eq!(m.index(RegUnit::P(3)), None);
        assert_eq!(m.index(RegUnit::VR(4)), None);
        assert_eq!(m.unit(2), big);
    }

    #[test]
    fn loop_carried_value() {
        // %r0 is the running sum, %r1 the counter: both carried around the
        // loop, so both are live into the header and out of the latch.
        // %r2 is defined in the body and dead at its end; %r5 is the bound,
        // %r6:%r7 the store address.
        // Exit (block 2): live_in = {%r0, %r6, %r7}.
        // Loop (block 1): live_out = live_in(1) ∪ live_in(2); backwards:
        // BRA +%p0; ISETP -%p0 +%r1 +%r5; IADD3 -%r1 +%r1;
        // IADD3 -%r0 +%r0 +%r2; IMAD -%r2 +%r1
        // -> live_in(1) = {%r0, %r1, %r5, %r6, %r7} = live_out(1).
        // Entry: kills %r0, %r1 -> live_in(0) = {%r5, %r6, %r7}.
        let (_, l) = live(
            ".L_x_0:
             MOV %r0, RZ ;
             MOV %r1, RZ ;
             .L_x_1:
             IMAD %r2, %r1, %r1, RZ ;
             IADD3 %r0, %r0, %r2, RZ ;
             IADD3 %r1, %r1, 0x1, RZ ;
             ISETP.NE.AND %p0, PT, %r1, %r5, PT ;
             @%p0 BRA .L_x_1 ;
             .L_x_2:
             STG.E [%r6.64], %r0 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["%r5", "%r6", "%r7"]);
        assert_eq!(names(&l, l.live_in(1)), ["%r0", "%r1", "%r5", "%r6", "%r7"]);
        assert_eq!(
            names(&l, l.live_out(1)),
            ["%r0", "%r1", "%r5", "%r6", "%r7"]
        );
        assert_eq!(names(&l, l.live_in(2)), ["%r0", "%r6", "%r7"]);
        assert!(l.live_out(2).is_empty());
        // ptxas's sets for the loop block.
        assert_eq!(names(&l, l.block_use(1)), ["%r0", "%r1", "%r5"]);
        assert_eq!(names(&l, l.block_def(1)), ["%p0", "%r0", "%r1", "%r2"]);
        // After the IMAD, %r2 is live (read next); after the IADD3 that
        // reads it, not.
        assert!(l
            .live_after(1, 0)
            .contains(l.units.index(RegUnit::VR(2)).unwrap()));
        assert!(!l
            .live_after(1, 1)
            .contains(l.units.index(RegUnit::VR(2)).unwrap()));
        assert_eq!(names(&l, &l.live_before(1, 0)), names(&l, l.live_in(1)));
    }

    #[test]
    fn guarded_def_does_not_kill() {
        // R2 is written under @P0 only, so its old value (from before the
        // function) may reach the store: R2 is live in at entry. R3 is
        // written unconditionally: not live in.
        let (_, l) = live(
            ".L_x_0:
             @P0 MOV R2, 0x1 ;
             MOV R3, 0x2 ;
             STG.E [R4.64], R2 ;
             STG.E [R4.64], R3 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["P0", "R2", "R4", "R5"]);
        // def[B] holds only the units the block overwrites on every
        // execution: the guarded write of R2 is not one.
        assert_eq!(names(&l, l.block_def(0)), ["R3"]);
    }

    #[test]
    fn guards_cover_uses_under_the_same_guard() {
        // R12 is written under !P5 and read only under !P5, P5 unchanged
        // in between: never needed from outside.
        let (_, l) = live(
            ".L_x_0:
             @!P5 IMAD.SHL.U32 R12, R4, 0x4, RZ ;
             MOV R5, 0x1 ;
             @!P5 STS [R12], R5 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["P5", "R4"]);
        // Complementary guards together overwrite R12; the read under !P1
        // and the unguarded store are both covered.
        let (_, l) = live(
            ".L_x_0:
             @P0 MOV R12, RZ ;
             @!P0 MOV R12, -0x40 ;
             @!P1 IADD3 R12, R12, 0x40, RZ ;
             STG.E [R4.64], R12 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["P0", "P1", "R4", "R5"]);
        // Rewriting the guard predicate in between breaks the cover: the
        // write happened under the old P0, the read is under the new one.
        let (_, l) = live(
            ".L_x_0:
             @P0 MOV R2, 0x1 ;
             ISETP.NE.AND P0, PT, R3, RZ, PT ;
             @P0 STG.E [R4.64], R2 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["P0", "R2", "R3", "R4", "R5"]);
        // A guarded write of the guard's own predicate.
        let (_, l) = live(
            ".L_x_0:
             @P0 ISETP.NE.AND P0, PT, R3, RZ, PT ;
             @P0 STG.E [R4.64], R3 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["P0", "R3", "R4", "R5"]);
    }

    #[test]
    fn pairs_kill_and_use_both_halves() {
        // The 64-bit load overwrites R2 and R3; the store reads R6:R7.
        let (_, l) = live(
            ".L_x_0:
             LDG.E.64 R2, [R6.64] ;
             STG.E.64 [R6.64], R2 ;
             EXIT ;",
        );
        assert_eq!(names(&l, l.live_in(0)), ["R6", "R7"]);
    }

    #[test]
    fn calls_flow_through_the_callee() {
        // The callee reads R2 (an argument) and R4:R5 (the return address,
        // whose high half it zeroes first, as ptxas does) and writes R6
        // (the result), leaving R8 alone. After the call:
        // {R6, R8, R10, R11} -> the RET block's live_out. Through the
        // callee: live_in(1) = {R2, R4, R8, R10, R11} (R8, R10, R11 pass
        // through). Before the call that is what is live; the three MOVs
        // kill R2, R8, R4 -> live_in(0) = {R10, R11}.
        let (_, l) = live(
            ".L_x_0:
             MOV R2, 0x1 ;
             MOV R8, 0x2 ;
             MOV R4, 0x50 ;
             CALL.REL.NOINC .L_x_1 ;
             IADD3 R9, R6, R8, RZ ;
             STG.E [R10.64], R9 ;
             EXIT ;
             .L_x_1:
             IADD3 R6, R2, 0x1, RZ ;
             MOV R5, 0x0 ;
             RET.REL.NODEC R4 0x0 ;",
        );
        assert_eq!(names(&l, l.live_in(1)), ["R10", "R11", "R2", "R4", "R8"]);
        assert_eq!(names(&l, l.live_out(1)), ["R10", "R11", "R6", "R8"]);
        assert_eq!(names(&l, l.live_in(0)), ["R10", "R11"]);
        // Right before the call, exactly the callee's live-in.
        assert_eq!(names(&l, &l.live_after(0, 2)), names(&l, l.live_in(1)));
    }

    #[test]
    fn unknown_call_reads_everything() {
        let (_, l) = live(
            ".L_x_0:
             MOV R2, 0x1 ;
             CALL.ABS.NOINC c[0x4][0x10] ;
             STG.E [R10.64], R7 ;
             EXIT ;",
        );
        // Everything but R2 (written before the call) is live at entry.
        assert_eq!(names(&l, l.live_in(0)), ["R10", "R11", "R7"]);
    }

    /// The skipping solver against the round-robin reference: the same
    /// live-in and live-out sets for every block.
    fn same_as_round_robin(f: &Function, what: &str) {
        let cfg = Cfg::new(f);
        let l = Liveness::new(f, &cfg);
        let r = Liveness::solve_with(f, &cfg, l.units.clone(), l.steps.clone(), false);
        assert_eq!(l.live_in, r.live_in, "{what}");
        assert_eq!(l.live_out, r.live_out, "{what}");
    }

    /// On random functions: blocks of guarded and unguarded definitions
    /// and uses (pairs and predicates included) ending in guarded or plain
    /// branches forwards and backwards (loops, split blocks), calls to a
    /// callee with a branch of its own, and unreachable blocks.
    #[test]
    fn skipping_unchanged_blocks_matches_the_round_robin_on_random_functions() {
        let pool = [
            "IADD3 %r1, %r2, 0x1, RZ ;",
            "IADD3 %r2, %r1, %r3, RZ ;",
            "MOV %r3, 0x5 ;",
            "@%p0 IADD3 %r2, %r3, 0x1, RZ ;",
            "@!%p0 MOV %r1, %r4 ;",
            "@%p1 MOV %r4, %r5 ;",
            "ISETP.GE.AND %p0, PT, %r1, 0x4, PT ;",
            "ISETP.NE.AND %p1, PT, %r4, %r2, PT ;",
            "IMAD.WIDE %r6, %r1, 0x4, %r8 ;",
            "STG.E [%r6.64], %r3 ;",
            "LDG.E %r5, [%r8.64] ;",
            "@%p1 STG.E [%r8.64], %r5 ;",
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for round in 0..300 {
            let nb = 1 + round % 9;
            let callee = rnd(3) == 0;
            let mut body = String::new();
            for b in 0..nb {
                body.push_str(&format!(".L_x_{b}:\n"));
                for _ in 0..1 + rnd(4) {
                    body.push_str(pool[rnd(pool.len())]);
                    body.push('\n');
                }
                if callee && rnd(3) == 0 {
                    body.push_str(&format!("CALL.REL.NOINC .L_x_{nb} ;\n"));
                    body.push_str(pool[rnd(pool.len())]);
                    body.push('\n');
                }
                if b + 1 == nb {
                    body.push_str("EXIT ;\n");
                    continue;
                }
                let t = rnd(nb);
                match rnd(5) {
                    0 => body.push_str(&format!("@%p0 BRA .L_x_{t} ;\n")),
                    1 => body.push_str(&format!("@!%p1 BRA .L_x_{t} ;\n")),
                    2 => body.push_str(&format!("BRA .L_x_{t} ;\n")),
                    _ => {}
                }
            }
            if callee {
                let (e, r) = (nb, nb + 2);
                body.push_str(&format!(
                    ".L_x_{e}:\nIADD3 %r3, %r2, 0x1, RZ ;\n@%p1 BRA .L_x_{r} ;\n\
                     .L_x_{}:\nMOV %r1, 0x2 ;\n.L_x_{r}:\nRET.REL.NODEC %r20 0x0 ;\n",
                    e + 1
                ));
            }
            let f = func(&body);
            same_as_round_robin(&f, &body);
        }
    }

    /// On every corpus kernel as lowered (loops, calls, guarded code).
    #[test]
    fn skipping_unchanged_blocks_matches_the_round_robin_on_the_corpus() {
        let kernels = crate::lower::tests::lowered_corpus("sm_80");
        for (name, f) in &kernels {
            same_as_round_robin(f, name);
        }
        let kernels = kernels.len();
        assert!(kernels >= 10, "{kernels} kernels");
    }
}
