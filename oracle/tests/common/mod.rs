//! Shared by the integration tests: running the `ptxdiff` binary and
//! finding the corpus.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// `corpus/kernels/`.
pub fn kernels() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// Runs `ptxdiff ARGS`: (exit status, stdout, stderr).
pub fn ptxdiff_out(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `ptxdiff ARGS`: (exit status, stdout followed by stderr).
pub fn ptxdiff(args: &[&str]) -> (i32, String) {
    let (code, out, err) = ptxdiff_out(args);
    (code, out + &err)
}
