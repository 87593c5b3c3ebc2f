//! The layering as a test: every `crate::X`, `ptxc::X`, `oracle::X` and
//! every `super::` that climbs out of its top-level module, in the code of
//! compiler/src and oracle/src, must be an edge the table of
//! docs/ARCHITECTURE.md ("Layers and import rules", between the markers
//! `<!-- layering:begin -->` and `<!-- layering:end -->`) allows; and every
//! top-level module of both crates must have a row there.
//!
//! The scanner is a tokenizer, not a parser: comments, string literals and
//! character literals are blanked first; unit-test code (an item under
//! `#[cfg(test)]`, and the files such a `mod x;` declares) is exempt, as
//! the document says.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const BEGIN: &str = "<!-- layering:begin -->";
const END: &str = "<!-- layering:end -->";

/// The crates scanned: name, source directory relative to the workspace.
const CRATES: &[(&str, &str)] = &[("ptxc", "compiler/src"), ("oracle", "oracle/src")];

/// A top-level module: crate and module name (`("ptxc", "ir")`).
type Module = (String, String);

fn module_name(m: &Module) -> String {
    format!("{}::{}", m.0, m.1)
}

/// The allowed edges: for each module, the modules it may import.
#[derive(Debug, Default)]
struct Rules {
    allowed: BTreeMap<String, BTreeSet<String>>,
}

