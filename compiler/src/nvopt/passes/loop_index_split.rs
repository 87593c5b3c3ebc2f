//! LoopIndexSplit (cicc's, docs/MODEL.md, NvOpt pipelines: the `loop-index-split` loop
//! pass, knob `no-loopindexsplit`): "divides loops at index boundaries".
//! After LLVM's former LoopIndexSplit: when a branch inside the loop
//! tests the induction variable against a constant and the outcome is
//! monotonic over the iteration space (true for the first `s`
//! iterations and false after, or the reverse), the loop is split into
//! two consecutive loops, the first running iterations `0..s` and the
//! second `s..n`, each with the branch replaced by the side it always
//! takes. When the outcome is the same in every iteration the branch is
//! simply folded.
//!
//! Handled loops (after LoopSimplify): innermost, a preheader, one latch
//! that is also the only exiting block (a bottom-tested loop), a
//! dedicated exit, a canonical induction variable with a constant trip
//! count `n` ([`find_iv`], [`const_trip_count`]), no convergent
//! instruction ([`is_convergent`]), at most [`MAX_SIZE`] instructions. The
//! branch's `setp` reads the induction variable (`iv` or `next`) and
//! constants only; its value per iteration is computed exactly
//! ([`iv_sequence`], [`eval_setp`]).
//!
//! The first loop exits after iteration `s - 1` through a new test
//! `setp.ne.T q, next, next(s - 1)`; that value is checked not to occur
//! earlier (no wrap-around), so the test is exact. The second loop starts
//! from the first one's latch values and keeps the original exit test.
//! Values used after the loop go through LCSSA phis ([`form_lcssa`]).

use super::loop_simplify::LoopSimplify;
use super::loop_util::*;
use super::simplify_cfg::SimplifyCfg;
use super::util::{def_sites, imm_of, DefSite};
use super::Pass;
use crate::nvopt::ir::*;
use crate::ptx::ast::Mods;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;
use rustc_hash::FxHashMap;

pub struct LoopIndexSplit;

/// Largest loop (instructions, phis, terminators) that is split: the
/// split duplicates the body.
pub const MAX_SIZE: usize = 200;
/// Largest trip count evaluated.
pub const MAX_TRIP: u64 = 1 << 16;

/// Replaces a conditional branch by a branch to the side the predicate
/// value `c` takes.
fn fold(f: &mut Function, b: BlockId, c: bool) {
    let Term::CondBr {
        negated,
        then_,
        else_,
        mods,
        ..
    } = f.blocks[b.idx()].term.clone()
    else {
        return;
    };
    let (target, other) = if c != negated {
        (then_, else_)
    } else {
        (else_, then_)
    };
    f.blocks[b.idx()].term = Term::Br { target, mods };
    if other != target {
        drop_stale_phi_args(f, other);
    }
}

/// A branch of the loop whose outcome depends only on the iteration:
/// the block, the outcome of the first iteration, and how many leading
/// iterations share it (`s`; `s == n` means uniform).
fn monotonic_branch(
    f: &Function,
    l: &Loop,
    x: BlockId,
    iv: &Iv,
    n: u64,
) -> Option<(BlockId, bool, u64)> {
    let seq = iv_sequence(f, iv, n)?;
    let sites = def_sites(f);
    for b in l.blocks() {
        if b == x {
            continue;
        }
        let Term::CondBr { pred, .. } = f.blocks[b.idx()].term else {
            continue;
        };
        let Some(DefSite::Inst(cb, ck)) = sites[pred.idx()] else {
            continue;
        };
        let cmp = &f.blocks[cb.idx()].insts[ck];
        if !l.contains(cb) || cmp.op != Opcode::Setp || cmp.guard.is_some() {
            continue;
        }
        let mut reads_phi = false;
        let mut reads_next = false;
        cmp.for_each_use(|v| {
            reads_phi |= v == iv.phi;
            reads_next |= v == iv.next;
        });
        let reads = match (reads_phi, reads_next) {
            (true, false) => iv.phi,
            (false, true) => iv.next,
            _ => continue,
        };
        let mut vals = Vec::with_capacity(seq.len());
        for &(p, nx) in &seq {
            match eval_setp(f, cmp, reads, if reads == iv.phi { p } else { nx }) {
                Some(c) => vals.push(c),
                None => break,
            }
        }
        if vals.len() as u64 != n || vals.is_empty() {
            continue;
        }
        let first = vals[0];
        let s = vals.iter().take_while(|&&c| c == first).count();
        if vals[s..].iter().all(|&c| c != first) {
            return Some((b, first, s as u64));
        }
    }
    None
}

/// Where to split: the exiting latch `x` and the exit `e`, the value of
/// `next` after the first loop's last iteration, and the branch block
/// with its outcome in the first loop.
struct SplitAt {
    x: BlockId,
    e: BlockId,
    target: u64,
    b: BlockId,
    first: bool,
}

