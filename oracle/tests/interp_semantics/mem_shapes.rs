//! The memory shapes the generator writes (gen/memory.rs, gen/atomic.rs,
//! gen/alias.rs) that the other tables do not cover: narrow and vector
//! accesses of `.const`, `.local` and `.shared`, 64-bit atomics and
//! reductions, memory-order qualifiers, and two kernel parameters over one
//! buffer. Expected values: host arithmetic on the little-endian bytes,
//! the ISA's extension rules (ISA 9.7.9.8 "ld": a narrow load into a
//! wider register is sign-extended for `.s` types and zero-extended for
//! `.u`/`.b`; 9.7.9.10 "st": a wider source register is truncated) and
//! the atom/red operation definitions (ISA 9.7.13.5, 9.7.13.6).

use super::harness::*;

/// `ctab`'s 16 bytes: 0x81, 0x7f, 0xff, 0x80 | 0x01 .. 0x04 | words 10, 20.
const CTAB: &str = ".const .align 16 .b32 ctab[4] = {0x80ff7f81, 0x04030201, 10, 20};";

#[test]
fn const_narrow_and_vector_loads() {
    let _c = rows_of("const_narrow_and_vector_loads");
    let mut t = Tables::new();
    // ld.const.s8 of 0x81 = -127; .u8 of 0x81 = 129; .s16 of 0x80ff = -32513
    // (bytes 2..3 = 0xff, 0x80); .u16 of 0x7f81 = 32641.
    t.tg(
        "ld.const.s8/u8/s16/u16",
        CTAB,
        "\t.reg .b32 %a, %b, %c, %e;\n\t.reg .b64 %x, %y;",
        "\tld.const.s8 %a, [ctab];\n\tld.const.u8 %b, [ctab];\n\tld.const.s16 %c, [ctab+2];\n\tld.const.u16 %e, [ctab];\n\
         \tmov.b64 %x, {%a, %b};\n\tmov.b64 %y, {%c, %e};\n\tst.global.u64 [%pd], %x;\n\tst.global.u64 [%pe], %y;",
        vec![row(
            &[],
            &[
                u64::from(-127i32 as u32) | (129 << 32),
                u64::from(-32513i32 as u32) | (32641 << 32),
            ],
            "bytes 0x81 0x7f 0xff 0x80",
        )],
    );
    // ld.const.v4.u32 reads the four words; v2.u32 at +8 the last two; a
    // register index of 8 bytes reaches the same v2.
    t.tg(
        "ld.const.v4.u32 / v2.u32",
        CTAB,
        "\t.reg .b32 %a, %b, %c, %e, %f, %g;\n\t.reg .b64 %x, %y, %t;",
        "\tld.const.v4.u32 {%a, %b, %c, %e}, [ctab];\n\tmov.u64 %t, ctab;\n\tld.const.v2.u32 {%f, %g}, [%t+8];\n\
         \tadd.u32 %c, %c, %f;\n\tadd.u32 %e, %e, %g;\n\tmov.b64 %x, {%a, %b};\n\tmov.b64 %y, {%c, %e};\n\
         \tst.global.u64 [%pd], %x;\n\tst.global.u64 [%pe], %y;",
        vec![row(
            &[],
            &[0x0403_0201_80ff_7f81, (40u64 << 32) | 20],
            "words and their sums",
        )],
    );
    // ld.const.b8 into a 16-bit register: zero-extended (0xff -> 0x00ff).
    t.tg(
        "ld.const.b8 into .b16",
        CTAB,
        "\t.reg .b16 %h;\n\t.reg .b32 %a;",
        "\tld.const.b8 %h, [ctab+2];\n\tcvt.u32.u16 %a, %h;\n\tst.global.u32 [%pd], %a;",
        vec![row(&[], &[0xff], "byte 2")],
    );
    t.check();
}

