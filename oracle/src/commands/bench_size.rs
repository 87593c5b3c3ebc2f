//! `ptxdiff bench size [--corpus DIR] [--arch sm_XX]...`: code size against
//! the vendor. For every kernel `DIR/NAME/NAME.ptx` and target with a vendor
//! listing `NAME.sm_XX.sass` (ptxas 11.8 at its default -O3, cuobjdump
//! text), the SASS instruction count of `ptxc -O3 -arch=sm_XX NAME.ptx`
//! against the vendor's, their ratio, and the geometric mean of the
//! ratios (issue 6's target: at most 1.5). It measures; it never fails on
//! the figure.
//!
//! What is counted, the same way on both sides ([`count_listing`]): every
//! instruction of every function in the listing (a kernel's listing holds
//! its callees' code), including the slots cuobjdump prints as encodings
//! without text (sm_90); excluded are each function's end padding — the
//! trailing NOPs and the unguarded `BRA` to its own address before them
//! (ptxas's `BRA self` + NOPs to an alignment boundary), which no thread
//! executes. A kernel ptxc does not compile is listed with its error and
//! left out of the mean.

use std::path::{Path, PathBuf};

use ptxc::ir::sass_text::{parse_file, SassFunction, SassOperand};

/// The targets the corpus has vendor listings for.
pub const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// The target for the geometric-mean ratio.
pub const TARGET_RATIO: f64 = 1.5;

/// One kernel on one target.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeRow {
    pub kernel: String,
    pub arch: String,
    /// ptxc's count, or why it has none.
    pub ptxc: Result<usize, String>,
    pub vendor: usize,
}

impl SizeRow {
    pub fn ratio(&self) -> Option<f64> {
        match self.ptxc {
            Ok(n) if self.vendor > 0 => Some(n as f64 / self.vendor as f64),
            _ => None,
        }
    }
}

/// Instructions of one function without its end padding.
pub fn count_function(f: &SassFunction) -> usize {
    let mut n = f.insts.len();
    while n > 0 && f.insts[n - 1].opcode == "NOP" {
        n -= 1;
    }
    if n > 0 {
        let last = &f.insts[n - 1];
        let to_self = last.opcode == "BRA"
            && last.guard.is_none()
            && last.operands.iter().any(|o| match o {
                SassOperand::Imm(a) => *a == i64::from(last.addr),
                SassOperand::Label(l) => last.label == Some(*l),
                _ => false,
            });
        if to_self {
            n -= 1;
        }
    }
    n + f.undecoded.len()
}

/// The instruction count of a listing (every function, see the module
/// comment).
pub fn count_listing(text: &str) -> Result<usize, String> {
    let file = parse_file(text).map_err(|e| e.to_string())?;
    Ok(file.functions.iter().map(count_function).sum())
}

/// ptxc's listing of `ptx` at -O3 for `arch`.
pub fn ptxc_listing(ptx: &Path, arch: &str) -> Result<String, String> {
    let src = std::fs::read_to_string(ptx)
        .map_err(|e| format!("cannot read '{}': {e}", ptx.display()))?;
    let args = vec!["-O3".to_string(), format!("-arch={arch}")];
    let opts = ptxc::cli::parse_args(&args)
        .map_err(|e| format!("ptxc flags: {e}"))?
        .ok_or("ptxc flags: --help/--version given")?;
    let report = ptxc::driver::compile(&ptx.display().to_string(), &src, &opts.driver, None);
    match report.result {
        Ok(o) => Ok(o.sass),
        Err(e) => Err(e.to_string().lines().next().unwrap_or("").to_string()),
    }
}

