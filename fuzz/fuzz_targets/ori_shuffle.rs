#![no_main]
//! `cargo +nightly fuzz run ori_shuffle`: generated programs through ptxc and the
//! simulator against the PTX interpreter. The body is
//! `oracle::fuzz_targets::ori_shuffle`, which `cargo test` also runs on the seeds
//! in `corpus/ori_shuffle/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::ori_shuffle(data));
