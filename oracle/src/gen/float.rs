//! Float statements on the enabled float types (`float`), the special
//! functions (`sfu`), and float comparisons and tests (under `pred`).
//!
//! Every float operation is defined for every input, NaN, infinities,
//! zeros and subnormals included (PTX ISA 9.7.3/9.7.4): no guards needed.
//! Restrictions kept for the targets (sm_70 is the oldest): no
//! `min`/`max.f16` (sm_80+), no `tanh.approx` (sm_75+); f16 takes `.rn`
//! only and no immediates (operands come from registers, constants through
//! `mov.b16`).
//!
//! Every rounding modifier the ISA gives these instructions is written
//! (PTX ISA 9.7.3): `add/sub/mul/fma` on f32/f64 with `.rn/.rz/.rm/.rp` or,
//! for add/sub/mul, none (round to nearest, the form compilers print most),
//! f32 with `.ftz` and `.sat`; IEEE `div/sqrt/rcp` with all four roundings
//! (f32 also `.ftz`); every `.approx` function with and without `.ftz`, and
//! `rcp/rsqrt.approx.ftz.f64`.

use super::emit::{Gen, RC};
use super::features::VType;

/// add/sub/mul/fma roundings ("" is no modifier: fma takes `.rn` then).
const ROUND: &[&str] = &["", ".rn", ".rn", ".rz", ".rm", ".rp"];
/// IEEE div/sqrt/rcp roundings (one of them is required).
const IEEE_ROUND: &[&str] = &["rn", "rz", "rm", "rp"];

