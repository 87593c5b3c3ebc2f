//! What stops a run: undefined behaviour, faults, deadlocks, timeouts, and
//! where they are reported (thread, CTA, 1-based source line).

use super::harness::*;
use oracle::ptx_interp::{Outcome, RunLimits, UbKind};

fn ub_kind(o: &Outcome) -> Option<&UbKind> {
    match o {
        Outcome::Ub { kind, .. } => Some(kind),
        _ => None,
    }
}

#[test]
fn uninitialized_register_is_reported_with_name_and_location() {
    let _c = rows_of("uninitialized_register_is_reported_with_name_and_location");
    // Only ctaid 1, tid 5 reads %u (never written). Grid 2, block 8.
    let decls = "\t.reg .b32 %u, %d, %c;\n\t.reg .pred %p, %q;";
    let body = "\tmov.u32 %c, %ctaid.x;\n\tsetp.eq.u32 %p, %c, 1;\n\tsetp.eq.u32 %q, %tx, 5;\n\tand.pred %p, %p, %q;\n\t@!%p bra SKIP;\n\
                \tadd.s32 %d, %u, 1; // MARK\n\tst.global.u32 [%out], %d;\nSKIP:";
    let src = kernel("", decls, body);
    let r = run_kernel("", decls, body, vec![], 1, [2, 1, 1], [8, 1, 1]);
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    check_eq(
        kind.clone(),
        UbKind::UninitializedRegister("%u".into()),
        "kind names %u",
    );
    check_eq(at.ctaid, [1, 0, 0], "ctaid of the reader");
    check_eq(at.tid, [5, 0, 0], "tid of the reader");
    check_eq(at.line, line_of(&src, "// MARK"), "1-based line of the add");
    count(1);
    assert!(at.instruction.contains("add.s32"), "{at}");
    // An element of a register array: %r<4>, reading %r3.
    let r = run_kernel(
        "",
        "\t.reg .b32 %r<4>;",
        "\tmov.u32 %r0, 1;\n\tadd.u32 %r1, %r0, %r3;\n\tst.global.u32 [%out], %r1;",
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
    );
    check_eq(
        ub_kind(&r.outcome).cloned(),
        Some(UbKind::UninitializedRegister("%r3".into())),
        "array element %r3",
    );
    // A predicate read before any write, as a guard.
    let r = run_kernel(
        "",
        "\t.reg .pred %p;",
        "\t@%p st.global.u32 [%out], 1;",
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
    );
    check_eq(
        ub_kind(&r.outcome).cloned(),
        Some(UbKind::UninitializedRegister("%p".into())),
        "guard predicate %p",
    );
    // Written on one path only: thread 1 takes the path that skips the write.
    let body =
        "\tsetp.eq.u32 %p, %tx, 0;\n\t@%p mov.u32 %x, 4;\n\tst.global.u32 [%out], %x; // MARK";
    let src = kernel("", "\t.reg .b32 %x;\n\t.reg .pred %p;", body);
    let r = run_kernel(
        "",
        "\t.reg .b32 %x;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [2, 1, 1],
    );
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    check_eq(
        kind.clone(),
        UbKind::UninitializedRegister("%x".into()),
        "conditionally written %x",
    );
    check_eq(
        (at.tid, at.line),
        ([1, 0, 0], line_of(&src, "// MARK")),
        "thread 1 at the store",
    );
    // Inside a .func: the line is the callee's.
    let func = ".func (.reg .b32 %o) f(.reg .b32 %i)\n{\n\t.reg .b32 %z;\n\tadd.u32 %o, %i, %z; // FMARK\n\tret;\n}\n";
    let body = "\tmov.u32 %a, 1;\n\tcall (%b), f, (%a);\n\tst.global.u32 [%out], %b;";
    let src = kernel(func, "\t.reg .b32 %a, %b;", body);
    let r = run_kernel(
        func,
        "\t.reg .b32 %a, %b;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
    );
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    check_eq(
        kind.clone(),
        UbKind::UninitializedRegister("%z".into()),
        "callee register %z",
    );
    check_eq(at.line, line_of(&src, "// FMARK"), "line inside the callee");
}

