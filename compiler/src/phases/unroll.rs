//! OriLoopUnrolling (22): unrolls counted loops whose trip count is known
//! at compile time — fully when it is small, by a factor otherwise, with
//! the remainder iterations peeled into the preheader.
//!
//! A counted loop here is a single-block loop `B` (its own header and
//! latch, falling through to its exit) of the shape the lowering emits for
//! a constant-bound `for`:
//!
//! ```text
//! P:  MOV c, INIT                ; the last definition of c in the preheader
//! B:  ...                        ; c is defined nowhere else in B
//!     IADD3 c, c, STEP, RZ       ; the only definition of c in B
//!     ISETP.CMP[.U32].AND p, PT, c, K, PT   ; the only definition of p
//!     @[!]p BRA B
//! ```
//!
//! (the compare may also stand before the increment, reading the old
//! value; `K` is an immediate or `RZ`). The trip count comes from running
//! the counter with the compare's exact 32-bit semantics (wrapping adds,
//! signed or `.U32` comparison) until the branch falls through, up to
//! 2^16 iterations (more counts as unknown). Every lane of the loop runs
//! the same number of iterations, and the body's instructions run in the
//! same order on every lane, so:
//!
//! - full unrolling replaces `B` by `trips` copies of its body, branch
//!   removed (the block falls through to the old exit);
//! - unrolling by `F` (when `trips >= F`) peels `trips % F` copies of the
//!   body into the preheader (appended after the counter's initialisation)
//!   and makes `B` hold `F` copies followed by the original branch: the
//!   branch at the end of iteration `t` is taken exactly when `t < trips`,
//!   so the branches of the copies that are not the last, which are only
//!   reached at iterations that are not multiples of `F` counted from the
//!   peeled ones, would all be taken, and dropping them changes nothing.
//!
//! Refused: an unknown trip count, a counter or predicate with other
//! definitions in the loop or guarded ones, a preheader that does not end
//! in a plain branch to the loop (or fall into it), loops with control,
//! convergence or warp-synchronous instructions in the body (the
//! simulator merges lane groups by program counter, so the copies could
//! change which lanes run a `SHFL` together), opaque instructions, and
//! results larger than the level's instruction budget. Nothing new is
//! allocated, so this runs on virtual and physical registers alike.
//!
//! # NvOpt levels
//!
//! | level | 0 | 1 | 2 | 3 (default) | 4 | 5 |
//! |---|---|---|---|---|---|---|
//! | full unroll up to (trips) | off | 4 | 8 | 16 | 32 | 64 |
//! | partial factor | off | none | 2 | 4 | 4 | 8 |
//! | instructions of the unrolled block at most | - | 64 | 128 | 256 | 512 | 1024 |

use super::loop_util::{insertion_point, is_vector_pred, loop_is_plain, opaque, LoopView};
use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::cfg::is_terminator;
use crate::ir::opcode::Effects;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::{Pred, Reg};
use crate::ir::{Function, Inst, Op, Operand};

/// How far one level unrolls (module table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnrollLimits {
    /// Loops of at most this many iterations unroll fully (0: none).
    pub full_trips: u64,
    /// The partial unrolling factor (1: none).
    pub factor: u64,
    /// The unrolled block's size limit, in instructions.
    pub max_insts: usize,
}

impl UnrollLimits {
    pub fn for_level(level: u8) -> UnrollLimits {
        let (full_trips, factor, max_insts) = match level {
            0 => (0, 1, 0),
            1 => (4, 1, 64),
            2 => (8, 2, 128),
            3 => (16, 4, 256),
            4 => (32, 4, 512),
            _ => (64, 8, 1024),
        };
        UnrollLimits {
            full_trips,
            factor,
            max_insts,
        }
    }

    fn off(&self) -> bool {
        self.full_trips == 0 && self.factor <= 1
    }
}

pub struct LoopUnrolling {
    pub index: u16,
    pub enabled: bool,
    pub limits: UnrollLimits,
}

/// The most iterations the trip-count evaluation runs.
const MAX_TRIPS: u64 = 1 << 16;

/// A recognised counted loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    pub block: usize,
    pub preheader: usize,
    pub trips: u64,
}

fn imm_or_zero(o: &Operand) -> Option<i64> {
    match o {
        Operand::Imm(v) => Some(*v),
        Operand::Reg(r) if r.reg == Reg::Rz && !r.neg && !r.not && !r.abs => Some(0),
        _ => None,
    }
}

fn reg_unit(o: &Operand) -> Option<RegUnit> {
    super::loop_util::plain_gpr(o)
}

