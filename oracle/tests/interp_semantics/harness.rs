//! Test harness: builds small PTX kernels, launch specs, runs them through
//! `oracle::ptx_interp::run` and compares output bits with expected values
//! computed independently in the tests.

#![allow(dead_code)]

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits, RunResult};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const HEADER: &str = ".version 7.8\n.target sm_80\n.address_size 64\n";

/// Rows (independent expected values) checked so far in this test binary.
pub static ROWS: AtomicUsize = AtomicUsize::new(0);

pub fn count(n: usize) {
    ROWS.fetch_add(n, Ordering::Relaxed);
}

// ---------------------------------------------------------------- values

pub fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}
pub fn d(x: f64) -> u64 {
    x.to_bits()
}
/// An i32 as the 32-bit pattern (zero-extended to u64).
pub fn i(x: i32) -> u64 {
    u64::from(x as u32)
}
/// An i64 as bits.
pub fn l(x: i64) -> u64 {
    x as u64
}

// ---------------------------------------------------------------- running

/// Parses, validates and runs `src` under the launch spec.
pub fn run_src(src: &str, spec_json: &str, limits: &RunLimits) -> RunResult {
    let spec = LaunchSpec::from_json_str(spec_json, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("bad spec {e}\n{spec_json}"));
    let module = ptxc::ptx::parse_checked("t.ptx", src)
        .unwrap_or_else(|e| panic!("PTX does not parse:\n{e}\n{}", numbered(src)));
    ptx_interp::run(&module, src, &spec, limits)
        .unwrap_or_else(|e| panic!("setup failed: {e}\n{}", numbered(src)))
}

pub fn numbered(src: &str) -> String {
    src.lines()
        .enumerate()
        .map(|(k, l)| format!("{:4} {l}\n", k + 1))
        .collect()
}

/// A global buffer for a launch spec.
#[derive(Clone, Debug)]
pub struct Buf {
    pub name: String,
    pub ty: String,
    pub bits: Vec<u64>,
}

pub fn buf(name: &str, ty: &str, bits: Vec<u64>) -> Buf {
    Buf {
        name: name.into(),
        ty: ty.into(),
        bits,
    }
}

