//! Data movement: mov packing, loads with extension, vectors, and the
//! shared/local/const/param/global spaces, generic addressing, atomics.

use super::harness::*;

#[test]
fn mov_pack_unpack_and_immediates() {
    let _c = rows_of("mov_pack_unpack_and_immediates");
    let mut t = Tables::new();
    // mov.b64 %rd, {%r1, %r2}: element 0 is the low word. Loading the slot's
    // halves into r1 (low) and r2 (high) and packing {r2, r1} swaps them.
    let mut rows = Vec::new();
    for a in [
        0x1111_1111_2222_2222u64,
        0xffff_ffff_0000_0001,
        0x8000_0000_7fff_ffff,
    ] {
        rows.push(row(&[a], &[a.rotate_left(32), a], "mov.b64 pack"));
    }
    t.t(
        "mov.b64 {lo, hi}",
        "\t.reg .b32 %r1, %r2;\n\t.reg .b64 %d, %e;",
        "\tld.global.u32 %r1, [%pa];\n\tld.global.u32 %r2, [%pa+4];\n\tmov.b64 %d, {%r2, %r1};\n\tmov.b64 %e, {%r1, %r2};\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;",
        rows,
    );
    // Packing a value produced by a signed op: only its 32 bits go in.
    t.t(
        "mov.b64 pack of sub.s32 result",
        "\t.reg .b32 %r1, %r2;\n\t.reg .b64 %d;",
        "\tld.global.u32 %r1, [%pa];\n\tsub.s32 %r1, 0, %r1;\n\tmov.u32 %r2, 0;\n\tmov.b64 %d, {%r1, %r2};\n\tst.global.u64 [%pd], %d;",
        vec![row(&[1], &[0x0000_0000_ffff_ffff], "-1 in the low word"), row(&[5], &[0x0000_0000_ffff_fffb], "-5")],
    );
    // Unpack: mov.b64 {%r1, %r2}, %rd gives r1 = low, r2 = high.
    t.t(
        "mov.b64 unpack",
        "\t.reg .b32 %r1, %r2;\n\t.reg .b64 %a;",
        "\tld.global.u64 %a, [%pa];\n\tmov.b64 {%r1, %r2}, %a;\n\tst.global.u32 [%pd], %r1;\n\tst.global.u32 [%pe], %r2;",
        vec![row(&[0x1234_5678_9abc_def0], &[0x9abc_def0, 0x1234_5678], "unpack")],
    );
    // mov.b32 from {b16 x2} and v4 of bytes via mov.b32 {b8...} is not PTX; use b16 pairs.
    t.t(
        "mov.b32 {h0, h1}",
        "\t.reg .b16 %h0, %h1;\n\t.reg .b32 %d;",
        "\tld.global.u16 %h0, [%pa];\n\tld.global.u16 %h1, [%pb];\n\tmov.b32 %d, {%h0, %h1};\n\tst.global.u32 [%pd], %d;",
        vec![row(&[0xbeef, 0xdead], &[0xdead_beef], "h0 low")],
    );
    // Immediates in several forms.
    t.t(
        "mov immediates",
        "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n\t.reg .f32 %f;\n\t.reg .f64 %fd;",
        "\tmov.u32 %r0, 0xdeadbeef;\n\tmov.s32 %r1, -2;\n\tmov.f32 %f, 0f3FC00000;\n\tmov.b32 %r2, %f;\n\tmov.b64 %rd0, -1;\n\tmov.f64 %fd, 0d400C000000000000;\n\tmov.b64 %rd1, %fd;\n\
         \tst.global.v2.u32 [%pd], {%r0, %r1};\n\tst.global.u32 [%pe], %r2;\n\tst.global.u64 [%pz], %rd0;\n\tst.global.u64 [%pd+8], %rd1;",
        // %pz points into the input buffer (slot z); outputs: d = r0|r1<<32 is
        // overwritten at +8 by rd1 = 3.5 in f64 (slot e), so e = 3.5, and the
        // f32 1.5 store to [%pe] is then overwritten too.
        vec![row(&[], &[0xffff_fffe_dead_beef, d(3.5)], "immediates")],
    );
    t.check();
}

