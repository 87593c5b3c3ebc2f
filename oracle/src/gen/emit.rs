//! The generator's state while it writes one module: registers and the
//! pool of defined values, scopes, labels, the dynamic-instruction
//! estimate, and the helpers every family builder shares (operands,
//! immediates, fresh registers, addresses of input elements).
//!
//! Definedness rules kept here (each program must be free of the
//! interpreter's UB):
//! - A register is read only after a write that dominates the read: a
//!   value enters the pool when it is written, and the values written in a
//!   region (branch arm, loop body) leave the pool when the region closes.
//!   A guarded write (`@p`) or a write inside a region only ever targets a
//!   register defined before, so it never makes a register "half defined".
//! - Loop counters, trip counts, addresses and the thread index are read
//!   but never overwritten by other statements (`mutable: false`), so
//!   every loop terminates and every index stays in bounds.

use super::config::GenConfig;
use super::features::{Family, FeatureSet, VType};
use super::source::Src;

/// Register classes, one `.reg` declaration each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RC {
    B16,
    B32,
    B64,
    F32,
    F64,
    Pred,
}

impl RC {
    const ALL: [RC; 6] = [RC::B16, RC::B32, RC::B64, RC::F32, RC::F64, RC::Pred];

    fn index(self) -> usize {
        self as usize
    }

    fn prefix(self) -> &'static str {
        ["%h", "%r", "%rd", "%f", "%fd", "%p"][self.index()]
    }

    fn decl(self) -> &'static str {
        [".b16", ".b32", ".b64", ".f32", ".f64", ".pred"][self.index()]
    }

    pub fn of(t: VType) -> RC {
        match t {
            VType::U32 | VType::S32 => RC::B32,
            VType::U64 | VType::S64 => RC::B64,
            VType::F16 => RC::B16,
            VType::F32 => RC::F32,
            VType::F64 => RC::F64,
        }
    }
}

/// A virtual PTX register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reg {
    pub rc: RC,
    pub n: u32,
}

impl std::fmt::Display for Reg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.rc.prefix(), self.n)
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct PoolVal {
    pub reg: Reg,
    pub mutable: bool,
}

/// One function body being written.
#[derive(Default)]
pub(crate) struct Body {
    pub lines: Vec<String>,
    counts: [u32; 6],
    pub pool: Vec<PoolVal>,
    marks: Vec<usize>,
}

impl Body {
    /// `.reg` declarations for the registers used.
    pub fn reg_decls(&self) -> Vec<String> {
        RC::ALL
            .iter()
            .filter(|rc| self.counts[rc.index()] > 0)
            .map(|rc| {
                format!(
                    "\t.reg {} \t{}<{}>;",
                    rc.decl(),
                    rc.prefix(),
                    self.counts[rc.index()]
                )
            })
            .collect()
    }
}

/// Things the module around the kernel must declare, and the launch spec
/// must provide, found while writing the body.
#[derive(Default, Clone, Debug)]
pub(crate) struct Needs {
    pub const_words: Vec<u32>,
    /// dims of the texture (1 or 2 dimensional), when used
    pub tex_dims: Option<Vec<u32>>,
    pub tex_border: bool,
}

/// Fixed registers of the kernel (prologue).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed {
    pub tid_lin: Reg,
    pub gtid: Reg,
    pub cta_lin: Reg,
    /// the scalar u32 parameter `n` (uniform)
    pub param_n: Reg,
    pub out: Reg,
    /// input buffer bases by type (u32, u64, f16, f32, f64)
    pub in_u32: Reg,
    pub in_u64: Reg,
    pub in_f16: Reg,
    pub in_f32: Reg,
    pub in_f64: Reg,
    pub acc: Reg,
    pub priv_slot: Reg,
    pub tex: Reg,
    pub local: Reg,
    pub shared: Reg,
    pub shared_own: Reg,
}

