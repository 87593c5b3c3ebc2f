//! OriBranchOpt (15): branch simplification and folding, the
//! control-flow part of ptxas's peephole driver (docs/MODEL.md, Early peephole driver) on its own: branches
//! that never run go, an `@PT` guard is dropped, a branch to the block
//! right after it in layout goes ([`super::peephole::simplify_branches`]),
//! repeated until nothing changes.

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct OriBranchOpt {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub rounds: usize,
}

impl Phase for OriBranchOpt {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let f = &mut cx.function;
        let n = super::fixed_point(self.rounds, || super::peephole::simplify_branches(f));
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn guarded_branch_to_the_fall_through_goes_but_a_real_one_stays() {
        let mut f = func(
            ".L_x_0:
             @%p1 BRA .L_x_1 ;
             .L_x_1:
             @PT BRA .L_x_3 ;
             .L_x_2:
             STG.E [%r8.64], %r1 ;
             .L_x_3:
             EXIT ;",
        );
        let n = super::super::peephole::simplify_branches(&mut f);
        assert_eq!(n, 2, "the @PT guard, the branch to the next block");
        // Block 0 became empty: it is gone, its label retargeted to the
        // next block.
        assert_eq!(
            norm(&text(&f)),
            norm(".L_x_1:\nBRA .L_x_3 ;\n.L_x_2:\nSTG.E [%r8.64], %r1 ;\n.L_x_3:\nEXIT ;")
        );
    }
}
