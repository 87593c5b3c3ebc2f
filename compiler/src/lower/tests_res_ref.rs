//! Lowering tests for module `.texref`/`.surfref` references (res_ref.rs,
//! handle.rs) and surface arrays (surf.rs) against ptxas 11.8's listings:
//! oracle/tests/texref_vendor/ (`NAME.sm_XX.sass`, and `NAME.sm_XX.rel.txt`
//! for the words' relocations) and oracle/tests/surf_vendor/surf_array2.
//! The executed checks are oracle/tests/lower_texref.rs and
//! lower_surf_array.rs.

use super::tests::{lower_text, norm};
use super::*;
use crate::targets::abi::RefKind;
use crate::targets::lookup_sm;

fn vendor_ptx(dir: &str, name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../oracle/tests")
        .join(dir)
        .join(format!("{name}.ptx"));
    std::fs::read_to_string(p).unwrap()
}

fn lower(src: &str, sm: &str) -> Result<Vec<LoweredKernel>, String> {
    lower_source(
        "t.ptx",
        src,
        lookup_sm(sm).unwrap(),
        &LowerOptions::default(),
    )
}

fn assert_has_all(src: &str, sm: &str, want: &[&str]) {
    let l = norm(&lower_text(src, sm));
    for w in want {
        assert!(
            l.iter().any(|x| x == w),
            "{sm}: `{w}` missing:\n{}",
            l.join("\n")
        );
    }
}

/// The words, as `(offset, name, kind)`.
fn words(k: &LoweredKernel) -> Vec<(u32, &str, RefKind)> {
    k.refs
        .iter()
        .map(|r| (r.offset, r.name.as_str(), r.kind))
        .collect()
}

#[test]
fn texref_mix_names_the_words_in_the_slot_forms_below_sm_90() {
    // texref_mix.sm_80.sass: `TEX.SCR.LL RZ, R4, R4, R9, 0x0, 0x5b, 2D,
    // 0x1` (texB), `TXQ RZ, R3, R12, TEX_HEADER_DIMENSION, 0x0, 0x5b, 0x1`
    // (txq texB), `TXQ ... 0x0, 0x5e, 0x1` (suq surfA), `TLD.SCR.LZ RZ, R0,
    // R10, 0x0, 0x5c, 1D, 0x1` (texA), `SULD.D.BA.2D.STRONG.SM.TRAP R6,
    // [R10], 0x0, 0x5d` (surfB), `SUST.D.BA.1D.STRONG.SM.TRAP [R10], R6,
    // 0x0, 0x5e`, `SURED.D.BA.1D.ADD.STRONG.SYS.TRAP [R10], R6, 0x0, 0x5e`
    // (surfA). The same slots on sm_70..sm_89 (texref_mix.sm_XX.sass; the
    // TEX spelling is tex.rs's `.LZ` form for every 2D float fetch).
    let src = vendor_ptx("texref_vendor", "texref_mix");
    for (sm, scope) in [
        ("sm_70", "CTA"),
        ("sm_75", "CTA"),
        ("sm_80", "SM"),
        ("sm_86", "SM"),
        ("sm_89", "SM"),
    ] {
        assert_has_all(
            &src,
            sm,
            &[
                "TEX.SCR.LZ R, R, R, 0x0, 0x5b, 2D, 0xf",
                "TLD.SCR.LZ R, R, R, 0x0, 0x5c, 1D, 0xf",
                "TXQ RZ, R, R, TEX_HEADER_DIMENSION, 0x0, 0x5b, 0x1",
                "TXQ RZ, R, R, TEX_HEADER_DIMENSION, 0x0, 0x5e, 0x1",
                &format!("SULD.D.BA.2D.STRONG.{scope}.TRAP R, [R], 0x0, 0x5d"),
                &format!("SUST.D.BA.1D.STRONG.{scope}.TRAP [R], R, 0x0, 0x5e"),
                "SURED.D.BA.1D.ADD.STRONG.SYS.TRAP [R], R, 0x0, 0x5e",
            ],
        );
    }
}

#[test]
fn texref_mix_loads_the_words_into_uniform_registers_on_sm_90() {
    // texref_mix.sm_90.sass: `ULDC UR4, c[0x0][0x21c]` + `TEX.LL RZ, R0,
    // R2, R0, UR4, 0x0, 2D, 0x1` (the pair's high half `UMOV UR5, URZ`),
    // `ULDC UR6, c[0x0][0x220]` + `UMOV UR7, URZ` + `TLD.LZ RZ, R8, R10,
    // UR6, 0x0, 1D, 0x1`, `ULDC UR4, c[0x0][0x224]` + `SULD ..., UR4, 0x0`,
    // `ULDC UR6, c[0x0][0x228]` + `SUST ... UR6, 0x0`.
    let src = vendor_ptx("texref_vendor", "texref_mix");
    assert_has_all(
        &src,
        "sm_90",
        &[
            "ULDC UR, c[0x0][0x21c]",
            "ULDC UR, c[0x0][0x220]",
            "ULDC UR, c[0x0][0x224]",
            "ULDC UR, c[0x0][0x228]",
            "UMOV UR, URZ",
            "TEX.LZ R, R, R, UR, 0x0, 2D, 0xf",
            "TLD.LZ R, R, R, UR, 0x0, 1D, 0xf",
            "SULD.D.BA.2D.STRONG.SM.TRAP R, [R], UR, 0x0",
            "SUST.D.BA.1D.STRONG.SM.TRAP [R], R, UR, 0x0",
            "SURED.D.BA.1D.ADD.STRONG.SYS.TRAP [R], R, UR, 0x0",
        ],
    );
}

