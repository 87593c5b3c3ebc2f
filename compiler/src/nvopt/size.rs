//! The size measure of issue 8's acceptance benchmark: the number of PTX
//! instructions in a module (statements that are instructions, counted in
//! every function body including nested `{ }` blocks; declarations,
//! labels, directives and braces do not count). The benchmark
//! (compiler/benches/nvopt_size.rs) counts clang -O0 input, `nvopt<O3>`
//! output and clang -O2 PTX with this one function.

use crate::ptx::ast::{Block, Item, Module, Statement};

fn count_block(b: &Block) -> usize {
    b.stmts
        .iter()
        .map(|s| match s {
            Statement::Instr(_) => 1,
            Statement::Block(inner) => count_block(inner),
            _ => 0,
        })
        .sum()
}

/// PTX instructions in every function body of `m`.
pub fn instruction_count(m: &Module) -> usize {
    m.items
        .iter()
        .map(|i| match i {
            Item::Function(f) => f.body.as_ref().map_or(0, count_block),
            _ => 0,
        })
        .sum()
}

/// One benchmark row.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeRow {
    pub kernel: String,
    /// clang -O0 PTX (`NAME.O0.ptx`).
    pub o0: usize,
    /// `nvopt<O3>` of the -O0 PTX.
    pub nvopt: usize,
    /// clang -O2 PTX (`NAME.ptx`).
    pub clang: usize,
}

impl SizeRow {
    pub fn ratio(&self) -> f64 {
        self.nvopt as f64 / self.clang as f64
    }
}

/// Measures one kernel: parses both PTX texts, runs `nvopt<O3>` with
/// `knobs` on the -O0 one. Returns the row and the `nvopt<O3>` output
/// text.
pub fn measure(
    kernel: &str,
    o0_ptx: &str,
    o2_ptx: &str,
    knobs: &super::pipeline::Knobs,
) -> Result<(SizeRow, String), String> {
    use super::pipeline::{build, Level};
    let o0 = crate::ptx::parse_checked(&format!("{kernel}.O0.ptx"), o0_ptx)?;
    let o2 = crate::ptx::parse_checked(&format!("{kernel}.ptx"), o2_ptx)?;
    let out = super::optimize(&o0, &build(Level::O3, knobs));
    if let Some((f, why)) = out.skipped.first() {
        return Err(format!("{kernel}: nvopt left {f} unoptimized: {why}"));
    }
    let text = crate::ptx::printer::print(&out.module);
    Ok((
        SizeRow {
            kernel: kernel.to_string(),
            o0: instruction_count(&o0),
            nvopt: instruction_count(&out.module),
            clang: instruction_count(&o2),
        },
        text,
    ))
}

/// The geometric mean of the rows' ratios (1.0 for no rows).
pub fn geomean(rows: &[SizeRow]) -> f64 {
    if rows.is_empty() {
        return 1.0;
    }
    let s: f64 = rows.iter().map(|r| r.ratio().ln()).sum();
    (s / rows.len() as f64).exp()
}

/// The table as text: one line per kernel, then the geometric mean.
pub fn table(rows: &[SizeRow]) -> String {
    let mut out = format!(
        "{:<18} {:>6} {:>10} {:>9} {:>6}\n",
        "kernel", "O0", "nvopt<O3>", "clang-O2", "ratio"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<18} {:>6} {:>10} {:>9} {:>6.2}\n",
            r.kernel,
            r.o0,
            r.nvopt,
            r.clang,
            r.ratio()
        ));
    }
    out.push_str(&format!("geomean ratio {:.3}\n", geomean(rows)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_instructions_in_nested_blocks_only() {
        let src = ".version 7.0\n.target sm_70\n.address_size 64\n\
                   .func f()\n{\n.reg .b32 %r<3>;\nL1:\nmov.u32 %r1, 1;\n{\n.reg .b32 t;\n\
                   add.s32 %r2, %r1, 1;\n}\nret;\n}\n\
                   .func g();\n";
        let m = crate::ptx::parse_checked("t.ptx", src).unwrap();
        assert_eq!(instruction_count(&m), 3);
    }

    #[test]
    fn geomean_of_ratios() {
        let r = |n, c| SizeRow {
            kernel: String::new(),
            o0: 0,
            nvopt: n,
            clang: c,
        };
        let g = geomean(&[r(2, 1), r(1, 2)]);
        assert!((g - 1.0).abs() < 1e-12, "{g}");
        let g = geomean(&[r(4, 1), r(1, 1)]);
        assert!((g - 2.0).abs() < 1e-12, "{g}");
    }
}
