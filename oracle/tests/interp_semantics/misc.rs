//! Assorted wiring: cache/ordering qualifiers that must not change values,
//! brx.idx, dynamic shared memory, lane masks, a 3-D launch, a 32-bit
//! address module, packed half conversions.

use super::harness::*;
use oracle::ptx_interp::{Outcome, RunLimits};

#[test]
fn qualifiers_that_do_not_change_values() {
    let _c = rows_of("qualifiers_that_do_not_change_values");
    let mut t = Tables::new();
    // Cache operators, .nc, ldu, volatile/relaxed/acquire loads and stores,
    // fences and membar: the values are those of plain ld/st.
    let loads = [
        "ld.global.nc.u32",
        "ld.global.ca.u32",
        "ld.global.cg.u32",
        "ld.global.cs.u32",
        "ld.global.lu.u32",
        "ld.global.cv.u32",
        "ldu.global.u32",
        "ld.volatile.global.u32",
        "ld.relaxed.gpu.global.u32",
        "ld.acquire.gpu.global.u32",
        "ld.weak.global.u32",
    ];
    for ld in loads {
        t.t(
            ld,
            "\t.reg .b32 %a;",
            &format!("\t{ld} %a, [%pa];\n\tst.global.u32 [%pd], %a;"),
            vec![row(&[0xdead_beef], &[0xdead_beef], ld)],
        );
    }
    let stores = [
        "st.global.wb.u32",
        "st.global.cg.u32",
        "st.global.cs.u32",
        "st.global.wt.u32",
        "st.volatile.global.u32",
        "st.relaxed.gpu.global.u32",
        "st.release.gpu.global.u32",
    ];
    for st in stores {
        t.t(
            st,
            "\t.reg .b32 %a;",
            &format!("\tld.global.u32 %a, [%pa];\n\tmembar.gl;\n\tfence.sc.gpu;\n\tfence.acq_rel.cta;\n\t{st} [%pd], %a;"),
            vec![row(&[0x1234_5678], &[0x1234_5678], st)],
        );
    }
    // bra.uni, a predicated vector store, exit in the middle of a kernel.
    t.t(
        "bra.uni / guarded v2 store / exit",
        "\t.reg .b32 %a, %b;\n\t.reg .pred %p;",
        "\tld.global.u32 %a, [%pa];\n\tbra.uni L1;\n\tmov.u32 %a, 0;\nL1:\n\tsetp.ne.u32 %p, %a, 0;\n\tadd.u32 %b, %a, 1;\n\t@%p st.global.v2.u32 [%pd], {%a, %b};\n\t@!%p exit;\n\
         \tst.global.u32 [%pe], 7;",
        vec![row(&[5], &[5 | (6 << 32), 7], "taken"), row(&[0], &[0, 0], "exited before any store")],
    );
    // Float immediates in compare and arithmetic: 0f (hex f32) and 0d (hex f64).
    t.t(
        "float immediates",
        "\t.reg .f32 %a, %d;\n\t.reg .f64 %x, %y;\n\t.reg .pred %p;\n\t.reg .b32 %l;",
        "\tld.global.f32 %a, [%pa];\n\tadd.rn.f32 %d, %a, 0f3F000000;\n\tsetp.gt.f32 %p, %a, 0f40000000;\n\tselp.u32 %l, 1, 0, %p;\n\tst.global.f32 [%pd], %d;\n\tst.global.u32 [%pd+4], %l;\n\
         \tcvt.f64.f32 %x, %a;\n\tmul.rn.f64 %y, %x, 0d4008000000000000;\n\tst.global.f64 [%pe], %y;",
        vec![row(&[f(2.5)], &[f(3.0) | (1 << 32), d(7.5)], "2.5"), row(&[f(1.0)], &[f(1.5), d(3.0)], "1.0")],
    );
    // Vector f64/f32 stores.
    t.t(
        "st.global.v2.f64 / v4.f32",
        "\t.reg .f64 %x, %y;\n\t.reg .f32 %f<4>;",
        "\tld.global.v2.f64 {%x, %y}, [%pa];\n\tst.global.v2.f64 [%pd], {%y, %x};\n\tld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%pa];\n\tst.global.v4.f32 [%pc], {%f3, %f2, %f1, %f0};",
        vec![row(&[d(1.0), d(-2.0)], &[d(-2.0), d(1.0)], "swap")],
    );
    t.check();
}

