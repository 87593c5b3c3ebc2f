//! Allocation nodes: the groups of virtual register units that must get
//! consecutive physical registers.
//!
//! Every operand names a run of units: one for a 32-bit value or a
//! predicate, two for a 64-bit value, four for a 128-bit one, as
//! [`regs::operand_width`] says (the one table of operand widths). Runs
//! that overlap belong to one node (union of intervals); a node's size is
//! its span, its alignment the largest width of a run in it (2: an even
//! pair, 4: a quad at a multiple of 4; hardware register pairs and quads
//! are aligned, lower/mod.rs "Register conventions"). A run must sit at a
//! multiple of its width inside its node, which the lowering guarantees
//! (`Builder::valigned`); anything else is refused with an error.

use rustc_hash::FxHashSet as HashSet;

use super::AllocError;
use crate::ir::cfg::Cfg;
use crate::ir::inst::{Inst, Operand};
use crate::ir::regs;
use crate::ir::sass_text::{Pred, Reg};
use crate::ir::Function;

/// The register files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    Gpr,
    Pred,
    Ureg,
    Upred,
}

/// Where a rewritten register goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Virt(u32),
    Phys(u32),
}

/// One node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub class: Class,
    /// The first virtual number and the number of units.
    pub lo: u32,
    pub size: u32,
    /// 1, 2 or 4: the physical base must be a multiple.
    pub align: u32,
    /// A spill temporary (never spilled again).
    pub temp: bool,
    /// The one procedure ([`Cfg::procs`] index) whose code names it;
    /// `None` when several do (or none): such a node cannot be spilled.
    pub proc: Option<usize>,
    /// Instructions naming it.
    pub refs: u32,
    /// Position (layout order over all instructions) of the first
    /// definition; `usize::MAX` when never defined.
    pub first_def: usize,
}

/// The nodes of a function.
#[derive(Clone, Debug, Default)]
pub struct Nodes {
    pub nodes: Vec<Node>,
    /// Per file ([`Class`] as index), virtual number -> node + 1 (0: none).
    /// Dense: virtual numbers are small and every lookup of every round
    /// goes through here.
    of_unit: [Vec<u32>; 4],
}

impl Nodes {
    pub fn node_of(&self, c: Class, n: u32) -> Option<usize> {
        match self.of_unit[c as usize].get(n as usize) {
            Some(&k) if k > 0 => Some(k as usize - 1),
            _ => None,
        }
    }

    fn set_node(&mut self, c: Class, n: u32, k: usize) {
        let v = &mut self.of_unit[c as usize];
        if v.len() <= n as usize {
            v.resize(n as usize + 1, 0);
        }
        v[n as usize] = k as u32 + 1;
    }
}

/// The spill temporaries made so far, by (file, virtual number).
pub type TempSet = HashSet<(Class, u32)>;

fn class_of_reg(r: Reg) -> Option<(Class, u32)> {
    match r {
        Reg::V(n) => Some((Class::Gpr, n)),
        Reg::Uv(n) => Some((Class::Ureg, n)),
        _ => None,
    }
}

fn class_of_pred(p: Pred) -> Option<(Class, u32)> {
    match p {
        Pred::V(n) => Some((Class::Pred, n)),
        Pred::Uv(n) => Some((Class::Upred, n)),
        _ => None,
    }
}

/// Every virtual run an instruction names: (file, first number, width).
pub fn runs(inst: &Inst) -> Vec<(Class, u32, u32)> {
    let mut out = Vec::new();
    runs_into(inst, &mut out);
    out
}

/// [`runs`], appended to `out`.
pub fn runs_into(inst: &Inst, out: &mut Vec<(Class, u32, u32)>) {
    let mut push = |x: Option<(Class, u32)>, w: u8| {
        if let Some((c, n)) = x {
            out.push((c, n, u32::from(w.max(1))));
        }
    };
    if let Some(g) = inst.guard {
        push(class_of_pred(g.pred), 1);
    }
    for (i, o) in inst.operands.iter().enumerate() {
        let w = regs::operand_width(inst, i);
        match o {
            Operand::Reg(r) => push(class_of_reg(r.reg), w),
            Operand::Pred { pred, .. } => push(class_of_pred(*pred), 1),
            Operand::Mem(m) => {
                if let Some(d) = m.desc {
                    push(class_of_reg(d), 2);
                }
                if let Some(b) = m.base {
                    push(class_of_reg(b.reg), w);
                }
                if let Some(x) = m.index {
                    push(class_of_reg(x), w);
                }
            }
            Operand::Const(c) => {
                if let Some(r) = c.reg {
                    push(class_of_reg(r), 1);
                }
            }
            Operand::RegRel { reg, .. } => push(class_of_reg(*reg), w),
            _ => {}
        }
    }
}

