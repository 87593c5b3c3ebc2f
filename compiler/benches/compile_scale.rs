//! Compile time against kernel size, per kernel shape: the scaling a
//! nightly run meets on large real kernels (unrolled loops, high register
//! pressure, long if-convertible chains). Each shape is compiled at -O3 for
//! sm_90 at sizes n and 2n; the time ratio is about 2 for a linear
//! pipeline, and a ratio of 3 or more is flagged superlinear.
//!
//! `cargo bench -p ptxc --bench compile_scale` (add a shape name to run
//! one). Measured (this project's 2-core VM) before the fixes named in
//! each shape's comment are in the closing notes of the sessions that made
//! them.

use std::fmt::Write;
use std::time::Instant;

const HEAD: &str = ".version 7.8\n.target sm_90\n.address_size 64\n\
    .visible .entry k(.param .u64 out, .param .u64 inp)\n{\n";

fn kernel(regs: usize, body: &str) -> String {
    format!(
        "{HEAD}.reg .b32 %r<{regs}>; .reg .b64 %rd<8>; .reg .pred %p<4>;\n\
         ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [inp];\n\
         cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;\n\
         mov.u32 %r1, %tid.x; mov.u32 %r2, 7;\n{body}\
         mul.wide.u32 %rd3, %r1, 4; add.s64 %rd3, %rd1, %rd3; st.global.u32 [%rd3], %r2;\n\
         ret;\n}}\n"
    )
}

/// A dependent chain of `mad`.
fn straight(n: usize) -> String {
    let mut b = String::new();
    for i in 0..n {
        writeln!(b, "mad.lo.s32 %r2, %r2, {}, %r1;", i % 13 + 3).unwrap();
    }
    kernel(8, &b)
}

/// `n` loaded values live at once (register allocation's colouring and
/// repair under pressure: 300 took 29 s before `regalloc/repair.rs`; 512
/// took 32 s, a round per spill, before `colour::pressure_victims`).
fn pressure(n: usize) -> String {
    let mut b = String::new();
    for i in 0..n {
        writeln!(b, "ld.global.u32 %r{}, [%rd2+{}];", i + 10, 4 * i).unwrap();
    }
    for i in (0..n).rev() {
        writeln!(
            b,
            "mad.lo.s32 %r2, %r2, %r{}, %r{};",
            i + 10,
            (i * 7) % n + 10
        )
        .unwrap();
    }
    kernel(n + 20, &b)
}

/// `n` if-convertible branches in a row (OriDoPredication: 8000 took
/// 35 s when it restarted its search after each conversion).
fn chain(n: usize) -> String {
    let mut b = String::new();
    for i in 0..n {
        writeln!(
            b,
            "setp.lt.s32 %p1, %r2, {}; @%p1 bra L{i}; add.s32 %r2, %r2, 1; L{i}:",
            i * 3 + 1
        )
        .unwrap();
    }
    kernel(8, &b)
}

/// Loops nested `n` deep, each counter live throughout.
fn nested(n: usize) -> String {
    let mut b = String::new();
    for i in 0..n {
        writeln!(b, "mov.u32 %r{}, 0; L{i}:", 10 + i).unwrap();
    }
    b.push_str("add.s32 %r2, %r2, 1;\n");
    for i in (0..n).rev() {
        writeln!(
            b,
            "add.s32 %r{0}, %r{0}, 1; setp.lt.u32 %p1, %r{0}, 2; @%p1 bra L{i};",
            10 + i
        )
        .unwrap();
    }
    kernel(n + 20, &b)
}

/// `n` small loops in a row.
fn loops(n: usize) -> String {
    let mut b = String::new();
    for i in 0..n {
        writeln!(
            b,
            "mov.u32 %r4, 0; L{i}: add.s32 %r2, %r2, %r4; add.s32 %r4, %r4, 1; \
             setp.lt.u32 %p1, %r4, 3; @%p1 bra L{i};"
        )
        .unwrap();
    }
    kernel(8, &b)
}

/// `n` load/add/store triples in one block (the scheduler's dependence
/// graph keeps every ordered pair).
fn memory(n: usize) -> String {
    let mut b = String::new();
    for i in 0..n {
        writeln!(
            b,
            "ld.global.u32 %r3, [%rd2+{}]; add.s32 %r2, %r2, %r3; st.global.u32 [%rd1+{}], %r2;",
            4 * (i % 256),
            4 * (i % 64)
        )
        .unwrap();
    }
    kernel(8, &b)
}

type Shape = (&'static str, fn(usize) -> String, usize);

const SHAPES: &[Shape] = &[
    ("straight", straight, 2000),
    ("pressure", pressure, 256),
    ("chain", chain, 1000),
    ("nested", nested, 256),
    ("loops", loops, 250),
    ("memory", memory, 500),
];

fn seconds(src: &str) -> f64 {
    let opts = ptxc::driver::DriverOptions {
        arch: ptxc::targets::lookup_sm("sm_90"),
        opt_level: 3,
        ..Default::default()
    };
    let t = Instant::now();
    let rep = ptxc::driver::compile("scale.ptx", src, &opts, None);
    let s = t.elapsed().as_secs_f64();
    if let Err(e) = rep.result {
        panic!("the kernel does not compile: {e}");
    }
    s
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!("compile time, -O3 sm_90, at sizes n and 2n");
    for &(name, make, n) in SHAPES {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let (a, b) = (seconds(&make(n)), seconds(&make(2 * n)));
        let ratio = b / a.max(1e-9);
        println!(
            "  {name:<9} n={n:<5} {a:>8.3} s   2n {b:>8.3} s   ratio {ratio:>5.2}{}",
            if ratio >= 3.0 { "  superlinear" } else { "" }
        );
    }
}
