//! Nightly reports (oracle::report): the HTML read back by a real HTML5
//! parser (structure, escaping of markup from every input, no external
//! URL), the Markdown read back by a CommonMark parser (tables, fences
//! that PTX holding ``` cannot break), the JSON round trip through the
//! files, shard merging (sums, order independence, mismatches refused),
//! `ptxdiff report merge`, and a headless Chromium screenshot when
//! Chromium is installed.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oracle::report::html::to_html;
use oracle::report::json::{from_json, to_json};
use oracle::report::markdown::to_markdown;
use oracle::report::{merge, write_report, FindingReport, NightlyReport};
use scraper::{ElementRef, Html, Selector};

const DATE: &str = "2026-11-23";

fn finding(sig: &str, program: &str, reduced: Option<usize>, occurrences: u64) -> FindingReport {
    // the parts of a `kind--stage--arch--opcode` slug
    let parts: Vec<&str> = sig.split("--").collect();
    let part = |i: usize, or: &str| {
        parts
            .get(i)
            .filter(|_| parts.len() == 4)
            .unwrap_or(&or)
            .to_string()
    };
    FindingReport {
        signature: sig.into(),
        kind: part(0, "mismatch"),
        stage: part(1, "OriCopyProp"),
        arch_class: part(2, "sm_80+"),
        opcode: part(3, "IADD3"),
        known: false,
        occurrences,
        program: program.into(),
        seed: program.strip_prefix("gen-").and_then(|s| s.parse().ok()),
        config: "ptxc sm_80 -O3 default".into(),
        blame: "OriCopyProp (21), key opcode IADD3".into(),
        message: "mismatch: 1 mismatch in y, first at [1]".into(),
        original_ptx: ".version 7.8\n.target sm_80\n// 12 instructions\nret;\n".into(),
        original_instructions: 12,
        reduced_ptx: reduced.map(|n| format!("// reduced to {n}\nadd.s32 %r1, %r2, 1;\nret;\n")),
        reduced_instructions: reduced,
        expected: Some("1\n2\n3\n4\n".into()),
        actual: Some("1\n2\n7\n4\n".into()),
        directory: format!("findings/{sig}"),
    }
}

fn map<V: Copy>(items: &[(&str, V)]) -> BTreeMap<String, V> {
    items.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// One shard's report with three findings (two new, one known).
fn sample() -> NightlyReport {
    let mut r = NightlyReport::empty(DATE, "default");
    r.seed = 20261123;
    r.jobs = 2;
    r.minutes = 60.0;
    r.configs = vec![
        "ptxc sm_80 -O3 default".into(),
        "ptxc sm_70 -O0 default".into(),
        "ptxc sm_90 -O3 reorder:7 maxrreg=24".into(),
    ];
    r.programs = 120;
    r.executions = 360;
    r.elapsed_s = 12.0;
    r.verdicts = map(&[
        ("pass", 340),
        ("mismatch", 5),
        ("ice", 1),
        ("oracle-ub", 14),
    ]);
    r.fired = map(&[("OriCopyProp", 900), ("GvnCse", 40)]);
    r.coverage = map(&[("loops", 60), ("warp", 12)]);
    r.timings = map(&[("run", 12.0), ("reduce", 3.5), ("report", 0.25)]);
    let mut known = finding("ice--lower--sm_70+--BRA", "gen-3", None, 1);
    known.known = true;
    known.expected = None;
    known.actual = None;
    r.findings = vec![
        known,
        finding("mismatch--GvnCse--sm_70+--LOP3", "gen-40", Some(6), 1),
        finding("mismatch--OriCopyProp--sm_80+--IADD3", "gen-17", Some(3), 4),
    ];
    r
}

const MARKUP_PTX: &str = "\n// <script>alert(1)</script> <b>x</b> & \"q\"\n\
    // </pre><pre> <!-- c --> <style>body{}</style> 'a' &amp; ]]>\n\
    add.s32 %r1, %r2, 1;\nret;\n";

/// A report whose every input string holds markup.
fn markup() -> NightlyReport {
    let m = "<script>alert(1)</script><b>x</b>&\"q\"'";
    let mut r = sample();
    r.date = format!("{DATE}<b>d</b>");
    r.matrix = format!("<b>m</b>{m}");
    r.configs = vec![format!("ptxc sm_80 <b>cfg</b> {m}")];
    r.shards = vec![format!("1/1<b>s</b>")];
    r.verdicts.insert(format!("<b>verdict</b>{m}"), 2);
    r.fired.insert(format!("<b>phase</b>{m}"), 3);
    r.coverage.insert(format!("<b>feature</b>{m}"), 4);
    r.timings.insert(format!("<b>stage</b>{m}"), 5.0);
    let mut f = finding(&format!("mismatch--<b>sig</b>{m}"), "gen-<b>1</b>", None, 1);
    f.kind = format!("<b>kind</b>{m}");
    f.stage = format!("<b>stage</b>{m}");
    f.arch_class = format!("<b>arch</b>{m}");
    f.opcode = format!("<b>op</b>{m}");
    f.program = format!("<b>prog</b>{m}");
    f.config = format!("<b>config</b>{m}");
    f.blame = format!("<b>blame</b>{m}");
    f.message = format!("<b>message</b>{m}");
    f.directory = format!("findings/<b>dir</b>{m}");
    f.original_ptx = MARKUP_PTX.into();
    f.expected = Some(format!("1\n<b>e</b>{m}\n"));
    f.actual = Some(format!("1\n<b>a</b>{m}\n"));
    r.findings.push(f);
    r
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).unwrap()
}