fn split(f: &mut Function, l: &Loop, iv: &Iv, at: SplitAt) -> Vec<BlockId> {
    let SplitAt {
        x,
        e,
        target,
        b,
        first,
    } = at;
    form_lcssa(f, l, x, e);
    let h = l.header;
    let hphis = f.blocks[h.idx()].phis.clone();
    let mut header_in = FxHashMap::default();
    for p in &hphis {
        let info = f.values[p.dst.idx()].clone();
        let d = f.new_value(info.reg, info.ty);
        header_in.insert(p.dst, d);
    }
    let copy = clone_loop(f, l, &header_in);
    let hb = copy.block(h);
    let pre_b = new_block(f, hb);
    for p in &hphis {
        let la = p.args.iter().find(|(pb, _)| *pb == x).unwrap().1;
        f.blocks[hb.idx()].phis.push(Phi {
            dst: header_in[&p.dst],
            args: vec![(pre_b, la), (copy.block(x), copy.val(la))],
        });
    }
    for s in f.blocks[copy.block(x).idx()].term.succs_mut() {
        if *s == h {
            *s = hb;
        }
    }
    // The first loop's exit test.
    let sites = def_sites(f);
    let Some(DefSite::Inst(nb, nk)) = sites[iv.next.idx()] else {
        unreachable!("checked by find_iv")
    };
    let ty = f.blocks[nb.idx()].insts[nk].ty().expect("typed add");
    let Term::CondBr { pred, mods, .. } = f.blocks[x.idx()].term.clone() else {
        unreachable!("checked by single_exit")
    };
    let q = f.new_value(f.values[pred.idx()].reg, ScalarType::Pred);
    f.blocks[x.idx()].insts.push(Inst {
        op: Opcode::Setp,
        mods: Mods::from_slice(&[Mod::Ne, Mod::of_type(ty)]),
        guard: None,
        ops: vec![
            Opnd::Val(q),
            Opnd::Val(iv.next),
            Opnd::Imm(imm_of(target, ty.bits())),
        ],
        old: vec![],
    });
    f.blocks[x.idx()].term = Term::CondBr {
        pred: q,
        negated: false,
        then_: h,
        else_: pre_b,
        mods,
    };
    for p in &mut f.blocks[e.idx()].phis {
        for (pb, v) in &mut p.args {
            if *pb == x {
                *pb = copy.block(x);
                *v = copy.val(*v);
            }
        }
    }
    let bb = copy.block(b);
    fold(f, b, first);
    fold(f, bb, !first);
    vec![h, hb]
}

impl LoopIndexSplit {
    fn step(&self, f: &mut Function, done: &mut Vec<BlockId>) -> bool {
        let loops = find_loops(f);
        for l in &loops {
            if done.contains(&l.header)
                || l.has_inner(&loops)
                || loop_has_convergent(f, l)
                || l.inst_count(f) > MAX_SIZE
            {
                continue;
            }
            let preds = f.preds();
            if l.preheader(f, &preds).is_none() {
                continue;
            }
            let Some((x, _, e)) = single_exit(f, l) else {
                continue;
            };
            if x != l.latches[0] || preds[e.idx()].len() != 1 {
                continue;
            }
            let Some(iv) = find_iv(f, l, x) else { continue };
            let Some(n) = const_trip_count(f, &iv, MAX_TRIP) else {
                continue;
            };
            let Some((b, first, s)) = monotonic_branch(f, l, x, &iv, n) else {
                continue;
            };
            if s == n {
                fold(f, b, first);
                done.push(l.header);
                remove_unreachable_tracking(f, done);
                return true;
            }
            let Some(seq) = iv_sequence(f, &iv, s) else {
                continue;
            };
            let target = seq[s as usize - 1].1;
            if seq[..s as usize - 1].iter().any(|&(_, nx)| nx == target) {
                continue;
            }
            let at = SplitAt {
                x,
                e,
                target,
                b,
                first,
            };
            let hs = split(f, l, &iv, at);
            done.extend(hs);
            remove_unreachable_tracking(f, done);
            return true;
        }
        false
    }
}

impl Pass for LoopIndexSplit {
    fn name(&self) -> &'static str {
        "loop-index-split"
    }

    fn run(&self, f: &mut Function) -> bool {
        let mut done = Vec::new();
        // LLVM's loop passes require LoopSimplify (the legacy pass
        // manager schedules it before them); so does this one.
        let simplified = LoopSimplify.run(f);
        let mut changed = false;
        while self.step(f, &mut done) {
            changed = true;
        }
        if changed {
            SimplifyCfg.run(f);
        }
        changed |= simplified;
        changed
    }
}
