//! The PTX lexer: bytes to tokens, no allocation per token. Every byte
//! sequence lexes to something; bad characters become diagnostics.
//!
//! PTX ISA 4 "Syntax": identifiers `[a-zA-Z][a-zA-Z0-9_$]*` or
//! `[_$%][a-zA-Z0-9_$]+`; directives and modifiers are `.name` (modifiers may
//! contain `::`, as in `.L2::cache_hint`); integer literals are decimal, hex
//! `0x`, octal `0`, binary `0b`, with an optional `U`; `0f`/`0d` followed by 8/16
//! hex digits are f32/f64 bit patterns; decimal float literals need a `.` or
//! an exponent.

use super::diag::Diagnostic;
use super::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident,
    /// `.name`, the text includes the dot.
    Dot,
    Int,
    Float,
    /// `0fXXXXXXXX` or `0dXXXXXXXXXXXXXXXX`.
    FloatBits,
    Str,
    Punct(u8),
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub lo: u32,
    pub hi: u32,
}

impl Token {
    pub fn span(&self) -> Span {
        Span {
            lo: self.lo,
            hi: self.hi,
        }
    }

    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.lo as usize..self.hi as usize]
    }
}

/// Character classes, one table lookup per byte.
const IDENT_CONT: u8 = 1;
const IDENT_START: u8 = 2;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let alpha = c.is_ascii_alphabetic();
        let cont = alpha || c.is_ascii_digit() || c == b'_' || c == b'$';
        let start = alpha || c == b'_' || c == b'$' || c == b'%';
        t[b] = (if cont { IDENT_CONT } else { 0 }) | (if start { IDENT_START } else { 0 });
        b += 1;
    }
    t
};

#[inline(always)]
fn is_ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

#[inline(always)]
fn is_ident_cont(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CONT != 0
}

/// A resumable token source: the parser pulls tokens in batches into a small
/// reused buffer, so the whole token array is never materialized (for a
/// 64 MB file it would be three times the input).
pub struct Lexer<'a> {
    src: &'a str,
    i: usize,
    /// Lexical errors found so far.
    pub diags: Vec<Diagnostic>,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            i: 0,
            diags: Vec::new(),
        }
    }

    /// Appends up to `max` tokens to `out`; returns true once the `Eof` token
    /// has been appended (it is appended exactly once).
    pub fn lex_batch(&mut self, out: &mut Vec<Token>, max: usize) -> bool {
        let src = self.src;
        let bytes = src.as_bytes();
        let n = bytes.len();
        let diags = &mut self.diags;
        let mut i = self.i;
        let limit = out.len() + max;
        while i < n {
            if out.len() >= limit {
                self.i = i;
                return false;
            }
            let b = bytes[i];
            let start = i;
            let kind = match b {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                    i += 1;
                    while i < n && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n') {
                        i += 1;
                    }
                    continue;
                }
                b'/' if i + 1 < n && bytes[i + 1] == b'/' => {
                    i = memchr::memchr(b'\n', &bytes[i..]).map_or(n, |k| i + k);
                    continue;
                }
                b'/' if i + 1 < n && bytes[i + 1] == b'*' => {
                    match memchr::memmem::find(&bytes[i + 2..], b"*/") {
                        Some(k) => i += 2 + k + 2,
                        None => {
                            diags.push(Diagnostic::error(
                                Span::new(i, i + 2),
                                "unterminated block comment",
                            ));
                            i = n;
                        }
                    }
                    continue;
                }
                b'"' => {
                    i += 1;
                    loop {
                        if i >= n || bytes[i] == b'\n' {
                            diags.push(Diagnostic::error(
                                Span::new(start, i),
                                "unterminated string literal",
                            ));
                            break;
                        }
                        if bytes[i] == b'\\' && i + 1 < n {
                            i += 2;
                            continue;
                        }
                        if bytes[i] == b'"' {
                            i += 1;
                            break;
                        }
                        i += 1;
                    }
                    Tok::Str
                }
                // `.25`: a float literal, not a modifier (digits, then no letter
                // other than an exponent).
                b'.' if i + 1 < n && bytes[i + 1].is_ascii_digit() && dot_number(bytes, i + 1) => {
                    i += 1;
                    lex_number(bytes, &mut i);
                    Tok::Float
                }
                b'.' if i + 1 < n && (is_ident_cont(bytes[i + 1])) => {
                    i += 1;
                    loop {
                        while i < n && is_ident_cont(bytes[i]) {
                            i += 1;
                        }
                        // `::` joins parts of one modifier (`.L2::cache_hint`).
                        if i + 2 < n
                            && bytes[i] == b':'
                            && bytes[i + 1] == b':'
                            && is_ident_cont(bytes[i + 2])
                        {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    Tok::Dot
                }
                b'0'..=b'9' => lex_number(bytes, &mut i),
                _ if is_ident_start(b) => {
                    i += 1;
                    while i < n && is_ident_cont(bytes[i]) {
                        i += 1;
                    }
                    Tok::Ident
                }
                b',' | b';' | b':' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'<' | b'>'
                | b'+' | b'-' | b'!' | b'|' | b'@' | b'=' | b'*' | b'/' | b'~' | b'&' | b'^'
                | b'.' => {
                    i += 1;
                    Tok::Punct(b)
                }
                _ => {
                    // Skip one whole UTF-8 character so the message shows it.
                    let len = utf8_len(b).min(n - i);
                    let ch = src.get(i..i + len).unwrap_or("?");
                    let shown = if ch.chars().all(|c| c.is_control()) {
                        format!("\\x{:02x}", b)
                    } else {
                        ch.to_string()
                    };
                    diags.push(Diagnostic::error(
                        Span::new(i, i + len),
                        format!("unexpected character '{shown}'"),
                    ));
                    i += len.max(1);
                    continue;
                }
            };
            out.push(Token {
                kind,
                lo: start as u32,
                hi: i as u32,
            });
        }
        self.i = n;
        out.push(Token {
            kind: Tok::Eof,
            lo: n as u32,
            hi: n as u32,
        });
        true
    }
}

