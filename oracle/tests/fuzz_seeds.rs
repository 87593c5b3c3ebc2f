//! Runs each fuzz target's body on its committed seeds (corpus/<target>/),
//! so every saved fuzzer input is a regression test.

use std::path::Path;

fn seeds(target: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(target);
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

#[test]
fn parse_target_on_seeds() {
    let files = seeds("parse");
    assert!(!files.is_empty());
    for f in files {
        oracle::fuzz_targets::parse(&std::fs::read(&f).unwrap());
    }
}

#[test]
fn parse_target_survives_mangled_inputs() {
    // Deterministic mutations of every seed: truncations at many points and
    // byte flips. The target panics on any front-end panic or round-trip
    // failure, so surviving these is the property.
    for f in seeds("parse") {
        let bytes = std::fs::read(&f).unwrap();
        let n = bytes.len();
        for cut in (0..n).step_by((n / 97).max(1)) {
            oracle::fuzz_targets::parse(&bytes[..cut]);
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            let mut m = bytes.clone();
            for _ in 0..4 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let i = (state as usize) % n;
                m[i] = (state >> 32) as u8;
            }
            oracle::fuzz_targets::parse(&m);
        }
    }
}

#[test]
fn sass_roundtrip_target_on_seeds_and_mangled_inputs() {
    let files = seeds("sass_roundtrip");
    assert!(files.len() >= 5);
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        oracle::fuzz_targets::sass_roundtrip(&bytes);
        let n = bytes.len();
        for cut in (0..n).step_by((n / 61).max(1)) {
            oracle::fuzz_targets::sass_roundtrip(&bytes[..cut]);
        }
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..150 {
            let mut m = bytes.clone();
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let i = (state as usize) % n;
                m[i] = (state >> 32) as u8;
            }
            oracle::fuzz_targets::sass_roundtrip(&m);
        }
    }
}