fn text(e: ElementRef) -> String {
    e.text().collect()
}

/// Parses `html`, which must be an error-free, no-quirks HTML5 document.
fn parse_clean(html: &str) -> Html {
    let doc = Html::parse_document(html);
    assert!(doc.errors.is_empty(), "parse errors: {:?}", doc.errors);
    assert_eq!(format!("{:?}", doc.quirks_mode), "NoQuirks");
    doc
}

/// The rows of `table#id`'s body as cell texts.
fn rows(doc: &Html, id: &str) -> Vec<Vec<String>> {
    doc.select(&sel(&format!("table#{id} tbody tr")))
        .map(|tr| tr.select(&sel("td, th")).map(text).collect())
        .collect()
}

fn pairs<V: ToString>(m: &BTreeMap<String, V>) -> Vec<Vec<String>> {
    m.iter()
        .map(|(k, v)| vec![k.clone(), v.to_string()])
        .collect()
}

#[test]
fn markup_in_every_input_renders_as_text() {
    let r = markup();
    let html = to_html(&r);
    let doc = Html::parse_document(&html);
    for tag in ["script", "b", "style body", "pre pre", "link", "img"] {
        assert_eq!(doc.select(&sel(tag)).count(), 0, "<{tag}> in the page");
    }
    // the one <style> is the template's
    assert_eq!(doc.select(&sel("style")).count(), 1);
    let f = r.findings.last().unwrap();
    let details = doc.select(&sel("details.finding")).next_back().unwrap();
    let pre = details.select(&sel("pre.ptx")).next().unwrap();
    assert_eq!(text(pre), MARKUP_PTX);
    let dd = |class: &str| text(details.select(&sel(&format!("dd.{class}"))).next().unwrap());
    assert_eq!(dd("program"), f.program);
    assert_eq!(dd("configuration"), f.config);
    assert_eq!(dd("blame"), f.blame);
    assert_eq!(dd("verdict"), f.message);
    assert_eq!(dd("directory"), f.directory);
    let summary = text(details.select(&sel("summary")).next().unwrap());
    assert_eq!(summary, format!("new {}", f.signature));
    assert_eq!(
        text(doc.select(&sel("title")).next().unwrap()),
        format!("ptxdiff nightly {}", r.date)
    );
    assert_eq!(rows(&doc, "verdicts").len(), r.verdicts.len());
    assert!(rows(&doc, "verdicts").contains(&vec![
        "<b>verdict</b><script>alert(1)</script><b>x</b>&\"q\"'".to_string(),
        "2".into()
    ]));
    assert_eq!(rows(&doc, "fired"), pairs(&r.fired));
    assert_eq!(rows(&doc, "coverage"), pairs(&r.coverage));
    let configs: Vec<String> = doc.select(&sel("#configs li")).map(text).collect();
    assert_eq!(configs, r.configs);
    let last = rows(&doc, "findings").pop().unwrap();
    assert_eq!(
        last[..5],
        [&f.signature, &f.kind, &f.stage, &f.arch_class, &f.opcode].map(String::clone)
    );
    let diff: Vec<String> = details
        .select(&sel("pre.diff span"))
        .map(|s| text(s).strip_suffix('\n').unwrap().to_string())
        .collect();
    assert_eq!(
        diff[3..],
        [
            " 1".to_string(),
            "-<b>e</b><script>alert(1)</script><b>x</b>&\"q\"'".into(),
            "+<b>a</b><script>alert(1)</script><b>x</b>&\"q\"'".into()
        ]
    );
    // not one input-made element anywhere: every element is one the
    // template writes
    let template = [
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "table", "thead", "tbody",
        "tr", "th", "td", "ul", "li", "code", "p", "span", "a", "details", "summary", "dl", "dt",
        "dd", "pre",
    ];
    for e in doc.root_element().descendent_elements() {
        assert!(template.contains(&e.value().name()), "{}", e.value().name());
    }
}

