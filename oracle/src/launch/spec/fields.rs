//! The JSON field reader: typed values with the field path (`params[2]`,
//! `buffers.x.init`) and the `line:col` of every problem, and the reading
//! of a spec or expected file's text.

use std::fs;
use std::path::Path;

use super::super::error::{ErrorKind, LaunchError};
use super::super::json::{self, Kind, Member, Value};
use super::super::types::ElemType;

pub(in crate::launch) fn read_text(path: &Path) -> Result<String, LaunchError> {
    let bytes = fs::read(path).map_err(|e| {
        LaunchError::new(ErrorKind::Io, "", format!("cannot read: {e}")).with_file(Some(path))
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let pos = e.utf8_error().valid_up_to();
        LaunchError::new(
            ErrorKind::Syntax,
            "",
            format!("not UTF-8 text (byte {pos})"),
        )
        .with_file(Some(path))
    })
}

/// Reads JSON values with field paths and positions for messages.
pub(in crate::launch) struct Ctx<'a> {
    pub text: &'a str,
}

/// `a.b`, or `b` at the top level.
pub(in crate::launch) fn sub(field: &str, key: &str) -> String {
    if field.is_empty() {
        key.to_string()
    } else {
        format!("{field}.{key}")
    }
}

pub(in crate::launch) fn idx(field: &str, i: usize) -> String {
    format!("{field}[{i}]")
}

impl<'a> Ctx<'a> {
    pub fn err(&self, pos: usize, field: &str, msg: impl Into<String>) -> LaunchError {
        LaunchError::new(ErrorKind::Invalid, field, msg).at(self.text, pos)
    }

    pub fn parse(&self) -> Result<Value, LaunchError> {
        json::parse(self.text).map_err(|e| {
            LaunchError::new(
                ErrorKind::Syntax,
                "",
                format!("invalid JSON: {}", e.message),
            )
            .at(self.text, e.pos)
        })
    }

    fn wrong_type(&self, v: &Value, field: &str, want: &str) -> LaunchError {
        self.err(
            v.pos,
            field,
            format!("expected {want}, found {}", v.kind.describe()),
        )
    }

