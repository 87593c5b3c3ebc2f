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
use crate::ir::cfg::Cfg;
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

/// The index of OriDoPredication.
pub const INDEX: u16 = 63;

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
/// blocks control reaches other than by branches. Rebuilt after each
/// conversion; no dominators, loops or liveness (they cost most of a
/// [`super::loop_util::LoopView`] and nothing here reads them).
struct View {
    cfg: Cfg,
    address_taken: Vec<bool>,
}

impl View {
    fn new(f: &Function) -> View {
        let cfg = Cfg::new(f);
        let address_taken = address_taken(f, &cfg);
        View { cfg, address_taken }
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
/// longer than `limit`.
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
                    if b + 1 < f.blocks.len() && f.blocks[b + 1].label == l {
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
        if out.insts.len() > limit || v.cfg.succs[b] != [b + 1] {
            return None;
        }
        prev = b;
        b += 1;
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

/// Tries to if-convert the region whose branch ends block `a`. Returns
/// whether it did.
fn convert_at(f: &mut Function, v: &View, a: usize, limit: usize) -> bool {
    let Some(br) = f.blocks[a].insts.last() else {
        return false;
    };
    let Some(g) = br.guard else {
        return false;
    };
    if br.op != Op::BRA
        || !br.mods.is_empty()
        || br.srcs().len() != 1
        || !is_vector_pred(g.pred)
        || v.cfg.indirect[a]
        || !v.cfg.reachable[a]
    {
        return false;
    }
    let Some(pu) = RegUnit::of_pred(g.pred) else {
        return false;
    };
    let Some(target) = br.targets().next().and_then(|l| v.cfg.label_index().get(l)) else {
        return false;
    };
    if target <= a + 1 {
        return false;
    }
    // The fall-through arm runs where the guard is false.
    let Some(t) = arm(f, v, a, a + 1, limit) else {
        return false;
    };
    if writes(&t.insts, pu) {
        return false;
    }
    let not_g = Guard {
        pred: g.pred,
        negated: !g.negated,
    };
    let mut body: Vec<Inst> = guard_all(&t.insts, not_g).collect();
    let mut remove = t.blocks.clone();
    match t.end {
        // Triangle: T leads into the branch target.
        ArmEnd::Falls(j) if j == target => {}
        // Diamond: T jumps over E (the target, laid out right after T) to
        // the block E falls into.
        ArmEnd::Jumps(jl) if *t.blocks.last().unwrap() + 1 == target => {
            let Some(e) = arm(f, v, a, target, limit) else {
                return false;
            };
            match e.end {
                ArmEnd::Falls(j) if f.blocks[j].label == jl => {}
                _ => return false,
            }
            if writes(&e.insts, pu) {
                return false;
            }
            body.extend(guard_all(&e.insts, g));
            remove.extend(e.blocks);
        }
        _ => return false,
    }
    apply(f, a, body, &remove);
    true
}

/// Replaces block `a`'s branch by `body` and deletes the `remove` blocks.
fn apply(f: &mut Function, a: usize, body: Vec<Inst>, remove: &[usize]) {
    f.blocks[a].insts.pop();
    f.blocks[a].insts.extend(body);
    if f.blocks[a].insts.is_empty() {
        // A block that held only the branch and empty arms: keep it
        // non-empty.
        f.blocks[a]
            .insts
            .push(Inst::new(Op::NOP, &[], None, []).expect("NOP has no operands"));
    }
    let mut rm = remove.to_vec();
    rm.sort_unstable_by(|x, y| y.cmp(x));
    for b in rm {
        f.blocks.remove(b);
    }
}

/// If-converts every region it can; returns the number of branches removed.
pub fn predicate(f: &mut Function, arm_limit: usize) -> usize {
    let mut total = 0;
    'again: loop {
        let v = View::new(f);
        for a in 0..f.blocks.len() {
            if convert_at(f, &v, a, arm_limit) {
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