#[test]
fn pre_text_survives_carriage_returns_and_leading_newlines() {
    let mut r = sample();
    let ptx = "\n\r\nline\r\nbare\rcr\n\n";
    r.findings[0].original_ptx = ptx.into();
    let doc = Html::parse_document(&to_html(&r));
    let pre = doc.select(&sel("pre.ptx")).next().unwrap();
    assert_eq!(text(pre), ptx);
}

#[test]
fn html_structure() {
    let r = sample();
    let doc = parse_clean(&to_html(&r));
    assert_eq!(
        text(doc.select(&sel("head > title")).next().unwrap()),
        "ptxdiff nightly 2026-11-23"
    );
    assert_eq!(
        text(doc.select(&sel("h1")).next().unwrap()),
        "ptxdiff nightly report 2026-11-23"
    );
    let h2: Vec<String> = doc.select(&sel("h2")).map(text).collect();
    assert_eq!(
        h2,
        [
            "Findings",
            "Verdicts",
            "Throughput",
            "Timings",
            "Configurations",
            "Fired phases",
            "Generator coverage"
        ]
    );
    // the verdict table's rows are the verdict counts, pass first
    assert_eq!(
        rows(&doc, "verdicts"),
        [
            ["pass", "340"],
            ["mismatch", "5"],
            ["ice", "1"],
            ["oracle-ub", "14"]
        ]
    );
    let run: BTreeMap<String, String> = rows(&doc, "run")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    assert_eq!(run["first seed"], "20261123");
    assert_eq!(run["shards"], "1/1");
    assert_eq!(run["matrix"], "default");
    assert_eq!(run["configurations"], "3");
    assert_eq!(run["findings"], "3 (2 new)");
    assert_eq!(
        rows(&doc, "throughput"),
        [
            ["programs", "120"],
            ["executions", "360"],
            ["elapsed (s)", "12.0"],
            ["programs/s", "10.0"],
            ["executions/s", "30.0"]
        ]
    );
    assert_eq!(
        rows(&doc, "timings"),
        [["run", "12.00"], ["reduce", "3.50"], ["report", "0.25"]]
    );
    assert_eq!(
        rows(&doc, "findings"),
        [
            [
                "ice--lower--sm_70+--BRA",
                "ice",
                "lower",
                "sm_70+",
                "BRA",
                "1",
                "known",
                "12"
            ],
            [
                "mismatch--GvnCse--sm_70+--LOP3",
                "mismatch",
                "GvnCse",
                "sm_70+",
                "LOP3",
                "1",
                "new",
                "12 -> 6"
            ],
            [
                "mismatch--OriCopyProp--sm_80+--IADD3",
                "mismatch",
                "OriCopyProp",
                "sm_80+",
                "IADD3",
                "4",
                "new",
                "12 -> 3"
            ],
        ]
        .map(|r| r.map(String::from))
    );
    // one <details> per finding, the new ones open, each with its PTX
    let details: Vec<ElementRef> = doc.select(&sel("details.finding")).collect();
    assert_eq!(details.len(), r.findings.len());
    for (d, f) in details.iter().zip(&r.findings) {
        assert_eq!(d.attr("open").is_some(), !f.known, "{}", f.signature);
        let pre = d.select(&sel("pre.ptx")).next().unwrap();
        let want = f.reduced_ptx.as_ref().unwrap_or(&f.original_ptx);
        assert_eq!(&text(pre), want);
        let diffs = d.select(&sel("pre.diff")).count();
        assert_eq!(diffs, usize::from(f.expected.is_some()));
    }
    let diff: Vec<(String, String)> = details[1]
        .select(&sel("pre.diff span"))
        .map(|s| (s.attr("class").unwrap().to_string(), text(s)))
        .collect();
    // copied as text, the diff is the unified diff
    let copied = text(details[1].select(&sel("pre.diff")).next().unwrap());
    assert_eq!(
        copied,
        "--- expected\n+++ actual\n@@ -1,4 +1,4 @@\n 1\n 2\n-3\n+7\n 4\n"
    );
    let want = [
        ("hdr", "--- expected\n"),
        ("hdr", "+++ actual\n"),
        ("hunk", "@@ -1,4 +1,4 @@\n"),
        ("ctx", " 1\n"),
        ("ctx", " 2\n"),
        ("del", "-3\n"),
        ("add", "+7\n"),
        ("ctx", " 4\n"),
    ];
    assert_eq!(diff, want.map(|(a, b)| (a.to_string(), b.to_string())));
    assert_self_contained(&doc);
}

