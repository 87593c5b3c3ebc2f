//! Floating-point and half-precision arithmetic (PTX ISA 9.7.3, 9.7.4).

use super::int::{four, three, two};
use super::operands::ICx;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::{self, *};
use crate::targets::PtxVersion;

const RND: &[Mod] = &[Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp];

fn v(a: u8, b: u8) -> PtxVersion {
    PtxVersion::new(a, b)
}

/// Half-precision gates: f16 arithmetic needs PTX 4.2 and sm_53; bf16 `fma`,
/// `min`, `max` need 7.0 and sm_80; bf16 `add`/`sub`/`mul` 7.8 and sm_90
/// (9.7.4, each instruction's PTX and Target ISA notes).
fn half_gate(c: &mut ICx, t: ScalarType) {
    match t {
        F16 | F16x2 => {
            c.need_ptx(&format!("{}{t}", c.name()), v(4, 2));
            c.need_sm(&format!("{}{t}", c.name()), 53);
        }
        Bf16 | Bf16x2 => {
            let (ver, sm) = match c.op() {
                Opcode::Add | Opcode::Sub | Opcode::Mul => (v(7, 8), 90),
                _ => (v(7, 0), 80),
            };
            c.need_ptx(&format!("{}{t}", c.name()), ver);
            c.need_sm(&format!("{}{t}", c.name()), sm);
        }
        _ => {}
    }
}

