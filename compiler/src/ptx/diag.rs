//! Diagnostics: an error or warning with its position, rendered as
//! `file:line:col: error: message`, the source line, and a caret under the column.

use super::span::{SourceFile, Span};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            span,
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: error: message`, the line, and a caret line.
    pub fn render(&self, src: &SourceFile) -> String {
        let (line, col) = src.line_col(self.span.lo);
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = format!(
            "{}:{}:{}: {}: {}\n",
            src.name, line, col, kind, self.message
        );
        let text = src.line_text(line);
        // Keep tabs in the caret line so the caret lines up in a terminal.
        let pad: String = text
            .bytes()
            .take((col - 1) as usize)
            .map(|b| if b == b'\t' { '\t' } else { ' ' })
            .collect();
        let width = (self.span.hi.saturating_sub(self.span.lo) as usize)
            .clamp(1, text.len().saturating_sub((col - 1) as usize).max(1));
        let _ = writeln!(out, "  {}", text);
        let _ = writeln!(out, "  {}^{}", pad, "~".repeat(width - 1));
        out
    }
}

/// Renders a list of diagnostics, errors and warnings in source order.
pub fn render_all(diags: &[Diagnostic], src: &SourceFile) -> String {
    diags.iter().map(|d| d.render(src)).collect()
}