/// No element loads or links anything outside the page.
fn assert_self_contained(doc: &Html) {
    for tag in [
        "script", "link", "img", "iframe", "object", "embed", "base", "video", "audio", "source",
        "form",
    ] {
        assert_eq!(doc.select(&sel(tag)).count(), 0, "<{tag}>");
    }
    let ids: Vec<&str> = doc
        .root_element()
        .descendent_elements()
        .filter_map(|e| e.attr("id"))
        .collect();
    for e in doc.root_element().descendent_elements() {
        for (name, value) in e.value().attrs() {
            let v = value.trim().to_ascii_lowercase();
            assert!(
                !v.contains("://")
                    && !v.starts_with("//")
                    && !v.contains("data:")
                    && !v.contains("javascript:"),
                "<{} {name}=\"{value}\">",
                e.value().name()
            );
            if [
                "href",
                "src",
                "srcset",
                "action",
                "formaction",
                "poster",
                "background",
                "cite",
                "ping",
            ]
            .contains(&name)
            {
                let target = value
                    .strip_prefix('#')
                    .unwrap_or_else(|| panic!("{name}={value}"));
                assert!(ids.contains(&target), "dangling {name}={value}");
            }
        }
    }
    for style in doc.select(&sel("style")) {
        let css = text(style).to_ascii_lowercase();
        assert!(!css.contains("url(") && !css.contains("@import"), "{css}");
    }
}

// ----- Markdown, read back with a CommonMark parser

#[derive(Debug, Default)]
struct Md {
    headings: Vec<String>,
    /// (the heading before it, rows of cell texts, the header row first)
    tables: Vec<(String, Vec<Vec<String>>)>,
    /// (info string, content)
    code: Vec<(String, String)>,
    /// Raw HTML the parser found (only `<br>` is ever written).
    html: Vec<String>,
}

