//! `ptxc FILE.ptx --parse-only [-arch=sm_XX]`: diagnostics with
//! file:line:col, source line and caret; exit status 0 or 1.

use std::process::Command;

fn ptxc(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxc"))
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

const GOOD: &str =
    ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";

#[test]
fn valid_file_exits_zero_silently() {
    let d = tempfile::tempdir().unwrap();
    let f = write(&d, "good.ptx", GOOD);
    let (code, out) = ptxc(&[&f, "--parse-only"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn errors_carry_position_line_and_caret() {
    let d = tempfile::tempdir().unwrap();
    let text = GOOD.replace(
        "\tret;",
        "\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r9, 1;\n\tret;",
    );
    let f = write(&d, "bad.ptx", &text);
    let (code, out) = ptxc(&[&f, "--parse-only"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("bad.ptx:7:15: error: undeclared register '%r9'"),
        "{out}"
    );
    assert!(out.contains("\tadd.s32 %r1, %r9, 1;"), "{out}");
    // The caret sits under column 15 (tabs preserved so it lines up).
    assert!(out.lines().any(|l| l == "  \t             ^~~"), "{out}");
}

#[test]
fn every_error_of_a_file_is_reported() {
    let d = tempfile::tempdir().unwrap();
    let text = GOOD.replace(
        "\tret;",
        "\t.reg .b32 %r<2>;\n\tfoo.s32 %r1;\n\tadd.s32 %r1, %r1;\n\tbra NOWHERE;\n\tret;",
    );
    let f = write(&d, "multi.ptx", &text);
    let (code, out) = ptxc(&[&f, "--parse-only"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(":7:2: error: unknown instruction 'foo'"),
        "{out}"
    );
    assert!(
        out.contains(":8:2: error: 'add' expects 3 operands, found 2"),
        "{out}"
    );
    assert!(
        out.contains(":9:6: error: undefined label 'NOWHERE'"),
        "{out}"
    );
}

#[test]
fn arch_flag_checks_the_module_target_and_address_size() {
    let d = tempfile::tempdir().unwrap();
    let f = write(&d, "k.ptx", GOOD);
    assert_eq!(ptxc(&[&f, "--parse-only", "-arch=sm_80"]).0, 0);
    assert_eq!(ptxc(&[&f, "--parse-only", "--gpu-name", "sm_90"]).0, 0);
    let (code, out) = ptxc(&[&f, "--parse-only", "-arch=sm_61"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("target sm_70 is newer than the compile target sm_61"),
        "{out}"
    );
    let f32 = write(
        &d,
        "a32.ptx",
        &GOOD.replace("address_size 64", "address_size 32"),
    );
    assert_eq!(ptxc(&[&f32, "--parse-only", "-arch=sm_89"]).0, 0);
    let (code, out) = ptxc(&[&f32, "--parse-only", "-arch=sm_90"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(".address_size 32 is not supported on sm_90 and later"),
        "{out}"
    );
    let (code, out) = ptxc(&[&f, "--parse-only", "-arch=sm_99"]);
    assert_eq!(code, 1);
    assert!(out.contains("unknown architecture 'sm_99'"), "{out}");
}

#[test]
fn unreadable_and_binary_inputs_are_errors_not_panics() {
    let d = tempfile::tempdir().unwrap();
    let (code, out) = ptxc(&[
        &d.path().join("missing.ptx").to_string_lossy(),
        "--parse-only",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("cannot read"), "{out}");
    let p = d.path().join("bin.ptx");
    std::fs::write(&p, [0u8, 159, 146, 150, 0xff, b'.', b'v']).unwrap();
    let (code, out) = ptxc(&[&p.to_string_lossy(), "--parse-only"]);
    assert_eq!(code, 1);
    assert!(!out.contains("panicked"), "{out}");
}
