//! Calls to .func: the clang .param ABI, register parameters, recursion,
//! predicated calls, void functions writing memory.

use super::harness::*;

/// f(a, b) = a * 3 + b, as clang emits it: .param arguments and return value.
const MULADD_FUNC: &str = ".visible .func  (.param .b32 func_retval0) muladd(\n\t.param .b32 muladd_param_0,\n\t.param .b32 muladd_param_1\n)\n{\n\
\t.reg .b32 \t%r<4>;\n\tld.param.u32 \t%r1, [muladd_param_0];\n\tld.param.u32 \t%r2, [muladd_param_1];\n\tmad.lo.s32 \t%r3, %r1, 3, %r2;\n\
\tst.param.b32 \t[func_retval0+0], %r3;\n\tret;\n}\n";

#[test]
fn clang_abi_call_with_params_and_return() {
    let _c = rows_of("clang_abi_call_with_params_and_return");
    let mut t = Tables::new();
    let body = "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\
                \t{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n\t.param .b32 param0;\n\tst.param.b32 \t[param0+0], %a;\n\t.param .b32 param1;\n\tst.param.b32 \t[param1+0], %b;\n\
                \t.param .b32 retval0;\n\tcall.uni (retval0), \n\tmuladd, \n\t(\n\tparam0, \n\tparam1\n\t);\n\tld.param.b32 \t%d, [retval0+0];\n\t} // callseq 0\n\
                \tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %a;";
    let mut rows = Vec::new();
    // Operand order matters: f(a, b) = 3a + b, not 3b + a.
    for (a, b) in [(1i32, 100i32), (100, 1), (-5, 7), (0x4000_0000, 1)] {
        rows.push(row(
            &[i(a), i(b)],
            &[i(a.wrapping_mul(3).wrapping_add(b)), i(a)],
            "muladd(a, b)",
        ));
    }
    t.tg(
        "call muladd",
        MULADD_FUNC,
        "\t.reg .b32 %a, %b, %d;",
        body,
        rows,
    );
    // Two calls in sequence, the second using the first's result: f(f(a, b), a).
    let body = "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\
                \t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %a;\n\t.param .b32 param1;\n\tst.param.b32 [param1+0], %b;\n\t.param .b32 retval0;\n\
                \tcall.uni (retval0), muladd, (param0, param1);\n\tld.param.b32 %d, [retval0+0];\n\t}\n\
                \t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %d;\n\t.param .b32 param1;\n\tst.param.b32 [param1+0], %a;\n\t.param .b32 retval0;\n\
                \tcall.uni (retval0), muladd, (param0, param1);\n\tld.param.b32 %e, [retval0+0];\n\t}\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;";
    let rows = [(2i32, 3i32), (-1, 10)]
        .iter()
        .map(|&(a, b)| {
            let d_ = a * 3 + b;
            row(&[i(a), i(b)], &[i(d_), i(d_ * 3 + a)], "nested")
        })
        .collect();
    t.tg(
        "two calls",
        MULADD_FUNC,
        "\t.reg .b32 %a, %b, %d, %e;",
        body,
        rows,
    );
    // Mixed parameter types: (u64 pointer, s32 index, f64 scale) -> f64, like
    // corpus/kernels/double_noinline: returns p[idx] * scale.
    let func = ".visible .func  (.param .b64 func_retval0) pick(\n\t.param .b64 pick_param_0,\n\t.param .b32 pick_param_1,\n\t.param .b64 pick_param_2\n)\n{\n\
                \t.reg .b32 %r<2>;\n\t.reg .b64 %rd<4>;\n\t.reg .f64 %fd<4>;\n\tld.param.u64 %rd1, [pick_param_0];\n\tld.param.u32 %r1, [pick_param_1];\n\tld.param.f64 %fd1, [pick_param_2];\n\
                \tmul.wide.s32 %rd2, %r1, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tld.f64 %fd2, [%rd3];\n\tmul.rn.f64 %fd3, %fd2, %fd1;\n\tst.param.f64 [func_retval0+0], %fd3;\n\tret;\n}\n";
    let body = "\tld.global.u32 %k, [%pc];\n\tld.global.f64 %s, [%pz];\n\
                \t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %pa;\n\t.param .b32 param1;\n\tst.param.b32 [param1+0], %k;\n\t.param .b64 param2;\n\tst.param.f64 [param2+0], %s;\n\
                \t.param .b64 retval0;\n\tcall.uni (retval0), pick, (param0, param1, param2);\n\tld.param.f64 %r, [retval0+0];\n\t}\n\tst.global.f64 [%pd], %r;";
    let rows = vec![
        row(&[d(1.5), d(2.5), 0, d(2.0)], &[d(3.0)], "p[0] * 2"),
        row(&[d(1.5), d(2.5), 1, d(-4.0)], &[d(-10.0)], "p[1] * -4"),
        // idx 3 is slot z, the scale itself: 1.25 * 1.25.
        row(
            &[d(7.0), d(2.5), 3, d(1.25)],
            &[d(1.25 * 1.25)],
            "p[3] is the scale slot",
        ),
    ];
    t.tg(
        "call pick(ptr, idx, scale)",
        func,
        "\t.reg .b32 %k;\n\t.reg .f64 %s, %r;",
        body,
        rows,
    );
    t.check();
}

