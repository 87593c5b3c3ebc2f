//! OptimizeNaNOrZero (145; docs/MODEL.md, OptimizeNaNOrZero): replaces an f32
//! `FADD`/`FMUL`/`FFMA`/`FMNMX` whose result is known from facts about its
//! operands by a `MOV` of that result (a constant or one operand).
//!
//! The facts ([`Facts`]) of a register unit are the meet over every
//! instruction that defines it (the IR is not SSA: several definitions,
//! guarded partial ones; whichever definition a read sees, the value has
//! the facts of all of them). They are solved optimistically (units start
//! unknown-but-consistent and fall until stable, as in sparse conditional
//! constant propagation), which is sound because every transfer is exact
//! given its inputs' facts: by induction over execution, each value
//! written satisfies its definition's facts. A unit live on entry to the
//! function (parameters in physical registers, the stack pointer, reads
//! before any write) knows nothing. The transfers: constants (`MOV` of an
//! immediate, `RZ`), copies (`MOV`), `I2F`/`I2FP` to f32 (finite, never -0),
//! `FSEL` (one of its operands), `FMNMX` (one of its operands; two NaNs
//! give the canonical NaN), and the folds below. Nothing else.
//!
//! The folds (IEEE 754 and this compiler's float model: every f32 NaN
//! result is the canonical 0x7fffffff, `ptxc::float::nan`), refused when a
//! NaN, an infinity or a signed zero could change the result:
//!
//! | instruction | known | result |
//! |---|---|---|
//! | `FADD`/`FMUL`/`FFMA` | an operand is NaN | canonical NaN |
//! | `FMUL`/`FFMA` | `0 * inf` (either order) | canonical NaN |
//! | `FADD` | `+inf + -inf` | canonical NaN |
//! | `FMUL` | `±0 * finite`, both signs known | `±0` (exact; rounding cannot matter) |
//! | `FADD x, -0` | x not NaN, not `.RM` | x (`+0 + -0 = +0` except in `.RM`) |
//! | `FADD x, +0` | x not NaN and not -0 | x (`-0 + +0 = +0`) |
//! | `FADD ±0, ±0` | both signs | the IEEE sum of zeros (`-0` only for `-0 + -0`, or mixed signs in `.RM`) |
//! | `FFMA a, b, c` | `a*b = ±0` (zero times finite), c = +0, not `.RM` | +0: the zero accumulator stays zero |
//! | `FFMA a, b, c` | `a*b = ±0`, c not NaN and not -0, not `.RM` | c |
//! | `FFMA a, b, c` | `a*b = -0` (signs known), c not NaN, not `.RM` | c |
//! | `FMNMX NaN, x` | x not NaN | x (min/max discard one NaN) |
//! | `FMNMX NaN, NaN` | | canonical NaN |
//!
//! Instructions with `.FTZ` or `.SAT` (which flush or clamp even an exact
//! result), `FMUL`'s scale modifiers, `FMNMX.NAN`/`.XORSIGN`, and copies
//! of an operand carrying `-`/`|..|` are never folded. A guarded
//! instruction folds to a guarded `MOV` (the same partial definition).
//! Functions with an instruction whose definitions the opcode table does
//! not model (`*` shapes, `UNDECODED`) are left alone: a definition the
//! analysis cannot see would make the meet unsound.
//!
//! The gate (docs/MODEL.md, GEMM gate: the pass is enabled "when the scheduler detects a
//! CUTLASS-style GEMM pattern"): the function must have a GEMM main loop
//! ([`super::gemm`]). DECISION: off at -O0 and NvOpt level 0; NvOpt level
//! 5 (the most aggressive) runs it without the GEMM gate.

use std::collections::BTreeMap;

use super::gemm;
use super::phase::{Phase, PhaseContext, PhaseError, Rule, RuleCounts};
use crate::float::nan::canonical_nan;
use crate::float::FloatType;
use crate::ir::cfg::Cfg;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{self, FloatImmType, Reg};
use crate::ir::{Function, Inst, Op, Operand};

const NEG_ZERO: u32 = 0x8000_0000;

fn canonical() -> u32 {
    canonical_nan(FloatType::F32) as u32
}

fn is_inf(b: u32) -> bool {
    b & 0x7fff_ffff == 0x7f80_0000
}