#[test]
fn loads_extend_by_type_and_stores_truncate() {
    let _c = rows_of("loads_extend_by_type_and_stores_truncate");
    let mut t = Tables::new();
    // ld.global.u8 into a 32-bit register zero-extends; ld.global.s8 sign-extends.
    let mut rows = Vec::new();
    for b in [0x80u64, 0x7f, 0xff, 0x1ff] {
        let byte = b & 0xff;
        rows.push(row(
            &[b],
            &[byte, u64::from(byte as u8 as i8 as i32 as u32)],
            "u8/s8",
        ));
    }
    t.t(
        "ld.global.u8 / s8 into .b32",
        "\t.reg .b32 %d, %e;",
        "\tld.global.u8 %d, [%pa];\n\tld.global.s8 %e, [%pa];\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    let mut rows = Vec::new();
    for h in [0x8000u64, 0x7fff, 0xffff] {
        rows.push(row(
            &[h],
            &[h, u64::from(h as u16 as i16 as i32 as u32)],
            "u16/s16",
        ));
    }
    t.t(
        "ld.global.u16 / s16 into .b32",
        "\t.reg .b32 %d, %e;",
        "\tld.global.u16 %d, [%pa];\n\tld.global.s16 %e, [%pa];\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // Into 64-bit registers.
    t.t(
        "ld.global.s8 / s32 / u32 into .b64",
        "\t.reg .b64 %d, %e, %x;",
        "\tld.global.s8 %d, [%pa];\n\tld.global.s32 %e, [%pb];\n\tld.global.u32 %x, [%pb];\n\tst.global.u64 [%pd], %d;\n\tst.global.u64 [%pe], %e;\n\tst.global.u64 [%pc], %x;\n\
         \tld.global.u64 %x, [%pc];\n\tadd.s64 %e, %e, %x;\n\tst.global.u64 [%pe], %e;",
        // e = sext(0x80000000) + zext(0x80000000) = 0xffffffff80000000 + 0x80000000 = 0.
        vec![row(&[0x80, 0x8000_0000], &[0xffff_ffff_ffff_ff80, 0], "s8 -> -128; s32 + u32 views cancel")],
    );
    // Byte offsets inside a word: ld.global.u8 [%pa+k] reads byte k (little-endian).
    t.t(
        "little-endian byte offsets",
        "\t.reg .b32 %b<4>;",
        "\tld.global.u8 %b0, [%pa+3];\n\tld.global.u8 %b1, [%pa+2];\n\tld.global.u8 %b2, [%pa+1];\n\tld.global.u8 %b3, [%pa];\n\
         \tst.global.u8 [%pd], %b0;\n\tst.global.u8 [%pd+1], %b1;\n\tst.global.u8 [%pd+2], %b2;\n\tst.global.u8 [%pd+3], %b3;",
        vec![row(&[0x1122_3344], &[0x4433_2211], "byte reverse")],
    );
    // Narrow stores write only their bytes.
    t.t(
        "st.global.u8 / u16 truncate",
        "\t.reg .b32 %a;",
        "\tld.global.u32 %a, [%pa];\n\tst.global.u32 [%pd], 0xffffffff;\n\tst.global.u8 [%pd+1], %a;\n\tst.global.u32 [%pe], 0xffffffff;\n\tst.global.u16 [%pe+2], %a;",
        vec![row(&[0x1234_5678], &[0xffff_78ff, 0x5678_ffff], "u8 at +1, u16 at +2")],
    );
    // Vector loads and stores: v4.u32 reads 16 bytes (slots a and b), v2.u32 writes 8.
    t.t(
        "ld.global.v4.u32 / st.global.v2.u32",
        "\t.reg .b32 %r<4>;",
        "\tld.global.v4.u32 {%r0, %r1, %r2, %r3}, [%pa];\n\tst.global.v2.u32 [%pd], {%r3, %r2};\n\tst.global.v2.u32 [%pe], {%r1, %r0};",
        vec![row(&[0x1111_1111_0000_0000, 0x3333_3333_2222_2222], &[0x2222_2222_3333_3333, 0x0000_0000_1111_1111], "reverse 4 words")],
    );
    t.t(
        "ld.global.v2.u64 / st.global.v2.u64",
        "\t.reg .b64 %x, %y;",
        "\tld.global.v2.u64 {%x, %y}, [%pa];\n\tst.global.v2.u64 [%pd], {%y, %x};",
        vec![row(&[7, 9], &[9, 7], "swap")],
    );
    t.t(
        "ld.global.v2.f32 + add",
        "\t.reg .f32 %x, %y, %s;",
        "\tld.global.v2.f32 {%x, %y}, [%pa];\n\tadd.rn.f32 %s, %x, %y;\n\tst.global.f32 [%pd], %s;",
        vec![row(&[f(1.5) | (f(2.25) << 32)], &[f(3.75)], "1.5 + 2.25")],
    );
    t.t(
        "ld.global.v4.u8 zero-extends each byte",
        "\t.reg .b32 %r<4>;",
        "\tld.global.v4.u8 {%r0, %r1, %r2, %r3}, [%pa];\n\tst.global.v4.u32 [%pd], {%r0, %r1, %r2, %r3};",
        vec![row(&[0x80ff_7f01], &[0x0000_007f_0000_0001, 0x0000_0080_0000_00ff], "bytes 01 7f ff 80")],
    );
    t.t(
        "ld.global.v2.s16 sign-extends",
        "\t.reg .b32 %r<2>;",
        "\tld.global.v2.s16 {%r0, %r1}, [%pa];\n\tst.global.v2.u32 [%pd], {%r0, %r1};",
        vec![row(
            &[0x7fff_8000],
            &[0x0000_7fff_ffff_8000],
            "(-32768, 32767)",
        )],
    );
    t.check();
}

#[test]
fn shared_memory_exchange_after_barrier() {
    let _c = rows_of("shared_memory_exchange_after_barrier");
    // Each of 64 threads stores in[tid] to sh[tid], bar.sync 0, then reads
    // its neighbour's sh[(tid + 1) % 64].
    let body = "\tmov.u64 %s, sh;\n\tmul.wide.u32 %t64, %tx, 4;\n\tadd.s64 %a, %s, %t64;\n\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %in, %t64;\n\
                \tld.global.u32 %v, [%g];\n\tst.shared.u32 [%a], %v;\n\tbar.sync 0;\n\tadd.u32 %n, %tx, 1;\n\tand.b32 %n, %n, 63;\n\
                \tmul.wide.u32 %t64, %n, 4;\n\tadd.s64 %a, %s, %t64;\n\tld.shared.u32 %w, [%a];\n\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.u32 [%g], %w;";
    let input: Vec<u64> = (0..64u64).map(|k| k * 7 + 1000).collect();
    let got = run_ok_g(
        "",
        "\t.shared .align 4 .b32 sh[64];\n\t.reg .b64 %s, %a, %g;\n\t.reg .b32 %v, %w, %n;",
        body,
        input.clone(),
        64,
        [1, 1, 1],
        [64, 1, 1],
    );
    for k in 0..64 {
        check_eq(
            got[k],
            input[(k + 1) % 64],
            &format!("thread {k} reads its neighbour"),
        );
    }
    // Two CTAs: shared memory is per CTA (each CTA sees only its own values).
    let body2 = "\tmov.u32 %v, %ctaid.x;\n\tmad.lo.u32 %v, %v, 100, %tx;\n\tmul.wide.u32 %t64, %tx, 4;\n\tmov.u64 %s, sh;\n\tadd.s64 %a, %s, %t64;\n\tst.shared.u32 [%a], %v;\n\tbar.sync 0;\n\
                 \tld.shared.u32 %w, [sh];\n\tmov.u32 %n, %ctaid.x;\n\tmad.lo.u32 %n, %n, 32, %tx;\n\tmul.wide.u32 %t64, %n, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.u32 [%g], %w;";
    let got = run_ok_g(
        "",
        "\t.shared .align 4 .b32 sh[32];\n\t.reg .b64 %s, %a, %g;\n\t.reg .b32 %v, %w, %n;",
        body2,
        vec![],
        64,
        [2, 1, 1],
        [32, 1, 1],
    );
    for k in 0..64 {
        check_eq(
            got[k],
            if k < 32 { 0 } else { 100 },
            &format!("CTA {} thread {} sees sh[0] of its own CTA", k / 32, k % 32),
        );
    }
}

#[test]
fn shared_tree_reduction_with_barriers_in_a_loop() {
    let _c = rows_of("shared_tree_reduction_with_barriers_in_a_loop");
    // 256 threads; sum of in[0..256] via a halving loop with bar.sync each step.
    let body = "\tmov.u64 %s, sh;\n\tmul.wide.u32 %t64, %tx, 4;\n\tadd.s64 %a, %s, %t64;\n\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %in, %t64;\n\
                \tld.global.u32 %v, [%g];\n\tst.shared.u32 [%a], %v;\n\tbar.sync 0;\n\tmov.u32 %h, 128;\n\
                LOOP:\n\tsetp.lt.u32 %p, %tx, %h;\n\t@!%p bra SKIP;\n\tld.shared.u32 %v, [%a];\n\tmul.wide.u32 %t64, %h, 4;\n\tadd.s64 %b, %a, %t64;\n\tld.shared.u32 %w, [%b];\n\
                \tadd.u32 %v, %v, %w;\n\tst.shared.u32 [%a], %v;\n\
                SKIP:\n\tbar.sync 0;\n\tshr.u32 %h, %h, 1;\n\tsetp.ne.u32 %p, %h, 0;\n\t@%p bra LOOP;\n\
                \tsetp.eq.u32 %p, %tx, 0;\n\t@%p ld.shared.u32 %v, [sh];\n\t@%p st.global.u32 [%out], %v;";
    let input: Vec<u64> = (0..256u64).map(|k| (k * k * 31 + 7) % 100_003).collect();
    let got = run_ok_g("", "\t.shared .align 4 .b32 sh[256];\n\t.reg .b64 %s, %a, %b, %g;\n\t.reg .b32 %v, %w, %h;\n\t.reg .pred %p;", body, input.clone(), 1, [1, 1, 1], [256, 1, 1]);
    check_eq(
        got[0],
        input.iter().sum::<u64>() & 0xffff_ffff,
        "tree reduction sum",
    );
}

#[test]
fn named_barriers_with_thread_counts_order_shared_accesses() {
    let _c = rows_of("named_barriers_with_thread_counts_order_shared_accesses");
    // Warps 0-1 exchange through barrier 1 (64 threads), warps 2-3 through
    // barrier 2 (64 threads): each thread reads sh[tid ^ 32] after its barrier.
    let body = "\tmov.u64 %s, sh;\n\tmul.wide.u32 %t64, %tx, 4;\n\tadd.s64 %a, %s, %t64;\n\tadd.u32 %v, %tx, 1000;\n\tst.shared.u32 [%a], %v;\n\
                \tsetp.lt.u32 %p, %tx, 64;\n\t@%p bar.sync 1, 64;\n\t@!%p bar.sync 2, 64;\n\txor.b32 %n, %tx, 32;\n\tmul.wide.u32 %t64, %n, 4;\n\tadd.s64 %a, %s, %t64;\n\
                \tld.shared.u32 %w, [%a];\n\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.u32 [%g], %w;";
    let got = run_ok_g("", "\t.shared .align 4 .b32 sh[128];\n\t.reg .b64 %s, %a, %g;\n\t.reg .b32 %v, %w, %n;\n\t.reg .pred %p;", body, vec![], 128, [1, 1, 1], [128, 1, 1]);
    for k in 0..128u64 {
        check_eq(
            got[k as usize],
            (k ^ 32) + 1000,
            &format!("thread {k} after named barrier"),
        );
    }
}

#[test]
fn bar_red_popc_and_or() {
    let _c = rows_of("bar_red_popc_and_or");
    // bar.red.popc.u32 counts threads whose predicate is true (tid % 3 == 0 over 96
    // threads: 32); bar.red.and.pred / bar.red.or.pred.
    let body = "\trem.u32 %v, %tx, 3;\n\tsetp.eq.u32 %p, %v, 0;\n\tbar.red.popc.u32 %n, 0, %p;\n\tsetp.lt.u32 %q, %tx, 200;\n\tbar.red.and.pred %r, 0, %q;\n\
                \tsetp.eq.u32 %q, %tx, 95;\n\tbar.red.or.pred %s, 0, %q;\n\tbar.red.and.pred %t, 0, %q;\n\
                \tselp.u32 %w, 1, 0, %r;\n\tselp.u32 %v, 2, 0, %s;\n\tor.b32 %w, %w, %v;\n\tselp.u32 %v, 4, 0, %t;\n\tor.b32 %w, %w, %v;\n\
                \tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.v2.u32 [%g], {%n, %w};";
    let got = run_ok_g(
        "",
        "\t.reg .b64 %g;\n\t.reg .b32 %v, %w, %n;\n\t.reg .pred %p, %q, %r, %s, %t;",
        body,
        vec![],
        96,
        [1, 1, 1],
        [96, 1, 1],
    );
    for k in 0..96usize {
        check_eq(
            got[k],
            32 | (0b011 << 32),
            &format!("bar.red results in thread {k}"),
        );
    }
}

#[test]
fn atomics_single_thread_semantics() {
    let _c = rows_of("atomics_single_thread_semantics");
    let mut t = Tables::new();
    // Each row: mem = a; old = atom.op [mem], b (, c); d = final mem, e = old.
    let body32 = |op: &str| {
        format!("\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tst.global.u32 [%pd], %a;\n\tatom.global.{op} %e, [%pd], %b;\n\tst.global.u32 [%pe], %e;")
    };
    let r32 = "\t.reg .b32 %a, %b, %c, %e;";
    type Op32 = fn(u32, u32) -> u32;
    let cases: [(&str, Op32); 10] = [
        ("add.u32", |m, b| m.wrapping_add(b)),
        ("exch.b32", |_, b| b),
        ("min.s32", |m, b| (m as i32).min(b as i32) as u32),
        ("max.s32", |m, b| (m as i32).max(b as i32) as u32),
        ("min.u32", |m, b| m.min(b)),
        ("max.u32", |m, b| m.max(b)),
        ("and.b32", |m, b| m & b),
        ("or.b32", |m, b| m | b),
        ("xor.b32", |m, b| m ^ b),
        // inc(r, s) = r >= s ? 0 : r + 1 (ISA atom).
        ("inc.u32", |m, b| if m >= b { 0 } else { m + 1 }),
    ];
    let pairs = [
        (5u32, 3u32),
        (0xffff_fffe, 2),
        (0x8000_0000, 1),
        (7, 7),
        (0, 0xffff_ffff),
    ];
    for (op, f_) in cases {
        let rows = pairs
            .iter()
            .map(|&(m, b)| row(&[m.into(), b.into()], &[f_(m, b).into(), m.into()], op))
            .collect();
        t.t(&format!("atom.global.{op}"), r32, &body32(op), rows);
    }
    // dec(r, s) = (r == 0 || r > s) ? s : r - 1.
    let rows = [(5u32, 3u32), (0, 9), (3, 9), (10, 10)]
        .iter()
        .map(|&(m, b)| {
            row(
                &[m.into(), b.into()],
                &[(if m == 0 || m > b { b } else { m - 1 }).into(), m.into()],
                "dec",
            )
        })
        .collect();
    t.t("atom.global.dec.u32", r32, &body32("dec.u32"), rows);
    // cas(r, s, t) = r == s ? t : r.
    let rows = vec![
        row(&[5, 5, 9], &[9, 5], "compare equal: swap"),
        row(&[5, 4, 9], &[5, 5], "compare unequal: keep"),
        row(
            &[0xffff_ffff, 0xffff_ffff, 0],
            &[0, 0xffff_ffff],
            "all ones",
        ),
    ];
    t.t(
        "atom.global.cas.b32",
        r32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\tst.global.u32 [%pd], %a;\n\tatom.global.cas.b32 %e, [%pd], %b, %c;\n\tst.global.u32 [%pe], %e;",
        rows,
    );
    // 64-bit forms.
    let body64 = |op: &str| {
        format!("\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tld.global.u64 %c, [%pc];\n\tst.global.u64 [%pd], %a;\n\tatom.global.{op} %e, [%pd], %b;\n\tst.global.u64 [%pe], %e;")
    };
    let r64 = "\t.reg .b64 %a, %b, %c, %e;";
    t.t(
        "atom.global.add.u64",
        r64,
        &body64("add.u64"),
        vec![row(
            &[0xffff_ffff, 1],
            &[0x1_0000_0000, 0xffff_ffff],
            "carry into high word",
        )],
    );
    t.t(
        "atom.global.min.s64",
        r64,
        &body64("min.s64"),
        vec![row(&[5, l(-1)], &[l(-1), 5], "signed 64")],
    );
    t.t(
        "atom.global.exch.b64",
        r64,
        &body64("exch.b64"),
        vec![row(&[1, u64::MAX], &[u64::MAX, 1], "exch")],
    );
    t.t(
        "atom.global.cas.b64",
        r64,
        "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\tld.global.u64 %c, [%pc];\n\tst.global.u64 [%pd], %a;\n\tatom.global.cas.b64 %e, [%pd], %b, %c;\n\tst.global.u64 [%pe], %e;",
        vec![row(&[1 << 40, 1 << 40, 3], &[3, 1 << 40], "equal"), row(&[1 << 40, 1, 3], &[1 << 40, 1 << 40], "unequal (low words equal to 0 vs 1)")],
    );
    // Float adds.
    t.t(
        "atom.global.add.f32",
        "\t.reg .f32 %a, %b, %e;",
        "\tld.global.f32 %a, [%pa];\n\tld.global.f32 %b, [%pb];\n\tst.global.f32 [%pd], %a;\n\tatom.global.add.f32 %e, [%pd], %b;\n\tst.global.f32 [%pe], %e;",
        vec![row(&[f(1.5), f(2.25)], &[f(3.75), f(1.5)], "1.5 + 2.25"), row(&[f(1.0), f(1e-8)], &[f(1.0 + 1e-8), f(1.0)], "rounds")],
    );
    t.t(
        "atom.global.add.f64",
        "\t.reg .f64 %a, %b, %e;",
        "\tld.global.f64 %a, [%pa];\n\tld.global.f64 %b, [%pb];\n\tst.global.f64 [%pd], %a;\n\tatom.global.add.f64 %e, [%pd], %b;\n\tst.global.f64 [%pe], %e;",
        vec![row(&[d(0.1), d(0.2)], &[d(0.1 + 0.2), d(0.1)], "0.1 + 0.2")],
    );
    // red (no return value).
    t.t(
        "red.global.add.u32 / red.global.max.s32",
        r32,
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tst.global.u32 [%pd], %a;\n\tred.global.add.u32 [%pd], %b;\n\tst.global.u32 [%pe], %a;\n\tred.global.max.s32 [%pe], %b;",
        vec![row(&[10, i(-3)], &[7, 10], "10 + -3; max(10, -3)"), row(&[i(-10), 3], &[i(-7), 3], "-10 + 3; max(-10, 3)")],
    );
    t.check();
}

#[test]
fn atomics_from_many_threads() {
    let _c = rows_of("atomics_from_many_threads");
    // 64 threads x 3 CTAs: atom.global.add.u32 [out], 1. The old values seen
    // are a permutation of 0..192 and the final value is 192.
    let body = "\tatom.global.add.u32 %o, [%out], 1;\n\tmov.u32 %c, %ctaid.x;\n\tmad.lo.u32 %c, %c, 64, %tx;\n\tadd.u32 %c, %c, 1;\n\tmul.wide.u32 %t64, %c, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.u32 [%g], %o;";
    let got = run_ok(
        "\t.reg .b32 %o, %c;\n\t.reg .b64 %g;",
        body,
        vec![],
        193,
        [3, 1, 1],
        [64, 1, 1],
    );
    check_eq(got[0], 192, "final count");
    let mut olds: Vec<u64> = got[1..].to_vec();
    olds.sort();
    check_eq(
        olds,
        (0..192).collect::<Vec<u64>>(),
        "old values are a permutation",
    );
    // Sum of tid + 1 over 64 threads in shared memory, then one thread publishes it.
    let body = "\tsetp.eq.u32 %p, %tx, 0;\n\t@%p st.shared.u32 [acc], 0;\n\tbar.sync 0;\n\tadd.u32 %o, %tx, 1;\n\tatom.shared.add.u32 %c, [acc], %o;\n\tbar.sync 0;\n\
                \t@%p ld.shared.u32 %c, [acc];\n\t@%p st.global.u32 [%out], %c;";
    let got = run_ok(
        "\t.shared .align 4 .u32 acc;\n\t.reg .b32 %o, %c;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [64, 1, 1],
    );
    check_eq(got[0], 64 * 65 / 2, "shared atomic sum");
}

#[test]
fn cas_retry_loop_with_volatile_load_is_race_free() {
    let _c = rows_of("cas_retry_loop_with_volatile_load_is_race_free");
    // Every thread adds 3 to out[0] with a CAS retry loop that reads the word
    // with ld.volatile. PTX memory model (ISA "Memory Consistency Model"):
    // ld.volatile has the semantics of ld.relaxed.sys, a strong operation, and
    // atom is strong too; conflicting operations that are morally strong
    // relative to each other are not a data race. So this is race-free and
    // must complete with 64 * 3.
    let body = "RETRY:\n\tld.volatile.global.u32 %o, [%out];\n\tadd.u32 %c, %o, 3;\n\tatom.global.cas.b32 %n, [%out], %o, %c;\n\tsetp.ne.u32 %p, %n, %o;\n\t@%p bra RETRY;";
    let r = run_kernel(
        "",
        "\t.reg .b32 %o, %c, %n;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [64, 1, 1],
    );
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "CAS loop with ld.volatile completes",
    );
    check_eq(out(&r, "out")[0], 192, "CAS loop total");
    // The same with ld.relaxed.gpu.
    let body = body.replace("ld.volatile.global.u32", "ld.relaxed.gpu.global.u32");
    let r = run_kernel(
        "",
        "\t.reg .b32 %o, %c, %n;\n\t.reg .pred %p;",
        &body,
        vec![],
        1,
        [1, 1, 1],
        [64, 1, 1],
    );
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "CAS loop with ld.relaxed.gpu completes",
    );
}

