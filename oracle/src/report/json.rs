//! `summary.json`: the report as JSON, written by hand with a fixed key
//! order and read back with the launch module's strict RFC 8259 reader (the
//! project has no serde).
//!
//! Schema 1, keys in this order (a reader must not depend on the order; the
//! writer keeps it so two reports diff line by line):
//!
//! ```text
//! schema      number   1; a reader refuses any other value
//! date        string   "2026-11-23"
//! seed        number   the first generator seed (u64)
//! shards      [string] "1/4", ... ("1/1" unsharded)
//! jobs        number
//! minutes     number   the requested budget
//! matrix      string   the matrix preset
//! configs     [string] configuration labels
//! programs    number
//! executions  number
//! elapsed_s   number   generate + run wall time, summed over shards
//! verdicts    {string: number}  verdict name -> configurations
//! fired       {string: number}  phase name -> rewrites
//! coverage    {string: number}  generator feature -> programs
//! timings     {string: number}  stage -> seconds
//! findings    [finding]         sorted by signature
//! ```
//!
//! A finding: `signature`, `kind`, `stage`, `arch_class`, `opcode`
//! (strings), `known` (boolean), `occurrences` (number), `program`
//! (string), `seed` (number or null), `config`, `blame`, `message`,
//! `original_ptx` (strings), `original_instructions` (number),
//! `reduced_ptx` (string or null), `reduced_instructions` (number or null),
//! `expected`, `actual` (string or null: the mismatching buffer, one
//! element per line), `directory` (string).
//!
//! Maps are written in key order (they are `BTreeMap`s). Integers are
//! written in decimal and read exactly (a reader in a language whose
//! numbers are doubles loses seeds above 2^53). Seconds and minutes are
//! written with Rust's shortest round-trip form (`{:?}`: `1.5`, `1e-7`), so
//! they read back bit-exact; JSON has no NaN or infinity, so a non-finite
//! value is written as `null` and read back as NaN. Strings are escaped per
//! RFC 8259 section 7 (`quote`: `"`, `\` and the control characters; other
//! characters, non-ASCII included, as UTF-8). Keys the reader does not know
//! are ignored (additions that old readers may skip do not need a new
//! schema); a missing key is an error naming it.

use std::collections::BTreeMap;

use crate::diff::json::Obj;
use crate::launch::json::{parse, quote, Kind, Value};

use super::model::{FindingReport, NightlyReport, SCHEMA};

fn float(v: f64) -> String {
    if v.is_finite() {
        format!("{v:?}")
    } else {
        "null".into()
    }
}

fn str_array(items: &[String]) -> String {
    let q: Vec<String> = items.iter().map(|s| quote(s)).collect();
    format!("[{}]", q.join(", "))
}

/// `{"k": v, ...}` on one line per member at `indent`.
fn map<V>(m: &BTreeMap<String, V>, indent: usize, val: impl Fn(&V) -> String) -> String {
    if m.is_empty() {
        return "{}".into();
    }
    let pad = " ".repeat(indent);
    let body: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{pad}{}: {}", quote(k), val(v)))
        .collect();
    format!(
        "{{\n{}\n{}}}",
        body.join(",\n"),
        " ".repeat(indent.saturating_sub(2))
    )
}

fn opt_num(v: Option<impl std::fmt::Display>) -> String {
    v.map_or("null".into(), |n| n.to_string())
}

fn finding_json(f: &FindingReport, indent: usize) -> String {
    Obj::new()
        .str("signature", &f.signature)
        .str("kind", &f.kind)
        .str("stage", &f.stage)
        .str("arch_class", &f.arch_class)
        .str("opcode", &f.opcode)
        .raw("known", f.known.to_string())
        .num("occurrences", f.occurrences)
        .str("program", &f.program)
        .raw("seed", opt_num(f.seed))
        .str("config", &f.config)
        .str("blame", &f.blame)
        .str("message", &f.message)
        .str("original_ptx", &f.original_ptx)
        .num("original_instructions", f.original_instructions)
        .opt_str("reduced_ptx", f.reduced_ptx.as_deref())
        .raw("reduced_instructions", opt_num(f.reduced_instructions))
        .opt_str("expected", f.expected.as_deref())
        .opt_str("actual", f.actual.as_deref())
        .str("directory", &f.directory)
        .render(indent)
}

