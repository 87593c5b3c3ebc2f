//! The front end against the committed corpus: every real kernel (clang and
//! nvcc, -O2 and -O0) and every valid conformance file parses, validates and
//! round-trips; every invalid conformance file reports exactly the errors its
//! `// expect-error: LINE:COL: MESSAGE` lines name.

use ptxc::ptx::{self, SourceFile};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(ptx_files(&p));
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn assert_valid_and_round_trips(files: &[PathBuf]) {
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let (_, diags) = ptx::parse_and_validate(&text);
        if diags.iter().any(|d| d.is_error()) {
            failures.push(ptx::diag::render_all(
                &diags,
                &SourceFile::new(&name, &text),
            ));
            continue;
        }
        if let Err(e) = ptx::check_round_trip(&text) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn real_kernels_parse_validate_and_round_trip() {
    let files = ptx_files(&corpus().join("kernels"));
    // 16 kernels x (clang -O2, clang -O0, nvcc).
    assert!(files.len() >= 48, "only {} kernel PTX files", files.len());
    assert!(files
        .iter()
        .any(|f| f.to_string_lossy().ends_with(".nvcc.ptx")));
    assert_valid_and_round_trips(&files);
}

#[test]
fn conformance_valid_set() {
    let files = ptx_files(&corpus().join("ptx/valid"));
    assert!(
        files.len() >= 150,
        "only {} valid conformance files",
        files.len()
    );
    assert_valid_and_round_trips(&files);
}

/// `// expect-error: LINE:COL: MESSAGE` lines at the top of a file.
fn expectations(text: &str) -> Vec<(u32, u32, String)> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("// expect-error:"))
        .map(|rest| {
            let mut parts = rest.trim().splitn(3, ':');
            let line = parts.next().unwrap().trim().parse().expect("line");
            let col = parts.next().unwrap().trim().parse().expect("col");
            let msg = parts.next().unwrap_or("").trim().to_string();
            (line, col, msg)
        })
        .collect()
}

#[test]
fn conformance_invalid_set() {
    let files = ptx_files(&corpus().join("ptx/invalid"));
    assert!(
        files.len() >= 60,
        "only {} invalid conformance files",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let want = expectations(&text);
        assert!(!want.is_empty(), "{name}: no expect-error line");
        let src = SourceFile::new(&name, &text);
        let (_, diags) = ptx::parse_and_validate(&text);
        let got: Vec<(u32, u32, String)> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| {
                let (l, c) = src.line_col(d.span.lo);
                (l, c, d.message.clone())
            })
            .collect();
        let matches = want.len() == got.len()
            && want
                .iter()
                .zip(&got)
                .all(|(w, g)| w.0 == g.0 && w.1 == g.1 && g.2.contains(&w.2));
        if !matches {
            failures.push(format!("{name}\n  want: {want:?}\n  got:  {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Valid PTX beyond this front end's instruction list (tensor-core, async-copy,
/// mbarrier, cluster and PTX 8.x forms, constant expressions): accepted by
/// ptxas 11.8 (or by the ISA, for PTX 8.x), rejected here with a clear
/// diagnostic and no panic. When support lands, move the file to `valid/`.
#[test]
fn beyond_the_supported_set_is_rejected_cleanly() {
    let files = ptx_files(&corpus().join("ptx/beyond"));
    assert!(!files.is_empty());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let (_, diags) = ptx::parse_and_validate(&text);
        assert!(
            diags.iter().any(|d| d.is_error()),
            "{} is now accepted: move it to corpus/ptx/valid/",
            f.display()
        );
    }
}
