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

/// The compiler targets on their committed seeds: every seed's program
/// (and configuration) must pass, so a fuzzer crash saved there is a
/// regression test. A few more programs from the seeds' byte streams,
/// shifted, widen the check at little cost.
fn compiler_target(name: &str, target: fn(&[u8])) {
    let files = seeds(name);
    assert!(files.len() >= 6, "{name}: {} seeds", files.len());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        target(&bytes);
        if bytes.len() > 64 {
            target(&bytes[17..]);
        }
    }
}

#[test]
fn phase_order_target_on_seeds() {
    compiler_target("phase_order", oracle::fuzz_targets::phase_order);
}

#[test]
fn arch_matrix_target_on_seeds() {
    compiler_target("arch_matrix", oracle::fuzz_targets::arch_matrix);
}

#[test]
fn ori_shuffle_target_on_seeds() {
    compiler_target("ori_shuffle", oracle::fuzz_targets::ori_shuffle);
}

#[test]
fn nan_or_zero_target_on_seeds() {
    compiler_target("nan_or_zero", oracle::fuzz_targets::nan_or_zero);
}

#[test]
fn tex_nodep_target_on_seeds() {
    compiler_target("tex_nodep", oracle::fuzz_targets::tex_nodep);
}

#[test]
fn hoist_invariants_target_on_seeds() {
    compiler_target("hoist_invariants", oracle::fuzz_targets::hoist_invariants);
}
