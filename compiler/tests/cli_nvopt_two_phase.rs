//! The command lines of two-phase compilation and of `ptxc --nvopt`:
//! `nvopt --threads N`, `--split-module` and a GNU make jobserver in
//! `MAKEFLAGS` give the same bytes (the tokens are given back), a broken
//! jobserver is a warning, and `ptxc --nvopt=O3 IN` compiles what
//! `nvopt -O3 IN` prints.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run(bin: &str, args: &[&str], makeflags: Option<&str>) -> (i32, Vec<u8>, String) {
    let mut c = Command::new(bin);
    c.args(args).env_remove("MAKEFLAGS");
    if let Some(m) = makeflags {
        c.env("MAKEFLAGS", m);
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn nvopt(args: &[&str], makeflags: Option<&str>) -> (i32, Vec<u8>, String) {
    run(env!("CARGO_BIN_EXE_nvopt"), args, makeflags)
}

fn kernel(name: &str, variant: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../corpus/kernels/{name}/{name}.{variant}"))
}

#[test]
fn threads_split_module_and_jobserver_give_the_same_bytes() {
    let input = kernel("double_noinline", "O0.ptx");
    let input = input.to_str().unwrap();
    let (code, base, err) = nvopt(&["-O3", "--threads", "1", input], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    for args in [
        vec!["-O3", "--threads", "2", input],
        vec!["-O3", "--threads=4", input],
        vec!["-O3", "--threads", "2", "--split-module", input],
        vec!["-O3", "-split-compile=3", input],
    ] {
        let (code, out, err) = nvopt(&args, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out == base, "{args:?} differs");
    }
    // A jobserver fifo holding 3 tokens: used, then given back.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("jobs");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    use std::io::{Read, Write};
    use std::os::unix::fs::OpenOptionsExt;
    let mut keep = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    keep.write_all(b"+++").unwrap();
    let mf = format!("-j4 --jobserver-auth=fifo:{}", fifo.display());
    let (code, out, err) = nvopt(&["-O3", input], Some(&mf));
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert!(out == base, "the jobserver run differs");
    let mut back = [0u8; 8];
    assert_eq!(keep.read(&mut back).unwrap(), 3, "tokens not given back");
    // Descriptors make did not pass down: a warning, the same output.
    let (code, out, err) = nvopt(&["-O3", input], Some("--jobserver-auth=1000,1001"));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("nvopt: warning: jobserver pipe problem"),
        "{err}"
    );
    assert!(out == base);
    let (code, _, err) = nvopt(&["-O3", "--threads", "two", input], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("--threads: expected a number, got 'two'"),
        "{err}"
    );
}

#[test]
fn ptxc_nvopt_compiles_what_nvopt_prints() {
    let dir = tempfile::tempdir().unwrap();
    for k in ["double_noinline", "saxpy_div"] {
        let input = kernel(k, "O0.ptx");
        let opt = dir.path().join(format!("{k}.nvopt.ptx"));
        let (code, _, err) = nvopt(
            &["-O3", input.to_str().unwrap(), "-o", opt.to_str().unwrap()],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let ptxc = env!("CARGO_BIN_EXE_ptxc");
        let (c1, direct, e1) = run(
            ptxc,
            &["-arch=sm_80", "--nvopt=O3", input.to_str().unwrap()],
            None,
        );
        assert_eq!(c1, 0, "{k}: {e1}");
        let (c2, via_file, e2) = run(ptxc, &["-arch=sm_80", opt.to_str().unwrap()], None);
        assert_eq!(c2, 0, "{k}: {e2}");
        assert!(
            direct == via_file,
            "{k}: ptxc --nvopt differs from ptxc on nvopt's output"
        );
        // And nvopt changed what ptxc compiles.
        let (_, plain, _) = run(ptxc, &["-arch=sm_80", input.to_str().unwrap()], None);
        assert!(plain != direct, "{k}: --nvopt=O3 changed nothing");
    }
    let (code, _, err) = run(env!("CARGO_BIN_EXE_ptxc"), &["--nvopt=O9", "x.ptx"], None);
    assert_eq!(code, 1);
    assert!(
        err.contains("Invalid value 'O9' for option --nvopt (O0..O3, Ofcmax, Ofcmid, Ofcmin)"),
        "{err}"
    );
}