#[test]
fn words_follow_the_parameters_textures_first_in_first_use_order() {
    // texref_mix.sm_80.rel.txt / .sm_90.rel.txt: texB 0x16c, texA 0x170,
    // surfB 0x174, surfA 0x178 (sm_90: 0x21c..0x228) after `.param .u64,
    // .param .u32`.
    let src = vendor_ptx("texref_vendor", "texref_mix");
    use RefKind::*;
    for (sm, base) in [("sm_70", 0x16c), ("sm_80", 0x16c), ("sm_90", 0x21c)] {
        let ks = lower(&src, sm).unwrap();
        assert_eq!(
            words(&ks[0]),
            vec![
                (base, "texB", Texture),
                (base + 4, "texA", Texture),
                (base + 8, "surfB", Surface),
                (base + 12, "surfA", Surface),
            ],
            "{sm}"
        );
    }
    // texref_order.sm_80.rel.txt: declared A B C D S T, first used
    // (suq T) (txq C) D B A C (suld S): C 0x168, D 0x16c, B 0x170, A
    // 0x174, T 0x178, S 0x17c after `.param .u64`; the second kernel k2
    // (`.param .u64, .param .u32`) uses only A: 0x16c. `U` is never used:
    // no word.
    let src = vendor_ptx("texref_vendor", "texref_order");
    let ks = lower(&src, "sm_80").unwrap();
    let k = ks.iter().find(|k| k.name == "texref_order").unwrap();
    assert_eq!(
        words(k),
        vec![
            (0x168, "C", Texture),
            (0x16c, "D", Texture),
            (0x170, "B", Texture),
            (0x174, "A", Texture),
            (0x178, "T", Surface),
            (0x17c, "S", Surface),
        ]
    );
    let k2 = ks.iter().find(|k| k.name == "k2").unwrap();
    assert_eq!(words(k2), vec![(0x16c, "A", Texture)]);
    // texref_order.sm_90.rel.txt: the same order from 0x218.
    let ks = lower(&src, "sm_90").unwrap();
    assert_eq!(ks[0].refs[0].offset, 0x218);
    assert_eq!(ks[0].refs[5].offset, 0x22c);
}

#[test]
fn mov_of_a_texref_reads_its_word_with_a_zero_high_half() {
    // texref_mov.sm_80.rel.txt: A's word at 0x168 (the kernel's `mov.u64
    // %rd2, A` is its only use). The register then names the texture as
    // any register handle does (tex.rs): on sm_80 the handle loop.
    let src = vendor_ptx("texref_vendor", "texref_mov");
    let ks = lower(&src, "sm_80").unwrap();
    assert_eq!(words(&ks[0]), vec![(0x168, "A", RefKind::Texture)]);
    assert_has_all(
        &src,
        "sm_80",
        &[
            "MOV R, c[0x0][0x168]",
            "RUR UR, R",
            "ISETP.NE.U32.AND P, PT, R, UR, PT",
        ],
    );
    assert_has_all(
        &src,
        "sm_70",
        &["MOV R, c[0x0][0x168]", "TLD.LZ R, R, R, R, 0x0, 1D, 0xf"],
    );
}

#[test]
fn texrefs_need_no_storage_and_a_samplerref_is_ignored_until_used() {
    // The declarations alone lower (mod.rs skips opaque module variables);
    // a kernel that uses none gets no word.
    let src = ".version 7.8\n.target sm_80\n.address_size 64\n.global .texref t;\n.global .surfref s;\n.global .samplerref q;\n.visible .entry k(.param .u64 o)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [o];\nst.global.u64 [%rd1], %rd1;\nret;\n}\n";
    let ks = lower(src, "sm_80").unwrap();
    assert!(ks[0].refs.is_empty());
    // A texref used as a memory address is refused by name.
    let bad = src.replace(
        "st.global.u64 [%rd1], %rd1;",
        ".reg .b32 %r<5>;\ntex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [t, {%r1}];\nld.global.u64 %rd2, [t];",
    );
    let e = lower(&bad, "sm_80").err().unwrap();
    assert!(e.contains("`t` is a .texref/.surfref"), "{e}");
}