#[test]
fn uninitialized_reads_around_loops_and_joins_are_reported() {
    let _c = rows_of("uninitialized_reads_around_loops_and_joins_are_reported");
    // The fast path skips the check where a register is certainly written
    // (a data-flow analysis); these shapes must keep it. %s is accumulated
    // in a loop but never set before it: the first iteration reads it.
    let decls = "\t.reg .b32 %i, %s;\n\t.reg .pred %p;";
    let body = "\tmov.u32 %i, 0;\nLOOP:\n\tsetp.eq.u32 %p, %i, 3;\n\t@%p bra DONE;\n\
                \tadd.u32 %s, %s, %i; // MARK\n\tadd.u32 %i, %i, 1;\n\tbra.uni LOOP;\nDONE:\n\tst.global.u32 [%out], %s;";
    let src = kernel("", decls, body);
    let r = run_kernel("", decls, body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    check_eq(
        kind.clone(),
        UbKind::UninitializedRegister("%s".into()),
        "loop-carried %s",
    );
    check_eq(at.line, line_of(&src, "// MARK"), "the add in the loop");
    // Set before the loop: fine (0+1+2 = 3).
    let body = body.replace("\tmov.u32 %i, 0;", "\tmov.u32 %i, 0;\n\tmov.u32 %s, 0;");
    let r = run_kernel("", decls, &body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(
        r.outcome.clone(),
        Outcome::Completed,
        "initialized accumulator",
    );
    check_eq(out(&r, "out")[0] & 0xffff_ffff, 3, "sum");
    // Written on one side of a branch, read after the join; the loop exit
    // taken on the first test skips the body's write of %s.
    let body = "\tsetp.ne.u32 %p, %tx, 0;\n\t@%p bra ELSE;\n\tmov.u32 %s, 1;\n\tbra.uni JOIN;\nELSE:\n\tmov.u32 %i, 2;\nJOIN:\n\
                \tst.global.u32 [%out], %s; // MARK";
    let src = kernel("", decls, body);
    let r = run_kernel("", decls, body, vec![], 1, [1, 1, 1], [2, 1, 1]);
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    check_eq(
        kind.clone(),
        UbKind::UninitializedRegister("%s".into()),
        "one-sided %s",
    );
    check_eq(
        (at.tid, at.line),
        ([1, 0, 0], line_of(&src, "// MARK")),
        "thread 1 after the join",
    );
    let body = "\tsetp.eq.u32 %p, %tx, 7;\nTOP:\n\t@%p bra OUT;\n\tmov.u32 %s, 5;\n\tsetp.eq.u32 %p, %s, 5;\n\tbra.uni TOP;\nOUT:\n\
                \tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %t64, %out, %t64;\n\tst.global.u32 [%t64], %s; // MARK";
    let r = run_kernel("", decls, body, vec![], 8, [1, 1, 1], [8, 1, 1]);
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    check_eq(
        kind.clone(),
        UbKind::UninitializedRegister("%s".into()),
        "loop exit before the write",
    );
    check_eq(at.tid, [7, 0, 0], "thread 7 skips the loop body");
}

#[test]
fn division_by_zero_is_ub() {
    let _c = rows_of("division_by_zero_is_ub");
    for (decl, body, what) in [
        ("\t.reg .b32 %a, %b, %d;", "\tld.global.u32 %a, [%in];\n\tld.global.u32 %b, [%in+8];\n\tdiv.u32 %d, %a, %b; // MARK\n\tst.global.u32 [%out], %d;", "div.u32"),
        ("\t.reg .b32 %a, %b, %d;", "\tld.global.u32 %a, [%in];\n\tld.global.u32 %b, [%in+8];\n\trem.s32 %d, %a, %b; // MARK\n\tst.global.u32 [%out], %d;", "rem.s32"),
        ("\t.reg .b32 %a, %b, %d;", "\tld.global.u32 %a, [%in];\n\tld.global.u32 %b, [%in+8];\n\tdiv.s32 %d, %a, %b; // MARK\n\tst.global.u32 [%out], %d;", "div.s32"),
        ("\t.reg .b64 %a, %b, %d;", "\tld.global.u64 %a, [%in];\n\tld.global.u64 %b, [%in+8];\n\trem.u64 %d, %a, %b; // MARK\n\tst.global.u64 [%out], %d;", "rem.u64"),
        ("\t.reg .b32 %a, %d;", "\tld.global.u32 %a, [%in];\n\tdiv.u32 %d, %a, 0; // MARK\n\tst.global.u32 [%out], %d;", "div.u32 by immediate 0"),
    ] {
        let src = kernel("", decl, body);
        let r = run_kernel("", decl, body, vec![7, 0], 1, [1, 1, 1], [1, 1, 1]);
        let Outcome::Ub { kind, at } = &r.outcome else { panic!("{what}: expected UB, got {:?}", r.outcome) };
        check_eq(kind.clone(), UbKind::DivisionByZero, what);
        check_eq(at.line, line_of(&src, "// MARK"), &format!("{what} line"));
    }
    // A non-zero divisor whose low 32 bits are zero is zero for div.u32
    // (the register holds a 64-bit load's value; div.u32 reads 32 bits)...
    // instead: the same 64-bit slot loaded as u32 from its low half.
    let r = run_kernel("", "\t.reg .b32 %a, %b, %d;", "\tld.global.u32 %a, [%in];\n\tld.global.u32 %b, [%in+8];\n\tdiv.u32 %d, %a, %b;\n\tst.global.u32 [%out], %d;", vec![7, 1 << 32], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(
        ub_kind(&r.outcome).cloned(),
        Some(UbKind::DivisionByZero),
        "low word of 2^32 is 0",
    );
    // Outputs written before the UB are kept.
    let r = run_kernel("", "\t.reg .b32 %a, %d;", "\tst.global.u32 [%out], 5;\n\tmov.u32 %a, 0;\n\tdiv.u32 %d, 1, %a;\n\tst.global.u32 [%out], %d;", vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(out(&r, "out")[0], 5, "outputs as far as the run got");
}

#[test]
fn out_of_bounds_access_faults_with_the_address() {
    let _c = rows_of("out_of_bounds_access_faults_with_the_address");
    // Buffers start at 0x10000000 in params order: out (2 x u64 = 16 bytes)
    // is at 0x10000000, so out + 16 = 0x10000010 is in its guard gap.
    let body = "\tld.global.u32 %a, [%out+16]; // MARK\n\tst.global.u32 [%out], %a;";
    let src = kernel("", "\t.reg .b32 %a;", body);
    let r = run_kernel("", "\t.reg .b32 %a;", body, vec![], 2, [1, 1, 1], [3, 1, 1]);
    let Outcome::Fault { message, at } = &r.outcome else {
        panic!("expected a fault, got {:?}", r.outcome)
    };
    count(1);
    assert!(
        message.contains("0x10000010"),
        "message names the address: {message}"
    );
    check_eq(
        (at.tid, at.line),
        ([0, 0, 0], line_of(&src, "// MARK")),
        "fault location",
    );
    // A store just past the end, by thread 2 only.
    let body = "\tsetp.eq.u32 %p, %tx, 2;\n\t@%p st.global.u32 [%out+20], 1; // MARK";
    let src = kernel("", "\t.reg .pred %p;", body);
    let r = run_kernel(
        "",
        "\t.reg .pred %p;",
        body,
        vec![],
        2,
        [1, 1, 1],
        [3, 1, 1],
    );
    let Outcome::Fault { message, at } = &r.outcome else {
        panic!("expected a fault, got {:?}", r.outcome)
    };
    count(1);
    assert!(
        message.contains("0x10000014"),
        "message names the address: {message}"
    );
    check_eq(
        (at.tid, at.line),
        ([2, 0, 0], line_of(&src, "// MARK")),
        "store fault location",
    );
    // An 8-byte load straddling the end (last 4 bytes in bounds, next 4 not).
    let r = run_kernel(
        "",
        "\t.reg .b64 %a;",
        "\tld.global.u32 %a, [%out+12];\n\tld.global.u64 %a, [%out+16];",
        vec![],
        2,
        [1, 1, 1],
        [1, 1, 1],
    );
    count(1);
    assert!(
        matches!(&r.outcome, Outcome::Fault { message, .. } if message.contains("0x10000010")),
        "{:?}",
        r.outcome
    );
    // Address 0.
    let r = run_kernel(
        "",
        "\t.reg .b32 %a;\n\t.reg .b64 %z;",
        "\tmov.u64 %z, 0;\n\tld.global.u32 %a, [%z];",
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
    );
    count(1);
    assert!(
        matches!(&r.outcome, Outcome::Fault { message, .. } if message.contains("0x0")),
        "{:?}",
        r.outcome
    );
    // Shared memory past its declared size.
    let r = run_kernel(
        "",
        "\t.shared .align 4 .b8 sh[16];\n\t.reg .b32 %a;",
        "\tld.shared.u32 %a, [sh+16];",
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
    );
    count(1);
    assert!(
        matches!(&r.outcome, Outcome::Fault { .. }),
        "shared out of range: {:?}",
        r.outcome
    );
    // trap faults.
    let r = run_kernel("", "", "\ttrap;", vec![], 1, [1, 1, 1], [1, 1, 1]);
    count(1);
    assert!(
        matches!(&r.outcome, Outcome::Fault { .. }),
        "trap: {:?}",
        r.outcome
    );
}

#[test]
fn misaligned_accesses_are_ub() {
    let _c = rows_of("misaligned_accesses_are_ub");
    let cases: [(&str, &str, u64, u32); 6] = [
        (
            "\t.reg .b32 %a;",
            "\tld.global.u32 %a, [%in+2]; // MARK",
            2,
            4,
        ),
        (
            "\t.reg .b64 %a;",
            "\tld.global.u64 %a, [%in+4]; // MARK",
            4,
            8,
        ),
        (
            "\t.reg .b16 %a;\n\tmov.u16 %a, 1;",
            "\tst.global.u16 [%out+1], %a; // MARK",
            1,
            2,
        ),
        (
            "\t.reg .b32 %a;",
            "\tatom.global.add.u32 %a, [%in+2], 1; // MARK",
            2,
            4,
        ),
        // Vectors must be aligned to their whole size (ISA "Vectors": ld.v4.b32 needs 16 bytes).
        (
            "\t.reg .b32 %a, %b, %c, %d;",
            "\tld.global.v4.u32 {%a, %b, %c, %d}, [%in+4]; // MARK",
            4,
            16,
        ),
        (
            "\t.reg .b32 %a, %b;",
            "\tld.global.v2.u32 {%a, %b}, [%in+4]; // MARK",
            4,
            8,
        ),
    ];
    let mut errs = Vec::new();
    for (decl, body, off, size) in cases {
        // Decls may carry an initializing instruction (after the .reg line).
        let (decl, init) = decl.split_once('\n').map_or((decl, ""), |(a, b)| (a, b));
        let body = format!("{init}\n{body}");
        let src = kernel("", decl, &body);
        let r = run_kernel("", decl, &body, vec![0; 4], 4, [1, 1, 1], [1, 1, 1]);
        count(1);
        match &r.outcome {
            Outcome::Ub {
                kind: UbKind::Misaligned { address, size: s },
                at,
            } => {
                let got = (address % 16, *s, at.line);
                let want = (off, size, line_of(&src, "// MARK"));
                if got != want {
                    errs.push(format!(
                        "{}: (address % 16, size, line) expected {want:?} got {got:?}",
                        body.trim()
                    ));
                }
            }
            other => errs.push(format!(
                "{}: expected Misaligned {{ size: {size} }}, got {other:?}",
                body.trim()
            )),
        }
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn barrier_deadlock_is_ub() {
    let _c = rows_of("barrier_deadlock_is_ub");
    // Threads 0..31 wait at barrier 1 for 64 threads, threads 32..63 at
    // barrier 2 for 64: neither can complete.
    let body = "\tsetp.lt.u32 %p, %tx, 32;\n\t@%p bar.sync 1, 64;\n\t@!%p bar.sync 2, 64;\n\tst.global.u32 [%out], 1;";
    let r = run_kernel(
        "",
        "\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [64, 1, 1],
    );
    count(1);
    assert!(
        matches!(ub_kind(&r.outcome), Some(UbKind::Deadlock(_))),
        "{:?}",
        r.outcome
    );
    // Barrier 0 reached from two different bar.sync instructions by all 64
    // threads completes (sm_70+: barriers are counted per id, not per site).
    let body = "\tsetp.eq.u32 %p, %tx, 0;\n\t@%p bar.sync 0;\n\t@!%p bar.sync 0;\n";
    let r = run_kernel(
        "",
        "\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [64, 1, 1],
    );
    check_eq(
        r.outcome.clone(),
        Outcome::Completed,
        "same barrier id from two sites completes",
    );
}

#[test]
fn warp_sync_mismatch_is_ub() {
    let _c = rows_of("warp_sync_mismatch_is_ub");
    // Lanes 16..31 exit, lanes 0..15 shuffle naming all 32 lanes.
    let body = "\tsetp.ge.u32 %p, %tx, 16;\n\t@%p exit;\n\tshfl.sync.idx.b32 %d, %tx, 0, 0x1f, 0xffffffff; // MARK\n\tst.global.u32 [%out], %d;";
    let src = kernel("", "\t.reg .b32 %d;\n\t.reg .pred %p;", body);
    let r = run_kernel(
        "",
        "\t.reg .b32 %d;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [32, 1, 1],
    );
    let Outcome::Ub { kind, at } = &r.outcome else {
        panic!("expected UB, got {:?}", r.outcome)
    };
    count(1);
    assert!(matches!(kind, UbKind::WarpSyncMismatch(_)), "{kind:?}");
    check_eq(at.line, line_of(&src, "// MARK"), "shfl line");
    count(1);
    assert!(
        at.tid[0] < 16,
        "reported in a lane that reached the shfl: {at}"
    );
    // A lane whose member mask does not include itself.
    let body = "\tvote.sync.ballot.b32 %d, %p, 0x2;";
    let r = run_kernel(
        "",
        "\t.reg .b32 %d;\n\t.reg .pred %p;",
        &format!("\tsetp.eq.u32 %p, %tx, 0;\n{body}"),
        vec![],
        1,
        [1, 1, 1],
        [32, 1, 1],
    );
    count(1);
    assert!(
        matches!(ub_kind(&r.outcome), Some(UbKind::WarpSyncMismatch(_))),
        "{:?}",
        r.outcome
    );
    // Lanes naming each other but at different shfl instructions: lanes 0-15
    // at one shfl, 16-31 at another, both with the full mask.
    let body = "\tsetp.lt.u32 %p, %tx, 16;\n\t@%p shfl.sync.idx.b32 %d, %tx, 0, 0x1f, 0xffffffff;\n\t@!%p shfl.sync.idx.b32 %d, %tx, 1, 0x1f, 0xffffffff;\n\tst.global.u32 [%out], %d;";
    let r = run_kernel(
        "",
        "\t.reg .b32 %d;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [32, 1, 1],
    );
    count(1);
    assert!(
        matches!(
            ub_kind(&r.outcome),
            Some(UbKind::WarpSyncMismatch(_) | UbKind::Deadlock(_))
        ),
        "{:?}",
        r.outcome
    );
}

#[test]
fn infinite_loop_times_out_and_recursion_hits_the_depth_limit() {
    let _c = rows_of("infinite_loop_times_out_and_recursion_hits_the_depth_limit");
    let r = run_kernel_limits(
        "",
        "",
        "L:\n\tbra L;",
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
        &RunLimits {
            fuel: 10_000,
            ..Default::default()
        },
    );
    count(1);
    assert!(
        matches!(r.outcome, Outcome::Timeout { .. }),
        "{:?}",
        r.outcome
    );
    count(1);
    assert!(
        r.executed >= 10_000 && r.executed <= 10_100,
        "executed {} of 10000 fuel",
        r.executed
    );
    // Fuel is shared by all threads: 4 threads of a finite loop of ~3 x 1000
    // instructions each need ~12000 > 10000.
    let body =
        "\tmov.u32 %k, 0;\nL:\n\tadd.u32 %k, %k, 1;\n\tsetp.lt.u32 %p, %k, 1000;\n\t@%p bra L;";
    let lim = RunLimits {
        fuel: 10_000,
        ..Default::default()
    };
    let r = run_kernel_limits(
        "",
        "\t.reg .b32 %k;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [4, 1, 1],
        &lim,
    );
    count(1);
    assert!(
        matches!(r.outcome, Outcome::Timeout { .. }),
        "shared fuel: {:?}",
        r.outcome
    );
    let r = run_kernel_limits(
        "",
        "\t.reg .b32 %k;\n\t.reg .pred %p;",
        body,
        vec![],
        1,
        [1, 1, 1],
        [2, 1, 1],
        &lim,
    );
    check_eq(
        r.outcome.clone(),
        Outcome::Completed,
        "two threads fit in the fuel",
    );
    // Unbounded recursion: UB CallDepth.
    let func = ".func rec(.param .b32 n)\n{\n\t.reg .b32 %n;\n\tld.param.u32 %n, [n];\n\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %n;\n\tcall.uni rec, (a);\n\t}\n\tret;\n}\n";
    let body = "\t{\n\t.param .b32 a;\n\tst.param.b32 [a], 1;\n\tcall.uni rec, (a);\n\t}";
    let r = run_kernel_limits(
        func,
        "",
        body,
        vec![],
        1,
        [1, 1, 1],
        [1, 1, 1],
        &RunLimits {
            max_call_depth: 8,
            ..Default::default()
        },
    );
    check_eq(
        ub_kind(&r.outcome).cloned(),
        Some(UbKind::CallDepth),
        "unbounded recursion",
    );
}

/// The UB of a run, and where (tid, ctaid, line).
fn ub_at(r: &oracle::ptx_interp::RunResult) -> (UbKind, [u32; 3], [u32; 3], u32) {
    match &r.outcome {
        Outcome::Ub { kind, at } => (kind.clone(), at.tid, at.ctaid, at.line),
        o => panic!("expected UB, got {o:?}"),
    }
}

/// The space of an `UninitializedMemory` UB.
fn uninit_space(k: &UbKind) -> Option<&'static str> {
    match k {
        UbKind::UninitializedMemory { space, .. } => Some(space),
        _ => None,
    }
}

fn uninit(space: &'static str, address: u64) -> UbKind {
    UbKind::UninitializedMemory { space, address }
}

#[test]
fn reads_of_never_written_local_param_and_shared_memory_are_undefined() {
    let _c = rows_of("reads_of_never_written_local_param_and_shared_memory_are_undefined");
    // Local and shared memory start undefined (PTX ISA 5.4.4: only .const
    // and .global variables take initializers). A .local word with two of
    // its four bytes written: the 4-byte read fails at the first unwritten
    // byte (offset 2 of the frame); the 2-byte read of the written ones is
    // fine.
    let decls = "\t.local .align 4 .b8 buf[8];\n\t.reg .b16 %h;\n\t.reg .b32 %r;";
    let body = "\tst.local.u16 [buf], 7;\n\tld.local.u16 %h, [buf];\n\tcvt.u32.u16 %r, %h;\n\
                \tst.global.u32 [%out], %r;\n\tld.local.u32 %r, [buf]; // MARK\n\tst.global.u32 [%out], %r;";
    let src = kernel("", decls, body);
    let r = run_kernel("", decls, body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    let (kind, _, _, line) = ub_at(&r);
    check_eq(kind, uninit("local", 2), "half-written local word");
    check_eq(line, line_of(&src, "// MARK"), "the 4-byte load");
    check_eq(out(&r, "out")[0] & 0xffff_ffff, 7, "the written half read");
    // Written in full first: defined.
    let body = body.replace("st.local.u16 [buf], 7", "st.local.u32 [buf], 7");
    let r = run_kernel("", decls, &body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(r.outcome.clone(), Outcome::Completed, "written word");
    // Shared memory, per CTA: CTA 0 writes its word before reading it, CTA
    // 1 only reads, and finds nothing of CTA 0's store (each CTA's shared
    // memory starts undefined).
    let decls = "\t.shared .align 4 .b32 s[2];\n\t.reg .b32 %c, %r;\n\t.reg .pred %p;";
    let body = "\tmov.u32 %c, %ctaid.x;\n\tsetp.ne.u32 %p, %c, 0;\n\t@%p bra READ;\n\tst.shared.u32 [s+4], 9;\nREAD:\n\
                \tld.shared.u32 %r, [s+4]; // MARK\n\tst.global.u32 [%out], %r;";
    let src = kernel("", decls, body);
    let r = run_kernel("", decls, body, vec![], 1, [2, 1, 1], [1, 1, 1]);
    let (kind, _, ctaid, line) = ub_at(&r);
    check_eq(kind, uninit("shared", 4), "shared word of CTA 1");
    check_eq(
        (ctaid, line),
        ([1, 0, 0], line_of(&src, "// MARK")),
        "CTA 1's load",
    );
    // An atomic reads before it writes.
    let body = "\tatom.shared.add.u32 %r, [s], 1;\n\tst.global.u32 [%out], %r;";
    let r = run_kernel("", decls, body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(
        ub_at(&r).0,
        uninit("shared", 0),
        "atom on a never-written word",
    );
    count(6);
}

#[test]
fn call_frames_carry_what_was_written_and_nothing_more() {
    let _c = rows_of("call_frames_carry_what_was_written_and_nothing_more");
    // A callee that never stores its return value: the caller's read of
    // retval0 reads nothing (what a reducer that deleted the st.param would
    // leave; ptxas 11.8 compiles it to a read of a register nobody set).
    let id = |store: &str| {
        format!(
            ".func (.param .b32 func_retval0) id(.param .b32 x)\n{{\n\t.reg .b32 %v;\n\tld.param.u32 %v, [x];\n{store}\tret;\n}}\n"
        )
    };
    let decls = "\t.reg .b32 %a, %x;";
    let body = "\tmov.u32 %a, 5;\n\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], %a;\n\t.param .b32 retval0;\n\
                \tcall.uni (retval0), id, (p0);\n\tld.param.b32 %x, [retval0]; // MARK\n\t}\n\tst.global.u32 [%out], %x;";
    let src = kernel(&id(""), decls, body);
    let r = run_kernel(&id(""), decls, body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    let (kind, _, _, line) = ub_at(&r);
    check_eq(uninit_space(&kind), Some("param"), "unset return value");
    check_eq(line, line_of(&src, "// MARK"), "the caller's ld.param");
    let set = id("\tst.param.b32 [func_retval0], %v;\n");
    let r = run_kernel(&set, decls, body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(r.outcome.clone(), Outcome::Completed, "returned value");
    check_eq(out(&r, "out")[0] & 0xffff_ffff, 5, "the argument back");
    // An argument the caller declared but never stored reaches the callee
    // as never-written bytes: the callee's ld.param is the read.
    let body2 = body.replace("\tst.param.b32 [p0], %a;\n", "");
    let r = run_kernel(&set, decls, &body2, vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(uninit_space(&ub_at(&r).0), Some("param"), "unset argument");
    // A finished call's frame is gone: the next call's .local starts
    // undefined although the same bytes held the previous call's store.
    let f = ".func (.param .b32 r) put(.param .b32 w)\n{\n\t.local .align 4 .b32 v;\n\t.reg .b32 %w, %t;\n\t.reg .pred %p;\n\
             \tld.param.u32 %w, [w];\n\tsetp.ne.u32 %p, %w, 0;\n\t@%p st.local.u32 [v], %w;\n\tld.local.u32 %t, [v];\n\
             \tst.param.b32 [r], %t;\n\tret;\n}\n";
    let call = |w: u32| {
        format!("\t{{\n\t.param .b32 w;\n\tst.param.b32 [w], {w};\n\t.param .b32 r;\n\tcall.uni (r), put, (w);\n\tld.param.b32 %x, [r];\n\t}}\n")
    };
    let body = format!("{}{}\tst.global.u32 [%out], %x;", call(3), call(0));
    let r = run_kernel(f, decls, &body, vec![], 1, [1, 1, 1], [1, 1, 1]);
    check_eq(
        uninit_space(&ub_at(&r).0),
        Some("local"),
        "second frame's local",
    );
    count(6);
}
