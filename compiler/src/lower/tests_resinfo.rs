//! Lowering tests for resinfo.rs: `istypep` and the `txq`/`suq` fields
//! read from the driver's information tables, against ptxas 11.8
//! (`ptxas -arch=sm_XX` on one-instruction kernels with the handle loaded
//! from a parameter, `cuobjdump -sass`; the expected offsets below are the
//! measured ones, written out here, not read from resinfo.rs). The
//! executed checks are in oracle/tests/lower_resinfo.rs (also ptxas's own
//! listings, oracle/tests/resinfo_vendor/).

use super::tests::{lower_text, norm};

fn kernel(body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 t)\n{{\n.reg .b32 %r<10>;\n.reg .b64 %rd<10>;\n.reg .pred %p<5>;\nld.param.u64 %rd1, [t];\n{body}\nret;\n}}\n"
    )
}

fn lines(body: &str, sm: &str) -> Vec<String> {
    norm(&lower_text(&kernel(body), sm))
}

fn assert_seq(body: &str, sm: &str, want: &[&str]) {
    let l = lines(body, sm);
    let mut at = 0;
    for w in want {
        match l[at..].iter().position(|x| x == w) {
            Some(k) => at += k + 1,
            None => panic!(
                "{sm}: `{w}` missing (in order) for `{body}`:\n{}",
                l.join("\n")
            ),
        }
    }
}

/// ptxas 11.8, `txq.FIELD.b32 %r3, [%rd1]`: the `IMAD R3, R0, R3, 0xOFF`
/// (sm_70) / `UIMAD UR4, UR4, UR5, 0xOFF` (sm_75..sm_89) / `UIMAD UR6,
/// UR4, UR6, 0xOFF` (sm_90) offsets, identical on every target.
const TXQ_OFFSETS: [(&str, &str); 10] = [
    ("addr_mode_0", "0xc"),
    ("addr_mode_1", "0x10"),
    ("addr_mode_2", "0x14"),
    ("filter_mode", "0x18"),
    ("normalized_coords", "0x1c"),
    ("channel_data_type", "0x20"),
    ("channel_order", "0x24"),
    ("array_size", "0x28"),
    ("num_mipmap_levels", "0x2c"),
    ("num_samples", "0x30"),
];

#[test]
fn istypep_tests_bit_61_62_63_of_the_handle() {
    // ptxas 11.8 sm_80: `UMOV UR5, 0x20000000 ; ULOP3.LUT UR5, UR5, UR7,
    // URZ, 0xc0, !UPT ; UISETP.NE.U32.AND.EX UP0, UPT, UR5, 0x20000000,
    // UPT, !UPT` (texref; samplerref 0x40000000, surfref 0x80000000, the
    // high word UR7 of the handle); sm_70 `LOP3.LUT R0, R4, c[0x0][0x164],
    // RZ, 0xc0, !PT ; ISETP.NE.U32.AND.EX P0, PT, R0, 0x20000000, PT, !PT`.
    for (kind, m) in [
        ("texref", "0x20000000"),
        ("samplerref", "0x40000000"),
        ("surfref", "0x80000000"),
    ] {
        for sm in ["sm_70", "sm_80", "sm_90"] {
            assert_seq(
                &format!("istypep.{kind} %p1, %rd1;\nselp.u32 %r1, 1, 0, %p1;"),
                sm,
                &[
                    &format!("LOP3.LUT R, R, {m}, RZ, 0xc0, !PT"),
                    &format!("ISETP.EQ.U32.AND P, PT, R, {m}, PT"),
                ],
            );
        }
    }
}

#[test]
fn txq_table_fields_follow_ptxas() {
    // sm_70 txq.channel_data_type: `IMAD.MOV.U32 R0, RZ, RZ, c[0x0][0x160]
    // ; MOV R3, 0x0 (R_CUDA_ABS32_32 .nv.unified.texrefDescSize) ;
    // LOP3.LUT R0, R0, 0xfffff, RZ, 0xc0, !PT ; IMAD R3, R0, R3, 0x20 ;
    // IADD3 R2, P0, R3, c[0x0][0x70], RZ ; IMAD.X R3, RZ, RZ, c[0x0][0x74],
    // P0 ; LDG.E.CONSTANT.SYS R5, [R2]`; sm_80 `LDG.E.CONSTANT R5,
    // [R4.64]`. Our row size 0x40 is the relocation's value.
    for (f, off) in TXQ_OFFSETS {
        let body = format!("txq.{f}.b32 %r3, [%rd1];");
        for (sm, ldg) in [
            ("sm_70", "LDG.E.CONSTANT.SYS R, [R]"),
            ("sm_75", "LDG.E.CONSTANT.SYS R, [R]"),
            ("sm_80", "LDG.E.CONSTANT R, [R.64]"),
            ("sm_89", "LDG.E.CONSTANT R, [R.64]"),
        ] {
            assert_seq(
                &body,
                sm,
                &[
                    "MOV R, c[0x0][0x160]",
                    "LOP3.LUT R, R, 0xfffff, RZ, 0xc0, !PT",
                    "MOV R, 0x40",
                    &format!("IMAD R, R, R, {off}"),
                    "IADD3 R, P, R, c[0x0][0x70], RZ",
                    "IADD3.X R, RZ, c[0x0][0x74], RZ, P, !PT",
                    ldg,
                ],
            );
        }
        // sm_90: `ULDC UR6, c[0x0][0x210] ; UIMAD UR6, UR4, UR6, 0x20 ;
        // ULDC.64 UR4, c[0x0][0xf0]`: the whole low word, no mask.
        let l = lines(&body, "sm_90");
        assert!(!l.iter().any(|x| x.contains("0xfffff")), "{}", l.join("\n"));
        assert_seq(
            &body,
            "sm_90",
            &[
                "MOV R, c[0x0][0x210]",
                &format!("IMAD R, R, R, {off}"),
                "IADD3 R, P, R, c[0x0][0xf0], RZ",
                "IADD3.X R, RZ, c[0x0][0xf4], RZ, P, !PT",
                "LDG.E.CONSTANT R, [R.64]",
            ],
        );
    }
}