#[test]
fn spin_lock_with_acquire_release_is_race_free() {
    let _c = rows_of("spin_lock_with_acquire_release_is_race_free");
    // A lock (out[1]) taken with atom.acquire.gpu cas and released with
    // atom.release.gpu exch orders the plain ld/st of the counter (out[0])
    // between holders (release -> acquire synchronizes-with): no data race.
    let body = "LOCK:\n\tatom.acquire.gpu.global.cas.b32 %o, [%out+8], 0, 1;\n\tsetp.ne.u32 %p, %o, 0;\n\t@%p bra LOCK;\n\
                \tld.global.u32 %c, [%out];\n\tadd.u32 %c, %c, 1;\n\tst.global.u32 [%out], %c;\n\tatom.release.gpu.global.exch.b32 %o, [%out+8], 0;";
    let r = run_kernel(
        "",
        "\t.reg .b32 %o, %c;\n\t.reg .pred %p;",
        body,
        vec![],
        2,
        [1, 1, 1],
        [64, 1, 1],
    );
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "lock-protected increments complete",
    );
    check_eq(out(&r, "out")[0], 64, "lock-protected counter");
}

#[test]
fn local_memory_and_generic_addressing() {
    let _c = rows_of("local_memory_and_generic_addressing");
    let mut t = Tables::new();
    // .local array; cvta.local.u64 gives a generic address; generic st/ld and
    // ld.local/st.local see the same bytes; isspacep; cvta.to.local round-trips.
    let decls = "\t.local .align 8 .b8 lbuf[32];\n\t.reg .b64 %l, %g, %l2;\n\t.reg .b32 %a, %b, %c, %x, %y, %k;\n\t.reg .pred %p, %q, %r;";
    let body = "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\
                \tmov.u64 %l, lbuf;\n\tcvta.local.u64 %g, %l;\n\tst.u32 [%g], %a;\n\tst.u32 [%g+4], %b;\n\tst.local.u32 [lbuf+8], %c;\n\
                \tld.u32 %x, [%g+8];\n\tld.local.u32 %y, [lbuf+4];\n\tadd.u32 %x, %x, %y;\n\tld.local.u32 %y, [%l];\n\tadd.u32 %x, %x, %y;\n\
                \tisspacep.local %p, %g;\n\tisspacep.global %q, %g;\n\tcvta.to.local.u64 %l2, %g;\n\tsetp.eq.u64 %r, %l2, %l;\n\
                \tselp.u32 %k, 1, 0, %p;\n\tselp.u32 %y, 2, 0, %q;\n\tor.b32 %k, %k, %y;\n\tselp.u32 %y, 4, 0, %r;\n\tor.b32 %k, %k, %y;\n\
                \tst.global.u32 [%pd], %x;\n\tst.global.u32 [%pe], %k;";
    let mut rows = Vec::new();
    for (a, b, c) in [(1u32, 2u32, 3u32), (100, 200, 300), (0xffff_ffff, 1, 0)] {
        rows.push(row(
            &[a.into(), b.into(), c.into()],
            &[a.wrapping_add(b).wrapping_add(c).into(), 0b101],
            "local/generic",
        ));
    }
    t.t("local + cvta.local + generic", decls, body, rows);
    // A per-thread local array indexed by a register in loops: write
    // lbuf[k] = tid * 10 + k for k = 0..8, read back lbuf[7 - k] summing k * value.
    let decls = "\t.local .align 4 .b32 arr[8];\n\t.reg .b64 %l, %q;\n\t.reg .b32 %k, %v, %s, %j;\n\t.reg .pred %p;";
    let body = "\tmov.u64 %l, arr;\n\tmov.u32 %k, 0;\nW:\n\tmad.lo.u32 %v, %tx, 10, %k;\n\tmul.wide.u32 %q, %k, 4;\n\tadd.s64 %q, %l, %q;\n\tst.local.u32 [%q], %v;\n\
                \tadd.u32 %k, %k, 1;\n\tsetp.lt.u32 %p, %k, 8;\n\t@%p bra W;\n\tmov.u32 %k, 0;\n\tmov.u32 %s, 0;\n\
                R:\n\tsub.u32 %j, 7, %k;\n\tmul.wide.u32 %q, %j, 4;\n\tadd.s64 %q, %l, %q;\n\tld.local.u32 %v, [%q];\n\tmad.lo.u32 %s, %v, %k, %s;\n\
                \tadd.u32 %k, %k, 1;\n\tsetp.lt.u32 %p, %k, 8;\n\t@%p bra R;\n\tst.global.u32 [%pd], %s;";
    let rows = (0..4u64)
        .map(|tid| {
            let s: u64 = (0..8u64).map(|k| k * (tid * 10 + (7 - k))).sum();
            row(&[], &[s], "local loop")
        })
        .collect();
    t.t("local array in loops", decls, body, rows);
    // Generic access to shared memory: cvta.shared.u64, generic st, ld.shared;
    // isspacep.shared true, cvta.to.shared round-trips.
    let decls = "\t.shared .align 8 .b8 sbuf[8192];\n\t.reg .b64 %s, %g, %s2, %q;\n\t.reg .b32 %a, %x, %k, %y;\n\t.reg .pred %p, %r;";
    let body = "\tld.global.u32 %a, [%pa];\n\tmov.u64 %s, sbuf;\n\tmul.wide.u32 %q, %tx, 8;\n\tadd.s64 %s, %s, %q;\n\tcvta.shared.u64 %g, %s;\n\tst.u32 [%g+4], %a;\n\
                \tld.shared.u32 %x, [%s+4];\n\tisspacep.shared %p, %g;\n\tcvta.to.shared.u64 %s2, %g;\n\tsetp.eq.u64 %r, %s2, %s;\n\
                \tselp.u32 %k, 1, 0, %p;\n\tselp.u32 %y, 2, 0, %r;\n\tor.b32 %k, %k, %y;\n\tst.global.u32 [%pd], %x;\n\tst.global.u32 [%pe], %k;";
    t.t(
        "generic shared",
        decls,
        body,
        vec![row(&[77], &[77, 3], "tid 0"), row(&[88], &[88, 3], "tid 1")],
    );
    // Generic access to global memory: cvta.global.u64 then a generic ld.
    t.t(
        "generic global",
        "\t.reg .b64 %g;\n\t.reg .b32 %x;\n\t.reg .pred %p;",
        "\tcvta.global.u64 %g, %pa;\n\tld.u32 %x, [%g];\n\tisspacep.global %p, %g;\n\t@%p add.u32 %x, %x, 1;\n\tst.global.u32 [%pd], %x;",
        vec![row(&[41], &[42], "generic global")],
    );
    t.check();
}

