//! Verdicts: what one configuration concluded about one program, and the
//! one place that maps a run's outcome onto a verdict kind
//! ([`classify_run`]); the lead extends it there when the simulator grows
//! new outcomes (the scheduler's scoreboard hazards).

use crate::launch::{compare, summarize, LaunchSpec, MismatchDetail, OutputSet};
use crate::ptx_interp::{Outcome, RunResult};

/// The kinds of verdict, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VerdictKind {
    /// Completed with the oracle's outputs.
    Pass,
    /// Completed with different outputs.
    Mismatch,
    /// The compiler refused PTX the oracle ran (an unsupported construct or
    /// a wrong rejection).
    CompileError,
    /// A panic or a broken invariant inside the compiler (the phase named).
    Ice,
    /// The compiled code faulted (or did something undefined) where the
    /// oracle completed.
    SimFault,
    /// The compiled code ran out of fuel where the oracle completed.
    Timeout,
    /// The compiled code uses an instruction the target does not have.
    Availability,
    /// The compiled code reads a result before its scoreboard says it is
    /// ready (the scheduler's control codes).
    ScoreboardHazard,
    /// The program itself is invalid: the oracle found undefined behaviour,
    /// faulted or ran out of fuel (counted against the generator; no
    /// configuration runs).
    OracleUb,
    /// The configuration cannot run this program (the vendor listing needs
    /// constant banks that are not extracted): no verdict.
    Unsupported,
}

impl VerdictKind {
    pub const ALL: [VerdictKind; 10] = [
        VerdictKind::Pass,
        VerdictKind::Mismatch,
        VerdictKind::CompileError,
        VerdictKind::Ice,
        VerdictKind::SimFault,
        VerdictKind::Timeout,
        VerdictKind::Availability,
        VerdictKind::ScoreboardHazard,
        VerdictKind::OracleUb,
        VerdictKind::Unsupported,
    ];

    pub fn name(self) -> &'static str {
        match self {
            VerdictKind::Pass => "pass",
            VerdictKind::Mismatch => "mismatch",
            VerdictKind::CompileError => "compile-error",
            VerdictKind::Ice => "ice",
            VerdictKind::SimFault => "sim-fault",
            VerdictKind::Timeout => "timeout",
            VerdictKind::Availability => "availability",
            VerdictKind::ScoreboardHazard => "scoreboard-hazard",
            VerdictKind::OracleUb => "oracle-ub",
            VerdictKind::Unsupported => "unsupported",
        }
    }

    pub fn parse(s: &str) -> Option<VerdictKind> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    /// A failure of the compiler under test: saved as a finding and blamed.
    pub fn is_failure(self) -> bool {
        !matches!(
            self,
            VerdictKind::Pass | VerdictKind::OracleUb | VerdictKind::Unsupported
        )
    }
}

/// The first difference of a mismatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MismatchInfo {
    pub buffer: String,
    /// The element; `None` when the buffers differ in shape (missing,
    /// type, length).
    pub index: Option<usize>,
    pub expected: u64,
    pub actual: u64,
    /// Differences in all.
    pub count: usize,
}

/// A verdict: the kind and what to tell about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub kind: VerdictKind,
    /// One line for people.
    pub message: String,
    pub mismatch: Option<MismatchInfo>,
    /// The phase an internal error names.
    pub phase: Option<String>,
    /// The opcode the verdict points at (the faulting or unavailable
    /// instruction), when it points at one.
    pub opcode: Option<String>,
}

impl Verdict {
    pub fn new(kind: VerdictKind, message: impl Into<String>) -> Verdict {
        Verdict {
            kind,
            message: message.into(),
            mismatch: None,
            phase: None,
            opcode: None,
        }
    }

    pub fn pass() -> Verdict {
        Verdict::new(VerdictKind::Pass, "outputs match the oracle")
    }

    pub fn is_failure(&self) -> bool {
        self.kind.is_failure()
    }

    /// `mismatch: 3 mismatches in 1 buffer ...`.
    pub fn line(&self) -> String {
        format!("{}: {}", self.kind.name(), self.message)
    }
}

