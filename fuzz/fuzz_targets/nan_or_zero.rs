#![no_main]
//! `cargo +nightly fuzz run nan_or_zero`: generated programs through ptxc and the
//! simulator against the PTX interpreter. The body is
//! `oracle::fuzz_targets::nan_or_zero`, which `cargo test` also runs on the seeds
//! in `corpus/nan_or_zero/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::nan_or_zero(data));