#[test]
fn const_global_variables_and_params() {
    let _c = rows_of("const_global_variables_and_params");
    let mut t = Tables::new();
    let globals = ".const .align 4 .u32 tab[4] = {10, 20, 30, 40};\n.const .align 4 .b8 bytes[4] = {1, 2, 3, 4};\n.const .align 4 .f32 cf = 0f3FC00000;\n\
                   .global .align 4 .u32 gv = 7;\n.global .align 8 .u64 garr[2] = {0x1122334455667788, 2};";
    // Row k reads tab[k] through a register index; everyone reads the others directly.
    let decls = "\t.reg .b64 %c, %q, %g;\n\t.reg .b32 %v, %w, %x;\n\t.reg .f32 %f;";
    let body = "\tmov.u64 %c, tab;\n\tmul.wide.u32 %q, %tx, 4;\n\tadd.s64 %c, %c, %q;\n\tld.const.u32 %v, [%c];\n\tld.const.u32 %w, [tab+8];\n\tadd.u32 %v, %v, %w;\n\
                \tld.const.u32 %w, [bytes];\n\tld.const.f32 %f, [cf];\n\tmov.b32 %x, %f;\n\tst.global.u32 [%pd], %v;\n\tst.global.u32 [%pd+4], %w;\n\tst.global.u32 [%pe], %x;";
    let rows = (0..4u64)
        .map(|k| {
            row(
                &[],
                &[(10 * (k + 1) + 30) | (0x0403_0201 << 32), f(1.5)],
                "const",
            )
        })
        .collect();
    t.tg("ld.const", globals, decls, body, rows);
    // Generic access to the constant bank: cvta.const.u64.
    t.tg(
        "generic const",
        globals,
        "\t.reg .b64 %c, %g;\n\t.reg .b32 %v;",
        "\tmov.u64 %c, tab;\n\tcvta.const.u64 %g, %c;\n\tld.u32 %v, [%g+12];\n\tst.global.u32 [%pd], %v;",
        vec![row(&[], &[40], "tab[3]")],
    );
    // Module-scope .global variables with initializers (one thread).
    t.tg(
        ".global variables",
        globals,
        "\t.reg .b32 %v;\n\t.reg .b64 %x, %y;",
        "\tld.global.u32 %v, [gv];\n\tld.global.u64 %x, [garr];\n\tld.global.u64 %y, [garr+8];\n\tadd.s64 %y, %y, %x;\n\tst.global.u32 [%pd], %v;\n\tst.global.u64 [%pe], %y;",
        vec![row(&[], &[7, 0x1122_3344_5566_778a], "gv, garr[0] + garr[1]")],
    );
    t.check();
    // Scalar kernel parameters of several types, read with ld.param.
    let src = format!(
        "{HEADER}.visible .entry k(.param .u64 p_out, .param .u32 n, .param .f32 x, .param .u64 big, .param .s16 h, .param .f64 y)\n{{\n\
         \t.reg .b64 %o, %b;\n\t.reg .b32 %n, %xb;\n\t.reg .f32 %x;\n\t.reg .b16 %h;\n\t.reg .f64 %y;\n\t.reg .b32 %hw;\n\
         \tld.param.u64 %o, [p_out];\n\tld.param.u32 %n, [n];\n\tld.param.f32 %x, [x];\n\tld.param.u64 %b, [big];\n\tld.param.s16 %h, [h];\n\tld.param.f64 %y, [y];\n\
         \tcvt.s32.s16 %hw, %h;\n\tst.global.u32 [%o], %n;\n\tst.global.f32 [%o+4], %x;\n\tst.global.u64 [%o+8], %b;\n\tst.global.u32 [%o+16], %hw;\n\tst.global.f64 [%o+24], %y;\n\tret;\n}}\n"
    );
    let spec = spec_json(
        [1, 1, 1],
        [1, 1, 1],
        &[buf("out", "u64", vec![0; 4])],
        &[
            r#"{"u32": 4000000000}"#,
            r#"{"f32": 2.5}"#,
            r#"{"type": "u64", "bits": "0xfedcba9876543210"}"#,
            r#"{"s16": -3}"#,
            r#"{"type": "f64", "bits": "0x8000000000000000"}"#,
        ],
    );
    let r = run_src(&src, &spec, &Default::default());
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "params kernel completes",
    );
    let o = out(&r, "out");
    check_eq(o[0], 4_000_000_000 | (f(2.5) << 32), "u32 and f32 params");
    check_eq(o[1], 0xfedc_ba98_7654_3210, "u64 param");
    check_eq(o[2], 0xffff_fffd, "s16 param sign-extended by cvt");
    check_eq(o[3], 0x8000_0000_0000_0000, "f64 -0.0 bits param");
}

