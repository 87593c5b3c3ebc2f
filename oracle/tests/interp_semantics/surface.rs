//! Surfaces: the launch spec's `surfaces` (this project's extension),
//! `suld.b`, `sust.b`, `sured.b`, `suq`, and surfaces as outputs.
//!
//! Expected values come from a host model of the spec's layout and the
//! PTX ISA rules (9.7.11 "Surface Instructions"), never from the
//! interpreter:
//! * contents: `init` iota, element e (one channel value) holds e; element
//!   e lives at bytes `e*size..(e+1)*size`, little-endian; elements are
//!   laid out x fastest, channels interleaved, then y, z, layer
//!   (`host_off`);
//! * `.b` forms: x is a BYTE offset ("The lowest dimension coordinate
//!   represents a byte offset into the surface and is not scaled"), the
//!   access is as wide as the data operand;
//! * `.trap` faults, `.zero` loads 0 / drops the store, `.clamp` uses the
//!   nearest in-bounds location of the access's size;
//! * misaligned x ("undefined") and the other undefined cases fault.

use super::harness::*;
use oracle::launch::{compare, CompareRule, LaunchSpec, OutputSet};
use oracle::ptx_interp::{Outcome, RunLimits, RunResult};

/// Runs `body` once per row (one thread each) with surface `s` described
/// by `surf_json` (a `.u64` handle in `%s`). Each row holds four 32-bit
/// inputs in `%i0..%i3`; the body leaves results in `%o0..%o3` (`%d0`,
/// `%d1` are spare .b64 registers, `%h0..%h3` .b16, `%c0..%c3` .b32).
fn run_surf(surf_json: &str, globals: &str, body: &str, rows: &[[u32; 4]]) -> RunResult {
    let n = rows.len();
    let src = format!(
        "{HEADER}{globals}\n.visible .entry k(.param .u64 p_out, .param .u64 p_in, .param .u64 p_s)\n{{\n\
         \t.reg .b64 %out, %in, %s, %t64, %d0, %d1;\n\
         \t.reg .b32 %tx, %i0, %i1, %i2, %i3, %o0, %o1, %o2, %o3, %c0, %c1, %c2, %c3;\n\
         \t.reg .b16 %h0, %h1, %h2, %h3;\n\
         \t.reg .pred %p;\n\
         \tld.param.u64 %out, [p_out];\n\tld.param.u64 %in, [p_in];\n\tld.param.u64 %s, [p_s];\n\
         \tcvta.to.global.u64 %out, %out;\n\tcvta.to.global.u64 %in, %in;\n\
         \tmov.u32 %tx, %tid.x;\n\tmul.wide.u32 %t64, %tx, 16;\n\
         \tadd.s64 %in, %in, %t64;\n\tadd.s64 %out, %out, %t64;\n\
         \tld.global.v4.u32 {{%i0, %i1, %i2, %i3}}, [%in];\n\
         \tmov.u32 %o0, 0;\n\tmov.u32 %o1, 0;\n\tmov.u32 %o2, 0;\n\tmov.u32 %o3, 0;\n\
         {body}\n\
         \tst.global.v4.u32 [%out], {{%o0, %o1, %o2, %o3}};\n\tret;\n}}\n"
    );
    let input: Vec<String> = rows
        .iter()
        .flatten()
        .map(|x| format!("\"0x{x:x}\""))
        .collect();
    let spec = format!(
        r#"{{"kernel":"k","grid":[1],"block":[{n}],
            "params":[{{"buffer":"out"}},{{"buffer":"in"}},{{"surface":"s"}}],
            "buffers":{{"out":{{"type":"u32","len":{len},"init":"zeros"}},
                        "in":{{"type":"u32","len":{len},"init":{{"bits":[{bits}]}}}}}},
            "surfaces":{{"s":{surf_json}}},
            "outputs":["out","s"]}}"#,
        len = 4 * n,
        bits = input.join(",")
    );
    run_src(&src, &spec, &RunLimits::default())
}

fn rows_out(r: &RunResult) -> Vec<[u32; 4]> {
    out(r, "out")
        .chunks(4)
        .map(|c| [c[0] as u32, c[1] as u32, c[2] as u32, c[3] as u32])
        .collect()
}

fn fault_message(o: &Outcome) -> String {
    match o {
        Outcome::Fault { message, .. } => message.clone(),
        other => panic!("expected a fault, got {other:?}"),
    }
}

/// Host model of a surface of `esize`-byte channel values initialised by
/// iota: its bytes.
fn host_bytes(esize: usize, count: usize) -> Vec<u8> {
    (0..count)
        .flat_map(|e| (e as u64).to_le_bytes()[..esize].to_vec())
        .collect()
}

/// Byte offset of byte `xb` of row (y, z) of `layer`, rows of `row` bytes.
fn host_off(row: usize, h: usize, d: usize, layer: usize, xb: usize, y: usize, z: usize) -> usize {
    ((layer * d + z) * h + y) * row + xb
}

fn le(b: &[u8], off: usize, n: usize) -> u64 {
    let mut a = [0u8; 8];
    a[..n].copy_from_slice(&b[off..off + n]);
    u64::from_le_bytes(a)
}

