//! `ptxdiff check SPEC [--arch sm_XX] [ptxc flags]`: one-line verdict; exit
//! 0 when ptxc+simulator and the interpreter agree (and match the expected
//! file), 1 otherwise, 2 on a usage or setup error.

mod common;
use common::ptxdiff_out as ptxdiff;

use std::path::Path;

fn spec(k: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../corpus/kernels/{k}/{k}.launch.json"))
        .display()
        .to_string()
}

#[test]
fn agreeing_kernel_exits_zero_with_one_line() {
    let (code, out, err) = ptxdiff(&["check", &spec("saxpy_div"), "--arch", "sm_80"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "saxpy_div sm_80: AGREE: ptxc+sim PASS; interp PASS\n");
}

#[test]
fn ptxc_flags_are_passed_through() {
    // A callee (double_noinline), threads and -O0; the target from the module.
    let (code, out, err) = ptxdiff(&[
        "check",
        &spec("double_noinline"),
        "-O0",
        "--threads",
        "2",
        "-flcm=cg",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("double_noinline sm_70: AGREE"), "{out}");
    let (code, _, err) = ptxdiff(&["check", &spec("saxpy_div"), "--bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("Unknown option '--bogus'"), "{err}");
}

#[test]
fn compile_errors_and_disagreements_exit_one() {
    // A module ptxc refuses: saxpy_div with a `txq.force_unnormalized_coords` (not lowered
    // on sm_90: no table content agrees with the interpreter there,
    // compiler/src/lower/resinfo.rs).
    let dir = tempfile::tempdir().unwrap();
    let k = std::path::Path::new(&spec("saxpy_div"))
        .parent()
        .unwrap()
        .to_path_buf();
    for f in ["saxpy_div.launch.json", "saxpy_div.expected.json"] {
        std::fs::copy(k.join(f), dir.path().join(f)).unwrap();
    }
    let ptx = std::fs::read_to_string(k.join("saxpy_div.ptx")).unwrap();
    let ptx = ptx.replacen(
        "\tsetp.ge.s32 \t%p1, %r1, %r2;",
        "\tsetp.ge.s32 \t%p1, %r1, %r2;\n\ttxq.force_unnormalized_coords.b32 \t%r3, [%rd1];",
        1,
    );
    assert!(ptx.contains("txq.force_unnormalized_coords"));
    std::fs::write(dir.path().join("saxpy_div.ptx"), ptx).unwrap();
    let s = dir.path().join("saxpy_div.launch.json");
    let (code, out, _) = ptxdiff(&["check", s.to_str().unwrap(), "--arch", "sm_90"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("saxpy_div: COMPILE ERROR: ") && out.contains("txq"),
        "{out}"
    );
    // convert_round: the compiled code and the interpreter agree with each
    // other but not with the expected file (its NaN -> 0 deviation for
    // 64-bit and f64-source conversions): a failure, exit 1.
    let (code, out, _) = ptxdiff(&["check", &spec("convert_round"), "--arch", "sm_80"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("convert_round sm_80: FAIL: "), "{out}");
    assert!(
        out.contains("ptxc+sim MISMATCH") && out.contains("interp MISMATCH"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(ptxdiff(&["check"]).0, 2);
    assert_eq!(ptxdiff(&["check", "/nonexistent.launch.json"]).0, 2);
}
