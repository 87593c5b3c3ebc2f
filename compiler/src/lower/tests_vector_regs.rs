//! Lowering tests for vector registers (`.reg .vN`, regs.rs): a component
//! is exactly a register (pair for 64-bit elements) of the element type,
//! and a whole vector register in a vector operand is its components in
//! order, as ptxas 11.8 allocates them (`st.global.v4.b32 [%rd2], %v` is
//! `STG.E.128 [R2.64], R4` of the four components, sm_80). The executed
//! checks (every target, -O0 and -O3) are in oracle/tests/lower_vector_regs.rs.

use super::tests::{lower_err, lower_text};
use super::tests_reg_params::instrs;

fn module(decls: &str, body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n{decls}\nld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n{body}\nret;\n}}\n"
    )
}

/// The register number of `%rN` (or `%rN.64`, `[%rN.64]`).
fn reg_no(o: &str) -> u32 {
    o.trim_start_matches('[')
        .trim_end_matches(']')
        .trim_start_matches("%r")
        .trim_end_matches(".64")
        .parse()
        .unwrap_or_else(|_| panic!("not a virtual register: {o}"))
}

/// The single instruction `op` of the listing.
fn only<'a>(is: &'a [(String, Vec<String>)], op: &str, t: &str) -> &'a Vec<String> {
    let v: Vec<_> = is.iter().filter(|(o, _)| o == op).collect();
    assert_eq!(v.len(), 1, "one {op} expected\n{t}");
    &v[0].1
}

/// What the last `MOV dst, src` before `end` copies into `dst`.
fn copied_into(is: &[(String, Vec<String>)], end: usize, dst: u32) -> String {
    is[..end]
        .iter()
        .rev()
        .find(|(op, o)| op == "MOV" && reg_no(&o[0]) == dst)
        .map(|(_, o)| o[1].clone())
        .unwrap_or_else(|| panic!("nothing written to %r{dst}"))
}

#[test]
fn a_whole_vector_store_writes_the_components_in_order() {
    // Each component is written by its own instruction; the 128-bit store
    // holds x, y, z, w (`.r/.g/.b/.a` name the same components).
    let t = lower_text(
        &module(
            ".reg .v4 .b32 %v;",
            "mov.b32 %v.x, %r1;\nadd.s32 %v.g, %r1, 3;\nmov.b32 %v.b, 7;\nmov.b32 %v.w, 9;\nst.global.v4.b32 [%rd1], %v;",
        ),
        "sm_80",
    );
    let is = instrs(&t);
    // `%r1` (the thread index) is whatever virtual register `S2R` writes.
    let tid = only(&is, "S2R", &t)[0].clone();
    let x = is
        .iter()
        .find(|(op, o)| op == "MOV" && o[1] == tid)
        .map(|(_, o)| o[0].clone())
        .unwrap_or_else(|| panic!("{t}"));
    let y = only(&is, "IADD3", &t)[0].clone();
    let z = is
        .iter()
        .find(|(op, o)| op == "MOV" && o[1] == "0x7")
        .unwrap()
        .1[0]
        .clone();
    let w = is
        .iter()
        .find(|(op, o)| op == "MOV" && o[1] == "0x9")
        .unwrap()
        .1[0]
        .clone();
    let stg = is
        .iter()
        .position(|(op, _)| op == "STG.E.128")
        .unwrap_or_else(|| panic!("{t}"));
    let q = reg_no(&is[stg].1[1]);
    let got: Vec<String> = (0..4).map(|k| copied_into(&is, stg, q + k)).collect();
    assert_eq!(got, [x, y, z, w], "{t}");
}

#[test]
fn a_whole_vector_load_fills_every_component() {
    // `ld.global.v4.b32 %v, [..]` is one LDG.E.128; `%v.z` afterwards is
    // the third word it loaded.
    let t = lower_text(
        &module(
            ".reg .v4 .b32 %v;",
            "ld.global.v4.b32 %v, [%rd1+16];\nst.global.u32 [%rd1], %v.z;",
        ),
        "sm_80",
    );
    let is = instrs(&t);
    let ldg = is
        .iter()
        .position(|(op, _)| op == "LDG.E.128")
        .unwrap_or_else(|| panic!("{t}"));
    let q = reg_no(&is[ldg].1[0]);
    let stg = is
        .iter()
        .position(|(op, _)| op == "STG.E")
        .unwrap_or_else(|| panic!("{t}"));
    let z = reg_no(&is[stg].1[1]);
    assert_eq!(copied_into(&is, stg, z), format!("%r{}", q + 2), "{t}");
}

#[test]
fn components_of_a_64_bit_vector_are_pairs() {
    // `mov.b64 %w.y, %rd1` copies both words of %rd1 into the second
    // component; the 128-bit store's words 2 and 3 are those words.
    let t = lower_text(
        &module(
            ".reg .v2 .b64 %w;",
            "mov.b64 %w.y, %rd1;\nmov.b64 %w.x, 5;\nst.global.v2.b64 [%rd1], %w;",
        ),
        "sm_80",
    );
    let is = instrs(&t);
    let stg = is
        .iter()
        .position(|(op, _)| op == "STG.E.128")
        .unwrap_or_else(|| panic!("{t}"));
    let q = reg_no(&is[stg].1[1]);
    let rd1 = reg_no(&is[stg].1[0]);
    let hi_pair: Vec<String> = (2..4)
        .map(|k| {
            let via = copied_into(&is, stg, q + k);
            copied_into(&is, stg, reg_no(&via))
        })
        .collect();
    assert_eq!(
        hi_pair,
        [format!("%r{rd1}"), format!("%r{}", rd1 + 1)],
        "{t}"
    );
    let lo = copied_into(&is, stg, reg_no(&copied_into(&is, stg, q)));
    assert_eq!(lo, "0x5", "{t}");
}

#[test]
fn vector_registers_where_a_scalar_is_needed_are_refused() {
    let e = lower_err(&module(".reg .v4 .b32 %v;", "add.s32 %r2, %v, 1;"));
    assert!(e.contains("scalar"), "{e}");
    let e = lower_err(&module(".reg .v2 .b32 %v;", "mov.b32 %v.z, 1;"));
    assert!(e.contains("component"), "{e}");
    let e = lower_err(&module(".reg .v4 .b32 %v;", "mov.b32 %r1.x, 1;"));
    assert!(e.contains("component") || e.contains("vector"), "{e}");
}