/// Lexes the whole text into a token array ending with `Eof` (for tools and
/// tests; the parser streams).
pub fn lex(src: &str, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let mut l = Lexer::new(src);
    let mut toks = Vec::with_capacity(src.len() / 4 + 1);
    l.lex_batch(&mut toks, usize::MAX);
    diags.append(&mut l.diags);
    toks
}

/// Digits at `j`, then an exponent or a non-identifier character.
fn dot_number(bytes: &[u8], mut j: usize) -> bool {
    while j < bytes.len() && bytes[j].is_ascii_digit() {
        j += 1;
    }
    match bytes.get(j) {
        None => true,
        Some(b'e' | b'E') => bytes
            .get(j + 1)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'+' || *c == b'-'),
        Some(&c) => !is_ident_cont(c),
    }
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Scans a numeric literal starting at a digit. Malformed literals still form
/// one token (digits and letters run together); the parser reports them.
fn lex_number(bytes: &[u8], i: &mut usize) -> Tok {
    let n = bytes.len();
    let start = *i;
    if bytes[start] == b'0'
        && start + 1 < n
        && matches!(bytes[start + 1], b'f' | b'F' | b'd' | b'D')
    {
        *i += 2;
        while *i < n && is_ident_cont(bytes[*i]) {
            *i += 1;
        }
        return Tok::FloatBits;
    }
    let mut kind = Tok::Int;
    let hex = bytes[start] == b'0' && start + 1 < n && matches!(bytes[start + 1], b'x' | b'X');
    if hex {
        *i += 2;
    }
    while *i < n {
        let c = bytes[*i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            // An exponent sign belongs to a decimal float: 1e-5.
            if !hex
                && (c == b'e' || c == b'E')
                && *i + 1 < n
                && matches!(bytes[*i + 1], b'+' | b'-')
            {
                kind = Tok::Float;
                *i += 2;
                continue;
            }
            if !hex && (c == b'e' || c == b'E') {
                kind = Tok::Float;
            }
            *i += 1;
        } else if c == b'.'
            && !hex
            && kind == Tok::Int
            && *i + 1 < n
            && bytes[*i + 1].is_ascii_digit()
        {
            kind = Tok::Float;
            *i += 1;
        } else if c == b'.'
            && !hex
            && kind == Tok::Int
            && (*i + 1 >= n || !is_ident_cont(bytes[*i + 1]) && bytes[*i + 1] != b'.')
        {
            // `2.` is a float literal.
            kind = Tok::Float;
            *i += 1;
        } else {
            break;
        }
    }
    kind
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, String)> {
        let mut d = vec![];
        lex(s, &mut d)
            .iter()
            .map(|t| (t.kind, t.text(s).to_string()))
            .collect()
    }

    #[test]
    fn opcode_and_modifiers() {
        let k = kinds("ld.global.L2::cache_hint.v4.f32 {%f1}, [%rd1+-8];");
        assert_eq!(k[0], (Tok::Ident, "ld".into()));
        assert_eq!(k[1], (Tok::Dot, ".global".into()));
        assert_eq!(k[2], (Tok::Dot, ".L2::cache_hint".into()));
        assert_eq!(k[3], (Tok::Dot, ".v4".into()));
        assert!(k.iter().any(|t| t == &(Tok::Punct(b'-'), "-".into())));
    }

    #[test]
    fn numbers() {
        assert_eq!(kinds("0f3F800000")[0].0, Tok::FloatBits);
        assert_eq!(kinds("0d3FF0000000000000")[0].0, Tok::FloatBits);
        assert_eq!(kinds("7.5")[0], (Tok::Float, "7.5".into()));
        assert_eq!(kinds("1e-5")[0], (Tok::Float, "1e-5".into()));
        assert_eq!(kinds("0xFFu")[0], (Tok::Int, "0xFFu".into()));
        assert_eq!(kinds("0x1e")[0], (Tok::Int, "0x1e".into()));
        assert_eq!(kinds("017")[0], (Tok::Int, "017".into()));
    }

    #[test]
    fn comments_and_errors() {
        let mut d = vec![];
        let t = lex("a /* x */ b // c\n d", &mut d);
        assert_eq!(t.len(), 4);
        assert!(d.is_empty());
        lex("a /* never", &mut d);
        assert_eq!(d[0].message, "unterminated block comment");
        d.clear();
        lex("a # b", &mut d);
        assert_eq!(d[0].message, "unexpected character '#'");
        assert_eq!(d[0].span, Span::new(2, 3));
    }

    #[test]
    fn special_register_component() {
        let k = kinds("%tid.x");
        assert_eq!(k[0], (Tok::Ident, "%tid".into()));
        assert_eq!(k[1], (Tok::Dot, ".x".into()));
    }
}
