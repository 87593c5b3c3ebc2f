//! Lowering tests for int_misc.rs and warp_sync.rs (and bar.red in
//! warp.rs): the vendor forms of ptxas 11.8 (`ptxas -arch=sm_XX` on small
//! kernels, read with `cuobjdump -sass`, quoted at each test), the per-target
//! choice of `redux.sync` (REDUX where the SM table has it, the SHFL
//! expansion elsewhere), and the instructions still refused (istypep and
//! the txq/suq table fields: tests_resinfo.rs).
//! The executed checks are in oracle/tests/lower_int_misc.rs and
//! oracle/tests/lower_warp_sync.rs.

use super::tests::{lower_text, target_text};
use super::*;
use crate::targets::lookup_sm;

const REGS: &str = ".reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n.reg .pred %p<5>;\n.reg .b16 %h<5>;";

fn kernel(body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n{REGS}\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmov.b64 %rd1, {{%r1, %r2}};\nsetp.ne.u32 %p1, %r1, 0;\n{body}\nret;\n}}\n"
    )
}

/// The instructions of a listing with every register number dropped
/// (`R12` -> `R`, `%r3` -> `R`, `%ur0` -> `UR`, `P1`/`%p2` -> `P`).
fn shapes(t: &str) -> Vec<String> {
    super::tests::norm(t)
}

fn has(t: &str, line: &str) -> bool {
    shapes(t).iter().any(|l| l == line)
}

#[test]
fn dp4a_dp2a_are_idp() {
    // ptxas sm_70/80/90: `IDP.4A.S8.U8 R9, R0, R5, R4` for
    // `dp4a.s32.u32`, `IDP.2A.HI.S16.U8` for `dp2a.hi.s32.u32`.
    let t = lower_text(
        &kernel("dp4a.s32.u32 %r4, %r1, %r2, %r3;\ndp4a.u32.s32 %r5, %r1, %r2, %r3;\ndp2a.hi.s32.u32 %r6, %r1, %r2, %r3;\ndp2a.lo.u32.u32 %r7, %r1, %r2, %r3;"),
        "sm_80",
    );
    for l in [
        "IDP.4A.S8.U8 R, R, R, R",
        "IDP.4A.U8.S8 R, R, R, R",
        "IDP.2A.HI.S16.U8 R, R, R, R",
        "IDP.2A.LO.U16.U8 R, R, R, R",
    ] {
        assert!(has(&t, l), "{l}\n{t}");
    }
}

#[test]
fn sad_bmsk_szext_forms() {
    // ptxas: `VABSDIFF.U32 R23, R0, R5, R4` (sad.u32), `VABSDIFF R5, R0,
    // R5, R4` (sad.s32), `BMSK R14, R13, R18` (clamp), `BMSK.W` (wrap),
    // `SGXT R16, R13, R18` (szext.clamp.s32), `SGXT.W.U32` (szext.wrap.u32).
    let t = lower_text(
        &kernel("sad.u32 %r4, %r1, %r2, %r3;\nsad.s32 %r5, %r1, %r2, %r3;\nbmsk.clamp.b32 %r6, %r1, %r2;\nbmsk.wrap.b32 %r6, %r1, %r2;\nszext.clamp.s32 %r7, %r1, %r2;\nszext.wrap.u32 %r7, %r1, %r2;"),
        "sm_70",
    );
    for l in [
        "VABSDIFF.U32 R, R, R, R",
        "VABSDIFF R, R, R, R",
        "BMSK R, R, R",
        "BMSK.W R, R, R",
        "SGXT R, R, R",
        "SGXT.W.U32 R, R, R",
    ] {
        assert!(has(&t, l), "{l}\n{t}");
    }
}

