//! Program assembly: the statement dispatcher (which family writes the
//! next statement), the kernel prologue (thread indices, buffer bases,
//! first values) and epilogue (checksums and values into the thread's own
//! output slots), and the module text around them.
//!
//! Every value the body computes is observable: the epilogue folds every
//! pooled value into two checksums (32-bit and 64-bit xor) and stores the
//! most recent values directly, so a miscompiled instruction changes the
//! output unless its value is truly dead.

use super::emit::{Fixed, Gen, Reg, RC};
use super::features::{Family, VType};
use super::memory::{CONST_WORDS, LOCAL_WORDS};

/// The kernel's name in every generated module.
pub const KERNEL: &str = "gen_kernel";

impl Gen<'_, '_, '_> {
    /// One statement of a family chosen by weight among those enabled and
    /// allowed at this point.
    pub fn stmt(&mut self) {
        let fs = &self.fs;
        let kernel = !self.in_func;
        let converged = self.diverged == 0 && kernel;
        let nest = self.depth < self.cfg.sizes.depth;
        let on = |f: Family, w: u32| if fs.has(f) { w } else { 0 };
        let weights = [
            if kernel { 3 } else { 0 }, // 0 load
            on(Family::Int, 6),         // 1
            if fs.has(Family::Int64) && (fs.has_type(VType::U64) || fs.has_type(VType::S64)) {
                3
            } else {
                0
            },
            if fs.float_types().is_empty() {
                0
            } else {
                on(Family::Float, 6)
            },
            on(Family::Sfu, 2),                           // 4
            on(Family::Cvt, 3),                           // 5
            on(Family::Pred, 5),                          // 6
            if nest { on(Family::Branch, 2) } else { 0 }, // 7
            if nest { on(Family::Loop, 2) } else { 0 },   // 8
            if nest && kernel {
                on(Family::Gemm, 1)
            } else {
                0
            }, // 9
            if kernel { on(Family::Local, 2) } else { 0 }, // 10
            if kernel { on(Family::Const, 2) } else { 0 }, // 11
            if converged { on(Family::Shared, 2) } else { 0 }, // 12
            if kernel { on(Family::Atomic, 2) } else { 0 }, // 13
            if converged { on(Family::Warp, 3) } else { 0 }, // 14
            if kernel { on(Family::Tex, 2) } else { 0 },  // 15
            if kernel && !self.funcs.is_empty() {
                on(Family::Call, 2)
            } else {
                0
            }, // 16
            // a biased mode's share of the statements (about a fifth, with
            // the menu and alias families in the mix)
            if self.bias_active() && (nest || self.cfg.mode != super::config::Bias::HoistInvariants)
            {
                12
            } else {
                0
            }, // 17
            // always possible: keeps an all-denied swarm draw producing code
            1,                                             // 18 setp
            on(Family::Menu, 9),                           // 19
            if kernel { on(Family::Alias, 2) } else { 0 }, // 20
        ];
        let choice = self.src.weighted(&weights);
        let before = self.body.lines.len();
        let family = match choice {
            Some(0) => {
                self.load_stmt();
                None
            }
            Some(1) => {
                self.int32_stmt();
                Some(Family::Int)
            }
            Some(2) => {
                self.int64_stmt();
                Some(Family::Int64)
            }
            Some(3) => {
                self.float_stmt();
                Some(Family::Float)
            }
            Some(4) => {
                self.sfu_stmt();
                Some(Family::Sfu)
            }
            Some(5) => {
                self.cvt_stmt();
                Some(Family::Cvt)
            }
            Some(6) => {
                self.pred_stmt();
                Some(Family::Pred)
            }
            Some(7) => {
                self.branch_stmt();
                Some(Family::Branch)
            }
            Some(8) => {
                self.loop_stmt();
                Some(Family::Loop)
            }
            Some(9) => {
                self.gemm_stmt();
                Some(Family::Gemm)
            }
            Some(10) => {
                self.local_stmt();
                Some(Family::Local)
            }
            Some(11) => {
                self.const_stmt();
                Some(Family::Const)
            }
            Some(12) => {
                self.shared_stmt();
                Some(Family::Shared)
            }
            Some(13) => {
                self.atomic_stmt();
                Some(Family::Atomic)
            }
            Some(14) => {
                self.warp_stmt();
                Some(Family::Warp)
            }
            Some(15) => {
                self.tex_stmt();
                Some(Family::Tex)
            }
            Some(16) => {
                self.call_stmt();
                Some(Family::Call)
            }
            Some(17) => {
                self.bias_stmt();
                None
            }
            Some(19) => {
                self.menu_stmt();
                Some(Family::Menu)
            }
            Some(20) => {
                self.alias_stmt();
                Some(Family::Alias)
            }
            _ => {
                self.setp_stmt();
                None
            }
        };
        if let Some(f) = family {
            if self.body.lines.len() > before {
                self.mark_used(f);
            }
        }
    }

    /// The kernel prologue: thread indices, buffer bases, first values.
    pub fn prologue(&mut self) {
        let r = |g: &mut Self| g.fresh(RC::B32);
        let tx = r(self);
        let ty = r(self);
        let tz = r(self);
        let nx = r(self);
        let ny = r(self);
        let nz = r(self);
        self.ins(format!("mov.u32 {tx}, %tid.x"));
        self.ins(format!("mov.u32 {ty}, %tid.y"));
        self.ins(format!("mov.u32 {tz}, %tid.z"));
        self.ins(format!("mov.u32 {nx}, %ntid.x"));
        self.ins(format!("mov.u32 {ny}, %ntid.y"));
        self.ins(format!("mov.u32 {nz}, %ntid.z"));
        let tid_lin = r(self);
        self.ins(format!("mad.lo.u32 {tid_lin}, {tz}, {ny}, {ty}"));
        self.ins(format!("mad.lo.u32 {tid_lin}, {tid_lin}, {nx}, {tx}"));
        let cx = r(self);
        let cy = r(self);
        let cz = r(self);
        let gx = r(self);
        let gy = r(self);
        self.ins(format!("mov.u32 {cx}, %ctaid.x"));
        self.ins(format!("mov.u32 {cy}, %ctaid.y"));
        self.ins(format!("mov.u32 {cz}, %ctaid.z"));
        self.ins(format!("mov.u32 {gx}, %nctaid.x"));
        self.ins(format!("mov.u32 {gy}, %nctaid.y"));
        let cta_lin = r(self);
        self.ins(format!("mad.lo.u32 {cta_lin}, {cz}, {gy}, {cy}"));
        self.ins(format!("mad.lo.u32 {cta_lin}, {cta_lin}, {gx}, {cx}"));
        let threads = r(self);
        self.ins(format!("mul.lo.u32 {threads}, {nx}, {ny}"));
        self.ins(format!("mul.lo.u32 {threads}, {threads}, {nz}"));
        let gtid = r(self);
        self.ins(format!(
            "mad.lo.u32 {gtid}, {cta_lin}, {threads}, {tid_lin}"
        ));
        let param_n = r(self);
        self.ins(format!("ld.param.u32 {param_n}, [p_n]"));
        let base = |g: &mut Self, p: &str| {
            let a = g.fresh(RC::B64);
            g.ins(format!("ld.param.u64 {a}, [{p}]"));
            g.ins(format!("cvta.to.global.u64 {a}, {a}"));
            a
        };
        let out = base(self, "p_out");
        let in_u32 = base(self, "p_in_u32");
        let in_u64 = base(self, "p_in_u64");
        let in_f16 = base(self, "p_in_f16");
        let in_f32 = base(self, "p_in_f32");
        let in_f64 = base(self, "p_in_f64");
        let none = Reg {
            rc: RC::B64,
            n: u32::MAX,
        };
        let (acc, priv_slot) = if self.fs.has(Family::Atomic) {
            let acc = base(self, "p_acc");
            let p = base(self, "p_priv");
            let a = self.elem_addr(p, gtid, 4);
            let p64 = base(self, "p_priv64");
            self.priv64 = Some(self.elem_addr(p64, gtid, 8));
            (acc, a)
        } else {
            (none, none)
        };
        let tex = if self.fs.has(Family::Tex) {
            let t = self.fresh(RC::B64);
            self.ins(format!("ld.param.u64 {t}, [p_tex]"));
            self.tex_needs();
            t
        } else {
            none
        };
        let (shared, shared_own) = if self.fs.has(Family::Shared) || self.fs.has(Family::Atomic) {
            let s = self.fresh(RC::B64);
            self.ins(format!("mov.u64 {s}, sdata"));
            let own = self.elem_addr(s, tid_lin, 4);
            (s, own)
        } else {
            (none, none)
        };
        let local = if self.fs.has(Family::Local) {
            let l = self.fresh(RC::B64);
            self.ins(format!("mov.u64 {l}, ldepot"));
            l
        } else {
            none
        };
        self.fixed = Some(Fixed {
            tid_lin,
            gtid,
            cta_lin,
            param_n,
            out,
            in_u32,
            in_u64,
            in_f16,
            in_f32,
            in_f64,
            acc,
            priv_slot,
            tex,
            local,
            shared,
            shared_own,
        });
        for reg in [tid_lin, gtid, cta_lin, param_n] {
            self.define_fixed(reg);
        }
        // First values: two elements of each enabled type's input, one at
        // the thread's index and one elsewhere.
        let len = self.cfg.sizes.input_len;
        let mut ts = vec![VType::U32];
        for &t in self.fs.types() {
            // one buffer per register class: s32 shares in_u32, s64 in_u64
            let same = |a: VType| RC::of(a) == RC::of(t);
            if !ts.iter().any(|&x| same(x)) {
                ts.push(t);
            }
        }
        for t in ts {
            for k in 0..2u32 {
                let i = self.fresh(RC::B32);
                if k == 0 {
                    self.ins(format!("and.b32 {i}, {gtid}, {}", len - 1));
                } else {
                    let m = self.src.range(2, 9) | 1;
                    let c = self.src.below(len);
                    self.ins(format!("mad.lo.u32 {i}, {gtid}, {m}, {c}"));
                    self.ins(format!("and.b32 {i}, {i}, {}", len - 1));
                }
                let (b, size) = self.input_base(t);
                let a = self.elem_addr(b, i, size);
                let d = self.fresh(RC::of(t));
                self.ins(format!("ld.global.{} {d}, [{a}]", Self::mem_type(t)));
                self.define(d);
            }
        }
        if local != none {
            for w in 0..LOCAL_WORDS {
                let v = self.reg_of(VType::U32);
                self.ins(format!("st.local.u32 [{local}+{}], {v}", 4 * w));
            }
        }
        if self.fs.has(Family::Alias) {
            self.alias_prologue();
        }
        // `sizes.dyn_insts` bounds the body; the prologue comes on top.
        self.est = 0;
    }

    /// The epilogue: checksums and direct values into the thread's slots.
    pub fn epilogue(&mut self) {
        let fx = self.fx();
        let k = self.cfg.sizes.output_slots;
        let slot = self.fresh(RC::B32);
        self.ins(format!("mul.lo.u32 {slot}, {}, {k}", fx.gtid));
        let a = self.elem_addr(fx.out, slot, 8);
        let vals: Vec<Reg> = self.body.pool.iter().map(|v| v.reg).collect();
        let c32 = self.fresh(RC::B32);
        let c64 = self.fresh(RC::B64);
        self.ins(format!("mov.u32 {c32}, 0"));
        self.ins(format!("mov.u64 {c64}, 0"));
        for v in &vals {
            match v.rc {
                RC::B32 => self.ins(format!("xor.b32 {c32}, {c32}, {v}")),
                RC::F32 => {
                    let t = self.fresh(RC::B32);
                    self.ins(format!("mov.b32 {t}, {v}"));
                    self.ins(format!("xor.b32 {c32}, {c32}, {t}"));
                }
                RC::B16 => {
                    let t = self.fresh(RC::B32);
                    self.ins(format!("cvt.u32.u16 {t}, {v}"));
                    self.ins(format!("xor.b32 {c32}, {c32}, {t}"));
                }
                RC::Pred => {
                    let t = self.fresh(RC::B32);
                    self.ins(format!("selp.u32 {t}, 1, 0, {v}"));
                    self.ins(format!("shl.b32 {c32}, {c32}, 1"));
                    self.ins(format!("xor.b32 {c32}, {c32}, {t}"));
                }
                RC::B64 => self.ins(format!("xor.b64 {c64}, {c64}, {v}")),
                RC::F64 => {
                    let t = self.fresh(RC::B64);
                    self.ins(format!("mov.b64 {t}, {v}"));
                    self.ins(format!("xor.b64 {c64}, {c64}, {t}"));
                }
            }
        }
        self.ins(format!("st.global.u32 [{a}], {c32}"));
        self.ins(format!("st.global.u64 [{a}+8], {c64}"));
        // The most recent non-predicate values, one per remaining slot.
        let recent: Vec<Reg> = vals
            .iter()
            .rev()
            .filter(|v| v.rc != RC::Pred)
            .copied()
            .collect();
        for (i, v) in recent.iter().take((k - 2) as usize).enumerate() {
            let off = 8 * (i as u32 + 2);
            let ty = match v.rc {
                RC::B16 => "b16",
                RC::B32 => "u32",
                RC::B64 => "u64",
                RC::F32 => "f32",
                RC::F64 => "f64",
                RC::Pred => unreachable!("filtered"),
            };
            self.ins(format!("st.global.{ty} [{a}+{off}], {v}"));
        }
        self.ins("ret");
    }

    /// The module text: header, `.const` table, device functions, kernel.
    pub fn module_text(&mut self, funcs: &[String], const_init: &[u32]) -> String {
        let mut s = String::from(".version 7.0\n.target sm_70\n.address_size 64\n\n");
        if !self.needs.const_words.is_empty() {
            let vals: Vec<String> = const_init.iter().map(|v| v.to_string()).collect();
            s.push_str(&format!(
                ".const .align 16 .b32 ctab[{CONST_WORDS}] = {{{}}};\n\n",
                vals.join(", ")
            ));
        }
        for f in funcs {
            s.push_str(f);
            s.push('\n');
        }
        s.push_str(&format!(".visible .entry {KERNEL}(\n"));
        let params = self.param_names();
        let decls: Vec<String> = params
            .iter()
            .map(|(n, t)| format!("\t.param .{t} {n}"))
            .collect();
        s.push_str(&decls.join(",\n"));
        s.push_str("\n)\n{\n");
        for d in self.body.reg_decls() {
            s.push_str(&d);
            s.push('\n');
        }
        if self.fs.has(Family::Local) {
            s.push_str(&format!(
                "\t.local .align 16 .b8 ldepot[{}];\n",
                4 * LOCAL_WORDS
            ));
        }
        if self.fs.has(Family::Shared) || self.fs.has(Family::Atomic) {
            let bytes = self.shared_counter_offset() + 8;
            s.push_str(&format!("\t.shared .align 8 .b8 sdata[{bytes}];\n"));
        }
        if self.alias.is_some_and(|a| a.lal.is_some()) {
            let bytes = 4 * super::alias::LOCAL_WORDS;
            s.push_str(&format!("\t.local .align 16 .b8 lalias[{bytes}];\n"));
        }
        if self.alias.is_some_and(|a| a.sal.is_some()) {
            let bytes = 4 * super::alias::SHARED_WORDS * self.block_threads;
            s.push_str(&format!("\t.shared .align 16 .b8 salias[{bytes}];\n"));
        }
        s.push('\n');
        for l in &self.body.lines {
            s.push_str(l);
            s.push('\n');
        }
        s.push_str("}\n");
        s
    }

    /// The kernel's parameters in order, with their PTX types.
    pub fn param_names(&self) -> Vec<(&'static str, &'static str)> {
        let mut v = vec![
            ("p_out", "u64"),
            ("p_in_u32", "u64"),
            ("p_in_u64", "u64"),
            ("p_in_f16", "u64"),
            ("p_in_f32", "u64"),
            ("p_in_f64", "u64"),
            ("p_n", "u32"),
            ("p_alpha", "f32"),
        ];
        if self.fs.has(Family::Atomic) {
            v.push(("p_acc", "u64"));
            v.push(("p_priv", "u64"));
            v.push(("p_priv64", "u64"));
        }
        if self.fs.has(Family::Tex) {
            v.push(("p_tex", "u64"));
        }
        if self.fs.has(Family::Alias) {
            v.push(("p_mem", "u64"));
            v.push(("p_mem_alias", "u64"));
        }
        v
    }
}
