//! Writing a report directory: `summary.md`, `index.html`, then
//! `summary.json`, each atomically (a temporary file renamed into place),
//! so a reader never sees half a file. `summary.json` comes last: a
//! directory that has it has the other two of the same report (or of an
//! earlier one being overwritten).

use std::io;
use std::path::Path;

use super::model::NightlyReport;
use super::{html, json, markdown};
use crate::diff::findings::write_atomic;

pub const JSON: &str = "summary.json";
pub const MARKDOWN: &str = "summary.md";
pub const HTML: &str = "index.html";

/// Writes the three files of `r` into `dir` (created with its parents).
pub fn write_report(dir: &Path, r: &NightlyReport) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    write_atomic(&dir.join(MARKDOWN), markdown::to_markdown(r).as_bytes())?;
    write_atomic(&dir.join(HTML), html::to_html(r).as_bytes())?;
    write_atomic(&dir.join(JSON), json::to_json(r).as_bytes())
}

/// Reads `dir/summary.json`; the error names the file.
pub fn read_report(dir: &Path) -> Result<NightlyReport, String> {
    let path = dir.join(JSON);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    json::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_three_files_that_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("reports/2026-11-23");
        let mut r = NightlyReport::empty("2026-11-23", "smoke");
        r.programs = 5;
        write_report(&sub, &r).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&sub)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, [HTML, JSON, MARKDOWN]);
        assert_eq!(read_report(&sub).unwrap(), r);
        assert_eq!(
            std::fs::read_to_string(sub.join(MARKDOWN)).unwrap(),
            markdown::to_markdown(&r)
        );
        let missing = read_report(dir.path()).unwrap_err();
        assert!(missing.starts_with("cannot read '"), "{missing}");
        assert!(missing.contains(JSON), "{missing}");
        std::fs::write(sub.join(JSON), "{\"schema\": 9}").unwrap();
        let bad = read_report(&sub).unwrap_err();
        assert!(
            bad.ends_with("summary.json: schema 9 is not supported (this ptxdiff reads schema 1)"),
            "{bad}"
        );
    }
}
