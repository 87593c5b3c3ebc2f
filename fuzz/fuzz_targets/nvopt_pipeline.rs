#![no_main]
//! `cargo +nightly fuzz run nvopt_pipeline`: generated programs through
//! random nvopt pass lists and knobs against the PTX interpreter. The body
//! is `oracle::diff::nvopt::fuzz_pipeline`, which `cargo test` also runs on
//! the seeds in `corpus/nvopt_pipeline/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::diff::nvopt::fuzz_pipeline(data));
