//! The knob string (docs/MODEL.md, ORI knobs: "key=value" pairs from the
//! compiler options) and the ORI keys it sets.
//!
//! Grammar: `key=value[,key=value]...`. Keys are case-insensitive. The ORI
//! keys:
//!
//! | key | value | meaning |
//! |---|---|---|
//! | `ori` | `default`, `shuffle`, `NamedPhases` | the sequence builder's mode |
//! | `shuffle` | 0..=256 | shuffle mode (ptxas reads its presence; the count is kept) |
//! | `NamedPhases` | 0..=256 | NamedPhases mode (presence) |
//! | `reps` | 0..=256 | shuffle repetitions |
//! | `swap1`..`swap6` | 0..=256 | the six swap offsets |
//! | `cpy1`..`cpy3` | 0..=256 | where OriCopyProp is injected |
//! | `dce1`..`dce3` | 0..=256 | where OriPerformLiveDead is injected |
//! | `p0`..`p242` | 0..=256 | NamedPhases slot overrides (opcodes = phase indices) |
//!
//! A key the shuffle builder reads and the string leaves out reads as 0
//! (ptxas's `parse_int_option(..., 0, 256)` has no default argument:
//! the range's low end). Values outside 0..=256 are rejected, as are
//! malformed pairs, unknown keys and repeated keys; every error names the
//! key (or the malformed text).

use std::collections::BTreeMap;
use std::fmt;

/// The highest value an ORI knob takes.
pub const MAX_VALUE: u32 = 256;
/// NamedPhases slots `p0..p242`.
pub const NAMED_SLOTS: usize = 243;

/// A knob error; the message names the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnobError(pub String);

impl fmt::Display for KnobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KnobError {}

/// Splits a knob string into `(key, value)` pairs, in order.
pub fn split_pairs(s: &str) -> Result<Vec<(String, String)>, KnobError> {
    let mut out = Vec::new();
    for item in s.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(KnobError(format!(
                "malformed knob string '{s}': empty item (expected key=value)"
            )));
        }
        let Some((k, v)) = item.split_once('=') else {
            return Err(KnobError(format!(
                "malformed knob '{item}': expected key=value"
            )));
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() {
            return Err(KnobError(format!("malformed knob '{item}': empty key")));
        }
        if v.is_empty() {
            return Err(KnobError(format!("knob '{k}' needs a value")));
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// A value in 0..=256 for `key`.
pub fn ranged(key: &str, v: &str) -> Result<u32, KnobError> {
    let n: i64 = v
        .parse()
        .map_err(|_| KnobError(format!("knob '{key}': '{v}' is not a number")))?;
    if !(0..=i64::from(MAX_VALUE)).contains(&n) {
        return Err(KnobError(format!(
            "knob '{key}': value {n} is outside 0..{MAX_VALUE}"
        )));
    }
    Ok(n as u32)
}

/// The sequence builder's mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OriMode {
    #[default]
    Default,
    Shuffle,
    NamedPhases,
}

impl OriMode {
    pub fn name(self) -> &'static str {
        match self {
            OriMode::Default => "default",
            OriMode::Shuffle => "shuffle",
            OriMode::NamedPhases => "NamedPhases",
        }
    }
}

/// The ORI knobs given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OriKnobs {
    /// `ori=...`, if given.
    pub mode: Option<OriMode>,
    /// `shuffle=N` (presence selects shuffle mode).
    pub shuffle: Option<u32>,
    /// `NamedPhases=N` (presence selects NamedPhases mode).
    pub named_phases: Option<u32>,
    pub reps: Option<u32>,
    pub swap: [Option<u32>; 6],
    pub cpy: [Option<u32>; 3],
    pub dce: [Option<u32>; 3],
    /// `pN=opcode` slot overrides.
    pub slots: BTreeMap<usize, u32>,
}

impl OriKnobs {
    /// Whether any ORI knob was given (ptxas's knob 298 check).
    pub fn has_options(&self) -> bool {
        *self != OriKnobs::default()
    }

