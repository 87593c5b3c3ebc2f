//! The per-thread analysis cache (`ptxc::ir::analysis_cache`) changes
//! nothing a compile produces: generated programs and the corpus kernels,
//! under the default order, seeded reorders, the ORI shuffles and a
//! register limit, compile to the same listing with the cache and with it
//! bypassed. A pass remembered as "changes nothing" that in fact depends
//! on more than the function's content, or a stale liveness, shows here
//! as a different listing.

mod common;

use oracle::diff::matrix::{Config, Variant, ORI_SHUFFLES};
use oracle::gen::{generate, GenConfig};
use ptxc::driver;
use ptxc::ir::analysis_cache::bypassed;
use ptxc::targets::lookup_sm;

/// The whole listing of `ptx` under `cfg`, compiled on this thread.
fn listing(name: &str, ptx: &str, kernel: &str, cfg: &Config) -> Result<String, String> {
    let mut opts = cfg.driver_options(kernel);
    if kernel.is_empty() {
        // A corpus module: every entry.
        opts.entries.clear();
    }
    // The cache and its bypass are per thread: compile on this one.
    opts.threads = 1;
    driver::compile(name, ptx, &opts, None)
        .result
        .map(|o| o.sass)
        .map_err(|e| e.to_string())
}

fn configs() -> Vec<Config> {
    let sm = |n| lookup_sm(n).unwrap();
    let mut limited = Config::ptxc(sm("sm_80"), 3, Variant::Default);
    limited.maxrregcount = Some(24);
    vec![
        Config::ptxc(sm("sm_70"), 3, Variant::Default),
        Config::ptxc(sm("sm_90"), 3, Variant::Reorder(7)),
        Config::ptxc(sm("sm_86"), 2, Variant::Reorder(11)),
        Config::ptxc(sm("sm_80"), 3, Variant::Knobs(ORI_SHUFFLES[0].into())),
        Config::ptxc(sm("sm_75"), 3, Variant::Knobs(ORI_SHUFFLES[1].into())),
        limited,
    ]
}

#[test]
fn listings_are_the_same_with_the_cache_bypassed() {
    let mut programs: Vec<(String, String, String)> = (1..=8u64)
        .map(|s| {
            let p = generate(s, &GenConfig::default());
            (format!("gen_{s}"), p.ptx.clone(), p.spec.kernel.clone())
        })
        .collect();
    for e in std::fs::read_dir(common::kernels()).unwrap() {
        let d = e.unwrap().path();
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        if let Ok(ptx) = std::fs::read_to_string(d.join(format!("{name}.ptx"))) {
            programs.push((name, ptx, String::new()));
        }
    }
    let (mut compared, mut compiled) = (0, 0);
    for (name, ptx, kernel) in &programs {
        for cfg in configs() {
            let cached = listing(name, ptx, kernel, &cfg);
            let fresh = bypassed(|| listing(name, ptx, kernel, &cfg));
            assert_eq!(cached, fresh, "{name} under {}", cfg.label());
            compared += 1;
            compiled += usize::from(cached.is_ok());
        }
    }
    assert!(programs.len() >= 16, "{} programs", programs.len());
    // Errors compare too, but most must compile for the check to mean
    // anything.
    assert!(
        compiled * 10 >= compared * 9,
        "{compiled} of {compared} compiled"
    );
}