#[test]
fn local_and_shared_vector_and_narrow_accesses() {
    let _c = rows_of("local_and_shared_vector_and_narrow_accesses");
    let mut t = Tables::new();
    // st.local.v4.u32 of a's and b's words, then ld.local.v2.u32 of the
    // upper pair (8-byte aligned, as a .v2 of 4-byte elements must be), ld.local.s16 of the top half of b's low word, and a
    // truncating st.local.u8 of 0x1ff over byte 0 read back as .u32.
    let decls = "\t.local .align 16 .b8 lb[16];\n\t.reg .b64 %a, %b, %x;\n\t.reg .b32 %a0, %a1, %b0, %b1, %m0, %m1, %s, %w, %k;";
    let body = "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tmov.b64 {%a0, %a1}, %a;\n\tmov.b64 {%b0, %b1}, %b;\n\
                \tst.local.v4.u32 [lb], {%a0, %a1, %b0, %b1};\n\tld.local.v2.u32 {%m0, %m1}, [lb+8];\n\tld.local.s16 %s, [lb+10];\n\
                \tmov.u32 %k, 0x1ff;\n\tst.local.u8 [lb], %k;\n\tld.local.u32 %w, [lb];\n\
                \tmov.b64 %x, {%m0, %m1};\n\tst.global.u64 [%pd], %x;\n\tmov.b64 %x, {%s, %w};\n\tst.global.u64 [%pe], %x;";
    let mut rows = Vec::new();
    for (a, b) in [
        (0x1111_2222_3333_4444u64, 0x5555_6666_8877_9999u64),
        (0xffff_ffff_0000_0001, 0x0000_0000_7fff_0000),
    ] {
        // the v2 at byte 8 is b's two words
        let middle = b;
        let s = u64::from((((b >> 16) & 0xffff) as u16 as i16 as i32) as u32);
        let w = ((a & 0xffff_ff00) | 0xff) & 0xffff_ffff;
        rows.push(row(&[a, b], &[middle, s | (w << 32)], "local v4/v2/s16/u8"));
    }
    t.t("local vectors and narrow", decls, body, rows);
    // Shared: each thread's 16 bytes; st.shared.v2.u64, then
    // ld.shared.v4.u32 and a generic ld.u16 of byte 6 through cvta.shared.
    let decls = "\t.shared .align 16 .b8 sb[64];\n\t.reg .b64 %a, %b, %s, %g, %x, %q;\n\t.reg .b32 %w0, %w1, %w2, %w3, %h;";
    let body = "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tmov.u64 %s, sb;\n\tmul.wide.u32 %q, %tx, 16;\n\tadd.s64 %s, %s, %q;\n\
                \tst.shared.v2.u64 [%s], {%a, %b};\n\tld.shared.v4.u32 {%w0, %w1, %w2, %w3}, [%s];\n\tcvta.shared.u64 %g, %s;\n\tld.u16 %h, [%g+6];\n\
                \tadd.u32 %w0, %w0, %w3;\n\tmov.b64 %x, {%w0, %h};\n\tst.global.u64 [%pd], %x;\n\tmov.b64 %x, {%w2, %w1};\n\tst.global.u64 [%pe], %x;";
    let mut rows = Vec::new();
    for (a, b) in [
        (0x0102_0304_0506_0708u64, 0x1112_1314_1516_1718u64),
        (0xfedc_ba98_7654_3210, 0xffff_ffff_ffff_ffff),
    ] {
        let w0 = (a as u32).wrapping_add((b >> 32) as u32);
        let h = (a >> 48) & 0xffff;
        rows.push(row(
            &[a, b],
            &[
                u64::from(w0) | (h << 32),
                (b & 0xffff_ffff) | ((a >> 32) << 32),
            ],
            "shared v2.u64 / v4.u32 / generic u16",
        ));
    }
    t.t("shared vectors and narrow", decls, body, rows);
    t.check();
}