#[test]
fn special_registers_in_a_2d_launch() {
    let _c = rows_of("special_registers_in_a_2d_launch");
    // grid (2, 3), block (16, 4): 6 CTAs x 64 threads. Each thread writes two
    // slots at linear index ((ctaid.y * 2 + ctaid.x) * 64 + tid.y * 16 + tid.x):
    // [tid.x | tid.y << 8 | ntid.x << 16 | ntid.y << 24 | ctaid.x << 32 | ctaid.y << 40 | nctaid.x << 48 | nctaid.y << 56]
    // [laneid | warpid? no: tid.z << 8 | ntid.z << 16 | ctaid.z << 24]
    let body = "\tmov.u32 %r0, %tid.x;\n\tmov.u32 %r1, %tid.y;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %ntid.y;\n\tmov.u32 %r4, %ctaid.x;\n\tmov.u32 %r5, %ctaid.y;\n\
                \tmov.u32 %r6, %nctaid.x;\n\tmov.u32 %r7, %nctaid.y;\n\tmov.u32 %r8, %laneid;\n\tmov.u32 %r9, %tid.z;\n\tmov.u32 %r10, %ntid.z;\n\tmov.u32 %r11, %ctaid.z;\n\
                \tprmt.b32 %w0, %r0, %r1, 0x40;\n\tprmt.b32 %w1, %r2, %r3, 0x40;\n\tprmt.b32 %w0, %w0, %w1, 0x5410;\n\
                \tprmt.b32 %w2, %r4, %r5, 0x40;\n\tprmt.b32 %w3, %r6, %r7, 0x40;\n\tprmt.b32 %w2, %w2, %w3, 0x5410;\n\
                \tshl.b32 %r9, %r9, 8;\n\tshl.b32 %r10, %r10, 16;\n\tshl.b32 %r11, %r11, 24;\n\tor.b32 %r8, %r8, %r9;\n\tor.b32 %r8, %r8, %r10;\n\tor.b32 %r8, %r8, %r11;\n\
                \tmad.lo.u32 %i, %r5, %r6, %r4;\n\tmul.lo.u32 %n, %r2, %r3;\n\tmad.lo.u32 %j, %r1, %r2, %r0;\n\tmad.lo.u32 %i, %i, %n, %j;\n\
                \tmul.wide.u32 %t64, %i, 16;\n\tadd.s64 %g, %out, %t64;\n\tst.global.v2.u32 [%g], {%w0, %w2};\n\tst.global.u32 [%g+8], %r8;";
    let got = run_ok(
        "\t.reg .b32 %r<12>, %w<4>, %i, %j, %n;\n\t.reg .b64 %g;",
        body,
        vec![],
        6 * 64 * 2,
        [2, 3, 1],
        [16, 4, 1],
    );
    for cy in 0..3u64 {
        for cx in 0..2u64 {
            for ty in 0..4u64 {
                for tx in 0..16u64 {
                    let idx = ((cy * 2 + cx) * 64 + ty * 16 + tx) as usize;
                    let w0 = tx | ty << 8 | 16 << 16 | 4 << 24;
                    let w2 = cx | cy << 8 | 2 << 16 | 3 << 24;
                    check_eq(
                        got[2 * idx],
                        w0 | (w2 << 32),
                        &format!("ids of ctaid ({cx},{cy}) tid ({tx},{ty})"),
                    );
                    // Lane: linear thread index (tx + 16 ty) mod 32; tid.z = 0, ntid.z = 1, ctaid.z = 0.
                    let lane = (tx + 16 * ty) % 32;
                    check_eq(
                        got[2 * idx + 1],
                        lane | 1 << 16,
                        &format!("laneid/z of ctaid ({cx},{cy}) tid ({tx},{ty})"),
                    );
                }
            }
        }
    }
}

