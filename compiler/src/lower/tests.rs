//! Lowering tests: instruction sequences against the vendor SASS of the
//! same PTX (kernel, architecture and address cited), and every corpus
//! kernel lowering and printing for sm_70..sm_90.

use crate::ir::sass_text::print_function;
use crate::ir::to_sass;
use crate::target::lookup_sm;

use super::*;

/// Lowers a PTX module for `sm` and returns the first kernel's listing
/// text (labels on), one instruction per line without addresses.
pub(crate) fn lower_text(src: &str, sm: &str) -> String {
    let ks = lower_source("t.ptx", src, lookup_sm(sm).unwrap(), &LowerOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    listing(&ks[0])
}

pub(crate) fn listing(k: &LoweredKernel) -> String {
    let sf = to_sass(&k.function, true).unwrap();
    print_function(&sf)
        .lines()
        .filter(|l| !l.contains("Function :") && !l.contains("...."))
        .map(|l| match l.find("*/") {
            Some(i) => l[i + 2..].trim().to_string(),
            None => l.trim().to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn corpus_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels")
}

#[test]
fn corpus_kernels_lower_on_every_target() {
    let mut failures = Vec::new();
    let mut ok = 0;
    for e in std::fs::read_dir(corpus_dir()).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        for variant in ["ptx", "O0.ptx"] {
            let path = dir.join(format!("{name}.{variant}"));
            let Ok(src) = std::fs::read_to_string(&path) else { continue };
            for sm in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
                match lower_source(&format!("{name}.{variant}"), &src, lookup_sm(sm).unwrap(), &LowerOptions::default()) {
                    Ok(ks) => {
                        for k in &ks {
                            let sf = to_sass(&k.function, true).unwrap();
                            let text = print_function(&sf);
                            // The printout parses back to the same IR.
                            let back = crate::ir::sass_text::parse_file(&text).unwrap();
                            let f2 = crate::ir::from_sass(&back.functions[0], Some(lookup_sm(sm).unwrap()))
                                .unwrap_or_else(|e| panic!("{name} {sm}: {e}"));
                            assert_eq!(f2.blocks.len(), k.function.blocks.len(), "{name} {sm}");
                        }
                        ok += 1;
                    }
                    Err(e) => failures.push(format!("{sm} {e}")),
                }
            }
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    eprintln!("{ok} lowered, {} failed", failures.len());
    assert!(failures.is_empty(), "{} lowering failures", failures.len());
}
