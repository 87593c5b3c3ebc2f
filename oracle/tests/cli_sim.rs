//! `ptxdiff sim`: one-line verdict, exit status 0 on a pass, 1 on a
//! mismatch or fault, 2 on a usage or setup error.

mod common;
use common::{kernels, ptxdiff};

fn pair(k: &str, arch: &str) -> (String, String) {
    let d = kernels().join(k);
    (
        d.join(format!("{k}.launch.json")).display().to_string(),
        d.join(format!("{k}.{arch}.sass")).display().to_string(),
    )
}

#[test]
fn a_passing_listing_prints_pass_and_exits_zero() {
    let (spec, sass) = pair("block_reduce", "sm_80");
    let (code, out) = ptxdiff(&["sim", &spec, "--sass", &sass, "--arch", "sm_80"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("block_reduce: PASS"), "{out}");
}

#[test]
fn a_fault_names_pc_thread_and_instruction_and_exits_one() {
    // Without its banks file's relocations, the listing reads a module
    // global through the unrelocated address 0.
    let (spec, sass) = pair("libdevice_math", "sm_80");
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("none.banks.json");
    std::fs::write(&empty, "{}").unwrap();
    let empty = empty.display().to_string();
    let (code, out) = ptxdiff(&[
        "sim", &spec, "--sass", &sass, "--arch", "sm_80", "--banks", &empty,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("libdevice_math: FAULT: global access"),
        "{out}"
    );
    assert!(
        out.contains("tid (5,0,0)") && out.contains("/*0a10*/"),
        "{out}"
    );
}

#[test]
fn a_mismatch_exits_one() {
    let (spec, sass) = pair("convert_round", "sm_86");
    let (code, out) = ptxdiff(&["sim", &spec, "--sass", &sass, "--arch", "sm_86"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("MISMATCH") && out.contains("ol[14]"), "{out}");
}

#[test]
fn banks_default_beside_the_listing_and_can_be_overridden() {
    let (spec, sass) = pair("switch_local", "sm_80");
    // The default is the banks file beside the listing.
    assert!(kernels()
        .join("switch_local/switch_local.sm_80.banks.json")
        .exists());
    let (code, out) = ptxdiff(&["sim", &spec, "--sass", &sass, "--arch", "sm_80"]);
    assert_eq!(code, 0, "{out}");
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("none.banks.json");
    std::fs::write(&empty, "{}").unwrap();
    let (code, out) = ptxdiff(&[
        "sim",
        &spec,
        "--sass",
        &sass,
        "--arch",
        "sm_80",
        "--banks",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("constant bank 3 is missing"), "{out}");
}

#[test]
fn usage_errors_exit_two() {
    let (spec, sass) = pair("block_reduce", "sm_80");
    let (code, out) = ptxdiff(&["sim", &spec, "--sass", &sass]);
    assert_eq!(code, 2, "{out}");
    let (code, out) = ptxdiff(&["sim", &spec, "--sass", &sass, "--arch", "sm_99"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("unknown target"), "{out}");
    let (code, _) = ptxdiff(&["sim", &spec, "--bogus"]);
    assert_eq!(code, 2);
}
