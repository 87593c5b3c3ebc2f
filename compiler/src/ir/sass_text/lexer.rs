//! A byte cursor over one line of `cuobjdump -sass` text, with line:col
//! error reporting. Every accessor is total: no input can make it panic.

use super::SassError;

/// A cursor over the bytes of one line. Columns are 1-based byte columns.
pub(crate) struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(s: &'a str, line: usize) -> Self {
        Cursor {
            s: s.as_bytes(),
            pos: 0,
            line,
        }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Moves back to an earlier position from [`Cursor::pos`].
    pub(crate) fn rewind(&mut self, pos: usize) {
        self.pos = pos.min(self.s.len());
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, n: usize) -> Option<u8> {
        self.s.get(self.pos + n).copied()
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    pub(crate) fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Some(b)
    }

    pub(crate) fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Whether the remaining input starts with `p`.
    pub(crate) fn starts_with(&self, p: &str) -> bool {
        self.s
            .get(self.pos..)
            .is_some_and(|r| r.starts_with(p.as_bytes()))
    }

    pub(crate) fn eat_str(&mut self, p: &str) -> bool {
        if self.starts_with(p) {
            self.pos += p.len();
            true
        } else {
            false
        }
    }

    /// Skips spaces and tabs; returns whether any were skipped.
    pub(crate) fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// Takes the longest run of bytes satisfying `f`, which must accept only
    /// ASCII bytes (so the run is always valid UTF-8).
    pub(crate) fn take_while(&mut self, f: impl Fn(u8) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii() && f(b)) {
            self.pos += 1;
        }
        std::str::from_utf8(self.s.get(start..self.pos).unwrap_or_default()).unwrap_or_default()
    }

    /// An identifier-like word: ASCII letters, digits and `_`.
    pub(crate) fn word(&mut self) -> &'a str {
        self.take_while(|b| b.is_ascii_alphanumeric() || b == b'_')
    }

    /// A register or predicate name: a word, or `%` and a word (virtual).
    pub(crate) fn name(&mut self) -> &'a str {
        self.take_while(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'%')
    }

    pub(crate) fn expect(&mut self, b: u8) -> Result<(), SassError> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.err(format!("expected `{}`", b as char)))
        }
    }

    /// An error at the current position.
    pub(crate) fn err(&self, msg: impl Into<String>) -> SassError {
        self.err_at(self.pos, msg)
    }

    /// An error at byte offset `pos` of this line.
    pub(crate) fn err_at(&self, pos: usize, msg: impl Into<String>) -> SassError {
        SassError {
            line: self.line,
            col: pos + 1,
            msg: msg.into(),
        }
    }
}

/// Parses a decimal index without sign or leading zeros, at most `max`.
pub(crate) fn parse_index(digits: &str, max: u32) -> Option<u32> {
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u32>().ok().filter(|&v| v <= max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_basics() {
        let mut c = Cursor::new("  R12, x", 3);
        assert!(c.skip_ws());
        assert_eq!(c.word(), "R12");
        assert!(c.eat(b','));
        let e = c.err("boom");
        assert_eq!((e.line, e.col), (3, 7));
    }

    #[test]
    fn index_rules() {
        assert_eq!(parse_index("0", 255), Some(0));
        assert_eq!(parse_index("255", 255), Some(255));
        assert_eq!(parse_index("256", 255), None);
        assert_eq!(parse_index("07", 255), None);
        assert_eq!(parse_index("", 255), None);
    }
}
