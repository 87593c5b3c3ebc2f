//! Induction-variable loops (`loop`): the loop shapes ptxc's loop phases
//! take (OriLoopSimplification, OriStrengthReduce, OriLoopUnrolling, the
//! OriHoistInvariants phases and HoistInvariants; compiler/src/phases/),
//! with every integer operation applied to the induction variable:
//! `mul.lo/hi`, `mad.lo/hi`, `mul.wide`, `mad.wide` (`.u32`, `.s32`),
//! `shl`, `shr`, `add`/`sub` of 32 and 64 bits, on 32- and 64-bit
//! counters, plus pointer increments (address IVs), loop-invariant loads
//! and computations, and early exits.
//!
//! Shapes:
//! - bottom-tested (`do { } while`): one block when the body has no
//!   early exit, a constant trip count and a step of +-1/+-2: the counted
//!   loop OriLoopUnrolling unrolls and OriStrengthReduce reduces;
//! - top-tested (`while`): the exit test at the header, the body a block
//!   whose only predecessor is the header, the back edge `bra.uni` (an
//!   unconditional branch: every active thread takes it, PTX ISA, bra):
//!   the shape OriStrengthReduce's wide rule needs (strength_reduce.rs,
//!   "Wide products");
//! - counters start at 0, at small values, or next to a wrap point
//!   (0x7ffffffe, 0xfffffffe; 0xfffffffe and 0x7ffffffffffffffe for 64-bit
//!   counters): an IV crossing INT_MAX is where `sext(i)` stops being
//!   linear.
//!
//! Termination and definedness by construction:
//! - the counter (and the address IV) is written only by its increment;
//!   the exit test compares it with `end = init + n*step` (wrapping) by
//!   `ne`, which stops after exactly `n` increments since
//!   `|step| * n < 2^32`, or by `lt`/`gt` (signed or unsigned) only when
//!   the host arithmetic below shows no increment up to `n` wraps in that
//!   signedness; `n <= loop_trip` (a constant, or `rem.u32 v, max` + 1
//!   for a thread-dependent count);
//! - address IVs start at an element index `idx0 = v & (len/2 - 1)` and
//!   advance by `s` elements, `s * loop_trip <= len/2`, so every element
//!   read is in its input buffer; indices from the counter itself are
//!   used only when `init + loop_trip*step <= len`;
//! - accumulators are fresh registers defined before the loop (the
//!   values the body folds in stay observable after it); temporaries are
//!   fresh and leave the pool with the loop's scope;
//! - an early exit or a thread-dependent trip count makes the body
//!   divergent (`diverged`), so no warp operation or barrier is nested in
//!   it.

use super::emit::{Gen, Reg, RC};
use super::features::VType;

/// An induction variable's register and width.
#[derive(Clone, Copy)]
struct Iv {
    reg: Reg,
    wide: bool,
}

/// Immediate multipliers: small, powers of two, negative, large.
const MULS: &[i64] = &[3, 4, 7, 16, -1, -8, 0x10001, 0x7fffffff, -0x80000000];