/// `.ftz` applies to f32 (and the f16 forms); `.sat` to f32 and f16.
fn ftz_sat(c: &mut ICx, t: ScalarType) {
    if !matches!(t, F32 | F16 | F16x2) {
        c.mod_not_with_type(Mod::Ftz, t);
        c.mod_not_with_type(Mod::Sat, t);
    }
}

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    let op = c.op();
    match op {
        Add | Sub | Mul => {
            c.allow(&[Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Ftz, Mod::Sat]);
            let Some(t) = c.one_type(&[F16, F16x2, Bf16, Bf16x2, F32, F64]) else {
                return;
            };
            let r = c.rounding();
            if t != F32 && t != F64 && r.is_some_and(|r| r != Mod::Rn) {
                c.mod_not_with_type(r.unwrap(), t);
            }
            ftz_sat(c, t);
            half_gate(c, t);
            three(c, t);
        }
        Fma | Mad => {
            c.allow(&[
                Mod::Rn,
                Mod::Rz,
                Mod::Rm,
                Mod::Rp,
                Mod::Ftz,
                Mod::Sat,
                Mod::Relu,
                Mod::Hi,
                Mod::Lo,
                Mod::Wide,
            ]);
            let Some(t) = c.one_type(&[F16, F16x2, Bf16, Bf16x2, F32, F64]) else {
                return;
            };
            for m in [Mod::Hi, Mod::Lo, Mod::Wide] {
                c.mod_not_with_type(m, t);
            }
            // fma needs a rounding modifier; so does mad.f32 on sm_20+ and mad.f64 (9.7.3.6).
            let r = c.rounding();
            if r.is_none() && !c.failed {
                let span = c.opcode_span();
                c.err(span, format!("'{}' requires a rounding modifier", c.name()));
                return;
            }
            if matches!(t, F16 | F16x2 | Bf16 | Bf16x2) {
                if r != Some(Mod::Rn) {
                    c.mod_not_with_type(r.unwrap(), t);
                }
                if op == Mad {
                    c.mod_not_with_type(Mod::Rn, t);
                }
            } else {
                c.mod_not_with_type(Mod::Relu, t);
            }
            if c.has(Mod::Relu) {
                c.gate_mod(Mod::Relu, v(7, 0), 80);
            }
            ftz_sat(c, t);
            half_gate(c, t);
            four(c, t);
        }
        Div => {
            c.allow(&[
                Mod::Rn,
                Mod::Rz,
                Mod::Rm,
                Mod::Rp,
                Mod::Ftz,
                Mod::Approx,
                Mod::Full,
            ]);
            let Some(t) = c.one_type(&[F32, F64]) else {
                return;
            };
            // div.f32 needs .approx, .full or a rounding modifier; div.f64 a
            // rounding modifier (9.7.3.8, sm_20 and later).
            let mut kinds = RND.to_vec();
            kinds.extend([Mod::Approx, Mod::Full]);
            let k = c.one_of(&kinds);
            if k.is_none() && !c.failed {
                let span = c.opcode_span();
                c.err(span, format!("'{}' requires a rounding modifier", c.name()));
                return;
            }
            if t == F64 && matches!(k, Some(Mod::Approx) | Some(Mod::Full)) {
                c.mod_not_with_type(k.unwrap(), t);
            }
            if t == F64 {
                c.mod_not_with_type(Mod::Ftz, t);
            }
            three(c, t);
        }
        Abs | Neg => {
            c.allow(&[Mod::Ftz]);
            let Some(t) = c.one_type(&[F16, F16x2, Bf16, Bf16x2, F32, F64]) else {
                return;
            };
            if t == F64 {
                c.mod_not_with_type(Mod::Ftz, t);
            }
            if matches!(t, F16 | F16x2) {
                // neg.f16 arrived in PTX 6.0, abs.f16 in 6.5 (9.7.4.6, 9.7.4.7).
                let ver = if op == Neg { v(6, 0) } else { v(6, 5) };
                c.need_ptx(&format!("{}{t}", c.name()), ver);
                c.need_sm(&format!("{}{t}", c.name()), 53);
            }
            // neg/abs.bf16{x2}: PTX 7.0, sm_80 (9.7.4.6, 9.7.4.7; ptxas
            // 11.8: "Feature '.bf16' requires .target sm_80 or higher").
            if matches!(t, Bf16 | Bf16x2) {
                half_gate(c, t);
            }
            two(c, t);
        }
        Min | Max => {
            c.allow(&[Mod::Ftz, Mod::NaNProp, Mod::Xorsign, Mod::Abs]);
            let Some(t) = c.one_type(&[F16, F16x2, Bf16, Bf16x2, F32, F64]) else {
                return;
            };
            if t == F64 {
                c.mod_not_with_type(Mod::Ftz, t);
                c.mod_not_with_type(Mod::NaNProp, t);
            }
            // .NaN: PTX 7.0, sm_80; .xorsign.abs: PTX 7.2, sm_86 (9.7.3.10).
            c.gate_mod(Mod::NaNProp, v(7, 0), 80);
            c.gate_mod(Mod::Xorsign, v(7, 2), 86);
            if c.has(Mod::Xorsign) != c.has(Mod::Abs) {
                let m = if c.has(Mod::Xorsign) {
                    Mod::Xorsign
                } else {
                    Mod::Abs
                };
                c.mod_not_with_type(m, t);
            }
            half_gate(c, t);
            // min/max.f16{x2}: PTX 7.0, sm_80 (9.7.4.10/11; ptxas 11.8:
            // "Feature 'min.f16 or min.f16x2' requires .target sm_80 or
            // higher"). (ptxc's lowering keeps an exact f32 route for plain
            // `.f16` when a module for sm_80 is compiled for sm_70/75.)
            if matches!(t, F16 | F16x2) {
                let feature = format!("{}{t}", c.name());
                c.need_ptx(&feature, v(7, 0));
                c.need_sm(&feature, 80);
            }
            // Three inputs: PTX 8.8, sm_100 (9.7.3.10).
            if c.n_operands() == 4 {
                c.need_ptx("three-input min/max", v(8, 8));
                c.need_sm("three-input min/max", 100);
                four(c, t);
            } else {
                three(c, t);
            }
        }
        Rcp | Sqrt => {
            c.allow(&[Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Ftz, Mod::Approx]);
            let Some(t) = c.one_type(&[F32, F64]) else {
                return;
            };
            let mut kinds = RND.to_vec();
            kinds.push(Mod::Approx);
            if c.one_of(&kinds).is_none() && !c.failed {
                let span = c.opcode_span();
                c.err(span, format!("'{}' requires a rounding modifier", c.name()));
                return;
            }
            // rcp.approx.ftz.f64 exists; sqrt.approx.f64 does not.
            if t == F64 && op == Sqrt {
                c.mod_not_with_type(Mod::Approx, t);
            }
            if t == F64 && !(op == Rcp && c.has(Mod::Approx)) {
                c.mod_not_with_type(Mod::Ftz, t);
            }
            // rcp.approx.f64 is `rcp.approx.ftz.f64` only (9.7.3.13; ptxas
            // 11.8: "'.ftz' modifier required for instruction
            // 'rcp.approx.f64'").
            if t == F64 && op == Rcp && c.has(Mod::Approx) && !c.has(Mod::Ftz) && !c.failed {
                let span = c.opcode_span();
                c.err(span, "'rcp.approx.f64' requires '.ftz'");
            }
            two(c, t);
        }
        Rsqrt | Sin | Cos | Lg2 | Ex2 | Tanh => {
            c.allow(&[Mod::Approx, Mod::Ftz]);
            let allowed: &[ScalarType] = match op {
                Rsqrt => &[F32, F64],
                Ex2 => &[F32, F16, F16x2, Bf16, Bf16x2],
                Tanh => &[F32, F16, F16x2, Bf16, Bf16x2],
                _ => &[F32],
            };
            let Some(t) = c.one_type(allowed) else { return };
            if !c.has(Mod::Approx) {
                let span = c.opcode_span();
                c.err(span, format!("'{}' requires .approx", c.name()));
                return;
            }
            if matches!(t, F16 | F16x2) && op == Ex2 {
                c.need_ptx("ex2.approx.f16", v(7, 0));
                c.need_sm("ex2.approx.f16", 75);
            }
            if matches!(t, Bf16 | Bf16x2) {
                c.need_ptx(&format!("{}{t}", c.name()), v(7, 8));
                c.need_sm(&format!("{}{t}", c.name()), 90);
            }
            two(c, t);
        }
        Testp => {
            c.allow(&[
                Mod::Finite,
                Mod::Infinite,
                Mod::Number,
                Mod::Notanumber,
                Mod::Normal,
                Mod::Subnormal,
            ]);
            c.require_one(
                &[
                    Mod::Finite,
                    Mod::Infinite,
                    Mod::Number,
                    Mod::Notanumber,
                    Mod::Normal,
                    Mod::Subnormal,
                ],
                "a test (.finite, .infinite, .number, .notanumber, .normal or .subnormal)",
            );
            if let Some(t) = c.one_type(&[F32, F64]) {
                if c.count(2) {
                    c.pred_dst(0, false, false);
                    c.src(1, t);
                }
            }
        }
        Copysign => {
            c.allow(&[]);
            if let Some(t) = c.one_type(&[F32, F64]) {
                three(c, t);
            }
        }
        _ => unreachable!("not a float opcode: {op:?}"),
    }
}
