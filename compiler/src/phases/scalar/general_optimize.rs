//! GeneralOptimizeEarly (13), GeneralOptimize (29), GeneralOptimizeMid
//! (37), GeneralOptimizeMid2 (46), GeneralOptimizeLate (58),
//! GeneralOptimizeLate2 (65): ptxas's early peephole driver (docs/MODEL.md, Early peephole driver),
//!
//! ```text
//! do { changed = pattern_match | instruction_combine | constant_fold
//!              | strength_reduce | control_flow | dead_code; } while (changed);
//! ```
//!
//! Here one round is: copy and constant propagation
//! ([`super::copies::propagate`]: the pattern match and instruction
//! combine of copies, and the constant propagation ptxas's
//! `constant_fold` does), the one-instruction rules ([`super::fold`]:
//! constant folding, identities, strength reduction), branch simplification
//! ([`super::peephole::simplify_branches`]) and one dead-code round
//! ([`crate::phases::live_dead::live_dead`]); rounds repeat until a round
//! changes nothing (at NvOpt level 1, one round; at 0 and `-O0`, none).
//!
//! The six instances: ptxas's phase table names and places them, and its peephole driver
//! is one function (docs/MODEL.md, Early peephole driver); neither says how the instances differ. Here they
//! run the same driver and differ only by their position in the pipeline
//! and the index their rewrites are recorded under.

use super::fixed_point;
use crate::ir::analysis_cache::{self, Pass, Seen};
use crate::ir::Function;
use crate::phases::live_dead::live_dead_seen;
use crate::phases::phase::{Phase, PhaseContext, PhaseError};

pub struct GeneralOptimize {
    pub index: u16,
    pub rounds: usize,
}

/// One round of the driver; returns the count of rewrites.
pub fn round(f: &mut Function) -> usize {
    round_seen(f).0
}

/// [`round`], and the cache's answer for `f` as the round's dead-code
/// pass left it ([`live_dead_seen`]): it made the last change.
/// When copy propagation changed nothing, its answer for `f` goes to the
/// dead-code pass unless the rules after it changed `f`.
fn round_seen(f: &mut Function) -> (usize, Seen) {
    let (p, seen) = super::copies::propagate_seen(f);
    let rest = super::peephole::fold_all(f) + super::peephole::simplify_branches(f);
    let before = if p == 0 && rest == 0 {
        seen
    } else {
        Seen::NONE
    };
    let (d, seen) = live_dead_seen(f, 1, before);
    (p + rest + d, seen)
}

/// The driver: rounds until nothing changes or `rounds` ran. A function
/// equal to one where a round changed nothing is returned at once (each
/// part of [`round`] counts every change it makes, so zero means
/// unchanged; see [`analysis_cache`]).
pub fn general_optimize(f: &mut Function, rounds: usize) -> usize {
    if rounds == 0 || analysis_cache::is_clean(f, Pass::GeneralOptimize) {
        return 0;
    }
    let mut settled = None;
    let n = fixed_point(rounds, || {
        let (n, seen) = round_seen(f);
        settled = (n == 0).then_some(seen);
        n
    });
    // A round that changed nothing ends with the dead-code pass's answer
    // for `f`, which holds.
    if let Some(seen) = settled {
        analysis_cache::mark_clean_seen(f, Pass::GeneralOptimize, seen);
    }
    n
}