/// The virtual runs an instruction defines (destination operands).
pub fn def_runs(inst: &Inst) -> Vec<(Class, u32, u32)> {
    let mut out = Vec::new();
    for i in 0..inst.ndst as usize {
        let w = u32::from(regs::operand_width(inst, i).max(1));
        match &inst.operands[i] {
            Operand::Reg(r) => {
                if let Some((c, n)) = class_of_reg(r.reg) {
                    out.push((c, n, w));
                }
            }
            Operand::Pred { pred, .. } => {
                if let Some((c, n)) = class_of_pred(*pred) {
                    out.push((c, n, 1));
                }
            }
            _ => {}
        }
    }
    out
}

/// Rewrites every virtual register and predicate of `inst` (guard
/// included) through `f`; `None` leaves it.
pub fn map_regs(inst: &mut Inst, f: &mut dyn FnMut(Class, u32) -> Option<Loc>) {
    let mut reg = |r: &mut Reg| {
        if let Some((c, n)) = class_of_reg(*r) {
            if let Some(l) = f(c, n) {
                *r = match (c, l) {
                    (Class::Gpr, Loc::Virt(v)) => Reg::V(v),
                    (Class::Gpr, Loc::Phys(p)) => Reg::R(p as u8),
                    (_, Loc::Virt(v)) => Reg::Uv(v),
                    (_, Loc::Phys(p)) => Reg::Ur(p as u8),
                };
            }
        }
    };
    for o in inst.operands.iter_mut() {
        match o {
            Operand::Reg(r) => reg(&mut r.reg),
            Operand::Mem(m) => {
                if let Some(d) = &mut m.desc {
                    reg(d);
                }
                if let Some(b) = &mut m.base {
                    reg(&mut b.reg);
                }
                if let Some(x) = &mut m.index {
                    reg(x);
                }
            }
            Operand::Const(c) => {
                if let Some(r) = &mut c.reg {
                    reg(r);
                }
            }
            Operand::RegRel { reg: r, .. } => reg(r),
            _ => {}
        }
    }
    let mut pred = |p: &mut Pred| {
        if let Some((c, n)) = class_of_pred(*p) {
            if let Some(l) = f(c, n) {
                *p = match (c, l) {
                    (Class::Pred, Loc::Virt(v)) => Pred::V(v),
                    (Class::Pred, Loc::Phys(x)) => Pred::P(x as u8),
                    (_, Loc::Virt(v)) => Pred::Uv(v),
                    (_, Loc::Phys(x)) => Pred::Up(x as u8),
                };
            }
        }
    };
    for o in inst.operands.iter_mut() {
        if let Operand::Pred { pred: p, .. } = o {
            pred(p);
        }
    }
    if let Some(g) = &mut inst.guard {
        pred(&mut g.pred);
    }
}

