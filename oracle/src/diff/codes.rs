//! The control codes as blame judges them between the three phases that
//! write them (docs/SEMANTICS.md, "Control codes and blame").
//!
//! Each control-code phase writes its own fields of every instruction's
//! [`Control`]: AssignScoreboards the write and read scoreboards and the
//! wait masks, ComputeStallCounts the stall counts, SetReuseFlags the
//! reuse flags (compiler/src/sched/{scoreboard,stall,reuse}.rs). While one
//! of them has run and another is still to run, the codes are incomplete
//! by design; judged as they are, every such IR would show a hazard, and
//! the blame could never name the phase that set a wrong field.
//!
//! So the IR after a control-code phase is judged with the fields of the
//! phases still to run filled in [`conservatively`]: every instruction
//! waits on every scoreboard, and every instruction sets scoreboard 0 as
//! its write and read scoreboard (nothing can be outstanding when the next
//! one issues); every stall count is the largest, 15 (every fixed latency
//! of the pipe model, at most 6 cycles, has elapsed when the next one
//! issues); no reuse flag. The simulator's hazard check (sim/hazard.rs)
//! judges scoreboards by order alone (an operation is outstanding until a
//! wait completes it, whatever the cycles) and fixed latencies by cycles
//! alone, so a filled-in field neither hides nor causes a hazard in the
//! fields the finished phases wrote: a departure of the completed IR is
//! theirs, and the first control-code phase after which it departs is the
//! one blamed.

use ptxc::ir::control::{Control, MAX_STALL, SCOREBOARDS};
use ptxc::ir::Function;
use ptxc::phases::table;

/// Which fields of [`Control`] a control-code phase writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fields {
    /// `write_sb`, `read_sb`, `wait` (AssignScoreboards).
    Scoreboards,
    /// `stall` (ComputeStallCounts).
    Stalls,
    /// `reuse` (SetReuseFlags).
    Reuse,
}

/// The fields phase `index` writes; `None` for a phase that writes no
/// control codes.
pub fn fields_of(index: u16) -> Option<Fields> {
    match table::name_of(index) {
        "AssignScoreboards" => Some(Fields::Scoreboards),
        "ComputeStallCounts" => Some(Fields::Stalls),
        "SetReuseFlags" => Some(Fields::Reuse),
        _ => None,
    }
}

/// `c` with `fields` set to the values that can cause no hazard (see the
/// module comment).
pub fn fill(mut c: Control, fields: Fields) -> Control {
    match fields {
        Fields::Scoreboards => {
            c.wait = (1u8 << SCOREBOARDS) - 1;
            c.write_sb = Some(0);
            c.read_sb = Some(0);
        }
        Fields::Stalls => c.stall = MAX_STALL,
        Fields::Reuse => c.reuse = 0,
    }
    c
}

/// `f` with the fields of the control-code phases `pending` (those still
/// to run) filled in conservatively on every instruction; `f` itself when
/// none is pending or no instruction carries control codes yet.
pub fn conservatively(f: &Function, pending: &[u16]) -> Function {
    let fields: Vec<Fields> = pending.iter().filter_map(|&i| fields_of(i)).collect();
    let mut g = f.clone();
    if fields.is_empty() || !f.insts().any(|i| i.control().is_some()) {
        return g;
    }
    for i in g.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
        let c = fields
            .iter()
            .fold(i.control().unwrap_or_default(), |c, &k| fill(c, k));
        i.set_control(c);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_code_phase_owns_fields_and_no_other_phase_does() {
        let owned: Vec<Fields> = table::CONTROL_CODE_PHASES
            .iter()
            .map(|&i| fields_of(i).unwrap_or_else(|| panic!("{}", table::name_of(i))))
            .collect();
        assert_eq!(
            owned,
            [Fields::Scoreboards, Fields::Stalls, Fields::Reuse],
            "one set of fields per phase"
        );
        let others = (0..table::PHASE_COUNT as u16)
            .filter(|i| !table::CONTROL_CODE_PHASES.contains(i))
            .filter(|&i| fields_of(i).is_some())
            .count();
        assert_eq!(others, 0);
    }

    #[test]
    fn filling_touches_only_the_pending_fields() {
        let c = Control {
            stall: 2,
            yield_bit: true,
            write_sb: Some(3),
            read_sb: None,
            wait: 0b10,
            reuse: 0b1,
        };
        // Six scoreboards: the wait mask names all of them.
        assert_eq!(
            fill(c, Fields::Scoreboards),
            Control {
                wait: 0b11_1111,
                write_sb: Some(0),
                read_sb: Some(0),
                ..c
            }
        );
        // A stall count is four bits: 15 is the most.
        assert_eq!(fill(c, Fields::Stalls), Control { stall: 15, ..c });
        assert_eq!(fill(c, Fields::Reuse), Control { reuse: 0, ..c });
    }
}
