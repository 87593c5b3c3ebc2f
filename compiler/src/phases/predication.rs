//! OriDoPredication (63): if-conversion. Small triangles and diamonds
//! become straight-line guarded code and their branch disappears:
//!
//! ```text
//! A:  ... @P BRA J          A:  ... @!P x ; @!P y      (triangle)
//! T:  x ; y                 J:  ...
//! J:  ...
//!
//! A:  ... @P BRA E          A:  ... @!P x ; @P z       (diamond)
//! T:  x ; BRA J             J:  ...
//! E:  z
//! J:  ...
//! ```
//!
//! An arm is the chain of blocks laid out after the branch (or after its
//! target) that each have exactly one predecessor, the previous one, and
//! leave only to the next block in layout (falling through or by an
//! unguarded `BRA` to it); the lowering's trampolines (`BRA` to the next
//! block) are such blocks. A lane runs an arm's instructions exactly when
//! it would have taken that arm, so guarding them with the branch
//! condition (negated for the fall-through arm) keeps every lane's effects:
//! a guarded store, load or atomic does nothing where its guard is false,
//! so a load that might fault never runs on a lane that skipped it.
//!
//! Refused, the region stays as it is:
//! - an arm instruction that is already guarded (a nested guard would need
//!   a new predicate to combine them, which this phase does not make);
//! - an arm that writes the branch predicate (later instructions would
//!   read the new value as their guard);
//! - control (`BRA` other than the trampoline, `EXIT`, `CALL`, `RET` ...),
//!   convergence (`BSSY`, `BSYNC`, `WARPSYNC`, `BMOV`), barriers, fences,
//!   warp-synchronous instructions (`SHFL`, `VOTE`, `MATCH`, `REDUX`: under
//!   the branch only the lanes of the arm take part; guarded, the whole
//!   group would), opaque instructions, `KEEP` instructions;
//! - a branch with a predicate or register operand, a uniform guard, a
//!   `.DIV`/`.U`/`.CONV` form, or an arm block whose label something else
//!   names (a return address, a `BSSY` target);
//! - arms longer than the NvOpt level allows.
//!
//! # NvOpt levels
//!
//! The most instructions in one arm (a diamond may have two such arms):
//!
//! | level | 0 | 1 | 2 | 3 (default) | 4 | 5 |
//! |---|---|---|---|---|---|---|
//! | arm limit | off | 2 | 4 | 8 | 12 | 16 |
//!
//! Works on physical and virtual registers alike (no register is made).

use super::loop_util::{address_taken, is_vector_pred, opaque, unguarded};
use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::cfg::{is_terminator, Cfg};
use crate::ir::opcode::Effects;
use crate::ir::regs::{self, RegUnit};
use crate::ir::sass_text::Guard;
use crate::ir::{Function, Inst, Op};

pub struct Predication {
    pub index: u16,
    pub enabled: bool,
    /// Instructions in one arm at most.
    pub arm_limit: usize,
}

/// The arm limit of NvOpt level `level` (module table).
pub fn arm_limit_for_level(level: u8) -> usize {
    match level {
        0 => 0,
        1 => 2,
        2 => 4,
        3 => 8,
        4 => 12,
        _ => 16,
    }
}

/// What the search for regions reads of the function: its CFG and the
/// blocks control reaches other than by branches; no dominators, loops or
/// liveness (they cost most of a [`super::loop_util::LoopView`] and
/// nothing here reads them).
///
/// Block indices are those of the function the view was built from. A
/// conversion updates the view in place ([`View::apply`]): the arm blocks
/// it deletes stay in the function, emptied and marked dead, and the
/// layout is the chain of live blocks (`next`, `prev`); `predicate`
/// deletes them at the end. Deleting each at once cost a shift of every
/// later block and a CFG rebuilt per conversion (quadratic).
struct View {
    cfg: Cfg,
    address_taken: Vec<bool>,
    /// The live block laid out after each block; the block count past the
    /// last one.
    next: Vec<usize>,
    /// The live block laid out before each block; `usize::MAX` before the
    /// first one.
    prev: Vec<usize>,
    dead: Vec<bool>,
}

