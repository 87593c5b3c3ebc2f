//! Numeric literals (PTX ISA 4.5 "Constants").

use super::{PResult, Parser};
use crate::ptx::ast::Imm;
use crate::ptx::lexer::{Tok, Token};

/// Parses an integer literal's text: decimal, `0x` hex, `0b` binary, leading-0
/// octal, optional `U` suffix. Returns (value, unsigned-suffix).
pub fn parse_int_text(text: &str) -> Result<(u64, bool), &'static str> {
    let (body, unsigned) = match text.strip_suffix(['U', 'u']) {
        Some(b) => (b, true),
        None => (text, false),
    };
    let (digits, radix) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (b, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err("invalid integer literal");
    }
    u64::from_str_radix(digits, radix)
        .map(|v| (v, unsigned))
        .map_err(|_| "integer literal out of range")
}

impl Parser<'_> {
    /// An integer token's value (as i128 so `-0x8000000000000000` fits).
    pub(super) fn parse_int_token(&mut self, t: Token) -> PResult<i128> {
        match parse_int_text(self.text(t)) {
            Ok((v, _)) => Ok(v as i128),
            Err(msg) => Err(self.error(t.span(), msg)),
        }
    }

    /// An optionally negated numeric literal.
    pub(super) fn literal(&mut self) -> PResult<Imm> {
        let neg = self.eat_punct(b'-');
        let t = self.peek();
        let imm = match t.kind {
            Tok::Int => {
                self.bump();
                let (v, unsigned) = match parse_int_text(self.text(t)) {
                    Ok(x) => x,
                    Err(msg) => return Err(self.error(t.span(), msg)),
                };
                Imm::Int {
                    magnitude: v,
                    negative: neg && v != 0,
                    unsigned,
                }
            }
            Tok::FloatBits => {
                self.bump();
                let text = self.text(t);
                let (kind, hex) = text.split_at(2);
                let bad = || "invalid float literal";
                let single = kind.ends_with(['f', 'F']);
                let want = if single { 8 } else { 16 };
                if hex.len() != want || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                    return Err(self.error(t.span(), bad()));
                }
                let bits = u64::from_str_radix(hex, 16).unwrap();
                if single {
                    let b = bits as u32;
                    Imm::F32(if neg { b ^ 0x8000_0000 } else { b })
                } else {
                    Imm::F64(if neg { bits ^ (1 << 63) } else { bits })
                }
            }
            Tok::Float => {
                self.bump();
                match self.text(t).parse::<f64>() {
                    Ok(v) if v.is_finite() => Imm::Float((if neg { -v } else { v }).to_bits()),
                    _ => return Err(self.error(t.span(), "invalid float literal")),
                }
            }
            _ => return Err(self.expected("an operand")),
        };
        Ok(imm)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_int_text;

    #[test]
    fn integer_forms() {
        assert_eq!(parse_int_text("42"), Ok((42, false)));
        assert_eq!(parse_int_text("0x1F"), Ok((31, false)));
        assert_eq!(parse_int_text("0b101"), Ok((5, false)));
        assert_eq!(parse_int_text("017"), Ok((15, false)));
        assert_eq!(parse_int_text("0"), Ok((0, false)));
        assert_eq!(parse_int_text("7U"), Ok((7, true)));
        assert_eq!(parse_int_text("0xFFFFFFFFFFFFFFFF"), Ok((u64::MAX, false)));
        assert_eq!(
            parse_int_text("0x10000000000000000"),
            Err("integer literal out of range")
        );
        assert_eq!(parse_int_text("08"), Err("invalid integer literal"));
        assert_eq!(parse_int_text("12ab"), Err("invalid integer literal"));
        assert_eq!(parse_int_text("0x"), Err("invalid integer literal"));
    }
}
