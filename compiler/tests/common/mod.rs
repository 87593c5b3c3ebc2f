//! Shared by the integration tests: the vendor SASS listings of the corpus.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The architectures the corpus has vendor SASS for.
pub const ARCHS: [&str; 6] = ["70", "75", "80", "86", "89", "90"];

/// `corpus/kernels/`.
pub fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

/// Every vendor listing: (kernel, arch such as `80`, path, text), sorted.
pub fn vendor_listings() -> Vec<(String, &'static str, PathBuf, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(kernels_dir()).expect("corpus/kernels") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let stem = dir.file_name().unwrap().to_str().unwrap().to_string();
        for arch in ARCHS {
            let p = dir.join(format!("{stem}.sm_{arch}.sass"));
            if p.exists() {
                let t = std::fs::read_to_string(&p).unwrap();
                out.push((stem.clone(), arch, p, t));
            }
        }
    }
    out.sort_by(|a, b| a.2.cmp(&b.2));
    assert!(out.len() >= 96, "corpus has {} listings", out.len());
    out
}

/// What a `ptxc` run printed.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Out {
    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs the `ptxc` binary.
pub fn ptxc(args: &[&str]) -> Out {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ptxc"))
        .args(args)
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The path of corpus kernel `name`'s clang PTX.
pub fn kernel(name: &str) -> String {
    kernels_dir()
        .join(format!("{name}/{name}.ptx"))
        .display()
        .to_string()
}
