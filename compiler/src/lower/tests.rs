//! Lowering tests: instruction sequences against the vendor SASS of the
//! same PTX (kernel, architecture and address cited), and every corpus
//! kernel lowering and printing for sm_70..sm_90.

use crate::ir::sass_text::print_function;
use crate::ir::to_sass;
use crate::targets::lookup_sm;

use super::*;

/// Lowers a PTX module for `sm` and returns the first kernel's listing
/// text (labels on), one instruction per line without addresses.
pub(crate) fn lower_text(src: &str, sm: &str) -> String {
    let ks = lower_source(
        "t.ptx",
        src,
        lookup_sm(sm).unwrap(),
        &LowerOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    listing(&ks[0])
}

/// The message with which lowering a PTX module for sm_80 refuses it.
pub(crate) fn lower_err(src: &str) -> String {
    lower_source(
        "t.ptx",
        src,
        lookup_sm("sm_80").unwrap(),
        &LowerOptions::default(),
    )
    .map(|_| ())
    .expect_err("lowering should refuse")
}

/// [`lower_text`] after phase 5 ConvertUnsupportedOps (`lower_target`):
/// the code the target runs.
pub(crate) fn target_text(src: &str, sm: &str) -> String {
    let m = crate::ptx::parse_checked("t.ptx", src).unwrap_or_else(|e| panic!("{e}"));
    let ks = crate::driver::lower_target(&m, lookup_sm(sm).unwrap(), &LowerOptions::default())
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

/// Every kernel of every corpus module (`NAME/NAME.ptx`) lowered for
/// `arch`, with its module's name.
pub(crate) fn lowered_corpus(arch: &str) -> Vec<(String, crate::ir::Function)> {
    let sm = crate::targets::lookup_sm(arch).unwrap();
    let mut out = Vec::new();
    for e in std::fs::read_dir(corpus_dir()).unwrap() {
        let d = e.unwrap().path();
        let name = d.file_name().unwrap().to_str().unwrap().to_string();
        let Ok(src) = std::fs::read_to_string(d.join(format!("{name}.ptx"))) else {
            continue;
        };
        for k in lower_source(&name, &src, sm, &LowerOptions::default()).unwrap() {
            out.push((name.clone(), k.function));
        }
    }
    out
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
            let Ok(src) = std::fs::read_to_string(&path) else {
                continue;
            };
            for sm in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
                match lower_source(
                    &format!("{name}.{variant}"),
                    &src,
                    lookup_sm(sm).unwrap(),
                    &LowerOptions::default(),
                ) {
                    Ok(mut ks) => {
                        for k in &mut ks {
                            // The code the target runs: after phase 5.
                            crate::phases::convert_unsupported::convert(
                                &mut k.function,
                                lookup_sm(sm).unwrap(),
                            )
                            .unwrap_or_else(|e| panic!("{name} {sm}: {e}"));
                            let sf = to_sass(&k.function, true).unwrap();
                            let text = print_function(&sf);
                            // The printout parses back to the same IR.
                            let back = crate::ir::sass_text::parse_file(&text).unwrap();
                            let f2 = crate::ir::from_sass(
                                &back.functions[0],
                                Some(lookup_sm(sm).unwrap()),
                            )
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
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(ok, 192);
}

/// The listing with virtual register numbers and labels erased, so that a
/// sequence can be compared with the vendor's (`R8` and `%r17` both `R`).
pub(crate) fn norm(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for l in text.lines() {
        if l.starts_with(".L_x_") {
            continue;
        }
        let mut s = String::new();
        let b = l.as_bytes();
        let mut k = 0;
        while k < b.len() {
            let c = b[k] as char;
            if (c == '%'
                && k + 1 < b.len()
                && (b[k + 1] == b'r' || b[k + 1] == b'p' || b[k + 1] == b'u'))
                || (c == 'R'
                    && k + 1 < b.len()
                    && b[k + 1].is_ascii_digit()
                    && (k == 0 || !b[k - 1].is_ascii_alphanumeric()))
                || (c == 'P'
                    && k + 1 < b.len()
                    && b[k + 1].is_ascii_digit()
                    && (k == 0 || !b[k - 1].is_ascii_alphanumeric()))
            {
                let pred = c == 'P' || (c == '%' && b[k + 1] == b'p');
                let uni = c == '%' && b[k + 1] == b'u';
                k += if c == '%' { 2 } else { 1 };
                if uni {
                    k += 1;
                }
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                s.push_str(if pred {
                    "P"
                } else if uni {
                    "UR"
                } else {
                    "R"
                });
                continue;
            }
            if l[k..].starts_with(".L_x_") {
                k += 5;
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                s.push('L');
                continue;
            }
            s.push(c);
            k += 1;
        }
        out.push(s.trim().trim_end_matches(';').trim().to_string());
    }
    out
}

fn has_seq(text: &str, want: &[&str]) -> bool {
    let n = norm(text);
    n.windows(want.len())
        .any(|w| w.iter().zip(want).all(|(a, b)| a == b))
}

fn kernel(body: &str, params: &str, regs: &str) -> String {
    format!(
        ".version 7.5\n.target sm_70\n.address_size 64\n.visible .entry k({params})\n{{\n{regs}\n{body}\nret;\n}}\n"
    )
}

const REGS: &str = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n.reg .f32 %f<16>;\n.reg .f64 %fd<8>;\n.reg .b16 %rs<8>;";

#[test]
fn prologue_parameters_and_compare_follow_saxpy_div() {
    // saxpy_div.sm_80 0x0000..0x0050: IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28];
    // S2R SR_CTAID.X / SR_TID.X; IMAD with c[0x0][0x0]; ISETP.GE.AND with
    // the first parameter at c[0x0][0x160]; ULDC.64 UR4, c[0x0][0x118].
    let src = kernel(
        "ld.param.u32 %r2, [p0];\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\nsetp.ge.s32 %p1, %r1, %r2;",
        ".param .u32 p0",
        REGS,
    );
    let t = lower_text(&src, "sm_80");
    let n = norm(&t);
    assert_eq!(n[0], "IMAD.MOV.U32 R, RZ, RZ, c[0x0][0x28]");
    assert!(t.contains("IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]"));
    assert_eq!(n[1], "ULDC.64 UR, c[0x0][0x118]");
    assert!(
        has_seq(
            &t,
            &[
                "MOV R, c[0x0][0x160]",
                "S2R R, SR_CTAID.X",
                "MOV R, c[0x0][0x0]",
                "S2R R, SR_TID.X",
                "IMAD R, R, R, R",
                "ISETP.GE.AND P, PT, R, R, PT"
            ]
        ),
        "{t}"
    );
    // sm_90: LDC R1 and the parameter base 0x210 (saxpy_div.sm_90 0x0000, 0x0050).
    let t90 = lower_text(&src, "sm_90");
    assert!(t90.contains("LDC R1, c[0x0][0x28]"), "{t90}");
    assert!(
        t90.contains("c[0x0][0x210]") && t90.contains("c[0x0][0x208]"),
        "{t90}"
    );
    // sm_70: no descriptor, no uniform registers.
    let t70 = lower_text(&src, "sm_70");
    assert!(!t70.contains("ULDC"), "{t70}");
}

#[test]
fn sixty_four_bit_add_sub_use_the_carry_predicate() {
    // IADD3 + IADD3.X through the carry (docs/SEMANTICS.md, Observed lowerings; sm_80).
    let t = lower_text(
        &kernel(
            "add.s64 %rd3, %rd1, %rd2;\nsub.s64 %rd4, %rd1, %rd2;",
            "",
            REGS,
        ),
        "sm_80",
    );
    assert!(
        has_seq(&t, &["IADD3 R, P, R, R, RZ", "IADD3.X R, R, R, RZ, P, !PT"]),
        "{t}"
    );
    assert!(
        has_seq(
            &t,
            &["IADD3 R, P, R, -R, RZ", "IADD3.X R, R, ~R, RZ, P, !PT"]
        ),
        "{t}"
    );
}

#[test]
fn wide_multiply_and_64_bit_multiply() {
    // saxpy_div.sm_80 0x0080: IMAD.WIDE for mul.wide.s32; IMAD.WIDE.U32 for .u32.
    let t = lower_text(
        &kernel("mul.wide.s32 %rd1, %r1, 4;\nmul.wide.u32 %rd2, %r1, %r2;\nmul.lo.s64 %rd3, %rd1, %rd2;", "", REGS),
        "sm_80",
    );
    assert!(has_seq(&t, &["IMAD.WIDE R, R, 0x4, RZ"]), "{t}");
    assert!(has_seq(&t, &["IMAD.WIDE.U32 R, R, R, RZ"]), "{t}");
    // 64-bit mul.lo: IMAD.WIDE.U32 + two IMAD + IADD3.
    assert!(
        has_seq(
            &t,
            &[
                "IMAD.WIDE.U32 R, R, R, RZ",
                "IMAD R, R, R, RZ",
                "IMAD R, R, R, R",
                "IADD3 R, R, R, RZ"
            ]
        ),
        "{t}"
    );
}

#[test]
fn sixty_four_bit_compare_chains_through_ex() {
    let t = lower_text(
        &kernel(
            "setp.lt.s64 %p1, %rd1, %rd2;\nsetp.ne.s64 %p2, %rd1, 0;",
            "",
            REGS,
        ),
        "sm_80",
    );
    assert!(
        has_seq(
            &t,
            &[
                "ISETP.LT.U32.AND P, PT, R, R, PT",
                "ISETP.LT.AND.EX P, PT, R, R, PT, P"
            ]
        ),
        "{t}"
    );
    assert!(
        has_seq(
            &t,
            &[
                "ISETP.NE.U32.AND P, PT, R, 0x0, PT",
                "ISETP.NE.AND.EX P, PT, R, 0x0, PT, P"
            ]
        ),
        "{t}"
    );
}

#[test]
fn shifts_use_shf_pairs() {
    let t = lower_text(
        &kernel("shl.b64 %rd2, %rd1, %r1;\nshr.u64 %rd3, %rd1, %r1;\nshr.s64 %rd4, %rd1, %r1;\nshr.u32 %r3, %r2, 7;\nshr.s32 %r4, %r2, %r1;", "", REGS),
        "sm_80",
    );
    assert!(
        has_seq(&t, &["SHF.L.U64.HI R, R, R, R", "SHF.L.U32 R, R, R, RZ"]),
        "{t}"
    );
    assert!(
        has_seq(&t, &["SHF.R.U64 R, R, R, R", "SHF.R.U32.HI R, RZ, R, R"]),
        "{t}"
    );
    assert!(
        has_seq(&t, &["SHF.R.S64 R, R, R, R", "SHF.R.S32.HI R, RZ, R, R"]),
        "{t}"
    );
    // int_bitops.sm_80 0x0130: SHF.R.U32.HI R8, RZ, 0x7, R8.
    assert!(has_seq(&t, &["SHF.R.U32.HI R, RZ, 0x7, R"]), "{t}");
}

#[test]
fn integer_division_is_the_reciprocal_sequence() {
    // int_bitops.sm_80 0x0570..0x0730: I2F.U32.RP, MUFU.RCP, IADD3
    // 0xffffffe, F2I.FTZ.U32.TRUNC.NTZ, IMAD.HI.U32 ...
    let t = lower_text(
        &kernel("div.u32 %r3, %r1, %r2;\nrem.s32 %r4, %r1, %r2;", "", REGS),
        "sm_80",
    );
    assert!(
        has_seq(
            &t,
            &[
                "I2F.U32.RP R, R",
                "MUFU.RCP R, R",
                "IADD3 R, R, 0xffffffe, RZ",
                "F2I.FTZ.U32.TRUNC.NTZ R, R"
            ]
        ),
        "{t}"
    );
    assert!(
        t.contains("IABS") && t.contains("LOP3.LUT") && t.contains("IMAD.HI.U32"),
        "{t}"
    );
}

#[test]
fn float_division_matches_the_vendor_fast_path_and_calls_the_slow_path() {
    // saxpy_div.sm_80 0x00f0..0x0190 and the subroutine at 0x0230.
    let t = lower_text(&kernel("div.rn.f32 %f3, %f1, %f2;", "", REGS), "sm_80");
    assert!(
        has_seq(
            &t,
            &[
                "MUFU.RCP R, R",
                "FCHK P, R, R",
                "FFMA R, -R, R, 1",
                "FFMA R, R, R, R",
                "FFMA R, R, R, RZ",
                "FFMA R, -R, R, R",
                "FFMA R, R, R, R",
                "@!P BRA L",
                "MOV R, L",
                "CALL.REL.NOINC L",
            ]
        ),
        "{t}"
    );
    let n = norm(&t);
    let exit = n.iter().position(|l| l == "EXIT").unwrap();
    assert_eq!(
        n[exit + 1],
        "SHF.R.U32.HI R, RZ, 0x17, R",
        "slow path after the kernel"
    );
    assert!(n.iter().any(|l| l == "RET.REL.NODEC R 0x0"), "{t}");
    // Two divisions share one slow path.
    let t2 = lower_text(
        &kernel(
            "div.rn.f32 %f3, %f1, %f2;\ndiv.rn.f32 %f4, %f3, %f2;",
            "",
            REGS,
        ),
        "sm_80",
    );
    assert_eq!(t2.matches("RET.REL.NODEC").count(), 1);
    assert_eq!(t2.matches("CALL.REL.NOINC").count(), 2);
}

#[test]
fn double_division_and_sqrt_use_the_vendor_sequences() {
    // double_noinline.sm_80 0x0270 (div.rn.f64) and 0x0100 (sqrt.rn.f64).
    let t = lower_text(
        &kernel(
            "div.rn.f64 %fd3, %fd1, %fd2;\nsqrt.rn.f64 %fd4, %fd1;",
            "",
            REGS,
        ),
        "sm_80",
    );
    assert!(
        has_seq(
            &t,
            &["MUFU.RCP64H R, R", "DFMA R, -R, R, 1", "DFMA R, R, R, R"]
        ),
        "{t}"
    );
    assert!(
        has_seq(&t, &["MUFU.RSQ64H R, R", "IADD3 R, R, -0x3500000, RZ"]),
        "{t}"
    );
    assert!(has_seq(&t, &["@P BRA P, L"]), "{t}");
    assert_eq!(t.matches("RET.REL.NODEC").count(), 2);
}

#[test]
fn global_loads_follow_each_generation() {
    // saxpy_div.sm_70 0x00a0 `LDG.E.CONSTANT.SYS R0, [R8]`; sm_80 0x0090
    // `LDG.E.CONSTANT R0, [R8.64]`; stores `STG.E.SYS` / `STG.E`.
    let body = "ld.global.nc.f32 %f1, [%rd1];\nld.global.u16 %rs1, [%rd1+2];\nst.global.f32 [%rd1+4], %f1;\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];";
    let t70 = lower_text(&kernel(body, "", REGS), "sm_70");
    assert!(has_seq(&t70, &["LDG.E.CONSTANT.SYS R, [R]"]), "{t70}");
    assert!(has_seq(&t70, &["LDG.E.U16.SYS R, [R+0x2]"]), "{t70}");
    assert!(has_seq(&t70, &["STG.E.SYS [R+0x4], R"]), "{t70}");
    assert!(has_seq(&t70, &["LDG.E.128.SYS R, [R]"]), "{t70}");
    let t80 = lower_text(&kernel(body, "", REGS), "sm_80");
    assert!(has_seq(&t80, &["LDG.E.CONSTANT R, [R.64]"]), "{t80}");
    assert!(has_seq(&t80, &["STG.E [R.64+0x4], R"]), "{t80}");
}

#[test]
fn shared_and_local_memory() {
    let src = ".version 7.5\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n.shared .align 4 .b8 smem[64];\n.local .align 4 .b8 depot[16];\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\nld.shared.u32 %r1, [smem+8];\nst.shared.u32 [smem], %r1;\nst.local.u32 [depot+4], %r1;\nmov.u64 %rd1, smem;\ncvta.shared.u64 %rd2, %rd1;\nret;\n}\n";
    let t = lower_text(src, "sm_80");
    assert!(t.contains("IADD3 R1, R1, -0x10, RZ"), "frame: {t}");
    assert!(t.contains("LDS %r") && t.contains("[0x8]"), "{t}");
    assert!(t.contains("STL [R1+0x4]"), "{t}");
    assert!(
        t.contains("c[0x0][0x18]") && t.contains("c[0x0][0x1c]"),
        "shared window: {t}"
    );
    // sm_90 shared addresses start at 0x400.
    let t90 = lower_text(src, "sm_90");
    assert!(t90.contains("[0x408]"), "{t90}");
}

#[test]
fn func_calls_use_call_rel_and_ret_rel() {
    // double_noinline.sm_80 0x00a0: MOV R4, 0xc0 ; CALL.REL.NOINC 0x3f0 ...
    // RET.REL.NODEC R4 0x0.
    let src = ".version 7.5\n.target sm_70\n.address_size 64\n.visible .func (.param .b32 rv) f(.param .b32 a)\n{\n.reg .b32 %r<3>;\nld.param.u32 %r1, [a];\nadd.s32 %r2, %r1, 1;\nst.param.b32 [rv+0], %r2;\nret;\n}\n.visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nmov.u32 %r1, %tid.x;\n{\n.param .b32 p0;\nst.param.b32 [p0+0], %r1;\n.param .b32 r0;\ncall.uni (r0), f, (p0);\nld.param.b32 %r2, [r0+0];\n}\nld.param.u64 %rd1, [out];\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
    let ks = lower_source(
        "t.ptx",
        src,
        lookup_sm("sm_80").unwrap(),
        &LowerOptions::default(),
    )
    .unwrap();
    assert_eq!(ks.len(), 1);
    let t = listing(&ks[0]);
    assert!(
        has_seq(&t, &["MOV R, L", "MOV R, RZ", "CALL.REL.NOINC L"]),
        "{t}"
    );
    let n = norm(&t);
    let exit = n.iter().position(|l| l == "EXIT").unwrap();
    let ret = n.iter().position(|l| l == "RET.REL.NODEC R 0x0").unwrap();
    assert!(ret > exit, "callee after the kernel: {t}");
    // Cuobjdump-style printing resolves the return label to an address.
    let sf = to_sass(&ks[0].function, false).unwrap();
    let mov = sf
        .insts
        .iter()
        .find(|i| i.opcode == "MOV" && matches!(i.operands[1], crate::ir::Operand::Imm(_)))
        .is_some();
    assert!(mov);
}

#[test]
fn guarded_sequences_branch_around() {
    // A guard on a one-instruction lowering predicates it (saxpy_div.sm_80
    // 0x01d0 `@P0 FMUL R8, R8, 0.25`); a sequence is branched around.
    let t = lower_text(
        &kernel(
            "@%p1 mul.f32 %f2, %f1, 0f3E800000;\n@!%p1 div.u32 %r3, %r1, %r2;",
            "",
            REGS,
        ),
        "sm_80",
    );
    assert!(has_seq(&t, &["@P FMUL R, R, 0.25"]), "{t}");
    assert!(has_seq(&t, &["@P BRA L", "I2F.U32.RP R, R"]), "{t}");
}

#[test]
fn errors_name_the_instruction_and_position() {
    let src = ".version 7.5\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 t)\n{\n.reg .b64 %rd<2>;\n.reg .f32 %f<5>;\n.reg .b32 %r<2>;\nld.param.u64 %rd1, [t];\ntxq.force_unnormalized_coords.b32 %r1, [%rd1];\nret;\n}\n";
    let e = lower_source(
        "t.ptx",
        src,
        lookup_sm("sm_90").unwrap(),
        &LowerOptions::default(),
    )
    .unwrap_err();
    assert!(
        e.starts_with("t.ptx:10:1: txq.force_unnormalized_coords is not lowered"),
        "{e}"
    );
}

#[test]
fn every_emitted_opcode_exists_on_its_target() {
    // I2FP only from sm_86: the lowering emits it on every target, phase 5
    // makes it I2F before sm_86.
    let body = "cvt.rn.f32.s32 %f1, %r1;\ncvt.rzi.s32.f32 %r2, %f1;\ncvt.f64.f32 %fd1, %f1;\ncvt.rn.f32.f64 %f2, %fd1;";
    let l80 = lower_text(&kernel(body, "", REGS), "sm_80");
    assert!(l80.contains("I2FP.F32.S32 %r"), "{l80}");
    let t80 = target_text(&kernel(body, "", REGS), "sm_80");
    assert!(t80.contains("I2F %r") && !t80.contains("I2FP"), "{t80}");
    let t86 = target_text(&kernel(body, "", REGS), "sm_86");
    assert!(t86.contains("I2FP.F32.S32"), "{t86}");
    assert!(
        t86.contains("F2I.TRUNC.NTZ") && t86.contains("F2F.F64.F32") && t86.contains("F2F.F32.F64"),
        "{t86}"
    );
}

#[test]
fn texture_handle_forms() {
    let body = "ld.param.u64 %rd1, [t];\ntex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];";
    let src = format!(".version 7.5\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 t)\n{{\n.reg .b64 %rd<2>;\n.reg .f32 %f<5>;\n.reg .b32 %r<2>;\nmov.u32 %r1, %tid.x;\n{body}\nret;\n}}\n");
    let text = |sm: &str| lower_text(&src, sm);
    // The parameter slot as ptxas names it: c[0x0][0x160] is slot 0x58.
    let t = text("sm_80");
    assert!(
        t.contains("TLD.SCR.LZ %r") && t.contains("0x0, 0x58, 1D, 0xf"),
        "{t}"
    );
    // sm_90: the parameter's low word in a uniform pair.
    let t = text("sm_90");
    assert!(t.contains("ULDC %ur") && t.contains("c[0x0][0x210]"), "{t}");
}

/// A `ret` after a guarded branch is reached by fallthrough: it stays
/// (it was once dropped as dead code, and the body then ran off its end).
/// A `ret` after an unconditional branch is unreachable and adds nothing.
#[test]
fn ret_after_guarded_branch_is_kept() {
    let body = |br: &str| {
        format!(".version 7.5\n.target sm_70\n.address_size 64\n.visible .entry k()\n{{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\nmov.u32 %r1, 0;\nLOOP:\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 10;\n{br} bra LOOP;\nret;\n}}\n")
    };
    for sm in ["sm_70", "sm_90"] {
        let guarded = lower_text(&body("@%p1"), sm);
        let last = guarded.lines().last().unwrap();
        assert!(last.starts_with("EXIT"), "{sm}: ends `{last}`:\n{guarded}");
        let ks = lower_source(
            "t.ptx",
            &body("@%p1"),
            lookup_sm(sm).unwrap(),
            &LowerOptions::default(),
        )
        .unwrap();
        crate::ir::verify::verify(&ks[0].function, lookup_sm(sm))
            .unwrap_or_else(|e| panic!("{sm}: {e:?}"));
        let plain = lower_text(&body(""), sm);
        assert_eq!(
            plain.matches("EXIT").count(),
            0,
            "{sm}: unreachable ret lowered:\n{plain}"
        );
    }
}
