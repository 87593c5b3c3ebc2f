//! The expected/actual unified diff of a mismatching buffer (one element
//! per line), computed once with `similar` and rendered by both the
//! Markdown (as a ```` ```diff ```` block) and the HTML (coloured lines).

use similar::{ChangeTag, TextDiff};

/// What a diff line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// `--- expected` / `+++ actual`.
    Header,
    /// `@@ -a,b +c,d @@`.
    Hunk,
    Context,
    Removed,
    Added,
}

/// Lines of context around each change (diff's and git's default).
const CONTEXT: usize = 3;

/// Text ending with a newline, so a last line without one does not show
/// as changed (and no "no newline" marker is needed).
fn with_newline(s: &str) -> String {
    if s.is_empty() || s.ends_with('\n') {
        s.to_string()
    } else {
        format!("{s}\n")
    }
}

/// The unified diff of `expected` against `actual`, each line with its
/// kind and its text without the newline (the `-`/`+`/space prefix
/// included). Empty when the texts are equal.
pub fn unified(expected: &str, actual: &str) -> Vec<(LineKind, String)> {
    let (e, a) = (with_newline(expected), with_newline(actual));
    let diff = TextDiff::from_lines(&e, &a);
    let mut udiff = diff.unified_diff();
    udiff.context_radius(CONTEXT);
    let mut out = Vec::new();
    for hunk in udiff.iter_hunks() {
        if out.is_empty() {
            out.push((LineKind::Header, "--- expected".to_string()));
            out.push((LineKind::Header, "+++ actual".to_string()));
        }
        out.push((LineKind::Hunk, hunk.header().to_string()));
        for ch in hunk.iter_changes() {
            let (kind, sign) = match ch.tag() {
                ChangeTag::Equal => (LineKind::Context, ' '),
                ChangeTag::Delete => (LineKind::Removed, '-'),
                ChangeTag::Insert => (LineKind::Added, '+'),
            };
            let text = ch.value();
            out.push((
                kind,
                format!("{sign}{}", text.strip_suffix('\n').unwrap_or(text)),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use LineKind::*;

    #[test]
    fn one_changed_element() {
        let d = unified("1\n2\n3\n", "1\n5\n3");
        let want = [
            (Header, "--- expected"),
            (Header, "+++ actual"),
            (Hunk, "@@ -1,3 +1,3 @@"),
            (Context, " 1"),
            (Removed, "-2"),
            (Added, "+5"),
            (Context, " 3"),
        ];
        let got: Vec<(LineKind, &str)> = d.iter().map(|(k, s)| (*k, s.as_str())).collect();
        assert_eq!(got, want);
        assert!(unified("a\nb", "a\nb\n").is_empty());
    }

    #[test]
    fn context_is_three_lines() {
        let e: String = (0..20).map(|i| format!("{i}\n")).collect();
        let a = e.replace("\n10\n", "\nX\n");
        let d = unified(&e, &a);
        assert_eq!(d[2], (Hunk, "@@ -8,7 +8,7 @@".to_string()));
        assert_eq!(d.len(), 2 + 1 + 3 + 2 + 3);
    }
}