#[test]
fn register_params_recursion_void_and_predicated_calls() {
    let _c = rows_of("register_params_recursion_void_and_predicated_calls");
    let mut t = Tables::new();
    // Register-parameter .func: (.reg .b32 %ret) sub2(.reg .b32 %x, .reg .b32 %y) = x - y.
    let func = ".func (.reg .b32 %ret) sub2(.reg .b32 %x, .reg .b32 %y)\n{\n\tsub.s32 %ret, %x, %y;\n\tret;\n}\n";
    let body = "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tcall (%d), sub2, (%a, %b);\n\tcall (%e), sub2, (%b, %a);\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %e;";
    let rows = [(10i32, 3i32), (-2, 5)]
        .iter()
        .map(|&(a, b)| row(&[i(a), i(b)], &[i(a - b), i(b - a)], "sub2"))
        .collect();
    t.tg(
        "register params",
        func,
        "\t.reg .b32 %a, %b, %d, %e;",
        body,
        rows,
    );
    // Recursive factorial through the .param ABI: fact(n) = n <= 1 ? 1 : n * fact(n - 1).
    let func = ".func (.param .b64 ret) fact(.param .b32 n)\n{\n\t.reg .b32 %n, %m;\n\t.reg .b64 %r, %s;\n\t.reg .pred %p;\n\tld.param.u32 %n, [n];\n\
                \tsetp.le.u32 %p, %n, 1;\n\t@%p bra BASE;\n\tsub.u32 %m, %n, 1;\n\t{\n\t.param .b32 a0;\n\tst.param.b32 [a0], %m;\n\t.param .b64 r0;\n\
                \tcall.uni (r0), fact, (a0);\n\tld.param.b64 %r, [r0];\n\t}\n\tcvt.u64.u32 %s, %n;\n\tmul.lo.u64 %r, %r, %s;\n\tst.param.b64 [ret], %r;\n\tret;\n\
                BASE:\n\tst.param.b64 [ret], 1;\n\tret;\n}\n";
    let body = "\tld.global.u32 %a, [%pa];\n\t{\n\t.param .b32 a0;\n\tst.param.b32 [a0], %a;\n\t.param .b64 r0;\n\tcall.uni (r0), fact, (a0);\n\tld.param.b64 %x, [r0];\n\t}\n\tst.global.u64 [%pd], %x;";
    let rows = [0u64, 1, 5, 10, 20]
        .iter()
        .map(|&n| row(&[n], &[(1..=n.max(1)).product::<u64>()], "fact"))
        .collect();
    t.tg(
        "recursive factorial",
        func,
        "\t.reg .b32 %a;\n\t.reg .b64 %x;",
        body,
        rows,
    );
    // A void .func storing through a pointer parameter, and a predicated call.
    let func = ".func store3(.param .b64 ptr, .param .b32 v)\n{\n\t.reg .b64 %p;\n\t.reg .b32 %v;\n\tld.param.u64 %p, [ptr];\n\tld.param.u32 %v, [v];\n\
                \tmul.lo.u32 %v, %v, 3;\n\tst.global.u32 [%p], %v;\n\tret;\n}\n";
    let body = "\tld.global.u32 %a, [%pa];\n\tsetp.ne.u32 %q, %a, 0;\n\t{\n\t.param .b64 a0;\n\tst.param.b64 [a0], %pd;\n\t.param .b32 a1;\n\tst.param.b32 [a1], %a;\n\
                \t@%q call.uni store3, (a0, a1);\n\t}\n\tst.global.u32 [%pe], 1;";
    let rows = vec![
        row(&[5], &[15, 1], "called"),
        row(&[0], &[0, 1], "guard false: not called"),
    ];
    t.tg(
        "void func, predicated call",
        func,
        "\t.reg .b32 %a;\n\t.reg .pred %q;",
        body,
        rows,
    );
    // Callee registers are separate from the caller's: a callee writing its
    // own %r1 does not change the caller's %r1.
    let func = ".func (.reg .b32 %o) clobber(.reg .b32 %i)\n{\n\t.reg .b32 %r1;\n\tmov.u32 %r1, 999;\n\tadd.u32 %o, %i, %r1;\n\tret;\n}\n";
    let body = "\tld.global.u32 %r1, [%pa];\n\tcall (%d), clobber, (%r1);\n\tst.global.u32 [%pd], %d;\n\tst.global.u32 [%pe], %r1;";
    t.tg(
        "callee-local registers",
        func,
        "\t.reg .b32 %r1, %d;",
        body,
        vec![row(&[1], &[1000, 1], "caller %r1 kept")],
    );
    t.check();
}

