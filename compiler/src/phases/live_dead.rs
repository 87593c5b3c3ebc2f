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
use std::rc::Rc;

use crate::ir::analysis_cache::{self, Lookup, Pass, Seen};
use crate::ir::cfg::Cfg;
use crate::ir::remove::dead_instructions_with;
use crate::ir::Function;

pub struct LiveDead {
    pub index: u16,
    pub rounds: usize,
    pub enabled: bool,
}

/// Removes the dead instructions (block, index) of `f`, keeping every block
/// non-empty; returns the (block, index) of those removed, in order.
pub fn remove_dead(f: &mut Function, dead: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut removed = Vec::with_capacity(dead.len());
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
        removed.extend(idx.into_iter().map(|i| (b, i)));
    }
    removed
}

/// Up to `rounds` rounds of dead-code removal; returns the count removed.
/// Each round asks the liveness of the function as the previous round
/// left it; the update after a removal reuses the other instructions'
/// steps ([`Liveness::after_removal`]) instead of recomputing them.
///
/// A function equal to one a previous call left with nothing to remove is
/// returned untouched at once, and the first round's liveness comes from
/// [`analysis_cache`] (both exact: see there).
pub fn live_dead(f: &mut Function, rounds: usize) -> usize {
    live_dead_seen(f, rounds, Seen::NONE).0
}

/// [`live_dead`], and when it removed nothing, the cache's answer for `f`
/// as left (equal: the entry holds `f`), for a caller that records more
/// about the unchanged `f` ([`analysis_cache::Seen`]); [`Seen::NONE`]
/// otherwise.
///
/// `before` is the cache's answer for `f` as the caller got it (and left
/// `f` unchanged since), or [`Seen::NONE`].
pub fn live_dead_seen(f: &mut Function, rounds: usize, before: Seen) -> (usize, Seen) {
    if rounds == 0 {
        return (0, Seen::NONE);
    }
    // The first round's liveness; `f` is copied into the cache only once
    // it is known to stay (a round that removes something changes it).
    let lookup = analysis_cache::liveness_or_compute_seen(f, Pass::DeadCode, before);
    let (mut live, cached, seen) = match lookup {
        Lookup::Clean(seen) => return (0, seen),
        Lookup::Live { live, cached, seen } => (live, cached, seen),
    };
    let mut total = 0;
    for round in 1..=rounds {
        let dead = dead_instructions_with(f, &live);
        let removed = remove_dead(f, &dead);
        total += removed.len();
        if removed.is_empty() {
            // In the first round `f` is the function looked up: the
            // lookup's answer still holds.
            let seen = if round == 1 { seen } else { Seen::NONE };
            let after = if round == 1 && !cached {
                // `live` is `Liveness::new(f)`: worth keeping with `f`.
                analysis_cache::remember_seen(f, live, Pass::DeadCode, seen)
            } else {
                analysis_cache::mark_clean_seen(f, Pass::DeadCode, seen)
            };
            return (total, if total == 0 { after } else { Seen::NONE });
        }
        if round == rounds {
            break;
        }
        // `f` changed: a cached copy is stale; dropping it leaves `live`
        // the only owner, updated in place rather than copied.
        if round == 1 && cached {
            analysis_cache::forget();
        }
        let owned = Rc::try_unwrap(live).unwrap_or_else(|rc| (*rc).clone());
        live = Rc::new(owned.after_removal(f, &Cfg::new(f), &removed));
    }
    (total, Seen::NONE)
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
    use crate::ir::liveness::Liveness;

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

    /// The incremental update gives, round after round, exactly the dead
    /// set a fresh liveness computation gives, on every corpus kernel as
    /// lowered (lowering leaves dead chains: unused parameter loads,
    /// address halves, flags).
    #[test]
    fn incremental_rounds_match_fresh_liveness_on_the_corpus() {
        use crate::ir::remove::dead_instructions;
        let (mut kernels, mut rounds_checked) = (0, 0);
        for (name, mut f) in crate::lower::tests::lowered_corpus("sm_80") {
            kernels += 1;
            let mut live = Liveness::new(&f, &Cfg::new(&f));
            loop {
                let got = dead_instructions_with(&f, &live);
                assert_eq!(got, dead_instructions(&f), "{name}: round {rounds_checked}");
                let removed = remove_dead(&mut f, &got);
                if removed.is_empty() {
                    break;
                }
                rounds_checked += 1;
                live = live.after_removal(&f, &Cfg::new(&f), &removed);
            }
        }
        assert!(kernels >= 10, "{kernels} kernels");
        assert!(
            rounds_checked >= kernels,
            "{rounds_checked} rounds removed code"
        );
    }
}
