//! Test-only fault injection (cargo feature `test-hooks`, enabled only from
//! oracle's `[dev-dependencies]`): a slot holding a function that the
//! dispatch calls right after a named phase executes, so a test can make
//! that phase "misbehave" (flip a comparison, bump an immediate) and check
//! that the differential engine finds the miscompilation, blames exactly
//! that phase and saves the finding. Not compiled into a production build;
//! no command-line flag reaches it.
//!
//! The slot is process-wide (the engine runs phases on rayon workers), so
//! a test binary that installs a hook must not run other tests that
//! compile in parallel with it: keep such tests in their own file.

use std::sync::RwLock;

use super::phase::PhaseContext;

/// What a planted bug does to the IR after its phase ran; returns how many
/// rewrites it made (recorded as that phase's fired count).
pub type Misbehave = fn(&mut PhaseContext) -> u64;

static SLOT: RwLock<Option<(u16, Misbehave)>> = RwLock::new(None);

/// Makes phase `index` run `f` after its own work, every time the dispatch
/// executes it (not when it is a no-op). Replaces any earlier hook.
pub fn install(index: u16, f: Misbehave) {
    *SLOT.write().unwrap_or_else(|e| e.into_inner()) = Some((index, f));
}

/// Removes the hook.
pub fn clear() {
    *SLOT.write().unwrap_or_else(|e| e.into_inner()) = None;
}

/// Called by the dispatch after phase `index` executed.
pub(crate) fn after_phase(index: u16, cx: &mut PhaseContext) {
    let hook = *SLOT.read().unwrap_or_else(|e| e.into_inner());
    if let Some((i, f)) = hook {
        if i == index {
            let n = f(cx);
            cx.fire(index, n);
        }
    }
}
