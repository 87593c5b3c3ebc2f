//! JSON for the findings: configurations, verdicts, blames and signatures,
//! written by hand (one object per file, keys in a fixed order) and read
//! back with the launch module's strict reader (the project has no serde).
//! 64-bit values (mismatching elements) are written as hex strings, so no
//! reader rounds them through a double.

use crate::launch::json::{parse, quote, Kind, Member, Value};

use super::blame::{Blame, BlameStep};
use super::matrix::Config;
use super::signature::Signature;
use super::verdict::{MismatchInfo, Verdict, VerdictKind};

/// Builds one JSON object.
#[derive(Default)]
pub struct Obj(Vec<(String, String)>);

impl Obj {
    pub fn new() -> Obj {
        Obj::default()
    }
    /// A raw JSON value.
    pub fn raw(mut self, k: &str, v: impl Into<String>) -> Obj {
        self.0.push((k.to_string(), v.into()));
        self
    }
    pub fn str(self, k: &str, v: &str) -> Obj {
        self.raw(k, quote(v))
    }
    pub fn opt_str(self, k: &str, v: Option<&str>) -> Obj {
        self.raw(k, v.map_or("null".into(), quote))
    }
    pub fn num(self, k: &str, v: impl std::fmt::Display) -> Obj {
        self.raw(k, v.to_string())
    }
    /// `{\n  "k": v,\n ...}` with `indent` spaces before each key.
    pub fn render(&self, indent: usize) -> String {
        if self.0.is_empty() {
            return "{}".into();
        }
        let pad = " ".repeat(indent);
        let body: Vec<String> = self
            .0
            .iter()
            .map(|(k, v)| format!("{pad}{}: {v}", quote(k)))
            .collect();
        format!(
            "{{\n{}\n{}}}",
            body.join(",\n"),
            " ".repeat(indent.saturating_sub(2))
        )
    }
}

/// A parsed document's accessors; errors name the field.
pub struct Doc(Value);

fn members<'a>(v: &'a Value, what: &str) -> Result<&'a [Member], String> {
    match &v.kind {
        Kind::Object(m) => Ok(m),
        k => Err(format!(
            "{what}: expected an object, found {}",
            k.describe()
        )),
    }
}

fn get<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    members(v, key)?
        .iter()
        .find(|m| m.key == key)
        .map(|m| &m.value)
        .ok_or_else(|| format!("missing field '{key}'"))
}

fn is_null(v: &Value) -> bool {
    matches!(v.kind, Kind::Null)
}

fn string(v: &Value, key: &str) -> Result<String, String> {
    match &get(v, key)?.kind {
        Kind::String(s) => Ok(s.clone()),
        k => Err(format!("{key}: expected a string, found {}", k.describe())),
    }
}

fn opt_string(v: &Value, key: &str) -> Result<Option<String>, String> {
    if is_null(get(v, key)?) {
        return Ok(None);
    }
    string(v, key).map(Some)
}

fn number(v: &Value, key: &str) -> Result<u64, String> {
    match &get(v, key)?.kind {
        Kind::Number(n) => n
            .parse()
            .map_err(|_| format!("{key}: '{n}' is not a non-negative integer")),
        k => Err(format!("{key}: expected a number, found {}", k.describe())),
    }
}

fn hex(v: &Value, key: &str) -> Result<u64, String> {
    let s = string(v, key)?;
    s.strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| format!("{key}: '{s}' is not 0x-hex"))
}

impl Doc {
    pub fn parse(text: &str, what: &str) -> Result<Doc, String> {
        parse(text)
            .map(Doc)
            .map_err(|e| format!("{what}: byte {}: {}", e.pos, e.message))
    }
}

/// The string fields `keys` of the JSON object in file `path` (`None` for
/// a field that is missing or not a string); errors name the file.
pub fn read_string_fields(
    path: &std::path::Path,
    keys: &[&str],
) -> Result<Vec<Option<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc =
        parse(&text).map_err(|e| format!("{}: byte {}: {}", path.display(), e.pos, e.message))?;
    let Kind::Object(m) = &doc.kind else {
        return Err(format!("{}: expected an object", path.display()));
    };
    Ok(keys
        .iter()
        .map(
            |k| match m.iter().find(|x| x.key == *k).map(|x| &x.value.kind) {
                Some(Kind::String(s)) => Some(s.clone()),
                _ => None,
            },
        )
        .collect())
}