impl Gen<'_, '_, '_> {
    fn float_type(&mut self) -> Option<VType> {
        let ts = self.fs.float_types();
        if ts.is_empty() {
            None
        } else {
            Some(self.src.pick(&ts))
        }
    }

    /// One arithmetic statement on a float type.
    pub fn float_stmt(&mut self) {
        let Some(t) = self.float_type() else { return };
        let tn = t.name();
        let rc = RC::of(t);
        let f16 = t == VType::F16;
        let rnd = if f16 { ".rn" } else { self.src.pick(ROUND) };
        let fma_rnd = if rnd.is_empty() { ".rn" } else { rnd };
        let ftz = if t == VType::F32 && self.src.chance(0.2) {
            ".ftz"
        } else {
            ""
        };
        let sat = if t == VType::F32 && self.src.chance(0.1) {
            ".sat"
        } else {
            ""
        };
        let n_ops = if f16 { 6 } else { 9 };
        let a = self.reg_of(t);
        let text = |d: String, g: &mut Self| -> String {
            match g.src.below(n_ops) {
                0 => format!("add{rnd}{ftz}{sat}.{tn} {d}, {a}, {}", g.opnd(t)),
                1 => format!("sub{rnd}{ftz}{sat}.{tn} {d}, {a}, {}", g.opnd(t)),
                2 => format!("mul{rnd}{ftz}{sat}.{tn} {d}, {a}, {}", g.opnd(t)),
                3 => {
                    let b = g.opnd(t);
                    let c = g.opnd(t);
                    format!("fma{fma_rnd}{ftz}{sat}.{tn} {d}, {a}, {b}, {c}")
                }
                4 => format!("neg{ftz}.{tn} {d}, {a}"),
                5 => format!("abs{ftz}.{tn} {d}, {a}"),
                6 => format!("min{ftz}.{tn} {d}, {a}, {}", g.opnd(t)),
                7 => format!("max{ftz}.{tn} {d}, {a}, {}", g.opnd(t)),
                _ => format!("copysign.{tn} {d}, {a}, {}", g.reg_of(t)),
            }
        };
        let d = self.dest(rc);
        let s = text(d.0.to_string(), self);
        self.ins_def(d, s);
    }

    /// One special-function statement (f32 and f64 only).
    pub fn sfu_stmt(&mut self) {
        let ts: Vec<VType> = [VType::F32, VType::F64]
            .into_iter()
            .filter(|&t| self.fs.has_type(t))
            .collect();
        if ts.is_empty() {
            return;
        }
        let t = self.src.pick(&ts);
        let tn = t.name();
        let a = self.reg_of(t);
        let d = self.dest(RC::of(t));
        let rnd = self.src.pick(IEEE_ROUND);
        let text = if t == VType::F32 {
            let ftz = if self.src.chance(0.3) { ".ftz" } else { "" };
            match self.src.below(11) {
                0 => format!("div.{rnd}{ftz}.f32 {}, {a}, {}", d.0, self.opnd(t)),
                1 => format!("div.approx{ftz}.f32 {}, {a}, {}", d.0, self.opnd(t)),
                2 => format!("div.full{ftz}.f32 {}, {a}, {}", d.0, self.opnd(t)),
                3 => format!("sqrt.{rnd}{ftz}.f32 {}, {a}", d.0),
                4 => format!("rcp.{rnd}{ftz}.f32 {}, {a}", d.0),
                5 => format!("sqrt.approx{ftz}.f32 {}, {a}", d.0),
                6 => format!("rsqrt.approx{ftz}.f32 {}, {a}", d.0),
                7 => format!("rcp.approx{ftz}.f32 {}, {a}", d.0),
                8 => format!("ex2.approx{ftz}.f32 {}, {a}", d.0),
                9 => format!("lg2.approx{ftz}.f32 {}, {a}", d.0),
                _ => {
                    let op = self.src.pick(&["sin", "cos"]);
                    format!("{op}.approx{ftz}.f32 {}, {a}", d.0)
                }
            }
        } else {
            match self.src.below(4) {
                0 => format!("div.{rnd}.{tn} {}, {a}, {}", d.0, self.opnd(t)),
                1 => format!("sqrt.{rnd}.{tn} {}, {a}", d.0),
                2 => format!("rcp.{rnd}.{tn} {}, {a}", d.0),
                _ => {
                    let form =
                        self.src
                            .pick(&["rsqrt.approx", "rsqrt.approx.ftz", "rcp.approx.ftz"]);
                    format!("{form}.{tn} {}, {a}", d.0)
                }
            }
        };
        self.ins_def(d, text);
    }

    /// A predicate from a comparison or a float test; pooled.
    pub fn setp_stmt(&mut self) {
        let floats = self.fs.float_types();
        let use_float = !floats.is_empty() && self.src.chance(0.4);
        let p = self.fresh(RC::Pred);
        if use_float {
            let t = self.src.pick(&floats);
            let a = self.reg_of(t);
            if t != VType::F16 && self.src.chance(0.25) {
                let test = self.src.pick(&[
                    "finite",
                    "infinite",
                    "number",
                    "notanumber",
                    "normal",
                    "subnormal",
                ]);
                self.ins(format!("testp.{test}.{} {p}, {a}", t.name()));
            } else {
                const CMP: &[&str] = &[
                    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu",
                    "num", "nan",
                ];
                let c = self.src.pick(CMP);
                let b = self.second_opnd(t, a);
                self.ins(format!("setp.{c}.{} {p}, {a}, {b}", t.name()));
            }
        } else {
            // 64-bit compares as u64 or s64 (values.rs: related operands)
            let t = match self.int64_type() {
                Some(t64) if self.src.chance(0.2) => t64,
                _ => self.int32_type(),
            };
            let c = self.src.pick(&["eq", "ne", "lt", "le", "gt", "ge"]);
            let a = self.reg_of(t);
            let b = self.second_opnd(t, a);
            let c = if matches!(t, VType::U32 | VType::U64) && self.src.chance(0.3) {
                self.src.pick(&["lo", "ls", "hi", "hs"])
            } else {
                c
            };
            self.ins(format!("setp.{c}.{} {p}, {a}, {b}", t.name()));
        }
        self.define(p);
    }
}
