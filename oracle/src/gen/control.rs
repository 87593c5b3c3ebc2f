//! Predication and control flow: predicate logic, `selp`, guarded
//! instructions (`pred`), divergent and uniform if/else regions
//! (`branch`), counted loops (`loop`; the induction-variable loops are in
//! ivloop.rs) and GEMM-like fma loops (`gemm`).
//!
//! Branches: `@p bra` and `@!p bra` on a fresh comparison or on a pooled
//! predicate (predicates as values feeding control); `@p bra.uni` only on
//! a condition uniform across the CTA (the block index or the scalar
//! parameter: PTX ISA, bra: `.uni` asserts that every active thread of
//! the warp takes the same branch), as nvcc writes it; the unconditional
//! jump over an else arm is `bra.uni` half of the time (every active
//! thread takes an unguarded branch, so `.uni` always holds there).
//!
//! Termination by construction: every loop counts a register the body
//! never writes from 0 up to a trip count the body never writes either, a
//! constant or `rem.u32 v, max` + 1, so at most `loop_trip` iterations
//! (`sizes.loop_trip`). Values written in a region leave the pool when it
//! closes (emit.rs), so nothing after a branch reads a register only one
//! arm wrote.

use super::emit::{Gen, Reg, RC};
use super::features::{Family, VType};