    pub fn object<'v>(&self, v: &'v Value, field: &str) -> Result<&'v [Member], LaunchError> {
        match &v.kind {
            Kind::Object(m) => Ok(m),
            _ => Err(self.wrong_type(v, field, "an object")),
        }
    }

    pub fn array<'v>(&self, v: &'v Value, field: &str) -> Result<&'v [Value], LaunchError> {
        match &v.kind {
            Kind::Array(a) => Ok(a),
            _ => Err(self.wrong_type(v, field, "an array")),
        }
    }

    pub fn string<'v>(&self, v: &'v Value, field: &str) -> Result<&'v str, LaunchError> {
        match &v.kind {
            Kind::String(s) => Ok(s),
            _ => Err(self.wrong_type(v, field, "a string")),
        }
    }

    pub fn boolean(&self, v: &Value, field: &str) -> Result<bool, LaunchError> {
        match &v.kind {
            Kind::Bool(b) => Ok(*b),
            _ => Err(self.wrong_type(v, field, "true or false")),
        }
    }

    /// Any integer (exactly), 128-bit range.
    pub fn int(&self, v: &Value, field: &str) -> Result<i128, LaunchError> {
        match &v.kind {
            Kind::Number(t) => json::number_to_i128(t).map_err(|why| match why {
                "not an integer" => {
                    self.err(v.pos, field, format!("expected an integer, found {t}"))
                }
                _ => self.err(v.pos, field, format!("{t} is out of range")),
            }),
            _ => Err(self.wrong_type(v, field, "an integer")),
        }
    }

    /// An integer in `[lo, hi]`.
    pub fn int_in(
        &self,
        v: &Value,
        field: &str,
        lo: i128,
        hi: i128,
        what: &str,
    ) -> Result<i128, LaunchError> {
        let x = self.int(v, field)?;
        if x < lo || x > hi {
            return Err(self.err(
                v.pos,
                field,
                format!("{x} is out of range for {what} ({lo} to {hi})"),
            ));
        }
        Ok(x)
    }

    pub fn u64(&self, v: &Value, field: &str) -> Result<u64, LaunchError> {
        Ok(self.int_in(
            v,
            field,
            0,
            i128::from(u64::MAX),
            "an unsigned 64-bit integer",
        )? as u64)
    }

    pub fn u32(&self, v: &Value, field: &str) -> Result<u32, LaunchError> {
        Ok(self.int_in(
            v,
            field,
            0,
            i128::from(u32::MAX),
            "an unsigned 32-bit integer",
        )? as u32)
    }

    /// A finite number as the nearest f64.
    pub fn f64(&self, v: &Value, field: &str) -> Result<f64, LaunchError> {
        match &v.kind {
            Kind::Number(t) => json::number_to_f64(t)
                .map_err(|why| self.err(v.pos, field, format!("{t} is {why}"))),
            _ => Err(self.wrong_type(v, field, "a number")),
        }
    }

    /// Rejects members other than `allowed`.
    pub fn only_keys(
        &self,
        members: &[Member],
        allowed: &[&str],
        field: &str,
    ) -> Result<(), LaunchError> {
        for m in members {
            if !allowed.contains(&m.key.as_str()) {
                let shown = if field.is_empty() { "the spec" } else { field };
                return Err(self.err(
                    m.key_pos,
                    field,
                    format!(
                        "unknown field '{}' (fields of {shown}: {})",
                        m.key,
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    pub fn get<'v>(members: &'v [Member], key: &str) -> Option<&'v Value> {
        members.iter().find(|m| m.key == key).map(|m| &m.value)
    }

    pub fn require<'v>(
        &self,
        members: &'v [Member],
        key: &str,
        field: &str,
        obj_pos: usize,
    ) -> Result<&'v Value, LaunchError> {
        Self::get(members, key)
            .ok_or_else(|| self.err(obj_pos, field, format!("missing field '{key}'")))
    }

    /// A `"0x…"` pattern that fits in `ty`'s width.
    pub fn hex_bits(&self, v: &Value, field: &str, ty: ElemType) -> Result<u64, LaunchError> {
        let s = self.string(v, field)?;
        parse_hex_bits(s, ty).map_err(|m| self.err(v.pos, field, m))
    }
}

/// Parses `"0x…"` into a value of `ty`'s width. Decision: hex digits in
/// either case, `0x` or `0X`, any number of leading zeros; a value wider
/// than the type is an error, not truncated.
pub(super) fn parse_hex_bits(s: &str, ty: ElemType) -> Result<u64, String> {
    let Some(digits) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) else {
        return Err(format!("expected a hex bit pattern \"0x…\", found \"{s}\""));
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("\"{s}\" is not a hex bit pattern"));
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 16 {
        return Err(format!("{s} does not fit in {} bits ({ty})", ty.bits()));
    }
    let v = if significant.is_empty() {
        0
    } else {
        u64::from_str_radix(significant, 16).map_err(|e| format!("\"{s}\": {e}"))?
    };
    if v & !ty.mask() != 0 {
        return Err(format!("{s} does not fit in {} bits ({ty})", ty.bits()));
    }
    Ok(v)
}

/// Decision: an integer value for an n-bit type may be anything in
/// [-2^(n-1), 2^n - 1] (the union of the signed and unsigned ranges, as PTX
/// immediates are), stored as its low n bits; `{"u32": -1}` is 0xffffffff.
/// Anything wider is an error rather than a silent wrap.
pub(super) fn int_range(ty: ElemType) -> (i128, i128) {
    let n = ty.bits();
    (-(1i128 << (n - 1)), (1i128 << n) - 1)
}

/// Decision: `random` bounds and `iota` start/step for integer types may be
/// anything in [-2^63, 2^64 - 1]: the spec does the arithmetic in 128 bits
/// "then stored in the type" (integers wrap), so a bound outside the type is
/// legal, but nothing needs more than 64 bits.
pub(super) const WIDE_INT: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);

pub(in crate::launch) fn elem_type(
    ctx: &Ctx,
    v: &Value,
    field: &str,
) -> Result<ElemType, LaunchError> {
    let s = ctx.string(v, field)?;
    ElemType::from_name(s).ok_or_else(|| {
        ctx.err(
            v.pos,
            field,
            format!("unknown type \"{s}\" (expected one of u8 s8 u16 s16 u32 s32 u64 s64 f16 f32 f64 b8 b16 b32 b64)"),
        )
    })
}
