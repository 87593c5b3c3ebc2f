//! Known bugs: `corpus/regressions/known.json` lists the signatures of
//! findings already promoted to regressions and not yet fixed, each with
//! its regression directory. A nightly run counts a finding with a known
//! signature but does not reduce or report it as new.
//!
//! ```json
//! {"known": [
//!   {"signature": "mismatch--AllocateRegisters--sm_80+--IMAD", "regression": "regalloc_spill_maxrreg24"}
//! ]}
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use super::findings::write_atomic;
use crate::launch::json::{parse, quote, Kind};

/// Signature slug -> regression directory name, in slug order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known(pub BTreeMap<String, String>);

impl Known {
    /// Reads `path`; a missing file is an empty list.
    pub fn read(path: &Path) -> Result<Known, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Known::default()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        Known::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Known, String> {
        let doc = parse(text).map_err(|e| format!("byte {}: {}", e.pos, e.message))?;
        let Kind::Object(top) = &doc.kind else {
            return Err("expected an object".into());
        };
        let list = top
            .iter()
            .find(|m| m.key == "known")
            .ok_or("missing field 'known'")?;
        let Kind::Array(items) = &list.value.kind else {
            return Err("known: expected an array".into());
        };
        let mut out = BTreeMap::new();
        for (k, item) in items.iter().enumerate() {
            let Kind::Object(fields) = &item.kind else {
                return Err(format!("known[{k}]: expected an object"));
            };
            let field = |name: &str| -> Result<String, String> {
                match fields.iter().find(|m| m.key == name).map(|m| &m.value.kind) {
                    Some(Kind::String(s)) => Ok(s.clone()),
                    _ => Err(format!("known[{k}]: missing string field '{name}'")),
                }
            };
            out.insert(field("signature")?, field("regression")?);
        }
        Ok(Known(out))
    }

    pub fn contains(&self, slug: &str) -> bool {
        self.0.contains_key(slug)
    }

    pub fn to_json(&self) -> String {
        let rows: Vec<String> = self
            .0
            .iter()
            .map(|(s, r)| {
                format!(
                    "  {{\"signature\": {}, \"regression\": {}}}",
                    quote(s),
                    quote(r)
                )
            })
            .collect();
        if rows.is_empty() {
            return "{\"known\": []}\n".into();
        }
        format!("{{\"known\": [\n{}\n]}}\n", rows.join(",\n"))
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        write_atomic(path, self.to_json().as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reports_bad_entries() {
        let mut k = Known::default();
        assert_eq!(Known::parse(&k.to_json()).unwrap(), k);
        k.0.insert("mismatch--A--sm_80+--IMAD".into(), "a \"b\"".into());
        k.0.insert("ice--lower--sm_70+---".into(), "c".into());
        assert_eq!(Known::parse(&k.to_json()).unwrap(), k);
        assert!(k.contains("ice--lower--sm_70+---"));
        let e = Known::parse("{\"known\": [{\"signature\": \"x\"}]}").unwrap_err();
        assert!(e.contains("known[0]") && e.contains("regression"), "{e}");
        assert!(Known::parse("[]").is_err());
    }
}