#[test]
fn brx_idx_jump_table() {
    let _c = rows_of("brx_idx_jump_table");
    let mut t = Tables::new();
    let body = "\tld.global.u32 %a, [%pa];\n\tbrx.idx %a, TABLE;\nC0:\n\tmov.u32 %d, 100;\n\tbra.uni DONE;\nC1:\n\tmov.u32 %d, 101;\n\tbra.uni DONE;\nC2:\n\tmov.u32 %d, 102;\n\tbra.uni DONE;\n\
                TABLE: .branchtargets C2, C0, C1;\nDONE:\n\tst.global.u32 [%pd], %d;";
    // TABLE lists C2, C0, C1: index 0 goes to C2 (102), 1 to C0 (100), 2 to C1 (101).
    t.t(
        "brx.idx",
        "\t.reg .b32 %a, %d;",
        body,
        vec![
            row(&[0], &[102], "0 -> C2"),
            row(&[1], &[100], "1 -> C0"),
            row(&[2], &[101], "2 -> C1"),
        ],
    );
    t.check();
}

#[test]
fn dynamic_shared_memory() {
    let _c = rows_of("dynamic_shared_memory");
    // extern .shared array sized by the launch (dynamic_shared_bytes = 256):
    // 64 threads write tid * 3, read (63 - tid).
    let src = format!(
        "{HEADER}.extern .shared .align 4 .b8 dyn[];\n.visible .entry k(.param .u64 p_out)\n{{\n\t.reg .b64 %o, %s, %a, %t;\n\t.reg .b32 %tx, %v, %n;\n\
         \tld.param.u64 %o, [p_out];\n\tmov.u32 %tx, %tid.x;\n\tmov.u64 %s, dyn;\n\tmul.wide.u32 %t, %tx, 4;\n\tadd.s64 %a, %s, %t;\n\tmul.lo.u32 %v, %tx, 3;\n\tst.shared.u32 [%a], %v;\n\
         \tbar.sync 0;\n\tsub.u32 %n, 63, %tx;\n\tmul.wide.u32 %t, %n, 4;\n\tadd.s64 %a, %s, %t;\n\tld.shared.u32 %v, [%a];\n\tmov.u32 %n, %dynamic_smem_size;\n\
         \tmul.wide.u32 %t, %tx, 8;\n\tadd.s64 %a, %o, %t;\n\tst.global.v2.u32 [%a], {{%v, %n}};\n\tret;\n}}\n"
    );
    let spec = r#"{"kernel":"k","grid":[1],"block":[64],"params":[{"buffer":"out"}],"buffers":{"out":{"type":"u64","len":64,"init":"zeros"}},"dynamic_shared_bytes":256}"#;
    let r = run_src(&src, spec, &RunLimits::default());
    check_eq(
        r.outcome.clone(),
        Outcome::Completed,
        "dynamic shared kernel completes",
    );
    let o = out(&r, "out");
    for k in 0..64u64 {
        check_eq(
            o[k as usize],
            ((63 - k) * 3) | (256 << 32),
            &format!("dyn shared thread {k}"),
        );
    }
}