fn parse_md(md: &str) -> Md {
    use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
    let mut out = Md::default();
    let mut cur = String::new();
    let mut in_code = None;
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match ev {
            Event::Start(Tag::Heading { .. }) => cur.clear(),
            Event::End(TagEnd::Heading(_)) => out.headings.push(std::mem::take(&mut cur)),
            Event::Start(Tag::Table(_)) => out
                .tables
                .push((out.headings.last().cloned().unwrap_or_default(), Vec::new())),
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                out.tables.last_mut().unwrap().1.push(Vec::new())
            }
            Event::Start(Tag::TableCell) => cur.clear(),
            Event::End(TagEnd::TableCell) => {
                let t = &mut out.tables.last_mut().unwrap().1;
                t.last_mut().unwrap().push(std::mem::take(&mut cur));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                in_code = Some(info.to_string());
                cur.clear();
            }
            Event::End(TagEnd::CodeBlock) => out
                .code
                .push((in_code.take().unwrap(), std::mem::take(&mut cur))),
            Event::Text(t) | Event::Code(t) => cur.push_str(&t),
            Event::InlineHtml(h) if &*h == "<br>" => cur.push('\n'),
            Event::InlineHtml(h) | Event::Html(h) => out.html.push(h.to_string()),
            _ => {}
        }
    }
    out
}

fn table<'a>(md: &'a Md, heading: &str) -> &'a [Vec<String>] {
    &md.tables
        .iter()
        .find(|(h, _)| h == heading)
        .unwrap_or_else(|| panic!("{heading}: {md:?}"))
        .1
}

#[test]
fn markdown_tables_and_sections() {
    let r = sample();
    let md = parse_md(&to_markdown(&r));
    assert!(md.html.is_empty(), "{:?}", md.html);
    assert_eq!(
        md.headings,
        [
            "ptxdiff nightly report 2026-11-23",
            "Configurations",
            "Verdicts",
            "Throughput",
            "Timings",
            "Findings",
            "mismatch--GvnCse--sm_70+--LOP3",
            "mismatch--OriCopyProp--sm_80+--IADD3",
            "Fired phases",
            "Generator coverage"
        ]
    );
    let verdicts = table(&md, "Verdicts");
    assert_eq!(verdicts[0], ["verdict", "count"]);
    assert_eq!(
        verdicts[1..],
        [
            ["pass", "340"],
            ["mismatch", "5"],
            ["ice", "1"],
            ["oracle-ub", "14"]
        ]
        .map(|r| r.map(String::from))
    );
    let findings = table(&md, "Findings");
    assert_eq!(findings.len(), 1 + r.findings.len());
    assert_eq!(
        findings[3],
        [
            "mismatch--OriCopyProp--sm_80+--IADD3",
            "mismatch",
            "OriCopyProp",
            "sm_80+",
            "IADD3",
            "4",
            "new",
            "12 -> 3"
        ]
    );
    assert_eq!(findings[1][6], "known");
    assert_eq!(table(&md, "Fired phases")[1..], pairs(&r.fired));
    assert_eq!(table(&md, "Generator coverage")[1..], pairs(&r.coverage));
    assert_eq!(table(&md, "Throughput")[4], ["programs/s", "10.0"]);
    // per new finding: blame, verdict, PTX, diff; the known one has none
    let f = &r.findings[1];
    let blocks: Vec<(&str, &str)> = md
        .code
        .iter()
        .map(|(i, c)| (i.as_str(), c.as_str()))
        .collect();
    assert_eq!(blocks.len(), 8);
    assert_eq!(blocks[0], ("text", &*format!("{}\n", f.blame)));
    assert_eq!(blocks[1], ("text", &*format!("{}\n", f.message)));
    assert_eq!(blocks[2], ("ptx", f.reduced_ptx.as_deref().unwrap()));
    assert_eq!(
        blocks[3],
        (
            "diff",
            "--- expected\n+++ actual\n@@ -1,4 +1,4 @@\n 1\n 2\n-3\n+7\n 4\n"
        )
    );
}

