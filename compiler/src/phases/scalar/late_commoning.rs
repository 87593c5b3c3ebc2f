//! LateOriCommoning (64): late value commoning, after predication has made
//! new straight-line code: common-subexpression elimination of pure
//! computations ([`super::cse`]; no loads: by this point loads have been
//! merged by GvnCse and predication may have guarded stores between them)
//! with copy propagation, repeated until nothing changes.

use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct LateOriCommoning {
    /// The table row it was built for (its index, and the index its
    /// rewrites are counted under).
    pub index: u16,
    pub rounds: usize,
}

impl Phase for LateOriCommoning {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let f = &mut cx.function;
        let n = super::fixed_point(self.rounds, || {
            let c = super::cse::eliminate(f, false);
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
    use crate::phases::phase::{Phase, PhaseContext};
    use crate::phases::scalar::test_util::{func, norm, text};

    #[test]
    fn guarded_recomputation_becomes_a_guarded_copy() {
        let f = func(
            ".L_x_0:
             LOP3.LUT %r3, %r1, 0xff, RZ, 0xc0, !PT ;
             @%p0 LOP3.LUT %r4, %r1, 0xff, RZ, 0xc0, !PT ;
             STG.E [%r8.64], %r3 ;
             STG.E [%r8.64], %r4 ;
             EXIT ;",
        );
        let mut cx = PhaseContext::new(f, None);
        let index = crate::phases::table::index_of("LateOriCommoning");
        super::LateOriCommoning { index, rounds: 4 }
            .execute(&mut cx)
            .unwrap();
        assert_eq!(cx.fired.get(&index), Some(&1));
        assert!(norm(&text(&cx.function)).contains("@%p0 MOV %r4, %r3"));
    }
}