impl View {
    fn new(f: &Function) -> View {
        let cfg = Cfg::new(f);
        let address_taken = address_taken(f, &cfg);
        let n = f.blocks.len();
        View {
            cfg,
            address_taken,
            next: (1..=n).collect(),
            prev: (0..n).map(|b| b.wrapping_sub(1)).collect(),
            dead: vec![false; n],
        }
    }

    /// The live block labelled `l`.
    fn block_of(&self, l: u32) -> Option<usize> {
        self.cfg.label_index().get(l).filter(|&b| !self.dead[b])
    }

    /// Whether the in-place update after a conversion gives the CFG that
    /// [`Cfg::new`] would build from the converted function. It does but
    /// where the graph depends on more than the changed blocks' edges:
    /// - indirect branches: their candidate targets include every block in
    ///   a window of the layout but the padding ([`crate::ir::cfg`]), and a
    ///   branch block left holding a `NOP` becomes padding;
    /// - calls through a register with candidate callees: the same, for
    ///   the callees (blocks nothing reaches, padding left out);
    /// - a label that starts more than one block: label lookups answer the
    ///   first of them, which a deletion may change.
    fn updates_in_place(&self, f: &Function) -> bool {
        !self.cfg.indirect.iter().any(|&x| x)
            && self.cfg.register_callees.is_empty()
            && self.cfg.label_index().len() == f.blocks.len()
    }

    /// Applies `c` to block `a` of `f` and updates the view to match the
    /// converted function: the arm blocks die, `a` falls into the join,
    /// the join's predecessors lose the arms and gain `a`. Reachability,
    /// the address-taken blocks and every other edge stay as they were:
    /// the arms were reached only from `a` and left only to each other and
    /// the join, and their instructions (now in `a`) name the same labels.
    fn apply(&mut self, f: &mut Function, a: usize, c: Conversion) {
        guard_into(f, a, c.body);
        for &r in &c.remove {
            self.dead[r] = true;
            f.blocks[r].insts = Vec::new();
        }
        self.next[a] = c.join;
        self.prev[c.join] = a;
        self.cfg.succs[a] = vec![c.join];
        let dead = &self.dead;
        let preds = &mut self.cfg.preds[c.join];
        preds.retain(|&p| !dead[p]);
        if let Err(i) = preds.binary_search(&a) {
            preds.insert(i, a);
        }
    }

    /// The first block whose candidacy the conversion at `a` may have
    /// changed, all earlier ones having been refused before it. A region
    /// search at block `x` reads the blocks from `x` on as far as its arms
    /// go, and an arm goes on through a block only while each has the
    /// previous one as its sole predecessor and holds only unguarded
    /// guardable instructions. Block `a` held a guarded `BRA` before the
    /// conversion, so every arm reaching it stopped there. With `guarded`
    /// (the conversion added guarded instructions to `a`) every arm still
    /// stops there: no earlier block can have changed, and the search goes
    /// on at the join (`a` ends in a guarded non-branch now). Otherwise an
    /// earlier arm may now run through `a` and on into the join: the
    /// earliest block whose arm can reach `a` is the head of the chain of
    /// sole-predecessor blocks ending at `a`, or the sole predecessor of
    /// that head (a diamond's second arm starts at the head).
    fn resume_after(&self, a: usize, join: usize, guarded: bool) -> usize {
        if guarded {
            return join;
        }
        let mut h = a;
        while self.prev[h] != usize::MAX
            && self.cfg.preds[h] == [self.prev[h]]
            && !self.address_taken[h]
            && !self.cfg.indirect[h]
        {
            h = self.prev[h];
        }
        match self.cfg.preds[h][..] {
            [p] if p < h => p,
            _ => h,
        }
    }
}

