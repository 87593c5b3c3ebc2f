//! Issue 8's acceptance benchmark: for every corpus kernel, `nvopt<O3>` on
//! clang's -O0 PTX against clang's -O2 PTX, in PTX instructions counted by
//! `ptxc::nvopt::size::instruction_count` on both sides. Prints the table
//! (kernel, -O0 count, `nvopt<O3>` count, clang -O2 count, ratio) and the
//! geometric mean of the ratios; the target is at most 1.3 for each kernel
//! and for the mean. Run: `cargo bench -p ptxc --bench nvopt_size`;
//! `NVOPT_OPT="-lang=mid"` in the environment passes `-opt` knobs (the
//! language path, a disabled pass) to compare pipelines.

use ptxc::nvopt::pipeline::Knobs;
use ptxc::nvopt::size::{geomean, measure, table};
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus/kernels")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    names.sort();
    let opt = std::env::var("NVOPT_OPT").unwrap_or_default();
    let knobs = Knobs::parse(&opt).unwrap_or_else(|e| {
        eprintln!("NVOPT_OPT: {e}");
        std::process::exit(2)
    });
    if !opt.is_empty() {
        println!("nvopt<O3> with -opt \"{opt}\"");
    }
    let mut rows = Vec::new();
    let mut failed = false;
    let start = std::time::Instant::now();
    for k in &names {
        let read = |f: String| std::fs::read_to_string(dir.join(k).join(f));
        let (Ok(o0), Ok(o2)) = (read(format!("{k}.O0.ptx")), read(format!("{k}.ptx"))) else {
            eprintln!("{k}: NAME.O0.ptx or NAME.ptx missing");
            failed = true;
            continue;
        };
        match measure(k, &o0, &o2, &knobs) {
            Ok((row, _)) => rows.push(row),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    print!("{}", table(&rows));
    let over: Vec<&str> = rows
        .iter()
        .filter(|r| r.ratio() > 1.3)
        .map(|r| r.kernel.as_str())
        .collect();
    println!(
        "{} kernels in {:.2?}; over 1.3x: {}; geomean {} 1.3",
        rows.len(),
        start.elapsed(),
        if over.is_empty() {
            "none".to_string()
        } else {
            over.join(", ")
        },
        if geomean(&rows) <= 1.3 { "<=" } else { ">" }
    );
    if failed {
        std::process::exit(1);
    }
}
