//! ptxas's driver phase 23 and its in-order finalize (docs/MODEL.md, Compilation driver): the output of `ptxc --threads 1` and
//! `--threads 2` (and the sequential loop) is byte-identical on the whole
//! corpus: every PTX file under `corpus/kernels/` and `corpus/ptx/valid/`,
//! for sm_70, sm_80 and sm_90, with `-v` so that the info lines and
//! warnings are compared too. Files that do not compile must fail the same
//! way.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ptx_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("kernels"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.push(root.join("ptx/valid"));
    for d in dirs {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Exit status, listing, stderr. The listing goes to `-o` in a temporary
/// directory, where an internal error also saves its input.
fn run(file: &Path, arch: &str, threads: &str) -> (Option<i32>, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sass");
    let o = Command::new(env!("CARGO_BIN_EXE_ptxc"))
        .args(["-v", "--threads", threads])
        .arg(format!("-arch={arch}"))
        .arg("-o")
        .arg(&out)
        .arg(file)
        .output()
        .unwrap();
    // The saved input's directory differs per run.
    let stderr =
        String::from_utf8_lossy(&o.stderr).replace(&dir.path().display().to_string(), "DIR");
    (
        o.status.code(),
        std::fs::read(&out).unwrap_or_default(),
        stderr,
    )
}

#[test]
fn threads_1_and_2_give_identical_output_on_the_corpus() {
    let files = ptx_files();
    assert!(files.len() > 40, "{}", files.len());
    let (mut compiled, mut total) = (0, 0);
    // Internal errors (lowering bugs the verifier catches) are listed, not
    // failed on here: this test is about determinism.
    let mut ices = Vec::new();
    for f in &files {
        for arch in ["sm_70", "sm_80", "sm_90"] {
            total += 1;
            let one = run(f, arch, "1");
            let two = run(f, arch, "2");
            assert!(
                one == two,
                "{} {arch}: --threads 1 and 2 differ\n--- 1 ---\n{}\n--- 2 ---\n{}",
                f.display(),
                one.2,
                two.2
            );
            if arch == "sm_80" {
                assert!(
                    run(f, arch, "0") == one,
                    "{} {arch}: sequential differs",
                    f.display()
                );
            }
            if one.0 == Some(0) {
                compiled += 1;
            }
            if let Some(l) = one
                .2
                .lines()
                .find(|l| l.contains("internal compiler error"))
            {
                ices.push(format!("{} {arch}: {l}", f.display()));
            }
        }
    }
    eprintln!(
        "{compiled} of {total} file x target pairs compile; all identical across thread counts"
    );
    // An internal compiler error is a ptxc bug, whatever the input.
    assert!(
        ices.is_empty(),
        "internal compiler errors:\n{}",
        ices.join("\n")
    );
}
