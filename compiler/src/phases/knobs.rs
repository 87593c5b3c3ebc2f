//! `--knob K=V[,K=V]`: the PhaseManager's knobs, and the ORI keys handed
//! to [`crate::phases::ori::knob::OriKnobs`].
//!
//! | key | value |
//! |---|---|
//! | `NvOptLevel` | 0..=5; above 5 warns with ptxas's "Invalid nvopt level : N." (docs/MODEL.md, NvOpt level) and runs at 5 |
//! | an AdvancedPhase hook's name (`AdvancedPhaseAllocReg`, `AdvancedScoreboardsAndOpexes`, ...) | a phase name or index to run at that hook |
//! | the ORI keys | see [`crate::phases::ori::knob`] |
//!
//! Keys are case-insensitive; `--knob` may be repeated (a key given twice
//! is an error).

use super::table::{self, find, name_of, HOOKS, NOP};
use crate::phases::ori::knob::{split_pairs, KnobError, OriKnobs};

/// The highest NvOpt level.
pub const MAX_NVOPT_LEVEL: u32 = 5;

/// The knobs given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Knobs {
    pub nvopt_level: Option<u32>,
    /// (hook index, phase index).
    pub hooks: Vec<(u16, u16)>,
    pub ori: OriKnobs,
}

impl Knobs {
    /// Adds a knob string.
    pub fn add(&mut self, s: &str) -> Result<(), KnobError> {
        for (k, v) in split_pairs(s)? {
            self.set(&k, &v)?;
        }
        Ok(())
    }

    /// Parses knob strings.
    pub fn parse_all<S: AsRef<str>>(all: &[S]) -> Result<Knobs, KnobError> {
        let mut k = Knobs::default();
        for s in all {
            k.add(s.as_ref())?;
        }
        Ok(k)
    }

    fn set(&mut self, key: &str, v: &str) -> Result<(), KnobError> {
        if key.eq_ignore_ascii_case("NvOptLevel") {
            let n: u32 = v
                .parse()
                .map_err(|_| KnobError(format!("knob '{key}': '{v}' is not a number")))?;
            if self.nvopt_level.replace(n).is_some() {
                return Err(KnobError(format!("knob '{key}' is given twice")));
            }
            return Ok(());
        }
        if let Some(hook) = find(key).filter(|h| HOOKS.contains(h)) {
            let target = super::order::parse_phase(v)
                .map_err(|e| KnobError(format!("knob '{key}': {e}")))?;
            if HOOKS.contains(&target) {
                return Err(KnobError(format!(
                    "knob '{key}': {} is a hook itself",
                    name_of(target)
                )));
            }
            if target == table::EMIT || target == NOP {
                return Err(KnobError(format!(
                    "knob '{key}': {} cannot run at a hook",
                    name_of(target)
                )));
            }
            if self.hooks.iter().any(|(h, _)| *h == hook) {
                return Err(KnobError(format!("knob '{key}' is given twice")));
            }
            self.hooks.push((hook, target));
            return Ok(());
        }
        if self.ori.set(key, v)? {
            Ok(())
        } else {
            Err(KnobError(format!("unknown knob '{key}'")))
        }
    }

    /// The NvOpt level to run at, and the warning for a level above 5
    /// (ptxas's warning 8000, docs/MODEL.md, NvOpt level: "Invalid nvopt level : %d.").
    pub fn nvopt(&self) -> (u8, Option<String>) {
        match self.nvopt_level {
            None => (super::phase::DEFAULT_NVOPT_LEVEL, None),
            Some(n) if n > MAX_NVOPT_LEVEL => (
                MAX_NVOPT_LEVEL as u8,
                Some(format!("Invalid nvopt level : {n}.")),
            ),
            Some(n) => (n as u8, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvopt_levels() {
        let k = |s: &str| Knobs::parse_all(&[s]).unwrap().nvopt();
        assert_eq!(Knobs::default().nvopt(), (3, None));
        for n in 0..=5u8 {
            assert_eq!(k(&format!("NvOptLevel={n}")), (n, None));
        }
        assert_eq!(
            k("nvoptlevel=7"),
            (5, Some("Invalid nvopt level : 7.".into()))
        );
        let e = Knobs::parse_all(&["NvOptLevel=high"]).unwrap_err().0;
        assert_eq!(e, "knob 'NvOptLevel': 'high' is not a number");
        let e = Knobs::parse_all(&["NvOptLevel=-1"]).unwrap_err().0;
        assert!(e.contains("knob 'NvOptLevel'"), "{e}");
    }

    #[test]
    fn hooks_take_a_phase_by_name_or_index() {
        let k = Knobs::parse_all(&[
            "AdvancedPhaseAllocReg=OriPerformLiveDeadFirst",
            "advancedscoreboardsandopexes=143",
        ])
        .unwrap();
        use crate::phases::table::index_of;
        assert_eq!(
            k.hooks,
            [
                (
                    index_of("AdvancedPhaseAllocReg"),
                    index_of("OriPerformLiveDeadFirst")
                ),
                (
                    index_of("AdvancedScoreboardsAndOpexes"),
                    index_of("OriPerformLiveDead")
                )
            ]
        );
        // The value given by index names that phase.
        assert_eq!(index_of("OriPerformLiveDead"), 143);
        let e = |s: &str| Knobs::parse_all(&[s]).unwrap_err().0;
        assert_eq!(
            e("AdvancedPhasePreSched=NoSuch"),
            "knob 'AdvancedPhasePreSched': unknown phase 'NoSuch'"
        );
        assert!(e("AdvancedPhasePreSched=4").contains("is a hook itself"));
        assert!(e("AdvancedPhasePreSched=EmitSassListing").contains("cannot run at a hook"));
        assert!(e("AdvancedPhasePreSched=158").contains("cannot run at a hook"));
        assert!(e("AdvancedPhasePreSched=16,AdvancedPhasePreSched=33").contains("twice"));
        // A phase name that is not a hook is not a knob.
        assert_eq!(e("GvnCse=1"), "unknown knob 'GvnCse'");
    }

    #[test]
    fn ori_keys_pass_through_and_errors_name_the_key() {
        let k = Knobs::parse_all(&["ori=shuffle,reps=4,swap1=3,dce2=5,cpy1=2", "NvOptLevel=2"])
            .unwrap();
        assert_eq!(k.ori.reps, Some(4));
        assert_eq!(k.ori.swap[0], Some(3));
        assert_eq!(k.ori.dce[1], Some(5));
        assert_eq!(k.ori.cpy[0], Some(2));
        assert_eq!(k.nvopt_level, Some(2));
        let e = |s: &str| Knobs::parse_all(&[s]).unwrap_err().0;
        assert_eq!(e("reps=300"), "knob 'reps': value 300 is outside 0..256");
        assert_eq!(e("foo=1"), "unknown knob 'foo'");
        assert_eq!(
            e("NvOptLevel"),
            "malformed knob 'NvOptLevel': expected key=value"
        );
    }
}
