#![no_main]
//! `cargo +nightly fuzz run sass_roundtrip`: the SASS text layer and the
//! IR's print/parse round trip on arbitrary bytes. The body is
//! `oracle::fuzz_targets::sass_roundtrip`, which `cargo test` also runs on
//! the seeds in `corpus/sass_roundtrip/`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| oracle::fuzz_targets::sass_roundtrip(data));
