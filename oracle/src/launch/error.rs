//! The one error type of the launch module.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong, broadly; the message says exactly what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file could not be read or written.
    Io,
    /// The text is not JSON (or not UTF-8).
    Syntax,
    /// The JSON does not describe a valid launch spec or expected file.
    Invalid,
    /// The spec's parameters do not fit the kernel's declarations.
    Params,
    /// Final memory or results do not fit the spec (wrong sizes, missing buffers).
    Outputs,
}

/// An error with the file, the position (`line:col`, 1-based, columns in
/// characters) where known, the field path (`params[2]`,
/// `buffers.x.init.values`) where one applies, and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchError {
    pub kind: ErrorKind,
    pub file: Option<PathBuf>,
    pub line_col: Option<(usize, usize)>,
    pub field: String,
    pub message: String,
}

impl LaunchError {
    pub fn new(kind: ErrorKind, field: impl Into<String>, message: impl Into<String>) -> Self {
        LaunchError {
            kind,
            file: None,
            line_col: None,
            field: field.into(),
            message: message.into(),
        }
    }

    pub(super) fn with_file(mut self, file: Option<&Path>) -> Self {
        if self.file.is_none() {
            self.file = file.map(Path::to_path_buf);
        }
        self
    }

    pub(super) fn at(mut self, text: &str, pos: usize) -> Self {
        self.line_col = Some(line_col(text, pos));
        self
    }
}

/// 1-based line and column (in characters) of byte offset `pos` in `text`.
pub(crate) fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(p) => write!(f, "{}", p.display())?,
            None => write!(f, "<launch spec>")?,
        }
        if let Some((l, c)) = self.line_col {
            write!(f, ":{l}:{c}")?;
        }
        write!(f, ": ")?;
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for LaunchError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_chars() {
        let t = "ab\ncdé\nxyz";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 2), (1, 3));
        assert_eq!(line_col(t, 3), (2, 1));
        // 'é' is two bytes; the 'x' after the newline is at byte 8.
        assert_eq!(line_col(t, 8), (3, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        // inside a multi-byte char and past the end: clamped, no panic
        assert_eq!(line_col(t, 6), (2, 3));
        assert_eq!(line_col(t, 1000), (3, 4));
    }

    #[test]
    fn display_has_file_position_field_message() {
        let e = LaunchError::new(ErrorKind::Invalid, "params[2]", "unknown buffer 'q'")
            .at("{\n  x", 4)
            .with_file(Some(Path::new("a/b.launch.json")));
        assert_eq!(
            e.to_string(),
            "a/b.launch.json:2:3: params[2]: unknown buffer 'q'"
        );
        let e = LaunchError::new(ErrorKind::Io, "", "no such file");
        assert_eq!(e.to_string(), "<launch spec>: no such file");
    }
}
