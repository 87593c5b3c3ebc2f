#![no_main]
//! `cargo +nightly fuzz run parse`: the PTX front end on arbitrary bytes.
//! The body is `oracle::fuzz_targets::parse`, which `cargo test` also runs on
//! the seeds in `corpus/parse/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::parse(data));
