//! OriBackCopyPropagate (83): backward copy propagation
//! ([`super::backward_copies::back_propagate`]), repeated until nothing changes.

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct OriBackCopyPropagate {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub rounds: usize,
}

impl Phase for OriBackCopyPropagate {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let f = &mut cx.function;
        let n = super::fixed_point(self.rounds, || super::backward_copies::back_propagate(f));
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::phases::scalar::backward_copies::back_propagate;
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn the_temporary_goes() {
        let mut f = func(
            ".L_x_0:
             IADD3 %r5, %r1, %r2, RZ ;
             IADD3 %r6, %r1, 0x1, RZ ;
             MOV %r9, %r5 ;
             STG.E [%r8.64], %r9 ;
             STG.E [%r8.64], %r6 ;
             EXIT ;",
        );
        assert_eq!(back_propagate(&mut f), 1);
        assert_eq!(
            norm(&text(&f)),
            norm(".L_x_0:\nIADD3 %r9, %r1, %r2, RZ ;\nIADD3 %r6, %r1, 0x1, RZ ;\nSTG.E [%r8.64], %r9 ;\nSTG.E [%r8.64], %r6 ;\nEXIT ;")
        );
    }

    #[test]
    fn refused_when_the_copy_target_is_read_between_or_the_temp_lives_on() {
        for src in [
            // %r9 read between the definition and the copy.
            ".L_x_0:
             IADD3 %r5, %r1, %r2, RZ ;
             STG.E [%r8.64], %r9 ;
             MOV %r9, %r5 ;
             STG.E [%r8.64], %r9 ;
             EXIT ;",
            // %r5 read after the copy.
            ".L_x_0:
             IADD3 %r5, %r1, %r2, RZ ;
             MOV %r9, %r5 ;
             STG.E [%r8.64], %r9 ;
             STG.E [%r8.64], %r5 ;
             EXIT ;",
            // a guarded definition.
            ".L_x_0:
             @%p0 IADD3 %r5, %r1, %r2, RZ ;
             MOV %r9, %r5 ;
             STG.E [%r8.64], %r9 ;
             EXIT ;",
        ] {
            let mut f = func(src);
            assert_eq!(back_propagate(&mut f), 0, "{src}");
        }
    }
}