/// The report as `summary.json` text (ends with a newline).
pub fn to_json(r: &NightlyReport) -> String {
    let findings = if r.findings.is_empty() {
        "[]".to_string()
    } else {
        let items: Vec<String> = r
            .findings
            .iter()
            .map(|f| format!("    {}", finding_json(f, 6)))
            .collect();
        format!("[\n{}\n  ]", items.join(",\n"))
    };
    Obj::new()
        .num("schema", r.schema)
        .str("date", &r.date)
        .num("seed", r.seed)
        .raw("shards", str_array(&r.shards))
        .num("jobs", r.jobs)
        .raw("minutes", float(r.minutes))
        .str("matrix", &r.matrix)
        .raw("configs", str_array(&r.configs))
        .num("programs", r.programs)
        .num("executions", r.executions)
        .raw("elapsed_s", float(r.elapsed_s))
        .raw("verdicts", map(&r.verdicts, 4, |n| n.to_string()))
        .raw("fired", map(&r.fired, 4, |n| n.to_string()))
        .raw("coverage", map(&r.coverage, 4, |n| n.to_string()))
        .raw("timings", map(&r.timings, 4, |s| float(*s)))
        .raw("findings", findings)
        .render(2)
        + "\n"
}

/// A reader of one object; errors name the path of the field
/// (`findings[2].seed: expected a number, found a string`).
struct Fields<'a> {
    path: String,
    value: &'a Value,
}

fn describe(v: &Value) -> &'static str {
    v.kind.describe()
}

impl<'a> Fields<'a> {
    fn new(path: String, value: &'a Value) -> Result<Fields<'a>, String> {
        match &value.kind {
            Kind::Object(_) => Ok(Fields { path, value }),
            _ => Err(format!(
                "{}: expected an object, found {}",
                if path.is_empty() { "summary" } else { &path },
                describe(value)
            )),
        }
    }

    fn name(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn get(&self, key: &str) -> Result<&'a Value, String> {
        let Kind::Object(m) = &self.value.kind else {
            unreachable!("Fields::new checked the kind")
        };
        m.iter()
            .find(|m| m.key == key)
            .map(|m| &m.value)
            .ok_or_else(|| format!("missing field '{}'", self.name(key)))
    }

    fn wrong(&self, key: &str, want: &str, v: &Value) -> String {
        format!("{}: expected {want}, found {}", self.name(key), describe(v))
    }

    fn string(&self, key: &str) -> Result<String, String> {
        let v = self.get(key)?;
        match &v.kind {
            Kind::String(s) => Ok(s.clone()),
            _ => Err(self.wrong(key, "a string", v)),
        }
    }

    fn opt_string(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key)?.kind {
            Kind::Null => Ok(None),
            _ => self.string(key).map(Some),
        }
    }

    fn uint(&self, key: &str) -> Result<u64, String> {
        let v = self.get(key)?;
        uint_of(v).ok_or_else(|| self.wrong(key, "a non-negative integer", v))
    }

    fn opt_uint(&self, key: &str) -> Result<Option<u64>, String> {
        match self.get(key)?.kind {
            Kind::Null => Ok(None),
            _ => self.uint(key).map(Some),
        }
    }

    fn usize(&self, key: &str) -> Result<usize, String> {
        usize::try_from(self.uint(key)?).map_err(|_| format!("{}: out of range", self.name(key)))
    }

    fn opt_usize(&self, key: &str) -> Result<Option<usize>, String> {
        match self.get(key)?.kind {
            Kind::Null => Ok(None),
            _ => self.usize(key).map(Some),
        }
    }

