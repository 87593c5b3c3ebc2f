//! The liveness and dead-code phases: EarlyOriSimpleLiveDead (10),
//! OriPerformLiveDeadFirst..Fourth (16, 33, 61, 84), the ORI passes
//! OriPerformLiveDead (143) and OriDeadCodeScan (142, one round).
//!
//! A round computes liveness and removes what
//! [`crate::ir::remove::dead_instructions`] reports; removing may make
//! others dead, so rounds repeat until none is dead or the NvOpt level's
//! round count is spent ([`super::phase::PhaseConfig::dead_code_rounds`]).
//! An instruction is not removed when it is the last one of its block
//! (the verifier's `empty-block` invariant; a block of dead code keeps its
//! last instruction). At -O0 these phases are no-ops.

use super::phase::{Phase, PhaseContext, PhaseError};
use crate::ir::remove::dead_instructions;
use crate::ir::Function;

pub struct LiveDead {
    pub index: u16,
    pub rounds: usize,
    pub enabled: bool,
}

/// Removes the dead instructions (block, index) of `f`, keeping every block
/// non-empty; returns how many were removed.
pub fn remove_dead(f: &mut Function, dead: &[(usize, usize)]) -> usize {
    let mut removed = 0;
    let mut k = 0;
    for (b, blk) in f.blocks.iter_mut().enumerate() {
        let start = k;
        while k < dead.len() && dead[k].0 == b {
            k += 1;
        }
        let mut idx: Vec<usize> = dead[start..k].iter().map(|d| d.1).collect();
        if idx.is_empty() {
            continue;
        }
        if idx.len() == blk.insts.len() {
            idx.pop();
        }
        let mut i = 0;
        let mut j = 0;
        blk.insts.retain(|_| {
            let drop = j < idx.len() && idx[j] == i;
            if drop {
                j += 1;
            }
            i += 1;
            !drop
        });
        removed += idx.len();
    }
    removed
}

/// Up to `rounds` rounds of dead-code removal; returns the count removed.
pub fn live_dead(f: &mut Function, rounds: usize) -> usize {
    let mut total = 0;
    for _ in 0..rounds {
        let dead = dead_instructions(f);
        let n = remove_dead(f, &dead);
        total += n;
        if n == 0 {
            break;
        }
    }
    total
}

impl Phase for LiveDead {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled || self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = live_dead(&mut cx.function, self.rounds);
        cx.removed += n;
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    fn body() -> Function {
        // R1 <- R0 <- const: a chain; the first round removes MOV R1 (unread),
        // the second MOV R0 whose only reader was removed. Block 1 is
        // all-dead: its last instruction stays.
        func(
            ".L_x_0:
             MOV R0, 0x1 ;
             IADD3 R1, R0, 0x1, RZ ;
             MOV R2, 0x3 ;
             STG.E [R4.64], R2 ;
             .L_x_1:
             MOV R6, 0x1 ;
             MOV R7, 0x2 ;
             .L_x_2:
             EXIT ;",
        )
    }

    #[test]
    fn rounds_remove_chains_and_keep_blocks_non_empty() {
        let mut f = body();
        assert_eq!(live_dead(&mut f, 1), 2, "round 1: IADD3 R1 and MOV R6");
        assert_eq!(f.blocks[0].insts.len(), 3);
        assert_eq!(f.blocks[1].insts.len(), 1);
        assert_eq!(live_dead(&mut f, 1), 1, "round 2: MOV R0");
        assert_eq!(live_dead(&mut f, usize::MAX), 0);
        assert_eq!(f.blocks[0].insts.len(), 2);
        crate::ir::verify(&f, None).unwrap();
        let mut g = body();
        assert_eq!(live_dead(&mut g, usize::MAX), 3);
        assert_eq!(g, f);
    }
}
