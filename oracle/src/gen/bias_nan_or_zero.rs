//! The `nan_or_zero` mode's rule statements: one f32 instruction that
//! OptimizeNaNOrZero may fold (`add`/`sub`/`mul`/`fma`/`min`/`max`), built
//! for one of its rules (`ptxc::phases::nan_or_zero::RULES`), with
//! operands whose facts the pass knows only in part, and its result pooled
//! (every pooled value reaches the output checksum, so a wrong fold changes
//! an output).
//!
//! An operand is drawn from a [`Class`] of facts (what the pass may know)
//! and a way of making a value of that class:
//!
//! - a constant (an immediate, or a register `mov`ed from one: copy
//!   propagation may or may not turn it into an immediate);
//! - two definitions meeting (the pass's facts are the meet over every
//!   definition): `selp` between two constants, a constant overwritten
//!   under a thread-varying predicate, or a branch diamond writing one
//!   constant on each arm; the two constants are sometimes equal (the
//!   facts then keep the exact bits while no single constant reaches the
//!   use), sometimes two zeros of unknown sign, or a zero and a NaN (a
//!   value that is "NaN or zero" on one path only);
//! - `cvt.rn.f32.s32` of an input masked to -1..2: finite, never NaN, never
//!   -0, sometimes +0 (the pass's `I2F` transfer);
//! - `min`/`max` of an unknown input and such a converted value: never NaN
//!   (the `FMNMX` transfer), but maybe -0, +-inf or anything;
//! - `neg.f32` of such a converted value: finite, but -0 when the integer
//!   is 0 (the pass's `Facts::neg`);
//! - an unknown input (special values included: the mode forces them);
//! - in a factor ([`ONE_PATH`] of `mul`/`fma` statements): a zero or an
//!   infinity on one path only, a finite value on the other.
//!
//! The predicates read the thread id, so both definitions run in every
//! launch. With probability [`NEAR_MISS`] one operand is redrawn from any
//! class, or the rounding turns to `.rm`: the rule's side condition then
//! often fails, and a fold that ignores it is wrong on those threads.
//! Every value here is defined (constants, inputs, conversions): no
//! undefined behaviour is added.

use super::emit::{Gen, RC};
use super::features::VType;

/// The share of rule statements with one operand redrawn from any class
/// (or `.rm` rounding): the side conditions' negative cases.
pub const NEAR_MISS: f64 = 0.3;

const POS_ZERO: &str = "0f00000000";
const NEG_ZERO: &str = "0f80000000";
const POS_INF: &str = "0f7F800000";
const NEG_INF: &str = "0fFF800000";
const NAN: &str = "0f7FFFFFFF";
/// A NaN with another payload and the sign set: folds must give the
/// canonical NaN, not this.
const NAN2: &str = "0fFFC00001";
const ONE: &str = "0f3F800000";
const MINUS_TWO_HALF: &str = "0fC0200000";
/// The smallest subnormal.
const TINY: &str = "0f00000001";
/// FLT_MAX: adding it to itself overflows.
const BIG: &str = "0f7F7FFFFF";

/// What OptimizeNaNOrZero may know about an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    PosZero,
    NegZero,
    /// A zero of unknown sign.
    AnyZero,
    PosInf,
    NegInf,
    Nan,
    /// Finite, bits known (so its sign too), non-zero.
    FiniteKnown,
    /// Finite and never -0, bits unknown (converted integers).
    Finite,
    /// Never NaN, maybe -0 (or anything else).
    NotNanMaybeNegZero,
    /// Nothing known.
    Unknown,
    /// A zero on one path, a finite non-zero value on the other.
    MaybeZero,
    /// An infinity on one path, a finite value on the other.
    MaybeInf,
    /// The negation of a converted integer (`neg.f32`, which folds into
    /// the user's operand as `-R`): finite, maybe -0 (when the integer is
    /// 0), so `add` of +0 must not fold to a copy of it. A pass whose
    /// `Facts::neg` kept the operand's "never -0" would.
    NegFinite,
}

const ALL: [Class; 12] = [
    Class::PosZero,
    Class::NegZero,
    Class::AnyZero,
    Class::PosInf,
    Class::NegInf,
    Class::Nan,
    Class::FiniteKnown,
    Class::Finite,
    Class::NotNanMaybeNegZero,
    Class::Unknown,
    Class::MaybeZero,
    Class::MaybeInf,
];

/// The share of factors drawn "zero or inf on one path only" instead of the
/// rule's own class (a meet that kept a path's zero or finiteness would
/// fold them wrongly).
const ONE_PATH: f64 = 0.2;

/// The weight of each rule of `ptxc::phases::nan_or_zero::RULES` (in its
/// order) when a rule statement picks its rule.
const RULE_WEIGHTS: [u32; 13] = [2, 3, 4, 5, 4, 1, 3, 4, 1, 3, 5, 8, 1];

