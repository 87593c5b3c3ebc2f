//! The `nvopt_pipeline` fuzz target on its committed seeds
//! (`corpus/nvopt_pipeline/`): each seed's program through its pass list
//! or level and knobs keeps the oracle's outputs (the target panics,
//! naming the first departing pass, otherwise), and the seeds cover both
//! kinds of pipeline and the module passes.

use std::path::Path;

use oracle::diff::nvopt::{fuzz_case, fuzz_pipeline};

fn seeds() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/nvopt_pipeline");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

#[test]
fn nvopt_pipeline_target_on_seeds() {
    let seeds = seeds();
    assert_eq!(seeds.len(), 8);
    let mut lists = 0;
    let mut levels = 0;
    let mut module_passes = 0;
    let mut valid = 0;
    for s in &seeds {
        for bytes in [&s[..], &s[17..]] {
            fuzz_pipeline(bytes);
            let (text, _, p) = fuzz_case(bytes);
            valid += usize::from(
                oracle::diff::run::run_oracle(&p, &oracle::ptx_interp::RunLimits::default())
                    .is_ok(),
            );
            if text.starts_with("nvopt<") {
                levels += 1;
            } else {
                lists += 1;
                module_passes +=
                    usize::from(text.split(',').any(ptxc::nvopt::passes::is_module_pass));
            }
        }
    }
    eprintln!(
        "lists {lists}, levels {levels}, lists with module passes {module_passes}, valid programs {valid}"
    );
    assert!(lists > 0 && levels > 0 && module_passes > 0);
    // Programs the oracle accepts (the others return early).
    assert!(valid > 0);
}