impl Rules {
    /// Reads the table between the markers: `| module | may import |` rows,
    /// module names with or without backticks, the allowed list comma
    /// separated, `-` for none.
    fn parse(doc: &str) -> Result<Rules, String> {
        let start = doc.find(BEGIN).ok_or("no layering:begin marker")? + BEGIN.len();
        let end = doc[start..].find(END).ok_or("no layering:end marker")? + start;
        let mut rules = Rules::default();
        for line in doc[start..end].lines() {
            let line = line.trim();
            if !line.starts_with('|') {
                continue;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if cells.len() < 2 {
                return Err(format!("a row without two cells: {line}"));
            }
            let name = cells[0].trim_matches('`');
            if name == "module" || name.chars().all(|c| c == '-' || c == ':') {
                continue; // the header and the separator
            }
            if !name.contains("::") {
                return Err(format!("a module not written crate::name: {name}"));
            }
            let mut targets = BTreeSet::new();
            for t in cells[1].split(',').map(|t| t.trim().trim_matches('`')) {
                if t.is_empty() || t == "-" {
                    continue;
                }
                if !t.contains("::") {
                    return Err(format!("{name}: a target not written crate::name: {t}"));
                }
                targets.insert(t.to_string());
            }
            if rules.allowed.insert(name.to_string(), targets).is_some() {
                return Err(format!("two rows for {name}"));
            }
        }
        Ok(rules)
    }

    fn allows(&self, from: &str, to: &str) -> bool {
        from == to || self.allowed.get(from).is_some_and(|s| s.contains(to))
    }
}

/// The source with comments, string literals and character literals
/// replaced by spaces (newlines kept, so positions keep their lines).
fn blank_non_code(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let prev = if i > 0 { c[i - 1] } else { ' ' };
        if ch == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if (ch == 'r' || (ch == 'b' && c.get(i + 1) == Some(&'r'))) && !ident(prev) && {
            let mut j = i + if ch == 'b' { 2 } else { 1 };
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            c.get(j) == Some(&'"')
        } {
            // A raw string: r"...", r#"..."#, br"...".
            let mut j = i + if ch == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1; // the opening quote
            while j < c.len() {
                if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &x in &c[i..j.min(c.len())] {
                blank(&mut out, x);
            }
            i = j;
        } else if ch == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            for &x in &c[i..(j + 1).min(c.len())] {
                blank(&mut out, x);
            }
            i = j + 1;
        } else if ch == '\'' {
            // A character literal ('x', '\n', '\''), else a lifetime or a
            // label, which is code.
            let end = if c.get(i + 1) == Some(&'\\') {
                (i + 2..c.len()).find(|&j| c[j] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for &x in &c[i..=e] {
                        blank(&mut out, x);
                    }
                    i = e + 1;
                }
                None => {
                    out.push(ch);
                    i += 1;
                }
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Tokens of blanked code, each with its 1-based line.
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[s..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// What one file's code refers to.
#[derive(Debug, Default, PartialEq)]
struct FileRefs {
    /// (line, crate, top-level module) of each reference outside the
    /// file's own top-level module. The crate is `crate`, `ptxc`, `oracle`;
    /// a `super::` that climbs to the crate root reports `crate`.
    refs: Vec<(usize, String, String)>,
    /// `mod x;` declarations under `#[cfg(test)]`, with their `#[path]`.
    test_mods: Vec<(String, Option<String>)>,
}

/// Whether the attribute starting at token `i` (`#`) is `#[cfg(test)]` or
/// `#[cfg(all(test, ...))]`; returns the index after its `]`.
fn attribute(t: &[(Tok, usize)], i: usize) -> Option<(usize, bool, Option<String>)> {
    if t.get(i + 1).map(|x| &x.0) != Some(&Tok::Punct('[')) {
        return None;
    }
    let mut depth = 0;
    let mut j = i + 1;
    while j < t.len() {
        match &t[j].0 {
            Tok::Punct('[') => depth += 1,
            Tok::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        j += 1;
    }
    let words: Vec<&str> = t[i + 2..j]
        .iter()
        .filter_map(|x| match &x.0 {
            Tok::Ident(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let test = words.first() == Some(&"cfg")
        && (words.get(1) == Some(&"test") || words[1..].starts_with(&["all", "test"]));
    // `#[path = "..."]`: the string was blanked; the caller reads it from
    // the raw text.
    let path = (words == ["path"]).then(String::new);
    Some((j + 1, test, path))
}

/// The index after the item starting at `i`: its `;` at depth 0, or the
/// `}` closing its first brace.
fn item_end(t: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0;
    while i < t.len() {
        match t[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            Tok::Punct(';') if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Scans one file. `depth` is how many modules the file is below the crate
/// root (`lower/mem.rs`: 2, `lower/mod.rs`: 1); `raw` is the text before
/// blanking (for `#[path = "..."]`).
fn scan(raw: &str, depth: usize) -> FileRefs {
    let code = blank_non_code(raw);
    let t = tokens(&code);
    let raw_lines: Vec<&str> = raw.lines().collect();
    let mut out = FileRefs::default();
    // Inline modules open at these brace depths.
    let mut inline: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    let mut pending_path: Option<String> = None;
    let mut i = 0;
    while i < t.len() {
        match &t[i].0 {
            Tok::Punct('#') => {
                if let Some((after, test, path)) = attribute(&t, i) {
                    if path.is_some() {
                        let l = raw_lines.get(t[i].1 - 1).copied().unwrap_or("");
                        pending_path = l.split('"').nth(1).map(str::to_string);
                    }
                    if test {
                        // Skip the item, and further attributes before it.
                        let mut k = after;
                        while let Some((a, _, p)) = (t.get(k).map(|x| &x.0)
                            == Some(&Tok::Punct('#')))
                        .then(|| attribute(&t, k))
                        .flatten()
                        {
                            if p.is_some() {
                                let l = raw_lines.get(t[k].1 - 1).copied().unwrap_or("");
                                pending_path = l.split('"').nth(1).map(str::to_string);
                            }
                            k = a;
                        }
                        let end = item_end(&t, k);
                        // `mod x;`: the file is test code.
                        if let (Some(Tok::Ident(m)), Some(Tok::Ident(x)), Some(Tok::Punct(';'))) = (
                            t.get(end - 3).map(|x| &x.0),
                            t.get(end - 2).map(|x| &x.0),
                            t.get(end - 1).map(|x| &x.0),
                        ) {
                            if m == "mod" {
                                out.test_mods.push((x.clone(), pending_path.take()));
                            }
                        }
                        pending_path = None;
                        i = end;
                        continue;
                    }
                    i = after;
                    continue;
                }
                i += 1;
            }
            Tok::Punct('{') => {
                braces += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last() == Some(&braces) {
                    inline.pop();
                }
                braces = braces.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some(Tok::Ident(_)), Some(Tok::Punct('{'))) =
                    (t.get(i + 1).map(|x| &x.0), t.get(i + 2).map(|x| &x.0))
                {
                    inline.push(braces + 1);
                }
                pending_path = None;
                i += 1;
            }
            Tok::Ident(w) if w == "crate" || w == "ptxc" || w == "oracle" || w == "super" => {
                let prev = if i > 0 { Some(&t[i - 1].0) } else { None };
                if prev == Some(&Tok::Path) {
                    i += 1; // `x::crate` is not a path root
                    continue;
                }
                let line = t[i].1;
                let (root, mut j) = if w == "super" {
                    let mut k = i;
                    let mut n = 0;
                    while t.get(k).map(|x| &x.0) == Some(&Tok::Ident("super".into()))
                        && t.get(k + 1).map(|x| &x.0) == Some(&Tok::Path)
                    {
                        n += 1;
                        k += 2;
                    }
                    if n < depth + inline.len() || n == 0 {
                        i = k.max(i + 1);
                        continue;
                    }
                    ("crate".to_string(), k)
                } else {
                    if t.get(i + 1).map(|x| &x.0) != Some(&Tok::Path) {
                        i += 1;
                        continue;
                    }
                    (w.clone(), i + 2)
                };
                match t.get(j).map(|x| &x.0) {
                    Some(Tok::Ident(m)) => out.refs.push((line, root, m.clone())),
                    Some(Tok::Punct('{')) => {
                        // A group: the first name of each top-level item.
                        let mut d = 0;
                        let mut first = true;
                        j += 1;
                        while j < t.len() {
                            match &t[j].0 {
                                Tok::Punct('{') => d += 1,
                                Tok::Punct('}') if d == 0 => break,
                                Tok::Punct('}') => d -= 1,
                                Tok::Punct(',') if d == 0 => first = true,
                                Tok::Ident(m) if first && d == 0 => {
                                    out.refs.push((t[j].1, root.clone(), m.clone()));
                                    first = false;
                                }
                                _ => {}
                            }
                            j += 1;
                        }
                    }
                    _ => {}
                }
                i = j.max(i + 1);
            }
            _ => i += 1,
        }
    }
    out
}

/// A scanned file: its crate and top-level module, its depth below the
/// crate root, whether it is a binary's root.
struct SourceFile {
    path: PathBuf,
    krate: &'static str,
    top: String,
    depth: usize,
    bin: bool,
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every source file of both crates, and every top-level module.
fn source_files() -> (Vec<SourceFile>, BTreeSet<String>) {
    let mut files = Vec::new();
    let mut tops = BTreeSet::new();
    for &(krate, dir) in CRATES {
        let root = workspace().join(dir);
        let mut paths = Vec::new();
        rs_files(&root, &mut paths);
        for path in paths {
            let rel: Vec<String> = path
                .strip_prefix(&root)
                .unwrap()
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            if rel == ["lib.rs"] {
                continue; // the crate root declares the modules
            }
            let top = rel[0].trim_end_matches(".rs").to_string();
            let bin = top == "bin";
            let stem = rel.last().unwrap().trim_end_matches(".rs");
            let depth = if bin {
                rel.len() - 2
            } else if stem == "mod" {
                rel.len() - 1
            } else {
                rel.len()
            };
            tops.insert(format!("{krate}::{top}"));
            files.push(SourceFile {
                path,
                krate,
                top,
                depth,
                bin,
            });
        }
    }
    (files, tops)
}

/// The file a `mod x;` (with an optional `#[path]`) in `file` declares.
fn declared_file(file: &Path, name: &str, path: Option<&str>) -> Vec<PathBuf> {
    let dir = file.parent().unwrap();
    let stem = file.file_stem().unwrap().to_string_lossy();
    if let Some(p) = path {
        return vec![dir.join(p)];
    }
    let base = if stem == "mod" || stem == "lib" {
        dir.to_path_buf()
    } else {
        dir.join(&*stem)
    };
    vec![
        base.join(format!("{name}.rs")),
        base.join(name).join("mod.rs"),
    ]
}

/// Whether `path` is test code: declared under `#[cfg(test)]`, or inside a
/// module that is.
fn is_test_file(path: &Path, test_files: &BTreeSet<PathBuf>) -> bool {
    let mut p = path.to_path_buf();
    loop {
        if test_files.contains(&p) {
            return true;
        }
        // The module file of the enclosing directory.
        let dir = match p.parent() {
            Some(d) => d.to_path_buf(),
            None => return false,
        };
        let parent = if p.file_name().is_some_and(|n| n == "mod.rs") {
            match dir.parent() {
                Some(d) => d.to_path_buf(),
                None => return false,
            }
        } else {
            dir
        };
        let candidates = [parent.join("mod.rs"), parent.with_extension("rs")];
        match candidates.into_iter().find(|c| c.exists() && *c != p) {
            Some(c) => p = c,
            None => return false,
        }
    }
}

/// The violations of the whole tree: `file:line: module A imports B`.
fn violations(rules: &Rules) -> Vec<String> {
    let (files, tops) = source_files();
    let mut out = Vec::new();
    for m in &tops {
        if !rules.allowed.contains_key(m) {
            out.push(format!(
                "module {m} has no row in docs/ARCHITECTURE.md's layering table"
            ));
        }
    }
    let scanned: Vec<(&SourceFile, FileRefs)> = files
        .iter()
        .map(|f| (f, scan(&fs::read_to_string(&f.path).unwrap(), f.depth)))
        .collect();
    let mut test_files = BTreeSet::new();
    for (f, r) in &scanned {
        for (name, path) in &r.test_mods {
            test_files.extend(declared_file(&f.path, name, path.as_deref()));
        }
    }
    let ws = workspace();
    for (f, r) in &scanned {
        if is_test_file(&f.path, &test_files) {
            continue;
        }
        let from = module_name(&(f.krate.to_string(), f.top.clone()));
        for (line, root, m) in &r.refs {
            let krate = match root.as_str() {
                "crate" if f.bin => continue, // a binary's own items
                "crate" => f.krate,
                "ptxc" => "ptxc",
                _ => "oracle",
            };
            let to = format!("{krate}::{m}");
            // Names that are not top-level modules (items of the crate root,
            // macros) are not edges.
            if !tops.contains(&to) || (krate == f.krate && *m == f.top && !f.bin) {
                continue;
            }
            if !rules.allows(&from, &to) {
                out.push(format!(
                    "{}:{line}: module {from} imports {to} (not allowed by docs/ARCHITECTURE.md)",
                    f.path.strip_prefix(&ws).unwrap().display()
                ));
            }
        }
    }
    out
}

#[test]
fn the_layering_table_holds() {
    let doc = fs::read_to_string(workspace().join("docs/ARCHITECTURE.md")).unwrap();
    let rules = Rules::parse(&doc).unwrap();
    let v = violations(&rules);
    assert!(
        v.is_empty(),
        "{} layering violation(s):\n{}",
        v.len(),
        v.join("\n")
    );
}

#[test]
fn the_table_names_only_known_modules() {
    let doc = fs::read_to_string(workspace().join("docs/ARCHITECTURE.md")).unwrap();
    let rules = Rules::parse(&doc).unwrap();
    for (m, targets) in &rules.allowed {
        for t in std::iter::once(m).chain(targets) {
            assert!(
                t.starts_with("ptxc::") || t.starts_with("oracle::"),
                "{t}: not a module of ptxc or oracle"
            );
        }
    }
}

#[cfg(test)]
mod scanner {
    use super::*;

    fn refs(src: &str, depth: usize) -> Vec<(usize, String, String)> {
        scan(src, depth).refs
    }

    fn r(line: usize, root: &str, m: &str) -> (usize, String, String) {
        (line, root.to_string(), m.to_string())
    }

    #[test]
    fn a_forbidden_use_is_found() {
        assert_eq!(
            refs("use ptxc::lower::X;\n", 1),
            vec![r(1, "ptxc", "lower")]
        );
        let rules = Rules::parse(&format!(
            "{BEGIN}\n| module | may import |\n|---|---|\n| `oracle::sim` | ptxc::ir, ptxc::pipe |\n{END}"
        ))
        .unwrap();
        assert!(rules.allows("oracle::sim", "ptxc::pipe"));
        assert!(!rules.allows("oracle::sim", "ptxc::lower"));
        assert!(rules.allows("oracle::sim", "oracle::sim"));
    }

    #[test]
    fn group_imports_are_found() {
        assert_eq!(
            refs("use crate::{ir, phases::table::{lookup, NOP}};\n", 1),
            vec![r(1, "crate", "ir"), r(1, "crate", "phases")]
        );
        assert_eq!(
            refs("use ptxc::{\n    lower::{A, B},\n    sched,\n};\n", 1),
            vec![r(2, "ptxc", "lower"), r(3, "ptxc", "sched")]
        );
    }

    #[test]
    fn comments_strings_and_chars_are_not_code() {
        let src = "// use crate::phases::X;\n\
                   /// [`crate::lower::Y`]\n\
                   //! ptxc::sched::model\n\
                   /* crate::driver /* nested */ crate::ori */\n\
                   let s = \"crate::lower::Z\";\n\
                   let t = r#\"ptxc::lower\"#;\n\
                   let c = '\"'; let d = '{';\n\
                   fn f<'a>(x: &'a str) -> crate::ir::Op { x.len() }\n";
        assert_eq!(refs(src, 1), vec![r(8, "crate", "ir")]);
    }

    #[test]
    fn super_counts_only_when_it_climbs_out() {
        // lower/mem.rs (depth 2): one `super` stays in `lower`, two reach
        // the root.
        assert_eq!(refs("use super::builder::*;\n", 2), vec![]);
        assert_eq!(
            refs("use super::super::phases::X;\n", 2),
            vec![r(1, "crate", "phases")]
        );
        // Inside an inline module one more `super` is needed.
        let src = "mod tests {\n    use super::super::ir;\n}\nuse super::ir;\n";
        assert_eq!(refs(src, 1), vec![r(2, "crate", "ir"), r(4, "crate", "ir")]);
    }

    #[test]
    fn test_code_is_exempt() {
        let src = "#[cfg(test)]\nmod tests {\n    use crate::phases::X;\n}\n\
                   #[cfg(test)]\n#[path = \"x_tests.rs\"]\nmod x_tests;\n\
                   #[cfg(all(test, feature = \"f\"))]\nuse crate::driver::Y;\n\
                   use crate::lower::Z;\n";
        let s = scan(src, 1);
        assert_eq!(s.refs, vec![r(10, "crate", "lower")]);
        assert_eq!(
            s.test_mods,
            vec![("x_tests".to_string(), Some("x_tests.rs".to_string()))]
        );
    }
}
