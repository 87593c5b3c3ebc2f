//! `summary.md`: the report as GitHub-flavoured Markdown: the run's
//! header, verdict counts, throughput, timings, the findings table, a
//! section per new finding (blame, message, PTX, expected/actual diff),
//! per-phase fired counts and generator coverage.
//!
//! Input text is never trusted to be plain. Table cells and inline text go
//! through [`text`]: every ASCII punctuation character that Markdown or
//! inline HTML gives a meaning (``\ ` * _ [ ] < > | # ~ & !``) is
//! backslash-escaped (CommonMark, "Backslash escapes": any ASCII punctuation
//! may be escaped and renders as itself; GFM tables take `\|` as a literal
//! pipe), and line breaks become `<br>` (a raw newline would end the table
//! row). Multi-line text (messages, blame lines, PTX, diffs) goes into
//! fenced blocks instead, whose fence is one backtick longer than the
//! longest backtick run in the text ([`fence`]; CommonMark: a code fence
//! closes only on a fence at least as long), so PTX holding ```` ``` ````
//! cannot close the block early.

use super::diff;
use super::model::{FindingReport, NightlyReport};

/// Inline-escaped text (see the module comment).
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '~' | '&' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push_str("<br>"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A fenced block of `body` with info string `info`.
pub fn fence(info: &str, body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let f = "`".repeat((longest + 1).max(3));
    let nl = if body.ends_with('\n') { "" } else { "\n" };
    format!("{f}{info}\n{body}{nl}{f}\n")
}

fn table(out: &mut String, head: &[&str], right: &[bool], rows: &[Vec<String>]) {
    out.push_str(&format!("| {} |\n", head.join(" | ")));
    let align: Vec<&str> = right
        .iter()
        .map(|&r| if r { "---:" } else { "---" })
        .collect();
    out.push_str(&format!("|{}|\n", align.join("|")));
    for r in rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out.push('\n');
}

fn secs(s: f64) -> String {
    format!("{s:.1}")
}

fn header(out: &mut String, r: &NightlyReport) {
    out.push_str(&format!("# ptxdiff nightly report {}\n\n", text(&r.date)));
    let shards: Vec<String> = r.shards.iter().map(|s| text(s)).collect();
    let rows = vec![
        vec!["date".into(), text(&r.date)],
        vec!["first seed".into(), r.seed.to_string()],
        vec!["shards".into(), shards.join(", ")],
        vec!["jobs".into(), r.jobs.to_string()],
        vec!["budget".into(), format!("{} min", r.minutes)],
        vec!["matrix".into(), text(&r.matrix)],
        vec!["configurations".into(), r.configs.len().to_string()],
        vec![
            "findings".into(),
            format!("{} ({} new)", r.findings.len(), r.new_findings().count()),
        ],
    ];
    table(out, &["run", ""], &[false, false], &rows);
    out.push_str("## Configurations\n\n");
    if r.configs.is_empty() {
        out.push_str("none\n");
    }
    for c in &r.configs {
        out.push_str(&format!("- {}\n", text(c)));
    }
    out.push('\n');
}

fn counts(out: &mut String, r: &NightlyReport) {
    out.push_str("## Verdicts\n\n");
    let rows: Vec<Vec<String>> = r
        .verdict_rows()
        .into_iter()
        .map(|(k, n)| vec![text(k), n.to_string()])
        .collect();
    table(out, &["verdict", "count"], &[false, true], &rows);
    out.push_str(&format!(
        "{} failing configuration(s).\n\n",
        r.total_failures()
    ));
    out.push_str("## Throughput\n\n");
    let rows = vec![
        vec!["programs".into(), r.programs.to_string()],
        vec!["executions".into(), r.executions.to_string()],
        vec!["elapsed (s)".into(), secs(r.elapsed_s)],
        vec!["programs/s".into(), secs(r.programs_per_second())],
        vec!["executions/s".into(), secs(r.executions_per_second())],
    ];
    table(out, &["", ""], &[false, true], &rows);
    out.push_str("## Timings\n\n");
    let rows: Vec<Vec<String>> = r
        .timing_rows()
        .into_iter()
        .map(|(k, s)| vec![text(k), format!("{s:.2}")])
        .collect();
    table(out, &["stage", "seconds"], &[false, true], &rows);
}

/// The findings table's row of `f`.
fn finding_row(f: &FindingReport) -> Vec<String> {
    vec![
        text(&f.signature),
        text(&f.kind),
        text(&f.stage),
        text(&f.arch_class),
        text(&f.opcode),
        f.occurrences.to_string(),
        f.status().into(),
        f.sizes(),
    ]
}

fn findings(out: &mut String, r: &NightlyReport) {
    out.push_str("## Findings\n\n");
    if r.findings.is_empty() {
        out.push_str("No failures.\n\n");
        return;
    }
    let rows: Vec<Vec<String>> = r.findings.iter().map(finding_row).collect();
    table(
        out,
        &[
            "signature",
            "kind",
            "blamed stage",
            "arch class",
            "opcode",
            "occurrences",
            "status",
            "PTX instructions",
        ],
        &[false, false, false, false, false, true, false, true],
        &rows,
    );
    bugs(out, r);
    for f in r.new_findings() {
        finding_section(out, f);
    }
}

/// One row per bug: the findings grouped by blamed stage and verdict
/// class, with the signatures folded into each.
fn bugs(out: &mut String, r: &NightlyReport) {
    let g = r.groups();
    out.push_str(&format!(
        "{} bug{} ({} signatures, grouped by blamed stage and verdict class):\n\n",
        g.groups.len(),
        if g.groups.len() == 1 { "" } else { "s" },
        g.signatures()
    ));
    let rows: Vec<Vec<String>> = g
        .groups
        .iter()
        .map(|b| {
            let sigs: Vec<String> = b.members.iter().map(|(s, _)| s.slug()).collect();
            vec![
                text(&b.key.stage),
                b.key.class.name().to_string(),
                b.count().to_string(),
                text(&sigs.join(", ")),
            ]
        })
        .collect();
    table(
        out,
        &["blamed stage", "class", "occurrences", "signatures"],
        &[false, false, true, false],
        &rows,
    );
}

fn finding_section(out: &mut String, f: &FindingReport) {
    out.push_str(&format!("### {}\n\n", text(&f.signature)));
    let seed = f.seed.map_or(String::new(), |s| format!(" (seed {s})"));
    out.push_str(&format!("- program: {}{seed}\n", text(&f.program)));
    out.push_str(&format!("- configuration: {}\n", text(&f.config)));
    out.push_str(&format!("- occurrences: {}\n", f.occurrences));
    out.push_str(&format!("- directory: {}\n\n", text(&f.directory)));
    out.push_str("Blame:\n\n");
    out.push_str(&fence("text", &f.blame));
    out.push_str("\nVerdict:\n\n");
    out.push_str(&fence("text", &f.message));
    let (ptx, n, reduced) = f.shown_ptx();
    out.push_str(&format!(
        "\n{} PTX ({n} instructions):\n\n",
        if reduced { "Reduced" } else { "Original" }
    ));
    out.push_str(&fence("ptx", ptx));
    if let (Some(e), Some(a)) = (&f.expected, &f.actual) {
        let d = diff::unified(e, a);
        if !d.is_empty() {
            let body: Vec<&str> = d.iter().map(|(_, l)| l.as_str()).collect();
            out.push_str("\nExpected against actual:\n\n");
            out.push_str(&fence("diff", &body.join("\n")));
        }
    }
    out.push('\n');
}

fn maps(out: &mut String, r: &NightlyReport) {
    out.push_str("## Fired phases\n\n");
    let rows: Vec<Vec<String>> = r
        .fired
        .iter()
        .map(|(k, n)| vec![text(k), n.to_string()])
        .collect();
    table(out, &["phase", "rewrites"], &[false, true], &rows);
    out.push_str("## Generator coverage\n\n");
    let rows: Vec<Vec<String>> = r
        .coverage
        .iter()
        .map(|(k, n)| vec![text(k), n.to_string()])
        .collect();
    table(out, &["feature", "programs"], &[false, true], &rows);
}

/// The report as `summary.md` text.
pub fn to_markdown(r: &NightlyReport) -> String {
    let mut out = String::new();
    header(&mut out, r);
    counts(&mut out, r);
    findings(&mut out, r);
    maps(&mut out, r);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_text_is_escaped() {
        assert_eq!(text("a|b"), "a\\|b");
        assert_eq!(text("<b>x</b>"), "\\<b\\>x\\</b\\>");
        assert_eq!(text("l1\nl2\r\nl3"), "l1<br>l2<br>l3");
        assert_eq!(text("*_`[x](y)`"), "\\*\\_\\`\\[x\\](y)\\`");
        assert_eq!(text("tab\there"), "tab here");
    }

    #[test]
    fn fences_outgrow_the_body() {
        assert_eq!(fence("ptx", "a\n"), "```ptx\na\n```\n");
        assert_eq!(
            fence("", "x ``` y ```` z"),
            "`````\nx ``` y ```` z\n`````\n"
        );
    }
}