/// What is known about a 32-bit value read as an f32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// The exact bits.
    pub bits: Option<u32>,
    /// +0 or -0.
    pub zero: bool,
    /// Neither NaN nor infinite.
    pub finite: bool,
    pub not_nan: bool,
    pub not_neg_zero: bool,
}

impl Facts {
    pub const NONE: Facts = Facts {
        bits: None,
        zero: false,
        finite: false,
        not_nan: false,
        not_neg_zero: false,
    };

    pub fn of_bits(b: u32) -> Facts {
        Facts {
            bits: Some(b),
            zero: b & 0x7fff_ffff == 0,
            finite: b & 0x7f80_0000 != 0x7f80_0000,
            not_nan: !FloatType::F32.is_nan(u64::from(b)),
            not_neg_zero: b != NEG_ZERO,
        }
    }

    /// What holds of both.
    pub fn meet(self, o: Facts) -> Facts {
        Facts {
            bits: if self.bits == o.bits { self.bits } else { None },
            zero: self.zero && o.zero,
            finite: self.finite && o.finite,
            not_nan: self.not_nan && o.not_nan,
            not_neg_zero: self.not_neg_zero && o.not_neg_zero,
        }
    }

    /// The sign bit, when known.
    fn sign(self) -> Option<bool> {
        match self.bits {
            Some(b) => Some(b & NEG_ZERO != 0),
            None if self.zero && self.not_neg_zero => Some(false),
            None => None,
        }
    }

    fn nan(self) -> bool {
        self.bits
            .is_some_and(|b| FloatType::F32.is_nan(u64::from(b)))
    }

    fn inf(self) -> bool {
        self.bits.is_some_and(is_inf)
    }

    fn neg(self) -> Facts {
        match self.bits {
            Some(b) => Facts::of_bits(b ^ NEG_ZERO),
            None => Facts {
                not_neg_zero: false,
                ..self
            },
        }
    }

    fn abs(self) -> Facts {
        match self.bits {
            Some(b) => Facts::of_bits(b & 0x7fff_ffff),
            None => Facts {
                not_neg_zero: true,
                ..self
            },
        }
    }
}

/// The f32 bits of a float immediate as the SASS text spells it (`0.5`,
/// `-INF`, `+QNAN`): the simulator's reading
/// ([`sass_text::float_imm_bits`]), trailing blanks ignored.
pub fn float_imm_bits(t: &str) -> Option<u32> {
    sass_text::float_imm_bits(t.trim_end(), FloatImmType::F32)
        .ok()
        .map(|b| b as u32)
}

/// The fact lattice's states while solving: `None` is "not reached yet"
/// (the optimistic top).
type State = BTreeMap<RegUnit, Option<Facts>>;

/// The facts of a 32-bit source operand with its modifiers applied; `None`
/// while an input is still top.
fn operand_facts(o: &Operand, st: &State) -> Option<Facts> {
    let (base, neg, abs) = match o {
        Operand::Reg(r) => {
            let f = match r.reg {
                Reg::Rz | Reg::Urz => Facts::of_bits(0),
                reg => match RegUnit::of_reg(reg, 0).and_then(|u| st.get(&u)) {
                    Some(s) => (*s)?,
                    None => Facts::NONE,
                },
            };
            if r.not || r.sel.is_some() {
                return Some(Facts::NONE);
            }
            (f, r.neg, r.abs)
        }
        Operand::Imm(v) => (Facts::of_bits(*v as u32), false, false),
        Operand::FloatImm(t) => match float_imm_bits(t) {
            Some(b) => (Facts::of_bits(b), false, false),
            None => (Facts::NONE, false, false),
        },
        _ => (Facts::NONE, false, false),
    };
    let f = if abs { base.abs() } else { base };
    Some(if neg { f.neg() } else { f })
}

/// A fold: the instruction's result is this constant, or this source
/// operand (an operand index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    Const(u32),
    Copy(usize),
}

/// Whether the operand can be copied by a `MOV` as is (no float source
/// modifier to apply).
fn plain(o: &Operand) -> bool {
    match o {
        Operand::Reg(r) => !r.neg && !r.abs && !r.not && r.sel.is_none(),
        Operand::Const(c) => !c.neg && !c.abs && !c.not,
        Operand::Imm(_) | Operand::FloatImm(_) => true,
        _ => false,
    }
}