/// The label an unguarded plain `BRA L` jumps to.
fn plain_jump(inst: &Inst) -> Option<u32> {
    (inst.op == Op::BRA && unguarded(inst) && inst.mods.is_empty() && inst.srcs().len() == 1)
        .then(|| inst.targets().next())
        .flatten()
}

/// How an arm ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArmEnd {
    /// It falls (or jumps) into the block at this index, laid out right
    /// after it, which other blocks reach too.
    Falls(usize),
    /// Its last block ends in `BRA` to this label (not the next block).
    Jumps(u32),
}

/// An arm: its blocks, its instructions (branches left out) and its end.
struct Arm {
    blocks: Vec<usize>,
    insts: Vec<Inst>,
    end: ArmEnd,
}

/// The arm starting at block `start`, entered only from block `from`.
/// `None` when the chain holds something that cannot be guarded or is
/// longer than `limit`. "Laid out after" is the view's live layout.
fn arm(f: &Function, v: &View, from: usize, start: usize, limit: usize) -> Option<Arm> {
    let mut out = Arm {
        blocks: Vec::new(),
        insts: Vec::new(),
        end: ArmEnd::Falls(start),
    };
    let mut prev = from;
    let mut b = start;
    loop {
        if b >= f.blocks.len() {
            return None;
        }
        if v.cfg.preds[b] != [prev] || v.address_taken[b] || v.cfg.indirect[b] {
            out.end = ArmEnd::Falls(b);
            return (!out.blocks.is_empty()).then_some(out);
        }
        let blk = &f.blocks[b];
        out.blocks.push(b);
        for (i, inst) in blk.insts.iter().enumerate() {
            if i + 1 == blk.insts.len() {
                if let Some(l) = plain_jump(inst) {
                    let next = v.next[b];
                    if next < f.blocks.len() && f.blocks[next].label == l {
                        continue;
                    }
                    out.end = ArmEnd::Jumps(l);
                    return (out.insts.len() <= limit).then_some(out);
                }
            }
            if !convertible(inst) {
                return None;
            }
            out.insts.push(inst.clone());
        }
        if out.insts.len() > limit || v.cfg.succs[b] != [v.next[b]] {
            return None;
        }
        prev = b;
        b = v.next[b];
    }
}

/// Whether an instruction may be guarded in place of its branch.
fn convertible(inst: &Inst) -> bool {
    let e = inst.op.info().effects;
    inst.guard.is_none()
        && !opaque(inst)
        && !e.intersects(
            Effects::CONTROL
                .union(Effects::CONVERGENCE)
                .union(Effects::BARRIER)
                .union(Effects::FENCE)
                .union(Effects::WARP)
                .union(Effects::KEEP),
        )
}

fn guard_all(insts: &[Inst], g: Guard) -> impl Iterator<Item = Inst> + '_ {
    insts.iter().map(move |i| {
        let mut x = i.clone();
        x.guard = Some(g);
        x.encoding = None;
        x
    })
}

fn writes(insts: &[Inst], u: RegUnit) -> bool {
    insts.iter().any(|i| regs::defs(i).contains(&u))
}

/// An if-conversion of the region whose branch ends a block: the guarded
/// arm instructions that replace the branch, the arm blocks to delete (all
/// the blocks laid out between the branch block and the join) and the
/// join.
struct Conversion {
    body: Vec<Inst>,
    remove: Vec<usize>,
    join: usize,
}

