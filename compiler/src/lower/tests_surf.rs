//! Lowering tests for surf.rs: the emitted sequences against ptxas 11.8's
//! spellings (oracle/tests/surf_vendor/*.sass, `ptxas -arch=sm_XX -O3` +
//! `cuobjdump -sass`; the line each test checks is quoted there). The
//! executed checks are in oracle/tests/lower_surface.rs.

use super::tests::{lower_text, norm};

const REGS: &str = ".reg .b32 %r<30>;\n.reg .b64 %rd<30>;\n.reg .b16 %h<30>;\n.reg .pred %p<5>;";

/// A kernel with the surface handle in `%rd1` (loaded from parameter `s`,
/// c[0x0][0x160] / c[0x0][0x210]), coordinates `%r1..%r3`, and a second
/// handle `%rd2` that is not a parameter (the register forms).
fn kernel(body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 s, .param .u32 x)\n{{\n{REGS}\nld.param.u64 %rd1, [s];\nld.param.u32 %r1, [x];\nmov.u32 %r2, %tid.x;\nmov.u32 %r3, %tid.y;\ncvt.u64.u32 %rd3, %r2;\nadd.s64 %rd2, %rd1, %rd3;\n{body}\nret;\n}}\n"
    )
}

fn lines(body: &str, sm: &str) -> Vec<String> {
    norm(&lower_text(&kernel(body), sm))
}

fn assert_has(body: &str, sm: &str, want: &str) {
    let l = lines(body, sm);
    assert!(
        l.iter().any(|x| x == want),
        "{sm}: `{want}` missing for `{body}`:\n{}",
        l.join("\n")
    );
}