#[test]
fn redux_follows_the_sm_table() {
    let body = "redux.sync.min.s32 %r4, %r1, 0xffffffff;\nredux.sync.add.u32 %r5, %r1, %r3;";
    // The lowering: REDUX on every target (phase 5 expands it where the
    // SM table has none).
    for sm in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_90"] {
        // ptxas sm_80/sm_90: `REDUX.MIN.S32 UR6, R0 ; IMAD.U32 R7, RZ, RZ, UR6`.
        let t = lower_text(&kernel(body), sm);
        assert!(has(&t, "REDUX.MIN.S32 UR, R"), "{sm}\n{t}");
        assert!(has(&t, "REDUX.SUM UR, R"), "{sm}\n{t}");
        assert!(has(&t, "IMAD.U32 R, RZ, RZ, UR"), "{sm}\n{t}");
        assert!(!t.contains("SHFL"), "{sm}\n{t}");
    }
    // The target code (after phase 5): REDUX kept on sm_80+, expanded on
    // sm_70/sm_75.
    for sm in ["sm_80", "sm_90"] {
        let t = target_text(&kernel(body), sm);
        assert!(has(&t, "REDUX.MIN.S32 UR, R"), "{sm}\n{t}");
    }
    for sm in ["sm_70", "sm_75"] {
        let t = target_text(&kernel(body), sm);
        assert!(!t.contains("REDUX") && !t.contains("UR"), "{sm}\n{t}");
        assert!(has(&t, "SHFL.BFLY PT, R, R, 0x10, 0x1f"), "{sm}\n{t}");
        assert!(has(&t, "SHFL.IDX PT, R, R, R, 0x1f"), "{sm}\n{t}");
        assert!(has(&t, "IMNMX R, R, R, PT"), "{sm}\n{t}");
        assert!(has(&t, "FLO.U32 R, R"), "{sm}\n{t}");
        let sm_info = lookup_sm(sm).unwrap();
        let m = crate::ptx::parse_checked("t.ptx", &kernel(body)).unwrap();
        let ks = crate::driver::lower_target(&m, sm_info, &LowerOptions::default()).unwrap();
        assert!(ks[0].function.insts().all(|i| i.lacking(sm_info).is_none()));
    }
}

#[test]
fn match_vote_uni_bar_red_forms() {
    // ptxas sm_80: `MATCH.ANY R6, R0`, `MATCH.ANY.U64 R5, R4`, `VOTE.ANY
    // R8, PT, PT` for the member set; `BAR.RED.AND 0x0, P1 ; B2R.RESULT
    // RZ, P0`; `BAR.RED.POPC 0x2, P1 ; B2R.RESULT R7`.
    let t = lower_text(
        &kernel("match.any.sync.b32 %r4, %r1, 0xffffffff;\nmatch.all.sync.b64 %r5|%p2, %rd1, %r3;\nvote.sync.uni.pred %p3, %p1, 0xffffffff;\nbar.red.and.pred %p4, 0, %p1;\nbar.red.or.pred %p4, 1, !%p1;\nbar.red.popc.u32 %r6, 2, %p1;"),
        "sm_80",
    );
    for l in [
        "MATCH.ANY R, R",
        "MATCH.ANY.U64 R, R",
        "VOTE.ANY R, PT, PT",
        "VOTE.ANY R, PT, P",
        "BAR.RED.AND 0x0, P",
        "BAR.RED.OR 0x1, !P",
        "B2R.RESULT RZ, P",
        "BAR.RED.POPC 0x2, P",
        "B2R.RESULT R",
    ] {
        assert!(has(&t, l), "{l}\n{t}");
    }
}

#[test]
fn instructions_still_refused_say_so() {
    // The interpreter executes these; the lowering refuses them with a
    // message naming the instruction (see mod.rs "Not lowered" for why).
    // `istypep` and the other txq/suq fields lower (tests_resinfo.rs).
    for (body, sm, want) in [
        (
            "txq.force_unnormalized_coords.b32 %r4, [%rd1];",
            "sm_90",
            "txq.force_unnormalized_coords is not lowered",
        ),
        (
            "suq.memory_layout.b32 %r4, [%rd1];",
            "sm_80",
            "suq.memory_layout is not lowered",
        ),
    ] {
        let e = lower_source(
            "t.ptx",
            &kernel(body),
            lookup_sm(sm).unwrap(),
            &LowerOptions::default(),
        )
        .err()
        .unwrap_or_else(|| panic!("{body} lowered"));
        assert!(e.contains(want), "{body}: {e}");
    }
}

