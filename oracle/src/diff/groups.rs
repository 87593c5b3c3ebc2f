//! One bug, one entry: findings grouped by what their blame says.
//!
//! A signature (verdict kind, blamed stage, architecture class, key
//! opcode) is a fine key for one failure, too fine for one bug: a single
//! wrong rewrite shows on every architecture class, through many key
//! opcodes, as a mismatch in one program and a fault or a runaway loop in
//! another. Findings whose blame agrees (the same blamed stage and the
//! same [`VerdictClass`]) are one [`Group`]: the report shows it once, with
//! its count of failing configuration runs and the signatures folded into
//! it. Folding changes nothing on disk: every signature keeps its finding
//! directory, and the group lists them all.
//!
//! Groups and their members keep the order in which they were first seen;
//! the engine reports programs in program order whatever the job count,
//! so the grouping is deterministic.

use super::signature::Signature;
use super::verdict::VerdictKind;

/// What kind of wrong a failure is, for grouping: a wrong rewrite gives a
/// wrong result, a fault or a runaway loop depending on the program, so
/// those are one class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VerdictClass {
    /// Mismatch, sim-fault, timeout: the compiled code computes something
    /// else.
    WrongCode,
    /// The control codes break the hazard model.
    Hazard,
    /// ptxc failed internally.
    Crash,
    /// ptxc refused the program.
    Refused,
    /// The code uses an instruction the target lacks.
    Availability,
    /// Not a failure (pass, oracle-ub, unsupported).
    None,
}

impl VerdictClass {
    pub fn of(kind: VerdictKind) -> VerdictClass {
        match kind {
            VerdictKind::Mismatch | VerdictKind::SimFault | VerdictKind::Timeout => {
                VerdictClass::WrongCode
            }
            VerdictKind::ScoreboardHazard => VerdictClass::Hazard,
            VerdictKind::Ice => VerdictClass::Crash,
            VerdictKind::CompileError => VerdictClass::Refused,
            VerdictKind::Availability => VerdictClass::Availability,
            VerdictKind::Pass | VerdictKind::OracleUb | VerdictKind::Unsupported => {
                VerdictClass::None
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            VerdictClass::WrongCode => "wrong-code",
            VerdictClass::Hazard => "hazard",
            VerdictClass::Crash => "crash",
            VerdictClass::Refused => "refused",
            VerdictClass::Availability => "availability",
            VerdictClass::None => "none",
        }
    }
}

/// What the findings of one bug share.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupKey {
    pub stage: String,
    pub class: VerdictClass,
}

impl GroupKey {
    pub fn of(sig: &Signature) -> GroupKey {
        GroupKey {
            stage: sig.stage.clone(),
            class: VerdictClass::of(sig.kind),
        }
    }

    /// `AssignScoreboards, hazard`.
    pub fn line(&self) -> String {
        format!("{}, {}", self.stage, self.class.name())
    }
}

/// One bug: its key, the signatures folded into it (the first one seen
/// first: the group's representative) and the failing configuration runs
/// of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub key: GroupKey,
    pub members: Vec<(Signature, u64)>,
}

impl Group {
    /// The representative: the first signature seen.
    pub fn first(&self) -> &Signature {
        &self.members[0].0
    }

    /// Failing configuration runs in all.
    pub fn count(&self) -> u64 {
        self.members.iter().map(|(_, n)| n).sum()
    }
}

/// The groups of a run, in the order they were first seen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Groups {
    pub groups: Vec<Group>,
}

impl Groups {
    /// Counts one failing configuration run with signature `sig`.
    pub fn add(&mut self, sig: &Signature) {
        self.add_n(sig, 1);
    }

    /// Counts `n` failing configuration runs with signature `sig`.
    pub fn add_n(&mut self, sig: &Signature, n: u64) {
        let key = GroupKey::of(sig);
        let g = match self.groups.iter().position(|g| g.key == key) {
            Some(k) => &mut self.groups[k],
            None => {
                self.groups.push(Group {
                    key,
                    members: Vec::new(),
                });
                self.groups.last_mut().expect("just pushed")
            }
        };
        match g.members.iter_mut().find(|(s, _)| s == sig) {
            Some((_, c)) => *c += n,
            None => g.members.push((sig.clone(), n)),
        }
    }

    /// Distinct signatures in all groups.
    pub fn signatures(&self) -> usize {
        self.groups.iter().map(|g| g.members.len()).sum()
    }

    /// The report lines: a header, then per group its key, count and
    /// folded signatures (each one a finding directory under `root`).
    pub fn lines(&self, root: &str) -> Vec<String> {
        let mut out = vec![format!(
            "bugs: {} group{} of {} signature{} (grouped by blamed stage and verdict class)",
            self.groups.len(),
            if self.groups.len() == 1 { "" } else { "s" },
            self.signatures(),
            if self.signatures() == 1 { "" } else { "s" },
        )];
        for (k, g) in self.groups.iter().enumerate() {
            out.push(format!(
                "  bug {}: {}: {} failing run{}, {} signature{}; first {}/{}",
                k + 1,
                g.key.line(),
                g.count(),
                if g.count() == 1 { "" } else { "s" },
                g.members.len(),
                if g.members.len() == 1 { "" } else { "s" },
                root,
                g.first().slug()
            ));
            for (s, n) in &g.members[1..] {
                out.push(format!("    folded: {} ({n})", s.slug()));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(kind: VerdictKind, stage: &str, class: &str, op: &str) -> Signature {
        Signature {
            kind,
            stage: stage.into(),
            arch_class: class.into(),
            opcode: op.into(),
        }
    }

    #[test]
    fn one_blamed_stage_and_class_is_one_group_in_first_seen_order() {
        let mut g = Groups::default();
        let a = sig(VerdictKind::Mismatch, "GvnCse", "sm_80+", "ISETP");
        let b = sig(VerdictKind::Timeout, "GvnCse", "sm_70+", "BRA");
        let c = sig(VerdictKind::ScoreboardHazard, "GvnCse", "sm_80+", "IADD3");
        let d = sig(VerdictKind::SimFault, "AssignScoreboards", "sm_90+", "LDG");
        for s in [&a, &b, &a, &c, &d, &b, &a] {
            g.add(s);
        }
        let keys: Vec<String> = g.groups.iter().map(|x| x.key.line()).collect();
        // A mismatch and a timeout blamed on one phase are one bug; a
        // hazard there is another; another phase is another.
        assert_eq!(
            keys,
            [
                "GvnCse, wrong-code",
                "GvnCse, hazard",
                "AssignScoreboards, wrong-code"
            ]
        );
        assert_eq!(g.groups[0].members, vec![(a.clone(), 3), (b.clone(), 2)]);
        assert_eq!(g.groups[0].count(), 5);
        assert_eq!(g.groups[0].first(), &a);
        assert_eq!(g.signatures(), 4);
        let lines = g.lines("findings");
        assert_eq!(
            lines[0],
            "bugs: 3 groups of 4 signatures (grouped by blamed stage and verdict class)"
        );
        assert_eq!(
            lines[1],
            format!(
                "  bug 1: GvnCse, wrong-code: 5 failing runs, 2 signatures; first findings/{}",
                a.slug()
            )
        );
        assert_eq!(lines[2], format!("    folded: {} (2)", b.slug()));
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn every_failure_kind_has_a_class_and_only_failures_do() {
        for k in VerdictKind::ALL {
            assert_eq!(
                VerdictClass::of(k) != VerdictClass::None,
                k.is_failure(),
                "{}",
                k.name()
            );
        }
    }
}