/// `ISETP.CMP[.U32].AND p, PT, c, K, PT`: (p, c, K, cmp, unsigned).
fn compare(inst: &Inst) -> Option<(RegUnit, RegUnit, u32, &'static str, bool)> {
    if inst.op != Op::ISETP || inst.guard.is_some() || inst.ndst != 2 {
        return None;
    }
    let mut cmp = None;
    let mut unsigned = false;
    for &m in &inst.mods {
        match m {
            "LT" | "EQ" | "LE" | "GT" | "NE" | "GE" if cmp.is_none() => cmp = Some(m),
            "U32" => unsigned = true,
            "AND" => {}
            _ => return None,
        }
    }
    let ops = &inst.operands;
    let p = match ops[0] {
        Operand::Pred { pred, not: false } => RegUnit::of_pred(pred)?,
        _ => return None,
    };
    if ops[1]
        != (Operand::Pred {
            pred: Pred::Pt,
            not: false,
        })
        || ops.len() != 5
    {
        return None;
    }
    let c = reg_unit(&ops[2])?;
    let k = imm_or_zero(&ops[3])?;
    if ops[4]
        != (Operand::Pred {
            pred: Pred::Pt,
            not: false,
        })
    {
        return None;
    }
    Some((p, c, k as u32, cmp?, unsigned))
}

/// `IADD3 c, c, STEP, RZ` (or `IADD3 c, STEP, c, RZ`): STEP.
pub(crate) fn increment(inst: &Inst, c: RegUnit) -> Option<u32> {
    if inst.op != Op::IADD3 || inst.guard.is_some() || inst.ndst != 1 || !inst.mods.is_empty() {
        return None;
    }
    let s = inst.srcs();
    if s.len() != 3 || reg_unit(&inst.operands[0]) != Some(c) || imm_or_zero(&s[2]) != Some(0) {
        return None;
    }
    match (reg_unit(&s[0]), reg_unit(&s[1])) {
        (Some(x), _) if x == c => imm_or_zero(&s[1]).map(|v| v as u32),
        (_, Some(x)) if x == c => imm_or_zero(&s[0]).map(|v| v as u32),
        _ => None,
    }
}

fn holds(cmp: &str, unsigned: bool, a: u32, b: u32) -> bool {
    let o = if unsigned {
        a.cmp(&b)
    } else {
        (a as i32).cmp(&(b as i32))
    };
    use std::cmp::Ordering::*;
    match cmp {
        "LT" => o == Less,
        "LE" => o != Greater,
        "GT" => o == Greater,
        "GE" => o != Less,
        "EQ" => o == Equal,
        _ => o != Equal,
    }
}

/// Recognises a counted single-block loop with a known trip count.
pub fn counted_loop(f: &Function, v: &LoopView, k: usize) -> Option<Counted> {
    let l = &v.loops.loops[k];
    let b = l.header;
    if l.blocks != [b] || l.latches != [b] || !loop_is_plain(f, v, l) {
        return None;
    }
    let ph = v.preheader(f, l)?;
    if let Some(t) = f.blocks[ph].insts.last() {
        if is_terminator(t)
            && !(t.op == Op::BRA
                && t.guard.is_none()
                && t.mods.is_empty()
                && t.targets().eq([f.blocks[b].label]))
        {
            return None;
        }
    }
    let insts = &f.blocks[b].insts;
    let br = insts.last()?;
    let g = br.guard?;
    if br.op != Op::BRA
        || !br.mods.is_empty()
        || br.srcs().len() != 1
        || !is_vector_pred(g.pred)
        || !br.targets().eq([f.blocks[b].label])
        || v.cfg.succs[b] != [b, b + 1]
    {
        return None;
    }
    let pu = RegUnit::of_pred(g.pred)?;
    let body = &insts[..insts.len() - 1];
    let bad = Effects::CONTROL
        .union(Effects::CONVERGENCE)
        .union(Effects::WARP);
    if body
        .iter()
        .any(|i| opaque(i) || i.op.info().effects.intersects(bad))
    {
        return None;
    }
    let defs_of = |u: RegUnit| -> Vec<usize> {
        body.iter()
            .enumerate()
            .filter(|(_, i)| regs::defs(i).contains(&u))
            .map(|(n, _)| n)
            .collect()
    };
    let [kc] = defs_of(pu)[..] else {
        return None;
    };
    let (p, c, bound, cmp, unsigned) = compare(&body[kc])?;
    if p != pu {
        return None;
    }
    let [ki] = defs_of(c)[..] else {
        return None;
    };
    let step = increment(&body[ki], c)?;
    // The counter's value entering the loop: the preheader's last
    // definition of c, an unguarded `MOV c, IMM` (or RZ).
    let init_def = f.blocks[ph]
        .insts
        .iter()
        .rev()
        .find(|i| regs::defs(i).contains(&c))?;
    if init_def.op != Op::MOV
        || init_def.guard.is_some()
        || init_def.srcs().len() != 1
        || reg_unit(&init_def.operands[0]) != Some(c)
    {
        return None;
    }
    let mut val = imm_or_zero(&init_def.srcs()[0])? as u32;
    for t in 1..=MAX_TRIPS {
        let next = val.wrapping_add(step);
        let seen = if ki < kc { next } else { val };
        let taken = holds(cmp, unsigned, seen, bound) != g.negated;
        val = next;
        if !taken {
            return Some(Counted {
                block: b,
                preheader: ph,
                trips: t,
            });
        }
    }
    None
}

