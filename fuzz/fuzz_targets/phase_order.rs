#![no_main]
//! `cargo +nightly fuzz run phase_order`: generated programs through ptxc and the
//! simulator against the PTX interpreter. The body is
//! `oracle::fuzz_targets::phase_order`, which `cargo test` also runs on the seeds
//! in `corpus/phase_order/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::phase_order(data));
