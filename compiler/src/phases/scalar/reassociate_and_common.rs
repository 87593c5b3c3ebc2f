//! OriReassociateAndCommon (50): reassociation of integer add and
//! multiply-by-constant chains ([`super::reassociation`]), then commoning
//! ([`super::cse`], no loads) with copy propagation, repeated until
//! nothing changes.

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct OriReassociateAndCommon {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub rounds: usize,
}

impl Phase for OriReassociateAndCommon {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let f = &mut cx.function;
        let n = super::fixed_point(self.rounds, || {
            let r = super::reassociation::reassociate(f);
            let c = super::cse::eliminate(f, false);
            if r + c > 0 {
                super::copies::propagate(f);
            }
            r + c
        });
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::phases::scalar::reassociation::reassociate;
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn constants_combine_along_chains() {
        let mut f = func(
            ".L_x_0:
             IADD3 %r2, %r1, 0x4, RZ ;
             IADD3 %r3, %r2, 0x8, RZ ;
             IMAD %r5, %r4, 0x3, RZ ;
             IMAD %r6, %r5, 0x5, RZ ;
             STG.E [%r8.64], %r3 ;
             STG.E [%r8.64], %r6 ;
             EXIT ;",
        );
        assert_eq!(reassociate(&mut f), 2);
        let got = norm(&text(&f));
        assert!(got.contains("IADD3 %r3, %r1, 0xc, RZ"), "{got}");
        assert!(got.contains("IMAD %r6, %r4, 0xf, RZ"), "{got}");
    }

    #[test]
    fn refused_when_a_leaf_is_redefined_between() {
        let mut f = func(
            ".L_x_0:
             IADD3 %r2, %r1, 0x4, RZ ;
             MOV %r1, 0x0 ;
             IADD3 %r3, %r2, 0x8, RZ ;
             STG.E [%r8.64], %r3 ;
             STG.E [%r8.64], %r1 ;
             EXIT ;",
        );
        assert_eq!(reassociate(&mut f), 0);
    }
}