#[test]
fn isspacep_tests_the_bank0_windows() {
    // Our sequence (space.rs): `a - c[0x0][w]` over 64 bits, its high word
    // below 0x100 (the windows are 2^40 bytes, ptx_interp/memory.rs).
    let body = "isspacep.shared %p2, %rd1;\nisspacep.local %p2, %rd1;\nisspacep.param %p2, %rd1;\nisspacep.const %p2, %rd1;\nisspacep.global %p3, %rd1;";
    for sm in ["sm_70", "sm_80", "sm_90"] {
        let t = lower_text(&kernel(body), sm);
        // Our window words (mem.rs DECISION; `c[0x0][0x30]` is ptxas's
        // `%gridid`, so the const and param windows sit at 0x150/0x158).
        for (lo, hi) in [(0x18, 0x1c), (0x20, 0x24), (0x150, 0x154), (0x158, 0x15c)] {
            let sub = format!("IADD3 R, P, R, -c[0x0][{lo:#x}], RZ");
            let subx = format!("IADD3.X R, R, ~c[0x0][{hi:#x}], RZ, P, !PT");
            assert!(has(&t, &sub), "{sm} {sub}\n{t}");
            assert!(has(&t, &subx), "{sm} {subx}\n{t}");
        }
        let s = shapes(&t);
        let n = |l: &str| s.iter().filter(|x| *x == l).count();
        // shared, local, param, const: inside one window.
        assert_eq!(n("ISETP.LT.U32.OR P, PT, R, 0x100, !PT"), 4, "{sm}\n{t}");
        // global: outside all four, chained.
        assert_eq!(n("ISETP.GE.U32.AND P, PT, R, 0x100, PT"), 1, "{sm}\n{t}");
        assert_eq!(n("ISETP.GE.U32.AND P, PT, R, 0x100, P"), 3, "{sm}\n{t}");
        let sm_info = lookup_sm(sm).unwrap();
        let m = crate::ptx::parse_checked("t.ptx", &kernel(body)).unwrap();
        let ks = crate::driver::lower_target(&m, sm_info, &LowerOptions::default()).unwrap();
        assert!(ks[0].function.insts().all(|i| i.lacking(sm_info).is_none()));
    }
}

#[test]
fn isspacep_const_also_tests_the_bank3_copy() {
    // With `cvta.const`, generic constant addresses point into the global
    // copy of bank 3 (mem.rs), whose address is in bank 4.
    let src = ".version 7.8\n.target sm_80\n.address_size 64\n.const .b32 c[4];\n.visible .entry k()\n{\n.reg .b64 %rd<3>;\n.reg .pred %p<3>;\nmov.u64 %rd1, c;\ncvta.const.u64 %rd2, %rd1;\nisspacep.const %p1, %rd2;\nisspacep.global %p2, %rd2;\nret;\n}\n";
    let t = lower_text(src, "sm_80");
    assert!(has(&t, "ISETP.LT.U32.AND P, PT, R, 0x10, P"), "{t}");
    assert!(has(&t, "ISETP.GE.U32.OR P, PT, R, 0x10, P"), "{t}");
    let ldc = shapes(&t)
        .iter()
        .filter(|l| *l == "LDC.64 R, c[0x4][0x0]")
        .count();
    assert_eq!(
        ldc, 3,
        "cvta.const and both isspacep read the copy's address\n{t}"
    );
}