/// The coordinate registers of the first `op` (`SULD`/`SUST`) whose
/// geometry is `geom`: the cbank offsets moved into the group's registers
/// `[Rc], [Rc+1], ...` (from `MOV R, c[0x0][off]` before it), in order.
fn group_sources(text: &str, op: &str, geom: &str, n: u32) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(op) && l.contains(&format!(".{geom}.")))
        .unwrap_or_else(|| panic!("no {op} .{geom} in\n{text}"));
    let l = lines[at];
    let base: u32 = l[l.find("[%r").unwrap() + 3..l.find(']').unwrap()]
        .parse()
        .unwrap();
    // The value a register holds before line `at`, through `MOV` copies.
    fn source(lines: &[&str], at: usize, reg: &str) -> String {
        let dst = format!("MOV {reg}, ");
        let (k, v) = lines[..at]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(k, x)| x.strip_prefix(&dst).map(|v| (k, v)))
            .unwrap_or_else(|| panic!("no MOV to {reg} before line {at}"));
        let v = v.trim_end_matches(';').trim();
        if v.starts_with("%r") {
            source(lines, k, v)
        } else {
            v.to_string()
        }
    }
    (0..n)
        .map(|k| source(&lines, at, &format!("%r{}", base + k)))
        .collect()
}

#[test]
fn surface_arrays_put_the_layer_after_the_coordinates() {
    // surf_array2.sm_80.sass (params s1 0x160, out 0x168, xx 0x170, yy
    // 0x174, ll 0x178): `SULD.D.BA.1D_ARRAY.STRONG.SM.TRAP R0, [R8], 0x0,
    // 0x58` with R8 = c[0x0][0x170] (x), R9 = c[0x0][0x178] (layer);
    // `SULD.D.BA.2D_ARRAY.64.STRONG.SM.IGN R2, [R12], 0x0, 0x60` with R12 =
    // x, R13 = c[0x0][0x174] (y), R14 = layer; `SUST.D.BA.1D_ARRAY.STRONG.SM
    // [R8], R5, 0x0, 0x58` (.clamp), `SUST.D.BA.2D_ARRAY.64.STRONG.SM.TRAP
    // [R16], R6, 0x0, 0x60` (v4.b16 packed into 8 bytes).
    let src = vendor_ptx("surf_vendor", "surf_array2");
    for (sm, scope) in [("sm_70", "CTA"), ("sm_80", "SM"), ("sm_89", "SM")] {
        assert_has_all(
            &src,
            sm,
            &[
                &format!("SULD.D.BA.1D_ARRAY.STRONG.{scope}.TRAP R, [R], 0x0, 0x58"),
                &format!("SULD.D.BA.2D_ARRAY.64.STRONG.{scope}.IGN R, [R], 0x0, 0x60"),
                &format!("SUST.D.BA.1D_ARRAY.STRONG.{scope} [R], R, 0x0, 0x58"),
                &format!("SUST.D.BA.2D_ARRAY.64.STRONG.{scope}.TRAP [R], R, 0x0, 0x60"),
            ],
        );
        let text = lower_text(&src, sm);
        let x = "c[0x0][0x170]";
        let y = "c[0x0][0x174]";
        let l = "c[0x0][0x178]";
        assert_eq!(group_sources(&text, "SULD", "1D_ARRAY", 2), [x, l], "{sm}");
        assert_eq!(
            group_sources(&text, "SULD", "2D_ARRAY", 3),
            [x, y, l],
            "{sm}"
        );
        assert_eq!(
            group_sources(&text, "SUST", "2D_ARRAY", 3),
            [x, y, l],
            "{sm}"
        );
    }
    // sm_90 (surf_array2.sm_90.sass): `ULDC UR4, c[0x0][0x210]` +
    // `SULD.D.BA.1D_ARRAY.STRONG.SM.TRAP R0, [R8], UR4, 0x0`.
    assert_has_all(
        &src,
        "sm_90",
        &[
            "ULDC UR, c[0x0][0x210]",
            "SULD.D.BA.1D_ARRAY.STRONG.SM.TRAP R, [R], UR, 0x0",
            "SUST.D.BA.2D_ARRAY.64.STRONG.SM.TRAP [R], R, UR, 0x0",
        ],
    );
}

#[test]
fn surface_array_coordinate_groups_are_aligned_register_groups() {
    // The [Rc] operand holds 2 (1D_ARRAY) or 3 (2D_ARRAY) registers
    // (ir::regs::operand_width), as the allocator must keep them together.
    let src = vendor_ptx("surf_vendor", "surf_array2");
    let ks = lower(&src, "sm_80").unwrap();
    let mut seen = Vec::new();
    for i in ks[0].function.insts() {
        if matches!(i.op, crate::ir::Op::SULD | crate::ir::Op::SUST) {
            let k = i
                .operands
                .iter()
                .position(|o| matches!(o, crate::ir::Operand::Mem(_)))
                .unwrap();
            let geom = if i.has_mod("1D_ARRAY") { 1 } else { 2 };
            seen.push((geom, crate::ir::regs::operand_width(i, k)));
        }
    }
    seen.sort();
    assert_eq!(seen, [(1, 2), (1, 2), (2, 3), (2, 3)]);
}
