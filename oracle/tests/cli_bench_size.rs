//! `ptxdiff bench size`: the report's format, one kernel's counts against
//! an independent count of the two listings, and the printed mean against
//! the printed rows.

mod common;
use common::{kernels, ptxdiff_out as ptxdiff};

/// Instruction lines of a cuobjdump-style listing (`/*ADDR*/ TEXT`), as
/// (address, text), by plain text scanning.
fn inst_lines(listing: &str) -> Vec<(u32, String)> {
    listing
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let rest = t.strip_prefix("/*")?;
            let end = rest.find("*/")?;
            let addr = u32::from_str_radix(&rest[..end], 16).ok()?;
            let text = rest[end + 2..].split("/*").next()?.trim().to_string();
            (!text.is_empty()).then_some((addr, text))
        })
        .collect()
}

/// The count the command promises: all instructions but the trailing NOPs
/// and the BRA to its own address before them.
fn independent_count(listing: &str) -> usize {
    let mut v = inst_lines(listing);
    while v.last().is_some_and(|(_, t)| t.starts_with("NOP")) {
        v.pop();
    }
    if let Some((a, t)) = v.last() {
        if t.trim_end_matches([';', ' ']) == format!("BRA {a:#x}") {
            v.pop();
        }
    }
    v.len()
}

#[test]
fn the_report_has_a_row_per_listing_and_counts_match_an_independent_count() {
    let (code, out, err) = ptxdiff(&["bench", "size", "--arch", "sm_80", "--arch", "sm_90"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("bench size: SASS instructions, ptxc -O3 vs ptxas"));
    assert!(lines[1].starts_with("counted: ") && lines[1].contains("excluded: "));
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["kernel", "arch", "ptxc", "vendor", "ratio"]
    );
    let rows = &lines[3..lines.len() - 1];
    assert_eq!(rows.len(), 16 * 2, "{out}");
    // tex_stencil on sm_80, counted here from the files.
    let dir = kernels().join("tex_stencil");
    let vendor = std::fs::read_to_string(dir.join("tex_stencil.sm_80.sass")).unwrap();
    let v = independent_count(&vendor);
    let src = std::fs::read_to_string(dir.join("tex_stencil.ptx")).unwrap();
    let opts = ptxc::cli::parse_args(&["-O3".to_string(), "-arch=sm_80".to_string()])
        .unwrap()
        .unwrap();
    let listing = ptxc::driver::compile("tex_stencil.ptx", &src, &opts.driver, None)
        .result
        .unwrap()
        .sass;
    let p = independent_count(&listing);
    let row: Vec<&str> = rows
        .iter()
        .find(|l| l.starts_with("tex_stencil ") && l.contains(" sm_80 "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        row,
        [
            "tex_stencil".to_string(),
            "sm_80".to_string(),
            p.to_string(),
            v.to_string(),
            format!("{:.2}", p as f64 / v as f64)
        ]
    );
    // The mean, recomputed from the printed counts.
    let ratios: Vec<f64> = rows
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f[2].parse::<f64>().unwrap() / f[3].parse::<f64>().unwrap()
        })
        .collect();
    let m = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    let last = lines.last().unwrap();
    let verdict = if m <= 1.5 { "met" } else { "not met" };
    assert_eq!(
        *last,
        format!(
            "geomean ratio: {m:.3} over {} listings (0 not compiled); target <= 1.5: {verdict}",
            ratios.len()
        )
    );
}

#[test]
fn the_padding_rule_matters_for_the_vendor_listing() {
    // The vendor listing ends in BRA-self + NOPs; the count excludes them.
    let dir = kernels().join("tex_stencil");
    let vendor = std::fs::read_to_string(dir.join("tex_stencil.sm_80.sass")).unwrap();
    assert!(inst_lines(&vendor).len() > independent_count(&vendor));
}

#[test]
fn bad_arguments_exit_two() {
    assert_eq!(ptxdiff(&["bench"]).0, 2);
    assert_eq!(ptxdiff(&["bench", "speed"]).0, 2);
    assert_eq!(ptxdiff(&["bench", "size", "--bogus"]).0, 2);
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = ptxdiff(&["bench", "size", "--corpus", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no NAME/NAME.ptx"), "{err}");
}
