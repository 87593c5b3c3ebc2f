//! PlaceBlocksInSourceOrder (112): "reorder blocks to match source order"
//! (ptxas's phase table says no more; docs/MODEL.md, Phase table). The source order is the layout
//! AnalyzeControlFlow (3) recorded ([`CfgFacts::layout`]): the lowering
//! lays blocks out in PTX statement order, with the blocks an instruction
//! expands into inline and the `.func` bodies after the kernel. Phases may
//! since have moved blocks (a loop's latch placed where its fallthrough
//! needs it, if-conversion merging arms) and added some (preheaders,
//! unrolled copies).
//!
//! The rule: a block the source order knows sorts by its source position;
//! a block added since travels with the block laid out before it (a chain
//! headed by a known block, in the current order), so a preheader stays in
//! front of its loop and an unrolled copy behind the body it copies. The
//! entry stays first. [`lay_out`] then keeps every path: a block whose
//! fallthrough successor is no longer next gets `BRA successor`, and an
//! unconditional `BRA` to the block that is now next goes (unless it is
//! its block's only instruction).
//!
//! Not reordered (the phase leaves the function as it is): a function with
//! an indirect branch (`BRX`/`JMX`, whose candidate targets are the blocks
//! laid out after it, `ir::cfg`), and a function AnalyzeControlFlow did not
//! see (no facts: the `cfg-analysis-first` constraint keeps that from
//! happening in a pipeline).

use super::control_flow::CfgFacts;
use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::cfg::{falls_through, is_indirect, is_terminator};
use crate::ir::{Block, Function, Op};
use std::collections::BTreeSet;

pub struct PlaceBlocksInSourceOrder {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub enabled: bool,
}

impl Phase for PlaceBlocksInSourceOrder {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let Some(facts) = &cx.cfg else {
            return Ok(());
        };
        if let Some(order) = source_order(&cx.function, facts) {
            let moved = moved_blocks(&order);
            cx.function = lay_out(&cx.function, &order);
            cx.fire(self.index, moved as u64);
        }
        Ok(())
    }
}

/// The block indices of `f` in source order, or `None` when the phase
/// leaves `f` alone (already in order, or an indirect branch).
pub fn source_order(f: &Function, facts: &CfgFacts) -> Option<Vec<usize>> {
    if f.insts().any(is_indirect) {
        return None;
    }
    let rank = |label: u32| facts.layout.iter().position(|&l| l == label);
    // Chains: a known block and the new blocks laid out after it.
    let mut chains: Vec<(usize, Vec<usize>)> = Vec::new();
    for (b, blk) in f.blocks.iter().enumerate() {
        match (rank(blk.label), chains.last_mut()) {
            (Some(r), _) => chains.push((r, vec![b])),
            (None, Some(c)) => c.1.push(b),
            // A new block before every known one: keep it first.
            (None, None) => chains.push((0, vec![b])),
        }
    }
    // The entry's chain stays first whatever its rank.
    let entry = chains.remove(0);
    chains.sort_by_key(|c| c.0);
    let order: Vec<usize> = std::iter::once(entry)
        .chain(chains)
        .flat_map(|c| c.1)
        .collect();
    order
        .iter()
        .enumerate()
        .any(|(i, &b)| i != b)
        .then_some(order)
}

/// How many blocks an order moves (those not at their current index).
fn moved_blocks(order: &[usize]) -> usize {
    order.iter().enumerate().filter(|&(i, &b)| i != b).count()
}

/// `f` with its blocks laid out in `order` (a permutation of the block
/// indices, the entry first), every control path kept: see the module
/// comment. A block that ends in a conditional transfer (`@P0 BRA`, a
/// guarded `EXIT`) and loses its fallthrough gets its `BRA successor` in a
/// new block of its own right after it (the verifier's
/// `misplaced-control`: one transfer per block, at its end). Then a block
/// that is only `BRA next` and that no instruction names goes: laying the
/// order out again undoes the blocks an earlier layout added. Also the
/// layout shuffler of the tests.
pub fn lay_out(f: &Function, order: &[usize]) -> Function {
    debug_assert_eq!(order.len(), f.blocks.len());
    let mut fresh = f.fresh_label();
    let mut blocks: Vec<Block> = Vec::with_capacity(order.len());
    for (i, &b) in order.iter().enumerate() {
        let mut blk = f.blocks[b].clone();
        let old_next = f.blocks.get(b + 1).map(|n| n.label);
        let new_next = order.get(i + 1).map(|&n| f.blocks[n].label);
        match old_next {
            Some(to) if falls_through(blk.insts.last()) && old_next != new_next => {
                if blk.insts.last().is_some_and(is_terminator) {
                    blocks.push(blk);
                    blk = Block {
                        label: fresh,
                        insts: Vec::new(),
                    };
                    fresh += 1;
                }
                blk.insts.push(super::loop_util::bra(to));
            }
            _ if blk.insts.len() > 1
                && blk.insts.last().is_some_and(|l| is_plain_jump(l, new_next)) =>
            {
                blk.insts.pop();
            }
            _ => {}
        }
        blocks.push(blk);
    }
    drop_jumps_to_next(&mut blocks);
    Function {
        blocks,
        ..f.clone()
    }
}

