//! Every kernel x architecture of the vendor SASS corpus through the SM
//! simulator, compared with `NAME.expected.json`.
//!
//! The pairs expected to fail are listed with the reason; the test fails on
//! a regression *and* on an unexpected pass (update the list then). A pair
//! whose listing reads constant bank 2 or 3 needs `NAME.sm_XX.banks.json`:
//! while that file is absent it must fail with a "bank N is missing"
//! fault, once present it must pass. A pair whose banks file carries code
//! relocations (libdevice_math: the address of the module's `.global
//! __cudart_i2opi_f`, which cuobjdump prints unrelocated as `UMOV UR6,
//! 0x0`) must pass with them and fault on address 0 without them.

use oracle::commands::sim::{default_banks_path, run_sass};
use oracle::launch::{compare, LaunchSpec, OutputSet};
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use std::path::{Path, PathBuf};

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// Why a pair is expected to fail.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Known {
    /// The expected file turns NaN into 0 for every float->int conversion
    /// (its CPU emulation); PTX cvt and SASS F2I without `.NTZ` give
    /// `1 << (N-1)` for 64-bit destinations and f64 sources. The PTX
    /// interpreter gets the same mismatches; the test checks that the
    /// simulator's outputs equal the interpreter's bit for bit.
    ExpectedNanToZero,
}

fn known(kernel: &str, arch: &str) -> Option<Known> {
    match (kernel, arch) {
        ("convert_round", _) => Some(Known::ExpectedNanToZero),
        _ => None,
    }
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

fn kernels() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn reads_bank_2_or_3(sass: &str) -> bool {
    sass.contains("c[0x2]") || sass.contains("c[0x3]")
}

#[test]
fn vendor_sass_corpus() {
    let limits = RunLimits::default();
    let mut problems = Vec::new();
    let mut table = Vec::new();
    let (mut pass, mut total, mut relocated) = (0, 0, 0);
    for k in kernels() {
        let dir = corpus().join(&k);
        let spec_path = dir.join(format!("{k}.launch.json"));
        let spec = LaunchSpec::from_file(&spec_path).unwrap();
        let expected = OutputSet::from_file(dir.join(format!("{k}.expected.json"))).unwrap();
        for arch in ARCHS {
            total += 1;
            let sass_path = dir.join(format!("{k}.{arch}.sass"));
            let text = std::fs::read_to_string(&sass_path).unwrap();
            let banks_path = default_banks_path(&sass_path).unwrap();
            let has_banks = banks_path.exists();
            let inputs = SimInputs::from_banks_file(&banks_path).unwrap();
            let r = run_sass(&spec, &text, &k, arch, None, &inputs, &limits)
                .unwrap_or_else(|e| panic!("{k}.{arch}: {e}"));
            let ok = r.outcome == Outcome::Completed
                && compare(&expected, &r.outputs, &spec.compare).is_empty();
            let status = match &r.outcome {
                Outcome::Completed if ok => "PASS".to_string(),
                Outcome::Completed => "MISMATCH".to_string(),
                o => format!("{o:?}").chars().take(160).collect(),
            };
            table.push(format!("{k}.{arch}: {status}"));
            if ok {
                pass += 1;
            }
            if !inputs.relocs.is_empty() {
                relocated += 1;
                let bare = SimInputs {
                    relocs: Vec::new(),
                    ..inputs.clone()
                };
                let u = run_sass(&spec, &text, &k, arch, None, &bare, &limits).unwrap();
                match &u.outcome {
                    Outcome::Fault { message, .. }
                        if message.contains("at 0x0 is outside every buffer") => {}
                    o => problems.push(format!(
                        "{k}.{arch}: without its relocations it should fault on address 0, got {o:?}"
                    )),
                }
            }
            let want = known(&k, arch);
            let missing_banks = !has_banks && reads_bank_2_or_3(&text);
            if missing_banks {
                match &r.outcome {
                    Outcome::Fault { message, .. } if message.contains("is missing") => continue,
                    // A listed failure may come first.
                    _ if want.is_some() && !ok => {}
                    o => {
                        problems.push(format!(
                            "{k}.{arch}: without a banks file it should fault on the missing bank, got {o:?}"
                        ));
                        continue;
                    }
                }
            }
            match (ok, want) {
                (true, None) => {}
                (true, Some(w)) => {
                    problems.push(format!("{k}.{arch}: unexpected pass (listed as {w:?})"))
                }
                (false, None) => problems.push(format!("{k}.{arch}: regression: {status}")),
                (false, Some(Known::ExpectedNanToZero)) => {
                    // Same outputs as the PTX interpreter, bit for bit.
                    let ptx_path = dir.join(format!("{k}.ptx"));
                    let src = std::fs::read_to_string(&ptx_path).unwrap();
                    let m = ptxc::ptx::parse_checked(&k, &src).unwrap();
                    let i = ptx_interp::run(&m, &src, &spec, &limits).unwrap();
                    assert_eq!(i.outcome, Outcome::Completed);
                    if r.outcome != Outcome::Completed || i.outputs != r.outputs {
                        problems.push(format!(
                            "{k}.{arch}: outputs differ from the PTX interpreter's"
                        ));
                    }
                }
            }
        }
    }
    println!("{}", table.join("\n"));
    println!("{pass}/{total} pairs pass");
    // libdevice_math on all six targets.
    assert_eq!(relocated, 6, "pairs whose banks file has relocations");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
