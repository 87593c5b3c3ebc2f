//! Conversions (`cvt`): between integer widths, between integers and
//! floats (every rounding mode), between float widths, `cvt.sat.f32.f32`
//! (a clamp without integer rounding), and bit casts
//! (`mov.b32`/`mov.b64` between float and integer registers).
//!
//! All defined for every input: float-to-integer conversions saturate and
//! map NaN to 0 (PTX ISA 9.7.9.21 "cvt": "for float-to-integer
//! conversions, the result is clamped to the destination range ... NaN is
//! converted to 0").

use super::emit::{Gen, RC};
use super::features::VType;

const INT_ROUND: &[&str] = &["rni", "rzi", "rmi", "rpi"];
const FLT_ROUND: &[&str] = &["rn", "rz", "rm", "rp"];

impl Gen<'_, '_, '_> {
    /// One conversion between two enabled types (integers always include
    /// u32/s32 for indices).
    pub fn cvt_stmt(&mut self) {
        let mut ts: Vec<VType> = self.fs.types().to_vec();
        for t in [VType::U32, VType::S32] {
            if !ts.contains(&t) {
                ts.push(t);
            }
        }
        let from = self.src.pick(&ts);
        let to = self.src.pick(&ts);
        // Bit casts between same-width float and integer registers.
        if self.src.chance(0.15) {
            let (fr, tr, w) = match (from, to) {
                (VType::F32, VType::U32 | VType::S32) => (VType::F32, RC::B32, 32),
                (VType::U32 | VType::S32, VType::F32) => (VType::U32, RC::F32, 32),
                (VType::F64, VType::U64 | VType::S64) => (VType::F64, RC::B64, 64),
                (VType::U64 | VType::S64, VType::F64) => (VType::U64, RC::F64, 64),
                _ => (VType::U32, RC::B32, 0),
            };
            if w > 0 {
                let a = self.reg_of(fr);
                let d = self.dest(tr);
                self.ins_def(d, format!("mov.b{w} {}, {a}", d.0));
                return;
            }
        }
        if from == to && !from.is_float() {
            return;
        }
        // `cvt{.ftz}.sat.f32.f32`: no integer rounding, a clamp to [0, 1]
        // (PTX ISA 9.7.9.21; the form nvcc writes for `__saturatef`).
        if from == VType::F32 && to == VType::F32 && self.src.chance(0.25) {
            let ftz = if self.src.chance(0.3) { ".ftz" } else { "" };
            let a = self.reg_of(from);
            let d = self.dest(RC::F32);
            self.ins_def(d, format!("cvt{ftz}.sat.f32.f32 {}, {a}", d.0));
            return;
        }
        let rnd = match (from.is_float(), to.is_float()) {
            (true, false) => format!(".{}", self.src.pick(INT_ROUND)),
            (false, true) => format!(".{}", self.src.pick(FLT_ROUND)),
            (true, true) => {
                let narrowing = width(to) < width(from);
                if from == to {
                    // round to integral in the same type
                    format!(".{}", self.src.pick(INT_ROUND))
                } else if narrowing {
                    format!(".{}", self.src.pick(FLT_ROUND))
                } else {
                    String::new()
                }
            }
            (false, false) => String::new(),
        };
        // `.sat`: clamps float-to-integer results (already saturating) and
        // f32 results to [0, 1].
        let sat_ok = (!to.is_float() && from.is_float()) || to == VType::F32;
        let sat = if sat_ok && self.src.chance(0.15) {
            ".sat"
        } else {
            ""
        };
        let ftz = if (from == VType::F32 || to == VType::F32) && self.src.chance(0.15) {
            ".ftz"
        } else {
            ""
        };
        // .ftz applies to f32 sources/destinations only; integer-to-integer
        // conversions take no modifiers here.
        let ftz = if from.is_float() || to.is_float() {
            ftz
        } else {
            ""
        };
        let sat = if from.is_float() || to.is_float() {
            sat
        } else {
            ""
        };
        let a = self.reg_of(from);
        let d = self.dest(RC::of(to));
        let text = format!(
            "cvt{rnd}{ftz}{sat}.{}.{} {}, {a}",
            to.name(),
            from.name(),
            d.0
        );
        self.ins_def(d, text);
    }
}

fn width(t: VType) -> u32 {
    match t {
        VType::F16 => 16,
        VType::U32 | VType::S32 | VType::F32 => 32,
        _ => 64,
    }
}
