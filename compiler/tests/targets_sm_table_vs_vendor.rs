//! The SM table's constant-bank facts and uniform-register rule, checked
//! against every vendor SASS file in the corpus (16 kernels x sm_70, 75, 80,
//! 86, 89, 90; ptxas 11.8 via cuobjdump). The table is the only place these
//! facts live; this test is how they stay true.

use ptxc::targets::lookup_sm;
use std::path::Path;

fn sass_files(arch: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut out = Vec::new();
    for k in std::fs::read_dir(&dir).unwrap() {
        let k = k.unwrap().path();
        if !k.is_dir() {
            continue;
        }
        let name = k.file_name().unwrap().to_str().unwrap().to_string();
        let f = k.join(format!("{name}.{arch}.sass"));
        if let Ok(text) = std::fs::read_to_string(&f) {
            out.push((name, text));
        }
    }
    out.sort();
    out
}

/// The instruction text of each SASS line (`/*0040*/  OP args ;`).
fn instructions(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("/*")?;
            let (_, after) = rest.split_once("*/")?;
            let inst = after.trim();
            let inst = inst.split(';').next()?.trim();
            (!inst.is_empty()).then_some(inst)
        })
        .collect()
}

/// Every `c[0x0][0x..]` offset an instruction reads.
fn cbank_offsets(inst: &str) -> Vec<u32> {
    let mut v = Vec::new();
    let mut rest = inst;
    while let Some(i) = rest.find("c[0x0][0x") {
        let tail = &rest[i + 9..];
        let end = tail.find(']').unwrap();
        v.push(u32::from_str_radix(&tail[..end], 16).unwrap());
        rest = &tail[end..];
    }
    v
}

#[test]
fn constant_bank_layout_matches_vendor_sass() {
    let mut checked = 0;
    for arch in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
        let cb = lookup_sm(arch)
            .unwrap()
            .cbank
            .expect("measured architectures have a layout");
        let files = sass_files(arch);
        assert_eq!(files.len(), 16, "{arch}");
        for (k, text) in files {
            let insts = instructions(&text);
            // First instruction of the kernel: R1 <- c[0x0][stack_pointer].
            let first = insts.first().unwrap();
            assert!(
                first.contains(" R1,") && cbank_offsets(first) == [cb.stack_pointer],
                "{k} {arch}: first instruction {first}"
            );
            // Every bank-0 read is launch state we know, or a parameter.
            let known = [cb.ntid, cb.ntid + 4, cb.ntid + 8, cb.stack_pointer];
            let mut params = 0;
            for i in &insts {
                for off in cbank_offsets(i) {
                    let desc = cb
                        .global_descriptor
                        .is_some_and(|d| off == d || off == d + 4);
                    if off >= cb.param_base {
                        params += 1;
                    } else {
                        assert!(
                            known.contains(&off) || desc,
                            "{k} {arch}: unexpected c[0x0][{off:#x}] in {i}"
                        );
                    }
                }
            }
            assert!(
                params > 0,
                "{k} {arch}: no parameter read at or above {:#x}",
                cb.param_base
            );
            // The global-memory descriptor, exactly where the table says
            // (ULDC.64 also loads 64-bit parameters: only loads below the
            // parameter area are descriptor loads).
            let uldc = insts.iter().find(|i| {
                i.starts_with("ULDC.64 UR") && cbank_offsets(i).iter().all(|&o| o < cb.param_base)
            });
            match cb.global_descriptor {
                Some(d) => {
                    let i =
                        uldc.unwrap_or_else(|| panic!("{k} {arch}: no ULDC.64 descriptor load"));
                    assert_eq!(cbank_offsets(i), [d], "{k} {arch}: {i}");
                }
                None => assert!(uldc.is_none(), "{k} {arch}: unexpected {uldc:?}"),
            }
            // Uniform registers only where the table has them.
            let uses_ur = insts.iter().any(|i| i.contains("UR"));
            if !lookup_sm(arch).unwrap().uniform_registers {
                assert!(!uses_ur, "{k} {arch} uses uniform registers");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 96);
}
