//! Register files and the dense numbering of registers.
//!
//! General registers: `Rn` is index n; virtual `%rN` follow the highest
//! physical register the function names (plus 3, room for a 128-bit quad),
//! numbered densely in increasing N at decode time. `RZ` is never stored
//! (reads give 0, writes vanish). Uniform registers: `UR0..UR62` are
//! 0..=62, virtual `%urN` follow. Predicates: index 0 is `PT` (all lanes,
//! never written), `P0..P6` are 1..=7, virtual `%pN` follow; uniform
//! predicates likewise with `UPT`, `UP0..UP6`, `%upN`.
//!
//! Register pairs: a 64-bit value lives in `Rn:Rn+1`, for virtual registers
//! too, so every virtual number used also reserves the next three numbers
//! (a 128-bit access names four); consecutive numbers get consecutive
//! indices.

use std::collections::BTreeSet;

use ptxc::ir::sass_text::{Pred, Reg};
use ptxc::ir::{Function, Op, Operand};

pub const P_PHYS: u32 = 8;

/// Dense indices of one function's registers.
#[derive(Clone, Debug, Default)]
pub struct RegMap {
    /// Physical general registers kept (`R0..R{r_phys-1}`).
    r_phys: u32,
    ur_phys: u32,
    v: Vec<u32>,
    uv: Vec<u32>,
    pv: Vec<u32>,
    upv: Vec<u32>,
}

fn dense(set: &[u32], n: u32, base: u32) -> u32 {
    base + set.binary_search(&n).expect("virtual register collected") as u32
}

impl RegMap {
    pub fn new(f: &Function) -> RegMap {
        let (mut v, mut uv, mut pv, mut upv) = (
            BTreeSet::new(),
            BTreeSet::new(),
            BTreeSet::new(),
            BTreeSet::new(),
        );
        let (mut r_phys, mut ur_phys) = (0u32, 0u32);
        let mut reg = |r: &Reg| match *r {
            Reg::V(n) => v.extend(n..n.saturating_add(4)),
            Reg::Uv(n) => uv.extend(n..n.saturating_add(4)),
            Reg::R(n) => r_phys = r_phys.max(u32::from(n) + 4),
            Reg::Ur(n) => ur_phys = ur_phys.max(u32::from(n) + 4),
            _ => {}
        };
        let pred = |p: &Pred, pv: &mut BTreeSet<u32>, upv: &mut BTreeSet<u32>| match *p {
            Pred::V(n) => {
                pv.insert(n);
            }
            Pred::Uv(n) => {
                upv.insert(n);
            }
            _ => {}
        };
        for i in f.insts() {
            if let Some(v) = i.encoding.filter(|_| i.op == Op::UNDECODED) {
                if let Ok(v) = super::undecoded::decode(v) {
                    v.regs().for_each(|n| reg(&Reg::R(n)));
                    v.uregs().for_each(|n| reg(&Reg::Ur(n)));
                }
            }
            if let Some(g) = &i.guard {
                pred(&g.pred, &mut pv, &mut upv);
            }
            for o in &i.operands {
                match o {
                    Operand::Reg(r) => reg(&r.reg),
                    Operand::Pred { pred: p, .. } => pred(p, &mut pv, &mut upv),
                    Operand::Const(c) => {
                        if let Some(r) = &c.reg {
                            reg(r)
                        }
                    }
                    Operand::Mem(m) => {
                        for r in [m.desc, m.base.map(|b| b.reg), m.index].iter().flatten() {
                            reg(r)
                        }
                    }
                    Operand::RegRel { reg: r, .. } => reg(r),
                    _ => {}
                }
            }
        }
        RegMap {
            r_phys,
            ur_phys,
            v: v.into_iter().collect(),
            uv: uv.into_iter().collect(),
            pv: pv.into_iter().collect(),
            upv: upv.into_iter().collect(),
        }
    }

    pub fn n_regs(&self) -> u32 {
        self.r_phys + self.v.len() as u32
    }
    pub fn n_uregs(&self) -> u32 {
        self.ur_phys + self.uv.len() as u32
    }
    pub fn n_preds(&self) -> u32 {
        P_PHYS + self.pv.len() as u32
    }
    pub fn n_upreds(&self) -> u32 {
        P_PHYS + self.upv.len() as u32
    }

    /// Index of a general register; `None` for `RZ`.
    pub fn r(&self, r: Reg) -> Option<u32> {
        match r {
            Reg::R(n) => Some(u32::from(n)),
            Reg::V(n) => Some(dense(&self.v, n, self.r_phys)),
            _ => None,
        }
    }

    /// Index of a uniform register; `None` for `URZ`.
    pub fn ur(&self, r: Reg) -> Option<u32> {
        match r {
            Reg::Ur(n) => Some(u32::from(n)),
            Reg::Uv(n) => Some(dense(&self.uv, n, self.ur_phys)),
            _ => None,
        }
    }

    /// Index of a predicate (0 = `PT`).
    pub fn p(&self, p: Pred) -> u32 {
        match p {
            Pred::P(n) => 1 + u32::from(n),
            Pred::V(n) => dense(&self.pv, n, P_PHYS),
            _ => 0,
        }
    }

    /// Index of a uniform predicate (0 = `UPT`).
    pub fn up(&self, p: Pred) -> u32 {
        match p {
            Pred::Up(n) => 1 + u32::from(n),
            Pred::Uv(n) => dense(&self.upv, n, P_PHYS),
            _ => 0,
        }
    }

    /// A register's name for messages.
    pub fn name(&self, idx: u32) -> String {
        if idx < self.r_phys {
            format!("R{idx}")
        } else {
            format!("%r{}", self.v[(idx - self.r_phys) as usize])
        }
    }

    pub fn uname(&self, idx: u32) -> String {
        if idx < self.ur_phys {
            format!("UR{idx}")
        } else {
            format!("%ur{}", self.uv[(idx - self.ur_phys) as usize])
        }
    }

    pub fn pname(&self, idx: u32, uniform: bool) -> String {
        let (pre, vpre, set) = if uniform {
            ("UP", "%up", &self.upv)
        } else {
            ("P", "%p", &self.pv)
        };
        match idx {
            0 => format!("{pre}T"),
            i if i < P_PHYS => format!("{pre}{}", i - 1),
            i => format!("{vpre}{}", set[(i - P_PHYS) as usize]),
        }
    }
}