#[test]
fn lane_masks_and_3d_ids() {
    let _c = rows_of("lane_masks_and_3d_ids");
    // %lanemask_eq/lt/le/gt/ge for each lane of a 32-thread block.
    let body = "\tmov.u32 %a, %lanemask_eq;\n\tmov.u32 %b, %lanemask_lt;\n\tmov.u32 %c, %lanemask_le;\n\tmov.u32 %d, %lanemask_gt;\n\tmov.u32 %e, %lanemask_ge;\n\
                \tmul.wide.u32 %t64, %tx, 32;\n\tadd.s64 %g, %out, %t64;\n\tst.global.v4.u32 [%g], {%a, %b, %c, %d};\n\tst.global.u32 [%g+16], %e;";
    let got = run_ok(
        "\t.reg .b32 %a, %b, %c, %d, %e;\n\t.reg .b64 %g;",
        body,
        vec![],
        4 * 32,
        [1, 1, 1],
        [32, 1, 1],
    );
    for lane in 0..32u32 {
        let eq = 1u64 << lane;
        let lt = eq - 1;
        let le = (eq << 1).wrapping_sub(1) & 0xffff_ffff;
        let gt = !le & 0xffff_ffff;
        let ge = !lt & 0xffff_ffff;
        let k = 4 * lane as usize;
        check_eq(
            (got[k], got[k + 1], got[k + 2] & 0xffff_ffff),
            (eq | (lt << 32), le | (gt << 32), ge),
            &format!("lane masks of lane {lane}"),
        );
    }
    // 3-D launch: grid (1, 1, 2), block (2, 2, 2): linear slot
    // ctaid.z * 8 + tid.z * 4 + tid.y * 2 + tid.x holds tid.x | tid.y << 8 | tid.z << 16 | ctaid.z << 24 | ntid.z << 32 | nctaid.z << 40.
    let body = "\tmov.u32 %a, %tid.y;\n\tmov.u32 %b, %tid.z;\n\tmov.u32 %c, %ctaid.z;\n\tmov.u32 %d, %ntid.z;\n\tmov.u32 %e, %nctaid.z;\n\
                \tshl.b32 %f, %a, 8;\n\tor.b32 %f, %f, %tx;\n\tshl.b32 %h, %b, 16;\n\tor.b32 %f, %f, %h;\n\tshl.b32 %h, %c, 24;\n\tor.b32 %f, %f, %h;\n\tshl.b32 %h, %e, 8;\n\tor.b32 %h, %h, %d;\n\
                \tshl.b32 %i, %c, 3;\n\tshl.b32 %j, %b, 2;\n\tadd.u32 %i, %i, %j;\n\tshl.b32 %j, %a, 1;\n\tadd.u32 %i, %i, %j;\n\tadd.u32 %i, %i, %tx;\n\
                \tmul.wide.u32 %t64, %i, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.v2.u32 [%g], {%f, %h};";
    let got = run_ok(
        "\t.reg .b32 %a, %b, %c, %d, %e, %f, %h, %i, %j;\n\t.reg .b64 %g;",
        body,
        vec![],
        16,
        [1, 1, 2],
        [2, 2, 2],
    );
    for cz in 0..2u64 {
        for z in 0..2u64 {
            for y in 0..2u64 {
                for x in 0..2u64 {
                    let k = (cz * 8 + z * 4 + y * 2 + x) as usize;
                    check_eq(
                        got[k],
                        x | y << 8 | z << 16 | cz << 24 | 2 << 32 | 2 << 40,
                        &format!("3-D ids ctaid.z {cz} tid ({x},{y},{z})"),
                    );
                }
            }
        }
    }
}

#[test]
fn address_size_32_module() {
    let _c = rows_of("address_size_32_module");
    // With .address_size 32, buffer parameters are .u32 and addresses are
    // 32-bit registers; buffers still start at 0x10000000.
    let src = ".version 7.8\n.target sm_80\n.address_size 32\n.visible .entry k(.param .u32 p_out, .param .u32 p_in)\n{\n\t.reg .b32 %o, %i, %t, %a, %v;\n\
               \tld.param.u32 %o, [p_out];\n\tld.param.u32 %i, [p_in];\n\tmov.u32 %t, %tid.x;\n\tshl.b32 %t, %t, 2;\n\tadd.u32 %a, %i, %t;\n\tld.global.u32 %v, [%a];\n\tmul.lo.u32 %v, %v, 5;\n\
               \tadd.u32 %a, %o, %t;\n\tst.global.u32 [%a], %v;\n\tsetp.eq.u32 %p, %t, 0;\n\t@%p st.global.u32 [%o+28], %o;\n\tret;\n}\n";
    let src = src.replace(
        "\t.reg .b32 %o, %i, %t, %a, %v;\n",
        "\t.reg .b32 %o, %i, %t, %a, %v;\n\t.reg .pred %p;\n",
    );
    let spec = spec_json(
        [1, 1, 1],
        [7, 1, 1],
        &[
            buf("out", "u32", vec![0; 8]),
            buf("in", "u32", (1..=7).collect()),
        ],
        &[],
    );
    let r = run_src(&src, &spec, &RunLimits::default());
    check_eq(
        r.outcome.clone(),
        Outcome::Completed,
        "32-bit module completes",
    );
    let o = out(&r, "out");
    for k in 0..7u64 {
        check_eq(
            o[k as usize],
            (k + 1) * 5,
            &format!("32-bit addressing element {k}"),
        );
    }
    check_eq(o[7], 0x1000_0000, "out's address as a .u32 param");
}