impl Gen<'_, '_, '_> {
    /// One induction-variable loop.
    pub fn iv_loop_stmt(&mut self) {
        let max = self.cfg.sizes.loop_trip.max(1);
        let wide = self.src.chance(0.25);
        let step: i64 = self.src.pick(&[1, 1, 1, 2, -1, -2]);
        let init: u64 = match self.src.below(4) {
            0 | 1 => 0,
            2 => u64::from(self.src.below(4)),
            _ if wide => self.src.pick(&[0xffff_fffe, 0x7fff_ffff_ffff_fffe]),
            _ => self.src.pick(&[0x7fff_fffe, 0xffff_fffe]),
        };
        let top_tested = self.src.chance(0.4);
        let divergent_trip =
            self.in_func || self.src.chance(self.cfg.probabilities.divergent * 0.4);
        let early_exit = self.src.chance(0.2);
        let bits = if wide { 64 } else { 32 };

        // accumulators, before the loop
        let acc = self.fresh(RC::B32);
        let seed = self.reg_of(VType::U32);
        self.ins(format!("mov.b32 {acc}, {seed}"));
        self.define(acc);
        let acc64 = self.fresh(RC::B64);
        let seed64 = self.reg_of(VType::U64);
        self.ins(format!("mov.b64 {acc64}, {seed64}"));
        self.define(acc64);

        // trip count and end value
        let (n_max, end) = if divergent_trip && max > 1 {
            let v = self.reg_of(VType::U32);
            let t = self.fresh(RC::B32);
            self.ins(format!("rem.u32 {t}, {v}, {max}"));
            self.ins(format!("add.u32 {t}, {t}, 1"));
            let e = if wide {
                let t64 = self.fresh(RC::B64);
                self.ins(format!("cvt.u64.u32 {t64}, {t}"));
                let e = self.fresh(RC::B64);
                self.ins(format!("mad.lo.s64 {e}, {t64}, {step}, {}", init as i64));
                e
            } else {
                let e = self.fresh(RC::B32);
                self.ins(format!(
                    "mad.lo.s32 {e}, {t}, {step}, {}",
                    init as u32 as i32
                ));
                e
            };
            (max, Some(e.to_string()))
        } else {
            let lo = u32::from(!top_tested);
            (self.src.range(lo, max), None)
        };
        let end_imm = wrap(init as i128 + i128::from(n_max) * i128::from(step), bits);
        let cmp = exit_compare(init, step, n_max, bits, end.is_some(), self.src.below(3));
        let end = end.unwrap_or_else(|| fmt_imm(end_imm, bits, cmp.1));
        let ty = format!("{}{bits}", cmp.1);

        let iv = Iv {
            reg: self.fresh(if wide { RC::B64 } else { RC::B32 }),
            wide,
        };
        let bty = if wide { "b64" } else { "b32" };
        self.ins(format!(
            "mov.{bty} {}, {}",
            iv.reg,
            fmt_imm(init, bits, "u")
        ));

        // address IV: a pointer into the u32 input advanced each trip
        let len = self.cfg.sizes.input_len;
        let strides: Vec<u32> = [1u32, 2, 4]
            .into_iter()
            .filter(|s| s * max <= len / 2)
            .collect();
        let kernel = !self.in_func; // global memory is kernel-only (call.rs)
        let ptr = if kernel && !strides.is_empty() && self.src.chance(0.4) {
            let s = self.src.pick(&strides);
            let idx0 = self.masked_index(len / 2);
            let (base, size) = self.input_base(VType::U32);
            let p = self.elem_addr(base, idx0, size);
            Some((p, s * size))
        } else {
            None
        };
        // a loop-invariant address (hoistable load) and operand
        let inv_addr = if kernel && self.src.chance(0.5) {
            let (base, size) = self.input_base(VType::U32);
            let i = self.masked_index(len);
            Some(self.elem_addr(base, i, size))
        } else {
            None
        };
        // the counter as an index, when it stays in bounds
        let small_iv =
            kernel && !wide && step > 0 && init + u64::from(max) * (step as u64) <= u64::from(len);

        let top = self.new_label("ivloop");
        let exit = self.new_label("ivexit");
        let p = self.fresh(RC::Pred);
        let saved = self.mult;
        let divergent = end_is_reg(&end) || early_exit;
        self.label(&top);
        if top_tested {
            // exit when the loop condition fails
            self.ins(format!(
                "setp.{}.{ty} {p}, {}, {end}",
                cmp.0.negated, iv.reg
            ));
            self.ins(format!("@{p} bra {exit}"));
        }
        self.mult = self.mult.saturating_mul(u64::from(n_max.max(1)));
        self.depth += 1;
        self.diverged += u32::from(divergent);
        self.enter();
        self.define_fixed(iv.reg);
        let n_ops = self.src.range(1, 4);
        for _ in 0..n_ops {
            self.iv_op(iv, acc, acc64, small_iv);
        }
        if let Some(a) = inv_addr {
            let x = self.fresh(RC::B32);
            self.ins(format!("ld.global.u32 {x}, [{a}]"));
            self.ins(format!("add.u32 {acc}, {acc}, {x}"));
        }
        if self.src.chance(0.3) {
            // invariant computation from values defined before the loop
            let a = self.reg_of(VType::U32);
            let b = self.opnd(VType::U32);
            let t = self.fresh(RC::B32);
            let op = self
                .src
                .pick(&["mul.lo.u32", "add.u32", "shl.b32", "xor.b32"]);
            self.ins(format!("{op} {t}, {a}, {b}"));
            self.ins(format!("xor.b32 {acc}, {acc}, {t}"));
        }
        if let Some((ptr, _)) = ptr {
            let x = self.fresh(RC::B32);
            self.ins(format!("ld.global.u32 {x}, [{ptr}]"));
            self.ins(format!("add.u32 {acc}, {acc}, {x}"));
        }
        if early_exit {
            let q = self.fresh(RC::Pred);
            let k = self.src.pick(&[0u32, 1, 3]);
            let m = self.src.pick(&[3u32, 7]);
            let t = self.fresh(RC::B32);
            self.ins(format!("and.b32 {t}, {acc}, {m}"));
            self.ins(format!("setp.eq.u32 {q}, {t}, {k}"));
            self.ins(format!("@{q} bra {exit}"));
        }
        if self.src.chance(0.2) && self.room(8) {
            self.region(2);
        }
        self.leave();
        if let Some((ptr, bytes)) = ptr {
            self.ins(format!("add.s64 {ptr}, {ptr}, {bytes}"));
        }
        let add = if wide { "add.s64" } else { "add.s32" };
        self.ins(format!("{add} {}, {}, {step}", iv.reg, iv.reg));
        if top_tested {
            self.ins(format!("bra.uni {top}"));
        } else {
            self.ins(format!("setp.{}.{ty} {p}, {}, {end}", cmp.0.stay, iv.reg));
            self.ins(format!("@{p} bra {top}"));
        }
        self.label(&exit);
        self.mult = saved;
        self.depth -= 1;
        self.diverged -= u32::from(divergent);
    }

    /// One integer operation on the counter, folded into an accumulator.
    fn iv_op(&mut self, iv: Iv, acc: Reg, acc64: Reg, small_iv: bool) {
        let i = iv.reg;
        if iv.wide {
            let k = self.src.below(6);
            let d = self.fresh(RC::B64);
            let m = self.src.pick(MULS);
            match k {
                0 => self.ins(format!("mul.lo.s64 {d}, {i}, {m}")),
                1 => {
                    let c = self.reg_of(VType::U64);
                    self.ins(format!("mad.lo.u64 {d}, {i}, {}, {c}", m as u64));
                }
                2 => {
                    let s = self.src.below(64);
                    let op = self.src.pick(&["shl.b64", "shr.u64", "shr.s64"]);
                    self.ins(format!("{op} {d}, {i}, {s}"));
                }
                3 => {
                    let m = self.src.pick(&[-1i64, 0x1_0000_0001, i64::MAX, 7]);
                    if self.src.chance(0.5) {
                        self.ins(format!("mul.hi.u64 {d}, {i}, {}", m as u64));
                    } else {
                        self.ins(format!("mul.hi.s64 {d}, {i}, {m}"));
                    }
                }
                4 => {
                    // the low word as a 32-bit counter
                    let lo = self.fresh(RC::B32);
                    self.ins(format!("cvt.u32.u64 {lo}, {i}"));
                    let t = self.fresh(RC::B32);
                    self.ins(format!("mul.lo.u32 {t}, {lo}, {}", m as u32));
                    self.ins(format!("xor.b32 {acc}, {acc}, {t}"));
                    return;
                }
                _ => {
                    let op = self.src.pick(&["add.s64", "sub.s64", "add.u64"]);
                    let b = self.opnd(VType::U64);
                    self.ins(format!("{op} {d}, {i}, {b}"));
                }
            }
            let fold = self.src.pick(&["xor.b64", "add.s64"]);
            self.ins(format!("{fold} {acc64}, {acc64}, {d}"));
            return;
        }
        let m = self.src.pick(MULS) as i32;
        let sg = self.src.pick(&["u32", "s32"]);
        let vt = if sg == "s32" { VType::S32 } else { VType::U32 };
        // the multiplier: an immediate, or a register defined before the loop
        let mr = if self.src.chance(0.25) {
            self.reg_of(VType::U32).to_string()
        } else if sg == "u32" {
            (m as u32).to_string()
        } else {
            m.to_string()
        };
        let wide_out = match self.src.below(12) {
            0 => Some(format!("mul.lo.{sg} {{d}}, {i}, {mr}")),
            1 => {
                let c = self.reg_of(VType::U32);
                Some(format!("mad.lo.{sg} {{d}}, {i}, {mr}, {c}"))
            }
            2 => {
                let s = self.src.below(32);
                Some(format!("shl.b32 {{d}}, {i}, {s}"))
            }
            3 => {
                let s = self.src.below(33);
                Some(format!("shr.{sg} {{d}}, {i}, {s}"))
            }
            4 => Some(format!("mul.hi.{sg} {{d}}, {i}, {mr}")),
            5 => {
                let c = self.opnd(vt);
                Some(format!("mad.hi.{sg} {{d}}, {i}, {mr}, {c}"))
            }
            6 => {
                let op = self.src.pick(&["add", "sub"]);
                let b = self.opnd(vt);
                Some(format!("{op}.{sg} {{d}}, {i}, {b}"))
            }
            7 | 8 => {
                // mul.wide / mad.wide: a 64-bit result
                let d = self.fresh(RC::B64);
                if self.src.chance(0.6) {
                    self.ins(format!("mul.wide.{sg} {d}, {i}, {mr}"));
                } else {
                    let c = self.reg_of(VType::U64);
                    self.ins(format!("mad.wide.{sg} {d}, {i}, {mr}, {c}"));
                }
                let fold = self.src.pick(&["xor.b64", "add.s64"]);
                self.ins(format!("{fold} {acc64}, {acc64}, {d}"));
                None
            }
            9 => {
                // 64-bit add of the widened counter
                let w = self.fresh(RC::B64);
                let cv = if sg == "s32" {
                    "cvt.s64.s32"
                } else {
                    "cvt.u64.u32"
                };
                self.ins(format!("{cv} {w}, {i}"));
                let b = self.reg_of(VType::U64);
                let op = self.src.pick(&["add.s64", "sub.s64"]);
                let d = self.fresh(RC::B64);
                self.ins(format!("{op} {d}, {b}, {w}"));
                self.ins(format!("xor.b64 {acc64}, {acc64}, {d}"));
                None
            }
            _ if small_iv => {
                // the counter as an element index: nvcc's address arithmetic
                let off = self.fresh(RC::B64);
                self.ins(format!("mul.wide.{sg} {off}, {i}, 4"));
                let (base, _) = self.input_base(VType::U32);
                let a = self.fresh(RC::B64);
                self.ins(format!("add.s64 {a}, {base}, {off}"));
                let x = self.fresh(RC::B32);
                self.ins(format!("ld.global.u32 {x}, [{a}]"));
                self.ins(format!("add.u32 {acc}, {acc}, {x}"));
                None
            }
            _ => Some(format!("mad.lo.u32 {{d}}, {i}, {}, 0", m as u32)),
        };
        if let Some(text) = wide_out {
            let d = self.fresh(RC::B32);
            self.ins(text.replace("{d}", &d.to_string()));
            let fold = self.src.pick(&["xor.b32", "add.u32"]);
            self.ins(format!("{fold} {acc}, {acc}, {d}"));
        }
    }
}

