//! Front-end throughput and AST memory on a large PTX file: the whole kernel
//! corpus (clang -O2, -O0 and nvcc PTX) concatenated until it is about 64 MB.
//! Prints MB/s for lexing+parsing and for parse+validate, and the AST's live
//! heap size and the peak heap during parsing, both relative to the input.
//! Targets (issue 2): parsing at least 100 MB/s on one core; AST under 10x.
//!
//! `cargo bench -p ptxc --bench parse_throughput`

use std::alloc::{GlobalAlloc, Layout};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// Counts live and peak heap bytes.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { mimalloc::MiMalloc.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = LIVE.fetch_add(new - l.size(), Relaxed) + new - l.size();
                PEAK.fetch_max(now, Relaxed);
            } else {
                LIVE.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static A: Counting = Counting;

fn corpus_text() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut files = Vec::new();
    for k in std::fs::read_dir(&dir).unwrap() {
        let k = k.unwrap().path();
        if k.is_dir() {
            for f in std::fs::read_dir(&k).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|x| x == "ptx") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    let one: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    // PTXC_BENCH_MB sets the input size (default 64; small sizes suit callgrind).
    let mb: usize = std::env::var("PTXC_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let target = mb << 20;
    one.repeat(target / one.len() + 1)
}

/// Best time of `runs`; the result is dropped outside the timed region.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let out = std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
        drop(out);
    }
    best
}

fn main() {
    // PTXC_BENCH_ONLY=lex|parse runs one section once (for profilers).
    if let Ok(only) = std::env::var("PTXC_BENCH_ONLY") {
        let text = corpus_text();
        match only.as_str() {
            "lex" => {
                std::hint::black_box(ptxc::ptx::lexer::lex(&text, &mut Vec::new()).len());
            }
            _ => {
                std::hint::black_box(ptxc::ptx::parser::parse(&text));
            }
        }
        return;
    }
    let text = corpus_text();
    let mb = text.len() as f64 / 1e6;
    println!(
        "input: {:.1} MB of PTX (the kernel corpus, concatenated)",
        mb
    );

    let lex = best_of(3, || {
        let mut d = Vec::new();
        ptxc::ptx::lexer::lex(&text, &mut d).len()
    });
    println!("lex:              {:8.1} MB/s", mb / lex);

    let parse = best_of(7, || ptxc::ptx::parser::parse(&text));
    println!(
        "lex+parse:        {:8.1} MB/s   (target >= 100 MB/s)",
        mb / parse
    );

    // Validation needs a well-formed module: one corpus file at a time.
    let one_file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/kernels/libdevice_math/libdevice_math.nvcc.ptx"),
    )
    .unwrap();
    let reps = (16 << 20) / one_file.len();
    let pv = best_of(3, || {
        for _ in 0..reps {
            std::hint::black_box(ptxc::ptx::parse_and_validate(&one_file).1.len());
        }
    });
    println!(
        "parse+validate:   {:8.1} MB/s   (libdevice_math.nvcc.ptx x{reps})",
        (one_file.len() * reps) as f64 / 1e6 / pv
    );

    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let (module, diags) = ptxc::ptx::parser::parse(&text);
    let live = LIVE.load(Relaxed) - before;
    let peak = PEAK.load(Relaxed) - before;
    println!(
        "AST heap:         {:8.1} MB  = {:.2}x the input   (target < 10x)",
        live as f64 / 1e6,
        live as f64 / text.len() as f64
    );
    println!(
        "peak during parse:{:8.1} MB  = {:.2}x the input (tokens + AST)",
        peak as f64 / 1e6,
        peak as f64 / text.len() as f64
    );
    std::hint::black_box((module, diags));
}