#[test]
fn packed_and_bf16_conversions() {
    let _c = rows_of("packed_and_bf16_conversions");
    let mut t = Tables::new();
    // cvt.rn.f16x2.f32 d, a, b: a goes to the upper half, b to the lower.
    t.t(
        "cvt.rn.f16x2.f32",
        "\t.reg .f32 %a, %b;\n\t.reg .b32 %d;",
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tcvt.rn.f16x2.f32 %d, %a, %b;\n\tst.global.b32 [%pd], %d;",
        vec![row(&[f(1.0), f(2.0)], &[0x3c00_4000], "(1, 2)"), row(&[f(-2.0), f(65520.0)], &[0xc000_7c00], "(-2, overflow)")],
    );
    // bf16 is the upper half of f32, rounded to nearest even:
    // 1/3 = 0x3eaaaaab -> 0x3eab (low half 0xaaab > 0x8000 rounds up);
    // 0x3f808000 is a tie -> even 0x3f80; 0x3f818000 ties up to 0x3f82.
    t.t(
        "cvt.rn.bf16.f32 / cvt.f32.bf16",
        "\t.reg .f32 %a, %e;\n\t.reg .b16 %d;",
        "\tld.global.f32 %a, [%pa];\n\tcvt.rn.bf16.f32 %d, %a;\n\tcvt.f32.bf16 %e, %d;\n\tst.global.b16 [%pd], %d;\n\tst.global.f32 [%pe], %e;",
        vec![
            row(&[f(1.0 / 3.0)], &[0x3eab, 0x3eab_0000], "1/3"),
            row(&[0x3f80_8000], &[0x3f80, 0x3f80_0000], "tie to even (down)"),
            row(&[0x3f81_8000], &[0x3f82, 0x3f82_0000], "tie to even (up)"),
            row(&[f(-1.0)], &[0xbf80, 0xbf80_0000], "-1"),
        ],
    );
    // neg.f16 flips the sign bit; max.f16.
    t.t(
        "neg.f16 / max.f16",
        "\t.reg .b16 %a, %b, %d, %e;",
        "\tld.global.b16 %a, [%pa];\n\tld.global.b16 %b, [%pb];\n\tneg.f16 %d, %a;\n\tmax.f16 %e, %a, %b;\n\tst.global.b16 [%pd], %d;\n\tst.global.b16 [%pe], %e;",
        vec![row(&[0x3c00, 0x4000], &[0xbc00, 0x4000], "1, 2"), row(&[0xc000, 0xbc00], &[0x4000, 0xbc00], "-2, -1")],
    );
    // fma.rn.f16x2 lane-wise: (1, 2) * (3, 4) + (0.5, 0.25).
    t.t(
        "fma.rn.f16x2",
        "\t.reg .b32 %a, %b, %c, %d;",
        "\tld.global.b32 %a, [%pa];\n\tld.global.b32 %b, [%pb];\n\tld.global.b32 %c, [%pc];\n\tfma.rn.f16x2 %d, %a, %b, %c;\n\tst.global.b32 [%pd], %d;",
        // high lanes: 2 * 4 + 0.25 = 8.25 (0x4820); low lanes: 1 * 3 + 0.5 = 3.5 (0x4300).
        vec![row(&[0x4000_3c00, 0x4400_4200, 0x3400_3800], &[0x4820_4300], "lane-wise")],
    );
    // copysign.f64.
    t.t(
        "copysign.f64",
        "\t.reg .f64 %a, %b, %d;",
        "\tld.global.f64 %a, [%pa];\n\tld.global.f64 %b, [%pb];\n\tcopysign.f64 %d, %a, %b;\n\tst.global.f64 [%pd], %d;",
        vec![row(&[d(-0.0), d(3.0)], &[d(-3.0)], "sign of a onto b")],
    );
    t.check();
}

