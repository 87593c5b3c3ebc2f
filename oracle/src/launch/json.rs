//! A strict JSON reader (RFC 8259) that keeps every value's byte position and
//! every number's text, and a few writing helpers.
//!
//! Numbers stay text until the reader of the spec knows the element type:
//! integers are then read exactly (up to 128 bits) and floats with Rust's
//! `str::parse::<f64>`, which rounds correctly (serde_json's default parser
//! does not; see the test at the end).

/// A JSON value with the byte offset where it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Value {
    pub pos: usize,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    /// The number as written (already checked against the JSON grammar).
    Number(String),
    String(String),
    Array(Vec<Value>),
    /// Members in the order written; duplicate keys are a syntax error.
    Object(Vec<Member>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Member {
    pub key: String,
    pub key_pos: usize,
    pub value: Value,
}

impl Kind {
    /// "an object", "a number", ...: for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number(_) => "a number",
            Kind::String(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Object(_) => "an object",
        }
    }
}

/// A syntax error at a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub pos: usize,
    pub message: String,
}

/// Nesting deeper than this is refused (no stack overflow on `[[[[...`).
const MAX_DEPTH: usize = 128;

pub(crate) fn parse(text: &str) -> Result<Value, SyntaxError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    // A UTF-8 byte order mark is ignored (RFC 8259 section 8.1 allows it).
    if p.s.starts_with(&[0xef, 0xbb, 0xbf]) {
        p.i = 3;
    }
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> SyntaxError {
        SyntaxError {
            pos: self.i,
            message: msg.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.err("JSON nested too deeply"));
        }
        let pos = self.i;
        let kind = match self.peek() {
            None => return Err(self.err("unexpected end of input, expected a value")),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Kind::Number(self.number()?),
            Some(b't') => self.literal("true", Kind::Bool(true))?,
            Some(b'f') => self.literal("false", Kind::Bool(false))?,
            Some(b'n') => self.literal("null", Kind::Null)?,
            Some(_) => return Err(self.err("expected a JSON value")),
        };
        Ok(Value { pos, kind })
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<Kind, SyntaxError> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(kind)
        } else {
            Err(self.err("expected a JSON value"))
        }
    }

    fn object(&mut self, depth: usize) -> Result<Kind, SyntaxError> {
        self.i += 1; // '{'
        let mut members: Vec<Member> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a member name in double quotes"));
            }
            let key_pos = self.i;
            let key = self.string()?;
            if members.iter().any(|m| m.key == key) {
                return Err(SyntaxError {
                    pos: key_pos,
                    message: format!("duplicate member '{key}'"),
                });
            }
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':' after the member name"));
            }
            self.i += 1;
            self.ws();
            let value = self.value(depth + 1)?;
            members.push(Member {
                key,
                key_pos,
                value,
            });
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.err("expected ',' or '}' in an object")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, SyntaxError> {
        self.i += 1; // '['
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Kind::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth + 1)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Kind::Array(items));
                }
                _ => return Err(self.err("expected ',' or ']' in an array")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<String, SyntaxError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.err("leading zeros are not allowed in JSON numbers"));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.err("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(self.err("expected a digit after the decimal point"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("expected a digit in the exponent"));
            }
        }
        // The number is ASCII, so this slice is valid UTF-8.
        Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.err("expected four hex digits after \\u")),
            };
            v = v * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.i += 1; // opening quote
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err("unterminated string"));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    let Some(e) = self.peek() else {
                        return Err(self.err("unterminated string"));
                    };
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let cp = if (0xd800..0xdc00).contains(&hi) {
                                if !self.s[self.i..].starts_with(b"\\u") {
                                    return Err(self.err("unpaired surrogate in \\u escape"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&lo) {
                                    return Err(self.err("unpaired surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                            } else if (0xdc00..0xe000).contains(&hi) {
                                return Err(self.err("unpaired surrogate in \\u escape"));
                            } else {
                                hi
                            };
                            match char::from_u32(cp) {
                                Some(ch) => ch,
                                None => return Err(self.err("invalid \\u escape")),
                            }
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("invalid escape in string"));
                        }
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(self.err("control character in string (escape it)")),
                _ => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
        // The input is a &str and we split only at ASCII bytes, so this is
        // valid UTF-8; stay panic-free anyway.
        String::from_utf8(out).map_err(|_| self.err("invalid UTF-8 in string"))
    }
}

/// Exact value of a JSON number if it is an integer (`"1e3"` and `"2.50e1"`
/// count, `"2.5"` does not). `Err` says why not: not an integer, or beyond
/// the 128-bit range.
pub(crate) fn number_to_i128(text: &str) -> Result<i128, &'static str> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mant, exp) = match rest.find(['e', 'E']) {
        Some(k) => (&rest[..k], &rest[k + 1..]),
        None => (rest, ""),
    };
    let (int_part, frac_part) = match mant.find('.') {
        Some(k) => (&mant[..k], &mant[k + 1..]),
        None => (mant, ""),
    };
    // exponent, saturated (huge exponents only matter for zero mantissas)
    let mut e: i64 = 0;
    if !exp.is_empty() {
        let (eneg, edig) = match exp.as_bytes()[0] {
            b'-' => (true, &exp[1..]),
            b'+' => (false, &exp[1..]),
            _ => (false, exp),
        };
        for b in edig.bytes() {
            if !b.is_ascii_digit() {
                return Err("not a number");
            }
            e = e.saturating_mul(10).saturating_add(i64::from(b - b'0'));
        }
        if eneg {
            e = -e;
        }
    }
    let mut digits: Vec<u8> = int_part.bytes().chain(frac_part.bytes()).collect();
    if digits.is_empty() || digits.iter().any(|b| !b.is_ascii_digit()) {
        return Err("not a number");
    }
    e = e.saturating_sub(frac_part.len() as i64);
    // strip leading zeros
    let first = digits.iter().position(|&b| b != b'0');
    let Some(first) = first else { return Ok(0) };
    digits.drain(..first);
    // strip trailing zeros into the exponent
    while digits.last() == Some(&b'0') {
        digits.pop();
        e = e.saturating_add(1);
    }
    if e < 0 {
        return Err("not an integer");
    }
    if (digits.len() as i64).saturating_add(e) > 40 {
        return Err("out of range");
    }
    let mut v: i128 = 0;
    for b in digits {
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(i128::from(b - b'0')))
            .ok_or("out of range")?;
    }
    for _ in 0..e {
        v = v.checked_mul(10).ok_or("out of range")?;
    }
    Ok(if neg { -v } else { v })
}

