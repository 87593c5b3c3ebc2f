//! The deduplication key of a finding: (verdict kind, blamed stage,
//! architecture class, key opcode). Two findings with the same signature
//! are taken for the same bug; the first is kept, the others counted.
//!
//! The architecture class is derived from the opcode table: targets with
//! the same set of available opcodes and modifiers form a class, named by
//! the lowest first-SM boundary they share (`sm_86+` for sm_86 and 89
//! while no opcode or modifier starts at 89). A bug in the instruction choice for one
//! generation then dedups across its members and not across generations.

use ptxc::ir::Op;
use ptxc::targets::SmInfo;

use super::blame::Blame;
use super::verdict::{Verdict, VerdictKind};

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signature {
    pub kind: VerdictKind,
    pub stage: String,
    pub arch_class: String,
    /// `-` when the failure points at no instruction.
    pub opcode: String,
}

/// Every first SM of the opcode table: of an opcode or of a modifier.
fn first_sms() -> impl Iterator<Item = u32> {
    Op::all().flat_map(|op| {
        let i = op.info();
        std::iter::once(i.first_sm).chain(i.mod_first_sm.iter().map(|&(_, n)| n))
    })
}

/// The class of `sm`: `sm_N+` for the largest first SM `N <= sm` of an
/// opcode or modifier.
pub fn arch_class(sm: &SmInfo) -> String {
    let n = first_sms().filter(|&f| f <= sm.sm).max().unwrap_or(0);
    format!("sm_{n}+")
}

impl Signature {
    pub fn new(verdict: &Verdict, blame: &Blame, sm: &SmInfo) -> Signature {
        Signature {
            kind: verdict.kind,
            stage: blame.stage.clone(),
            arch_class: arch_class(sm),
            opcode: blame
                .key_opcode
                .clone()
                .or(verdict.opcode.clone())
                .unwrap_or_else(|| "-".into()),
        }
    }

    /// A directory name: `mismatch--OriPerformLiveDeadFirst--sm_80+--ISETP`
    /// (characters other than letters, digits, `_`, `+`, `.` and `-` become
    /// `_`).
    pub fn slug(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "_+.-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        };
        format!(
            "{}--{}--{}--{}",
            self.kind.name(),
            clean(&self.stage),
            clean(&self.arch_class),
            clean(&self.opcode)
        )
    }

    /// A signature back from its slug (`kind--stage--class--opcode`): the
    /// parts as the slug spells them.
    pub fn from_slug(slug: &str) -> Option<Signature> {
        let parts: Vec<&str> = slug.split("--").collect();
        let [kind, stage, arch_class, opcode] = parts[..] else {
            return None;
        };
        Some(Signature {
            kind: VerdictKind::parse(kind)?,
            stage: stage.into(),
            arch_class: arch_class.into(),
            opcode: opcode.into(),
        })
    }

    pub fn line(&self) -> String {
        format!(
            "({}, {}, {}, {})",
            self.kind.name(),
            self.stage,
            self.arch_class,
            self.opcode
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_opcode_table() {
        let class = |n: &str| arch_class(ptxc::targets::lookup_sm(n).unwrap());
        // Each class boundary is some opcode's first SM.
        for n in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
            let c = class(n);
            let b: u32 = c[3..c.len() - 1].parse().unwrap();
            assert!(first_sms().any(|f| f == b), "{n}: {c}");
            let sm = ptxc::targets::lookup_sm(n).unwrap();
            assert!(b <= sm.sm);
            // Same class, same opcode set.
            for m in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
                let other = ptxc::targets::lookup_sm(m).unwrap();
                let same = Op::all().all(|op| {
                    let mods: Vec<&str> = op.info().mods.to_vec();
                    let has = |t: &SmInfo| {
                        op.available_on(t) && mods.iter().all(|m| op.lacking(&[m], t).is_none())
                    };
                    has(sm) == has(other)
                });
                assert_eq!(class(m) == c, same, "{n} vs {m}");
            }
        }
    }

    #[test]
    fn slugs_are_file_names() {
        let s = Signature {
            kind: VerdictKind::Mismatch,
            stage: "Ori Perform/LiveDead".into(),
            arch_class: "sm_80+".into(),
            opcode: "ISETP".into(),
        };
        assert_eq!(s.slug(), "mismatch--Ori_Perform_LiveDead--sm_80+--ISETP");
        let back = Signature::from_slug(&s.slug()).unwrap();
        assert_eq!(back.slug(), s.slug());
        assert_eq!(back.kind, VerdictKind::Mismatch);
        assert_eq!(back.opcode, "ISETP");
        assert!(Signature::from_slug("mismatch--a--b").is_none());
        assert!(Signature::from_slug("nope--a--b--c").is_none());
    }
}
