//! OriLoopSimplification (18): puts every natural loop in canonical form —
//! a preheader (the header's only predecessor outside the loop, whose only
//! successor is the header), a single latch, and dedicated exits (every
//! predecessor of an exit block is in the loop) — by inserting blocks that
//! hold one `BRA` and retargeting branches. The later loop phases
//! (strength reduction, unrolling, invariant hoisting) put code in the
//! preheader and rely on it running once per entry into the loop.
//!
//! Layout: the simulator and the hardware run lanes by program counter,
//! so new blocks go next to the block they lead to: the preheader and the
//! latch block immediately before the header, a dedicated exit
//! immediately before its exit block. The block that fell through into
//! the header (or exit) keeps falling through into the new block that
//! belongs to it: a loop block into the latch block, an outside one into
//! the preheader; the other new block is reached by branches only and
//! ends in `BRA header` (each new block ends in a `BRA` to the block it
//! leads to, so the order between them never matters).
//!
//! Refused (the loop is left as it is; sound, just not canonical):
//! headers and exits that are address-taken (return addresses, `BSSY`
//! targets, procedure entries: control reaches them without a branch a
//! retarget could see), loops with an indirect branch or an opaque
//! instruction (`CALL`, `R2P`, unmodelled), a single latch for loops with
//! warp-synchronous or convergence instructions (merging latches changes
//! which lanes reach those instructions together), and an exit whose
//! layout predecessor outside the loop falls through into it (no place for
//! the dedicated block before it). Works on virtual and physical
//! registers alike (it only moves control).
//!
//! NvOpt levels: canonical form is not a matter of aggressiveness; the
//! phase runs the same at every level (a no-op only at -O0).

use super::loop_util::{bra, insert_blocks, loop_is_plain, retarget, LoopView};
use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::loops::Loop;
use crate::ir::opcode::Effects;
use crate::ir::{Block, Function};

pub struct LoopSimplification {
    pub index: u16,
    pub enabled: bool,
}

fn has_warp_or_convergence(f: &Function, l: &Loop) -> bool {
    l.blocks.iter().any(|&b| {
        f.blocks[b].insts.iter().any(|i| {
            i.op.info()
                .effects
                .intersects(Effects::WARP.union(Effects::CONVERGENCE))
        })
    })
}

/// One rewrite of one loop: inserts what its header needs (preheader,
/// single latch). Returns the number of blocks inserted.
fn canonicalize_header(f: &mut Function, v: &LoopView, l: &Loop) -> usize {
    let h = l.header;
    if v.address_taken[h] || !loop_is_plain(f, v, l) {
        return 0;
    }
    let inside = |b: usize| l.blocks.binary_search(&b).is_ok();
    let outside: Vec<usize> = v.cfg.preds[h]
        .iter()
        .copied()
        .filter(|&p| !inside(p))
        .collect();
    if outside.iter().any(|&p| v.cfg.indirect[p]) {
        return 0;
    }
    let mut need_ph = v.preheader(f, l).is_none();
    let mut need_lt = l.latches.len() > 1;
    if need_lt && has_warp_or_convergence(f, l) {
        need_lt = false;
    }
    // The layout predecessor that falls into the header, if any.
    let fall = (h > 0 && v.cfg.falls_through[h - 1]).then(|| h - 1);
    match fall {
        Some(p) if inside(p) && need_ph => need_lt = true,
        Some(p) if !inside(p) && need_lt => need_ph = true,
        _ => {}
    }
    if need_lt && has_warp_or_convergence(f, l) {
        return 0;
    }
    if !need_ph && !need_lt {
        return 0;
    }
    let hl = f.blocks[h].label;
    let mut next = f.fresh_label();
    let mut ph = None;
    let mut lt = None;
    if need_ph {
        ph = Some(next);
        next += 1;
    }
    if need_lt {
        lt = Some(next);
    }
    for &p in &outside {
        if let Some(ph) = ph {
            retarget(f, p, hl, ph);
        }
    }
    if let Some(lt) = lt {
        for &t in &l.latches {
            retarget(f, t, hl, lt);
        }
    }
    let mk = |label: u32| Block {
        label,
        insts: vec![bra(hl)],
    };
    let mut new = Vec::new();
    let latch_first = matches!(fall, Some(p) if inside(p));
    if latch_first {
        new.extend(lt.map(mk));
        new.extend(ph.map(mk));
    } else {
        new.extend(ph.map(mk));
        new.extend(lt.map(mk));
    }
    let n = new.len();
    insert_blocks(f, h, new);
    n
}

/// Gives one exit block of the loop a dedicated predecessor. Returns 1 when
/// a block was inserted.
fn dedicate_one_exit(f: &mut Function, v: &LoopView, l: &Loop) -> usize {
    if !loop_is_plain(f, v, l) {
        return 0;
    }
    let inside = |b: usize| l.blocks.binary_search(&b).is_ok();
    for x in v.exit_blocks(l) {
        let preds = &v.cfg.preds[x];
        if preds.iter().all(|&p| inside(p)) || v.address_taken[x] {
            continue;
        }
        if preds.iter().any(|&p| v.cfg.indirect[p]) {
            continue;
        }
        let fall = (x > 0 && v.cfg.falls_through[x - 1]).then(|| x - 1);
        if matches!(fall, Some(p) if !inside(p)) {
            continue;
        }
        let xl = f.blocks[x].label;
        let d = f.fresh_label();
        for &p in preds.iter().filter(|&&p| inside(p)) {
            retarget(f, p, xl, d);
        }
        insert_blocks(
            f,
            x,
            vec![Block {
                label: d,
                insts: vec![bra(xl)],
            }],
        );
        return 1;
    }
    0
}

