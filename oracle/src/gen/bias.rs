//! The biased modes: one per peephole of the optimizer, each producing the
//! pattern its peephole looks for (GenConfig `mode`). A biased program is a
//! normal program (same safety rules) with these statements mixed in at a
//! high rate and the families they need forced on (unless denied).
//!
//! - `nan_or_zero`: float arithmetic against zero and NaN: accumulators
//!   starting at `+0.0` (`add x, 0`, `fma a, b, 0`), `mul x, 0.0`,
//!   `min`/`max` with a NaN operand, `selp` between a NaN and a value, and
//!   GEMM-like fma loops from a zero accumulator. Float inputs include the
//!   special values (`special` forced), so `x` is often NaN, +-0 or
//!   infinite: exactly where folding `0*x` or `x+0` is wrong.
//! - `tex_nodep`: runs of 2 to 4 `tex` fetches from the one texture at
//!   coordinates `x + c` computed from one base (address arithmetic between
//!   fetches, no data dependence between the fetches), then combined.
//! - `hoist_invariants`: counted loops whose body recomputes loop-invariant
//!   address math (`mul.wide` + `add.s64` of a value defined before the
//!   loop), reloads `ld.param` and `ld.const` words, and loads the
//!   invariant element, next to counter-dependent work.

use super::config::Bias;
use super::emit::{Gen, RC};
use super::features::{Family, VType};

impl Gen<'_, '_, '_> {
    /// Forces the families a mode needs (configuration denials win).
    pub fn bias_features(&mut self) {
        let cfg = self.cfg;
        match cfg.mode {
            Bias::None => {}
            Bias::NanOrZero => {
                for f in [Family::Float, Family::Special, Family::Gemm] {
                    self.fs.force(f, cfg);
                }
                self.fs.force_type(VType::F32, cfg);
            }
            Bias::TexNodep => self.fs.force(Family::Tex, cfg),
            Bias::HoistInvariants => {
                self.fs.force(Family::Loop, cfg);
                self.fs.force(Family::Const, cfg);
            }
        }
    }

    /// Whether the mode has a statement for this program.
    pub fn bias_active(&self) -> bool {
        match self.cfg.mode {
            Bias::None => false,
            Bias::NanOrZero => !self.fs.float_types().is_empty() && !self.in_func,
            Bias::TexNodep => self.fs.has(Family::Tex) && !self.in_func,
            Bias::HoistInvariants => !self.in_func,
        }
    }

    pub fn bias_stmt(&mut self) {
        match self.cfg.mode {
            Bias::None => {}
            Bias::NanOrZero => self.nan_or_zero_stmt(),
            Bias::TexNodep => self.tex_nodep_stmt(),
            Bias::HoistInvariants => self.hoist_stmt(),
        }
    }

    fn nan_or_zero_stmt(&mut self) {
        let ts: Vec<VType> = self
            .fs
            .float_types()
            .into_iter()
            .filter(|&t| t != VType::F16)
            .collect();
        if ts.is_empty() {
            self.gemm_stmt();
            return;
        }
        let t = self.src.pick(&ts);
        let tn = t.name();
        let (zero, nan) = if t == VType::F32 {
            ("0f00000000", "0f7FFFFFFF")
        } else {
            ("0d0000000000000000", "0d7FFFFFFFFFFFFFFF")
        };
        let rc = RC::of(t);
        let x = self.reg_of(t);
        match self.src.below(6) {
            0 => {
                // a zero accumulator
                let acc = self.fresh(rc);
                self.ins(format!("mov.{tn} {acc}, {zero}"));
                self.ins(format!("add.rn.{tn} {acc}, {acc}, {x}"));
                self.define(acc);
            }
            1 => {
                let d = self.dest(rc);
                let y = self.reg_of(t);
                self.ins(format!("fma.rn.{tn} {}, {x}, {y}, {zero}", d.0));
                self.finish(d);
            }
            2 => {
                let d = self.dest(rc);
                self.ins(format!("mul.rn.{tn} {}, {x}, {zero}", d.0));
                self.finish(d);
            }
            3 => {
                let op = self.src.pick(&["min", "max"]);
                let d = self.dest(rc);
                self.ins(format!("{op}.{tn} {}, {x}, {nan}", d.0));
                self.finish(d);
            }
            4 => {
                let p = self.fresh(RC::Pred);
                let y = self.reg_of(t);
                self.ins(format!("setp.gt.{tn} {p}, {y}, {zero}"));
                let d = self.dest(rc);
                self.ins(format!("selp.{tn} {}, {nan}, {x}, {p}", d.0));
                self.finish(d);
            }
            _ => self.gemm_stmt(),
        }
    }

    fn tex_nodep_stmt(&mut self) {
        self.tex_needs();
        let x = self.tex_coord(super::tex::TEX_W);
        let y = self.tex_coord(super::tex::TEX_H);
        let k = self.src.range(2, 4);
        let mut sum = None;
        for i in 0..k {
            let xi = self.fresh(RC::B32);
            let c = self.src.range(1, 3) * i;
            self.ins(format!("add.s32 {xi}, {x}, {c}"));
            let d = self.tex_fetch(xi, Some(y));
            sum = Some(match sum {
                None => d[0],
                Some(s) => {
                    let t = self.fresh(RC::F32);
                    self.ins(format!("add.rn.f32 {t}, {s}, {}", d[0]));
                    t
                }
            });
        }
        if let Some(s) = sum {
            self.define(s);
        }
    }

    fn hoist_stmt(&mut self) {
        let len = self.cfg.sizes.input_len;
        let inv = self.masked_index(len);
        let acc = self.fresh(RC::B32);
        self.ins(format!("mov.u32 {acc}, 0"));
        let base = self.fx().in_u32;
        let ck = self.src.below(super::memory::CONST_WORDS);
        self.needs.const_words = vec![0; super::memory::CONST_WORDS as usize];
        self.counted_loop(&mut |g, k| {
            let s = g.fresh(RC::B32);
            g.ins(format!("ld.param.u32 {s}, [p_n]"));
            let c = g.fresh(RC::B32);
            g.ins(format!("ld.const.u32 {c}, [ctab+{}]", 4 * ck));
            let a = g.elem_addr(base, inv, 4);
            let v = g.fresh(RC::B32);
            g.ins(format!("ld.global.u32 {v}, [{a}]"));
            let m = g.fresh(RC::B32);
            g.ins(format!("mad.lo.u32 {m}, {s}, {c}, {v}"));
            g.ins(format!("add.u32 {acc}, {acc}, {m}"));
            g.ins(format!("xor.b32 {acc}, {acc}, {k}"));
        });
        self.define(acc);
    }
}