#[test]
fn producer_consumer_with_bar_arrive() {
    let _c = rows_of("producer_consumer_with_bar_arrive");
    // Warp 0 produces sh[lane] = lane * 5 and signals with bar.arrive 1, 64;
    // warp 1 waits with bar.sync 1, 64 and consumes sh[lane] (PTX ISA bar:
    // bar.arrive + bar.sync is the producer/consumer pattern; the barrier
    // orders the producer's prior writes before the consumer's later reads).
    // Both warps then meet at barrier 2, so the producers are still live
    // (waiting) when barrier 1 releases the consumers.
    let body = "\tmov.u32 %l, %laneid;\n\tmul.wide.u32 %t64, %l, 4;\n\tmov.u64 %s, sh;\n\tadd.s64 %a, %s, %t64;\n\tsetp.lt.u32 %p, %tx, 32;\n\t@!%p bra CONSUMER;\n\
                \tmul.lo.u32 %v, %l, 5;\n\tst.shared.u32 [%a], %v;\n\tbar.arrive 1, 64;\n\tbra.uni END;\nCONSUMER:\n\tbar.sync 1, 64;\n\tld.shared.u32 %v, [%a];\n\
                \tmul.wide.u32 %t64, %l, 8;\n\tadd.s64 %g, %out, %t64;\n\tst.global.u32 [%g], %v;\nEND:\n\tbar.sync 2, 64;";
    let r = run_kernel("", "\t.shared .align 4 .b32 sh[32];\n\t.reg .b64 %s, %a, %g;\n\t.reg .b32 %l, %v;\n\t.reg .pred %p;", body, vec![], 32, [1, 1, 1], [64, 1, 1]);
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "producer/consumer completes",
    );
    let o = out(&r, "out");
    for k in 0..32u64 {
        check_eq(o[k as usize], k * 5, &format!("consumer lane {k}"));
    }
}