/// The opcode of an instruction as the simulator describes it
/// (`/*0040*/ @!P0 IADD3 R1, ...` -> `IADD3`).
pub fn opcode_of_text(text: &str) -> Option<String> {
    text.split_whitespace()
        .find(|w| !w.starts_with("/*") && !w.starts_with('@') && !w.starts_with('{'))
        .map(|w| {
            w.split('.')
                .next()
                .unwrap_or(w)
                .trim_end_matches(';')
                .to_string()
        })
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// The simulator's words for an opcode the target lacks
/// (`sim::program::decode`: "X does not exist on sm_YY").
const NOT_ON_TARGET: &str = " does not exist on ";

/// Judges a finished run of compiled code against the oracle's outputs:
/// the one mapping from outcomes to verdict kinds.
///
/// - completed: [`VerdictKind::Pass`] when the outputs match under the
///   spec's compare rule, else [`VerdictKind::Mismatch`] (first difference);
/// - a fault the decoder reports for an opcode the target does not have:
///   [`VerdictKind::Availability`];
/// - any other fault, and undefined behaviour (an uninitialised register,
///   a misaligned access, a deadlock the oracle's program does not have):
///   [`VerdictKind::SimFault`];
/// - out of fuel or wall clock: [`VerdictKind::Timeout`].
///
/// - a scoreboard hazard (the simulator's control-code check, `sim/hazard.rs`):
///   [`VerdictKind::ScoreboardHazard`], pointing at the consumer.
pub fn classify_run(expected: &OutputSet, spec: &LaunchSpec, r: &RunResult) -> Verdict {
    match &r.outcome {
        Outcome::Completed => {
            let mm = compare(expected, &r.outputs, &spec.compare);
            let Some(first) = mm.first() else {
                return Verdict::pass();
            };
            let (index, expected_bits, actual) = match &first.detail {
                MismatchDetail::Element {
                    index,
                    expected,
                    actual,
                    ..
                } => (Some(*index), *expected, *actual),
                _ => (None, 0, 0),
            };
            Verdict {
                mismatch: Some(MismatchInfo {
                    buffer: first.buffer.clone(),
                    index,
                    expected: expected_bits,
                    actual,
                    count: mm.len(),
                }),
                ..Verdict::new(VerdictKind::Mismatch, summarize(&mm, expected))
            }
        }
        Outcome::Fault { message, at } => {
            if let Some((op, _)) = message.split_once(NOT_ON_TARGET) {
                return Verdict {
                    opcode: Some(op.to_string()),
                    ..Verdict::new(VerdictKind::Availability, format!("{message} at {at}"))
                };
            }
            Verdict {
                opcode: opcode_of_text(&at.instruction),
                ..Verdict::new(VerdictKind::SimFault, format!("fault: {message} at {at}"))
            }
        }
        Outcome::Ub { kind, at } => Verdict {
            opcode: opcode_of_text(&at.instruction),
            ..Verdict::new(VerdictKind::SimFault, format!("UB: {kind:?} at {at}"))
        },
        Outcome::Timeout { executed } => Verdict::new(
            VerdictKind::Timeout,
            format!("out of fuel after {executed} thread-instructions"),
        ),
        Outcome::Hazard { hazard, at } => Verdict {
            opcode: opcode_of_text(&at.instruction),
            ..Verdict::new(
                VerdictKind::ScoreboardHazard,
                format!("scoreboard hazard: {hazard} at {at}"),
            )
        },
    }
}

/// The oracle's run of a program that is invalid (its outcome is not
/// `Completed`): [`VerdictKind::OracleUb`].
pub fn oracle_invalid(outcome: &Outcome) -> Verdict {
    let what = match outcome {
        Outcome::Completed => "completed".to_string(),
        Outcome::Fault { message, at } => format!("fault: {message} at {at}"),
        Outcome::Ub { kind, at } => format!("UB: {kind:?} at {at}"),
        Outcome::Timeout { executed } => format!("out of fuel after {executed}"),
        Outcome::Hazard { hazard, at } => format!("scoreboard hazard: {hazard} at {at}"),
    };
    Verdict::new(VerdictKind::OracleUb, format!("the oracle: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::{BufferBits, ElemType};
    use crate::ptx_interp::{Location, UbKind};

    fn at(instruction: &str) -> Location {
        Location {
            ctaid: [0; 3],
            tid: [1, 0, 0],
            line: 0,
            instruction: instruction.into(),
        }
    }

    fn spec() -> LaunchSpec {
        LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1], "params": [],
                "buffers": {"y": {"type": "u32", "len": 2, "init": "zeros"}}}"#,
            ".",
        )
        .unwrap()
    }

    fn out(v: &[u64]) -> OutputSet {
        OutputSet {
            buffers: vec![BufferBits {
                name: "y".into(),
                ty: ElemType::U32,
                bits: v.to_vec(),
            }],
        }
    }

    fn run(outcome: Outcome, v: &[u64]) -> RunResult {
        RunResult {
            outcome,
            outputs: out(v),
            executed: 10,
        }
    }

    #[test]
    fn outcomes_map_onto_kinds() {
        let s = spec();
        let want = out(&[1, 2]);
        let k = |r: RunResult| classify_run(&want, &s, &r);
        assert_eq!(k(run(Outcome::Completed, &[1, 2])).kind, VerdictKind::Pass);
        let m = k(run(Outcome::Completed, &[1, 7]));
        assert_eq!(m.kind, VerdictKind::Mismatch);
        assert_eq!(
            m.mismatch,
            Some(MismatchInfo {
                buffer: "y".into(),
                index: Some(1),
                expected: 2,
                actual: 7,
                count: 1
            })
        );
        let f = k(run(
            Outcome::Fault {
                message: "out of bounds".into(),
                at: at("/*0040*/ @!P0 STG.E.SYS [R2.64], R5 ;"),
            },
            &[0, 0],
        ));
        assert_eq!(f.kind, VerdictKind::SimFault);
        assert_eq!(f.opcode.as_deref(), Some("STG"));
        let a = k(run(
            Outcome::Fault {
                message: "UIADD3 does not exist on sm_70".into(),
                at: at("/*0010*/ UIADD3 UR4, UR4, 0x1, URZ ;"),
            },
            &[0, 0],
        ));
        assert_eq!(a.kind, VerdictKind::Availability);
        assert_eq!(a.opcode.as_deref(), Some("UIADD3"));
        let u = k(run(
            Outcome::Ub {
                kind: UbKind::UninitializedRegister("R9".into()),
                at: at("/*0020*/ IMAD R3, R9, R9, RZ ;"),
            },
            &[0, 0],
        ));
        assert_eq!(
            (u.kind, u.opcode.as_deref()),
            (VerdictKind::SimFault, Some("IMAD"))
        );
        let t = k(run(Outcome::Timeout { executed: 99 }, &[0, 0]));
        assert_eq!(t.kind, VerdictKind::Timeout);
        let h = k(run(
            Outcome::Hazard {
                hazard: crate::ptx_interp::Hazard {
                    kind: crate::ptx_interp::HazardKind::ReadBeforeWait,
                    register: "R4".into(),
                    producer: "/*0010*/ LDG.E R4, [R2.64] ;".into(),
                    scoreboard: Some(2),
                },
                at: at("/*0030*/ FADD R5, R4, R4 ;"),
            },
            &[0, 0],
        ));
        assert_eq!(
            (h.kind, h.opcode.as_deref()),
            (VerdictKind::ScoreboardHazard, Some("FADD"))
        );
        assert!(
            h.message.contains("R4") && h.message.contains("SB2"),
            "{}",
            h.message
        );
        assert_eq!(
            oracle_invalid(&Outcome::Timeout { executed: 5 }).kind,
            VerdictKind::OracleUb
        );
    }

    #[test]
    fn kind_names_round_trip_and_failures_are_the_compilers() {
        for k in VerdictKind::ALL {
            assert_eq!(VerdictKind::parse(k.name()), Some(k));
        }
        let failures: Vec<&str> = VerdictKind::ALL
            .into_iter()
            .filter(|k| k.is_failure())
            .map(VerdictKind::name)
            .collect();
        assert_eq!(
            failures,
            [
                "mismatch",
                "compile-error",
                "ice",
                "sim-fault",
                "timeout",
                "availability",
                "scoreboard-hazard"
            ]
        );
    }
}