/// The IEEE sum of two zeros of known signs.
fn zero_sum(a_neg: bool, b_neg: bool, rm: bool) -> u32 {
    if (a_neg && b_neg) || (a_neg != b_neg && rm) {
        NEG_ZERO
    } else {
        0
    }
}

/// The rewrite rules (module table), one row each: the one source of the
/// names `--phase-stats` and `ptxdiff run --stats` count under. A rule's
/// index here is what [`fold_with`] returns with its fold.
pub const RULES: &[Rule] = &[
    Rule {
        name: "nan-operand",
        does: "FADD/FMUL/FFMA with an operand known NaN -> canonical NaN",
    },
    Rule {
        name: "zero-times-inf",
        does: "FMUL/FFMA whose factors are a zero and an infinity -> canonical NaN",
    },
    Rule {
        name: "inf-minus-inf",
        does: "FADD of two infinities of opposite signs -> canonical NaN",
    },
    Rule {
        name: "mul-zero",
        does: "FMUL of a zero and a finite value, both signs known -> signed zero",
    },
    Rule {
        name: "add-zeros",
        does: "FADD of two zeros of known signs -> their IEEE sum",
    },
    Rule {
        name: "add-neg-zero",
        does: "FADD x, -0 with x not NaN, not .RM -> x",
    },
    Rule {
        name: "add-pos-zero",
        does: "FADD x, +0 with x neither NaN nor -0 -> x",
    },
    Rule {
        name: "fma-zero-sum",
        does: "FFMA with a zero product and a zero addend, all signs known -> their IEEE sum",
    },
    Rule {
        name: "fma-pos-zero-acc",
        does: "FFMA with a zero product (sign unknown) and addend +0, not .RM -> +0",
    },
    Rule {
        name: "fma-acc",
        does: "FFMA with a zero product and an addend neither NaN nor -0, not .RM -> addend",
    },
    Rule {
        name: "fma-neg-product",
        does: "FFMA with a product known -0 and an addend not NaN, not .RM -> addend",
    },
    Rule {
        name: "minmax-nans",
        does: "FMNMX of two NaNs -> canonical NaN",
    },
    Rule {
        name: "minmax-nan",
        does: "FMNMX of a NaN and a value not NaN -> that value",
    },
];

const NAN_OPERAND: usize = 0;
const ZERO_TIMES_INF: usize = 1;
const INF_MINUS_INF: usize = 2;
const MUL_ZERO: usize = 3;
const ADD_ZEROS: usize = 4;
const ADD_NEG_ZERO: usize = 5;
const ADD_POS_ZERO: usize = 6;
const FMA_ZERO_SUM: usize = 7;
const FMA_POS_ZERO_ACC: usize = 8;
const FMA_ACC: usize = 9;
const FMA_NEG_PRODUCT: usize = 10;
const MINMAX_NANS: usize = 11;
const MINMAX_NAN: usize = 12;