#[test]
fn address_operand_forms() {
    let _c = rows_of("address_operand_forms");
    let mut t = Tables::new();
    // [reg+-imm] (negative offset, as clang prints it), [var+imm], a 32-bit
    // register holding a shared address, and an absolute immediate address:
    // buffers start at 0x10000000 and out comes first, so thread 0's out slot
    // d is at 268435456.
    let decls = "\t.shared .align 4 .b32 sh[8];\n\t.reg .b64 %q;\n\t.reg .b32 %x, %y, %r, %z;";
    let body = "\tadd.s64 %q, %pb, 8;\n\tld.global.u32 %x, [%q+-16];\n\tmov.u32 %r, sh;\n\tst.shared.u32 [%r+4], %x;\n\tld.shared.u32 %y, [sh+4];\n\
                \tst.global.u32 [%pe], %y;\n\tld.global.u32 %z, [268435456];\n\tadd.u32 %z, %z, 1;\n\tst.global.u32 [268435456], %z;";
    // [%pb + 8 - 16] is slot a. out[0] (slot d of row 0) starts 0 and becomes 1.
    t.t(
        "address forms",
        decls,
        body,
        vec![row(&[0xabcd, 0, 0, 0], &[1, 0xabcd], "row 0")],
    );
    t.check();
}