/// Builds the nodes of `f`.
pub fn build(f: &Function, temps: &TempSet) -> Result<Nodes, AllocError> {
    let cfg = Cfg::new(f);
    // Runs per file, with the blocks and positions that name them.
    let mut all: Vec<(Class, u32, u32)> = Vec::new();
    for i in f.insts() {
        runs_into(i, &mut all);
    }
    all.sort();
    all.dedup();
    // Merge overlapping intervals per file.
    let mut nodes: Vec<Node> = Vec::new();
    for &(c, lo, w) in &all {
        let hi = lo + w;
        let merge = nodes
            .last()
            .is_some_and(|n| n.class == c && lo < n.lo + n.size);
        if merge {
            let n = nodes.last_mut().expect("a node");
            n.size = n.size.max(hi - n.lo);
        } else {
            nodes.push(Node {
                class: c,
                lo,
                size: w,
                align: 1,
                temp: false,
                proc: None,
                refs: 0,
                first_def: usize::MAX,
            });
        }
    }
    let mut ns = Nodes {
        nodes: Vec::new(),
        of_unit: Default::default(),
    };
    for (k, n) in nodes.iter().enumerate() {
        for u in n.lo..n.lo + n.size {
            ns.set_node(n.class, u, k);
        }
    }
    let of_unit = |c, lo| ns.node_of(c, lo).expect("every run has a node");
    // Alignment: each run at a multiple of its width inside its node.
    for &(c, lo, w) in &all {
        let k = of_unit(c, lo);
        let n = &mut nodes[k];
        let a = regs::alignment(w as u8);
        if !(lo - n.lo).is_multiple_of(a) || (n.align > a && !n.align.is_multiple_of(a)) {
            return Err(AllocError(format!(
                "virtual run {}{lo}..+{w} is misaligned in its group starting at {}",
                prefix(c),
                n.lo
            )));
        }
        n.align = n.align.max(a);
    }
    for n in &mut nodes {
        if n.align > 1 && !n.size.is_multiple_of(n.align) {
            n.size = n.size.next_multiple_of(n.align);
        }
        n.temp = (n.lo..n.lo + n.size).any(|u| temps.contains(&(n.class, u)));
    }
    // References, procedures, first definitions.
    let mut procs: Vec<Procs> = vec![Procs::Nobody; nodes.len()];
    let mut pos = 0usize;
    let mut named: Vec<(Class, u32, u32)> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for (b, blk) in f.blocks.iter().enumerate() {
        let ps: Vec<usize> = cfg.procs_of(b).collect();
        for inst in &blk.insts {
            named.clear();
            runs_into(inst, &mut named);
            seen.clear();
            for &(c, lo, _) in &named {
                let k = of_unit(c, lo);
                if !seen.contains(&k) {
                    seen.push(k);
                }
            }
            for &k in &seen {
                nodes[k].refs += 1;
                procs[k] = if ps.len() == 1 {
                    procs[k].and(ps[0])
                } else {
                    // In no procedure or in several: not spillable.
                    Procs::Several
                };
            }
            for (c, lo, _) in def_runs(inst) {
                let k = of_unit(c, lo);
                nodes[k].first_def = nodes[k].first_def.min(pos);
            }
            pos += 1;
        }
    }
    for (n, ps) in nodes.iter_mut().zip(&procs) {
        n.proc = match *ps {
            Procs::One(p) => Some(p),
            _ => None,
        };
    }
    ns.nodes = nodes;
    Ok(ns)
}

/// The procedures whose code names a node, as far as [`Node::proc`]
/// needs them: none yet, exactly one, or several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Procs {
    Nobody,
    One(usize),
    Several,
}

impl Procs {
    /// With procedure `p` added.
    fn and(self, p: usize) -> Procs {
        match self {
            Procs::Nobody => Procs::One(p),
            Procs::One(q) if q == p => self,
            _ => Procs::Several,
        }
    }
}

pub fn prefix(c: Class) -> &'static str {
    match c {
        Class::Gpr => "%r",
        Class::Pred => "%p",
        Class::Ureg => "%ur",
        Class::Upred => "%up",
    }
}

#[cfg(test)]
mod unit_tests {
    use super::*;

    #[test]
    fn node_lookup_is_per_file_and_absent_past_the_end() {
        let mut ns = Nodes::default();
        ns.set_node(Class::Gpr, 7, 0);
        ns.set_node(Class::Pred, 7, 3);
        ns.set_node(Class::Gpr, 2, 5);
        assert_eq!(ns.node_of(Class::Gpr, 7), Some(0));
        assert_eq!(ns.node_of(Class::Pred, 7), Some(3));
        assert_eq!(ns.node_of(Class::Gpr, 2), Some(5));
        assert_eq!(ns.node_of(Class::Gpr, 3), None);
        assert_eq!(ns.node_of(Class::Ureg, 7), None);
        assert_eq!(ns.node_of(Class::Gpr, 1000), None);
    }

    #[test]
    fn one_procedure_or_none() {
        assert_eq!(Procs::Nobody.and(4), Procs::One(4));
        assert_eq!(Procs::One(4).and(4), Procs::One(4));
        assert_eq!(Procs::One(4).and(0), Procs::Several);
        assert_eq!(Procs::Several.and(4), Procs::Several);
    }
}
