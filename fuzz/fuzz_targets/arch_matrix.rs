#![no_main]
//! `cargo +nightly fuzz run arch_matrix`: generated programs through ptxc and the
//! simulator against the PTX interpreter. The body is
//! `oracle::fuzz_targets::arch_matrix`, which `cargo test` also runs on the seeds
//! in `corpus/arch_matrix/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::arch_matrix(data));
