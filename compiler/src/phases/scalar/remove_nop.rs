//! OriRemoveNopCode (107): removes `NOP`s, self-copies (`MOV R3, R3`,
//! guarded or not), instructions that never run (`@!PT`), and branches to
//! the next block in layout ([`super::peephole::remove_nops`]). A block
//! keeps its last instruction (the verifier's `empty-block`).

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct OriRemoveNopCode {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub enabled: bool,
}

impl Phase for OriRemoveNopCode {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        !self.enabled
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = super::peephole::remove_nops(&mut cx.function);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::phases::scalar::peephole::remove_nops;
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn nops_self_moves_and_fall_through_branches_go() {
        let mut f = func(
            ".L_x_0:
             NOP ;
             MOV R3, R3 ;
             @P0 IMAD.MOV.U32 R4, RZ, RZ, R4 ;
             MOV R5, R6 ;
             @!PT STG.E [R8.64], R5 ;
             BRA .L_x_1 ;
             .L_x_1:
             NOP ;
             .L_x_2:
             STG.E [R8.64], R5 ;
             EXIT ;",
        );
        // Block .L_x_1 held only a NOP: it goes with it.
        assert_eq!(remove_nops(&mut f), 6);
        assert_eq!(
            norm(&text(&f)),
            norm(".L_x_0:\nMOV R5, R6 ;\n.L_x_2:\nSTG.E [R8.64], R5 ;\nEXIT ;")
        );
    }
}