fn expect(title: &str, r: &RunResult, want: &[[u32; 4]]) {
    assert_eq!(r.outcome, Outcome::Completed, "[{title}] outcome");
    let got = rows_out(r);
    let mut errs = Vec::new();
    for (k, w) in want.iter().enumerate() {
        if got[k] != *w {
            errs.push(format!(
                "[{title}] row {k}: expected {w:08x?} got {:08x?}",
                got[k]
            ));
        }
    }
    count(want.len());
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

/// Every geometry (1d, 2d, 3d, a1d, a2d), every data size (.b8 .b16 .b32
/// .b64) and vector width (none, .v2, .v4): x in bytes, cache operators
/// ignored.
#[test]
fn suld_every_geometry_size_and_vector() {
    let _c = rows_of("suld_every_geometry_size_and_vector");
    // 1d: u8 surface of 64 bytes, byte k holds k.
    let s1 = r#"{"type":"u8","dims":[64],"init":{"iota":{"start":0,"step":1}}}"#;
    let b = host_bytes(1, 64);
    let cases: &[(&str, &str, u32, usize, usize)] = &[
        // (title, body, x, bytes per element, elements)
        ("b8", "\tsuld.b.1d.b8.trap {%h0}, [%s, {%i0}];\n\tcvt.u32.u16 %o0, %h0;", 5, 1, 1),
        ("b16", "\tsuld.b.1d.b16.trap %h0, [%s, {%i0}];\n\tcvt.u32.u16 %o0, %h0;", 6, 2, 1),
        ("b32 .ca", "\tsuld.b.1d.ca.b32.trap %o0, [%s, {%i0}];", 8, 4, 1),
        ("v2.b32 .cg", "\tsuld.b.1d.cg.v2.b32.trap {%o0, %o1}, [%s, {%i0}];", 16, 4, 2),
        ("v4.b32 .cs", "\tsuld.b.1d.cs.v4.b32.trap {%o0, %o1, %o2, %o3}, [%s, {%i0}];", 48, 4, 4),
        ("v4.b16 .cv", "\tsuld.b.1d.cv.v4.b16.trap {%h0, %h1, %h2, %h3}, [%s, {%i0}];\n\tcvt.u32.u16 %o0, %h0;\n\tcvt.u32.u16 %o1, %h1;\n\tcvt.u32.u16 %o2, %h2;\n\tcvt.u32.u16 %o3, %h3;", 24, 2, 4),
        ("b64", "\tsuld.b.1d.b64.trap %d0, [%s, {%i0}];\n\tmov.b64 {%o0, %o1}, %d0;", 40, 8, 1),
        ("v2.b64", "\tsuld.b.1d.v2.b64.trap {%d0, %d1}, [%s, {%i0}];\n\tmov.b64 {%o0, %o1}, %d0;\n\tmov.b64 {%o2, %o3}, %d1;", 48, 8, 2),
    ];
    for &(title, body, x, es, n) in cases {
        let r = run_surf(s1, "", body, &[[x, 0, 0, 0]]);
        let mut w = [0u32; 4];
        if es == 8 {
            for k in 0..n {
                let v = le(&b, x as usize + 8 * k, 8);
                w[2 * k] = v as u32;
                w[2 * k + 1] = (v >> 32) as u32;
            }
        } else {
            for k in 0..n {
                w[k] = le(&b, x as usize + es * k, es) as u32;
            }
        }
        expect(&format!("1d {title}"), &r, &[w]);
    }

    // 2d: u16 x 2 channels, dims [4, 3]: rows of 4*2*2 = 16 bytes; x = 6
    // bytes is element (x=1, channel 1); scaling x by the element size
    // would read elsewhere.
    let s2 = r#"{"type":"u16","channels":2,"dims":[4,3],"init":{"iota":{"start":0,"step":1}}}"#;
    let b2 = host_bytes(2, 24);
    let body = "\tsuld.b.2d.b16.trap %h0, [%s, {%i0, %i1}];\n\tcvt.u32.u16 %o0, %h0;\n\
                \tsuld.b.2d.b32.trap %o1, [%s, {%i2, %i1}];";
    let rows = [[6, 1, 12, 0], [0, 2, 4, 0], [14, 0, 0, 0]];
    let want: Vec<[u32; 4]> = rows
        .iter()
        .map(|r| {
            let (x, y, x2) = (r[0] as usize, r[1] as usize, r[2] as usize);
            [
                le(&b2, host_off(16, 3, 1, 0, x, y, 0), 2) as u32,
                le(&b2, host_off(16, 3, 1, 0, x2, y, 0), 4) as u32,
                0,
                0,
            ]
        })
        .collect();
    expect("2d", &run_surf(s2, "", body, &rows), &want);

    // 3d: u8 dims [8, 4, 3] (96 bytes), 4 coordinates, the fourth ignored.
    let s3 = r#"{"type":"u8","dims":[8,4,3],"init":{"iota":{"start":0,"step":1}}}"#;
    let b3 = host_bytes(1, 96);
    let body = "\tsuld.b.3d.b32.trap %o0, [%s, {%i0, %i1, %i2, %i3}];";
    let rows = [[4, 3, 2, 77], [0, 1, 1, 0xffff_ffff], [4, 0, 0, 5]];
    let want: Vec<[u32; 4]> = rows
        .iter()
        .map(|r| {
            let o = host_off(8, 4, 3, 0, r[0] as usize, r[1] as usize, r[2] as usize);
            [le(&b3, o, 4) as u32, 0, 0, 0]
        })
        .collect();
    expect("3d", &run_surf(s3, "", body, &rows), &want);

    // a1d: u8 dims [16], 3 layers: {index, x}.
    let sa1 = r#"{"type":"u8","dims":[16],"layers":3,"init":{"iota":{"start":0,"step":1}}}"#;
    let ba1 = host_bytes(1, 48);
    let body = "\tsuld.b.a1d.b16.trap %h0, [%s, {%i0, %i1}];\n\tcvt.u32.u16 %o0, %h0;";
    let rows = [[0, 2, 0, 0], [1, 14, 0, 0], [2, 6, 0, 0]];
    let want: Vec<[u32; 4]> = rows
        .iter()
        .map(|r| {
            let o = host_off(16, 1, 1, r[0] as usize, r[1] as usize, 0, 0);
            [le(&ba1, o, 2) as u32, 0, 0, 0]
        })
        .collect();
    expect("a1d", &run_surf(sa1, "", body, &rows), &want);

    // a2d: u8 dims [8, 4], 2 layers: {index, x, y, ignored}.
    let sa2 = r#"{"type":"u8","dims":[8,4],"layers":2,"init":{"iota":{"start":0,"step":1}}}"#;
    let ba2 = host_bytes(1, 64);
    let body = "\tsuld.b.a2d.b32.trap %o0, [%s, {%i0, %i1, %i2, %i3}];";
    let rows = [[0, 4, 3, 9], [1, 0, 2, 0], [1, 4, 3, 0xdead]];
    let want: Vec<[u32; 4]> = rows
        .iter()
        .map(|r| {
            let o = host_off(8, 4, 1, r[0] as usize, r[1] as usize, r[2] as usize, 0);
            [le(&ba2, o, 4) as u32, 0, 0, 0]
        })
        .collect();
    expect("a2d", &run_surf(sa2, "", body, &rows), &want);
}

/// `.trap`, `.zero`, `.clamp` at each edge of x (bytes), y and z, for
/// loads. Surface u32 dims [4, 3, 2]: rows of 16 bytes, element e = e + 1.
#[test]
fn suld_out_of_bounds_modes_at_each_edge() {
    let _c = rows_of("suld_out_of_bounds_modes_at_each_edge");
    // iota from 1, so that no element reads as the 0 of `.zero`
    let s = r#"{"type":"u32","dims":[4,3,2],"init":{"iota":{"start":1,"step":1}}}"#;
    let (w, h, d) = (4i64, 3i64, 2i64);
    let elem = |x: i64, y: i64, z: i64| ((z * h + y) * w + x / 4 + 1) as u32;
    // (x bytes, y, z): every coordinate just below 0 and just past the end
    let edges: [(i64, i64, i64); 6] = [
        (-4, 1, 1),
        (16, 1, 1),
        (4, -1, 1),
        (4, 3, 1),
        (4, 1, -1),
        (4, 1, 2),
    ];
    let rows: Vec<[u32; 4]> = edges
        .iter()
        .map(|&(x, y, z)| [x as u32, y as u32, z as u32, 0])
        .collect();
    // .zero: loads zero
    let r = run_surf(
        s,
        "",
        "\tsuld.b.3d.b32.zero %o0, [%s, {%i0, %i1, %i2, %i3}];\n\tmov.u32 %o1, 7;",
        &rows,
    );
    expect(".zero", &r, &[[0, 7, 0, 0]; 6]);
    // .clamp: the nearest location of the access's size
    let r = run_surf(
        s,
        "",
        "\tsuld.b.3d.b32.clamp %o0, [%s, {%i0, %i1, %i2, %i3}];",
        &rows,
    );
    let want: Vec<[u32; 4]> = edges
        .iter()
        .map(|&(x, y, z)| {
            [
                elem(x.clamp(0, 4 * w - 4), y.clamp(0, h - 1), z.clamp(0, d - 1)),
                0,
                0,
                0,
            ]
        })
        .collect();
    expect(".clamp", &r, &want);
    // .clamp with a v2 access: x clamps to row - 8 = 8 bytes
    let r = run_surf(
        s,
        "",
        "\tsuld.b.3d.v2.b32.clamp {%o0, %o1}, [%s, {%i0, %i1, %i2, %i3}];",
        &[[1000, 0, 0, 0], [0xffff_fff8, 0, 0, 0]],
    );
    expect(".clamp v2", &r, &[[3, 4, 0, 0], [1, 2, 0, 0]]);
    // .trap: a fault naming the coordinates, at every edge
    for (k, &(x, y, z)) in edges.iter().enumerate() {
        let r = run_surf(
            s,
            "",
            "\tsuld.b.3d.b32.trap %o0, [%s, {%i0, %i1, %i2, %i3}];",
            &rows[k..k + 1],
        );
        let m = fault_message(&r.outcome);
        let at = format!("x = {x} bytes, y = {y}, z = {z}");
        check_eq(
            m.contains(&at) && m.contains(".trap") && m.contains("'s'"),
            true,
            &m,
        );
        count(1);
    }
    // the last in-bounds location of each dimension reads under .trap
    let r = run_surf(
        s,
        "",
        "\tsuld.b.3d.b32.trap %o0, [%s, {%i0, %i1, %i2, %i3}];",
        &[[12, 2, 1, 0], [0, 0, 0, 0]],
    );
    expect(
        ".trap in bounds",
        &r,
        &[[elem(12, 2, 1), 0, 0, 0], [elem(0, 0, 0), 0, 0, 0]],
    );
    // no mode: in bounds reads, out of bounds faults (the ISA names no default)
    let r = run_surf(
        s,
        "",
        "\tsuld.b.3d.b32 %o0, [%s, {%i0, %i1, %i2, %i3}];",
        &[[4, 1, 1, 0]],
    );
    expect("no mode in bounds", &r, &[[elem(4, 1, 1), 0, 0, 0]]);
    let r = run_surf(
        s,
        "",
        "\tsuld.b.3d.b32 %o0, [%s, {%i0, %i1, %i2, %i3}];",
        &[[16, 1, 1, 0]],
    );
    let m = fault_message(&r.outcome);
    check_eq(m.contains("without a .trap/.clamp/.zero"), true, &m);
}

/// Stores: `.zero` drops an out-of-bounds store, `.clamp` writes the
/// nearest location, `.trap` faults; the surface's final contents are an
/// output. Surface u32 dims [4, 2], element e = e.
#[test]
fn sust_out_of_bounds_modes_and_final_contents() {
    let _c = rows_of("sust_out_of_bounds_modes_and_final_contents");
    let s = r#"{"type":"u32","dims":[4,2],"init":{"iota":{"start":0,"step":1}}}"#;
    let init: Vec<u64> = (0..8).collect();
    // in bounds: (x=8 bytes, y=1) is element 6
    let r = run_surf(
        s,
        "",
        "\tsust.b.2d.b32.trap [%s, {%i0, %i1}], %i2;",
        &[[8, 1, 0xabc, 0]],
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let mut want = init.clone();
    want[6] = 0xabc;
    check_eq(out(&r, "s"), want, "sust in bounds");
    // .zero: dropped at every edge
    for (x, y) in [(-4i32, 0i32), (16, 0), (0, -1), (0, 2)] {
        let r = run_surf(
            s,
            "",
            "\tsust.b.2d.b32.zero [%s, {%i0, %i1}], %i2;",
            &[[x as u32, y as u32, 0x55, 0]],
        );
        assert_eq!(r.outcome, Outcome::Completed);
        check_eq(out(&r, "s"), init.clone(), &format!(".zero ({x}, {y})"));
    }
    // .clamp: written at the nearest element
    for (x, y, e) in [
        (-4i32, 0i32, 0usize),
        (16, 0, 3),
        (1 << 20, 1, 7),
        (4, -1, 1),
        (4, 2, 5),
    ] {
        let r = run_surf(
            s,
            "",
            "\tsust.b.2d.b32.clamp [%s, {%i0, %i1}], %i2;",
            &[[x as u32, y as u32, 0x55, 0]],
        );
        assert_eq!(r.outcome, Outcome::Completed);
        let mut want = init.clone();
        want[e] = 0x55;
        check_eq(out(&r, "s"), want, &format!(".clamp ({x}, {y})"));
    }
    // .trap
    let r = run_surf(
        s,
        "",
        "\tsust.b.2d.b32.trap [%s, {%i0, %i1}], %i2;",
        &[[16, 1, 0, 0]],
    );
    let m = fault_message(&r.outcome);
    check_eq(
        m.contains("x = 16 bytes, y = 1") && m.contains(".trap"),
        true,
        &m,
    );
}

/// x must be a multiple of the access size ("If an address is not properly
/// aligned, the resulting behavior is undefined"): a fault, for loads,
/// stores and reductions, whatever the mode; an access partly past a row's
/// end, and `.clamp` where the nearest location would be misaligned, also
/// fault.
#[test]
fn misaligned_and_undefined_accesses_fault() {
    let _c = rows_of("misaligned_and_undefined_accesses_fault");
    let s = r#"{"type":"u8","dims":[32],"init":{"iota":{"start":0,"step":1}}}"#;
    let cases: &[(&str, u32, &str)] = &[
        (
            "\tsuld.b.1d.b32.clamp %o0, [%s, {%i0}];",
            2,
            "access size (4 bytes)",
        ),
        (
            "\tsuld.b.1d.b16.zero %h0, [%s, {%i0}];",
            1,
            "access size (2 bytes)",
        ),
        (
            "\tsuld.b.1d.v2.b32.trap {%o0, %o1}, [%s, {%i0}];",
            4,
            "access size (8 bytes)",
        ),
        (
            "\tsuld.b.1d.v4.b32.trap {%o0, %o1, %o2, %o3}, [%s, {%i0}];",
            0xffff_fff8,
            "access size (16 bytes)",
        ),
        (
            "\tmov.b64 %d0, 0;\n\tsust.b.1d.b64.zero [%s, {%i0}], %d0;",
            12,
            "access size (8 bytes)",
        ),
        (
            "\tsured.b.add.1d.u32.clamp [%s, {%i0}], %i1;",
            6,
            "access size (4 bytes)",
        ),
    ];
    for &(body, x, what) in cases {
        let r = run_surf(s, "", body, &[[x, 1, 0, 0]]);
        let m = fault_message(&r.outcome);
        check_eq(
            m.contains(&format!("x = {} bytes", x as i32))
                && m.contains(what)
                && m.contains("undefined"),
            true,
            &m,
        );
        count(1);
    }
    // rows of 6 bytes: a 4-byte access at x = 4 is partly inside
    let s6 = r#"{"type":"u8","dims":[6]}"#;
    let m = fault_message(
        &run_surf(
            s6,
            "",
            "\tsuld.b.1d.b32.zero %o0, [%s, {%i0}];",
            &[[4, 0, 0, 0]],
        )
        .outcome,
    );
    check_eq(m.contains("partly outside"), true, &m);
    // .clamp on rows of 6 bytes with a 4-byte access: nearest is misaligned
    let m = fault_message(
        &run_surf(
            s6,
            "",
            "\tsuld.b.1d.b32.clamp %o0, [%s, {%i0}];",
            &[[8, 0, 0, 0]],
        )
        .outcome,
    );
    check_eq(
        m.contains("not a multiple") && m.contains(".clamp"),
        true,
        &m,
    );
    // array index past the last layer, in every mode
    let sa = r#"{"type":"u32","dims":[4],"layers":2}"#;
    for mode in ["trap", "clamp", "zero"] {
        let body = format!("\tsuld.b.a1d.b32.{mode} %o0, [%s, {{%i0, %i1}}];");
        let m = fault_message(&run_surf(sa, "", &body, &[[2, 0, 0, 0]]).outcome);
        check_eq(m.contains("array index 2 outside"), true, &m);
        count(1);
    }
    // geometry that does not match the surface
    let m = fault_message(
        &run_surf(sa, "", "\tsuld.b.1d.b32.trap %o0, [%s, {%i1}];", &[[0; 4]]).outcome,
    );
    check_eq(m.contains("does not match surface 's'"), true, &m);
    let m = fault_message(
        &run_surf(
            s,
            "",
            "\tsuld.b.2d.b32.trap %o0, [%s, {%i1, %i2}];",
            &[[0; 4]],
        )
        .outcome,
    );
    check_eq(m.contains("does not match"), true, &m);
    // formatted forms: suld.p is not in the ISA; sust.p of a value the u8
    // channel does not hold stops (semantics/surface_format.rs: the ISA
    // names no saturation or wrap)
    let m = fault_message(
        &run_surf(s, "", "\tsuld.p.1d.b32.trap %o0, [%s, {%i0}];", &[[0; 4]]).outcome,
    );
    check_eq(m.contains("suld.p is not in the PTX ISA"), true, &m);
    let m = fault_message(
        &run_surf(
            s,
            "",
            "\tmov.u32 %o1, 300;\n\tsust.p.1d.b32.trap [%s, {%i0}], %o1;",
            &[[0; 4]],
        )
        .outcome,
    );
    check_eq(m.contains("sust.p") && m.contains("range"), true, &m);
    // a handle that is not a surface
    let m = fault_message(
        &run_surf(
            s,
            "",
            "\tmov.u64 %d0, 1234;\n\tsuld.b.1d.b32.trap %o0, [%d0, {%i0}];",
            &[[0; 4]],
        )
        .outcome,
    );
    check_eq(m.contains("0x4d2 is not a surface handle"), true, &m);
}

/// `sured.b` (9.7.11.3): add on .u32/.u64/.s32, min/max on
/// .u32/.s32/.u64/.s64, and/or on .b32; no destination (no old value).
/// Every thread reduces into the same element, so the result is the
/// reduction over all rows.
#[test]
fn sured_operations() {
    let _c = rows_of("sured_operations");
    let vals32: [u32; 4] = [5, 0xffff_fff0, 7, 0x8000_0001];
    let rows: Vec<[u32; 4]> = vals32.iter().map(|&v| [4, v, 0, 0]).collect();
    // 32-bit surface [3, 0x8000_0000 (elem 1), 9]
    let s32 = r#"{"type":"u32","dims":[3],"init":{"bits":["0x3","0x80000000","0x9"]}}"#;
    let init1: u32 = 0x8000_0000;
    let ops: Vec<(&str, u32)> = vec![
        (
            "add.1d.u32",
            vals32.iter().fold(init1, |a, &v| a.wrapping_add(v)),
        ),
        (
            "add.1d.s32",
            vals32.iter().fold(init1, |a, &v| a.wrapping_add(v)),
        ),
        ("min.1d.u32", vals32.iter().fold(init1, |a, &v| a.min(v))),
        ("max.1d.u32", vals32.iter().fold(init1, |a, &v| a.max(v))),
        (
            "min.1d.s32",
            vals32.iter().fold(init1 as i32, |a, &v| a.min(v as i32)) as u32,
        ),
        (
            "max.1d.s32",
            vals32.iter().fold(init1 as i32, |a, &v| a.max(v as i32)) as u32,
        ),
        ("and.1d.b32", vals32.iter().fold(init1, |a, &v| a & v)),
        ("or.1d.b32", vals32.iter().fold(init1, |a, &v| a | v)),
    ];
    for (op, want) in ops {
        let body = format!("\tsured.b.{op}.trap [%s, {{%i0}}], %i1;");
        let r = run_surf(s32, "", &body, &rows);
        assert_eq!(r.outcome, Outcome::Completed, "{op}");
        check_eq(out(&r, "s"), vec![3, u64::from(want), 9], op);
        count(1);
    }
    // 64-bit: surface [10, 0xffffffff, -2]; the value is %i1:%i2
    let s64 =
        r#"{"type":"u64","dims":[3],"init":{"bits":["0xa","0xffffffff","0xfffffffffffffffe"]}}"#;
    let v64: [u64; 3] = [1, 0x1_0000_0000, 0xffff_ffff_ffff_fff0];
    let rows: Vec<[u32; 4]> = v64
        .iter()
        .map(|&v| [8, v as u32, (v >> 32) as u32, 0])
        .collect();
    let rows16: Vec<[u32; 4]> = v64
        .iter()
        .map(|&v| [16, v as u32, (v >> 32) as u32, 0])
        .collect();
    let e1: u64 = 0xffff_ffff;
    let e2: u64 = 0xffff_ffff_ffff_fffe;
    let cases: Vec<(&str, &Vec<[u32; 4]>, usize, u64)> = vec![
        (
            "add.1d.u64",
            &rows,
            1,
            v64.iter().fold(e1, |a, &v| a.wrapping_add(v)),
        ),
        (
            "min.1d.u64",
            &rows,
            1,
            v64.iter().fold(e1, |a, &v| a.min(v)),
        ),
        (
            "max.1d.u64",
            &rows,
            1,
            v64.iter().fold(e1, |a, &v| a.max(v)),
        ),
        (
            "min.1d.s64",
            &rows16,
            2,
            v64.iter().fold(e2 as i64, |a, &v| a.min(v as i64)) as u64,
        ),
        (
            "max.1d.s64",
            &rows16,
            2,
            v64.iter().fold(e2 as i64, |a, &v| a.max(v as i64)) as u64,
        ),
    ];
    for (op, rs, k, want) in cases {
        let body = format!("\tmov.b64 %d0, {{%i1, %i2}};\n\tsured.b.{op}.trap [%s, {{%i0}}], %d0;");
        let r = run_surf(s64, "", &body, rs);
        assert_eq!(r.outcome, Outcome::Completed, "{op}");
        let mut w = vec![0xa, e1, e2];
        w[k] = want;
        check_eq(out(&r, "s"), w, op);
        count(1);
    }
    // 2d and 3d geometries, .zero dropping and .clamp moving the reduction
    let s2 = r#"{"type":"u32","dims":[2,2],"init":{"iota":{"start":0,"step":1}}}"#;
    let r = run_surf(
        s2,
        "",
        "\tsured.b.add.2d.u32.trap [%s, {%i0, %i1}], %i2;",
        &[[4, 1, 100, 0]],
    );
    check_eq(out(&r, "s"), vec![0, 1, 2, 103], "sured 2d");
    let r = run_surf(
        s2,
        "",
        "\tsured.b.add.2d.u32.zero [%s, {%i0, %i1}], %i2;",
        &[[8, 1, 100, 0]],
    );
    check_eq(out(&r, "s"), vec![0, 1, 2, 3], "sured .zero");
    let r = run_surf(
        s2,
        "",
        "\tsured.b.add.2d.u32.clamp [%s, {%i0, %i1}], %i2;",
        &[[8, 5, 100, 0]],
    );
    check_eq(out(&r, "s"), vec![0, 1, 2, 103], "sured .clamp");
    let s3 = r#"{"type":"u32","dims":[1,1,2]}"#;
    let r = run_surf(
        s3,
        "",
        "\tsured.b.or.3d.b32.trap [%s, {%i0, %i1, %i2, %i3}], %i3;",
        &[[0, 0, 1, 0x30]],
    );
    check_eq(out(&r, "s"), vec![0, 0x30], "sured 3d");
    count(5);
    // combinations the ISA does not define fault
    for (body, what) in [
        (
            "\tmov.b64 %d0, 0;\n\tsured.b.add.1d.s64.trap [%s, {%i0}], %d0;",
            ".s64",
        ),
        ("\tsured.b.and.1d.u32.trap [%s, {%i0}], %i1;", ".u32"),
        ("\tsured.b.min.1d.b32.trap [%s, {%i0}], %i1;", ".b32"),
    ] {
        let m = fault_message(&run_surf(s32, "", body, &[[0; 4]]).outcome);
        check_eq(
            m.contains(&format!("does not define this operation on {what}")),
            true,
            &m,
        );
        count(1);
    }
    let sa = r#"{"type":"u32","dims":[2],"layers":2}"#;
    let m = fault_message(
        &run_surf(
            sa,
            "",
            "\tsured.b.add.a1d.u32.trap [%s, {%i0, %i1}], %i1;",
            &[[0; 4]],
        )
        .outcome,
    );
    check_eq(m.contains("no array geometry"), true, &m);
}

/// `suq` (9.7.11.4): width/height/depth in elements (0 for a dimension the
/// surface lacks, as txq), channel type and order as OpenCL values (PTX
/// ISA 5.3.3 Tables 12/13: CL_UNSIGNED_INT16 0x10DB, CL_FLOAT 0x10DE,
/// CL_RG 0x10B2, CL_RGBA 0x10B5), array_size (0 when not an array);
/// memory_layout refused.
#[test]
fn suq_fields() {
    let _c = rows_of("suq_fields");
    let body = "\tsuq.width.b32 %o0, [%s];\n\tsuq.height.b32 %o1, [%s];\n\
                \tsuq.depth.b32 %o2, [%s];\n\tsuq.array_size.b32 %o3, [%s];";
    let r = run_surf(
        r#"{"type":"u16","channels":2,"dims":[5,3]}"#,
        "",
        body,
        &[[0; 4]],
    );
    expect("2d", &r, &[[5, 3, 0, 0]]);
    let r = run_surf(r#"{"type":"u8","dims":[7,6,4]}"#, "", body, &[[0; 4]]);
    expect("3d", &r, &[[7, 6, 4, 0]]);
    let r = run_surf(
        r#"{"type":"u8","dims":[9],"layers":3}"#,
        "",
        body,
        &[[0; 4]],
    );
    expect("a1d", &r, &[[9, 0, 0, 3]]);
    let body = "\tsuq.channel_data_type.b32 %o0, [%s];\n\tsuq.channel_order.b32 %o1, [%s];";
    let r = run_surf(
        r#"{"type":"u16","channels":2,"dims":[5,3]}"#,
        "",
        body,
        &[[0; 4]],
    );
    expect("u16 rg", &r, &[[0x10DB, 0x10B2, 0, 0]]);
    let r = run_surf(
        r#"{"type":"f32","channels":4,"dims":[2]}"#,
        "",
        body,
        &[[0; 4]],
    );
    expect("f32 rgba", &r, &[[0x10DE, 0x10B5, 0, 0]]);
    let m = fault_message(
        &run_surf(
            r#"{"type":"u8","dims":[2]}"#,
            "",
            "\tsuq.memory_layout.b32 %o0, [%s];",
            &[[0; 4]],
        )
        .outcome,
    );
    check_eq(m.contains("memory_layout"), true, &m);
}

/// A store then a load of other widths reads back the stored bytes
/// (little-endian), through a `.u64` handle and through a module-level
/// `.surfref` bound by name; istypep tells surfaces from textures.
#[test]
fn store_load_round_trip_and_surfref() {
    let _c = rows_of("store_load_round_trip_and_surfref");
    let s = r#"{"type":"u8","dims":[16,2]}"#;
    // v4.b16 store of 0x1111, 0x2222, 0x3333, 0x4444 at (x=8, y=1), then a
    // v2.b32 load of the same 8 bytes and a b8 load of byte 11.
    let body = "\tmov.b16 %h0, 0x1111;\n\tmov.b16 %h1, 0x2222;\n\tmov.b16 %h2, 0x3333;\n\tmov.b16 %h3, 0x4444;\n\
                \tsust.b.2d.wb.v4.b16.trap [%s, {%i0, %i1}], {%h0, %h1, %h2, %h3};\n\
                \tsuld.b.2d.v2.b32.trap {%o0, %o1}, [%s, {%i0, %i1}];\n\
                \tsuld.b.2d.b8.trap %h0, [%s, {%i2, %i1}];\n\tcvt.u32.u16 %o2, %h0;\n\
                \tistypep.surfref %p, %s;\n\tselp.u32 %o3, 1, 0, %p;";
    let r = run_surf(s, "", body, &[[8, 1, 11, 0]]);
    expect("round trip", &r, &[[0x2222_1111, 0x4444_3333, 0x22, 1]]);
    let mut want = vec![0u64; 32];
    for (k, b) in [0x11u64, 0x11, 0x22, 0x22, 0x33, 0x33, 0x44, 0x44]
        .iter()
        .enumerate()
    {
        want[16 + 8 + k] = *b;
    }
    check_eq(out(&r, "s"), want.clone(), "surface after the store");
    // the same through `.global .surfref s;`
    let body = body.replace("[%s,", "[s,");
    let r = run_surf(s, ".global .surfref s;", &body, &[[8, 1, 11, 0]]);
    expect("surfref", &r, &[[0x2222_1111, 0x4444_3333, 0x22, 1]]);
    check_eq(out(&r, "s"), want, "surfref surface");
    // stores into layers: a1d {index, x} and a2d {index, x, y, ignored};
    // u16 surfaces, element e at bytes 2e..2e+2, layer-major
    let r = run_surf(
        r#"{"type":"u16","dims":[4],"layers":3}"#,
        "",
        "\tsust.b.a1d.b32.trap [%s, {%i0, %i1}], %i2;",
        &[[2, 4, 0x0009_0008, 0]],
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let mut w = vec![0u64; 12];
    // layer 2, byte 4 = element 2*4 + 2 = 10 (low half), 11 (high half)
    w[10] = 0x0008;
    w[11] = 0x0009;
    check_eq(out(&r, "s"), w, "sust a1d");
    let r = run_surf(
        r#"{"type":"u16","dims":[2,2],"layers":2}"#,
        "",
        "\tmov.b16 %h0, 0x77;\n\tsust.b.a2d.b16.trap [%s, {%i0, %i1, %i2, %i3}], %h0;",
        &[[1, 2, 1, 0xffff_ffff]],
    );
    assert_eq!(r.outcome, Outcome::Completed);
    let mut w = vec![0u64; 8];
    // layer 1, y 1, byte 2: element (1*2 + 1)*2 + 1 = 7
    w[7] = 0x77;
    check_eq(out(&r, "s"), w, "sust a2d");
    count(2);
    // a .surfref the spec does not define
    let r = run_surf(
        s,
        ".global .surfref nope;",
        "\tsuld.b.2d.b8.trap %h0, [nope, {%i0, %i1}];",
        &[[0; 4]],
    );
    let m = fault_message(&r.outcome);
    check_eq(m.contains("0x0 is not a surface handle"), true, &m);
}

/// A surface output goes through the expected-file path like a buffer:
/// written, read back, checked against the spec and compared; a mismatch
/// names the surface and the index.
#[test]
fn surface_outputs_through_expected_files() {
    let _c = rows_of("surface_outputs_through_expected_files");
    let s = r#"{"type":"u16","dims":[4]}"#;
    let r = run_surf(
        s,
        "",
        "\tmov.b16 %h0, 0xbeef;\n\tsust.b.1d.b16.trap [%s, {%i0}], %h0;",
        &[[6, 0, 0, 0]],
    );
    assert_eq!(r.outcome, Outcome::Completed);
    // host expectation: element 3 (byte 6) is 0xbeef
    let text = "{\"buffers\": {\n  \"out\": {\"type\": \"u32\", \"bits\": [\"0x00000000\", \"0x00000000\", \"0x00000000\", \"0x00000000\"]},\n  \"s\": {\"type\": \"u16\", \"bits\": [\"0x0000\", \"0x0000\", \"0x0000\", \"0xbeef\"]}\n}}\n";
    let expected = OutputSet::from_json_str(text).unwrap();
    check_eq(expected.to_json_string(), text.to_string(), "written form");
    let spec = LaunchSpec::from_json_str(
        r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"buffer":"out"},{"buffer":"in"},{"surface":"s"}],
            "buffers":{"out":{"type":"u32","len":4},"in":{"type":"u32","len":4}},
            "surfaces":{"s":{"type":"u16","dims":[4]}},"outputs":["out","s"]}"#,
        ".",
    )
    .unwrap();
    expected.check_against(&spec).unwrap();
    check_eq(
        compare(&expected, &r.outputs, &CompareRule::default()),
        vec![],
        "no mismatch",
    );
    let bad = OutputSet::from_json_str(&text.replace("0xbeef", "0xbeee")).unwrap();
    let ms = compare(&bad, &r.outputs, &CompareRule::default());
    check_eq(ms.len(), 1, "one mismatch");
    check_eq(
        ms[0].to_string(),
        "s[3]: expected 0xbeee (48878), got 0xbeef (48879)".to_string(),
        "message",
    );
    // wrong length for the surface
    let short = OutputSet::from_json_str(&text.replace(", \"0xbeef\"", "")).unwrap();
    let e = short.check_against(&spec).unwrap_err().to_string();
    check_eq(
        e.contains("buffers.s") && e.contains("3 elements but the spec's buffer has 4"),
        true,
        &e,
    );
    // outputs missing: every buffer and surface, in name order
    let mut all = spec.clone();
    all.outputs = None;
    check_eq(
        all.output_names(),
        vec!["in", "out", "s"],
        "default outputs",
    );
    count(4);
}

fn parse(json: &str) -> Result<LaunchSpec, String> {
    LaunchSpec::from_json_str(json, std::path::Path::new(".")).map_err(|e| e.to_string())
}

/// `surfaces` and `{"surface": name}` in the launch spec: accepted values,
/// defaults, writing and reading back, and clear errors.
#[test]
fn launch_spec_surfaces() {
    let _c = rows_of("launch_spec_surfaces");
    let good = r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"surface":"b"}],
        "surfaces":{"b":{"type":"f32","channels":4,"dims":[3,2],"layers":2,"init":{"iota":{"start":1,"step":1}}},
                    "a":{"type":"u8","dims":[5]}},
        "outputs":["b"]}"#;
    let s = parse(good).unwrap();
    let b = s.surface("b").unwrap();
    check_eq(
        (
            b.channels,
            b.dims.clone(),
            b.layers,
            b.element_count(),
            b.byte_len(),
        ),
        (4, vec![3, 2], Some(2), 48, 192),
        "b",
    );
    let a = s.surface("a").unwrap();
    check_eq(
        (a.channels, a.layers, a.row_bytes()),
        (1, None, 5),
        "a defaults",
    );
    check_eq(
        s.surface_handle("a"),
        Some(0x8000_0000_8000_0000),
        "handle a",
    );
    check_eq(
        s.surface_handle("b"),
        Some(0x8000_0000_8000_0001),
        "handle b",
    );
    check_eq(
        LaunchSpec::from_json_str(&s.to_json_string(), ".").unwrap(),
        s.clone(),
        "round trip",
    );
    let base = r#"{"kernel":"k","grid":[1],"block":[1],"buffers":{"y":{"type":"u8","len":1}},"surfaces":{"t":SURF}}"#;
    let bad: &[(&str, &str)] = &[
        (r#"{"dims":[4]}"#, "surfaces.t: missing field 'type'"),
        (r#"{"type":"u8"}"#, "surfaces.t: missing field 'dims'"),
        (r#"{"type":"u8","dims":[4],"channels":3}"#, "surfaces.t.channels: expected 1, 2 or 4 channels, found 3"),
        (r#"{"type":"u8","dims":[4],"layers":0}"#, "surfaces.t.layers: a layered surface needs at least 1 layer"),
        (r#"{"type":"u8","dims":[4,2,2],"layers":2}"#, "surfaces.t.layers: layered surfaces have 1 or 2 dimensions (.a1d, .a2d), found 3 in dims"),
        (r#"{"type":"u8","dims":[4],"layers":2,"init":{"values":[1,2,3,4]}}"#, "surfaces.t.init.values: expected 8 numbers, found 4"),
        (r#"{"type":"u8","dims":[4],"filter":"point"}"#, "surfaces.t: unknown field 'filter' (fields of surfaces.t: type, channels, dims, layers, init)"),
        (r#"{"type":"u9","dims":[4]}"#, "surfaces.t.type: unknown type"),
        (r#"{"type":"u8","dims":[0]}"#, "surfaces.t.dims"),
    ];
    for &(surf, want) in bad {
        let e = parse(&base.replace("SURF", surf)).unwrap_err();
        check_eq(e.contains(want), true, &format!("{e}\n  wanted: {want}"));
        count(1);
    }
    let clash = r#"{"kernel":"k","grid":[1],"block":[1],"buffers":{"y":{"type":"u8","len":1}},"surfaces":{"y":{"type":"u8","dims":[1]}}}"#;
    let e = parse(clash).unwrap_err();
    check_eq(
        e.contains("surfaces.y: 'y' is already a buffer's name"),
        true,
        &e,
    );
    let e =
        parse(r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"surface":"q"}]}"#).unwrap_err();
    check_eq(e.contains("params[0]: unknown surface 'q'"), true, &e);
    let e = parse(r#"{"kernel":"k","grid":[1],"block":[1],"params":[{"surface":"q","offset":1}],"surfaces":{"q":{"type":"u8","dims":[1]}}}"#).unwrap_err();
    check_eq(e.contains("unknown field 'offset'"), true, &e);
    let e = parse(r#"{"kernel":"k","grid":[1],"block":[1],"outputs":["q"]}"#).unwrap_err();
    check_eq(
        e.contains("outputs[0]: unknown buffer or surface 'q'"),
        true,
        &e,
    );
    let e = parse(r#"{"kernel":"k","grid":[1],"block":[1],"surfaces":[]}"#).unwrap_err();
    check_eq(e.contains("surfaces"), true, &e);
    count(5);
}

/// Surfaces are global memory: two threads storing to one surface byte
/// with nothing ordering them race (undefined behaviour, reported), as do a
/// store and another thread's load; `bar.sync` between them orders them;
/// `sured` (atomic) does not race with `sured`; threads on different
/// locations never race. Row k is thread k: `%i0` its x in bytes.
#[test]
fn surface_accesses_take_part_in_race_detection() {
    let _c = rows_of("surface_accesses_take_part_in_race_detection");
    let s = r#"{"type":"u32","dims":[8]}"#;
    let race = |r: &RunResult| {
        matches!(
            r.outcome,
            Outcome::Ub {
                kind: oracle::ptx_interp::UbKind::DataRace { .. },
                ..
            }
        )
    };
    let same = [[0u32; 4], [0, 0, 0, 0]];
    let apart = [[0u32; 4], [4, 0, 0, 0]];
    let store = "\tsust.b.1d.b32.trap [%s, {%i0}], {%tx};";
    let store_load = "\t@%p sust.b.1d.b32.trap [%s, {%i0}], {%tx};\n\
                      \t@!%p suld.b.1d.b32.trap {%o0}, [%s, {%i0}];";
    let pred = "\tsetp.eq.u32 %p, %tx, 0;\n";
    let r = run_surf(s, "", store, &same);
    check_eq(race(&r), true, &format!("two stores: {:?}", r.outcome));
    let r = run_surf(s, "", &format!("{pred}{store_load}"), &same);
    check_eq(race(&r), true, &format!("store and load: {:?}", r.outcome));
    let r = run_surf(s, "", store, &apart);
    check_eq(r.outcome, Outcome::Completed, "different locations");
    let ordered = format!(
        "{pred}\t@%p sust.b.1d.b32.trap [%s, {{%i0}}], {{%tx}};\n\tbar.sync 0;\n\
         \t@!%p suld.b.1d.b32.trap {{%o0}}, [%s, {{%i0}}];"
    );
    let r = run_surf(s, "", &ordered, &same);
    check_eq(r.outcome, Outcome::Completed, "ordered by bar.sync");
    let red = "\tsured.b.add.1d.u32.trap [%s, {%i0}], %tx;";
    let r = run_surf(s, "", red, &same);
    check_eq(r.outcome, Outcome::Completed, "sured with sured");
    let r = run_surf(
        s,
        "",
        &format!("{red}\n\tsuld.b.1d.b32.trap {{%o0}}, [%s, {{%i0}}];"),
        &same,
    );
    check_eq(
        race(&r),
        true,
        &format!("sured then another thread's load: {:?}", r.outcome),
    );
}
