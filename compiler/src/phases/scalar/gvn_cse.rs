//! GvnCse (49): global value numbering and common-subexpression
//! elimination ([`super::cse`]), with copy propagation before each round
//! (so equal values get equal names) and repeated until nothing changes.
//! Loads are merged from NvOpt level 2 (the default is 3).

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct GvnCse {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub rounds: usize,
    pub loads: bool,
}

impl Phase for GvnCse {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let f = &mut cx.function;
        let loads = self.loads;
        let n = super::fixed_point(self.rounds, || {
            let c = super::cse::eliminate(f, loads);
            if c > 0 {
                super::copies::propagate(f);
            }
            c
        });
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::phases::scalar::cse::eliminate;
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn a_dominating_computation_is_reused_commuted_or_not() {
        let mut f = func(
            ".L_x_0:
             IADD3 %r3, %r1, %r2, RZ ;
             @%p0 BRA .L_x_2 ;
             .L_x_1:
             IADD3 %r4, %r2, %r1, RZ ;
             STG.E [%r8.64], %r4 ;
             .L_x_2:
             IMAD.WIDE %r10, %r1, 0x4, RZ ;
             IMAD.WIDE %r12, %r1, 0x4, RZ ;
             STG.E [%r10.64], %r3 ;
             STG.E [%r12.64], %r3 ;
             EXIT ;",
        );
        assert_eq!(eliminate(&mut f, true), 2);
        let got = norm(&text(&f));
        assert!(got.contains("MOV %r4, %r3"), "{got}");
        assert!(got.contains("MOV %r12, %r10 ;\nMOV %r13, %r11"), "{got}");
    }

    #[test]
    fn refused_across_redefinition_store_side_effects_and_warp_ops() {
        let mut f = func(
            ".L_x_0:
             IADD3 %r3, %r1, %r2, RZ ;
             IADD3 %r1, %r1, 0x1, RZ ;
             IADD3 %r4, %r1, %r2, RZ ;
             LDG.E %r5, [%r8.64] ;
             STG.E [%r10.64], %r4 ;
             LDG.E %r6, [%r8.64] ;
             S2R %r11, SR_CLOCKLO ;
             S2R %r12, SR_CLOCKLO ;
             VOTE.ANY %r13, PT, %p1 ;
             VOTE.ANY %r14, PT, %p1 ;
             IADD3 %r15, %p2, %r1, %r2, RZ ;
             IADD3 %r16, %p3, %r1, %r2, RZ ;
             STG.E [%r10.64], %r3 ;
             EXIT ;",
        );
        let before = f.clone();
        assert_eq!(eliminate(&mut f, true), 0, "{}", text(&f));
        assert_eq!(f, before);
    }

    #[test]
    fn loads_merge_when_nothing_may_write_between() {
        let mut f = func(
            ".L_x_0:
             LDG.E %r5, [%r8.64] ;
             IADD3 %r7, %r5, 0x1, RZ ;
             LDG.E %r6, [%r8.64] ;
             STG.E [%r10.64], %r6 ;
             STG.E [%r10.64], %r7 ;
             EXIT ;",
        );
        let mut g = f.clone();
        assert_eq!(eliminate(&mut g, false), 0, "loads off");
        assert_eq!(eliminate(&mut f, true), 1);
        assert!(norm(&text(&f)).contains("MOV %r6, %r5"));
    }
}