#[test]
fn variable_layout_respects_alignment() {
    let _c = rows_of("variable_layout_respects_alignment");
    let mut t = Tables::new();
    // Odd-sized variables before aligned ones in every space: the aligned
    // ones must still be naturally aligned (no Misaligned UB) and hold their values.
    let globals = ".const .b8 c1[3] = {1, 2, 3};\n.const .align 8 .u64 c2 = 0x1122334455667788;\n.global .b8 g1[5];\n.global .align 16 .b32 g2[4] = {5, 6, 7, 8};";
    let decls = "\t.shared .b8 s1[3];\n\t.shared .align 8 .b64 s2;\n\t.local .b8 l1[3];\n\t.local .align 16 .b32 l2[4];\n\t.reg .b64 %x, %y;\n\t.reg .b32 %v<4>;";
    let body = "\tld.const.u64 %x, [c2];\n\tst.shared.u64 [s2], %x;\n\tld.shared.u64 %y, [s2];\n\tld.global.v4.u32 {%v0, %v1, %v2, %v3}, [g2];\n\tst.local.v4.u32 [l2], {%v3, %v2, %v1, %v0};\n\
                \tld.local.v4.u32 {%v0, %v1, %v2, %v3}, [l2];\n\tst.global.u64 [%pd], %y;\n\tst.global.v2.u32 [%pe], {%v0, %v3};\n\tld.const.u8 %v0, [c1+2];\n\tst.global.u8 [%pe+7], %v0;";
    t.tg(
        "aligned after odd-sized",
        globals,
        decls,
        body,
        vec![row(
            &[],
            &[0x1122_3344_5566_7788, 8 | (0x0300_0005 << 32)],
            "values",
        )],
    );
    t.check();
}

#[test]
fn kernel_param_addresses() {
    let _c = rows_of("kernel_param_addresses");
    let mut t = Tables::new();
    // The address of a kernel parameter (mov of the param symbol) used by
    // ld.param through a register: reads the parameter value.
    t.t(
        "ld.param via register",
        "\t.reg .b64 %a, %x;",
        "\tmov.u64 %a, p_in;\n\tld.param.u64 %x, [%a];\n\tsub.s64 %x, %pa, %x;\n\tst.global.u64 [%pd], %x;",
        // %pa = in + 32 * tid, so pa - in = 32 * tid: row 0 -> 0, row 1 -> 32.
        vec![row(&[], &[0], "tid 0"), row(&[], &[32], "tid 1")],
    );
    // cvta.param (PTX 7.7): a generic address of a kernel parameter, read
    // with a generic ld, gives the parameter value; isspacep.param is true.
    t.t(
        "cvta.param + generic ld",
        "\t.reg .b64 %a, %g, %x;\n\t.reg .pred %p;\n\t.reg .b32 %k;",
        "\tmov.u64 %a, p_in;\n\tcvta.param.u64 %g, %a;\n\tld.u64 %x, [%g];\n\tsub.s64 %x, %pa, %x;\n\tst.global.u64 [%pd], %x;\n\tisspacep.param %p, %g;\n\tselp.u32 %k, 1, 2, %p;\n\tst.global.u32 [%pe], %k;",
        vec![row(&[], &[0, 1], "tid 0")],
    );
    t.check();
}

