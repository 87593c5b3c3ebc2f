//! Lowering tests for function addresses and indirect calls
//! (call_indirect.rs): `mov.u64 %r, f` is the label of `f`'s first block
//! (ptxas 11.8: `MOV R6, 0xf0`, its code address), the call is
//! `CALL.REL.NOINC %r 0x0` (ptxas: `CALL.REL.NOINC R6 0x0`), every member
//! of a signature class is called through the same registers, and the
//! forms still refused get specific messages. The executed checks (every
//! target, -O0 and -O3, against the interpreter) are in
//! oracle/tests/lower_indirect_call.rs.

use super::tests::{lower_err, lower_text};
use super::tests_reg_params::instrs;
use super::*;
use crate::targets::lookup_sm;

const FUNCS: &str = ".func (.param .b32 r) inc (.param .b32 a)\n{\n.reg .b32 %t<3>;\nld.param.b32 %t1, [a];\nadd.s32 %t2, %t1, 1;\nst.param.b32 [r], %t2;\nret;\n}\n.func (.param .b32 r) dbl (.param .b32 a)\n{\n.reg .b32 %t<3>;\nld.param.b32 %t1, [a];\nshl.b32 %t2, %t1, 1;\nst.param.b32 [r], %t2;\nret;\n}\n";

fn module(funcs: &str, body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n{funcs}\n.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<3>;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n{body}\nst.global.u32 [%rd1], %r3;\nret;\n}}\n"
    )
}

const CALL: &str = "mov.u64 %rd2, inc;\nmov.u64 %rd3, dbl;\nsetp.lt.u32 %p1, %r1, 5;\nselp.b64 %rd4, %rd2, %rd3, %p1;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\nproto: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (pr), %rd4, (pa), proto;\nld.param.b32 %r3, [pr];\n}";

#[test]
fn a_function_address_is_its_label_and_the_call_goes_through_the_register() {
    let src = module(FUNCS, CALL);
    let ks = lower_source(
        "t.ptx",
        &src,
        lookup_sm("sm_80").unwrap(),
        &LowerOptions::default(),
    )
    .unwrap();
    let t = super::tests::listing(&ks[0]);
    let is = instrs(&t);
    // The labels the funcs start at (LoweredKernel::funcs).
    let label = |name: &str| {
        let l = ks[0].funcs.iter().find(|f| f.0 == name).unwrap().1;
        format!(".L_x_{l}")
    };
    let (inc, dbl) = (label("inc"), label("dbl"));
    let mov_of = |l: &str| {
        is.iter()
            .find(|(op, o)| op == "MOV" && o[1] == l)
            .map(|(_, o)| o[0].clone())
            .unwrap_or_else(|| panic!("no MOV of {l}\n{t}"))
    };
    let (a, b) = (mov_of(&inc), mov_of(&dbl));
    assert_ne!(a, b, "{t}");
    let calls: Vec<&Vec<String>> = is
        .iter()
        .filter(|(op, _)| op == "CALL.REL.NOINC")
        .map(|(_, o)| o)
        .collect();
    assert_eq!(calls.len(), 1, "{t}");
    // `CALL.REL.NOINC %rN 0x0`: a register, not a label.
    let target = &calls[0][0];
    assert!(target.starts_with("%r") && target.ends_with(" 0x0"), "{t}");
    assert!(!target.contains(".L_x_"), "{t}");
}

#[test]
fn members_of_a_class_share_the_parameter_and_return_address_registers() {
    // Direct calls to two address-taken functions of one signature write
    // the same parameter register and return-address pair.
    let body = "mov.u64 %rd2, inc;\nmov.u64 %rd3, dbl;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\ncall (pr), inc, (pa);\nld.param.b32 %r3, [pr];\n}\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r3;\ncall (pr), dbl, (pa);\nld.param.b32 %r3, [pr];\n}";
    let t = lower_text(&module(FUNCS, body), "sm_80");
    let is = instrs(&t);
    let calls: Vec<usize> = is
        .iter()
        .enumerate()
        .filter(|(_, (op, _))| op == "CALL.REL.NOINC")
        .map(|(k, _)| k)
        .collect();
    assert_eq!(calls.len(), 2, "{t}");
    // The registers written by the MOVs between the BSSY and each CALL
    // (the return-address pair) and just before the BSSY (the argument).
    let written = |k: usize| -> Vec<String> {
        let bssy = is[..k].iter().rposition(|(op, _)| op == "BSSY").unwrap();
        let mut w: Vec<String> = is[bssy..k]
            .iter()
            .filter(|(op, _)| op == "MOV")
            .map(|(_, o)| o[0].clone())
            .collect();
        w.push(is[bssy - 1].1[0].clone());
        w
    };
    assert_eq!(written(calls[0]), written(calls[1]), "{t}");
}

#[test]
fn indirect_call_refusals() {
    // No function of the prototype's signature has its address taken.
    let body = "mov.u64 %rd4, 0;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\nproto: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (pr), %rd4, (pa), proto;\nld.param.b32 %r3, [pr];\n}";
    let e = lower_err(&module(FUNCS, body));
    assert!(
        e.contains("no function of the prototype's signature"),
        "{e}"
    );
    // Recursion through a function pointer is lowered (call_graph.rs).
    let rec = ".func (.param .b32 r) self_call (.param .b32 a)\n{\n.reg .b64 %q;\n.reg .b32 %t;\nld.param.b32 %t, [a];\nmov.u64 %q, self_call;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %t;\nproto: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (pr), %q, (pa), proto;\n}\nst.param.b32 [r], %t;\nret;\n}\n";
    let body = "{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], %r1;\ncall (pr), self_call, (pa);\nld.param.b32 %r3, [pr];\n}";
    let t = lower_text(&module(rec, body), "sm_80");
    assert!(t.contains("BMOV.32.CLEAR"), "{t}");
}
