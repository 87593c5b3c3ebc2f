//! NVVMSinking2 (cicc's, docs/MODEL.md, NvOpt pipelines: "NVIDIA's enhanced sinking pass",
//! knob `no-sinking2`; gated by the SM-specific group, on by default):
//! like [`super::sink::Sink`] but an instruction travels as far down as it
//! can: from its block through a chain of successors, each the only
//! predecessor-successor step (`U`'s only predecessor is the previous
//! block), to the last block that still dominates every use. Such a chain
//! runs at most once per run of the original block, so nothing moves into
//! a loop or onto a new path.
//!
//! Only pure instructions move ([`Inst::is_pure`], no integer
//! `div`/`rem`): never a load (a chain may cross stores and atomics in
//! the blocks it passes). The chain never enters a block holding a
//! barrier or another convergent instruction
//! ([`super::loop_util::is_convergent`]), so nothing is moved across a
//! barrier.

use super::loop_util::{dominates, is_convergent};
use super::sink::sink_with;
use super::Pass;
use crate::nvopt::ir::*;

pub struct Sinking2;

fn deepest(
    f: &Function,
    idom: &[Option<BlockId>],
    preds: &[Vec<BlockId>],
    b: usize,
    uses: &[BlockId],
) -> Option<BlockId> {
    let mut cur = BlockId(b as u32);
    let mut steps = 0;
    loop {
        let next = f.blocks[cur.idx()].term.succs().into_iter().find(|&s| {
            preds[s.idx()].len() == 1
                && s.idx() != b
                && s != cur
                && !f.blocks[s.idx()].insts.iter().any(is_convergent)
                && uses.iter().all(|&u| dominates(idom, s, u))
        });
        match next {
            Some(s) if steps < f.blocks.len() => {
                cur = s;
                steps += 1;
            }
            _ => break,
        }
    }
    (cur.idx() != b).then_some(cur)
}

impl Pass for Sinking2 {
    fn name(&self) -> &'static str {
        "sinking2"
    }

    fn run(&self, f: &mut Function) -> bool {
        sink_with(f, false, &deepest)
    }
}
