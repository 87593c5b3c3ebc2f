#![no_main]
//! `cargo +nightly fuzz run hoist_invariants`: generated programs through ptxc and the
//! simulator against the PTX interpreter. The body is
//! `oracle::fuzz_targets::hoist_invariants`, which `cargo test` also runs on the seeds
//! in `corpus/hoist_invariants/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::hoist_invariants(data));