/// A launch spec: kernel `k`, the given grid/block, params = the named
/// buffers in order, extra scalar params given as JSON snippets after them.
pub fn spec_json(grid: [u32; 3], block: [u32; 3], bufs: &[Buf], extra_params: &[&str]) -> String {
    let mut params: Vec<String> = bufs
        .iter()
        .map(|b| format!(r#"{{"buffer":"{}"}}"#, b.name))
        .collect();
    params.extend(extra_params.iter().map(|s| s.to_string()));
    let mut buffers = Vec::new();
    for b in bufs {
        let init = if b.bits.iter().all(|&x| x == 0) {
            "\"zeros\"".to_string()
        } else {
            let v: Vec<String> = b.bits.iter().map(|x| format!("\"0x{x:x}\"")).collect();
            format!(r#"{{"bits":[{}]}}"#, v.join(","))
        };
        buffers.push(format!(
            r#""{}":{{"type":"{}","len":{},"init":{}}}"#,
            b.name,
            b.ty,
            b.bits.len(),
            init
        ));
    }
    format!(
        r#"{{"kernel":"k","grid":[{},{},{}],"block":[{},{},{}],"params":[{}],"buffers":{{{}}}}}"#,
        grid[0],
        grid[1],
        grid[2],
        block[0],
        block[1],
        block[2],
        params.join(","),
        buffers.join(",")
    )
}

/// Output buffer bits by name.
pub fn out(r: &RunResult, name: &str) -> Vec<u64> {
    r.outputs
        .get(name)
        .unwrap_or_else(|| panic!("no output buffer {name}"))
        .bits
        .clone()
}

/// The standard kernel `k(.param .u64 p_out, .param .u64 p_in)`: `%out` and
/// `%in` hold the (global) buffer addresses, `%tx` is %tid.x.
/// `globals` goes before the entry (module scope), `decls` and `body` inside.
pub fn kernel(globals: &str, decls: &str, body: &str) -> String {
    format!(
        "{HEADER}{globals}\n.visible .entry k(.param .u64 p_out, .param .u64 p_in)\n{{\n\
         \t.reg .b64 %out, %in, %pa, %pb, %pc, %pz, %pd, %pe, %t64;\n\
         \t.reg .b32 %tx;\n\
         {decls}\n\
         \tld.param.u64 %out, [p_out];\n\
         \tld.param.u64 %in, [p_in];\n\
         \tcvta.to.global.u64 %out, %out;\n\
         \tcvta.to.global.u64 %in, %in;\n\
         \tmov.u32 %tx, %tid.x;\n\
         {body}\n\
         \tret;\n}}\n"
    )
}

/// Runs `kernel(globals, decls, body)` with `out` (u64 x out_len, zeros) and
/// `in` (u64 bits) buffers.
pub fn run_kernel(
    globals: &str,
    decls: &str,
    body: &str,
    input: Vec<u64>,
    out_len: usize,
    grid: [u32; 3],
    block: [u32; 3],
) -> RunResult {
    run_kernel_limits(
        globals,
        decls,
        body,
        input,
        out_len,
        grid,
        block,
        &RunLimits::default(),
    )
}

#[allow(clippy::too_many_arguments)]
pub fn run_kernel_limits(
    globals: &str,
    decls: &str,
    body: &str,
    input: Vec<u64>,
    out_len: usize,
    grid: [u32; 3],
    block: [u32; 3],
    limits: &RunLimits,
) -> RunResult {
    let src = kernel(globals, decls, body);
    let input = if input.is_empty() { vec![0] } else { input };
    let spec = spec_json(
        grid,
        block,
        &[
            buf("out", "u64", vec![0; out_len.max(1)]),
            buf("in", "u64", input),
        ],
        &[],
    );
    run_src(&src, &spec, limits)
}

/// Runs and requires completion; returns the `out` buffer.
pub fn run_ok(
    decls: &str,
    body: &str,
    input: Vec<u64>,
    out_len: usize,
    grid: [u32; 3],
    block: [u32; 3],
) -> Vec<u64> {
    run_ok_g("", decls, body, input, out_len, grid, block)
}

pub fn run_ok_g(
    globals: &str,
    decls: &str,
    body: &str,
    input: Vec<u64>,
    out_len: usize,
    grid: [u32; 3],
    block: [u32; 3],
) -> Vec<u64> {
    let r = run_kernel(globals, decls, body, input, out_len, grid, block);
    if r.outcome != Outcome::Completed {
        panic!(
            "run did not complete: {:?}\n{}",
            r.outcome,
            numbered(&kernel(globals, decls, body))
        );
    }
    out(&r, "out")
}

// ---------------------------------------------------------------- tables

/// One row of a table: up to 4 input slots (a, b, c, z: 8 bytes each) and
/// up to 2 expected output slots (d, e: 8 bytes each, initially zero).
#[derive(Clone, Debug)]
pub struct Row {
    pub ins: Vec<u64>,
    pub want: Vec<u64>,
    pub note: String,
}

pub fn row(ins: &[u64], want: &[u64], note: &str) -> Row {
    Row {
        ins: ins.to_vec(),
        want: want.to_vec(),
        note: note.to_string(),
    }
}

/// Runs `body` once per row, one thread per row. In the body, `%pa`, `%pb`,
/// `%pc`, `%pz` address the row's four 8-byte input slots and `%pd`, `%pe`
/// its two 8-byte output slots (zero before the run). Returns mismatch lines.
pub fn table_errors(
    title: &str,
    globals: &str,
    decls: &str,
    body: &str,
    rows: &[Row],
) -> Vec<String> {
    assert!(!rows.is_empty() && rows.len() <= 1024);
    let n = rows.len();
    let prologue = "\tmul.wide.u32 %t64, %tx, 32;\n\tadd.s64 %pa, %in, %t64;\n\tadd.s64 %pb, %pa, 8;\n\tadd.s64 %pc, %pa, 16;\n\tadd.s64 %pz, %pa, 24;\n\
                    \tmul.wide.u32 %t64, %tx, 16;\n\tadd.s64 %pd, %out, %t64;\n\tadd.s64 %pe, %pd, 8;\n";
    let full_body = format!("{prologue}{body}");
    let mut input = vec![0u64; 4 * n];
    for (k, r) in rows.iter().enumerate() {
        assert!(
            r.ins.len() <= 4 && r.want.len() <= 2,
            "row {k} of {title} has too many slots"
        );
        input[4 * k..4 * k + r.ins.len()].copy_from_slice(&r.ins);
    }
    let res = run_kernel(
        globals,
        decls,
        &full_body,
        input,
        2 * n,
        [1, 1, 1],
        [n as u32, 1, 1],
    );
    let src = kernel(globals, decls, &full_body);
    if res.outcome != Outcome::Completed {
        return vec![format!(
            "[{title}] run did not complete: {:?}\n{}",
            res.outcome,
            numbered(&src)
        )];
    }
    let got = out(&res, "out");
    let mut errs = Vec::new();
    for (k, r) in rows.iter().enumerate() {
        let g = &got[2 * k..2 * k + r.want.len()];
        if g != r.want.as_slice() {
            let hx = |v: &[u64]| {
                v.iter()
                    .map(|x| format!("0x{x:x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            errs.push(format!(
                "[{title}] row {k} ({}): inputs [{}] expected [{}] got [{}]",
                r.note,
                hx(&r.ins),
                hx(&r.want),
                hx(g)
            ));
        }
    }
    count(rows.len());
    errs
}

/// Several tables; panics listing every mismatch.
pub struct Tables {
    errs: Vec<String>,
}

impl Tables {
    pub fn new() -> Self {
        Tables { errs: Vec::new() }
    }
    pub fn t(&mut self, title: &str, decls: &str, body: &str, rows: Vec<Row>) -> &mut Self {
        self.errs
            .extend(table_errors(title, "", decls, body, &rows));
        self
    }
    pub fn tg(
        &mut self,
        title: &str,
        globals: &str,
        decls: &str,
        body: &str,
        rows: Vec<Row>,
    ) -> &mut Self {
        self.errs
            .extend(table_errors(title, globals, decls, body, &rows));
        self
    }
    pub fn check(&self) {
        if !self.errs.is_empty() {
            let mut s = String::new();
            for e in &self.errs {
                let _ = writeln!(s, "{e}");
            }
            panic!("{} mismatches:\n{s}", self.errs.len());
        }
    }
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

/// Asserts an expected value and counts it as one row.
#[track_caller]
pub fn check_eq<T: PartialEq + std::fmt::Debug>(got: T, want: T, what: &str) {
    count(1);
    assert_eq!(got, want, "{what}");
}

/// 1-based line of the first line of `src` containing `needle`.
pub fn line_of(src: &str, needle: &str) -> u32 {
    src.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("'{needle}' not in source")) as u32
        + 1
}

/// Prints the rows a test checked when dropped (exact with --test-threads=1).
pub struct RowCount {
    name: &'static str,
    start: usize,
}

pub fn rows_of(name: &'static str) -> RowCount {
    RowCount {
        name,
        start: ROWS.load(Ordering::Relaxed),
    }
}

impl Drop for RowCount {
    fn drop(&mut self) {
        eprintln!(
            "ROWS {} {}",
            self.name,
            ROWS.load(Ordering::Relaxed) - self.start
        );
    }
}