    fn float(&self, key: &str) -> Result<f64, String> {
        let v = self.get(key)?;
        float_of(v).ok_or_else(|| self.wrong(key, "a number", v))
    }

    fn bool(&self, key: &str) -> Result<bool, String> {
        let v = self.get(key)?;
        match v.kind {
            Kind::Bool(b) => Ok(b),
            _ => Err(self.wrong(key, "true or false", v)),
        }
    }

    fn strings(&self, key: &str) -> Result<Vec<String>, String> {
        let v = self.get(key)?;
        let Kind::Array(items) = &v.kind else {
            return Err(self.wrong(key, "an array", v));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, it)| match &it.kind {
                Kind::String(s) => Ok(s.clone()),
                _ => Err(format!(
                    "{}[{i}]: expected a string, found {}",
                    self.name(key),
                    describe(it)
                )),
            })
            .collect()
    }

    fn map<V>(
        &self,
        key: &str,
        what: &str,
        read: impl Fn(&Value) -> Option<V>,
    ) -> Result<BTreeMap<String, V>, String> {
        let v = self.get(key)?;
        let Kind::Object(members) = &v.kind else {
            return Err(self.wrong(key, "an object", v));
        };
        members
            .iter()
            .map(|m| match read(&m.value) {
                Some(x) => Ok((m.key.clone(), x)),
                None => Err(format!(
                    "{}.{}: expected {what}, found {}",
                    self.name(key),
                    m.key,
                    describe(&m.value)
                )),
            })
            .collect()
    }
}

fn uint_of(v: &Value) -> Option<u64> {
    match &v.kind {
        Kind::Number(n) => n.parse().ok(),
        _ => None,
    }
}

/// A number, or `null` for a non-finite value (see the module comment).
fn float_of(v: &Value) -> Option<f64> {
    match &v.kind {
        Kind::Number(n) => crate::launch::json::number_to_f64(n).ok(),
        Kind::Null => Some(f64::NAN),
        _ => None,
    }
}

fn finding_from(path: String, v: &Value) -> Result<FindingReport, String> {
    let f = Fields::new(path, v)?;
    Ok(FindingReport {
        signature: f.string("signature")?,
        kind: f.string("kind")?,
        stage: f.string("stage")?,
        arch_class: f.string("arch_class")?,
        opcode: f.string("opcode")?,
        known: f.bool("known")?,
        occurrences: f.uint("occurrences")?,
        program: f.string("program")?,
        seed: f.opt_uint("seed")?,
        config: f.string("config")?,
        blame: f.string("blame")?,
        message: f.string("message")?,
        original_ptx: f.string("original_ptx")?,
        original_instructions: f.usize("original_instructions")?,
        reduced_ptx: f.opt_string("reduced_ptx")?,
        reduced_instructions: f.opt_usize("reduced_instructions")?,
        expected: f.opt_string("expected")?,
        actual: f.opt_string("actual")?,
        directory: f.string("directory")?,
    })
}