pub(crate) struct Gen<'s, 'a, 'b> {
    pub src: &'s mut Src<'a, 'b>,
    pub cfg: &'s GenConfig,
    pub fs: FeatureSet,
    pub body: Body,
    /// Depth of thread-dependent control flow around the current point
    /// (barriers and warp-synchronous operations need 0).
    pub diverged: u32,
    /// Nesting of branches and loops.
    pub depth: u32,
    /// Product of the trip-count bounds of the enclosing loops.
    pub mult: u64,
    /// Estimated instructions executed per thread so far.
    pub est: u64,
    labels: u32,
    pub fixed: Option<Fixed>,
    pub needs: Needs,
    /// Threads per block (whole warps when warp operations are on).
    pub block_threads: u32,
    /// Device functions written so far: (name, signature code, call.rs).
    pub funcs: Vec<(String, u32)>,
    /// Writing a device function: no kernel-only constructs.
    pub in_func: bool,
    /// Families that wrote at least one statement (kernel or function).
    pub used: Vec<Family>,
    /// The alias family's pointers (prologue, with `alias`).
    pub alias: Option<super::alias::AliasBases>,
    /// The thread's `priv64` double word (prologue, with `atomic`).
    pub priv64: Option<Reg>,
}

impl<'s, 'a, 'b> Gen<'s, 'a, 'b> {
    pub fn new(src: &'s mut Src<'a, 'b>, cfg: &'s GenConfig, fs: FeatureSet) -> Self {
        Gen {
            src,
            cfg,
            fs,
            body: Body::default(),
            diverged: 0,
            depth: 0,
            mult: 1,
            est: 0,
            labels: 0,
            fixed: None,
            needs: Needs::default(),
            block_threads: 32,
            funcs: Vec::new(),
            in_func: false,
            used: Vec::new(),
            alias: None,
            priv64: None,
        }
    }

    pub fn mark_used(&mut self, f: Family) {
        if !self.used.contains(&f) {
            self.used.push(f);
        }
    }

    pub fn fx(&self) -> Fixed {
        self.fixed.expect("kernel prologue written")
    }

    /// Emits one instruction line (counts toward the estimate).
    pub fn ins(&mut self, text: impl Into<String>) {
        self.est += self.mult;
        self.body.lines.push(format!("\t{};", text.into()));
    }

    pub fn label(&mut self, l: &str) {
        self.body.lines.push(format!("{l}:"));
    }

