//! Prints the simulator's verdict for every vendor SASS listing of the
//! kernel corpus (`cargo run --release --example sim_corpus_scan`).
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let filter = std::env::args().nth(1);
    let (mut pass, mut total) = (0, 0);
    for k in &names {
        for arch in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
            if let Some(f) = &filter {
                if !format!("{k}.{arch}").contains(f.as_str()) {
                    continue;
                }
            }
            let dir = root.join(k);
            let spec = dir.join(format!("{k}.launch.json"));
            let sass = dir.join(format!("{k}.{arch}.sass"));
            let t = std::time::Instant::now();
            let v = oracle::commands::sim::sim(
                &spec,
                &sass,
                arch,
                None,
                None,
                None,
                &Default::default(),
            );
            total += 1;
            match v {
                Ok(v) => {
                    if v.ok {
                        pass += 1;
                    }
                    println!("{k}.{arch} [{:.2}s] {}", t.elapsed().as_secs_f64(), v.line);
                }
                Err(e) => println!("{k}.{arch} ERROR {e}"),
            }
        }
    }
    println!("{pass}/{total} pass");
}