#[test]
fn hints_do_not_change_values() {
    let _c = rows_of("hints_do_not_change_values");
    let mut t = Tables::new();
    // prefetch and nanosleep do not change values. (cp.async is not accepted
    // by the ptxc parser, so it cannot be tested here.)
    t.t(
        "prefetch / nanosleep",
        "\t.reg .b32 %v;",
        "\tprefetch.global.L2 [%pa];\n\tprefetch.global.L1 [%pb];\n\tnanosleep.u32 10;\n\tld.global.u32 %v, [%pa];\n\tst.global.u32 [%pd], %v;",
        vec![row(&[0xaaaa_0001], &[0xaaaa_0001], "value unchanged")],
    );
    t.check();
}

#[test]
fn bmsk_szext_and_packed_compare() {
    let _c = rows_of("bmsk_szext_and_packed_compare");
    let mut t = Tables::new();
    // bmsk.clamp.b32 d, a, b: b ones starting at bit a, clamped to bit 31
    // (a, b > 32 clamp to 32); .wrap takes a and b modulo 32 (ISA bmsk).
    let bmsk = |a: u32, b: u32, wrap: bool| -> u32 {
        let (a, b) = if wrap {
            (a & 31, b & 31)
        } else {
            (a.min(32), b.min(32))
        };
        if a >= 32 {
            return 0;
        }
        let ones = if b >= 32 { u64::MAX } else { (1u64 << b) - 1 };
        ((ones << a) & 0xffff_ffff) as u32
    };
    let mut rows = Vec::new();
    for (a, b) in [(4u32, 8u32), (28, 8), (0, 32), (4, 40), (33, 1), (0, 0)] {
        rows.push(row(
            &[a.into(), b.into()],
            &[bmsk(a, b, false).into(), bmsk(a, b, true).into()],
            "bmsk",
        ));
    }
    rows.push(row(&[4, 8], &[0xff0, 0xff0], "by hand"));
    t.t(
        "bmsk.clamp/wrap.b32",
        "\t.reg .b32 %a, %b, %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tbmsk.clamp.b32 %d, %a, %b;\n\tbmsk.wrap.b32 %e, %a, %b;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // szext.clamp.s32 d, a, b: sign-extend the low b bits of a (b clamped to
    // 32); szext.clamp.u32 zero-extends; b = 0 gives 0.
    let rows = vec![
        row(&[0x80, 8], &[0xffff_ff80, 0x80], "8-bit 0x80"),
        row(&[0x80, 9], &[0x80, 0x80], "9-bit 0x80"),
        row(
            &[0xdead_beef, 40],
            &[0xdead_beef, 0xdead_beef],
            "b clamps to 32",
        ),
        row(&[0xdead_beef, 0], &[0, 0], "b = 0"),
        // Low 4 bits of 0xfff7 are 0x7 (bit 3 clear): 7 either way.
        row(&[0x0000_fff7, 4], &[7, 7], "4-bit 0x7"),
        row(&[0x0000_fff8, 4], &[0xffff_fff8, 8], "4-bit 0x8"),
    ];
    t.t(
        "szext.clamp.s32/u32",
        "\t.reg .b32 %a, %b, %d, %e;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tszext.clamp.s32 %d, %a, %b;\n\tszext.clamp.u32 %e, %a, %b;\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // setp.lt.f16x2 %p|%q, a, b: p from the low halves, q from the high halves.
    t.t(
        "setp.lt.f16x2 p|q",
        "\t.reg .b32 %a, %b;\n\t.reg .pred %p, %q;",
        "\tld.global.b32 %a, [%pa];\n\tld.global.b32 %b, [%pb];\n\tsetp.lt.f16x2 %p|%q, %a, %b;\n\
         \t@%p st.global.u32 [%pd], 1;\n\t@!%p st.global.u32 [%pd], 2;\n\t@%q st.global.u32 [%pe], 1;\n\t@!%q st.global.u32 [%pe], 2;",
        // a = (hi 2.0, lo 1.0), b = (hi 1.0, lo 2.0): lo 1 < 2 true, hi 2 < 1 false.
        vec![row(&[0x4000_3c00, 0x3c00_4000], &[1, 2], "lo true, hi false"), row(&[0x3c00_4000, 0x4000_3c00], &[2, 1], "lo false, hi true")],
    );
    t.check();
}
