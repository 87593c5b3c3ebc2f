//! Integer statements: 32-bit (`int`) and 64-bit (`int64`) arithmetic,
//! logic, shifts and bit operations.
//!
//! Defined by construction:
//! - `div`/`rem` divisors are `b | 1`, never 0 (PTX ISA 9.7.1.8: the
//!   quotient by 0 is unspecified; the interpreter reports it as UB).
//!   `INT_MIN / -1` stays possible: the interpreter defines it (project
//!   notes, `ptxc::int::div`) and it is a good corner case.
//! - Shift amounts, `bfe`/`bfi` positions and lengths may be anything: PTX
//!   clamps them (9.7.1.21-23, 9.7.8.x), so every value is defined. An
//!   immediate position or length stays in 0..=255, the range ptxas
//!   accepts (values above 32 still exercise the clamping).

use super::emit::{Gen, RC};
use super::features::VType;

const BIN32: &[&str] = &[
    "add", "sub", "mul.lo", "mul.hi", "min", "max", "and", "or", "xor", "shl", "shr", "div", "rem",
    "mul24.lo",
];
const UN32: &[&str] = &["not", "neg", "abs", "popc", "clz", "brev", "bfind", "cnot"];
const TERN32: &[&str] = &[
    "mad.lo",
    "bfe",
    "bfi",
    "prmt",
    "lop3",
    "shf.l.wrap",
    "shf.r.clamp",
];

impl Gen<'_, '_, '_> {
    /// One 32-bit integer statement.
    pub fn int32_stmt(&mut self) {
        let t = self.int32_type();
        let tn = t.name();
        let kind = self.src.below(10);
        if kind < 6 {
            let op = self.src.pick(BIN32);
            let a = self.reg_of(t);
            let mut b = self.second_opnd(t, a);
            let suffix = match op {
                "and" | "or" | "xor" | "shl" => "b32".to_string(),
                _ => tn.to_string(),
            };
            if op == "div" || op == "rem" {
                let g = self.fresh(RC::B32);
                self.ins(format!("or.b32 {g}, {b}, 1"));
                b = g.to_string();
            }
            let d = self.dest(RC::B32);
            self.ins_def(d, format!("{op}.{suffix} {}, {a}, {b}", d.0));
        } else if kind < 8 {
            let op = self.src.pick(UN32);
            let a = self.reg_of(t);
            let suffix = match op {
                "not" | "popc" | "clz" | "brev" | "cnot" => "b32",
                "neg" | "abs" => "s32",
                _ => tn,
            };
            let d = self.dest(RC::B32);
            self.ins_def(d, format!("{op}.{suffix} {}, {a}", d.0));
        } else {
            let op = self.src.pick(TERN32);
            let a = self.reg_of(t);
            let b = self.second_opnd(t, a);
            let c = self.opnd(t);
            let d = self.dest(RC::B32);
            let text = match op {
                "mad.lo" => format!("mad.lo.{tn} {}, {a}, {b}, {c}", d.0),
                "bfe" => {
                    let (b, c) = (self.field_opnd(b), self.field_opnd(c));
                    format!("bfe.{tn} {}, {a}, {b}, {c}", d.0)
                }
                "bfi" => {
                    let e = self.opnd(t);
                    let (c, e) = (self.field_opnd(c), self.field_opnd(e));
                    format!("bfi.b32 {}, {a}, {b}, {c}, {e}", d.0)
                }
                "prmt" => format!("prmt.b32 {}, {a}, {b}, {c}", d.0),
                "lop3" => {
                    let lut = self.src.below(256);
                    format!("lop3.b32 {}, {a}, {b}, {c}, {lut}", d.0)
                }
                other => format!("{other}.b32 {}, {a}, {b}, {c}", d.0),
            };
            self.ins_def(d, text);
        }
    }

    /// 64-bit integer type to use.
    pub fn int64_type(&mut self) -> Option<VType> {
        let ts: Vec<VType> = [VType::U64, VType::S64]
            .into_iter()
            .filter(|&t| self.fs.has_type(t))
            .collect();
        if ts.is_empty() {
            None
        } else {
            Some(self.src.pick(&ts))
        }
    }

    /// One 64-bit integer statement (with `int64` and a 64-bit type).
    pub fn int64_stmt(&mut self) {
        let Some(t) = self.int64_type() else { return };
        let tn = t.name();
        match self.src.below(6) {
            0 => {
                // mul.wide from 32-bit operands
                let t32 = if t == VType::S64 { "s32" } else { "u32" };
                let a = self.reg_of(VType::U32);
                let b = self.second_opnd(VType::U32, a);
                let d = self.dest(RC::B64);
                self.ins_def(d, format!("mul.wide.{t32} {}, {a}, {b}", d.0));
            }
            1 => {
                // shifts take a 32-bit amount
                let op = self.src.pick(&[
                    "shl.b64",
                    if t == VType::S64 {
                        "shr.s64"
                    } else {
                        "shr.u64"
                    },
                ]);
                let a = self.reg_of(t);
                let b = self.opnd(VType::U32);
                let d = self.dest(RC::B64);
                self.ins_def(d, format!("{op} {}, {a}, {b}", d.0));
            }
            2 => {
                let op = self.src.pick(&[
                    "not.b64", "neg.s64", "abs.s64", "popc.b64", "clz.b64", "brev.b64",
                ]);
                let a = self.reg_of(t);
                if op.starts_with("popc") || op.starts_with("clz") {
                    let d = self.dest(RC::B32);
                    self.ins_def(d, format!("{op} {}, {a}", d.0));
                } else {
                    let d = self.dest(RC::B64);
                    self.ins_def(d, format!("{op} {}, {a}", d.0));
                }
            }
            3 => {
                let a = self.reg_of(t);
                let b = self.second_opnd(t, a);
                let c = self.opnd(t);
                let d = self.dest(RC::B64);
                self.ins_def(d, format!("mad.lo.{tn} {}, {a}, {b}, {c}", d.0));
            }
            _ => {
                let op = self.src.pick(&[
                    "add", "sub", "mul.lo", "mul.hi", "min", "max", "and", "or", "xor", "div",
                    "rem",
                ]);
                let suffix = match op {
                    "and" | "or" | "xor" => "b64",
                    _ => tn,
                };
                let a = self.reg_of(t);
                let mut b = self.second_opnd(t, a);
                if op == "div" || op == "rem" {
                    let g = self.fresh(RC::B64);
                    self.ins(format!("or.b64 {g}, {b}, 1"));
                    b = g.to_string();
                }
                let d = self.dest(RC::B64);
                self.ins_def(d, format!("{op}.{suffix} {}, {a}, {b}", d.0));
            }
        }
    }
}

impl Gen<'_, '_, '_> {
    /// A `bfe`/`bfi` position or length: a register as drawn, an immediate
    /// reduced to its low 8 bits (what the hardware uses; ptxas rejects
    /// immediates above 255).
    fn field_opnd(&mut self, o: String) -> String {
        match parse_int(&o) {
            Some(v) => (v & 0xff).to_string(),
            None => o,
        }
    }
}

/// The value of an integer immediate as the generator prints it (decimal,
/// possibly negative, or `0x` hex).
fn parse_int(s: &str) -> Option<i64> {
    if let Some(h) = s.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok();
    }
    s.parse::<i64>().ok()
}