#[test]
fn aggregate_params_narrow_params_and_local_frames() {
    let _c = rows_of("aggregate_params_narrow_params_and_local_frames");
    let mut t = Tables::new();
    // A 16-byte struct by value in and out (clang: .param .align 8 .b8 x[16]),
    // stored field by field by the caller and as a vector by the callee.
    let func = ".func (.param .align 8 .b8 func_retval0[16]) swap(\n\t.param .align 8 .b8 swap_param_0[16]\n)\n{\n\t.reg .b64 %rd<3>;\n\
                \tld.param.u64 %rd1, [swap_param_0];\n\tld.param.u64 %rd2, [swap_param_0+8];\n\tst.param.v2.u64 [func_retval0+0], {%rd2, %rd1};\n\tret;\n}\n";
    let body = "\tld.global.u64 %a, [%pa];\n\tld.global.u64 %b, [%pb];\n\t{\n\t.param .align 8 .b8 param0[16];\n\tst.param.u64 [param0+0], %a;\n\tst.param.u64 [param0+8], %b;\n\
                \t.param .align 8 .b8 retval0[16];\n\tcall.uni (retval0), swap, (param0);\n\tld.param.u64 %x, [retval0+0];\n\tld.param.u64 %y, [retval0+8];\n\t}\n\
                \tst.global.u64 [%pd], %x;\n\tst.global.u64 [%pe], %y;";
    t.tg(
        "struct by value",
        func,
        "\t.reg .b64 %a, %b, %x, %y;",
        body,
        vec![row(
            &[1, 0xffff_ffff_0000_0002],
            &[0xffff_ffff_0000_0002, 1],
            "swap fields",
        )],
    );
    // Narrow scalar arguments: the caller stores a byte into a .b32 param; the
    // callee reads it with ld.param.s8 (sign-extended) and ld.param.u8.
    let func = ".func (.param .b32 func_retval0) widen(\n\t.param .b32 widen_param_0\n)\n{\n\t.reg .b16 %rs<2>;\n\t.reg .b32 %r<4>;\n\
                \tld.param.s8 %r1, [widen_param_0];\n\tld.param.u8 %r2, [widen_param_0];\n\tshl.b32 %r2, %r2, 16;\n\tand.b32 %r1, %r1, 0xffff;\n\tor.b32 %r3, %r1, %r2;\n\
                \tst.param.b32 [func_retval0+0], %r3;\n\tret;\n}\n";
    let body = "\tld.global.u16 %h, [%pa];\n\t{\n\t.param .b32 param0;\n\tst.param.b8 [param0+0], %h;\n\t.param .b32 retval0;\n\tcall.uni (retval0), widen, (param0);\n\
                \tld.param.b32 %x, [retval0+0];\n\t}\n\tst.global.u32 [%pd], %x;";
    t.tg(
        "byte param",
        func,
        "\t.reg .b16 %h;\n\t.reg .b32 %x;",
        body,
        // Byte 0xfb: s8 -> 0xfffffffb (low 16 bits 0xfffb), u8 -> 0xfb.
        vec![
            row(
                &[0x01fb],
                &[0x00fb_fffb],
                "0xfb (only the stored byte counts)",
            ),
            row(&[0x7f], &[0x007f_007f], "0x7f"),
        ],
    );
    // Recursion with a .local variable per frame: s(n) = keep * keep + s(n - 1),
    // where keep = n is stored to a .local before the recursive call and read
    // back after it. Separate frames give the sum of squares.
    let func = ".func (.param .b32 ret) sq(.param .b32 n)\n{\n\t.local .align 4 .b32 keep;\n\t.reg .b32 %n, %r, %k;\n\t.reg .pred %p;\n\tld.param.u32 %n, [n];\n\
                \tst.local.u32 [keep], %n;\n\tmov.u32 %r, 0;\n\tsetp.eq.u32 %p, %n, 0;\n\t@%p bra DONE;\n\tsub.u32 %k, %n, 1;\n\
                \t{\n\t.param .b32 a;\n\tst.param.b32 [a], %k;\n\t.param .b32 r0;\n\tcall.uni (r0), sq, (a);\n\tld.param.b32 %r, [r0];\n\t}\n\
                \tld.local.u32 %k, [keep];\n\tmad.lo.u32 %r, %k, %k, %r;\nDONE:\n\tst.param.b32 [ret], %r;\n\tret;\n}\n";
    let body = "\tld.global.u32 %a, [%pa];\n\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %a;\n\t.param .b32 r0;\n\tcall.uni (r0), sq, (a);\n\tld.param.b32 %x, [r0];\n\t}\n\tst.global.u32 [%pd], %x;";
    let rows = [0u64, 1, 3, 10, 30]
        .iter()
        .map(|&n| {
            row(
                &[n],
                &[(1..=n).map(|k| k * k).sum::<u64>()],
                "sum of squares",
            )
        })
        .collect();
    t.tg(
        "recursion with .local frames",
        func,
        "\t.reg .b32 %a, %x;",
        body,
        rows,
    );
    // A caller passes the generic address of its .local array; the callee
    // writes through it; the caller then reads its own local.
    let func = ".func fill(.param .b64 p, .param .b32 v)\n{\n\t.local .align 4 .b32 mine[4];\n\t.reg .b64 %p;\n\t.reg .b32 %v;\n\tld.param.u64 %p, [p];\n\tld.param.u32 %v, [v];\n\
                \tst.local.u32 [mine], 111;\n\tst.u32 [%p+4], %v;\n\tld.local.u32 %v, [mine];\n\tst.u32 [%p+8], %v;\n\tret;\n}\n";
    let body = "\tld.global.u32 %a, [%pa];\n\tst.local.u32 [buf], 1;\n\tst.local.u32 [buf+4], 2;\n\tst.local.u32 [buf+8], 3;\n\tmov.u64 %l, buf;\n\tcvta.local.u64 %g, %l;\n\
                \t{\n\t.param .b64 p;\n\tst.param.b64 [p], %g;\n\t.param .b32 v;\n\tst.param.b32 [v], %a;\n\tcall.uni fill, (p, v);\n\t}\n\
                \tld.local.v2.u32 {%x, %y}, [buf];\n\tld.local.u32 %z, [buf+8];\n\tst.global.v2.u32 [%pd], {%x, %y};\n\tst.global.u32 [%pe], %z;";
    t.tg(
        "callee writes caller's local via generic pointer",
        func,
        "\t.local .align 8 .b32 buf[4];\n\t.reg .b64 %l, %g;\n\t.reg .b32 %a, %x, %y, %z;",
        body,
        vec![row(&[42], &[1 | (42 << 32), 111], "buf = {1, 42, 111}")],
    );
    t.check();
}