impl Gen<'_, '_, '_> {
    /// One rule statement (module doc), for a rule drawn uniformly.
    pub fn nan_or_zero_rule_stmt(&mut self) {
        use Class::*;
        let zero_known = [PosZero, NegZero];
        let zero = [PosZero, NegZero, AnyZero];
        let not_nan = [Finite, FiniteKnown, NotNanMaybeNegZero];
        // (op, operand classes, roundings allowed)
        let rn = &["rn", "rz", "rp"][..];
        let any_rnd = &["rn", "rz", "rm", "rp"][..];
        // Rules whose operands are often all constants (folded before the
        // pass by GeneralOptimize) or that need two rare facts at once are
        // drawn more often: each fires in >= 5% of the mode's programs
        // (oracle/tests/gen_peephole_rules.rs).
        let rule = self.src.weighted(&RULE_WEIGHTS).unwrap_or(0);
        let (op, mut cls, rnd): (&str, Vec<Class>, &[&str]) = match rule {
            // nan-operand
            0 => {
                let op = self.src.pick(&["add", "mul", "fma"]);
                let n = if op == "fma" { 3 } else { 2 };
                let mut c: Vec<Class> = (0..n).map(|_| self.src.pick(&ALL)).collect();
                let k = self.src.below(n as u32) as usize;
                c[k] = Nan;
                (op, c, any_rnd)
            }
            // zero-times-inf
            1 => {
                let z = self.src.pick(&zero);
                let i = self.src.pick(&[PosInf, NegInf]);
                let (a, b) = if self.src.chance(0.5) { (z, i) } else { (i, z) };
                if self.src.chance(0.5) {
                    ("mul", vec![a, b], any_rnd)
                } else {
                    ("fma", vec![a, b, self.src.pick(&ALL)], any_rnd)
                }
            }
            // inf-minus-inf (sub: the second operand negated)
            2 => {
                if self.src.chance(0.5) {
                    ("add", vec![PosInf, NegInf], any_rnd)
                } else {
                    let i = self.src.pick(&[PosInf, NegInf]);
                    ("sub", vec![i, i], any_rnd)
                }
            }
            // mul-zero
            3 => {
                let z = self.src.pick(&zero_known);
                ("mul", vec![z, FiniteKnown], any_rnd)
            }
            // add-zeros
            4 => {
                let (a, b) = (self.src.pick(&zero_known), self.src.pick(&zero_known));
                (self.src.pick(&["add", "sub"]), vec![a, b], any_rnd)
            }
            // add-neg-zero
            5 => ("add", vec![self.src.pick(&not_nan), NegZero], rn),
            // add-pos-zero (and, a fifth of the time, its negative case
            // through a negated operand)
            6 => {
                let x = if self.src.chance(0.2) {
                    NegFinite
                } else {
                    self.src.pick(&[Finite, FiniteKnown])
                };
                ("add", vec![x, PosZero], any_rnd)
            }
            // fma-zero-sum
            7 => {
                let c = self.src.pick(&zero_known);
                (
                    "fma",
                    vec![self.src.pick(&zero_known), FiniteKnown, c],
                    any_rnd,
                )
            }
            // fma-pos-zero-acc
            8 => ("fma", vec![self.src.pick(&zero), Finite, PosZero], rn),
            // fma-acc
            9 => ("fma", vec![self.src.pick(&zero), Finite, Finite], rn),
            // fma-neg-product: -0 times a positive known value (or +0
            // times a negative one), addend maybe -0
            10 => ("fma", vec![NegZero, FiniteKnown, NotNanMaybeNegZero], rn),
            // minmax-nans
            11 => (self.src.pick(&["min", "max"]), vec![Nan, Nan], &[][..]),
            // minmax-nan
            _ => {
                let x = self.src.pick(&[
                    Finite,
                    FiniteKnown,
                    NotNanMaybeNegZero,
                    PosZero,
                    NegZero,
                    PosInf,
                    NegInf,
                ]);
                let v = if self.src.chance(0.5) {
                    vec![Nan, x]
                } else {
                    vec![x, Nan]
                };
                (self.src.pick(&["min", "max"]), v, &[][..])
            }
        };
        let mut rnd = if rnd.is_empty() {
            ""
        } else {
            self.src.pick(rnd)
        };
        if self.src.chance(NEAR_MISS) {
            if !rnd.is_empty() && self.src.chance(0.3) {
                rnd = "rm";
            } else {
                let k = self.src.below(cls.len() as u32) as usize;
                cls[k] = self.src.pick(&ALL);
            }
        }
        if matches!(op, "mul" | "fma") && self.src.chance(ONE_PATH) {
            let k = self.src.below(2) as usize;
            cls[k] = self.src.pick(&[MaybeZero, MaybeInf]);
        }
        let ops: Vec<String> = cls.iter().map(|&c| self.nz_operand(c)).collect();
        let d = self.fresh(RC::F32);
        let m = if rnd.is_empty() {
            String::new()
        } else {
            format!(".{rnd}")
        };
        self.ins(format!("{op}{m}.f32 {d}, {}", ops.join(", ")));
        self.define(d);
    }

    /// A thread-varying predicate (bit `k` of the global thread id).
    fn nz_pred(&mut self) -> super::emit::Reg {
        let gtid = self.fx().gtid;
        let (t, p) = (self.fresh(RC::B32), self.fresh(RC::Pred));
        let bit = 1u32 << self.src.below(2);
        self.ins(format!("and.b32 {t}, {gtid}, {bit}"));
        self.ins(format!("setp.ne.u32 {p}, {t}, 0"));
        p
    }

    /// A constant of the class (`Finite`: 1.0 or -2.5, subnormal or
    /// FLT_MAX sometimes; `FiniteKnown` alike).
    fn nz_const(&mut self, c: Class) -> &'static str {
        match c {
            Class::PosZero => POS_ZERO,
            Class::NegZero => NEG_ZERO,
            Class::PosInf => POS_INF,
            Class::NegInf => NEG_INF,
            Class::Nan => self.src.pick(&[NAN, NAN2]),
            _ => self.src.pick(&[ONE, ONE, MINUS_TWO_HALF, TINY, BIG]),
        }
    }

    /// Two definitions of one register meeting at its use: `selp`, a
    /// guarded overwrite, or a branch diamond.
    fn nz_two_defs(&mut self, a: &str, b: &str) -> String {
        let r = self.fresh(RC::F32);
        let p = self.nz_pred();
        match self.src.below(3) {
            0 => self.ins(format!("selp.f32 {r}, {a}, {b}, {p}")),
            1 => {
                self.ins(format!("mov.f32 {r}, {a}"));
                self.ins(format!("@{p} mov.f32 {r}, {b}"));
            }
            _ => {
                let (other, join) = (self.new_label("nz_else"), self.new_label("nz_join"));
                self.ins(format!("@{p} bra {other}"));
                self.ins(format!("mov.f32 {r}, {a}"));
                self.ins(format!("bra.uni {join}"));
                self.label(&other);
                self.ins(format!("mov.f32 {r}, {b}"));
                self.label(&join);
            }
        }
        r.to_string()
    }

    /// An f32 converted from an input integer masked to -1..2.
    fn nz_converted(&mut self) -> String {
        let x = self.reg_of(VType::U32);
        let (t, f) = (self.fresh(RC::B32), self.fresh(RC::F32));
        self.ins(format!("and.b32 {t}, {x}, 3"));
        self.ins(format!("sub.s32 {t}, {t}, 1"));
        self.ins(format!("cvt.rn.f32.s32 {f}, {t}"));
        f.to_string()
    }

    /// An operand of class `c`, made one of the module's ways.
    fn nz_operand(&mut self, c: Class) -> String {
        match c {
            Class::Unknown => self.reg_of(VType::F32).to_string(),
            Class::Finite => {
                if self.src.chance(0.7) {
                    self.nz_converted()
                } else {
                    // Two finite values of unknown sign meeting.
                    self.nz_two_defs(ONE, MINUS_TWO_HALF)
                }
            }
            Class::NegFinite => {
                let a = self.nz_converted();
                let r = self.fresh(RC::F32);
                self.ins(format!("neg.f32 {r}, {a}"));
                r.to_string()
            }
            Class::NotNanMaybeNegZero => match self.src.below(3) {
                0 => self.nz_two_defs(NEG_ZERO, ONE),
                1 => {
                    let a = self.nz_converted();
                    let x = self.reg_of(VType::F32);
                    let r = self.fresh(RC::F32);
                    let op = self.src.pick(&["min", "max"]);
                    self.ins(format!("{op}.f32 {r}, {x}, {a}"));
                    r.to_string()
                }
                _ => self.nz_two_defs(NEG_ZERO, POS_ZERO),
            },
            Class::MaybeZero => {
                let z = self.src.pick(&[POS_ZERO, NEG_ZERO]);
                let x = self.src.pick(&[ONE, MINUS_TWO_HALF]);
                if self.src.chance(0.5) {
                    self.nz_two_defs(z, x)
                } else {
                    self.nz_two_defs(x, z)
                }
            }
            Class::MaybeInf => {
                let i = self.src.pick(&[POS_INF, NEG_INF]);
                let x = self.src.pick(&[ONE, MINUS_TWO_HALF, POS_ZERO]);
                if self.src.chance(0.5) {
                    self.nz_two_defs(i, x)
                } else {
                    self.nz_two_defs(x, i)
                }
            }
            Class::AnyZero => {
                let (a, b) = if self.src.chance(0.5) {
                    (POS_ZERO, NEG_ZERO)
                } else {
                    (NEG_ZERO, POS_ZERO)
                };
                self.nz_two_defs(a, b)
            }
            _ => {
                let k = self.nz_const(c);
                match self.src.below(4) {
                    0 => k.to_string(),
                    1 => {
                        let r = self.fresh(RC::F32);
                        self.ins(format!("mov.f32 {r}, {k}"));
                        r.to_string()
                    }
                    2 if c == Class::Nan => {
                        // NaN on one path, zero on the other: only the
                        // path the fold reads decides.
                        let z = self.src.pick(&[POS_ZERO, NEG_ZERO]);
                        self.nz_two_defs(k, z)
                    }
                    _ => {
                        let k2 = if c == Class::Nan { self.nz_const(c) } else { k };
                        self.nz_two_defs(k, k2)
                    }
                }
            }
        }
    }
}
