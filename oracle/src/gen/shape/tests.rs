//! The shape key on hand-written instructions: the expected keys are the
//! opcode and modifiers as the text spells them (PTX ISA 9.7 syntax).

use super::*;

fn keys(body: &str) -> Vec<String> {
    let src = format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n\
         .visible .entry k(.param .u64 p)\n{{\n\
         \t.reg .b32 %r<9>;\n\t.reg .b64 %rd<9>;\n\t.reg .f32 %f<9>;\n\
         \t.reg .f64 %fd<9>;\n\t.reg .pred %p<9>;\n\t.reg .b16 %h<9>;\n\
         {body}\n}}\n"
    );
    shapes_of_text(&src).unwrap()
}

#[test]
fn keys_are_opcode_and_modifiers_in_source_order() {
    let k = keys(
        "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n\
         \tdiv.rz.f32 %f5, %f1, %f2;\n\
         \t@!%p1 setp.lt.s16 %p2, %h1, %h2;\n\
         \tatom.global.cas.b64 %rd2, [%rd1], %rd3, %rd4;\n\
         \tcvta.to.shared.u64 %rd5, %rd1;\n\
         \tprmt.b32.f4e %r1, %r2, %r3, %r4;\n\
         \tld.u32 %r5, [%rd1];\n\
         \tbra.uni $L;\n\
         $L:\n\
         \tret;",
    );
    assert_eq!(
        k,
        [
            "ld.global.nc.v4.f32",
            "div.rz.f32",
            "setp.lt.s16",
            "atom.global.cas.b64",
            "cvta.to.shared.u64",
            "prmt.b32.f4e",
            "ld.u32",
            "bra.uni",
            "ret",
        ]
    );
}

#[test]
fn guards_registers_and_offsets_do_not_change_the_key() {
    let k = keys(
        "\tadd.s32 %r1, %r2, %r3;\n\
         \t@%p1 add.s32 %r4, %r1, 7;\n\
         \tst.global.u32 [%rd1], %r1;\n\
         \tst.global.u32 [%rd2+64], %r4;\n\
         \t{\n\t\tmov.pred %p3, %p1;\n\t}\n\
         \tret;",
    );
    assert_eq!(
        k,
        [
            "add.s32",
            "add.s32",
            "st.global.u32",
            "st.global.u32",
            "mov.pred",
            "ret",
        ]
    );
}

#[test]
fn text_with_a_syntax_error_is_an_error() {
    assert!(shapes_of_text(".version 7.8\n.target sm_80\n.entry k( {").is_err());
}