/// Removes the blocks (never the entry) that are one plain `BRA` to the
/// block laid out next and that no instruction names: whatever reaches
/// them falls through, and they only pass it on.
fn drop_jumps_to_next(blocks: &mut Vec<Block>) {
    let named: BTreeSet<u32> = blocks
        .iter()
        .flat_map(|b| b.insts.iter().flat_map(|i| i.targets()))
        .collect();
    let mut i = 1;
    while i < blocks.len() {
        let next = blocks.get(i + 1).map(|n| n.label);
        let blk = &blocks[i];
        if blk.insts.len() == 1 && is_plain_jump(&blk.insts[0], next) && !named.contains(&blk.label)
        {
            blocks.remove(i);
        } else {
            i += 1;
        }
    }
}

/// An unconditional, unguarded, unmodified `BRA L` with `L` = `to`.
fn is_plain_jump(i: &crate::ir::Inst, to: Option<u32>) -> bool {
    i.op == Op::BRA
        && i.guard.is_none()
        && i.mods.is_empty()
        && i.operands.len() == 1
        && to.is_some()
        && i.targets().eq(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phases::control_flow::CfgFacts;

    fn func(text: &str) -> Function {
        crate::ir::cfg::tests::func(text)
    }

    fn labels(f: &Function) -> Vec<u32> {
        f.blocks.iter().map(|b| b.label).collect()
    }

    const DIAMOND: &str = "
        .L_x_0:
         ISETP.NE.AND P0, PT, R0, RZ, PT ;
         @P0 BRA .L_x_2 ;
        .L_x_1:
         IADD3 R1, R1, 0x1, RZ ;
        .L_x_2:
         IADD3 R2, R2, 0x1, RZ ;
         EXIT ;";

    #[test]
    fn a_moved_block_goes_back_and_fallthroughs_get_branches() {
        let f = func(DIAMOND);
        let facts = CfgFacts::of(&f);
        // Scrambled: 0, 2, 1. Block 0 fell into 1, block 1 into 2.
        let g = lay_out(&f, &[0, 2, 1]);
        // 0 ends in `@P0 BRA 2` and fell into 1: `BRA 1` follows in a new
        // block 3 (one transfer per block); 1 fell into 2 and now ends the
        // function: `BRA 2`.
        assert_eq!(labels(&g), [0, 3, 2, 1]);
        crate::ir::verify(&g, None).unwrap();
        assert_eq!(g.blocks[0], f.blocks[0]);
        assert_eq!(g.blocks[1].insts, [crate::phases::loop_util::bra(1)]);
        assert_eq!(g.blocks[2], f.blocks[2]);
        let last = g.blocks[3].insts.last().unwrap();
        assert_eq!((last.op, last.guard), (Op::BRA, None));
        assert!(last.targets().eq([2]));
        // Block 3 is new: it travels with the entry.
        let order = source_order(&g, &facts).expect("out of order");
        assert_eq!(order, [0, 1, 3, 2]);
        let h = lay_out(&g, &order);
        assert_eq!(labels(&h), [0, 1, 2]);
        // The branches the scramble added are gone again.
        assert_eq!(h, f);
        // In order already: nothing to do.
        assert_eq!(source_order(&h, &facts), None);
    }

    #[test]
    fn new_blocks_travel_with_the_block_before_them() {
        let f = func(DIAMOND);
        let facts = CfgFacts::of(&f);
        // A new block 9 (say, a preheader) after block 2, and 2 before 1.
        let mut g = lay_out(&f, &[0, 2, 1]);
        assert_eq!(labels(&g), [0, 3, 2, 1]);
        let mut new = g.blocks[2].clone();
        new.label = 9;
        new.insts = vec![crate::phases::loop_util::bra(1)];
        g.blocks.insert(3, new);
        let order = source_order(&g, &facts).unwrap();
        let labels_in_order: Vec<u32> = order.iter().map(|&b| g.blocks[b].label).collect();
        assert_eq!(labels_in_order, [0, 3, 1, 2, 9]);
    }

    #[test]
    fn indirect_branches_pin_the_layout() {
        let f = func(
            ".L_x_0:
             BRX R2 -0x10 ;
            .L_x_1:
             EXIT ;
            .L_x_2:
             EXIT ;",
        );
        let facts = CfgFacts {
            layout: vec![0, 2, 1],
            ..CfgFacts::of(&f)
        };
        assert_eq!(source_order(&f, &facts), None);
    }
}