/// The exit test of a loop: the comparison that keeps it running (`stay`,
/// at the bottom) and its negation (`negated`, at the top), with the
/// signedness letter of the operand type.
#[derive(Clone, Copy)]
struct Cmp {
    stay: &'static str,
    negated: &'static str,
}

/// Picks the comparison: `ne` always works (see the module comment);
/// `lt`/`gt` only when no increment up to `n` wraps in that signedness.
fn exit_compare(
    init: u64,
    step: i64,
    n: u32,
    bits: u32,
    end_is_reg: bool,
    draw: u32,
) -> (Cmp, &'static str) {
    let ne = (
        Cmp {
            stay: "ne",
            negated: "eq",
        },
        "b",
    );
    if draw == 0 || (end_is_reg && draw == 1) {
        return ne;
    }
    let signed = draw == 2;
    let (lo, hi, start) = if signed {
        let half = 1i128 << (bits - 1);
        let s = if init as i128 >= half {
            init as i128 - (half << 1)
        } else {
            init as i128
        };
        (-half, half - 1, s)
    } else {
        (0, (1i128 << bits) - 1, init as i128)
    };
    let last = start + i128::from(n) * i128::from(step);
    if last < lo || last > hi || n == 0 {
        return ne;
    }
    let sg = if signed { "s" } else { "u" };
    let c = if step > 0 {
        Cmp {
            stay: "lt",
            negated: "ge",
        }
    } else {
        Cmp {
            stay: "gt",
            negated: "le",
        }
    };
    (c, sg)
}

/// `v` reduced to `bits` bits.
fn wrap(v: i128, bits: u32) -> u64 {
    (v.rem_euclid(1i128 << bits)) as u64
}

/// An integer immediate of the width, printed for the signedness (`s`:
/// negative values as such).
fn fmt_imm(v: u64, bits: u32, sg: &str) -> String {
    match (bits, sg) {
        (32, "s") => (v as u32 as i32).to_string(),
        (32, _) => (v as u32).to_string(),
        (_, "s") => (v as i64).to_string(),
        _ => v.to_string(),
    }
}

fn end_is_reg(end: &str) -> bool {
    end.starts_with('%')
}
