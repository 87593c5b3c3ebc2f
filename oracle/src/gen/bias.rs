//! The biased modes: one per peephole of the optimizer, each producing the
//! pattern its peephole looks for (GenConfig `mode`). A biased program is a
//! normal program (same safety rules) with these statements mixed in at a
//! high rate and the families they need forced on (unless denied).
//!
//! - `nan_or_zero`: half the f32 statements are rule statements
//!   (`bias_nan_or_zero.rs`): one foldable instruction per
//!   OptimizeNaNOrZero rule, with operands the pass knows only in part
//!   (two definitions meeting, converted integers, min/max of an unknown
//!   value) and near misses of each side condition. The rest: float
//!   arithmetic against zero and NaN: accumulators
//!   starting at `+0.0` (`add x, 0`, `fma a, b, 0`), `mul x, 0.0`,
//!   `min`/`max` with a NaN operand, `selp` between a NaN and a value, and
//!   GEMM-like fma loops from a zero accumulator. Float inputs include the
//!   special values (`special` forced), so `x` is often NaN, +-0 or
//!   infinite: exactly where folding `0*x` or `x+0` is wrong. Half of
//!   these statements are a GEMM main loop that OptimizeNaNOrZero's gate
//!   accepts (four loop-carried `fma.rn.f32` on two loads per trip, a trip
//!   count read from `p_n` so that unrolling keeps the loop) holding
//!   foldable patterns on a converted counter (finite, never -0).
//! - `tex_nodep`: runs of 2 to 4 `tex` fetches from the one texture at
//!   coordinates `x + c` computed from one base (address arithmetic between
//!   fetches, no data dependence between the fetches), then combined; half
//!   the runs are 1D, some coordinates copies of the base (`mov`).
//! - `hoist_invariants`: counted loops whose body recomputes loop-invariant
//!   address math (`mul.wide` + `add.s64` of a value defined before the
//!   loop), reloads `ld.param` and `ld.const` words, and loads the
//!   invariant element, next to counter-dependent work; half the time the
//!   address math is in a branch arm taken on odd trips (see `hoist_stmt`).

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
        // Six in ten f32 statements are rule statements (bias_nan_or_zero.rs),
        // three in ten a GEMM main loop (the pass's gate), the rest the
        // patterns below.
        let k = self.src.below(10);
        if t == VType::F32 && k < 6 {
            self.nan_or_zero_rule_stmt();
            return;
        }
        if k >= 7 && t == VType::F32 {
            self.gemm_main_loop();
            return;
        }
        let rc = RC::of(t);
        let x = self.reg_of(t);
        match self.src.below(8) {
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
            5 => self.gemm_stmt(),
            _ if t == VType::F32 => self.gemm_main_loop(),
            _ => self.gemm_stmt(),
        }
    }

    /// A loop OptimizeNaNOrZero's GEMM gate accepts (`ptxc::phases::gemm`:
    /// at least four multiply-accumulates, one loop-carried, and two loads
    /// in an innermost loop), with foldable f32 patterns on `cvt` of the
    /// counter: `fma(c, +0, +0)`, `c + -0`, `min(c, NaN)`.
    fn gemm_main_loop(&mut self) {
        let n = self.fresh(RC::B32);
        self.ins(format!("ld.param.u32 {n}, [p_n]"));
        self.ins(format!("and.b32 {n}, {n}, 3"));
        self.ins(format!("add.u32 {n}, {n}, 2"));
        let acc = self.fresh(RC::F32);
        self.ins(format!("mov.f32 {acc}, 0f00000000"));
        let folded = self.fresh(RC::F32);
        self.ins(format!("mov.f32 {folded}, 0f00000000"));
        let len = self.cfg.sizes.input_len;
        let row = self.masked_index(len);
        self.counted_loop_trip((n.to_string(), 5, false), &mut |g, k| {
            let (base, size) = g.input_base(VType::F32);
            let ia = g.fresh(RC::B32);
            g.ins(format!("add.u32 {ia}, {row}, {k}"));
            g.ins(format!("and.b32 {ia}, {ia}, {}", len - 1));
            let ib = g.fresh(RC::B32);
            g.ins(format!("xor.b32 {ib}, {ia}, 1"));
            let aa = g.elem_addr(base, ia, size);
            let ab = g.elem_addr(base, ib, size);
            let (x, y) = (g.fresh(RC::F32), g.fresh(RC::F32));
            g.ins(format!("ld.global.f32 {x}, [{aa}]"));
            g.ins(format!("ld.global.f32 {y}, [{ab}]"));
            for (a, b) in [(x, y), (y, x), (x, x), (y, y)] {
                g.ins(format!("fma.rn.f32 {acc}, {a}, {b}, {acc}"));
            }
            let c = g.fresh(RC::F32);
            g.ins(format!("cvt.rn.f32.u32 {c}, {k}"));
            let (z, w, m) = (g.fresh(RC::F32), g.fresh(RC::F32), g.fresh(RC::F32));
            g.ins(format!("fma.rn.f32 {z}, {c}, 0f00000000, 0f00000000"));
            g.ins(format!("add.rn.f32 {w}, {c}, 0f80000000"));
            g.ins(format!("min.f32 {m}, {c}, 0f7FFFFFFF"));
            g.ins(format!("add.rn.f32 {folded}, {folded}, {z}"));
            g.ins(format!("add.rn.f32 {folded}, {folded}, {w}"));
            g.ins(format!("add.rn.f32 {folded}, {folded}, {m}"));
        });
        self.define(acc);
        self.define(folded);
    }

    fn tex_nodep_stmt(&mut self) {
        self.tex_needs();
        let x = self.tex_coord(super::tex::TEX_W);
        // Half the runs are 1D fetches, some of whose coordinates are
        // copies (`mov`: TexNodep's coordinate-copy rule).
        let y = if self.src.chance(0.5) {
            Some(self.tex_coord(super::tex::TEX_H))
        } else {
            None
        };
        let k = self.src.range(2, 4);
        let mut sum = None;
        for i in 0..k {
            let xi = self.fresh(RC::B32);
            let c = self.src.range(1, 3) * i;
            if y.is_none() && self.src.chance(0.5) {
                self.ins(format!("mov.b32 {xi}, {x}"));
            } else {
                self.ins(format!("add.s32 {xi}, {x}, {c}"));
            }
            let d = self.tex_fetch(xi, y);
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
        let conditional = self.src.chance(0.5);
        self.counted_loop(&mut |g, k| {
            let s = g.fresh(RC::B32);
            g.ins(format!("ld.param.u32 {s}, [p_n]"));
            let c = g.fresh(RC::B32);
            g.ins(format!("ld.const.u32 {c}, [ctab+{}]", 4 * ck));
            // Half the time the invariant address math sits in a branch
            // arm taken on odd trips: the generic LICM phases move only
            // what runs on every trip, HoistInvariants also conditional
            // ALU work. The guarded add keeps OriDoPredication (which
            // refuses arms with guarded instructions) from flattening it.
            let skip = conditional.then(|| {
                let (q, odd, first) = (g.fresh(RC::Pred), g.fresh(RC::B32), g.fresh(RC::Pred));
                g.ins(format!("and.b32 {odd}, {k}, 1"));
                g.ins(format!("setp.eq.u32 {q}, {odd}, 0"));
                g.ins(format!("setp.eq.u32 {first}, {k}, 1"));
                let l = g.new_label("even");
                g.ins(format!("@{q} bra {l}"));
                g.ins(format!("@{first} add.u32 {acc}, {acc}, 1"));
                l
            });
            let a = g.elem_addr(base, inv, 4);
            let v = g.fresh(RC::B32);
            g.ins(format!("ld.global.u32 {v}, [{a}]"));
            let m = g.fresh(RC::B32);
            g.ins(format!("mad.lo.u32 {m}, {s}, {c}, {v}"));
            g.ins(format!("add.u32 {acc}, {acc}, {m}"));
            if let Some(l) = skip {
                g.label(&l);
            }
            g.ins(format!("xor.b32 {acc}, {acc}, {k}"));
        });
        self.define(acc);
    }
}