impl Phase for GeneralOptimize {
    fn index(&self) -> u16 {
        self.index
    }
    fn is_no_op(&self) -> bool {
        self.rounds == 0
    }
    fn execute(&self, cx: &mut PhaseContext) -> Result<(), PhaseError> {
        let n = general_optimize(&mut cx.function, self.rounds);
        cx.fire(self.index, n as u64);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phases::scalar::test_util::{func, norm, text};

    fn opt(src: &str) -> String {
        let mut f = func(src);
        general_optimize(&mut f, 32);
        crate::ir::verify(&f, None).unwrap();
        norm(&text(&f))
    }

    #[test]
    fn constants_fold_through_copies_and_dead_code_goes() {
        let got = opt(".L_x_0:
             MOV %r1, 0x3 ;
             IADD3 %r2, %r1, 0x4, RZ ;
             IMAD %r3, %r2, 0x2, RZ ;
             STG.E [%r8.64], %r3 ;
             EXIT ;");
        assert_eq!(
            got,
            norm(".L_x_0:\nMOV %r3, 0xe ;\nSTG.E [%r8.64], %r3 ;\nEXIT ;")
        );
    }

    /// The fixed point is recorded for the function it left (through the
    /// dead-code pass's answer, not a second comparison): an equal
    /// function returns at once, a different one runs.
    #[test]
    fn a_settled_function_is_known_clean() {
        let mut f = func(
            ".L_x_0:
             MOV %r1, 0x3 ;
             IADD3 %r2, %r1, 0x4, RZ ;
             STG.E [%r8.64], %r2 ;
             EXIT ;",
        );
        assert!(general_optimize(&mut f, 32) > 0);
        assert!(analysis_cache::is_clean(&f, Pass::GeneralOptimize));
        assert!(analysis_cache::is_clean(&f, Pass::DeadCode));
        let mut g = f.clone();
        assert_eq!(general_optimize(&mut g, 32), 0);
        assert_eq!(g, f);
        g.blocks[0].insts.insert(0, f.blocks[0].insts[0].clone());
        assert!(!analysis_cache::is_clean(&g, Pass::GeneralOptimize));
        assert!(general_optimize(&mut g, 32) > 0, "the duplicate is dead");
        assert_eq!(g, f);
    }

    #[test]
    fn multiply_by_a_power_of_two_becomes_a_shift() {
        let got = opt(".L_x_0:
             IMAD %r3, %r2, 0x8, RZ ;
             STG.E [%r8.64], %r3 ;
             EXIT ;");
        assert_eq!(
            got,
            norm(".L_x_0:\nIMAD.SHL.U32 %r3, %r2, 0x8, RZ ;\nSTG.E [%r8.64], %r3 ;\nEXIT ;")
        );
    }

    #[test]
    fn a_redefinition_between_copy_and_use_blocks_propagation() {
        // %r1 is overwritten after the copy: %r2 must keep reading %r2.
        let src = ".L_x_0:
             MOV %r2, %r1 ;
             IADD3 %r1, %r1, 0x1, RZ ;
             STG.E [%r8.64], %r2 ;
             STG.E [%r8.64], %r1 ;
             EXIT ;";
        let got = opt(src);
        assert!(got.contains("STG.E [%r8.64], %r2"), "{got}");
    }

    #[test]
    fn a_guarded_copy_is_not_a_fact() {
        let src = ".L_x_0:
             MOV %r2, 0x5 ;
             @%p0 MOV %r2, %r1 ;
             STG.E [%r8.64], %r2 ;
             EXIT ;";
        let got = opt(src);
        assert!(got.contains("STG.E [%r8.64], %r2"), "{got}");
        assert!(got.contains("@%p0 MOV %r2, %r1"), "{got}");
    }

    #[test]
    fn copies_do_not_cross_a_join_where_one_path_redefines() {
        let src = ".L_x_0:
             MOV %r2, 0x5 ;
             @%p0 BRA .L_x_2 ;
             .L_x_1:
             MOV %r2, %r1 ;
             .L_x_2:
             IADD3 %r3, %r2, 0x1, RZ ;
             STG.E [%r8.64], %r3 ;
             EXIT ;";
        let got = opt(src);
        assert!(got.contains("IADD3 %r3, %r2, 0x1, RZ"), "{got}");
    }

    #[test]
    fn float_folds_refuse_nan_and_keep_signed_zero_exact() {
        // 1.5 + 2.25 folds; x + 0.0 and x * 0 (x unknown) do not.
        let got = opt(".L_x_0:
             FADD %r1, 1.5, 2.25 ;
             FADD %r2, %r5, RZ ;
             FMUL %r3, %r5, RZ ;
             FADD %r4, -RZ, RZ ;
             STG.E [%r8.64], %r1 ;
             STG.E [%r8.64], %r2 ;
             STG.E [%r8.64], %r3 ;
             STG.E [%r8.64], %r4 ;
             EXIT ;");
        assert!(got.contains("MOV %r1, 0x40700000"), "{got}");
        assert!(got.contains("FADD %r2, %r5, RZ"), "{got}");
        assert!(got.contains("FMUL %r3, %r5, RZ"), "{got}");
        // -0 + +0 = +0 under round-to-nearest.
        assert!(got.contains("MOV %r4, 0x0"), "{got}");
        // INF * 0 is NaN: not folded.
        let got = opt(".L_x_0:
             FMUL %r1, +INF , RZ ;
             STG.E [%r8.64], %r1 ;
             EXIT ;");
        assert!(got.contains("FMUL"), "{got}");
    }

    #[test]
    fn branches_to_the_next_block_and_never_taken_ones_go() {
        let got = opt(".L_x_0:
             ISETP.GE.AND %p1, PT, %r1, %r2, PT ;
             @%p1 BRA .L_x_1 ;
             .L_x_1:
             @!PT BRA .L_x_3 ;
             .L_x_2:
             STG.E [%r8.64], %r1 ;
             .L_x_3:
             EXIT ;");
        assert!(!got.contains("BRA"), "{got}");
    }
}