/// The f64 nearest to a JSON number (ties to even); `Err` if the number is
/// beyond the f64 range (JSON has no infinity).
pub(crate) fn number_to_f64(text: &str) -> Result<f64, &'static str> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(_) => Err("out of the f64 range"),
        Err(_) => Err("not a number"),
    }
}

/// A JSON string literal for `s`.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number for a finite f64 that reads back as the same f64 (Rust's
/// shortest round-trip form: `2.5`, `-8.0`, `1e-45`, `-0.0`).
pub(crate) fn f64_text(v: f64) -> String {
    if v.is_finite() {
        format!("{v:?}")
    } else {
        // never produced for validated specs; keep the output valid JSON
        "null".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(t: &str) -> Kind {
        parse(t).unwrap().kind
    }

    #[test]
    fn parses_values_with_positions() {
        let v =
            parse(" {\"a\": [1, -2.5e3, true, null], \"b\": \"x\\u00e9\\ud83d\\ude00\"}").unwrap();
        assert_eq!(v.pos, 1);
        let Kind::Object(m) = v.kind else { panic!() };
        assert_eq!(m[0].key, "a");
        assert_eq!(m[0].key_pos, 2);
        assert_eq!(m[0].value.pos, 7);
        let Kind::Array(a) = &m[0].value.kind else {
            panic!()
        };
        assert_eq!(a[1].kind, Kind::Number("-2.5e3".into()));
        assert_eq!(a[1].pos, 11);
        assert_eq!(m[1].value.kind, Kind::String("xé😀".into()));
    }

    #[test]
    fn rejects_non_json() {
        for (t, pos) in [
            ("", 0),
            ("{", 1),
            ("{\"a\" 1}", 5),
            ("{\"a\": 1,}", 8),
            ("[1,]", 3),
            ("[01]", 2),
            ("[1.]", 3),
            ("[.5]", 1),
            ("[1e]", 3),
            ("[+1]", 1),
            ("[NaN]", 1),
            ("[Infinity]", 1),
            ("\"abc", 4),
            ("\"a\nb\"", 2),
            ("\"\\x\"", 2),
            ("\"\\ud800\"", 7),
            ("{\"a\": 1, \"a\": 2}", 9),
            ("[1] 2", 4),
            ("tru", 0),
            ("{'a': 1}", 1),
        ] {
            let e = parse(t).unwrap_err();
            assert_eq!(e.pos, pos, "{t:?}: {}", e.message);
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let t = "[".repeat(100_000);
        assert!(parse(&t).unwrap_err().message.contains("deeply"));
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn bom_and_whitespace() {
        assert_eq!(kind("\u{feff} \t\r\n7 \n"), Kind::Number("7".into()));
    }

    #[test]
    fn exact_integers() {
        assert_eq!(number_to_i128("0"), Ok(0));
        assert_eq!(number_to_i128("-0"), Ok(0));
        assert_eq!(number_to_i128("18446744073709551615"), Ok(u64::MAX as i128));
        assert_eq!(number_to_i128("-9223372036854775808"), Ok(i64::MIN as i128));
        assert_eq!(number_to_i128("1e3"), Ok(1000));
        assert_eq!(number_to_i128("2.50e1"), Ok(25));
        assert_eq!(number_to_i128("3.0"), Ok(3));
        assert_eq!(number_to_i128("-1.5E1"), Ok(-15));
        assert_eq!(number_to_i128("1230e-1"), Ok(123));
        assert_eq!(number_to_i128("0e99999999999999999999"), Ok(0));
        assert_eq!(number_to_i128("2.5"), Err("not an integer"));
        assert_eq!(number_to_i128("1e-1"), Err("not an integer"));
        assert_eq!(number_to_i128("1e40"), Err("out of range"));
        assert_eq!(
            number_to_i128("1e99999999999999999999"),
            Err("out of range")
        );
        assert_eq!(
            number_to_i128("170141183460469231731687303715884105727"),
            Ok(i128::MAX)
        );
        assert_eq!(
            number_to_i128("170141183460469231731687303715884105728"),
            Err("out of range")
        );
    }

    #[test]
    fn floats_are_correctly_rounded() {
        // 2^-1074 * 0.5 exactly is a tie that rounds to even (zero); a hair
        // above rounds up to the smallest denormal.
        assert_eq!(number_to_f64("2.4703282292062327e-324"), Ok(0.0));
        assert_eq!(
            number_to_f64("2.4703282292062328e-324").map(f64::to_bits),
            Ok(1)
        );
        assert_eq!(number_to_f64("1e400"), Err("out of the f64 range"));
        // A 17-digit value that serde_json 1.x (default features) reads one
        // ulp off (as 1.4830129587372308e-173). Bits from
        // python3 -c "import struct; print(hex(struct.unpack('<Q', struct.pack('<d', float('1.4830129587372307e-173')))[0]))"
        let t = "1.4830129587372307e-173";
        let want = f64::from_bits(0x1c0d_57f1_ece3_fddc);
        assert_eq!(number_to_f64(t), Ok(want), "{:#x}", want.to_bits());
    }

    #[test]
    fn writing_helpers() {
        assert_eq!(quote("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\u0001é\"");
        assert_eq!(f64_text(2.5), "2.5");
        assert_eq!(f64_text(-8.0), "-8.0");
        assert_eq!(f64_text(-0.0), "-0.0");
        assert_eq!(f64_text(1e-45), "1e-45");
        for v in [0.1, 1e300, 5e-324, -3.4028235677973366e38, 123456789.123] {
            assert_eq!(number_to_f64(&f64_text(v)), Ok(v));
        }
    }
}