#[test]
fn isspacep_32_bit_and_refusals() {
    let sm = lookup_sm("sm_80").unwrap();
    let a32 = ".version 7.8\n.target sm_80\n.address_size 32\n.visible .entry k(.param .u32 a)\n{\n.reg .b32 %r<3>;\n.reg .pred %p<3>;\nld.param.u32 %r1, [a];\nisspacep.shared %p1, %r1;\nret;\n}\n";
    // 32-bit addresses: one 32-bit window test (space.rs module docs).
    let t = lower_text(a32, "sm_80");
    assert!(has(&t, "IADD3 R, R, -c[0x0][0x18], RZ"), "{t}");
    assert!(has(&t, "ISETP.LT.U32.OR P, PT, R, 0x8000000, !PT"), "{t}");
    // ptxas: "32-Bit ABI ... is not supported on sm_90 or higher".
    let a32g = a32.replace("isspacep.shared %p1, %r1;", "ld.global.u32 %r2, [%r1];");
    let e = lower_source(
        "t.ptx",
        &a32g,
        lookup_sm("sm_90").unwrap(),
        &LowerOptions::default(),
    )
    .unwrap_err();
    assert!(
        e.contains("32-bit addressing is not supported on sm_90"),
        "{e}"
    );
    let param = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n.reg .b64 %rd<3>;\n.reg .pred %p<3>;\nmov.u64 %rd1, a;\ncvta.param.u64 %rd2, %rd1;\nisspacep.param %p1, %rd2;\nret;\n}\n";
    let e = lower_source("t.ptx", param, sm, &LowerOptions::default()).unwrap_err();
    assert!(e.contains("cvta.param"), "{e}");
}

#[test]
fn thirty_two_bit_global_and_generic_accesses_drop_e() {
    // ptxas 11.8 -m32 (.address_size 32): sm_70 `LDG.SYS R4, [R0]`,
    // `ST.SYS [R5], R4`, `LD.SYS R6, [R0+0x4]`, `STG.SYS [R3], R6`; sm_80
    // `LDG R2, [UR7]`, `ST [UR4], R2`, `LD R3, [UR7+0x4]`, `STG [UR6], R3`.
    let src = ".version 7.8\n.target sm_80\n.address_size 32\n.visible .entry k(.param .u32 a)\n{\n.reg .b32 %r<5>;\nld.param.u32 %r1, [a];\nld.global.u32 %r2, [%r1];\nld.u32 %r3, [%r1+4];\nst.u32 [%r1+8], %r2;\nst.global.u32 [%r1], %r3;\nret;\n}\n";
    for (sm, want) in [
        (
            "sm_70",
            [
                "LDG.SYS R, [R]",
                "LD.SYS R, [R+0x4]",
                "ST.SYS [R+0x8], R",
                "STG.SYS [R], R",
            ],
        ),
        (
            "sm_80",
            ["LDG R, [R]", "LD R, [R+0x4]", "ST [R+0x8], R", "STG [R], R"],
        ),
    ] {
        let t = lower_text(src, sm);
        for w in want {
            assert!(has(&t, w), "{sm}: {w}\n{t}");
        }
        assert!(!t.contains(".E"), "{sm}: {t}");
    }
}

#[test]
fn brx_idx_is_a_compare_and_branch_chain() {
    // Our sequence (control.rs): one `ISETP.EQ.U32` + `@P BRA` per target
    // in table order, then `BPT.TRAP 0x1` for an index past the table.
    let body = "brx.idx %r1, T;\nT: .branchtargets A, B, A;\nA:\nadd.u32 %r4, %r1, 1;\nB:\nadd.u32 %r4, %r1, 2;";
    for sm in ["sm_70", "sm_80", "sm_90"] {
        let t = lower_text(&kernel(body), sm);
        let s = shapes(&t);
        let at = |l: &str| {
            s.iter()
                .position(|x| x == l)
                .unwrap_or_else(|| panic!("{sm}: {l}\n{t}"))
        };
        let (k0, k1, k2) = (
            at("ISETP.EQ.U32.AND P, PT, R, 0x0, PT"),
            at("ISETP.EQ.U32.AND P, PT, R, 0x1, PT"),
            at("ISETP.EQ.U32.AND P, PT, R, 0x2, PT"),
        );
        let trap = at("BPT.TRAP 0x1");
        assert!(k0 < k1 && k1 < k2 && k2 < trap, "{sm}\n{t}");
        for k in [k0, k1, k2] {
            assert!(s[k + 1].starts_with("@P BRA "), "{sm}\n{t}");
        }
        // Targets 0 and 2 are the same label (`shapes` drops label numbers).
        let labs: Vec<&str> = t
            .lines()
            .filter(|l| l.contains(" BRA "))
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        assert_eq!(labs.len(), 3, "{sm}\n{t}");
        assert_eq!(labs[0], labs[2], "{sm}\n{t}");
        assert_ne!(labs[0], labs[1], "{sm}\n{t}");
    }
}