#[test]
fn markdown_escapes_cells_and_fences_hold() {
    let mut r = markup();
    let ptx = "// ``` not the end\n```\n````ptx\nret;\n";
    let f = r.findings.last_mut().unwrap();
    f.original_ptx = ptx.into();
    f.message = "two\nlines | with ``` fence".into();
    let f = f.clone();
    let md = parse_md(&to_markdown(&r));
    // raw HTML: only the <br> of multi-line cells (none here)
    assert!(md.html.is_empty(), "{:?}", md.html);
    assert!(
        md.code.iter().any(|(i, c)| i == "ptx" && c == ptx),
        "{:?}",
        md.code
    );
    assert!(md
        .code
        .iter()
        .any(|(i, c)| i == "text" && *c == format!("{}\n", f.message)));
    let row = table(&md, "Findings").last().unwrap().clone();
    assert_eq!(
        row[..5],
        [&f.signature, &f.kind, &f.stage, &f.arch_class, &f.opcode].map(String::clone)
    );
    assert!(table(&md, "Verdicts")
        .iter()
        .any(|r| r[0] == "<b>verdict</b><script>alert(1)</script><b>x</b>&\"q\"'"));
    let configs = md
        .headings
        .iter()
        .position(|h| h == "Configurations")
        .unwrap();
    assert!(configs > 0);
    // a multi-line cell keeps its lines
    r.coverage.insert("a|b\nc".into(), 1);
    let md = parse_md(&to_markdown(&r));
    assert!(table(&md, "Generator coverage")
        .iter()
        .any(|r| r == &["a|b\nc", "1"]));
}

// ----- JSON through the files

#[test]
fn written_json_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    for r in [sample(), markup()] {
        write_report(dir.path(), &r).unwrap();
        let text = std::fs::read_to_string(dir.path().join("summary.json")).unwrap();
        assert_eq!(text, to_json(&r));
        assert_eq!(from_json(&text).unwrap(), r);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("index.html")).unwrap(),
            to_html(&r)
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("summary.md")).unwrap(),
            to_markdown(&r)
        );
    }
}

// ----- merging shards

fn shard(i: u32, n: u32) -> NightlyReport {
    let mut r = sample();
    r.shards = vec![format!("{i}/{n}")];
    r.seed = 100 + u64::from(i);
    r.programs = 10 * u64::from(i);
    r.executions = 30 * u64::from(i);
    r.elapsed_s = 0.5 * f64::from(i);
    r.verdicts = map(&[("pass", 10 * u64::from(i)), ("mismatch", u64::from(i))]);
    r.fired = map(&[("OriCopyProp", u64::from(i))]);
    r.coverage = map(&[(&*format!("feature{i}"), 1)]);
    r.timings = map(&[("run", 0.5 * f64::from(i)), ("report", 0.25)]);
    r.findings.clear();
    r
}

/// Three shards sharing signature `shared` (reduced to 5, 3, 3
/// instructions by gen-10, gen-30, gen-21), known only in shard 2.
fn three_shards() -> [NightlyReport; 3] {
    let (mut a, mut b, mut c) = (shard(1, 3), shard(2, 3), shard(3, 3));
    a.findings = vec![
        finding("only-a", "gen-1", None, 2),
        finding("shared", "gen-10", Some(5), 2),
    ];
    let mut s = finding("shared", "gen-30", Some(3), 1);
    s.known = true;
    b.findings = vec![s];
    c.findings = vec![
        finding("shared", "gen-21", Some(3), 4),
        finding("z-only-c", "gen-5", Some(1), 1),
    ];
    [a, b, c]
}