impl Gen<'_, '_, '_> {
    /// `selp`, predicate logic or a guarded instruction.
    pub fn pred_stmt(&mut self) {
        if !self.has_value(RC::Pred) || self.src.chance(0.3) {
            self.setp_stmt();
            return;
        }
        match self.src.below(3) {
            0 => {
                let p = self.pick_reg(RC::Pred).expect("has a predicate");
                let mut ts = self.fs.types().to_vec();
                ts.push(VType::U32);
                let t = self.src.pick(&ts);
                let a = self.reg_of(t);
                let b = self.second_reg(t, a);
                let d = self.dest(RC::of(t));
                let ty = if t == VType::F16 {
                    "b16".to_string()
                } else {
                    t.name().to_string()
                };
                self.ins_def(d, format!("selp.{ty} {}, {a}, {b}, {p}", d.0));
            }
            1 => {
                let p = self.pick_reg(RC::Pred).expect("has a predicate");
                let q = self.pick_reg(RC::Pred).expect("has a predicate");
                let d = self.dest(RC::Pred);
                let text = match self.src.below(4) {
                    0 => format!("and.pred {}, {p}, {q}", d.0),
                    1 => format!("or.pred {}, {p}, !{q}", d.0),
                    2 => format!("xor.pred {}, {p}, {q}", d.0),
                    _ => format!("not.pred {}, {p}", d.0),
                };
                self.ins_def(d, text);
            }
            _ => self.guarded_stmt(),
        }
    }

    /// `@p` / `@!p` on an instruction that overwrites a defined register.
    fn guarded_stmt(&mut self) {
        let p = self.pick_reg(RC::Pred).expect("has a predicate");
        let neg = if self.src.chance(0.5) { "!" } else { "" };
        let floats = self.fs.float_types();
        if !floats.is_empty() && self.src.chance(0.4) {
            let t = self.src.pick(&floats);
            let Some(d) = self.pick_mutable(RC::of(t)) else {
                return;
            };
            let a = self.reg_of(t);
            let b = self.reg_of(t);
            let op = self.src.pick(&["add.rn", "mul.rn", "sub.rn"]);
            self.ins(format!("@{neg}{p} {op}.{} {d}, {a}, {b}", t.name()));
        } else {
            let Some(d) = self.pick_mutable(RC::B32) else {
                return;
            };
            let a = self.reg_of(VType::U32);
            let b = self.opnd(VType::U32);
            let op = self
                .src
                .pick(&["add.u32", "xor.b32", "mul.lo.u32", "shl.b32", "max.s32"]);
            self.ins(format!("@{neg}{p} {op} {d}, {a}, {b}"));
        }
    }

    /// A predicate for a branch: uniform across the CTA (from the block
    /// index or the scalar parameter) or thread-dependent (a fresh
    /// comparison or a pooled predicate). Returns it and whether it
    /// diverges.
    fn branch_cond(&mut self) -> (Reg, bool) {
        let divergent = self.in_func || self.src.chance(self.cfg.probabilities.divergent);
        if divergent && self.src.chance(0.3) {
            if let Some(q) = self.pick_reg(RC::Pred) {
                return (q, true);
            }
        }
        let p = self.fresh(RC::Pred);
        if divergent {
            let t = self.int32_type();
            let a = self.reg_of(t);
            let b = self.second_opnd(t, a);
            let c = self.src.pick(&["eq", "ne", "lt", "le", "gt", "ge"]);
            self.ins(format!("setp.{c}.{} {p}, {a}, {b}", t.name()));
        } else {
            let fx = self.fx();
            let (src, what) = if self.src.chance(0.5) {
                (fx.cta_lin, 4)
            } else {
                (fx.param_n, 64)
            };
            let c = self.src.below(what);
            let cmp = self.src.pick(&["lt", "ge", "eq", "ne"]);
            self.ins(format!("setp.{cmp}.u32 {p}, {src}, {c}"));
        }
        (p, divergent)
    }

    /// Statements of a nested region (at least one).
    pub fn region(&mut self, max: u32) {
        let n = self.src.range(1, max);
        self.enter();
        for _ in 0..n {
            if !self.room(4) {
                break;
            }
            self.stmt();
        }
        self.leave();
    }

    /// `if (p) { ... } else { ... }`.
    pub fn branch_stmt(&mut self) {
        let (p, divergent) = self.branch_cond();
        let els = self.new_label("else");
        let end = self.new_label("endif");
        let with_else = self.src.chance(0.5);
        let neg = if self.src.chance(0.3) { "!" } else { "" };
        let uni = if divergent { "" } else { ".uni" };
        self.ins(format!("@{neg}{p} bra{uni} {els}"));
        self.depth += 1;
        self.diverged += u32::from(divergent);
        self.region(4);
        if with_else {
            let uni = if self.src.chance(0.5) { ".uni" } else { "" };
            self.ins(format!("bra{uni} {end}"));
        }
        self.label(&els);
        if with_else {
            self.region(3);
            self.label(&end);
        }
        self.depth -= 1;
        self.diverged -= u32::from(divergent);
    }

    /// The trip count of a new loop: an immediate (uniform) or a register
    /// `rem(v, max) + 1` (thread-dependent). Returns (operand, max, divergent).
    fn trip_count(&mut self) -> (String, u32, bool) {
        let max = self.cfg.sizes.loop_trip.max(1);
        let divergent = self.in_func || self.src.chance(self.cfg.probabilities.divergent * 0.5);
        if divergent && max > 1 {
            let v = self.reg_of(VType::U32);
            let t = self.fresh(RC::B32);
            self.ins(format!("rem.u32 {t}, {v}, {max}"));
            self.ins(format!("add.u32 {t}, {t}, 1"));
            (t.to_string(), max, true)
        } else {
            let n = self.src.range(1, max);
            (n.to_string(), n, false)
        }
    }

    /// Runs `body` in a counted loop; the counter is readable inside.
    pub fn counted_loop(&mut self, body: &mut dyn FnMut(&mut Self, Reg)) {
        let trip = self.trip_count();
        self.counted_loop_trip(trip, body);
    }

    /// [`Self::counted_loop`] with the trip count given: (the count as an
    /// operand, its largest value, whether it differs between threads).
    pub fn counted_loop_trip(
        &mut self,
        (trip, max, divergent): (String, u32, bool),
        body: &mut dyn FnMut(&mut Self, Reg),
    ) {
        let ctr = self.fresh(RC::B32);
        self.ins(format!("mov.u32 {ctr}, 0"));
        let top = self.new_label("loop");
        self.label(&top);
        let saved = self.mult;
        self.mult = self.mult.saturating_mul(u64::from(max));
        self.depth += 1;
        self.diverged += u32::from(divergent);
        self.enter();
        self.define_fixed(ctr);
        body(self, ctr);
        self.leave();
        let p = self.fresh(RC::Pred);
        self.ins(format!("add.u32 {ctr}, {ctr}, 1"));
        self.ins(format!("setp.lt.u32 {p}, {ctr}, {trip}"));
        self.ins(format!("@{p} bra {top}"));
        self.mult = saved;
        self.depth -= 1;
        self.diverged -= u32::from(divergent);
    }

    /// A loop of random statements, or (half of the time) an
    /// induction-variable loop (ivloop.rs).
    pub fn loop_stmt(&mut self) {
        if self.src.chance(0.5) {
            self.iv_loop_stmt();
        } else {
            self.counted_loop(&mut |g, _| g.region(4));
        }
    }

    /// A GEMM-like inner loop: `acc = fma(a[i], b[j], acc)` over input
    /// rows, with `acc` starting at zero or at an existing value.
    pub fn gemm_stmt(&mut self) {
        let ts = self.fs.float_types();
        if ts.is_empty() {
            return;
        }
        let t = self.src.pick(&ts);
        let rc = RC::of(t);
        let acc = match self.pick_mutable(rc) {
            Some(r) if self.src.chance(0.4) => r,
            _ => {
                let r = self.fresh(rc);
                let zero = match t {
                    VType::F16 => "mov.b16 {r}, 0x0000",
                    VType::F32 => "mov.f32 {r}, 0f00000000",
                    _ => "mov.f64 {r}, 0d0000000000000000",
                };
                self.ins(zero.replace("{r}", &r.to_string()));
                self.define(r);
                r
            }
        };
        let len = self.cfg.sizes.input_len;
        let row = self.masked_index(len);
        let stride = self.src.pick(&[1u32, 2, 4, 8]);
        self.counted_loop(&mut |g, k| {
            let (base, size) = g.input_base(t);
            let ia = g.fresh(RC::B32);
            g.ins(format!("add.u32 {ia}, {row}, {k}"));
            g.ins(format!("and.b32 {ia}, {ia}, {}", len - 1));
            let ib = g.fresh(RC::B32);
            g.ins(format!("mad.lo.u32 {ib}, {k}, {stride}, {row}"));
            g.ins(format!("and.b32 {ib}, {ib}, {}", len - 1));
            let aa = g.elem_addr(base, ia, size);
            let ab = g.elem_addr(base, ib, size);
            let x = g.fresh(rc);
            let y = g.fresh(rc);
            let ld = if t == VType::F16 {
                "b16".to_string()
            } else {
                t.name().to_string()
            };
            g.ins(format!("ld.global.{ld} {x}, [{aa}]"));
            g.ins(format!("ld.global.{ld} {y}, [{ab}]"));
            g.ins(format!("fma.rn.{} {acc}, {x}, {y}, {acc}", t.name()));
            if g.fs.has(Family::Loop) && g.src.chance(0.3) && g.room(8) {
                g.region(2);
            }
        });
    }
}