#[test]
fn suld_slot_form_sizes_and_modes() {
    // surf_ld.sm_80.sass: `SULD.D.BA.2D.64.STRONG.SM.TRAP R12, [R20], 0x0,
    // 0x58`, `SULD.D.BA.3D.128.STRONG.SM.IGN R4, [R4], 0x0, 0x58`,
    // `SULD.D.BA.1D.STRONG.SM R0, [R20], 0x0, 0x58` (.clamp: no suffix),
    // `SULD.D.BA.1D.U8.STRONG.SM.TRAP`, `SULD.D.BA.1D.U16.STRONG.SM.IGN`;
    // sm_70: `.STRONG.CTA` (surf_ld.sm_70.sass).
    for (sm, scope) in [
        ("sm_70", "CTA"),
        ("sm_75", "CTA"),
        ("sm_80", "SM"),
        ("sm_89", "SM"),
    ] {
        for (body, want) in [
            (
                "suld.b.2d.v2.b32.trap {%r4, %r5}, [%rd1, {%r1, %r2}];",
                format!("SULD.D.BA.2D.64.STRONG.{scope}.TRAP R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.3d.v4.b32.zero {%r4, %r5, %r6, %r7}, [%rd1, {%r1, %r2, %r3, %r3}];",
                format!("SULD.D.BA.3D.128.STRONG.{scope}.IGN R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.1d.b32.clamp %r4, [%rd1, {%r1}];",
                format!("SULD.D.BA.1D.STRONG.{scope} R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.1d.b8.trap %h1, [%rd1, {%r1}];",
                format!("SULD.D.BA.1D.U8.STRONG.{scope}.TRAP R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.1d.b16.zero %h1, [%rd1, {%r1}];",
                format!("SULD.D.BA.1D.U16.STRONG.{scope}.IGN R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.2d.v2.b64.trap {%rd4, %rd5}, [%rd1, {%r1, %r2}];",
                format!("SULD.D.BA.2D.128.STRONG.{scope}.TRAP R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.1d.v4.b8.trap {%h1, %h2, %h3, %h4}, [%rd1, {%r1}];",
                format!("SULD.D.BA.1D.STRONG.{scope}.TRAP R, [R], 0x0, 0x58"),
            ),
            (
                "suld.b.1d.v4.b16.trap {%h1, %h2, %h3, %h4}, [%rd1, {%r1}];",
                format!("SULD.D.BA.1D.64.STRONG.{scope}.TRAP R, [R], 0x0, 0x58"),
            ),
        ] {
            assert_has(body, sm, &want);
        }
    }
}

#[test]
fn narrow_elements_are_extracted_with_prmt() {
    // surf_narrow.sm_80.sass: one 4-byte SULD for `.v4.b8`, then `PRMT R4,
    // R8, 0x7772, RZ`-style byte extraction; `.b16` halves 0x7710/0x7732.
    let body = "suld.b.1d.v4.b8.trap {%h1, %h2, %h3, %h4}, [%rd1, {%r1}];";
    for sel in ["0x7770", "0x7771", "0x7772", "0x7773"] {
        assert_has(body, "sm_80", &format!("PRMT R, R, {sel}, RZ"));
    }
    let body = "suld.b.1d.v2.b16.trap {%h1, %h2}, [%rd1, {%r1}];";
    for sel in ["0x7710", "0x7732"] {
        assert_has(body, "sm_80", &format!("PRMT R, R, {sel}, RZ"));
    }
    // A single byte is masked too (ptxas: `LOP3.LUT ... 0xff` after
    // SULD.U8, surf_copy.sm_80.sass).
    assert_has(
        "suld.b.1d.b8.trap %h1, [%rd1, {%r1}];",
        "sm_80",
        "PRMT R, R, 0x7770, RZ",
    );
    // Stores pack: halves with 0x5410, bytes with 0x7740 first.
    assert_has(
        "sust.b.1d.v2.b16.trap [%rd1, {%r1}], {%h1, %h2};",
        "sm_80",
        "PRMT R, R, 0x5410, R",
    );
    assert_has(
        "sust.b.1d.v4.b8.trap [%rd1, {%r1}], {%h1, %h2, %h3, %h4};",
        "sm_80",
        "PRMT R, R, 0x7740, R",
    );
}

#[test]
fn sust_and_sured_spellings() {
    // surf_st.sm_80.sass / surf_red.sm_80.sass (and sm_70 for .CTA).
    for (body, want) in [
        (
            "sust.b.1d.b32.trap [%rd1, {%r1}], %r4;",
            "SUST.D.BA.1D.STRONG.SM.TRAP [R], R, 0x0, 0x58",
        ),
        (
            "sust.b.2d.v2.b32.clamp [%rd1, {%r1, %r2}], {%r4, %r5};",
            "SUST.D.BA.2D.64.STRONG.SM [R], R, 0x0, 0x58",
        ),
        (
            "sust.b.3d.v4.b32.zero [%rd1, {%r1, %r2, %r3, %r3}], {%r4, %r5, %r6, %r7};",
            "SUST.D.BA.3D.128.STRONG.SM.IGN [R], R, 0x0, 0x58",
        ),
        (
            "sust.b.2d.b16.zero [%rd1, {%r1, %r2}], %h1;",
            "SUST.D.BA.2D.U16.STRONG.SM.IGN [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.add.1d.u32.trap [%rd1, {%r1}], %r4;",
            "SURED.D.BA.1D.ADD.STRONG.SYS.TRAP [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.min.2d.s32.clamp [%rd1, {%r1, %r2}], %r4;",
            "SURED.D.BA.2D.MIN.S32.STRONG.SYS [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.add.2d.s32.clamp [%rd1, {%r1, %r2}], %r4;",
            "SURED.D.BA.2D.ADD.S32.STRONG.SYS [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.max.1d.u32.trap [%rd1, {%r1}], %r4;",
            "SURED.D.BA.1D.MAX.STRONG.SYS.TRAP [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.and.1d.b32.trap [%rd1, {%r1}], %r4;",
            "SURED.D.BA.1D.AND.STRONG.SYS.TRAP [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.or.1d.b32.trap [%rd1, {%r1}], %r4;",
            "SURED.D.BA.1D.OR.STRONG.SYS.TRAP [R], R, 0x0, 0x58",
        ),
        (
            "sured.b.add.3d.u64.zero [%rd1, {%r1, %r2, %r3, %r3}], %rd4;",
            "SURED.D.BA.3D.ADD.U64.STRONG.SYS.IGN [R], R, 0x0, 0x58",
        ),
    ] {
        assert_has(body, "sm_80", want);
    }
    assert_has(
        "sust.b.1d.b32.trap [%rd1, {%r1}], %r4;",
        "sm_70",
        "SUST.D.BA.1D.STRONG.CTA.TRAP [R], R, 0x0, 0x58",
    );
}

#[test]
fn handle_forms_per_target() {
    // Parameter handle on sm_90: `ULDC UR6, c[0x0][0x210]` + `SUST.D.BA.1D.
    // STRONG.SM.TRAP [R9], R8, UR6, 0x0` (surf_st.sm_90.sass).
    let body = "suld.b.1d.b32.trap %r4, [%rd1, {%r1}];";
    assert_has(body, "sm_90", "ULDC UR, c[0x0][0x210]");
    assert_has(body, "sm_90", "SULD.D.BA.1D.STRONG.SM.TRAP R, [R], UR, 0x0");
    // Another register: its low word below sm_90 (`SULD.D.BA.1D.STRONG.
    // CTA.TRAP R0, [R7], R8`, surf_handle.sm_70.sass; sm_75 the same).
    let body = "suld.b.1d.b32.trap %r4, [%rd2, {%r1}];";
    assert_has(body, "sm_70", "SULD.D.BA.1D.STRONG.CTA.TRAP R, [R], R");
    assert_has(body, "sm_80", "SULD.D.BA.1D.STRONG.SM.TRAP R, [R], R");
    // sm_90: the handle loop (our form of ptxas's R2UR/BRA.U.ANY loop).
    let l = lines(body, "sm_90");
    let at = |w: &str| {
        l.iter()
            .position(|x| x == w)
            .unwrap_or_else(|| panic!("`{w}`:\n{}", l.join("\n")))
    };
    let (a, b, c, d) = (
        at("RUR UR, R"), // `R2UR` after `norm` drops the digits
        at("ISETP.NE.U32.AND P, PT, R, UR, PT"),
        at("@!P SULD.D.BA.1D.STRONG.SM.TRAP R, [R], UR, 0x0"),
        at("@P BRA L"),
    );
    assert!(a < b && b < c && c < d, "{}", l.join("\n"));
}

#[test]
fn suq_width_height_are_the_header_dimension_query_below_sm_90() {
    // surf_ld.sm_80.sass: `TXQ RZ, R18, R18, TEX_HEADER_DIMENSION, 0x0,
    // 0x58, 0x1` (width), 0x2 (height). `.depth` and every field on sm_90
    // read the surface information table (tests_resinfo.rs).
    for (f, m) in [("width", "0x1"), ("height", "0x2")] {
        let body = format!("suq.{f}.b32 %r4, [%rd1];");
        assert_has(
            &body,
            "sm_80",
            &format!("TXQ RZ, R, R, TEX_HEADER_DIMENSION, 0x0, 0x58, {m}"),
        );
        assert!(
            !lines(&body, "sm_90").iter().any(|l| l.starts_with("TXQ")),
            "sm_90 suq.{f} is a table load"
        );
    }
    // A register handle: `TXQ.B RZ, R4, R8, TEX_HEADER_DIMENSION, 0x1`
    // (surf_handle.sm_70.sass).
    assert_has(
        "suq.width.b32 %r4, [%rd2];",
        "sm_70",
        "TXQ.B RZ, R, R, TEX_HEADER_DIMENSION, 0x1",
    );
}

#[test]
fn refusals_name_the_instruction() {
    let sm = crate::targets::lookup_sm("sm_80").unwrap();
    for (body, want) in [
        (
            "suld.b.1d.b32 %r4, [%rd1, {%r1}];",
            "without a .trap/.clamp/.zero",
        ),
        (
            "sured.b.add.a1d.u32.trap [%rd1, {%r1, %r1}], %r4;",
            "sured.b has no array geometry",
        ),
        (
            "suld.b.1d.v4.b64.trap {%rd4, %rd5, %rd6, %rd7}, [%rd1, {%r1}];",
            "suld: a 32-byte access",
        ),
        (
            "suld.p.1d.b32.trap %r4, [%rd1, {%r1}];",
            "suld.p is not in the PTX ISA",
        ),
        (
            "sured.p.add.1d.b32.trap [%rd1, {%r1}], %r4;",
            "sured.p is not lowered",
        ),
        (
            "sust.p.1d.b16.trap [%rd1, {%r1}], %h1;",
            "sust.p takes .b32 data, not .b16",
        ),
        (
            "sured.b.max.1d.u64.trap [%rd1, {%r1}], %rd4;",
            "sured.b: this operation on .u64",
        ),
        (
            "suq.memory_layout.b32 %r4, [%rd1];",
            "suq.memory_layout is not lowered",
        ),
        (
            "suld.b.1d.b32.trap %r4, [%r2, {%r1}];",
            "suld: handle `%r2` is not a 64-bit register",
        ),
    ] {
        let e = super::lower_source("t.ptx", &kernel(body), sm, &super::LowerOptions::default())
            .err()
            .unwrap_or_else(|| panic!("{body} lowered"));
        assert!(e.contains(want), "{body}: {e}");
    }
}

#[test]
fn a_name_that_is_no_handle_is_refused_naming_the_instruction() {
    // A module `.surfref` lowers (tests_res_ref.rs); any other name that is
    // not a 64-bit register or parameter (here a `.shared` variable) is
    // refused, naming the instruction (handle.rs).
    let src = ".version 7.8\n.target sm_80\n.address_size 64\n.shared .u32 sr;\n.visible .entry k(.param .u32 x)\n{\n.reg .b32 %r<5>;\nld.param.u32 %r1, [x];\nsuld.b.1d.b32.trap %r2, [sr, {%r1}];\nret;\n}\n";
    let sm = crate::targets::lookup_sm("sm_80").unwrap();
    let Err(e) = super::lower_source("t.ptx", src, sm, &super::LowerOptions::default()) else {
        panic!("a .shared variable was lowered as a surface");
    };
    assert!(
        e.contains("suld: handle `sr` is not a 64-bit register, kernel parameter or module .texref/.surfref"),
        "{e}"
    );
}

#[test]
fn sust_p_component_masks_geometries_and_modes() {
    // oracle/tests/surfp_vendor/sust_p.sm_XX.sass (ptxas 11.8 -O3) and the
    // forms measured beside it (surfp_vendor/README.md):
    // `SUST.P.1D.STRONG.SM.R.IGN [R0], R0, 0x0, 0x58` (scalar, .zero),
    // `SUST.P.2D.STRONG.SM.RG [R4], R2, 0x0, 0x58` (.v2, .clamp),
    // `SUST.P.3D.STRONG.SM.TRAP [R8], R4, 0x0, 0x58` (.v4: no mask),
    // `SUST.P.1D_ARRAY.STRONG.SM.R.TRAP`, `SUST.P.2D_ARRAY.STRONG.SM.RG.TRAP`;
    // sm_70/sm_75 `.STRONG.CTA`.
    for (sm, scope) in [
        ("sm_70", "CTA"),
        ("sm_75", "CTA"),
        ("sm_80", "SM"),
        ("sm_89", "SM"),
    ] {
        for (body, want) in [
            (
                "sust.p.1d.b32.zero [%rd1, {%r1}], %r2;",
                format!("SUST.P.1D.STRONG.{scope}.R.IGN [R], R, 0x0, 0x58"),
            ),
            (
                "sust.p.2d.v2.b32.clamp [%rd1, {%r1, %r2}], {%r2, %r3};",
                format!("SUST.P.2D.STRONG.{scope}.RG [R], R, 0x0, 0x58"),
            ),
            (
                "sust.p.3d.v4.b32.trap [%rd1, {%r1, %r2, %r3, %r3}], {%r1, %r2, %r3, %r3};",
                format!("SUST.P.3D.STRONG.{scope}.TRAP [R], R, 0x0, 0x58"),
            ),
            (
                "sust.p.a1d.b32.trap [%rd1, {%r1, %r2}], %r3;",
                format!("SUST.P.1D_ARRAY.STRONG.{scope}.R.TRAP [R], R, 0x0, 0x58"),
            ),
            (
                "sust.p.a2d.v2.b32.trap [%rd1, {%r1, %r2, %r3, %r3}], {%r1, %r2};",
                format!("SUST.P.2D_ARRAY.STRONG.{scope}.RG.TRAP [R], R, 0x0, 0x58"),
            ),
        ] {
            assert_has(body, sm, &want);
        }
    }
    // sm_90: the uniform handle (`SUST.P.2D.STRONG.SM.TRAP [R2], R4, UR4,
    // 0x0` after `ULDC UR4, c[0x0][0x210]`), and a register handle's loop.
    assert_has(
        "sust.p.2d.v4.b32.trap [%rd1, {%r1, %r2}], {%r1, %r2, %r3, %r3};",
        "sm_90",
        "SUST.P.2D.STRONG.SM.TRAP [R], R, UR, 0x0",
    );
    assert_has(
        "sust.p.1d.b32.trap [%rd2, {%r1}], %r3;",
        "sm_80",
        "SUST.P.1D.STRONG.SM.R.TRAP [R], R, R",
    );
}