#[test]
fn indirect_call_through_a_function_pointer() {
    let _c = rows_of("indirect_call_through_a_function_pointer");
    let mut t = Tables::new();
    // Two functions with the same prototype; the row's input selects one via
    // selp on their addresses; call through the register with a .callprototype.
    let funcs = ".func (.param .b32 r) twice(.param .b32 x)\n{\n\t.reg .b32 %v;\n\tld.param.u32 %v, [x];\n\tshl.b32 %v, %v, 1;\n\tst.param.b32 [r], %v;\n\tret;\n}\n\
                 .func (.param .b32 r) negate(.param .b32 x)\n{\n\t.reg .b32 %v;\n\tld.param.u32 %v, [x];\n\tneg.s32 %v, %v;\n\tst.param.b32 [r], %v;\n\tret;\n}\n";
    let body = "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %s, [%pb];\n\tmov.u64 %f1, twice;\n\tmov.u64 %f2, negate;\n\tsetp.ne.u32 %p, %s, 0;\n\tselp.b64 %f, %f2, %f1, %p;\n\
                \t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %a;\n\t.param .b32 retval0;\n\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n\
                \tcall (retval0), %f, (param0), prototype_0;\n\tld.param.b32 %d, [retval0+0];\n\t}\n\tst.global.u32 [%pd], %d;";
    let rows = vec![
        row(&[21, 0], &[42], "twice(21)"),
        row(&[21, 1], &[i(-21)], "negate(21)"),
        row(&[i(-4), 0], &[i(-8)], "twice(-4)"),
    ];
    t.tg(
        "indirect call",
        funcs,
        "\t.reg .b32 %a, %s, %d;\n\t.reg .b64 %f, %f1, %f2;\n\t.reg .pred %p;",
        body,
        rows,
    );
    t.check();
}