/// Canonicalizes every loop; returns the number of blocks inserted. Each
/// insertion renumbers blocks, so the analyses are rebuilt after each.
pub fn simplify_loops(f: &mut Function) -> usize {
    let mut total = 0;
    // Every insertion gives a loop what it lacked, so this terminates; the
    // bound is a guard against a bug looping forever.
    for _ in 0..4 * f.blocks.len() + 16 {
        let v = LoopView::new(f);
        let mut did = 0;
        for l in &v.loops.loops {
            did = canonicalize_header(f, &v, l);
            if did > 0 {
                break;
            }
            did = dedicate_one_exit(f, &v, l);
            if did > 0 {
                break;
            }
        }
        if did == 0 {
            break;
        }
        total += did;
    }
    total
}

impl Phase for LoopSimplification {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = simplify_loops(&mut cx.function);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    fn canonical(f: &Function) -> bool {
        let v = LoopView::new(f);
        v.loops.loops.iter().all(|l| {
            let inside = |b: usize| l.blocks.binary_search(&b).is_ok();
            v.preheader(f, l).is_some()
                && l.latches.len() == 1
                && v.exit_blocks(l)
                    .iter()
                    .all(|&x| v.cfg.preds[x].iter().all(|&p| inside(p)))
        })
    }

    #[test]
    fn a_rotated_loop_gets_a_preheader_and_a_dedicated_exit() {
        // Block 0 branches to the exit 3 or falls into the header 1 (a
        // conditional predecessor: not a preheader); 2 is the latch; 3 is
        // reached from the loop and from 0.
        let mut f = func(
            ".L_x_0:
             ISETP.NE.AND P0, PT, R0, RZ, PT ;
             @P0 BRA .L_x_3 ;
             .L_x_1:
             IADD3 R1, R1, 0x1, RZ ;
             .L_x_2:
             ISETP.NE.AND P1, PT, R1, 0x8, PT ;
             @P1 BRA .L_x_1 ;
             .L_x_3:
             EXIT ;",
        );
        assert!(!canonical(&f));
        assert_eq!(simplify_loops(&mut f), 2);
        crate::ir::verify(&f, None).unwrap();
        assert!(canonical(&f));
        let text = crate::phases::loop_util::text(&f);
        // The preheader sits before the header, the dedicated exit before 3.
        let labels: Vec<u32> = f.blocks.iter().map(|b| b.label).collect();
        assert_eq!(labels, vec![0, 4, 1, 2, 5, 3], "{text}");
        assert_eq!(simplify_loops(&mut f), 0, "already canonical");
    }

    #[test]
    fn two_latches_merge_into_one_placed_where_the_fallthrough_needs_it() {
        // Header 1 with back edges from 2 and 3; block 0 is a preheader.
        let mut f = func(
            ".L_x_0:
             MOV R0, RZ ;
             .L_x_1:
             IADD3 R0, R0, 0x1, RZ ;
             ISETP.NE.AND P0, PT, R0, 0x3, PT ;
             @P0 BRA .L_x_3 ;
             .L_x_2:
             ISETP.NE.AND P1, PT, R0, 0x5, PT ;
             @P1 BRA .L_x_1 ;
             .L_x_3:
             ISETP.LT.AND P2, PT, R0, 0x9, PT ;
             @P2 BRA .L_x_1 ;
             .L_x_4:
             EXIT ;",
        );
        // Block 0 falls into the header: a single latch block would sit
        // between them, so a new preheader comes with it.
        assert_eq!(simplify_loops(&mut f), 2);
        crate::ir::verify(&f, None).unwrap();
        assert!(canonical(&f));
        let v = LoopView::new(&f);
        assert_eq!(v.loops.loops.len(), 1);
        assert_eq!(v.loops.loops[0].latches.len(), 1);
    }

    #[test]
    fn address_taken_headers_are_left_alone() {
        // The header is a BSSY reconvergence label: control may reach it
        // without a branch, so no block goes in front of it.
        let mut f = func(
            ".L_x_0:
             BSSY B0, .L_x_1 ;
             MOV R1, RZ ;
             .L_x_1:
             IADD3 R1, R1, 0x1, RZ ;
             .L_x_2:
             ISETP.NE.AND P1, PT, R1, 0x8, PT ;
             @P1 BRA .L_x_1 ;
             .L_x_3:
             BSYNC B0 ;
             EXIT ;",
        );
        let before = f.clone();
        assert_eq!(LoopView::new(&f).loops.loops.len(), 1);
        assert_eq!(simplify_loops(&mut f), 0);
        assert_eq!(f, before);
    }
}
