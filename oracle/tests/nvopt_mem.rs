//! The memory passes (MemorySpaceOpt, SROA, DSE, GVN) against the PTX
//! interpreter, and issue 8's acceptance check for the size benchmark.
//!
//! Per pass: for every corpus kernel (clang -O3 and -O0 PTX) and generator
//! seeds 0..200, lifting, running the pass on every function and printing
//! gives PTX the front end accepts, the interpreter gives the input's
//! outputs, and the SSA form verifies; the pass must change at least one
//! function. Acceptance: each kernel's `nvopt<O3>` of its -O0 PTX (the
//! text compiler/benches/nvopt_size.rs measures) gives NAME.expected.json
//! with exactly the mismatches the -O0 input has (none but
//! convert_round's documented ones, pinned by interp_corpus.rs).

mod nvopt_support;

use nvopt_support::*;
use oracle::launch::{compare, LaunchSpec, OutputSet};

#[test]
fn memory_space_opt_preserves_results() {
    check_pass("memory-space-opt");
}

#[test]
fn sroa_preserves_results() {
    check_pass("sroa");
}

#[test]
fn dse_preserves_results() {
    check_pass("dse");
}

#[test]
fn gvn_preserves_results() {
    check_pass("gvn");
}

#[test]
fn o3_of_every_o0_kernel_gives_expected_results() {
    let mut fails = Vec::new();
    let names = kernel_names();
    for k in &names {
        let dir = kernels_dir().join(k);
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let expected = OutputSet::from_file(dir.join(format!("{k}.expected.json"))).unwrap();
        let o0 = std::fs::read_to_string(dir.join(format!("{k}.O0.ptx"))).unwrap();
        let o2 = std::fs::read_to_string(dir.join(format!("{k}.ptx"))).unwrap();
        let (row, text) = ptxc::nvopt::size::measure(k, &o0, &o2, &Default::default()).unwrap();
        assert!(row.nvopt < row.o0, "{k}: {row:?}");
        let base = run_text(k, &o0, &spec).unwrap();
        let want = format!("{:?}", compare(&expected, &base, &spec.compare));
        match run_text(&format!("{k}<nvopt O3>"), &text, &spec) {
            Err(e) => fails.push(format!("{k}: {e}")),
            Ok(got) => {
                let m = format!("{:?}", compare(&expected, &got, &spec.compare));
                if m != want {
                    fails.push(format!("{k}: {m}\n{text}"));
                }
            }
        }
    }
    assert_eq!(names.len(), 16);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