/// The if-conversion of the region whose branch ends block `a`, if it has
/// one.
fn convert_at(f: &Function, v: &View, a: usize, limit: usize) -> Option<Conversion> {
    let br = f.blocks[a].insts.last()?;
    let g = br.guard?;
    if br.op != Op::BRA
        || !br.mods.is_empty()
        || br.srcs().len() != 1
        || !is_vector_pred(g.pred)
        || v.cfg.indirect[a]
        || !v.cfg.reachable[a]
    {
        return None;
    }
    let pu = RegUnit::of_pred(g.pred)?;
    let target = br.targets().next().and_then(|l| v.block_of(l))?;
    // The target must lie after the block laid out after `a` (live blocks
    // keep their order, so indices compare as layout positions).
    if target <= a || target == v.next[a] {
        return None;
    }
    // The fall-through arm runs where the guard is false.
    let t = arm(f, v, a, v.next[a], limit)?;
    if writes(&t.insts, pu) {
        return None;
    }
    let not_g = Guard {
        pred: g.pred,
        negated: !g.negated,
    };
    let mut body: Vec<Inst> = guard_all(&t.insts, not_g).collect();
    let mut remove = t.blocks.clone();
    let join = match t.end {
        // Triangle: T leads into the branch target.
        ArmEnd::Falls(j) if j == target => j,
        // Diamond: T jumps over E (the target, laid out right after T) to
        // the block E falls into.
        ArmEnd::Jumps(jl) if v.next[*t.blocks.last().unwrap()] == target => {
            let e = arm(f, v, a, target, limit)?;
            let j = match e.end {
                ArmEnd::Falls(j) if f.blocks[j].label == jl => j,
                _ => return None,
            };
            if writes(&e.insts, pu) {
                return None;
            }
            body.extend(guard_all(&e.insts, g));
            remove.extend(e.blocks);
            j
        }
        _ => return None,
    };
    Some(Conversion { body, remove, join })
}

/// Replaces block `a`'s branch by `body`.
fn guard_into(f: &mut Function, a: usize, body: Vec<Inst>) {
    f.blocks[a].insts.pop();
    f.blocks[a].insts.extend(body);
    if f.blocks[a].insts.is_empty() {
        // A block that held only the branch and empty arms: keep it
        // non-empty.
        f.blocks[a]
            .insts
            .push(Inst::new(Op::NOP, &[], None, []).expect("NOP has no operands"));
    }
}

/// If-converts every region it can; returns the number of branches removed.
///
/// The regions convert one at a time, each time the first one in layout
/// whose conversion the function as it then stands allows: one conversion
/// can enable or disable another (a converted inner region leaves a
/// guarded block that no enclosing arm may hold; two arms may share a
/// join whose predecessors shrink). [`predicate_restarting`] does exactly
/// that by rebuilding its view and searching from the first block after
/// each conversion; this does the same conversions in the same order with
/// the view updated in place and the search resumed at the first block
/// the conversion may have changed ([`View::resume_after`]), so a chain
/// of regions takes linear time, not quadratic.
pub fn predicate(f: &mut Function, arm_limit: usize) -> usize {
    let mut v = View::new(f);
    if !v.updates_in_place(f) {
        return predicate_restarting(f, arm_limit);
    }
    let n = f.blocks.len();
    let mut total = 0;
    let mut a = 0;
    while a < n {
        let Some(c) = convert_at(f, &v, a, arm_limit) else {
            a = v.next[a];
            continue;
        };
        let (join, guarded) = (c.join, !c.body.is_empty());
        v.apply(f, a, c);
        total += 1;
        // A block whose instructions before the branch ended in a
        // terminator (not a valid block) would leave with the new last
        // instruction rather than into the join: rebuild from scratch.
        if f.blocks[a].insts.last().is_some_and(is_terminator) {
            delete_dead(f, &v);
            return total + predicate_restarting(f, arm_limit);
        }
        a = v.resume_after(a, join, guarded);
    }
    delete_dead(f, &v);
    total
}

/// Deletes the blocks the conversions killed.
fn delete_dead(f: &mut Function, v: &View) {
    let mut b = 0;
    f.blocks.retain(|_| {
        b += 1;
        !v.dead[b - 1]
    });
}

/// [`predicate`] the plain way: after each conversion, the function's
/// blocks deleted, its view built anew and the search restarted at the
/// first block. Quadratic in the regions of a chain; the reference the
/// in-place update is tested against, and the fallback where the view
/// cannot be updated in place ([`View::updates_in_place`]).
pub(super) fn predicate_restarting(f: &mut Function, arm_limit: usize) -> usize {
    let mut total = 0;
    'again: loop {
        let v = View::new(f);
        for a in 0..f.blocks.len() {
            if let Some(c) = convert_at(f, &v, a, arm_limit) {
                guard_into(f, a, c.body);
                let mut rm = c.remove;
                rm.sort_unstable_by(|x, y| y.cmp(x));
                for b in rm {
                    f.blocks.remove(b);
                }
                total += 1;
                continue 'again;
            }
        }
        return total;
    }
}

