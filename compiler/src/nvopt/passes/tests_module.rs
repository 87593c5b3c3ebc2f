//! Unit tests of the module passes (inline, always-inline, ipconstprop,
//! deadargelim, globaldce) on PTX snippets: lift the module, run the
//! passes, print, and compare with the exact expected text (labels and
//! register declarations dropped, whitespace normalized).

use super::module_by_name;
use crate::nvopt::{lift_module, print_module};

/// The printed module after `passes` (module or function passes), as
/// normalized lines without declarations of registers.
fn after(src: &str, passes: &[&str]) -> String {
    let m = crate::ptx::parse_checked("t.ptx", src).unwrap();
    let mut lm = lift_module(&m);
    for p in passes {
        match module_by_name(p) {
            Some(mp) => {
                mp.run(&mut lm);
            }
            None => {
                let fp = super::by_name(p).unwrap();
                for (_, f) in &mut lm.funcs {
                    fp.run(f.as_mut().unwrap());
                }
            }
        }
        for (_, f) in &lm.funcs {
            crate::nvopt::verify::verify(f.as_ref().unwrap())
                .unwrap_or_else(|e| panic!("{p} broke SSA: {e}"));
        }
    }
    let out = crate::ptx::printer::print(&print_module(&lm));
    crate::ptx::parse_checked("out.ptx", &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    out.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| {
            !l.is_empty()
                && !l.starts_with(".reg")
                && !l.starts_with(".version")
                && !l.starts_with(".target")
                && !l.starts_with(".address_size")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

/// `f(a, b) = a + b` and a kernel storing `f(tid, 5)`.
fn add_module(linkage: &str) -> String {
    format!(
        "{HEAD}{linkage}.func (.param .b32 fret) f(.param .b32 fa, .param .b32 fb)\n{{\n\
         .reg .b32 %r<4>;\nld.param.b32 %r1, [fa];\nld.param.b32 %r2, [fb];\n\
         add.s32 %r3, %r1, %r2;\nst.param.b32 [fret+0], %r3;\nret;\n}}\n\
         .visible .entry k(.param .u64 k_p)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n\
         {{\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 param1;\n\
         st.param.b32 [param1+0], 5;\n.param .b32 retval0;\n\
         call.uni (retval0), f, (param0, param1);\nld.param.b32 %r2, [retval0+0];\n}}\n\
         st.global.u32 [%rd2], %r2;\nret;\n}}\n"
    )
}

/// A kernel making `calls` (each `(callee, [arg operands])` with one
/// `.b32` result), storing the results to consecutive words.
fn kernel_calling(calls: &[(&str, &[&str])]) -> String {
    let mut t = String::from(
        ".visible .entry k(.param .u64 k_p)\n{\n.reg .b32 %r<40>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n",
    );
    for (n, (callee, args)) in calls.iter().enumerate() {
        t.push_str("{\n");
        let mut names = Vec::new();
        for (j, a) in args.iter().enumerate() {
            t.push_str(&format!(
                ".param .b32 param{j};\nst.param.b32 [param{j}+0], {a};\n"
            ));
            names.push(format!("param{j}"));
        }
        t.push_str(&format!(
            ".param .b32 retval0;\ncall.uni (retval0), {callee}, ({});\n\
             ld.param.b32 %r{}, [retval0+0];\n}}\nst.global.u32 [%rd2+{}], %r{};\n",
            names.join(", "),
            10 + n,
            4 * n,
            10 + n
        ));
    }
    t.push_str("ret;\n}\n");
    t
}

/// `{linkage}.func (.param .b32 fret) NAME(.param .b32 fa, .param .b32 fb)`
/// with `body` between the parameter loads (%r1, %r2) and `st.param` of %r3.
fn func2(linkage: &str, name: &str, body: &str) -> String {
    format!(
        "{linkage}.func (.param .b32 fret) {name}(.param .b32 fa, .param .b32 fb)\n{{\n\
         .reg .b32 %r<40>;\n.reg .pred %p<4>;\nld.param.b32 %r1, [fa];\nld.param.b32 %r2, [fb];\n\
         {body}\nst.param.b32 [fret+0], %r3;\nret;\n}}\n"
    )
}

/// The kernel's part of a printed module.
fn kernel_part(s: &str) -> &str {
    &s[s.find(".visible .entry k(").unwrap()..]
}

#[test]
fn inline_puts_the_body_in_place_of_the_call_sequence_and_removes_the_dead_func() {
    // f(tid, 5) = tid + 5: the parameters become the stored values (the
    // immediate through a `mov`), the result replaces `ld.param [retval0]`,
    // the call sequence's `.param` variables and stores go, and f, left
    // without callers and without linkage, is removed.
    let want = ".visible .entry k(\n.param .u64 k_p\n)\n{\n$NVB0:\n\
                ld.param.u64 %nvb64_0, [k_p];\ncvta.to.global.u64 %nvb64_1, %nvb64_0;\n\
                mov.u32 %nvb32_0, %tid.x;\nmov.b32 %nvb32_1, 5;\n\
                add.s32 %nvb32_2, %nvb32_0, %nvb32_1;\n\
                st.global.u32 [%nvb64_1], %nvb32_2;\nret;\n}";
    assert_eq!(after(&add_module(""), &["inline", "simplifycfg"]), want);
    // Without the CFG cleanup: three blocks (before, body, after the call).
    let three = after(&add_module(""), &["inline"]);
    assert_eq!(three.matches("$NVB").count(), 3, "{three}");
    // A `.visible` function is inlined too, but stays (another module may
    // call it).
    let vis = after(&add_module(".visible "), &["inline", "simplifycfg"]);
    assert!(
        vis.starts_with(".visible .func (.param .b32 fret) f("),
        "{vis}"
    );
    assert_eq!(kernel_part(&vis), want);
}

#[test]
fn several_returns_merge_their_values() {
    // min(a, b) with a `ret` on each path: the result is a phi, printed
    // as a copy into one register on each path.
    let f = func2(
        "",
        "m",
        "setp.lt.s32 %p1, %r1, %r2;\n@%p1 bra L1;\nmov.b32 %r3, %r2;\n\
         st.param.b32 [fret+0], %r3;\nret;\nL1:\nmov.b32 %r3, %r1;",
    );
    let src = format!("{HEAD}{f}{}", kernel_calling(&[("m", &["%r1", "7"])]));
    let out = after(&src, &["inline"]);
    assert!(!out.contains("call"), "{out}");
    let k = kernel_part(&out);
    // Both paths copy their result into the register the store reads.
    let store = k.lines().find(|l| l.starts_with("st.global")).unwrap();
    let reg = store.split(", ").nth(1).unwrap().trim_end_matches(';');
    assert_eq!(
        k.lines()
            .filter(|l| l.starts_with(&format!("mov.b32 {reg},")))
            .count(),
        2,
        "{k}"
    );
}

#[test]
fn recursion_and_unmodelled_shapes_stay_calls() {
    // Recursive: never inlined.
    let rec = format!(
        "{HEAD}.func (.param .b32 fret) r(.param .b32 fa)\n{{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n\
         ld.param.b32 %r1, [fa];\nsetp.eq.s32 %p1, %r1, 0;\nmov.b32 %r3, 0;\n@%p1 bra L;\n\
         sub.s32 %r2, %r1, 1;\n{{\n.param .b32 param0;\nst.param.b32 [param0+0], %r2;\n\
         .param .b32 retval0;\ncall.uni (retval0), r, (param0);\nld.param.b32 %r3, [retval0+0];\n}}\n\
         L:\nst.param.b32 [fret+0], %r3;\nret;\n}}\n{}",
        kernel_calling(&[("r", &["3"])]).replace("(param0, param1)", "(param0)")
    );
    assert_eq!(after(&rec, &["inline"]), after(&rec, &[]));
    assert_eq!(after(&rec, &["always-inline"]), after(&rec, &[]));
    // A narrower parameter access (`.b8` read into a 16-bit register
    // zero-extends): not modelled, the call stays.
    let narrow = format!(
        "{HEAD}.func (.param .b32 fret) n(.param .b8 fa)\n{{\n.reg .b16 %rs<2>;\n.reg .b32 %r<4>;\n\
         ld.param.u8 %rs1, [fa];\ncvt.u32.u16 %r3, %rs1;\nst.param.b32 [fret+0], %r3;\nret;\n}}\n\
         .visible .entry k(.param .u64 k_p)\n{{\n.reg .b16 %rs<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [k_p];\nmov.u16 %rs1, 300;\n{{\n.param .b8 param0;\n\
         st.param.b8 [param0+0], %rs1;\n.param .b32 retval0;\ncall.uni (retval0), n, (param0);\n\
         ld.param.b32 %r1, [retval0+0];\n}}\nst.global.u32 [%rd1], %r1;\nret;\n}}\n"
    );
    assert_eq!(after(&narrow, &["inline"]), after(&narrow, &[]));
    // A `.weak` definition may be replaced at link time: with
    // `weak=0` (separate compilation) it stays a call; by default the
    // module is the whole program and the call is inlined, the
    // definition kept.
    let weak = add_module(".weak ");
    let m = crate::ptx::parse_checked("t.ptx", &weak).unwrap();
    let mut lm = lift_module(&m);
    super::create_module("inline", &["weak=0".into()])
        .unwrap()
        .run(&mut lm);
    let kept = crate::ptx::printer::print(&print_module(&lm));
    assert_eq!(kept.matches("call.uni").count(), 1, "{kept}");
    let inlined = after(&weak, &["inline"]);
    assert_eq!(inlined.matches("call.uni").count(), 0, "{inlined}");
    assert!(inlined.contains(".weak .func"), "{inlined}");
    assert!(super::create_module("inline", &["weak=x".into()]).is_err());
    assert!(super::create_module("globaldce", &["weak=1".into()]).is_err());
}

#[test]
fn small_byte_array_parameters_travel_as_registers() {
    // clang's `__half` argument and result: `.b8 [2]`, read and written
    // whole. Inlined; a byte-wise access of the same array is not.
    let half = |access: &str| {
        format!(
            "{HEAD}.func (.param .align 2 .b8 fret[2]) h(.param .align 4 .b8 fa[2])\n{{\n.reg .b16 %rs<4>;\n\
             {access}\nst.param.b16 [fret+0], %rs2;\nret;\n}}\n\
             .visible .entry k(.param .u64 k_p)\n{{\n.reg .b16 %rs<4>;\n.reg .b64 %rd<4>;\n\
             ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd2, %rd1;\nld.global.u16 %rs1, [%rd2];\n\
             {{\n.param .align 4 .b8 param0[2];\nst.param.b16 [param0+0], %rs1;\n\
             .param .align 2 .b8 retval0[2];\ncall.uni (retval0), h, (param0);\nld.param.b16 %rs3, [retval0+0];\n}}\n\
             st.global.u16 [%rd2+2], %rs3;\nret;\n}}\n"
        )
    };
    let whole = half("ld.param.b16 %rs1, [fa+0];\nadd.s16 %rs2, %rs1, 1;");
    assert_eq!(after(&whole, &["inline"]).matches("call.uni").count(), 0);
    let bytes = half("ld.param.b8 %rs1, [fa+1];\nadd.s16 %rs2, %rs1, 1;");
    assert_eq!(after(&bytes, &["inline"]), after(&bytes, &[]));
}

/// A body of `n` dependent adds ending in %r3.
fn adds(n: usize) -> String {
    let mut b = String::from("add.s32 %r3, %r1, %r2;\n");
    for _ in 1..n {
        b.push_str("add.s32 %r3, %r3, %r1;\n");
    }
    b
}

#[test]
fn always_inline_takes_small_or_single_call_functions_only() {
    let count_calls = |src: &str| after(src, &["always-inline"]).matches("call.uni").count();
    // 2 loads + 5 adds + the result store = 8 instructions, called
    // twice: small, inlined.
    let small = format!(
        "{HEAD}{}{}",
        func2("", "s", &adds(5)),
        kernel_calling(&[("s", &["%r1", "1"]), ("s", &["2", "%r1"])])
    );
    assert_eq!(count_calls(&small), 0);
    // 10 instructions, called twice: stays.
    let big = format!(
        "{HEAD}{}{}",
        func2("", "b", &adds(7)),
        kernel_calling(&[("b", &["%r1", "1"]), ("b", &["2", "%r1"])])
    );
    assert_eq!(count_calls(&big), 2);
    // Called once and removable: inlined, then removed.
    let once = format!(
        "{HEAD}{}{}",
        func2("", "b", &adds(7)),
        kernel_calling(&[("b", &["%r1", "1"])])
    );
    let out = after(&once, &["always-inline"]);
    assert!(!out.contains("call") && !out.contains(".func"), "{out}");
    // Called once but `.visible` (not removable): stays.
    let vis = format!(
        "{HEAD}{}{}",
        func2(".visible ", "b", &adds(7)),
        kernel_calling(&[("b", &["%r1", "1"])])
    );
    assert_eq!(count_calls(&vis), 1);
    // The inliner takes all of them.
    assert_eq!(after(&big, &["inline"]).matches("call.uni").count(), 0);
}

#[test]
fn ipconstprop_then_deadargelim_drop_a_parameter_every_call_fixes() {
    // Both calls pass 5 for `fb` (one as an immediate, one through a
    // `mov`): f reads 5, and DeadArgElim then drops `fb` from the
    // signature, the calls and the stores.
    let src = format!(
        "{HEAD}{}{}",
        func2("", "f", &adds(1)),
        kernel_calling(&[("f", &["%r1", "5"]), ("f", &["7", "%r5"])]).replace(
            "mov.u32 %r1, %tid.x;\n",
            "mov.u32 %r1, %tid.x;\nmov.u32 %r5, 5;\n"
        )
    );
    let ip = after(&src, &["ipconstprop"]);
    assert!(ip.contains("ld.param.b32 %nvb32_0, [fa];\nmov.b32 %nvb32_1, 5;\nadd.s32 %nvb32_2, %nvb32_0, %nvb32_1;"), "{ip}");
    let dae = after(&src, &["ipconstprop", "deadargelim"]);
    assert!(
        dae.starts_with(".func (.param .b32 fret) f(\n.param .b32 fa\n)"),
        "{dae}"
    );
    // The second call sequence's names were made unique by the lift.
    assert_eq!(dae.matches("), f, (param0").count(), 2, "{dae}");
    assert_eq!(dae.matches("st.param.b32 [param").count(), 2, "{dae}");
    assert!(!dae.contains("param1"), "{dae}");
    // Different constants: nothing to propagate, every parameter is read.
    let mixed = src.replace("mov.u32 %r5, 5;", "mov.u32 %r5, 6;");
    assert_eq!(
        after(&mixed, &["ipconstprop", "deadargelim"]),
        after(&mixed, &[])
    );
    // A `.visible` function's signature never changes.
    let vis = format!(
        "{HEAD}{}{}",
        func2(".visible ", "f", "mov.b32 %r3, %r1;"),
        kernel_calling(&[("f", &["%r1", "5"])])
    );
    assert_eq!(
        after(&vis, &["ipconstprop", "deadargelim"]),
        after(&vis, &[])
    );
}

#[test]
fn globaldce_removes_functions_nothing_reaches() {
    let src = format!(
        "{HEAD}{}{}{}{}",
        func2("", "dead", "mov.b32 %r3, %r1;"),
        func2(".visible ", "kept", "mov.b32 %r3, %r1;"),
        func2("", "used", "mov.b32 %r3, %r2;"),
        kernel_calling(&[("used", &["%r1", "1"])])
    );
    let out = after(&src, &["globaldce"]);
    let funcs: Vec<&str> = out.lines().filter(|l| l.contains(".func")).collect();
    assert_eq!(
        funcs,
        [
            ".visible .func (.param .b32 fret) kept(",
            ".func (.param .b32 fret) used("
        ]
    );
}
