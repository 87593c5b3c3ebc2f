//! The ORI named-phase manager (docs/MODEL.md, ORI named-phase manager: build the opcode
//! sequence, then run it).
//!
//! - [`knob`]: the `key=value` knob string and the ORI keys (`ori`,
//!   `shuffle`, `NamedPhases`, `reps`, `swap1..6`, `cpy1..3`, `dce1..3`,
//!   `p0..p242`);
//! - [`sequence`]: the builder (default, shuffle with the OriPerformLiveDead
//!   and OriCopyProp injections and the swaps, NamedPhases) and the
//!   popcount diff;
//! - here: the executor and the name lookup.
//!
//! Opcodes are phase indices (ptxas's ORI lookup returns the
//! PhaseManager's NOP sentinel, 158, for an unknown name), so the executor
//! runs the PhaseManager's phases, built by the same factory. Opcodes past
//! the table (NamedPhases' hardcoded 256..=316, or a `pN` of 159..=256)
//! run as NOPs, as do the ORI manager itself (139: no recursion) and the
//! final emission (157: the top-level order's last phase, not an ORI pass).
//!
//! Why this lives inside `phases`: the ORI manager is itself a phase (139,
//! dispatched by the phase table) and it runs other phases (built by the
//! phase factory), so a separate top-level module would depend on `phases`
//! while `phases` depended on it. Of the ways out (a callback the driver
//! hands the phase manager, or this nesting) the nesting is the smallest
//! surprise: nothing calls the ORI manager except the phase pipeline, and
//! no indirection hides which code runs.

pub mod knob;
pub mod sequence;

use crate::phases::phase::{create, PhaseConfig, PhaseContext, PhaseError};
use crate::phases::table::{EMIT, ORI_MANAGER};
pub use knob::{KnobError, OriKnobs, OriMode};
pub use sequence::{build, OriSequence};

/// ptxas's ORI name lookup: a name's opcode, case-insensitively; 158 for
/// an unknown name.
pub fn lookup(name: &str) -> u16 {
    crate::phases::table::lookup(name)
}

/// The phase index an opcode runs, `None` for a NOP.
pub fn runnable(op: i32) -> Option<u16> {
    let i = u16::try_from(op).ok()?;
    (usize::from(i) < crate::phases::table::PHASE_COUNT && i != ORI_MANAGER && i != EMIT)
        .then_some(i)
}

/// Whether running `seq` would execute any phase that is not a no-op.
pub fn runs_anything(seq: &OriSequence, cfg: &PhaseConfig) -> bool {
    seq.opcodes
        .iter()
        .filter_map(|&o| runnable(o))
        .any(|i| create(i, cfg).is_some_and(|p| !p.is_no_op()))
}

/// What one run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OriRun {
    /// Entries whose phase executed (not a no-op).
    pub executed: usize,
    /// Entries that were NOPs or no-op phases.
    pub skipped: usize,
}

/// The executor (docs/MODEL.md, ORI sequence): each opcode's phase, in order, unless it
/// is a no-op.
pub fn execute(
    seq: &OriSequence,
    cfg: &PhaseConfig,
    cx: &mut PhaseContext,
) -> Result<OriRun, PhaseError> {
    let mut run = OriRun::default();
    // Build each distinct phase once.
    let mut built: Vec<Option<Box<dyn crate::phases::phase::Phase>>> = (0
        ..crate::phases::table::PHASE_COUNT)
        .map(|_| None)
        .collect();
    for &op in &seq.opcodes {
        let Some(i) = runnable(op) else {
            run.skipped += 1;
            continue;
        };
        let slot = &mut built[usize::from(i)];
        if slot.is_none() {
            *slot = create(i, cfg);
        }
        match slot {
            Some(p) if !p.is_no_op() => {
                p.execute(cx)?;
                run.executed += 1;
            }
            _ => run.skipped += 1,
        }
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    #[test]
    fn opcodes_past_the_table_and_the_manager_itself_are_nops() {
        use crate::phases::table::{index_of, NOP, PHASE_COUNT};
        let first = i32::from(index_of("OriPerformLiveDeadFirst"));
        assert_eq!(runnable(first), Some(first as u16));
        assert_eq!(runnable(i32::from(NOP)), Some(NOP));
        assert_eq!(runnable(i32::from(ORI_MANAGER)), None);
        assert_eq!(runnable(i32::from(EMIT)), None);
        assert_eq!(runnable(PHASE_COUNT as i32), None);
        assert_eq!(runnable(256), None);
        assert_eq!(runnable(-1), None);
    }

    #[test]
    fn the_default_sequence_runs_its_dead_code_passes() {
        let cfg = PhaseConfig::default();
        let seq = build(&OriKnobs::default());
        let mut cx = PhaseContext::new(
            func(
                ".L_x_0:
                 MOV R0, 0x1 ;
                 MOV R1, 0x2 ;
                 STG.E [R4.64], R1 ;
                 EXIT ;",
            ),
            None,
        );
        let run = execute(&seq, &cfg, &mut cx).unwrap();
        // 143 x4, 142 x3 and OriCopyProp (144) x3 execute; 140 x6 and
        // 141 x3 are inert.
        assert_eq!(
            run,
            OriRun {
                executed: 10,
                skipped: 9
            }
        );
        assert_eq!(cx.removed, 1);
        assert_eq!(cx.function.blocks[0].insts.len(), 3);
        assert!(runs_anything(&seq, &cfg));
        // At -O0 nothing runs.
        let o0 = PhaseConfig {
            opt_level: 0,
            ..PhaseConfig::default()
        };
        assert!(!runs_anything(&seq, &o0));
    }

    #[test]
    fn named_phases_run_what_the_slots_name() {
        // p0 = OriPerformLiveDeadFirst (16); the rest: base[14..19], NOPs
        // and the hardcoded opcodes past the table.
        let seq = build(&OriKnobs::parse("ori=NamedPhases,p0=16").unwrap());
        let mut cx = PhaseContext::new(
            func(
                ".L_x_0:
                 MOV R0, 0x1 ;
                 EXIT ;",
            ),
            None,
        );
        let run = execute(&seq, &PhaseConfig::default(), &mut cx).unwrap();
        // 16, then base[14..19] = 143 144 141 142 143: 16, 143, 144, 142,
        // 143 execute.
        assert_eq!(run.executed, 5);
        assert_eq!(run.executed + run.skipped, 304);
        assert_eq!(cx.removed, 1);
    }
}
