//! Lowering tests for `.func` parameters and return values in the `.reg`
//! state space (call.rs, the ABI in mod.rs): the body uses the callee's
//! parameter register itself, the call site writes it (registers and
//! immediates, typed by the parameter) and reads the `.reg` return value
//! out; the forms still refused get specific messages. The executed checks
//! (every target, -O0 and -O3, against the interpreter) are in
//! oracle/tests/lower_reg_params.rs.

use super::tests::{lower_err, lower_text};

fn module(funcs: &str, body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n{funcs}\n.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<4>;\n.reg .pred %p<3>;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 5;\n{body}\nst.global.u32 [%rd1], %r3;\nret;\n}}\n"
    )
}

const ADDF: &str =
    ".func (.reg .b32 r) addf (.reg .b32 a, .reg .b32 b)\n{\nadd.u32 r, a, b;\nret;\n}";

/// The listing's instructions: (opcode with modifiers, operands).
pub(super) fn instrs(t: &str) -> Vec<(String, Vec<String>)> {
    t.lines()
        .filter_map(|l| {
            let l = l.split(';').next()?.trim();
            let l = match l.strip_prefix("/*") {
                Some(rest) => rest.split_once("*/")?.1.trim(),
                None => l,
            };
            if l.is_empty() || l.starts_with('.') || l.ends_with(':') {
                return None;
            }
            let (op, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            let ops = rest
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            Some((op.to_string(), ops))
        })
        .collect()
}

#[test]
fn reg_parameters_are_the_callees_registers() {
    // `call (%r3), addf, (%r1, %r2)`: MOV a <- %r1, MOV b <- %r2 before
    // the CALL; the callee's `add.u32 r, a, b` is one IADD3 on exactly
    // those registers; after the call, MOV %r3 <- r.
    let t = lower_text(&module(ADDF, "call (%r3), addf, (%r1, %r2);"), "sm_80");
    let is = instrs(&t);
    let call = is
        .iter()
        .position(|(op, _)| op == "CALL.REL.NOINC")
        .unwrap_or_else(|| panic!("{t}"));
    let arg_movs: Vec<&Vec<String>> = is[..call]
        .iter()
        .rev()
        .filter(|(op, _)| op == "MOV")
        .map(|(_, o)| o)
        .take(5)
        .collect();
    let exit = is.iter().position(|(op, _)| op == "EXIT").unwrap();
    let add = is[exit..]
        .iter()
        .find(|(op, _)| op == "IADD3")
        .unwrap_or_else(|| panic!("no IADD3 in the callee\n{t}"));
    let (a, b, ret) = (&add.1[1], &add.1[2], &add.1[0]);
    assert_ne!(a, b, "{t}");
    for p in [a, b] {
        assert!(
            arg_movs.iter().any(|o| &o[0] == p),
            "the call site does not write the parameter register {p}\n{t}"
        );
    }
    let out = is[call..exit]
        .iter()
        .find(|(op, o)| op == "MOV" && &o[1] == ret)
        .unwrap_or_else(|| panic!("the return register {ret} is not read after the call\n{t}"));
    assert_ne!(&out.1[0], ret, "{t}");
}

#[test]
fn reg_arguments_may_be_immediates_of_the_parameter_type() {
    // PTX ISA 9.7.12.4: "Arguments may be registers, immediate constants,
    // or variables in .param space". A .b64 parameter gets both words of
    // 0x100000000 and a .f32 one the f32 bits of 2.5 (ptxas 11.8: `IMAD.MOV.U32
    // R6, RZ, RZ, 0x1` for the high word, `IMAD.MOV.U32 R5, RZ, RZ,
    // 0x40200000`).
    let f = ".func (.reg .b32 r) g (.reg .b64 b, .reg .f32 c)\n{\n.reg .b32 %t;\ncvt.rzi.s32.f32 %t, c;\ncvt.u32.u64 r, b;\nadd.u32 r, r, %t;\nret;\n}";
    let t = lower_text(&module(f, "call (%r3), g, (0x100000000, 2.5);"), "sm_80");
    let is = instrs(&t);
    let call = is
        .iter()
        .position(|(op, _)| op == "CALL.REL.NOINC")
        .unwrap();
    let srcs: Vec<&str> = is[..call]
        .iter()
        .filter(|(op, _)| op == "MOV")
        .filter_map(|(_, o)| o.get(1).map(String::as_str))
        .collect();
    assert!(
        srcs.contains(&"0x1"),
        "high word of the .b64 immediate\n{t}"
    );
    assert!(
        srcs.iter()
            .any(|s| *s == "2.5" || s.eq_ignore_ascii_case("0x40200000")),
        "f32 2.5\n{t}"
    );
}

#[test]
fn pred_and_mixed_parameters_lower() {
    // A `.pred` parameter and return value (virtual predicates, PLOP3
    // copies), and `.reg` mixed with a `.param` parameter.
    let f = ".func (.reg .pred o) neg (.reg .pred q)\n{\nnot.pred o, q;\nret;\n}\n.func (.reg .b32 r) mixp (.reg .b32 a, .param .b32 pb)\n{\n.reg .b32 %t;\nld.param.b32 %t, [pb];\nadd.u32 r, %t, a;\nret;\n}";
    let t = lower_text(
        &module(
            f,
            "setp.lt.u32 %p1, %r1, 3;\ncall (%p2), neg, (%p1);\n{\n.param .b32 x;\nst.param.b32 [x], %r2;\ncall (%r3), mixp, (%r1, x);\n}\n@%p2 add.u32 %r3, %r3, 1;",
        ),
        "sm_80",
    );
    let is = instrs(&t);
    assert_eq!(
        is.iter().filter(|(op, _)| op == "CALL.REL.NOINC").count(),
        2,
        "{t}"
    );
    assert!(is.iter().any(|(op, _)| op == "PLOP3.LUT"), "{t}");
}

#[test]
fn refused_reg_parameter_forms_say_why() {
    // A `.param` variable passed to a `.reg` parameter.
    let e = lower_err(&module(
        ADDF,
        "{\n.param .b32 x;\nst.param.b32 [x], %r2;\ncall (%r3), addf, (%r1, x);\n}",
    ));
    assert!(e.contains("`x` is not a register or an immediate"), "{e}");
    assert!(!e.contains("internal"), "{e}");
    // A vector `.reg` parameter.
    let f = ".func (.reg .b32 r) v (.reg .v2 .b32 a)\n{\nmov.b32 r, 0;\nret;\n}";
    let e = lower_err(&module(f, "call (%r3), v, (%r1);"));
    assert!(
        e.contains("only scalar `.reg` parameters are lowered"),
        "{e}"
    );
}

#[test]
fn immediates_for_param_parameters_are_their_bits_at_the_parameters_type() {
    // `call (pr), f, (7, 0x300000005, 2.5)` with `.param .b32 a, .param
    // .b64 b, .param .f32 c`: the words MOVed into the parameter registers
    // before the call are 7, 5 and 3 (the .b64's low and high words), and
    // 2.5f's bits 0x40200000 (ptxas 11.8 folds the callee's sum of them to
    // `UMOV UR6, 0xbc6`: oracle/tests/lower_param_imm.rs).
    let f = ".func (.param .b32 r) f3 (.param .b32 a, .param .b64 b, .param .f32 c)\n{\n.reg .b32 %t;\nld.param.b32 %t, [a];\nst.param.b32 [r], %t;\nret;\n}";
    let body =
        "{\n.param .b32 pr;\ncall (pr), f3, (7, 0x300000005, 2.5);\nld.param.b32 %r3, [pr];\n}";
    let t = lower_text(&module(f, body), "sm_80");
    let is = instrs(&t);
    let bssy = is
        .iter()
        .position(|(op, _)| op == "BSSY")
        .unwrap_or_else(|| panic!("{t}"));
    let movs: Vec<String> = is[..bssy]
        .iter()
        .rev()
        .take_while(|(op, _)| op == "MOV")
        .map(|(_, o)| o[1].clone())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    assert_eq!(
        movs[movs.len() - 4..],
        ["0x7", "0x5", "0x3", "0x40200000"],
        "{t}"
    );
}