fn copies(body: &[Inst], n: u64) -> impl Iterator<Item = Inst> + '_ {
    (0..n).flat_map(move |_| {
        body.iter().map(|i| {
            let mut x = i.clone();
            x.encoding = None;
            x
        })
    })
}

/// Unrolls one counted loop; returns whether it did.
fn unroll_one(f: &mut Function, c: &Counted, lim: &UnrollLimits) -> bool {
    let insts = f.blocks[c.block].insts.clone();
    let (body, br) = insts.split_at(insts.len() - 1);
    let len = body.len() as u64;
    if c.trips <= lim.full_trips && c.trips * len <= lim.max_insts as u64 {
        f.blocks[c.block].insts = copies(body, c.trips).collect();
        if f.blocks[c.block].insts.is_empty() {
            f.blocks[c.block]
                .insts
                .push(Inst::new(Op::NOP, &[], None, []).expect("NOP"));
        }
        return true;
    }
    let fct = lim.factor;
    if fct < 2 || c.trips < fct || fct * len + 1 > lim.max_insts as u64 || len == 0 {
        return false;
    }
    let rem = c.trips % fct;
    if rem * len > lim.max_insts as u64 {
        return false;
    }
    let peeled: Vec<Inst> = copies(body, rem).collect();
    let at = insertion_point(f, c.preheader);
    let tail = f.blocks[c.preheader].insts.split_off(at);
    f.blocks[c.preheader].insts.extend(peeled);
    f.blocks[c.preheader].insts.extend(tail);
    let mut new: Vec<Inst> = copies(body, fct).collect();
    new.push(br[0].clone());
    f.blocks[c.block].insts = new;
    true
}

/// Unrolls every counted loop the limits allow; returns how many.
pub fn unroll_loops(f: &mut Function, lim: &UnrollLimits) -> usize {
    if lim.off() {
        return 0;
    }
    let mut total = 0;
    let v = LoopView::new(f);
    // Single-block loops are innermost, disjoint, and unrolling changes no
    // block index, so the view's loops stay valid for the others; a
    // preheader gets code appended only, and two loops never share one (a
    // preheader's only successor is its header).
    let found: Vec<Counted> = (0..v.loops.loops.len())
        .filter_map(|k| counted_loop(f, &v, k))
        .collect();
    for c in found {
        if unroll_one(f, &c, lim) {
            total += 1;
        }
    }
    total
}

impl Phase for LoopUnrolling {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled || self.limits.off()
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = unroll_loops(&mut cx.function, &self.limits);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::phases::loop_util::text;

    /// A counted loop: `MOV c, INIT` in the preheader 1, the loop 2 adding
    /// STEP and comparing with `cmp`, then a store of the counter.
    fn counted(init: &str, step: &str, cmp: &str) -> Function {
        func(&format!(
            ".L_x_0:
             MOV %r1, RZ ;
             .L_x_1:
             MOV %r0, {init} ;
             .L_x_2:
             IADD3 %r1, %r1, %r0, RZ ;
             IADD3 %r0, %r0, {step}, RZ ;
             {cmp} ;
             @%p0 BRA .L_x_2 ;
             .L_x_3:
             STG.E [%r4.64], %r1 ;
             EXIT ;"
        ))
    }

    fn trips(f: &Function) -> Option<u64> {
        let v = LoopView::new(f);
        counted_loop(f, &v, 0).map(|c| c.trips)
    }