    pub fn new_label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("$L_{what}_{}", self.labels)
    }

    /// A fresh register (not in the pool).
    pub fn fresh(&mut self, rc: RC) -> Reg {
        let n = self.body.counts[rc.index()];
        self.body.counts[rc.index()] += 1;
        Reg { rc, n }
    }

    /// Makes a written register readable (mutable: later statements may
    /// overwrite it).
    pub fn define(&mut self, r: Reg) {
        self.body.pool.push(PoolVal {
            reg: r,
            mutable: true,
        });
    }

    /// Makes a written register readable but never overwritten.
    pub fn define_fixed(&mut self, r: Reg) {
        self.body.pool.push(PoolVal {
            reg: r,
            mutable: false,
        });
    }

    pub fn enter(&mut self) {
        self.body.marks.push(self.body.pool.len());
    }

    pub fn leave(&mut self) {
        let m = self.body.marks.pop().expect("balanced scopes");
        self.body.pool.truncate(m);
    }

    pub fn has_value(&self, rc: RC) -> bool {
        self.body.pool.iter().any(|v| v.reg.rc == rc)
    }

    /// A defined register of the class, if any.
    pub fn pick_reg(&mut self, rc: RC) -> Option<Reg> {
        let cands: Vec<Reg> = self
            .body
            .pool
            .iter()
            .filter(|v| v.reg.rc == rc)
            .map(|v| v.reg)
            .collect();
        if cands.is_empty() {
            None
        } else {
            // Recent values a little more often: deeper dependence chains.
            let n = cands.len() as u32;
            let i = if self.src.chance(0.5) {
                n - 1 - self.src.below(n.min(4))
            } else {
                self.src.below(n)
            };
            Some(cands[i as usize])
        }
    }

    /// A register of the class that statements may overwrite, if any.
    pub fn pick_mutable(&mut self, rc: RC) -> Option<Reg> {
        let cands: Vec<Reg> = self
            .body
            .pool
            .iter()
            .filter(|v| v.reg.rc == rc && v.mutable)
            .map(|v| v.reg)
            .collect();
        if cands.is_empty() {
            None
        } else {
            Some(cands[self.src.below(cands.len() as u32) as usize])
        }
    }

    /// The destination of a computation: a new register (defined after the
    /// instruction by `finish`), or with probability `update` an existing
    /// mutable one.
    pub fn dest(&mut self, rc: RC) -> (Reg, bool) {
        if self.src.chance(self.cfg.probabilities.update) {
            if let Some(r) = self.pick_mutable(rc) {
                return (r, false);
            }
        }
        (self.fresh(rc), true)
    }

    /// Emits the instruction that writes `d` (from [`Gen::dest`]) and
    /// defines it. When `d` overwrites an existing register and `pred` is
    /// on, the instruction is guarded with probability `guard` (`@p` or
    /// `@!p` on a pooled predicate): a guarded write only ever targets a
    /// register defined before, so both outcomes leave it defined.
    pub fn ins_def(&mut self, d: (Reg, bool), text: String) {
        let mut prefix = String::new();
        if !d.1 && self.fs.has(Family::Pred) && self.src.chance(self.cfg.probabilities.guard) {
            if let Some(p) = self.pick_reg(RC::Pred) {
                let neg = if self.src.chance(0.5) { "!" } else { "" };
                prefix = format!("@{neg}{p} ");
            }
        }
        self.ins(format!("{prefix}{text}"));
        self.finish(d);
    }

    pub fn finish(&mut self, (r, new): (Reg, bool)) {
        if new {
            self.define(r);
        }
    }

    /// A register operand of the class; materializes a constant when the
    /// pool has none.
    pub fn reg_of(&mut self, t: VType) -> Reg {
        let rc = RC::of(t);
        if let Some(r) = self.pick_reg(rc) {
            return r;
        }
        let r = self.fresh(rc);
        let imm = self.imm(t);
        let ty = match rc {
            RC::B16 => "b16",
            RC::B32 => "b32",
            RC::B64 => "b64",
            RC::F32 => "f32",
            RC::F64 => "f64",
            RC::Pred => unreachable!("no predicate constants"),
        };
        self.ins(format!("mov.{ty} {r}, {imm}"));
        self.define(r);
        r
    }

    /// A source operand: a register, or an immediate where the type allows.
    pub fn opnd(&mut self, t: VType) -> String {
        if t != VType::F16 && self.src.chance(self.cfg.probabilities.immediate) {
            return self.imm(t);
        }
        self.reg_of(t).to_string()
    }

    /// A non-negative index below `len` (a power of two) from any 32-bit
    /// value: `and.b32 t, v, len-1`. Returned register is fresh, not pooled.
    pub fn masked_index(&mut self, len: u32) -> Reg {
        debug_assert!(len.is_power_of_two());
        let v = self.reg_of(VType::U32);
        let t = self.fresh(RC::B32);
        self.ins(format!("and.b32 {t}, {v}, {}", len - 1));
        t
    }

    /// `base + 4*idx` style address: `mul.wide.u32` + `add.s64`.
    pub fn elem_addr(&mut self, base: Reg, idx: Reg, size: u32) -> Reg {
        let off = self.fresh(RC::B64);
        self.ins(format!("mul.wide.u32 {off}, {idx}, {size}"));
        let a = self.fresh(RC::B64);
        self.ins(format!("add.s64 {a}, {base}, {off}"));
        a
    }

    /// Whether the estimate leaves room for about `n` more instructions at
    /// the current loop nesting.
    pub fn room(&self, n: u64) -> bool {
        self.est + n * self.mult <= u64::from(self.cfg.sizes.dyn_insts)
    }

    /// 32-bit integer type to use (u32 or s32 as enabled; u32 otherwise).
    pub fn int32_type(&mut self) -> VType {
        let ts: Vec<VType> = [VType::U32, VType::S32]
            .into_iter()
            .filter(|&t| self.fs.has_type(t))
            .collect();
        if ts.is_empty() {
            VType::U32
        } else {
            self.src.pick(&ts)
        }
    }
}
