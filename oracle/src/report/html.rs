//! `index.html`: the report as one self-contained page (inline CSS, no
//! script, no external URL: it opens from a CI artifact or a mail
//! attachment as it is). The same content as `summary.md`; the findings
//! are a table plus a `<details>` each (the new ones open) with the PTX in
//! a `<pre>` and a coloured expected/actual diff.
//!
//! Escaping: every string that comes from the report (PTX text and
//! comments, program names, messages, configuration labels, feature and
//! phase names, signature parts, directories) goes through
//! [`escape_html`]; the only text written unescaped is this file's own
//! fixed template. Numbers are formatted by Rust. No input ever lands in
//! an attribute (the anchors are `finding-N` by position).

use super::diff::{self, LineKind};
use super::model::{FindingReport, NightlyReport};

/// Text safe in HTML element content and in quoted attribute values.
///
/// The five markup characters become references (`&amp; &lt; &gt; &quot;
/// &#39;`, the set OWASP's XSS prevention cheat sheet gives for content
/// and attributes). Two more rules keep `<pre>` text exact through an
/// HTML5 parser: a carriage return becomes `&#13;` (the parser turns a raw
/// CR or CR LF into LF, HTML Living Standard 13.2.3.5 "Preprocessing the
/// input stream", but keeps a referenced one), and NUL, which no HTML
/// text can carry (the parser makes it U+FFFD either way), is written as
/// U+FFFD.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\r' => out.push_str("&#13;"),
            '\0' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "\
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1b1f23;background:#fff}
h1{font-size:1.6em;border-bottom:2px solid #d0d7de;padding-bottom:.3em}
h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
table{border-collapse:collapse;margin:.6em 0}
th,td{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.n{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.6em;overflow-x:auto;white-space:pre}
details{border:1px solid #d0d7de;border-radius:6px;margin:.8em 0;padding:.4em .8em}
summary{cursor:pointer;font-weight:600}
.new{color:#b42318;font-weight:600}
.known{color:#57606a}
.fail{color:#b42318;font-weight:600}
dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}
dt{font-weight:600}
dd{margin:0}
dd.blame,dd.verdict{white-space:pre-wrap;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.diff .del{background:#ffebe9;color:#82071e;display:block}
.diff .add{background:#dafbe1;color:#116329;display:block}
.diff .hunk{color:#0550ae;display:block}
.diff .hdr{font-weight:600;display:block}
.diff .ctx{display:block}
";

fn td(s: &str) -> String {
    format!("<td>{}</td>", escape_html(s))
}

fn td_num(n: impl std::fmt::Display) -> String {
    format!("<td class=\"n\">{n}</td>")
}

/// A table with id `id`, header cells `head` and rows of ready cells.
fn table(out: &mut String, id: &str, head: &[&str], rows: &[String]) {
    out.push_str(&format!("<table id=\"{id}\">\n<thead><tr>"));
    for h in head {
        out.push_str(&format!("<th>{h}</th>"));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        out.push_str(&format!("<tr>{r}</tr>\n"));
    }
    out.push_str("</tbody>\n</table>\n");
}

fn secs(s: f64) -> String {
    format!("{s:.1}")
}

fn header(out: &mut String, r: &NightlyReport) {
    out.push_str(&format!(
        "<h1>ptxdiff nightly report {}</h1>\n",
        escape_html(&r.date)
    ));
    let shards: Vec<String> = r.shards.iter().map(|s| escape_html(s)).collect();
    let rows = [
        format!("<th>date</th>{}", td(&r.date)),
        format!("<th>first seed</th>{}", td_num(r.seed)),
        format!("<th>shards</th><td>{}</td>", shards.join(", ")),
        format!("<th>jobs</th>{}", td_num(r.jobs)),
        format!("<th>budget</th><td class=\"n\">{} min</td>", r.minutes),
        format!("<th>matrix</th>{}", td(&r.matrix)),
        format!("<th>configurations</th>{}", td_num(r.configs.len())),
        format!(
            "<th>findings</th><td class=\"n\">{} (<span class=\"new\">{} new</span>)</td>",
            r.findings.len(),
            r.new_findings().count()
        ),
    ];
    out.push_str("<table id=\"run\">\n<tbody>\n");
    for row in rows {
        out.push_str(&format!("<tr>{row}</tr>\n"));
    }
    out.push_str("</tbody>\n</table>\n");
}

/// The matrix, folded: dozens of lines a reader opens only when a finding
/// names a configuration.
fn configurations(out: &mut String, r: &NightlyReport) {
    out.push_str(&format!(
        "<h2>Configurations</h2>\n<details>\n<summary>{} configuration(s) of matrix <code>{}</code></summary>\n<ul id=\"configs\">\n",
        r.configs.len(),
        escape_html(&r.matrix)
    ));
    for c in &r.configs {
        out.push_str(&format!("<li><code>{}</code></li>\n", escape_html(c)));
    }
    out.push_str("</ul>\n</details>\n");
}

fn counts(out: &mut String, r: &NightlyReport) {
    out.push_str("<h2>Verdicts</h2>\n");
    let rows: Vec<String> = r
        .verdict_rows()
        .into_iter()
        .map(|(k, n)| format!("{}{}", td(k), td_num(n)))
        .collect();
    table(out, "verdicts", &["verdict", "count"], &rows);
    out.push_str(&format!(
        "<p><span class=\"{}\">{} failing configuration(s)</span>.</p>\n",
        if r.total_failures() > 0 {
            "fail"
        } else {
            "known"
        },
        r.total_failures()
    ));
    out.push_str("<h2>Throughput</h2>\n");
    let rows = [
        format!("<th>programs</th>{}", td_num(r.programs)),
        format!("<th>executions</th>{}", td_num(r.executions)),
        format!("<th>elapsed (s)</th>{}", td_num(secs(r.elapsed_s))),
        format!(
            "<th>programs/s</th>{}",
            td_num(secs(r.programs_per_second()))
        ),
        format!(
            "<th>executions/s</th>{}",
            td_num(secs(r.executions_per_second()))
        ),
    ];
    table(out, "throughput", &["", "value"], &rows);
    out.push_str("<h2>Timings</h2>\n");
    let rows: Vec<String> = r
        .timing_rows()
        .into_iter()
        .map(|(k, s)| format!("{}{}", td(k), td_num(format!("{s:.2}"))))
        .collect();
    table(out, "timings", &["stage", "seconds"], &rows);
}

fn status(f: &FindingReport) -> String {
    format!("<span class=\"{0}\">{0}</span>", f.status())
}

/// One row per bug: the findings grouped by blamed stage and verdict
/// class (`NightlyReport::groups`), with the signatures folded into each.
fn bugs(out: &mut String, r: &NightlyReport) {
    let g = r.groups();
    out.push_str(&format!(
        "<p>{} bug{} ({} signatures, grouped by blamed stage and verdict class)</p>\n",
        g.groups.len(),
        if g.groups.len() == 1 { "" } else { "s" },
        g.signatures()
    ));
    let rows: Vec<String> = g
        .groups
        .iter()
        .map(|b| {
            let sigs: Vec<String> = b.members.iter().map(|(s, _)| s.slug()).collect();
            format!(
                "{}{}{}{}",
                td(&b.key.stage),
                td(b.key.class.name()),
                td_num(b.count()),
                td(&sigs.join(", "))
            )
        })
        .collect();
    table(
        out,
        "bugs",
        &["blamed stage", "class", "occurrences", "signatures"],
        &rows,
    );
}

fn findings(out: &mut String, r: &NightlyReport) {
    out.push_str("<h2>Findings</h2>\n");
    if r.findings.is_empty() {
        out.push_str("<p>No failures.</p>\n");
        return;
    }
    bugs(out, r);
    let rows: Vec<String> = r
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            format!(
                "<td><a href=\"#finding-{i}\">{}</a></td>{}{}{}{}{}<td>{}</td>{}",
                escape_html(&f.signature),
                td(&f.kind),
                td(&f.stage),
                td(&f.arch_class),
                td(&f.opcode),
                td_num(f.occurrences),
                status(f),
                td_num(escape_html(&f.sizes())),
            )
        })
        .collect();
    table(
        out,
        "findings",
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
        &rows,
    );
    for (i, f) in r.findings.iter().enumerate() {
        finding_details(out, i, f);
    }
}

fn finding_details(out: &mut String, i: usize, f: &FindingReport) {
    out.push_str(&format!(
        "<details id=\"finding-{i}\" class=\"finding\"{}>\n<summary>{} {}</summary>\n<dl>\n",
        if f.known { "" } else { " open" },
        status(f),
        escape_html(&f.signature)
    ));
    let seed = f.seed.map_or(String::new(), |s| format!(" (seed {s})"));
    for (k, v) in [
        ("program", format!("{}{seed}", escape_html(&f.program))),
        ("configuration", escape_html(&f.config)),
        ("blame", escape_html(&f.blame)),
        ("verdict", escape_html(&f.message)),
        ("occurrences", f.occurrences.to_string()),
        ("PTX instructions", escape_html(&f.sizes())),
        ("directory", escape_html(&f.directory)),
    ] {
        out.push_str(&format!(
            "<dt>{k}</dt><dd class=\"{}\">{v}</dd>\n",
            k.replace(' ', "-")
        ));
    }
    out.push_str("</dl>\n");
    let (ptx, n, reduced) = f.shown_ptx();
    // The newline after <pre> is dropped by the parser (HTML Living
    // Standard 13.2.6.4.7, "pre"): it is there so a PTX text that starts
    // with a newline keeps it.
    out.push_str(&format!(
        "<p>{} PTX ({n} instructions):</p>\n<pre class=\"ptx\">\n{}</pre>\n",
        if reduced { "Reduced" } else { "Original" },
        escape_html(ptx)
    ));
    if let (Some(e), Some(a)) = (&f.expected, &f.actual) {
        let d = diff::unified(e, a);
        if !d.is_empty() {
            out.push_str("<p>Expected against actual:</p>\n<pre class=\"diff\">");
            for (kind, line) in d {
                let class = match kind {
                    LineKind::Header => "hdr",
                    LineKind::Hunk => "hunk",
                    LineKind::Context => "ctx",
                    LineKind::Removed => "del",
                    LineKind::Added => "add",
                };
                // The newline inside the block-level span: the page shows
                // no blank line, and copied text keeps its lines.
                out.push_str(&format!(
                    "<span class=\"{class}\">{}\n</span>",
                    escape_html(&line)
                ));
            }
            out.push_str("</pre>\n");
        }
    }
    out.push_str("</details>\n");
}

fn maps(out: &mut String, r: &NightlyReport) {
    out.push_str("<h2>Fired phases</h2>\n");
    let rows: Vec<String> = r
        .fired
        .iter()
        .map(|(k, n)| format!("{}{}", td(k), td_num(n)))
        .collect();
    table(out, "fired", &["phase", "rewrites"], &rows);
    out.push_str("<h2>Generator coverage</h2>\n");
    let rows: Vec<String> = r
        .coverage
        .iter()
        .map(|(k, n)| format!("{}{}", td(k), td_num(n)))
        .collect();
    table(out, "coverage", &["feature", "programs"], &rows);
}

/// The report as `index.html` text.
pub fn to_html(r: &NightlyReport) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>ptxdiff nightly {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        escape_html(&r.date)
    ));
    // What a reader came for first: the findings, then the counts.
    header(&mut out, r);
    findings(&mut out, r);
    counts(&mut out, r);
    configurations(&mut out, r);
    maps(&mut out, r);
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_characters_and_the_two_that_a_parser_changes() {
        assert_eq!(
            escape_html("<a href='x'>\"&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;"
        );
        assert_eq!(escape_html("a\r\nb\0"), "a&#13;\nb\u{fffd}");
        assert_eq!(escape_html("ü 🦀 plain"), "ü 🦀 plain");
    }
}