    #[test]
    fn trip_counts_follow_the_compare_semantics() {
        let ne = "ISETP.NE.AND %p0, PT, %r0, 0xa, PT";
        assert_eq!(trips(&counted("0x0", "0x1", ne)), Some(10));
        assert_eq!(
            trips(&counted(
                "0x40",
                "-0x1",
                "ISETP.NE.AND %p0, PT, %r0, RZ, PT"
            )),
            Some(64)
        );
        // Signed: -3 < 5 until it reaches 5 (8 steps); unsigned: 0xfffffffd
        // is not below 5, so the first compare exits.
        assert_eq!(
            trips(&counted(
                "-0x3",
                "0x1",
                "ISETP.LT.AND %p0, PT, %r0, 0x5, PT"
            )),
            Some(8)
        );
        assert_eq!(
            trips(&counted(
                "-0x3",
                "0x1",
                "ISETP.LT.U32.AND %p0, PT, %r0, 0x5, PT"
            )),
            Some(1)
        );
        // Never reaching the bound within 2^16 steps: unknown.
        assert_eq!(trips(&counted("0x1", "0x2", ne)), None);
    }

    #[test]
    fn unknown_trip_counts_and_shared_counters_are_refused() {
        // The bound is a register: unknown.
        let mut f = counted("0x0", "0x1", "ISETP.NE.AND %p0, PT, %r0, %r7, PT");
        assert_eq!(trips(&f), None);
        let before = f.clone();
        assert_eq!(unroll_loops(&mut f, &UnrollLimits::for_level(5)), 0);
        assert_eq!(f, before);
        // The initial value is not a constant.
        assert_eq!(
            trips(&counted("%r7", "0x1", "ISETP.NE.AND %p0, PT, %r0, 0xa, PT")),
            None
        );
        // A second definition of the counter in the loop.
        let g = func(
            ".L_x_0:
             MOV %r1, RZ ;
             .L_x_1:
             MOV %r0, 0x0 ;
             .L_x_2:
             IADD3 %r0, %r0, 0x1, RZ ;
             @%p3 MOV %r0, 0x2 ;
             ISETP.NE.AND %p0, PT, %r0, 0xa, PT ;
             @%p0 BRA .L_x_2 ;
             .L_x_3:
             EXIT ;",
        );
        assert_eq!(trips(&g), None);
    }

    #[test]
    fn small_loops_unroll_fully() {
        let mut f = counted("0x0", "0x1", "ISETP.NE.AND %p0, PT, %r0, 0x3, PT");
        assert_eq!(unroll_loops(&mut f, &UnrollLimits::for_level(3)), 1);
        crate::ir::verify(&f, None).unwrap();
        let ops: Vec<Op> = f.blocks[2].insts.iter().map(|i| i.op).collect();
        assert_eq!(
            ops,
            [Op::IADD3, Op::IADD3, Op::ISETP].repeat(3),
            "{}",
            text(&f)
        );
        assert!(LoopView::new(&f).loops.loops.is_empty());
    }

    #[test]
    fn larger_loops_unroll_by_the_level_factor_with_the_remainder_peeled() {
        // 10 iterations, factor 4 at level 3 (above its full limit only
        // when the limit is lower: level 2 has full 8, factor 2).
        let mut f = counted("0x0", "0x1", "ISETP.NE.AND %p0, PT, %r0, 0xa, PT");
        assert_eq!(unroll_loops(&mut f, &UnrollLimits::for_level(2)), 1);
        crate::ir::verify(&f, None).unwrap();
        // 10 % 2 = 0: nothing peeled; the loop holds two copies.
        assert_eq!(f.blocks[1].insts.len(), 1);
        assert_eq!(f.blocks[2].insts.len(), 7, "{}", text(&f));
        let mut g = counted("0x0", "0x1", "ISETP.NE.AND %p0, PT, %r0, 0x13, PT");
        // 19 iterations at level 3: factor 4, 3 peeled into the preheader.
        assert_eq!(unroll_loops(&mut g, &UnrollLimits::for_level(3)), 1);
        assert_eq!(g.blocks[1].insts.len(), 1 + 3 * 3, "{}", text(&g));
        assert_eq!(g.blocks[2].insts.len(), 4 * 3 + 1);
        assert_eq!(trips(&g), None, "the preheader no longer sets a constant");
    }

    #[test]
    fn level_table() {
        assert!(UnrollLimits::for_level(0).off());
        assert_eq!(UnrollLimits::for_level(1).factor, 1);
        assert_eq!(UnrollLimits::for_level(3).full_trips, 16);
        assert_eq!(UnrollLimits::for_level(9), UnrollLimits::for_level(5));
    }
}
