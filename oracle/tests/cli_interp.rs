//! `ptxdiff interp`: one-line verdict, exit status 0 on a pass, 1 on a
//! mismatch or fault, 2 on a usage or setup error; `--dump` writes outputs.

mod common;
use common::{kernels, ptxdiff};

#[test]
fn a_passing_kernel_prints_pass_and_exits_zero() {
    let spec = kernels().join("saxpy_div/saxpy_div.launch.json");
    let (code, out) = ptxdiff(&["interp", spec.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("saxpy_div: PASS"), "{out}");
}

#[test]
fn a_mismatch_names_buffer_index_and_values_and_exits_one() {
    // convert_round's expected file contradicts the ISA for NaN -> s64
    // (see interp_corpus.rs), so the verdict is a mismatch naming ol[14].
    let spec = kernels().join("convert_round/convert_round.launch.json");
    let ptx = kernels().join("convert_round/convert_round.nvcc.ptx");
    let (code, out) = ptxdiff(&[
        "interp",
        spec.to_str().unwrap(),
        "--ptx",
        ptx.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("MISMATCH"), "{out}");
    assert!(
        out.contains("ol[14]: expected 0x0000000000000000 (0), got 0x8000000000000000"),
        "{out}"
    );
}

#[test]
fn dump_writes_outputs_that_read_back_as_the_expected_file() {
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("out.json");
    let spec = kernels().join("block_reduce/block_reduce.launch.json");
    let (code, out) = ptxdiff(&[
        "interp",
        spec.to_str().unwrap(),
        "--dump",
        dump.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let got = oracle::launch::OutputSet::from_file(&dump).unwrap();
    let want = oracle::launch::OutputSet::from_file(
        kernels().join("block_reduce/block_reduce.expected.json"),
    )
    .unwrap();
    assert_eq!(got, want);
}

#[test]
fn faults_and_usage_errors_have_their_own_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    // A kernel that stores past its only buffer.
    std::fs::write(
        dir.path().join("oob.ptx"),
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b64 %rd<2>;\n\
         \tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tst.global.u32 [%rd1+4], 7;\n\tret;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("oob.launch.json"),
        r#"{"ptx": "oob.ptx", "kernel": "k", "grid": [1], "block": [1], "params": [{"buffer": "out"}],
            "buffers": {"out": {"type": "u32", "len": 1, "init": "zeros"}}}"#,
    )
    .unwrap();
    let (code, out) = ptxdiff(&[
        "interp",
        dir.path().join("oob.launch.json").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAULT") && out.contains("0x10000004") && out.contains("line 9"),
        "{out}"
    );
    let (code, out) = ptxdiff(&[
        "interp",
        dir.path().join("missing.launch.json").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}");
    let (code, _) = ptxdiff(&["interp"]);
    assert_eq!(code, 2);
}
