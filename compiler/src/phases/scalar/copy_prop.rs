//! OriCopyProp (144): ptxas's global copy propagation (docs/MODEL.md, OriPerformLiveDead and OriCopyProp), the pass the ORI
//! manager injects before each `cpyN` round. Copy and constant
//! propagation over available copies ([`super::copies::propagate`]),
//! repeated until nothing changes; the copies it leaves dead are the next
//! dead-code round's.

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct OriCopyProp {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub rounds: usize,
}

impl Phase for OriCopyProp {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let f = &mut cx.function;
        let n = super::fixed_point(self.rounds, || super::copies::propagate(f));
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::phases::scalar::copies::propagate;
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn copies_chain_across_blocks_and_pairs_rewrite_whole() {
        let mut f = func(
            ".L_x_0:
             MOV %r22, %r28 ;
             MOV %r23, %r29 ;
             MOV %r3, %r2 ;
             ISETP.GE.AND %p1, PT, %r3, 0x4, PT ;
             @%p1 BRA .L_x_2 ;
             .L_x_1:
             MOV %r4, %r3 ;
             STG.E [%r22.64], %r4 ;
             .L_x_2:
             EXIT ;",
        );
        // Round 1 rewrites each use from the copy it sees (%r4 -> %r3 is
        // right: %r3 still holds %r4's value); round 2 finishes the chain.
        assert_eq!(propagate(&mut f), 4);
        assert_eq!(propagate(&mut f), 1);
        assert_eq!(propagate(&mut f), 0);
        let got = norm(&text(&f));
        assert!(got.contains("ISETP.GE.AND %p1, PT, %r2, 0x4, PT"), "{got}");
        assert!(got.contains("MOV %r4, %r2"), "{got}");
        assert!(got.contains("STG.E [%r28.64], %r2"), "{got}");
    }

    #[test]
    fn a_redefined_source_or_a_guarded_def_stops_it() {
        let mut f = func(
            ".L_x_0:
             MOV %r3, %r2 ;
             IADD3 %r2, %r2, 0x1, RZ ;
             IADD3 %r5, %r3, 0x1, RZ ;
             MOV %r6, %r7 ;
             @%p0 IADD3 %r6, %r6, 0x1, RZ ;
             IADD3 %r8, %r6, 0x1, RZ ;
             MOV %r10, %r11 ;
             CALL.REL.NOINC .L_x_1 ;
             IADD3 %r12, %r10, 0x1, RZ ;
             EXIT ;
             .L_x_1:
             RET.REL.NODEC %r20 0x0 ;",
        );
        propagate(&mut f);
        let got = norm(&text(&f));
        // Redefined source: %r5 keeps reading %r3.
        assert!(got.contains("IADD3 %r5, %r3, 0x1, RZ"), "{got}");
        // The guarded redefinition may read the copy (it runs where %r6 is
        // still %r7), but after it %r6 is no longer a copy.
        assert!(got.contains("@%p0 IADD3 %r6, %r7, 0x1, RZ"), "{got}");
        assert!(got.contains("IADD3 %r8, %r6, 0x1, RZ"), "{got}");
        // The call may write any register.
        assert!(got.contains("IADD3 %r12, %r10, 0x1, RZ"), "{got}");
    }

    #[test]
    fn constants_go_to_the_slot_sass_encodes_them_in() {
        let mut f = func(
            ".L_x_0:
             MOV %r32, c[0x0][0x168] ;
             MOV %r3, 0x3f800000 ;
             FFMA %r11, %r32, %r8, %r9 ;
             IADD3 %r36, %p5, %r32, %r42, RZ ;
             FADD %r12, %r11, %r3 ;
             LOP3.LUT %r13, %r32, %r8, RZ, 0xc0, !PT ;
             STG.E [%r36.64], %r11 ;
             STG.E [%r36.64], %r12 ;
             STG.E [%r36.64], %r13 ;
             EXIT ;",
        );
        // Two operands change in each of the two swapped instructions.
        assert_eq!(propagate(&mut f), 4);
        let got = norm(&text(&f));
        // Commutative: the constant takes the second slot.
        assert!(got.contains("FFMA %r11, %r8, c[0x0][0x168], %r9"), "{got}");
        assert!(
            got.contains("IADD3 %r36, %p5, %r42, c[0x0][0x168], RZ"),
            "{got}"
        );
        // No integer immediate into a float operation; LOP3's first slot
        // holds no constant and LOP3 is not swapped (its LUT would change).
        assert!(got.contains("FADD %r12, %r11, %r3"), "{got}");
        assert!(
            got.contains("LOP3.LUT %r13, %r32, %r8, RZ, 0xc0, !PT"),
            "{got}"
        );
    }

    #[test]
    fn one_word_of_a_pair_is_not_enough() {
        let mut f = func(
            ".L_x_0:
             MOV %r22, %r28 ;
             STG.E [%r22.64], %r4 ;
             EXIT ;",
        );
        assert_eq!(propagate(&mut f), 0);
    }
}