#[test]
fn merge_sums_and_unites_findings() {
    let [a, b, c] = three_shards();
    let m = merge(&[c.clone(), a.clone(), b.clone()]).unwrap();
    assert_eq!(m.shards, ["1/3", "2/3", "3/3"]);
    assert_eq!(
        (m.programs, m.executions, m.jobs, m.seed),
        (60, 180, 6, 101)
    );
    assert_eq!((m.elapsed_s, m.minutes), (3.0, 60.0));
    assert_eq!(m.verdicts, map(&[("pass", 60), ("mismatch", 6)]));
    assert_eq!(m.fired, map(&[("OriCopyProp", 6)]));
    assert_eq!(
        m.coverage,
        map(&[("feature1", 1), ("feature2", 1), ("feature3", 1)])
    );
    assert_eq!(m.timings, map(&[("run", 3.0), ("report", 0.75)]));
    let sigs: Vec<(&str, u64, bool, &str)> = m
        .findings
        .iter()
        .map(|f| {
            (
                f.signature.as_str(),
                f.occurrences,
                f.known,
                f.program.as_str(),
            )
        })
        .collect();
    // shared: smallest reduced size 3 (gen-21 and gen-30), then the
    // smaller program name; occurrences 2 + 1 + 4; known in shard 2
    assert_eq!(
        sigs,
        [
            ("only-a", 2, false, "gen-1"),
            ("shared", 7, true, "gen-21"),
            ("z-only-c", 1, false, "gen-5")
        ]
    );
    assert_eq!(m.findings[1].directory, "findings/shared");
    assert_eq!(m.findings[1].reduced_instructions, Some(3));
    // merging a merge with the last shard gives the same report
    assert_eq!(
        merge(&[merge(&[a.clone(), b.clone()]).unwrap(), c.clone()]).unwrap(),
        m
    );
}

#[test]
fn merge_is_order_independent() {
    let [a, b, c] = three_shards();
    assert_eq!(
        merge(&[a.clone(), b.clone()]).unwrap(),
        merge(&[b.clone(), a.clone()]).unwrap()
    );
    let want = merge(&[a.clone(), b.clone(), c.clone()]).unwrap();
    for p in [
        [&a, &c, &b],
        [&b, &a, &c],
        [&b, &c, &a],
        [&c, &a, &b],
        [&c, &b, &a],
    ] {
        let v: Vec<NightlyReport> = p.iter().map(|r| (*r).clone()).collect();
        assert_eq!(merge(&v).unwrap(), want);
        assert_eq!(to_json(&merge(&v).unwrap()), to_json(&want));
    }
}

#[test]
fn merge_refuses_reports_of_different_nights() {
    let [a, mut b, _] = three_shards();
    b.date = "2026-11-24".into();
    assert_eq!(
        merge(&[a.clone(), b.clone()]).unwrap_err(),
        "shard 2/3 and shard 1/3 are not of one night: date \"2026-11-24\" differs from \"2026-11-23\""
    );
    let mut b = shard(2, 3);
    b.matrix = "full".into();
    assert_eq!(
        merge(&[a.clone(), b]).unwrap_err(),
        "shard 2/3 and shard 1/3 are not of one night: matrix \"full\" differs from \"default\""
    );
    let mut b = shard(2, 3);
    b.configs.pop();
    let e = merge(&[a.clone(), b]).unwrap_err();
    assert!(
        e.starts_with("shard 2/3 and shard 1/3 are not of one night: configurations ["),
        "{e}"
    );
    assert_eq!(
        merge(&[a.clone(), a]).unwrap_err(),
        "shard 1/3 is merged twice"
    );
}