#[test]
fn brkpt_is_a_no_op() {
    // ptxas emits `BPT.TRAP 0x1`; the interpreter's rule (a no-op) is
    // followed (mod.rs `dispatch`).
    let with = lower_text(&kernel("brkpt;\nadd.u32 %r4, %r1, %r2;"), "sm_80");
    let without = lower_text(&kernel("add.u32 %r4, %r1, %r2;"), "sm_80");
    assert_eq!(with, without);
}

#[test]
fn nwarpid_nsmid_and_dynamic_smem_size_are_ptxas_forms() {
    // ptxas 11.8 sm_70..sm_90: `MOV R10, 0x40` (%nwarpid), `MOV R9,
    // c[0x0][0x10c]` (%nsmid), `MOV R11, c[0x0][0x2c]` (%dynamic_smem_size).
    let src = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\nmov.u32 %r1, %nwarpid;\nmov.u32 %r2, %nsmid;\nmov.u32 %r3, %dynamic_smem_size;\nld.param.u64 %rd1, [o];\nst.global.u32 [%rd1], %r1;\nst.global.u32 [%rd1+4], %r2;\nst.global.u32 [%rd1+8], %r3;\nret;\n}\n";
    for sm in ["sm_70", "sm_80", "sm_90"] {
        let t = lower_text(src, sm);
        assert!(has(&t, "MOV R, 0x40"), "{sm}: {t}");
        assert!(has(&t, "MOV R, c[0x0][0x10c]"), "{sm}: {t}");
        assert!(has(&t, "MOV R, c[0x0][0x2c]"), "{sm}: {t}");
    }
}

#[test]
fn launch_environment_registers_are_ptxas_forms() {
    // ptxas 11.8 (measured, sm_70/75/80/86/89/90): `%gridid` `MOV R6,
    // c[0x0][0x30] ; MOV R7, c[0x0][0x34]`; `%envreg0`/`%envreg31`
    // `c[0x0][0x88]`/`c[0x0][0x104]` (sm_90: `0x40`/`0xbc`);
    // `%total_smem_size` `S2R R8, SR_SMEMSZ`, minus `c[0x0][0x114]` from
    // sm_80 on; `%pm7` `CS2R.32 R11, SR_PM7`; `%pm3_64` `CS2R R4, SR_PM3`.
    let src = ".version 7.8\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\nmov.u64 %rd2, %gridid;\nmov.u32 %r1, %total_smem_size;\nmov.u32 %r2, %envreg0;\nmov.u32 %r3, %envreg31;\nmov.u32 %r4, %pm7;\nmov.u64 %rd3, %pm3_64;\nld.param.u64 %rd1, [o];\nst.global.u64 [%rd1], %rd2;\nst.global.u32 [%rd1+8], %r1;\nst.global.u32 [%rd1+12], %r2;\nst.global.u32 [%rd1+16], %r3;\nst.global.u32 [%rd1+20], %r4;\nst.global.u64 [%rd1+24], %rd3;\nret;\n}\n";
    for sm in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
        let t = lower_text(src, sm);
        let (e0, e31) = if sm == "sm_90" {
            ("0x40", "0xbc")
        } else {
            ("0x88", "0x104")
        };
        for l in [
            "MOV R, c[0x0][0x30]".to_string(),
            "MOV R, c[0x0][0x34]".to_string(),
            format!("MOV R, c[0x0][{e0}]"),
            format!("MOV R, c[0x0][{e31}]"),
            "S2R R, SR_SMEMSZ".to_string(),
            "CS2R.32 R, SR_PM7".to_string(),
            "CS2R R, SR_PM3".to_string(),
        ] {
            assert!(has(&t, &l), "{sm}: no `{l}`\n{t}");
        }
        let sub = has(&t, "IADD3 R, R, -c[0x0][0x114], RZ");
        assert_eq!(sub, !matches!(sm, "sm_70" | "sm_75"), "{sm}\n{t}");
    }
}