#[test]
fn more_movement_forms() {
    let _c = rows_of("more_movement_forms");
    let mut t = Tables::new();
    // mov.b64 with four 16-bit parts: element 0 is the lowest.
    t.t(
        "mov.b64 {4 x b16}",
        "\t.reg .b64 %a, %d;\n\t.reg .b16 %h<4>;",
        "\tld.global.u64 %a, [%pa];\n\tmov.b64 {%h0, %h1, %h2, %h3}, %a;\n\tmov.b64 %d, {%h3, %h2, %h1, %h0};\n\tst.global.u64 [%pd], %d;\n\tst.global.u16 [%pe], %h1;",
        vec![row(&[0x4444_3333_2222_1111], &[0x1111_2222_3333_4444, 0x2222], "reverse halves")],
    );
    // Immediate elements in a vector store.
    t.t(
        "st.global.v2.u32 immediates",
        "",
        "\tst.global.v2.u32 [%pd], {7, 0xffffffff};\n\tst.global.v4.u16 [%pe], {1, 2, 3, 0x8000};",
        vec![row(
            &[],
            &[0xffff_ffff_0000_0007, 0x8000_0003_0002_0001],
            "immediates",
        )],
    );
    // Atomics through generic addresses of shared and global memory.
    t.t(
        "generic atom on shared and global",
        "\t.shared .align 4 .b32 sh[64];\n\t.reg .b64 %s, %g, %q;\n\t.reg .b32 %o, %v;",
        "\tmov.u64 %s, sh;\n\tmul.wide.u32 %q, %tx, 4;\n\tadd.s64 %s, %s, %q;\n\tst.shared.u32 [%s], 10;\n\tcvta.shared.u64 %g, %s;\n\tatom.add.u32 %o, [%g], 5;\n\tld.shared.u32 %v, [%s];\n\
         \tst.global.u32 [%pd], %o;\n\tst.global.u32 [%pd+4], %v;\n\tst.global.u32 [%pe], 1;\n\tcvta.global.u64 %g, %pe;\n\tatom.exch.b32 %o, [%g], 9;\n\tatom.global.add.u32 %v, [%pe], 0;\n\tst.global.u32 [%pe+4], %o;",
        vec![row(&[], &[10 | (15 << 32), 9 | (1 << 32)], "tid 0"), row(&[], &[10 | (15 << 32), 9 | (1 << 32)], "tid 1")],
    );
    t.check();
}

#[test]
fn barrier_orders_global_memory_within_a_cta() {
    let _c = rows_of("barrier_orders_global_memory_within_a_cta");
    // Each thread writes out[tid] = tid + 1, bar.sync, then adds out[63 - tid]
    // into out[64 + tid].
    let body = "\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %out, %t64;\n\tadd.u32 %v, %tx, 1;\n\tst.global.u32 [%g], %v;\n\tbar.sync 0;\n\tsub.u32 %n, 63, %tx;\n\
                \tmul.wide.u32 %t64, %n, 8;\n\tadd.s64 %h, %out, %t64;\n\tld.global.u32 %w, [%h];\n\tst.global.u32 [%g+512], %w;";
    let got = run_ok(
        "\t.reg .b64 %g, %h;\n\t.reg .b32 %v, %w, %n;",
        body,
        vec![],
        128,
        [1, 1, 1],
        [64, 1, 1],
    );
    for k in 0..64u64 {
        check_eq(
            (got[k as usize], got[64 + k as usize]),
            (k + 1, 64 - k),
            &format!("thread {k}"),
        );
    }
}

/// Message passing through a flag: the producer writes data (plain st),
/// then st.release the flag; the consumer spins on ld.acquire of the flag,
/// then reads the data (plain ld). Release/acquire orders the data accesses
/// (PTX memory model), so there is no race; `consumer` is the consumer's tid.
fn message_passing(consumer: u32) -> oracle::ptx_interp::RunResult {
    let producer = 1 - consumer;
    let body = format!(
        "\tsetp.eq.u32 %p, %tx, {producer};\n\t@!%p bra CONSUME;\n\tst.global.u32 [%out+8], 1234;\n\tst.release.gpu.global.u32 [%out], 1;\n\tbra.uni END;\n\
         CONSUME:\n\tld.acquire.gpu.global.u32 %f, [%out];\n\tsetp.eq.u32 %q, %f, 0;\n\t@%q bra CONSUME;\n\tld.global.u32 %v, [%out+8];\n\tst.global.u32 [%out+16], %v;\nEND:"
    );
    // A fair schedule needs a few dozen instructions; 1e6 fuel keeps a
    // non-terminating schedule from taking the default 60 s wall clock.
    let lim = oracle::ptx_interp::RunLimits {
        fuel: 1_000_000,
        ..Default::default()
    };
    run_kernel_limits(
        "",
        "\t.reg .b32 %f, %v;\n\t.reg .pred %p, %q;",
        &body,
        vec![],
        3,
        [1, 1, 1],
        [2, 1, 1],
        &lim,
    )
}

#[test]
fn message_passing_release_acquire_producer_first() {
    let _c = rows_of("message_passing_release_acquire_producer_first");
    let r = message_passing(1);
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "producer tid 0, consumer tid 1",
    );
    check_eq(out(&r, "out")[2], 1234, "consumer read the data");
}

#[test]
fn message_passing_release_acquire_consumer_first() {
    let _c = rows_of("message_passing_release_acquire_consumer_first");
    // The consumer (tid 0) spins before the producer (tid 1) has run. With
    // independent thread scheduling (sm_70+) the producer makes progress and
    // the program terminates; a scheduler that runs tid 0 until it blocks
    // never gets there.
    let r = message_passing(0);
    check_eq(
        r.outcome.clone(),
        oracle::ptx_interp::Outcome::Completed,
        "consumer tid 0, producer tid 1",
    );
    check_eq(out(&r, "out")[2], 1234, "consumer read the data");
}