#[test]
fn atomics_64_bit_operations_and_orders() {
    let _c = rows_of("atomics_64_bit_operations_and_orders");
    let mut t = Tables::new();
    let r64 = "\t.reg .b64 %a, %b, %e;";
    let body = |op: &str| {
        format!("\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tst.global.u64 [%pd], %a;\n\t{op} %e, [%pd], %b;\n\tst.global.u64 [%pe], %e;")
    };
    let (a, b) = (0x8000_0000_0000_0005u64, 0x0000_0001_ffff_fff0u64);
    // Each row: memory a, operand b; d = the new memory, e = the old (a).
    for (op, new) in [
        ("atom.global.min.u64", a.min(b)),
        ("atom.global.max.u64", a.max(b)),
        ("atom.global.max.s64", (a as i64).max(b as i64) as u64),
        ("atom.global.and.b64", a & b),
        ("atom.global.or.b64", a | b),
        ("atom.global.xor.b64", a ^ b),
        ("atom.relaxed.gpu.global.add.u64", a.wrapping_add(b)),
        ("atom.acq_rel.sys.global.xor.b64", a ^ b),
        ("atom.acquire.cta.global.exch.b64", b),
    ] {
        t.t(op, r64, &body(op), vec![row(&[a, b], &[new, a], op)]);
    }
    // red forms: no result; the memory only.
    let red = |op: &str| {
        format!("\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tst.global.u64 [%pd], %a;\n\t{op} [%pd], %b;\n\tst.global.u64 [%pe], %a;")
    };
    for (op, new) in [
        ("red.global.add.u64", a.wrapping_add(b)),
        ("red.release.gpu.global.min.u64", a.min(b)),
        (
            "red.relaxed.sys.global.max.s64",
            (a as i64).max(b as i64) as u64,
        ),
        ("red.gpu.global.xor.b64", a ^ b),
    ] {
        t.t(op, r64, &red(op), vec![row(&[a, b], &[new, a], op)]);
    }
    // 32-bit with orders and a generic address (cvta.global).
    t.t(
        "atom.acq_rel.gpu.add.u32 (generic)",
        "\t.reg .b32 %a, %b, %e;\n\t.reg .b64 %g;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tst.global.u32 [%pd], %a;\n\tcvta.global.u64 %g, %pd;\n\
         \tatom.acq_rel.gpu.add.u32 %e, [%g], %b;\n\tst.global.u32 [%pe], %e;",
        vec![row(&[0xffff_fff0, 0x20], &[0x10, 0xffff_fff0], "wraps")],
    );
    // A 64-bit shared reduction from every thread (commutative: the sum of
    // the inputs does not depend on the order).
    t.t(
        "red.shared.add.u64 from every thread",
        "\t.shared .align 8 .b64 sacc;\n\t.reg .b64 %a, %v;\n\t.reg .pred %p;",
        "\tld.global.u64 %a, [%pa];\n\tsetp.eq.u32 %p, %tx, 0;\n\t@%p st.shared.u64 [sacc], 0;\n\tbar.sync 0;\n\
         \tred.cta.shared.add.u64 [sacc], %a;\n\tbar.sync 0;\n\tld.shared.u64 %v, [sacc];\n\tst.global.u64 [%pd], %v;",
        {
            let ins = [u64::MAX, 3, 1 << 40];
            let sum = ins.iter().fold(0u64, |s, &x| s.wrapping_add(x));
            ins.iter().map(|&x| row(&[x], &[sum], "sum of 3")).collect()
        },
    );
    // Loads with order qualifiers read the same value as a plain load.
    t.t(
        "ld.volatile / ld.relaxed.gpu / ld.acquire.gpu / ld.global.nc.v2",
        "\t.reg .b32 %a, %b, %c, %e, %f;\n\t.reg .b64 %x;",
        "\tld.volatile.global.u32 %a, [%pa];\n\tld.relaxed.gpu.global.u32 %b, [%pa+4];\n\tld.acquire.gpu.global.u32 %c, [%pb];\n\
         \tld.global.nc.v2.u32 {%e, %f}, [%pb];\n\tadd.u32 %c, %c, %e;\n\tmov.b64 %x, {%a, %b};\n\tst.global.u64 [%pd], %x;\n\
         \tmov.b64 %x, {%c, %f};\n\tst.global.u64 [%pe], %x;",
        vec![row(
            &[0x1234_5678_9abc_def0, 0x0000_0002_0000_0007],
            &[0x1234_5678_9abc_def0, 0x0000_0002_0000_000e],
            "same words",
        )],
    );
    t.check();
}

/// Two kernel parameters bound to one buffer, the second 8 bytes into it:
/// a store through one is seen by a load through the other.
#[test]
fn two_parameters_over_one_buffer() {
    let _c = rows_of("two_parameters_over_one_buffer");
    let src = format!(
        "{HEADER}.visible .entry k(.param .u64 p_a, .param .u64 p_b)\n{{\n\
         \t.reg .b64 %a, %b, %g, %q;\n\t.reg .b32 %t, %v, %w;\n\t.reg .pred %p;\n\
         \tld.param.u64 %a, [p_a];\n\tld.param.u64 %b, [p_b];\n\tcvta.to.global.u64 %a, %a;\n\tcvta.to.global.u64 %b, %b;\n\
         \tmov.u32 %t, %tid.x;\n\tmul.wide.u32 %q, %t, 16;\n\tadd.s64 %a, %a, %q;\n\tadd.s64 %b, %b, %q;\n\
         \tadd.u32 %v, %t, 100;\n\tst.global.u32 [%a+12], %v;\n\tld.global.u32 %w, [%b+4];\n\
         \tcvta.global.u64 %g, %b;\n\tisspacep.shared %p, %g;\n\t@%p add.u32 %w, %w, 1000;\n\
         \tsub.s64 %g, %g, 8;\n\tst.u32 [%g], %w;\n\tret;\n}}\n"
    );
    let spec = r#"{"kernel":"k","grid":[1,1,1],"block":[2,1,1],
        "params":[{"buffer":"m"},{"buffer":"m","offset":8}],
        "buffers":{"m":{"type":"u32","len":10,"init":"zeros"}}}"#;
    let r = run_src(&src, spec, &oracle::ptx_interp::RunLimits::default());
    check_eq(
        &r.outcome,
        &oracle::ptx_interp::Outcome::Completed,
        "completes",
    );
    // Thread t: word 4t+3 = t+100 (through p_a); reads word 4t+3 through
    // p_b (+8 bytes +4) and stores it to word 4t (through p_b - 8).
    check_eq(
        out(&r, "m"),
        vec![100, 0, 0, 100, 101, 0, 0, 101, 0, 0],
        "m after both threads",
    );
}