pub fn config_json(c: &Config) -> String {
    let plan_order = c
        .plan()
        .map(|p| {
            let names: Vec<String> = p.order.iter().map(|i| i.to_string()).collect();
            format!("[{}]", names.join(", "))
        })
        .unwrap_or_else(|_| "null".into());
    Obj::new()
        .str("label", &c.label())
        .str("arch", c.arch.name)
        .num("opt_level", c.opt_level)
        .str("variant", &c.variant.label())
        .raw(
            "maxrregcount",
            c.maxrregcount.map_or("null".into(), |n| n.to_string()),
        )
        .raw("phase_order", plan_order)
        .render(2)
        + "\n"
}

pub fn config_from_json(text: &str) -> Result<Config, String> {
    let d = Doc::parse(text, "config.json")?;
    Config::parse(&string(&d.0, "label")?)
}

fn verdict_obj(v: &Verdict, indent: usize) -> String {
    let mm = match &v.mismatch {
        None => "null".into(),
        Some(m) => Obj::new()
            .str("buffer", &m.buffer)
            .raw("index", m.index.map_or("null".into(), |i| i.to_string()))
            .str("expected", &format!("{:#x}", m.expected))
            .str("actual", &format!("{:#x}", m.actual))
            .num("count", m.count)
            .render(indent + 2),
    };
    Obj::new()
        .str("kind", v.kind.name())
        .str("message", &v.message)
        .raw("mismatch", mm)
        .opt_str("phase", v.phase.as_deref())
        .opt_str("opcode", v.opcode.as_deref())
        .render(indent)
}

pub fn verdict_json(v: &Verdict) -> String {
    verdict_obj(v, 2) + "\n"
}

fn verdict_from(v: &Value) -> Result<Verdict, String> {
    let kind = string(v, "kind")?;
    let kind = VerdictKind::parse(&kind).ok_or_else(|| format!("kind: unknown '{kind}'"))?;
    let mm = get(v, "mismatch")?;
    let mismatch = if is_null(mm) {
        None
    } else {
        Some(MismatchInfo {
            buffer: string(mm, "buffer")?,
            index: if is_null(get(mm, "index")?) {
                None
            } else {
                Some(number(mm, "index")? as usize)
            },
            expected: hex(mm, "expected")?,
            actual: hex(mm, "actual")?,
            count: number(mm, "count")? as usize,
        })
    };
    Ok(Verdict {
        kind,
        message: string(v, "message")?,
        mismatch,
        phase: opt_string(v, "phase")?,
        opcode: opt_string(v, "opcode")?,
    })
}

pub fn verdict_from_json(text: &str) -> Result<Verdict, String> {
    verdict_from(&Doc::parse(text, "verdict.json")?.0)
}

pub fn blame_json(b: &Blame) -> String {
    use ptxc::phases::table::name_of;
    let steps: Vec<String> = b
        .steps
        .iter()
        .map(|s| {
            format!(
                "{{\"index\": {}, \"phase\": {}, \"verdict\": {}}}",
                s.index,
                quote(name_of(s.index)),
                quote(s.verdict.name())
            )
        })
        .collect();
    Obj::new()
        .str("stage", &b.stage)
        .raw("index", b.index.map_or("null".into(), |i| i.to_string()))
        .raw(
            "departure",
            b.departure
                .as_ref()
                .map_or("null".into(), |v| verdict_obj(v, 4)),
        )
        .opt_str("key_opcode", b.key_opcode.as_deref())
        .raw(
            "order_pair",
            b.order_pair.map_or("null".into(), |(x, y)| {
                format!(
                    "[{{\"index\": {x}, \"phase\": {}}}, {{\"index\": {y}, \"phase\": {}}}]",
                    quote(name_of(x)),
                    quote(name_of(y))
                )
            }),
        )
        .raw("steps", format!("[{}]", steps.join(", ")))
        .opt_str("context", b.context.as_deref())
        .render(2)
        + "\n"
}

