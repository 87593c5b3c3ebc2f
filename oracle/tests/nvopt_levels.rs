//! Acceptance: every corpus kernel (clang -O3, clang -O0 and nvcc PTX)
//! through every `nvopt<>` level (O1..O3 on the default language path,
//! O3 also on the "ptx" and "mid" paths) gives its expected results
//! (NAME.expected.json) in the PTX interpreter. The comparison is the one
//! interp_corpus.rs makes, and the mismatches must be exactly those of
//! the unoptimized input (interp_corpus.rs pins those: convert_round's
//! documented deviations), so any new difference fails. Also: generator
//! seeds 0..200 through `nvopt<O3>`, and 50 seeded random `--passes`
//! lists over the corpus, give the input's outputs.

mod nvopt_support;

use nvopt_support::*;
use oracle::launch::{compare, OutputSet};
use ptxc::nvopt::pipeline::{self, Knobs, Level};

fn optimized_text(name: &str, ptx: &str, p: &pipeline::Pipeline) -> String {
    let m = ptxc::ptx::parse_checked(name, ptx).unwrap();
    let out = ptxc::nvopt::optimize(&m, p);
    assert!(out.skipped.is_empty(), "{name}: {:?}", out.skipped);
    ptxc::ptx::printer::print(&out.module)
}

#[test]
fn every_corpus_kernel_at_every_level_matches_expected() {
    let mut pipelines: Vec<(String, pipeline::Pipeline)> = Level::ALL
        .into_iter()
        .map(|l| {
            let p = pipeline::build(l, &Knobs::default());
            (format!("nvopt<{}>", l.name()), p)
        })
        .collect();
    for lang in ["ptx", "mid"] {
        let knobs = Knobs::parse(&format!("-lang={lang}")).unwrap();
        let p = pipeline::build(Level::O3, &knobs);
        pipelines.push((format!("nvopt<O3> -lang={lang}"), p));
    }
    let mut fails = Vec::new();
    let mut runs = 0;
    for k in kernel_names() {
        let dir = kernels_dir().join(&k);
        let spec =
            oracle::launch::LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let expected = OutputSet::from_file(dir.join(format!("{k}.expected.json"))).unwrap();
        for variant in ["ptx", "O0.ptx", "nvcc.ptx"] {
            let path = dir.join(format!("{k}.{variant}"));
            let Ok(ptx) = std::fs::read_to_string(&path) else {
                continue;
            };
            let name = format!("{k}.{variant}");
            let base = run_text(&name, &ptx, &spec).unwrap();
            let base_mismatches = format!("{:?}", compare(&expected, &base, &spec.compare));
            for (what, p) in &pipelines {
                runs += 1;
                let out = optimized_text(&name, &ptx, p);
                match run_text(&name, &out, &spec) {
                    Err(e) => fails.push(format!("{name} {what}: {e}")),
                    Ok(actual) => {
                        let m = format!("{:?}", compare(&expected, &actual, &spec.compare));
                        if m != base_mismatches {
                            fails.push(format!("{name} {what}: {m}"));
                        }
                    }
                }
            }
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    // 16 kernels x (ptx, O0.ptx) + the nvcc builds, x 7 levels + 2 paths.
    let nvcc = kernel_names()
        .iter()
        .filter(|k| kernels_dir().join(k).join(format!("{k}.nvcc.ptx")).exists())
        .count();
    assert_eq!(runs, (32 + nvcc) * (Level::ALL.len() + 2));
}

#[test]
fn generated_programs_through_o3_keep_their_results() {
    let p = pipeline::build(Level::O3, &Knobs::default());
    let t = |m: &ptxc::ptx::ast::Module| ptxc::nvopt::optimize(m, &p).module;
    let fails = check_all(&gen_inputs(), &t);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn random_pass_lists_keep_corpus_results() {
    let names = ptxc::nvopt::passes::NAMES;
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let inputs = corpus_inputs();
    // Each input's outputs once; each list then runs only its output.
    let base: Vec<_> = inputs
        .iter()
        .map(|i| run_text(&i.name, &i.ptx, &i.spec).unwrap())
        .collect();
    let lists: Vec<String> = (0..50)
        .map(|_| {
            let len = 1 + next() % 12;
            let l: Vec<&str> = (0..len)
                .map(|_| names[(next() % names.len() as u64) as usize])
                .collect();
            l.join(",")
        })
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let fails: Vec<String> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (lists, inputs, base) = (&lists, &inputs, &base);
                sc.spawn(move || {
                    let mut fails = Vec::new();
                    for list in lists.iter().skip(t).step_by(threads) {
                        let p = pipeline::parse_passes(list, &Knobs::default()).unwrap();
                        assert_eq!(&p.pm.text(), list);
                        for (i, want) in inputs.iter().zip(base) {
                            let out = optimized_text(&i.name, &i.ptx, &p);
                            match run_text(&i.name, &out, &i.spec) {
                                Ok(got) if &got == want => {}
                                Ok(_) => fails
                                    .push(format!("--passes={list}: {}: outputs differ", i.name)),
                                Err(e) => fails.push(format!("--passes={list}: {}: {e}", i.name)),
                            }
                        }
                    }
                    fails
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