// ----- ptxdiff report merge

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn cli_merges_shard_directories() {
    let dir = tempfile::tempdir().unwrap();
    let [a, b, c] = three_shards();
    let dirs: Vec<PathBuf> = [&a, &b, &c]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let d = dir
                .path()
                .join(format!("reports/{DATE}/shard-{}-of-3", i + 1));
            write_report(&d, r).unwrap();
            d
        })
        .collect();
    let out = dir.path().join(format!("reports/{DATE}"));
    let (code, stdout, stderr) = common::ptxdiff_out(&[
        "report",
        "merge",
        path(&out),
        path(&dirs[2]),
        path(&dirs[0]),
        path(&dirs[1]),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout,
        format!(
            "merged 3 report(s) (shards 1/3, 2/3, 3/3) into {}: 60 programs, 180 executions, \
             6 failing configuration(s), 3 finding(s), 2 new\n",
            out.display()
        )
    );
    assert_eq!(stderr, "");
    let want = merge(&[a.clone(), b.clone(), c]).unwrap();
    let got = from_json(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(got, want);
    assert_eq!(
        std::fs::read_to_string(out.join("index.html")).unwrap(),
        to_html(&want)
    );
    assert_eq!(
        std::fs::read_to_string(out.join("summary.md")).unwrap(),
        to_markdown(&want)
    );
    // a partial merge says which shard is missing
    let (code, stdout, _) = common::ptxdiff_out(&[
        "report",
        "merge",
        path(&out),
        path(&dirs[0]),
        path(&dirs[1]),
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.ends_with("warning: shard 3/3 is missing; the report is partial\n"),
        "{stdout}"
    );
}

#[test]
fn cli_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good");
    write_report(&good, &shard(1, 2)).unwrap();
    let out = dir.path().join("out");
    let missing = dir.path().join("missing");
    let (code, stdout, stderr) =
        common::ptxdiff_out(&["report", "merge", path(&out), path(&good), path(&missing)]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    let file = missing.join("summary.json");
    assert!(
        stderr.starts_with(&format!(
            "ptxdiff report: cannot read '{}': ",
            file.display()
        )),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written on an error");
    // invalid JSON and a bad field
    let bad = dir.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("summary.json"), "{\"schema\": 1,").unwrap();
    let (code, _, stderr) = common::ptxdiff_out(&["report", "merge", path(&out), path(&bad)]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(&format!(
            "ptxdiff report: {}: byte ",
            bad.join("summary.json").display()
        )),
        "{stderr}"
    );
    std::fs::write(
        bad.join("summary.json"),
        to_json(&shard(2, 2)).replace("\"jobs\": 2", "\"jobs\": \"2\""),
    )
    .unwrap();
    let (code, _, stderr) = common::ptxdiff_out(&["report", "merge", path(&out), path(&bad)]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!(
            "ptxdiff report: {}: jobs: expected a non-negative integer, found a string\n",
            bad.join("summary.json").display()
        )
    );
    // shards of two nights
    let mut other = shard(2, 2);
    other.date = "2026-11-22".into();
    write_report(&bad, &other).unwrap();
    let (code, _, stderr) =
        common::ptxdiff_out(&["report", "merge", path(&out), path(&good), path(&bad)]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("not of one night: date \"2026-11-22\""),
        "{stderr}"
    );
    // usage
    let (code, _, stderr) = common::ptxdiff_out(&["report", "merge", path(&out)]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("ptxdiff report: merge needs OUT_DIR and at least one SHARD_DIR\n"),
        "{stderr}"
    );
    let (code, _, stderr) = common::ptxdiff_out(&["report"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!out.exists());
}

// ----- headless Chromium

/// The first of the Chromium names on PATH.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

#[test]
fn chromium_renders_the_page() {
    let Some(chrome) = chromium() else {
        println!("skipped: no chromium on PATH");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    write_report(dir.path(), &markup()).unwrap();
    let png = dir.path().join("index.png");
    let out = std::process::Command::new(&chrome)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            &format!("--screenshot={}", png.display()),
            "--window-size=1280,2000",
            &format!("file://{}", dir.path().join("index.html").display()),
        ])
        .output()
        .unwrap();
    let bytes = std::fs::read(&png).unwrap_or_else(|e| {
        panic!(
            "{}: no screenshot ({e}): {}",
            chrome.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(
        bytes.len() > 20_000,
        "{} bytes: an empty page?",
        bytes.len()
    );
}