    /// The mode the builder takes: NamedPhases first, then shuffle, else
    /// default (ptxas's order of checks).
    pub fn effective_mode(&self) -> OriMode {
        if self.mode == Some(OriMode::NamedPhases) || self.named_phases.is_some() {
            OriMode::NamedPhases
        } else if self.mode == Some(OriMode::Shuffle) || self.shuffle.is_some() {
            OriMode::Shuffle
        } else {
            OriMode::Default
        }
    }

    /// Sets one key; `Ok(false)` when the key is not an ORI key.
    pub fn set(&mut self, key: &str, v: &str) -> Result<bool, KnobError> {
        let k = key.to_ascii_lowercase();
        fn once(slot: &mut Option<u32>, key: &str, n: u32) -> Result<(), KnobError> {
            if slot.replace(n).is_some() {
                return Err(KnobError(format!("knob '{key}' is given twice")));
            }
            Ok(())
        }
        let digit = |prefix: &str, max: usize| -> Option<usize> {
            let n: usize = k.strip_prefix(prefix)?.parse().ok()?;
            (1..=max).contains(&n).then(|| n - 1)
        };
        match k.as_str() {
            "ori" => {
                let m = match v.to_ascii_lowercase().as_str() {
                    "default" => OriMode::Default,
                    "shuffle" => OriMode::Shuffle,
                    "namedphases" => OriMode::NamedPhases,
                    _ => {
                        return Err(KnobError(format!(
                            "knob '{key}': unknown mode '{v}' (default, shuffle, NamedPhases)"
                        )))
                    }
                };
                if self.mode.replace(m).is_some() {
                    return Err(KnobError(format!("knob '{key}' is given twice")));
                }
            }
            "shuffle" => once(&mut self.shuffle, key, ranged(key, v)?)?,
            "namedphases" => once(&mut self.named_phases, key, ranged(key, v)?)?,
            "reps" => once(&mut self.reps, key, ranged(key, v)?)?,
            _ => {
                if let Some(i) = digit("swap", 6) {
                    once(&mut self.swap[i], key, ranged(key, v)?)?;
                } else if let Some(i) = digit("cpy", 3) {
                    once(&mut self.cpy[i], key, ranged(key, v)?)?;
                } else if let Some(i) = digit("dce", 3) {
                    once(&mut self.dce[i], key, ranged(key, v)?)?;
                } else if let Some(slot) = k
                    .strip_prefix('p')
                    .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|d| d.parse::<usize>().ok())
                {
                    if slot >= NAMED_SLOTS {
                        return Err(KnobError(format!(
                            "knob '{key}': NamedPhases slots are p0..p{}",
                            NAMED_SLOTS - 1
                        )));
                    }
                    let n = ranged(key, v)?;
                    if self.slots.insert(slot, n).is_some() {
                        return Err(KnobError(format!("knob '{key}' is given twice")));
                    }
                } else {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Parses a string of ORI keys only.
    pub fn parse(s: &str) -> Result<OriKnobs, KnobError> {
        let mut k = OriKnobs::default();
        for (key, v) in split_pairs(s)? {
            if !k.set(&key, &v)? {
                return Err(KnobError(format!("unknown knob '{key}'")));
            }
        }
        Ok(k)
    }

    /// What the shuffle builder reads: (reps, swap1..6, cpy1..3, dce1..3),
    /// absent keys as 0.
    pub fn shuffle_params(&self) -> (u32, [u32; 6], [u32; 3], [u32; 3]) {
        let z = |o: &Option<u32>| o.unwrap_or(0);
        (
            z(&self.reps),
            self.swap.map(|o| o.unwrap_or(0)),
            self.cpy.map(|o| o.unwrap_or(0)),
            self.dce.map(|o| o.unwrap_or(0)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_parses() {
        let k = OriKnobs::parse(
            "ori=shuffle,shuffle=7,reps=4,swap1=1,swap2=2,swap3=3,swap4=4,swap5=5,swap6=6,\
             cpy1=7,cpy2=8,cpy3=9,dce1=10,dce2=11,dce3=12,p0=16,p242=256,NamedPhases=1",
        )
        .unwrap();
        assert_eq!(k.mode, Some(OriMode::Shuffle));
        assert_eq!(k.shuffle, Some(7));
        assert_eq!(k.reps, Some(4));
        assert_eq!(k.swap, [1, 2, 3, 4, 5, 6].map(Some));
        assert_eq!(k.cpy, [7, 8, 9].map(Some));
        assert_eq!(k.dce, [10, 11, 12].map(Some));
        assert_eq!(k.slots.get(&0), Some(&16));
        assert_eq!(k.slots.get(&242), Some(&256));
        assert_eq!(k.named_phases, Some(1));
        // NamedPhases wins over shuffle (ptxas checks it first).
        assert_eq!(k.effective_mode(), OriMode::NamedPhases);
        assert!(k.has_options());
    }

    #[test]
    fn keys_are_case_insensitive_and_modes_resolve() {
        let k = OriKnobs::parse("ORI=namedphases,P3=5").unwrap();
        assert_eq!(k.effective_mode(), OriMode::NamedPhases);
        assert_eq!(
            OriKnobs::parse("Shuffle=0").unwrap().effective_mode(),
            OriMode::Shuffle
        );
        assert_eq!(
            OriKnobs::parse("reps=3").unwrap().effective_mode(),
            OriMode::Default
        );
        assert_eq!(
            OriKnobs::parse("ori=default").unwrap().effective_mode(),
            OriMode::Default
        );
        assert!(!OriKnobs::default().has_options());
        assert!(OriKnobs::parse("ori=default").unwrap().has_options());
    }

    #[test]
    fn malformed_knobs_name_the_key() {
        let e = |s: &str| OriKnobs::parse(s).unwrap_err().0;
        assert!(e("reps").contains("malformed knob 'reps'"), "{}", e("reps"));
        assert!(e("reps=").contains("knob 'reps' needs a value"));
        assert!(e("=3").contains("empty key"));
        assert!(e("reps=3,,swap1=2").contains("empty item"));
        assert!(e("reps=x").contains("knob 'reps': 'x' is not a number"));
        assert!(e("swap7=1").contains("unknown knob 'swap7'"));
        assert!(e("cpy0=1").contains("unknown knob 'cpy0'"));
        assert!(e("bogus=1").contains("unknown knob 'bogus'"));
        assert!(e("ori=random").contains("knob 'ori': unknown mode 'random'"));
        assert!(e("p243=1").contains("knob 'p243'"));
        assert!(e("reps=1,reps=2").contains("knob 'reps' is given twice"));
        assert!(e("p1=1,P1=2").contains("given twice"));
    }

    #[test]
    fn values_outside_0_to_256_are_rejected() {
        for key in [
            "shuffle",
            "NamedPhases",
            "reps",
            "swap1",
            "swap2",
            "swap3",
            "swap4",
            "swap5",
            "swap6",
            "cpy1",
            "cpy2",
            "cpy3",
            "dce1",
            "dce2",
            "dce3",
            "p0",
            "p242",
        ] {
            let e = OriKnobs::parse(&format!("{key}=257")).unwrap_err().0;
            assert!(
                e.contains(&format!("knob '{key}': value 257 is outside 0..256")),
                "{e}"
            );
            let e = OriKnobs::parse(&format!("{key}=-1")).unwrap_err().0;
            assert!(e.contains("value -1 is outside"), "{e}");
            assert!(OriKnobs::parse(&format!("{key}=256")).is_ok(), "{key}");
            assert!(OriKnobs::parse(&format!("{key}=0")).is_ok(), "{key}");
        }
    }

    #[test]
    fn absent_shuffle_keys_read_as_zero() {
        let k = OriKnobs::parse("ori=shuffle,swap3=9,dce2=5").unwrap();
        let (reps, swap, cpy, dce) = k.shuffle_params();
        assert_eq!(reps, 0);
        assert_eq!(swap, [0, 0, 9, 0, 0, 0]);
        assert_eq!(cpy, [0, 0, 0]);
        assert_eq!(dce, [0, 5, 0]);
    }
}
