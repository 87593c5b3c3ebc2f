#![no_main]
//! `cargo +nightly fuzz run tex_nodep`: generated programs through ptxc and the
//! simulator against the PTX interpreter. The body is
//! `oracle::fuzz_targets::tex_nodep`, which `cargo test` also runs on the seeds
//! in `corpus/tex_nodep/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::tex_nodep(data));