/// The fold of `i` under the facts, if any, with the index of its rule in
/// [`RULES`]. `Err(())` while an input is still top (no decision yet).
fn fold_with(i: &Inst, st: &State) -> Result<Option<(usize, Fold)>, ()> {
    if !matches!(i.op, Op::FADD | Op::FMUL | Op::FFMA | Op::FMNMX) || i.ndst != 1 {
        return Ok(None);
    }
    let rm = i.has_mod("RM");
    let rounding_only = i
        .mods
        .iter()
        .all(|m| matches!(*m, "RN" | "RZ" | "RM" | "RP"));
    if !rounding_only || (i.op == Op::FMNMX && !i.mods.is_empty()) {
        return Ok(None);
    }
    let s = i.srcs();
    let f: Vec<Facts> = s
        .iter()
        .take(if i.op == Op::FFMA { 3 } else { 2 })
        .map(|o| operand_facts(o, st).ok_or(()))
        .collect::<Result<_, _>>()?;
    let nd = i.ndst as usize;
    let copy = |rule: usize, k: usize| -> Option<(usize, Fold)> {
        match f[k].bits {
            Some(b) => Some((rule, Fold::Const(b))),
            None => plain(&s[k]).then_some((rule, Fold::Copy(nd + k))),
        }
    };
    let nan = |rule: usize| Some((rule, Fold::Const(canonical())));
    let konst = |rule: usize, b: u32| Some((rule, Fold::Const(b)));
    Ok(match i.op {
        Op::FMNMX => {
            if f[0].nan() && f[1].nan() {
                nan(MINMAX_NANS)
            } else if f[0].nan() && f[1].not_nan {
                copy(MINMAX_NAN, 1)
            } else if f[1].nan() && f[0].not_nan {
                copy(MINMAX_NAN, 0)
            } else {
                None
            }
        }
        _ if f.iter().any(|x| x.nan()) => nan(NAN_OPERAND),
        Op::FMUL | Op::FFMA if (f[0].zero && f[1].inf()) || (f[1].zero && f[0].inf()) => {
            nan(ZERO_TIMES_INF)
        }
        Op::FADD => {
            if f[0].inf() && f[1].inf() && f[0].bits != f[1].bits {
                nan(INF_MINUS_INF)
            } else if let (true, true, Some(sa), Some(sb)) =
                (f[0].zero, f[1].zero, f[0].sign(), f[1].sign())
            {
                konst(ADD_ZEROS, zero_sum(sa, sb, rm))
            } else {
                let mut r = None;
                for (x, y) in [(0, 1), (1, 0)] {
                    let minus_zero = f[y].bits == Some(NEG_ZERO) && !rm && f[x].not_nan;
                    let plus_zero = f[y].bits == Some(0) && f[x].not_nan && f[x].not_neg_zero;
                    if minus_zero || plus_zero {
                        r = copy(
                            if minus_zero {
                                ADD_NEG_ZERO
                            } else {
                                ADD_POS_ZERO
                            },
                            x,
                        );
                        break;
                    }
                }
                r
            }
        }
        Op::FMUL | Op::FFMA => {
            let zero_product = (f[0].zero && f[1].finite) || (f[1].zero && f[0].finite);
            if !zero_product {
                None
            } else {
                let psign = match (f[0].sign(), f[1].sign()) {
                    (Some(a), Some(b)) => Some(a != b),
                    _ => None,
                };
                if i.op == Op::FMUL {
                    psign.and_then(|n| konst(MUL_ZERO, if n { NEG_ZERO } else { 0 }))
                } else {
                    let c = f[2];
                    match (psign, c.zero, c.sign()) {
                        (Some(pn), true, Some(cn)) => konst(FMA_ZERO_SUM, zero_sum(pn, cn, rm)),
                        _ if c.bits == Some(0) && !rm => konst(FMA_POS_ZERO_ACC, 0),
                        _ if c.not_nan && c.not_neg_zero && !rm => copy(FMA_ACC, 2),
                        (Some(true), _, _) if c.not_nan && !rm => copy(FMA_NEG_PRODUCT, 2),
                        _ => None,
                    }
                }
            }
        }
        _ => None,
    })
}

/// The facts a definition gives its (single, 32-bit) destination; `None`
/// while an input is top.
fn transfer(i: &Inst, st: &State) -> Option<Facts> {
    let s = i.srcs();
    match i.op {
        Op::MOV if plain(&s[0]) || matches!(s[0], Operand::Reg(_)) => operand_facts(&s[0], st),
        // I2F, and sm_86+'s I2FP.F32.S32/U32: an integer of at most 64 bits
        // is finite as an f32 (|v| < 2^64 < FLT_MAX) and 0 converts to +0.
        Op::I2F | Op::I2FP => {
            let other_dst = i.mods.iter().any(|m| matches!(*m, "F64" | "F16"))
                || (i.op == Op::I2FP && !i.has_mod("F32"));
            Some(if other_dst {
                Facts::NONE
            } else {
                Facts {
                    bits: None,
                    zero: false,
                    finite: true,
                    not_nan: true,
                    not_neg_zero: true,
                }
            })
        }
        Op::FSEL => Some(operand_facts(&s[0], st)?.meet(operand_facts(&s[1], st)?)),
        Op::FMNMX if i.mods.is_empty() => {
            let (a, b) = (operand_facts(&s[0], st)?, operand_facts(&s[1], st)?);
            Some(if a.nan() && b.nan() {
                Facts::of_bits(canonical())
            } else if a.nan() {
                b
            } else if b.nan() {
                a
            } else {
                Facts {
                    not_nan: a.not_nan || b.not_nan,
                    ..a.meet(b)
                }
            })
        }
        _ => match fold_with(i, st) {
            Err(()) => None,
            Ok(Some((_, Fold::Const(b)))) => Some(Facts::of_bits(b)),
            Ok(Some((_, Fold::Copy(k)))) => operand_facts(&i.operands[k], st),
            Ok(None) => Some(Facts::NONE),
        },
    }
}