pub fn blame_from_json(text: &str) -> Result<Blame, String> {
    let d = Doc::parse(text, "blame.json")?;
    let v = &d.0;
    let idx = |v: &Value, k: &str| -> Result<u16, String> {
        u16::try_from(number(v, k)?).map_err(|_| format!("{k}: out of range"))
    };
    let index = if is_null(get(v, "index")?) {
        None
    } else {
        Some(idx(v, "index")?)
    };
    let dep = get(v, "departure")?;
    let departure = if is_null(dep) {
        None
    } else {
        Some(verdict_from(dep)?)
    };
    let op = get(v, "order_pair")?;
    let order_pair = match &op.kind {
        Kind::Null => None,
        Kind::Array(a) if a.len() == 2 => Some((idx(&a[0], "index")?, idx(&a[1], "index")?)),
        _ => return Err("order_pair: expected null or two entries".into()),
    };
    let steps = match &get(v, "steps")?.kind {
        Kind::Array(a) => a
            .iter()
            .map(|s| {
                let k = string(s, "verdict")?;
                Ok(BlameStep {
                    index: idx(s, "index")?,
                    verdict: VerdictKind::parse(&k)
                        .ok_or_else(|| format!("steps: unknown verdict '{k}'"))?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?,
        _ => return Err("steps: expected an array".into()),
    };
    Ok(Blame {
        stage: string(v, "stage")?,
        index,
        departure,
        key_opcode: opt_string(v, "key_opcode")?,
        order_pair,
        steps,
        // Absent from blames written before it existed.
        context: if members(v, "context")?.iter().any(|m| m.key == "context") {
            opt_string(v, "context")?
        } else {
            None
        },
    })
}

pub fn signature_json(s: &Signature) -> String {
    Obj::new()
        .str("kind", s.kind.name())
        .str("stage", &s.stage)
        .str("arch_class", &s.arch_class)
        .str("opcode", &s.opcode)
        .str("slug", &s.slug())
        .render(2)
        + "\n"
}

pub fn signature_from_json(text: &str) -> Result<Signature, String> {
    let d = Doc::parse(text, "signature.json")?;
    let k = string(&d.0, "kind")?;
    Ok(Signature {
        kind: VerdictKind::parse(&k).ok_or_else(|| format!("kind: unknown '{k}'"))?,
        stage: string(&d.0, "stage")?,
        arch_class: string(&d.0, "arch_class")?,
        opcode: string(&d.0, "opcode")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_blames_round_trip() {
        let v = Verdict {
            mismatch: Some(MismatchInfo {
                buffer: "y\"q".into(),
                index: Some(3),
                expected: u64::MAX,
                actual: 0x3f80_0000,
                count: 7,
            }),
            opcode: Some("ISETP".into()),
            ..Verdict::new(VerdictKind::Mismatch, "3 mismatches\nsecond line")
        };
        assert_eq!(verdict_from_json(&verdict_json(&v)).unwrap(), v);
        let first = ptxc::phases::table::index_of("OriPerformLiveDeadFirst");
        let second = ptxc::phases::table::index_of("OriPerformLiveDeadSecond");
        let b = Blame {
            stage: "OriPerformLiveDeadFirst".into(),
            index: Some(first),
            departure: Some(v.clone()),
            key_opcode: Some("ISETP".into()),
            order_pair: Some((first, second)),
            steps: vec![BlameStep {
                index: first,
                verdict: VerdictKind::Mismatch,
            }],
            context: None,
        };
        assert_eq!(blame_from_json(&blame_json(&b)).unwrap(), b);
        let n = Blame {
            context: Some("pass 4 of nvopt<O3>, after sroa".into()),
            ..Blame::at("nvopt:gvn")
        };
        assert_eq!(blame_from_json(&blame_json(&n)).unwrap(), n);
        // A blame written before `context` existed reads back without it.
        let old = blame_json(&b).replace(",\n  \"context\": null", "");
        assert!(!old.contains("context"), "{old}");
        assert_eq!(blame_from_json(&old).unwrap(), b);
        let s = Signature {
            kind: VerdictKind::Ice,
            stage: "lower".into(),
            arch_class: "sm_75+".into(),
            opcode: "-".into(),
        };
        assert_eq!(signature_from_json(&signature_json(&s)).unwrap(), s);
        assert!(verdict_from_json("{\"kind\": \"nope\"}").is_err());
        assert!(blame_from_json("[").is_err());
    }
}
