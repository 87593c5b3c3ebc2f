//! The `nvopt` binary: exit status and messages. Bad input gets the front
//! end's `file:line:col` diagnostic and status 1 (never a panic), bad
//! options cicc's texts (docs/MODEL.md, NvOpt pipelines), and a corpus kernel is optimized to `-o`.

use std::path::Path;
use std::process::Command;

fn nvopt(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_nvopt"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn bad_ptx_gets_a_located_error_and_status_1() {
    let dir = std::env::temp_dir().join(format!("nvopt-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ptx");
    std::fs::write(
        &bad,
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n\tret\n}\n",
    )
    .unwrap();
    let (code, out, err) = nvopt(&["-O2", bad.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "");
    assert!(
        err.starts_with(&format!("nvopt: error: {}:7:1: error:", bad.display())),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn option_errors_use_the_seed_texts() {
    let (code, _, err) = nvopt(&["-O3", "--passes=dce", "x.ptx"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "nvopt: error: Cannot specify -O#/-Ofast-compile=<min,mid,max> and --passes=/--foo-pass, use -passes='default<O#>,other-pass' or -passes='default<Ofcmax>,other-pass'\n"
    );
    let (code, _, err) = nvopt(&["-Ofast-compile=2", "x.ptx"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "nvopt: error: -Ofast-compile called with unsupported level, only supports 0, min, mid, or max\n"
    );
}

#[test]
fn corpus_kernel_is_optimized_to_the_output_file() {
    let k =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels/saxpy_div/saxpy_div.O0.ptx");
    let out = std::env::temp_dir().join(format!("nvopt-bin-out-{}.ptx", std::process::id()));
    let (code, stdout, err) = nvopt(&["-O2", k.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str(), err.as_str()), (0, "", ""));
    let text = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    ptxc::ptx::parse_checked("out.ptx", &text).unwrap();
    let (_, listed, _) = nvopt(&["-O2", "--print-pipeline-passes"]);
    let want = ptxc::nvopt::pipeline::build(
        ptxc::nvopt::pipeline::Level::O2,
        &ptxc::nvopt::pipeline::Knobs::default(),
    )
    .pm
    .text();
    assert_eq!(listed, format!("{want}\n"));
}

#[test]
fn weak_callees_are_inlined_unless_the_output_will_be_linked() {
    // warp_vote_xor's clang -O0 PTX calls the CUDA headers' `.weak`
    // `__ballot_sync` and friends.
    let k = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/kernels/warp_vote_xor/warp_vote_xor.O0.ptx");
    let calls = |opt: &[&str]| {
        let out = std::env::temp_dir().join(format!(
            "nvopt-weak-{}-{}.ptx",
            std::process::id(),
            opt.len()
        ));
        let mut args = vec!["-O3", k.to_str().unwrap(), "-o", out.to_str().unwrap()];
        args.extend(opt);
        let (code, _, err) = nvopt(&args);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        text.matches("call.uni").count()
    };
    assert_eq!(calls(&[]), 0);
    assert!(calls(&["-opt", "-inline-weak=0"]) > 0);
    let (_, listed, _) = nvopt(&["-O3", "-opt", "-inline-weak=0", "--print-pipeline-passes"]);
    assert!(listed.contains("inline<weak=0>"), "{listed}");
}