/// Measures every kernel under `dir` for each target that has a vendor
/// listing.
pub fn measure(dir: &Path, archs: &[String]) -> Result<Vec<SizeRow>, String> {
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read '{}': {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    kernels.sort();
    let mut rows = Vec::new();
    for d in kernels {
        let Some(name) = d.file_name().and_then(|n| n.to_str()).map(str::to_string) else {
            continue;
        };
        let ptx = d.join(format!("{name}.ptx"));
        if !ptx.exists() {
            continue;
        }
        for arch in archs {
            let vendor = d.join(format!("{name}.{arch}.sass"));
            if !vendor.exists() {
                continue;
            }
            let text = std::fs::read_to_string(&vendor)
                .map_err(|e| format!("cannot read '{}': {e}", vendor.display()))?;
            let vendor_n =
                count_listing(&text).map_err(|e| format!("{}: {e}", vendor.display()))?;
            let ptxc_n = ptxc_listing(&ptx, arch).and_then(|s| count_listing(&s));
            rows.push(SizeRow {
                kernel: name.clone(),
                arch: arch.clone(),
                ptxc: ptxc_n,
                vendor: vendor_n,
            });
        }
    }
    if rows.is_empty() {
        return Err(format!(
            "no NAME/NAME.ptx with a NAME.sm_XX.sass under '{}'",
            dir.display()
        ));
    }
    Ok(rows)
}

/// The geometric mean of the rows' ratios and how many it covers.
pub fn geomean(rows: &[SizeRow]) -> Option<(f64, usize)> {
    let rs: Vec<f64> = rows.iter().filter_map(SizeRow::ratio).collect();
    if rs.is_empty() {
        return None;
    }
    let m = (rs.iter().map(|r| r.ln()).sum::<f64>() / rs.len() as f64).exp();
    Some((m, rs.len()))
}

/// The report's lines: a header, one line per row, the mean.
pub fn report_lines(rows: &[SizeRow]) -> Vec<String> {
    let mut out = vec![
        "bench size: SASS instructions, ptxc -O3 vs ptxas 11.8 -O3 (the corpus listings)"
            .to_string(),
        "counted: every instruction of every function, cuobjdump's text-less slots included; \
         excluded: each function's trailing NOPs and the BRA-to-itself before them"
            .to_string(),
        format!(
            "{:<18} {:<6} {:>6} {:>6} {:>6}",
            "kernel", "arch", "ptxc", "vendor", "ratio"
        ),
    ];
    for r in rows {
        out.push(match (&r.ptxc, r.ratio()) {
            (Ok(n), Some(q)) => format!(
                "{:<18} {:<6} {:>6} {:>6} {:>6.2}",
                r.kernel, r.arch, n, r.vendor, q
            ),
            (Ok(n), None) => format!(
                "{:<18} {:<6} {:>6} {:>6} {:>6}",
                r.kernel, r.arch, n, r.vendor, "-"
            ),
            (Err(e), _) => format!(
                "{:<18} {:<6} {:>6} {:>6} {:>6}  COMPILE ERROR: {e}",
                r.kernel, r.arch, "-", r.vendor, "-"
            ),
        });
    }
    let failed = rows.iter().filter(|r| r.ptxc.is_err()).count();
    out.push(match geomean(rows) {
        Some((m, n)) => format!(
            "geomean ratio: {m:.3} over {n} listings ({failed} not compiled); target <= {TARGET_RATIO:.1}: {}",
            if m <= TARGET_RATIO { "met" } else { "not met" }
        ),
        None => format!("geomean ratio: none ({failed} not compiled)"),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_not_counted() {
        let text = "\t\tFunction : k\n\
            \x20       /*0000*/                   MOV R1, c[0x0][0x28] ;\n\
            \x20       /*0010*/                   EXIT ;\n\
            \x20       /*0020*/                   BRA 0x20;\n\
            \x20       /*0030*/                   NOP;\n\
            \x20       /*0040*/                   NOP;\n";
        assert_eq!(count_listing(text).unwrap(), 2);
        // A BRA elsewhere is an instruction.
        let text2 = "\t\tFunction : k\n\
            \x20       /*0000*/                   BRA 0x10;\n\
            \x20       /*0010*/                   EXIT ;\n";
        assert_eq!(count_listing(text2).unwrap(), 2);
    }

    #[test]
    fn the_mean_is_geometric_and_skips_failures() {
        let row = |p: Result<usize, String>, v| SizeRow {
            kernel: "k".into(),
            arch: "sm_80".into(),
            ptxc: p,
            vendor: v,
        };
        let rows = [row(Ok(20), 10), row(Ok(10), 20), row(Err("x".into()), 5)];
        let (m, n) = geomean(&rows).unwrap();
        assert!((m - 1.0).abs() < 1e-12);
        assert_eq!(n, 2);
        assert!(report_lines(&rows)
            .last()
            .unwrap()
            .contains("over 2 listings (1 not compiled)"));
    }
}