/// Solves the facts of every register unit of `f` (`None` where the
/// function has an instruction whose definitions are not modelled).
pub fn solve(f: &Function) -> Option<BTreeMap<RegUnit, Facts>> {
    if f.insts()
        .any(|i| i.op == Op::UNDECODED || !i.op.info().is_modelled())
    {
        return None;
    }
    let cfg = Cfg::new(f);
    let live = crate::ir::analysis_cache::liveness(f);
    // Definitions per unit: the instruction, or None when it defines the
    // unit some other way than as a lone 32-bit destination.
    let mut defs: BTreeMap<RegUnit, Vec<Option<&Inst>>> = BTreeMap::new();
    for i in f.insts() {
        let d = regs::defs(i);
        let lone = i.ndst == 1 && d.len() == 1;
        for u in d {
            defs.entry(u).or_default().push(lone.then_some(i));
        }
    }
    let mut st: State = defs.keys().map(|&u| (u, None)).collect();
    for &r in &cfg.roots {
        for u in live.units_sorted(live.live_in(r)) {
            st.insert(u, Some(Facts::NONE));
        }
    }
    loop {
        let mut changed = false;
        for (u, ds) in &defs {
            if st[u] == Some(Facts::NONE) {
                continue;
            }
            let mut acc: Option<Facts> = None;
            for d in ds {
                let t = match d {
                    Some(i) => transfer(i, &st),
                    None => Some(Facts::NONE),
                };
                if let Some(t) = t {
                    acc = Some(acc.map_or(t, |a| a.meet(t)));
                }
            }
            if let Some(acc) = acc {
                // Falls monotonically: meet with the old state.
                let new = match st[u] {
                    Some(old) => old.meet(acc),
                    None => acc,
                };
                if Some(new) != st[u] {
                    st.insert(*u, Some(new));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Some(
        st.into_iter()
            .map(|(u, s)| (u, s.unwrap_or(Facts::NONE)))
            .collect(),
    )
}

/// Applies every fold in `f`; returns how many instructions were
/// rewritten.
pub fn optimize(f: &mut Function) -> usize {
    optimize_by_rule(f).total()
}

/// Applies every fold in `f`; returns how many instructions each rule of
/// [`RULES`] rewrote.
pub fn optimize_by_rule(f: &mut Function) -> RuleCounts {
    let mut n = RuleCounts::new(RULES);
    let Some(facts) = solve(f) else {
        return n;
    };
    let st: State = facts.into_iter().map(|(u, x)| (u, Some(x))).collect();
    for b in &mut f.blocks {
        for i in &mut b.insts {
            let Ok(Some((rule, fold))) = fold_with(i, &st) else {
                continue;
            };
            let src = match fold {
                Fold::Const(bits) => Operand::Imm(i64::from(bits)),
                Fold::Copy(k) => {
                    let mut o = i.operands[k].clone();
                    // An operand-reuse hint belongs to the old instruction.
                    if let Operand::Reg(r) = &mut o {
                        r.reuse = false;
                    }
                    o
                }
            };
            let dst = i.operands[0].clone();
            if let Ok(m) = Inst::new(Op::MOV, &[], i.guard, [dst, src]) {
                *i = m;
                n.add(rule);
            }
        }
    }
    n
}

/// The phase.
pub struct OptimizeNaNOrZero {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub enabled: bool,
    /// Run without the GEMM gate (NvOpt level 5).
    pub ungated: bool,
}

impl Phase for OptimizeNaNOrZero {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        if !self.ungated && gemm::gemm_loops(&cx.function).is_empty() {
            return Ok(());
        }
        let n = optimize_by_rule(&mut cx.function);
        cx.fire_rules(self.index, RULES, &n.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