impl Phase for Predication {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled || self.arm_limit == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = predicate(&mut cx.function, self.arm_limit);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
#[path = "predication_equiv.rs"]
mod equiv;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;
    use crate::phases::loop_util::text;

    #[test]
    fn a_diamond_and_a_triangle_become_guarded_code() {
        let mut f = func(
            ".L_x_0:
             ISETP.GT.AND %p0, PT, %r0, RZ, PT ;
             @%p0 BRA .L_x_2 ;
             .L_x_1:
             IADD3 %r1, RZ, -%r0, RZ ;
             BRA .L_x_3 ;
             .L_x_2:
             SHF.L.U32 %r1, %r0, 0x1, RZ ;
             .L_x_3:
             STG.E [%r4.64], %r1 ;
             ISETP.LT.AND %p1, PT, %r0, 0x64, PT ;
             @%p1 BRA .L_x_5 ;
             .L_x_4:
             BRA .L_x_6 ;
             .L_x_6:
             STG.E [%r6.64], %r0 ;
             .L_x_5:
             EXIT ;",
        );
        assert_eq!(predicate(&mut f, arm_limit_for_level(3)), 2, "{}", text(&f));
        crate::ir::verify(&f, None).unwrap();
        let t = text(&f);
        assert!(t.contains("@!%p0 IADD3 %r1, RZ, -%r0, RZ ;"), "{t}");
        assert!(t.contains("@%p0 SHF.L.U32 %r1, %r0, 0x1, RZ ;"), "{t}");
        assert!(t.contains("@!%p1 STG.E [%r6.64], %r0 ;"), "{t}");
        assert!(!f.insts().any(|i| i.op == Op::BRA), "{t}");
        // The join blocks stay (other code may branch to them).
        let labels: Vec<u32> = f.blocks.iter().map(|b| b.label).collect();
        assert_eq!(labels, [0, 3, 5]);
    }

    #[test]
    fn what_cannot_be_guarded_stays_a_branch() {
        for arm in [
            // A nested guard.
            "@%p3 MOV %r1, 0x1 ;",
            // The arm writes the branch predicate.
            "ISETP.EQ.AND %p0, PT, %r0, 0x3, PT ;",
            // Warp-synchronous: only the arm's lanes may take part.
            "SHFL.BFLY %p5, %r1, %r0, 0x1, 0x1f ;",
            // A barrier.
            "BAR.SYNC 0x0 ;",
        ] {
            let mut f = func(&format!(
                ".L_x_0:
                 ISETP.GT.AND %p0, PT, %r0, RZ, PT ;
                 @%p0 BRA .L_x_2 ;
                 .L_x_1:
                 {arm}
                 .L_x_2:
                 STG.E [%r4.64], %r1 ;
                 EXIT ;"
            ));
            let before = f.clone();
            assert_eq!(predicate(&mut f, 16), 0, "{arm}");
            assert_eq!(f, before);
        }
    }

    #[test]
    fn arms_longer_than_the_level_allows_stay() {
        let body = "IADD3 %r1, %r1, 0x1, RZ ;\n".repeat(5);
        let src = format!(
            ".L_x_0:
             @%p0 BRA .L_x_2 ;
             .L_x_1:
             {body}
             .L_x_2:
             STG.E [%r4.64], %r1 ;
             EXIT ;"
        );
        let mut f = func(&src);
        assert_eq!(predicate(&mut f, arm_limit_for_level(2)), 0);
        assert_eq!(predicate(&mut f, arm_limit_for_level(3)), 1);
        assert_eq!(arm_limit_for_level(0), 0);
    }
}