#[test]
fn txq_dimensions_are_txq_below_sm_90_and_table_loads_on_sm_90() {
    // sm_80: `TXQ RZ, R5, R5, TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1/0x2/0x4`;
    // sm_90: `UIMAD UR6, UR4, UR5, URZ` (width, offset 0), `UIMAD UR6, UR4,
    // UR6, 0x4` (height), `0x8` (depth) + `c[0x0][0xf0]`.
    for (f, m, off) in [
        ("width", "0x1", "0x0"),
        ("height", "0x2", "0x4"),
        ("depth", "0x4", "0x8"),
    ] {
        let body = format!("txq.{f}.b32 %r3, [%rd1];");
        assert_seq(
            &body,
            "sm_80",
            &[&format!(
                "TXQ RZ, R, R, TEX_HEADER_DIMENSION, 0x0, 0x58, {m}"
            )],
        );
        assert_seq(
            &body,
            "sm_90",
            &[
                &format!("IMAD R, R, R, {off}"),
                "IADD3 R, P, R, c[0x0][0xf0], RZ",
            ],
        );
    }
}

#[test]
fn suq_table_fields_follow_ptxas() {
    // sm_70 suq.channel_data_type: `LOP3.LUT R0, R0, 0xfffff, RZ, 0xc0, !PT
    // ; IMAD R0, R0, R3, 0xc` + `c[0x0][0x80]` (R3: R_CUDA_ABS32_32
    // .nv.surfrefDescSize); depth 0x8, channel_order 0x10, array_size 0x1c;
    // sm_90 `c[0x0][0x100]`, width 0x0, height 0x4. Our row size: 0x20.
    for (f, off) in [
        ("depth", "0x8"),
        ("channel_data_type", "0xc"),
        ("channel_order", "0x10"),
        ("array_size", "0x1c"),
    ] {
        let body = format!("suq.{f}.b32 %r3, [%rd1];");
        assert_seq(
            &body,
            "sm_70",
            &[
                "LOP3.LUT R, R, 0xfffff, RZ, 0xc0, !PT",
                "MOV R, 0x20",
                &format!("IMAD R, R, R, {off}"),
                "IADD3 R, P, R, c[0x0][0x80], RZ",
                "IADD3.X R, RZ, c[0x0][0x84], RZ, P, !PT",
                "LDG.E.CONSTANT.SYS R, [R]",
            ],
        );
        assert_seq(
            &body,
            "sm_90",
            &[
                "MOV R, 0x20",
                &format!("IMAD R, R, R, {off}"),
                "IADD3 R, P, R, c[0x0][0x100], RZ",
            ],
        );
    }
    for (f, off) in [("width", "0x0"), ("height", "0x4")] {
        assert_seq(
            &format!("suq.{f}.b32 %r3, [%rd1];"),
            "sm_90",
            &[
                &format!("IMAD R, R, R, {off}"),
                "IADD3 R, P, R, c[0x0][0x100], RZ",
            ],
        );
    }
}

#[test]
fn a_register_handle_indexes_by_its_low_word() {
    // ptxas 11.8 sm_80, `%rd5 = param + %tid.x`: `IADD3 R0, P0, R0,
    // c[0x0][0x160], RZ ; LOP3.LUT R0, R0, 0xfffff, RZ, 0xc0, !PT ; IMAD R0,
    // R0, R3, 0x24` (txq.channel_order).
    let body = "mov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd2, %r1;\nadd.s64 %rd3, %rd1, %rd2;\ntxq.channel_order.b32 %r3, [%rd3];";
    assert_seq(
        body,
        "sm_80",
        &[
            "LOP3.LUT R, R, 0xfffff, RZ, 0xc0, !PT",
            "IMAD R, R, R, 0x24",
            "LDG.E.CONSTANT R, [R.64]",
        ],
    );
}

/// The ABI's field tables name their fields by PTX spelling
/// (`targets::abi::resinfo`); each spelling is one `txq`/`suq` query
/// modifier, which the lowering and the simulator match by that spelling.
#[test]
fn info_field_names_are_query_modifiers() {
    use crate::ptx::modifiers::{Mod, ModCat};
    use crate::targets::abi::resinfo::Table;
    for t in [Table::Texture, Table::Surface] {
        for &(name, _) in t.fields() {
            let queries: Vec<Mod> = Mod::ALL
                .iter()
                .copied()
                .filter(|m| m.text() == name && m.cat() == ModCat::Query)
                .collect();
            assert_eq!(queries.len(), 1, "{name}");
        }
    }
}