/// Reads `summary.json` text. Errors give the byte offset of a syntax
/// error or the path of a bad field; a schema other than [`SCHEMA`] is
/// refused before anything else is read.
pub fn from_json(text: &str) -> Result<NightlyReport, String> {
    let v = parse(text).map_err(|e| format!("byte {}: {}", e.pos, e.message))?;
    let f = Fields::new(String::new(), &v)?;
    let schema = f.uint("schema")?;
    if schema != u64::from(SCHEMA) {
        return Err(format!(
            "schema {schema} is not supported (this ptxdiff reads schema {SCHEMA})"
        ));
    }
    let findings = match &f.get("findings")?.kind {
        Kind::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, it)| finding_from(format!("findings[{i}]"), it))
            .collect::<Result<Vec<_>, String>>()?,
        _ => return Err(f.wrong("findings", "an array", f.get("findings")?)),
    };
    Ok(NightlyReport {
        schema: SCHEMA,
        date: f.string("date")?,
        seed: f.uint("seed")?,
        shards: f.strings("shards")?,
        jobs: f.usize("jobs")?,
        minutes: f.float("minutes")?,
        matrix: f.string("matrix")?,
        configs: f.strings("configs")?,
        programs: f.uint("programs")?,
        executions: f.uint("executions")?,
        elapsed_s: f.float("elapsed_s")?,
        verdicts: f.map("verdicts", "a non-negative integer", uint_of)?,
        fired: f.map("fired", "a non-negative integer", uint_of)?,
        coverage: f.map("coverage", "a non-negative integer", uint_of)?,
        timings: f.map("timings", "a number", float_of)?,
        findings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::tests::finding;
    use quickcheck::{quickcheck, Arbitrary, Gen};

    /// Strings that stress the escaping: quotes, backslashes, every kind
    /// of control character, non-ASCII (BMP and astral), markup.
    const NASTY: [&str; 8] = [
        "",
        "say \"hi\" \\ back\\slash",
        "tab\tnl\ncr\r nul\u{0} bell\u{7} esc\u{1b} del\u{7f} \u{1f}",
        "ü ß 中文 🦀 \u{2028}\u{2029} \u{feff}",
        "</script><script>alert(1)</script>",
        "// <b>x</b> & \"q\" 'a'",
        "\\u0041 is not A",
        "```\n~~~\n|a|b|\n",
    ];

    fn full_report() -> NightlyReport {
        let mut r = NightlyReport::empty("2026-11-23", "default");
        r.seed = u64::MAX;
        r.shards = vec!["1/4".into(), "3/4".into()];
        r.jobs = 2;
        r.minutes = 60.0;
        r.configs = NASTY.iter().map(|s| s.to_string()).collect();
        r.programs = 1234;
        r.executions = 9 * 1234;
        r.elapsed_s = 0.1 + 0.2;
        for (i, s) in NASTY.iter().enumerate() {
            r.verdicts.insert(format!("v{s}"), i as u64);
            r.fired.insert(format!("p{s}"), u64::MAX - i as u64);
            r.coverage.insert(format!("c{s}"), i as u64 * 3);
            r.timings.insert(format!("t{s}"), 1e-7 * i as f64 + 1e300);
        }
        for (i, s) in NASTY.iter().enumerate() {
            let mut f = finding(&format!("sig{i}{s}"), s, (i % 2 == 0).then_some(i));
            f.message = s.to_string();
            f.original_ptx = format!("// {s}\n{s}");
            f.expected = (i % 3 != 0).then(|| s.to_string());
            f.seed = (i % 2 == 1).then_some(i as u64);
            f.known = i % 4 == 0;
            r.findings.push(f);
        }
        r
    }

    #[test]
    fn hand_built_reports_round_trip() {
        let empty = NightlyReport::empty("d", "m");
        assert_eq!(from_json(&to_json(&empty)).unwrap(), empty);
        let r = full_report();
        let text = to_json(&r);
        assert_eq!(from_json(&text).unwrap(), r);
        // the raw control characters never appear in the text
        assert!(!text.bytes().any(|b| b < 0x20 && b != b'\n'), "{text}");
        // and the text is stable
        assert_eq!(to_json(&from_json(&text).unwrap()), text);
    }

    #[test]
    fn keys_in_schema_order() {
        let text = to_json(&full_report());
        let keys = [
            "schema",
            "date",
            "seed",
            "shards",
            "jobs",
            "minutes",
            "matrix",
            "configs",
            "programs",
            "executions",
            "elapsed_s",
            "verdicts",
            "fired",
            "coverage",
            "timings",
            "findings",
        ];
        let at: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\n  \"{k}\": ")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        assert!(text.starts_with("{\n  \"schema\": 1,\n  \"date\": \"2026-11-23\","));
    }

    #[test]
    fn non_finite_seconds_are_null() {
        let mut r = NightlyReport::empty("d", "m");
        r.elapsed_s = f64::INFINITY;
        let text = to_json(&r);
        assert!(text.contains("\"elapsed_s\": null"), "{text}");
        assert!(from_json(&text).unwrap().elapsed_s.is_nan());
    }

    #[test]
    fn bad_documents_are_refused_with_the_field() {
        let good = to_json(&full_report());
        let err = |t: &str| from_json(t).unwrap_err();
        assert_eq!(
            err(&good.replacen("\"schema\": 1", "\"schema\": 2", 1)),
            "schema 2 is not supported (this ptxdiff reads schema 1)"
        );
        assert_eq!(
            err(&good.replacen("\"date\": \"2026-11-23\",", "", 1)),
            "missing field 'date'"
        );
        assert_eq!(
            err(&good.replacen("\"seed\": null", "\"seed\": \"1\"", 1)),
            "findings[0].seed: expected a non-negative integer, found a string"
        );
        assert_eq!(
            err(&good.replacen("\"jobs\": 2", "\"jobs\": -2", 1)),
            "jobs: expected a non-negative integer, found a number"
        );
        assert_eq!(
            err(&good.replacen("\"known\": true", "\"known\": 1", 1)),
            "findings[0].known: expected true or false, found a number"
        );
        assert_eq!(
            err(&good.replacen("\"shards\": [\"1/4\"", "\"shards\": [4", 1)),
            "shards[0]: expected a string, found a number"
        );
        assert!(err("[]").contains("expected an object"));
        assert!(err("{").starts_with("byte 1: "), "{}", err("{"));
        assert!(err(&good[..good.len() / 2]).starts_with("byte "));
        // an unknown key is ignored
        let extra = good.replacen("{\n", "{\n  \"future\": [1, 2],\n", 1);
        assert_eq!(from_json(&extra).unwrap(), full_report());
    }

    #[derive(Clone, Debug)]
    struct AnyReport(NightlyReport);

    impl Arbitrary for AnyReport {
        fn arbitrary(g: &mut Gen) -> AnyReport {
            let s = |g: &mut Gen| -> String {
                if bool::arbitrary(g) {
                    g.choose(&NASTY).unwrap().to_string()
                } else {
                    String::arbitrary(g)
                }
            };
            let f = |g: &mut Gen| -> f64 {
                let x = f64::arbitrary(g);
                if x.is_finite() {
                    x
                } else {
                    0.5
                }
            };
            let mut r = NightlyReport::empty(&s(g), &s(g));
            r.seed = u64::arbitrary(g);
            r.shards = Vec::arbitrary(g);
            r.jobs = usize::arbitrary(g);
            r.minutes = f(g);
            r.configs = Vec::arbitrary(g);
            r.programs = u64::arbitrary(g);
            r.executions = u64::arbitrary(g);
            r.elapsed_s = f(g);
            r.verdicts = BTreeMap::arbitrary(g);
            r.fired = BTreeMap::arbitrary(g);
            r.coverage = BTreeMap::arbitrary(g);
            for _ in 0..u8::arbitrary(g) % 4 {
                r.timings.insert(s(g), f(g));
            }
            for _ in 0..u8::arbitrary(g) % 3 {
                r.findings.push(FindingReport {
                    signature: s(g),
                    kind: s(g),
                    stage: s(g),
                    arch_class: s(g),
                    opcode: s(g),
                    known: bool::arbitrary(g),
                    occurrences: u64::arbitrary(g),
                    program: s(g),
                    seed: Option::arbitrary(g),
                    config: s(g),
                    blame: s(g),
                    message: s(g),
                    original_ptx: s(g),
                    original_instructions: usize::arbitrary(g),
                    reduced_ptx: Option::arbitrary(g),
                    reduced_instructions: Option::arbitrary(g),
                    expected: Option::arbitrary(g),
                    actual: Option::arbitrary(g),
                    directory: s(g),
                });
            }
            AnyReport(r)
        }
    }

    quickcheck! {
        fn any_report_round_trips(r: AnyReport) -> bool {
            from_json(&to_json(&r.0)).as_ref() == Ok(&r.0)
        }
    }
}
